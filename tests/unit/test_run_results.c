/* test_run_results.c - a run's results read in either form
 * (parsers/run_results.c): every corpus input is parsed and written with
 * rows; each run's results, read from its rows, must make the objects
 * bl_doc_expand_rows makes of them, member for member and in order, and
 * read from those objects, the same again, and read from the rows kept
 * as text (bl_json_read_results_as_text), the same again, and from a
 * run read in place (bl_json_read_run_in_place), again. Edge cases: a shape declared
 * again, rows that fit no shape, a run with neither list. */
#include <stdlib.h>
#include <string.h>

#include "../../base/jsonread.h"
#include "../../parsers/benchlog.h"
#include "../../parsers/run_results.h"
#include "check.h"
#include "corpus.h"

#define DUMP (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

/* The object bl_result_json would make of r, from the accessors alone. */
static json_t *rebuilt(const struct bl_res *r)
{
	json_t *o = json_object();
	const char *own[] = {"metric", "value", "unit", "raw"};
	for (size_t i = 0; i < 4; i++) {
		json_t *v = bl_res_get(r, own[i]);
		if (v)
			json_object_set(o, own[i], v);
		if (i == 3 && bl_res_flag(r, 0)) {
			json_t *flags = json_array();
			const char *f;
			for (size_t k = 0; (f = bl_res_flag(r, k)); k++) {
				json_array_append_new(flags, json_string(f));
				CHECK(bl_res_has_flag(r, f));
			}
			json_object_set_new(o, "flags", flags);
		}
	}
	const char *key;
	json_t *v;
	for (size_t i = 0; bl_res_coord(r, i, &key, &v); i++) {
		json_object_set(o, key, v);
		CHECK(bl_res_get(r, key) == v);
	}
	CHECK(!bl_res_has_flag(r, "no-such-flag") && !bl_res_get(r, "no-such-key"));
	return o;
}

static bool same(json_t *a, json_t *b)
{
	char *x = json_dumps(a, DUMP), *y = json_dumps(b, DUMP);
	bool eq = x && y && strcmp(x, y) == 0;
	if (!eq)
		printf("  got  %.300s\n  want %.300s\n", x ? x : "-", y ? y : "-");
	free(x);
	free(y);
	return eq;
}

/* The results read from run (either form) are want's, in order. */
static size_t compare_run(json_t *run, json_t *want)
{
	struct bl_res_iter it;
	struct bl_res r;
	size_t n = 0;
	for (bl_res_begin(&it, run); bl_res_next(&it, &r); n++) {
		json_t *o = rebuilt(&r);
		CHECK(same(o, json_array_get(want, n)));
		json_decref(o);
	}
	CHECK(n == json_array_size(want));
	CHECK(bl_res_count(run) == n);
	return n;
}

static int put_text(const char *buf, size_t n, void *ctx)
{
	FILE *f = ctx;
	return fwrite(buf, 1, n, f) == n ? 0 : -1;
}

struct tally {
	size_t docs, rows_runs, results, handed_back, in_place;
};

/* run read alone in place from its text (as chart and table read a long
 * run): its results, and its rows expanded, are want's. */
static void compare_in_place(json_t *run, json_t *want, struct tally *t)
{
	char *text = json_dumps(run, DUMP);
	json_t *alone = text ? bl_json_read_run_in_place(text, strlen(text), NULL) : NULL;
	if (alone) {
		json_t *objects = json_deep_copy(alone);
		compare_run(alone, want);
		CHECK(objects && !bl_run_expand_rows(objects));
		compare_run(objects, want);
		json_decref(objects);
		t->in_place++;
	}
	json_decref(alone);
	free(text);
}

static int each_message(struct bl_message *m, void *ctx)
{
	struct tally *t = ctx;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	json_t *tail = bl_parse_message_write(m, "input", DUMP, put_text, f);
	fclose(f);
	CHECK(tail != NULL);
	json_decref(tail);
	json_t *doc = json_loadb(text, len, 0, NULL), *objects = json_deep_copy(doc);
	/* the rows kept as text, as chart and table read a document */
	json_t *lazy = bl_json_read_results_as_text(text, len, NULL);
	json_t *lazy_objects = json_deep_copy(lazy), *plain = bl_json_read(text, len, NULL);
	free(text);
	CHECK(doc && objects && !bl_doc_check_rows(doc) && !bl_doc_expand_rows(objects));
	/* where the plain reader hands the text to json_loadb, so does this one */
	CHECK(!lazy == !plain);
	json_decref(plain);
	t->handed_back += !lazy;
	CHECK(!lazy || (!bl_doc_check_rows(lazy) && !bl_doc_expand_rows(lazy_objects)));
	size_t i;
	json_t *run;
	json_array_foreach(json_object_get(doc, "runs"), i, run)
	{
		json_t *want = json_object_get(json_array_get(json_object_get(objects, "runs"), i),
					       "results");
		t->rows_runs += json_object_get(run, "rows") != NULL;
		t->results += compare_run(run, want);
		compare_run(json_array_get(json_object_get(objects, "runs"), i), want);
		if (lazy) {
			compare_run(json_array_get(json_object_get(lazy, "runs"), i), want);
			compare_run(json_array_get(json_object_get(lazy_objects, "runs"), i), want);
		}
		compare_in_place(run, want, t);
	}
	t->docs++;
	json_decref(doc);
	json_decref(objects);
	json_decref(lazy);
	json_decref(lazy_objects);
	return 0;
}

static void ingest_case(const char *text, size_t len, void *ctx)
{
	CHECK(bl_ingest_buffer(bl_parser_ingest(), text, len, each_message, ctx) == 0);
}

static void test_corpus(void)
{
	struct tally t = {0};
	corpus_each("input", ingest_case, &t);
	printf("corpus: %zu documents (%zu handed to json_loadb), %zu runs with rows, %zu "
	       "results, %zu runs read in place\n",
	       t.docs, t.handed_back, t.rows_runs, t.results, t.in_place);
	CHECK(t.docs > 200 && t.rows_runs > 30 && t.results > 5000 && t.handed_back < 10);
	CHECK(t.in_place > 400);
}

static size_t count_of(const char *run_text)
{
	json_t *run = json_loads(run_text, 0, NULL);
	CHECK(run != NULL);
	size_t n = bl_res_count(run);
	json_decref(run);
	return n;
}

static void test_edges(void)
{
	const char *shape0 = "{\"shape\":0,\"coords\":[\"vdev\"],\"cells\":[{\"metric\":\"a\"}]}";
	const char *again = "{\"shape\":0,\"coords\":[],\"cells\":[{\"metric\":\"b\"},{}]}";
	char t[512];
	/* the number declared again: the rows after it have the new shape */
	snprintf(t, sizeof t, "{\"rows\":[%s,[0,\"tank\",1],%s,[0,2,[null,null,\"not-run\"]]]}",
		 shape0, again);
	json_t *run = json_loads(t, 0, NULL);
	json_t *want = json_loads("[{\"metric\":\"a\",\"value\":1,\"vdev\":\"tank\"},"
				  "{\"metric\":\"b\",\"value\":2},"
				  "{\"value\":null,\"flags\":[\"not-run\"]}]",
				  0, NULL);
	CHECK(run && want && compare_run(run, want) == 3);
	json_decref(run);
	json_decref(want);
	/* rows of no declared shape, or of the wrong length: passed over */
	snprintf(t, sizeof t, "{\"rows\":[[0,\"x\",1],%s,[0,\"tank\"],3,[0,\"tank\",5]]}", shape0);
	CHECK(count_of(t) == 1);
	CHECK(count_of("{\"results\":[{\"value\":1},{\"value\":2}]}") == 2);
	/* a flag that is not a string is none: those after it count */
	snprintf(t, sizeof t, "{\"rows\":[%s,[0,\"tank\",[1,null,5,\"censored\"]]]}", shape0);
	run = json_loads(t, 0, NULL);
	struct bl_res_iter it;
	struct bl_res r;
	bl_res_begin(&it, run);
	CHECK(bl_res_next(&it, &r) && bl_res_has_flag(&r, "censored"));
	CHECK(strcmp(bl_res_flag(&r, 0), "censored") == 0 && !bl_res_flag(&r, 1));
	bl_res_end(&it);
	json_decref(run);
	/* strings of a document are not kept texts: passed over, and refused
	 * by the check; a kept text (BL_JSON_KEPT first) that is no row is
	 * none either */
	snprintf(t, sizeof t, "{\"runs\":[{\"rows\":[%s,\"[0,\\\"x\\\",1]\"]}]}", shape0);
	run = json_loads(t, 0, NULL);
	CHECK(run && bl_res_count(json_array_get(json_object_get(run, "runs"), 0)) == 0);
	CHECK(bl_doc_check_rows(run) && strstr(bl_doc_check_rows(run), "neither"));
	json_decref(run);
	snprintf(t, sizeof t, "{\"runs\":[{\"rows\":[\"\\u0001%s\",[0,\"x\",1]]}]}", "{}");
	run = json_loads(t, 0, NULL);
	CHECK(run && bl_doc_check_rows(run) && strstr(bl_doc_check_rows(run), "neither"));
	json_decref(run);
	CHECK(count_of("{\"results\":[\"{\\\"value\\\":1}\",{\"value\":2}]}") == 1);
	CHECK(count_of("{\"tool\":\"dd\"}") == 0);
	CHECK(count_of("{\"rows\":{}}") == 0);
}

int main(void)
{
	test_edges();
	test_corpus();
	bl_results_cleanup();
	return CHECK_DONE();
}
