/* cmd_parse.c - `benchlog parse`: inputs to benchlog/1 documents. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../parsers/benchlog.h"
#include "cli.h"
#include "cuts.h"
#include "jobs.h"

static void help(void)
{
	puts("usage: benchlog parse [options] [FILE...]\n\n"
	     "Finds benchmark runs in each input (stdin when no FILE or '-') and\n"
	     "writes one benchlog/1 JSON document per input message.\n\n"
	     "options:\n"
	     "  -o, --output FILE  write to FILE (atomically: a temporary file renamed)\n"
	     "      --jsonl        one compact document per line (JSON Lines)\n"
	     "      --runs         one run per line, each with its source path, message\n"
	     "                     index and message id (for jq, pandas, DuckDB, Spark)\n"
	     "      --pretty       indented: the documents (the default) or, with --runs,\n"
	     "                     each run\n"
	     "      --objects      every result an object, as in the schema's \"results\";\n"
	     "                     without it a zpool iostat run lists its samples as\n"
	     "                     \"rows\", one a table line (a sixth of the size)\n"
	     "  -j, --jobs N       parse in N processes (0: one per processor); inputs,\n"
	     "                     and the pieces of an mbox cut at its messages, are\n"
	     "                     run at once and their documents written in order:\n"
	     "                     the output is the serial run's, byte for byte\n"
	     "  -q, --quiet        do not print diagnostics on stderr\n"
	     "      --strict       exit 1 when a document has an error diagnostic\n"
	     "      --input-format auto|text|mbox|eml|html|qp\n"
	     "                     what the input is (default auto: detected from its\n"
	     "                     first bytes; an mbox is streamed message by message)\n"
	     "  -h, --help         this help\n\n"
	     "Diagnostics go to stderr as 'file:line: level: message [code]'.\n"
	     "exit status: 0 ok, 1 an input could not be read (or --strict and an\n"
	     "error), 2 usage.");
}

struct parse_ctx {
	FILE *out;
	const char *path;
	bool jsonl, quiet;
	bool runs, pretty, objects;
	struct cli_runs *cut; /* --runs: the documents cut into runs as written */
	size_t errors;
	size_t nruns; /* in the documents of the current input */
	int write_failed;
	struct bl_window_doc *windows; /* the document of a windowed input */
};

/* Diagnostics by line, then in the order found (qsort is not stable). */
struct diag_at {
	json_int_t line;
	size_t i;
	json_t *d;
};

static int cmp_diag(const void *a, const void *b)
{
	const struct diag_at *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Counts the errors of a document and prints its diagnostics on stderr
 * in line order, as a compiler would ("file:line: level: message [code]"),
 * whatever order the parsers found them in. */
static void report(struct parse_ctx *c, json_t *doc)
{
	json_t *diags = json_object_get(doc, "diagnostics");
	size_t n = json_array_size(diags), i;
	json_t *d;
	struct diag_at *v = n ? malloc(n * sizeof *v) : NULL;
	json_array_foreach(diags, i, d)
	{
		const char *level = json_string_value(json_object_get(d, "level"));
		if (level && strcmp(level, "error") == 0)
			c->errors++;
		if (v)
			v[i] = (struct diag_at){json_integer_value(json_object_get(d, "line")), i,
						d};
	}
	if (c->quiet || !v) {
		free(v);
		return;
	}
	qsort(v, n, sizeof *v, cmp_diag);
	for (i = 0; i < n; i++) {
		const char *level = json_string_value(json_object_get(v[i].d, "level"));
		fprintf(stderr, "%s:%lld: %s: %s [%s]\n", c->path, (long long)v[i].line,
			level ? level : "?", json_string_value(json_object_get(v[i].d, "message")),
			json_string_value(json_object_get(v[i].d, "code")));
	}
	free(v);
}

static int write_out(const char *buf, size_t n, void *vctx)
{
	struct parse_ctx *c = vctx;
	if (c->cut) {
		if (cli_runs_feed(c->cut, c->out, buf, n) == 0)
			return 0;
		c->write_failed = 1;
		return -1;
	}
	if (fwrite(buf, 1, n, c->out) != n) {
		c->write_failed = 1;
		return -1;
	}
	return 0;
}

static int each_message(struct bl_message *m, void *vctx)
{
	struct parse_ctx *c = vctx;
	size_t flags = JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) |
		       (c->jsonl || c->runs ? JSON_COMPACT : JSON_INDENT(2)) |
		       (c->objects ? BL_WRITE_OBJECTS : 0);
	/* written run by run: a message with a million runs is never one
	 * JSON tree in memory */
	json_t *tail;
	if (bl_parse_message_or_window(&c->windows, m, c->path, flags, write_out, c, &tail) < 0)
		return c->write_failed ? 0 : -1;
	if (!tail)
		return 0; /* a window before the last */
	report(c, tail);
	c->nruns += (size_t)json_integer_value(json_object_get(tail, "runs_written"));
	json_decref(tail);
	if (c->cut)
		return 0;
	if (fputc('\n', c->out) == EOF)
		c->write_failed = 1;
	return 0;
}

/* What a task ended with (cli_jobs_run ORs them). */
enum { TASK_DATA = 1, TASK_ERRORS = 2, TASK_WRITE_FAILED = 4 };

/* One input, or one piece of an mbox input: from the message start
 * `at` to the first message at or after `target` (the last piece: to the
 * end). A piece's start is found when it is readied (prepare_task), from
 * the start and the target of the piece before it; where it ends is
 * found by its worker, reading. */
struct task {
	const char *file; /* as given; "-" is stdin */
	bool piece, first, last; /* the input's first and last piece */
	struct bl_mbox_cut at;
	size_t target, size;
};

/* Parses one task's input into c->out: TASK_* flags. */
static int run_task(struct parse_ctx *c, const struct task *t, enum bl_input_format fmt)
{
	c->path = strcmp(t->file, "-") == 0 ? "<stdin>" : t->file;
	if (c->cut)
		cli_runs_restart(c->cut);
	size_t errors = c->errors;
	c->nruns = 0;
	int status = 0;
	int fd = cli_open_input(t->file);
	if (fd >= 0 && t->piece && lseek(fd, (off_t)t->at.offset, SEEK_SET) < 0) {
		cli_close_input(fd);
		fd = -1;
	}
	if (fd < 0) {
		cli_error("%s: %s", c->path, strerror(errno));
		return TASK_DATA;
	}
	int r;
	errno = 0;
	if (t->piece) {
		size_t until = t->last ? SIZE_MAX : t->target;
		r = bl_ingest_mbox_piece(bl_parser_ingest(), cli_read_chunk, &fd, &t->at, until,
					 each_message, c);
	} else {
		/* streamed: an mbox is never held whole in memory */
		r = bl_ingest_stream(bl_parser_ingest(), cli_read_chunk, &fd, fmt, each_message, c);
	}
	int e = errno;
	cli_close_input(fd);
	/* a read error or a failure between windows: no document */
	bl_window_doc_free(c->windows);
	c->windows = NULL;
	if (r == -2) {
		cli_error("%s: %s", c->path, strerror(e));
		status |= TASK_DATA;
	} else if (r != 0) {
		cli_failed_between(c->path, e);
		status |= TASK_DATA;
	}
	if (c->errors > errors)
		status |= TASK_ERRORS;
	/* a whole input without a run says so (a piece of an mbox may be all
	 * prose while the rest is not) */
	if (r == 0 && !t->piece && c->nruns == 0 && !c->quiet && !c->write_failed)
		fprintf(stderr,
			"%s: no benchmark output found (benchlog list shows what it reads)\n",
			c->path);
	if (c->write_failed)
		status |= TASK_WRITE_FAILED;
	return status;
}

/* The tasks of a parallel run. */
struct plan {
	char **files;
	size_t nfiles;
	enum bl_input_format fmt;
	struct parse_ctx *ctx;
	struct task *tasks;
	size_t ntasks, cap;
};

/* A piece of an mbox is worth its own process from this size on: a
 * process compiles its patterns and builds its tables again, about 45 M
 * instructions (12 ms), a few percent of a 4 MB piece's time. */
#define PIECE_MIN ((size_t)4 << 20)
/* Pieces per job. Each piece costs a process and a pause in the parent
 * while it finds where the piece ends; the sizes fall piece by piece (4
 * pieces of 2 jobs: 40, 30, 20 and 10% of the input), so that the last
 * ones are short and no process waits long for the others at the end,
 * even where the benchmarks gather in one part of an archive. */
#define PIECES_PER_JOB 2

/* Where piece k of n ends, the weight of a piece falling from n to 1. */
static size_t piece_target(size_t size, size_t k, size_t n)
{
	/* the weights of pieces 0..k: n + (n - 1) + ... + (n - k) */
	double done = (double)(k + 1) * (double)(2 * n - k) / 2,
	       all = (double)n * (double)(n + 1) / 2;
	return k + 1 == n ? size : (size_t)((double)size * (done / all));
}

static int add_task(struct plan *p, struct task t)
{
	if (p->ntasks == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct task *n = realloc(p->tasks, cap * sizeof *n);
		if (!n)
			return -1;
		p->tasks = n;
		p->cap = cap;
	}
	p->tasks[p->ntasks++] = t;
	return 0;
}

/* Whether file is an mbox of at least two pieces: a regular file whose
 * first bytes (as many as a streamed reading looks at) say so. */
static bool splittable(const char *file, enum bl_input_format fmt, unsigned jobs, size_t *size)
{
	if (jobs < 2 || strcmp(file, "-") == 0 || (fmt != BL_INPUT_AUTO && fmt != BL_INPUT_MBOX))
		return false;
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size >= 2 * PIECE_MIN;
	if (ok && fmt == BL_INPUT_AUTO) {
		static char head[1 << 16];
		ssize_t n = pread(fd, head, sizeof head, 0);
		ok = n > 0 && bl_detect_format(head, (size_t)n) == BL_INPUT_MBOX;
	}
	close(fd);
	*size = ok ? (size_t)st.st_size : 0;
	return ok;
}

/* Plans each large mbox as pieces, falling in size (each a task);
 * every other input is one task. -1 after a message. */
static int make_plan(struct plan *p, unsigned jobs)
{
	for (size_t i = 0; i < p->nfiles; i++) {
		const char *file = p->files[i];
		size_t size;
		if (!splittable(file, p->fmt, jobs, &size)) {
			if (add_task(p, (struct task){.file = file}) < 0)
				goto oom;
			continue;
		}
		size_t n = size / PIECE_MIN, most = (size_t)jobs * PIECES_PER_JOB;
		if (n > most)
			n = most;
		for (size_t k = 0; k < n; k++) {
			struct task t = {.file = file,
					 .piece = true,
					 .first = k == 0,
					 .last = k + 1 == n,
					 .at = bl_mbox_start,
					 .target = piece_target(size, k, n),
					 .size = size};
			if (add_task(p, t) < 0)
				goto oom;
		}
	}
	return 0;
oom:
	cli_error("parse: out of memory");
	free(p->tasks);
	p->tasks = NULL;
	return -1;
}

/* Readies task i (cli_prepare_fn): a piece of an mbox starts at the
 * first message at or after the target of the piece before it, found by
 * framing the input from that piece's start while it is read. The first
 * piece starts at once. */
static int prepare_task(size_t i, void *arg)
{
	struct plan *p = arg;
	struct task *t = &p->tasks[i];
	if (!t->piece || t->first)
		return 0;
	const struct task *before = t - 1;
	t->at = before->at;
	if (before->at.offset < before->target) {
		int r = cli_find_cut(t->file, &before->at, before->target, t->size, &t->at);
		if (r == -1) {
			cli_error("parse: out of memory");
			return -1;
		}
		if (r < 0) {
			cli_error("%s: %s", t->file, strerror(errno));
			return -1;
		}
	}
	if (t->at.offset >= t->size)
		return CLI_TASK_SKIP; /* the pieces before reached the end */
	/* a message that spans this piece's target leaves it empty */
	return t->last || t->at.offset < t->target ? 0 : CLI_TASK_SKIP;
}

static int job_task(size_t i, FILE *out, void *arg)
{
	struct plan *p = arg;
	struct parse_ctx c = *p->ctx;
	c.out = out;
	return run_task(&c, &p->tasks[i], p->fmt);
}

/* What `benchlog parse` was asked for. */
struct parse_args {
	const char *output; /* NULL: standard output */
	unsigned jobs;
	bool jsonl, quiet, strict, runs, pretty, objects;
	enum bl_input_format fmt;
};

/* The options into a, optind left on the first FILE. Returns -1 to go on,
 * or the exit status: after --help, or a bad option (reported). */
static int read_options(int argc, char **argv, struct parse_args *a)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"jsonl", no_argument, NULL, 'L'},
		{"runs", no_argument, NULL, 'R'},
		{"pretty", no_argument, NULL, 'P'},
		{"objects", no_argument, NULL, 'O'},
		{"jobs", required_argument, NULL, 'j'},
		{"quiet", no_argument, NULL, 'q'},
		{"strict", no_argument, NULL, 's'},
		{"input-format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":o:j:qh", opts, NULL)) != -1) {
		switch (ch) {
		case 'o': a->output = optarg; break;
		case 'L': a->jsonl = true; break;
		case 'R': a->runs = true; break;
		case 'P': a->pretty = true; break;
		case 'O': a->objects = true; break;
		case 'j': {
			char *end;
			errno = 0;
			unsigned long n = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-' || n > 1024) {
				cli_error("parse: --jobs takes a number from 0 to 1024, not '%s'",
					  optarg);
				return EXIT_USAGE;
			}
			a->jobs = n ? (unsigned)n : cli_jobs_cpus();
			break;
		}
		case 'q': a->quiet = true; break;
		case 's': a->strict = true; break;
		case 'f':
			if (!bl_input_format_parse(optarg, &a->fmt)) {
				cli_error(
					"parse: unknown input format '%s' (auto, text, mbox, eml, html, qp)",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h': help(); return EXIT_OK;
		default: return cli_bad_option("parse", ch, argv);
		}
	}
	if (a->jsonl && (a->runs || a->pretty)) {
		cli_error("parse: --jsonl writes whole documents on a line each; --runs writes "
			  "runs, --pretty indents");
		return EXIT_USAGE;
	}
	return -1;
}

int cmd_parse(int argc, char **argv)
{
	struct parse_args a = {.jobs = 1, .fmt = BL_INPUT_AUTO};
	int r = read_options(argc, argv, &a);
	if (r >= 0)
		return r;
	char *stdin_only[] = {"-"};
	char **files = optind < argc ? argv + optind : stdin_only;
	int nfiles = optind < argc ? argc - optind : 1;

	/* documents to a pipe or a file in 64 KB writes, not stdio's 4 KB:
	 * an archive's are written in a thousand calls where they took ten
	 * thousand (nothing has been written to stdout yet) */
	static char stdout_buf[1 << 16]; /* glibc sizes its own by the file */
	if ((!a.output || strcmp(a.output, "-") == 0) && !isatty(STDOUT_FILENO))
		setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
	struct cli_out out;
	if (cli_out_open(&out, a.output) < 0)
		return EXIT_DATA;
	struct cli_runs *cut = NULL;
	if (a.runs && !(cut = cli_runs_new(a.pretty))) {
		cli_error("parse: out of memory");
		cli_out_abort(&out);
		return EXIT_DATA;
	}
	struct parse_ctx ctx = {.out = out.f,
				.jsonl = a.jsonl,
				.quiet = a.quiet,
				.runs = a.runs,
				.pretty = a.pretty,
				.objects = a.objects,
				.cut = cut};
	struct plan plan = {.files = files, .nfiles = (size_t)nfiles, .fmt = a.fmt, .ctx = &ctx};
	int status = 0;
	if (a.jobs == 1) {
		for (size_t i = 0; i < plan.nfiles; i++) {
			struct task t = {.file = files[i]};
			status |= run_task(&ctx, &t, a.fmt);
		}
	} else {
		if (make_plan(&plan, a.jobs) < 0) {
			cli_out_abort(&out);
			return EXIT_DATA;
		}
		status = cli_jobs_run(plan.ntasks, a.jobs, job_task, prepare_task, &plan, out.f);
		free(plan.tasks);
		if (status & CLI_JOB_FAILED) {
			cli_error("%s: not written: a worker failed",
				  a.output ? a.output : "standard output");
			cli_runs_free(cut);
			cli_out_abort(&out);
			return EXIT_DATA;
		}
		if (status & TASK_ERRORS)
			ctx.errors++;
	}
	if (status & TASK_WRITE_FAILED)
		ctx.write_failed = 1;
	cli_runs_free(cut);
	int rc = status & TASK_DATA ? EXIT_DATA : EXIT_OK;
	if (ctx.write_failed) {
		cli_error("%s: write error", a.output ? a.output : "standard output");
		cli_out_abort(&out);
		return EXIT_DATA;
	}
	/* every input failed: -o's target keeps what it held */
	if (rc == EXIT_DATA && out.tmp && fflush(out.f) == 0 && ftello(out.f) == 0) {
		cli_error("%s: not written: no input was read", a.output);
		cli_out_abort(&out);
		return EXIT_DATA;
	}
	if (cli_out_commit(&out) < 0)
		return EXIT_DATA;
	if (a.strict && ctx.errors)
		rc = EXIT_DATA;
	return rc;
}
