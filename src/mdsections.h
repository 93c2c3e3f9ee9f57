/*
 * Keyword-tagged sections of a Markdown file (the `sections` condition):
 *
 *     <!-- keywords: join, null -->
 *     ## Pattern 1: a missing INNER JOIN drops rows
 *
 * A tag comment names the keywords of the heading that follows it (blank
 * lines between are allowed).  Keywords are compared without regard to
 * ASCII case or surrounding blanks.  Tags inside fenced code blocks are
 * examples, not tags, and are ignored.  Nothing is kept between calls:
 * the caller reads the file each time, so an edited file counts at once.
 */
#ifndef RR_MDSECTIONS_H
#define RR_MDSECTIONS_H

#include <stddef.h>

#include "buf.h"

/* The largest Markdown file read. */
#define MD_FILE_MAX	(4u * 1024 * 1024)

/*
 * Appends to `titles` the titles of the sections of text[0..len) tagged
 * with at least one of the keywords active[0..nactive), in file order,
 * each as "  - TITLE", joined by newlines (no final newline).  Returns
 * how many were appended.
 */
size_t	 md_tagged_sections(const char *text, size_t len,
	     const char *const *active, size_t nactive, struct buf *titles);

#endif
