/*
 * Whether a string is one of a NULL-terminated list of strings: the
 * keyword tables of the compiler, the importers and the shell reader.
 */
#ifndef RR_STRSET_H
#define RR_STRSET_H

#include <stdbool.h>
#include <string.h>

static inline bool
str_in_set(const char *s, const char *const *set)
{
	for (; *set != NULL; set++)
		if (strcmp(s, *set) == 0)
			return true;
	return false;
}

#endif
