/*
 * The front door for rules (see load.h): a request becomes the key of
 * its sources; the cache (cache.h) answers when it holds a valid rule
 * set for that key, else the sources are compiled (sources.h) and saved
 * as the new cache (by a child process for the hook, which must not lose
 * the compile to its deadline); and the notes say which.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "cache.h"
#include "envflag.h"
#include "fileio.h"
#include "load.h"
#include "manifest.h"
#include "prefilter.h"
#include "userconf.h"
#include "xmalloc.h"

/* How long a compile in a child may take before the child is killed. */
#define APART_LIMIT_S	300
/* The most of the child's error message the parent reads. */
#define APART_ERR_MAX	4096

bool
rules_cache_off(void)
{
	return env_on("REFLEXION_NO_CACHE");
}

static bool
trace_on(void)
{
	return env_on("REFLEXION_CACHE_TRACE");
}

/*
 * What the cache of a request is keyed by, besides the engine (its
 * version and binary) that cache_key() adds: every input of the key that
 * comes from the request is computed here, and only here: the --rules
 * paths, else the home and project directories the default sources are
 * found in, the packs directory config.yaml's names are looked up in and
 * the system layer's directory.
 * What is in those places (config.yaml, the packs, the rule files) is the
 * manifest's to check, on every call, by stat().
 */
static char *
request_key(const struct rules_request *rq, const char *packs)
{
	struct buf	 b;
	char		 cwd[4096], *sys;
	const char	*p;
	size_t		 i;

	buf_init(&b);
	if (rq->sources != NULL && rq->sources->npaths > 0) {
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			cwd[0] = '\0';
		for (i = 0; i < rq->sources->npaths; i++) {
			p = rq->sources->paths[i];
			/* As given (messages name it) and absolute. */
			buf_adds(&b, "rules ");
			buf_adds(&b, p);
			buf_adds(&b, "\nat ");
			if (p[0] != '/') {
				buf_adds(&b, cwd);
				buf_addc(&b, '/');
			}
			buf_adds(&b, p);
			buf_addc(&b, '\n');
		}
	} else {
		sys = system_dir();
		buf_adds(&b, "home ");
		buf_adds(&b, rq->home);
		buf_adds(&b, "\nproject ");
		buf_adds(&b, rq->project ? rq->project : "");
		buf_adds(&b, "\npacks ");
		buf_adds(&b, packs);
		buf_adds(&b, "\nsystem ");
		buf_adds(&b, sys);
		buf_addc(&b, '\n');
		free(sys);
	}
	return buf_detach(&b, NULL);
}

/* Every rule now: explain and test look at all of them. */
static bool
decode_all(struct ruleset *rs)
{
	size_t	i;

	for (i = 0; i < rs->n; i++)
		if (ruleset_rule(rs, i) == NULL)
			return false;
	return true;
}

/* A home was named but refused: the user's rules are missing. */
static bool
home_was_refused(const struct rules_request *rq)
{
	return rq->home == NULL && rq->home_info != NULL &&
	    rq->home_info->refused != NULL;
}

/*
 * As an error of the refused path: lint fails on it, and the hook shows
 * it to the user, who believes those rules are on.
 */
static void
refused_home_error(const struct rr_home *h, struct diag_list *diags)
{
	struct diag_loc	loc;

	memset(&loc, 0, sizeof(loc));
	loc.file = h->refused;
	diag_add(diags, DIAG_ERROR, DIAG_io, &loc, "%s", h->why);
}

/*
 * The engine's directories for $REFLEXION_DIRS (compile_places.c): they
 * borrow from rq and cfg; *sys and *pinned are the caller's to free.
 */
static void
places_of(struct rule_places *pl, const struct rules_request *rq,
    const char *packs, const struct rr_config *cfg, char **sys,
    const char ***pinned)
{
	size_t	i;

	memset(pl, 0, sizeof(*pl));
	pl->home = rq->home;
	pl->packs = packs;
	pl->system = *sys = system_dir();
	*pinned = xreallocarray(NULL, cfg->nsources + 1, sizeof(**pinned));
	for (i = 0; i < cfg->nsources; i++)
		(*pinned)[i] = cfg->sources[i].path;
	pl->sources = *pinned;
	pl->nsources = cfg->nsources;
}

/*
 * Compiles the request's sources, logging in mf everything read: for the
 * default sources config.yaml first (read once per load, here), then
 * the packs it names and the rest.
 */
static void
compile_fresh(struct ruleset *rs, struct diag_list *diags,
    const struct rules_request *rq, const char *packs, struct manifest *mf)
{
	struct rr_config	cfg;
	struct rule_places	places;
	const char		**pinned;
	char			*sys;
	bool			defaults;

	ruleset_init(rs);
	diag_list_init(diags);
	manifest_init(mf);
	rs->manifest = mf;
	defaults = rq->sources == NULL || rq->sources->npaths == 0;
	memset(&cfg, 0, sizeof(cfg));
	if (defaults && rq->home != NULL)
		config_load(&cfg, rq->home, packs, mf, diags);
	if (defaults && home_was_refused(rq))
		refused_home_error(rq->home_info, diags);
	places_of(&places, rq, packs, &cfg, &sys, &pinned);
	rs->places = &places;
	sources_load(rs, rq->sources, rq->home, rq->project, &cfg, diags);
	rs->places = NULL;
	free(sys);
	free(pinned);
	config_release(&cfg);
	rs->manifest = NULL;
	diag_sort(diags);
	ruleset_index(rs);
}

/*
 * The child of compile_apart(): compiles the sources and saves the cache,
 * then ends with _exit() (it is another process, and must never return
 * into its parent's stack); the status is 0 when the cache was written.
 * Why it could not be is written to wfd.  It keeps nothing of the hook's
 * standard streams, so that the agent, which reads the hook's stdout to
 * its end, is not kept waiting, leaves the hook's process group, and has
 * an alarm of its own instead of the hook's deadline (a fork() does not
 * inherit timers).
 */
static void __attribute__((noreturn))
apart_child(int wfd, const struct rules_request *rq, const char *packs,
    const char *path, const char *key, const struct cache_identity *id)
{
	struct ruleset		 rs;
	struct diag_list	 diags;
	struct manifest		 mf;
	sigset_t		 alrm;
	char			*err = NULL;
	int			 fd;

	if ((fd = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0 ||
	    dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		_exit(2);
	/* Out of the hook's process group: an agent may kill that one. */
	(void)setsid();
	signal(SIGALRM, SIG_DFL);
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_UNBLOCK, &alrm, NULL);
	alarm(APART_LIMIT_S);
	compile_fresh(&rs, &diags, rq, packs, &mf);
	if (cache_write(path, key, id, &rs, &diags, &mf, &err) == 0)
		_exit(0);
	if (err != NULL)
		fd_write_all(wfd, err, strlen(err));
	_exit(1);
}

/*
 * A miss of the hook's request, compiled and saved by a child process:
 * the parent waits for it and then reads the cache it wrote.  If the
 * hook's deadline ends the parent first, the child still saves the cache
 * and the next call hits it; compiled in the hook's own process, a first
 * compile slower than the deadline was never saved, and every call failed
 * open.  Returns 0 with rs and diags loaded from that cache; 1 when the
 * child could not save it (how->why says why: the caller compiles without
 * trying again); -1 when no child could do the work (the caller compiles
 * and saves as usual).  Not used when the cache directory cannot be
 * written at all: the compile would only be done twice.
 */
static int
compile_apart(struct ruleset *rs, struct diag_list *diags,
    const struct rules_request *rq, const char *packs, const char *key,
    const struct cache_identity *id, struct rules_loaded *how)
{
	struct buf	 msg;
	char		*dir, *slash, *err = NULL, *why = NULL;
	pid_t		 pid;
	int		 p[2], st, rc;

	dir = xstrdup(how->path);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	rc = mkdir_p(dir, &err) == 0 && access(dir, W_OK) == 0 ? 0 : -1;
	free(dir);
	free(err);
	if (rc < 0 || pipe2(p, O_CLOEXEC) < 0)
		return -1;
	if ((pid = fork()) < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		close(p[0]);
		apart_child(p[1], rq, packs, how->path, key, id);
	}
	close(p[1]);
	buf_init(&msg);
	/* EOF when the child ends; its message is a courtesy. */
	(void)fd_read_all(p[0], APART_ERR_MAX, true, &msg);
	close(p[0]);
	while ((rc = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	if (rc < 0 || !WIFEXITED(st) || WEXITSTATUS(st) > 1) {
		buf_release(&msg);
		return -1;
	}
	if (WEXITSTATUS(st) == 1) {
		free(how->why);
		how->why = msg.len ? buf_detach(&msg, NULL) :
		    xstrdup("the cache could not be written");
		buf_release(&msg);
		return 1;
	}
	buf_release(&msg);
	if (cache_open(rs, diags, how->path, key, id, &why) < 0) {
		/* Changed since, or replaced: compile here after all. */
		free(why);
		return -1;
	}
	free(why);
	if (rq->skip_tests)
		cache_skip_tests(rs);
	if (rq->all && !decode_all(rs)) {
		ruleset_release(rs);
		diag_list_release(diags);
		return -1;
	}
	how->status = LOADED_BUILT;
	return 0;
}

/* The request's cache when it is valid, else a compile saved as it. */
static void
load_cached(struct ruleset *rs, struct diag_list *diags,
    const struct rules_request *rq, const char *packs,
    struct rules_loaded *how)
{
	const struct cache_identity *id = cache_identity_current();
	struct manifest	 mf;
	char		*request, *key, *err = NULL;

	request = request_key(rq, packs);
	key = cache_key(request, id);
	free(request);
	how->path = cache_file(rq->home, key);
	if (rq->mode != LOAD_REBUILD) {
		if (cache_open(rs, diags, how->path, key, id, &how->why) == 0) {
			if (rq->skip_tests)
				cache_skip_tests(rs);
			if (!rq->all || decode_all(rs)) {
				how->status = LOADED_HIT;
				free(key);
				return;
			}
			ruleset_release(rs);
			diag_list_release(diags);
			how->why = xstrdup("a rule in it is corrupt");
		}
	} else
		how->why = xstrdup("rebuild requested");
	switch (rq->apart ? compile_apart(rs, diags, rq, packs, key, id, how) : -1) {
	case 0:
		free(key);
		return;
	case 1:
		compile_fresh(rs, diags, rq, packs, &mf);
		manifest_release(&mf);
		how->status = LOADED_UNSAVED;
		free(key);
		return;
	}
	compile_fresh(rs, diags, rq, packs, &mf);
	if (cache_write(how->path, key, id, rs, diags, &mf, &err) == 0)
		how->status = LOADED_BUILT;
	else {
		how->status = LOADED_UNSAVED;
		free(how->why);
		how->why = err;
	}
	manifest_release(&mf);
	free(key);
}

/*
 * "reflexion-rules: cache: hit PATH (N rules)" and the like, with its
 * newline; NULL for a fresh load, which involves no cache.
 */
static char *
trace_line(const struct rules_loaded *how, const struct ruleset *rs)
{
	switch (how->status) {
	case LOADED_HIT:
		return xasprintf("reflexion-rules: cache: hit %s (%zu "
		    "rule%s)\n", how->path, rs->n, rs->n == 1 ? "" : "s");
	case LOADED_BUILT:
		return xasprintf("reflexion-rules: cache: built %s (%zu "
		    "rule%s; %s)\n", how->path, rs->n, rs->n == 1 ? "" : "s",
		    how->why ? how->why : "");
	case LOADED_UNSAVED:
		return xasprintf("reflexion-rules: cache: not saved (%s)\n",
		    how->why ? how->why : "");
	case LOADED_OFF:
		return xstrdup("reflexion-rules: cache: off "
		    "(REFLEXION_NO_CACHE)\n");
	case LOADED_NO_HOME:
		return xstrdup("reflexion-rules: cache: none (no data "
		    "directory)\n");
	case LOADED_FRESH:
		return NULL;
	}
	return xstrdup("reflexion-rules: cache: ?\n");
}

/*
 * What the caller is to say on stderr.  The hook also says when the
 * cache cannot be saved, trace or not: it pays for that on every call.
 */
static char *
cache_note(const struct rules_loaded *how, const struct ruleset *rs,
    enum load_say say)
{
	if (trace_on())
		return trace_line(how, rs);
	if (say == SAY_TRACE_OR_UNSAVED && how->status == LOADED_UNSAVED)
		return xasprintf("reflexion-rules: the rule cache cannot be "
		    "saved (%s); rules are compiled on every call\n",
		    how->why);
	return NULL;
}

/*
 * That, after the line that says there is no home, unless a refused
 * home is an error in the diagnostics already.
 */
static char *
load_notes(const struct rules_request *rq, const struct rules_loaded *how,
    const struct ruleset *rs)
{
	struct buf	 b;
	char		*s;
	bool		 defaults;

	if (rq->say == SAY_NOTHING)
		return NULL;
	buf_init(&b);
	defaults = rq->sources == NULL || rq->sources->npaths == 0;
	if (rq->home == NULL && rq->home_info != NULL &&
	    !(defaults && home_was_refused(rq)) &&
	    (s = home_note(rq->home_info)) != NULL) {
		buf_adds(&b, s);
		free(s);
	}
	if ((s = cache_note(how, rs, rq->say)) != NULL) {
		buf_adds(&b, s);
		free(s);
	}
	if (b.len == 0) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

void
rules_load(struct ruleset *rs, struct diag_list *diags,
    const struct rules_request *rq, struct rules_loaded *how)
{
	struct manifest	 mf;
	char		*packs = packs_dir();

	memset(how, 0, sizeof(*how));
	if (rq->mode == LOAD_FRESH || rq->home == NULL || rules_cache_off()) {
		compile_fresh(rs, diags, rq, packs, &mf);
		manifest_release(&mf);
		how->status = rq->mode == LOAD_FRESH ? LOADED_FRESH :
		    rq->home == NULL ? LOADED_NO_HOME : LOADED_OFF;
	} else
		load_cached(rs, diags, rq, packs, how);
	free(packs);
	how->notes = load_notes(rq, how, rs);
}

void
rules_loaded_release(struct rules_loaded *how)
{
	free(how->path);
	free(how->why);
	free(how->notes);
	memset(how, 0, sizeof(*how));
}
