/*
 * Whole files in and out, for the unit tests that look at what the
 * engine wrote.  file_slurp() returns an owned, NUL-terminated copy, or
 * NULL when the file cannot be read.
 */
#ifndef RR_TEST_FILES_H
#define RR_TEST_FILES_H

#include <stdio.h>

#include "buf.h"

static inline char *
file_slurp(const char *path)
{
	FILE		*fp = fopen(path, "rb");
	struct buf	 b;
	char		 chunk[4096];
	size_t		 n;

	if (fp == NULL)
		return NULL;
	buf_init(&b);
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		buf_add(&b, chunk, n);
	fclose(fp);
	return buf_detach(&b, NULL);
}

static inline void
file_spit(const char *path, const char *text)
{
	FILE	*fp = fopen(path, "wb");

	if (fp != NULL) {
		fputs(text, fp);
		fclose(fp);
	}
}

#endif
