/* test_doc_split.c - a document's text taken apart as it is written
 * (cli/doc_split.c): fed in pieces of every size, its runs come out one by
 * one, and they and the rest make the document again. */
#include <jansson.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/doc_split.c"
#include "../../base/mapped.h"
#include "check.h"

struct got {
	json_t *runs;
	int bad;
};

static int on_run(const char *text, size_t n, void *ctx)
{
	struct got *g = ctx;
	json_error_t e;
	json_t *run = json_loadb(text, n, 0, &e);
	if (!run) {
		g->bad++;
		return -1;
	}
	return json_array_append_new(g->runs, run);
}

/* The document the split gives back: its rest with the runs put in. */
static json_t *rejoined(struct cli_doc_split *s, struct got *g)
{
	json_error_t e;
	json_t *doc = json_loadb(s->rest.p ? s->rest.p : "", s->rest.n, 0, &e);
	json_t *runs = json_object_get(doc, "runs");
	if (!doc || !json_is_array(runs) || json_array_size(runs) != 0) {
		json_decref(doc);
		return NULL;
	}
	json_object_set(doc, "runs", g->runs);
	return doc;
}

/* text fed in pieces of `step` bytes gives back the document, its runs
 * one at a time. */
static void split_in_steps(const char *name, const char *text, size_t nruns)
{
	json_t *want = json_loads(text, 0, NULL);
	CHECK(want != NULL);
	struct cli_doc_split s = {.on_run = on_run};
	size_t len = strlen(text);
	for (size_t step = 1; step <= len; step++) {
		struct got g = {json_array(), 0};
		s.ctx = &g;
		int rc = 0;
		for (size_t at = 0; at < len && rc == 0; at += step)
			rc = cli_doc_split_put(&s, text + at, at + step < len ? step : len - at);
		json_t *doc = rejoined(&s, &g);
		if (rc != 0 || g.bad || !doc || !json_equal(doc, want) ||
		    json_array_size(g.runs) != nruns || s.depth != 0) {
			fprintf(stderr, "%s, in steps of %zu: rc %d, %zu runs\n", name, step, rc,
				json_array_size(g.runs));
			CHECK(0);
			json_decref(doc);
			json_decref(g.runs);
			break;
		}
		json_decref(doc);
		json_decref(g.runs);
		cli_doc_split_reset(&s);
	}
	cli_doc_split_free(&s);
	json_decref(want);
}

/* "runs" only as the outermost object's member: not a run's param, not
 * a string, not a key of "source". */
static void test_runs_member_only(void)
{
	split_in_steps("nested runs",
		       "{\"schema\":\"benchlog/1\",\"source\":{\"runs\":[1,2],\"path\":\"runs\"},"
		       "\"runs\":[{\"tool\":\"dd\",\"params\":{\"runs\":[{\"a\":1}]}},"
		       "{\"tool\":\"dd\",\"label\":\"\\\"runs\\\":[\"}],"
		       "\"diagnostics\":[{\"run\":1}],\"note\":\"runs\"}",
		       2);
	split_in_steps("a key ending in runs",
		       "{\"x\\\"runs\":[1,{\"a\":2}],\"runs\":[{\"tool\":\"dd\"}]}", 1);
}

/* Braces and brackets in strings, escaped quotes and backslashes. */
static void test_strings(void)
{
	split_in_steps("strings",
		       "{\"runs\":[{\"command\":\"dd if=/dev/zero of=x bs=1M } ] { [\","
		       "\"label\":\"a \\\\\\\"quoted\\\\\\\" {\"},"
		       "{\"command\":\"echo \\\\\",\"results\":[{\"metric\":\"m\",\"value\":1}]}],"
		       "\"partial\":false}",
		       2);
	split_in_steps("an escaped quote", "{\"runs\":[{\"label\":\"\\\"}\"}],\"x\":1}", 1);
}

/* As a person writes it: blanks everywhere, "runs" last, no runs. */
static void test_blanks(void)
{
	split_in_steps(
		"blanks",
		"{\n  \"schema\" : \"benchlog/1\",\n  \"runs\" :\n  [\n    {\n      \"tool\": "
		"\"iozone\",\n      \"rows\": [ [0, 1], {\"shape\": 0} ]\n    } ,\n    { "
		"\"tool\" : \"dd\" }\n  ]\n}\n",
		2);
	split_in_steps("no runs", "{\"schema\":\"benchlog/1\",\"runs\":[],\"diagnostics\":[]}", 0);
}

/* The split takes one document after another, once reset. */
static void test_reset(void)
{
	struct got g = {json_array(), 0};
	struct cli_doc_split s = {.on_run = on_run, .ctx = &g};
	const char *a = "{\"runs\":[{\"tool\":\"dd\"}],\"x\":1}";
	const char *b = "{\"runs\":[{\"tool\":\"bonnie\"},{\"tool\":\"dd\"}],\"x\":2}";
	CHECK(cli_doc_split_put(&s, a, strlen(a)) == 0);
	CHECK(json_array_size(g.runs) == 1);
	cli_doc_split_reset(&s);
	CHECK(cli_doc_split_put(&s, b, strlen(b)) == 0);
	CHECK(json_array_size(g.runs) == 3);
	CHECK(strcmp(s.rest.p, "{\"runs\":[],\"x\":2}") == 0);
	cli_doc_split_free(&s);
	json_decref(g.runs);
}

/* Fed a stream of documents in pieces of every size, the split stops
 * after each one's closing brace: the bytes after it are the next's
 * (a brace in a string is text). */
static void test_feed_stops_at_end(void)
{
	const char *text = "{\"runs\":[{\"tool\":\"dd\",\"c\":\"}\"}],\"x\":1}\n"
			   "{\"runs\":[{\"tool\":\"bonnie\"},{\"tool\":\"dd\"}],\"x\":2}";
	const char *rests[] = {"{\"runs\":[],\"x\":1}", "{\"runs\":[],\"x\":2}"};
	size_t len = strlen(text);
	for (size_t step = 1; step <= len; step++) {
		struct got g = {json_array(), 0};
		struct cli_doc_split s = {.on_run = on_run, .ctx = &g};
		size_t docs = 0, at = 0;
		bool ok = true;
		while (at < len && ok) {
			size_t n = len - at < step ? len - at : step;
			long used = cli_doc_split_feed(&s, text + at, n);
			ok = used >= 0 && (size_t)used <= n && (used == (long)n || s.ended);
			at += used > 0 ? (size_t)used : n;
			if (ok && s.ended) {
				ok = docs < 2 && strcmp(s.rest.p, rests[docs]) == 0;
				docs++;
				cli_doc_split_reset(&s);
				while (at < len && text[at] == '\n')
					at++;
			}
		}
		CHECK(ok && docs == 2 && json_array_size(g.runs) == 3 && !g.bad);
		cli_doc_split_free(&s);
		json_decref(g.runs);
	}
}

static int refuse(const char *text, size_t n, void *ctx)
{
	(void)text;
	(void)n;
	(void)ctx;
	return -1;
}

static int refuse_not(const char *text, size_t n, void *ctx)
{
	(void)text;
	(void)n;
	(void)ctx;
	return 0;
}

/* A run refused, a closing brace too many, a run that is not an
 * object, or a second "runs": the split stops. */
static void test_failures(void)
{
	struct cli_doc_split s = {.on_run = refuse};
	const char *a = "{\"runs\":[{\"tool\":\"dd\"},{\"tool\":\"dd\"}]}";
	CHECK(cli_doc_split_put(&s, a, strlen(a)) == -1);
	CHECK(cli_doc_split_put(&s, "{", 1) == -1);
	cli_doc_split_reset(&s);
	CHECK(cli_doc_split_put(&s, "{}}", 3) == -1);
	/* a run that is not an object */
	const char *scalars[] = {"{\"runs\":[1]}", "{\"runs\":[{},\"x\"]}", "{\"runs\":[[]]}",
				 "{\"runs\":[null,{}]}"};
	for (size_t i = 0; i < 4; i++) {
		cli_doc_split_reset(&s);
		s.on_run = refuse_not;
		CHECK(cli_doc_split_put(&s, scalars[i], strlen(scalars[i])) == -1);
	}
	/* a second "runs": json_loadb keeps the last, the split would hand
	 * on both; after a reset, one is a document again */
	const char *twice = "{\"runs\":[{}],\"x\":{\"runs\":[]},\"runs\":[{}]}";
	cli_doc_split_reset(&s);
	CHECK(cli_doc_split_put(&s, twice, 28) == 0);
	CHECK(cli_doc_split_put(&s, twice + 28, strlen(twice) - 28) == -1);
	cli_doc_split_reset(&s);
	CHECK(cli_doc_split_put(&s, twice, 28) == 0);
	cli_doc_split_free(&s);
}

/* What a long run's on_run saw: its text whole, and whether it took it. */
struct long_seen {
	struct cli_doc_split *s;
	const char *want[2];
	size_t nwant[2], nruns;
	bool take, same, terminated;
	char *taken;
};

static int check_long(const char *text, size_t n, void *ctx)
{
	struct long_seen *l = ctx;
	size_t i = l->nruns++;
	l->same &= i < 2 && n == l->nwant[i] && memcmp(text, l->want[i], n) == 0;
	l->terminated &= text[n] == '\0';
	if (l->take && n > CLI_SPLIT_RUN_MEM) {
		l->taken = cli_doc_split_take_run(l->s); /* text may move: a copy's fit */
		l->same &= memcmp(l->taken, l->want[i], n) == 0;
	}
	return 0;
}

/* A run of 9 MB (a long zpool stream's one run), between two small
 * ones' worth of text: handed on whole and NUL-terminated through its
 * file, taken or let go; with no directory for a file, or a file that
 * fills, from memory. file: the run goes to a file (else TMPDIR has no
 * room for one); fills: the file takes 6 MB and no more (a full disk). */
static void long_run_once(bool take, bool file, bool fills)
{
	size_t rows = 250000;
	struct bl_buf run = {0};
	bl_buf_put(&run, "{\"tool\":\"zpool-iostat\",\"rows\":[", 31);
	for (size_t i = 0; i < rows; i++) {
		char row[96];
		int k = snprintf(row, sizeof row,
				 "%s[3,\"tank\",\"tank/raidz1/ad%zu\",%zu,[1,\"1\"]]", i ? "," : "",
				 i % 7, i);
		bl_buf_put(&run, row, (size_t)k);
	}
	bl_buf_put(&run, "]}", 2);
	CHECK(run.n > 2 * CLI_SPLIT_RUN_MEM && !run.failed);
	const char *small = "{\"tool\":\"dd\"}";
	struct bl_buf doc = {0};
	bl_buf_put(&doc, "{\"schema\":\"benchlog/1\",\"runs\":[", 31);
	bl_buf_put(&doc, run.p, run.n);
	bl_buf_put(&doc, ",", 1);
	bl_buf_put(&doc, small, strlen(small));
	bl_buf_put(&doc, "],\"partial\":false}", 18);

	char *was = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
	if (!file)
		setenv("TMPDIR", "/nonexistent/dir", 1);
	struct rlimit was_fsize;
	getrlimit(RLIMIT_FSIZE, &was_fsize);
	if (fills) {
		signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails, EFBIG */
		struct rlimit six = {6 << 20, was_fsize.rlim_max};
		setrlimit(RLIMIT_FSIZE, &six);
	}
	struct cli_doc_split s = {.on_run = check_long};
	struct long_seen l = {&s,  {run.p, small}, {run.n, strlen(small)}, 0, take, true, true,
			      NULL};
	s.ctx = &l;
	int rc = 0;
	for (size_t at = 0; at < doc.n && rc == 0; at += 65536)
		rc = cli_doc_split_put(&s, doc.p + at, doc.n - at < 65536 ? doc.n - at : 65536);
	CHECK(rc == 0 && l.nruns == 2 && l.same && l.terminated);
	CHECK(!s.run_in_file && strcmp(s.rest.p, "{\"schema\":\"benchlog/1\",\"runs\":[],"
						 "\"partial\":false}") == 0);
	/* a run taken from its file is a mapping; from memory, not */
	if (fills)
		setrlimit(RLIMIT_FSIZE, &was_fsize);
	if (take) {
		bool mapped = file && !fills;
		CHECK(l.taken != NULL && strlen(l.taken) == run.n);
		CHECK(bl_mapped_free(l.taken) == mapped);
		if (!mapped)
			free(l.taken);
	}
	cli_doc_split_free(&s);
	bl_buf_free(&run);
	bl_buf_free(&doc);
	if (was)
		setenv("TMPDIR", was, 1);
	else
		unsetenv("TMPDIR");
	free(was);
}

static void test_long_run(void)
{
	long_run_once(false, true, false);
	long_run_once(true, true, false);
	long_run_once(true, false, false);
	long_run_once(false, true, true);
	long_run_once(true, true, true);
}

int main(void)
{
	test_long_run();
	test_runs_member_only();
	test_strings();
	test_blanks();
	test_reset();
	test_feed_stops_at_end();
	test_failures();
	return CHECK_DONE();
}
