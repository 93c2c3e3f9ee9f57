/*
 * The doctor's report (doctor.h): its findings, added by both files of
 * checks, and released by the command that prints them.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_priv.h"
#include "xmalloc.h"

void
doctor_report_init(struct doctor_report *r)
{
	memset(r, 0, sizeof(*r));
}

void
doctor_report_release(struct doctor_report *r)
{
	size_t	i;

	for (i = 0; i < r->n; i++) {
		free(r->items[i].check);
		free(r->items[i].text);
		free(r->items[i].fix);
	}
	free(r->items);
	doctor_report_init(r);
}

void
doctor_add(struct doctor_report *r, enum doctor_level level,
    const char *check, const char *fix, const char *fmt, ...)
{
	struct doctor_finding	*f;
	va_list			 ap;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->items = xreallocarray(r->items, r->cap, sizeof(*r->items));
	}
	f = &r->items[r->n++];
	f->level = level;
	f->check = xstrdup(check);
	f->fix = fix != NULL ? xstrdup(fix) : NULL;
	va_start(ap, fmt);
	f->text = xvasprintf(fmt, ap);
	va_end(ap);
	if (level == DOCTOR_PROBLEM)
		r->problems++;
}

void
doctor_report_take(struct doctor_report *dst, struct doctor_report *src)
{
	size_t	i;

	for (i = 0; i < src->n; i++) {
		if (dst->n == dst->cap) {
			dst->cap = dst->cap ? dst->cap * 2 : 16;
			dst->items = xreallocarray(dst->items, dst->cap,
			    sizeof(*dst->items));
		}
		dst->items[dst->n++] = src->items[i];
	}
	dst->problems += src->problems;
	free(src->items);
	doctor_report_init(src);
}
