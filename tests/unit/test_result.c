/* test_result.c - a run's results as structs (parsers/result.c): members
 * in the document's order, coordinates replaced in place, strings jansson
 * would refuse left out, pointers stable while results are added, and
 * the front of a long list dropped with the rest intact. */
#include <stdlib.h>
#include <string.h>

#include "../../parsers/doc.h"
#include "check.h"

/* The compact JSON of result r. */
static char *dump(const struct bl_result *r)
{
	json_t *j = bl_result_json(r);
	char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(j);
	return s;
}

static bool dumps_as(const struct bl_result *r, const char *want)
{
	char *got = dump(r);
	bool ok = got && strcmp(got, want) == 0;
	if (!ok)
		printf("  got  %s\n  want %s\n", got ? got : "(null)", want);
	free(got);
	return ok;
}

static void test_members(void)
{
	struct bl_run run;
	memset(&run, 0, sizeof run);
	bl_results_init(&run.results);
	struct bl_result *r =
		bl_run_result(&run, "read_bandwidth", 7864320, "B/s", "7.5M", BL_FLAG_APPROXIMATE);
	bl_result_set_str(r, "vdev", "tank");
	bl_result_set_int(r, "sample", 0);
	bl_result_set_bool(r, "since_boot", true);
	CHECK(dumps_as(r, "{\"metric\":\"read_bandwidth\",\"value\":7864320,\"unit\":\"B/s\","
			  "\"raw\":\"7.5M\",\"flags\":[\"approximate\"],\"vdev\":\"tank\","
			  "\"sample\":0,\"since_boot\":true}"));
	/* a key set again keeps its place; a deleted one is gone */
	bl_result_set_int(r, "sample", 7);
	bl_result_del(r, "since_boot");
	bl_result_set_real(r, "bucket_low", 1.0);
	bl_result_set_null(r, "size");
	CHECK(dumps_as(r, "{\"metric\":\"read_bandwidth\",\"value\":7864320,\"unit\":\"B/s\","
			  "\"raw\":\"7.5M\",\"flags\":[\"approximate\"],\"vdev\":\"tank\","
			  "\"sample\":7,\"bucket_low\":1.0,\"size\":null}"));
	CHECK(bl_result_int(r, "sample", -1) == 7);
	CHECK(bl_result_int(r, "vdev", -1) == -1);
	CHECK(strcmp(bl_result_str(r, "vdev"), "tank") == 0);
	/* not run, censored, not finite: null values */
	struct bl_result *n = bl_run_result(&run, "seeks", NAN, "ops/s", "+++++", BL_FLAG_CENSORED);
	double v;
	CHECK(!bl_result_number(n, &v));
	CHECK(dumps_as(n, "{\"metric\":\"seeks\",\"value\":null,\"unit\":\"ops/s\",\"raw\":"
			  "\"+++++\",\"flags\":[\"censored\"]}"));
	struct bl_result *x = bl_run_result(&run, "elapsed", 0.25, "s", NULL, BL_FLAG_NOT_RUN);
	CHECK(dumps_as(x, "{\"metric\":\"elapsed\",\"value\":null,\"unit\":\"s\",\"flags\":"
			  "[\"not-run\"]}"));
	/* what jansson refuses: a coordinate left out, raw as U+FFFD, a real
	 * that is not finite never set */
	struct bl_result *b = bl_run_result(&run, "bytes", 1.5, "B", "\xff\xfe", 0);
	bl_result_set_str(b, "label", "ok");
	bl_result_set_str(b, "label", "bad \xc3");
	bl_result_set_str(b, "other", "\xed\xa0\x80");
	bl_result_set_real(b, "at", INFINITY);
	CHECK(dumps_as(b, "{\"metric\":\"bytes\",\"value\":1.5,\"unit\":\"B\",\"raw\":"
			  "\"\xEF\xBF\xBD\",\"label\":\"ok\"}"));
	/* a metric renamed in place */
	bl_result_set_metric(b, "snapshot_bytes");
	CHECK(strcmp(b->metric, "snapshot_bytes") == 0);
	CHECK(bl_results_find(&run.results, "snapshot_bytes") == b);
	CHECK(bl_results_find(&run.results, "bytes") == NULL);
	bl_results_free(&run.results);
}

/* Results stay where they are while more are added; the front of the list
 * is dropped with the others' strings kept. */
static void test_long_list(void)
{
	struct bl_run run;
	memset(&run, 0, sizeof run);
	bl_results_init(&run.results);
	struct bl_result *first = bl_run_result(&run, "m0", 0, "B", "r0", 0);
	bl_result_set_str(first, "vdev", "v0");
	char name[32], raw[32];
	for (int i = 1; i < 1000; i++) {
		snprintf(name, sizeof name, "m%d", i);
		snprintf(raw, sizeof raw, "r%d", i);
		struct bl_result *r = bl_run_result(&run, name, i, "B", raw, 0);
		/* a long string: a chunk of its own */
		char *big = malloc(9000);
		memset(big, 'a' + i % 26, 8999);
		big[8999] = '\0';
		bl_result_set_str(r, "vdev", i % 100 == 0 ? big : name);
		bl_result_set_int(r, "sample", i);
		free(big);
	}
	CHECK(bl_results_count(&run.results) == 1000);
	CHECK(bl_results_at(&run.results, 0) == first);
	CHECK(strcmp(first->raw, "r0") == 0 && strcmp(bl_result_str(first, "vdev"), "v0") == 0);
	CHECK(bl_results_drop_front(&run.results, 990) == 0);
	CHECK(bl_results_count(&run.results) == 10);
	bool same = true;
	for (int i = 990; i < 1000; i++) {
		const struct bl_result *r = bl_results_at(&run.results, (size_t)(i - 990));
		snprintf(name, sizeof name, "m%d", i);
		snprintf(raw, sizeof raw, "r%d", i);
		const char *vdev = bl_result_str(r, "vdev");
		same &= strcmp(r->metric, name) == 0 && strcmp(r->raw, raw) == 0 &&
			bl_result_int(r, "sample", -1) == i && r->value == i &&
			(i % 100 == 0 ? strlen(vdev) == 8999 && vdev[0] == 'a' + i % 26
				      : strcmp(vdev, name) == 0);
	}
	CHECK(same);
	CHECK(bl_results_drop_front(&run.results, 50) == 0);
	CHECK(bl_results_count(&run.results) == 0);
	bl_results_free(&run.results);
}

/* A raw text given with its length stops at a NUL in it, as the same
 * text made a string would; what is not UTF-8 stands as U+FFFD. */
static void test_raw_length(void)
{
	struct bl_run run;
	memset(&run, 0, sizeof run);
	bl_results_init(&run.results);
	struct bl_result *a = bl_run_result(&run, "m", 1, NULL, NULL, 0);
	struct bl_result *b = bl_run_result(&run, "m", 1, NULL, "7.5", 0);
	bl_result_set_rawn(a, "7.5M ignored", 4);
	CHECK(strcmp(a->raw, "7.5M") == 0 && bl_strs_len(a->raw) == 4);
	bl_result_set_rawn(a, "7.5\0M", 5);
	CHECK(strcmp(a->raw, "7.5") == 0 && bl_strs_len(a->raw) == 3 &&
	      strcmp(b->raw, a->raw) == 0);
	bl_result_set_rawn(a,
			   "\xff"
			   "1K",
			   3);
	CHECK(strcmp(a->raw, "\xEF\xBF\xBD") == 0);
	bl_results_free(&run.results);
}

int main(void)
{
	test_members();
	test_raw_length();
	test_long_list();
	return CHECK_DONE();
}
