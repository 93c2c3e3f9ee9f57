/*
 * What the importers share: unique rule ids, and whether a message can be
 * a template as is.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "xmalloc.h"

/* Rule ids hold letters, digits, '_', '-', '.' and non-ASCII letters. */
static char *
sanitize_id(const char *name)
{
	char	*id = xstrdup(*name ? name : "unnamed"), *p;

	for (p = id; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
		    *p == '.' || (unsigned char)*p >= 0x80))
			*p = '-';
	return id;
}

static bool
taken(const struct import_ids *ids, const char *id)
{
	size_t	i;

	for (i = 0; i < ids->n; i++)
		if (strcmp(ids->ids[i], id) == 0)
			return true;
	return false;
}

char *
import_unique_id(struct import_ids *ids, const char *name)
{
	char	*base = sanitize_id(name), *id = xstrdup(base);
	int	 k;

	for (k = 2; taken(ids, id); k++) {
		free(id);
		id = xasprintf("%s-%d", base, k);
	}
	free(base);
	ids->ids = xreallocarray(ids->ids, ids->n + 1, sizeof(*ids->ids));
	ids->ids[ids->n++] = xstrdup(id);
	return id;
}

void
import_ids_release(struct import_ids *ids)
{
	size_t	i;

	for (i = 0; i < ids->n; i++)
		free(ids->ids[i]);
	free(ids->ids);
	memset(ids, 0, sizeof(*ids));
}

char *
import_template_text(const char *text, size_t len, size_t *outlen)
{
	struct buf	b;
	size_t		i;

	buf_init(&b);
	for (i = 0; i < len; i++) {
		if (text[i] == '{' && i + 1 < len && text[i + 1] == '{') {
			buf_adds(&b, "{{lbraces}}");
			i++;
		} else
			buf_addc(&b, text[i]);
	}
	return buf_detach(&b, outlen);
}
