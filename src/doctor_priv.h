/*
 * What the files of the doctor share (doctor.h); no other file includes
 * it.  doctor.c checks the installation, doctor_agents.c the agents:
 * their registrations and their clients' versions; doctor_report.c
 * holds the findings of both (no call goes back from a file of checks
 * to doctor.c).
 */
#ifndef RR_DOCTOR_PRIV_H
#define RR_DOCTOR_PRIV_H

#include "doctor.h"

/* Moves every finding of src to the end of dst. */
void	 doctor_report_take(struct doctor_report *dst,
	     struct doctor_report *src);

/* Adds a finding; fix may be NULL.  Copies every string. */
void	 doctor_add(struct doctor_report *, enum doctor_level,
	     const char *check, const char *fix, const char *fmt, ...)
	     __attribute__((format(printf, 5, 6)));

/*
 * The agents' checks, for the project root (as hookreg_file() takes it).
 * *bare is set when a registration runs `reflexion-rules` by its bare
 * name, which PATH must then find.
 */
void	 doctor_agents(const struct doctor_opts *, const char *root,
	     struct doctor_report *, bool *bare);

/*
 * The version the client program prints for --version (the first
 * N.N[.N] in its output), run with stdin and stderr on /dev/null and
 * killed after timeout_ms.  Returns 0 with *version (owned), or -1 with
 * *err (owned).
 */
int	 doctor_client_version(const char *program, long timeout_ms,
	     char **version, char **err);

/* Compares two dotted versions by number: <0, 0 or >0. */
int	 doctor_version_cmp(const char *a, const char *b);

#endif
