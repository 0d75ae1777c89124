/* test_views.c - the chart views every registered descriptor carries
 * (parsers/views.h): each metric a view names is one its tool's metric info
 * titles, titles are not empty, no two views of a tool share a name; and
 * render's lookups of views and titles (render/views.c). The checker is
 * also run on broken descriptors, to show that it catches each fault. */
#include <stdio.h>
#include <string.h>

#include "../../parsers/parser.h"
#include "../../render/internal.h"
#include "check.h"

/* more entries than any tool has: an array without its end marker */
#define MAX_ENTRIES 64

/* the faults of the broken descriptors below are expected: not printed */
static bool quiet;
#define FAULT(...) (quiet ? 0 : printf(__VA_ARGS__))

static bool filled(const char *s)
{
	return s && *s;
}

static bool metric_known(const struct bl_parser *p, const char *metric)
{
	for (const struct bl_metric_info *m = p->metrics; m && m->metric; m++)
		if (strcmp(m->metric, metric) == 0)
			return true;
	return false;
}

/* The faults of one view of p's (printed); 0 when none. */
static int view_faults(const struct bl_parser *p, const struct bl_chart_view *v)
{
	int bad = 0;
	if (!filled(v->name) || !filled(v->title) || !filled(v->unit)) {
		FAULT("  %s: a view without a name, title or unit\n", p->name);
		bad++;
	}
	if (v->category == BL_KEY_NONE) {
		FAULT("  %s %s: no key for the categories\n", p->name, v->name);
		bad++;
	}
	for (const char *const *m = v->metrics; m && *m; m++)
		if (!metric_known(p, *m)) {
			FAULT("  %s %s: metric %s has no metric info\n", p->name, v->name, *m);
			bad++;
		}
	return bad;
}

/* The faults of p's views, metric info and transfer (printed). */
static int faults(const struct bl_parser *p)
{
	int bad = 0;
	size_t n = 0;
	for (; p->views && p->views[n].name && n < MAX_ENTRIES; n++) {
		bad += view_faults(p, &p->views[n]);
		for (size_t j = 0; j < n; j++)
			if (strcmp(p->views[j].name, p->views[n].name) == 0) {
				FAULT("  %s: two views named %s\n", p->name, p->views[n].name);
				bad++;
			}
	}
	size_t k = 0;
	for (; p->metrics && p->metrics[k].metric && k < MAX_ENTRIES; k++) {
		const struct bl_metric_info *mi = &p->metrics[k];
		if (!filled(mi->metric) || !filled(mi->units) || !filled(mi->about)) {
			FAULT("  %s: metric info without a metric, units or what it measures\n",
			      p->name);
			bad++;
		} else if (strchr(mi->metric, '*') && mi->title) {
			FAULT("  %s: pattern %s with a title\n", p->name, mi->metric);
			bad++;
		}
		for (size_t j = 0; j < k; j++)
			if (strcmp(p->metrics[j].metric, p->metrics[k].metric) == 0) {
				FAULT("  %s: metric %s titled twice\n", p->name,
				      p->metrics[k].metric);
				bad++;
			}
	}
	if (n == MAX_ENTRIES || k == MAX_ENTRIES) {
		FAULT("  %s: views or metric info without an end marker\n", p->name);
		bad++;
	}
	const struct bl_transfer *t = p->transfer;
	if (t && (!filled(t->from) || !filled(t->to) || !t->generators || !t->sinks)) {
		FAULT("  %s: a transfer without its ends, generators or sinks\n", p->name);
		bad++;
	}
	return bad;
}

static void test_registered(void)
{
	size_t n = 0, with_views = 0;
	for (; bl_parsers[n]; n++) {
		CHECK(faults(bl_parsers[n]) == 0);
		with_views += bl_parsers[n]->views != NULL;
	}
	CHECK(n >= 8 && with_views >= 7);
}

static const char *const rates[] = {"read_rate", "write_rate", NULL};
static const char *const odd[] = {"read_rate", "wirte_rate", NULL};
static const struct bl_metric_info info[] = {
	{.metric = "read_rate", .title = "read", .units = "B/s", .about = "reading"},
	{.metric = "write_rate", .title = "write", .units = "B/s", .about = "writing"},
	{.metric = NULL},
};

/* Each fault, alone in a descriptor that is otherwise sound, is found. */
static void test_faults_found(void)
{
	const struct bl_chart_view good = {.name = "rates",
					   .title = "rates",
					   .metrics = rates,
					   .unit = "B/s",
					   .category = BL_KEY_LABEL,
					   .series = BL_KEY_METRIC,
					   .chart_per = BL_KEY_NONE};
	struct bl_chart_view views[3] = {good, {.name = NULL}, {.name = NULL}};
	struct bl_parser p = {.name = "fake", .views = views, .metrics = info};
	quiet = true;
	CHECK(faults(&p) == 0);

	views[0].metrics = odd; /* a metric the info does not know */
	CHECK(faults(&p) == 1);
	views[0] = good;
	views[0].title = ""; /* an empty title */
	CHECK(faults(&p) == 1);
	views[0] = good;
	views[1] = good; /* two views of one name */
	CHECK(faults(&p) == 1);
	views[1].name = "rates2";
	CHECK(faults(&p) == 0);

	struct bl_metric_info bare[] = {
		info[0], info[1], {.metric = "x", .title = "x"}, {.metric = NULL}};
	p.metrics = bare; /* an entry that says neither unit nor what */
	CHECK(faults(&p) == 1);
	struct bl_metric_info titled[] = {
		info[0], info[1], {"*_x", "x", "s", "a family"}, {.metric = NULL}};
	p.metrics = titled; /* a pattern with a title */
	CHECK(faults(&p) == 1);

	struct bl_metric_info twice[] = {info[0], info[1], info[0], {.metric = NULL}};
	p.metrics = twice; /* one metric titled twice */
	CHECK(faults(&p) == 1);
	p.metrics = NULL; /* views name metrics, and nothing titles them */
	CHECK(faults(&p) == 4);
	views[0].metrics = views[1].metrics = NULL; /* every metric of the unit */
	CHECK(faults(&p) == 0);

	const struct bl_transfer half = {.from = "input", .to = NULL};
	p.transfer = &half;
	CHECK(faults(&p) == 1);
	quiet = false;
}

/* What render reads from the registry. */
static void test_render_lookups(void)
{
	bool generic;
	const struct bl_chart_view *v = bl_views_for("bonnie++", &generic);
	CHECK(!generic && strcmp(v[0].name, "rates") == 0 && strcmp(v[1].name, "ops") == 0 &&
	      !v[2].name);
	v = bl_views_for("hdparm", &generic); /* a tool without views of its own */
	CHECK(generic && strcmp(v[0].name, "throughput") == 0 && !v[1].name);
	v = bl_views_for("nosuchtool", &generic);
	CHECK(generic && strcmp(v[0].unit, "B/s") == 0);

	char buf[64];
	CHECK(strcmp(bl_metric_title("bonnie", "seq_output_block", buf, sizeof buf),
		     "block write") == 0);
	CHECK(strcmp(bl_metric_title("time", "system", buf, sizeof buf), "sys") == 0);
	/* never another tool's title for the same metric name: iozone's
	 * random_read is not bonnie++'s "random read (files)" */
	CHECK(strcmp(bl_metric_title("dd", "elapsed", buf, sizeof buf), "elapsed") == 0);
	CHECK(strcmp(bl_metric_title("iozone", "random_read", buf, sizeof buf), "random read") ==
	      0);
	CHECK(strcmp(bl_metric_title("bonniepp", "random_read", buf, sizeof buf), "random read") ==
	      0);
	CHECK(strcmp(bl_metric_title("bonnie++", "random_read", buf, sizeof buf),
		     "random read (files)") == 0);
	CHECK(strcmp(bl_metric_title("hdparm", "cached_reads", buf, sizeof buf), "cached reads") ==
	      0);

	CHECK(bl_transfer_of("dd") && !bl_transfer_of("time") && !bl_transfer_of("nosuchtool"));
}

/* Catalog patterns: '*' any run, the rest literal. */
static void test_metric_patterns(void)
{
	CHECK(bl_metric_matches("*_cpu", "seq_output_char_cpu"));
	CHECK(bl_metric_matches("*_cpu", "x_cpu"));
	CHECK(!bl_metric_matches("*_cpu", "cpu"));
	CHECK(!bl_metric_matches("*_cpu", "seq_cpu_x"));
	CHECK(bl_metric_matches("*q_*_pend", "syncq_read_pend"));
	CHECK(!bl_metric_matches("*q_*_pend", "sync_read_pend"));
	CHECK(bl_metric_matches("throughput", "throughput"));
	CHECK(!bl_metric_matches("throughput", "snapshot_throughput"));
	/* every tool's catalog names its views' metrics */
	const struct bl_parser *dd = bl_parser_find("dd");
	CHECK(dd && dd->metrics && strcmp(dd->metrics[0].units, "B/s") == 0);
}

int main(void)
{
	test_metric_patterns();
	test_registered();
	test_faults_found();
	test_render_lookups();
	return CHECK_DONE();
}
