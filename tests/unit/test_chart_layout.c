/* test_chart_layout.c - positions as data (render/layout.c), with a fake
 * text measurer so that no font is involved: orientation, bars inside the
 * plot and apart, heights proportional to values, whiskers, labels. */
#include <math.h>
#include <string.h>

#include "../../parsers/benchlog.h"
#include "../../render/render.h"
#include "check.h"
#include "post.h"

/* 0.55 em per character, 1.2 em per line, words wrapped at `wrap`. */
static void fake_size(void *ctx, const char *text, double size, double wrap, bool bold, double *w,
		      double *h)
{
	(void)ctx;
	(void)bold;
	double cw = size * 0.55, line = 0, maxw = 0;
	int lines = 1;
	size_t n = strlen(text);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && text[j] != ' ')
			j++;
		double ww = (double)(j - i) * cw;
		if (wrap > 0 && line > 0 && line + cw + ww > wrap) {
			lines++;
			line = ww;
		} else {
			line += (line > 0 ? cw : 0) + ww;
		}
		if (line > maxw)
			maxw = line;
		i = j < n ? j + 1 : j;
	}
	*w = maxw;
	*h = lines * size * 1.2;
}

static const struct bl_measure fake = {fake_size, NULL};

static bool inside(struct bl_rect r, struct bl_rect p)
{
	return r.x >= p.x - 0.01 && r.y >= p.y - 0.01 && r.x + r.w <= p.x + p.w + 0.01 &&
	       r.y + r.h <= p.y + p.h + 0.01;
}

static bool apart(struct bl_rect a, struct bl_rect b)
{
	return a.x + a.w <= b.x + 0.01 || b.x + b.w <= a.x + 0.01 || a.y + a.h <= b.y + 0.01 ||
	       b.y + b.h <= a.y + 0.01;
}

static void check_bars(const struct bl_chart *c, const struct bl_layout *l)
{
	for (size_t i = 0; i < c->nbars; i++) {
		CHECK(inside(l->bars[i].r, l->plot));
		for (size_t j = i + 1; j < c->nbars; j++)
			CHECK(apart(l->bars[i].r, l->bars[j].r));
		/* length along the value axis is proportional to the value */
		const struct bl_bar *b = &c->bars[i];
		if (isnan(b->value))
			continue;
		double f = (b->value - c->scale.lo) / (c->scale.hi - c->scale.lo);
		double len = l->horizontal ? l->bars[i].r.w : l->bars[i].r.h;
		double full = l->horizontal ? l->plot.w : l->plot.h;
		CHECK_NEAR(len, f * full, 0.01);
	}
	for (size_t i = 0; i + 1 < l->nticks; i++)
		CHECK(l->horizontal ? l->ticks[i].pos < l->ticks[i + 1].pos
				    : l->ticks[i].pos > l->ticks[i + 1].pos);
}

static void test_seed000(void)
{
	json_t *docs = post("corpus/dd/seed000-geli-mirror-csh-time/input");
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[64];
	struct bl_layout l;
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	const struct bl_chart *c = &cs.v[0];

	/* long labels in 8 slots of ~100 px: the chart turns horizontal */
	CHECK(bl_layout_chart(c, 960, 0, BL_ORIENT_AUTO, &fake, &l) == 0);
	CHECK(l.horizontal);
	CHECK(l.width == 960 && l.height >= 360);
	check_bars(c, &l);
	/* write above read inside each category; categories top to bottom */
	CHECK(l.bars[0].r.y < l.bars[1].r.y && l.bars[1].r.y < l.bars[2].r.y);
	/* labels in the left column, each beside its bars */
	for (size_t i = 0; i < c->ncats; i++)
		CHECK(l.cats[i].r.x + l.cats[i].r.w <= l.plot.x);
	CHECK(strcmp(l.marks[6].text, "31.2") == 0); /* (mirror hdd, eli) zfs, write */
	CHECK(l.marks[6].label.x >= l.bars[6].r.x + l.bars[6].r.w);
	CHECK(l.legend[0].swatch.x < l.legend[1].swatch.x);
	CHECK(l.note_text[0] == '\0');
	bl_layout_free(&l);

	/* forced vertical: bars side by side, labels wrapped under their slot */
	CHECK(bl_layout_chart(c, 960, 540, BL_ORIENT_VERTICAL, &fake, &l) == 0);
	CHECK(!l.horizontal && l.height == 540);
	check_bars(c, &l);
	CHECK(l.bars[0].r.x < l.bars[1].r.x && l.bars[1].r.x < l.bars[2].r.x);
	for (size_t i = 0; i < c->ncats; i++) {
		CHECK(l.cats[i].r.y >= l.plot.y + l.plot.h);
		CHECK(l.cats[i].wrap > 0 && l.cats[i].wrap <= l.plot.w / 8);
	}
	bl_layout_free(&l);

	/* a wider canvas: more room per slot */
	CHECK(bl_layout_chart(c, 4000, 0, BL_ORIENT_AUTO, &fake, &l) == 0);
	CHECK(!l.horizontal);
	bl_layout_free(&l);
	bl_charts_free(&cs);
	json_decref(docs);
}

static void test_repeats_and_marks(void)
{
	json_t *docs = post("corpus/dd/seed004-ufs-zfs-repeats/input");
	struct bl_chart_opts o = {.tool = "dd"};
	struct bl_charts cs;
	char err[64];
	struct bl_layout l;
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	const struct bl_chart *c = &cs.v[0];
	CHECK(bl_layout_chart(c, 960, 0, BL_ORIENT_AUTO, &fake, &l) == 0);
	CHECK(!l.horizontal); /* three short labels */
	check_bars(c, &l);
	for (size_t i = 0; i < c->nbars; i++) {
		const struct bl_bar_box *bb = &l.bars[i];
		CHECK(bb->whisker);
		/* the whisker spans the bar's top: min below, max above */
		CHECK(bb->wlo >= bb->r.y - 0.01 && bb->whi <= bb->r.y + 0.01);
		CHECK(l.marks[i].label.y + l.marks[i].label.h <= bb->whi + 0.01);
		CHECK(strcmp(l.marks[i].ntext, "n=3") == 0);
	}
	CHECK(strstr(l.note_text, "median") != NULL);
	bl_layout_free(&l);
	bl_charts_free(&cs);
	json_decref(docs);

	docs = json_array();
	json_array_append_new(docs, json_load_file("tests/render/bonniepp.json", 0, NULL));
	o.tool = NULL;
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 2);
	for (size_t k = 0; k < cs.n; k++) {
		c = &cs.v[k];
		CHECK(bl_layout_chart(c, 960, 0, BL_ORIENT_AUTO, &fake, &l) == 0);
		check_bars(c, &l);
		for (size_t i = 0; i < c->nbars; i++) {
			const struct bl_bar *b = &c->bars[i];
			if (!b->censored)
				CHECK(l.marks[i].text[0] != '\0' &&
				      strncmp(l.marks[i].text, "≥", 3) != 0);
			else if (isnan(b->value))
				/* an open column, as tall as the plot: never a zero */
				CHECK(l.bars[i].stub && strcmp(l.marks[i].text, "too fast") == 0 &&
				      l.bars[i].r.h > l.plot.h * 0.9);
			else
				CHECK(strncmp(l.marks[i].text, "≥ ", 4) == 0 && !l.bars[i].stub);
		}
		CHECK(strstr(l.note_text, "lower bound") != NULL);
		bl_layout_free(&l);
	}
	bl_charts_free(&cs);
	json_decref(docs);

	docs = json_array();
	json_array_append_new(docs, json_load_file("tests/render/zpool.json", 0, NULL));
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 2);
	CHECK(bl_layout_chart(&cs.v[0], 960, 0, BL_ORIENT_HORIZONTAL, &fake, &l) == 0);
	CHECK(l.horizontal);
	check_bars(&cs.v[0], &l);
	CHECK(l.marks[0].text[0] == '~'); /* printed rounded */
	CHECK(l.bars[0].whi > l.bars[0].wlo); /* horizontal: max to the right */
	CHECK(strstr(l.note_text, "rounded") != NULL);
	bl_layout_free(&l);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* Many bars: horizontal, height grown to fit, every bar apart. */
static void test_hundred_bars(void)
{
	json_t *d = json_pack("{s:s, s:{s:s, s:[], s:i, s:i}, s:[], s:[], s:b}", "schema",
			      "benchlog/1", "source", "path", "many.txt", "decoding", "offset", 0,
			      "bytes", 0, "runs", "diagnostics", "partial", 0);
	json_t *runs = json_object_get(d, "runs");
	for (int i = 0; i < 100; i++) {
		char label[32];
		snprintf(label, sizeof label, "configuration %d", i);
		json_array_append_new(
			runs,
			json_pack("{s:s, s:s, s:s, s:s, s:i, s:{s:i, s:i, s:i, s:i}, s:{s:s, s:s}, "
				  "s:[{s:s, s:f, s:s}]}",
				  "tool", "dd", "variant", "bsd", "label", label, "command",
				  "dd if=/dev/zero of=/x bs=1m", "group", i, "span", "line", i + 1,
				  "end_line", i + 1, "offset", 0, "end_offset", 0, "params",
				  "input", "/dev/zero", "output", "/x", "results", "metric",
				  "throughput", "value", 1e6 * (i + 1), "unit", "B/s"));
	}
	json_t *docs = json_array();
	json_array_append_new(docs, d);
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[64];
	struct bl_layout l;
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	CHECK(cs.v[0].nbars == 100 && cs.v[0].ncats == 100);
	CHECK(bl_layout_chart(&cs.v[0], 960, 0, BL_ORIENT_AUTO, &fake, &l) == 0);
	CHECK(l.horizontal && l.height > 1500);
	check_bars(&cs.v[0], &l);
	bl_layout_free(&l);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* A chart of two categories and n series (`name` and the series' number:
 * "run 1", "run 2", ...), made by hand: a nightly log of one machine
 * gives thousands. */
struct many {
	struct bl_chart c;
	char names[20000][64];
	char *series[20000];
	struct bl_bar bars[40000];
};

static void many_series(struct many *mk, size_t n, const char *name)
{
	static char *cats[] = {"block write", "block read"};
	struct bl_chart *c = &mk->c;
	memset(c, 0, sizeof *c);
	c->title = "bonnie++ sequential rates";
	c->subtitle = "source: nightly.csv";
	c->metric_label = "throughput (MB/s)";
	c->unit = "B/s";
	c->cats = cats;
	c->ncats = 2;
	for (size_t i = 0; i < n; i++) {
		snprintf(mk->names[i], sizeof mk->names[i], "%.40s %zu", name, i + 1);
		mk->series[i] = mk->names[i];
		for (size_t k = 0; k < 2; k++) {
			struct bl_bar *b = &mk->bars[2 * i + k];
			memset(b, 0, sizeof *b);
			b->cat = k;
			b->ser = i;
			b->value = b->min = b->max = 1e6 * (double)(1 + (i + k) % 9);
			b->n = 1;
		}
	}
	c->series = mk->series;
	c->nseries = n;
	c->bars = mk->bars;
	c->nbars = 2 * n;
	c->scale = (struct bl_scale){.div = 1e6, .unit = "MB/s", .lo = 0, .hi = 1e7, .nticks = 3};
	c->scale.ticks[1] = 5e6;
	c->scale.ticks[2] = 1e7;
}

/* Every legend entry named is above the plot and on the canvas. */
static void check_legend(const struct bl_chart *c, const struct bl_layout *l)
{
	CHECK(l->nlegend <= c->nseries);
	for (size_t i = 0; i < l->nlegend; i++) {
		const struct bl_legend_box *lb = &l->legend[i];
		CHECK(lb->swatch.y + lb->swatch.h <= l->plot.y);
		CHECK(lb->swatch.x + lb->swatch.w <= l->width && lb->ty >= l->subtitle.y);
	}
	CHECK(l->plot.h > 0 && l->plot.y + l->plot.h <= l->height);
}

static void test_many_series(void)
{
	static struct many mk;
	struct bl_layout l;
	char want[96];

	/* 250 series: the legend's 25 lines make the chart taller, the plot
	 * keeps its height and every series is named */
	many_series(&mk, 250, "run");
	CHECK(bl_layout_chart(&mk.c, 960, 0, BL_ORIENT_AUTO, &fake, &l) == 0);
	CHECK(!l.horizontal && l.height > 540 + 300 && l.height < 30000);
	CHECK(l.nlegend == 250);
	check_legend(&mk.c, &l);
	CHECK(l.plot.h >= 240);
	CHECK(strstr(l.note_text, "legend") == NULL);
	check_bars(&mk.c, &l);
	bl_layout_free(&l);

	/* the height asked for: the legend names what fits above a plot of
	 * at least 240 px, and the note says how many */
	CHECK(bl_layout_chart(&mk.c, 960, 540, BL_ORIENT_AUTO, &fake, &l) == 0);
	CHECK(l.height == 540 && l.nlegend > 0 && l.nlegend < 250);
	check_legend(&mk.c, &l);
	snprintf(want, sizeof want, "legend: the first %zu of 250 series", l.nlegend);
	CHECK(strstr(l.note_text, want) != NULL);
	CHECK(l.note.y >= l.plot.y + l.plot.h);
	bl_layout_free(&l);

	/* a few series: as before, one line of legend and the default height */
	many_series(&mk, 3, "run");
	CHECK(bl_layout_chart(&mk.c, 960, 0, BL_ORIENT_AUTO, &fake, &l) == 0);
	CHECK(l.height == 540 && l.nlegend == 3);
	CHECK(l.legend[0].ty == l.legend[2].ty);
	check_legend(&mk.c, &l);
	bl_layout_free(&l);

	/* a legend of a few lines is whole however little room the plot has
	 * (a low --height, a horizontal chart of 360 px) */
	CHECK(bl_layout_chart(&mk.c, 960, 200, BL_ORIENT_HORIZONTAL, &fake, &l) == 0);
	CHECK(l.height == 200 && l.nlegend == 3);
	CHECK(strstr(l.note_text, "legend") == NULL);
	bl_layout_free(&l);

	/* 6,000 series, bars of a tenth of a pixel: too crowded to tell
	 * apart by colour, so no legend (it would be 3,000 lines), the
	 * default height, and the note says the bars are grey */
	many_series(&mk, 6000, "oldbox (bonnie++ 1.98), nightly run");
	CHECK(bl_layout_chart(&mk.c, 960, 0, BL_ORIENT_AUTO, &fake, &l) == 0);
	CHECK(l.crowded && l.nlegend == 0 && l.height == 540);
	CHECK(l.plot.h >= 240 && l.note.y + l.note.h <= l.height);
	CHECK(strstr(l.note_text, "grey: 6000 series side by side") != NULL);
	CHECK(strstr(l.note_text, "legend") == NULL);
	check_bars(&mk.c, &l);
	for (size_t i = 0; i < mk.c.nbars; i++)
		CHECK(l.bars[i].r.w > 0 && l.bars[i].r.w < BL_THIN_BAR);
	bl_layout_free(&l);

	/* the same 6,000 series across a horizontal chart 30,000 px tall:
	 * bars of 2 px, not crowded; a legend of 3,000 lines named in its
	 * first 64, and the note says how many series they name */
	CHECK(bl_layout_chart(&mk.c, 960, 0, BL_ORIENT_HORIZONTAL, &fake, &l) == 0);
	CHECK(l.horizontal && !l.crowded && l.marks != NULL);
	CHECK(l.nlegend >= 64 && l.nlegend <= 3 * 64);
	CHECK(l.legend[l.nlegend - 1].ty > l.legend[0].ty + 62 * 19);
	check_legend(&mk.c, &l);
	snprintf(want, sizeof want, "legend: the first %zu of 6000 series", l.nlegend);
	CHECK(strstr(l.note_text, want) != NULL);
	bl_layout_free(&l);

	/* 20 series (colours enough for each) over 1,000 categories: bars
	 * under a pixel, each in its series' colour, and the legend */
	static char catname[1000][16];
	static char *cats[1000];
	for (size_t i = 0; i < 1000; i++) {
		snprintf(catname[i], sizeof catname[i], "night %zu", i + 1);
		cats[i] = catname[i];
	}
	many_series(&mk, 20, "run");
	mk.c.cats = cats; /* the bars stay in the first two */
	mk.c.ncats = 1000;
	CHECK(bl_layout_chart(&mk.c, 960, 0, BL_ORIENT_VERTICAL, &fake, &l) == 0);
	CHECK(!l.crowded && l.nlegend == 20 && strstr(l.note_text, "grey") == NULL);
	CHECK(l.bars[0].r.w < BL_THIN_BAR);
	bl_layout_free(&l);

	/* 20,000 series, horizontal, its height free: under 1.5 px a bar
	 * even 30,000 px tall, so a band for each category instead (6,000
	 * series make bars of 2 px there: not crowded) */
	many_series(&mk, 20000, "oldbox (bonnie++ 1.98), nightly run");
	CHECK(bl_layout_chart(&mk.c, 960, 0, BL_ORIENT_HORIZONTAL, &fake, &l) == 0);
	CHECK(l.horizontal && l.crowded && l.nlegend == 0 && l.height < 600);
	CHECK(l.plot.h > 0 && l.note.y + l.note.h <= l.height);
	for (size_t i = 0; i < mk.c.nbars; i++) {
		struct bl_rect r = l.bars[i].r;
		CHECK(r.h > 0 && r.h < BL_THIN_BAR && r.y >= l.plot.y &&
		      r.y + r.h <= l.plot.y + l.plot.h + 0.01);
	}
	bl_layout_free(&l);
}

int main(void)
{
	test_seed000();
	test_repeats_and_marks();
	test_hundred_bars();
	test_many_series();
	bl_cleanup();
	return CHECK_DONE();
}
