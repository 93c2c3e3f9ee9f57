/*
 * libFuzzer: the glob compiler and matcher.  The input is a glob, a NUL
 * (or the end), then a path to match.
 */
#include <stdint.h>
#include <string.h>

#include "glob.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*s = (const char *)data, *nul, *err;
	struct rr_glob	*g;
	size_t		 glen, off;

	nul = memchr(s, '\0', size);
	glen = nul ? (size_t)(nul - s) : size;
	g = rr_glob_compile(s, glen, &err, &off);
	if (g == NULL)
		return 0;
	if (nul != NULL)
		rr_glob_match(g, nul + 1, size - glen - 1);
	rr_glob_match(g, s, glen);
	rr_glob_free(g);
	return 0;
}
