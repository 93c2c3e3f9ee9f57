/*
 * Commands hidden inside other commands: the calls of interpreter
 * one-liners, text piped to a shell, positional parameters of sh -c and
 * substitutions inside arithmetic, each read as the commands they run;
 * and the look-alikes that run nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "shelltargets.h"
#include "shellwords.h"
#include "tap.h"

/*
 * The commands nested one level or more (the ones these forms make), as
 * "d<depth>:argv" separated by " ; "; "-" when there is none.
 */
static char *
nested(const char *cmd)
{
	struct sh_script	sc;
	struct buf		b;
	size_t			i, k;

	sh_parse(&sc, cmd, strlen(cmd));
	buf_init(&b);
	for (i = 0; i < sc.n; i++) {
		const struct sh_cmd *c = &sc.cmds[i];
		if (c->depth == 0)
			continue;
		buf_printf(&b, "%sd%d:", b.len ? " ; " : "", c->depth);
		for (k = 0; k < c->argc; k++)
			buf_printf(&b, "%s%s", k ? " " : "", c->argv[k]);
	}
	if (b.len == 0)
		buf_adds(&b, "-");
	sh_release(&sc);
	return buf_detach(&b, NULL);
}

/* A TAP description on one line: newlines escaped. */
static const char *
oneline(const char *s)
{
	static char	out[256];
	size_t		i = 0;

	for (; *s && i < sizeof(out) - 3; s++) {
		if (*s == '\n') {
			out[i++] = '\\';
			out[i++] = 'n';
		} else
			out[i++] = *s;
	}
	out[i] = '\0';
	return out;
}

/* The top-level commands, " ; " between them. */
static char *
top(const char *cmd)
{
	struct sh_script	sc;
	struct buf		b;
	size_t			i, k;

	sh_parse(&sc, cmd, strlen(cmd));
	buf_init(&b);
	for (i = 0; i < sc.n; i++) {
		const struct sh_cmd *c = &sc.cmds[i];
		if (c->depth != 0)
			continue;
		if (b.len)
			buf_adds(&b, " ; ");
		for (k = 0; k < c->argc; k++)
			buf_printf(&b, "%s%s", k ? " " : "", c->argv[k]);
	}
	sh_release(&sc);
	if (b.len == 0)
		buf_adds(&b, "-");
	return buf_detach(&b, NULL);
}

/* The files the command writes (w:) and reads (r:), " " between. */
static char *
files(const char *cmd)
{
	struct sh_script	sc;
	struct sh_targets	t;
	struct buf		b;
	size_t			i;

	sh_parse(&sc, cmd, strlen(cmd));
	sh_targets_collect(&sc, &t);
	buf_init(&b);
	for (i = 0; i < t.n; i++)
		buf_printf(&b, "%s%s:%s", b.len ? " " : "",
		    t.v[i].access == SH_WRITE ? "w" : "r", t.v[i].file);
	if (b.len == 0)
		buf_adds(&b, "-");
	sh_targets_release(&t);
	sh_release(&sc);
	return buf_detach(&b, NULL);
}

#define is_files(cmd, want) do {					\
	char *got_ = files(cmd);					\
	is_str(got_, want, "files: %s", oneline(cmd));			\
	free(got_);							\
} while (0)

/* The words of the last command, "|" between them. */
static char *
last_words(const char *cmd)
{
	struct sh_script	sc;
	struct buf		b;
	size_t			k;

	sh_parse(&sc, cmd, strlen(cmd));
	buf_init(&b);
	for (k = 0; sc.n > 0 && k < sc.cmds[sc.n - 1].argc; k++)
		buf_printf(&b, "%s%s", k ? "|" : "", sc.cmds[sc.n - 1].argv[k]);
	sh_release(&sc);
	return buf_detach(&b, NULL);
}

#define is_words(cmd, want) do {					\
	char *got_ = last_words(cmd);					\
	is_str(got_, want, "words: %s", oneline(cmd));			\
	free(got_);							\
} while (0)

/* The origin of the first nested command, or "-". */
static char *
origin(const char *cmd)
{
	struct sh_script	sc;
	size_t			i;
	char			*r = NULL;

	sh_parse(&sc, cmd, strlen(cmd));
	for (i = 0; i < sc.n && r == NULL; i++)
		if (sc.cmds[i].origin != NULL)
			r = strdup(sc.cmds[i].origin);
	sh_release(&sc);
	return r ? r : strdup("-");
}

#define is_nested(cmd, want) do {					\
	char *got_ = nested(cmd);					\
	is_str(got_, want, "%s", oneline(cmd));					\
	free(got_);							\
} while (0)

#define is_parse_top(cmd, want) do {					\
	char *got_ = top(cmd);						\
	is_str(got_, want, "top: %s", oneline(cmd));				\
	free(got_);							\
} while (0)

#define is_origin(cmd, want) do {					\
	char *got_ = origin(cmd);					\
	is_str(got_, want, "origin: %s", oneline(cmd));				\
	free(got_);							\
} while (0)

int
main(void)
{
	/* Python: the calls that run a shell, a string or a list. */
	is_nested("python3 -c 'import os; os.system(\"rm -rf /\")'",
	    "d1:rm -rf /");
	is_nested("python -c \"import subprocess; subprocess.run('git reset "
	    "--hard', shell=True)\"", "d1:git reset --hard");
	is_nested("python3 -c 'import subprocess as s; s.check_call([\"rm\", "
	    "\"-rf\", \"/\"])'", "d1:rm -rf /");
	is_nested("python3 -c 'import subprocess; subprocess.Popen([\"bash\", "
	    "\"-c\", \"rm -rf ~\"])'", "d1:bash -c rm -rf ~ ; d2:rm -rf ~");
	is_nested("python3 -Bc 'import os;os.popen(r\"rm -rf /etc\")'",
	    "d1:rm -rf /etc");
	/* The calls that delete. */
	is_nested("python3 -c 'import shutil; shutil.rmtree(\"/\")'",
	    "d1:rm -rf /");
	is_nested("python3 -c \"import shutil; shutil.rmtree('/home', "
	    "ignore_errors=True)\"", "d1:rm -rf /home");
	is_nested("python -c 'import os; os.remove(\"/etc/passwd\")'",
	    "d1:rm /etc/passwd");
	is_nested("python -c 'import os; os.unlink(\"a\"); os.rmdir(\"b\")'",
	    "d1:rm a ; d1:rmdir b");
	is_nested("python3 -c 'from pathlib import Path; "
	    "Path(\"/etc/hosts\").unlink()'", "d1:rm /etc/hosts");
	is_origin("python3 -c 'import shutil; shutil.rmtree(\"/\")'",
	    "python3: shutil.rmtree(\"/\")");
	/* Computed arguments hide the call (a known gap), mentions run none. */
	is_nested("python3 -c 'import os; os.system(\"rm -rf \" + d)'", "-");
	is_nested("python3 -c 'import os; os.system(f\"rm -rf {d}\")'", "-");
	is_nested("python3 -c 'print(\"rm -rf /\")'", "-");
	is_nested("python3 -c 'print(\"os.system(\\\"rm -rf /\\\")\")'", "-");
	is_nested("python3 -c 'x = [1]; x.remove(1)'", "-");
	is_nested("python3 script.py -c 'os.system(\"rm -rf /\")'", "-");
	is_nested("python3 -m http.server -c 'os.system(\"rm -rf /\")'", "-");
	is_nested("grep -r 'shutil.rmtree(\"/\")' .", "-");

	/* Node. */
	is_nested("node -e 'require(\"child_process\").execSync(\"rm -rf /\")'",
	    "d1:rm -rf /");
	is_nested("node --eval \"require('fs').rmSync('/', {recursive: true,"
	    " force: true})\"", "d1:rm -rf /");
	is_nested("node -e 'fs.unlinkSync(\"x\")'", "d1:rm x");
	is_nested("node -e 'const {spawnSync} = require(\"child_process\"); "
	    "spawnSync(\"git\", [\"push\", \"--force\"])'",
	    "d1:git push --force");
	is_nested("node -e 'execSync(`rm -rf ${dir}`)'", "-");
	is_nested("node -e 'console.log(1)'", "-");
	is_nested("node -e 'console.log(\"rm -rf /\")'", "-");

	/* Ruby, perl, php. */
	is_nested("ruby -e 'system(\"rm -rf /\")'", "d1:rm -rf /");
	is_nested("ruby -rfileutils -e 'FileUtils.rm_rf(\"/\")'",
	    "d1:rm -rf /");
	is_nested("ruby -e '`git clean -fdx`'", "d1:git clean -fdx");
	is_nested("ruby -e 'system \"rm\", \"-rf\", \"/\"'", "d1:rm -rf /");
	is_nested("ruby -e 'system(\"rm -rf #{d}\")'", "-");
	is_nested("perl -e 'system(\"rm -rf /\")'", "d1:rm -rf /");
	is_nested("perl -MFile::Path -e 'rmtree(\"/\")'", "d1:rm -rf /");
	is_nested("perl -we 'unlink \"/etc/passwd\"'", "d1:rm /etc/passwd");
	is_nested("perl -e 'print qx(git reset --hard)'",
	    "d1:git reset --hard");
	is_nested("perl -ne 'print if /system\\(/' f", "-");
	is_nested("php -r 'shell_exec(\"rm -rf /\");'", "d1:rm -rf /");
	is_nested("php -r 'echo \"system(1)\";'", "-");

	/* awk programs. */
	is_nested("awk 'BEGIN{system(\"rm -rf /\")}'", "d1:rm -rf /");
	is_nested("gawk -F: 'BEGIN { system(\"git reset --hard\") }'",
	    "d1:git reset --hard");
	is_nested("awk '{system(\"rm -rf \" $1)}' list", "-");
	is_nested("awk '{print $1}' file", "-");
	is_nested("awk -f prog.awk 'system(\"rm -rf /\")'", "-");

	/* More spellings: exec*, triple quotes, keywords, %x, awk's pipe. */
	is_nested("python -c 'import os; os.execvp(\"rm\", [\"rm\", \"-rf\", "
	    "\"/\"])'", "d1:rm -rf /");
	is_nested("python3 -c 'import os; os.execl(\"/bin/rm\", \"rm\", "
	    "\"-rf\", \"/\")'", "d1:rm -rf /");
	is_nested("python3 -c 'import os; os.system(\"\"\"rm -rf /\"\"\")'",
	    "d1:rm -rf /");
	is_nested("python3 -c 'import shutil; shutil.rmtree(path=\"/\")'",
	    "d1:rm -rf /");
	is_nested("node -e 'require(\"fs\").promises.rm(\"/\", "
	    "{recursive: true})'", "d1:rm -rf /");
	is_nested("ruby -e '%x(rm -rf /)'", "d1:rm -rf /");
	/*
	 * print EXPR | "CMD" runs CMD with EXPR on its input, read as the
	 * shell command printf '%s\n' EXPR | CMD.
	 */
	is_nested("awk 'BEGIN { print \"rm -rf /\" | \"sh\" }'",
	    "d1:printf %s\\n rm -rf / ; d1:sh ; d2:rm -rf /");
	is_nested("awk 'BEGIN { print \"rm -rf /\" > \"out.txt\" }'", "-");
	is_nested("awk '{ print $1 | \"sort\" }'", "d1:sort");
	is_nested("awk 'BEGIN{c=\"git reset --hard\"; print c | \"sh\"}'",
	    "d1:printf %s\\n git reset --hard ; d1:sh ; d2:git reset --hard");
	is_nested("awk 'BEGIN{print(\"git reset --hard\") | \"sudo sh\"}'",
	    "d1:printf %s\\n git reset --hard ; d1:sh ; d2:git reset --hard");
	is_nested("gawk 'BEGIN{print \"rm -rf ~\" |& \"bash\"}'",
	    "d1:printf %s\\n rm -rf ~ ; d1:bash ; d2:rm -rf ~");
	is_nested("awk 'BEGIN{print \"x\" | \"git reset --hard\"}'",
	    "d1:printf %s\\n x ; d1:git reset --hard");
	is_nested("awk 'BEGIN{ \"rm -rf /\" | getline v }'", "d1:rm -rf /");
	/* A shell that does not run its input, regexes, comments. */
	is_nested("awk 'BEGIN{print \"rm -rf /\" | \"sh -c cat\"}'",
	    "d1:printf %s\\n rm -rf / ; d1:sh -c cat ; d2:cat");
	is_nested("awk 'BEGIN{print \"rm -rf /\" | \"sh ./f.sh\"}'",
	    "d1:printf %s\\n rm -rf / ; d1:sh ./f.sh");
	is_nested("awk '/system(\"rm -rf \\/\")/ { print }'", "-");
	is_nested("awk 'BEGIN { x = 8 / 2 # system(\"rm -rf /\")\n}'", "-");
	is_nested("awk 'BEGIN { v = /system(\"rm -rf x\")/; print v }'", "-");
	is_nested("awk 'BEGIN { print 8 / 2 / 1; system(\"rm -rf /\") }'",
	    "d1:rm -rf /");
	is_nested("python3 -c 'x = \"\"\"a\"\"\"; print(x)'", "-");

	/* A name assigned a literal earlier in the program is the literal. */
	is_nested("python3 -c 'import os; cmd = \"rm -rf /\"; os.system(cmd)'",
	    "d1:rm -rf /");
	is_nested("python3 -c 'import shutil; p=\"/\"; shutil.rmtree(p)'",
	    "d1:rm -rf /");
	is_nested("node -e 'const d = \"/\"; require(\"fs\").rmSync(d, "
	    "{recursive: true})'", "d1:rm -rf /");
	is_nested("awk 'BEGIN { c = \"rm -rf /\"; system(c) }'", "d1:rm -rf /");
	is_nested("python3 -c 'x = \"rm -rf /\"; print(x)'", "-");
	is_nested("python3 -c 'c = \"rm -rf \"; os.system(c + d)'", "-");
	is_nested("python3 -c 'if a == \"x\": os.system(a)'", "-");

	/* The files the calls write, delete and read. */
	is_files("python3 -c 'open(\".env\", \"w\").write(\"x\")'", "w:.env");
	is_files("python3 -c 'with open(\"log\", mode=\"a\") as f: pass'",
	    "w:log");
	is_files("python3 -c 'print(open(\".env\").read())'", "r:.env");
	is_files("python3 -c 'import os; os.remove(\".env\")'", "w:.env");
	is_files("python3 -c 'from pathlib import Path; "
	    "Path(\"id_rsa\").read_text()'", "r:id_rsa");
	/*
	 * A name assigned a path: annotated, in parentheses, or a Path
	 * whose method is called later.
	 */
	is_files("python3 -c \"p: str = '.env'\nopen(p)\"", "r:.env");
	is_files("python3 -c \"p: Optional[str] = '.env'; open(p)\"",
	    "r:.env");
	is_files("python3 -c \"p = ('.env'); print(open(p).read())\"",
	    "r:.env");
	is_files("python3 -c \"from pathlib import Path; p = Path('.env'); "
	    "print(p.read_text())\"", "r:.env");
	is_files("python3 -c \"from pathlib import Path; p = Path('x.key'); "
	    "p.write_text('k')\"", "w:x.key");
	/* A dotted name assigned one: an object's property. */
	is_files("node -e 'const cfg = {}; cfg.path = \".env\"; "
	    "fs.readFileSync(cfg.path)'", "r:.env");
	is_nested("node -e 'const cfg = {}; cfg.cmd = \"rm -rf /\"; "
	    "require(\"child_process\").execSync(cfg.cmd)'", "d1:rm -rf /");
	is_files("node -e 'const cfg = {}; cfg.path = \".env\"; "
	    "fs.readFileSync(cfg.pathx)'", "-");
	/* Not a value: a tuple, a computed one, a dict's key: value. */
	is_files("python3 -c \"p = ('.env', 'x'); open(p)\"", "-");
	is_files("python3 -c \"p = ('.e') + 'nv'; open(p)\"", "-");
	is_files("python3 -c \"d = {'k': '.env'}; open(d)\"", "-");
	is_files("node -e 'fs.writeFileSync(\"/etc/hosts\", \"x\")'",
	    "w:/etc/hosts");
	is_files("node -e 'fs.readFileSync(\".env\", \"utf8\")'", "r:.env");
	is_files("ruby -e 'File.write(\".env\", \"A=1\")'", "w:.env");
	is_files("php -r 'echo file_get_contents(\".env\");'", "r:.env");
	is_files("python3 -c 'print(\".env\")'", "-");

	/* A program read from the input, and code in exec and eval. */
	is_nested("python3 - <<'EOF'\nimport shutil\nshutil.rmtree('/')\nEOF",
	    "d1:rm -rf /");
	is_nested("python3 <<< 'import os; os.system(\"rm -rf ~\")'",
	    "d1:rm -rf ~");
	is_nested("cat <<EOF | python3\nimport os\nos.system('git reset --hard')"
	    "\nEOF", "d1:git reset --hard");
	is_nested("echo 'require(\"fs\").rmSync(\"/\", {recursive: true})' | "
	    "node", "d1:rm -rf /");
	is_nested("python -c \"exec('import os; os.system(\\\"rm -rf /\\\")')\"",
	    "d1:rm -rf /");
	is_nested("node -e 'eval(\"require(`child_process`).execSync("
	    "\\\"rm -rf /\\\")\")'", "d1:rm -rf /");
	is_nested("python3 script.py <<EOF\nshutil.rmtree('/')\nEOF", "-");
	/*
	 * A program that runs or opens what it reads on stdin, given a
	 * known text: a here-string, a here-document, a pipe.
	 */
	is_nested("python3 -c 'import os,sys; os.system(sys.stdin.read())' "
	    "<<< 'rm -rf /'", "d1:rm -rf /");
	is_nested("python3 -c 'import sys; exec(sys.stdin.read())' <<'EOF'\n"
	    "import shutil; shutil.rmtree('/')\nEOF", "d1:rm -rf /");
	is_nested("echo 'rm -rf /' | python3 -c "
	    "'import os,sys; os.system(sys.stdin.read())'", "d1:rm -rf /");
	is_nested("ruby -e 'eval STDIN.read' <<< 'system(\"rm -rf /\")'",
	    "d1:rm -rf /");
	is_nested("node -e 'require(\"child_process\").execSync("
	    "fs.readFileSync(0, \"utf8\"))' <<< 'git reset --hard'",
	    "d1:git reset --hard");
	is_files("python3 -c 'import sys; print(open(sys.stdin.read()))' "
	    "<<< .env", "r:.env");
	/* Printed, not run; and no input to read. */
	is_nested("python3 -c 'import sys; print(sys.stdin.read())' "
	    "<<< 'rm -rf /'", "-");
	is_nested("python3 -c 'import os,sys; os.system(sys.stdin.read())'",
	    "-");
	/* perl's -I takes the next word when it ends one: -I lib, -Ilib. */
	is_nested("perl -I lib - <<'EOF'\nsystem('rm -rf /');\nEOF",
	    "d1:rm -rf /");
	is_nested("perl -Ilib - <<'EOF'\nsystem('rm -rf /');\nEOF",
	    "d1:rm -rf /");
	is_nested("perl -I lib script.pl <<'EOF'\nsystem('rm -rf /');\nEOF",
	    "-");
	is_nested("cat <<EOF > notes.py\nshutil.rmtree('/')\nEOF", "-");
	is_nested("echo 'shutil.rmtree(\"/\")' | python3 check.py", "-");

	/* Under wrappers and shells, like any command. */
	is_nested("sudo python3 -c 'import shutil; shutil.rmtree(\"/\")'",
	    "d1:rm -rf /");
	is_nested("bash -c \"python3 -c 'import os; os.system(\\\"rm -rf /\\\")'\"",
	    "d1:python3 -c import os; os.system(\"rm -rf /\") ; d2:rm -rf /");

	/* Positional parameters of sh -c take the arguments after it. */
	is_nested("bash -c '$1' _ 'git reset --hard'", "d1:git reset --hard");
	is_nested("sh -c '\"$@\"' _ rm -rf /", "d1:rm -rf /");
	is_nested("sh -c '\"${@}\"' sh rm -rf ~", "d1:rm -rf ~");
	is_nested("sh -c 'eval \"$1\"' _ 'rm -rf /'",
	    "d1:eval rm -rf / ; d2:rm -rf /");
	is_nested("bash -c '$0 $1 \"$2\"' rm -rf /", "d1:rm -rf /");
	is_nested("bash -c 'IFS=,; $*' _ 'rm,-rf,/'", "d1:rm -rf /");
	is_nested("sh -c 'sh -c \"$1\" x' y 'rm -rf /'",
	    "d1:sh -c rm -rf / x ; d2:rm -rf /");
	/* set -- sets them, in sh -c or not. */
	is_parse_top("set -- rm -rf /; \"$@\"", "set -- rm -rf / ; rm -rf /");
	is_parse_top("set -o pipefail -- git reset --hard; $@",
	    "set -o pipefail -- git reset --hard ; git reset --hard");
	is_nested("sh -c 'IFS=,; set -- $1; \"$@\"' _ 'rm,-rf,/'",
	    "d1:set -- rm -rf / ; d1:rm -rf /");
	is_parse_top("set -e; echo $1", "set -e ; echo $1");
	is_words("sh -c 'IFS=,; set -- $1; \"$@\"' _ 'rm,-rf,/'", "rm|-rf|/");
	is_words("sh -c '\"$@\"' _ rm -rf /", "rm|-rf|/");
	is_words("bash -c 'IFS=,; $*' _ 'rm,-rf,/'", "rm|-rf|/");
	is_words("sh -c 'echo \"$1\"' _ 'a b'", "echo|a b");
	is_words("sh -c 'echo $1' _ 'a b'", "echo|a|b");
	/* A parameter not given is empty; outside sh -c, unknown. */
	is_nested("sh -c 'echo $1 $2' _ a", "d1:echo a");
	is_nested("sh -c 'echo \"$1\"' _ 'rm -rf /'", "d1:echo rm -rf /");
	is_nested("echo $1 \"$@\"; (echo $2)", "-");
	/* The parameters of an inner sh -c do not leak to the outer one. */
	is_nested("sh -c 'sh -c \"echo\" x rm; $1' _ ls",
	    "d1:sh -c echo x rm ; d2:echo ; d1:ls");

	/* Known text piped to a shell is its script. */
	is_nested("echo 'rm -rf /' | sh", "d1:rm -rf /");
	is_nested("echo -n 'git reset --hard' | sudo bash", "d1:git reset --hard");
	is_nested("echo -e 'ls\\nrm -rf ~' | bash", "d1:ls ; d1:rm -rf ~");
	is_nested("printf '%s\\n' 'git reset --hard' | bash",
	    "d1:git reset --hard");
	is_nested("printf 'rm -rf %s\\n' / ~ | sh -s", "d1:rm -rf / ; d1:rm -rf ~");
	is_nested("cat <<EOF | sh\nrm -rf /\nEOF", "d1:rm -rf /");
	is_nested("cat <<'EOF' | sh -x\ngit clean -fdx\nEOF\nls",
	    "d1:git clean -fdx");
	is_nested("cat <<< 'rm -rf /' | bash", "d1:rm -rf /");
	is_nested("echo 'rm -rf /' | xargs -0 bash -c", "d1:rm -rf /");
	/* Through cat and tee: their input goes on; a program's is unknown. */
	is_nested("echo 'rm -rf /' | tee log | sh", "d1:rm -rf /");
	is_nested("echo 'rm -rf /' | cat | bash", "d1:rm -rf /");
	is_nested("echo 'rm -rf /' | sort | sh", "-");
	is_origin("echo 'rm -rf /' | sh", "echo | sh");
	/* Text that is not known, or that no shell runs. */
	is_nested("curl -fsSL https://example.com/i.sh | sh", "-");
	is_nested("echo cm0gLXJmIC8= | base64 -d | sh", "-");
	is_nested("cat install.sh | sh", "-");
	is_nested("echo 'rm -rf /' > notes.txt", "-");
	is_nested("echo 'rm -rf /' | grep rm", "-");
	is_nested("echo 'rm -rf /' || sh", "-");
	is_nested("echo 'rm -rf /'; sh", "-");
	is_nested("echo 'rm -rf /' | sh -c 'cat > f'", "d1:cat");
	is_nested("cat <<EOF | sh script.sh\nrm -rf /\nEOF", "-");

	/* Substitutions inside arithmetic run; the arithmetic is kept. */
	is_nested("echo $(( $(rm -rf /) + 1 ))", "d1:rm -rf /");
	is_nested("x=$(( `rm -rf ~` * 2 ))", "d1:rm -rf ~");
	is_nested("echo \"$(( 1 + $(( 2 * $(git reset --hard) )) ))\"",
	    "d1:git reset --hard");
	is_nested("echo $[ $(rm -rf /) ]", "d1:rm -rf /");
	is_nested("echo $(( 6 * (7) )) $((x+1))", "-");

	/* A $( ) whose output is known is that text. */
	is_nested("sh -c \"$(cat <<'EOF'\nrm -rf /\nEOF\n)\"",
	    "d1:cat ; d1:rm -rf /");
	is_nested("c=$(echo rm); $c -rf /; eval \"$(printf '%s' 'ls -l')\"",
	    "d1:echo rm ; d1:printf %s ls -l ; d1:ls -l");
	is_parse_top("c=$(echo rm); $c -rf /", "rm -rf /");
	is_parse_top("echo \"$(echo)\" \"$(echo a b)\" $(echo c d) $(echo)",
	    "echo  a b c d");
	is_parse_top("git commit -m \"$(cat <<'EOF'\nfix: rm -rf /\nEOF\n)\"",
	    "git commit -m fix: rm -rf /");
	is_parse_top("echo $(ls; echo x) $(cat f)", "echo $(ls; echo x) $(cat f)");


	/* Path functions of literals: the path the call is given. */
	is_nested("python3 -c 'import shutil, os; "
	    "shutil.rmtree(os.path.expanduser(\"~\"))'", "d1:rm -rf ~");
	is_nested("python3 -c 'import shutil; from pathlib import Path; "
	    "shutil.rmtree(Path.home())'", "d1:rm -rf ~");
	is_nested("python3 -c 'import shutil; from pathlib import Path; "
	    "shutil.rmtree(Path.home() / \"..\")'", "d1:rm -rf ~/..");
	is_nested("python3 -c 'import shutil; from pathlib import Path; "
	    "shutil.rmtree(Path(\"~\").expanduser().joinpath(\"src\"))'",
	    "d1:rm -rf ~/src");
	is_nested("python3 -c 'import shutil, os; "
	    "shutil.rmtree(os.path.join(os.environ[\"HOME\"], \"x\"))'",
	    "d1:rm -rf $HOME/x");
	is_nested("python3 -c 'import os, shutil; "
	    "shutil.rmtree(os.path.join(\"build\", \"/etc\"))'",
	    "d1:rm -rf /etc");
	is_nested("python3 -c 'import os, shutil; "
	    "shutil.rmtree(os.getenv(\"HOME\"))'", "d1:rm -rf $HOME");
	is_nested("python3 -c 'import os, shutil; "
	    "p = os.path.expanduser(\"~/.ssh\"); shutil.rmtree(p)'",
	    "d1:rm -rf ~/.ssh");
	is_nested("node -e 'require(\"fs\").rmSync(require(\"os\").homedir(), "
	    "{recursive: true})'", "d1:rm -rf ~");
	is_nested("node -e 'fs.rmSync(path.join(os.homedir(), \".cache\"), "
	    "{recursive: true})'", "d1:rm -rf ~/.cache");
	is_nested("node -e 'fs.rmSync(process.env.HOME, {recursive: true})'",
	    "d1:rm -rf $HOME");
	is_nested("ruby -e 'FileUtils.rm_rf(Dir.home)'", "d1:rm -rf ~");
	is_nested("ruby -e 'FileUtils.rm_rf(File.join(ENV[\"HOME\"], \"a\"))'",
	    "d1:rm -rf $HOME/a");
	is_nested("perl -MFile::Path -e 'remove_tree($ENV{HOME})'",
	    "d1:rm -rf $HOME");
	/* Computed otherwise: still hidden, and mentions run nothing. */
	is_nested("python3 -c 'import shutil, os; "
	    "shutil.rmtree(os.path.join(d, \"x\"))'", "-");
	is_nested("python3 -c 'import os; print(os.path.expanduser(\"~\"))'",
	    "-");
	/* Five path calls deep are read, a sixth is past the bound. */
	is_nested("python3 -c 'import shutil, os; shutil.rmtree("
	    "os.path.join(os.path.join(os.path.join(os.path.join(os.path.join("
	    "\"/\"))))))'", "d1:rm -rf /");
	is_nested("python3 -c 'import shutil, os; shutil.rmtree("
	    "os.path.join(os.path.join(os.path.join(os.path.join(os.path.join("
	    "os.path.join(\"/\")))))))'", "-");

	/* Known text on a pipe into xargs and parallel: their arguments. */
	is_nested("echo / | xargs rm -rf", "d1:rm -rf /");
	is_nested("echo /etc /usr | xargs -n1 rm -rf", "d1:rm -rf /etc /usr");
	is_nested("printf '%s\\n' /etc | xargs -I{} rm -rf {}/x",
	    "d1:rm -rf /etc/x");
	is_nested("echo / | parallel rm -rf", "d1:rm -rf ; "
	    "d1:parallel rm -rf ::: / ; d2:rm -rf /");
	is_nested("echo 'rm -rf ~' | parallel", "d1:parallel ::: rm -rf ~ ; "
	    "d2:rm -rf ~");
	is_origin("echo / | xargs rm -rf", "echo | xargs");
	/* xargs sh -c SCRIPT: the input is the script's arguments. */
	is_nested("echo / | xargs bash -c 'rm -rf \"$0\"'",
	    "d1:rm -rf bash ; d1:bash -c rm -rf \"$0\" / ; d2:rm -rf /");
	is_nested("echo / | xargs sh -c 'rm -rf \"$@\"' _",
	    "d1:rm -rf ; d1:sh -c rm -rf \"$@\" _ / ; d2:rm -rf /");
	is_origin("echo / | parallel rm -rf", "echo | parallel");
	/* parallel's own ::: wins over its input; unknown input is unknown. */
	is_nested("echo / | parallel rm -rf ::: build", "d1:rm -rf build");
	is_nested("ls | xargs rm -rf", "-");
	is_nested("echo / | xargs echo rm -rf", "d1:echo rm -rf /");

	/* A process substitution a shell sources: its known text. */
	is_nested("bash --rcfile <(echo 'git reset --hard') -i",
	    "d1:echo git reset --hard ; d1:git reset --hard");
	is_nested("BASH_ENV=<(echo 'rm -rf ~') bash -c true",
	    "d1:echo rm -rf ~ ; d1:true ; d1:rm -rf ~");
	is_nested("source <(printf 'rm -rf /etc\\n')",
	    "d1:printf rm -rf /etc\\n ; d1:rm -rf /etc");
	is_nested("bash <(echo 'rm -rf /')", "d1:echo rm -rf / ; d1:rm -rf /");
	is_origin("bash <(echo 'rm -rf /')", "<( )");
	is_nested("cat <(echo 'rm -rf /')", "d1:echo rm -rf /");
	is_nested("diff <(echo a) <(echo 'rm -rf /')",
	    "d1:echo a ; d1:echo rm -rf /");
	is_words("cat <(echo 'rm -rf /')", "cat|<(rm -rf /)");
	is_words("cat <(curl -s x)", "cat|<(curl -s x)");

	/*
	 * Known text passed down a pipe is copied at each step: the copies
	 * are charged to the work budget, so 2,000 cats of 100 KB stop at
	 * the budget (truncated) instead of copying 200 MB.
	 */
	{
		struct buf	 big;
		struct sh_script sc;
		int		 i;

		buf_init(&big);
		buf_adds(&big, "echo ");
		for (i = 0; i < 100000; i++)
			buf_addc(&big, 'a');
		for (i = 0; i < 2000; i++)
			buf_adds(&big, " | cat");
		sh_parse(&sc, big.data, big.len);
		ok(sc.truncated, "2,000 cats of 100 KB stop at the work budget");
		sh_release(&sc);
		buf_release(&big);
	}

	/* A call under another name: imports, assignments, destructuring. */
	is_nested("python3 -c 'from os import system as run; run(\"rm -rf /\")'",
	    "d1:rm -rf /");
	is_nested("python3 -c 'import subprocess as sp; "
	    "sp.run(\"git reset --hard\", shell=True)'", "d1:git reset --hard");
	is_nested("python3 -c 'from subprocess import run; "
	    "run([\"rm\", \"-rf\", \"/\"])'", "d1:rm -rf /");
	is_nested("python3 -c 'from shutil import (rmtree as nuke, copy); "
	    "nuke(\"/etc\")'", "d1:rm -rf /etc");
	is_nested("python3 -c 'import os; r = os.system; r(\"rm -rf ~\")'",
	    "d1:rm -rf ~");
	is_nested("python3 -c 'from os.path import expanduser as eu; "
	    "import shutil; shutil.rmtree(eu(\"~\"))'", "d1:rm -rf ~");
	is_nested("node -e 'const { execSync: x, exec } = "
	    "require(\"child_process\"); x(\"rm -rf /\")'", "d1:rm -rf /");
	is_nested("node -e 'const cp = require(\"child_process\"); "
	    "cp.execSync(\"git reset --hard\")'", "d1:git reset --hard");
	/* Other names that run nothing, and names that are not aliases. */
	is_nested("python3 -c 'import shutil as s; s.copy(\"a\", \"/etc\")'",
	    "d1:cp a /etc");
	is_nested("python3 -c 'from os import path as p; print(p.join(\"a\"))'",
	    "-");
	is_nested("python3 -c 'x = 1; y = x; print(y)'", "-");
	is_nested("node -e 'const { a: b } = other; b(\"rm -rf /\")'", "-");

	/* Comments and methods of literals run nothing. */
	is_nested("python3 -c 'x = 1  # os.system(\"rm -rf /\")'", "-");
	is_nested("ruby -e '# system(\"rm -rf /\")\nputs 1'", "-");
	is_nested("node -e '// execSync(\"rm -rf /\")\n1'", "-");
	is_nested("node -e '/* execSync(\"rm -rf /\") */ 1'", "-");
	is_nested("node -e 'const m = /x/.exec(\"git push --force\")'", "-");
	is_nested("php -r '$db->exec(\"git push --force\");'", "-");
	is_nested("php -r 'exec(\"git push --force\");'",
	    "d1:git push --force");
	is_nested("perl -e '$#a = 1; system(\"rm -rf /\")'", "d1:rm -rf /");
	is_nested("node -e 'const x = 8 / 2; execSync(\"rm -rf /\")'",
	    "d1:rm -rf /");
	/* subprocess: a string is a command only with shell=True. */
	is_nested("python3 -c 'import subprocess; "
	    "subprocess.run(\"find . -delete\")'", "d1:find . -delete");
	is_words("python3 -c 'import subprocess; "
	    "subprocess.run(\"find . -delete\")'", "find . -delete");
	is_nested("python3 -c 'import subprocess; "
	    "subprocess.run(\"rm -rf /\", cwd=\"/tmp\", shell=True)'",
	    "d1:rm -rf /");
	is_nested("python3 -c 'import subprocess; subprocess . run("
	    "\"rm -rf /\", shell = True)'", "d1:rm -rf /");
	is_nested("python3 -c 'import shutil; shutil.rmtree(path=\"/\")'",
	    "d1:rm -rf /");
	/* Perl: qx with any delimiter, rmtree of every path given. */
	is_nested("perl -e 'qx!git reset --hard!'", "d1:git reset --hard");
	is_nested("perl -e 'my $x = qx {git reset --hard};'",
	    "d1:git reset --hard");
	is_nested("perl -e 'qx<rm -rf />'", "d1:rm -rf /");
	is_nested("perl -MFile::Path -e \"rmtree('/tmp/x', '/')\"",
	    "d1:rm -rf /tmp/x /");
	is_nested("perl -MFile::Path -e \"rmtree(['/'])\"", "d1:rm -rf /");
	/* AppleScript's do shell script. */
	is_nested("osascript -e 'do shell script \"git reset --hard\"'",
	    "d1:git reset --hard");
	is_nested("osascript -e 'display dialog \"rm -rf /\"'", "-");

	/* xargs's own replacement string: -I%, --replace=S, -i, -J (BSD). */
	is_nested("echo / | xargs -I% bash -c 'rm -rf %'",
	    "d1:rm -rf % ; d1:bash -c rm -rf / ; d2:rm -rf /");
	is_nested("echo / | xargs --replace=FOO rm -rf FOO",
	    "d1:rm -rf /");
	is_nested("echo / | xargs -n 1 -I X rm -rf X", "d1:rm -rf /");
	is_nested("echo / | xargs -J {} rm -rf {}", "d1:rm -rf /");
	is_nested("echo / | xargs -i rm -rf {}", "d1:rm -rf /");
	/* parallel: several sources, {N}, a command word with blanks. */
	is_nested("parallel sh -c 'git clean -f {2}' ::: x ::: -ffdx",
	    "d1:sh -c git clean -f -ffdx ; d2:git ; "
	    "d1:sh -c git clean -f -ffdx ; d2:git clean -f -ffdx");
	is_nested("parallel echo {1}-{2} ::: a b ::: c",
	    "d1:echo a-c ; d1:echo b-c");
	is_nested("parallel ::: 'rm -rf' ::: /", "d1:rm -rf /");

	/* A group piped into a shell: what each of its commands writes. */
	is_nested("{ cat <<'EOF'\nrm -rf ~\nEOF\n} | sh", "d1:rm -rf ~");
	is_nested("( echo 'rm -rf /' ) | bash", "d1:rm -rf /");
	is_nested("{ echo 'git reset --hard'; echo ls; } | sh",
	    "d1:git reset --hard ; d1:ls");
	is_nested("{ echo 'rm -rf /'; } ; ls | sh", "-");
	is_nested("( cd /tmp && echo 'rm -rf ~' ) | sort", "-");

	/* A script written with known text, then run or sourced. */
	is_nested("cat > s.sh <<'EOF'\ngit reset --hard\nEOF\nsh ./s.sh",
	    "d1:git reset --hard");
	is_nested("echo 'rm -rf /' > x.sh && chmod +x x.sh && ./x.sh",
	    "d1:rm -rf /");
	is_nested("printf 'rm -rf ~\\n' > f; . ./f", "d1:rm -rf ~");
	is_nested("printf 'git reset' > a; printf ' --hard' >> a; source a",
	    "d1:git reset --hard");
	is_nested("tee s.sh <<EOF >/dev/null\nrm -rf ~\nEOF\nbash s.sh",
	    "d1:rm -rf ~");
	is_origin("echo 'rm -rf /' > x.sh; bash x.sh", "x.sh");
	/* Another file, or no run of it: nothing. */
	is_nested("echo 'rm -rf /' > x.sh; bash y.sh", "-");
	is_nested("echo 'rm -rf /' > x.sh; cat x.sh", "-");
	is_nested("echo 'rm -rf /' > x.sh; x.sh", "-");

	/* Copies and moves: cp and mv, so that path and read_path see both. */
	is_files("python3 -c 'import shutil; shutil.copy(\"a\", \"/srv/b\")'",
	    "w:/srv/b r:a w:/srv/b/a");
	is_files("python3 -c 'import os; os.replace(\"s\", \"/x/keys\")'",
	    "w:/x/keys w:s w:/x/keys/s");
	is_files("node -e 'require(\"fs\").copyFileSync(\"a\", \"b\")'",
	    "w:b r:a w:b/a");
	is_files("ruby -e 'File.rename(\"a\", \"b\")'", "w:b w:a w:b/a");
	is_files("perl -MFile::Copy -e 'copy(\"a\", \"b\")'",
	    "w:b r:a w:b/a");
	/* perl's open: the handle first, then a mode or a mode in the name. */
	is_files("perl -e 'open(F, \".env\")'", "r:.env");
	is_files("perl -e 'open(my $f, \"<\", \".env\")'", "r:.env");
	is_files("perl -e 'open(F, \">out.txt\")'", "w:out.txt");
	is_files("perl -e 'open(my $f, \">>\", \"log\")'", "w:log");
	/* A list's words may be names assigned a string. */
	is_nested("python3 -c 'import subprocess\ncmd = \"rm -rf /\"\n"
	    "subprocess.run([\"sh\", \"-c\", cmd])'",
	    "d1:sh -c rm -rf / ; d2:rm -rf /");
	/* sh -s: the input is the script, the words its arguments. */
	is_nested("echo 'rm -rf /' | bash -s -- x", "d1:rm -rf /");
	is_nested("parallel git reset --hard :::", "d1:git reset --hard");

	/* Runners: where each one's command starts. */
	is_nested("uv run --with x python -c 'import os; os.system(\"ls\")'",
	    "d1:python -c import os; os.system(\"ls\") ; d2:ls");
	is_nested("docker exec -u root -w /srv web rm -rf /data",
	    "d1:rm -rf /data");
	is_nested("docker compose exec app git reset --hard",
	    "d1:git reset --hard");
	is_nested("kubectl exec -n prod -it pod-0 -- rm -rf /data",
	    "d1:rm -rf /data");
	is_nested("kubectl exec pod-0 rm -rf /data", "-");
	is_nested("tmux new-session -d -s work 'git reset --hard'",
	    "d1:git reset --hard");
	is_nested("tmux send-keys -t work 'git reset --hard' Enter",
	    "d1:git reset --hard");
	is_nested("tmux list-sessions", "-");
	is_nested("screen -dmS job rm -rf ~", "d1:rm -rf ~");
	/* An unknown program given a program the packs judge. */
	is_nested("mytool rm -rf /", "d1:rm -rf /");
	is_origin("mytool rm -rf /", "the arguments of mytool");
	is_nested("mytool --quiet 'git reset --hard'", "d1:git reset --hard");
	is_nested("mytool build --release", "-");
	is_nested("pgrep -f 'rm -rf /'", "-");
	is_nested("grep -r 'git reset --hard' .", "-");

	return done_testing();
}
