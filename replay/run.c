/* run.c - one tool started with posix_spawn (never a shell), its output
 * captured, its time measured, stopped on timeout or Ctrl-C.
 *
 * The child gets a clean environment (C locale, so that dd prints the
 * English summary the parser reads), /dev/null as stdin, one pipe for
 * stdout and stderr, and its own process group, so that stopping it stops
 * whatever it started. Stopping is SIGINT first (GNU dd then still prints
 * how far it got), SIGKILL two seconds later. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define OUTPUT_CAP (4u << 20)

double bl_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void bl_spawn_result_free(struct bl_spawn_result *r)
{
	free(r->output);
	r->output = NULL;
	r->len = 0;
}

static void append(struct bl_spawn_result *r, size_t *cap, const char *buf, size_t n)
{
	if (r->len + n > OUTPUT_CAP) {
		r->truncated = true;
		n = OUTPUT_CAP - r->len;
	}
	if (!n)
		return;
	if (r->len + n + 1 > *cap) {
		size_t nc = *cap ? *cap : 4096;
		while (nc < r->len + n + 1)
			nc *= 2;
		char *o = realloc(r->output, nc);
		if (!o) {
			r->truncated = true;
			return;
		}
		r->output = o;
		*cap = nc;
	}
	memcpy(r->output + r->len, buf, n);
	r->len += n;
	r->output[r->len] = '\0';
}

extern char **environ;

/* Starts argv in cwd (NULL: here) in a process group of its own, with
 * default signal handling and a plain environment: stdin from /dev/null,
 * stdout and stderr to out_fd, no other descriptor of benchlog's. 0, or
 * posix_spawn's error. */
static int spawn_child(char *const argv[], const char *cwd, int out_fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 2);
	if (cwd)
		posix_spawn_file_actions_addchdir_np(&fa, cwd);
	/* nothing else of benchlog's: not its output files, not other pipes */
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	/* the caller may ignore or catch SIGINT */
	sigset_t def, none;
	sigemptyset(&none);
	sigemptyset(&def);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGPIPE);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
					      POSIX_SPAWN_SETSIGMASK);
	char *env[] = {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		       "LC_ALL=C", "LANG=C", NULL};
	int e = posix_spawn(pid, argv[0], &fa, &at, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return e;
}

/* Reads what the child wrote into r; false once the pipe has ended. */
static bool read_some(int fd, struct bl_spawn_result *r, size_t *cap)
{
	char buf[8192];
	ssize_t n = read(fd, buf, sizeof buf);
	if (n > 0) {
		append(r, cap, buf, (size_t)n);
		return true;
	}
	return n < 0 && (errno == EINTR || errno == EAGAIN);
}

/* What stops a child: an interrupt or the timeout sends its group SIGINT,
 * and SIGKILL two seconds later. */
struct stopping {
	double timeout;
	volatile sig_atomic_t *interrupted;
	double kill_at; /* < 0: not asked to stop yet */
};

static void stop_when_due(struct stopping *st, pid_t pid, double now, double elapsed,
			  struct bl_spawn_result *r)
{
	bool interrupted = st->interrupted && *st->interrupted;
	if (st->kill_at < 0 && (interrupted || elapsed > st->timeout)) {
		if (interrupted)
			r->interrupted = true;
		else
			r->timed_out = true;
		kill(-pid, SIGINT);
		st->kill_at = now + 2.0;
	} else if (st->kill_at >= 0 && now > st->kill_at) {
		kill(-pid, SIGKILL);
		st->kill_at = now + 3600;
	}
}

/* The times, exit status or signal of the child that ended. */
static void ended(struct bl_spawn_result *r, double real, const struct rusage *ru, int status)
{
	r->real = real;
	r->user = (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6;
	r->system = (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
	if (WIFEXITED(status))
		r->exit_status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		r->signal = WTERMSIG(status);
	if (!r->output) {
		r->output = strdup("");
		r->len = 0;
	}
}

int bl_spawn(char *const argv[], const char *cwd, double timeout,
	     volatile sig_atomic_t *interrupted, void (*tick)(void *ctx, double elapsed),
	     void *tick_ctx, struct bl_spawn_result *r)
{
	memset(r, 0, sizeof *r);
	r->exit_status = -1;
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(r->error, sizeof r->error, "pipe: %s", strerror(errno));
		r->spawn_failed = true;
		return -1;
	}
	pid_t pid;
	double t0 = bl_now();
	int e = spawn_child(argv, cwd, pfd[1], &pid);
	close(pfd[1]);
	if (e != 0) {
		close(pfd[0]);
		snprintf(r->error, sizeof r->error, "cannot start %s: %s", argv[0], strerror(e));
		r->spawn_failed = true;
		return -1;
	}
	size_t cap = 0;
	bool open_pipe = true;
	struct stopping st = {timeout, interrupted, -1};
	double last_tick = 0;
	int status = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof ru);
	for (;;) {
		if (open_pipe) {
			struct pollfd pf = {.fd = pfd[0], .events = POLLIN};
			if (poll(&pf, 1, 100) > 0)
				open_pipe = read_some(pfd[0], r, &cap);
		} else {
			struct timespec ts = {0, 50 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
		if (wait4(pid, &status, WNOHANG, &ru) == pid) {
			while (open_pipe && read_some(pfd[0], r, &cap)) /* what is left */
				;
			break;
		}
		double now = bl_now(), el = now - t0;
		stop_when_due(&st, pid, now, el, r);
		if (tick && now - last_tick >= 0.5) {
			tick(tick_ctx, el);
			last_tick = now;
		}
	}
	close(pfd[0]);
	/* whatever the tool left running in its group */
	kill(-pid, SIGKILL);
	ended(r, bl_now() - t0, &ru, status);
	return 0;
}
