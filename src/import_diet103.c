/*
 * diet103 skill-rules.json as YAML: the rules skillrules.c builds from the
 * file, written out (keep the two in step):
 *
 *   promptTriggers -> NAME: suggest on UserPromptSubmit; keywords as
 *                     {keywords} (case-insensitive substrings),
 *                     intentPatterns as {regex, ignore_case: true}
 *   guardrail+block -> NAME-guard: deny on PreToolUse Edit/Write/MultiEdit;
 *                     pathPatterns and contentPatterns in when;
 *                     pathExclusions, fileMarkers, envOverride in unless;
 *                     sessionSkillUsed as once: session; blockMessage
 *                     with its first {file_path} as {{path}}
 *
 * A skill with a problem skillrules.c would reject (a bad regex or glob,
 * a field of the wrong type) is reported and left out, as there.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "glob.h"
#include "import.h"
#include "match_re.h"
#include "xmalloc.h"
#include "yamlw.h"

struct jctx {
	const char		*file;
	struct diag_list	*diags;
	size_t			 errors;
	const char		*skill;
};

static void
jerr(struct jctx *jx, const char *what, const char *detail)
{
	struct diag_loc	loc;

	memset(&loc, 0, sizeof(loc));
	loc.file = jx->file;
	diag_add(jx->diags, DIAG_ERROR, DIAG_import, &loc,
	    "skills.%s.%s: %s; the rule is left out", jx->skill, what,
	    detail);
	jx->errors++;
}

/* The strings of a JSON array, checked as regexes or globs; NULL = bad. */
static const char **
strings_of(struct jctx *jx, const cJSON *a, const char *what, int kind,
    size_t *n)
{
	const cJSON	*it;
	const char	**v, *gerr;
	char		 errbuf[256], *msg;
	size_t		 off;
	struct rr_regex	*re;
	struct rr_glob	*g;

	*n = 0;
	if (!cJSON_IsArray(a)) {
		jerr(jx, what, "must be a list of strings");
		return NULL;
	}
	v = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof(*v));
	cJSON_ArrayForEach(it, a) {
		if (!cJSON_IsString(it)) {
			jerr(jx, what, "must be a list of strings");
			free(v);
			return NULL;
		}
		if (kind == 'r') {
			re = rr_regex_compile(it->valuestring,
			    strlen(it->valuestring), RR_RE_IGNORE_CASE, &off,
			    errbuf, sizeof(errbuf));
			if (re == NULL) {
				msg = xasprintf("invalid regex '%s': %s at "
				    "offset %zu", it->valuestring, errbuf, off);
				jerr(jx, what, msg);
				free(msg);
				free(v);
				return NULL;
			}
			rr_regex_free(re);
		} else if (kind == 'g') {
			g = rr_glob_compile(it->valuestring,
			    strlen(it->valuestring), &gerr, &off);
			if (g == NULL) {
				msg = xasprintf("invalid glob '%s': %s",
				    it->valuestring, gerr);
				jerr(jx, what, msg);
				free(msg);
				free(v);
				return NULL;
			}
			rr_glob_free(g);
		}
		v[(*n)++] = it->valuestring;
	}
	return v;
}

static const char *
priority_of(struct jctx *jx, const cJSON *skill)
{
	static const char *const names[] = {
		"critical", "high", "medium", "low", NULL
	};
	const cJSON	*p = cJSON_GetObjectItemCaseSensitive(skill, "priority");
	size_t		 i;

	if (p == NULL)
		return "medium";
	for (i = 0; cJSON_IsString(p) && names[i]; i++)
		if (strcmp(p->valuestring, names[i]) == 0)
			return names[i];
	jerr(jx, "priority", "must be critical, high, medium or low");
	return NULL;
}

/* "    key: [a, b]\n" */
static void
list_line(struct buf *b, int indent, const char *key, const char **v,
    size_t n)
{
	buf_printf(b, "%*s%s: ", indent, "", key);
	yamlw_flow_list(b, v, n);
	buf_addc(b, '\n');
}

static void
rule_head(struct buf *b, const char *id, const cJSON *skill,
    const char *name)
{
	const cJSON	*d = cJSON_GetObjectItemCaseSensitive(skill,
	    "description");

	buf_adds(b, "\n  - id: ");
	yamlw_cstr(b, id);
	buf_addc(b, '\n');
	if (cJSON_IsString(d)) {
		buf_adds(b, "    description:");
		yamlw_text(b, d->valuestring, strlen(d->valuestring), 4);
	}
	buf_adds(b, "    skill: ");
	yamlw_cstr(b, name);
	buf_addc(b, '\n');
}

/* promptTriggers: returns 1 when a rule was written, 0, or -1. */
static int
suggest_rule(struct jctx *jx, struct import_ids *ids, const cJSON *skill,
    const char *name, struct buf *out)
{
	const cJSON	*pt = cJSON_GetObjectItemCaseSensitive(skill,
	    "promptTriggers"), *kw, *ip;
	const char	**kws = NULL, **ips = NULL, *pri;
	size_t		 nkw = 0, nip = 0, before = jx->errors;
	char		*id;
	struct buf	 b;

	if (pt == NULL)
		return 0;
	if (!cJSON_IsObject(pt)) {
		jerr(jx, "promptTriggers", "must be an object");
		return -1;
	}
	pri = priority_of(jx, skill);
	kw = cJSON_GetObjectItemCaseSensitive(pt, "keywords");
	ip = cJSON_GetObjectItemCaseSensitive(pt, "intentPatterns");
	if (kw != NULL)
		kws = strings_of(jx, kw, "promptTriggers.keywords", 's', &nkw);
	if (ip != NULL)
		ips = strings_of(jx, ip, "promptTriggers.intentPatterns", 'r',
		    &nip);
	if (jx->errors != before || nkw + nip == 0) {
		free(kws);
		free(ips);
		return jx->errors != before ? -1 : 0;
	}
	buf_init(&b);
	id = import_unique_id(ids, name);
	rule_head(&b, id, skill, name);
	buf_printf(&b, "    on: UserPromptSubmit\n    priority: %s\n", pri);
	buf_adds(&b, "    when:\n      any:\n");
	if (nkw > 0) {
		buf_adds(&b, "        - prompt:\n");
		list_line(&b, 12, "keywords", kws, nkw);
	}
	if (nip > 0) {
		buf_adds(&b, "        - prompt:\n");
		list_line(&b, 12, "regex", ips, nip);
		buf_adds(&b, "            ignore_case: true\n");
	}
	buf_adds(&b, "    action: suggest\n");
	buf_add(out, b.data, b.len);
	buf_release(&b);
	free(id);
	free(kws);
	free(ips);
	return 1;
}

/*
 * blockMessage as a template: its first {file_path} is {{path}} (a JS
 * replace with a string changes the first only), any "{{" is literal.
 * An odd run of '{' just before it ends in {{lbrace}}: a bare '{' there
 * would make "{{{path}}", a tag named "{path".
 */
static char *
block_message(struct jctx *jx, const cJSON *skill)
{
	const cJSON	*bm = cJSON_GetObjectItemCaseSensitive(skill,
	    "blockMessage");
	const char	*msg, *at;
	char		*before, *after, *r;
	size_t		 run, head;

	if (bm == NULL)
		return xstrdup("\xe2\x9a\xa0\xef\xb8\x8f BLOCKED - {{skill}} "
		    "required");
	if (!cJSON_IsString(bm)) {
		jerr(jx, "blockMessage", "must be a string");
		return NULL;
	}
	msg = bm->valuestring;
	at = strstr(msg, "{file_path}");
	if (at == NULL)
		return import_template_text(msg, strlen(msg), NULL);
	head = (size_t)(at - msg);
	for (run = 0; run < head && msg[head - run - 1] == '{'; run++)
		;
	if (run % 2 == 1)
		head--;
	before = import_template_text(msg, head, NULL);
	at += strlen("{file_path}");
	after = import_template_text(at, strlen(at), NULL);
	r = xasprintf("%s%s{{path}}%s", before, run % 2 == 1 ?
	    "{{lbrace}}" : "", after);
	free(before);
	free(after);
	return r;
}

static int
guard_rule(struct jctx *jx, struct import_ids *ids, const cJSON *skill,
    const char *name, struct buf *out)
{
	const cJSON	*ft = cJSON_GetObjectItemCaseSensitive(skill,
	    "fileTriggers"), *sk, *v;
	const char	**paths = NULL, **content = NULL, **excl = NULL;
	const char	**markers = NULL, *env = NULL, *pri;
	size_t		 np = 0, nc = 0, nx = 0, nm = 0, before = jx->errors;
	char		*id, *msg = NULL, *guard_name;
	bool		 once = false;
	struct buf	 b;
	int		 rc = -1;

	if (!cJSON_IsObject(ft)) {
		jerr(jx, "fileTriggers", "a blocking guardrail needs it");
		return -1;
	}
	pri = priority_of(jx, skill);
	v = cJSON_GetObjectItemCaseSensitive(ft, "pathPatterns");
	if (v == NULL)
		jerr(jx, "fileTriggers.pathPatterns", "is required");
	else
		paths = strings_of(jx, v, "fileTriggers.pathPatterns", 'g',
		    &np);
	if ((v = cJSON_GetObjectItemCaseSensitive(ft, "contentPatterns")))
		content = strings_of(jx, v, "fileTriggers.contentPatterns", 'r',
		    &nc);
	if ((v = cJSON_GetObjectItemCaseSensitive(ft, "pathExclusions")))
		excl = strings_of(jx, v, "fileTriggers.pathExclusions", 'g',
		    &nx);
	sk = cJSON_GetObjectItemCaseSensitive(skill, "skipConditions");
	if (sk != NULL && !cJSON_IsObject(sk))
		jerr(jx, "skipConditions", "must be an object");
	else if (sk != NULL) {
		if ((v = cJSON_GetObjectItemCaseSensitive(sk, "fileMarkers")))
			markers = strings_of(jx, v,
			    "skipConditions.fileMarkers", 's', &nm);
		v = cJSON_GetObjectItemCaseSensitive(sk, "envOverride");
		if (v != NULL && !cJSON_IsString(v))
			jerr(jx, "skipConditions.envOverride",
			    "must be a string");
		else if (v != NULL)
			env = v->valuestring;
		once = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sk,
		    "sessionSkillUsed"));
	}
	msg = block_message(jx, skill);
	if (jx->errors != before || np == 0)
		goto out;
	buf_init(&b);
	guard_name = xasprintf("%s-guard", name);
	id = import_unique_id(ids, guard_name);
	rule_head(&b, id, skill, name);
	buf_printf(&b, "    on: PreToolUse\n    tools: [Edit, Write, "
	    "MultiEdit]\n    priority: %s\n    when:\n", pri);
	list_line(&b, 6, "path", paths, np);
	if (nc > 0) {
		buf_adds(&b, "      content:\n");
		list_line(&b, 8, "regex", content, nc);
		buf_adds(&b, "        ignore_case: true\n");
	}
	if (nx + nm > 0 || env != NULL) {
		buf_adds(&b, "    unless:\n");
		if (nx > 0)
			list_line(&b, 6, "path", excl, nx);
		if (nm > 0)
			list_line(&b, 6, "file_contains", markers, nm);
		if (env != NULL)
			list_line(&b, 6, "env", &env, 1);
	}
	if (once)
		buf_adds(&b, "    once: session\n");
	buf_adds(&b, "    action: deny\n    message:");
	yamlw_text(&b, msg, strlen(msg), 4);
	buf_add(out, b.data, b.len);
	buf_release(&b);
	free(id);
	free(guard_name);
	rc = 1;
out:
	free(msg);
	free(paths);
	free(content);
	free(excl);
	free(markers);
	return rc;
}

int
import_skill_rules(const char *file, const char *text, size_t len,
    struct import_ids *ids, struct buf *out, struct diag_list *diags)
{
	struct jctx	 jx;
	struct diag_loc	 loc;
	cJSON		*root;
	const cJSON	*skills, *skill, *type, *enf;
	int		 n = 0, r;

	memset(&jx, 0, sizeof(jx));
	jx.file = file;
	jx.diags = diags;
	memset(&loc, 0, sizeof(loc));
	loc.file = file;
	root = cJSON_ParseWithLength(text, len);
	if (root == NULL) {
		diag_add(diags, DIAG_ERROR, DIAG_import, &loc,
		    "not valid JSON");
		return -1;
	}
	skills = cJSON_GetObjectItemCaseSensitive(root, "skills");
	if (!cJSON_IsObject(skills)) {
		diag_add(diags, DIAG_ERROR, DIAG_import, &loc,
		    "a skill-rules.json needs a \"skills\" object");
		cJSON_Delete(root);
		return -1;
	}
	cJSON_ArrayForEach(skill, skills) {
		jx.skill = skill->string;
		if (!cJSON_IsObject(skill)) {
			jerr(&jx, "", "must be an object");
			continue;
		}
		if ((r = suggest_rule(&jx, ids, skill, skill->string, out)) > 0)
			n += r;
		type = cJSON_GetObjectItemCaseSensitive(skill, "type");
		enf = cJSON_GetObjectItemCaseSensitive(skill, "enforcement");
		if (cJSON_IsString(type) && cJSON_IsString(enf) &&
		    strcmp(type->valuestring, "guardrail") == 0 &&
		    strcmp(enf->valuestring, "block") == 0 &&
		    (r = guard_rule(&jx, ids, skill, skill->string, out)) > 0)
			n += r;
	}
	cJSON_Delete(root);
	return n;
}
