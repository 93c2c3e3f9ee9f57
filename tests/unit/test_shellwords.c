/*
 * The shell tokenizer: every rewording of a command that a rule must still
 * see as that command, and the mentions it must not mistake for one.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "shellwords.h"
#include "tap.h"

static size_t	arena_total;	/* of the last parse() */

/*
 * The parse as text: simple commands separated by " ; ", each as its argv
 * joined by ' ', prefixed with "d<depth>:" when nested, with "@dir" when a
 * cd is known, "<input>" and ">target" for redirections.
 */
static char *
parse(const char *cmd)
{
	struct sh_script	sc;
	struct buf		b;
	size_t			i, k;

	sh_parse(&sc, cmd, strlen(cmd));
	buf_init(&b);
	for (i = 0; i < sc.n; i++) {
		const struct sh_cmd *c = &sc.cmds[i];
		if (i)
			buf_adds(&b, " ; ");
		if (c->depth)
			buf_printf(&b, "d%d:", c->depth);
		if (c->dir)
			buf_printf(&b, "@%s:", c->dir);
		for (k = 0; k < c->argc; k++)
			buf_printf(&b, "%s%s", k ? " " : "", c->argv[k]);
		for (k = 0; k < c->nredirects; k++)
			buf_printf(&b, " >%s", c->redirects[k]);
		if (c->input)
			buf_printf(&b, " <<%s>>", c->input);
	}
	if (sc.truncated)
		buf_adds(&b, " [truncated]");
	arena_total = sc.arena.total;
	sh_release(&sc);
	return buf_detach(&b, NULL);
}

/* A TAP description on one line: newlines and tabs escaped. */
static const char *
oneline(const char *s)
{
	static char	out[256];
	size_t		i = 0;

	for (; *s && i < sizeof(out) - 3; s++) {
		if (*s == '\n' || *s == '\t') {
			out[i++] = '\\';
			out[i++] = *s == '\n' ? 'n' : 't';
		} else
			out[i++] = *s;
	}
	out[i] = '\0';
	return out;
}

/*
 * The input and output of the parse: each command's program with "wd=.."
 * when a cd set it, then each redirection as operator and target; the
 * redirections of no command as "loose" ones.
 */
static char *
parse_io(const char *cmd)
{
	struct sh_script	sc;
	struct buf		b;
	size_t			i, k;

	sh_parse(&sc, cmd, strlen(cmd));
	buf_init(&b);
	for (i = 0; i < sc.n; i++) {
		const struct sh_cmd *c = &sc.cmds[i];
		buf_printf(&b, "%s%s", i ? " ; " : "", c->program);
		if (c->wd != NULL)
			buf_printf(&b, " wd=%s", c->wd);
		for (k = 0; k < c->nredirects; k++)
			buf_printf(&b, " %s%s", c->redirect_ops[k],
			    c->redirects[k]);
	}
	for (i = 0; i < sc.nloose; i++) {
		buf_printf(&b, " ; loose %s%s", sc.loose[i].op,
		    sc.loose[i].target);
		if (sc.loose[i].wd != NULL)
			buf_printf(&b, " wd=%s", sc.loose[i].wd);
	}
	sh_release(&sc);
	return buf_detach(&b, NULL);
}

/*
 * Whether a nested command (depth > 0) has the argv want (joined by
 * spaces); want NULL: that no command is nested.
 */
static void
has_nested(const char *cmd, const char *want)
{
	struct sh_script	sc;
	struct buf		b;
	size_t			i, k;
	bool			found = false, any = false;

	sh_parse(&sc, cmd, strlen(cmd));
	buf_init(&b);
	for (i = 0; i < sc.n; i++) {
		const struct sh_cmd *c = &sc.cmds[i];
		if (c->depth == 0)
			continue;
		any = true;
		buf_reset(&b);
		for (k = 0; k < c->argc; k++)
			buf_printf(&b, "%s%s", k ? " " : "", c->argv[k]);
		if (want != NULL && strcmp(b.data, want) == 0)
			found = true;
	}
	ok(want == NULL ? !any : found, "%s %s %s", oneline(cmd),
	    want ? "runs" : "runs nothing nested", want ? want : "");
	buf_release(&b);
	sh_release(&sc);
}

#define is_io(cmd, want) do {						\
	char *got_ = parse_io(cmd);					\
	is_str(got_, want, "io: %s", oneline(cmd));			\
	free(got_);							\
} while (0)

#define is_parse(cmd, want) do {					\
	char *got_ = parse(cmd);					\
	is_str(got_, want, "%s", oneline(cmd));				\
	free(got_);							\
} while (0)

static void
test_program(const char *cmd, const char *prog, const char *sub)
{
	struct sh_script	sc;
	const char		*s;

	sh_parse(&sc, cmd, strlen(cmd));
	ok(sc.n >= 1 && strcmp(sc.cmds[0].program, prog) == 0,
	    "program of '%s' is %s", cmd, prog);
	s = sc.n ? sh_subcommand(&sc.cmds[0]) : NULL;
	if (sub == NULL)
		ok(s == NULL, "'%s' has no subcommand", cmd);
	else
		is_str(s, sub, "subcommand of '%s'", cmd);
	sh_release(&sc);
}

static void
test_flag(const char *cmd, const char *flag, bool want)
{
	struct sh_script	sc;

	sh_parse(&sc, cmd, strlen(cmd));
	ok(sc.n >= 1 && sh_has_flag(&sc.cmds[0], flag) == want,
	    "'%s' %s %s", cmd, want ? "has" : "has no", flag);
	sh_release(&sc);
}

int
main(void)
{
	struct buf	big;
	char		*s;
	int		 i;

	/* Splitting into simple commands. */
	is_parse("ls -la", "ls -la");
	is_parse("a; b && c || d | e |& f & g", "a ; b ; c ; d ; e ; f ; g");
	is_parse("a\nb\n\nc", "a ; b ; c");
	is_parse("(cd /tmp; rm x) && ls", "cd /tmp ; @/tmp:rm x ; ls");
	is_parse("echo $(rm -rf /) `id`",
	    "d1:rm -rf / ; d1:id ; echo $(rm -rf /) `id`");
	is_parse("diff <(ls a) <(ls b)",
	    "d1:ls a ; d1:ls b ; diff <(ls a) <(ls b)");
	is_parse("echo $((1 + (2)))", "echo $((1 + (2)))");
	is_parse("ls # rm -rf /", "ls");
	is_parse("echo a#b", "echo a#b");
	is_parse("ls \\\n -la", "ls -la");

	/* Quotes and escapes. */
	is_parse("r''m -rf /", "rm -rf /");
	is_parse("\"rm\" -rf /", "rm -rf /");
	is_parse("\\rm -rf /", "rm -rf /");
	is_parse("r\\m -r\"f\" '/'", "rm -rf /");
	is_parse("$'\\x72\\155' -rf /", "rm -rf /");
	is_parse("echo \"a \\\"b\\\" $HOME\"", "echo a \"b\" $HOME");
	is_parse("echo 'unterminated", "echo unterminated");
	/*
	 * A quoted or escaped ~ or $ at the start of a file's name is that
	 * name here: ./ before it, where no script reads the word again.
	 */
	is_parse("rm -rf '~'", "rm -rf ./~");
	is_parse("rm -rf \"~/\" ~ ~/x", "rm -rf ./~/ ~ ~/x");
	is_parse("rm -rf '$HOME' \\$HOME \\~ \"$HOME\"",
	    "rm -rf ./$HOME ./$HOME ./~ $HOME");
	is_parse("rm -rf $'\\x7e'", "rm -rf ./~");
	is_parse("cp a '~/.bashrc'; tee -a \"~/.zshrc\"",
	    "cp a ./~/.bashrc ; tee -a ./~/.zshrc");
	is_parse("rm -rf ~\"/\" x'~'", "rm -rf ~/ x~");
	is_parse("cd '~' && rm -rf *", "cd ./~ ; rm -rf *");
	is_parse("echo '~' '$HOME'", "echo ~ $HOME");
	is_parse("sh -c '$1' _ 'rm -rf ~'", "sh -c $1 _ rm -rf ~ ; d1:rm -rf ~");
	is_parse("perl -e '$_=1'", "perl -e $_=1");
	/*
	 * Where a word is quoted again, a ~ or $ that may have been home
	 * stays so: echo's output does not say how it was written.
	 */
	is_parse("echo '~/x' | xargs rm -rf",
	    "echo ~/x ; rm -rf <<~/x\n>> ; d1:rm -rf ~/x");
	is_parse("echo ~ | xargs rm -rf", "echo ~ ; rm -rf <<~\n>> ; d1:rm -rf ~");
	is_parse("alias del='rm -rf'; del ~ $HOME '~' '$HOME'",
	    "alias del=rm -rf ; d1:rm -rf ~ $HOME ./~ ./$HOME");
	/* Not known after env -S: taken as home, as before. */
	is_parse("env -S 'rm -rf' ~ '~'", "d1:rm -rf ~ ~");
	is_parse("rm -rf \"${HOME}\"", "rm -rf $HOME");

	/* Variables: literal assignments earlier in the line. */
	is_parse("x=rm; $x -rf /", "rm -rf /");
	is_parse("x=\"rm -rf\"; $x /", "rm -rf /");
	is_parse("x=\"rm -rf\"; \"$x\" /", "rm -rf /");
	is_parse("FOO=1 rm -rf /", "rm -rf /");
	is_parse("FOO=1 BAR=2", "");
	is_parse("export p=/; rm -rf $p", "export p=/ ; rm -rf /");
	is_parse("rm -rf $UNKNOWN/", "rm -rf $UNKNOWN/");

	/* Aliases defined earlier in the line run their value. */
	is_parse("alias del='rm -rf'; del /", "alias del=rm -rf ; d1:rm -rf /");
	is_parse("alias del='rm -rf'\ndel ~ 'a b'",
	    "alias del=rm -rf ; d1:rm -rf ~ a b");
	is_parse("alias x='cd /; rm -rf .'; x", "alias x=cd /; rm -rf . ; "
	    "d1:cd / ; d1:@/:rm -rf .");
	is_parse("alias g=git; g commit -m 'x; rm -rf /'",
	    "alias g=git ; d1:git commit -m x; rm -rf /");
	is_parse("alias rm='rm -i'; rm -rf /", "alias rm=rm -i ; d1:rm -i -rf /");
	is_parse("alias a=b b=a; a", "alias a=b b=a ; d2:a");
	is_parse("alias del='rm -rf'; 'del' /", "alias del=rm -rf ; del /");
	is_parse("alias del='rm -rf'; sudo del /",
	    "alias del=rm -rf ; del /");
	is_parse("del /; alias del='rm -rf'", "del / ; alias del=rm -rf");

	/* Brace groups. */
	is_parse("{rm,-rf,/}", "rm -rf /");
	is_parse("cp f{,.bak}", "cp f f.bak");
	is_parse("echo '{a,b}'", "echo {a,b}");
	is_parse("{ rm -rf /; }", "rm -rf /");

	/* Wrappers. */
	is_parse("sudo rm -rf /", "rm -rf /");
	is_parse("sudo -u root -E rm -rf /", "rm -rf /");
	is_parse("sudo -- rm -rf /", "rm -rf /");
	is_parse("/bin/rm -rf /", "/bin/rm -rf /");
	is_parse("env -i FOO=1 nice -n 5 nohup rm -rf /", "rm -rf /");
	is_parse("timeout -s KILL 10 rm -rf /", "rm -rf /");
	is_parse("command rm x; exec rm y; time rm z", "rm x ; rm y ; rm z");
	is_parse("find / | xargs -0 -I{} rm -rf {}", "find / ; rm -rf {}");
	is_parse("busybox rm -rf /", "rm -rf /");
	is_parse("if true; then rm -rf /; fi", "true ; rm -rf /");
	is_parse("! rm x", "rm x");
	is_parse("sudo", "sudo");
	/* Fuzz: an option that takes a value as the last word. */
	is_parse("env -u", "");
	is_parse("sudo -u", "sudo -u");
	is_parse("timeout --signal", "timeout --signal");
	is_parse("env -\036\377kubenv -\036\377ku", "");

	/* Nested scripts. */
	is_parse("bash -c 'rm -rf /'", "bash -c rm -rf / ; d1:rm -rf /");
	is_parse("sh -lc \"cd / && rm -rf .\"",
	    "sh -lc cd / && rm -rf . ; d1:cd / ; d1:@/:rm -rf .");
	is_parse("sudo sh -c 'rm -rf ~'", "sh -c rm -rf ~ ; d1:rm -rf ~");
	is_parse("eval 'rm -rf /'", "eval rm -rf / ; d1:rm -rf /");
	is_parse("eval rm -rf /", "eval rm -rf / ; d1:rm -rf /");
	is_parse("su -c 'rm -rf /' root", "su -c rm -rf / root ; d1:rm -rf /");
	is_parse("env -S 'rm -rf /'", "d1:rm -rf /");
	is_parse("find / -name x -exec rm -rf {} \\;",
	    "find / -name x -exec rm -rf {} ; ; d1:rm -rf {}");
	is_parse("bash -c 'bash -c \"rm -rf /\"'",
	    "bash -c bash -c \"rm -rf /\" ; d1:bash -c rm -rf / ; d2:rm -rf /");

	/* Redirections and here-documents. */
	is_parse("ls 2>/dev/null >out.txt", "ls >/dev/null >out.txt");
	is_parse("ls 2>&1 | cat", "ls ; cat");
	is_parse("cat x > /dev/sda", "cat x >/dev/sda");
	is_parse("cat <<EOF\nrm -rf /\nEOF\nls", "cat <<rm -rf /\n>> ; ls");
	is_parse("cat <<-'E'\n\trm -rf /\n\tE\n", "cat <<rm -rf /\n>>");
	is_parse("bash <<EOF\nrm -rf /\nEOF",
	    "bash <<rm -rf /\n>> ; d1:rm -rf /");
	is_parse("psql <<< 'DROP DATABASE x'", "psql <<DROP DATABASE x>>");
	is_parse("sh <<< 'rm -rf /'", "sh <<rm -rf />> ; d1:rm -rf /");

	/* cd is remembered for the rest of the list. */
	is_parse("cd / && rm -rf .", "cd / ; @/:rm -rf .");
	is_parse("cd ~; rm -rf *", "cd ~ ; @~:rm -rf *");
	is_parse("cd /tmp/a; cd ..; cd b; ls", "cd /tmp/a ; @/tmp/a:cd .. ; "
	    "@/tmp:cd b ; @/tmp/b:ls");
	is_parse("cd; ls", "cd ; @~:ls");
	is_parse("cd x; ls", "cd x ; ls");
	is_parse("cd ~/..; ls", "cd ~/.. ; ls");
	is_parse("cd /; cd -; ls", "cd / ; @/:cd - ; ls");

	/* Operators are kept: a file read is not a file written. */
	is_io("cmd <a >b >>c >|d <>e &>f &>>g 2>h >&i <&j 2>&1 >&- 3<&0",
	    "cmd <a >b >>c >|d <>e &>f &>>g >h >&i <&j");
	is_io("exec {fd}>log; cat x 2>/dev/null", "exec >log ; cat >/dev/null");
	is_io("cat <<EOF >out\nbody\nEOF\n", "cat >out");
	is_io("grep x <<< hi > out", "grep >out");
	/* Redirections no command takes are not lost. */
	is_io("> .env", " ; loose >.env");
	is_io("echo x > \"~/.zshrc\" >> '$HOME/.bashrc' > ~/.profile",
	    "echo >./~/.zshrc >>./$HOME/.bashrc >~/.profile");
	is_io("echo x >> \"$HOME/.zshrc\" 2> \\~/e",
	    "echo >>$HOME/.zshrc >./~/e");
	is_io("> '~/.env'", " ; loose >./~/.env");
	is_io("x=1 >.env", " ; loose >.env");
	is_io("{ echo x; } > .env", "echo ; loose >.env");
	is_io("(echo x) >> .env", "echo ; loose >>.env");
	is_io("while read l; do echo $l; done < .env",
	    "read ; echo ; loose <.env");
	is_io("cd sub && > ../.env", "cd ; loose >../.env wd=sub");
	{
		/* Every redirection of a command is kept, not the first 64. */
		struct buf	many;
		char		*got;

		buf_init(&many);
		buf_adds(&many, "echo x");
		for (i = 0; i < 100; i++)
			buf_printf(&many, " >f%d", i);
		got = parse_io(many.data);
		ok(strstr(got, " >f0 ") != NULL && strstr(got, " >f99") != NULL,
		    "100 redirections of one command are all kept");
		free(got);
		buf_release(&many);
	}

	/* wd: where the cds left each command, relative ones too. */
	is_io("cd sub && ls", "cd ; ls wd=sub");
	is_io("cd sub; cd ../x; ls", "cd ; cd wd=sub ; ls wd=x");
	is_io("cd ..; cd ../a/./b//; ls", "cd ; cd wd=.. ; ls wd=../../a/b");
	is_io("cd a; cd ..; ls", "cd ; cd wd=a ; ls");
	is_io("cd /a; cd b; ls", "cd ; cd wd=/a ; ls wd=/a/b");
	is_io("cd ~/x; cd ../..; ls", "cd ; cd wd=~/x ; ls wd=?");
	is_io("cd -; ls; cd /t; ls", "cd ; ls wd=? ; cd wd=? ; ls wd=/t");
	is_io("cd $(pwd)/x; ls", "pwd ; cd ; ls wd=?");
	is_io("cd a; popd; ls", "cd ; popd wd=a ; ls wd=?");
	is_io("(cd a; ls); ls", "cd ; ls wd=a ; ls");
	is_io("cd a; bash -c 'cd b; ls >f'",
	    "cd ; bash wd=a ; cd wd=a ; ls wd=a/b >f");
	is_parse("cd sub; ls", "cd sub ; ls");

	/* Subcommands and flags. */
	test_program("git push -f", "git", "push");
	test_program("git -C /repo -c a=b push origin +main", "git", "push");
	test_program("/usr/bin/git --no-pager log", "git", "log");
	test_program("rm -rf", "rm", NULL);
	test_program("docker -H tcp://x run img", "docker", "run");
	test_flag("rm -rf /", "-r", true);
	test_flag("rm -fr /", "-r", true);
	test_flag("rm -R -f /", "-r", false);
	test_flag("rm --recursive /", "--recursive", true);
	test_flag("git push --force-with-lease", "--force", false);
	/* git refuses a value on an option that takes none. */
	test_flag("git push --force=yes", "--force", false);
	test_flag("git branch --force=feature", "--force", false);
	test_flag("git reset --hard=1", "--hard", false);
	test_flag("git push --force-with-lease=main", "--force-with-lease",
	    true);
	/* git: the last of --X (or -f) and --no-X wins. */
	test_flag("git branch --force --no-force feature", "--force", false);
	test_flag("git branch --no-force --force feature", "--force", true);
	test_flag("git push -f --no-force origin", "-f", false);
	test_flag("git push --no-force -f origin", "-f", true);
	test_flag("git push -fu --no-force origin", "-f", false);
	test_flag("git reset --hard --no-hard", "--hard", false);
	test_flag("git reset --hard --no-har", "--hard", false);
	test_flag("git reset --no-hard --har", "--hard", true);
	test_flag("git push --mirror --no-mirror", "--mirror", false);
	test_flag("git push --delete --no-delete origin x", "--delete", false);
	test_flag("git clean -fd --no-force", "-f", false);
	/* An ambiguous --no-forc is refused by git: it cancels nothing. */
	test_flag("git push --force --no-forc", "--force", true);
	test_flag("git push --force --no-force-with-lease", "--force", true);
	test_flag("git push --force --no-verify", "--force", true);
	/* Elsewhere --no-X is another option: rm --no-preserve-root. */
	test_flag("rm -r --recursive --no-recursive /", "--recursive", true);
	test_flag("rm -- -r", "-r", false);
	test_flag("find / -delete", "-delete", true);
	test_flag("find / -name -deleted", "-delete", false);
	/* Long options abbreviated as the program's parser accepts them. */
	test_program("git.exe reset --hard", "git", "reset");
	test_program("C:/Git/bin/GIT.EXE push", "git", "push");
	test_program("./my.exes x", "my.exes", "x");
	test_flag("rm --rec --for /", "--recursive", true);
	test_flag("rm --rec --for /", "--force", true);
	test_flag("rm --r /", "--recursive", true);
	test_flag("chmod --recur 777 /", "--recursive", true);
	/* --reference or --recursive: chmod refuses it, taken as both. */
	test_flag("chmod --re 777 /", "--recursive", true);
	test_flag("chmod --re 777 /", "--reference", true);
	test_flag("chmod --ref=a /", "--recursive", false);
	test_flag("chown --rec u /", "--recursive", true);
	test_flag("git reset --har", "--hard", true);
	test_flag("git reset --h", "--hard", true);
	test_flag("git -C x reset --ha=1", "--hard", false);
	test_flag("git reset --so", "--hard", false);
	test_flag("git clean --forc", "--force", true);
	test_flag("git clean -f --dry", "--dry-run", true);
	/* Several options start so: git refuses it; taken as each. */
	test_flag("git push --forc", "--force", true);
	test_flag("git push --force-w", "--force", false);
	test_flag("git push --force", "--force-with-lease", false);
	test_flag("git push --fo", "--follow-tags", true);
	/* Only the listed programs and subcommands resolve abbreviations. */
	test_flag("git log --har", "--hard", false);
	test_flag("mytool --rec", "--recursive", false);
	test_flag("rm --recursivex /", "--recursive", false);
	test_flag("rm -- --rec", "--recursive", false);

	/* Hostile input stays bounded and never crashes. */
	buf_init(&big);
	for (i = 0; i < 100000; i++)
		buf_adds(&big, "$(");
	s = parse(big.data);
	ok(strstr(s, "[truncated]") != NULL, "100000 nested $( is truncated");
	free(s);
	buf_reset(&big);
	for (i = 0; i < 100000; i++)
		buf_adds(&big, "(");
	s = parse(big.data);
	ok(strstr(s, "[truncated]") != NULL, "100000 nested ( is truncated");
	free(s);
	buf_reset(&big);
	for (i = 0; i < 20; i++)
		buf_adds(&big, "eval ");
	buf_adds(&big, "rm -rf /");
	s = parse(big.data);
	ok(strstr(s, "d8:rm -rf /") == NULL && strstr(s, "d8:eval") != NULL &&
	    strstr(s, "[truncated]") != NULL, "20 levels of eval are cut at 8");
	free(s);
	buf_reset(&big);
	for (i = 0; i < 20000; i++)
		buf_adds(&big, "a;");
	s = parse(big.data);
	ok(strstr(s, "[truncated]") != NULL, "20000 commands are cut");
	free(s);
	buf_reset(&big);
	/* A line of cds: each one's path is charged, not copied for free. */
	buf_adds(&big, "cd /;");
	for (i = 0; i < 16000; i++)
		buf_adds(&big, "cd a;");
	buf_adds(&big, "ls");
	s = parse(big.data);
	ok(arena_total < 16u << 20, "16000 cds deeper and deeper: %zu bytes",
	    arena_total);
	free(s);
	buf_reset(&big);
	/*
	 * A function whose body nests braces and groups past SH_MAX_NEST,
	 * skipped in one pass (skip_balanced): twice the depth, about twice
	 * the memory, and the call after it still read.
	 */
	{
		size_t	depth, total[2];
		int	k;

		for (k = 0; k < 2; k++) {
			depth = (size_t)2000 << k;
			buf_reset(&big);
			buf_adds(&big, "f() { ");
			for (i = 0; i < (int)depth; i++)
				buf_adds(&big, i % 2 ? "{ " : "( ");
			buf_adds(&big, "rm -rf /");
			for (i = (int)depth - 1; i >= 0; i--)
				buf_adds(&big, i % 2 ? "; }" : ")");
			buf_adds(&big, "; }; f; rm -rf ~");
			s = parse(big.data);
			total[k] = arena_total;
			ok(strstr(s, "rm -rf ~") != NULL, "a function nesting %zu "
			    "groups: the command after its call still read",
			    depth);
			free(s);
		}
		ok(total[1] < 3 * total[0], "twice as deep, %zu bytes against "
		    "%zu: linear", total[1], total[0]);
		buf_reset(&big);
	}
	/* Work that doubles: values, and scripts evaluated in evaluated ones. */
	buf_adds(&big, "c=ab");
	for (i = 0; i < 60; i++)
		buf_adds(&big, "; c=$c$c");
	buf_adds(&big, "; echo \"$c\"; rm -rf /");
	s = parse(big.data);
	ok(strstr(s, " ; rm -rf / [truncated]") != NULL &&
	    arena_total < 64u << 20, "c=$c$c 60 times: cut by the work budget, "
	    "%zu bytes, the command after it still seen", arena_total);
	free(s);
	buf_reset(&big);
	buf_adds(&big, "e='eval \"$e $e\"'");
	for (i = 0; i < 40; i++)
		buf_adds(&big, "; e=\"eval '$e;$e'\"");
	buf_adds(&big, "; $e; rm -rf ~");
	s = parse(big.data);
	ok(strstr(s, " ; rm -rf ~ [truncated]") != NULL &&
	    arena_total < 64u << 20, "scripts doubled by eval: cut by the work "
	    "budget, %zu bytes", arena_total);
	free(s);
	buf_reset(&big);
	/* A long here-document fed to sh is within the budget, whole. */
	buf_adds(&big, "sh <<'EOF'\n");
	for (i = 0; i < 10000; i++)
		buf_adds(&big, "echo a line of a generated script, long enough "
		    "to weigh 66 bytes\n");
	buf_adds(&big, "rm -rf /\nEOF\n");
	s = parse(big.data);
	ok(strstr(s, "d1:rm -rf /") != NULL && strstr(s, "[truncated]") == NULL,
	    "a 660 KB here-document fed to sh is parsed whole");
	free(s);
	buf_reset(&big);
	buf_adds(&big, "x=\"a a a a a a a a\"; y=\"$x $x $x $x\"; echo $y");
	s = parse(big.data);
	ok(strstr(s, "echo a a a") != NULL, "variables of variables split");
	free(s);
	buf_release(&big);
	/* Invalid UTF-8 is bytes; an unknown program's arguments are read. */
	is_parse("\xff\xfe rm -rf /", "\xff\xfe rm -rf / ; d1:rm -rf /");
	{
		/* A NUL byte in the middle is an ordinary byte. */
		struct sh_script sc;
		sh_parse(&sc, "rm\0-rf /", 8);
		ok(sc.n == 1 && sc.cmds[0].argc == 2, "embedded NUL");
		sh_release(&sc);
	}
	/* Substitutions run inside ${...} and unquoted here-documents. */
	has_nested("echo ${ rm -rf ~/; }", "rm -rf ~/");
	has_nested("echo ${| rm -rf ~/; REPLY=x; }", "rm -rf ~/");
	has_nested("echo ${x:-$(rm -rf ~/)}", "rm -rf ~/");
	has_nested("echo \"${x:=`rm -rf ~`}\"", "rm -rf ~");
	has_nested("cat <<EOF\n$(find . -delete)\nEOF", "find . -delete");
	has_nested("cat <<EOF\r\n$(git switch -f main)\r\nEOF\r\n",
	    "git switch -f main");
	has_nested("cat <<-EOF\n\t`rm -rf ~`\n\tEOF", "rm -rf ~");
	/* Not in a quoted one, nor escaped, nor as a plain name. */
	has_nested("cat <<'EOF'\n$(find . -delete)\nEOF", NULL);
	has_nested("cat <<\"EOF\"\n$(rm -rf ~)\nEOF", NULL);
	has_nested("cat <<EOF\n\\$(rm -rf ~) \\`rm -rf /`\nEOF", NULL);
	has_nested("echo ${HOME:-/tmp} ${#x} ${x%%/*}", NULL);

	/* A short option that takes a value ends a bundle. */
	test_flag("git checkout -bfeature", "-f", false);
	test_flag("git checkout -qbfeature", "-f", false);
	test_flag("git switch -Cfixup", "-f", false);
	test_flag("git checkout -qf main", "-f", true);
	test_flag("git push -of origin", "-f", false);
	test_flag("git push -fo x origin", "-f", true);
	test_flag("rm -rf x", "-f", true);
	/* find -exec's command words are not find's options. */
	test_flag("find . -exec echo -delete \\; -print", "-delete", false);
	test_flag("find . -exec echo {} + -delete", "-delete", true);
	test_flag("find . -ok rm {} \\; -delete", "-delete", true);

	return done_testing();
}
