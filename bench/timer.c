/*
 * Runs two commands alternately with stdin from a file and reports wall
 * time percentiles and peak RSS of each, so that noise on a shared
 * machine hits both sides alike.
 *
 *   timer [-r RUNS] [-p PREP] N INPUT -- CMD_A ARGS... -- CMD_B ARGS...
 *
 * INPUT is a file, or @LIST: a file naming one input file per line, used
 * in turn (run i reads input i mod their number).  PREP, a shell command,
 * runs before each run of A, untimed (a cold cache: remove it).  Prints
 * one line per command, "p50_us p95_us mean_us peak_rss_kb"; then the
 * median of the N paired ratios A/B (each run of A against the run of B
 * right after it, which load that comes and goes hits least), the ratio
 * of the means, and the load average (1 minute) when the runs ended.
 *
 * Peak RSS is measured in RUNS more runs of each (default 3) that are not
 * timed: each is stopped as it exits (ptrace) and its VmHWM read.  The
 * rusage of a child would not do: a forked child's peak counts the pages
 * of the parent it was copied from until it calls exec, and this
 * program's own RSS is larger than a small command's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
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

/* In the child: stdin from input, stdout and stderr to /dev/null. */
static void
redirect(const char *input)
{
	int	fd = open(input, O_RDONLY);

	if (fd < 0 || dup2(fd, 0) < 0)
		_exit(126);
	fd = open("/dev/null", O_WRONLY);
	dup2(fd, 1);
	dup2(fd, 2);
}

static void
check_status(char **argv, int status)
{
	if (!WIFEXITED(status) || WEXITSTATUS(status) >= 126) {
		fprintf(stderr, "timer: %s failed (status %d)\n", argv[0],
		    status);
		exit(2);
	}
}

/* Runs argv with stdin from input; returns wall microseconds. */
static double
run(char **argv, const char *input)
{
	double		t0 = now_us(), t1;
	pid_t		pid;
	int		status;

	if ((pid = fork()) == 0) {
		redirect(input);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		perror("timer");
		exit(2);
	}
	t1 = now_us();
	check_status(argv, status);
	return t1 - t0;
}

/* VmHWM of pid, in KB, or 0. */
static long
vm_hwm(pid_t pid)
{
	char	path[64], line[256];
	FILE	*fp;
	long	kb = 0;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	if ((fp = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, "VmHWM:", 6) == 0)
			kb = atol(line + 6);
	fclose(fp);
	return kb;
}

/* Runs argv once, stopped as it exits; returns its peak RSS in KB. */
static long
peak_rss(char **argv, const char *input)
{
	pid_t	pid;
	long	kb = 0;
	int	status, sig;

	if ((pid = fork()) == 0) {
		redirect(input);
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
			_exit(125);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		perror("timer");
		exit(2);
	}
	/* Stopped at its exec: follow it to its exit. */
	if (WIFSTOPPED(status))
		ptrace(PTRACE_SETOPTIONS, pid, NULL,
		    (void *)(long)PTRACE_O_TRACEEXIT);
	while (WIFSTOPPED(status)) {
		sig = WSTOPSIG(status);
		if (sig == SIGTRAP && (status >> 16) == PTRACE_EVENT_EXIT) {
			kb = vm_hwm(pid);
			sig = 0;
		} else if (sig == SIGTRAP)
			sig = 0;
		ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
		if (waitpid(pid, &status, 0) < 0) {
			perror("timer");
			exit(2);
		}
	}
	check_status(argv, status);
	return kb;
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

static void
prep(const char *cmd)
{
	if (cmd != NULL && system(cmd) != 0) {
		fprintf(stderr, "timer: %s failed\n", cmd);
		exit(2);
	}
}

int
main(int argc, char **argv)
{
	char	**cmd[2], **in, *pre = NULL;
	double	*t[2], *pair, sum[2] = { 0, 0 }, load = 0;
	long	 rss[2] = { 0, 0 }, kb;
	int	 n, i, k, split = 0, nin, opt, rruns = 3;
	FILE	*fp;

	while ((opt = getopt(argc, argv, "+r:p:")) != -1)
		switch (opt) {
		case 'r':
			rruns = atoi(optarg);
			break;
		case 'p':
			pre = optarg;
			break;
		default:
			return 2;
		}
	argc -= optind - 1;
	argv += optind - 1;
	if (argc < 6 || strcmp(argv[3], "--") != 0) {
		fprintf(stderr, "usage: timer [-r RUNS] [-p PREP] N INPUT -- "
		    "A... -- B...\n");
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
		for (k = 0; k < 2; k++) {
			if (k == 0)
				prep(pre);
			run(cmd[k], in[i]);
		}
	for (i = 0; i < n; i++) {
		for (k = 0; k < 2; k++) {
			if (k == 0)
				prep(pre);
			t[k][i] = run(cmd[k], in[i % nin]);
			sum[k] += t[k][i];
		}
		pair[i] = t[0][i] / t[1][i];
	}
	if ((fp = fopen("/proc/loadavg", "r")) != NULL) {
		if (fscanf(fp, "%lf", &load) != 1)
			load = 0;
		fclose(fp);
	}
	for (i = 0; i < rruns * nin; i++)
		for (k = 0; k < 2; k++) {
			if (k == 0)
				prep(pre);
			kb = peak_rss(cmd[k], in[i % nin]);
			if (kb > rss[k])
				rss[k] = kb;
		}
	for (k = 0; k < 2; k++) {
		qsort(t[k], (size_t)n, sizeof(double), cmp);
		printf("%.0f %.0f %.0f %ld\n", t[k][n / 2],
		    t[k][(n * 95) / 100 < n ? (n * 95) / 100 : n - 1],
		    sum[k] / n, rss[k]);
	}
	qsort(pair, (size_t)n, sizeof(double), cmp);
	printf("%.3f\n%.3f\n%.2f\n", pair[n / 2], sum[1] > 0 ? sum[0] / sum[1] :
	    0, load);
	return 0;
}
