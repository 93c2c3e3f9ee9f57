/*
 * Per-session state for `once:` rules.
 *
 * One JSON file per session under the state directory, holding the set of
 * keys already claimed ({"version":1,"session_id":"...","fired":[...]}).
 * Every read-modify-write happens under an exclusive flock() on a sibling
 * lock file and the new content replaces the old by rename(), so parallel
 * hooks of one session neither lose a key nor claim one twice, and a crash
 * never leaves a half-written file behind.
 *
 * A session id is never used as a path as is: state_file_name() maps it to
 * a safe name ([A-Za-z0-9_-] kept, anything else escaped, long ids hashed).
 */
#ifndef RR_STATE_H
#define RR_STATE_H

#include <stdbool.h>
#include <stddef.h>

/* Returns an owned file name (no directory part) for session_id. */
char	*state_file_name(const char *session_id);

/*
 * For each keys[i], sets first[i] to true when the key was not yet claimed
 * in this session.  Unless dry_run, adds the new keys to the file.  Creates
 * the directory (mode 0700) when missing.  A state file that is not valid
 * JSON (or not a regular file) is renamed aside to NAME.corrupt and
 * treated as empty; *warn then holds an owned message.  Returns 0, or -1
 * with *err (owned) set when the state cannot be kept: on -1, first[i] is
 * false only for a key known to be claimed already, and true for the
 * others, which are not recorded (the caller decides what they do).
 *
 * A state file is never reset for its size: one at its limit (16 MiB,
 * far above what a session reaches) is kept as it is and new keys fail
 * as above; one larger than that is left unread and kept.  Writers that
 * died before their rename leave temporary files, which the next writer
 * of the session removes.
 */
int	 state_claim(const char *state_dir, const char *session_id,
	     const char *const *keys, size_t n, bool *first, bool dry_run,
	     char **warn, char **err);

/*
 * state_claim() of one key in a slot: the keys that start with slot (a
 * prefix no rule's key can have) hold one value at a time.  *first is
 * true when key is not the slot's value, which it then becomes: so the
 * slot tells whether something differs from the last value claimed.
 */
int	 state_claim_slot(const char *state_dir, const char *session_id,
	     const char *slot, const char *key, bool *first, char **warn,
	     char **err);

/*
 * How many of the session's keys start with prefix (reading the file, no
 * lock: a count for display).  0, or -1 with *err; a corrupt or missing
 * file counts none.
 */
int	 state_count(const char *state_dir, const char *session_id,
	     const char *prefix, size_t *n, char **err);

/*
 * Removes state files older than max_age_days, and with them their lock
 * files, those set aside as corrupt and the temporary files of writers
 * that died.
 */
int	 state_prune(const char *state_dir, int max_age_days, char **err);

#endif
