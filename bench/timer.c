/*
 * Runs commands alternately with stdin from a file and reports wall time
 * percentiles and peak RSS of each, so that noise on a shared machine hits
 * both sides alike.
 *
 *   timer N INPUT -- CMD_A ARGS... -- CMD_B ARGS...
 *
 * prints one line per command: "p50_us p95_us maxrss_kb".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
now_us(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int
cmp(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Runs argv with stdin from input; returns wall microseconds. */
static double
run(char **argv, const char *input, long *maxrss)
{
	struct rusage	ru;
	double		t0 = now_us(), t1;
	pid_t		pid;
	int		status, fd;

	if ((pid = fork()) == 0) {
		fd = open(input, O_RDONLY);
		if (fd < 0 || dup2(fd, 0) < 0)
			_exit(126);
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
		perror("timer");
		exit(2);
	}
	t1 = now_us();
	if (!WIFEXITED(status) || WEXITSTATUS(status) >= 126) {
		fprintf(stderr, "timer: %s failed (status %d)\n", argv[0],
		    status);
		exit(2);
	}
	if (ru.ru_maxrss > *maxrss)
		*maxrss = ru.ru_maxrss;
	return t1 - t0;
}

int
main(int argc, char **argv)
{
	char	**cmd[2];
	double	*t[2];
	long	 rss[2] = { 0, 0 }, warm = 0;
	int	 n, i, k, split = 0;

	if (argc < 6 || strcmp(argv[3], "--") != 0) {
		fprintf(stderr, "usage: timer N INPUT -- A... -- B...\n");
		return 2;
	}
	n = atoi(argv[1]);
	for (i = 4; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			split = i;
			argv[i] = NULL;
		}
	if (n < 1 || split == 0) {
		fprintf(stderr, "timer: need N >= 1 and two commands\n");
		return 2;
	}
	cmd[0] = argv + 4;
	cmd[1] = argv + split + 1;
	t[0] = calloc((size_t)n, sizeof(double));
	t[1] = calloc((size_t)n, sizeof(double));
	if (t[0] == NULL || t[1] == NULL)
		return 2;
	/* One warm-up each (not counted), then alternate. */
	run(cmd[0], argv[2], &warm);
	run(cmd[1], argv[2], &warm);
	for (i = 0; i < n; i++)
		for (k = 0; k < 2; k++)
			t[k][i] = run(cmd[k], argv[2], &rss[k]);
	for (k = 0; k < 2; k++) {
		qsort(t[k], (size_t)n, sizeof(double), cmp);
		printf("%.0f %.0f %ld\n", t[k][n / 2],
		    t[k][(n * 95) / 100 < n ? (n * 95) / 100 : n - 1], rss[k]);
	}
	return 0;
}
