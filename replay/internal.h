/* internal.h - what the replay modules share: the command tokenizer, plan
 * building helpers, translation, scaling, the sandbox and the spawner. */
#ifndef BL_REPLAY_INTERNAL_H
#define BL_REPLAY_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay.h"

/* ------------------------------------------------------------ tokenizer */

#define BL_MAX_WORDS 64
#define BL_MAX_WORD 4096

struct bl_words {
	char *v[BL_MAX_WORDS + 1]; /* NULL-terminated, each owned */
	size_t n;
};

/* Splits a command line into words the way a shell would for plain words
 * and quotes, and refuses everything else: ; | & $ ` < > ( ) { } * ? [ ]
 * ~ ! # \ and control characters outside quotes, $ ` \ inside double
 * quotes. A trailing "2>&1" is dropped (it only merges output, which replay
 * does anyway). Returns 0, or -1 with a reason in `why` (size n). */
int bl_words_split(const char *cmd, struct bl_words *w, char *why, size_t n);
void bl_words_free(struct bl_words *w);

/* ------------------------------------------------------------ plan helpers */

/* Sets status and a formatted reason. */
void bl_plan_refuse(struct bl_plan *p, enum bl_plan_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void bl_plan_note(struct bl_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends an argv word (copied). Returns 0 or -1. */
int bl_plan_arg(struct bl_plan *p, const char *s);
int bl_plan_argf(struct bl_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Re-roots a path the post names into the scratch dir:
 *   "/data01/test01" -> "<scratch>/fs/data01/test01"
 *   "test" -> "<scratch>/fs/cwd/test"
 * ".." never climbs above the scratch root. Returns a new string, or NULL
 * for an empty or unprintable path. */
char *bl_reroot(const char *scratch, const char *path);
/* Adds a path to the plan (copied); returns its rerooted name (borrowed)
 * or NULL on failure. */
const char *bl_plan_path(struct bl_plan *p, const char *scratch, const char *orig,
			 enum bl_path_role role, uint64_t prepare_bytes, bool device);

/* What a path under /dev is. */
enum bl_dev_kind {
	BL_DEV_NONE, /* not a device path */
	BL_DEV_ZERO, /* /dev/zero: an endless source of zeros */
	BL_DEV_RANDOM, /* /dev/random, /dev/urandom */
	BL_DEV_NULL, /* /dev/null: a sink */
	BL_DEV_OTHER, /* a disk, a partition, a tty: never touched */
};
enum bl_dev_kind bl_dev_kind(const char *path);

/* Tool planners (plan_<tool>.c). `w` is the tokenized command, w->v[0]
 * the tool word. `run` is the document's run object (borrowed). */
struct bl_plan_ctx {
	const struct bl_replay_opts *o;
	const char *scratch;
	json_t *doc; /* the whole document (borrowed) */
	json_t *run; /* this run */
	struct bl_plan_set *set; /* plans built so far (for read-after-write) */
};
void bl_plan_dd(struct bl_plan *p, const struct bl_words *w, const struct bl_plan_ctx *c);
void bl_plan_bonnie(struct bl_plan *p, const struct bl_words *w, const struct bl_plan_ctx *c);
void bl_plan_iozone(struct bl_plan *p, const struct bl_words *w, const struct bl_plan_ctx *c);
void bl_plan_zpool(struct bl_plan *p, const struct bl_words *w, const struct bl_plan_ctx *c);

/* A result value of a run by metric (first without coordinates), or NAN. */
double bl_run_value(json_t *run, const char *metric);

/* ------------------------------------------------------------ translate */

/* A dd size operand in any dialect ("1m", "64k", "2x512", "1MB") to bytes. */
bool bl_dd_size(const char *s, bool bsd, uint64_t *out);
/* The GNU dd spelling of a byte count: "1M", "64K", or the plain number. */
void bl_dd_size_gnu(uint64_t v, char *buf, size_t n);
/* FreeBSD device names ("ad4s2", "ada0p1", "da0", "md0", "mirror/gm0",
 * "gpt/disk0", "ufs/root") and Linux ones: what they are, for notes. */
const char *bl_dev_describe(const char *path);
/* A bonnie++ size with an optional unit ("4096", "4g", "300M") in MiB. */
bool bl_bonnie_size_mib(const char *s, uint64_t *mib);
/* An iozone size ("512m", "4k", "1g", "64") in bytes: plain numbers are KiB. */
bool bl_iozone_size(const char *s, uint64_t *bytes);

/* ------------------------------------------------------------ scale */

/* Bytes a replay may move: the archived amount capped by the budget
 * (archived 0 = unknown: the budget). */
uint64_t bl_scale_bytes(uint64_t archived, uint64_t budget);
/* replay / archived as a ratio, 1 when either is unknown. */
double bl_scale_ratio(uint64_t replay, uint64_t archived);
uint64_t bl_budget_bytes(const struct bl_replay_opts *o);
double bl_budget_seconds(const struct bl_replay_opts *o);
/* Largest dd block size replay allocates. */
#define BL_MAX_BLOCK (64ULL << 20)

/* ------------------------------------------------------------ sandbox */

/* Creates the directories and input files a plan needs in the scratch
 * dir; refuses (returns -1 with why) if any path escapes it. */
int bl_sandbox_prepare(const struct bl_plan *p, const char *scratch, char *why, size_t n);
/* Drops the page cache of the plan's input files (fdatasync and
 * POSIX_FADV_DONTNEED), so a read replay reads the disk, not memory. */
void bl_sandbox_drop_cache(const struct bl_plan *p);
/* The full argv to spawn: bwrap and its options, then the tool at its
 * absolute path and the plan's arguments. New NULL-terminated array of new
 * strings; free with bl_argv_free. `bwrap` NULL: no sandbox. */
char **bl_sandbox_argv(const struct bl_plan *p, const char *tool_path, const char *bwrap,
		       const char *scratch);
void bl_argv_free(char **v);
/* Removes everything under the scratch dir but the files named in `keep`
 * (n of them) and the directories that lead to them; the scratch dir
 * itself stays. Returns the bytes (allocated blocks) the tree held.
 * `remove` false: only counts them. */
uint64_t bl_scratch_clear(const char *scratch, char *const keep[], size_t n, bool remove);

/* ------------------------------------------------------------ run */

struct bl_spawn_result {
	char *output; /* stdout and stderr, merged, NUL-terminated */
	size_t len;
	bool truncated; /* more than the cap was printed */
	int exit_status; /* exit code, or -1 when killed */
	int signal; /* the signal that ended it, 0 if none */
	bool timed_out, interrupted, spawn_failed;
	double real, user, system; /* wait4 */
	bool cpu_unknown; /* user and system are not the tool's (zpool
			      * iostat's, not the pool's) */
	char error[160]; /* spawn failure */
};

/* Spawns argv (argv[0] an absolute path) with a clean environment, in `cwd`
 * (NULL: unchanged), output captured; stops it (SIGINT, then SIGKILL) after
 * `timeout` seconds or when *interrupted is set. `tick` is called about
 * every half second with the elapsed time. */
int bl_spawn(char *const argv[], const char *cwd, double timeout,
	     volatile sig_atomic_t *interrupted, void (*tick)(void *ctx, double elapsed),
	     void *tick_ctx, struct bl_spawn_result *r);
void bl_spawn_result_free(struct bl_spawn_result *r);
double bl_now(void);

/* The version of a tool, from the tool itself (dd --version, iozone -v)
 * or from its Debian package (new reference; null when unknown). Runs in
 * the same jail as the tool's replay (`bwrap` NULL: none) with `scratch`
 * as its working directory, stopped after 5 s or max_seconds. */
json_t *bl_replay_tool_version(const char *tool, const char *tool_path, const char *bwrap,
			       const char *scratch, double max_seconds);

/* ------------------------------------------------------------ zpool */

/* Runs a BL_KIND_ZPOOL plan: daemon, pool, workload, iostat, teardown;
 * in a jail of its own when `bwrap` is given (see zpool.c), else here. */
int bl_zpool_run(const struct bl_plan *p, const char *scratch, const struct bl_replay_opts *o,
		 const char *bwrap, struct bl_spawn_result *r, json_t *steps);

/* ------------------------------------------------------------ compare */

/* Comparison rows of an archived run against the replayed runs parsed from
 * the new output (array of run objects), given the plan's scale. */
json_t *bl_compare_run(json_t *archived, json_t *replayed_runs, const struct bl_plan *p,
		       const struct bl_spawn_result *sr);

#endif
