/*
 * Whether an environment variable switches something on: set, not empty
 * and not "0" (REFLEXION_NO_JIT=1, REFLEXION_DB_READONLY=yes).  A header
 * only, shared by the modules that read such switches.
 */
#ifndef RR_ENVFLAG_H
#define RR_ENVFLAG_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static inline bool
env_on(const char *name)
{
	const char	*v = getenv(name);

	return v != NULL && *v != '\0' && strcmp(v, "0") != 0;
}

#endif
