/*
 * libFuzzer, differential: a fuzzed rule file is compiled, indexed,
 * written to the compiled cache and read back; for a set of events the
 * rules that fire and their messages must be the same from the cache as
 * fresh, and the same with prefilters on as off.  Any difference aborts.
 * Then its prefilter index, with bytes changed at places drawn from the
 * input, is read without checksums (as a cache file whose stamp holds is
 * read) for every event: whatever it selects, it must not crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tests/unit/helpers.h"
#include "cache.h"
#include "eval.h"
#include "event.h"
#include "prefilter.h"
#include "compile.h"
#include "xmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const events[] = {
	"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\",\"tool_name\":"
	"\"Bash\",\"tool_input\":{\"command\":\"rm -rf / && git push --force\"}}",
	"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\",\"tool_name\":"
	"\"Write\",\"tool_input\":{\"file_path\":\"src/db/schema.prisma\","
	"\"content\":\"prisma.user.findMany() API_KEY=abc TODO\"}}",
	"{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\",\"tool_name\":"
	"\"mcp__github__create_issue\",\"tool_input\":{\"title\":\"x\"}}",
	"{\"hook_event_name\":\"UserPromptSubmit\",\"cwd\":\"/p\",\"prompt\":"
	"\"Add a backend controller and an API route; deploy the database\"}",
	"{\"hook_event_name\":\"Stop\",\"cwd\":\"/p\",\"last_assistant_message\":"
	"\"Done. TODO: DROP TABLE users\"}",
	"{\"hook_event_name\":\"PostToolUseFailure\",\"cwd\":\"/p\",\"tool_name\":"
	"\"Bash\",\"error\":\"Traceback: HTTP 500 E0042\"}",
};

/* The index of rs with up to 8 bytes changed, read for every event. */
static void
corrupt_index(const struct ruleset *rs, const uint8_t *data, size_t size)
{
	struct pf_candidates	 c;
	struct rr_event		 ev;
	unsigned char		*copy;
	uint64_t		 h = 1469598103934665603ULL;
	size_t			 i, k;
	char			*err = NULL;

	if (rs->pf == NULL || rs->pflen == 0)
		return;
	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 1099511628211ULL;
	copy = xmalloc(rs->pflen);
	memcpy(copy, rs->pf, rs->pflen);
	for (k = 0; k < 8; k++) {
		h = h * 6364136223846793005ULL + 1442695040888963407ULL;
		copy[(h >> 33) % rs->pflen] ^= (unsigned char)(h >> 13);
	}
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		if (event_parse(&ev, events[i], strlen(events[i]), NULL,
		    &err) < 0) {
			free(err);
			err = NULL;
			event_release(&ev);
			continue;
		}
		if (pf_select(copy, rs->pflen, false, &ev, NULL, &c) == 0)
			pf_candidates_release(&c);
		event_release(&ev);
	}
	free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char		 path[64];
	const struct cache_identity *id = cache_identity_current();
	struct ruleset		 rs, rc;
	struct diag_list	 dl, dc;
	struct manifest		 mf;
	char			*err = NULL, *a, *b, *c;
	size_t			 i;

	if (path[0] == '\0')
		snprintf(path, sizeof(path), "/tmp/rr-fuzz-cache.%ld.rrc",
		    (long)getpid());
	ruleset_init(&rs);
	diag_list_init(&dl);
	ruleset_add_yaml(&rs, "fuzz.yaml", (const char *)data, size, 1, &dl);
	diag_sort(&dl);
	ruleset_index(&rs);
	manifest_init(&mf);
	if (cache_write(path, "k", id, &rs, &dl, &mf, &err) == 0 &&
	    cache_open(&rc, &dc, path, "k", id, &err) == 0) {
		if (dc.n != dl.n)
			abort();
		for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
			a = eval_fired_text(&rs, events[i], true);
			b = eval_fired_text(&rs, events[i], false);
			c = eval_fired_text(&rc, events[i], false);
			if (strcmp(a, b) != 0 || strcmp(a, c) != 0) {
				fprintf(stderr, "fresh, no prefilter:\n%s\n"
				    "fresh:\n%s\ncached:\n%s\n", a, b, c);
				abort();
			}
			free(a);
			free(b);
			free(c);
		}
		ruleset_release(&rc);
		diag_list_release(&dc);
	}
	free(err);
	unlink(path);
	corrupt_index(&rs, data, size);
	manifest_release(&mf);
	diag_list_release(&dl);
	ruleset_release(&rs);
	return 0;
}
