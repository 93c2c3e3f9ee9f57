/*
 * Adding our hook registrations to a Claude Code settings.json.  The file
 * belongs to the user and to Claude Code, which rewrites it itself, so the
 * merge only appends: every other key, hook and entry keeps its place, and
 * the result is laid out as Claude Code writes it (JSON.stringify with a
 * 2-space indent) so that a later edit by either side makes a small diff.
 * Every number is written exactly as it was read (1e400, -0, 1.0 and
 * 12345678901234567890 included): a double cannot hold them all.
 */
#ifndef RR_SETTINGS_MERGE_H
#define RR_SETTINGS_MERGE_H

#include <stddef.h>

/* The command registered when none is given. */
#define SETTINGS_DEFAULT_COMMAND	"reflexion-rules hook"
/* The "timeout" (seconds) of every handler we add. */
#define SETTINGS_HOOK_TIMEOUT		10

/* The events we register, in the order their entries are added. */
extern const char *const settings_events[];
extern const size_t settings_nevents;

/*
 * Merges our handler for `command` into the settings text old_json[0..len)
 * (empty or blank means {}).  `name` is the file's name for messages.
 *
 * For each event in settings_events, unless a handler of any group of
 * hooks[event] already has "command" equal to `command`, appends a group
 * {"matcher": "*" (tool events only), "hooks": [{"type": "command",
 * "command": command, "timeout": 10}]} to hooks[event].
 *
 * Returns 0 with *out_json (malloc'd, ends in a newline) and *changed = the
 * number of events a group was added to (0: nothing to do; *out_json then
 * holds the input re-laid out, for display only).  Returns -1 with *err
 * (malloc'd, one line) when the text is not JSON, not an object, or
 * "hooks" or one of our events has the wrong type; the caller must then
 * leave the file alone.
 */
int	settings_merge(const char *name, const char *old_json, size_t len,
	    const char *command, char **out_json, int *changed, char **err);

#endif
