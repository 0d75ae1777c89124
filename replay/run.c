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
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 2);
	if (cwd)
		posix_spawn_file_actions_addchdir_np(&fa, cwd);
	/* nothing else of benchlog's: not its output files, not other pipes */
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	/* own process group; default signal handling (the caller may ignore
	 * or catch SIGINT) */
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
	pid_t pid;
	double t0 = bl_now();
	int e = posix_spawn(&pid, argv[0], &fa, &at, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(pfd[1]);
	if (e != 0) {
		close(pfd[0]);
		snprintf(r->error, sizeof r->error, "cannot start %s: %s", argv[0], strerror(e));
		r->spawn_failed = true;
		return -1;
	}
	size_t cap = 0;
	char buf[8192];
	bool open_pipe = true;
	double kill_at = -1, last_tick = 0;
	int status = 0;
	struct rusage ru;
	memset(&ru, 0, sizeof ru);
	for (;;) {
		if (open_pipe) {
			struct pollfd pf = {.fd = pfd[0], .events = POLLIN};
			int pr = poll(&pf, 1, 100);
			if (pr > 0) {
				ssize_t n = read(pfd[0], buf, sizeof buf);
				if (n > 0)
					append(r, &cap, buf, (size_t)n);
				else if (n == 0 || (errno != EINTR && errno != EAGAIN))
					open_pipe = false;
			}
		} else {
			struct timespec ts = {0, 50 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
		pid_t w = wait4(pid, &status, WNOHANG, &ru);
		if (w == pid) {
			/* drain what is left */
			while (open_pipe) {
				ssize_t n = read(pfd[0], buf, sizeof buf);
				if (n > 0)
					append(r, &cap, buf, (size_t)n);
				else if (n < 0 && errno == EINTR)
					continue;
				else
					break;
			}
			break;
		}
		double now = bl_now(), el = now - t0;
		if (kill_at < 0 && ((interrupted && *interrupted) || el > timeout)) {
			if (interrupted && *interrupted)
				r->interrupted = true;
			else
				r->timed_out = true;
			kill(-pid, SIGINT);
			kill_at = now + 2.0;
		} else if (kill_at >= 0 && now > kill_at) {
			kill(-pid, SIGKILL);
			kill_at = now + 3600;
		}
		if (tick && now - last_tick >= 0.5) {
			tick(tick_ctx, el);
			last_tick = now;
		}
	}
	close(pfd[0]);
	/* whatever the tool left running in its group */
	kill(-pid, SIGKILL);
	r->real = bl_now() - t0;
	r->user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	r->system = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	if (WIFEXITED(status))
		r->exit_status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		r->signal = WTERMSIG(status);
	if (!r->output) {
		r->output = strdup("");
		r->len = 0;
	}
	return 0;
}
