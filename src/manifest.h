/*
 * The sources a compiled rule set was built from, and whether they are
 * still what they were: the freshness half of the compiled cache.
 *
 * While rules are compiled for the cache, the loader logs every path it
 * looks at (compile_path.c, sources.c): rule files with their stat data
 * and a hash of the text it read, directories with their stat data and a
 * hash of their sorted entry names, and paths that were absent (so
 * creating them invalidates); and config.yaml and the packs directory
 * (userconf.c), which say which packs are rules.  (The engine binary is
 * part of the cache key.)  A source is one (path, kind) pair, so a new
 * kind of source is one more call to manifest_file(), manifest_dir() or
 * manifest_absent().
 *
 * Checking costs one stat() per entry.  An entry whose mtime or ctime is
 * not safely older than the start of the compile (MANIFEST_RACY_NS) could
 * have changed again within the same timestamp: such "racily clean"
 * entries are also compared by content, and once they are old enough the
 * cache is rebuilt so that later calls need only stat().
 *
 * A struct manifest owns its entries.
 */
#ifndef RR_MANIFEST_H
#define RR_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "buf.h"

#define MANIFEST_RACY_NS	(2LL * 1000 * 1000 * 1000)

enum manifest_kind {
	MF_FILE,		/* a file read (or tried) as rules */
	MF_DIR,			/* a directory listed */
	MF_ABSENT		/* stat() failed; err says how */
};

struct manifest_entry {
	enum manifest_kind kind;
	char		*path;
	uint64_t	 dev, ino, size;
	int64_t		 mtime_ns, ctime_ns;
	uint32_t	 mode;
	int		 err;		/* MF_ABSENT */
	bool		 has_hash;	/* contents (file) or names (dir) */
	uint64_t	 hash;
};

struct manifest {
	struct manifest_entry *v;
	size_t		 n, cap;
	int64_t		 start_ns;	/* wall clock before reading sources */
};

void	 manifest_init(struct manifest *);
void	 manifest_release(struct manifest *);

/* Logging; every function accepts a NULL manifest and does nothing. */
void	 manifest_file(struct manifest *, const char *path,
	     const struct stat *, const char *text, size_t len);
void	 manifest_dir(struct manifest *, const char *path,
	     const struct stat *, char *const *names, size_t n);
void	 manifest_absent(struct manifest *, const char *path, int err);

void	 manifest_encode(const struct manifest *, struct buf *);

enum manifest_state {
	MANIFEST_FRESH,
	MANIFEST_STALE,
	MANIFEST_CORRUPT
};

/*
 * Checks encoded entries against the file system at time now_ns.  On
 * STALE, *why (owned) names the path that changed.
 */
enum manifest_state manifest_check(const unsigned char *, size_t,
	     int64_t now_ns, char **why);

/* Hash of directory entry names as manifest_dir() computes it. */
uint64_t manifest_names_hash(char *const *names, size_t n);

int64_t	 manifest_now_ns(void);

#endif
