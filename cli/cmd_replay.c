/* cmd_replay.c - `benchlog replay`: the commands of posts run again here,
 * safely, and compared with what the posts printed. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../parsers/benchlog.h"
#include "../base/units.h"
#include "../replay/replay.h"
#include "../render/render.h"
#include "cli.h"
#include "render_opts.h"

static void help(void)
{
	puts("usage: benchlog replay [options] INPUT...\n\n"
	     "Runs the commands of each input again on this machine and compares the\n"
	     "new numbers with the archived ones. An INPUT is a post (parsed first) or\n"
	     "a benchlog/1 document (JSON or JSON Lines). Only dd, bonnie++, iozone\n"
	     "and zpool iostat are run, never through a shell; every file they write\n"
	     "is re-rooted into a scratch directory, devices are never written, sizes\n"
	     "are scaled to the budget, and bubblewrap confines the tool when installed.\n\n"
	     "options:\n"
	     "  -n, --dry-run        print the plan of every run (argv, scratch paths,\n"
	     "                       sizes) and run nothing\n"
	     "      --json           with --dry-run: the plans as JSON\n"
	     "  -o, --output FILE    write the comparison documents to FILE (atomically)\n"
	     "      --jsonl          one compact document per line\n"
	     "      --max-bytes SIZE data moved per run (default 256M, or the whole\n"
	     "                       replay's budget when that is smaller; 1G, 64M, ...)\n"
	     "      --max-seconds N  time per run before the tool is stopped (default 60)\n"
	     "      --max-total-bytes SIZE  data all runs of the replay may move together\n"
	     "                       (default: a quarter of the free space of the scratch\n"
	     "                       file system; 0: no limit)\n"
	     "      --max-total-seconds N   wall time of the whole replay (default 3600;\n"
	     "                       0: no limit). A run starts only while both budgets\n"
	     "                       cover it and the scratch file system has room for it\n"
	     "                       (16M kept free); then the replay stops: the runs done\n"
	     "                       are kept, the rest are listed as not-run with the reason\n"
	     "      --scratch DIR    where the scratch directory is made (default $TMPDIR\n"
	     "                       or /tmp): the file system measured\n"
	     "      --keep           keep the scratch directory and every run's files (by\n"
	     "                       default each run's files are removed once its output\n"
	     "                       is parsed)\n"
	     "      --no-sandbox     do not use bubblewrap even when installed (zpool\n"
	     "                       replays then run unconfined, as root)\n"
	     "      --no-zpool       do not replay zpool iostat (no zfs-fuse pool is made)\n"
	     "      --tools DIR      also look for tools in DIR (default: tools/bin beside\n"
	     "                       the build, where scripts/fetch-iozone.sh puts iozone)\n"
	     "      --chart-data FILE  write the archived runs and their replays as two\n"
	     "                       benchlog/1 documents per input (JSON Lines), for\n"
	     "                       'benchlog chart' to draw then and now side by side\n"
	     "      --chart FILE     draw archived vs replayed (.png, .svg or .pdf; PNG and\n"
	     "                       SVG hold the first chart, PDF one page per chart)\n"
	     "  -q, --quiet          no progress and no summary on stderr\n"
	     "  -h, --help           this help\n\n"
	     "Ctrl-C stops the current tool, removes the scratch directory and still\n"
	     "writes what finished.\n"
	     "exit status: 0 ok, 1 an input could not be read, a run failed or was\n"
	     "interrupted, or the whole replay's budget stopped it, 2 usage.");
}

/* --chart: the archived runs beside their replays, drawn by the same
 * renderer as `benchlog chart` (default views: one series per source). */
static int write_chart(json_t *docs, enum bl_format fmt, const char *path)
{
	struct bl_chart_opts o = {0};
	struct bl_render_opts ro = {.width = 960, .theme = bl_theme_get("light")};
	struct bl_charts charts;
	char err[160];
	if (bl_chart_build(docs, &o, &charts, err, sizeof err) < 0) {
		cli_error("--chart: %s", err);
		return -1;
	}
	int rc = 0;
	if (charts.n == 0) {
		cli_error("--chart: %s: no replayed values to chart", path);
		rc = -1;
	} else {
		rc = cli_render_file(charts.v, charts.n, fmt, &ro, path);
	}
	bl_charts_free(&charts);
	return rc;
}

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* replay_ctx.write_failed when the reader of standard output went away */
enum { WRITE_PIPE_CLOSED = 2 };

struct replay_ctx {
	struct bl_replay_opts opts;
	struct bl_replay_total total;
	uint64_t dry_bytes; /* dry runs: the bytes of the plans shown so far */
	bool dry_spent;
	const char *path;
	const char *scratch_parent;
	char *scratch_root; /* made on first use; NULL in dry runs */
	size_t ndocs;
	bool dry, json, jsonl, quiet, tty;
	FILE *out;
	FILE *chart; /* --chart-data, or NULL */
	json_t *chart_docs; /* --chart: the then-and-now documents, or NULL */
	int failed, write_failed; /* 1, or WRITE_PIPE_CLOSED */
};

static void fmt_time(double s, char *buf, size_t n)
{
	if (s < 0)
		snprintf(buf, n, "?");
	else if (s < 10)
		snprintf(buf, n, "%.1fs", s);
	else if (s < 60)
		snprintf(buf, n, "%.0fs", s);
	else
		snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)fmod(s, 60));
}

static void progress(void *vctx, const struct bl_replay_progress *p)
{
	struct replay_ctx *c = vctx;
	const char *label = p->plan->argv ? p->plan->tool : "?";
	char el[16], eta[16];
	fmt_time(p->elapsed, el, sizeof el);
	fmt_time(p->eta, eta, sizeof eta);
	if (p->finished) {
		fprintf(stderr, "%s[%zu/%zu] run %zu %s: %s in %s%s\n", c->tty ? "\r\033[K" : "",
			p->index + 1, p->total, p->plan->run, label, p->status, el,
			c->tty ? "" : "");
	} else if (c->tty) {
		fprintf(stderr, "\r\033[K[%zu/%zu] run %zu %s: %s elapsed, ETA %s", p->index + 1,
			p->total, p->plan->run, label, el, eta);
	} else if (p->elapsed == 0) {
		fprintf(stderr, "[%zu/%zu] run %zu %s: started, ETA %s\n", p->index + 1, p->total,
			p->plan->run, label, eta);
	}
	fflush(stderr);
}

static void print_plan(struct replay_ctx *c, json_t *doc, const struct bl_plan_set *s)
{
	json_t *runs = json_object_get(doc, "runs");
	size_t ready = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct bl_plan *p = &s->v[i];
		json_t *run = json_array_get(runs, p->run);
		const char *label = json_string_value(json_object_get(run, "label"));
		const char *cmd = json_string_value(json_object_get(run, "command"));
		fprintf(c->out, "%s: run %zu (%s%s%s): %s\n", c->path, p->run,
			json_string_value(json_object_get(run, "tool")), label ? ", " : "",
			label ? label : "", bl_plan_status_name(p->status));
		if (cmd)
			fprintf(c->out, "  command: %s\n", cmd);
		if (p->status != BL_PLAN_READY) {
			fprintf(c->out, "  reason:  %s\n", p->reason ? p->reason : "");
			continue;
		}
		ready++;
		fputs("  argv:   ", c->out);
		for (size_t k = 0; k < p->argc; k++)
			fprintf(c->out, " %s", p->argv[k]);
		fputc('\n', c->out);
		if (p->workload) {
			fputs("  beside: ", c->out);
			for (char **a = p->workload; *a; a++)
				fprintf(c->out, " %s", *a);
			fputc('\n', c->out);
		}
		if (p->cwd)
			fprintf(c->out, "  cwd:     %s\n", p->cwd);
		for (size_t k = 0; k < p->npaths; k++) {
			const struct bl_plan_path *pp = &p->paths[k];
			const char *role = pp->role == BL_PATH_WRITE  ? "writes: "
					   : pp->role == BL_PATH_READ ? "reads:  "
								      : "dir:    ";
			fprintf(c->out, "  %s %s -> %s", role, pp->original, pp->path);
			if (pp->prepare_bytes)
				fprintf(c->out, " (prepared: %llu bytes if absent)",
					(unsigned long long)pp->prepare_bytes);
			fputc('\n', c->out);
		}
		if (p->page_cache)
			fprintf(c->out, "  cache:   %s\n", p->page_cache);
		if (p->archived_bytes || p->replay_bytes)
			fprintf(c->out, "  size:    %llu of %llu bytes (scale %.4g)\n",
				(unsigned long long)p->replay_bytes,
				(unsigned long long)p->archived_bytes, p->scale);
		/* the whole replay's data budget, as the run would meet it (the
		 * time and the free space are only known when it runs) */
		uint64_t cost = p->replay_bytes ? p->replay_bytes : c->opts.max_bytes;
		for (size_t k = 0; k < p->npaths; k++) {
			/* an input an earlier run writes is not prepared */
			bool written = false;
			for (size_t q = 0; q < i && !written; q++)
				for (size_t r = 0; r < s->v[q].npaths && !written; r++)
					written = s->v[q].status == BL_PLAN_READY &&
						  s->v[q].paths[r].role == BL_PATH_WRITE &&
						  strcmp(s->v[q].paths[r].path, p->paths[k].path) ==
							  0;
			if (p->paths[k].role == BL_PATH_READ && !written)
				cost += p->paths[k].prepare_bytes;
		}
		if (c->total.max_bytes &&
		    (c->dry_spent || c->dry_bytes + cost > c->total.max_bytes)) {
			c->dry_spent = true;
			fprintf(c->out,
				"  budget:  would not run: --max-total-bytes %llu would be "
				"spent (%llu bytes by the runs before)\n",
				(unsigned long long)c->total.max_bytes,
				(unsigned long long)c->dry_bytes);
		} else {
			c->dry_bytes += cost;
		}
		size_t k;
		json_t *n;
		json_array_foreach(p->notes, k, n)
			fprintf(c->out, "  note:    %s\n", json_string_value(n));
	}
	fprintf(c->out, "%s: %zu of %zu runs would be replayed\n", c->path, ready, s->n);
}

static int make_scratch(struct replay_ctx *c)
{
	if (c->scratch_root)
		return 0;
	const char *parent = c->scratch_parent;
	if (!parent)
		parent = getenv("TMPDIR");
	if (!parent || !*parent)
		parent = "/tmp";
	/* absolute: the tools run in directories of their own (bwrap --chdir,
	 * the plan's cwd), where "--scratch sp" would name another place */
	char *abs = realpath(parent, NULL);
	if (!abs) {
		cli_error("%s: cannot use it for the scratch directory: %s", parent,
			  strerror(errno));
		return -1;
	}
	size_t n = strlen(abs) + 32;
	c->scratch_root = malloc(n);
	if (!c->scratch_root) {
		free(abs);
		return -1;
	}
	snprintf(c->scratch_root, n, "%s/benchlog-replay.XXXXXX", abs);
	free(abs);
	if (!mkdtemp(c->scratch_root)) {
		cli_error("%s: cannot create a scratch directory: %s", parent, strerror(errno));
		free(c->scratch_root);
		c->scratch_root = NULL;
		return -1;
	}
	return 0;
}

static int each_doc(struct replay_ctx *c, json_t *doc)
{
	char scratch[4200];
	if (c->dry) {
		const char *parent = c->scratch_parent ? c->scratch_parent : getenv("TMPDIR");
		snprintf(scratch, sizeof scratch, "%s/benchlog-replay.XXXXXX/%zu",
			 parent && *parent ? parent : "/tmp", c->ndocs);
	} else {
		if (make_scratch(c) < 0)
			return -1;
		snprintf(scratch, sizeof scratch, "%s/%zu", c->scratch_root, c->ndocs);
		if (mkdir(scratch, 0700) < 0) {
			cli_error("%s: %s", scratch, strerror(errno));
			return -1;
		}
	}
	c->ndocs++;
	struct bl_replay_opts o = c->opts;
	o.scratch = scratch;
	struct bl_plan_set set;
	if (bl_replay_plan(doc, &o, &set) < 0) {
		bl_plan_set_free(&set);
		cli_error("%s: out of memory", c->path);
		return -1;
	}
	size_t flags = JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) |
		       (c->jsonl ? JSON_COMPACT : JSON_INDENT(2));
	if (c->dry) {
		if (c->json) {
			json_t *a = json_array();
			for (size_t i = 0; i < set.n; i++) {
				json_t *pj = bl_plan_to_json(&set.v[i]);
				json_object_set_new(pj, "run",
						    json_integer((json_int_t)set.v[i].run));
				json_array_append_new(a, pj);
			}
			if (json_dumpf(a, c->out, flags) < 0 || fputc('\n', c->out) == EOF)
				c->write_failed = errno == EPIPE ? WRITE_PIPE_CLOSED : 1;
			json_decref(a);
		} else {
			if (c->ndocs == 1) {
				char secs[32] = "no limit";
				if (c->total.max_seconds > 0)
					snprintf(secs, sizeof secs, "%g s", c->total.max_seconds);
				fprintf(c->out,
					"budget: %llu bytes and %g s a run; %llu bytes%s and %s for the "
					"whole replay\n",
					(unsigned long long)c->opts.max_bytes,
					c->opts.max_seconds > 0 ? c->opts.max_seconds
								: BL_REPLAY_DEFAULT_SECONDS,
					(unsigned long long)c->total.max_bytes,
					c->total.max_bytes ? "" : " (no limit)", secs);
			}
			print_plan(c, doc, &set);
		}
		bl_plan_set_free(&set);
		return 0;
	}
	bool spent_before = c->total.spent[0] != '\0';
	json_t *cmp = bl_replay_run_all(doc, &set, &o);
	bl_plan_set_free(&set);
	/* what the runs left (directories, logs): the next message gets a
	 * scratch directory of its own */
	if (!o.keep_files && bl_rmtree(scratch) < 0)
		cli_error("%s: could not remove all of it: %s", scratch, strerror(errno));
	if (!cmp) {
		cli_error("%s: out of memory", c->path);
		return -1;
	}
	if (c->chart || c->chart_docs) {
		json_t *pair = bl_replay_chart_docs(doc, cmp);
		if (c->chart_docs && pair)
			json_array_extend(c->chart_docs, pair);
		size_t i;
		json_t *d;
		json_array_foreach(pair, i, d)
		{
			if (!c->chart)
				break;
			if (json_dumpf(d, c->chart,
				       JSON_COMPACT | JSON_PRESERVE_ORDER |
					       JSON_REAL_PRECISION(15)) < 0 ||
			    fputc('\n', c->chart) == EOF)
				c->write_failed = errno == EPIPE ? WRITE_PIPE_CLOSED : 1;
		}
		json_decref(pair);
	}
	json_t *sum = json_object_get(cmp, "summary");
	if (json_object_get(sum, "failed") || json_object_get(sum, "timeout") ||
	    json_is_true(json_object_get(cmp, "interrupted")))
		c->failed = 1;
	/* a document whose runs the spent budget kept from starting has no
	 * table: the last line says how many were not run, and why */
	if (!c->quiet && !spent_before)
		cli_replay_summary(cmp, stderr);
	if (json_dumpf(cmp, c->out, flags) < 0 || fputc('\n', c->out) == EOF)
		c->write_failed = errno == EPIPE ? WRITE_PIPE_CLOSED : 1;
	json_decref(cmp);
	return 0;
}

static bool is_document(const char *data, size_t len)
{
	size_t i = 0;
	while (i < len && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r'))
		i++;
	return i < len && data[i] == '{' &&
	       memmem(data, len < 4096 ? len : 4096, "\"benchlog/1\"", 12);
}

static int each_message(struct bl_message *m, void *vctx)
{
	struct replay_ctx *c = vctx;
	json_t *doc = bl_parse_message(m, c->path);
	if (!doc)
		return -1;
	int r = interrupted ? 0 : each_doc(c, doc);
	json_decref(doc);
	return r < 0 ? 1 : 0;
}

/* benchlog/1 documents: one JSON value, or JSON Lines */
static int each_json(struct replay_ctx *c, const char *data, size_t len)
{
	json_error_t err;
	size_t off = 0;
	int n = 0;
	while (off < len && !interrupted) {
		while (off < len && (data[off] == ' ' || data[off] == '\n' || data[off] == '\t' ||
				     data[off] == '\r'))
			off++;
		if (off >= len)
			break;
		json_t *doc = json_loadb(data + off, len - off, JSON_DISABLE_EOF_CHECK, &err);
		if (!doc) {
			cli_error("%s:%d: not a benchlog/1 document: %s", c->path, err.line,
				  err.text);
			return -1;
		}
		off += err.position;
		const char *schema = json_string_value(json_object_get(doc, "schema"));
		if (!schema || strcmp(schema, "benchlog/1") != 0) {
			cli_error("%s: document %d is not benchlog/1", c->path, n);
			json_decref(doc);
			return -1;
		}
		const char *bad = bl_doc_expand_rows(doc);
		if (bad) {
			cli_error("%s: document %d: %s", c->path, n, bad);
			json_decref(doc);
			return -1;
		}
		int r = each_doc(c, doc);
		json_decref(doc);
		if (r < 0)
			return -1;
		n++;
	}
	return 0;
}

/* The per-run and whole-replay budgets. Unset, the whole replay may move
 * a quarter of the free space of the file system the scratch directory is
 * made on, and a run no more than that. Returns -1 on a usage error. */
static int budgets(struct replay_ctx *c, bool total_bytes_set, bool total_seconds_set)
{
	const char *parent = c->scratch_parent ? c->scratch_parent : getenv("TMPDIR");
	if (!parent || !*parent)
		parent = "/tmp";
	if (!total_seconds_set)
		c->total.max_seconds = BL_REPLAY_DEFAULT_TOTAL_SECONDS;
	bool max_bytes_set = c->opts.max_bytes != 0;
	if (!max_bytes_set)
		c->opts.max_bytes = BL_REPLAY_DEFAULT_BYTES;
	const char *why = "--max-total-bytes";
	char whybuf[4300];
	if (!total_bytes_set) {
		long long free_bytes = bl_free_bytes(parent);
		if (free_bytes < 0) {
			cli_error("%s: cannot tell its free space (%s): give --max-total-bytes",
				  parent, strerror(errno));
			return -1;
		}
		c->total.max_bytes = (uint64_t)free_bytes / BL_REPLAY_DEFAULT_TOTAL_FRACTION;
		if (c->total.max_bytes < 4096)
			c->total.max_bytes = 4096;
		snprintf(whybuf, sizeof whybuf,
			 "the whole replay's budget (a quarter of the %llu MiB free on %s)",
			 (unsigned long long)free_bytes >> 20, parent);
		why = whybuf;
	}
	if (c->total.max_bytes && c->opts.max_bytes > c->total.max_bytes) {
		if (max_bytes_set && total_bytes_set) {
			cli_error("--max-bytes is more than --max-total-bytes: no run could start");
			return -1;
		}
		if (!c->quiet)
			fprintf(stderr, "benchlog: runs are scaled to %s: %llu bytes\n", why,
				(unsigned long long)c->total.max_bytes);
		c->opts.max_bytes = c->total.max_bytes;
	}
	return 0;
}

static char *default_tools_dir(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 32);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	/* build/benchlog, build-san/benchlog -> <repo>/tools/bin */
	char dir[4200];
	snprintf(dir, sizeof dir, "%s/../tools/bin", exe);
	return realpath(dir, NULL);
}

enum {
	O_JSON = 256,
	O_JSONL,
	O_MAXB,
	O_MAXS,
	O_SCRATCH,
	O_KEEP,
	O_NOSB,
	O_TOOLS,
	O_CHART,
	O_CHARTDATA,
	O_TOTB,
	O_TOTS,
	O_NOZPOOL,
	O_ZJAIL
};

/* What `benchlog replay` was asked for beyond the replay's own state. */
struct replay_args {
	const char *output, *tools, *chart, *chart_data; /* NULL when not given */
	bool keep, total_bytes_set, total_seconds_set;
};

/* --max-bytes 64M, --max-seconds 30, --max-total-bytes 10G (0: no
 * limit), --max-total-seconds 600 (0: no limit): `arg` of option `ch`
 * into c's budgets. Returns 0, or -1 on a bad value (reported). */
static int read_budget(int ch, const char *arg, struct replay_ctx *c, struct replay_args *a)
{
	uint64_t n;
	double v;
	size_t end;
	switch (ch) {
	case O_MAXB:
		if (!bl_parse_size(arg, strlen(arg), &n) || n < 4096) {
			cli_error("--max-bytes %s: a size of at least 4K (64M, 1G, ...)", arg);
			return -1;
		}
		c->opts.max_bytes = n;
		break;
	case O_MAXS:
		if (!bl_parse_double(arg, strlen(arg), false, &v, &end) || end != strlen(arg) ||
		    v <= 0) {
			cli_error("--max-seconds %s: a positive number of seconds", arg);
			return -1;
		}
		c->opts.max_seconds = v;
		break;
	case O_TOTB:
		if (!bl_parse_size(arg, strlen(arg), &n) || (n && n < 4096)) {
			cli_error("--max-total-bytes %s: a size of at least 4K (64M, 10G, ...), "
				  "or 0 for no limit",
				  arg);
			return -1;
		}
		c->total.max_bytes = n;
		a->total_bytes_set = true;
		break;
	case O_TOTS:
		if (!bl_parse_double(arg, strlen(arg), false, &v, &end) || end != strlen(arg) ||
		    v < 0) {
			cli_error("--max-total-seconds %s: a number of seconds, or 0 for no limit",
				  arg);
			return -1;
		}
		c->total.max_seconds = v;
		a->total_seconds_set = true;
		break;
	}
	return 0;
}

/* --zpool-jail SPEC, inside the jail of a zpool replay (replay/zpool.c):
 * its steps, then the report the replay reads back on stdout. Returns the
 * exit status. */
static int zpool_jail(const char *spec)
{
	char *report;
	int r = bl_zpool_jail(spec, &report);
	if (report)
		fputs(report, stdout);
	free(report);
	return r || !report ? EXIT_DATA : EXIT_OK;
}

/* The options into c and a, optind left on the first INPUT. Returns -1
 * to go on, or the exit status: after --help or --zpool-jail, or a bad
 * option (reported). */
static int read_options(int argc, char **argv, struct replay_ctx *c, struct replay_args *a)
{
	static const struct option opts[] = {
		{"dry-run", no_argument, NULL, 'n'},
		{"json", no_argument, NULL, O_JSON},
		{"output", required_argument, NULL, 'o'},
		{"jsonl", no_argument, NULL, O_JSONL},
		{"max-bytes", required_argument, NULL, O_MAXB},
		{"max-seconds", required_argument, NULL, O_MAXS},
		{"max-total-bytes", required_argument, NULL, O_TOTB},
		{"max-total-seconds", required_argument, NULL, O_TOTS},
		{"scratch", required_argument, NULL, O_SCRATCH},
		{"keep", no_argument, NULL, O_KEEP},
		{"no-sandbox", no_argument, NULL, O_NOSB},
		{"no-zpool", no_argument, NULL, O_NOZPOOL},
		{"zpool-jail", required_argument, NULL, O_ZJAIL},
		{"tools", required_argument, NULL, O_TOOLS},
		{"chart", required_argument, NULL, O_CHART},
		{"chart-data", required_argument, NULL, O_CHARTDATA},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":no:qh", opts, NULL)) != -1) {
		switch (ch) {
		case 'n': c->dry = true; break;
		case O_JSON: c->json = true; break;
		case 'o': a->output = optarg; break;
		case O_JSONL: c->jsonl = true; break;
		case O_MAXB:
		case O_MAXS:
		case O_TOTB:
		case O_TOTS:
			if (read_budget(ch, optarg, c, a) < 0)
				return EXIT_USAGE;
			break;
		case O_SCRATCH: c->scratch_parent = optarg; break;
		case O_KEEP: a->keep = true; break;
		case O_NOSB: c->opts.no_sandbox = true; break;
		case O_NOZPOOL: c->opts.no_zpool = true; break;
		case O_ZJAIL: return zpool_jail(optarg);
		case O_TOOLS: a->tools = optarg; break;
		case O_CHART: a->chart = optarg; break;
		case O_CHARTDATA: a->chart_data = optarg; break;
		case 'q': c->quiet = true; break;
		case 'h': help(); return EXIT_OK;
		default: return cli_bad_option("replay", ch, argv);
		}
	}
	return -1;
}

/* The replay's options that follow from the arguments: files kept, the
 * whole replay's budget, where the tools are (`tools_dir`), Ctrl-C, and
 * progress on stderr unless dry or quiet. Says when bwrap cannot run. */
static void start(struct replay_ctx *c, bool keep, const char *tools_dir)
{
	c->opts.keep_files = keep;
	c->opts.total = &c->total;
	c->opts.tools_dir = tools_dir;
	c->opts.interrupted = &interrupted;
	if (!c->dry && !c->opts.no_sandbox && bl_sandbox_probe(NULL) == BL_SANDBOX_UNUSABLE)
		fprintf(stderr,
			"benchlog: bwrap is installed but cannot make its namespaces on this "
			"machine: tools run without the sandbox (their paths are still confined "
			"to the scratch directory)\n");
	c->tty = isatty(STDERR_FILENO);
	if (!c->quiet && !c->dry) {
		c->opts.progress = progress;
		c->opts.progress_ctx = c;
	}
}

/* SIGINT and SIGTERM stop the replay (their former actions into old[0]
 * and old[1]); SIGPIPE is ignored. */
static void catch_signals(struct sigaction old[2])
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old[0]);
	sigaction(SIGTERM, &sa, &old[1]);
	/* a closed pipe on stdout or stderr ("| head") must not kill the
	 * process before it removes the scratch directory */
	signal(SIGPIPE, SIG_IGN);
}

/* The output (-o, else stdout) and the --chart-data file (not in dry
 * runs) opened, to be committed at the end. Returns 0, or -1 (said). */
static int open_outputs(struct replay_ctx *c, const struct replay_args *a, struct cli_out *out,
			struct cli_out *chart_out)
{
	memset(chart_out, 0, sizeof *chart_out);
	if (cli_out_open(out, a->output) < 0)
		return -1;
	c->out = out->f;
	if (a->chart_data && !c->dry) {
		if (cli_out_open(chart_out, a->chart_data) < 0) {
			cli_out_abort(out);
			return -1;
		}
		c->chart = chart_out->f;
	}
	return 0;
}

/* Each of the n INPUTs replayed: a post, or benchlog/1 documents; none
 * after Ctrl-C. Returns EXIT_DATA when one could not be read or
 * replayed, else EXIT_OK. */
static int replay_inputs(struct replay_ctx *c, char **paths, int n)
{
	int rc = EXIT_OK;
	for (int i = 0; i < n && !interrupted; i++) {
		char *data;
		size_t len;
		c->path = strcmp(paths[i], "-") == 0 ? "<stdin>" : paths[i];
		if (cli_read_file(paths[i], &data, &len) < 0) {
			cli_error("%s: %s", c->path, strerror(errno));
			rc = EXIT_DATA;
			continue;
		}
		int r = is_document(data, len)
				? each_json(c, data, len)
				: bl_ingest_buffer(bl_parser_ingest(), data, len, each_message, c);
		free(data);
		if (r != 0)
			rc = EXIT_DATA;
	}
	return rc;
}

/* The scratch directory, if one was made: removed, or kept (--keep). */
static void end_scratch(struct replay_ctx *c, bool keep)
{
	if (!c->scratch_root)
		return;
	if (keep) {
		if (!c->quiet)
			fprintf(stderr, "benchlog: scratch directory kept: %s\n", c->scratch_root);
	} else {
		if (bl_rmtree(c->scratch_root) < 0)
			cli_error("%s: could not remove all of it: %s", c->scratch_root,
				  strerror(errno));
	}
	free(c->scratch_root);
}

/* The outputs committed, or dropped after a write error; --chart drawn
 * in format `chart_fmt`; why the replay did not finish said on stderr.
 * Returns the exit status, EXIT_DATA or `rc`. */
static int finish(struct replay_ctx *c, const struct replay_args *a, struct cli_out *out,
		  struct cli_out *chart_out, int chart_fmt, int rc)
{
	if (c->write_failed == WRITE_PIPE_CLOSED && !a->output) {
		/* `replay -n --json | head`: the reader has what it wanted */
		cli_out_abort(out);
		if (c->chart)
			cli_out_abort(chart_out);
		return rc;
	}
	if (c->write_failed) {
		cli_error("%s: write error", a->output ? a->output : "standard output");
		cli_out_abort(out);
		if (c->chart)
			cli_out_abort(chart_out);
		return EXIT_DATA;
	}
	if (c->chart && cli_out_commit(chart_out) < 0)
		rc = EXIT_DATA;
	if (c->chart_docs) {
		if (write_chart(c->chart_docs, (enum bl_format)chart_fmt, a->chart) < 0)
			rc = EXIT_DATA;
		json_decref(c->chart_docs);
	}
	if (cli_out_commit(out) < 0)
		return EXIT_DATA;
	if (interrupted) {
		cli_error("interrupted: the runs that finished are in the output");
		rc = EXIT_DATA;
	}
	if (c->total.spent[0]) {
		cli_error(
			"replay stopped: %s; %zu run%s done, %zu not run (listed as not-run in the "
			"output)",
			c->total.spent, c->total.done, c->total.done == 1 ? "" : "s",
			c->total.not_run);
		rc = EXIT_DATA;
	}
	if (c->failed)
		rc = EXIT_DATA;
	return rc;
}

int cmd_replay(int argc, char **argv)
{
	struct replay_ctx c;
	struct replay_args a;
	memset(&c, 0, sizeof c);
	memset(&a, 0, sizeof a);
	int r = read_options(argc, argv, &c, &a);
	if (r >= 0)
		return r;
	if (optind >= argc) {
		cli_error("replay: no input (benchlog replay --help)");
		return EXIT_USAGE;
	}
	int chart_fmt = -1;
	if (a.chart && !c.dry) {
		if ((chart_fmt = bl_format_from_path(a.chart)) < 0) {
			cli_error(
				"--chart: cannot tell the format of '%s': name it .png, .svg or .pdf",
				a.chart);
			return EXIT_USAGE;
		}
		if (!(c.chart_docs = json_array()))
			return EXIT_DATA;
	}
	if (budgets(&c, a.total_bytes_set, a.total_seconds_set) < 0)
		return EXIT_USAGE;
	char *tools_default = a.tools ? NULL : default_tools_dir();
	start(&c, a.keep, a.tools ? a.tools : tools_default);
	struct sigaction old[2];
	catch_signals(old);

	struct cli_out out, chart_out;
	if (open_outputs(&c, &a, &out, &chart_out) < 0) {
		free(tools_default);
		return EXIT_DATA;
	}
	int rc = replay_inputs(&c, argv + optind, argc - optind);
	end_scratch(&c, a.keep);
	free(tools_default);
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
	return finish(&c, &a, &out, &chart_out, chart_fmt, rc);
}
