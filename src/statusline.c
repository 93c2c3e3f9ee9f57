/*
 * The status line's format (statusline.h).
 */
#include <stdbool.h>
#include <string.h>

#include "buf.h"
#include "statusline.h"
#include "textesc.h"
#include "xmalloc.h"

/* Characters of the session id shown, as the seed shows them. */
#define SESSION_SHOWN	7

static void
data(struct buf *b, const char *s, size_t len)
{
	textesc_add(b, s, len, TEXTESC_LINE);
}

static bool
alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void
lower(struct buf *b, const char *s, size_t n)
{
	size_t	i, start = b->len;

	data(b, s, n);
	for (i = start; i < b->len; i++)
		if (b->data[i] >= 'A' && b->data[i] <= 'Z')
			b->data[i] += 'a' - 'A';
}

/*
 * "claude/opus": the provider is the first word of the model's id
 * (claude when there is none); the family, the first word of its name,
 * else the first word of the id after the provider that is not a number.
 */
static void
model(struct buf *b, const struct statusline_facts *f)
{
	const char	*id = f->model_id, *p;
	size_t		 n;

	if (id != NULL && alpha(*id)) {
		for (n = 0; alpha(id[n]); n++)
			;
		lower(b, id, n);
		p = id + n;
	} else {
		buf_adds(b, "claude");
		p = NULL;
	}
	buf_addc(b, '/');
	if (f->model_name != NULL && *f->model_name != '\0') {
		for (n = 0; f->model_name[n] && f->model_name[n] != ' '; n++)
			;
		lower(b, f->model_name, n);
		return;
	}
	while (p != NULL && *p != '\0') {
		while (*p && !alpha(*p))
			p++;
		for (n = 0; alpha(p[n]); n++)
			;
		if (n > 0) {
			lower(b, p, n);
			return;
		}
	}
	buf_addc(b, '?');
}

static void
dir_name(struct buf *b, const char *dir)
{
	const char	*end, *slash;

	if (dir == NULL || *dir == '\0') {
		buf_addc(b, '?');
		return;
	}
	end = dir + strlen(dir);
	while (end > dir + 1 && end[-1] == '/')
		end--;
	for (slash = end; slash > dir && slash[-1] != '/'; slash--)
		;
	data(b, slash, (size_t)(end - slash));
}

char *
statusline_format(const struct statusline_facts *f)
{
	struct buf	 b;
	const char	*what;

	buf_init(&b);
	buf_printf(&b, "\xf0\x9f\x93\x8a [%s\xc2\xb7", f->time);
	if (f->session != NULL)
		data(&b, f->session, strnlen(f->session, SESSION_SHOWN));
	else
		buf_addc(&b, '-');
	buf_adds(&b, "] | ");
	model(&b, f);
	buf_adds(&b, " | ");
	dir_name(&b, f->dir);
	buf_adds(&b, " | ");
	if (f->route_exec_type == NULL)
		buf_adds(&b, "\xf0\x9f\x92\xac" "direct");
	else {
		if (f->route_icon != NULL)
			data(&b, f->route_icon, strlen(f->route_icon));
		what = f->route_pipeline ? f->route_pipeline :
		    f->route_exec_type;
		data(&b, what, strlen(what));
	}
	if (f->rules >= 0) {
		buf_printf(&b, " | \xf0\x9f\x9b\xa1 %ld rule%s", f->rules,
		    f->rules == 1 ? "" : "s");
		if (f->denied >= 0)
			buf_printf(&b, " \xc2\xb7 %ld denied", f->denied);
	}
	return buf_detach(&b, NULL);
}
