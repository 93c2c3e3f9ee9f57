/*
 * libFuzzer: Codex's apply_patch text (applypatch.c) parsed, and every
 * Update File applied to a fixed file and to the input itself.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "applypatch.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char file[] = "def f():\n    pass\n\nx\nx\n";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct patch	 p;
	struct buf	 out;
	char		*err = NULL;
	size_t		 i;

	if (patch_parse(&p, (const char *)data, size, &err) == 0) {
		buf_init(&out);
		for (i = 0; i < p.n; i++) {
			patch_file_after(&p.files[i], file, strlen(file), &out);
			patch_file_after(&p.files[i], (const char *)data, size,
			    &out);
		}
		buf_release(&out);
	}
	free(err);
	patch_release(&p);
	return 0;
}
