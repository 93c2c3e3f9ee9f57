/*
 * Team rule sources pinned by digest (reflexion-rules(5), LAYERS AND
 * TRUST): a directory named in config.yaml's sources: whose rule files
 * are loaded, in the user's layer, only while the SHA-256 of their
 * canonical listing is the digest config.yaml pins.  A changed file, one
 * added or removed, disables the whole source with an error.
 *
 * The listing: every *.yaml and *.yml file under the directory (names
 * that start with '.' skipped and symbolic links followed, as rule
 * directories are read), sorted by their paths relative to it as byte
 * strings, each as that path, a NUL byte, its size in decimal, a NUL
 * byte and its contents.  The rules are compiled from the very bytes
 * that were hashed, so a file changed in between is not loaded unseen.
 *
 * struct pinned_dir owns its files and their texts.
 */
#ifndef RR_PINNED_H
#define RR_PINNED_H

#include <stddef.h>

#include "diag.h"
#include "manifest.h"
#include "rule.h"

struct config_source;

struct pinned_file {
	char	*path;		/* as read: the directory, '/', rel */
	char	*rel;		/* points into path */
	char	*text;
	size_t	 len;
};

struct pinned_dir {
	struct pinned_file	*files;		/* sorted by rel */
	size_t			 n;
	char			 sha256[65];	/* of the listing, hex */
};

/*
 * Reads every rule file under dir into pd (always initialized; release
 * it) and computes the digest, logging what it looked at in mf (may be
 * NULL).  Returns 0, or -1 with *err (owned) when dir or a file in it
 * cannot be read: then there is no digest to compare.
 */
int	 pinned_read(const char *dir, struct pinned_dir *pd,
	     struct manifest *mf, char **err);
void	 pinned_release(struct pinned_dir *);

/*
 * Loads the pinned source src into rs (layer LAYER_PINNED) when its
 * digest is src's; otherwise an error at src's entry in config.yaml
 * names the expected and actual digest.  Returns the number of errors.
 */
size_t	 pinned_load(struct ruleset *, const struct config_source *src,
	     struct diag_list *);

#endif
