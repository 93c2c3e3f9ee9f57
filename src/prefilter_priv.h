/*
 * The layout constants of the prefilter index, shared by the code that
 * builds it (prefilter.c) and the code that reads it (prefilter_select.c).
 * Not for other modules.
 */
#ifndef RR_PREFILTER_PRIV_H
#define RR_PREFILTER_PRIV_H

#define PF_MAGIC	0x31584650u	/* "PFX1" */
#define PF_VERSION	2
#define PF_HEADER	32
#define PF_BREF		16
#define PF_KIND		(2 * PF_BREF + 8)
#define PF_SLOT		(8 + PF_BREF)
#define PF_BUCKET	16	/* a bucket's header */
#define PF_SUBJ		24	/* a subject of a bucket */
#define PF_POST		8	/* a posting */

#endif
