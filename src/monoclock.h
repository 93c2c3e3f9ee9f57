/*
 * Milliseconds of the monotonic clock, for deadlines and time limits: a
 * wall clock may jump.  A header only, shared by the modules that wait
 * (db.c's busy budget, extcmd.c's command time limit, doctor_agents.c).
 */
#ifndef RR_MONOCLOCK_H
#define RR_MONOCLOCK_H

#include <time.h>

static inline long long
monoclock_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif
