/*
 * The files an event names and their names (event.h, pathid.h): which
 * fields of tool_input are paths, file: URIs, and the names path rules
 * compare, the real ones looked up on demand.
 */
#include <cjson/cJSON.h>
#include <string.h>

#include "ascii.h"
#include "buf.h"
#include "casefold.h"
#include "event_priv.h"
#include "xmalloc.h"

/*
 * The path-like fields of an MCP tool's input (reflexion-rules(5)): the
 * names file servers use, and any name ending in _path or Path (or
 * their plurals, whose arrays are lists of paths).  source and
 * destination are move_file's.
 */
static const char *const mcp_path_keys[] = {
	"path", "paths", "file_path", "filePath", "notebook_path", "source",
	"destination", "uri", "url", NULL
};

static bool
has_suffix(const char *s, const char *suf)
{
	size_t	n = strlen(s), m = strlen(suf);

	return n > m && memcmp(s + n - m, suf, m) == 0;
}

static bool
mcp_path_key(const char *k)
{
	size_t	i;

	for (i = 0; mcp_path_keys[i] != NULL; i++)
		if (strcmp(k, mcp_path_keys[i]) == 0)
			return true;
	return has_suffix(k, "_path") || has_suffix(k, "Path") ||
	    has_suffix(k, "_paths") || has_suffix(k, "Paths");
}

/* MCP tools: Claude Code's mcp__SERVER__TOOL, Gemini's mcp_SERVER_TOOL. */
static bool
is_mcp_tool(const char *t)
{
	return strncmp(t, "mcp_", 4) == 0;
}

static bool
letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Whether s starts with a URI scheme and "://" (https://, s3://). */
static bool
other_scheme(const char *s)
{
	const char	*p = s;

	if (!letter(*p))
		return false;
	while (letter(*p) || (*p >= '0' && *p <= '9') || *p == '+' ||
	    *p == '-' || *p == '.')
		p++;
	return p[0] == ':' && p[1] == '/' && p[2] == '/';
}

/* Whether s starts with "file:", in any case (RFC 3986: schemes fold). */
static bool
file_scheme(const char *s)
{
	static const char	file[] = "file:";
	size_t			i;

	for (i = 0; i < sizeof(file) - 1; i++)
		if ((s[i] | (letter(s[i]) ? 0x20 : 0)) != file[i])
			return false;
	return true;
}

/*
 * The local path of a file: URI, percent-decoded, into out; false when
 * it names another host.  The query and fragment are not part of the
 * file's name.  %00 stays as it is: no file name holds a NUL.
 */
static bool
file_uri_path(const char *uri, struct buf *out)
{
	const char	*p = uri + 5, *end;
	int		 hi, lo;

	if (strncmp(p, "//", 2) == 0) {
		p += 2;
		if (strncmp(p, "localhost/", 10) == 0)
			p += 9;
		else if (*p != '/')
			return false;
	}
	end = p + strcspn(p, "?#");
	buf_reset(out);
	for (; p < end; p++) {
		if (*p == '%' && p + 2 < end &&
		    (hi = ascii_hex_value(p[1])) >= 0 &&
		    (lo = ascii_hex_value(p[2])) >= 0 && (hi | lo) != 0) {
			buf_addc(out, (char)(hi * 16 + lo));
			p += 2;
		} else
			buf_addc(out, *p);
	}
	return out->len > 0;
}

static void
add_path(struct buf *list, const char *s, size_t len)
{
	struct rr_text	t;

	t.s = s;
	t.len = len;
	buf_add(list, &t, sizeof(t));
}

/* One value of a path-like field: a path, a file: URI, or neither. */
static void
add_mcp_value(struct rr_event *ev, struct buf *list, const char *key,
    const char *v, struct buf *tmp)
{
	bool	uri = strcmp(key, "uri") == 0 || strcmp(key, "url") == 0;

	if (v == NULL || *v == '\0')
		return;
	if (file_scheme(v)) {
		if (file_uri_path(v, tmp))
			add_path(list, arena_strndup(&ev->arena,
			    tmp->data, tmp->len), tmp->len);
		return;
	}
	if (uri || other_scheme(v))
		return;
	add_path(list, v, strlen(v));
}

void
event_collect_paths(struct rr_event *ev, const cJSON *input)
{
	const cJSON	*it, *el;
	const char	*one;
	struct buf	 list, tmp;

	buf_init(&list);
	if (!is_mcp_tool(ev->tool)) {
		it = cJSON_GetObjectItemCaseSensitive(input, "file_path");
		if (!cJSON_IsString(it) || it->valuestring == NULL)
			it = cJSON_GetObjectItemCaseSensitive(input,
			    "notebook_path");
		if (cJSON_IsString(it) && it->valuestring != NULL) {
			one = it->valuestring;
			add_path(&list, one, strlen(one));
		}
	} else {
		/* Every one of them, in the input's order: none is missed. */
		buf_init(&tmp);
		cJSON_ArrayForEach(it, input) {
			if (it->string == NULL || !mcp_path_key(it->string))
				continue;
			if (cJSON_IsString(it))
				add_mcp_value(ev, &list, it->string,
				    it->valuestring, &tmp);
			else if (cJSON_IsArray(it))
				cJSON_ArrayForEach(el, it)
					if (cJSON_IsString(el))
						add_mcp_value(ev, &list,
						    it->string,
						    el->valuestring, &tmp);
		}
		buf_release(&tmp);
	}
	ev->npaths = list.len / sizeof(struct rr_text);
	if (ev->npaths > 0) {
		ev->path_raw = arena_alloc(&ev->arena, list.len);
		memcpy(ev->path_raw, list.data, list.len);
		ev->f[F_PATH] = ev->path_raw[0];
	}
	buf_release(&list);
}

/*
 * The project root as paths see it, made the first time a path needs
 * it: an event that names no file pays nothing for it.
 */
static struct path_root *
event_root(struct rr_event *ev)
{
	if (!ev->paths_root_set) {
		path_root_set(&ev->paths_root, &ev->arena, ev->project_dir);
		ev->paths_root_set = true;
	}
	return &ev->paths_root;
}

void
event_derive_paths(struct rr_event *ev)
{
	struct path_forms	*f;
	struct path_root	*root;
	size_t			 i;

	ev->abs_path = ev->rel_path = NULL;
	ev->paths_resolved = false;
	ev->paths_root_set = false;
	ev->path_text.s = NULL;
	ev->path_text.len = 0;
	if (ev->npaths == 0)
		return;
	root = event_root(ev);
	ev->paths = arena_alloc(&ev->arena, ev->npaths * sizeof(*ev->paths));
	for (i = 0; i < ev->npaths; i++)
		path_lexical(&ev->paths[i], &ev->arena, root, ev->cwd,
		    ev->path_raw[i].s, ev->path_raw[i].len);
	f = &ev->paths[0];
	ev->abs_path = f->abs;
	ev->rel_path = f->rel != NULL ? f->rel : f->abs;
}

size_t
event_paths(struct rr_event *ev, const struct path_forms **out)
{
	size_t	i;

	if (!ev->paths_resolved) {
		ev->paths_resolved = true;
		for (i = 0; i < ev->npaths; i++)
			path_physical(&ev->paths[i], &ev->arena,
			    event_root(ev));
	}
	*out = ev->paths;
	return ev->npaths;
}

bool
event_paths_fold_case(struct rr_event *ev)
{
	struct path_root	*root = event_root(ev);

	path_root_resolve(root, &ev->arena);
	return path_root_folds(root);
}

void
event_path_identity(struct rr_event *ev, const char *raw, size_t len,
    struct path_forms *f)
{
	path_identity(f, &ev->arena, event_root(ev), ev->cwd, raw, len);
}

struct rr_text
event_path_text(struct rr_event *ev)
{
	const struct path_forms	*f;
	struct buf		 b;
	size_t			 n, i;
	bool			 fold;

	if (ev->path_text.s != NULL)
		return ev->path_text;
	n = event_paths(ev, &f);
	if (n == 0)
		return ev->path_text;
	/*
	 * Where case is folded, the folding follows: the prefilter finds
	 * there, as written, the atoms that fold to themselves (prefilter.c).
	 */
	fold = event_paths_fold_case(ev);
	if (n == 1 && f[0].real == NULL && !fold) {
		ev->path_text.s = f[0].abs;
		ev->path_text.len = strlen(f[0].abs);
		return ev->path_text;
	}
	buf_init(&b);
	for (i = 0; i < n; i++)
		event_names_add(&b, &f[i]);
	ev->path_text = event_names_text(ev, &b);
	buf_release(&b);
	return ev->path_text;
}

void
event_names_add(struct buf *b, const struct path_forms *f)
{
	buf_printf(b, "%s%s", b->len ? "\n" : "", f->abs);
	if (f->real != NULL)
		buf_printf(b, "\n%s", f->real);
}

struct rr_text
event_names_text(struct rr_event *ev, struct buf *b)
{
	struct buf	folded;
	struct rr_text	t;

	if (b->len > 0 && event_paths_fold_case(ev)) {
		/* Into another buffer: b's data may move as b grows. */
		buf_init(&folded);
		rr_fold(b->data, b->len, &folded);
		buf_addc(b, '\n');
		buf_add(b, folded.data, folded.len);
		buf_release(&folded);
	}
	t.len = b->len;
	t.s = arena_strndup(&ev->arena, b->data, b->len);
	return t;
}
