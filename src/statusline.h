/*
 * The status line (seed 004): one line for Claude Code's statusLine
 * setting, in the seed's format, with this engine's own facts after it:
 *
 *   📊 [08:14·670db96] | claude/opus | work | 📚rag | 🛡 42 rules · 1 denied
 *
 * the local time and the session's first 7 characters; the provider and
 * the model family; the working directory's name; the session's latest
 * route (its icon, then its pipeline, else its exec_type; 💬direct when
 * nothing was routed); the active rules and the calls denied in the
 * session.  Text from the input is shown as data (textesc.h).
 */
#ifndef RR_STATUSLINE_H
#define RR_STATUSLINE_H

struct statusline_facts {
	const char	*time;		/* "08:14" */
	const char	*session;	/* or NULL */
	const char	*model_id;	/* "claude-opus-4-1-20250805", or NULL */
	const char	*model_name;	/* "Opus 4.1", or NULL */
	const char	*dir;		/* the working directory, or NULL */
	const char	*route_icon;	/* the latest route's, or NULL */
	const char	*route_pipeline;
	const char	*route_exec_type;	/* NULL: none recorded */
	long		 rules;		/* -1: not known */
	long		 denied;	/* -1: not known */
};

/* The line, without a newline; owned. */
char	*statusline_format(const struct statusline_facts *);

#endif
