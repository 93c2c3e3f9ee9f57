#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "template.h"
#include "xmalloc.h"

const char *const tpl_var_names[V__COUNT] = {
	[V_PATH] = "path",
	[V_FILE_PATH] = "file_path",
	[V_ABS_PATH] = "abs_path",
	[V_COMMAND] = "command",
	[V_TOOL] = "tool",
	[V_EVENT] = "event",
	[V_RULE] = "rule",
	[V_SKILL] = "skill",
	[V_DESCRIPTION] = "description",
	[V_MATCH] = "match",
	[V_PROMPT] = "prompt",
	[V_MESSAGE] = "message",
	[V_ERROR] = "error",
	[V_CWD] = "cwd",
	[V_SESSION_ID] = "session_id",
	[V_INPUT] = "input",
	[V_ENV] = "env",
	[V_MISSING] = "missing",
	[V_SECTIONS] = "sections",
	[V_KEYWORDS] = "keywords",
	[V_LBRACES] = "lbraces",
};

static void
push(struct arena *a, struct template *t, struct tpl_seg *seg)
{
	struct tpl_seg	*segs;

	/* Templates are short; growing by copy keeps everything in the arena. */
	segs = arena_alloc(a, (t->n + 1) * sizeof(*segs));
	if (t->n)
		memcpy(segs, t->segs, t->n * sizeof(*segs));
	segs[t->n++] = *seg;
	t->segs = segs;
}

void
tpl_add_literal(struct arena *a, struct template *t, const char *s,
    size_t len)
{
	struct tpl_seg	seg = { TPL_LITERAL, NULL, len, V__COUNT };

	if (len == 0)
		return;
	seg.text = arena_strndup(a, s, len);
	push(a, t, &seg);
}

void
tpl_add_var(struct arena *a, struct template *t, enum tpl_var v)
{
	struct tpl_seg	seg = { TPL_VAR, NULL, 0, v };

	push(a, t, &seg);
}

static int
is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

int
tpl_compile(struct arena *a, const char *src, size_t len, struct template *t,
    char **errmsg, size_t *erroff)
{
	const char	*p = src, *end = src + len, *open, *close, *ns, *ne;
	struct tpl_seg	 seg;
	size_t		 nlen, i;
	int		 v;

	memset(t, 0, sizeof(*t));
	t->src = arena_strndup(a, src, len);
	while (p < end) {
		open = memmem(p, (size_t)(end - p), "{{", 2);
		if (open == NULL) {
			tpl_add_literal(a, t, p, (size_t)(end - p));
			break;
		}
		tpl_add_literal(a, t, p, (size_t)(open - p));
		close = memmem(open + 2, (size_t)(end - open - 2), "}}", 2);
		if (close == NULL) {
			*errmsg = xstrdup("unterminated '{{' in message");
			*erroff = (size_t)(open - src);
			return -1;
		}
		ns = open + 2;
		ne = close;
		while (ns < ne && (*ns == ' ' || *ns == '\t'))
			ns++;
		while (ne > ns && (ne[-1] == ' ' || ne[-1] == '\t'))
			ne--;
		nlen = (size_t)(ne - ns);
		for (i = 0; i < nlen; i++)
			if (!is_key_char(ns[i]))
				break;
		v = -1;
		memset(&seg, 0, sizeof(seg));
		seg.kind = TPL_VAR;
		if (i == nlen && nlen > 0) {
			for (v = 0; v < V__COUNT; v++) {
				size_t vl = strlen(tpl_var_names[v]);
				if (v == V_INPUT || v == V_ENV) {
					if (nlen > vl + 1 &&
					    memcmp(ns, tpl_var_names[v], vl) == 0 &&
					    ns[vl] == '.') {
						seg.text = arena_strndup(a,
						    ns + vl + 1, nlen - vl - 1);
						seg.len = nlen - vl - 1;
						break;
					}
				} else if (vl == nlen &&
				    memcmp(ns, tpl_var_names[v], nlen) == 0)
					break;
			}
		}
		if (v < 0 || v == V__COUNT) {
			*errmsg = xasprintf("unknown template variable '%.*s'",
			    (int)(close - open - 2), open + 2);
			*erroff = (size_t)(open - src);
			return -1;
		}
		seg.var = (enum tpl_var)v;
		push(a, t, &seg);
		p = close + 2;
	}
	return 0;
}

static void
add_text(struct buf *b, const char *s, size_t len)
{
	if (s != NULL)
		buf_add(b, s, len);
}

static void
add_cstr(struct buf *b, const char *s)
{
	if (s != NULL)
		buf_adds(b, s);
}

void
tpl_render(const struct template *t, const struct tpl_ctx *c,
    struct buf *out)
{
	const struct tpl_seg	*s;
	struct rr_event		*ev = c->ev;
	struct rr_text		 txt;
	size_t			 i;

	for (i = 0; i < t->n; i++) {
		s = &t->segs[i];
		if (s->kind == TPL_LITERAL) {
			buf_add(out, s->text, s->len);
			continue;
		}
		switch (s->var) {
		case V_RULE:
			add_cstr(out, c->rule_id);
			continue;
		case V_SKILL:
			add_cstr(out, c->skill);
			continue;
		case V_DESCRIPTION:
			add_cstr(out, c->description);
			continue;
		case V_MATCH:
			add_text(out, c->match, c->match_len);
			continue;
		case V_ENV:
			add_cstr(out, getenv(s->text));
			continue;
		case V_MISSING:
			add_cstr(out, c->missing);
			continue;
		case V_SECTIONS:
			add_cstr(out, c->sections);
			continue;
		case V_KEYWORDS:
			add_cstr(out, c->keywords);
			continue;
		case V_LBRACES:
			buf_adds(out, "{{");
			continue;
		default:
			break;
		}
		if (ev == NULL)
			continue;
		switch (s->var) {
		case V_PATH:
			add_cstr(out, ev->rel_path);
			break;
		case V_FILE_PATH:
			add_text(out, ev->f[F_PATH].s, ev->f[F_PATH].len);
			break;
		case V_ABS_PATH:
			add_cstr(out, ev->abs_path);
			break;
		case V_COMMAND:
			add_text(out, ev->f[F_COMMAND].s, ev->f[F_COMMAND].len);
			break;
		case V_TOOL:
			add_cstr(out, ev->tool);
			break;
		case V_EVENT:
			add_cstr(out, ev->event_name);
			break;
		case V_PROMPT:
			add_text(out, ev->f[F_PROMPT].s, ev->f[F_PROMPT].len);
			break;
		case V_MESSAGE:
			add_text(out, ev->f[F_MESSAGE].s, ev->f[F_MESSAGE].len);
			break;
		case V_ERROR:
			add_text(out, ev->f[F_ERROR].s, ev->f[F_ERROR].len);
			break;
		case V_CWD:
			add_cstr(out, ev->cwd);
			break;
		case V_SESSION_ID:
			add_cstr(out, ev->session_id);
			break;
		case V_INPUT:
			txt = event_input(ev, s->text);
			add_text(out, txt.s, txt.len);
			break;
		default:
			break;
		}
	}
}
