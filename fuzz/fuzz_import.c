/*
 * libFuzzer: the importers.  The first byte picks diet103 or hookify; the
 * YAML they print must always compile without an error (whatever they
 * reported and left out), or this aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "import.h"
#include "compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct import_ids	 ids;
	struct diag_list	 dl, dl2;
	struct ruleset		 rs;
	struct buf		 out, doc;
	int			 n;

	if (size < 1)
		return 0;
	memset(&ids, 0, sizeof(ids));
	diag_list_init(&dl);
	buf_init(&out);
	if (data[0] & 1)
		n = import_hookify("hookify.x.local.md", (const char *)data + 1,
		    size - 1, &ids, &out, &dl);
	else
		n = import_skill_rules("skill-rules.json",
		    (const char *)data + 1, size - 1, &ids, &out, &dl);
	if (n > 0) {
		buf_init(&doc);
		buf_printf(&doc, "version: 1\npack: p\nrules:\n");
		buf_add(&doc, out.data, out.len);
		ruleset_init(&rs);
		diag_list_init(&dl2);
		ruleset_add_yaml(&rs, "out.yaml", doc.data, doc.len, 1, &dl2);
		if (dl2.errors > 0) {
			fwrite(doc.data, 1, doc.len, stderr);
			if (dl2.n > 0)
				fprintf(stderr, "\n%s:%d:%d: %s\n",
				    dl2.items[0].file, dl2.items[0].line,
				    dl2.items[0].col, dl2.items[0].message);
			abort();
		}
		diag_list_release(&dl2);
		ruleset_release(&rs);
		buf_release(&doc);
	}
	buf_release(&out);
	diag_list_release(&dl);
	import_ids_release(&ids);
	return 0;
}
