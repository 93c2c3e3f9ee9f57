/*
 * Test helper: prints the string at a dotted path of the JSON object on
 * stdin, raw (no quotes, no escapes, no newline added).  Exit 1 if absent.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
	static char	 in[1 << 24];
	size_t		 n = fread(in, 1, sizeof(in) - 1, stdin);
	cJSON		*root, *v;
	char		*path, *part, *save = NULL;

	if (argc != 2)
		return 2;
	in[n] = '\0';
	if ((root = cJSON_Parse(in)) == NULL)
		return 1;
	path = strdup(argv[1]);
	v = root;
	for (part = strtok_r(path, ".", &save); part && v;
	    part = strtok_r(NULL, ".", &save))
		v = cJSON_GetObjectItemCaseSensitive(v, part);
	free(path);
	if (!cJSON_IsString(v)) {
		cJSON_Delete(root);
		return 1;
	}
	fputs(v->valuestring, stdout);
	cJSON_Delete(root);
	return 0;
}
