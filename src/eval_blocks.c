/*
 * Blocks (reflexion-rules(5), Blocks): the text a blocks condition cuts,
 * cut once per condition and event (blocks.h), and the conditions only a
 * blocks map knows: block and block_id, the block's text or id against a
 * matcher, and listed, whether the text lists the block's id.  The maps
 * themselves are evaluated by eval_cond.c, which sets cx->block to each
 * block in turn; nothing here evaluates a condition.
 */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "eval_priv.h"
#include "xmalloc.h"

/* The text a blocks condition cuts, or {NULL, 0}. */
static struct rr_text
cut_subject(struct ectx *cx, const struct blocks_spec *b)
{
	struct rr_text	t = { NULL, 0 };

	if (b->in == F_FILE_BEFORE || b->in == F_FILE_AFTER) {
		eval_file_field(cx, b->in);
		if (b->in == F_FILE_AFTER && cx->after_state == -2)
			return t;
	}
	if (b->in == F_INPUT)
		return event_input(cx->ev, b->in_key);
	return cx->ev->f[b->in];
}

int
eval_blocks_cut(struct ectx *cx, const struct cond *c,
    struct block_list **out)
{
	const struct blocks_spec	*b = c->blocks;
	struct block_cut		 how;
	struct block_list		*l;
	struct rr_text			 t;
	enum blocks_result		 r;

	t = cut_subject(cx, b);
	if (t.s == NULL) {
		if (b->in == F_FILE_AFTER && cx->after_state == -2)
			eval_limit(cx, c, "file_after hit its work limit",
			    "file_after hit its work limit");
		explain(cx, "blocks: no %s in this event\n", b->in == F_INPUT ?
		    b->in_key : rr_field_names[b->in]);
		return 1;
	}
	l = xcalloc(1, sizeof(*l));
	block_list_init(l);
	eval_keep_list(cx, l);
	if (b->json != NULL)
		r = blocks_cut_json(t.s, t.len, b->json, b->json_id,
		    &cx->ev->arena, l);
	else {
		memset(&how, 0, sizeof(how));
		how.start = b->start != NULL ? b->start->re : NULL;
		how.separator = b->separator != NULL ? b->separator->re : NULL;
		how.end = b->end != NULL ? b->end->re : NULL;
		how.id = b->id != NULL ? b->id->re : NULL;
		r = blocks_cut_text(&how, t.s, t.len, &cx->ev->arena, l);
	}
	if (r == BLOCKS_LIMIT) {
		eval_limit(cx, c, "a pattern of blocks hit its match limit",
		    "a blocks pattern hit its limit");
		explain(cx, "blocks: a pattern hit its match limit\n");
		return -1;
	}
	if (r == BLOCKS_NOT_JSON)
		explain(cx, "blocks: %s is not JSON with an object or array "
		    "at '%s'\n", b->in == F_INPUT ? b->in_key :
		    rr_field_names[b->in], b->json);
	cx->cut_text = t.s;
	cx->cut_len = t.len;
	*out = l;
	return 0;
}

/* A JSON block's text: its member printed, once per block. */
static void
json_block_text(struct ectx *cx)
{
	char	*p;

	if (cx->block_text != NULL || cx->block->member == NULL)
		return;
	p = cJSON_PrintUnformatted((cJSON *)(uintptr_t)cx->block->member);
	if (p == NULL)
		return;
	cx->block_text_len = strlen(p);
	cx->block_text = arena_strndup(&cx->ev->arena, p, cx->block_text_len);
	free(p);
}

bool
eval_block_part(struct ectx *cx, const struct cond *c, bool in_when)
{
	const struct block	*b = cx->block;
	const char		*subject[1];
	size_t			 len[1];

	if (b == NULL)
		return false;
	if (c->block_part == BP_ID) {
		subject[0] = b->id;
		len[0] = strlen(b->id);
	} else if (b->member != NULL && c->m.kind == M_JSON)
		return eval_json_doc(cx, c, b->member, in_when);
	else if (b->member != NULL) {
		json_block_text(cx);
		subject[0] = cx->block_text;
		len[0] = cx->block_text_len;
	} else {
		subject[0] = b->text;
		len[0] = b->len;
	}
	return eval_match_subjects(cx, c, subject, len, subject[0] != NULL ?
	    1 : 0, in_when, NULL);
}

/*
 * The ids the patterns of c list in the text cut, found once within a
 * blocks condition: a line each, whatever the number of blocks.
 */
static struct listed_memo *
listed_ids(struct ectx *cx, const struct cond *c)
{
	struct listed_memo	*lm;
	struct id_set		 one, *all;
	size_t			 i, k, n = 0;
	const char		**v;

	for (i = 0; i < cx->nlisted; i++)
		if (cx->listed[i].c == c)
			return &cx->listed[i];
	if (cx->nlisted == cx->listed_cap) {
		cx->listed_cap = cx->listed_cap ? cx->listed_cap * 2 : 4;
		cx->listed = xreallocarray(cx->listed, cx->listed_cap,
		    sizeof(*cx->listed));
	}
	lm = &cx->listed[cx->nlisted++];
	memset(lm, 0, sizeof(*lm));
	lm->c = c;
	all = arena_alloc(&cx->ev->arena, sizeof(*all));
	lm->ids = all;
	/* Each pattern's ids, then one sorted set of them all. */
	v = NULL;
	for (i = 0; i < c->m.npats; i++) {
		if (blocks_listed(c->m.pats[i].re, cx->cut_text, cx->cut_len,
		    &cx->ev->arena, &one) == BLOCKS_LIMIT) {
			eval_limit(cx, c, "a listed pattern hit its match "
			    "limit", "a listed pattern hit its limit");
			lm->limit = true;
			break;
		}
		v = xreallocarray(v, n + one.n + 1, sizeof(*v));
		for (k = 0; k < one.n; k++)
			v[n++] = one.v[k];
	}
	all->v = arena_alloc(&cx->ev->arena, (n ? n : 1) * sizeof(*all->v));
	for (k = 0; k < n; k++)
		all->v[k] = v[k];
	all->n = n;
	free(v);
	id_set_sort(all);
	return lm;
}

bool
eval_listed(struct ectx *cx, const struct cond *c)
{
	const struct listed_memo	*lm;
	bool				 has;

	if (cx->block == NULL)
		return false;
	lm = listed_ids(cx, c);
	if (lm->limit)
		return false;
	has = id_set_has(lm->ids, cx->block->id);
	explain(cx, "listed: '%s' %s among %zu listed id%s\n", cx->block->id,
	    has ? "is" : "is not", lm->ids->n, lm->ids->n == 1 ? "" : "s");
	return has;
}
