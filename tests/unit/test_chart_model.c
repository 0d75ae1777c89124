/* test_chart_model.c - documents to chart models (render/select.c,
 * views.c, model.c, scale.c): which bars, in which order and groups, their
 * medians and whiskers, censored and approximate values, and the scale. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/benchlog.h"
#include "../../render/internal.h"
#include "../../render/render.h"
#include "check.h"
#include "post.h"

/* A benchlog/1 document written by hand (tests/render/). */
static json_t *doc(const char *path)
{
	json_t *docs = json_array();
	json_t *d = json_load_file(path, 0, NULL);
	if (d)
		json_array_append_new(docs, d);
	return docs;
}

static long cat_of(const struct bl_chart *c, const char *name)
{
	for (size_t i = 0; i < c->ncats; i++)
		if (strcmp(c->cats[i], name) == 0)
			return (long)i;
	return -1;
}

static long ser_of(const struct bl_chart *c, const char *name)
{
	for (size_t i = 0; i < c->nseries; i++)
		if (strcmp(c->series[i], name) == 0)
			return (long)i;
	return -1;
}

static const struct bl_bar *bar(const struct bl_chart *c, const char *cat, const char *ser)
{
	long ci = cat_of(c, cat), si = ser_of(c, ser);
	return ci < 0 || si < 0 ? NULL : bl_chart_bar(c, (size_t)ci, (size_t)si);
}

static const struct bl_chart *chart_id(const struct bl_charts *cs, const char *id)
{
	for (size_t i = 0; i < cs->n; i++)
		if (strcmp(cs->v[i].id, id) == 0)
			return &cs->v[i];
	return NULL;
}

static void test_dd_seed000(void)
{
	json_t *docs = post("corpus/dd/seed000-geli-mirror-csh-time/input");
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0);
	CHECK(cs.n == 1);
	const struct bl_chart *c = &cs.v[0];
	CHECK(strcmp(c->id, "dd-throughput") == 0);
	/* 16 results: 8 configurations x write/read */
	CHECK(c->nbars == 16);
	CHECK(c->ncats == 8);
	CHECK(c->nseries == 2);
	CHECK(strcmp(c->series[0], "write") == 0 && strcmp(c->series[1], "read") == 0);
	/* input order: the post's order of sections */
	CHECK(strcmp(c->cats[0], "(single hdd) UFS2, gjournal, eli.") == 0);
	CHECK(strcmp(c->cats[3], "(mirror hdd, eli) zfs") == 0);
	CHECK(strcmp(c->cats[7], "(mirror !!!degraded!!!, single drive ad4s2; no eli!) zfs") == 0);
	const struct bl_bar *b = bar(c, "(mirror hdd, eli) zfs", "write");
	CHECK(b && b->value == 31181832 && b->n == 1 && b->min == b->max);
	b = bar(c, "(mirror hdd, eli) zfs", "read");
	CHECK(b && b->value == 40092833);
	/* bars are ordered by category, then series */
	for (size_t i = 0; i + 1 < c->nbars; i++)
		CHECK(c->bars[i].cat < c->bars[i + 1].cat ||
		      (c->bars[i].cat == c->bars[i + 1].cat &&
		       c->bars[i].ser < c->bars[i + 1].ser));
	CHECK(!c->any_repeats && !c->any_censored && !c->any_approximate);
	/* scale: 86.3 MB/s at most -> 0..100 MB/s in steps of 20 */
	CHECK(strcmp(c->scale.unit, "MB/s") == 0);
	CHECK(c->scale.div == 1e6);
	CHECK(c->scale.nticks == 6 && c->scale.ticks[5] == 100e6 && c->scale.hi == 100e6);
	CHECK(c->nsources == 1 && strcmp(c->sources[0], "post.txt") == 0);
	/* test01 on /data01 and /data02, test011: each written and read back */
	CHECK(c->ncommands == 6);
	bl_charts_free(&cs);

	/* --sort value: the fastest configuration first */
	o.sort = BL_SORT_VALUE;
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	CHECK(strcmp(cs.v[0].cats[0], "(mirror !!!degraded!!!, single drive ad4s2; no eli!) zfs") ==
	      0);
	bl_charts_free(&cs);

	/* --where on the label; binary units */
	o.sort = BL_SORT_INPUT;
	o.where = "no eli";
	o.units = BL_UNITS_BINARY;
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	CHECK(cs.v[0].ncats == 2 && cs.v[0].nbars == 4);
	CHECK(strcmp(cs.v[0].scale.unit, "MiB/s") == 0 && cs.v[0].scale.div == 1048576);
	bl_charts_free(&cs);

	/* a bad regex is an error with a message */
	o.where = "(unclosed";
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == -1 && strstr(err, "--where"));
	o.where = NULL;

	/* --tool that is absent: no chart, no error */
	o.tool = "iozone";
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 0);
	bl_charts_free(&cs);

	/* --metric elapsed: write and read still side by side */
	o.tool = NULL;
	o.metric = "elapsed";
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	CHECK(strcmp(cs.v[0].unit, "s") == 0 && cs.v[0].nbars == 16);
	b = bar(&cs.v[0], "(mirror hdd, eli) zfs", "write");
	CHECK(b && b->value == 67.255574);
	bl_charts_free(&cs);
	json_decref(docs);
}

static void test_repeats_seed004(void)
{
	json_t *docs = post("corpus/dd/seed004-ufs-zfs-repeats/input");
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0);
	/* dd and time, and one per other tool whose parser reads the post */
	CHECK(cs.n >= 2);
	const struct bl_chart *c = chart_id(&cs, "dd-throughput");
	CHECK(c && c->nbars == 6 && c->ncats == 3);
	/* no headings: the file name, and #2 for the second zfs configuration,
	 * so that the k-th write pairs with the k-th read */
	CHECK(c && cat_of(c, "/ufs/testfile") == 0 && cat_of(c, "/zfs/testfile") == 1 &&
	      cat_of(c, "/zfs/testfile #2") == 2);
	const struct bl_bar *b = c ? bar(c, "/ufs/testfile", "write") : NULL;
	/* 44651004, 45081905, 47568837: median and whisker */
	CHECK(b && b->n == 3 && b->value == 45081905 && b->min == 44651004 && b->max == 47568837);
	b = c ? bar(c, "/zfs/testfile #2", "read") : NULL;
	CHECK(b && b->n == 3 && b->value == 68455883 && b->min == 65236253 && b->max == 71222368);
	CHECK(c && c->any_repeats);

	const struct bl_chart *t = chart_id(&cs, "time-elapsed");
	CHECK(t && t->ncats == 6 && t->nseries == 3 && t->nbars == 18);
	CHECK(t && strcmp(t->series[0], "real") == 0 && strcmp(t->series[2], "sys") == 0);
	b = t ? bar(t, "(tar xvf ports.tar 2>/dev/null)", "real") : NULL;
	CHECK(b && b->n == 3 && b->value == 270.082 && b->min == 269.505 && b->max == 277.724);
	CHECK(t && strcmp(t->scale.unit, "s") == 0);
	bl_charts_free(&cs);

	/* --group-by run: no aggregation, one category per run */
	o.group_by = BL_KEY_RUN;
	o.tool = "dd";
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	CHECK(cs.v[0].ncats == 18 && cs.v[0].nbars == 18 && !cs.v[0].any_repeats);
	bl_charts_free(&cs);
	json_decref(docs);
}

static void test_several_sources(void)
{
	json_t *a = post("corpus/dd/seed000-geli-mirror-csh-time/input");
	json_t *b = post("corpus/dd/seed001-raidz-captions/input");
	/* the second document claims another source */
	json_t *d1 = json_array_get(b, 0);
	json_object_set_new(json_object_get(d1, "source"), "path", json_string("other/post.txt"));
	json_array_extend(a, b);
	struct bl_chart_opts o = {.tool = "dd"};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(a, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	/* distinct labels: the series stay write/read, one chart compares them */
	CHECK(cs.v[0].nseries == 2 && cs.v[0].ncats == 11 && cs.v[0].nsources == 2);
	bl_charts_free(&cs);
	o.group_by = BL_KEY_SOURCE;
	CHECK(bl_chart_build(a, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	CHECK(cs.v[0].ncats == 2 && strcmp(cs.v[0].cats[0], "post.txt") == 0);
	CHECK(cs.v[0].nbars == 4 && cs.v[0].bars[0].n == 8);
	bl_charts_free(&cs);

	/* the same post twice under two names: same labels, series per source */
	json_t *c = post("corpus/dd/seed000-geli-mirror-csh-time/input");
	json_t *c2 = post("corpus/dd/seed000-geli-mirror-csh-time/input");
	json_object_set_new(json_object_get(json_array_get(c2, 0), "source"), "path",
			    json_string("replay.txt"));
	json_array_extend(c, c2);
	o.group_by = BL_KEY_NONE;
	CHECK(bl_chart_build(c, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	CHECK(cs.v[0].ncats == 8 && cs.v[0].nseries == 4 && cs.v[0].nbars == 32);
	CHECK(ser_of(&cs.v[0], "post.txt: write") == 0 &&
	      ser_of(&cs.v[0], "replay.txt: read") == 3);
	bl_charts_free(&cs);
	json_decref(a);
	json_decref(b);
	json_decref(c);
	json_decref(c2);
}

static void test_bonnie_censored(void)
{
	json_t *docs = doc("tests/render/bonniepp.json");
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 2);
	const struct bl_chart *r = chart_id(&cs, "bonniepp-rates");
	/* tests across, runs as series; per-char tests not run: no bars */
	CHECK(r && r->ncats == 3 && r->nseries == 2 && r->nbars == 6);
	CHECK(r && strcmp(r->cats[0], "block write") == 0 && strcmp(r->series[1], "zfs-host") == 0);
	CHECK(r && cat_of(r, "write per char") < 0);
	const struct bl_bar *b = r ? bar(r, "block read", "zfs-host") : NULL;
	CHECK(b && b->censored && b->value == 150000000);
	/* room above a lower bound */
	CHECK(r && r->scale.hi > 150000000);
	CHECK(r && r->any_censored);
	CHECK(r && strstr(r->subtitle, "FreeBSD 8.0-RELEASE") != NULL);

	const struct bl_chart *ops = chart_id(&cs, "bonniepp-ops");
	CHECK(ops && ops->ncats == 4);
	b = ops ? bar(ops, "seq. create", "ufs-host") : NULL;
	/* +++++ without a bound: censored, never a zero */
	CHECK(b && b->censored && isnan(b->value) && b->n == 1);
	b = ops ? bar(ops, "seq. create", "zfs-host") : NULL;
	CHECK(b && !b->censored && b->value == 9120);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* bonnie's machine column names two hosts alike ("zfs" before and after
 * the author moved to another machine): two repeat groups, two series. */
static void test_same_machine_two_groups(void)
{
	json_t *docs = doc("tests/render/bonnie-same-machine.json");
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	const struct bl_chart *c = cs.n ? &cs.v[0] : NULL;
	CHECK(c && c->nseries == 2 && strcmp(c->series[0], "zfs") == 0 &&
	      strcmp(c->series[1], "zfs #2") == 0);
	const struct bl_bar *b = c ? bar(c, "block write", "zfs") : NULL;
	CHECK(b && b->n == 2 && b->min == 109527040 && b->max == 110919680);
	b = c ? bar(c, "block write", "zfs #2") : NULL;
	CHECK(b && b->n == 1 && b->value == 34424832);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* Groups met in turn under one name (0, 1, 0, 2, 1): a group keeps the
 * ordinal it was first given, a new one takes the next. */
static void test_groups_interleaved(void)
{
	json_t *docs = doc("tests/render/bonnie-groups-interleaved.json");
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	const struct bl_chart *c = cs.n ? &cs.v[0] : NULL;
	CHECK(c && c->nseries == 3 && strcmp(c->series[0], "zfs") == 0 &&
	      strcmp(c->series[1], "zfs #2") == 0 && strcmp(c->series[2], "zfs #3") == 0);
	const struct bl_bar *b = c ? bar(c, "block write", "zfs") : NULL;
	CHECK(b && b->n == 2 && b->min == 100000000 && b->max == 102000000);
	b = c ? bar(c, "block write", "zfs #2") : NULL;
	CHECK(b && b->n == 2 && b->min == 40000000 && b->max == 41000000);
	b = c ? bar(c, "block write", "zfs #3") : NULL;
	CHECK(b && b->n == 1 && b->value == 70000000);
	bl_charts_free(&cs);
	json_decref(docs);
}

static void test_iozone_zpool_diskinfo(void)
{
	json_t *docs = doc("tests/render/iozone.json");
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0);
	/* one chart per file size, smallest first; a panel per test, a series
	 * per file size, smallest first; and the throughput-mode run */
	CHECK(cs.n == 5);
	CHECK(cs.n == 5 && strcmp(cs.v[0].id, "iozone-throughput-64-MiB") == 0);
	CHECK(cs.n == 5 && strcmp(cs.v[1].id, "iozone-throughput-128-MiB") == 0);
	const struct bl_chart *panel = chart_id(&cs, "iozone-test-write");
	CHECK(panel && panel->nseries == 2 && strcmp(panel->series[0], "64 MiB") == 0 &&
	      strcmp(panel->series[1], "128 MiB") == 0);
	const struct bl_chart *c = &cs.v[0];
	/* record sizes in numeric order though the post listed 4k, 1m, 64k */
	CHECK(c->ncats == 3 && strcmp(c->cats[0], "4 KiB") == 0 &&
	      strcmp(c->cats[1], "64 KiB") == 0 && strcmp(c->cats[2], "1 MiB") == 0);
	CHECK(c->nseries == 2 && strcmp(c->series[0], "write") == 0);
	const struct bl_bar *b = bar(c, "1 MiB", "read");
	CHECK(b && b->value == 2150400000);
	/* throughput mode: the children's sums only (not parent or min), one
	 * chart per number of processes */
	CHECK(cs.n == 5 && strcmp(cs.v[4].id, "iozone-tests-2-processes") == 0);
	CHECK(cs.n == 5 && cs.v[4].ncats == 2 && cs.v[4].nseries == 1 &&
	      strcmp(cs.v[4].series[0], "two writers") == 0);
	b = cs.n == 5 ? bar(&cs.v[4], "initial writers", "two writers") : NULL;
	CHECK(b && b->n == 1 && b->value == 312320000);
	bl_charts_free(&cs);
	json_decref(docs);

	/* two runs with the same file and record size are two series each,
	 * never repeats of one measurement */
	docs = doc("tests/render/iozone-two-runs.json");
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	c = cs.n ? &cs.v[0] : NULL;
	CHECK(c && c->nseries == 4 && strcmp(c->series[0], "cached: write") == 0 &&
	      strcmp(c->series[2], "O_DIRECT: write") == 0);
	b = c ? bar(c, "64 KiB", "O_DIRECT: read") : NULL;
	CHECK(b && b->n == 1 && b->value == 150200000);
	bl_charts_free(&cs);
	json_decref(docs);

	docs = doc("tests/render/zpool.json");
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 2);
	c = chart_id(&cs, "zpool-iostat-bandwidth");
	CHECK(c && c->ncats == 2 && strcmp(c->cats[0], "tank") == 0);
	/* sample 0 (since boot) left out: samples 1 and 2 */
	b = c ? bar(c, "tank", "write") : NULL;
	CHECK(b && b->n == 2 && b->min == 52428800 && b->max == 62914560 && b->approximate);
	CHECK(b && b->value == (52428800.0 + 62914560.0) / 2);
	CHECK(c && c->any_approximate);
	b = chart_id(&cs, "zpool-iostat-ops")
		    ? bar(chart_id(&cs, "zpool-iostat-ops"), "tank", "read")
		    : NULL;
	CHECK(b && b->n == 2 && b->value == 16 && !b->approximate);
	bl_charts_free(&cs);
	json_decref(docs);

	/* the system line comes from the chart's own documents only */
	docs = doc("tests/render/bonniepp.json");
	json_array_append_new(docs, json_load_file("tests/render/iozone.json", 0, NULL));
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 7);
	c = chart_id(&cs, "iozone-tests-2-processes");
	CHECK(c && strstr(c->subtitle, "FreeBSD") == NULL &&
	      strstr(c->subtitle, "iozone-auto.txt"));
	c = chart_id(&cs, "bonniepp-rates");
	CHECK(c && strstr(c->subtitle, "FreeBSD") && !strstr(c->subtitle, "iozone-auto.txt"));
	CHECK(c && c->nsources == 1 && strcmp(c->sources[0], "bonniepp-two-hosts.txt") == 0);
	bl_charts_free(&cs);
	json_decref(docs);

	docs = doc("tests/render/diskinfo.json");
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 2);
	c = chart_id(&cs, "diskinfo-seek");
	CHECK(c && c->ncats == 3 && c->nseries == 2 && strcmp(c->scale.unit, "ms") == 0);
	c = chart_id(&cs, "diskinfo-transfer");
	CHECK(c && c->ncats == 3 && strcmp(c->series[1], "ada1") == 0);
	bl_charts_free(&cs);
	json_decref(docs);
}

static void test_scale(void)
{
	struct bl_scale s;
	char buf[32];
	bl_scale_compute(&s, "B/s", 0, 86316646, false, BL_UNITS_DECIMAL);
	CHECK(strcmp(s.unit, "MB/s") == 0 && s.nticks == 6 && s.ticks[1] == 20e6);
	bl_scale_compute(&s, "B/s", 0, 86316646, false, BL_UNITS_BINARY);
	CHECK(strcmp(s.unit, "MiB/s") == 0 && s.hi >= 86316646);
	/* 82.3 MiB -> 0..100 MiB/s in steps of 20 */
	CHECK(s.nticks == 6 && s.ticks[5] == 100.0 * 1048576);
	bl_scale_compute(&s, "B/s", 0, 2150400000, false, BL_UNITS_DECIMAL);
	CHECK(strcmp(s.unit, "GB/s") == 0 && s.ticks[1] == 0.5e9 && s.hi == 2.5e9);
	bl_scale_compute(&s, "s", 0, 0.023, false, BL_UNITS_DECIMAL);
	CHECK(strcmp(s.unit, "ms") == 0 && s.hi == 0.025);
	bl_scale_compute(&s, "s", 0, 277.7, false, BL_UNITS_DECIMAL);
	CHECK(strcmp(s.unit, "s") == 0 && s.hi == 300);
	/* every tick is a multiple of the step, the top covers the value */
	bl_scale_compute(&s, "ops/s", 0, 18034, false, BL_UNITS_DECIMAL);
	CHECK(strcmp(s.unit, "k ops/s") == 0 && s.hi >= 18034 && s.ticks[0] == 0);
	/* log: whole decades */
	bl_scale_compute(&s, "B/s", 9e6, 2.1e9, true, BL_UNITS_DECIMAL);
	CHECK(s.log && s.lo == 1e6 && s.hi == 1e10 && s.ticks[0] == 1e6 && s.nticks == 5);
	bl_scale_format(&s, 22683845, buf, sizeof buf);
	CHECK(strcmp(buf, "22.7") == 0 &&
	      strcmp(s.unit, "MB/s") == 0); /* the typical value's unit */
	bl_scale_compute(&s, "B/s", 0, 86316646, false, BL_UNITS_DECIMAL);
	bl_scale_format(&s, 22683845, buf, sizeof buf);
	CHECK(strcmp(buf, "22.7") == 0);
	bl_scale_format(&s, 140e6, buf, sizeof buf);
	CHECK(strcmp(buf, "140") == 0);
	bl_format_value(31181832, "B/s", BL_UNITS_DECIMAL, buf, sizeof buf);
	CHECK(strcmp(buf, "31.2 MB/s") == 0);
	bl_format_value(65536, "B", BL_UNITS_BINARY, buf, sizeof buf);
	CHECK(strcmp(buf, "64 KiB") == 0);
	bl_format_value(9277127, "B/s", BL_UNITS_DECIMAL, buf, sizeof buf);
	CHECK(strcmp(buf, "9.28 MB/s") == 0);
	bl_format_value(NAN, "B/s", BL_UNITS_DECIMAL, buf, sizeof buf);
	CHECK(strcmp(buf, "?") == 0);
	/* an exponent keeps its zeros, and a huge value is no 301 digits */
	bl_format_value(1.2e-10, "records", BL_UNITS_DECIMAL, buf, sizeof buf);
	CHECK(strcmp(buf, "1.2e-10 records") == 0);
	bl_scale_compute(&s, "B/s", 0, 1e300, false, BL_UNITS_DECIMAL);
	bl_scale_format(&s, 1.2e300, buf, sizeof buf);
	CHECK(strlen(buf) < 12 && strstr(buf, "e+"));
}

static void test_words(void)
{
	CHECK(bl_key_parse("label") == BL_KEY_LABEL && bl_key_parse("source") == BL_KEY_SOURCE);
	CHECK(bl_key_parse("tool") == BL_KEY_TOOL && bl_key_parse("run") == BL_KEY_RUN);
	CHECK(bl_key_parse("colour") == -1);
	CHECK(bl_sort_parse("value") == BL_SORT_VALUE && bl_sort_parse("x") == -1);
	CHECK(bl_units_parse("binary") == BL_UNITS_BINARY &&
	      bl_units_parse("decimal") == BL_UNITS_DECIMAL);
	CHECK(bl_units_parse("furlongs") == -1);
	CHECK(bl_text_width("測試") == 4 && bl_text_width("zfs") == 3 && bl_text_width("été") == 3);
	CHECK(bl_format_from_path("a.PNG") == BL_FORMAT_PNG &&
	      bl_format_from_path("c.svg") == BL_FORMAT_SVG);
	CHECK(bl_format_from_path("x.pdf") == BL_FORMAT_PDF && bl_format_from_path("x.jpg") == -1);
	CHECK(bl_format_from_path("noext") == -1);
}

/* Two repeat groups are never one bar: a write (117 MB/s) and a read
 * (279 MB/s) under one heading, with no command; the value axis says
 * which way is better. */
static void test_groups_apart(void)
{
	json_t *docs = post("corpus/dd/real-md-raid-time-script/input");
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0);
	const struct bl_chart *c = chart_id(&cs, "dd-throughput");
	CHECK(c && c->nbars == 2 && !c->any_repeats);
	for (size_t i = 0; c && i < c->nbars; i++)
		CHECK(c->bars[i].n == 1);
	CHECK(c && c->better == BL_BETTER_HIGHER);
	const struct bl_chart *t = chart_id(&cs, "time-elapsed");
	CHECK(t && t->better == BL_BETTER_LOWER);
	char axis[128];
	if (t) {
		bl_axis_text(t, axis, sizeof axis);
		CHECK(strcmp(axis, "time (s), lower is better") == 0);
	}
	bl_charts_free(&cs);
	json_decref(docs);

	/* nameless bonnie rows under one label line are repeats of it */
	docs = post("corpus/bonnie/bray-label-lines-indented-rows/input");
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0);
	c = chart_id(&cs, "bonnie-rates");
	const struct bl_bar *b = c ? bar(c, "block write", "node7 (noatime)") : NULL;
	CHECK(c && c->nseries == 2 && b && b->n == 2);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* Groups that would share a name are named by the parameter that tells
 * them apart; repeats more than 2x apart keep each value. */
static void test_names_and_disagreement(void)
{
	json_t *docs = post("corpus/dd/seed004-ufs-zfs-repeats/input");
	struct bl_chart_opts o = {.tool = "bonnie++"};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0);
	const struct bl_chart *c = chart_id(&cs, "bonniepp-rates");
	CHECK(c && ser_of(c, "freebsd.javaforum.h (file size 2 GiB)") == 0 &&
	      ser_of(c, "freebsd.javaforum.h (file size 8 GiB)") == 1);
	/* 2 GiB, three runs of rewrite: 8.99, 12.7 and 19.2 MB/s */
	const struct bl_bar *b =
		c ? bar(c, "rewrite", "freebsd.javaforum.h (file size 2 GiB)") : NULL;
	CHECK(b && b->n == 3 && b->disagree && b->nvals == 3 && b->vals[0] < b->vals[1] &&
	      b->vals[1] < b->vals[2] && b->vals[0] == b->min && b->vals[2] == b->max);
	b = c ? bar(c, "block read", "freebsd.javaforum.h (file size 2 GiB)") : NULL;
	CHECK(b && b->n == 3 && !b->disagree && b->nvals == 0);
	CHECK(c && c->any_disagree);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* --baseline: each bar as a percentage of its series' bar in the named
 * category; a label that no chart has is an error naming the labels. */
static void test_baseline(void)
{
	json_t *docs = post("corpus/dd/seed000-geli-mirror-csh-time/input");
	struct bl_chart_opts o = {.tool = "dd", .baseline = "(single hdd) zfs"};
	struct bl_charts cs;
	char err[512];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	const struct bl_chart *c = cs.n ? &cs.v[0] : NULL;
	const struct bl_bar *b = c ? bar(c, "(single hdd) zfs", "write") : NULL;
	CHECK(b && fabs(b->value - 100) < 1e-9);
	/* 22683845 / 18549456 B/s: UFS writes at 122% of ZFS */
	b = c ? bar(c, "(single hdd) UFS2, gjournal, eli.", "write") : NULL;
	CHECK(b && fabs(b->value - 122.29) < 0.01);
	CHECK(c && strcmp(c->unit, "%") == 0 &&
	      strcmp(c->metric_label, "% of (single hdd) zfs") == 0 &&
	      c->better == BL_BETTER_HIGHER);
	bl_charts_free(&cs);
	/* a caseless part of one label will do; one of several will not */
	o.baseline = "NO ELI!) ZFS";
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) < 0);
	o.baseline = "(mirror hdd, no eli!)";
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	bl_charts_free(&cs);
	o.baseline = "nosuch";
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) < 0 &&
	      strstr(err, "no bar is labelled 'nosuch'") && strstr(err, "'(single hdd) zfs'"));
	json_decref(docs);

	/* seed 001's last caption was only written: its reads have nothing to
	 * be a percentage of, and go, rather than turn into empty bars */
	docs = post("corpus/dd/seed001-raidz-captions/input");
	o.baseline = "WD15EARS";
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	c = cs.n ? &cs.v[0] : NULL;
	CHECK(c && c->nseries == 1 && strcmp(c->series[0], "write") == 0 && c->nbars == 3);
	for (size_t i = 0; c && i < c->nbars; i++)
		CHECK(!isnan(c->bars[i].value) && c->bars[i].ser == 0);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* Values more than two orders of magnitude apart: tests of one tool
 * (categories that are metrics) go to a chart of their own; vdevs stay
 * in one chart, on a log axis in decades of the display unit. */
static void test_magnitudes(void)
{
	json_t *docs = post("corpus/dd/seed004-ufs-zfs-repeats/input");
	struct bl_chart_opts o = {.tool = "bonnie++"};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 4);
	const struct bl_chart *big = chart_id(&cs, "bonniepp-rates");
	const struct bl_chart *small = chart_id(&cs, "bonniepp-rates-write-per-char");
	CHECK(big && cat_of(big, "write per char") < 0 && cat_of(big, "block write") >= 0);
	CHECK(small && small->ncats == 1 && strcmp(small->scale.unit, "kB/s") == 0);
	CHECK(small && strcmp(small->title, "bonnie++ sequential rates, write per char") == 0);
	const struct bl_chart *seeks = chart_id(&cs, "bonniepp-ops-random-seeks");
	CHECK(seeks && strcmp(seeks->scale.unit, "ops/s") == 0 && !seeks->scale.log);
	bl_charts_free(&cs);
	json_decref(docs);

	docs = post("corpus/zpool-iostat/openzfs-verbose-classes/input");
	o.tool = "zpool-iostat";
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0);
	const struct bl_chart *c = chart_id(&cs, "zpool-iostat-bandwidth");
	CHECK(c && c->auto_log && c->scale.log && strcmp(c->scale.unit, "MiB/s") == 0);
	/* ticks at 0.001 ... 1000 MiB/s */
	CHECK(c && c->scale.nticks >= 2 && fabs(c->scale.ticks[0] / 1048576 - 0.001) < 1e-12);
	/* a log, cache, special or dedup vdev says its class */
	CHECK(c && cat_of(c, "tank/mirror-4 (logs)") >= 0 &&
	      cat_of(c, "tank/nvme0n1p3 (cache)") >= 0 && cat_of(c, "tank/mirror-0") >= 0);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* A value whose run was read with a warning carries the warning's code;
 * a chart whose every value is censored without a bound has no axis. */
static void test_doubtful_values(void)
{
	json_t *docs = post("corpus/bonniepp/v197-table-and-csv-disagree/input");
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0);
	const struct bl_chart *c = chart_id(&cs, "bonniepp-rates");
	const struct bl_bar *b = c ? bar(c, "block write", "backup-node-east-02") : NULL;
	CHECK(b && b->warning && strcmp(b->warning, "bonniepp.table-csv-mismatch") == 0);
	CHECK(c && strcmp(c->warning, "bonniepp.table-csv-mismatch") == 0);
	bl_charts_free(&cs);
	json_decref(docs);

	docs = post("corpus/bonniepp/real-pbs-200a-all-censored/input");
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0);
	c = chart_id(&cs, "bonniepp-ops");
	CHECK(c && c->any_censored && c->scale.nticks == 0 && c->nbars == 7);
	c = chart_id(&cs, "bonniepp-rates");
	CHECK(c && c->scale.nticks > 0 && !c->warning[0]);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* Runs sharing the cells of a chart are told apart by the words of their
 * command the others lack, or by their labels; alone, by nothing. */
static void test_iozone_runs_apart(void)
{
	json_t *docs = post("corpus/iozone/sample-3.489/input");
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0);
	const struct bl_chart *c = chart_id(&cs, "iozone-throughput-4-MiB");
	CHECK(c && c->nseries == 8 && ser_of(c, "write") == 0 && ser_of(c, "-I -e: write") == 4);
	c = chart_id(&cs, "iozone-throughput-1-MiB");
	CHECK(c && c->nseries == 13 && ser_of(c, "write") == 0);
	bl_charts_free(&cs);
	json_decref(docs);

	docs = post("corpus/iozone/two-tables-prose/input");
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	CHECK(cs.n && ser_of(&cs.v[0], "Before the update: write") >= 0 &&
	      ser_of(&cs.v[0], "After the update: write") >= 0);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* A source's name: its file name, with as many folders as tell it from
 * the other files; a message of an archive adds its number. */
static void test_source_names(void)
{
	const char *paths[] = {"a/x/input", "b/x/input", "c/y/input", "c/y/input"};
	json_t *docs = json_array();
	for (size_t i = 0; i < 4; i++) {
		json_t *p = post("corpus/dd/seed000-geli-mirror-csh-time/input");
		json_t *src = json_object_get(json_array_get(p, 0), "source");
		json_object_set_new(src, "path", json_string(paths[i]));
		if (i == 3)
			json_object_set_new(src, "message", json_pack("{s:i}", "index", 2));
		json_array_extend(docs, p);
		json_decref(p);
	}
	struct bl_chart_opts o = {.tool = "dd", .group_by = BL_KEY_SOURCE};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	CHECK(cs.n && cs.v[0].ncats == 4 && cat_of(&cs.v[0], "a/x/input") >= 0 &&
	      cat_of(&cs.v[0], "b/x/input") >= 0 && cat_of(&cs.v[0], "y/input") >= 0 &&
	      cat_of(&cs.v[0], "y/input #3") >= 0);
	/* every cell's bar, walked in the cells' order as looked up one by one */
	for (size_t i = 0; i < cs.n; i++) {
		size_t n = 0, at = 0;
		const struct bl_bar **order = bl_chart_cell_order(&cs.v[i], &n);
		CHECK(order != NULL);
		for (size_t c = 0; order && c < cs.v[i].ncats; c++)
			for (size_t k = 0; k < cs.v[i].nseries; k++) {
				const struct bl_bar *b = NULL;
				if (at < n && order[at]->cat == c && order[at]->ser == k)
					b = order[at++];
				CHECK(b == bl_chart_bar(&cs.v[i], c, k));
			}
		CHECK(at == n);
		free(order);
	}
	bl_charts_free(&cs);
	json_decref(docs);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median a sort gives, of values with many repeats or none, in
 * order, reversed or shuffled, of every length up to 300 and a long
 * stream's (a cell of 120,001 samples). */
static void test_median(void)
{
	unsigned seed = 17;
	size_t lens[] = {1, 2, 3, 4, 5, 8, 9, 64, 65, 299, 300, 120000, 120001};
	int bad = 0;
	for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
		size_t n = lens[li];
		double *v = malloc(n * sizeof *v), *w = malloc(n * sizeof *w);
		for (int kind = 0; kind < 5; kind++) {
			for (size_t i = 0; i < n; i++) {
				seed = seed * 1103515245u + 12345u;
				double r = (double)(seed >> 8);
				v[i] = kind == 0   ? r
				       : kind == 1 ? (double)(seed >> 28) /* 16 values */
				       : kind == 2 ? (double)i
				       : kind == 3 ? (double)(n - i)
						   : 42.5;
			}
			memcpy(w, v, n * sizeof *v);
			qsort(w, n, sizeof *w, by_value);
			double want = n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
			double got = bl_median(v, n);
			qsort(v, n, sizeof *v, by_value);
			if (got != want || memcmp(v, w, n * sizeof *v) != 0) {
				printf("median of %zu values (kind %d): %g, want %g\n", n, kind,
				       got, want);
				bad++;
			}
		}
		free(v);
		free(w);
	}
	CHECK(bad == 0);
	CHECK(isnan(bl_median(NULL, 0)));
}

int main(void)
{
	test_median();
	test_dd_seed000();
	test_repeats_seed004();
	test_groups_apart();
	test_names_and_disagreement();
	test_baseline();
	test_magnitudes();
	test_doubtful_values();
	test_iozone_runs_apart();
	test_several_sources();
	test_source_names();
	test_bonnie_censored();
	test_iozone_zpool_diskinfo();
	test_same_machine_two_groups();
	test_groups_interleaved();
	test_scale();
	test_words();
	bl_cleanup();
	return CHECK_DONE();
}
