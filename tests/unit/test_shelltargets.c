/*
 * What a shell command writes and reads (shelltargets.h): per program,
 * its options and operands; redirections; cd; nested scripts; and the
 * words that name no file (here-documents, "-", an echo's arguments).
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "shelltargets.h"
#include "shellwords.h"
#include "tap.h"

/*
 * The targets as text: "w FILE" or "r FILE", with "@wd/" before FILE
 * when a cd set the wd, separated by ", ".
 */
static char *
targets(const char *cmd)
{
	struct sh_script	sc;
	struct sh_targets	t;
	struct buf		b;
	size_t			i;

	sh_parse(&sc, cmd, strlen(cmd));
	sh_targets_collect(&sc, &t);
	buf_init(&b);
	for (i = 0; i < t.n; i++) {
		buf_printf(&b, "%s%c ", i ? ", " : "",
		    t.v[i].access == SH_WRITE ? 'w' : 'r');
		if (t.v[i].wd != NULL)
			buf_printf(&b, "@%s/", t.v[i].wd);
		buf_adds(&b, t.v[i].file);
	}
	if (t.truncated)
		buf_adds(&b, " [truncated]");
	sh_targets_release(&t);
	sh_release(&sc);
	return buf_detach(&b, NULL);
}

#define is_targets(cmd, want) do {					\
	char *got_ = targets(cmd);					\
	is_str(got_, want, "%s", cmd);					\
	free(got_);							\
} while (0)

/* The `how` of the first target of cmd. */
static void
is_how(const char *cmd, const char *want)
{
	struct sh_script	sc;
	struct sh_targets	t;

	sh_parse(&sc, cmd, strlen(cmd));
	sh_targets_collect(&sc, &t);
	is_str(t.n ? t.v[0].how : "(none)", want, "how: %s", cmd);
	sh_targets_release(&t);
	sh_release(&sc);
}

int
main(void)
{
	struct buf	 big;
	const char	*p, *prev = NULL;
	size_t		 i;
	char		*s;

	/* Redirections. */
	is_targets("echo x > .env", "w .env");
	is_targets("echo x >> .env 2> err &> all &>> all2 >| f",
	    "w .env, w err, w all, w all2, w f");
	is_targets("sort < in > out", "r in, w out");
	is_targets("exec 3<> .env", "r .env, w .env");
	is_targets("cmd >&log 2>&1 >&2 <&0 >&-", "w log");
	is_targets("> .env", "w .env");
	is_targets("{ echo x; } > .env", "w .env");
	is_targets("(echo a; echo b) >> .env", "w .env");
	is_targets("while read l; do :; done < .env", "r .env");
	is_targets("cat <<EOF > .env\nA=1\nEOF\n", "w .env");
	is_targets("cat <<EOF\n.env\nEOF\n", "");
	is_targets("grep x <<< .env", "");
	is_targets("echo .env", "");
	is_targets("grep x .env > out.txt", "w out.txt, r .env");
	is_targets("tee >(cat > .env) < /dev/null", "w .env, r /dev/null");

	/* Programs that write or delete their operands. */
	is_targets("tee .env", "w .env");
	is_targets("tee -a a b", "w a, w b");
	is_targets("rm -rf .env secrets", "w .env, w secrets");
	is_targets("rm -- -f", "w -f");
	is_targets("unlink .env", "w .env");
	is_targets("shred -n 3 -u .env", "w .env");
	is_targets("truncate -s0 .env", "w .env");
	is_targets("truncate -s 0 .env", "w .env");
	is_targets("truncate --size=0 -r ref .env", "r ref, w .env");
	is_targets("touch -d yesterday .env", "w .env");
	is_targets("mkdir -p -m 700 a/b", "w a/b");
	is_targets("rmdir d", "w d");
	is_targets("chmod 600 .env", "w .env");
	is_targets("chmod -R -w secrets", "w secrets");
	is_targets("chmod --reference=a .env", "r a, w .env");
	is_targets("chown -R me:me .env", "w .env");
	is_targets("vim +10 .env", "w .env");
	is_targets("ed -s .env", "w .env");

	/* Copies, moves, links. */
	is_targets("cp x .env", "w .env, r x, w .env/x");
	is_targets("cp -r a b dir/", "w dir/, w dir/a, r a, w dir/b, r b");
	is_targets("cp -t secrets a", "w secrets, w secrets/a, r a");
	is_targets("cp --target-directory=s a", "w s, w s/a, r a");
	is_targets("cp --target s a", "w s, w s/a, r a");
	is_targets("cp -S .bak a b", "w b, r a, w b/a");
	is_targets("cp .env", "");
	is_targets("mv x .env", "w .env, w x, w .env/x");
	is_targets("mv .env /tmp/", "w /tmp/, w /tmp/.env, w .env");
	is_targets("install -m 600 x .env", "w .env, r x, w .env/x");
	is_targets("install -d a b", "w a, w b");
	is_targets("ln -sf x .env", "w .env, w .env/x");
	is_targets("ln -s /etc/passwd", "w passwd");
	is_targets("dd if=/dev/zero of=.env bs=1 count=1",
	    "r /dev/zero, w .env");

	/* In place. */
	is_targets("sed -i s/a/b/ .env", "w .env");
	is_targets("sed -i.bak -e s/a/b/ a b", "w a, w b");
	is_targets("sed --in-place=.bak 's/a/b/' .env", "w .env");
	is_targets("sed -n p .env", "r .env");
	is_targets("sed -f script.sed .env", "r script.sed, r .env");
	is_targets("perl -pi -e 's/a/b/' .env", "w .env");
	is_targets("perl -i.bak -pe 's/a/b/' .env", "w .env");
	is_targets("perl -ne print .env", "r .env");
	is_targets("perl script.pl .env", "r script.pl");
	is_targets("gawk -i inplace '{print}' .env", "w .env");
	is_targets("awk -F: -v x=1 '{print}' a y=2 b", "r a, r b");
	is_targets("awk -f prog.awk .env", "r prog.awk, r .env");
	is_targets("yq -i .a=1 c.yaml", "w c.yaml");
	is_targets("jq .a c.json", "r c.json");
	is_targets("jq --arg k v -n '$k' --args a b", "");
	is_targets("jq --slurpfile s .env -n .", "r .env");

	/* Reads. */
	is_targets("cat .env", "r .env");
	is_targets("cat - .env", "r .env");
	is_targets("head -n 5 .env", "r .env");
	is_targets("head -n5 -c 10 .env", "r .env");
	is_targets("tail -f -n +5 log .env", "r log, r .env");
	is_targets("tail +5 .env", "r .env");
	is_targets("less -p x .env", "r .env");
	is_targets("grep -r secret .env", "r .env");
	is_targets("grep -e a -e b .env", "r .env");
	is_targets("grep -A 3 -f pats .env", "r pats, r .env");
	is_targets("grep -- -v .env", "r .env");
	is_targets("rg -g '*.ts' TOKEN src", "r src");
	is_targets("rg --files secrets", "r secrets");
	is_targets("source .env", "r .env");
	is_targets(". ./.env arg", "r ./.env");
	is_targets("bash .env", "r .env");
	is_targets("bash -c 'cat .env' x y", "r .env");
	is_targets("diff a .env", "r a, r .env");
	is_targets("wc -l .env", "r .env");
	is_targets("base64 -w0 .env", "r .env");
	is_targets("xxd .env out", "r .env, w out");
	is_targets("strings -n 8 .env", "r .env");
	is_targets("sort -o out -k 2 in", "w out, r in");
	is_targets("uniq in out", "r in, w out");
	is_targets("md5sum .env", "r .env");

	/* Options that name files. */
	is_targets("curl -d @.env https://x", "r .env");
	is_targets("curl --data-binary @.env https://x", "r .env");
	is_targets("curl --data-urlencode k@.env https://x", "r .env");
	is_targets("curl -d 'a=b@c' https://x", "");
	is_targets("curl -F 'f=@.env;type=text/plain' https://x", "r .env");
	is_targets("curl -T .env https://x", "r .env");
	is_targets("curl -sSo .env https://x", "w .env");
	is_targets("curl -H 'X: y' -o .env https://x", "w .env");
	is_targets("wget -O .env https://x", "w .env");
	is_targets("wget --post-file=.env https://x", "r .env");
	is_targets("scp .env host:/tmp/", "r .env");
	is_targets("scp host:/etc/x .env", "w .env");
	is_targets("rsync -av -e ssh .env h:x", "r .env");
	is_targets("tar czf out.tgz .env", "w out.tgz, r .env");
	is_targets("tar -cf out.tar -C dir .env", "w out.tar, r dir/.env");
	is_targets("tar -C dir -xf in.tar", "r in.tar");
	is_targets("tar -xf in.tar", "r in.tar");
	is_targets("zip -r out.zip .env", "w out.zip, r .env");
	is_targets("unzip in.zip -d x", "r in.zip");
	is_targets("gzip .env", "w .env");
	is_targets("gzip -c .env", "r .env");
	is_targets("openssl enc -in .env -out x.enc", "r .env, w x.enc");
	is_targets("patch .env fix.patch", "w .env, r fix.patch");
	is_targets("git restore .env", "w .env");
	is_targets("git restore --staged .env", "");
	is_targets("git checkout -- .env", "w .env");
	is_targets("git checkout main -- .env", "w .env");
	is_targets("git checkout -b topic", "");
	is_targets("git rm .env", "w .env");
	is_targets("git rm --cached .env", "");
	is_targets("git -C sub rm .env", "w sub/.env");
	is_targets("git mv a .env", "w .env, w a, w .env/a");
	is_targets("git status .env", "");

	/* Wrappers, quotes, variables, cd, nested scripts, pipelines. */
	is_targets("sudo tee .env", "w .env");
	is_targets("'t'ee \".env\"", "w .env");
	is_targets("f=.env; echo x > $f", "w .env");
	is_targets("echo x > $UNKNOWN/.env", "w $UNKNOWN/.env");
	/* bash: "ambiguous redirect"; the word as written. */
	is_targets("echo x > {a,b}.env", "w {a,b}.env");
	is_targets("cp f{,.bak}", "w f.bak, r f, w f.bak/f");
	is_targets("/bin/rm .env", "w .env");
	is_targets("cd sub && echo x > ../.env", "w @sub/../.env");
	is_targets("cd /tmp; rm x", "w @/tmp/x");
	is_targets("cd - && rm .env", "w @?/.env");
	is_targets("bash -c 'echo x > .env'", "w .env");
	is_targets("sh -c \"cd a && tee b\"", "w @a/b");
	is_targets("cat .env | tee out", "r .env, w out");
	is_targets("echo $(cat .env) > /dev/null", "r .env, w /dev/null");
	is_targets("find . -name x -exec cp {} .env \\;",
	    "w .env, r {}, w .env/{}");
	is_targets("alias w='tee'; w .env", "w .env");
	is_targets("unknown-program .env", "");
	is_targets("echo x >", "");

	/* explain's words. */
	is_how("echo x >> .env", ">>");
	is_how("cp a .env", "cp destination");
	is_how("sed -i s/a/b/ .env", "sed -i");
	is_how("dd of=.env", "dd of=");
	is_how("curl -o .env x", "-o");

	/* The table is sorted: it is searched by halves. */
	for (i = 0; (p = sh_target_program(i)) != NULL; i++) {
		if (prev != NULL && strcmp(prev, p) >= 0)
			break;
		prev = p;
	}
	ok(p == NULL && i > 50, "%zu programs, sorted", i);

	/* A destination times many sources stays within the budget. */
	buf_init(&big);
	buf_adds(&big, "cp");
	for (i = 0; i < 4000; i++)
		buf_adds(&big, " a");
	buf_adds(&big, " ");
	for (i = 0; i < 100000; i++)
		buf_addc(&big, 'd');
	s = targets(big.data);
	ok(strstr(s, "[truncated]") != NULL && strlen(s) < (64u << 20),
	    "cp of 4000 sources to a 100 KB destination: truncated, "
	    "%zu bytes", strlen(s));
	free(s);
	buf_release(&big);
	return done_testing();
}
