#include <cjson/cJSON.h>
#include <string.h>

#include "edits.h"

static const char *
get_string(const cJSON *obj, const char *key)
{
	const cJSON	*v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) && v->valuestring ? v->valuestring : NULL;
}

/* Occurrences of needle in hay[0..len), counting up to 2. */
static int
count_upto2(const char *hay, size_t len, const char *needle, size_t nlen)
{
	const char	*p = hay, *q;
	int		 n = 0;

	while (n < 2 && (size_t)(hay + len - p) >= nlen &&
	    (q = memmem(p, (size_t)(hay + len - p), needle, nlen)) != NULL) {
		n++;
		p = q + nlen;
	}
	return n;
}

/* One Edit on b (in place); -1 when Claude Code would refuse it. */
static int
apply_edit(struct buf *b, bool exists, const cJSON *edit)
{
	const char	*old = get_string(edit, "old_string");
	const char	*new = get_string(edit, "new_string");
	const cJSON	*all = cJSON_GetObjectItemCaseSensitive(edit,
	    "replace_all");
	struct buf	 r;
	const char	*p, *q, *end;
	size_t		 olen;

	if (old == NULL || new == NULL)
		return -1;
	olen = strlen(old);
	if (olen == 0)		/* creates a file; only when there is none */
		return exists ? -1 : (buf_adds(b, new), 0);
	if (!cJSON_IsTrue(all)) {
		if (count_upto2(b->data, b->len, old, olen) != 1)
			return -1;
	} else if (count_upto2(b->data, b->len, old, olen) == 0)
		return -1;
	buf_init(&r);
	p = b->data;
	end = b->data + b->len;
	while ((q = memmem(p, (size_t)(end - p), old, olen)) != NULL) {
		buf_add(&r, p, (size_t)(q - p));
		buf_adds(&r, new);
		p = q + olen;
		if (!cJSON_IsTrue(all))
			break;
	}
	buf_add(&r, p, (size_t)(end - p));
	buf_reset(b);
	buf_add(b, r.data, r.len);
	buf_release(&r);
	return 0;
}

int
edit_result(const char *tool, const cJSON *input, const char *disk,
    size_t disk_len, struct buf *out)
{
	const cJSON	*edits, *e;
	const char	*content;
	bool		 exists = disk != NULL;

	buf_reset(out);
	if (tool == NULL || !cJSON_IsObject(input))
		return -1;
	if (strcmp(tool, "Write") == 0 || strcmp(tool, "write_file") == 0) {
		if ((content = get_string(input, "content")) == NULL)
			return -1;
		buf_adds(out, content);
		return 0;
	}
	if (exists)
		buf_add(out, disk, disk_len);
	if (strcmp(tool, "Edit") == 0 || strcmp(tool, "replace") == 0)
		return apply_edit(out, exists, input);
	if (strcmp(tool, "MultiEdit") == 0) {
		edits = cJSON_GetObjectItemCaseSensitive(input, "edits");
		if (!cJSON_IsArray(edits) || cJSON_GetArraySize(edits) == 0)
			return -1;
		cJSON_ArrayForEach(e, edits) {
			if (apply_edit(out, exists, e) < 0)
				return -1;
			exists = true;
		}
		return 0;
	}
	return -1;
}
