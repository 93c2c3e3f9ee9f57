/*
 * A hook event, mapped onto the agent-neutral fields rules test.
 *
 * struct rr_event owns the parsed JSON (root) and an arena for the texts it
 * synthesizes (joined MultiEdit strings, flattened responses, the relative
 * path, the names of the files it touches); every `const char *` in it
 * points into one of those two and lives until event_release().
 */
#ifndef RR_EVENT_H
#define RR_EVENT_H

#include <stdbool.h>
#include <stddef.h>

#include "agent.h"
#include "arena.h"
#include "pathid.h"

struct buf;
struct cJSON;

enum rr_event_kind {
	EV_PRE_TOOL_USE,
	EV_POST_TOOL_USE,
	EV_POST_TOOL_USE_FAILURE,
	EV_USER_PROMPT_SUBMIT,
	EV_STOP,
	EV_SUBAGENT_STOP,
	EV_SESSION_START,
	EV_SESSION_END,
	EV__COUNT,
	EV_OTHER = EV__COUNT	/* read, never matched by a rule */
};

/* The text fields of the rule language (reflexion-rules(5)). */
enum rr_field {
	F_PATH,
	F_CONTENT,
	F_OLD_CONTENT,
	F_COMMAND,
	F_PROMPT,
	F_RESPONSE,
	F_ERROR,
	F_MESSAGE,
	F_TOOL,
	F_EVENT,
	F_CWD,
	F_REASON,	/* why a session ended (SessionEnd's reason) */
	F_FILE_BEFORE,	/* the file on disk, read when a rule asks */
	F_FILE_AFTER,	/* the file as the tool would leave it, likewise */
	/*
	 * The files a tool reads: those a shell command names to read
	 * (the evaluation makes them, shelltargets.h), a Read's path.
	 * Never in f[]: for a shell command, `path` is likewise the files
	 * it writes, made by the evaluation, not event.c.
	 */
	F_READ_PATH,
	F__COUNT,
	F_INPUT = F__COUNT,	/* input.<key>: looked up on demand */
	/*
	 * The programs of a shell command, one per line: the program of
	 * each simple command the reader finds in it (shellwords.h).  Not
	 * a field of the rule language: only the prefilter's text for the
	 * `program` of a shell map, made by the evaluation.
	 */
	F_PROGRAMS,
	F_SUBCOMMANDS		/* likewise their subcommands (shellquery.c) */
};

struct rr_text {
	const char	*s;	/* NULL when the event has no such field */
	size_t		 len;
};

struct rr_event {
	struct cJSON	*root;
	struct arena	 arena;
	enum rr_event_kind kind;
	const char	*event_name;	/* hook_event_name, "" if absent */
	/*
	 * Without hook_event_name, the kind the event looks like (a tool
	 * call without a response is PreToolUse, with one PostToolUse, a
	 * prompt UserPromptSubmit): event_name is then its name, and
	 * guessed says why, for the line on stderr; NULL when named.
	 */
	const char	*guessed;
	const char	*tool;		/* tool_name, or NULL */
	const char	*session_id;	/* "" if absent */
	const char	*cwd;		/* "" if absent */
	const char	*transcript_path; /* or NULL */
	const char	*project_dir;	/* as given, else cwd; see places.h */
	const char	*abs_path;	/* F_PATH made absolute, or NULL */
	const char	*rel_path;	/* F_PATH relative to project_dir */
	/*
	 * Every file the tool names, paths[0] being F_PATH's (an MCP tool
	 * may name several: a path rule tests each), with their names
	 * (pathid.h): the real ones are looked up when a rule asks.
	 */
	struct rr_text	*path_raw;
	struct path_forms *paths;
	size_t		 npaths;
	bool		 paths_resolved;
	struct path_root paths_root;	/* project_dir, as paths see it */
	bool		 paths_root_set; /* paths_root made (on demand) */
	struct rr_text	 path_text;	/* event_path_text(), once made */
	bool		 stop_hook_active;
	/*
	 * The tool call failed: PostToolUseFailure, or an event that says
	 * so in its own words (seed 001's tool_error).
	 */
	bool		 failed;
	/* The fields made on demand (event_field()) are made. */
	bool		 error_made, prompt_made;
	/* F_ERROR was found in the output (errclass.h), not sent. */
	bool		 error_detected;
	struct rr_text	 f[F__COUNT];
	/* Why a file the event names was not read, for stderr; or NULL. */
	const char	*note;
	/*
	 * The client and its own names of the event and the tool, which
	 * its reply uses (output_agents.c); set by event_set_client(),
	 * else Claude Code and the canonical names.
	 */
	enum rr_agent	 agent;
	const char	*client_event;
	const char	*client_tool;	/* or NULL */
	/*
	 * The file as the tool leaves it, for a tool edits.c does not know
	 * (a file of a Codex patch): returns an EDIT_* of edits.h, given
	 * the file on disk (NULL: none).  NULL: edits.c's edit_result().
	 */
	int		(*file_after)(const void *arg, const char *disk,
			    size_t disk_len, struct buf *out);
	const void	*file_after_arg;
};

/* Event names, indexed by enum rr_event_kind. */
extern const char *const event_kind_names[EV__COUNT];
/* Field names as the rule language spells them, by enum rr_field. */
extern const char *const rr_field_names[F_SUBCOMMANDS + 1];
/* EV_OTHER when unknown. */
enum rr_event_kind event_kind_from_name(const char *);

/*
 * The JSON of an event, json[0..len) (need not be NUL-terminated), with
 * the escapes cJSON mishandles fixed first (json_fix_escapes()).
 * Returns the tree (owned), or NULL with *err (owned) when the input is
 * not a JSON object.
 */
struct cJSON *event_json_parse(const char *json, size_t len, char **err);
/*
 * Reads an event from root, a canonical event (agent.h) that ev takes
 * over, sent by agent; project_dir as for event_parse().
 */
void	 event_from_root(struct rr_event *, struct cJSON *root,
	     const char *project_dir, enum rr_agent agent);
/* The client's own names of the event and tool (copied; tool: NULL). */
void	 event_set_client(struct rr_event *, const char *client_event,
	     const char *client_tool);

/*
 * Parses one hook event in canonical form (Claude Code's) from
 * json[0..len) (need not be NUL-terminated).
 * project_dir may be NULL (then the event's cwd is used).  Returns 0, or
 * -1 with *err (owned) when the input is not a JSON object.  Missing or
 * wrong-typed fields are not errors: they are simply absent.
 */
int	 event_parse(struct rr_event *, const char *json, size_t len,
	     const char *project_dir, char **err);
void	 event_release(struct rr_event *);
/*
 * Makes dir (copied) the event's project directory and derives rel_path
 * from it again: the hook finds the project root from the event's cwd
 * (places.h), so only after parsing.
 */
void	 event_set_project(struct rr_event *, const char *dir);

/*
 * Every file the event names, with all its names (pathid.h); the real
 * names are looked up the first time.  Returns how many; *out points
 * into the event.
 */
size_t	 event_paths(struct rr_event *, const struct path_forms **out);
/*
 * Whether path rules compare ignoring case: the project's file system
 * folds it, or REFLEXION_PATH_CASE says so.  Found out once per event.
 */
bool	 event_paths_fold_case(struct rr_event *);
/*
 * The names of another path of this event (a target of its shell
 * command, say), made as its own paths' are: against its cwd and
 * project, through links.  Strings in the event's arena.
 */
void	 event_path_identity(struct rr_event *, const char *raw, size_t len,
	     struct path_forms *);
/*
 * Every name of every path the event names, one per line: the text in
 * which a literal of a path rule must be found (the prefilter's); the
 * relative names are suffixes of the absolute ones.  {NULL, 0} when the
 * event names no file.
 */
struct rr_text event_path_text(struct rr_event *);
/*
 * The same text for other paths of the event (a shell command's files):
 * event_names_add() appends every name of one file to b, and
 * event_names_text() adds their folding where case folds and returns
 * b's text copied into the event's arena (b stays the caller's).
 */
void	 event_names_add(struct buf *b, const struct path_forms *);
struct rr_text event_names_text(struct rr_event *, struct buf *b);

/*
 * Field f of the event, made when first asked for where making it costs
 * (every reader of f[] goes through here for these):
 *  - F_ERROR of a PostToolUse that did not fail: the error errclass.h
 *    finds in its output (the one classification of errors: what rules
 *    see is what the recorder stores);
 *  - F_PROMPT of a Stop: the last prompt of the transcript (Claude Code's
 *    format), the request the answer in `message` is for.
 * The others are f[] as the event holds them.
 */
struct rr_text event_field(struct rr_event *, enum rr_field f);
/* event_field(ev, F_ERROR): the call's error, {NULL, 0} when it has none. */
struct rr_text event_error(struct rr_event *);

/* The value of input.<dotted.key> as text, or {NULL, 0}. */
struct rr_text event_input(struct rr_event *, const char *dotted_key);

/*
 * A path named in the event (a shell command's file) as path rules see
 * it: `path` resolved against the directory `base` (absolute; "" or NULL
 * when unknown: then `path` is only cleaned up), "." and ".." resolved
 * lexically, '\\' read as '/'; *abs the result, *rel the same relative to
 * the project directory when it is under it, else *abs.  Both live in
 * the event's arena.
 */
void	 event_path_pair(struct rr_event *, const char *base,
	     const char *path, const char **abs, const char **rel);

/*
 * Rewrites the JSON escapes cJSON mishandles, in place and length
 * preserving: \u0000 (cJSON would cut the string there, hiding what
 * follows from every rule) becomes \u2400 (SYMBOL FOR NULL), and a lone
 * surrogate escape (cJSON would reject the whole event) becomes \ufffd.
 */
void	 json_fix_escapes(char *json, size_t len);

#endif
