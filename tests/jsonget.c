/*
 * Test helper: prints the string at a dotted path of the JSON object on
 * stdin, raw (no quotes, no escapes, no newline added); a number indexes
 * an array; any other value (a number, true, an object) as compact JSON.
 * Exit 1 if absent.
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
		v = cJSON_IsArray(v) && strspn(part, "0123456789") ==
		    strlen(part) ? cJSON_GetArrayItem(v, atoi(part)) :
		    cJSON_GetObjectItemCaseSensitive(v, part);
	free(path);
	if (v == NULL) {
		cJSON_Delete(root);
		return 1;
	}
	if (cJSON_IsString(v))
		fputs(v->valuestring, stdout);
	else {
		char *t = cJSON_PrintUnformatted(v);
		fputs(t ? t : "", stdout);
		free(t);
	}
	cJSON_Delete(root);
	return 0;
}
