/* test_window.c - large text inputs read in windows (ingest/window.h):
 * where windows are cut, and that the windows of an input give the runs
 * a reading of the whole input gives: none lost, none twice, offsets and
 * lines those of the input. The corpus cases padded with prose before and
 * after must give their own runs, shifted by the padding. */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../ingest/decode.h"
#include "../../ingest/window.h"
#include "../../parsers/benchlog.h"
#include "../feed.h"
#include "check.h"
#include "slurp.h"
#include "window_docs.h"

static const char PROSE[] =
	"We ran the same test again after the upgrade, and the numbers were close to the "
	"first run. Three disks in a mirror, nothing else on the box.\n";
static const char DD_BSD[] = "srebrny# time dd if=/dev/zero of=/data02/test01 bs=1m count=2000\n"
			     "2000+0 records in\n2000+0 records out\n"
			     "2097152000 bytes transferred in 92.451346 secs (22683845 bytes/sec)\n"
			     "0.068u 10.386s 1:32.46 11.2% 26+1497k 63+16066io 0pf+0w\n";
static const char DD_GNU[] = "$ time dd bs=1M count=64 if=/dev/zero of=/tmp/x/f\n"
			     "64+0 records in\n64+0 records out\n"
			     "67108864 bytes (67 MB, 64 MiB) copied, 0.0153913 s, 4.4 GB/s\n\n"
			     "real\t0m0.020s\nuser\t0m0.000s\nsys\t0m0.019s\n";

/* Windows of a megabyte, for texts of a few: a cut in every one. */
#define MB_WINDOW ((size_t)1 << 20)

/* A dd block with two warnings: its rate and its bytes disagree with its
 * time. Its run's number as the argument. */
#define DD_WARNED                                                                                  \
	"Run %zu:\n$ dd if=/dev/zero of=x bs=1M count=1\n1+0 records in\n1+0 records out\n"        \
	"5 bytes (1.0 MB, 1.0 MiB) copied, 0.01 s, 100 MB/s\n\n"

/* ------------------------------------------------------------ the cuts */

static void test_cut(void)
{
	enum bl_cut k;
	const char *s = "first line\nsecond line\nthird";
	/* the latest line break in [lo, hi) */
	CHECK(bl_window_cut(s, 0, 25, &k) == 23 && k == BL_CUT_LINE);
	CHECK(bl_window_cut(s, 0, 15, &k) == 11 && k == BL_CUT_LINE);
	/* one line: after a sentence, as unflatten.c breaks it */
	const char *t = "it was slow. Then we tried again, ok. and more words here";
	CHECK(bl_window_cut(t, 0, 50, &k) == 13 && k == BL_CUT_SENTENCE);
	/* "2.5 GB" and "ok. and" are no sentence ends */
	const char *u = "rate 2.5 GB and so ok. and on";
	CHECK(bl_window_cut(u, 0, 27, &k) == 27 && k == BL_CUT_BLANK);
	/* inside a run of NUL bytes */
	const char nul[] = "abc\0\0\0\0def";
	CHECK(bl_window_cut(nul, 0, 9, &k) == 6 && k == BL_CUT_NUL);
	/* no safe point: at a character, not inside a UTF-8 sequence */
	const char *w = "abc\xC3\xA9\xC3\xA9xyz";
	CHECK(bl_window_cut(w, 0, 4, &k) == 3 && k == BL_CUT_ANY);
	CHECK(bl_window_cut(w, 0, 5, &k) == 5 && k == BL_CUT_ANY);
}

/* ------------------------------------------------- documents in memory */

static size_t count_nl(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += s[i] == '\n';
	return c;
}

static long long ival(json_t *o, const char *k)
{
	return json_integer_value(json_object_get(o, k));
}

/* Whether run b is run a moved by `off` bytes and `lines` lines. */
static bool same_run_shifted(json_t *a, json_t *b, size_t off, size_t lines)
{
	json_t *sa = json_object_get(a, "span"), *sb = json_object_get(b, "span");
	if (ival(sb, "offset") != ival(sa, "offset") + (long long)off ||
	    ival(sb, "end_offset") != ival(sa, "end_offset") + (long long)off ||
	    ival(sb, "line") != ival(sa, "line") + (long long)lines ||
	    ival(sb, "end_line") != ival(sa, "end_line") + (long long)lines)
		return false;
	json_t *ta = json_object_get(a, "time"), *tb = json_object_get(b, "time");
	if ((ta == NULL) != (tb == NULL))
		return false;
	if (ta && ival(tb, "line") != ival(ta, "line") + (long long)lines)
		return false;
	const char *k;
	json_t *v;
	json_object_foreach(a, k, v)
	{
		if (strcmp(k, "span") == 0 || strcmp(k, "time") == 0)
			continue;
		if (!json_equal(v, json_object_get(b, k)))
			return false;
	}
	if (ta) {
		json_object_foreach(ta, k,
				    v) if (strcmp(k, "line") != 0 &&
					   !json_equal(v, json_object_get(tb, k))) return false;
	}
	return json_object_size(a) == json_object_size(b);
}

static json_t *runs_of(json_t *docs)
{
	return json_object_get(json_array_get(docs, 0), "runs");
}

/* ------------------------------------------ windows against the whole */

/* A text of `n` blocks between paragraphs of prose. */
static char *blocks_text(size_t n, size_t *len)
{
	size_t cap = n * 1200 + 1, l = 0;
	char *s = malloc(cap);
	for (size_t i = 0; i < n; i++) {
		for (size_t p = 0; p < 1 + i % 4; p++)
			l += (size_t)snprintf(s + l, cap - l, "%s", PROSE);
		l += (size_t)snprintf(s + l, cap - l, "\nRun %zu:\n%s\n", i,
				      i % 3 ? DD_BSD : DD_GNU);
	}
	*len = l;
	return s;
}

static void test_windows_like_whole(void)
{
	size_t len;
	char *s = blocks_text(300, &len);
	json_t *whole = parse(s, len, 0, 0, NULL);
	CHECK(json_array_size(whole) == 1);
	json_t *wr = runs_of(whole);
	CHECK(json_array_size(wr) == 300);
	/* windows of several sizes: the cuts fall everywhere in the blocks */
	for (size_t window = 4096; window < 40000; window = window * 3 / 2 + 77) {
		size_t nwin = 0;
		json_t *docs = parse(s, len, window, window / 4, &nwin);
		CHECK(nwin > 2);
		CHECK(json_array_size(docs) == 1); /* one document per input */
		json_t *doc = json_array_get(docs, 0);
		CHECK(json_equal(json_object_get(doc, "runs"), wr));
		CHECK(json_equal(json_object_get(doc, "source"),
				 json_object_get(json_array_get(whole, 0), "source")));
		CHECK(json_is_false(json_object_get(doc, "partial")));
		json_decref(docs);
	}
	json_decref(whole);
	free(s);
}

/* Windows of a megabyte: where the lines near a cut are short, the
 * context on either side of it is 64 KB, not the 256 KB asked for
 * (stream.c, cut_context); where a line of 20 KB is near, it is the full
 * context. Either way the runs are the whole reading's. */
static void test_short_context(void)
{
	size_t cap = (size_t)5 << 20, l = 0;
	char *s = malloc(cap);
	for (size_t k = 0; l + 30000 < cap; k++) {
		l += (size_t)snprintf(s + l, cap - l, "%s\nRun %zu:\n%s\n", PROSE, k,
				      k % 2 ? DD_BSD : DD_GNU);
		/* a GNU time -v report of many fields: a block of 500 bytes */
		l += (size_t)snprintf(s + l, cap - l,
				      "$ /usr/bin/time -v dd if=/dev/zero of=x bs=1M count=%zu\n"
				      "%zu+0 records in\n%zu+0 records out\n"
				      "1048576 bytes (1.0 MB, 1.0 MiB) copied, 0.01 s, 100 MB/s\n"
				      "\tCommand being timed: \"dd if=/dev/zero of=x bs=1M\"\n"
				      "\tUser time (seconds): 0.00\n"
				      "\tSystem time (seconds): 0.01\n"
				      "\tPercent of CPU this job got: 90%%\n"
				      "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:00.01\n"
				      "\tMaximum resident set size (kbytes): 2772\n"
				      "\tExit status: 0\n\n",
				      k, k, k);
		if (k % 2000 == 1000) {
			/* a line of 20 KB of prose, far from a flattened post */
			for (size_t i = 0; i < 20000; i++)
				s[l++] = i % 7 ? 'a' : ' ';
			s[l++] = '\n';
		}
	}
	json_t *whole = parse(s, l, 0, 0, NULL);
	size_t nwin = 0;
	json_t *docs = parse(s, l, MB_WINDOW, MB_WINDOW / 4, &nwin);
	CHECK(nwin >= 5);
	CHECK(json_array_size(runs_of(whole)) > 8000);
	CHECK(json_equal(runs_of(docs), runs_of(whole)));
	CHECK(json_is_false(json_object_get(json_array_get(docs, 0), "partial")));
	json_decref(docs);
	json_decref(whole);
	free(s);
}

/* Runs of one command one after another are one repeat group in every
 * window, not only in the first: a window numbers its groups from 0, and
 * the document's numbers must not take their place. */
static void test_repeat_groups(void)
{
	size_t cap = (size_t)3 << 20, l = 0;
	char *s = malloc(cap);
	for (size_t k = 0; l + 4096 < cap; k++)
		l += (size_t)snprintf(s + l, cap - l, "%s\nRun %zu, twice:\n%s%s\n", PROSE, k,
				      DD_GNU, DD_GNU);
	json_t *whole = parse(s, l, 0, 0, NULL);
	size_t nwin = 0;
	json_t *docs = parse(s, l, MB_WINDOW, MB_WINDOW / 4, &nwin);
	json_t *runs = runs_of(whole);
	size_t n = json_array_size(runs), shared = 0;
	for (size_t i = 1; i < n; i++)
		shared += ival(json_array_get(runs, i), "group") ==
			  ival(json_array_get(runs, i - 1), "group");
	CHECK(nwin >= 3);
	CHECK(n > 8000 && shared == n / 2);
	CHECK(json_equal(runs_of(docs), runs));
	json_decref(docs);
	json_decref(whole);
	free(s);
}

/* Diagnostics past the document's thousand are counted once, by the
 * window that owns them, not again by the one that reads them as its
 * context: the count is a whole reading's. */
static void test_dropped_once(void)
{
	size_t cap = (size_t)3 << 20, l = 0;
	char *s = malloc(cap);
	for (size_t k = 0; l + 4096 < cap; k++)
		l += (size_t)snprintf(s + l, cap - l, DD_WARNED, k);
	json_t *whole = parse(s, l, 0, 0, NULL);
	size_t nwin = 0;
	json_t *docs = parse(s, l, MB_WINDOW, MB_WINDOW / 4, &nwin);
	json_t *w = json_array_get(whole, 0), *d = json_array_get(docs, 0);
	CHECK(nwin >= 3);
	CHECK(ival(w, "diagnostics_dropped") > 10000);
	CHECK(ival(d, "diagnostics_dropped") == ival(w, "diagnostics_dropped"));
	json_decref(docs);
	json_decref(whole);
	free(s);
}

/* A dd run read again as a later snapshot of its transfer takes back its
 * count check, whether the check was kept or, past the document's
 * thousand, dropped: what is dropped counts only what stays said. */
static const char DD_SNAPSHOTS[] =
	"$ dd if=/dev/urandom of=/tmp/x/big bs=1M count=1200 &\n"
	"100+0 records in\n100+0 records out\n"
	"104857600 bytes (105 MB, 100 MiB) copied, 0.334353 s, 314 MB/s\n"
	"386+1 records in\n386+1 records out\n"
	"405708800 bytes (406 MB, 387 MiB) copied, 1.3361 s, 304 MB/s\n"
	"1200+0 records in\n1200+0 records out\n"
	"1258291200 bytes (1.3 GB, 1.2 GiB) copied, 5.77265 s, 218 MB/s\n\n";

/* The diagnostics a reading of s says, kept and dropped. */
static long long said(const char *s, size_t len, size_t window)
{
	json_t *docs = parse(s, len, window, window / 4, NULL);
	json_t *d = json_array_get(docs, 0);
	long long n = (long long)json_array_size(json_object_get(d, "diagnostics")) +
		      ival(d, "diagnostics_dropped");
	json_decref(docs);
	return n;
}

static void test_retracted_not_dropped(void)
{
	size_t cap = (size_t)3 << 20, l = 0, snaps = 0, blocks = 0;
	char *s = malloc(cap);
	/* 3 MB: blocks of two warnings each, then snapshots, alternating */
	for (size_t k = 0; l + 4096 < cap; k++) {
		if (k % 4 == 3) {
			l += (size_t)snprintf(s + l, cap - l, "Snapshots %zu:\n%s", k,
					      DD_SNAPSHOTS);
			snaps++;
			continue;
		}
		blocks++;
		l += (size_t)snprintf(s + l, cap - l, DD_WARNED, k);
	}
	/* the snapshots say nothing once read whole: every block's two
	 * warnings are all that is said */
	long long whole = said(s, l, 0), windows = said(s, l, MB_WINDOW);
	CHECK(snaps > 2000);
	CHECK(whole == 2 * (long long)blocks);
	CHECK(windows == whole);
	free(s);
}

/* A run longer than the context after a cut is kept once, cut, and the
 * document says so. */
static void test_run_cut(void)
{
	size_t cap = 200000, l = 0;
	char *s = malloc(cap);
	/* the block starts at byte 5900, three lines before the first cut
	 * (the last line break before byte 6000), and ends past the 64 bytes
	 * read after 6000 */
	while (l + strlen(PROSE) < 5850)
		l += (size_t)snprintf(s + l, cap - l, "%s", PROSE);
	while (l < 5899)
		s[l++] = 'x';
	s[l++] = '\n';
	/* a GNU time -v report of many fields: one long block */
	l += (size_t)snprintf(s + l, cap - l,
			      "$ /usr/bin/time -v dd if=/dev/zero of=x bs=1M count=1\n"
			      "1+0 records in\n1+0 records out\n"
			      "1048576 bytes (1.0 MB, 1.0 MiB) copied, 0.01 s, 100 MB/s\n"
			      "\tCommand being timed: \"dd if=/dev/zero of=x bs=1M count=1\"\n"
			      "\tUser time (seconds): 0.00\n"
			      "\tSystem time (seconds): 0.01\n"
			      "\tPercent of CPU this job got: 90%%\n"
			      "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:00.01\n"
			      "\tMaximum resident set size (kbytes): 2772\n"
			      "\tExit status: 0\n\n");
	while (l < 20000)
		l += (size_t)snprintf(s + l, cap - l, "%s", PROSE);
	json_t *whole = parse(s, l, 0, 0, NULL);
	CHECK(json_array_size(runs_of(whole)) == 1);
	/* a window whose context after the cut ends inside the block */
	size_t nwin;
	json_t *docs = parse(s, l, 6000, 64, &nwin);
	CHECK(nwin >= 3);
	json_t *doc = json_array_get(docs, 0);
	json_t *runs = json_object_get(doc, "runs");
	CHECK(json_array_size(runs) >= 1);
	/* never twice: each later run starts after the one before ends */
	for (size_t i = 1; i < json_array_size(runs); i++)
		CHECK(ival(json_object_get(json_array_get(runs, i), "span"), "offset") >=
		      ival(json_object_get(json_array_get(runs, i - 1), "span"), "end_offset"));
	CHECK(json_is_true(json_object_get(doc, "partial")));
	bool said = false;
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(doc, "diagnostics"), i, d) said |=
		strcmp(json_string_value(json_object_get(d, "code")), "ingest.window-cut-run") ==
			0 &&
		ival(d, "run") == 0;
	CHECK(said);
	json_decref(docs);
	json_decref(whole);
	free(s);
}

/* A post flattened onto one line longer than a window: cut after one of
 * the unflattener's breaks, re-broken by each window as by a reading of
 * the whole. (Lines of a megabyte or more, which unflatten.c reads
 * differently, need windows of megabytes: the 100 MB line of
 * tests/pathological is checked at full size by hand; see README.) */
static void test_flat_line(void)
{
	char unit[2048];
	int n = snprintf(unit, sizeof unit, "%s%s%s", PROSE, DD_BSD, DD_GNU);
	for (int i = 0; i < n; i++)
		if (unit[i] == '\n')
			unit[i] = ' ';
	size_t len = (size_t)900 << 10, l = 0;
	char *s = malloc(len + 1);
	while (l < len) {
		size_t k = len - l < (size_t)n ? len - l : (size_t)n;
		memcpy(s + l, unit, k);
		l += k;
	}
	json_t *whole = parse(s, len, 0, 0, NULL);
	size_t nwin;
	json_t *docs = parse(s, len, (size_t)256 << 10, (size_t)96 << 10, &nwin);
	CHECK(nwin >= 3);
	json_t *wr = runs_of(whole), *r = runs_of(docs);
	CHECK(json_array_size(wr) > 2000);
	CHECK(json_equal(wr, r));
	json_t *diags = json_object_get(json_array_get(docs, 0), "diagnostics");
	size_t i;
	json_t *d;
	json_array_foreach(diags, i, d) CHECK(strcmp(json_string_value(json_object_get(d, "code")),
						     "ingest.window-rough-cut") != 0);
	json_decref(docs);
	json_decref(whole);
	free(s);
}

/* ----------------------------------------- the corpus, padded with prose */

/* `pre` bytes of prose and a blank line, the input, a blank line and
 * `post` bytes of prose. */
static char *padded(const char *in, size_t n, size_t pre, size_t post, size_t *len, size_t *pre_len)
{
	size_t pl = strlen(PROSE), cap = pre + post + n + 2 * pl + 8, l = 0;
	char *s = malloc(cap);
	while (l < pre) {
		memcpy(s + l, PROSE, pl);
		l += pl;
	}
	s[l++] = '\n';
	*pre_len = l;
	memcpy(s + l, in, n);
	l += n;
	if (n && in[n - 1] != '\n')
		s[l++] = '\n';
	s[l++] = '\n';
	size_t end = l + post;
	while (l < end) {
		memcpy(s + l, PROSE, pl);
		l += pl;
	}
	*len = l;
	return s;
}

static size_t cases, variants, mismatches, mails, mails_whole;

/* Where the header block of a mail ends (after its empty line), or 0. */
static size_t header_end(const char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (s[i] != '\n')
			continue;
		if (s[i + 1] == '\n')
			return i + 2;
		if (i + 2 < n && s[i + 1] == '\r' && s[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

/* Whether a document lists decoding step `name`. */
static bool decoded_by(json_t *doc, const char *name)
{
	json_t *dec = json_object_get(json_object_get(doc, "source"), "decoding"), *v;
	size_t i;
	json_array_foreach(dec, i, v) if (strcmp(json_string_value(v), name) == 0) return true;
	return false;
}

/* A case of one mail, its body padded with a megabyte of prose before and
 * after, read in windows: its runs, shifted by the padding (a mail of
 * several parts, its first delimiter now past a window, or HTML, is read
 * whole: not compared; nor is a base64 body, which prose around it is
 * not). Multipart mails read part by part: test_parts.c. */
static void check_mail(const char *path, const char *in, size_t n)
{
	json_t *ref = parse(in, n, 0, 0, NULL);
	size_t hl = header_end(in, n);
	if (json_array_size(ref) != 1 || !hl || decoded_by(json_array_get(ref, 0), "base64")) {
		json_decref(ref);
		return;
	}
	size_t len, pre_len, nwin;
	char *body = padded(in + hl, n - hl, (size_t)1 << 20, (size_t)1 << 20, &len, &pre_len);
	char *s = malloc(hl + len);
	memcpy(s, in, hl);
	memcpy(s + hl, body, len);
	free(body);
	json_t *docs = parse(s, hl + len, (size_t)1 << 18, (size_t)1 << 16, &nwin);
	json_t *want = runs_of(ref), *got = runs_of(docs);
	mails++;
	mails_whole += nwin == 0;
	/* read whole, the padding breaks what the body is encoded in */
	bool ok = json_array_size(docs) == 1 && json_array_size(got) == json_array_size(want);
	for (size_t r = 0; nwin && ok && r < json_array_size(want); r++)
		ok = same_run_shifted(json_array_get(want, r), json_array_get(got, r), pre_len,
				      count_nl(s + hl, pre_len));
	ok |= nwin == 0;
	if (!ok) {
		mismatches++;
		printf("%s: body padded by %zu bytes, %zu windows: runs differ (%zu, want %zu)\n",
		       path, pre_len, nwin, json_array_size(got), json_array_size(want));
	}
	CHECK(ok);
	json_decref(docs);
	json_decref(ref);
	free(s);
}

static void check_case(const char *path, bool megabytes)
{
	size_t n;
	char *in = slurp(path, &n);
	enum bl_input_format fmt = in ? bl_detect_format(in, n) : BL_INPUT_TEXT;
	if (in && !megabytes && (fmt == BL_INPUT_EML || fmt == BL_INPUT_MBOX))
		check_mail(path, in, n);
	/* a page, or a mail (above); UTF-16 is read whole, and prose in
	 * UTF-8 around it would make it another text */
	if (!in || fmt != BL_INPUT_TEXT || bl_wide_order(in, n)) {
		free(in);
		return;
	}
	json_t *ref = parse(in, n, 0, 0, NULL);
	json_t *src = json_object_get(json_array_get(ref, 0), "source");
	json_t *dec = json_object_get(src, "decoding");
	bool qp = false;
	size_t i;
	json_t *v;
	json_array_foreach(dec, i, v) qp |= strcmp(json_string_value(v), "quoted-printable") == 0;
	/* a flattened mail's subject is read from the start of the input,
	 * which the padding moves */
	if (json_object_get(src, "message")) {
		json_decref(ref);
		free(in);
		return;
	}
	cases++;
	json_t *want = runs_of(ref);
	/* windows larger than the case, cut at a quarter, a half... of it;
	 * or megabytes of prose on either side of it */
	size_t window = 8192;
	while (window < 4 * n)
		window *= 2;
	for (int k = megabytes ? 4 : 0; k <= 4; k++) {
		if (megabytes && qp)
			break; /* quoted-printable is told from the first window */
		size_t pre = megabytes ? (size_t)3 << 20 : window - (size_t)k * n / 4;
		size_t post = megabytes ? (size_t)3 << 20 : 2 * window;
		size_t w = megabytes ? (size_t)1 << 20 : window;
		size_t len, pre_len, nwin;
		char *s = padded(in, n, pre, post, &len, &pre_len);
		json_t *docs = parse(s, len, w, w / 4, &nwin);
		variants++;
		json_t *got = runs_of(docs);
		bool ok = nwin > 1 && json_array_size(docs) == 1 &&
			  json_array_size(got) == json_array_size(want);
		for (size_t r = 0; ok && r < json_array_size(want); r++)
			ok = same_run_shifted(json_array_get(want, r), json_array_get(got, r),
					      pre_len, count_nl(s, pre_len));
		if (!ok) {
			mismatches++;
			printf("%s: padded by %zu bytes, windows of %zu: runs differ (%zu, want %zu)\n",
			       path, pre_len, w, json_array_size(got), json_array_size(want));
		}
		CHECK(ok);
		json_decref(docs);
		free(s);
	}
	json_decref(ref);
	free(in);
}

/* A `zpool iostat -v` left running, far longer than a window: read in
 * windows it is the one run a whole reading gives, every sample in it,
 * numbered on across the cuts. */
#define ZPOOL_HEAD                                                                                 \
	"               capacity     operations    bandwidth\n"                                    \
	"pool         used  avail   read  write   read  write\n"                                   \
	"----------  -----  -----  -----  -----  -----  -----\n"
static const char *const ZPOOL_ROWS[] = {"tank", "  mirror", "    ad4", "    ad6"};

static char *zpool_stream(size_t samples, size_t *len)
{
	static const char head[] = ZPOOL_HEAD;
	const char *const *rows = ZPOOL_ROWS;
	size_t cap = samples * 600 + 4096, l = 0;
	char *s = malloc(cap);
	l += (size_t)snprintf(s + l, cap - l, "%s\n# zpool iostat -v tank 1\n", PROSE);
	for (size_t i = 0; i < samples; i++) {
		l += (size_t)snprintf(s + l, cap - l, "%s", head);
		for (size_t k = 0; k < 4; k++)
			l += (size_t)snprintf(
				s + l, cap - l, "%-10s  %5s  %5s  %5zu  %5zu  %4zuK  %4zuM\n",
				rows[k], k < 2 ? "1.07T" : "-", k < 2 ? "2.55T" : "-",
				(i * 7 + k) % 1000, (i * 13 + k) % 1000, i % 900, k + i % 50);
		l += (size_t)snprintf(s + l, cap - l,
				      "----------  -----  -----  -----  -----  -----  -----\n\n");
	}
	l += (size_t)snprintf(s + l, cap - l, "^C\n\n%s%s", PROSE, DD_BSD);
	*len = l;
	return s;
}

static void test_long_stream(void)
{
	size_t len;
	char *s = zpool_stream(400, &len);
	json_t *whole = parse(s, len, 0, 0, NULL);
	json_t *wr = runs_of(whole);
	CHECK(json_array_size(wr) == 2);
	CHECK(ival(json_object_get(json_array_get(wr, 0), "params"), "samples") == 400);
	/* handed over to the writer a piece at a time as they were read: all
	 * there, in order, each sample's values its own (the pool's reads of
	 * sample i are i * 7 % 1000) */
	json_t *results = json_object_get(json_array_get(wr, 0), "results");
	CHECK(json_array_size(results) == 400 * 20);
	size_t i, bad = 0, reads = 0;
	json_t *res;
	json_array_foreach(results, i, res)
	{
		bad += ival(res, "sample") != (long long)(i / 20);
		const char *metric = json_string_value(json_object_get(res, "metric"));
		const char *vdev = json_string_value(json_object_get(res, "vdev"));
		if (metric && vdev && strcmp(metric, "read_ops") == 0 &&
		    strcmp(vdev, "tank") == 0) {
			bad += ival(res, "value") != (long long)(i / 20 * 7 % 1000);
			reads++;
		}
	}
	CHECK(bad == 0);
	CHECK(reads == 400);
	for (size_t window = 8192; window < 50000; window = window * 3 / 2 + 77) {
		size_t nwin = 0;
		json_t *docs = parse(s, len, window, window / 4, &nwin);
		CHECK(nwin >= 3);
		json_t *doc = json_array_get(docs, 0);
		CHECK(json_equal(json_object_get(doc, "runs"), wr));
		CHECK(json_is_false(json_object_get(doc, "partial")));
		CHECK(json_array_size(json_object_get(doc, "diagnostics")) == 0);
		json_decref(docs);
	}
	json_decref(whole);
	free(s);
}

/* "Start:", a dd run, `stream` right under it and a dd run right under
 * that: all three under the caption, as a whole reading names them, in
 * windows that cut the stream too (the run after it is read in a window
 * that reads the stream on). */
static void caption_case(const char *name, const char *stream, size_t n)
{
	size_t cap = n + 4096, l = 0;
	char *s = malloc(cap);
	l += (size_t)snprintf(s + l, cap - l, "Start:\n\n%s\n%.*s\n\n%s", DD_GNU, (int)n, stream,
			      DD_BSD);
	json_t *whole = parse(s, l, 0, 0, NULL);
	json_t *wr = runs_of(whole);
	CHECK(json_array_size(wr) == 3); /* dd, zpool, dd */
	size_t i, named = 0;
	json_t *run;
	json_array_foreach(wr, i, run)
	{
		const char *label = json_string_value(json_object_get(run, "label"));
		named += label && strncmp(label, "Start", 5) == 0;
	}
	CHECK(named == json_array_size(wr));
	int differ = 0;
	for (size_t window = 16384; window < 60000; window = window * 3 / 2 + 77) {
		json_t *docs = parse(s, l, window, window / 4, NULL);
		json_t *runs = json_object_get(json_array_get(docs, 0), "runs");
		if (!json_equal(runs, wr) && !differ++) {
			printf("%s in windows of %zu, labels:", name, window);
			json_array_foreach(runs, i, run)
				printf(" '%s'", json_string_value(json_object_get(run, "label")));
			printf("\n");
		}
		json_decref(docs);
	}
	CHECK(differ == 0);
	json_decref(whole);
	free(s);
}

static void test_caption_across_windows(void)
{
	size_t zn;
	char *z = zpool_stream(300, &zn);
	/* the stream without its prose before and its tail after */
	const char *from = strstr(z, "# zpool"), *to = strstr(z, "^C\n");
	caption_case("a stream", from, (size_t)(to - from));
	free(z);
	/* its header once, at the top: later windows read it on (resume) */
	size_t cap = 300 * 4 * 60 + 1024, n = 0;
	char *log = malloc(cap);
	n += (size_t)snprintf(log + n, cap - n, "# zpool iostat -v tank 1\n%s", ZPOOL_HEAD);
	for (size_t i = 0; i < 300; i++)
		for (size_t k = 0; k < 4; k++)
			n += (size_t)snprintf(
				log + n, cap - n, "%-10s  %5s  %5s  %5zu  %5zu  %4zuK  %4zuM\n",
				ZPOOL_ROWS[k], k < 2 ? "1.07T" : "-", k < 2 ? "2.55T" : "-",
				(i * 7 + k) % 1000, i % 900, i % 90, k + i % 50);
	caption_case("a log with its header once", log, n);
	free(log);
}

/* Prose of exactly `pre` bytes (pre > 2 lines of it), a blank line, and
 * `in`, then prose again. */
static char *padded_exact(const char *in, size_t n, size_t pre, size_t *len)
{
	size_t pl = strlen(PROSE), l = 0;
	char *s = malloc(pre + n + 3 * pl + 2);
	while (l + 2 * pl < pre) {
		memcpy(s + l, PROSE, pl);
		l += pl;
	}
	memset(s + l, 'x', pre - l - 1);
	s[pre - 1] = '\n';
	l = pre;
	s[l++] = '\n';
	memcpy(s + l, in, n);
	l += n;
	memcpy(s + l, PROSE, pl);
	*len = l + pl;
	return s;
}

/* A log that `zpool iostat -v tank 1 > log` wrote: its header once, at
 * the top. With the first cut at every line from its command to its
 * first rows, it reads as the one run of a whole reading: the next
 * window reads the run from its command, or on from the row where the
 * window before stopped. */
static void test_header_once_cut(void)
{
	static const char head[] = "               capacity     operations    bandwidth\n"
				   "pool         used  avail   read  write   read  write\n"
				   "----------  -----  -----  -----  -----  -----  -----\n";
	static const char *const rows[] = {"tank", "  mirror", "    ad4", "    ad6"};
	size_t cap = 40000, n = 0;
	char *body = malloc(cap);
	n += (size_t)snprintf(body + n, cap - n, "# zpool iostat -v tank 1\n%s", head);
	for (size_t i = 0; i < 60; i++)
		for (size_t k = 0; k < 4; k++)
			n += (size_t)snprintf(body + n, cap - n,
					      "%-10s  %5s  %5s  %5zu  %5zu  %4zuK  %4zuM\n",
					      rows[k], k < 2 ? "1.07T" : "-", k < 2 ? "2.55T" : "-",
					      (i * 7 + k) % 1000, i % 900, i % 90, k + i % 50);
	n += (size_t)snprintf(body + n, cap - n, "^C\n\n");
	size_t len;
	char *s = padded_exact(body, n, 300, &len);
	json_t *whole = parse(s, len, 0, 0, NULL);
	json_t *want = runs_of(whole);
	CHECK(json_array_size(want) == 1);
	size_t nl = count_nl(s, 300);
	free(s);
	const size_t window = 8192, rows_at = 25 + strlen(head);
	size_t bad = 0;
	for (size_t pre = window - rows_at - 40; pre <= window + 60; pre++) {
		s = padded_exact(body, n, pre, &len);
		json_t *docs = parse(s, len, window, window / 4, NULL);
		json_t *got = runs_of(docs);
		bool ok = json_array_size(got) == 1 &&
			  json_is_false(json_object_get(json_array_get(docs, 0), "partial")) &&
			  same_run_shifted(json_array_get(want, 0), json_array_get(got, 0),
					   pre - 300, count_nl(s, pre) - nl);
		if (!ok && bad++ < 3)
			printf("header-once log after %zu bytes: %zu runs, want 1\n", pre,
			       json_array_size(got));
		json_decref(docs);
		free(s);
	}
	CHECK(bad == 0);
	json_decref(whole);
	free(body);
}

/* `zpool iostat -wv tank 10` left running: a latency histogram of each
 * vdev in turn, each under a header that names it, `samples` times. */
static char *histogram_stream(size_t samples, size_t *len)
{
	static const char *const vdevs[] = {"tank", "mirror-0", "ada0", "ada1", "ada2", "ada3"};
	static const char *const buckets[] = {
		"1ns",   "3ns",   "7ns", "15ns", "31ns", "63ns", "127ns", "255ns", "511ns",
		"1us",   "2us",   "4us", "8us",  "16us", "32us", "65us",  "131us", "262us",
		"524us", "1ms",   "2ms", "4ms",  "8ms",  "16ms", "33ms",  "67ms",  "134ms",
		"268ms", "536ms", "1s",  "2s",   "4s",   "8s"};
	size_t nb = sizeof buckets / sizeof *buckets, nv = sizeof vdevs / sizeof *vdevs;
	size_t cap = samples * nv * (nb + 5) * 110 + 4096, l = 0;
	char *s = malloc(cap);
	l += (size_t)snprintf(s + l, cap - l, "%s\n$ zpool iostat -wv tank 10\n\n", PROSE);
	for (size_t i = 0; i < samples; i++)
		for (size_t v = 0; v < nv; v++) {
			l += (size_t)snprintf(
				s + l, cap - l,
				"%-10s   total_wait     disk_wait    syncq_wait    asyncq_wait\n"
				"latency      read  write   read  write   read  write   read  write  "
				"scrub   trim  rebuild\n"
				"----------  -----  -----  -----  -----  -----  -----  -----  -----  "
				"-----  -----  -----\n",
				vdevs[v]);
			for (size_t b = 0; b < nb; b++) {
				l += (size_t)snprintf(s + l, cap - l, "%-10s", buckets[b]);
				for (size_t c = 0; c < 11; c++)
					l += (size_t)snprintf(s + l, cap - l, "  %5zu",
							      (i * 31 + v * 7 + b * 3 + c) % 997);
				s[l++] = '\n';
			}
			l += (size_t)snprintf(s + l, cap - l, "%.100s\n\n",
					      "------------------------------------------------"
					      "------------------------------------------------"
					      "----");
		}
	l += (size_t)snprintf(s + l, cap - l, "^C\n\n%s", PROSE);
	*len = l;
	return s;
}

/* A `dd status=progress` log of n updates, one line of them, then its
 * records and summary: GNU's form, or BSD's ("transferred 415.226s");
 * with a `dd: warning` line parting the display at its middle. */
static char *progress_log(size_t n, bool bsd, bool warning, size_t *len)
{
	size_t cap = n * 96 + 1024, l = 0;
	char *s = malloc(cap);
	l += (size_t)snprintf(s + l, cap - l,
			      "$ dd if=/dev/zero of=/dev/sdb bs=1M status=progress\n");
	for (size_t t = 1; t <= n; t++) {
		unsigned long long b = (unsigned long long)t << 20;
		if (warning && t == n / 2)
			l += (size_t)snprintf(s + l, cap - l,
					      "\ndd: warning: partial read (131072 bytes); suggest "
					      "iflag=fullblock\n");
		l += (size_t)snprintf(
			s + l, cap - l,
			bsd ? "\r%llu bytes (%llu MB, %zu MiB) transferred %zu.000s, 1048 kB/s"
			    : "\r%llu bytes (%llu MB, %zu MiB) copied, %zu s, 1.0 MB/s",
			b, b / 1000000, t, t);
	}
	unsigned long long b = (unsigned long long)n << 20;
	l += (size_t)snprintf(s + l, cap - l, "\n%zu+0 records in\n%zu+0 records out\n", n, n);
	if (bsd)
		l += (size_t)snprintf(
			s + l, cap - l,
			"%llu bytes transferred in %zu.250000 secs (1046480 bytes/sec)\n", b, n);
	else
		l += (size_t)snprintf(s + l, cap - l,
				      "%llu bytes (%llu MB, %zu MiB) copied, %zu.25 s, 1.0 MB/s\n",
				      b, b / 1000000, n, n);
	*len = l;
	return s;
}

/* A progress display longer than a window is held by the window whose
 * end cuts it and read on by the next: wherever the first window's text
 * ends (in the display, in its records lines, in its summary), the run
 * is the whole reading's, every update numbered as one display. A GNU
 * display is cut here only below it: one shorter than a megabyte is no
 * lines but pieces of one, and the anchors of GNU's updates are at a
 * line's start; one that reaches past the context of a real window is
 * longer, wrapped at its '\r's (unflatten.c), an update a line
 * (tests/pathological: progress-past-window, progress-no-summary). */
static void test_progress_cuts(void)
{
	for (int form = 0; form < 3; form++) {
		size_t len;
		char *s = progress_log(3000, form == 1, form == 2, &len);
		json_t *whole = parse(s, len, 0, 0, NULL);
		json_t *wr = runs_of(whole);
		CHECK(json_array_size(wr) == 1);
		CHECK(json_array_size(json_object_get(json_array_get(wr, 0), "results")) ==
		      3000 + 7);
		size_t differ = 0, tried = 0;
		/* the first window's text ends at 5/4 of its own part */
		/* GNU: from where the text holds a records line to claim the
		 * block by, "3000+0 re" */
		size_t from =
			form == 1 ? len - 300 : (size_t)(strstr(s, "\n3000+0 records in") - s) + 10;
		for (size_t end = from; end < len; end += form == 1 ? 3 : 1) {
			size_t window = end * 4 / 5, nwin = 0;
			json_t *docs = parse(s, len, window, window / 4, &nwin);
			json_t *doc = json_array_get(docs, 0);
			bool same = nwin >= 2 && json_equal(runs_of(docs), wr) &&
				    json_is_false(json_object_get(doc, "partial"));
			if (!same && differ++ < 3)
				printf("progress log (form %d) in windows of %zu: runs differ\n",
				       form, window);
			tried++;
			json_decref(docs);
		}
		CHECK(tried >= 90 && differ == 0);
		printf("progress log (form %d): %zu cuts, %zu differ\n", form, tried, differ);
		json_decref(whole);
		free(s);
	}
}

/* A header names a vdev, not a sample: the window after a cut reads on
 * from the first vdev's histogram, and the stream is the run of a whole
 * reading, sample by sample, whatever vdev the cut falls in. */
static void test_histogram_stream(void)
{
	size_t len;
	char *s = histogram_stream(30, &len);
	json_t *whole = parse(s, len, 0, 0, NULL);
	json_t *wr = runs_of(whole);
	CHECK(json_array_size(wr) == 1);
	CHECK(ival(json_object_get(json_array_get(wr, 0), "params"), "samples") == 30);
	CHECK(json_array_size(json_object_get(json_array_get(wr, 0), "results")) ==
	      30 * 6 * 33 * 11);
	for (size_t window = 120000; window < 300000; window = window * 5 / 4 + 997) {
		size_t nwin = 0;
		json_t *docs = parse(s, len, window, window / 4, &nwin);
		json_t *doc = json_array_get(docs, 0);
		CHECK(nwin >= 2);
		bool same = json_equal(json_object_get(doc, "runs"), wr);
		if (!same)
			printf("histogram stream in windows of %zu: runs differ\n", window);
		CHECK(same);
		CHECK(json_is_false(json_object_get(doc, "partial")));
		json_decref(docs);
	}
	json_decref(whole);
	free(s);
}

/* Whether each zpool run of runs counts the samples its results hold
 * (params.samples: the last sample + 1), and the runs are `want`. */
static bool samples_counted(json_t *runs, size_t want)
{
	size_t i, k;
	json_t *run, *res;
	json_array_foreach(runs, i, run)
	{
		long long last = -1;
		json_array_foreach(json_object_get(run, "results"), k, res)
		{
			long long n = ival(res, "sample");
			last = n > last ? n : last;
		}
		if (ival(json_object_get(run, "params"), "samples") != last + 1)
			return false;
	}
	return json_array_size(runs) == want;
}

/* Samples longer than the context read around a cut (a histogram of six
 * vdevs, 24 KB, against 6 KB and less): the window whose end cuts a
 * sample leaves it to the next, which reads it again from its start
 * where it can, and reads on from the sample after it (19 of the 33
 * windowings with a quarter window of context read as the whole
 * reading). No reading differs from the whole one unless the document
 * says it is partial, and the stream stays one run that counts its
 * samples, whatever it could not read. */
static void test_sample_past_context(void)
{
	size_t len;
	char *s = histogram_stream(12, &len);
	json_t *whole = parse(s, len, 0, 0, NULL);
	json_t *wr = runs_of(whole);
	size_t exact = 0, flagged = 0, silent = 0, miscounted = 0;
	for (size_t window = 24000; window < 48000; window += 731) {
		for (size_t part = 4; part <= 8; part += 4) {
			json_t *docs = parse(s, len, window, window / part, NULL);
			json_t *doc = json_array_get(docs, 0);
			if (json_equal(json_object_get(doc, "runs"), wr))
				exact += part == 4;
			else if (json_is_true(json_object_get(doc, "partial")))
				flagged += part == 4;
			else
				silent++;
			if (!samples_counted(json_object_get(doc, "runs"), 1)) {
				miscounted++;
				printf("histogram samples in windows of %zu: a run's samples "
				       "miscounted, or more runs than one\n",
				       window);
			}
			json_decref(docs);
		}
	}
	CHECK(silent == 0);
	CHECK(miscounted == 0);
	CHECK(exact + flagged == 33 && exact >= 15);
	json_decref(whole);
	free(s);
}

/* Streams one after another, no other run between: the run under way
 * hands its results over while the one before still waits to be written.
 * Each keeps its own, read whole and in windows. */
static void test_streams_back_to_back(void)
{
	size_t one, len = 0;
	char *s = zpool_stream(400, &one);
	char *end = strstr(s, "^C\n");
	CHECK(end != NULL);
	size_t body = (size_t)(end - s) + 3;
	char *in = malloc(3 * body + 1);
	for (size_t k = 0; k < 3; k++, len += body)
		memcpy(in + len, s, body);
	json_t *whole = parse(in, len, 0, 0, NULL);
	json_t *wr = runs_of(whole);
	CHECK(json_array_size(wr) == 3);
	for (size_t k = 0; k < json_array_size(wr); k++) {
		json_t *results = json_object_get(json_array_get(wr, k), "results");
		CHECK(json_array_size(results) == 400 * 20);
		CHECK(ival(json_array_get(results, 0), "sample") == 0);
		CHECK(ival(json_array_get(results, 400 * 20 - 1), "sample") == 399);
	}
	size_t nwin = 0;
	json_t *docs = parse(in, len, 60000, 15000, &nwin);
	CHECK(nwin >= 3);
	CHECK(json_equal(json_object_get(json_array_get(docs, 0), "runs"), wr));
	json_decref(docs);
	json_decref(whole);

	/* the same command again and again, nothing between: repeats of one
	 * another (one group), each many windows long */
	char *cmd = strstr(s, "# zpool");
	body = (size_t)(end - cmd);
	for (size_t k = len = 0; k < 3; k++, len += body)
		memcpy(in + len, cmd, body);
	whole = parse(in, len, 0, 0, NULL);
	wr = runs_of(whole);
	CHECK(json_array_size(wr) == 3);
	for (size_t k = 0; k < json_array_size(wr); k++)
		CHECK(ival(json_array_get(wr, k), "group") == 0);
	docs = parse(in, len, 60000, 15000, &nwin);
	CHECK(json_equal(json_object_get(json_array_get(docs, 0), "runs"), wr));
	json_decref(docs);
	json_decref(whole);
	free(in);
	free(s);
}

/* ------------------------------------------------ mails in windows */

static const char MAIL_HEAD[] = "From: a@example.org\nSubject: the whole log\n"
				"Date: Mon, 1 Feb 2010 10:00:00 +0000\n";

/* An mbox of three mails: a short one, a long one whose body is `body`
 * (under `headers`), a short one with a ">From " line. */
static char *mbox_of(const char *headers, const char *body, size_t blen, size_t *len)
{
	size_t cap = blen + strlen(headers) + 4096, l = 0;
	char *s = malloc(cap);
	l += (size_t)snprintf(s + l, cap - l,
			      "From a@example.org Mon Feb  1 09:00:00 2010\n%s\nFirst.\n%s\n",
			      MAIL_HEAD, DD_BSD);
	l += (size_t)snprintf(s + l, cap - l, "From b@example.org Mon Feb  1 10:00:00 2010\n%s%s\n",
			      MAIL_HEAD, headers);
	memcpy(s + l, body, blen);
	l += blen;
	l += (size_t)snprintf(s + l, cap - l,
			      "\nFrom c@example.org Mon Feb  1 11:00:00 2010\n%s\n"
			      ">From the list: again\n%s",
			      MAIL_HEAD, DD_GNU);
	*len = l;
	return s;
}

/* Document `doc` of s, read in windows of 20,000 bytes, holds all its
 * `nruns` runs and is not partial. */
static void check_every_run(const char *s, size_t len, size_t doc, size_t nruns)
{
	json_t *docs = parse(s, len, 20000, 5000, NULL);
	json_t *d = json_array_get(docs, doc);
	CHECK(json_array_size(json_object_get(d, "runs")) == nruns);
	CHECK(json_is_false(json_object_get(d, "partial")));
	json_decref(docs);
}

/* A mail longer than a window, its body one plain-text part, is read in
 * windows: the documents are those of a whole reading, whatever the
 * transfer encoding, in an mbox or alone. */
static void test_mail_windows(void)
{
	size_t blen, len, nwin = 0;
	char *body = blocks_text(200, &blen);
	/* a ">From " line deep in the body: unquoted by its window */
	memcpy(strstr(body + blen / 2, "We ran"), ">From", 5);
	char *s = mbox_of("", body, blen, &len);
	check_like_whole(s, len, 3, &nwin);
	CHECK(nwin > 3);
	check_every_run(s, len, 1, 200);
	free(s);

	char *qp = malloc(blen * 2);
	size_t qlen = qp_encode(body, blen, qp);
	s = mbox_of("Content-Type: text/plain; charset=iso-8859-1\n"
		    "Content-Transfer-Encoding: quoted-printable\n",
		    qp, qlen, &len);
	check_like_whole(s, len, 3, &nwin);
	CHECK(nwin > 3);
	/* alone, as an .eml file */
	const char *eml = strstr(s, "\nFrom b@") + 1;
	eml = strchr(eml, '\n') + 1;
	const char *eml_end = strstr(eml, "\nFrom c@");
	check_like_whole(eml, (size_t)(eml_end - eml), 1, &nwin);
	CHECK(nwin > 3);
	free(s);

	/* bytes that are not UTF-8, and NUL bytes, deep in a UTF-8 body:
	 * replaced in their window as in a whole reading */
	memcpy(strstr(body + blen / 3, "We ran"), "\xff\xfe", 2);
	memcpy(strstr(body + 2 * blen / 3, "We ran"), "\0\0", 2);
	s = mbox_of("Content-Type: text/plain; charset=utf-8\n", body, blen, &len);
	check_like_whole(s, len, 3, &nwin);
	CHECK(nwin > 3);
	free(s);

	/* base64, in lines of 76 characters and of 70 (groups of four
	 * across line breaks), in an mbox and alone: windows start where a
	 * group does */
	char *b64 = malloc(blen * 2);
	static const char B64_HEAD[] = "Content-Type: text/plain; charset=utf-8\n"
				       "Content-Transfer-Encoding: base64\n";
	for (size_t width = 70; width <= 76; width += 6) {
		size_t b64len = base64_encode((const unsigned char *)body, blen, width, b64);
		s = mbox_of(B64_HEAD, b64, b64len, &len);
		check_like_whole(s, len, 3, &nwin);
		CHECK(nwin > 3);
		eml = strstr(s, "\nFrom b@") + 1;
		eml = strchr(eml, '\n') + 1;
		eml_end = strstr(eml, "\nFrom c@");
		check_like_whole(eml, (size_t)(eml_end - eml), 1, &nwin);
		CHECK(nwin > 3);
		free(s);
	}
	/* headers longer than half a window, '=' in them: read whole */
	{
		size_t b64len = base64_encode((const unsigned char *)body, blen, 76, b64);
		size_t hcap = 48 * 1024, hl = 0;
		char *head = malloc(hcap);
		while (hl < 40 * 1024)
			hl += (size_t)snprintf(head + hl, hcap - hl,
					       "X-Filter: score=%zu; rule=BAYES_00\n", hl);
		snprintf(head + hl, hcap - hl, "%s", B64_HEAD);
		s = mbox_of(head, b64, b64len, &len);
		check_like_whole(s, len, 3, &nwin);
		free(s);
		free(head);
	}
	/* its data ends at a third of it ('='): the rest is not read, in
	 * windows as whole */
	size_t third = blen / 3 - blen / 3 % 3 + 1; /* its last group padded "==" */
	size_t b64len = base64_encode((const unsigned char *)body, third, 76, b64);
	CHECK(memcmp(b64 + b64len - 3, "==\n", 3) == 0);
	b64len += base64_encode((const unsigned char *)body, blen, 76, b64 + b64len);
	s = mbox_of(B64_HEAD, b64, b64len, &len);
	check_like_whole(s, len, 3, &nwin);
	CHECK(nwin > 3);
	free(s);
	free(b64);

	/* multipart: read whole */
	s = mbox_of("Content-Type: multipart/mixed; boundary=\"b1\"\n", body, blen, &len);
	check_like_whole(s, len, 3, &nwin);
	CHECK(nwin == 0);
	free(s);
	free(qp);
	free(body);
}

/* An HTML page of text t: `pre` (its lines in one <pre>, or in a <pre>
 * each block, prose between), or lines ended by <br> in paragraphs;
 * '<', '>' and '&' as entities. */
enum page_form { PAGE_PRE, PAGE_PRE_BLOCKS, PAGE_BR };

static char *page_of(const char *head, const char *t, size_t n, enum page_form form, size_t *len)
{
	size_t cap = 2 * n + 4096, l = 0;
	char *s = malloc(cap);
	l += (size_t)snprintf(s, cap,
			      "<!DOCTYPE html>\n<html><head>%s<title>runs</title></head>"
			      "<body><h1>Our runs</h1>\n%s",
			      head, form == PAGE_BR ? "<p>" : "<pre>");
	bool in_pre = form != PAGE_BR;
	for (size_t i = 0; i < n; i++) {
		const char *e = t[i] == '<'   ? "&lt;"
				: t[i] == '>' ? "&gt;"
				: t[i] == '&' ? "&amp;"
					      : NULL;
		if (e) {
			l += (size_t)snprintf(s + l, cap - l, "%s", e);
			continue;
		}
		if (t[i] == '\n' && form == PAGE_BR) {
			bool blank = i + 1 < n && t[i + 1] == '\n';
			l += (size_t)snprintf(s + l, cap - l, "%s", blank ? "</p>\n<p>" : "<br>\n");
			i += blank;
			continue;
		}
		/* "Run 7:" ends the prose of a block, in a paragraph of its own */
		if (form == PAGE_PRE_BLOCKS && t[i] == 'R' && (i == 0 || t[i - 1] == '\n') &&
		    strncmp(t + i, "Run ", 4) == 0) {
			l += (size_t)snprintf(s + l, cap - l, "%s", in_pre ? "</pre>\n<p>" : "");
			const char *nl = memchr(t + i, '\n', n - i);
			size_t k = nl ? (size_t)(nl - t) : n;
			memcpy(s + l, t + i, k - i);
			l += k - i;
			l += (size_t)snprintf(s + l, cap - l, "</p>\n<pre>");
			in_pre = true;
			i = k;
			continue;
		}
		s[l++] = t[i];
	}
	l += (size_t)snprintf(s + l, cap - l, "%s</body></html>\n", in_pre ? "</pre>" : "</p>");
	*len = l;
	return s;
}

/* The runs and source of a page read in windows of several sizes are
 * those of a whole reading (the diagnostics may add rough cuts). */
static void check_runs_like_whole(const char *s, size_t len, size_t *nwin)
{
	json_t *whole = parse(s, len, 0, 0, NULL);
	for (size_t window = 16384; window < 70000; window = window * 2 + 77) {
		size_t n = 0;
		json_t *docs = parse(s, len, window, window / 4, &n);
		if (window == 16384)
			*nwin = n;
		json_t *a = json_array_get(whole, 0), *b = json_array_get(docs, 0);
		bool same = json_array_size(docs) == 1 &&
			    json_equal(json_object_get(a, "runs"), json_object_get(b, "runs")) &&
			    json_equal(json_object_get(a, "source"), json_object_get(b, "source"));
		if (!same)
			printf("windows of %zu: the runs differ from a whole reading\n", window);
		CHECK(same);
		json_decref(docs);
	}
	json_decref(whole);
}

/* Text b after the page s[0, l) opened a <pre>, and the page closed;
 * the page's length. */
static size_t close_page(char *s, size_t cap, size_t l, const char *b, size_t blen)
{
	memcpy(s + l, b, blen);
	l += blen;
	return l + (size_t)snprintf(s + l, cap - l, "</pre></body></html>\n");
}

/* Pages whose windows hold no line break of <pre> and no tag that makes
 * one, or that start inside a comment, a heading or a script: read in
 * windows as whole. */
static void test_page_shapes(void)
{
	size_t blen, nwin = 0, cap, l;
	char *b = blocks_text(100, &blen);
	cap = blen + (1 << 20);
	char *s = malloc(cap);
	/* an <h1> past the first window names the page, over its <title> */
	l = (size_t)snprintf(s, cap, "<html><head><title>runs</title></head><body>\n<pre>");
	memcpy(s + l, b, blen / 2);
	l += blen / 2;
	l += (size_t)snprintf(s + l, cap - l, "</pre>\n<h1>Second half</h1>\n<pre>");
	memcpy(s + l, b + blen / 2, blen - blen / 2);
	l += blen - blen / 2;
	l += (size_t)snprintf(s + l, cap - l, "</pre></body></html>\n");
	check_like_whole(s, l, 1, &nwin);
	CHECK(nwin > 3);
	/* a comment never closed, opened before the last window: reported
	 * where it opened */
	l = (size_t)snprintf(s, cap, "<html><body>\n<pre>");
	memcpy(s + l, b, blen / 3);
	l += blen / 3;
	l += (size_t)snprintf(s + l, cap - l, "</pre>\n<!-- archived\n");
	memcpy(s + l, b + blen / 3, blen - blen / 3);
	l += blen - blen / 3;
	check_runs_like_whole(s, l, &nwin);
	json_t *docs = parse(s, l, 16384, 4096, NULL), *whole = parse(s, l, 0, 0, NULL);
	json_t *diags = json_object_get(json_array_get(docs, 0), "diagnostics");
	json_t *want = json_array_get(json_object_get(json_array_get(whole, 0), "diagnostics"), 0);
	size_t unclosed = 0;
	for (size_t i = 0; i < json_array_size(diags); i++) {
		json_t *d = json_array_get(diags, i);
		if (strcmp(json_string_value(json_object_get(d, "code")), "html.unclosed-comment"))
			continue;
		unclosed++;
		CHECK(json_equal(d, want));
	}
	CHECK(unclosed == 1);
	json_decref(whole);
	json_decref(docs);
	/* a paragraph of links whose tags break across lines ("<a\nhref"),
	 * then a one-line script: no line of the text for a cut, which
	 * moves back out of the tag, or stays inside the script */
	l = (size_t)snprintf(s, cap, "<html><head><script>var_x=");
	for (size_t k = 0; k < 30000; k++)
		s[l++] = 'a';
	l += (size_t)snprintf(s + l, cap - l, ";</script></head><body><p>");
	for (size_t k = 0; k < 3000; k++)
		l += (size_t)snprintf(s + l, cap - l,
				      "word%zu <a\nhref=\"http://example.org/%zu\">x</a> ", k, k);
	l += (size_t)snprintf(s + l, cap - l, "</p>\n<pre\nclass=\"log\">");
	l = close_page(s, cap, l, b, blen);
	check_runs_like_whole(s, l, &nwin);
	CHECK(nwin > 3);
	/* a style sheet of 11 KB, then a <pre> tag broken across lines and
	 * a line of 3000 bytes: the first window's cut, found by the
	 * bytes, falls inside that tag and moves back to its '<' */
	l = (size_t)snprintf(s, cap, "<!DOCTYPE html>\n<html><head><style>\n");
	for (size_t k = 0; k < 500; k++)
		l += (size_t)snprintf(s + l, cap - l, ".c%zu { color: red; }\n", k);
	l += (size_t)snprintf(s + l, cap - l, "</style></head><body><pre\nclass=\"log\">");
	memset(s + l, 'x', 3000);
	l += 3000;
	s[l++] = '\n';
	l = close_page(s, cap, l, b, blen);
	check_runs_like_whole(s, l, &nwin);
	CHECK(nwin > 3);
	/* a page whose <meta> names UTF-16: its markup is not in ASCII
	 * bytes, read whole */
	l = (size_t)snprintf(s, cap, "<html><head><meta charset=\"utf-16\"></head><body><pre>");
	l = close_page(s, cap, l, b, blen);
	check_like_whole(s, l, 1, &nwin);
	CHECK(nwin == 0);
	free(s);
	free(b);
}

/* A page longer than a window is read in windows, each going on from
 * where the page's decoding stood at its first byte: the documents are
 * those of a whole reading, whatever carries the lines (<pre>, <br>,
 * paragraphs) and in the charset the page names. */
static void test_page_windows(void)
{
	size_t blen, len, nwin = 0;
	char *body = blocks_text(200, &blen);
	static const enum page_form forms[] = {PAGE_PRE, PAGE_PRE_BLOCKS, PAGE_BR};
	for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
		char *s = page_of("", body, blen, forms[f], &len);
		CHECK(bl_detect_format(s, len) == BL_INPUT_HTML);
		check_like_whole(s, len, 1, &nwin);
		CHECK(nwin > 3);
		check_every_run(s, len, 0, 200);
		free(s);
	}
	/* Latin-1, named by the page: every window is read in it */
	for (char *p = body; (p = strstr(p, "We ran")); p++)
		p[1] = '\xe9';
	char *s = page_of("<meta charset=\"iso-8859-1\">", body, blen, PAGE_PRE_BLOCKS, &len);
	check_like_whole(s, len, 1, &nwin);
	CHECK(nwin > 3);
	json_t *docs = parse(s, len, 20000, 5000, NULL);
	json_t *dec =
		json_object_get(json_object_get(json_array_get(docs, 0), "source"), "decoding");
	CHECK(json_array_size(dec) == 2 &&
	      strcmp(json_string_value(json_array_get(dec, 0)), "charset") == 0);
	json_decref(docs);
	free(s);
	free(body);
	test_page_shapes();
}

/* Text of many multibyte characters and 200 runs: wherever a window
 * ends, a character is likely to be cut there. */
static char *wide_text(size_t *len)
{
	static const char words[] = "\xC3\x9C"
				    "berpr\xC3\xBC"
				    "fung \xE6\xBC\xA2\xE5\xAD\x97 \xD0\xB6\xD0\xB6 "
				    "\xF0\x9F\x98\x80 caf\xC3\xA9 \xE4\xB8\x8A\xD0\x8A ";
	size_t cap = 200 * (8 * sizeof words + 400), l = 0;
	char *s = malloc(cap);
	for (size_t i = 0; i < 200; i++) {
		for (size_t w = 0; w < 1 + i % 7; w++)
			l += (size_t)snprintf(s + l, cap - l, "%s", words);
		l += (size_t)snprintf(s + l, cap - l, "\nRun %zu:\n%s\n", i, DD_BSD);
	}
	*len = l;
	return s;
}

/* No window ends inside a character: the text in windows, plain, in a
 * mail in quoted-printable or base64, and in a page, is read as a whole
 * reading reads it, with no repair of a character a window's end cut in
 * two (a decoding the whole reading does not list). */
static void test_char_boundaries(void)
{
	size_t tlen, len, nwin = 0;
	char *t = wide_text(&tlen);
	check_like_whole(t, tlen, 1, &nwin);
	CHECK(nwin > 3);
	char *enc = malloc(4 * tlen + 16);
	size_t elen = qp_encode(t, tlen, enc);
	char *s = mbox_of("Content-Type: text/plain; charset=utf-8\n"
			  "Content-Transfer-Encoding: quoted-printable\n",
			  enc, elen, &len);
	check_like_whole(s, len, 3, &nwin);
	CHECK(nwin > 3);
	free(s);
	elen = base64_encode((const unsigned char *)t, tlen, 76, enc);
	s = mbox_of("Content-Type: text/plain; charset=utf-8\n"
		    "Content-Transfer-Encoding: base64\n",
		    enc, elen, &len);
	check_like_whole(s, len, 3, &nwin);
	CHECK(nwin > 3);
	free(s);
	s = page_of("<meta charset=\"utf-8\">", t, tlen, PAGE_PRE, &len);
	check_like_whole(s, len, 1, &nwin);
	CHECK(nwin > 3);
	free(s);
	/* one line longer than a window: quoted-printable breaks it every
	 * 76 bytes, inside characters too, and a window starts after such a
	 * break only where a character does */
	for (size_t i = 0; i < tlen; i++)
		if (t[i] == '\n')
			t[i] = ' ';
	elen = qp_encode(t, tlen, enc);
	s = mbox_of("Content-Type: text/plain; charset=utf-8\n"
		    "Content-Transfer-Encoding: quoted-printable\n",
		    enc, elen, &len);
	check_sources_runs_like_whole(s, len, 3, &nwin);
	CHECK(nwin > 3);
	free(s);
	free(enc);
	free(t);
}

/* UTF-8 text s as UTF-16 (big: big-endian), with a byte order mark
 * (`mark`) or without. */
/* UTF-8 s in UTF-16 or UTF-32 of order `order`, after a byte order mark
 * when `mark`. */
static char *wide_of(const char *s, size_t n, int order, bool mark, size_t *len)
{
	unsigned char *o = malloc(4 * n + 4);
	size_t l = 0, us = bl_wide_size(order);
	bool big = order == BL_UTF16_BE || order == BL_UTF32_BE;
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n || mark;) {
		uint32_t c = 0xFEFF;
		if (!mark) {
			c = u[i];
			size_t k = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
			if (k > 1)
				c &= 0x3F >> (k - 1);
			for (size_t j = 1; j < k; j++)
				c = c << 6 | (u[i + j] & 0x3F);
			i += k;
		}
		mark = false;
		uint32_t units[2] = {c, 0};
		unsigned nu = 1;
		if (us == 2 && c >= 0x10000) {
			units[0] = 0xD800 + ((c - 0x10000) >> 10);
			units[1] = 0xDC00 + ((c - 0x10000) & 0x3FF);
			nu = 2;
		}
		for (unsigned j = 0; j < nu; j++)
			for (size_t b = 0; b < us; b++)
				o[l++] = (unsigned char)(units[j] >> (8 * (big ? us - 1 - b : b)));
	}
	*len = l;
	return (char *)o;
}

static char *utf16_of(const char *s, size_t n, bool big, bool mark, size_t *len)
{
	return wide_of(s, n, big ? BL_UTF16_BE : BL_UTF16_LE, mark, len);
}

/* A text in UTF-16 or UTF-32 is read in windows, cut between its units
 * (never in a surrogate pair), as a whole reading reads it: either byte
 * order, with a mark or without; and a line of it longer than a window. */
static void test_utf16_windows(void)
{
	size_t tlen, len, nwin = 0;
	char *t = wide_text(&tlen);
	json_t *utf8 = parse(t, tlen, 0, 0, NULL);
	/* UTF-16LE, UTF-16BE with a mark, UTF-16LE without; UTF-32LE with
	 * a mark, UTF-32BE without */
	static const int orders[] = {BL_UTF16_LE, BL_UTF16_BE, BL_UTF16_LE, BL_UTF32_LE,
				     BL_UTF32_BE};
	for (int form = 0; form < 5; form++) {
		char *s = wide_of(t, tlen, orders[form], form != 2 && form != 4, &len);
		check_like_whole(s, len, 1, &nwin);
		CHECK(nwin > 3);
		/* the lines of the UTF-8 text: U+4E0A and U+040A hold a byte
		 * 0A that is no line break */
		json_t *docs = parse(s, len, 0, 0, NULL), *a = runs_of(utf8), *b = runs_of(docs);
		CHECK(json_array_size(a) == 200 && json_array_size(b) == 200);
		for (size_t i = 0; i < json_array_size(a) && i < json_array_size(b); i++) {
			json_t *sa = json_object_get(json_array_get(a, i), "span");
			json_t *sb = json_object_get(json_array_get(b, i), "span");
			CHECK(ival(sa, "line") == ival(sb, "line") &&
			      ival(sa, "end_line") == ival(sb, "end_line"));
		}
		json_decref(docs);
		free(s);
	}
	json_decref(utf8);
	for (size_t i = 0; i < tlen; i++)
		if (t[i] == '\n')
			t[i] = ' ';
	char *s = utf16_of(t, tlen, false, true, &len);
	json_t *whole = parse(s, len, 0, 0, NULL);
	json_t *docs = parse(s, len, (size_t)32 << 10, (size_t)8 << 10, &nwin);
	CHECK(nwin > 3);
	CHECK(json_array_size(runs_of(whole)) == 200);
	CHECK(json_equal(runs_of(whole), runs_of(docs)));
	json_decref(docs);
	json_decref(whole);
	free(s);
	free(t);
}

/* Base64 bodies of many shapes read in windows, against a whole
 * reading: CRLF, one line, lines of 3 to 1000 characters, blanks in
 * them, a '=' in mid-line, Latin-1, Shift_JIS and UTF-8 text, flowed,
 * long headers, a stretch of blank lines, a footer after the data. */

/* The base64 body b64 in a mail of an mbox (and alone): read in
 * windows (`windowed`) or whole, as a whole reading reads it. */
static void b64_case_in(const char *label, const char *head, const char *b64, size_t b64len,
			bool alone_too, bool windowed)
{
	size_t len, nwin = 0;
	int failed = check_fail;
	char *s = mbox_of(head, b64, b64len, &len);
	check_like_whole(s, len, 3, &nwin);
	CHECK((nwin > 3) == windowed);
	if (alone_too) {
		const char *eml = strstr(s, "\nFrom b@") + 1;
		eml = strchr(eml, '\n') + 1;
		const char *eml_end = strstr(eml, "\nFrom c@");
		check_like_whole(eml, (size_t)(eml_end - eml), 1, &nwin);
		CHECK((nwin > 3) == windowed);
	}
	if (check_fail > failed)
		printf("  (base64 body: %s)\n", label);
	free(s);
}

static void b64_case(const char *label, const char *head, const char *b64, size_t b64len,
		     bool alone_too)
{
	b64_case_in(label, head, b64, b64len, alone_too, true);
}

/* At least `size` bytes of "Received:" header lines, then `more`. */
static char *received_lines(size_t size, const char *more)
{
	size_t cap = size + strlen(more) + 256, l = 0;
	char *h = malloc(cap);
	for (int i = 0; l < size; i++)
		l += (size_t)snprintf(h + l, cap - l,
				      "Received: from host%d.example.org by mx.example.org\n", i);
	snprintf(h + l, cap - l, "%s", more);
	return h;
}

static void test_base64_variants(void)
{
	size_t blen, zlen;
	char *body = blocks_text(200, &blen);
	char *z = zpool_stream(800, &zlen);
	size_t cap = (blen > zlen ? blen : zlen) * 4 + 100000;
	char *b = malloc(cap);
	static const char H[] = "Content-Type: text/plain; charset=utf-8\n"
				"Content-Transfer-Encoding: base64\n";
	size_t n;
	{
		n = b64_enc_v((const unsigned char *)body, blen, 76, "\r\n", NULL, 0, b);
		b64_case("crlf", H, b, n, true);
	}
	{
		n = b64_enc_v((const unsigned char *)body, blen, SIZE_MAX, "\n", NULL, 0, b);
		b64_case("oneline", H, b, n, true);
	}
	{
		n = b64_enc_v((const unsigned char *)z, zlen, SIZE_MAX, "\n", NULL, 0, b);
		b64_case("oneline-z", H, b, n, true);
	}
	{
		n = b64_enc_v((const unsigned char *)z, zlen, 1000, "\n", NULL, 0, b);
		b64_case("w1000-z", H, b, n, true);
	}
	{
		n = b64_enc_v((const unsigned char *)z, zlen, 76, "\n", NULL, 0, b);
		b64_case("w76-z", H, b, n, true);
	}
	{
		n = b64_enc_v((const unsigned char *)body, blen, 5, "\n", NULL, 0, b);
		b64_case("w5", H, b, n, true);
	}
	{
		n = b64_enc_v((const unsigned char *)body, blen, 3, "\n", NULL, 0, b);
		b64_case("w3", H, b, n, false);
	}
	{
		n = b64_enc_v((const unsigned char *)body, blen, 76, "\n", " ", 13, b);
		b64_case("spaces", H, b, n, true);
	}
	{
		/* a '=' pad mid-line, then more data on the line */
		size_t third = blen / 3 - blen / 3 % 3 + 2;
		n = b64_enc_v((const unsigned char *)body, third, SIZE_MAX, "", NULL, 0, b);
		n += b64_enc_v((const unsigned char *)body, blen, 76, "\n", NULL, 0, b + n);
		b64_case("midpad", H, b, n, true);
	}
	{
		char *t = malloc(blen);
		memcpy(t, body, blen);
		for (size_t i = 0; i < blen; i++)
			if (t[i] == 'e')
				t[i] = (char)0xe9;
		n = b64_enc_v((const unsigned char *)t, blen, 76, "\n", NULL, 0, b);
		b64_case("latin1",
			 "Content-Type: text/plain; charset=iso-8859-1\n"
			 "Content-Transfer-Encoding: base64\n",
			 b, n, true);
		free(t);
	}
	{
		/* every 'e' a two-byte Shift_JIS character */
		char *t = malloc(blen * 2);
		size_t m = 0;
		for (size_t i = 0; i < blen; i++) {
			if (body[i] == 'e') {
				t[m++] = (char)0x82;
				t[m++] = (char)0xa0;
			} else if (body[i] == 'a') {
				t[m++] = (char)0x93; /* 日 */
				t[m++] = (char)0xfa;
			} else {
				t[m++] = body[i];
			}
		}
		n = b64_enc_v((const unsigned char *)t, m, 76, "\n", NULL, 0, b);
		b64_case("sjis",
			 "Content-Type: text/plain; charset=shift_jis\n"
			 "Content-Transfer-Encoding: base64\n",
			 b, n, true);
		free(t);
	}
	{
		n = b64_enc_v((const unsigned char *)body, blen, 76, "\n", NULL, 0, b);
		b64_case("flowed",
			 "Content-Type: text/plain; charset=utf-8; format=flowed\n"
			 "Content-Transfer-Encoding: base64\n",
			 b, n, true);
	}
	{
		char *h = received_lines(20000, H);
		n = b64_enc_v((const unsigned char *)body, blen, 76, "\n", NULL, 0, b);
		b64_case_in("longhead", h, b, n, false, false);
		free(h);
		h = received_lines(20000, "");
		b64_case("longhead-plain", h, body, blen, true);
		free(h);
	}
	{
		/* a stretch of blank lines (no base64 character) longer than
		 * half a window between two parts of the data */
		size_t half = (blen / 2) - (blen / 2) % 3;
		n = b64_enc_v((const unsigned char *)body, half, 76, "\n", NULL, 0, b);
		for (size_t i = 0; i < 40000; i++)
			b[n++] = i % 70 == 69 ? '\n' : ' ';
		b[n++] = '\n';
		n += b64_enc_v((const unsigned char *)body + half, blen - half, 76, "\n", NULL, 0,
			       b + n);
		b64_case("gap", H, b, n, true);
	}
	{
		/* plain text after the base64 data, no '=' (a list footer) */
		size_t dl = blen - blen % 3;
		n = b64_enc_v((const unsigned char *)body, dl, 76, "\n", NULL, 0, b);
		n += (size_t)snprintf(b + n, cap - n,
				      "\n_______________________________________________\n"
				      "list mailing list\nlist@example.org\n");
		b64_case("trailer", H, b, n, true);
	}
	free(b);
	free(z);
	free(body);
}

/* A window of a plain body past the first is read in place: its text is
 * the input's bytes, not a copy. */
static size_t body_windows, body_copies;

static int count_body_copies(struct bl_message *m, void *ctx)
{
	(void)ctx;
	if (m->window.on && m->window.index > 0) {
		body_windows++;
		body_copies += m->text != m->raw;
	}
	return 0;
}

static void test_mail_window_in_place(void)
{
	size_t blen, len;
	char *body = blocks_text(200, &blen);
	char *s = mbox_of("Content-Type: text/plain; charset=us-ascii\n", body, blen, &len);
	struct feed f = {s, len, 0, 65536, 100003};
	body_windows = body_copies = 0;
	CHECK(bl_ingest_stream_window(bl_parser_ingest(), feed_read, &f, BL_INPUT_AUTO, 20000, 5000,
				      count_body_copies, NULL) == 0);
	CHECK(body_windows > 3);
	CHECK(body_copies == 0);
	free(s);
	free(body);
}

/* The mails of an mbox read in place past their headers when their
 * body needs no decoding; the others decoded into a text of their own. */
static size_t mails_read, mails_in_place;

static int count_in_place(struct bl_message *m, void *ctx)
{
	(void)ctx;
	mails_read++;
	mails_in_place += m->text_borrowed && m->text > m->raw && m->text < m->raw + m->raw_len;
	/* a text read in place is padded as a copy is */
	for (size_t k = 0; k < BL_TEXT_PAD; k++)
		CHECK(m->text[m->len + k] == 0);
	return 0;
}

static void test_mails_in_place(void)
{
	static const char mbox[] =
		"From a@x Mon Jan 11 10:00:00 2010\nFrom: a@x\nSubject: one\n\n"
		"2097152000 bytes transferred in 35.290738 secs (59417943 bytes/sec)\n\n"
		"From b@x Mon Jan 11 10:01:00 2010\nSubject: two\n"
		"Content-Type: text/plain; charset=utf-8\n\nUberpr\xC3\xBC"
		"fung: 58 MB/s\n\n"
		"From c@x Mon Jan 11 10:02:00 2010\nSubject: three\n"
		"Content-Transfer-Encoding: quoted-printable\n\nbs=3D1m\n\n"
		"From d@x Mon Jan 11 10:03:00 2010\nSubject: four\n\nLatin-1 \xFC\n";
	for (size_t step = 1; step < 100; step += 7) {
		struct feed f = {mbox, sizeof mbox - 1, 0, step, 0};
		mails_read = mails_in_place = 0;
		CHECK(bl_ingest_stream(bl_parser_ingest(), feed_read, &f, BL_INPUT_AUTO,
				       count_in_place, NULL) == 0);
		/* the third is quoted-printable, the fourth not UTF-8 */
		CHECK(mails_read == 4 && mails_in_place == 2);
	}
}

/* A window that begins inside a line, or where the framing's next line
 * break is not one of the bytes: read as a whole reading does. */
static size_t late_starts;

static int count_late_start(struct bl_message *m, void *ctx)
{
	(void)ctx;
	/* a window's text starts at its first byte (a separator-like line
	 * there dropped would start it later) */
	if (m->window.on && m->window.index > 0 && m->len &&
	    bl_message_origin(m, 0) > m->raw_offset + 1)
		late_starts++;
	return 0;
}

static void test_mail_window_starts(void)
{
	size_t blen, len, nwin;
	char *body = blocks_text(200, &blen);
	/* quoted-printable line breaks written "=0A" and a soft break: a
	 * cut after the decoded break would start the next window inside
	 * its escape */
	char *q = malloc(blen * 8), *o = q;
	for (size_t i = 0; i < blen; i++)
		o += body[i] == '\n'  ? sprintf(o, "=0A=\n")
		     : body[i] == '=' ? sprintf(o, "=3D")
				      : (*o = body[i], 1);
	char *s =
		mbox_of("Content-Transfer-Encoding: quoted-printable\n", q, (size_t)(o - q), &len);
	check_like_whole(s, len, 3, &nwin);
	CHECK(nwin > 3);
	free(s);
	free(q);

	/* UTF-16: its line breaks are two bytes; read whole */
	char *b16 = calloc(blen, 2);
	for (size_t i = 0; i < blen; i++)
		b16[2 * i] = body[i];
	s = mbox_of("Content-Type: text/plain; charset=utf-16le\n", b16, blen * 2, &len);
	check_like_whole(s, len, 3, &nwin);
	CHECK(nwin == 0);
	free(s);
	free(b16);

	/* a flattened body cut after a sentence, before "From Q 12:34",
	 * with a ">From " line in the window: the window's first line is the
	 * mail's, not a separator to drop */
	size_t cap = (size_t)1 << 22, bl = 0;
	char *flat = malloc(cap);
	for (int k = 0; k < 8; k++) {
		bl += (size_t)sprintf(flat + bl, ">From me\nx ");
		for (int t = 0; t < 2500; t++)
			bl += (size_t)sprintf(flat + bl, "From Q 12:34 end. ");
		flat[bl++] = '\n';
	}
	s = mbox_of("", flat, bl, &len);
	late_starts = 0;
	struct feed f = {s, len, 0, 65536, 100003};
	CHECK(bl_ingest_stream_window(bl_parser_ingest(), feed_read, &f, BL_INPUT_AUTO, 40000,
				      10000, count_late_start, NULL) == 0);
	CHECK(late_starts == 0);
	free(s);
	free(flat);

	/* a separator line longer than the context a window keeps before
	 * its cut: it ends the mail in windows as in a whole reading */
	cap = blen + 400000;
	char *lf = malloc(cap);
	memcpy(lf, body, blen);
	bl = blen;
	bl += (size_t)sprintf(lf + bl, "From x Mon Feb  1 12:34:56 2010 ");
	while (bl < blen + 200000)
		bl += (size_t)sprintf(lf + bl, "word and more words ");
	lf[bl++] = '\n';
	memcpy(lf + bl, body, 20000);
	bl += 20000;
	s = mbox_of("", lf, bl, &len);
	check_like_whole(s, len, 4, &nwin);
	free(s);
	free(lf);
	free(body);
}

/* Windows of a quoted-printable body whose own part starts after a soft
 * line break ("=\n"): inside a line of the text, a rough cut. */
static size_t soft_starts, soft_unmarked;

static int count_soft_starts(struct bl_message *m, void *ctx)
{
	const char *in = ctx; /* the input, at the offsets of the window */
	size_t at = m->window.own_from;
	if (m->window.on && m->window.index > 0 && in[at - 1] == '\n' && in[at - 2] == '=') {
		soft_starts++;
		soft_unmarked += !m->window.rough_cut;
	}
	return 0;
}

static void test_qp_soft_starts(void)
{
	/* lines of the text longer than the windows but shorter than a
	 * flattened post's: no line break of the bytes but the soft ones */
	size_t n = 0, cap = 320000, len, nwin;
	char *line = malloc(cap), *q = malloc(cap * 2);
	for (int k = 0; k < 5; k++) {
		for (size_t from = n; n - from < 60000;)
			n += (size_t)sprintf(line + n, "the pool was idle while it ran, %zu MB/s. ",
					     n);
		line[n++] = '\n';
	}
	size_t ql = qp_encode(line, n, q);
	char *s = mbox_of("Content-Transfer-Encoding: quoted-printable\n", q, ql, &len);
	soft_starts = soft_unmarked = 0;
	struct feed f = {s, len, 0, 65536, 100003};
	CHECK(bl_ingest_stream_window(bl_parser_ingest(), feed_read, &f, BL_INPUT_AUTO, 40000,
				      10000, count_soft_starts, s) == 0);
	CHECK(soft_starts > 3);
	CHECK(soft_unmarked == 0);
	check_sources_runs_like_whole(s, len, 3, &nwin);
	CHECK(nwin > 3);
	free(s);
	free(q);
	free(line);
}

/* Cuts of an mbox whose second mail is longer than the framing holds:
 * where each message begins, and its line. */
static void test_cuts_past_long_mail(void)
{
	size_t blen, len;
	char *body = blocks_text(3000, &blen);
	CHECK(blen > (size_t)3 << 19); /* past the 1 MB the framing holds */
	char *s = mbox_of("", body, blen, &len);
	size_t b = (size_t)(strstr(s, "From b@") - s), c = (size_t)(strstr(s, "\nFrom c@") - s) + 1;
	size_t targets[] = {1, b + 1, len};
	struct bl_mbox_cut cuts[3];
	struct feed f = {s, len, 0, 65536, 100003};
	CHECK(bl_mbox_cuts(feed_read, &f, &bl_mbox_start, targets, 3, cuts) == 0);
	CHECK(cuts[0].offset == b && cuts[0].line == 1 + count_nl(s, b) && cuts[0].index == 1);
	CHECK(cuts[1].offset == c && cuts[1].line == 1 + count_nl(s, c) && cuts[1].index == 2);
	CHECK(cuts[2].offset == len && cuts[2].index == 0);
	free(s);
	free(body);
}

static void test_corpus(void)
{
	const char *tools[] = {"dd",     "time",     "bonnie",       "bonniepp",
			       "iozone", "diskinfo", "zpool-iostat", "ingest"};
	for (size_t t = 0; t < sizeof tools / sizeof *tools; t++) {
		char dir[256];
		snprintf(dir, sizeof dir, "corpus/%s", tools[t]);
		DIR *d = opendir(dir);
		CHECK(d != NULL);
		if (!d)
			continue;
		struct dirent *e;
		bool first = true;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			char path[600];
			snprintf(path, sizeof path, "%s/%s/input", dir, e->d_name);
			check_case(path, false);
			if (first)
				check_case(path, true);
			first = false;
		}
		closedir(d);
	}
	printf("corpus: %zu cases, %zu padded variants, %zu mails (%zu read whole), %zu differ\n",
	       cases, variants, mails, mails_whole, mismatches);
	CHECK(cases > 100);
}

int main(void)
{
	test_cut();
	test_windows_like_whole();
	test_short_context();
	test_dropped_once();
	test_repeat_groups();
	test_retracted_not_dropped();
	test_run_cut();
	test_streams_back_to_back();
	test_long_stream();
	test_caption_across_windows();
	test_header_once_cut();
	test_histogram_stream();
	test_progress_cuts();
	test_sample_past_context();
	test_mail_windows();
	test_base64_variants();
	test_page_windows();
	test_char_boundaries();
	test_utf16_windows();
	test_mail_window_in_place();
	test_mail_window_starts();
	test_mails_in_place();
	test_qp_soft_starts();
	test_cuts_past_long_mail();
	test_flat_line();
	test_corpus();
	bl_cleanup();
	return CHECK_DONE();
}
