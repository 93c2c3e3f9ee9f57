/*
 * libFuzzer: the message template compiler and renderer, against a fixed
 * event.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "template.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char event[] =
    "{\"hook_event_name\":\"PreToolUse\",\"cwd\":\"/p\",\"session_id\":\"s\","
    "\"tool_name\":\"Edit\",\"tool_input\":{\"file_path\":\"/p/a/b.ts\","
    "\"old_string\":\"x\",\"new_string\":\"y\",\"n\":{\"k\":[1,\"v\"]}}}";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rr_event	 ev;
	static int		 loaded;
	struct arena		 a;
	struct template		 t;
	struct tpl_ctx		 c;
	struct buf		 b;
	char			*err = NULL;
	size_t			 off;

	if (!loaded) {
		if (event_parse(&ev, event, strlen(event), "/p", &err) < 0)
			abort();
		loaded = 1;
	}
	arena_init(&a);
	if (tpl_compile(&a, (const char *)data, size, &t, &err, &off) == 0) {
		memset(&c, 0, sizeof(c));
		c.ev = &ev;
		c.rule_id = "r";
		c.match = "m";
		c.match_len = 1;
		buf_init(&b);
		tpl_render(&t, &c, &b);
		buf_release(&b);
	}
	free(err);
	arena_release(&a);
	return 0;
}
