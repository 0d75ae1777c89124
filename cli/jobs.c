/* jobs.c - tasks run in child processes, their output kept in order (see
 * jobs.h). */
#include "jobs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/sendfile.h>
#endif
#include <unistd.h>

#include "../base/tmp.h"
#include "cli.h"

struct job {
	pid_t pid; /* 0: not started or reaped */
	int out, err; /* the kept output and stderr; -1 when closed */
	bool direct; /* out is the output itself, not a copy kept */
	int status; /* the task's, or CLI_JOB_FAILED */
	int done;
};

unsigned cli_jobs_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* The child: the task's documents into j->out, its stderr into j->err. */
static void child(size_t i, const struct job *j, cli_task_fn task, void *arg, pid_t parent)
{
#ifdef __linux__
	/* a parent gone (Ctrl-C, or `| head` closing the pipe) ends the
	 * workers too, rather than leaving them to finish unread */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
		_exit(CLI_JOB_FAILED);
#else
	(void)parent;
#endif
	if (dup2(j->err, STDERR_FILENO) < 0)
		_exit(CLI_JOB_FAILED);
	FILE *out = fdopen(dup(j->out), "w");
	if (!out)
		_exit(CLI_JOB_FAILED);
	int st = task(i, out, arg) & 63;
	if (fflush(out) != 0 || ferror(out))
		st = CLI_JOB_FAILED;
	fflush(stderr);
	/* _exit: the parent's stdio buffers and exit handlers are not ours */
	_exit(st);
}

/* Copies fd, from its start, to f: 0, or -1 with errno. */
static int copy_by_read(int fd, FILE *f)
{
	char buf[1 << 16];
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		if (fwrite(buf, 1, (size_t)r, f) != (size_t)r)
			return -1;
	}
}

#ifdef __linux__
/* The copy made in the kernel, the bytes never read into this process:
 * copy_file_range between files of one file system, sendfile to any
 * other output (a pipe, a terminal, a file elsewhere). 1 when neither
 * can take these two files and nothing was written. */
static int copy_in_kernel(int fd, FILE *f)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || fflush(f) != 0)
		return 1;
	int to = fileno(f);
	off_t off = 0;
	bool ranged = true;
	while (off < st.st_size) {
		size_t left = (size_t)(st.st_size - off);
		ssize_t n = ranged ? copy_file_range(fd, &off, to, NULL, left, 0)
				   : sendfile(to, fd, &off, left);
		if (n > 0)
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && ranged && off == 0 &&
		    (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP ||
		     errno == EBADF)) {
			ranged = false;
			continue;
		}
		if (n < 0 && off == 0 && (errno == EINVAL || errno == ENOSYS))
			return 1;
		if (n == 0)
			errno = EIO; /* the file is shorter than it was */
		return -1;
	}
	return 0;
}
#endif

/* Appends what fd holds to f. */
static int copy_out(int fd, FILE *f)
{
#ifdef __linux__
	int r = copy_in_kernel(fd, f);
	if (r != 1)
		return r;
#endif
	return copy_by_read(fd, f);
}

static void close_job(struct job *j)
{
	if (j->out >= 0)
		close(j->out);
	if (j->err >= 0)
		close(j->err);
	j->out = j->err = -1;
}

/* Starts task i; 0, or -1 after a message. `direct`: every task before
 * it has been copied out, so it writes its documents straight to the
 * output, not to a file copied there later (its stderr is kept all the
 * same: a few lines, in order with the parent's messages). */
static int start(size_t i, struct job *j, cli_task_fn task, void *arg, FILE *out, bool direct)
{
	j->direct = direct;
	j->out = direct ? dup(fileno(out)) : bl_temp_fd("job");
	j->err = j->out >= 0 ? bl_temp_fd("job") : -1;
	if (j->err < 0) {
		cli_error("cannot keep a worker's output: %s", strerror(errno));
		close_job(j);
		return -1;
	}
	/* what is buffered here would be written again by the child */
	fflush(out);
	fflush(stderr);
	pid_t parent = getpid(), pid = fork();
	if (pid < 0) {
		cli_error("cannot start a worker: %s", strerror(errno));
		close_job(j);
		return -1;
	}
	if (pid == 0)
		child(i, j, task, arg, parent);
	j->pid = pid;
	return 0;
}

/* Waits for one running child and records how it ended. */
static void reap(struct job *jobs, size_t n)
{
	int ws;
	pid_t pid;
	while ((pid = waitpid(-1, &ws, 0)) < 0 && errno == EINTR)
		;
	if (pid < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		if (jobs[i].pid != pid)
			continue;
		jobs[i].pid = 0;
		jobs[i].done = 1;
		if (WIFEXITED(ws)) {
			jobs[i].status = WEXITSTATUS(ws);
		} else {
			jobs[i].status = CLI_JOB_FAILED;
			cli_error("worker %zu of %zu was killed by signal %d", i + 1, n,
				  WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
		}
		return;
	}
}

/* A run of tasks: [0, flushed) copied out, [flushed, next) started or
 * skipped, [next, prepared) readied but not started. */
struct run {
	struct job *j;
	size_t n, next, flushed, prepared, running, window;
	unsigned jobs;
	cli_task_fn task;
	cli_prepare_fn prepare;
	void *arg;
	FILE *out;
	int result;
};

/* Readies the next task not readied yet; a task with nothing to do is
 * done at once, with no output. */
static void prepare_next(struct run *r)
{
	struct job *j = &r->j[r->prepared];
	int p = r->prepare ? r->prepare(r->prepared, r->arg) : 0;
	if (p < 0) {
		r->result |= CLI_JOB_FAILED;
		return;
	}
	j->done = p == CLI_TASK_SKIP;
	r->prepared++;
}

/* Starts what may start: up to `jobs` at once, and no more than `window`
 * ahead of the output copied. */
static void start_more(struct run *r)
{
	while (r->next < r->n && r->running < r->jobs && r->next < r->flushed + r->window &&
	       !(r->result & CLI_JOB_FAILED)) {
		if (r->next == r->prepared) {
			prepare_next(r);
			continue;
		}
		struct job *j = &r->j[r->next];
		if (!j->done) {
			bool direct = r->flushed == r->next;
			if (start(r->next, j, r->task, r->arg, r->out, direct) < 0) {
				r->result |= CLI_JOB_FAILED;
				return;
			}
			r->running++;
		}
		r->next++;
	}
}

/* In order: each task's output once it and those before it ended. */
static void flush_done(struct run *r)
{
	while (r->flushed < r->next && r->j[r->flushed].done) {
		struct job *f = &r->j[r->flushed++];
		if ((f->out >= 0 && !f->direct && copy_out(f->out, r->out) < 0) ||
		    (f->err >= 0 && copy_out(f->err, stderr) < 0)) {
			cli_error("cannot copy a worker's output: %s", strerror(errno));
			f->status |= CLI_JOB_FAILED;
		}
		r->result |= f->status;
		close_job(f);
	}
}

int cli_jobs_run(size_t n, unsigned jobs, cli_task_fn task, cli_prepare_fn prepare, void *arg,
		 FILE *out)
{
	struct job *j = calloc(n ? n : 1, sizeof *j);
	if (!j) {
		cli_error("out of memory");
		return CLI_JOB_FAILED;
	}
	for (size_t i = 0; i < n; i++)
		j[i].out = j[i].err = -1;
	/* tasks started but not yet copied out: at most twice the jobs, so
	 * that one slow task does not leave every later output waiting in
	 * temporary files */
	struct run r = {.j = j,
			.n = n,
			.window = 2 * (size_t)jobs,
			.jobs = jobs,
			.task = task,
			.prepare = prepare,
			.arg = arg,
			.out = out};
	while (r.flushed < n) {
		start_more(&r);
		flush_done(&r);
		if (r.flushed == r.next && (r.next == n || r.result & CLI_JOB_FAILED))
			break;
		/* the next task readied while the workers run, not after */
		if (r.running && r.prepared == r.next && r.prepared < n &&
		    !(r.result & CLI_JOB_FAILED)) {
			prepare_next(&r);
			continue;
		}
		if (r.running) {
			reap(j, r.next);
			r.running--;
		}
	}
	/* after a failure: the workers still running are waited for */
	while (r.running) {
		reap(j, r.next);
		r.running--;
	}
	for (size_t i = 0; i < n; i++)
		close_job(&j[i]);
	free(j);
	return r.result;
}
