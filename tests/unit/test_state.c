/* Per-session state: names, claims, corruption, failures, concurrency. */
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "state.h"
#include "files.h"
#include "tap.h"
#include "xmalloc.h"

static char	root[64];

/* Does the session's state file list key? */
static int
file_has(const char *dir, const char *session, const char *key)
{
	char	*name = state_file_name(session);
	char	*path = xasprintf("%s/%s", dir, name);
	char	*text = file_slurp(path);
	cJSON	*j = text ? cJSON_Parse(text) : NULL, *it;
	int	 found = 0;

	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(j, "fired"))
		if (cJSON_IsString(it) && strcmp(it->valuestring, key) == 0)
			found = 1;
	cJSON_Delete(j);
	free(text);
	free(path);
	free(name);
	return j == NULL ? -1 : found;
}

static int
claim1(const char *dir, const char *session, const char *key, char **warn)
{
	const char	*keys[1] = { key };
	bool		 first[1];
	char		*err = NULL, *w = NULL;
	int		 rc;

	rc = state_claim(dir, session, keys, 1, first, false, &w, &err);
	free(err);
	if (warn)
		*warn = w;
	else
		free(w);
	return rc < 0 ? -1 : first[0];
}

int
main(void)
{
	const char	*keys[3] = { "a", "b", "a" };
	bool		 first[3];
	char		*name, *dir, *path, *warn, *err, *text, *longid;
	struct stat	 st;
	struct timespec	 old[2];
	int		 i, round, winners, status;
	pid_t		 pid;

	snprintf(root, sizeof(root), "/tmp/rr-state.XXXXXX");
	if (mkdtemp(root) == NULL)
		return 1;
	dir = xasprintf("%s/home/state", root);

	name = state_file_name("9f1c2b7e-4a1d");
	is_str(name, "9f1c2b7e-4a1d.json", "a plain id is kept");
	free(name);
	name = state_file_name("../../etc/passwd");
	ok(strchr(name, '/') == NULL && name[0] != '.',
	    "'../../etc/passwd' has no '/' and no leading dot: %s", name);
	free(name);
	name = state_file_name("..");
	is_str(name, "%2E%2E.json", "'..' is escaped");
	free(name);
	name = state_file_name("");
	ok(strcmp(name, ".json") != 0 && name[0] != '.', "an empty id: %s", name);
	free(name);
	longid = xmalloc(4001);
	memset(longid, 'x', 4000);
	longid[4000] = '\0';
	name = state_file_name(longid);
	ok(strlen(name) < 200, "a 4,000-char id gives a short name");
	longid[3999] = 'y';
	text = state_file_name(longid);
	ok(strcmp(name, text) != 0, "long ids differing at the end differ");
	free(name);
	free(text);
	free(longid);
	name = state_file_name("세션");
	ok(strchr(name, '/') == NULL && strstr(name, "%EC") != NULL,
	    "non-ASCII bytes are escaped: %s", name);
	free(name);

	is_int(claim1(dir, "s1", "rule-a", NULL), 1, "first claim is first");
	ok(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700,
	    "the state directory is created with mode 0700");
	is_int(claim1(dir, "s1", "rule-a", NULL), 0, "second claim is not");
	is_int(claim1(dir, "s2", "rule-a", NULL), 1, "other sessions are separate");
	is_int(file_has(dir, "s1", "rule-a"), 1, "the file lists the key");

	ok(state_claim(dir, "s3", keys, 3, first, true, &warn, &err) == 0 &&
	    first[0] && first[1] && !first[2], "dry run: duplicate keys in one call");
	is_int(file_has(dir, "s3", "a"), -1, "dry run writes nothing");
	ok(state_claim(dir, "s3", keys, 2, first, false, &warn, &err) == 0 &&
	    first[0] && first[1], "two keys at once");
	ok(file_has(dir, "s3", "a") == 1 && file_has(dir, "s3", "b") == 1,
	    "both keys are written");

	/* A slot holds one value: first again when it changes. */
	{
		bool f;
		ok(state_claim_slot(dir, "s7", "slot ", "slot A", &f, &warn,
		    &err) == 0 && f, "a slot's first value is first");
		ok(state_claim_slot(dir, "s7", "slot ", "slot A", &f, &warn,
		    &err) == 0 && !f, "the same value again is not");
		ok(state_claim_slot(dir, "s7", "slot ", "slot B", &f, &warn,
		    &err) == 0 && f, "another value is first");
		ok(state_claim_slot(dir, "s7", "slot ", "slot A", &f, &warn,
		    &err) == 0 && f, "and the first value, back again, too");
		is_int(claim1(dir, "s7", "slot-rule", NULL), 1,
		    "a key outside the slot is its own");
		ok(file_has(dir, "s7", "slot A") == 1 &&
		    file_has(dir, "s7", "slot B") == 0 &&
		    file_has(dir, "s7", "slot-rule") == 1,
		    "the file holds the slot's last value and the other keys");
	}

	/* A writer removes the temporary files of the session's dead writers. */
	{
		char *mine = xasprintf("%s/.s8.json.Ab12Cd.tmp", dir);
		char *other = xasprintf("%s/.s80.json.Ab12Cd.tmp", dir);
		char *odd = xasprintf("%s/.s8.json.toolongname.tmp", dir);
		is_int(claim1(dir, "s8", "k1", NULL), 1, "session s8 exists");
		file_spit(mine, "{");
		file_spit(other, "{");
		file_spit(odd, "{");
		is_int(claim1(dir, "s8", "k1", NULL), 0, "a claim that writes nothing");
		ok(stat(mine, &st) == 0, "... leaves the temporary files alone");
		is_int(claim1(dir, "s8", "k2", NULL), 1, "a claim that writes");
		ok(stat(mine, &st) < 0, "... removes its session's dead writer's file");
		ok(stat(other, &st) == 0 && stat(odd, &st) == 0,
		    "... and no other session's, nor a name not file_replace's");
		unlink(other);
		unlink(odd);
		free(mine);
		free(other);
		free(odd);
	}

	/*
	 * A file at its limit (16 MiB) is kept as it is: its keys still
	 * count, new ones fail; one over it is kept unread.
	 */
	{
		const char *k2[2] = { "a", "b" };
		struct buf big;
		size_t limit = 16u * 1024 * 1024;
		char *bigpath = xasprintf("%s/s9.json", dir), *aside;
		FILE *fp;

		buf_init(&big);
		buf_adds(&big, "{\"version\":1,\"fired\":[\"a\",\"");
		while (big.len < limit - 16)
			buf_addc(&big, 'x');
		buf_adds(&big, "\"]}");
		file_spit(bigpath, big.data);
		err = NULL;
		first[0] = first[1] = true;
		ok(state_claim(dir, "s9", k2, 2, first, false, &warn, &err) < 0 &&
		    !first[0] && first[1] && err != NULL &&
		    strstr(err, "reached its limit") != NULL,
		    "at the limit: -1, the old key still found, the new one not");
		free(err);
		text = file_slurp(bigpath);
		ok(text != NULL && strcmp(text, big.data) == 0,
		    "at the limit: the file is kept as it was");
		free(text);
		buf_release(&big);
		if ((fp = fopen(bigpath, "wb")) != NULL) {
			fseek(fp, 20L * 1024 * 1024, SEEK_SET);
			fputc('x', fp);
			fclose(fp);
		}
		err = NULL;
		ok(state_claim(dir, "s9", k2, 1, first, false, &warn, &err) < 0 &&
		    first[0] && err != NULL && strstr(err, "larger than") != NULL,
		    "over the limit: -1, and nothing known");
		free(err);
		aside = xasprintf("%s.corrupt", bigpath);
		ok(stat(bigpath, &st) == 0 && st.st_size > 20L * 1024 * 1024 &&
		    stat(aside, &st) < 0, "over the limit: kept, not set aside");
		unlink(bigpath);
		free(aside);
		free(bigpath);
	}

	/* Corrupt files are set aside, never trusted. */
	path = xasprintf("%s/s4.json", dir);
	const char *corrupt[] = { "garbage\x01\xff", "{\"fired\":[\"x\"", "[1,2]",
	    "{\"fired\":\"x\"}", "{\"fired\":[1]}" };
	for (i = 0; i < 5; i++) {
		file_spit(path, corrupt[i]);
		warn = NULL;
		is_int(claim1(dir, "s4", "k", &warn), 1,
		    "corrupt state %d: the claim works", i);
		ok(warn != NULL && strstr(warn, "corrupt") != NULL,
		    "corrupt state %d: a warning names it", i);
		free(warn);
		text = xasprintf("%s.corrupt", path);
		ok(stat(text, &st) == 0, "corrupt state %d: set aside", i);
		free(text);
		unlink(path);
	}
	/* A symlink planted at the state path is not followed. */
	text = xasprintf("%s/target", root);
	file_spit(text, "precious");
	if (symlink(text, path) == 0) {
		is_int(claim1(dir, "s4", "k", NULL), 1, "claim past a symlink");
		name = file_slurp(text);
		is_str(name, "precious", "the symlink's target is untouched");
		free(name);
		ok(lstat(path, &st) == 0 && S_ISREG(st.st_mode),
		    "the state path is a regular file again");
	}
	free(text);
	free(path);

	/* An impossible directory: fail, say why, and fail open. */
	text = xasprintf("%s/file", root);
	file_spit(text, "x");
	path = xasprintf("%s/file/state", root);
	first[0] = false;
	err = NULL;
	ok(state_claim(path, "s", keys, 1, first, false, &warn, &err) < 0 &&
	    err != NULL && first[0], "an unusable directory: -1, a message, first");
	free(err);
	free(path);
	free(text);

	/* Prune: old files go, new ones stay. */
	path = xasprintf("%s/old.json", dir);
	file_spit(path, "{}");
	old[0].tv_sec = old[1].tv_sec = time(NULL) - 40 * 86400;
	old[0].tv_nsec = old[1].tv_nsec = 0;
	utimensat(AT_FDCWD, path, old, 0);
	text = xasprintf("%s/.old.json.Xy12Ab.tmp", dir);
	file_spit(text, "{");
	utimensat(AT_FDCWD, text, old, 0);
	{
		/* A temporary file over a minute old has no live writer. */
		char *fresh = xasprintf("%s/.new.json.Xy12Ab.tmp", dir);
		char *stale = xasprintf("%s/.mid.json.Xy12Ab.tmp", dir);
		struct timespec mins[2];
		file_spit(fresh, "{");
		file_spit(stale, "{");
		mins[0].tv_sec = mins[1].tv_sec = time(NULL) - 300;
		mins[0].tv_nsec = mins[1].tv_nsec = 0;
		utimensat(AT_FDCWD, stale, mins, 0);
		ok(state_prune(dir, 30, &err) == 0, "prune runs");
		ok(stat(path, &st) < 0, "a 40-day-old file is removed");
		ok(stat(text, &st) < 0, "so is a 40-day-old temporary file");
		ok(stat(stale, &st) < 0, "and a 5-minute-old one");
		ok(stat(fresh, &st) == 0, "a new temporary file stays");
		unlink(fresh);
		free(fresh);
		free(stale);
	}
	is_int(file_has(dir, "s1", "rule-a"), 1, "a new file stays");
	free(text);
	free(path);

	/* 50 processes, one key: exactly one claims it, nothing is lost. */
	for (round = 0; round < 3; round++) {
		char session[32], unique[32];
		snprintf(session, sizeof(session), "par-%d", round);
		for (i = 0; i < 50; i++) {
			if ((pid = fork()) == 0) {
				const char *k2[2];
				snprintf(unique, sizeof(unique), "k%d", i);
				k2[0] = "once-rule";
				k2[1] = unique;
				if (state_claim(dir, session, k2, 2, first, false,
				    &warn, &err) < 0)
					_exit(2);
				_exit(first[0] ? 1 : 0);
			}
		}
		winners = 0;
		for (i = 0; i < 50; i++) {
			if (wait(&status) > 0 && WIFEXITED(status) &&
			    WEXITSTATUS(status) == 1)
				winners++;
		}
		is_int(winners, 1, "round %d: one of 50 processes claimed", round);
		for (status = 1, i = 0; i < 50; i++) {
			snprintf(unique, sizeof(unique), "k%d", i);
			if (file_has(dir, session, unique) != 1)
				status = 0;
		}
		ok(status && file_has(dir, session, "once-rule") == 1,
		    "round %d: all 51 keys survive in valid JSON", round);
	}

	text = xasprintf("rm -rf '%s'", root);
	if (system(text) != 0)
		printf("# could not remove %s\n", root);
	free(text);
	free(dir);
	return done_testing();
}
