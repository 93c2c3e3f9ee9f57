/*
 * The benchmark's yardstick: the least a hook can do.  Reads stdin to EOF,
 * parses it with cJSON, exits.  Every reflexion-rules figure is reported
 * as a ratio to this program, measured in the same run.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(void)
{
	char	*buf = NULL;
	size_t	 len = 0, cap = 0;
	ssize_t	 n;
	cJSON	*j;

	for (;;) {
		if (len + 65536 > cap) {
			cap = cap ? cap * 2 : 131072;
			if ((buf = realloc(buf, cap)) == NULL)
				return 2;
		}
		n = read(0, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	j = cJSON_ParseWithLength(buf ? buf : "", len);
	cJSON_Delete(j);
	free(buf);
	return 0;
}
