/* test_jsonread.c - the plain JSON reader (base/jsonread.c) against
 * json_loadb with JSON_DISABLE_EOF_CHECK: whatever the reader accepts,
 * json_loadb accepts too, as the same value (compared as printed, reals
 * to the last bit, keys in order) ending at the same byte. Checked on
 * every expected.json of the corpus (which the reader must take, not hand
 * back), on every prefix and many one-byte changes of a document, and on
 * edge cases of strings, numbers and nesting. The reader that keeps rows
 * and results as text (bl_json_read_results_as_text) is held to the same
 * in each case: it takes what the reader takes, and each row or result
 * it keeps reads back as the reader reads it. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/jsonread.h"
#include "../kept_text.h"
#include "check.h"
#include "corpus.h"

/* The two values print the same, key order and reals' bits included. */
static bool same(json_t *a, json_t *b)
{
	char *x = json_dumps(a, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
	char *y = json_dumps(b, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
	bool eq = x && y && strcmp(x, y) == 0 && json_equal(a, b);
	free(x);
	free(y);
	return eq;
}

/* The reader keeping rows as text takes what the reader takes, ends at
 * the same byte, and holds the same. */
static bool lazy_agrees(const char *text, size_t len, json_t *full, size_t used)
{
	size_t lused = 0;
	json_t *lazy = bl_json_read_results_as_text(text, len, &lused);
	bool ok = full ? lazy && lused == used && restore_kept(lazy) && same(full, lazy) : !lazy;
	json_decref(lazy);
	return ok;
}

/* What the reader makes of text[0, len): 1 read as json_loadb reads it,
 * 0 handed back, -1 a value json_loadb would not give (a failure), or
 * one the reader keeping rows as text does not agree with. */
static int compare(const char *text, size_t len)
{
	size_t used = 0;
	json_t *a = bl_json_read(text, len, &used);
	json_error_t e;
	json_t *b = json_loadb(text, len, JSON_DISABLE_EOF_CHECK, &e);
	int r = 0;
	if (a)
		r = b && same(a, b) && used == (size_t)e.position ? 1 : -1;
	if (!lazy_agrees(text, len, a, used))
		r = -1;
	if (r < 0)
		printf("  differs: %.*s\n", (int)(len < 80 ? len : 80), text);
	json_decref(a);
	json_decref(b);
	return r;
}

static int compare_str(const char *text)
{
	return compare(text, strlen(text));
}

static void test_plain(void)
{
	CHECK(compare_str("{}") == 1);
	CHECK(compare_str("{\"\":\"\",\"e\":[\"\"]}") == 1);
	CHECK(compare_str("  \n\t{ }  ") == 1);
	CHECK(compare_str("{\"a\":[],\"b\":{},\"c\":[[],[{}]]}") == 1);
	CHECK(compare_str("{ \"a\" : true , \"b\":false,\r\n\"c\" :null }") == 1);
	/* a repeated key: the last value, in the first one's place */
	CHECK(compare_str("{\"a\":1,\"b\":2,\"a\":3}") == 1);
	CHECK(compare_str("{\"s\":\"q\\\" s\\/ b\\\\ \\b\\f\\n\\r\\t end\"}") == 1);
	CHECK(compare_str(
		      "{\"k\xc3\xa9\":\"\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x8e\x89 \x7f\"}") ==
	      1);
	CHECK(compare_str("{\"n\":[0,-0,-1,7,9223372036854775807,-9223372036854775808]}") == 1);
	CHECK(compare_str("{\"r\":[1.5,-0.0,1e10,1E-5,2.5e+3,0.1,123456789.123456789,4e-300]}") ==
	      1);
	CHECK(compare_str("{\"r\":1.7976931348623157e308,\"s\":2.2250738585072014e-308}") == 1);
	/* the end of the object, for the next document */
	const char two[] = "{\"a\":1}  {\"b\":2}";
	size_t used = 0;
	json_t *v = bl_json_read(two, strlen(two), &used);
	CHECK(v && used == 7);
	json_decref(v);
	CHECK(compare(two, strlen(two)) == 1);
	/* a long key and a long string */
	char big[3000];
	memset(big, 'x', sizeof big);
	memcpy(big, "{\"", 2);
	big[1500] = '"';
	big[1501] = ':';
	big[1502] = '"';
	memcpy(big + sizeof big - 2, "\"}", 2);
	CHECK(compare(big, sizeof big) == 1);
}

static void test_handed_back(void)
{
	static const char *const bad[] = {
		"",
		"   ",
		"[1]",
		"\"s\"",
		"1",
		"{",
		"{\"a\"",
		"{\"a\":",
		"{\"a\":1",
		"{\"a\":1,}",
		"{,}",
		"{\"a\" 1}",
		"{\"a\":1 \"b\":2}",
		"{a:1}",
		"{\"a\":01}",
		"{\"a\":1.}",
		"{\"a\":.5}",
		"{\"a\":-}",
		"{\"a\":+1}",
		"{\"a\":1e}",
		"{\"a\":1e+}",
		"{\"a\":0x10}",
		"{\"a\":1.5.2}",
		"{\"a\":tru}",
		"{\"a\":truex}",
		"{\"a\":nul}",
		"{\"a\":NaN}",
		"{\"a\":Infinity}",
		"{\"a\":\"x}",
		"{\"a\":\"\\x\"}",
		"{\"a\":\"\\u00e9\"}",
		"{\"a\":\"\\u0000\"}",
		"{\"a\":\"\x01\"}",
		"{\"a\":\"\t\"}",
		"{\"a\":\"\xc0\x80\"}",
		"{\"a\":\"\xc2\"}",
		"{\"a\":\"\xe0\x80\x80\"}",
		"{\"a\":\"\xed\xa0\x80\"}",
		"{\"a\":\"\xf4\x90\x80\x80\"}",
		"{\"a\":\"\xf5\x80\x80\x80\"}",
		"{\"a\":\"\x80\"}",
		"{\"a\":\"\xff\"}",
		"{\"a\":9223372036854775808}",
		"{\"a\":-9223372036854775809}",
		"{\"a\":1e400}",
		"{\"a\":-1e400}",
		"{\"a\":[1,]}",
		"{\"a\":[,1]}",
		"{\"a\":[1 2]}",
		"{\"a\":]}",
		"{\"a\":}",
		"{\"a\":{\"b\":1]}",
		"{\xef\xbb\xbf}",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		size_t used = 7;
		json_t *v = bl_json_read(bad[i], strlen(bad[i]), &used);
		CHECK(v == NULL && used == 7);
		if (v)
			printf("  accepted: %s\n", bad[i]);
		json_decref(v);
		CHECK(compare_str(bad[i]) == 0);
	}
	/* nesting: the reader stops before json_loadb does */
	char deep[2 * 300 + 16];
	size_t n = 0;
	deep[n++] = '{';
	memcpy(deep + n, "\"a\":", 4);
	n += 4;
	for (int i = 0; i < 300; i++)
		deep[n++] = '[';
	for (int i = 0; i < 300; i++)
		deep[n++] = ']';
	deep[n++] = '}';
	CHECK(compare(deep, n) == 0);
	json_error_t e;
	json_t *v = json_loadb(deep, n, 0, &e);
	CHECK(v != NULL); /* so the reader handing back loses nothing */
	json_decref(v);
}

/* Every prefix, and each byte changed to a few others: never a value
 * json_loadb would not give. */
static void mutate(const char *doc, size_t len)
{
	CHECK(compare(doc, len) == 1);
	int bad = 0, taken = 0;
	for (size_t k = 0; k < len; k++)
		if (compare(doc, k) < 0)
			bad++;
	static const char subs[] = {'"', '\\', ',', ':', '}',  ']', '{',    '[',    '0',    '9',
				    '-', '.',  'e', ' ', '\n', 'x', '\x01', '\x80', '\xc3', '\xff'};
	char *m = malloc(len);
	for (size_t k = 0; m && k < len; k++) {
		for (size_t j = 0; j < sizeof subs; j++) {
			memcpy(m, doc, len);
			m[k] = subs[j];
			int r = compare(m, len);
			bad += r < 0;
			taken += r > 0;
		}
	}
	free(m);
	CHECK(bad == 0);
	CHECK(taken > 0);
}

static void test_mutations(void)
{
	const char doc[] =
		"{\"schema\": \"benchlog/1\", \"runs\": [{\"tool\": \"dd\", \"label\": \"a \\\"b\\\"\","
		" \"results\": [{\"metric\": \"throughput\", \"value\": 1.25e9, \"unit\": \"B/s\","
		" \"flags\": [\"computed\"], \"n\": -42, \"ok\": true, \"x\": null}],"
		" \"name\": \"\xc3\xa9t\xc3\xa9\"}], \"z\": false}";
	mutate(doc, sizeof doc - 1);
	/* rows and results, kept as text by bl_json_read_results_as_text */
	const char rows[] =
		"{\"runs\": [{\"tool\": \"zpool-iostat\", \"rows\": [{\"shape\": 0, \"coords\":"
		" [\"vdev\", \"sample\"], \"cells\": [{\"metric\": \"read_ops\"}]},"
		" [0, \"tank\", 1, [7864320, \"7.5M\", \"approximate\"]], [0,\"a\\\"b\",-2,1.5e3],"
		" [], [4, {\"rows\": [[5]]}], 3, \"[0,1]\"], \"time\": [1, 2]}, {\"results\": [{\"metric\":"
		" \"x\", \"value\": 1, \"results\": [{\"a\": [1]}]}, 2, [3], {}]}],"
		" \"rows\": {\"rows\": [[1]]}}";
	mutate(rows, sizeof rows - 1);
}

/* Every corpus document: read by the reader itself, as json_loadb reads it. */
struct corpus_tally {
	size_t differ, back;
};

static void compare_case(const char *text, size_t len, void *ctx)
{
	struct corpus_tally *t = ctx;
	int r = compare(text, len);
	t->differ += r < 0;
	t->back += r == 0;
}

static void test_corpus(void)
{
	struct corpus_tally t = {0, 0};
	size_t docs = corpus_each("expected.json", compare_case, &t), differ = t.differ,
	       back = t.back;
	printf("corpus: %zu documents, %zu handed back to json_loadb, %zu read otherwise\n", docs,
	       back, differ);
	CHECK(docs > 100);
	CHECK(back * 10 < docs); /* the plain path is the common one */
	CHECK(differ == 0);
}

struct alone_tally {
	json_t *(*read)(const char *text, size_t len, size_t *used);
	size_t runs, back, kept, texts;
};

/* Each run of a document, read alone by bl_json_read_run_as_text from
 * its text as parse writes it: its rows and results kept, and read back,
 * the run; or handed back (a \\u escape), as bl_json_read hands it. */
static void run_alone_case(const char *text, size_t len, void *ctx)
{
	struct alone_tally *tally = ctx;
	size_t i, used;
	json_t *doc = json_loadb(text, len, JSON_DISABLE_EOF_CHECK, NULL), *run;
	json_array_foreach(json_object_get(doc, "runs"), i, run)
	{
		char *t = json_dumps(run,
				     JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
		json_t *alone = t ? tally->read(t, strlen(t), &used) : NULL;
		bool lean = tally->read == read_run_lean;
		json_t *want = lean ? without_skipped(run) : json_incref(run);
		tally->runs++;
		if (t && !alone && !bl_json_read(t, strlen(t), &used)) {
			tally->back++;
			free(t);
			json_decref(want);
			continue;
		}
		size_t tlen = t ? strlen(t) : 0;
		if (lean && t) /* its kept texts are copies: the text may go */
			memset(t, '#', tlen);
		json_t *list = alone ? json_object_get(alone, "results") : NULL;
		if (!list)
			list = json_object_get(alone, "rows");
		for (size_t e = 0; e < json_array_size(list); e++) {
			json_t *k = json_array_get(list, e), *row;
			size_t at = 0;
			for (; bl_json_is_kept(k) && (row = bl_json_kept_next(k, &at));
			     tally->kept++)
				json_decref(row);
			tally->texts += bl_json_is_kept(k);
		}
		json_t *wrap = alone ? json_pack("{s[O]}", "runs", alone) : NULL;
		bool ok = wrap && used == tlen && restore_kept(wrap) &&
			  same(want, json_array_get(json_object_get(wrap, "runs"), 0));
		if (!ok)
			printf("  a run alone differs: %.80s\n", t ? t : "");
		CHECK(ok);
		json_decref(wrap);
		json_decref(alone);
		json_decref(want);
		free(t);
	}
	json_decref(doc);
}

static void test_runs_alone(void)
{
	json_t *(*readers[])(const char *, size_t, size_t *) = {
		bl_json_read_run_as_text, bl_json_read_run_in_place, read_run_lean};
	static const char *const how[] = {"", ", in place", ", lean"};
	for (size_t k = 0; k < 3; k++) {
		struct alone_tally t = {readers[k], 0, 0, 0, 0};
		CHECK(corpus_each("expected.json", run_alone_case, &t) > 100);
		printf("runs alone%s: %zu, %zu handed back, %zu rows and results kept in %zu "
		       "texts\n",
		       how[k], t.runs, t.back, t.kept, t.texts);
		CHECK(t.kept > 1000);
		/* copied one a text; in place or stashed, those in a row one */
		CHECK(k ? t.texts * 5 < t.kept : t.texts == t.kept);
		CHECK(t.back * 100 < t.runs);
		stash_free();
	}
}

/* What a lean reading passes over is named by its place: a run's member
 * "time", not a key that reads the same ("span.offset") nor "time" deeper
 * down; its span is lifted to its line: the last "line" when named
 * twice, null when the span has none or it is no integer (the last
 * span, when named twice). A span that is no object stays
 * as it is; one that is not JSON is no run (NULL). */
static void test_lean_names(void)
{
	static const struct {
		const char *run, *want;
	} cases[] = {
		{"{\"tool\":\"dd\",\"span.offset\":1,\"span\":{\"line\":3,\"offset\":2,\"time\":4},"
		 "\"params\":{\"time\":5,\"offset\":6},\"time\":{\"real\":7}}",
		 "{\"tool\":\"dd\",\"span.offset\":1,\"span\":3,\"params\":{\"time\":5,\"offset\":6}}"},
		{"{\"span\":{\"line\":3,\"x\":[1,{\"line\":9}],\"line\":4}}", "{\"span\":4}"},
		{"{\"span\":{\"offset\":2},\"tool\":\"dd\"}", "{\"span\":null,\"tool\":\"dd\"}"},
		{"{\"span\":{},\"tool\":\"dd\"}", "{\"span\":null,\"tool\":\"dd\"}"},
		{"{\"span\":{\"line\":3},\"span\":{}}", "{\"span\":null}"},
		{"{\"span\":{\"line\":{\"line\":7}}}", "{\"span\":null}"},
		{"{\"span\":{\"line\":\"7\"}}", "{\"span\":null}"},
		{"{\"span\":[3],\"tool\":\"dd\"}", "{\"span\":[3],\"tool\":\"dd\"}"},
		{"{\"span\":{\"line\":3,},\"tool\":\"dd\"}", NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t used = 0;
		json_t *lean = read_run_lean(cases[i].run, strlen(cases[i].run), &used);
		json_t *want = cases[i].want ? json_loads(cases[i].want, 0, NULL) : NULL;
		bool ok = want ? lean && used == strlen(cases[i].run) && json_equal(lean, want)
			       : !lean;
		if (!ok)
			printf("  lean reading of %s differs\n", cases[i].run);
		CHECK(ok);
		json_decref(lean);
		json_decref(want);
	}
	stash_free();
}

/* Runs read lean share the members bl_render_lean_run_share names and
 * the shapes of their rows when their texts are the same, and only then:
 * the second run's values are the first's, the third's its own. */
static void test_shared(void)
{
	const char *shape = "{\"shape\":0,\"coords\":[\"pool\"],\"cells\":[{\"metric\":"
			    "\"read_ops\",\"unit\":\"ops/s\"}]}";
	char a[512], b[512], c[512];
	snprintf(a, sizeof a,
		 "{\"tool\":\"zpool-iostat\",\"group\":0,\"span\":{\"line\":1},"
		 "\"params\":{\"interval\":1},\"rows\":[%s,[0,\"tank\",3]]}",
		 shape);
	snprintf(b, sizeof b,
		 "{\"tool\":\"zpool-iostat\",\"group\":0,\"span\":{\"line\":1},"
		 "\"params\":{\"interval\":1},\"rows\":[%s,[0,\"tank\",4]]}",
		 shape);
	snprintf(c, sizeof c,
		 "{\"tool\":\"zpool-iostat\",\"group\":1,\"span\":{\"line\":1},"
		 "\"params\":{\"interval\":2},\"rows\":[{\"shape\":0,\"coords\":[\"vdev\"],"
		 "\"cells\":[]},[0,\"ada0\"]]}");
	size_t used;
	json_t *ra = read_run_lean(a, strlen(a), &used), *rb = read_run_lean(b, strlen(b), &used),
	       *rc = read_run_lean(c, strlen(c), &used);
	CHECK(ra && rb && rc);
	const char *members[] = {"tool", "group", "params"};
	for (size_t i = 0; i < 3; i++) {
		json_t *va = json_object_get(ra, members[i]);
		CHECK(va && va == json_object_get(rb, members[i]));
		CHECK(i == 0 ? va == json_object_get(rc, members[i])
			     : va != json_object_get(rc, members[i]));
	}
	/* span is not shared: each run its own */
	CHECK(json_object_get(ra, "span") != json_object_get(rb, "span"));
	json_t *sa = json_array_get(json_object_get(ra, "rows"), 0);
	CHECK(json_is_object(sa) && sa == json_array_get(json_object_get(rb, "rows"), 0));
	CHECK(sa != json_array_get(json_object_get(rc, "rows"), 0));
	/* as many references as holders: the two runs and the table */
	CHECK(sa->refcount == 3);
	json_t *want = json_loads(shape, 0, NULL);
	CHECK(json_equal(sa, want));
	json_decref(want);
	json_decref(ra);
	json_decref(rb);
	json_decref(rc);
	stash_free();
}

/* Past what the table holds (2^16 slots, three quarters full), values
 * are read as they are, not shared: each still the one its text gives,
 * those kept before still shared. 60,000 runs, each its own label. */
static void test_shared_full(void)
{
	enum { RUNS = 60000 };
	static json_t *runs[RUNS];
	char text[160];
	size_t used, wrong = 0;
	for (size_t i = 0; i < RUNS; i++) {
		snprintf(text, sizeof text,
			 "{\"tool\":\"dd\",\"label\":\"disk %zu\",\"group\":0,\"results\":[]}", i);
		runs[i] = read_run_lean(text, strlen(text), &used);
		char want[32];
		snprintf(want, sizeof want, "disk %zu", i);
		const char *label = json_string_value(json_object_get(runs[i], "label"));
		wrong += !label || strcmp(label, want) != 0;
	}
	CHECK(wrong == 0);
	/* read again: the first label is the one kept, the last (read once
	 * the table was full) a value of its own, the same text */
	json_t *again[2];
	const size_t which[2] = {0, RUNS - 1};
	for (size_t k = 0; k < 2; k++) {
		snprintf(text, sizeof text,
			 "{\"tool\":\"dd\",\"label\":\"disk %zu\",\"group\":0,\"results\":[]}",
			 which[k]);
		again[k] = read_run_lean(text, strlen(text), &used);
	}
	json_t *first = json_object_get(runs[0], "label"),
	       *last = json_object_get(runs[RUNS - 1], "label");
	CHECK(json_object_get(again[0], "label") == first);
	CHECK(json_object_get(again[1], "label") != last &&
	      json_equal(json_object_get(again[1], "label"), last));
	/* the tool, kept before the table filled, is shared by all */
	CHECK(json_object_get(again[1], "tool") == json_object_get(runs[0], "tool"));
	for (size_t k = 0; k < 2; k++)
		json_decref(again[k]);
	for (size_t i = 0; i < RUNS; i++)
		json_decref(runs[i]);
	stash_free();
}

/* A string that looks like a kept text pointing into memory, read by
 * json_loadb from a document: not a kept text, whatever its address.
 * One made by the reader, changed in any byte of its tag: not either. */
static void test_forged_pointer(void)
{
	const char *run = "{\"tool\":\"zpool-iostat\",\"rows\":[[0,\"tank\",331]]}";
	size_t used;
	json_t *real = bl_json_read_run_in_place(run, strlen(run), &used);
	json_t *kept = json_array_get(json_object_get(real, "rows"), 0);
	CHECK(bl_json_is_kept(kept));
	size_t at = 0;
	json_t *back = bl_json_kept_next(kept, &at);
	CHECK(back && json_array_size(back) == 3 && !bl_json_kept_next(kept, &at));
	json_decref(back);
	size_t n = json_string_length(kept);
	char forged[64];
	CHECK(n <= sizeof forged);
	for (size_t i = n - 8; i < n; i++) {
		memcpy(forged, json_string_value(kept), n);
		forged[i] ^= 0x20;
		json_t *f = json_stringn_nocheck(forged, n);
		CHECK(f != NULL);
		at = 0;
		CHECK(!bl_json_is_kept(f) && !bl_json_kept_next(f, &at));
		json_decref(f);
	}
	/* bytes of the kind through JSON: "\u0002", then each byte as \u00XX
	 * (those over 0x7f become two: no document spells an address) */
	char doc[512];
	size_t end = (size_t)snprintf(doc, sizeof doc, "{\"rows\":[\"\\u0002");
	memcpy(forged, json_string_value(kept), n);
	for (size_t i = 1; i < n; i++)
		end += (size_t)snprintf(doc + end, sizeof doc - end, "\\u00%02x",
					(unsigned char)forged[i] ^ (i == n - 1));
	snprintf(doc + end, sizeof doc - end, "\"]}");
	json_error_t e;
	json_t *d = json_loads(doc, JSON_ALLOW_NUL, &e);
	json_t *s = json_array_get(json_object_get(d, "rows"), 0);
	CHECK(json_is_string(s) && json_string_value(s)[0] == BL_JSON_KEPT_REF);
	at = 0;
	CHECK(!bl_json_is_kept(s) && !bl_json_kept_next(s, &at));
	json_decref(d);
	json_decref(real);
}

int main(void)
{
	test_plain();
	test_handed_back();
	test_mutations();
	test_corpus();
	test_runs_alone();
	test_forged_pointer();
	test_lean_names();
	test_shared();
	test_shared_full();
	return CHECK_DONE();
}
