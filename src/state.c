/*
 * Per-session state files (see state.h).  Each claim is one locked
 * read-modify-write: flock() on NAME.lock serializes the hooks of one
 * session, and the new JSON replaces the old by rename(), so a reader never
 * sees half a file and a crash never leaves one.
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"
#include "state.h"
#include "xmalloc.h"

/*
 * The most a state file holds: far above what a session reaches (a key
 * is a rule id, with a path for session+path rules: 16 MiB is some
 * 100,000 files edited in one session).  A file at the limit is kept
 * as it is, never reset: what it says has fired still has.
 */
#define STATE_FILE_MAX		(16u * 1024 * 1024)
/* Temporary files older than this have no live writer (seconds). */
#define STATE_TMP_MAX_AGE	60
#define STATE_NAME_MAX		120
#define STATE_NAME_KEEP		64

static bool
safe_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static unsigned long long
fnv1a64(const char *s)
{
	unsigned long long	h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

char *
state_file_name(const char *session_id)
{
	struct buf		 b;
	const unsigned char	*p;

	buf_init(&b);
	if (*session_id == '\0')
		buf_adds(&b, "%00-empty");
	for (p = (const unsigned char *)session_id; *p; p++) {
		if (safe_byte(*p))
			buf_addc(&b, (char)*p);
		else
			buf_printf(&b, "%%%02X", *p);
	}
	/* Long ids keep a readable prefix and a hash of the whole id. */
	if (b.len > STATE_NAME_MAX) {
		buf_truncate(&b, STATE_NAME_KEEP);
		buf_printf(&b, "-%016llx", fnv1a64(session_id));
	}
	buf_adds(&b, ".json");
	return buf_detach(&b, NULL);
}

/*
 * Reads the state file into *fired (a cJSON array, owned).  Returns 0, 1
 * when the file was corrupt (caller sets it aside), -1 on an I/O error
 * or when it is larger than it may be (it is kept: nothing is lost).
 */
static int
read_state(const char *path, cJSON **fired, char **err)
{
	struct buf	 b;
	struct stat	 st;
	cJSON		*root, *arr, *it;
	enum fd_read_result r;
	int		 fd;

	*fired = cJSON_CreateArray();
	/* O_NONBLOCK: a FIFO planted there must not hang the hook. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		if (errno == ELOOP)
			return 1;	/* a planted symlink: never follow it */
		*err = xasprintf("cannot read state file '%s': %s", path,
		    strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 1;	/* a FIFO, a device: set aside like garbage */
	}
	buf_init(&b);
	r = st.st_size > (off_t)STATE_FILE_MAX ? FD_READ_TOO_BIG :
	    fd_read_all(fd, STATE_FILE_MAX, false, &b);
	if (r == FD_READ_ERROR) {
		*err = xasprintf("cannot read state file '%s': %s", path,
		    strerror(errno));
		close(fd);
		buf_release(&b);
		return -1;
	}
	if (r == FD_READ_TOO_BIG) {
		*err = xasprintf("state file '%s' is larger than %u MiB; kept "
		    "as it is", path, STATE_FILE_MAX >> 20);
		close(fd);
		buf_release(&b);
		return -1;
	}
	close(fd);
	root = cJSON_ParseWithLength(b.data, b.len);
	buf_release(&b);
	arr = cJSON_GetObjectItemCaseSensitive(root, "fired");
	if (!cJSON_IsObject(root) || !cJSON_IsArray(arr)) {
		cJSON_Delete(root);
		return 1;
	}
	cJSON_ArrayForEach(it, arr) {
		if (!cJSON_IsString(it)) {
			cJSON_Delete(root);
			return 1;
		}
		cJSON_AddItemToArray(*fired, cJSON_CreateString(it->valuestring));
	}
	cJSON_Delete(root);
	return 0;
}

static bool
has_key(const cJSON *fired, const char *key)
{
	const cJSON	*it;

	cJSON_ArrayForEach(it, fired)
		if (strcmp(it->valuestring, key) == 0)
			return true;
	return false;
}

static int
write_state(const char *path, const char *session_id, const cJSON *fired,
    char **err)
{
	cJSON		*root;
	char		*text, *data, stamp[32];
	time_t		 now = time(NULL);
	struct tm	 tm;
	int		 rc;

	root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "version", 1);
	cJSON_AddStringToObject(root, "session_id", session_id);
	cJSON_AddItemToObject(root, "fired", cJSON_Duplicate(fired, 1));
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	cJSON_AddStringToObject(root, "updated", stamp);
	if ((text = cJSON_PrintUnformatted(root)) == NULL)
		out_of_memory(0);
	cJSON_Delete(root);
	data = xasprintf("%s\n", text);
	if (strlen(data) > STATE_FILE_MAX) {
		*err = xasprintf("state file '%s' has reached its limit of "
		    "%u MiB; kept as it is, new keys are not recorded", path,
		    STATE_FILE_MAX >> 20);
		rc = -1;
	} else
		/* Mode 0600: which rules fired is the user's business. */
		rc = file_replace(path, data, strlen(data), 0600, err);
	free(data);
	free(text);
	return rc;
}

/*
 * Removes the temporary files that writers of the state file `name` left
 * when they died (killed at the deadline, or by the agent) before their
 * rename: ".NAME.XXXXXX.tmp", see file_replace().  Every writer holds the
 * session's lock, which the caller holds now, so none of them is alive;
 * and since every writer does this first, a writer killed in turn leaves
 * at most its own.
 */
static void
remove_dead_temps(const char *state_dir, const char *name)
{
	struct dirent	*de;
	DIR		*d;
	char		*p;
	size_t		 nl = strlen(name);

	if ((d = opendir(state_dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (!file_is_replace_temp(de->d_name) ||
		    strlen(de->d_name) != 1 + nl + strlen(".XXXXXX.tmp") ||
		    strncmp(de->d_name + 1, name, nl) != 0 ||
		    de->d_name[1 + nl] != '.')
			continue;
		p = xasprintf("%s/%s", state_dir, de->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
}

/* Removes from fired the keys that start with prefix, but key. */
static void
empty_slot(cJSON *fired, const char *prefix, const char *key)
{
	cJSON	*it, *next;
	size_t	 len = strlen(prefix);

	for (it = fired->child; it != NULL; it = next) {
		next = it->next;
		if (strncmp(it->valuestring, prefix, len) == 0 &&
		    strcmp(it->valuestring, key) != 0)
			cJSON_Delete(cJSON_DetachItemViaPointer(fired, it));
	}
}

/*
 * state_claim(), and state_claim_slot() when slot is not NULL: then the
 * keys that start with slot are replaced by the one new key.
 */
static int
claim(const char *state_dir, const char *session_id,
    const char *const *keys, size_t n, bool *first, bool dry_run,
    const char *slot, char **warn, char **err)
{
	char		*name, *path, *lock, *aside, *e = NULL;
	cJSON		*fired = NULL;
	size_t		 i;
	int		 lfd, rc = -1, r, added = 0;

	if (warn)
		*warn = NULL;
	if (err)
		*err = NULL;
	for (i = 0; i < n; i++)
		first[i] = true;
	name = state_file_name(session_id);
	path = xasprintf("%s/%s", state_dir, name);
	lock = xasprintf("%s.lock", path);
	if (mkdir_p(state_dir, &e) < 0)
		goto out;
	lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
	    0600);
	if (lfd < 0) {
		e = xasprintf("cannot open lock file '%s': %s", lock,
		    strerror(errno));
		goto out;
	}
	while ((r = flock(lfd, LOCK_EX)) < 0 && errno == EINTR)
		;
	if (r < 0) {
		e = xasprintf("cannot lock '%s': %s", lock, strerror(errno));
		close(lfd);
		goto out;
	}
	/* Keep the lock's mtime fresh so state_prune() spares a live session. */
	futimens(lfd, NULL);
	r = read_state(path, &fired, &e);
	if (r < 0) {
		close(lfd);
		goto out;
	}
	if (r == 1) {
		aside = xasprintf("%s.corrupt", path);
		if (rename(path, aside) < 0 && errno != ENOENT)
			unlink(path);
		if (warn)
			*warn = xasprintf("state file '%s' was corrupt; set "
			    "aside as '%s'", path, aside);
		free(aside);
	}
	for (i = 0; i < n; i++) {
		if (has_key(fired, keys[i])) {
			first[i] = false;
			continue;
		}
		if (slot != NULL)
			empty_slot(fired, slot, keys[i]);
		cJSON_AddItemToArray(fired, cJSON_CreateString(keys[i]));
		added++;
	}
	if (!dry_run && added > 0) {
		remove_dead_temps(state_dir, name);
		/* Not written: the keys found stay found, the new ones unsure. */
		if (write_state(path, session_id, fired, &e) < 0) {
			close(lfd);
			goto out;
		}
	}
	close(lfd);	/* releases the lock */
	rc = 0;
out:
	cJSON_Delete(fired);
	free(name);
	free(path);
	free(lock);
	if (err)
		*err = e;
	else
		free(e);
	return rc;
}

int
state_claim(const char *state_dir, const char *session_id,
    const char *const *keys, size_t n, bool *first, bool dry_run,
    char **warn, char **err)
{
	return claim(state_dir, session_id, keys, n, first, dry_run, NULL,
	    warn, err);
}

int
state_claim_slot(const char *state_dir, const char *session_id,
    const char *slot, const char *key, bool *first, char **warn, char **err)
{
	if (strncmp(key, slot, strlen(slot)) != 0)
		BUG("state key '%s' is not in its slot '%s'", key, slot);
	return claim(state_dir, session_id, &key, 1, first, false, slot, warn,
	    err);
}

int
state_count(const char *state_dir, const char *session_id,
    const char *prefix, size_t *n, char **err)
{
	cJSON		*fired;
	const cJSON	*it;
	char		*name, *path;
	size_t		 len = strlen(prefix);
	int		 rc;

	*n = 0;
	*err = NULL;
	name = state_file_name(session_id);
	path = xasprintf("%s/%s", state_dir, name);
	free(name);
	rc = read_state(path, &fired, err);
	free(path);
	if (rc == 0)
		cJSON_ArrayForEach(it, fired)
			if (strncmp(it->valuestring, prefix, len) == 0)
				(*n)++;
	cJSON_Delete(fired);
	return rc < 0 ? -1 : 0;
}

int
state_prune(const char *state_dir, int max_age_days, char **err)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	char		*p;
	time_t		 now = time(NULL);
	time_t		 cutoff = now - (time_t)max_age_days * 86400;
	time_t		 tmp_cutoff = now - STATE_TMP_MAX_AGE;
	bool		 tmp;

	if (err)
		*err = NULL;
	if ((d = opendir(state_dir)) == NULL) {
		if (errno == ENOENT)
			return 0;
		if (err)
			*err = xasprintf("cannot open state directory '%s': %s",
			    state_dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		tmp = file_is_replace_temp(de->d_name);
		if (!str_has_suffix(de->d_name, ".json") &&
		    !str_has_suffix(de->d_name, ".lock") &&
		    !str_has_suffix(de->d_name, ".corrupt") && !tmp)
			continue;
		p = xasprintf("%s/%s", state_dir, de->d_name);
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_mtime < (tmp ? tmp_cutoff : cutoff))
			unlink(p);
		free(p);
	}
	closedir(d);
	return 0;
}
