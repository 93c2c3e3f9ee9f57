/*
 * Whether to colour what goes to a stream (see color.h).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "color.h"

bool
color_wanted(FILE *fp)
{
	const char	*no = getenv("NO_COLOR"), *term = getenv("TERM");

	if (no != NULL && *no != '\0')
		return false;
	if (term != NULL && strcmp(term, "dumb") == 0)
		return false;
	return isatty(fileno(fp)) == 1;
}
