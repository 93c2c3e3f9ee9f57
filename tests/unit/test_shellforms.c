/*
 * The shell reader's forms (shellforms.c and the wrappers of shellcmd.c):
 * commands that run other commands written differently, each as an
 * attacker would write it, and the harmless look-alikes that must stay
 * harmless.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "shellwords.h"
#include "tap.h"

/*
 * The parse as text: simple commands separated by " ; ", each as its argv
 * joined by ' ', prefixed with "d<depth>:" when nested and "@dir:" when
 * its directory is known.
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
	}
	if (sc.truncated)
		buf_adds(&b, " [truncated]");
	sh_release(&sc);
	return buf_detach(&b, NULL);
}

#define is_parse(cmd, want) do {					\
	char *got_ = parse(cmd);					\
	is_str(got_, want, "%s", cmd);					\
	free(got_);							\
} while (0)

/* Whether some command of the parse is exactly `want` (argv joined). */
static void
has_cmd(const char *cmd, const char *want, bool expect)
{
	char	*got = parse(cmd);
	char	*p;
	size_t	 n = strlen(want);
	bool	 found = false;

	for (p = got; (p = strstr(p, want)) != NULL; p++)
		if ((p == got || p[-1] == ' ' || p[-1] == ':') &&
		    (p[n] == '\0' || strncmp(p + n, " ;", 2) == 0 ||
		    strncmp(p + n, " [", 2) == 0)) {
			found = true;
			break;
		}
	ok(found == expect, "'%s' %s '%s' (%s)", cmd,
	    expect ? "runs" : "does not run", want, got);
	free(got);
}

/*
 * sh_arg_path() of arg with ~ at home: the plain path, or "-" when there
 * is none.
 */
static void
is_path_at(const char *arg, const char *home, const char *want)
{
	struct buf	b;

	buf_init(&b);
	if (!sh_arg_path(arg, home, &b))
		buf_reset(&b), buf_adds(&b, "-");
	is_str(b.data, want, "path of %s (home %s)", arg, home ? home : "none");
	buf_release(&b);
}

static void
is_path(const char *arg, const char *want)
{
	is_path_at(arg, NULL, want);
}

int
main(void)
{
	struct buf	 big;
	char		*s;
	int		 i;

	/* git aliases from -c and from the environment. */
	/* The alias runs with the same options: it may name another. */
	is_parse("git -c alias.x='reset --hard' x",
	    "git -c alias.x=reset --hard x ; "
	    "d1:git -c alias.x=reset --hard reset --hard");
	is_parse("git -c alias.x='reset --hard' x HEAD~1",
	    "git -c alias.x=reset --hard x HEAD~1 ; "
	    "d1:git -c alias.x=reset --hard reset --hard HEAD~1");
	has_cmd("git -c alias.x=y -c alias.y=branch x -D feature",
	    "d2:git -c alias.x=y -c alias.y=branch branch -D feature", true);
	is_parse("git -C repo -c Alias.Wipe='!rm -rf /' wipe",
	    "git -C repo -c Alias.Wipe=!rm -rf / wipe ; d1:rm -rf /");
	has_cmd("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.up "
	    "GIT_CONFIG_VALUE_0='push -f' git up", "d1:git push -f", true);
	has_cmd("env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.up "
	    "GIT_CONFIG_VALUE_0='push -f' git up", "d1:git push -f", true);
	has_cmd("export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.r "
	    "GIT_CONFIG_VALUE_0='reset --hard'; git r",
	    "d1:git reset --hard", true);
	/* An alias for another name, or no alias, runs nothing more. */
	is_parse("git -c alias.x='reset --hard' status", "git -c alias.x="
	    "reset --hard status");
	is_parse("git log --grep='alias.x=reset --hard'",
	    "git log --grep=alias.x=reset --hard");
	/* An alias of itself is bounded by the depth. */
	s = parse("git -c alias.x=x x");
	ok(strstr(s, "d1:git -c alias.x=x x") != NULL &&
	    strstr(s, "[truncated]") != NULL, "an alias of itself: %s", s);
	free(s);
	has_cmd("X='reset --hard' git --config-env=alias.z=X z",
	    "git --config-env=alias.z=X reset --hard", true);
	has_cmd("export X='!rm -rf ~'; git --config-env alias.z=X z",
	    "d1:rm -rf ~", true);
	has_cmd("git --config-env=alias.z=NOPE z", "d1:git", false);

	/* An alias or command set by git config earlier in the line. */
	is_parse("git config alias.nuke 'reset --hard' && git nuke",
	    "git config alias.nuke reset --hard ; git nuke ; "
	    "d1:git reset --hard");
	has_cmd("git config --global Alias.Up '!rm -rf ~'; git up",
	    "d1:rm -rf ~", true);
	has_cmd("git config set --local core.sshCommand 'rm -rf /'; git fetch",
	    "d1:rm -rf /", true);
	is_parse("git config alias.st status; git st",
	    "git config alias.st status ; git st ; d1:git status");
	is_parse("git config --get alias.x; git x",
	    "git config --get alias.x ; git x");
	is_parse("git config user.name 'rm -rf /'; git commit",
	    "git config user.name rm -rf / ; git commit");
	is_parse("git nuke; git config alias.nuke 'reset --hard'",
	    "git nuke ; git config alias.nuke reset --hard");

	/* Config values and variables that git runs as a command. */
	has_cmd("git -c core.sshCommand='rm -rf ~' fetch", "d1:rm -rf ~", true);
	has_cmd("GIT_SSH_COMMAND='rm -rf /' git pull", "d1:rm -rf /", true);
	has_cmd("GIT_SSH_COMMAND='rm -rf /'; git pull", "d1:rm -rf /", true);
	has_cmd("export EDITOR='rm -rf ~'", "d1:rm -rf ~", true);
	has_cmd("echo GIT_SSH_COMMAND='rm -rf /'", "d1:rm -rf /", false);
	has_cmd("make EDITOR='rm -rf /'", "d1:rm -rf /", false);

	/* env options. */
	is_parse("env - rm -rf /", "rm -rf /");
	is_parse("env -i -- rm -rf /", "rm -rf /");
	is_parse("env -P /usr/bin rm -rf /", "rm -rf /");
	is_parse("env -u HOME -u PATH rm -rf /", "rm -rf /");
	is_parse("env --unset=HOME --chdir=/tmp rm -rf x", "@/tmp:rm -rf x");
	is_parse("env --chdir /tmp rm -rf x", "@/tmp:rm -rf x");
	is_parse("env -S'rm -rf /'", "d1:rm -rf /");
	/* env -S makes no ~ home: only ${NAME} is expanded. */
	is_parse("env -S 'tee ~/.zshrc'", "d1:tee ./~/.zshrc");
	is_parse("env -S 'rm -rf ~ \"~\" x~ a\\ ~'",
	    "d1:rm -rf ./~ ./~ x~ a ~");
	is_parse("env --split-string='rm -rf /'", "d1:rm -rf /");
	/* -S's string is more of env's arguments, before the words after it. */
	is_parse("env -S 'PATH=/usr/bin' git reset --hard",
	    "d1:git reset --hard");
	is_parse("env -SPATH=/usr/bin git reset --hard", "d1:git reset --hard");
	is_parse("env -S '-C /srv/repo' git reset --hard",
	    "d1:@/srv/repo:git reset --hard");
	is_parse("env -S 'git status' --short", "d1:git status --short");
	/* NAME+=VALUE is an assignment too. */
	is_parse("GIT_WORK_TREE+=/srv/x git reset --hard", "git reset --hard");
	is_parse("a+b=1 ls", "a+b=1 ls");
	/* git-SUB is git SUB, by any path. */
	is_parse("git-reset --hard HEAD~1", "git reset --hard HEAD~1");
	is_parse("/usr/libexec/git-core/git-push -f origin",
	    "git push -f origin");
	is_parse("git-lfs prune", "git lfs prune");
	is_parse("git- x", "git- x");
	is_parse("env FOO=1 ls", "ls");
	/* env -C and sudo -D: the command runs in that directory. */
	is_parse("env -C / rm -rf .", "@/:rm -rf .");
	is_parse("env --chdir=/ rm -rf .", "@/:rm -rf .");
	is_parse("env --chdir ~ rm -rf *", "@~:rm -rf *");
	is_parse("sudo -D /etc rm -rf ..", "@/etc:rm -rf ..");
	is_parse("cd /tmp; env -C .. rm -rf x; ls",
	    "cd /tmp ; @/:rm -rf x ; @/tmp:ls");
	is_parse("env -C $(pwd) rm -rf .", "d1:pwd ; rm -rf .");

	/* GNU parallel. */
	is_parse("parallel rm -rf ::: / /home",
	    "parallel rm -rf ::: / /home ; d1:rm -rf / ; d1:rm -rf /home");
	is_parse("parallel 'rm -rf {}' ::: /",
	    "parallel rm -rf {} ::: / ; d1:rm -rf /");
	is_parse("parallel -j 4 --bar rm -rf {//} ::: /x",
	    "parallel -j 4 --bar rm -rf {//} ::: /x ; d1:rm -rf /x");
	is_parse("parallel ::: 'rm -rf ~' 'ls'",
	    "parallel ::: rm -rf ~ ls ; d1:rm -rf ~ ; d1:ls");
	is_parse("ls | parallel rm -rf", "ls ; parallel rm -rf ; d1:rm -rf");
	/* Arguments from a file are not known: the command as written. */
	is_parse("parallel rm -rf :::: list.txt",
	    "parallel rm -rf :::: list.txt ; d1:rm -rf");
	is_parse("parallel --dry-run rm -rf ::: /",
	    "parallel --dry-run rm -rf ::: /");
	is_parse("parallel echo ::: a b", "parallel echo ::: a b ; "
	    "d1:echo a ; d1:echo b");
	is_parse("parallel echo {{{ ::: a", "parallel echo {{{ ::: a ; "
	    "d1:echo {{{ a");
	/*
	 * A command that is a replacement string alone runs the argument
	 * as a command line (GNU parallel 20221122: `parallel {} :::
	 * 'echo a b'` prints "a b"); anywhere else it is one quoted word
	 * (`parallel git {} ::: 'push --force'` runs git with the one
	 * argument "push --force", which git refuses).
	 */
	is_parse("parallel {} ::: 'rm -rf /'",
	    "parallel {} ::: rm -rf / ; d1:rm -rf /");
	is_parse("parallel -j2 {.} ::: 'git reset --hard'",
	    "parallel -j2 {.} ::: git reset --hard ; d1:git reset --hard");
	is_parse("parallel git {} ::: 'push --force'",
	    "parallel git {} ::: push --force ; d1:git push --force");
	{
		struct sh_script sc;
		const char *cmd = "parallel git {} ::: 'push --force'";

		sh_parse(&sc, cmd, strlen(cmd));
		ok(sc.n == 2 && sc.cmds[1].argc == 2 &&
		    strcmp(sc.cmds[1].argv[1], "push --force") == 0,
		    "parallel git {}: git gets one word");
		sh_release(&sc);
	}
	/* Arguments are quoted as parallel quotes them: no injection. */
	is_parse("parallel echo ::: 'a; rm -rf /'",
	    "parallel echo ::: a; rm -rf / ; d1:echo a; rm -rf /");
	s = parse("parallel echo ::: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17");
	ok(strstr(s, "d1:echo 16") != NULL && strstr(s, "d1:echo 17") == NULL &&
	    strstr(s, "[truncated]") != NULL, "parallel: 16 arguments, then "
	    "truncated");
	free(s);

	is_parse("sem -j+0 rm -rf /", "sem -j+0 rm -rf / ; d1:rm -rf /");

	/* watch, ssh, trap. */
	is_parse("watch 'rm -rf /'", "watch rm -rf / ; d1:rm -rf /");
	is_parse("watch -n 5 -d rm -rf /", "watch -n 5 -d rm -rf / ; "
	    "d1:rm -rf /");
	is_parse("watch -n 1 ls -la", "watch -n 1 ls -la ; d1:ls -la");
	is_parse("ssh -i key -p 22 host 'rm -rf /'",
	    "ssh -i key -p 22 host rm -rf / ; d1:rm -rf /");
	is_parse("ssh host rm -rf ~", "ssh host rm -rf ~ ; d1:rm -rf ~");
	is_parse("ssh host -- rm -rf /", "ssh host -- rm -rf / ; d1:rm -rf /");
	is_parse("ssh host -t -p 22 rm -rf /",
	    "ssh host -t -p 22 rm -rf / ; d1:rm -rf /");
	is_parse("sshpass -p pw ssh host rm -rf /",
	    "ssh host rm -rf / ; d1:rm -rf /");
	/* Options that run a command here, not on the host. */
	has_cmd("ssh -o 'ProxyCommand=rm -rf ~' host", "d1:rm -rf ~", true);
	has_cmd("ssh -oProxyCommand='rm -rf ~' host", "d1:rm -rf ~", true);
	has_cmd("ssh -o 'proxycommand rm -rf ~' host", "d1:rm -rf ~", true);
	has_cmd("ssh -o PermitLocalCommand=yes -o 'LocalCommand=rm -rf /' h",
	    "d1:rm -rf /", true);
	has_cmd("rsync -e 'rm -rf /' a h:b", "d1:rm -rf /", true);
	has_cmd("rsync --rsh='rm -rf /' a h:b", "d1:rm -rf /", true);
	is_parse("rsync -av -e 'ssh -p 2' a h:", "rsync -av -e ssh -p 2 a h: ; "
	    "d1:ssh -p 2");
	is_parse("ssh -o StrictHostKeyChecking=no host",
	    "ssh -o StrictHostKeyChecking=no host");
	is_parse("ssh host", "ssh host");
	is_parse("ssh -L 80:x:80 host", "ssh -L 80:x:80 host");
	is_parse("trap 'rm -rf /' EXIT", "trap rm -rf / EXIT ; d1:rm -rf /");
	is_parse("trap -- 'rm -rf ~' INT TERM",
	    "trap -- rm -rf ~ INT TERM ; d1:rm -rf ~");
	is_parse("trap - EXIT", "trap - EXIT");
	is_parse("trap -p", "trap -p");

	/* The user's shell, and a shell that only checks the syntax. */
	is_parse("$SHELL -c 'rm -rf /'", "$SHELL -c rm -rf / ; d1:rm -rf /");
	is_parse("\"${SHELL}\" -c 'rm -rf /'",
	    "$SHELL -c rm -rf / ; d1:rm -rf /");
	is_parse("bash -n -c 'rm -rf /'", "bash -n -c rm -rf /");
	is_parse("bash -nc 'rm -rf /'", "bash -nc rm -rf /");
	is_parse("sh -n <<< 'rm -rf /'", "sh -n");
	is_parse("bash -c 'rm -rf /' -n", "bash -c rm -rf / -n ; d1:rm -rf /");

	/* for loops over a literal list. */
	is_parse("for d in / /home; do rm -rf \"$d\"; done",
	    "for d in / /home ; rm -rf / /home");
	is_parse("for d in a b; do echo \"$d/x\" $dd; done",
	    "for d in a b ; echo a/x b/x $dd");
	is_parse("for d in $(ls); do rm -rf \"$d\"; done",
	    "d1:ls ; for d in $(ls) ; rm -rf $(ls)");
	is_parse("for d; do rm -rf \"$d\"; done", "for d ; rm -rf $d");
	is_parse("select d in / /home; do rm -rf \"$d\"; done",
	    "select d in / /home ; rm -rf / /home");
	/* A function's body runs where it is called, not where defined. */
	is_parse("function f { rm -rf ~; }; f", "f ; d1:rm -rf ~");
	is_parse("f() { rm -rf ~; }; f", "f ; d1:rm -rf ~");
	is_parse("function f() ( git reset --hard ); f x",
	    "f x ; d1:git reset --hard");
	is_parse("cleanup() { rm -rf ../x; }", "");
	is_parse("cleanup() {\n  rm -rf ../x\n}\necho done", "echo done");
	is_parse("f() { rm -rf ~; }; trap f EXIT",
	    "trap f EXIT ; d1:f ; d2:rm -rf ~");
	is_parse("f() { f; }; f", "f ; d1:f ; d2:f ; d3:f ; d4:f ; d5:f ; "
	    "d6:f ; d7:f ; d8:f [truncated]");
	is_parse("f() { echo '}' ; rm -rf /; }; f",
	    "f ; d1:echo } ; d1:rm -rf /");
	is_parse("echo 'f()' x", "echo f() x");
	is_parse("echo function f { rm -rf ~; }",
	    "echo function f { rm -rf ~");
	is_parse("echo for d in /; rm -rf $d", "echo for d in / ; rm -rf $d");

	/*
	 * Where bash finds a function: not after the subshell that defined
	 * it; in the same shell's { } group, compound, pipeline and $( );
	 * in command position only, or through time, !, eval, trap; never
	 * through a program that execs its command; in a new shell only
	 * when exported.
	 */
	is_parse("( cleanup() { rm -rf ../outside; } ); cleanup", "cleanup");
	is_parse("x=$(f() { rm -rf /; }); f", "f");
	is_parse("echo `f() { rm -rf /; }`; f", "echo `f() { rm -rf /; }` ; f");
	is_parse("cat <(f() { rm -rf /; }); f", "cat <(f() { rm -rf /; }) ; f");
	is_parse("( f() { rm -rf /; }; f )", "f ; d1:rm -rf /");
	is_parse("{ f() { rm -rf /; }; }; f", "f ; d1:rm -rf /");
	is_parse("{ f() { rm -rf /; }; }", "");
	is_parse("{ function f { rm -rf /; }; }; f", "f ; d1:rm -rf /");
	is_parse("if true; then f() { rm -rf /; }; fi; f",
	    "true ; f ; d1:rm -rf /");
	is_parse("f() { rm -rf /; }; ( f )", "f ; d1:rm -rf /");
	is_parse("f() { rm -rf /; }; ( g() { :; } ); f", "f ; d1:rm -rf /");
	is_parse("f() { rm -rf /; }; ( f() { :; } ); f", "f ; d1:rm -rf /");
	is_parse("f() { rm -rf /; }; echo $(f)",
	    "d1:f ; d2:rm -rf / ; echo $(f)");
	is_parse("f() { rm -rf /; }; f | cat", "f ; d1:rm -rf / ; cat");
	is_parse("f() { rm -rf /; }; f &", "f ; d1:rm -rf /");
	is_parse("f() { rm -rf /; }; if f; then :; fi", "f ; d1:rm -rf / ; :");
	is_parse("f() { rm -rf /; }; ! f", "f ; d1:rm -rf /");
	is_parse("f() { rm -rf /; }; time f", "f ; d1:rm -rf /");
	is_parse("f() { rm -rf /; }; time -p -- f", "f ; d1:rm -rf /");
	is_parse("f() { rm -rf /; }; eval f", "eval f ; d1:f ; d2:rm -rf /");
	is_parse("f() { rm -rf /; }; X=1 time f", "f");
	is_parse("f() { rm -rf /; }; \\time f", "f");
	is_parse("f() { rm -rf /; }; time \"--\" f", "f");
	is_parse("f() { rm -rf /; }; X=1 ! f", "f");
	is_parse("f() { rm -rf /; }; command f", "f");
	is_parse("f() { rm -rf /; }; builtin f", "f");
	is_parse("f() { rm -rf /; }; exec f", "f");
	is_parse("f() { rm -rf /; }; env f", "f");
	is_parse("f() { rm -rf /; }; sudo f", "f");
	is_parse("f() { rm -rf /; }; timeout 5 f", "f");
	is_parse("f() { rm -rf /; }; nice f", "f");
	is_parse("f() { rm -rf /; }; nohup f", "f");
	is_parse("f() { rm -rf /; }; /usr/bin/time f", "f");
	is_parse("f() { rm -rf /; }; echo x | xargs f", "echo x ; f ; d1:f x");
	is_parse("f() { rm -rf /; }; echo f | bash", "echo f ; bash ; d1:f");
	is_parse("f() { rm -rf /; }; export -f f; echo f | bash",
	    "export -f f ; echo f ; bash ; d1:f ; d2:rm -rf /");
	is_parse("f() { rm -rf /; }; find . -exec f \\;",
	    "find . -exec f ; ; d1:f");
	is_parse("f() { rm -rf /; }; sh -c f", "sh -c f ; d1:f");
	is_parse("f() { rm -rf /; }; bash -c 'time f'", "bash -c time f ; d1:f");
	is_parse("f() { rm -rf /; }; export -f f; sh -c f",
	    "export -f f ; sh -c f ; d1:f ; d2:rm -rf /");
	is_parse("f() { rm -rf /; }; declare -fx f; bash -c f",
	    "declare -fx f ; bash -c f ; d1:f ; d2:rm -rf /");
	is_parse("f() { rm -rf /; }; typeset -f -x f; bash -c 'bash -c f'",
	    "typeset -f -x f ; bash -c bash -c f ; d1:bash -c f ; d2:f ; "
	    "d3:rm -rf /");
	is_parse("f() { rm -rf /; }; export f; bash -c f",
	    "export f ; bash -c f ; d1:f");
	is_parse("f() { rm -rf /; }; (export -f f); bash -c f",
	    "export -f f ; bash -c f ; d1:f");
	is_parse("bash -c 'f() { rm -rf /; }'; f", "bash -c f() { rm -rf /; } ; f");
	is_parse("f() { rm -rf /; }; export -f f; parallel f ::: a",
	    "export -f f ; parallel f ::: a ; d1:f a ; d2:rm -rf /");
	is_parse("f() { rm -rf /; }; parallel f ::: a",
	    "parallel f ::: a ; d1:f a");
	is_parse("f() { rm -rf /; }; watch f", "watch f ; d1:f");
	is_parse("f() { rm -rf /; }; su -c f", "su -c f ; d1:f");
	/* A function named as a wrapper runs instead of it. */
	is_parse("sudo() { rm -rf /; }; sudo ls", "d1:rm -rf / ; ls");
	is_parse("time() { rm -rf /; }; env time ls", "ls");
	/* A name that is also a program the packs judge stays judged. */
	is_parse("rm() { echo; }; sudo rm -rf /", "rm -rf /");

	/* A program found by its path: $(which rm) runs rm. */
	is_parse("$(which rm) -rf /", "d1:which rm ; $(which rm) -rf /");
	{
		struct sh_script sc;
		const char *const progs[][2] = {
			{ "$(which rm) -rf /", "rm" },
			{ "\"$(command -v rm)\" -rf /", "rm" },
			{ "`which rm` -rf /", "rm" },
			{ "$(type -P /bin/rm) -rf /", "rm" },
			{ "$(which rm; ls) -rf /", "$(which rm; ls)" },
			{ "$(whichx rm) -rf /", "$(whichx rm)" },
		};
		size_t k;

		for (k = 0; k < sizeof(progs) / sizeof(progs[0]); k++) {
			sh_parse(&sc, progs[k][0], strlen(progs[k][0]));
			ok(sc.n > 0 && strcmp(sc.cmds[sc.n - 1].program,
			    progs[k][1]) == 0, "program of %s is %s",
			    progs[k][0], progs[k][1]);
			sh_release(&sc);
		}
	}
	/* command -v and -V say what a name is: they run nothing. */
	is_parse("command -v mkfs.ext4", "command -v mkfs.ext4");
	is_parse("command -V rm", "command -V rm");
	is_parse("command -p rm -rf /", "rm -rf /");
	is_parse("${SHELL:-bash} -c 'rm -rf /'",
	    "${SHELL:-bash} -c rm -rf / ; d1:rm -rf /");

	/* Other wrappers: another user, a lock, a root, a CPU set. */
	is_parse("pkexec --user root rm -rf /", "rm -rf /");
	is_parse("flock -n -w 5 /tmp/l rm -rf /", "rm -rf /");
	is_parse("flock /tmp/l -c 'rm -rf /'",
	    "flock /tmp/l -c rm -rf / ; d1:rm -rf /");
	is_parse("chroot --userspec=a:b /srv rm -rf /", "rm -rf /");
	is_parse("taskset 0x3 chrt 5 fakeroot eatmydata rm -rf /", "rm -rf /");
	is_parse("strace -f -o trace.log rm -rf /", "rm -rf /");
	is_parse("gtimeout -k 1 9 rm -rf /", "rm -rf /");
	is_parse("caffeinate -i -t 60 rm -rf /", "rm -rf /");
	is_parse("runuser -u root -- rm -rf /",
	    "runuser -u root -- rm -rf / ; d1:rm -rf /");
	is_parse("runuser -l root -c 'rm -rf /'",
	    "runuser -l root -c rm -rf / ; d1:rm -rf /");
	is_parse("sg wheel -c 'rm -rf /'", "sg wheel -c rm -rf / ; d1:rm -rf /");
	is_parse("script -q -c 'rm -rf /' /dev/null",
	    "script -q -c rm -rf / /dev/null ; d1:rm -rf /");
	is_parse("chroot /mnt", "chroot /mnt");
	is_parse("flock /tmp/l", "flock /tmp/l");

	/* Wrappers already known stay known. */
	is_parse("timeout 5 nice -n 10 nohup rm -rf /", "rm -rf /");
	is_parse("command -p exec rm -rf /", "rm -rf /");

	/* The path a target names, written plainly. */
	is_path("/tmp/../etc", "/etc");
	is_path("/usr/../", "/");
	is_path("/./", "/");
	is_path("/.", "/");
	is_path("///", "/");
	is_path("/..", "/");
	is_path("/a/b/../../..", "/");
	is_path("/*/", "/*");
	is_path("/home/dev/x/..", "/home/dev");
	is_path("${HOME:?}", "$HOME");
	is_path("${HOME:?unset}/", "$HOME");
	is_path("${HOME:-/tmp}/.cache/..", "$HOME");
	is_path("${D=/}/x", "$D/x");
	is_path("${D=/}x", "-");
	is_path("~/x/..", "~");
	is_path("$HOME/a/./b", "$HOME/a/b");
	/* Nothing to say, or no one can tell. */
	is_path("/etc", "-");
	is_path("/", "-");
	is_path("rel/../x", "-");
	is_path("-rf", "-");
	is_path("~/..", "-");
	is_path("$HOME/..", "-");
	/* Above ~ and $HOME, where home is. */
	is_path_at("~/..", "/home/dev", "/home");
	is_path_at("~/../..", "/home/dev", "/");
	is_path_at("~/../../", "/home/dev/", "/");
	is_path_at("$HOME/..", "/home/dev", "/home");
	is_path_at("${HOME:?}/..", "/root", "/");
	is_path_at("~/../../../..", "/home/dev", "/");
	is_path_at("~/../dev/x", "/home/dev", "/home/dev/x");
	is_path_at("~ops/..", "/home/dev", "/home");
	is_path_at("~ops/../..", "/home/dev", "/");
	is_path_at("~/..", "relative", "-");
	is_path_at("$D/..", "/home/dev", "-");
	is_path("${HOME:+x}", "-");
	is_path("${#HOME}", "-");

	{
		/* Each nested command names the command that ran it. */
		struct sh_script sc;
		const char *cmd = "parallel 'bash -c \"rm -rf {}\"' ::: /; ls";

		sh_parse(&sc, cmd, strlen(cmd));
		ok(sc.n == 4 && sc.cmds[0].via == NULL &&
		    strcmp(sc.cmds[1].via, sc.cmds[0].text) == 0 &&
		    strcmp(sc.cmds[2].via, sc.cmds[1].text) == 0 &&
		    sc.cmds[3].via == NULL, "via: %s / %s",
		    sc.n > 1 && sc.cmds[1].via ? sc.cmds[1].via : "-",
		    sc.n > 2 && sc.cmds[2].via ? sc.cmds[2].via : "-");
		sh_release(&sc);
	}

	/* Bounded: many loop words over many values are charged. */
	buf_init(&big);
	buf_adds(&big, "for d in");
	for (i = 0; i < 16; i++)
		buf_adds(&big, " /aaaaaaaaaaaaaaaa");
	buf_adds(&big, "; do echo");
	for (i = 0; i < 4000; i++)
		buf_adds(&big, " $d");
	buf_adds(&big, "; done");
	s = parse(big.data);
	ok(strlen(s) < 16u << 20, "a loop word 4000 times: %zu bytes",
	    strlen(s));
	free(s);
	buf_release(&big);
	return done_testing();
}
