/*
 * The tables of the reader of interpreter one-liners (shellinterp_priv.h):
 * the interpreters and how each is given its program, and the calls, by
 * language, that run a shell, delete, or run more code.
 */
#include <stddef.h>
#include <string.h>

#include "buf.h"
#include "shellinterp_priv.h"

static const char *const node_long[] = { "--eval", "--print", NULL };
static const char *const awk_long[] = { "--source", NULL };
static const char *const none_long[] = { NULL };

static const struct interp interps[] = {
	{ "python*", L_PYTHON, "c", none_long, "WX", "m", false },
	{ "pypy*", L_PYTHON, "c", none_long, "WX", "m", false },
	{ "node", L_NODE, "ep", node_long, "r", "", false },
	{ "nodejs", L_NODE, "ep", node_long, "r", "", false },
	{ "bun", L_NODE, "e", node_long, "r", "", false },
	{ "ruby", L_RUBY, "e", none_long, "ICr", "EFKTUWx", false },
	{ "perl", L_PERL, "eE", none_long, "I", "CDdFiIlMmx0", false },
	{ "php", L_PHP, "r", none_long, "cdz", "", false },
	{ "osascript", L_OSA, "e", none_long, "sl", "", false },
	{ "awk", L_AWK, "e", awk_long, "Fv", "", true },
	{ "gawk", L_AWK, "e", awk_long, "Fv", "", true },
	{ "mawk", L_AWK, "", none_long, "Fv", "", true },
	{ "nawk", L_AWK, "", none_long, "Fv", "", true },
};

const struct interp *
sh_find_interp(const char *prog)
{
	size_t	i, n;

	for (i = 0; i < sizeof(interps) / sizeof(interps[0]); i++) {
		n = strlen(interps[i].name);
		if (interps[i].name[n - 1] == '*' ?
		    strncmp(prog, interps[i].name, n - 1) == 0 :
		    strcmp(prog, interps[i].name) == 0)
			return &interps[i];
	}
	return NULL;
}

/*
 * The program text of c, every -e joined by newlines, into out.  Whether
 * there is one (a script file, -f progfile or python -m is none);
 * *from_stdin when there is none because it reads it from its input (no
 * script file, or "-").
 */
bool
sh_program_text(const struct interp *in, const struct sh_cmd *c,
    struct buf *out, bool *from_stdin)
{
	const char	*s;
	size_t		 i, k, n;
	bool		 found = false;

	*from_stdin = false;

	for (i = 1; i < c->argc; i++) {
		s = c->argv[i];
		if (strcmp(s, "--") == 0) {
			i++;
			break;
		}
		if (s[0] == '-' && s[1] == '-') {
			n = strcspn(s, "=");
			for (k = 0; in->prog_long[k]; k++)
				if (strlen(in->prog_long[k]) == n &&
				    strncmp(s, in->prog_long[k], n) == 0)
					break;
			if (in->prog_long[k] == NULL) {
				if (strncmp(s, "--file", 6) == 0)
					return found;
				continue;
			}
			if (found)
				buf_addc(out, '\n');
			if (s[n] == '=')
				buf_adds(out, s + n + 1);
			else if (i + 1 < c->argc)
				buf_adds(out, c->argv[++i]);
			found = true;
			continue;
		}
		if (s[0] != '-' || s[1] == '\0')
			break;
		for (k = 1; s[k]; k++) {
			if (strchr(in->prog_short, s[k]) != NULL) {
				if (found)
					buf_addc(out, '\n');
				if (s[k + 1])
					buf_adds(out, s + k + 1);
				else if (i + 1 < c->argc)
					buf_adds(out, c->argv[++i]);
				found = true;
				break;
			}
			if (in->lang == L_AWK && s[k] == 'f')
				return found;
			/*
			 * A letter of both lists (perl's -I) takes the rest of
			 * the word, or the next word when it ends the word:
			 * -Ilib and -I lib.
			 */
			if (strchr(in->val_short, s[k]) != NULL &&
			    s[k + 1] == '\0') {
				i++;
				break;
			}
			if (strchr(in->rest_short, s[k]) != NULL) {
				if (in->lang == L_PYTHON)
					return found;	/* -m module */
				break;
			}
			if (strchr(in->val_short, s[k]) != NULL)
				break;
		}
	}
	if (!found && in->first_arg && i < c->argc) {
		buf_adds(out, c->argv[i]);
		found = true;
	}
	*from_stdin = !found && !in->first_arg && (i >= c->argc ||
	    strcmp(c->argv[i], "-") == 0);
	return found;
}

static const struct call calls[] = {
	{ "system", NULL, L_ALL, K_SHELL },
	{ "popen", NULL, L_ALL, K_SHELL },
	{ "exec", NULL, LB(L_NODE) | LB(L_RUBY) | LB(L_PERL) | LB(L_PHP),
	    K_SHELL },
	{ "execSync", NULL, LB(L_NODE), K_SHELL },
	{ "execFile", NULL, LB(L_NODE), K_SHELL },
	{ "execFileSync", NULL, LB(L_NODE), K_SHELL },
	{ "spawn", NULL, LB(L_NODE) | LB(L_RUBY), K_SHELL },
	{ "spawnSync", NULL, LB(L_NODE), K_SHELL },
	{ "run", "subprocess", LB(L_PYTHON), K_ARGV },
	{ "call", "subprocess", LB(L_PYTHON), K_ARGV },
	{ "check_call", NULL, LB(L_PYTHON), K_ARGV },
	{ "check_output", NULL, LB(L_PYTHON), K_ARGV },
	{ "Popen", NULL, LB(L_PYTHON), K_ARGV },
	{ "getoutput", NULL, LB(L_PYTHON), K_SHELL },
	{ "getstatusoutput", NULL, LB(L_PYTHON), K_SHELL },
	{ "capture2", NULL, LB(L_RUBY), K_SHELL },
	{ "capture2e", NULL, LB(L_RUBY), K_SHELL },
	{ "capture3", NULL, LB(L_RUBY), K_SHELL },
	{ "shell_exec", NULL, LB(L_PHP), K_SHELL },
	{ "passthru", NULL, LB(L_PHP), K_SHELL },
	{ "proc_open", NULL, LB(L_PHP), K_SHELL },
	{ "qx", NULL, LB(L_PERL), K_SHELL },
	{ "exec", NULL, LB(L_PYTHON), K_CODE },
	{ "eval", NULL, L_ALL & ~LB(L_AWK), K_CODE },
	{ "rmtree", NULL, L_ALL, K_RMRF },
	{ "remove_tree", NULL, LB(L_PERL), K_RMRF },
	{ "rm_rf", NULL, LB(L_RUBY), K_RMRF },
	{ "rm_r", NULL, LB(L_RUBY), K_RMRF },
	{ "remove_dir", NULL, LB(L_RUBY), K_RMRF },
	{ "remove_entry", NULL, LB(L_RUBY), K_RMRF },
	{ "remove_entry_secure", NULL, LB(L_RUBY), K_RMRF },
	{ "rmSync", NULL, LB(L_NODE), K_RM },
	{ "rm", "fs", LB(L_NODE), K_RM },
	{ "rm", "promises", LB(L_NODE), K_RM },
	{ "open", NULL, LB(L_PYTHON) | LB(L_RUBY) | LB(L_NODE) | LB(L_PERL),
	    K_OPEN },
	{ "copy", "shutil", LB(L_PYTHON), K_COPY },
	{ "copy2", NULL, LB(L_PYTHON), K_COPY },
	{ "copyfile", NULL, LB(L_PYTHON), K_COPY },
	{ "copytree", NULL, LB(L_PYTHON), K_COPY },
	{ "move", "shutil", LB(L_PYTHON), K_MOVE },
	{ "rename", "os", LB(L_PYTHON), K_MOVE },
	{ "replace", "os", LB(L_PYTHON), K_MOVE },
	{ "renames", "os", LB(L_PYTHON), K_MOVE },
	{ "copyFileSync", NULL, LB(L_NODE), K_COPY },
	{ "copyFile", NULL, LB(L_NODE), K_COPY },
	{ "cpSync", NULL, LB(L_NODE), K_COPY },
	{ "cp", "fs", LB(L_NODE), K_COPY },
	{ "cp", "promises", LB(L_NODE), K_COPY },
	{ "renameSync", NULL, LB(L_NODE), K_MOVE },
	{ "rename", "fs", LB(L_NODE), K_MOVE },
	{ "rename", "promises", LB(L_NODE), K_MOVE },
	{ "cp", "FileUtils", LB(L_RUBY), K_COPY },
	{ "cp_r", NULL, LB(L_RUBY), K_COPY },
	{ "copy_file", NULL, LB(L_RUBY), K_COPY },
	{ "install", "FileUtils", LB(L_RUBY), K_COPY },
	{ "copy_stream", NULL, LB(L_RUBY), K_COPY },
	{ "mv", "FileUtils", LB(L_RUBY), K_MOVE },
	{ "rename", "File", LB(L_RUBY), K_MOVE },
	{ "copy", NULL, LB(L_PERL) | LB(L_PHP), K_COPY },
	{ "move", NULL, LB(L_PERL), K_MOVE },
	{ "rename", NULL, LB(L_PERL) | LB(L_PHP), K_MOVE },
	{ "fopen", NULL, LB(L_PHP), K_OPEN },
	{ "writeFileSync", NULL, LB(L_NODE), K_WRITE },
	{ "writeFile", NULL, LB(L_NODE), K_WRITE },
	{ "appendFileSync", NULL, LB(L_NODE), K_WRITE },
	{ "appendFile", NULL, LB(L_NODE), K_WRITE },
	{ "createWriteStream", NULL, LB(L_NODE), K_WRITE },
	{ "write", "File", LB(L_RUBY), K_WRITE },
	{ "write", "IO", LB(L_RUBY), K_WRITE },
	{ "file_put_contents", NULL, LB(L_PHP), K_WRITE },
	{ "readFileSync", NULL, LB(L_NODE), K_READ },
	{ "readFile", NULL, LB(L_NODE), K_READ },
	{ "createReadStream", NULL, LB(L_NODE), K_READ },
	{ "read", "File", LB(L_RUBY), K_READ },
	{ "read", "IO", LB(L_RUBY), K_READ },
	{ "readlines", NULL, LB(L_RUBY), K_READ },
	{ "file_get_contents", NULL, LB(L_PHP), K_READ },
	{ "readfile", NULL, LB(L_PHP), K_READ },
	{ "execv", "os", LB(L_PYTHON), K_EXECV },
	{ "execve", "os", LB(L_PYTHON), K_EXECV },
	{ "execvp", "os", LB(L_PYTHON), K_EXECV },
	{ "execvpe", "os", LB(L_PYTHON), K_EXECV },
	{ "execl", "os", LB(L_PYTHON), K_EXECV },
	{ "execle", "os", LB(L_PYTHON), K_EXECV },
	{ "execlp", "os", LB(L_PYTHON), K_EXECV },
	{ "execlpe", "os", LB(L_PYTHON), K_EXECV },
	{ "rm", "FileUtils", LB(L_RUBY), K_RM },
	{ "rm_f", NULL, LB(L_RUBY), K_RM },
	{ "unlinkSync", NULL, LB(L_NODE), K_RM },
	{ "unlink", NULL, L_ALL, K_RM },
	{ "remove", "os", LB(L_PYTHON), K_RM },
	{ "remove", "FileUtils", LB(L_RUBY), K_RM },
	{ "delete", "File", LB(L_RUBY), K_RM },
	{ "rmdirSync", NULL, LB(L_NODE), K_RMDIR },
	{ "rmdir", NULL, L_ALL, K_RMDIR },
	{ "removedirs", NULL, LB(L_PYTHON), K_RMDIR },
	{ "delete", "Dir", LB(L_RUBY), K_RMDIR },
};

static const struct pathfn_entry pathfns[] = {
	{ "expanduser", NULL, LB(L_PYTHON), PF_SAME },
	{ "expandvars", NULL, LB(L_PYTHON), PF_SAME },
	{ "abspath", NULL, LB(L_PYTHON), PF_SAME },
	{ "realpath", NULL, LB(L_PYTHON), PF_SAME },
	{ "normpath", NULL, LB(L_PYTHON), PF_SAME },
	{ "Path", NULL, LB(L_PYTHON), PF_SAME },
	{ "PurePath", NULL, LB(L_PYTHON), PF_SAME },
	{ "PosixPath", NULL, LB(L_PYTHON), PF_SAME },
	{ "join", "path", LB(L_PYTHON) | LB(L_NODE), PF_JOIN },
	{ "resolve", "path", LB(L_NODE), PF_JOIN },
	{ "normalize", "path", LB(L_NODE), PF_SAME },
	{ "join", "File", LB(L_RUBY), PF_JOIN },
	{ "expand_path", "File", LB(L_RUBY), PF_SAME },
	{ "absolute_path", "File", LB(L_RUBY), PF_SAME },
	{ "home", "Path", LB(L_PYTHON), PF_HOME },
	{ "homedir", "os", LB(L_NODE), PF_HOME },
	{ "home", "Dir", LB(L_RUBY), PF_HOME },
	{ "getenv", NULL, LB(L_PYTHON) | LB(L_PHP), PF_ENV },
	{ "get", "environ", LB(L_PYTHON), PF_ENV },
	{ "environ", NULL, LB(L_PYTHON), PF_ENV },
	{ "ENV", NULL, LB(L_RUBY), PF_ENV },
	{ "env", "process", LB(L_NODE), PF_ENV },
};

/* The entry of a table whose name and prefix fit a dotted name. */
#define FIND_BY_NAME(table, lang, name, len) \
	((const void *)find_by_name((table), sizeof((table)[0]),	\
	    sizeof(table) / sizeof((table)[0]), (lang), (name), (len)))

/*
 * Both tables start with name, prefix and langs, at the same offsets;
 * find_by_name() reads them with memcpy, as bytes of either type.
 */
_Static_assert(offsetof(struct call, prefix) ==
    offsetof(struct pathfn_entry, prefix) &&
    offsetof(struct call, langs) == offsetof(struct pathfn_entry, langs),
    "struct call and struct pathfn_entry start alike");

static const void *
find_by_name(const void *table, size_t size, size_t n, enum lang lang,
    const char *name, size_t len)
{
	const char	*last = name, *s, *e, *ename, *prefix;
	unsigned	 langs;
	size_t		 i, lastlen, plen;

	for (s = name; s < name + len; s++)
		if (*s == '.' || *s == ':')
			last = s + 1;
	lastlen = (size_t)(name + len - last);
	for (i = 0; i < n; i++) {
		e = (const char *)table + i * size;
		memcpy(&ename, e + offsetof(struct call, name), sizeof(ename));
		memcpy(&prefix, e + offsetof(struct call, prefix),
		    sizeof(prefix));
		memcpy(&langs, e + offsetof(struct call, langs), sizeof(langs));
		if (!(langs & LB(lang)) || strlen(ename) != lastlen ||
		    memcmp(ename, last, lastlen) != 0)
			continue;
		if (prefix == NULL)
			return e;
		plen = strlen(prefix);
		if (last - name > (ptrdiff_t)plen &&
		    memcmp(last - plen - 1, prefix, plen) == 0)
			return e;
	}
	return NULL;
}

const struct pathfn_entry *
sh_find_pathfn(enum lang lang, const char *name, size_t len)
{
	return FIND_BY_NAME(pathfns, lang, name, len);
}

const struct call *
sh_find_call(enum lang lang, const char *name, size_t len)
{
	return FIND_BY_NAME(calls, lang, name, len);
}

