#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "userconf.h"
#include "datadir.h"
#include "extcmd.h"
#include "fileio.h"
#include "manifest.h"
#include "selfprot.h"
#include "xmalloc.h"
#include "yamlload.h"

#define CONFIG_FILE_MAX	(1024u * 1024)
#define PACK_NAME_MAX	64

static const char *const config_keys[] = {
	"packs", "sources", "trust", "self_protection", "lang", "summarizer",
	"router", NULL
};
static const char *const source_keys[] = { "path", "sha256", NULL };
static const char *const command_keys[] = { "command", "timeout_ms", NULL };

char *
packs_dir(void)
{
	const char	*d = getenv("REFLEXION_PACKS_DIR");

	return d != NULL && *d != '\0' ? xstrdup(d) : datadir_path("rules");
}

/* Letters, digits, '_', '-', '.', not starting with '.': a file name. */
static bool
valid_pack_name(const char *s)
{
	size_t	n = strlen(s), i;

	if (n == 0 || n > PACK_NAME_MAX || s[0] == '.')
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		    s[i] == '-' || s[i] == '.'))
			return false;
	return true;
}

/* "a, b, c": the packs in dir, sorted; owned, or NULL when none. */
static char *
installed_packs(const char *dir)
{
	struct buf	 b;
	char		**names;
	size_t		 n, i, len;

	if (dir_names(dir, &names, &n) < 0)
		return NULL;
	buf_init(&b);
	for (i = 0; i < n; i++) {
		len = strlen(names[i]);
		if (len > 5 && strcmp(names[i] + len - 5, ".yaml") == 0)
			buf_printf(&b, "%s%.*s", b.len ? ", " : "",
			    (int)(len - 5), names[i]);
	}
	dir_names_free(names, n);
	if (b.len == 0) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

static struct diag *cfg_error(struct diag_list *, const struct ydoc *,
	    const struct ynode *, enum diag_code, const char *, ...)
	    __attribute__((format(printf, 5, 6)));

static struct diag *
cfg_error(struct diag_list *diags, const struct ydoc *doc,
    const struct ynode *n, enum diag_code code, const char *fmt, ...)
{
	struct diag_loc	 loc;
	struct diag	*d;
	va_list		 ap;

	ydoc_loc(doc, n, &loc);
	va_start(ap, fmt);
	d = diag_vadd(diags, DIAG_ERROR, code, &loc, fmt, ap);
	va_end(ap);
	return d;
}

/*
 * self_protection: true or false.  Anything else is an error and leaves
 * the protection on: a typo must not switch a guard off.
 */
static void
config_self_protection(struct rr_config *cfg, const struct ydoc *doc,
    const struct ynode *v, struct diag_list *diags)
{
	struct diag	*d;

	if (v->type == YNODE_SCALAR && v->style == YSTYLE_PLAIN) {
		if (strcmp(v->str, "false") == 0) {
			cfg->self_protection_off = true;
			return;
		}
		if (strcmp(v->str, "true") == 0)
			return;
	}
	d = cfg_error(diags, doc, v, DIAG_wrong_type,
	    "'self_protection' must be true or false");
	diag_set_hint(d, "self-protection stays on");
}

static bool
is_key(const char *s, const char *const *keys)
{
	for (; *keys != NULL; keys++)
		if (strcmp(s, *keys) == 0)
			return true;
	return false;
}

/*
 * summarizer: / router: {command: "a shell line" or [words], timeout_ms: N}
 * (extcmd.h).  A wrong one is an error and leaves the command unset: the
 * engine then works without it, as if it were not configured.
 */
static void
config_command(struct rr_command *out, const char *key,
    const struct ydoc *doc, const struct ynode *v, struct diag_list *diags)
{
	const struct ynode	*cmd, *t, *k;
	struct rr_command	 c;
	struct diag		*d;
	long long		 ms = EXTCMD_TIMEOUT_DEFAULT;
	size_t			 i;

	memset(&c, 0, sizeof(c));
	if (v->type != YNODE_MAP || (cmd = ynode_get(v, "command")) == NULL) {
		d = cfg_error(diags, doc, v, DIAG_wrong_type, "'%s' must be a "
		    "mapping with a command", key);
		diag_set_hint(d, "%s: {command: 'python3 ~/bin/%s.py', "
		    "timeout_ms: 8000}", key, key);
		return;
	}
	for (i = 0; i < v->n; i++) {
		k = v->items[2 * i];
		if (k->type != YNODE_SCALAR || !is_key(k->str, command_keys))
			cfg_error(diags, doc, k, DIAG_unknown_key, "unknown key "
			    "'%s' in %s (command, timeout_ms)", k->type ==
			    YNODE_SCALAR ? k->str : "?", key);
	}
	if ((t = ynode_get(v, "timeout_ms")) != NULL && (!ynode_int(t, &ms) ||
	    ms < 1 || ms > EXTCMD_TIMEOUT_MAX)) {
		cfg_error(diags, doc, t, DIAG_invalid_value, "'timeout_ms' must "
		    "be a number of milliseconds from 1 to %d",
		    EXTCMD_TIMEOUT_MAX);
		return;
	}
	c.timeout_ms = (long)ms;
	if (cmd->type == YNODE_SCALAR && !ynode_is_null(cmd) &&
	    cmd->len > 0) {
		c.shell = xstrdup(cmd->str);
	} else if (cmd->type == YNODE_SEQ && cmd->n > 0) {
		c.argv = xcalloc(cmd->n + 1, sizeof(*c.argv));
		for (i = 0; i < cmd->n; i++) {
			if (cmd->items[i]->type != YNODE_SCALAR ||
			    ynode_is_null(cmd->items[i])) {
				cfg_error(diags, doc, cmd->items[i],
				    DIAG_wrong_type, "the words of a command "
				    "must be strings");
				extcmd_release(&c);
				return;
			}
			c.argv[i] = xstrdup(cmd->items[i]->str);
		}
	} else {
		cfg_error(diags, doc, cmd, DIAG_wrong_type, "'command' must be "
		    "a shell line or a list of words");
		return;
	}
	*out = c;
}

/*
 * lang: the language of the messages that packs write in several, a
 * language tag such as ko or en.
 */
static void
config_lang(struct rr_config *cfg, const struct ydoc *doc,
    const struct ynode *v, struct diag_list *diags)
{
	struct diag	*d;
	size_t		 i, n = 0;

	if (v->type == YNODE_SCALAR) {
		for (i = 0; v->str[i] >= 'a' && v->str[i] <= 'z'; i++)
			n++;
		if (n >= 2 && n <= 3 && (v->str[i] == '\0' ||
		    (v->str[i] == '-' && v->str[i + 1] != '\0' &&
		    strspn(v->str + i + 1, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") ==
		    strlen(v->str + i + 1)))) {
			cfg->lang = xstrdup(v->str);
			return;
		}
	}
	d = cfg_error(diags, doc, v, DIAG_invalid_value,
	    "'lang' must be a language, such as en or ko");
	diag_set_hint(d, "messages are in the language of the locale "
	    "(LANG) meanwhile");
}

/* One name of packs: checked, found in dir, added to cfg. */
static void
add_pack(struct rr_config *cfg, const char *dir, const struct ydoc *doc,
    const struct ynode *n, struct diag_list *diags)
{
	struct diag	*d;
	struct stat	 st;
	char		*path, *have;
	size_t		 i;

	if (n->type != YNODE_SCALAR || ynode_is_null(n)) {
		cfg_error(diags, doc, n, DIAG_wrong_type,
		    "a pack name must be a string, not %s",
		    ynode_type_name(n));
		return;
	}
	if (!valid_pack_name(n->str)) {
		d = cfg_error(diags, doc, n, DIAG_unknown_pack,
		    "'%s' is not a pack name", n->str);
		diag_set_hint(d, "a pack is named by its file in %s, without "
		    ".yaml", dir);
		return;
	}
	/* Loaded already, built in, unless the user turned it off. */
	if (strcmp(n->str, SELFPROT_PACK) == 0 && !cfg->self_protection_off)
		return;
	for (i = 0; i < cfg->npacks; i++)
		if (strcmp(cfg->packs[i].name, n->str) == 0) {
			cfg_error(diags, doc, n, DIAG_invalid_value,
			    "pack '%s' is listed twice", n->str);
			return;
		}
	path = xasprintf("%s/%s.yaml", dir, n->str);
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		d = cfg_error(diags, doc, n, DIAG_unknown_pack,
		    "unknown pack '%s'", n->str);
		have = installed_packs(dir);
		if (have != NULL)
			diag_set_hint(d, "the packs in %s are: %s", dir, have);
		else
			diag_set_hint(d, "%s holds no packs (is "
			    "REFLEXION_PACKS_DIR right?)", dir);
		free(have);
		free(path);
		return;
	}
	cfg->packs = xreallocarray(cfg->packs, cfg->npacks + 1,
	    sizeof(*cfg->packs));
	cfg->packs[cfg->npacks].name = xstrdup(n->str);
	cfg->packs[cfg->npacks].path = path;
	cfg->npacks++;
}


/*
 * A directory as config.yaml names it: absolute, or "~" / "~/..." for
 * $HOME.  NULL when it is neither (relative to what? the hook runs in
 * every directory) or names ~ without a HOME; owned.
 */
static char *
config_dir(const char *s)
{
	const char	*home = getenv("HOME");

	if (s[0] == '/')
		return xstrdup(s);
	if (s[0] == '~' && (s[1] == '\0' || s[1] == '/') && home != NULL &&
	    *home == '/')
		return xasprintf("%s%s", home, s + 1);
	return NULL;
}

/* A directory entry of trust: or sources:, checked; owned, or NULL. */
static char *
dir_value(const struct ydoc *doc, const struct ynode *n, const char *what,
    struct diag_list *diags)
{
	struct diag	*d;
	char		*dir;

	if (n->type != YNODE_SCALAR || ynode_is_null(n) || n->len == 0) {
		cfg_error(diags, doc, n, DIAG_wrong_type, "%s must be a "
		    "directory, not %s", what, ynode_type_name(n));
		return NULL;
	}
	if ((dir = config_dir(n->str)) == NULL) {
		d = cfg_error(diags, doc, n, DIAG_invalid_value, "%s must be "
		    "an absolute path, or start with ~/", what);
		diag_set_hint(d, "the hook runs in every directory: a "
		    "relative path would name a different one each time");
	}
	return dir;
}

/* trust: [DIR, ...]; a single DIR is a list of one. */
static void
config_trust(struct rr_config *cfg, const struct ydoc *doc,
    const struct ynode *v, struct diag_list *diags)
{
	const struct ynode	*const *items = &v;
	size_t			 n = 1, i;
	char			*dir;

	if (ynode_is_null(v))
		return;
	if (v->type == YNODE_SEQ) {
		items = (const struct ynode *const *)v->items;
		n = v->n;
	} else if (v->type != YNODE_SCALAR) {
		cfg_error(diags, doc, v, DIAG_wrong_type, "'trust' must be a "
		    "list of directories, not %s", ynode_type_name(v));
		return;
	}
	cfg->trust = xreallocarray(cfg->trust, cfg->ntrust + n + 1,
	    sizeof(*cfg->trust));
	for (i = 0; i < n; i++)
		if ((dir = dir_value(doc, items[i], "a trusted project",
		    diags)) != NULL)
			cfg->trust[cfg->ntrust++] = dir;
}

/* Whether s is a SHA-256 in hex; copies it in lower case to out. */
static bool
digest_from_hex(const char *s, size_t len, char out[65])
{
	size_t	i;

	if (len != 64)
		return false;
	for (i = 0; i < 64; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			out[i] = s[i];
		else if (s[i] >= 'a' && s[i] <= 'f')
			out[i] = s[i];
		else if (s[i] >= 'A' && s[i] <= 'F')
			out[i] = (char)(s[i] - 'A' + 'a');
		else
			return false;
	}
	out[64] = '\0';
	return true;
}

/* One entry of sources: {path: DIR, sha256: HEX}. */
static void
config_source(struct rr_config *cfg, const struct ydoc *doc,
    const struct ynode *e, struct diag_list *diags)
{
	const struct ynode	*p, *h, *k;
	struct config_source	*s;
	struct diag		*d;
	char			 hex[65], *dir;
	size_t			 i;

	if (e->type != YNODE_MAP) {
		d = cfg_error(diags, doc, e, DIAG_wrong_type, "a source must "
		    "be a mapping with 'path' and 'sha256', not %s",
		    ynode_type_name(e));
		diag_set_hint(d, "reflexion-rules rules --digest DIR prints "
		    "the entry to paste");
		return;
	}
	for (i = 0; i < e->n; i++) {
		k = e->items[2 * i];
		if (k->type != YNODE_SCALAR || !is_key(k->str, source_keys))
			cfg_error(diags, doc, k, DIAG_unknown_key,
			    "unknown key '%s' in a source (it has 'path' and "
			    "'sha256')",
			    k->type == YNODE_SCALAR ? k->str : "?");
	}
	p = ynode_get(e, "path");
	h = ynode_get(e, "sha256");
	if (p == NULL || h == NULL) {
		d = cfg_error(diags, doc, e, DIAG_missing_key, "a source needs "
		    "'%s'", p == NULL ? "path" : "sha256");
		diag_set_hint(d, "reflexion-rules rules --digest DIR prints "
		    "the entry to paste");
		return;
	}
	if (h->type != YNODE_SCALAR || !digest_from_hex(h->str, h->len, hex)) {
		d = cfg_error(diags, doc, h, DIAG_invalid_value, "'sha256' "
		    "must be 64 hexadecimal digits");
		diag_set_hint(d, "reflexion-rules rules --digest DIR prints "
		    "the digest of DIR's rule files");
		return;
	}
	if ((dir = dir_value(doc, p, "a source's path", diags)) == NULL)
		return;
	cfg->sources = xreallocarray(cfg->sources, cfg->nsources + 1,
	    sizeof(*cfg->sources));
	s = &cfg->sources[cfg->nsources++];
	memset(s, 0, sizeof(*s));
	s->path = dir;
	memcpy(s->sha256, hex, sizeof(hex));
	ydoc_loc(doc, p, &s->at_path);
	ydoc_loc(doc, h, &s->at_sha256);
	/* Their source lines are cfg's copy of the text: doc goes away. */
	s->at_path.text = s->at_sha256.text = cfg->text;
	s->at_path.text_len = s->at_sha256.text_len = cfg->len;
}

static void
config_sources(struct rr_config *cfg, const struct ydoc *doc,
    const struct ynode *v, struct diag_list *diags)
{
	size_t	i;

	if (ynode_is_null(v))
		return;
	if (v->type != YNODE_SEQ) {
		cfg_error(diags, doc, v, DIAG_wrong_type, "'sources' must be a "
		    "list of {path: DIR, sha256: HEX}, not %s",
		    ynode_type_name(v));
		return;
	}
	for (i = 0; i < v->n; i++)
		config_source(cfg, doc, v->items[i], diags);
}

/* A config file that cannot be read: logged by its stat, no contents. */
static void
log_unread(struct manifest *mf, const char *file)
{
	struct stat	st;

	if (stat(file, &st) < 0)
		manifest_absent(mf, file, errno);
	else
		manifest_file(mf, file, &st, NULL, 0);
}

/*
 * Reads the config file; 1 when it does not exist, -1 on error.  The
 * manifest gets the stat from before the read, as for rule files: a
 * change in between shows as a newer mtime.
 */
static int
read_config(const char *file, struct buf *text, struct manifest *mf,
    struct diag_list *diags)
{
	struct diag_loc		 loc;
	struct stat		 st;
	enum fd_read_result	 r;
	int			 fd;

	memset(&loc, 0, sizeof(loc));
	loc.file = file;
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT) {
		manifest_absent(mf, file, ENOENT);
		return 1;
	}
	if (fd < 0) {
		diag_add(diags, DIAG_ERROR, DIAG_io, &loc, "cannot open: %s",
		    strerror(errno));
		log_unread(mf, file);
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		diag_add(diags, DIAG_ERROR, DIAG_io, &loc,
		    "not a regular file");
		close(fd);
		log_unread(mf, file);
		return -1;
	}
	r = fd_read_all(fd, CONFIG_FILE_MAX, false, text);
	close(fd);
	if (r == FD_READ_ERROR)
		diag_add(diags, DIAG_ERROR, DIAG_io, &loc, "cannot read: %s",
		    strerror(errno));
	else if (r == FD_READ_TOO_BIG)
		diag_add(diags, DIAG_ERROR, DIAG_yaml_limit, &loc,
		    "larger than %u bytes", CONFIG_FILE_MAX);
	if (r == FD_READ_OK)
		manifest_file(mf, file, &st, text->data, text->len);
	else
		manifest_file(mf, file, &st, NULL, 0);
	return r == FD_READ_OK ? 0 : -1;
}

/*
 * The packs directory as the manifest sees a rules directory: its stat
 * and the sorted names of its entries, so that a pack installed or
 * removed (named in config.yaml or not yet) invalidates the cache.
 */
static void
log_packs_dir(struct manifest *mf, const char *dir)
{
	struct stat	 st;
	char		**names;
	size_t		 n;

	if (mf == NULL)
		return;
	if (stat(dir, &st) < 0) {
		manifest_absent(mf, dir, errno);
		return;
	}
	/* An unreadable directory is logged as an empty one, as before. */
	(void)dir_names(dir, &names, &n);
	manifest_dir(mf, dir, &st, names, n);
	dir_names_free(names, n);
}

size_t
config_load(struct rr_config *cfg, const char *home, const char *dir,
    struct manifest *mf, struct diag_list *diags)
{
	const struct ynode	*root, *k, *packs, *v;
	struct ydoc		 doc;
	struct buf		 text;
	struct diag		*d;
	size_t			 before = diags->errors, i;
	int			 r;

	memset(cfg, 0, sizeof(*cfg));
	cfg->file = xasprintf("%s/config.yaml", home);
	buf_init(&text);
	r = read_config(cfg->file, &text, mf, diags);
	if (r != 0) {
		buf_release(&text);
		return diags->errors - before;
	}
	if (ydoc_load(&doc, cfg->file, text.data, text.len, diags) < 0 ||
	    (root = doc.root) == NULL)
		goto out;
	if (root->type != YNODE_MAP) {
		d = cfg_error(diags, &doc, root, DIAG_wrong_type,
		    "config.yaml must be a mapping, not %s",
		    ynode_type_name(root));
		diag_set_hint(d, "for example: packs: [dangerous-commands]");
		goto out;
	}
	for (i = 0; i < root->n; i++) {
		k = root->items[2 * i];
		if (k->type == YNODE_SCALAR && is_key(k->str, config_keys))
			continue;
		d = cfg_error(diags, &doc, k, DIAG_unknown_key,
		    "unknown key '%s' in config.yaml",
		    k->type == YNODE_SCALAR ? k->str : "?");
		diag_set_hint(d, "the keys are: packs, sources, trust, "
		    "self_protection, lang, summarizer, router");
	}
	cfg->text = buf_detach(&text, &cfg->len);
	if ((v = ynode_get(root, "trust")) != NULL)
		config_trust(cfg, &doc, v, diags);
	if ((v = ynode_get(root, "sources")) != NULL)
		config_sources(cfg, &doc, v, diags);
	if ((v = ynode_get(root, "self_protection")) != NULL)
		config_self_protection(cfg, &doc, v, diags);
	if ((v = ynode_get(root, "lang")) != NULL)
		config_lang(cfg, &doc, v, diags);
	if ((v = ynode_get(root, "summarizer")) != NULL)
		config_command(&cfg->summarizer, "summarizer", &doc, v, diags);
	if ((v = ynode_get(root, "router")) != NULL)
		config_command(&cfg->router, "router", &doc, v, diags);
	packs = ynode_get(root, "packs");
	if (packs == NULL || ynode_is_null(packs))
		goto out;
	log_packs_dir(mf, dir);
	if (packs->type == YNODE_SEQ)
		for (i = 0; i < packs->n; i++)
			add_pack(cfg, dir, &doc, packs->items[i], diags);
	else if (packs->type == YNODE_SCALAR)
		add_pack(cfg, dir, &doc, packs, diags);
	else
		cfg_error(diags, &doc, packs, DIAG_wrong_type,
		    "'packs' must be a list of pack names, not %s",
		    ynode_type_name(packs));
out:
	ydoc_release(&doc);
	buf_release(&text);
	return diags->errors - before;
}

void
config_release(struct rr_config *cfg)
{
	size_t	i;

	for (i = 0; i < cfg->npacks; i++) {
		free(cfg->packs[i].name);
		free(cfg->packs[i].path);
	}
	for (i = 0; i < cfg->nsources; i++)
		free(cfg->sources[i].path);
	for (i = 0; i < cfg->ntrust; i++)
		free(cfg->trust[i]);
	free(cfg->packs);
	free(cfg->sources);
	free(cfg->trust);
	free(cfg->text);
	free(cfg->file);
	free(cfg->lang);
	extcmd_release(&cfg->summarizer);
	extcmd_release(&cfg->router);
	memset(cfg, 0, sizeof(*cfg));
}

/* "/a/./b//c/../d" as "/a/b/d": no file system involved; owned. */
static char *
normalize(const char *abs)
{
	char	*out = xmalloc(strlen(abs) + 2);
	size_t	 o = 0, n;
	const char *p = abs;

	while (*p != '\0') {
		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.')) {
			p += n;
			continue;
		}
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (o > 0 && out[--o] != '/')
				;
			p += n;
			continue;
		}
		out[o++] = '/';
		memcpy(out + o, p, n);
		o += n;
		p += n;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	return out;
}

char *
config_real_path(const char *path)
{
	char	*abs, *real, cwd[4096];

	if ((abs = config_dir(path)) == NULL) {
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			return normalize(path);
		abs = xasprintf("%s/%s", cwd, path);
	}
	if ((real = realpath(abs, NULL)) == NULL) {
		real = normalize(abs);
		free(abs);
		return real;
	}
	free(abs);
	abs = xstrdup(real);
	free(real);		/* realpath's, from malloc(3) */
	return abs;
}

bool
config_trusts(const struct rr_config *cfg, const char *project)
{
	char	*p, *t;
	size_t	 i;
	bool	 yes = false;

	if (cfg == NULL || cfg->ntrust == 0 || project == NULL ||
	    *project == '\0')
		return false;
	p = config_real_path(project);
	for (i = 0; i < cfg->ntrust && !yes; i++) {
		t = config_real_path(cfg->trust[i]);
		yes = strcmp(p, t) == 0;
		free(t);
	}
	free(p);
	return yes;
}
