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

#include <stdbool.h>

#include "hookreg.h"

/* The command registered when none is given. */
#define SETTINGS_DEFAULT_COMMAND	"reflexion-rules hook"

/* The events registered in Claude Code's settings, in their order. */
extern const char *const settings_events[];
extern const size_t settings_nevents;

/* What settings_edit() does to a client's file. */
struct settings_edit {
	const struct reg_client	*client;
	/*
	 * The program and `hook`, to which the client's arguments are
	 * added ("reflexion-rules hook --agent gemini").
	 */
	const char		*command;
	bool			 uninstall;
	/* A top-level "version": 1 where there is none. */
	bool			 version;
	/*
	 * Claude Code's "statusLine" too: {"type": "command", "command":
	 * statusline} added when there is none; with uninstall, removed
	 * when it runs our statusline.  *statusline_done (may be NULL)
	 * says what happened: 1 added or removed, 0 nothing to do, -1 the
	 * file has a status line of someone else's, left as it is.
	 */
	const char		*statusline;	/* or NULL */
	int			*statusline_done;
};

/*
 * Adds our handler to every event of ed->client's registration that has
 * none (a handler whose command is the one we would add, or any other
 * registration of ours, hookreg_is_ours()): in the client's shape, with
 * its keys and timeout.  With ed->uninstall, removes every handler of
 * ours from every event instead, and the groups and events that only
 * they made; *empty then says that the file holds nothing else.  As
 * settings_merge() otherwise; *changed counts the events changed.
 */
int	settings_edit(const char *name, const char *old_json, size_t len,
	    const struct settings_edit *ed, char **out_json, int *changed,
	    bool *empty, char **err);

/*
 * Merges our handler for `command` into the settings text old_json[0..len)
 * (empty or blank means {}).  `name` is the file's name for messages.
 *
 * For each event in settings_events, unless a handler of any group of
 * hooks[event] already has "command" equal to `command` or runs our hook
 * (hookreg_is_ours()), appends a group {"matcher": "*" (tool events
 * only), "hooks": [{"type": "command", "command": command, "timeout":
 * 10}]} to hooks[event]: settings_edit() for Claude Code.
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
