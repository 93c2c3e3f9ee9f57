#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "userconf.h"
#include "fileio.h"
#include "manifest.h"
#include "xmalloc.h"
#include "yamlload.h"

#ifndef RR_PACKS_DIR
#define RR_PACKS_DIR	"/usr/local/share/reflexion-rules/rules"
#endif

#define CONFIG_FILE_MAX	(1024u * 1024)
#define PACK_NAME_MAX	64

static const char *const config_keys[] = { "packs", NULL };

char *
packs_dir(void)
{
	const char	*d = getenv("REFLEXION_PACKS_DIR");

	return xstrdup(d != NULL && *d != '\0' ? d : RR_PACKS_DIR);
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

static struct diag *
cfg_error(struct diag_list *diags, const struct ydoc *doc,
    const struct ynode *n, enum diag_code code, const char *msg,
    const char *arg)
{
	struct diag_loc	loc;

	ydoc_loc(doc, n, &loc);
	return diag_add(diags, DIAG_ERROR, code, &loc, msg, arg);
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
	const struct ynode	*root, *k, *packs;
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
		if (k->type == YNODE_SCALAR && strcmp(k->str, "packs") == 0)
			continue;
		d = cfg_error(diags, &doc, k, DIAG_unknown_key,
		    "unknown key '%s' in config.yaml",
		    k->type == YNODE_SCALAR ? k->str : "?");
		diag_set_hint(d, "the keys are: %s", config_keys[0]);
	}
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
	free(cfg->packs);
	free(cfg->file);
	memset(cfg, 0, sizeof(*cfg));
}
