/*
 * libFuzzer: the diet103 skill-rules.json reader (the importer of this
 * version), with its diagnostics formatted.
 */
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ruleset		 rs;
	struct diag_list	 dl;
	static FILE		*devnull;
	size_t			 i;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		return 0;
	ruleset_init(&rs);
	diag_list_init(&dl);
	ruleset_add_skill_rules(&rs, "skill-rules.json", (const char *)data,
	    size, 1, &dl);
	for (i = 0; i < dl.n; i++)
		diag_print_text(devnull, &dl.items[i]);
	diag_list_release(&dl);
	ruleset_release(&rs);
	return 0;
}
