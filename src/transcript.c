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

/* Joins the "text" parts of message.content (a string or a list). */
static int
assistant_text(const cJSON *line, struct buf *out)
{
	const cJSON	*type, *msg, *content, *part, *t;

	type = cJSON_GetObjectItemCaseSensitive(line, "type");
	if (!cJSON_IsString(type) || strcmp(type->valuestring, "assistant"))
		return -1;
	msg = cJSON_GetObjectItemCaseSensitive(line, "message");
	content = cJSON_GetObjectItemCaseSensitive(msg, "content");
	if (cJSON_IsString(content)) {
		buf_adds(out, content->valuestring);
		return 0;
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
		if (out->len)
			buf_addc(out, '\n');
		buf_adds(out, t->valuestring);
	}
	return out->len ? 0 : -1;
}

int
transcript_last_assistant_text(const char *path, char **text, size_t *len,
    char **why)
{
	struct stat	 st;
	struct buf	 data, out;
	char		*end, *start;
	cJSON		*line;
	off_t		 from;
	ssize_t		 n;
	int		 fd, rc = -1;

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
	buf_init(&data);
	buf_grow(&data, (size_t)(st.st_size - from));
	while ((n = pread(fd, data.data + data.len,
	    (size_t)(st.st_size - from) - data.len,
	    from + (off_t)data.len)) > 0)
		data.len += (size_t)n;
	data.data[data.len] = '\0';
	close(fd);

	/* Walk the lines backwards; the file may still be growing. */
	buf_init(&out);
	end = data.data + data.len;
	while (end > data.data && rc < 0) {
		start = end;
		while (start > data.data && start[-1] != '\n')
			start--;
		if (end > start) {
			line = cJSON_ParseWithLength(start, (size_t)(end - start));
			if (line != NULL) {
				buf_reset(&out);
				rc = assistant_text(line, &out);
				cJSON_Delete(line);
			}
		}
		end = start > data.data ? start - 1 : start;
	}
	buf_release(&data);
	if (rc == 0)
		*text = buf_detach(&out, len);
	else
		buf_release(&out);
	return rc;
}
