/*
 * Runs commands alternately with stdin from a file and reports wall time
 * percentiles and peak RSS of each, so that noise on a shared machine hits
 * both sides alike.
 *
 *   timer N INPUT -- CMD_A ARGS... -- CMD_B ARGS...
 *
 * INPUT is a file, or @LIST: a file naming one input file per line, used
 * in turn (run i reads input i mod their number).  Prints one line per
 * command: "p50_us p95_us maxrss_kb" over the N runs; then a third line,
 * the median of the N paired ratios A/B (each run of A against the run
 * of B right after it), which load that comes and goes hits least.
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

/* The input files: argv's INPUT, or the lines of @LIST. */
static char **
inputs(const char *arg, int *n)
{
	static char	*one[1];
	char		**v = NULL, line[4096];
	FILE		*fp;
	size_t		 len;
	int		 cap = 0;

	*n = 0;
	if (arg[0] != '@') {
		one[0] = (char *)arg;
		*n = 1;
		return one;
	}
	if ((fp = fopen(arg + 1, "r")) == NULL) {
		perror(arg + 1);
		exit(2);
	}
	while (fgets(line, sizeof(line), fp) != NULL) {
		len = strlen(line);
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == ' '))
			line[--len] = '\0';
		if (len == 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			v = realloc(v, (size_t)cap * sizeof(*v));
		}
		v[(*n)++] = strdup(line);
	}
	fclose(fp);
	if (*n == 0) {
		fprintf(stderr, "timer: %s lists no input\n", arg + 1);
		exit(2);
	}
	return v;
}

int
main(int argc, char **argv)
{
	char	**cmd[2], **in;
	double	*t[2], *pair;
	long	 rss[2] = { 0, 0 }, warm = 0;
	int	 n, i, k, split = 0, nin;

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
	in = inputs(argv[2], &nin);
	t[0] = calloc((size_t)n, sizeof(double));
	t[1] = calloc((size_t)n, sizeof(double));
	pair = calloc((size_t)n, sizeof(double));
	if (t[0] == NULL || t[1] == NULL || pair == NULL)
		return 2;
	/* A warm-up of each input (not counted), then alternate. */
	for (i = 0; i < nin; i++)
		for (k = 0; k < 2; k++)
			run(cmd[k], in[i], &warm);
	for (i = 0; i < n; i++) {
		for (k = 0; k < 2; k++)
			t[k][i] = run(cmd[k], in[i % nin], &rss[k]);
		pair[i] = t[0][i] / t[1][i];
	}
	for (k = 0; k < 2; k++) {
		qsort(t[k], (size_t)n, sizeof(double), cmp);
		printf("%.0f %.0f %ld\n", t[k][n / 2],
		    t[k][(n * 95) / 100 < n ? (n * 95) / 100 : n - 1], rss[k]);
	}
	qsort(pair, (size_t)n, sizeof(double), cmp);
	printf("%.3f\n", pair[n / 2]);
	return 0;
}
