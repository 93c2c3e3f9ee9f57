/*
 * Summary lines of tool calls (toolsum.h).
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "jsonw.h"
#include "toolsum.h"
#include "xmalloc.h"

static const char *
jstr(const cJSON *obj, const char *key)
{
	const cJSON	*it = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(it) && it->valuestring ? it->valuestring : NULL;
}

static bool
jnum(const cJSON *obj, const char *key, long long *out)
{
	const cJSON	*it = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsNumber(it) || it->valuedouble < 0 ||
	    it->valuedouble > 9e15)
		return false;
	*out = (long long)it->valuedouble;
	return true;
}

static bool
is(const char *tool, const char *name)
{
	return strcmp(tool, name) == 0;
}

/*
 * Appends s[0..len) as one line: blanks and control characters become
 * one space, and at most max characters are kept ("..." marks a cut).
 */
static void
add_part(struct buf *b, const char *s, size_t len, size_t max)
{
	size_t	i, chars = 0, n;
	bool	space = false;

	if (s == NULL)
		return;
	while (len > 0 && ((unsigned char)*s <= ' '))
		s++, len--;
	while (len > 0 && ((unsigned char)s[len - 1] <= ' '))
		len--;
	for (i = 0; i < len; i += n) {
		n = utf8_seqlen((const unsigned char *)s + i, len - i);
		if (n == 0)
			n = 1;
		if ((unsigned char)s[i] < ' ' || s[i] == 0x7f) {
			space = true;
			continue;
		}
		if (chars == max) {
			buf_adds(b, "...");
			return;
		}
		if (space)
			buf_addc(b, ' ');
		space = false;
		buf_add(b, s + i, n);
		chars++;
	}
}

static void
add_str(struct buf *b, const char *s, size_t max)
{
	if (s != NULL)
		add_part(b, s, strlen(s), max);
}

/* The first line of s that is not blank, as a part. */
static void
add_first_line(struct buf *b, const char *s, size_t len, size_t max)
{
	const char	*p = s, *end = s + len, *nl;

	while (p != NULL && p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		for (const char *q = p; q < nl; q++)
			if ((unsigned char)*q > ' ') {
				add_part(b, p, (size_t)(nl - p), max);
				return;
			}
		p = nl + 1;
	}
}

static size_t
count_lines(const char *s)
{
	size_t	n = 0;

	if (s == NULL || *s == '\0')
		return 0;
	for (n = 1; *s; s++)
		if (*s == '\n' && s[1] != '\0')
			n++;
	return n;
}

/* "exit N" from an error that starts "Exit code N", else NULL. */
static bool
exit_code(const char *error, long long *code)
{
	char	*end;

	if (error == NULL || strncmp(error, "Exit code ", 10) != 0)
		return false;
	*code = strtoll(error + 10, &end, 10);
	return end != error + 10;
}

static void
bash_status(struct buf *b, const struct toolsum_call *c)
{
	long long	code;

	if (c->error != NULL && exit_code(c->error, &code))
		buf_printf(b, "exit %lld", code);
	else if (c->error != NULL) {
		buf_adds(b, "error: ");
		add_first_line(b, c->error, strlen(c->error), TOOLSUM_PART_MAX);
	} else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c->response,
	    "interrupted")))
		buf_adds(b, "interrupted");
	else
		buf_adds(b, "exit 0");
}

/* Lines added and removed by an Edit or a MultiEdit. */
static void
edit_counts(const cJSON *input, size_t *added, size_t *removed)
{
	const cJSON	*edits = cJSON_GetObjectItemCaseSensitive(input,
			    "edits"), *e;

	*added = *removed = 0;
	if (cJSON_IsArray(edits)) {
		cJSON_ArrayForEach(e, edits) {
			*added += count_lines(jstr(e, "new_string"));
			*removed += count_lines(jstr(e, "old_string"));
		}
		return;
	}
	*added = count_lines(jstr(input, "new_string"));
	*removed = count_lines(jstr(input, "old_string"));
}

/* Matches of a Grep: its count, else the files or lines it listed. */
static long long
grep_count(const struct toolsum_call *c)
{
	const cJSON	*names;
	long long	 n;

	if (jnum(c->response, "numMatches", &n) ||
	    jnum(c->response, "numFiles", &n))
		return n;
	names = cJSON_GetObjectItemCaseSensitive(c->response, "filenames");
	if (cJSON_IsArray(names))
		return cJSON_GetArraySize(names);
	return c->output_len > 0 ? (long long)count_lines(c->output) : 0;
}

/* The first text value of the input, for tools nobody here knows. */
static const char *
first_text(const cJSON *input)
{
	const cJSON	*it;

	cJSON_ArrayForEach(it, input)
		if (cJSON_IsString(it) && it->valuestring[0] != '\0')
			return it->valuestring;
	return NULL;
}

char *
toolsum(const struct toolsum_call *c)
{
	struct buf	 b;
	const char	*t = c->tool, *s;
	size_t		 added, removed;
	long long	 n;

	buf_init(&b);
	if (is(t, "Read")) {
		buf_adds(&b, "Read ");
		add_str(&b, c->path, 4 * TOOLSUM_PART_MAX);
		buf_adds(&b, ": ");
		if (c->output != NULL)
			add_first_line(&b, c->output, c->output_len,
			    TOOLSUM_PART_MAX);
		buf_adds(&b, "...");
	} else if (is(t, "Write")) {
		buf_printf(&b, "Wrote %zu lines to ",
		    count_lines(jstr(c->input, "content")));
		add_str(&b, c->path, 4 * TOOLSUM_PART_MAX);
	} else if (is(t, "Bash") || is(t, "PowerShell")) {
		buf_adds(&b, "Ran `");
		add_str(&b, c->command, TOOLSUM_PART_MAX);
		buf_adds(&b, "`: ");
		bash_status(&b, c);
		return buf_detach(&b, NULL);
	} else if (is(t, "Grep")) {
		buf_printf(&b, "Found %lld matches for ", grep_count(c));
		add_str(&b, jstr(c->input, "pattern"), TOOLSUM_PART_MAX);
	} else if (is(t, "Glob")) {
		buf_printf(&b, "Found %lld files for ", grep_count(c));
		add_str(&b, jstr(c->input, "pattern"), TOOLSUM_PART_MAX);
	} else if (is(t, "Edit") || is(t, "MultiEdit")) {
		edit_counts(c->input, &added, &removed);
		buf_adds(&b, "Edited ");
		add_str(&b, c->path, 4 * TOOLSUM_PART_MAX);
		buf_printf(&b, " (+%zu -%zu lines)", added, removed);
	} else if (is(t, "NotebookEdit")) {
		buf_adds(&b, "Edited notebook ");
		add_str(&b, c->path, 4 * TOOLSUM_PART_MAX);
	} else if (is(t, "WebFetch")) {
		buf_adds(&b, "Fetched ");
		add_str(&b, jstr(c->input, "url"), 2 * TOOLSUM_PART_MAX);
		buf_adds(&b, ": ");
		if (jnum(c->response, "code", &n)) {
			buf_printf(&b, "%lld", n);
			if ((s = jstr(c->response, "codeText")) != NULL) {
				buf_addc(&b, ' ');
				add_str(&b, s, 40);
			}
			/* The status says it all. */
			if (n >= 400)
				return buf_detach(&b, NULL);
		} else if (c->error == NULL)
			buf_adds(&b, "ok");
		else
			buf_truncate(&b, b.len - 2);
	} else if (is(t, "WebSearch")) {
		buf_adds(&b, "Searched for ");
		add_str(&b, jstr(c->input, "query"), TOOLSUM_PART_MAX);
	} else if (is(t, "Task")) {
		buf_adds(&b, "Ran agent ");
		add_str(&b, (s = jstr(c->input, "subagent_type")) ? s : "task",
		    40);
		buf_adds(&b, ": ");
		add_str(&b, jstr(c->input, "description"), TOOLSUM_PART_MAX);
	} else {
		add_str(&b, t, 80);
		s = c->path ? c->path : c->command ? c->command :
		    first_text(c->input);
		if (s != NULL) {
			buf_addc(&b, ' ');
			add_str(&b, s, TOOLSUM_PART_MAX);
		}
	}
	if (c->error != NULL) {
		buf_adds(&b, " (failed: ");
		add_first_line(&b, c->error, strlen(c->error),
		    TOOLSUM_PART_MAX);
		buf_addc(&b, ')');
	}
	return buf_detach(&b, NULL);
}
