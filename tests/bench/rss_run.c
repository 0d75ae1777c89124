/* rss_run.c - runs one command and prints its peak resident set, CPU time
 * and wall time, for tests/bench/bench.py.
 *
 * usage: rss_run [-i STDIN] [-o STDOUT] [-t SECONDS] [-m AS_BYTES] -- CMD [ARG...]
 * prints: wall=S user=S sys=S maxrss_kb=N status=exit:N|signal:N|timeout
 *
 * Why not os.wait4 from Python: Linux starts the peak RSS of an exec'd
 * process at the RSS of the image that forked it (exec keeps the higher
 * of the two), so every command forked from a 16 MB Python reads at least
 * 16 MB. Forked from this small program, the floor is its own ~1 MB (see
 * `rss_run -- /bin/true`). The child's stderr is this program's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: rss_run [-i STDIN] [-o STDOUT] [-t SECONDS] [-m AS_BYTES] -- CMD [ARG...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *in = "/dev/null", *out = "/dev/null";
	unsigned timeout = 0;
	unsigned long long as = 0;
	int opt;
	while ((opt = getopt(argc, argv, "+i:o:t:m:")) != -1) {
		char *end;
		switch (opt) {
		case 'i': in = optarg; break;
		case 'o': out = optarg; break;
		case 't':
			timeout = (unsigned)strtoul(optarg, &end, 10);
			if (*end)
				return usage();
			break;
		case 'm':
			as = strtoull(optarg, &end, 10);
			if (*end)
				return usage();
			break;
		default: return usage();
		}
	}
	if (optind >= argc)
		return usage();
	int fin = open(in, O_RDONLY | O_CLOEXEC);
	int fout = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fin < 0 || fout < 0) {
		fprintf(stderr, "rss_run: %s: %s\n", fin < 0 ? in : out, strerror(errno));
		return 2;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid < 0) {
		perror("rss_run: fork");
		return 2;
	}
	if (pid == 0) {
		if (as) {
			struct rlimit rl = {as, as};
			setrlimit(RLIMIT_AS, &rl);
		}
		if (dup2(fin, 0) < 0 || dup2(fout, 1) < 0)
			_exit(127);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "rss_run: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	close(fin);
	close(fout);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm; /* no SA_RESTART: wait4 returns EINTR */
	sigaction(SIGALRM, &sa, NULL);
	if (timeout)
		alarm(timeout);
	int status = 0;
	struct rusage ru;
	pid_t r;
	while ((r = wait4(pid, &status, 0, &ru)) < 0 && errno == EINTR) {
		if (timed_out)
			kill(pid, SIGKILL);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (r < 0) {
		perror("rss_run: wait4");
		return 2;
	}
	double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	char st[32];
	if (timed_out)
		snprintf(st, sizeof st, "timeout");
	else if (WIFEXITED(status))
		snprintf(st, sizeof st, "exit:%d", WEXITSTATUS(status));
	else
		snprintf(st, sizeof st, "signal:%d", WTERMSIG(status));
	printf("wall=%.6f user=%.6f sys=%.6f maxrss_kb=%ld status=%s\n", wall, tv(ru.ru_utime),
	       tv(ru.ru_stime), ru.ru_maxrss, st);
	return 0;
}
