/*
 * The rule model's lifetime: a struct ruleset (rule.h) is created,
 * filled by the compiler or the cache reader, and released here.  Nothing
 * here compiles or evaluates: the compiler (compile_*.c), the cache
 * (cache*.c) and the evaluator (eval*.c) all build on this file, never the
 * other way round.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>

#include "glob.h"
#include "jsoncheck.h"
#include "match_re.h"
#include "pathtpl.h"
#include "rule.h"
#include "xmalloc.h"

const char *const action_names[ACT__COUNT] = {
	[ACT_DENY] = "deny", [ACT_ASK] = "ask", [ACT_ALLOW] = "allow",
	[ACT_CONTEXT] = "context", [ACT_SUGGEST] = "suggest",
	[ACT_WARN] = "warn", [ACT_RECORD] = "record",
};

const char *const priority_names[PRI__COUNT] = {
	"critical", "high", "medium", "low"
};


void
ruleset_init(struct ruleset *rs)
{
	memset(rs, 0, sizeof(*rs));
	arena_init(&rs->arena);
}

void
ruleset_release(struct ruleset *rs)
{
	size_t	i;

	for (i = 0; i < rs->nregexes; i++)
		rr_regex_free(rs->regexes[i]);
	for (i = 0; i < rs->nglobs; i++)
		rr_glob_free(rs->globs[i]);
	for (i = 0; i < rs->njsons; i++)
		cJSON_Delete(rs->jsons[i]);
	free(rs->regexes);
	free(rs->globs);
	free(rs->jsons);
	if (rs->rules_mapped)
		munmap(rs->rules, rs->cap * sizeof(*rs->rules));
	else
		free(rs->rules);
	free(rs->id_index);
	free(rs->left_out);
	free(rs->left_index);
	free(rs->files);
	free(rs->fc_files);
	if (rs->pf_owned)
		free((void *)rs->pf);
	if (rs->lazy != NULL)
		rs->lazy->free(rs->lazy);
	arena_release(&rs->arena);
	memset(rs, 0, sizeof(*rs));
}

struct rule *
ruleset_rule(const struct ruleset *rs, size_t i)
{
	if (i >= rs->n)
		return NULL;
	/* The array is not const: decoding fills it in. */
	if (rs->rules[i] == NULL && rs->lazy != NULL)
		rs->rules[i] = rs->lazy->rule(rs->lazy, i);
	return rs->rules[i];
}

#define GROW(arr, n, cap) do {						\
	if ((n) == (cap)) {						\
		(cap) = (cap) ? (cap) * 2 : 16;				\
		(arr) = xreallocarray((arr), (cap), sizeof(*(arr)));	\
	}								\
} while (0)

void
ruleset_own_regex(struct ruleset *rs, struct rr_regex *re)
{
	GROW(rs->regexes, rs->nregexes, rs->regexes_cap);
	rs->regexes[rs->nregexes++] = re;
}

void
ruleset_own_glob(struct ruleset *rs, struct rr_glob *g)
{
	GROW(rs->globs, rs->nglobs, rs->globs_cap);
	rs->globs[rs->nglobs++] = g;
}

void
ruleset_own_json(struct ruleset *rs, cJSON *j)
{
	GROW(rs->jsons, rs->njsons, rs->jsons_cap);
	rs->jsons[rs->njsons++] = j;
}

const char *
ruleset_intern_file(struct ruleset *rs, const char *file)
{
	size_t	i;

	for (i = 0; i < rs->nfiles; i++)
		if (strcmp(rs->files[i], file) == 0)
			return rs->files[i];
	GROW(rs->files, rs->nfiles, rs->files_cap);
	rs->files[rs->nfiles] = arena_strdup(&rs->arena, file);
	return rs->files[rs->nfiles++];
}

void
ruleset_add_fail_closed(struct ruleset *rs, const char *file,
    unsigned events, size_t errors)
{
	struct fail_closed_file	*f;

	GROW(rs->fc_files, rs->nfc_files, rs->fc_files_cap);
	f = &rs->fc_files[rs->nfc_files++];
	f->file = ruleset_intern_file(rs, file);
	f->events = events;
	f->errors = errors;
}

struct rule *
ruleset_new_rule(struct ruleset *rs)
{
	struct rule	*r = arena_alloc(&rs->arena, sizeof(*r));

	r->priority = PRI_MEDIUM;
	r->enabled = true;
	r->action = ACT_NONE;
	return r;
}

static size_t
id_hash(const char *s)
{
	size_t	h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/*
 * Slot of id in an index of rules (slots hold index + 1, so 0 is empty):
 * its rule, or the empty slot where it goes.
 */
static size_t *
id_slot(size_t *index, size_t cap, struct rule *const *rules, const char *id)
{
	size_t	mask = cap - 1, i = id_hash(id) & mask;

	while (index[i] != 0 && strcmp(rules[index[i] - 1]->id, id) != 0)
		i = (i + 1) & mask;
	return &index[i];
}

/* Keeps the load factor under one half, so lookups stay O(1). */
static void
id_index_grow(size_t **index, size_t *cap, struct rule *const *rules,
    size_t n)
{
	size_t	i;

	if (*cap > 2 * (n + 1))
		return;
	free(*index);
	*cap = *cap ? *cap * 2 : 64;
	*index = xcalloc(*cap, sizeof(**index));
	for (i = 0; i < n; i++)
		*id_slot(*index, *cap, rules, rules[i]->id) = i + 1;
}

const struct rule *
ruleset_same_id(const struct ruleset *rs, const struct rule *r, int layer)
{
	size_t	i;

	if (rs->id_index_cap > 0 && (i = *id_slot(rs->id_index,
	    rs->id_index_cap, rs->rules, r->id)) != 0 &&
	    rs->rules[i - 1]->layer == layer)
		return rs->rules[i - 1];
	if (rs->left_index_cap > 0 && (i = *id_slot(rs->left_index,
	    rs->left_index_cap, rs->left_out, r->id)) != 0 &&
	    rs->left_out[i - 1]->layer == layer)
		return rs->left_out[i - 1];
	return NULL;
}

const struct rule *
ruleset_find(const struct ruleset *rs, const char *id)
{
	size_t	i;

	if (rs->id_index_cap > 0 && (i = *id_slot(rs->id_index,
	    rs->id_index_cap, rs->rules, id)) != 0)
		return rs->rules[i - 1];
	if (rs->left_index_cap > 0 && (i = *id_slot(rs->left_index,
	    rs->left_index_cap, rs->left_out, id)) != 0)
		return rs->left_out[i - 1];
	return NULL;
}

enum rr_trust
layer_trust(int layer)
{
	switch (layer) {
	case LAYER_SYSTEM:
		return TRUST_SYSTEM;
	case LAYER_PROJECT:
	case LAYER_SKILL_RULES:
		return TRUST_PROJECT;
	case LAYER_LOCAL:
		return TRUST_LOCAL;
	default:
		/* The packs, pinned sources, the user's rules and --rules. */
		return TRUST_USER;
	}
}

const char *
layer_name(int layer)
{
	switch (layer) {
	case LAYER_SYSTEM:
		return "system";
	case LAYER_PACK:
		return "pack";
	case LAYER_PINNED:
		return "pinned";
	case LAYER_USER:
		return "user";
	case LAYER_PROJECT:
		return "project";
	case LAYER_SKILL_RULES:
		return "skill-rules";
	case LAYER_LOCAL:
		return "local";
	case LAYER_CLI:
		return "--rules";
	}
	return "?";
}

const char *
trust_name(enum rr_trust t)
{
	switch (t) {
	case TRUST_SYSTEM:
		return "the system's";
	case TRUST_USER:
		return "the user's";
	case TRUST_PROJECT:
		return "the project's";
	case TRUST_LOCAL:
		return "the local";
	}
	return "?";
}

/*
 * Whether r, of layer, may take the place of the rule that has its id:
 * reports at loc why not, a duplicate or a refused override.
 */
static int
check_same_id(const struct ruleset *rs, const struct rule *r, int layer,
    struct diag_list *diags, const struct diag_loc *loc)
{
	const struct rule	*first = ruleset_same_id(rs, r, layer);
	struct diag		*d;

	if (first != NULL) {
		diag_add(diags, DIAG_ERROR, DIAG_duplicate_id, loc,
		    "duplicate rule id '%s' (first defined at %s:%d)", r->id,
		    first->file, first->line);
		return -1;
	}
	first = ruleset_find(rs, r->id);
	if (first == NULL || layer_trust(first->layer) >= layer_trust(layer) ||
	    (first->overridable && !first->locked))
		return 0;
	d = diag_add(diags, DIAG_ERROR, DIAG_refused_override, loc,
	    "rule '%s' of %s rules (%s:%d) is %s: %s rules may not replace "
	    "or disable it, and it stays in force", r->id,
	    trust_name(layer_trust(first->layer)), first->file, first->line,
	    first->locked ? "locked" : "not overridable",
	    trust_name(layer_trust(layer)));
	diag_set_hint(d, "%s", first->locked ? "add a rule with an id of "
	    "its own; a locked rule cannot be overridden" : "add a rule "
	    "with an id of its own, or ask for 'overridable: true' on that "
	    "rule");
	return -1;
}

int
ruleset_commit_rule(struct ruleset *rs, struct rule *r, int layer,
    struct diag_list *diags, const struct diag_loc *loc)
{
	size_t	*slot, i;

	r->layer = layer;
	if (check_same_id(rs, r, layer, diags, loc) < 0)
		return -1;
	id_index_grow(&rs->id_index, &rs->id_index_cap, rs->rules, rs->n);
	slot = id_slot(rs->id_index, rs->id_index_cap, rs->rules, r->id);
	if (*slot != 0) {
		/* A later layer overrides an earlier one by id. */
		i = *slot - 1;
		r->order = rs->rules[i]->order;
		rs->rules[i] = r;
		return 0;
	}
	GROW(rs->rules, rs->n, rs->cap);
	r->order = rs->n;
	rs->rules[rs->n++] = r;
	*slot = rs->n;
	return 0;
}

const struct template *
rule_text_for(const struct template *def, const struct rule_message *v,
    size_t n, const char *lang)
{
	size_t	i, k;

	if (lang == NULL || *lang == '\0' || n == 0)
		return def;
	for (i = 0; i < n; i++)
		if (strcmp(v[i].lang, lang) == 0)
			return v[i].tpl;
	k = strcspn(lang, "-");
	for (i = 0; i < n; i++)
		if (strncmp(v[i].lang, lang, k) == 0 && (v[i].lang[k] == '\0' ||
		    v[i].lang[k] == '-'))
			return v[i].tpl;
	return def;
}

void
record_opts_default(struct record_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->retention_days = RECORD_RETENTION_DAYS;
	o->max_output = RECORD_MAX_OUTPUT;
	o->head_lines = RECORD_HEAD_LINES;
	o->tail_lines = RECORD_TAIL_LINES;
	o->redact_defaults = true;
	o->detect_errors = true;
	o->collapse_reads = true;
	o->max_chars = RECORD_MAX_CHARS;
}

/* A matcher's json names {{block}} in a key. */
static bool
matcher_per_block(const struct matcher *m)
{
	return m->kind == M_JSON && m->json != NULL &&
	    json_spec_uses(m->json, "block");
}

static bool
mark(struct cond *c, int depth)
{
	struct blocks_spec	*b;
	size_t			 i;
	bool			 dep = false;

	if (c == NULL || depth > 256)
		return false;
	for (i = 0; i < c->nkids; i++)
		if (mark(c->kids[i], depth + 1))
			dep = true;
	switch (c->kind) {
	case C_BLOCK_PART:
	case C_LISTED:
		dep = true;
		break;
	case C_RELATED:
		dep = (c->related->uses & PV_BIT(PV_BLOCK)) ||
		    (!c->related->exists && matcher_per_block(&c->related->m));
		break;
	case C_TEXT:
		dep = matcher_per_block(&c->m);
		break;
	case C_SECTIONS:
		for (i = 0; i < c->sections->ntags; i++)
			if (mark(c->sections->tags[i].when, depth + 1))
				dep = true;
		break;
	case C_BLOCKS:
		/* Its own blocks: the maps inside depend on them. */
		b = c->blocks;
		mark(b->when, depth + 1);
		mark(b->unless, depth + 1);
		mark(b->test, depth + 1);
		break;
	default:
		break;
	}
	c->per_block = dep;
	return dep;
}

void
cond_mark(struct cond *c)
{
	mark(c, 0);
}

void
ruleset_leave_out(struct ruleset *rs, struct rule *r, int layer)
{
	size_t	*slot;

	r->layer = layer;
	id_index_grow(&rs->left_index, &rs->left_index_cap, rs->left_out,
	    rs->nleft_out);
	slot = id_slot(rs->left_index, rs->left_index_cap, rs->left_out,
	    r->id);
	if (*slot == 0) {
		/* The first of an id is the one later duplicates name. */
		GROW(rs->left_out, rs->nleft_out, rs->left_out_cap);
		rs->left_out[rs->nleft_out++] = r;
		*slot = rs->nleft_out;
	} else if (rs->left_out[*slot - 1]->layer != layer)
		rs->left_out[*slot - 1] = r;
}
