/*
 * reflexion-rules import FILE...: diet103 skill-rules.json or hookify
 * .local.md rules, printed as one reflexion-rules YAML file on stdout.
 * The kind of each file is told by its name (*.json, *.md), else by its
 * first byte ('{' or '-').  Files of both kinds cannot be mixed in one
 * output, since each becomes its own pack.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "cmdargs.h"
#include "datadir.h"
#include "fileio.h"
#include "import.h"
#include "userconf.h"
#include "xmalloc.h"

#define IMPORT_FILE_MAX	(8u * 1024 * 1024)
#define SCHEMA_NAME	"rules.schema.json"

static int cmd_import_exec(int, char **);

const struct cmd_entry cmd_import_entry = {
	.name = "import",
	.args = "skill-rules.json | hookify.NAME.local.md...",
	.lower = 1,
	.upper = -1,
	.summary = "Print the reflexion-rules YAML equivalent of a diet103 "
	    "skill-rules.json or of hookify rule files.",
	.exec = cmd_import_exec,
};

enum kind {
	K_UNKNOWN,
	K_DIET103,
	K_HOOKIFY
};

static enum kind
kind_of(const char *path, const char *text, size_t len)
{
	size_t	i;

	if (str_has_suffix(path, ".json"))
		return K_DIET103;
	if (str_has_suffix(path, ".md"))
		return K_HOOKIFY;
	for (i = 0; i < len && strchr(" \t\r\n", text[i]); i++)
		;
	if (i < len && text[i] == '{')
		return K_DIET103;
	if (len >= 3 && memcmp(text, "---", 3) == 0)
		return K_HOOKIFY;
	return K_UNKNOWN;
}

static int
read_file(const char *path, struct buf *out, struct diag_list *diags)
{
	struct diag_loc		loc;
	struct stat		st;
	enum fd_read_result	r;
	int			fd;

	memset(&loc, 0, sizeof(loc));
	loc.file = path;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		diag_add(diags, DIAG_ERROR, DIAG_io, &loc, "cannot read: %s",
		    fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	r = fd_read_all(fd, IMPORT_FILE_MAX, false, out);
	close(fd);
	if (r == FD_READ_OK)
		return 0;
	if (r == FD_READ_TOO_BIG)
		diag_add(diags, DIAG_ERROR, DIAG_yaml_limit, &loc,
		    "larger than %u bytes", IMPORT_FILE_MAX);
	else
		diag_add(diags, DIAG_ERROR, DIAG_io, &loc, "cannot read: %s",
		    strerror(errno));
	return -1;
}

/* hookify only reads .claude/hookify.*.local.md: say so for other names. */
static void
check_hookify_name(const char *path, struct diag_list *diags)
{
	const char	*base = strrchr(path, '/');
	struct diag_loc	 loc;
	struct diag	*d;

	base = base ? base + 1 : path;
	if (strncmp(base, "hookify.", 8) == 0 &&
	    str_has_suffix(base, ".local.md"))
		return;
	memset(&loc, 0, sizeof(loc));
	loc.file = path;
	d = diag_add(diags, DIAG_WARNING, DIAG_import, &loc, "hookify only "
	    "loads files named .claude/hookify.NAME.local.md; this one was "
	    "never active there");
	diag_set_hint(d, "the rule is imported all the same");
}

/*
 * The JSON schema of rule files, as an editor can open it: installed
 * beside the packs (in $(pkgdatadir)/schemas), or where this program
 * keeps its data; the configured place when neither holds it.  Owned.
 */
static char *
schema_file(void)
{
	struct stat	 st;
	char		*packs = packs_dir(), *slash, *f, *dir;

	if ((slash = strrchr(packs, '/')) != NULL && slash != packs) {
		*slash = '\0';
		f = xasprintf("%s/schemas/" SCHEMA_NAME, packs);
		if (stat(f, &st) == 0 && S_ISREG(st.st_mode)) {
			free(packs);
			return f;
		}
		free(f);
	}
	free(packs);
	dir = datadir_path("schemas");
	f = xasprintf("%s/" SCHEMA_NAME, dir);
	free(dir);
	return f;
}

static void
header(struct buf *b, enum kind k, int argc, char **argv)
{
	char	*schema = schema_file();
	int	 i;

	buf_printf(b, "# yaml-language-server: $schema=%s\n#\n"
	    "# Written by `reflexion-rules import` from:\n", schema);
	free(schema);
	for (i = 0; i < argc; i++)
		buf_printf(b, "#   %s\n", argv[i]);
	if (k == K_DIET103)
		buf_adds(b, "#\n# diet103 skill rules, as reflexion-rules reads "
		    "skill-rules.json itself:\n# promptTriggers are suggest "
		    "rules (keywords: case-insensitive substrings,\n"
		    "# intentPatterns: case-insensitive regexes); a "
		    "guardrail with enforcement\n# block is a PreToolUse deny "
		    "of Edit, Write and MultiEdit (NAME-guard).\n"
		    "version: 1\npack: skill-rules\nrules:\n");
	else
		buf_adds(b, "#\n# hookify rules, with hookify's known bugs "
		    "fixed: Write's content and\n# the prompt are tested, a "
		    "block tells the model why, a warn is context\n# the model "
		    "sees, and rules run on their own events only (PreToolUse "
		    "for\n# bash and file rules).  See reflexion-rules(1), "
		    "import.\nversion: 1\npack: hookify\nrules:\n");
}

static int
cmd_import_exec(int argc, char **argv)
{
	struct cmd_args		 a;
	struct diag_list	 diags;
	struct import_ids	 ids;
	struct buf		 text, rules, doc;
	enum kind		 k, first = K_UNKNOWN;
	int			 i, n = 0, r, status = RR_EXIT_OK;
	size_t			 j;
	char			*err;

	if (cmd_args_parse(&cmd_import_entry, argc, argv, &a, &err) < 0)
		return cmd_usage(&cmd_import_entry, err);
	if (a.help) {
		cmd_print_help(&cmd_import_entry, stdout);
		cmd_args_release(&a);
		return RR_EXIT_OK;
	}
	diag_list_init(&diags);
	memset(&ids, 0, sizeof(ids));
	buf_init(&text);
	buf_init(&rules);
	buf_init(&doc);
	for (i = 0; i < a.nrest; i++) {
		buf_reset(&text);
		if (read_file(a.rest[i], &text, &diags) < 0)
			continue;
		k = kind_of(a.rest[i], text.data, text.len);
		if (k == K_UNKNOWN || (first != K_UNKNOWN && k != first)) {
			struct diag_loc loc;
			memset(&loc, 0, sizeof(loc));
			loc.file = a.rest[i];
			diag_add(&diags, DIAG_ERROR, DIAG_import, &loc, "%s",
			    k == K_UNKNOWN ? "neither a skill-rules.json nor "
			    "a hookify rule" : "import skill-rules.json and "
			    "hookify files separately");
			continue;
		}
		first = k;
		if (k == K_HOOKIFY)
			check_hookify_name(a.rest[i], &diags);
		r = k == K_DIET103 ?
		    import_skill_rules(a.rest[i], text.data, text.len, &ids,
		    &rules, &diags) :
		    import_hookify(a.rest[i], text.data, text.len, &ids,
		    &rules, &diags);
		if (r > 0)
			n += r;
	}
	diag_sort(&diags);
	for (j = 0; j < diags.n; j++)
		diag_print_text(stderr, &diags.items[j]);
	/* Nothing came out of files that all failed: print nothing. */
	if (first != K_UNKNOWN && (n > 0 || diags.errors == 0)) {
		header(&doc, first, a.nrest, a.rest);
		buf_add(&doc, rules.data, rules.len);
		if (n == 0)
			buf_adds(&doc, "  []\n");
		fwrite(doc.data, 1, doc.len, stdout);
	}
	if (diags.errors > 0)
		status = RR_EXIT_FAIL;
	buf_release(&text);
	buf_release(&rules);
	buf_release(&doc);
	import_ids_release(&ids);
	diag_list_release(&diags);
	cmd_args_release(&a);
	return status;
}
