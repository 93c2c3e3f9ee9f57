/*
 * The file as a tool would leave it (see edits.h).  Each edit costs one
 * scan of the text and one move of what follows its match; all of them
 * together may scan and write EDIT_WORK_PER_BYTE times the file and the
 * edits' strings, plus EDIT_WORK_FLOOR, and past that the result is not
 * known (EDIT_TOO_COSTLY): 200 edits of an 8 MB file would otherwise
 * scan 1.6 GB, and a replace_all of "a" by a long string could write
 * gigabytes.
 */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <string.h>

#include "edits.h"

struct work {
	size_t	done, budget;
};

static const char *
get_string(const cJSON *obj, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) && v->valuestring ? v->valuestring : NULL;
}

/* Counts n bytes of work; false once the budget would be passed. */
static bool
charge(struct work *w, size_t n)
{
	if (n > w->budget - w->done)
		return false;
	w->done += n;
	return true;
}

/* needle in hay[0..len), the bytes looked at charged to w. */
static const char *
find(struct work *w, const char *hay, size_t len, const char *needle,
    size_t nlen, bool *over)
{
	const char	*q = NULL;

	if (len >= nlen)
		q = memmem(hay, len, needle, nlen);

	*over = !charge(w, q != NULL ? (size_t)(q - hay) + nlen : len);
	return q;
}

/* b[at..at+olen) replaced by new[0..nlen), in place. */
static bool
splice(struct work *w, struct buf *b, size_t at, size_t olen,
    const char *new, size_t nlen)
{
	size_t	tail = b->len - at - olen;

	if (!charge(w, tail + nlen))
		return false;
	if (nlen > olen)
		buf_grow(b, nlen - olen);
	memmove(b->data + at + nlen, b->data + at + olen, tail);
	memcpy(b->data + at, new, nlen);
	b->len = b->len - olen + nlen;
	b->data[b->len] = '\0';
	return true;
}

/*
 * One Edit on b: EDIT_OK, EDIT_UNKNOWN when Claude Code would refuse it,
 * EDIT_TOO_COSTLY past the budget.  tmp is scratch for replace_all.
 */
static int
apply_edit(struct work *w, struct buf *b, struct buf *tmp, bool exists,
    const cJSON *edit)
{
	const char	*old = get_string(edit, "old_string");
	const char	*new = get_string(edit, "new_string");
	const cJSON	*all = cJSON_GetObjectItemCaseSensitive(edit,
	    "replace_all");
	const char	*p, *q, *end;
	struct buf	 swap;
	size_t		 olen, nlen, n = 0;
	bool		 over;

	if (old == NULL || new == NULL)
		return EDIT_UNKNOWN;
	olen = strlen(old);
	nlen = strlen(new);
	if (olen == 0) {	/* creates a file; only when there is none */
		if (exists)
			return EDIT_UNKNOWN;
		if (!charge(w, nlen))
			return EDIT_TOO_COSTLY;
		buf_add(b, new, nlen);
		return EDIT_OK;
	}
	if (!cJSON_IsTrue(all)) {
		/* Once, and only once: one scan finds both. */
		q = find(w, b->data, b->len, old, olen, &over);
		if (over)
			return EDIT_TOO_COSTLY;
		if (q == NULL)
			return EDIT_UNKNOWN;
		p = q + olen;
		end = b->data + b->len;
		if (find(w, p, (size_t)(end - p), old, olen, &over) != NULL)
			return over ? EDIT_TOO_COSTLY : EDIT_UNKNOWN;
		if (over)
			return EDIT_TOO_COSTLY;
		return splice(w, b, (size_t)(q - b->data), olen, new, nlen) ?
		    EDIT_OK : EDIT_TOO_COSTLY;
	}
	/* Counted first: what it would write is known before writing it. */
	end = b->data + b->len;
	for (p = b->data; (q = find(w, p, (size_t)(end - p), old, olen,
	    &over)) != NULL && !over; p = q + olen)
		n++;
	if (over)
		return EDIT_TOO_COSTLY;
	if (n == 0)
		return EDIT_UNKNOWN;
	if (nlen > olen && n > (SIZE_MAX - b->len) / (nlen - olen))
		return EDIT_TOO_COSTLY;
	/* The text scanned again, and what is written. */
	if (!charge(w, b->len) || !charge(w, b->len - n * olen + n * nlen))
		return EDIT_TOO_COSTLY;
	buf_reset(tmp);
	buf_grow(tmp, b->len - n * olen + n * nlen);
	for (p = b->data; (q = memmem(p, (size_t)(end - p), old, olen)) !=
	    NULL; p = q + olen) {
		buf_add(tmp, p, (size_t)(q - p));
		buf_add(tmp, new, nlen);
	}
	buf_add(tmp, p, (size_t)(end - p));
	swap = *b;
	*b = *tmp;
	*tmp = swap;
	return EDIT_OK;
}

/* The bytes of an edit's strings: the input the budget grows with. */
static size_t
strings_size(const cJSON *edit)
{
	const char	*s;
	size_t		 n = 0;

	if ((s = get_string(edit, "old_string")) != NULL)
		n += strlen(s);
	if ((s = get_string(edit, "new_string")) != NULL)
		n += strlen(s);
	return n;
}

static size_t
budget(size_t disk_len, size_t input)
{
	size_t	n = disk_len + input;

	if (n > (SIZE_MAX - EDIT_WORK_FLOOR) / EDIT_WORK_PER_BYTE)
		return SIZE_MAX;
	return EDIT_WORK_FLOOR + EDIT_WORK_PER_BYTE * n;
}

int
edit_result(const char *tool, const cJSON *input, const char *disk,
    size_t disk_len, struct buf *out)
{
	const cJSON	*edits, *e;
	const char	*content;
	struct work	 w;
	struct buf	 tmp;
	bool		 exists = disk != NULL;
	size_t		 n;
	int		 r = EDIT_OK;

	buf_reset(out);
	if (tool == NULL || !cJSON_IsObject(input))
		return EDIT_UNKNOWN;
	if (strcmp(tool, "Write") == 0) {
		if ((content = get_string(input, "content")) == NULL)
			return EDIT_UNKNOWN;
		buf_adds(out, content);
		return EDIT_OK;
	}
	if (strcmp(tool, "Edit") == 0)
		edits = NULL;
	else if (strcmp(tool, "MultiEdit") == 0) {
		edits = cJSON_GetObjectItemCaseSensitive(input, "edits");
		if (!cJSON_IsArray(edits) || cJSON_GetArraySize(edits) == 0)
			return EDIT_UNKNOWN;
	} else
		return EDIT_UNKNOWN;
	n = 0;
	if (edits == NULL)
		n = strings_size(input);
	else
		cJSON_ArrayForEach(e, edits)
			n += strings_size(e);
	w.done = 0;
	w.budget = budget(disk_len, n);
	if (exists)
		buf_add(out, disk, disk_len);
	buf_init(&tmp);
	if (edits == NULL)
		r = apply_edit(&w, out, &tmp, exists, input);
	else
		cJSON_ArrayForEach(e, edits) {
			if ((r = apply_edit(&w, out, &tmp, exists, e)) !=
			    EDIT_OK)
				break;
			exists = true;
		}
	buf_release(&tmp);
	if (r != EDIT_OK)
		buf_reset(out);
	return r;
}
