/*
 * libFuzzer: the YAML loader and the rule compiler, with every diagnostic
 * formatted as lint would print it, and the compiled rules' own tests run.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "compile.h"
#include "ruletest.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ruleset		 rs;
	struct diag_list	 dl;
	static FILE		*devnull;
	struct ruletest_counts	 counts;
	size_t			 i;

	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		return 0;
	ruleset_init(&rs);
	diag_list_init(&dl);
	ruleset_add_yaml(&rs, "fuzz.yaml", (const char *)data, size, 1, &dl);
	diag_sort(&dl);
	for (i = 0; i < dl.n; i++)
		diag_print_text(devnull, &dl.items[i]);
	diag_print_json(devnull, &dl);
	memset(&counts, 0, sizeof(counts));
	ruletest_run(&rs, devnull, devnull, false, &counts);
	diag_list_release(&dl);
	ruleset_release(&rs);
	return 0;
}
