/*
 * The last assistant text of a Claude Code transcript (see transcript.h).
 * The path comes from the event: it is opened without blocking and read
 * only if it is a regular file, so a FIFO or a device planted there
 * cannot hold the hook until its deadline.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "transcript.h"
#include "xmalloc.h"

#define TRANSCRIPT_TAIL	(8 * 1024 * 1024)

/*
 * Joins the "text" parts of message.content (a string or a list) of a
 * line of the given type ("assistant" or "user") into out.  A user line
 * of tool results, or a meta line, has none.
 */
static int
line_text(const cJSON *line, const char *want, struct buf *out)
{
	const cJSON	*type, *msg, *content, *part, *t;
	size_t		 before = out->len;

	type = cJSON_GetObjectItemCaseSensitive(line, "type");
	if (!cJSON_IsString(type) || strcmp(type->valuestring, want) != 0 ||
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(line, "isMeta")))
		return -1;
	msg = cJSON_GetObjectItemCaseSensitive(line, "message");
	content = cJSON_GetObjectItemCaseSensitive(msg, "content");
	if (cJSON_IsString(content)) {
		buf_adds(out, content->valuestring);
		return out->len > before ? 0 : -1;
	}
	if (!cJSON_IsArray(content))
		return -1;
	cJSON_ArrayForEach(part, content) {
		t = cJSON_GetObjectItemCaseSensitive(part, "type");
		if (!cJSON_IsString(t) || strcmp(t->valuestring, "text"))
			continue;
		t = cJSON_GetObjectItemCaseSensitive(part, "text");
		if (!cJSON_IsString(t))
			continue;
		if (out->len > before)
			buf_addc(out, '\n');
		buf_adds(out, t->valuestring);
	}
	return out->len > before ? 0 : -1;
}

/*
 * Reads the last TRANSCRIPT_TAIL bytes of the transcript at path into
 * data.  -1 when it is unreadable, with *why as transcript.h says.
 */
static int
read_tail(const char *path, struct buf *data, char **why)
{
	struct stat	 st;
	off_t		 from;
	ssize_t		 n;
	int		 fd;

	*why = NULL;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		/* Not there: an old client's usual case, nothing to say. */
		if (errno != ENOENT)
			*why = xasprintf("cannot read the transcript '%s': %s",
			    path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*why = xasprintf("the transcript '%s' is not a regular file; "
		    "not read", path);
		close(fd);
		return -1;
	}
	from = st.st_size > TRANSCRIPT_TAIL ? st.st_size - TRANSCRIPT_TAIL : 0;
	buf_init(data);
	buf_grow(data, (size_t)(st.st_size - from));
	while ((n = pread(fd, data->data + data->len,
	    (size_t)(st.st_size - from) - data->len,
	    from + (off_t)data->len)) > 0)
		data->len += (size_t)n;
	data->data[data->len] = '\0';
	close(fd);
	return 0;
}

/*
 * Calls fn on each line of data that parses, last first, until it returns
 * non-zero; returns that (0 when none did).  The file may still be
 * growing: a half-written last line does not parse and is skipped.
 */
static int
each_line_backwards(struct buf *data, int (*fn)(const cJSON *, void *),
    void *arg)
{
	char	*end = data->data + data->len, *start;
	cJSON	*line;
	int	 rc = 0;

	while (end > data->data && rc == 0) {
		start = end;
		while (start > data->data && start[-1] != '\n')
			start--;
		if (end > start) {
			line = cJSON_ParseWithLength(start, (size_t)(end - start));
			if (line != NULL) {
				rc = fn(line, arg);
				cJSON_Delete(line);
			}
		}
		end = start > data->data ? start - 1 : start;
	}
	return rc;
}

static int
last_assistant(const cJSON *line, void *arg)
{
	struct buf	*out = arg;

	return line_text(line, "assistant", out) == 0;
}

int
transcript_last_assistant_text(const char *path, char **text, size_t *len,
    char **why)
{
	struct buf	data, out;
	int		rc;

	if (read_tail(path, &data, why) < 0)
		return -1;
	buf_init(&out);
	rc = each_line_backwards(&data, last_assistant, &out);
	buf_release(&data);
	if (rc == 1) {
		*text = buf_detach(&out, len);
		return 0;
	}
	buf_release(&out);
	return -1;
}

/* The answer's texts, newest first, until the prompt they answer. */
struct turn {
	struct buf	 user;
	char		**parts;
	size_t		 nparts;
};

static int
turn_line(const cJSON *line, void *arg)
{
	struct turn	*t = arg;
	struct buf	 b;

	if (line_text(line, "user", &t->user) == 0)
		return 1;
	buf_init(&b);
	if (line_text(line, "assistant", &b) == 0) {
		t->parts = xreallocarray(t->parts, t->nparts + 1,
		    sizeof(*t->parts));
		t->parts[t->nparts++] = buf_detach(&b, NULL);
	} else
		buf_release(&b);
	return 0;
}

int
transcript_last_turn(const char *path, char **user, char **assistant,
    char **why)
{
	struct buf	 data, a;
	struct turn	 t;
	size_t		 i;

	*user = *assistant = NULL;
	if (read_tail(path, &data, why) < 0)
		return -1;
	memset(&t, 0, sizeof(t));
	buf_init(&t.user);
	each_line_backwards(&data, turn_line, &t);
	buf_release(&data);
	buf_init(&a);
	for (i = t.nparts; i > 0; i--) {
		if (a.len)
			buf_addc(&a, '\n');
		buf_adds(&a, t.parts[i - 1]);
		free(t.parts[i - 1]);
	}
	free(t.parts);
	*user = t.user.len ? buf_detach(&t.user, NULL) : NULL;
	if (*user == NULL)
		buf_release(&t.user);
	*assistant = a.len ? buf_detach(&a, NULL) : NULL;
	if (*assistant == NULL)
		buf_release(&a);
	return *user != NULL || *assistant != NULL ? 0 : -1;
}
