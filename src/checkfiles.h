/*
 * reflexion-rules check (reflexion-rules(1)): the document and JSON
 * checks of the rules run on files outside any agent.  Each file is
 * presented as the Write of its text (a PreToolUse event, tool Write,
 * file_path the file), so that the rules written for the hook judge it
 * as they would the agent writing it; the rules `on: Check` run too, and
 * a rule that found blocks gives a result per block (eval.h, check).
 *
 * The results are those of a gate: a deny blocks (BLOCKED), an ask needs
 * a person (NEEDS_CONFIRMATION), anything else passes (PASS), per block
 * and per file.  struct check_report owns its texts.
 */
#ifndef RR_CHECKFILES_H
#define RR_CHECKFILES_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "rule.h"

enum gate {
	GATE_PASS,
	GATE_NEEDS_CONFIRMATION,
	GATE_BLOCKED
};

/* One result: a block of a file, or the file itself (id NULL). */
struct check_result {
	char		*file;		/* as given */
	char		*id;		/* the block's id, or NULL */
	char		*id_name;	/* what ids are called: "tc_id" */
	size_t		 line;		/* 0: none */
	enum gate	 gate;
	char		*rule;		/* the rule that decided, or NULL */
	char		*reason;	/* its message, or NULL */
};

struct check_report {
	struct check_result	*v;
	size_t			 n, cap;
	struct buf		 notes;		/* lines for stderr */
	size_t			 files;
	size_t			 unread;	/* files that could not be read */
	bool			 unreadable;	/* unread > 0 */
};

void	 check_report_init(struct check_report *);
void	 check_report_release(struct check_report *);
/*
 * Checks the file at path (as given; cwd is where it is relative to,
 * project the project directory, NULL: cwd) against rs, adding its
 * results to r.  A file that cannot be read is a note and sets
 * r->unreadable.
 */
void	 check_file(const struct ruleset *, const char *path, const char *cwd,
	     const char *project, struct check_report *);
/* Results that do not pass. */
size_t	 check_failures(const struct check_report *);
/*
 * The report as text, one line per result that does not pass:
 * "file:line: ID: BLOCKED: rule: reason" (":line" and the block's id
 * when there are, the first line of the reason).
 */
void	 check_format_text(const struct check_report *, struct buf *);
/*
 * The report as JSON: {"gate_passed": bool, "results": [{"file", the id
 * under its name, "line", "gate", "rule", "reason"}...], "summary":
 * {"pass", "blocked", "needs_confirmation"}}.
 */
void	 check_format_json(const struct check_report *, struct buf *);

#endif
