/* test_chart_table.c - the comparisons as text (render/table.c): aligned
 * terminal tables, Markdown with escaped cells, tidy CSV with quoting. */
#include <stdlib.h>
#include <string.h>

#include "../../render/render.h"
#include "check.h"

struct text {
	char buf[8192];
	size_t n;
};

static int put(void *ctx, const unsigned char *data, size_t len)
{
	struct text *t = ctx;
	if (t->n + len >= sizeof t->buf)
		return -1;
	memcpy(t->buf + t->n, data, len);
	t->n += len;
	t->buf[t->n] = '\0';
	return 0;
}

/* Whether the text is want (has it, when part): printed when not. */
static bool text_is(const struct text *t, const char *want, bool part)
{
	bool ok = part ? strstr(t->buf, want) != NULL : strcmp(t->buf, want) == 0;
	if (!ok)
		printf("%s", t->buf);
	return ok;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static json_t *load(const char *path)
{
	json_t *docs = json_array();
	json_array_append_new(docs, json_load_file(path, 0, NULL));
	return docs;
}

static void test_text(void)
{
	json_t *docs = load("tests/render/bonniepp.json");
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[64];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 2);
	struct text t = {.n = 0};
	CHECK(bl_table_chart(&cs.v[0], BL_TABLE_TEXT, put, &t) == 0);
	const char *want =
		"bonnie++ sequential rates — source: bonniepp-two-hosts.txt — FreeBSD 8.0-RELEASE, 2 x WD RE3 500 GB — higher is better\n"
		"throughput (MB/s)  ufs-host  zfs-host\n"
		"-----------------  --------  --------\n"
		"block write            62.1        91\n"
		"rewrite                24.5        41\n"
		"block read             71.4     ≥ 150\n";
	CHECK(text_is(&t, want, false));

	t.n = 0;
	CHECK(bl_table_chart(&cs.v[1], BL_TABLE_MARKDOWN, put, &t) == 0);
	CHECK(strstr(t.buf,
		     "| seq. create                     | too fast to time |             9.12 |\n") !=
	      NULL);
	CHECK(strstr(t.buf,
		     "| ------------------------------- | ---------------: | ---------------: |\n") !=
	      NULL);
	CHECK(starts(t.buf, "**bonnie++ seeks and file operations** — "));
	bl_charts_free(&cs);
	json_decref(docs);

	/* repeats: median (min–max, n); a '|' in a label is escaped in Markdown;
	 * zpool's own binary units: its "1M" and "2M" are 1 and 2 MiB/s */
	docs = load("tests/render/zpool.json");
	json_t *run = json_array_get(json_object_get(json_array_get(docs, 0), "runs"), 0);
	json_t *r;
	size_t i;
	json_array_foreach(json_object_get(run, "results"), i, r)
	{
		if (strcmp(json_string_value(json_object_get(r, "vdev")), "mirror-0") == 0)
			json_object_set_new(r, "vdev", json_string("mirror|0 *<b>_x"));
	}
	o.tool = "zpool-iostat";
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 2);
	CHECK(cs.n && strcmp(cs.v[0].scale.unit, "MiB/s") == 0);
	t.n = 0;
	CHECK(bl_table_chart(&cs.v[0], BL_TABLE_TEXT, put, &t) == 0);
	CHECK(strstr(t.buf, "tank                   ~1.5 (1–2, n=2)    ~55 (50–60, n=2)\n") !=
	      NULL);
	t.n = 0;
	CHECK(bl_table_chart(&cs.v[0], BL_TABLE_MARKDOWN, put, &t) == 0);
	CHECK(strstr(t.buf, "| mirror\\|0 \\*&lt;b>\\_x ") != NULL);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* A chart built by hand: bars in no order, most cells empty, two bars
 * in one cell (the first in the chart's order is shown), a bar outside
 * the chart's cells (not shown). */
static void test_sparse(void)
{
	char *cats[] = {"a", "bb", "c"}, *series[] = {"s1", "", "s3"};
	struct bl_bar bars[] = {
		{.cat = 2, .ser = 0, .value = 3, .n = 1},
		{.cat = 0, .ser = 2, .value = 1, .n = 1},
		{.cat = 2, .ser = 0, .value = 99, .n = 1}, /* cell (c, s1) again */
		{.cat = 1, .ser = 1, .value = 2, .n = 1},
		{.cat = 5, .ser = 0, .value = 7, .n = 1}, /* no such category */
	};
	struct bl_chart c = {.title = "t",
			     .subtitle = "sub",
			     .metric_label = "m (s)",
			     .better = BL_BETTER_LOWER,
			     .cats = cats,
			     .ncats = 3,
			     .series = series,
			     .nseries = 3,
			     .bars = bars,
			     .nbars = sizeof bars / sizeof bars[0],
			     .scale = {.div = 1}};
	struct text t = {.n = 0};
	CHECK(bl_table_chart(&c, BL_TABLE_TEXT, put, &t) == 0);
	const char *want = "t — sub — lower is better\n"
			   "m (s)  s1  value  s3\n"
			   "-----  --  -----  --\n"
			   "a                  1\n"
			   "bb             2    \n"
			   "c       3           \n";
	CHECK(text_is(&t, want, false));
	t.n = 0;
	CHECK(bl_table_chart(&c, BL_TABLE_MARKDOWN, put, &t) == 0);
	CHECK(text_is(&t, "| c     |  3 |       |    |\n", true));
}

static void test_csv(void)
{
	json_t *docs = load("tests/render/bonniepp.json");
	json_t *run = json_array_get(json_object_get(json_array_get(docs, 0), "runs"), 0);
	json_object_set_new(run, "command", json_string("bonnie++ -d \"/ufs, fast\" -s 4g"));
	struct bl_chart_opts o = {.where = "zfs"};
	struct text t = {.n = 0};
	CHECK(bl_table_csv(docs, &o, put, &t) == 0);
	/* header, then 9 results of the zfs run only */
	size_t lines = 0;
	for (const char *p = t.buf; *p; p++)
		lines += *p == '\n';
	CHECK(lines == 10);
	CHECK(starts(
		t.buf,
		"source,message,tool,variant,label,command,group,line,metric,value,unit,flags,raw\n"));
	CHECK(strstr(t.buf,
		     "bonniepp-two-hosts.txt,,bonnie++,1.03,zfs-host,bonnie++ -d /tank -s 4g -u root,1,20,"
		     "seq_input_block,150000000,B/s,censored,+++++\n") != NULL);
	CHECK(strstr(t.buf, ",seq_output_char,,B/s,not-run,\n") != NULL);
	o.where = NULL;
	t.n = 0;
	CHECK(bl_table_csv(docs, &o, put, &t) == 0);
	CHECK(strstr(t.buf, ",\"bonnie++ -d \"\"/ufs, fast\"\" -s 4g\",") != NULL);
	json_decref(docs);

	/* coordinates become columns, sorted */
	docs = load("tests/render/iozone.json");
	t.n = 0;
	CHECK(bl_table_csv(docs, &o, put, &t) == 0);
	CHECK(starts(
		t.buf,
		"source,message,tool,variant,label,command,group,line,metric,value,unit,flags,raw,"
		"file_size,processes,record_size,scope\n"));
	CHECK(strstr(t.buf, ",write,501760000,B/s,,,134217728,,65536,\n") != NULL);
	CHECK(strstr(t.buf,
		     ",initial_writers,312320000,B/s,,305000.00,67108864,2,65536,children\n") !=
	      NULL);
	CHECK(strstr(t.buf,
		     ",initial_writers,300000000,B/s,,292968.75,67108864,2,65536,parent\n") !=
	      NULL);
	json_decref(docs);
}

int main(void)
{
	test_text();
	test_sparse();
	test_csv();
	return CHECK_DONE();
}
