/* test_table.c - a run's results as rows (parsers/table.c): which results
 * make one row, which shape a row has and when it is declared again, and
 * rows expanded back into results member for member, or refused with a
 * reason when they do not fit their shapes. */
#include <stdlib.h>
#include <string.h>

#include "../../parsers/benchlog.h"
#include "check.h"

#define FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

static struct bl_result *add(struct bl_results *rs, const char *vdev, long long sample,
			     const char *metric, double v)
{
	struct bl_result *r = bl_results_add(rs);
	bl_result_set_metric(r, metric);
	bl_result_set_unit(r, "ops/s");
	r->value = v;
	bl_result_set_str(r, "vdev", vdev);
	bl_result_set_int(r, "sample", sample);
	return r;
}

/* Feeds results [0, n) to g as the writer does; the shape number of each
 * row that ends, in order, into ids (-2 after a declaration). */
static size_t group(struct bl_rows *g, const struct bl_results *rs, int *ids)
{
	size_t k = 0;
	bool declare;
	for (size_t i = 0; i < bl_results_count(rs); i++) {
		const struct bl_result *r = bl_results_at(rs, i);
		if (!bl_rows_joins(g, r)) {
			if (g->open) {
				ids[k++] = bl_rows_end(g, &declare);
				if (declare)
					ids[k++] = -2;
			}
			CHECK(bl_rows_start(g, r) == 0);
		}
		CHECK(bl_rows_cell(g, r) == 0);
	}
	if (g->open) {
		ids[k++] = bl_rows_end(g, &declare);
		if (declare)
			ids[k++] = -2;
	}
	return k;
}

static void test_grouping(void)
{
	struct bl_results rs;
	bl_results_init(&rs);
	add(&rs, "tank", 0, "read_ops", 1);
	add(&rs, "tank", 0, "write_ops", 2);
	add(&rs, "tank/da0", 0, "read_ops", 3); /* other coordinates: a row */
	add(&rs, "tank/da0", 0, "write_ops", 4);
	add(&rs, "tank/da0", 0, "read_ops", 5); /* a metric again: a row */
	add(&rs, "tank", 1, "read_ops", 6);
	add(&rs, "tank", 1, "write_ops", 7);
	struct bl_rows g;
	bl_rows_init(&g);
	int ids[32];
	size_t n = group(&g, &rs, ids);
	/* rows: shape 0 (declared), 0, shape 1 (read_ops alone, declared), 0 */
	const int want[] = {0, -2, 0, 1, -2, 0};
	CHECK(n == 6 && memcmp(ids, want, sizeof want) == 0);
	CHECK(g.nshapes == 2 && g.shapes[0].ncells == 2 && g.shapes[1].ncells == 1);
	CHECK(strcmp(g.shapes[0].keys[0], "vdev") == 0 &&
	      strcmp(g.shapes[0].metric[1], "write_ops") == 0);
	/* forgotten: the same rows declare their shapes again */
	bl_rows_forget(&g);
	n = group(&g, &rs, ids);
	CHECK(n == 6 && memcmp(ids, want, sizeof want) == 0);
	bl_rows_free(&g);
	bl_results_free(&rs);
}

/* A row's coordinates are its own: the results may be gone before it ends. */
static void test_copies(void)
{
	struct bl_results rs;
	bl_results_init(&rs);
	add(&rs, "tank/mirror-0/ada1", 0, "read_ops", 1);
	struct bl_rows g;
	bl_rows_init(&g);
	CHECK(bl_rows_start(&g, bl_results_at(&rs, 0)) == 0);
	CHECK(bl_rows_cell(&g, bl_results_at(&rs, 0)) == 0);
	add(&rs, "tank/mirror-0/ada1", 0, "write_ops", 2);
	CHECK(bl_results_drop_front(&rs, 1) == 0); /* the first result freed */
	CHECK(bl_rows_joins(&g, bl_results_at(&rs, 0)));
	CHECK(strcmp(g.coord[0].v.s, "tank/mirror-0/ada1") == 0);
	/* a long coordinate moves the text; what was kept moves along */
	char big[5000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	struct bl_result *r = add(&rs, big, 0, "read_ops", 3);
	CHECK(bl_rows_start(&g, r) == 0 && bl_rows_cell(&g, r) == 0);
	CHECK(bl_strs_len(g.coord[0].v.s) == sizeof big - 1);
	/* names too long to be kept are copied into the text, and follow
	 * it when it moves (read before it moves: after, not at all) */
	bl_rows_free(&g);
	bl_rows_init(&g);
	char name1[300], name2[900];
	memset(name1, 'a', sizeof name1 - 1);
	name1[sizeof name1 - 1] = '\0';
	memset(name2, 'b', sizeof name2 - 1);
	name2[sizeof name2 - 1] = '\0';
	r = add(&rs, "tank", 0, name1, 1);
	CHECK(bl_rows_start(&g, r) == 0 && bl_rows_cell(&g, r) == 0);
	CHECK(!bl_strs_kept(g.metric[0]));
	size_t cap = g.cap;
	r = add(&rs, "tank", 0, name2, 2);
	CHECK(bl_rows_cell(&g, r) == 0 && g.cap > cap);
	CHECK(strcmp(g.metric[0], name1) == 0 && strcmp(g.metric[1], name2) == 0);
	CHECK(bl_strs_kept(g.unit[0]) && strcmp(g.unit[1], "ops/s") == 0);
	bl_rows_free(&g);
	bl_results_free(&rs);
}

/* Results placed by bl_result_copy_coords share a place, and a row finds
 * them by it; a setter, a delete or a result of another list ends the
 * sharing, and the coordinates are compared again. */
static void test_places(void)
{
	struct bl_results rs, other;
	bl_results_init(&rs);
	bl_results_init(&other);
	struct bl_result *a = add(&rs, "tank/ada1", 3, "read_ops", 1);
	CHECK(a->place == 0);
	struct bl_result *b = bl_results_add(&rs);
	bl_result_set_metric(b, "write_ops");
	bl_result_copy_coords(b, a);
	CHECK(a->place != 0 && b->place == a->place);
	struct bl_rows g;
	bl_rows_init(&g);
	CHECK(bl_rows_start(&g, a) == 0 && bl_rows_cell(&g, a) == 0);
	CHECK(g.place == a->place && bl_rows_joins(&g, b));
	/* b moved to another sample: not the row's place any more */
	bl_result_set_int(b, "sample", 4);
	CHECK(b->place == 0 && !bl_rows_joins(&g, b));
	bl_result_set_int(b, "sample", 3);
	CHECK(bl_rows_joins(&g, b)); /* compared: the same again */
	struct bl_result *c = bl_results_add(&rs);
	bl_result_set_metric(c, "read_bandwidth");
	bl_result_copy_coords(c, a);
	bl_result_del(c, "vdev");
	CHECK(c->place == 0 && !bl_rows_joins(&g, c));
	/* a copy into another store keeps its coordinates, not the place */
	struct bl_result *d = bl_results_add(&other);
	bl_result_copy_coords(d, a);
	CHECK(d->place == 0 && bl_result_int(d, "sample", -1) == 3);
	/* results moved by a drop keep their place */
	uint64_t p = a->place;
	CHECK(bl_results_drop_front(&rs, 0) == 0 && bl_results_at(&rs, 0)->place == p);
	/* a new place is one no result has had */
	CHECK(bl_place_new() != p && bl_place_new() != 0);
	bl_rows_free(&g);
	bl_results_free(&rs);
	bl_results_free(&other);
}

/* Coordinates taken from a result are put on another of its list as
 * they were, strings and all; not on one of another list, nor after the
 * list's strings moved (a drop), nor on a result placed already. */
static void test_kept_coords(void)
{
	struct bl_results rs, other;
	bl_results_init(&rs);
	bl_results_init(&other);
	struct bl_coords cs = {0};
	struct bl_result *a = add(&rs, "tank/ada1", 3, "read_ops", 1);
	struct bl_result *b = bl_results_add(&rs);
	CHECK(!bl_result_put_coords(b, &cs)); /* none taken yet */
	bl_coords_take(&cs, a);
	CHECK(bl_result_put_coords(b, &cs));
	CHECK(b->ncoord == a->ncoord && b->place == 0);
	CHECK(strcmp(bl_result_str(b, "vdev"), "tank/ada1") == 0);
	CHECK(bl_result_str(b, "vdev") == bl_result_str(a, "vdev")); /* not copied */
	CHECK(bl_result_int(b, "sample", -1) == 3);
	CHECK(!bl_result_put_coords(b, &cs)); /* b has its coordinates */
	struct bl_result *d = bl_results_add(&other);
	CHECK(!bl_result_put_coords(d, &cs) && d->ncoord == 0);
	CHECK(bl_results_drop_front(&rs, 0) == 0);
	struct bl_result *e = bl_results_add(&rs);
	CHECK(!bl_result_put_coords(e, &cs) && e->ncoord == 0);
	bl_results_free(&rs);
	bl_results_free(&other);
}

/* Past BL_ROW_SHAPES shapes, a number is declared again for another. */
static void test_many_shapes(void)
{
	struct bl_results rs;
	bl_results_init(&rs);
	char metric[32];
	for (int i = 0; i < BL_ROW_SHAPES + 2; i++) {
		snprintf(metric, sizeof metric, "m%d", i);
		add(&rs, "tank", i, metric, i);
	}
	add(&rs, "tank", 99, "m0", 0); /* m0's number was given to another */
	struct bl_rows g;
	bl_rows_init(&g);
	int ids[64];
	size_t n = group(&g, &rs, ids);
	CHECK(n == 2 * (BL_ROW_SHAPES + 3));
	CHECK(ids[2 * BL_ROW_SHAPES] == 0 && ids[2 * BL_ROW_SHAPES + 2] == 1);
	CHECK(ids[n - 2] == 2 && ids[n - 1] == -2);
	bl_rows_free(&g);
	bl_results_free(&rs);
}

static char *expanded(const char *run_text, const char **why)
{
	json_t *run = json_loads(run_text, 0, NULL);
	CHECK(run != NULL);
	*why = bl_run_expand_rows(run);
	char *s = json_dumps(run, FLAGS);
	json_decref(run);
	return s;
}

static bool expands_to(const char *run_text, const char *want)
{
	const char *why;
	char *got = expanded(run_text, &why);
	bool ok = !why && got && strcmp(got, want) == 0;
	if (!ok)
		printf("  got  %s (%s)\n  want %s\n", got ? got : "(null)", why ? why : "-", want);
	free(got);
	return ok;
}

static void test_expand(void)
{
	/* cells: a value, [value, raw, flag], null, [null, null, flag]; a
	 * cell without metric or unit; the number 0 declared again */
	CHECK(expands_to(
		"{\"tool\":\"zpool-iostat\",\"rows\":["
		"{\"shape\":0,\"coords\":[\"vdev\",\"sample\"],"
		"\"cells\":[{\"metric\":\"read_ops\",\"unit\":\"ops/s\"},{\"metric\":\"alloc\",\"unit\":\"B\"}]},"
		"[0,\"tank\",0,331,[1176477441720,\"1.07T\",\"approximate\"]],"
		"{\"shape\":0,\"coords\":[],\"cells\":[{\"metric\":\"x\"},{}]},"
		"[0,null,[null,null,\"not-run\"]]],"
		"\"time\":1}",
		"{\"tool\":\"zpool-iostat\",\"results\":["
		"{\"metric\":\"read_ops\",\"value\":331,\"unit\":\"ops/s\",\"vdev\":\"tank\",\"sample\":0},"
		"{\"metric\":\"alloc\",\"value\":1176477441720,\"unit\":\"B\",\"raw\":\"1.07T\","
		"\"flags\":[\"approximate\"],\"vdev\":\"tank\",\"sample\":0},"
		"{\"metric\":\"x\",\"value\":null},{\"value\":null,\"flags\":[\"not-run\"]}],"
		"\"time\":1}"));
	/* no rows: as it was */
	CHECK(expands_to("{\"results\":[]}", "{\"results\":[]}"));
	CHECK(expands_to("{\"rows\":[]}", "{\"results\":[]}"));
}

static bool refused(const char *run_text, const char *reason)
{
	const char *why;
	char *got = expanded(run_text, &why);
	bool ok = why && strstr(why, reason) && got && strstr(got, "\"rows\"");
	if (!ok)
		printf("  %s: %s\n", run_text, why ? why : "accepted");
	free(got);
	return ok;
}

static void test_refused(void)
{
	const char *shape = "{\"shape\":1,\"coords\":[\"vdev\"],\"cells\":[{\"metric\":\"a\"}]}";
	char t[512];
	CHECK(refused("{\"rows\":{}}", "not an array"));
	CHECK(refused("{\"rows\":[[1,\"tank\",3]]}", "not declared"));
	snprintf(t, sizeof t, "{\"rows\":[%s,[1,\"tank\"]]}", shape);
	CHECK(refused(t, "length"));
	snprintf(t, sizeof t, "{\"rows\":[%s,[1,\"tank\",\"3\"]]}", shape);
	CHECK(refused(t, "cell"));
	snprintf(t, sizeof t, "{\"rows\":[%s,[1,\"tank\",[3]]]}", shape);
	CHECK(refused(t, "cell"));
	CHECK(refused("{\"rows\":[{\"shape\":16,\"coords\":[],\"cells\":[]}]}",
		      "shape declaration"));
	CHECK(refused("{\"rows\":[{\"shape\":0,\"coords\":[1],\"cells\":[]}]}", "coordinate"));
	CHECK(refused("{\"rows\":[3]}", "neither"));
	/* a row kept as text (as json_loadb reads "\u0001..."): one row, and
	 * nothing after it */
	const char *kept[] = {"[1,\\\"tank\\\",3] junk", "[1,\\\"tank\\\",3],[1,",
			      "[1,\\\"tank\\\",3],[1,\\\"tank\\\",4]", ",[1,\\\"tank\\\",3]", "  "};
	for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
		snprintf(t, sizeof t, "{\"rows\":[%s,\"\\u0001%s\"]}", shape, kept[i]);
		CHECK(refused(t, "neither"));
	}
	snprintf(t, sizeof t, "{\"rows\":[%s,\"\\u0001[1,\\\"tank\\\",3] \"]}", shape);
	const char *why;
	free(expanded(t, &why));
	CHECK(why == NULL); /* blanks after its row: read */
	/* a document: each run */
	json_t *doc = json_loads("{\"runs\":[{\"rows\":[]},{\"rows\":[[0]]}]}", 0, NULL);
	CHECK(doc && bl_doc_expand_rows(doc) != NULL);
	json_decref(doc);
}

int main(void)
{
	test_grouping();
	test_copies();
	test_places();
	test_kept_coords();
	test_many_shapes();
	test_expand();
	test_refused();
	bl_results_cleanup();
	return CHECK_DONE();
}
