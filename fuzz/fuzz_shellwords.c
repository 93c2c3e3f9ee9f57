/*
 * libFuzzer: the shell tokenizer, and the queries rules make of each
 * simple command it finds (the plain path of each word among them).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "shellwords.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_script	sc;
	struct buf		path;
	const char		*sub;
	size_t			i, k, n = 0;

	buf_init(&path);
	sh_parse(&sc, (const char *)data, size);
	if (sc.n > SH_MAX_CMDS)
		abort();
	for (i = 0; i < sc.n; i++) {
		if (sc.cmds[i].argc == 0 || sc.cmds[i].depth > SH_MAX_DEPTH)
			abort();
		for (k = 0; k < sc.cmds[i].argc; k++) {
			n += strlen(sc.cmds[i].argv[k]);
			if (sh_arg_path(sc.cmds[i].argv[k], "/home/u", &path))
				n += path.len;
		}
		n += strlen(sc.cmds[i].text) + strlen(sc.cmds[i].program);
		if ((sub = sh_subcommand(&sc.cmds[i])) != NULL)
			n += strlen(sub);
		n += sh_has_flag(&sc.cmds[i], "-r") +
		    sh_has_flag(&sc.cmds[i], "--force") +
		    sh_has_flag(&sc.cmds[i], "-delete");
	}
	sh_release(&sc);
	buf_release(&path);
	return n == (size_t)-1;
}
