/* jobs.h - tasks run in child processes, their output kept in order.
 *
 * `benchlog parse --jobs N` runs its inputs, and the pieces of a large
 * mbox, in up to N processes at once. Each child writes its documents and
 * its diagnostics into two unlinked temporary files; the parent copies
 * them to the output and to stderr in task order, so the result is the
 * serial run's, byte for byte. A child started when every task before it
 * has been copied out (the first, at least) writes its documents to the
 * output itself. Processes rather than threads: the
 * library's patterns and tables are set up once per process and a worker
 * that fails takes nothing else down. */
#ifndef BL_CLI_JOBS_H
#define BL_CLI_JOBS_H

#include <stddef.h>
#include <stdio.h>

/* Runs task i in a child process; writes its documents to out. Returns a
 * status in [0, 63] (flags of the caller's choosing). */
typedef int (*cli_task_fn)(size_t i, FILE *out, void *arg);

/* Readies task i in the parent before it starts, called for i = 0, 1, ...
 * in order, once each, while the tasks before it run (work the tasks
 * need done in turn: where the next piece of an mbox begins). Returns 0,
 * CLI_TASK_SKIP when task i has nothing to do, or -1 after a message. */
typedef int (*cli_prepare_fn)(size_t i, void *arg);
#define CLI_TASK_SKIP 1

/* Set in cli_jobs_run's result when a worker died, could not be started,
 * or its output could not be kept or copied (a message has been printed). */
#define CLI_JOB_FAILED 64

/* Runs tasks [0, n) with at most `jobs` at once (jobs >= 1) and copies
 * their outputs to out and their stderr to stderr in task order; prepare
 * (or NULL) readies each first. Returns the OR of the tasks' statuses,
 * with CLI_JOB_FAILED when one failed. */
int cli_jobs_run(size_t n, unsigned jobs, cli_task_fn task, cli_prepare_fn prepare, void *arg,
		 FILE *out);

/* The number of processors online (at least 1). */
unsigned cli_jobs_cpus(void);

#endif
