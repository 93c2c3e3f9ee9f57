/*
 * $REFLEXION_HOME/config.yaml: which installed packs to enable, which
 * team rule directories to load while their digest is the one pinned,
 * and which projects are trusted (reflexion-rules(5), LAYERS AND TRUST).
 *
 *     packs: [skill-guard, dangerous-commands]
 *     sources:
 *       - {path: ~/team-rules, sha256: 3f0a...}
 *     trust: [~/work/app]
 *     self_protection: true
 *     lang: ko
 *     summarizer: {command: 'python3 ~/bin/summarize.py', timeout_ms: 8000}
 *     router: {command: [~/bin/route, --fast], timeout_ms: 1500}
 *
 * A pack is the rule file NAME.yaml in the packs directory: the
 * REFLEXION_PACKS_DIR environment variable when set (tests, running from
 * the build tree), else $(pkgdatadir)/rules compiled in.  A missing
 * config file is an empty one.  Problems are diagnostics with the file's
 * line and column, like rule files; a pack that does not exist is one.
 * struct rr_config owns every string in it.
 *
 * Both are inputs of the rule set, so the compiled cache must see them
 * change: config_load() logs the config file (or its absence) in the
 * manifest, and, when the file names packs, the packs directory (a pack
 * added or removed changes its entry names); the pack files themselves
 * are logged when they are read as rules.  The packs directory's path is
 * in the cache key (load.c).
 */
#ifndef RR_USERCONF_H
#define RR_USERCONF_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "extcmd.h"
#include "manifest.h"

struct config_pack {
	char	*name;
	char	*path;		/* the pack's rule file */
};

/*
 * A team rule directory, pinned by the digest of its rule files
 * (pinned.h); where the entry was written, for diagnostics.
 */
struct config_source {
	char		*path;		/* absolute, ~ expanded */
	char		 sha256[65];	/* lower-case hex */
	struct diag_loc	 at_path;	/* its path: value; text: cfg's */
	struct diag_loc	 at_sha256;	/* its sha256: value */
};

struct rr_config {
	char			*file;		/* the config file's path */
	char			*text;		/* its text, for diagnostics */
	size_t			 len;
	struct config_pack	*packs;		/* in the order written */
	size_t			 npacks;
	struct config_source	*sources;	/* in the order written */
	size_t			 nsources;
	char			**trust;	/* absolute, ~ expanded */
	size_t			 ntrust;
	/*
	 * `self_protection: false`: the built-in self-protection pack is
	 * not loaded (selfprot.h).  Only the user can say so: the zero value
	 * of a config never read, or read by no one, keeps it on.
	 */
	bool			 self_protection_off;
	/* `lang: ko`: the language of messages written in several. */
	char			*lang;
	/*
	 * The commands that stand in for a language model (extcmd.h):
	 * unset (no shell, no argv) when not configured.
	 */
	struct rr_command	 summarizer;
	struct rr_command	 router;
};

/* The packs directory; owned. */
char	*packs_dir(void);

/*
 * Reads home/config.yaml into cfg (always initialized; release it), with
 * packs from packs_dir (packs_dir() unless the caller has it already),
 * logging what it looked at in mf (may be NULL).  Returns the number of
 * errors added to diags; packs with an error are left out, the others
 * kept.
 */
size_t	 config_load(struct rr_config *cfg, const char *home,
	     const char *packs_dir, struct manifest *mf, struct diag_list *);
void	 config_release(struct rr_config *);
/*
 * Whether project is one of cfg's trusted directories: the two compared
 * as real paths (symbolic links, ".", ".." and "//" resolved), or, for
 * one that does not exist, normalized as written.
 */
bool	 config_trusts(const struct rr_config *, const char *project);
/*
 * path made absolute (a leading "~/" from $HOME, a relative one from the
 * current directory) and resolved as config_trusts() compares it; owned.
 */
char	*config_real_path(const char *path);

#endif
