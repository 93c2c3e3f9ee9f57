/*
 * The layout constants of the prefilter index, and the clauses of a rule,
 * shared by the code that builds it (prefilter.c, prefilter_bucket.c) and
 * the code that reads it (prefilter_select.c).  Not for other modules.
 */
#ifndef RR_PREFILTER_PRIV_H
#define RR_PREFILTER_PRIV_H

#define PF_MAGIC	0x31584650u	/* "PFX1" */
#define PF_VERSION	4
#define PF_HEADER	32
#define PF_BREF		16
#define PF_KIND		(2 * PF_BREF + 8)
#define PF_SLOT		(8 + PF_BREF)
#define PF_BUCKET	16	/* a bucket's header */
#define PF_SUBJ		24	/* a subject of a bucket */
#define PF_POST		8	/* a posting */
#define PF_MAX_CLAUSES	4	/* of a rule, in the index */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "rule.h"

/*
 * What a rule needs to fire, as literals: every clause must have one of
 * its atoms (a literal in a field) in the event.
 */
struct pf_atom {
	enum rr_field	 field;
	const char	*key;		/* input.<key>, borrowed */
	char		*lit;		/* owned */
	size_t		 len;
	bool		 ci;
};

struct pf_clause {
	struct pf_atom	*a;
	size_t		 n, cap;
};

struct pf_rule {
	struct pf_clause *c;
	size_t		 n, cap;
};

void	 pf_rule_free(struct pf_rule *);
/*
 * Writes the bucket of rules (ascending; pr: every rule's clauses) into
 * bk, 4-byte aligned, and its offset and length into ref.
 */
void	 pf_emit_bucket(struct buf *bk, const size_t *rules, size_t n,
	     const struct pf_rule *pr, uint32_t ref[2]);

#endif
