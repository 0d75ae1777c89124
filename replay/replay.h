/* replay.h - re-running the commands of a benchlog/1 document on this
 * machine, safely, and comparing the new numbers with the archived ones.
 *
 *   document --plan--> plans (argv, scratch paths, scaled sizes)
 *            --run---> captured output --parse--> new runs
 *            --compare--> comparison document (benchlog-replay/1)
 *
 * Safety model: no shell, ever. A plan is built from the run's command
 * string by a tokenizer that refuses shell syntax, for allowlisted tools and
 * allowlisted options only; every path the command writes is re-rooted into
 * the scratch directory; writes to devices are refused; reads from devices
 * come from a scratch file; sizes are scaled to a budget; the tool is
 * started with posix_spawn, inside bubblewrap when it is installed.
 *
 * Like the rest of the library this prints nothing and never exits:
 * progress goes through a callback, Ctrl-C through a flag the caller sets. */
#ifndef BL_REPLAY_H
#define BL_REPLAY_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BL_REPLAY_SCHEMA_ID "benchlog-replay/1"
#define BL_REPLAY_DEFAULT_BYTES (256ULL << 20)
#define BL_REPLAY_DEFAULT_SECONDS 60.0
/* the whole replay: an hour, and a quarter of the scratch file system's
 * free space (the caller measures it) */
#define BL_REPLAY_DEFAULT_TOTAL_SECONDS 3600.0
#define BL_REPLAY_DEFAULT_TOTAL_FRACTION 4
/* free space a run must leave on the scratch file system */
#define BL_REPLAY_FREE_RESERVE (16ULL << 20)

enum bl_plan_status {
	BL_PLAN_READY, /* safe to run as planned */
	BL_PLAN_REFUSED, /* the command is unsafe or not understood */
	BL_PLAN_UNAVAILABLE, /* the tool is not installed (or not on this OS) */
	BL_PLAN_UNSUPPORTED, /* a tool replay does not know (tar, rm, ...) */
};

enum bl_path_role {
	BL_PATH_WRITE, /* a file the tool writes */
	BL_PATH_READ, /* a file the tool reads (prepared when absent) */
	BL_PATH_DIR, /* a directory the tool works in */
};

struct bl_plan_path {
	char *original; /* as written in the post */
	char *path; /* where it lives in the scratch directory */
	enum bl_path_role role;
	uint64_t prepare_bytes; /* READ: bytes to write when the file is absent */
	bool device; /* the original named a device */
};

/* How a plan is run. */
enum bl_plan_kind {
	BL_KIND_TOOL, /* one tool, argv as planned */
	BL_KIND_ZPOOL, /* a file-backed pool, a workload, zpool iostat */
};

struct bl_pool_vdev {
	char *type; /* "mirror", "raidz1", "raidz2", "log", "cache", "disk" */
	size_t ndisks;
};

struct bl_plan {
	size_t run; /* index of the run in the document */
	const char *tool; /* "dd", "bonnie++", "iozone", "zpool-iostat" */
	const char *parser; /* the parser that reads its output */
	enum bl_plan_status status;
	enum bl_plan_kind kind;
	char *reason; /* why not READY (owned) */
	char **argv; /* NULL-terminated; argv[0] the tool name */
	size_t argc;
	char *cwd; /* working directory in the scratch dir */
	struct bl_plan_path *paths;
	size_t npaths;
	uint64_t archived_bytes; /* what the post moved (0: unknown) */
	uint64_t replay_bytes; /* what the replay is planned to move */
	double scale; /* replay_bytes / archived_bytes, 1 if unknown */
	double expected_seconds; /* for the ETA: archived elapsed * scale */
	bool timed; /* the post ran it under time(1) */
	/* how the page cache is kept out of what is timed (static text:
	 * "written to the device: conv=fdatasync"); NULL when it is not, and
	 * a small replay may time memory rather than the disk */
	const char *page_cache;
	json_t *notes; /* array of strings: translations, scaling */
	/* BL_KIND_ZPOOL */
	struct bl_pool_vdev *vdevs;
	size_t nvdevs;
	char **workload; /* argv of the workload (dd) beside iostat */
	json_t *rename; /* replayed vdev name -> the post's (object) */
};

struct bl_plan_set {
	struct bl_plan *v;
	size_t n, cap;
	char *scratch; /* the scratch root the plans point into */
};

struct bl_replay_progress {
	size_t index, total; /* which plan (0-based) of how many */
	const struct bl_plan *plan;
	double elapsed; /* seconds in the current run */
	double eta; /* seconds left in all runs, <0 unknown */
	bool finished; /* the current run just ended */
	const char *status; /* when finished: "done", "failed", ... */
};

/* The budget of a whole replay, shared by every document it runs (the
 * caller owns it and zeroes it once; bl_replay_run_all updates it). */
struct bl_replay_total {
	uint64_t max_bytes; /* data all runs may move together (0: no limit) */
	double max_seconds; /* wall time from the first run (0: no limit) */
	double started; /* monotonic time of the first run (0: none yet) */
	uint64_t used_bytes; /* what the runs so far were charged */
	size_t done, not_run; /* runs started; runs the budget kept from starting */
	char spent[300]; /* why the replay stopped ("" while it goes on) */
};

struct bl_replay_opts {
	uint64_t max_bytes; /* budget per run (0: default) */
	double max_seconds; /* per run (0: default) */
	const char *scratch; /* existing, empty directory (owned by caller) */
	const char *tools_dir; /* extra bin dir for tools (NULL: none) */
	bool no_sandbox; /* do not use bubblewrap even if installed */
	bool keep_files; /* leave each run's files in the scratch dir */
	bool no_zpool; /* plan no zpool replay (zfs-fuse pools) */
	struct bl_replay_total *total; /* the whole replay's budget (NULL: none) */
	/* set by the caller's SIGINT handler: stops the current tool */
	volatile sig_atomic_t *interrupted;
	void (*progress)(void *ctx, const struct bl_replay_progress *p);
	void *progress_ctx;
};

/* Plans every run of a benchlog/1 document (borrowed). Returns 0, or -1 on
 * out of memory. Plans that cannot run say why; nothing is touched on disk. */
int bl_replay_plan(json_t *doc, const struct bl_replay_opts *o, struct bl_plan_set *out);
void bl_plan_set_free(struct bl_plan_set *s);

/* A plan as JSON (new reference): argv, cwd, paths, sizes, notes. */
json_t *bl_plan_to_json(const struct bl_plan *p);
const char *bl_plan_status_name(enum bl_plan_status s);

/* Runs the READY plans of `s` (made from `doc`) and returns the comparison
 * document (new reference), or NULL on out of memory. Runs stop early when
 * *o->interrupted becomes non-zero; what finished is still in the result,
 * and the document says "interrupted": true. With o->total, a run starts
 * only while the whole replay's budget covers it and the scratch file
 * system has room for it; once either runs out, this and every later
 * call list their runs as not-run and budget.stopped says why. Each run's
 * files are removed once its output is parsed (unless o->keep_files),
 * except those a later run of the document reads. */
json_t *bl_replay_run_all(json_t *doc, struct bl_plan_set *s, const struct bl_replay_opts *o);

/* The environment of this machine as JSON (kernel, OS, CPU, file system of
 * `scratch`, sandbox) (new reference). */
json_t *bl_replay_environment(const char *scratch, const struct bl_replay_opts *o);

/* Finds an executable named `name` on PATH or in tools_dir; returns a new
 * string or NULL. */
char *bl_replay_which(const char *name, const char *tools_dir);

/* bubblewrap: usable (*bwrap set to its path, to free), not installed, or
 * installed but unable to make its namespaces here (*bwrap NULL). */
enum bl_sandbox_state { BL_SANDBOX_OK, BL_SANDBOX_MISSING, BL_SANDBOX_UNUSABLE };
enum bl_sandbox_state bl_sandbox_probe(char **bwrap);

/* The comparison as two benchlog/1 documents (new reference: an array),
 * the archived runs that were replayed and their replays, with the same
 * labels and commands, for the chart renderer. */
json_t *bl_replay_chart_docs(json_t *archived, json_t *cmp);

/* Removes a directory tree, such as a scratch directory (symbolic links
 * are removed, never followed). Returns 0, or -1 if something remained. */
int bl_rmtree(const char *path);

/* Inside the zpool jail (`benchlog replay --zpool-jail SPEC`, started by
 * a zpool replay in bubblewrap): runs the steps SPEC names and sets
 * *report to the line the replay reads back (to free). Returns 0, or 1
 * when a step could not run. */
int bl_zpool_jail(const char *spec, char **report);

/* Bytes free for an unprivileged writer on the file system of `path`, or
 * -1 when it cannot be told. */
long long bl_free_bytes(const char *path);

#endif
