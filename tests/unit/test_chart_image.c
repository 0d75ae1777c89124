/* test_chart_image.c - the drawn files (render/draw.c, png.c, svg.c,
 * pdf.c): the PNG decodes at the laid-out size with the bar colours at the
 * computed bar positions and its text chunks; SVG carries its metadata;
 * PDF has a page per chart; the same chart gives the same bytes. */
#include <cairo.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/benchlog.h"
#include "../../render/render.h"
#include "check.h"
#include "post.h"

struct mem {
	unsigned char *p;
	size_t n, cap, pos;
};

static int mem_write(void *ctx, const unsigned char *data, size_t len)
{
	struct mem *m = ctx;
	if (m->n + len > m->cap) {
		size_t cap = (m->n + len) * 2;
		unsigned char *p = realloc(m->p, cap);
		if (!p)
			return -1;
		m->p = p;
		m->cap = cap;
	}
	memcpy(m->p + m->n, data, len);
	m->n += len;
	return 0;
}

static cairo_status_t mem_read(void *ctx, unsigned char *data, unsigned int len)
{
	struct mem *m = ctx;
	if (m->pos + len > m->n)
		return CAIRO_STATUS_READ_ERROR;
	memcpy(data, m->p + m->pos, len);
	m->pos += len;
	return CAIRO_STATUS_SUCCESS;
}

static size_t count(const struct mem *m, const char *needle)
{
	size_t k = 0, nl = strlen(needle);
	for (size_t i = 0; i + nl <= m->n; i++)
		if (memcmp(m->p + i, needle, nl) == 0)
			k++;
	return k;
}

static bool same_bytes(const struct mem *a, const struct mem *b)
{
	return a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
}

static int channel(double v)
{
	return (int)(v * 255 + 0.5);
}

static bool in_rect(double x, double y, struct bl_rect r, double pad)
{
	return x >= r.x - pad && x <= r.x + r.w + pad && y >= r.y - pad && y <= r.y + r.h + pad;
}

/* A pixel of bar bb painted only in the bar's colour, if there is one. */
static bool solid_pixel(const struct bl_bar_box *bb, const struct bl_bar_marks *mk, bool horizontal,
			int *px, int *py)
{
	static const double tries[][2] = {
		{0.3, 0.3}, {0.7, 0.3}, {0.3, 0.7}, {0.7, 0.7}, {0.5, 0.2}};
	for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
		int x = (int)(bb->r.x + bb->r.w * tries[i][0]);
		int y = (int)(bb->r.y + bb->r.h * tries[i][1]);
		struct bl_rect inner = {bb->r.x + 1.5, bb->r.y + 1.5, bb->r.w - 4, bb->r.h - 4};
		if (!in_rect(x, y, inner, 0) || !in_rect(x + 1, y + 1, inner, 0))
			continue;
		if (mk && mk->ntext[0] && in_rect(x + 0.5, y + 0.5, mk->nbox, 2))
			continue;
		/* the whisker and its caps: along the centre line, from min to max */
		double mid = horizontal ? bb->r.y + bb->r.h / 2 : bb->r.x + bb->r.w / 2;
		struct bl_rect wr =
			horizontal ? (struct bl_rect){bb->wlo, mid - 7, bb->whi - bb->wlo, 14}
				   : (struct bl_rect){mid - 7, bb->whi, 14, bb->wlo - bb->whi};
		if (bb->whisker && in_rect(x + 0.5, y + 0.5, wr, 2.5))
			continue;
		*px = x;
		*py = y;
		return true;
	}
	return false;
}

/* Renders chart c as PNG and checks its size and the colour at the middle
 * of every solid bar (and of the background). */
static void check_png(const struct bl_chart *c, const struct bl_render_opts *ro)
{
	struct mem png = {0}, again = {0};
	char err[128];
	CHECK(bl_render(c, 1, BL_FORMAT_PNG, ro, mem_write, &png, err, sizeof err) == 0);
	CHECK(png.n > 8 && memcmp(png.p, "\x89PNG\r\n\x1a\n", 8) == 0);
	CHECK(count(&png, "tEXtSoftware") == 1 && count(&png, "tEXtSource") == 1);
	CHECK(count(&png, "tEXtComment") == 1 || count(&png, "iTXtComment") == 1);

	struct bl_measure m;
	struct bl_layout l;
	CHECK(bl_measure_pango_new(&m) == 0);
	CHECK(bl_layout_chart(c, ro->width, ro->height, ro->orient, &m, &l) == 0);

	cairo_surface_t *s = cairo_image_surface_create_from_png_stream(mem_read, &png);
	CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
	if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
		int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
		CHECK(w == (int)l.width && h == (int)l.height);
		unsigned char *px = cairo_image_surface_get_data(s);
		int stride = cairo_image_surface_get_stride(s);
		size_t checked = 0;
		for (size_t i = 0; i < c->nbars; i++) {
			const struct bl_bar_box *bb = &l.bars[i];
			if (c->bars[i].censored || bb->r.w < 4 || bb->r.h < 4)
				continue;
			/* a pixel wholly inside the bar, off its whisker and n label */
			int x, y;
			if (!solid_pixel(bb, l.marks ? &l.marks[i] : NULL, l.horizontal, &x, &y))
				continue;
			uint32_t v = *(uint32_t *)(px + y * stride + x * 4);
			struct bl_rgb want = bl_theme_series(ro->theme, c->bars[i].ser);
			CHECK((int)(v >> 16 & 0xff) == channel(want.r));
			CHECK((int)(v >> 8 & 0xff) == channel(want.g));
			CHECK((int)(v & 0xff) == channel(want.b));
			checked++;
		}
		CHECK(checked > 0);
		uint32_t corner = *(uint32_t *)(px + 2 * stride + 2 * 4);
		CHECK((int)(corner >> 16 & 0xff) == channel(ro->theme->background.r));
	}
	cairo_surface_destroy(s);
	bl_layout_free(&l);
	bl_measure_pango_free(&m);

	CHECK(bl_render(c, 1, BL_FORMAT_PNG, ro, mem_write, &again, err, sizeof err) == 0);
	CHECK(same_bytes(&png, &again));
	free(png.p);
	free(again.p);
}

static void test_formats(void)
{
	json_t *docs = post("corpus/dd/seed004-ufs-zfs-repeats/input");
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[128];
	/* dd and time at least; more as parsers for the post's other tools land */
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n >= 2);
	struct bl_render_opts ro = {.width = 960, .theme = bl_theme_get("light")};
	check_png(&cs.v[0], &ro);
	check_png(&cs.v[1], &ro);
	ro.theme = bl_theme_get("dark");
	ro.orient = BL_ORIENT_HORIZONTAL;
	check_png(&cs.v[0], &ro);
	ro.width = 640;
	ro.height = 400;
	ro.orient = BL_ORIENT_AUTO;
	check_png(&cs.v[1], &ro);

	/* SVG: metadata with source and commands; same bytes twice */
	struct mem a = {0}, b = {0};
	ro = (struct bl_render_opts){.width = 960, .theme = bl_theme_get("light")};
	CHECK(bl_render(cs.v, cs.n, BL_FORMAT_SVG, &ro, mem_write, &a, err, sizeof err) == 0);
	CHECK(bl_render(cs.v, cs.n, BL_FORMAT_SVG, &ro, mem_write, &b, err, sizeof err) == 0);
	CHECK(a.n > 0 && memcmp(a.p, "<?xml", 5) == 0);
	CHECK(count(&a, "<metadata>") == 1 && count(&a, "<bl:source>post.txt</bl:source>") == 1);
	CHECK(count(&a,
		    "<bl:command>dd if=/dev/zero of=/ufs/testfile ibs=64k count=32k</bl:command>") ==
	      1);
	CHECK(count(&a, "</svg>") == 1);
	CHECK(same_bytes(&a, &b));
	free(a.p);
	free(b.p);

	/* PDF: one page per chart, no clock time; same bytes twice */
	a = (struct mem){0};
	b = (struct mem){0};
	CHECK(bl_render(cs.v, cs.n, BL_FORMAT_PDF, &ro, mem_write, &a, err, sizeof err) == 0);
	CHECK(bl_render(cs.v, cs.n, BL_FORMAT_PDF, &ro, mem_write, &b, err, sizeof err) == 0);
	CHECK(a.n > 4 && memcmp(a.p, "%PDF", 4) == 0);
	char pages[32];
	snprintf(pages, sizeof pages, "/Count %zu", cs.n);
	CHECK(count(&a, "/Type /Page\n") + count(&a, "/Type /Page ") == cs.n);
	CHECK(count(&a, pages) == 1);
	CHECK(count(&a, "/CreationDate") == 0);
	CHECK(count(&a, "/Creator (benchlog") == 1);
	CHECK(same_bytes(&a, &b));
	free(a.p);
	free(b.p);

	/* one chart, one page */
	a = (struct mem){0};
	CHECK(bl_render(cs.v, 1, BL_FORMAT_PDF, &ro, mem_write, &a, err, sizeof err) == 0);
	CHECK(count(&a, "/Count 1") == 1);
	free(a.p);

	/* nothing to draw is an error, not an empty file */
	a = (struct mem){0};
	CHECK(bl_render(cs.v, 0, BL_FORMAT_PNG, &ro, mem_write, &a, err, sizeof err) == -1 &&
	      a.n == 0);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* A chart taller than two bands of png.c (2,048 rows each), drawn band by
 * band: every bar's colour where the layout puts it, whatever its band. */
static void test_tall(void)
{
	char path[] = "/tmp/benchlog-tall-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	CHECK(f != NULL);
	if (!f)
		return;
	for (int i = 0; i < 240; i++) {
		long n = 100 + i, bytes = n * 1048576;
		fprintf(f,
			"Disk %d:\n\n$ dd if=/dev/zero of=/tmp/f%d bs=1m count=%ld\n"
			"%ld+0 records in\n%ld+0 records out\n"
			"%ld bytes transferred in 1.000000 secs (%ld bytes/sec)\n\n",
			i, i, n, n, n, bytes, bytes);
	}
	fclose(f);
	json_t *docs = post(path);
	unlink(path);
	struct bl_chart_opts o = {0};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n >= 1);
	struct bl_render_opts ro = {.width = 960, .theme = bl_theme_get("light")};
	struct bl_measure m;
	struct bl_layout l;
	CHECK(cs.n && bl_measure_pango_new(&m) == 0);
	CHECK(cs.n && bl_layout_chart(&cs.v[0], ro.width, ro.height, ro.orient, &m, &l) == 0);
	CHECK(cs.n && cs.v[0].ncats == 240 && l.height > 2 * 2048);
	bl_layout_free(&l);
	bl_measure_pango_free(&m);
	if (cs.n)
		check_png(&cs.v[0], &ro);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* Seed 001's Chinese captions go into an iTXt chunk as UTF-8. */
static void test_cjk(void)
{
	json_t *docs = post("corpus/dd/seed001-raidz-captions/input");
	struct bl_chart_opts o = {.tool = "dd"};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	struct bl_render_opts ro = {.width = 960, .theme = bl_theme_get("light")};
	check_png(&cs.v[0], &ro);
	struct mem svg = {0};
	CHECK(bl_render(cs.v, 1, BL_FORMAT_SVG, &ro, mem_write, &svg, err, sizeof err) == 0);
	CHECK(svg.n > 0);
	free(svg.p);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* What the SVG of a chart of many series holds. */
struct svg_marks {
	size_t dashed; /* dashed outlines: each censored bar's, unless thin */
	size_t paths; /* shapes of any kind */
	size_t bars;
	size_t grey_notes; /* notes that the bars are grey */
	size_t bytes;
};

/* A bonnie++ CSV log of n machines, a series each: the file
 * operations chart (with censored bars, "+++++"), drawn as SVG. */
static struct svg_marks many_series_in(int n, enum bl_orient orient)
{
	struct svg_marks m = {SIZE_MAX, SIZE_MAX, 0, 0, 0};
	char path[] = "/tmp/benchlog-thin-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	CHECK(f != NULL);
	if (!f)
		return m;
	fprintf(f, "A bonnie++ run every night:\n\n");
	for (int i = 0; i < n; i++)
		fprintf(f,
			"1.92,1.92a,box%d,1,1000,1G,,300,95,20011,30,9011,10,400,90,25012,12,"
			"101.1,1,16,,,,,1200,50,+++++,+++,1500,40,1100,45,+++++,+++,1300,39,"
			"15ms,220ms,380ms,9801us,70ms,250ms,1200us,300us,900us,1100us,40us,"
			"800us\n",
			i);
	fclose(f);
	json_t *docs = post(path);
	unlink(path);
	struct bl_chart_opts o = {.tool = "bonnie++"};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0);
	for (size_t i = 0; i < cs.n; i++) {
		if (!strstr(cs.v[i].id, "ops"))
			continue;
		CHECK(cs.v[i].nseries == (size_t)n && cs.v[i].any_censored);
		struct bl_render_opts ro = {
			.width = 960, .orient = orient, .theme = bl_theme_get("light")};
		struct mem svg = {0};
		CHECK(bl_render(&cs.v[i], 1, BL_FORMAT_SVG, &ro, mem_write, &svg, err,
				sizeof err) == 0);
		m.dashed = count(&svg, "stroke-dasharray");
		m.paths = count(&svg, "<path");
		m.bars = cs.v[i].nbars;
		m.grey_notes = count(&svg, "too many to tell apart by colour");
		m.bytes = svg.n;
		free(svg.p);
	}
	bl_charts_free(&cs);
	json_decref(docs);
	return m;
}

static struct svg_marks many_series(int n)
{
	return many_series_in(n, BL_ORIENT_AUTO);
}

/* A censored bar under 1.5 px is a pale fill alone: its hatching and
 * outline, a stroke every 6 px of its length, made a chart of thousands
 * of series slow and large. Wider ones keep both. */
static void test_thin_censored(void)
{
	struct svg_marks wide = many_series(3), thin = many_series(1200);
	CHECK(wide.dashed != SIZE_MAX && wide.dashed >= 3 * 2);
	CHECK(thin.dashed == 0);
}

/* Thin bars are one shape for each fill, not one each: the SVG of a
 * chart of 50,000 bars was 20 MB, and cairo held every bar's shape until
 * the end. A chart too crowded to tell its series apart by colour draws
 * them all grey, one shape for each kind of fill (a censored bar's is
 * paler), without a legend, and says so; 10,000 series were still
 * 10,000 shapes, one a series. Wider bars are each their own shape, in
 * their series' colour. */
static void test_thin_batched(void)
{
	struct svg_marks wide = many_series(3), few = many_series(70), thin = many_series(1200);
	CHECK(wide.bars == 3 * 7 && wide.paths >= wide.bars && wide.grey_notes == 0);
	CHECK(few.bars == 70 * 7 && few.grey_notes == 0);
	/* bars of 1.4 px: a fill of each kind a series has (2) and its
	 * legend swatch */
	CHECK(few.paths != SIZE_MAX && few.paths >= 70 && few.paths <= 70 * 3 + 64);
	CHECK(thin.bars == 1200 * 7 && thin.grey_notes == 1);
	/* the two kinds of fill, and the axes and grid */
	CHECK(thin.paths != SIZE_MAX && thin.paths <= 2 + 64);
	/* the bars side by side as outlines along their ends: two points a
	 * bar at most ("L 80.1 300.2 "; fewer where heights repeat), where a
	 * rectangle each took five and a close (90 bytes) */
	CHECK(thin.bytes < 1200 * 7 * 45 + 20000);
	/* horizontal: 3,000 series are crowded even 30,000 px tall */
	struct svg_marks across = many_series_in(3000, BL_ORIENT_HORIZONTAL);
	CHECK(across.bars == 3000 * 7 && across.grey_notes == 1);
	CHECK(across.paths != SIZE_MAX && across.paths <= 2 + 64);
	CHECK(across.bytes < 3000 * 7 * 45 + 20000);
}

static int fail_write(void *ctx, const unsigned char *data, size_t len)
{
	(void)ctx;
	(void)data;
	(void)len;
	return -1;
}

static void test_write_error(void)
{
	json_t *docs = post("corpus/dd/seed001-raidz-captions/input");
	struct bl_chart_opts o = {.tool = "dd"};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n == 1);
	struct bl_render_opts ro = {.width = 960, .theme = bl_theme_get("light")};
	for (int f = BL_FORMAT_PNG; f <= BL_FORMAT_PDF; f++)
		CHECK(bl_render(cs.v, 1, (enum bl_format)f, &ro, fail_write, NULL, err,
				sizeof err) == -1);
	bl_charts_free(&cs);
	json_decref(docs);
}

int main(void)
{
	test_formats();
	test_tall();
	test_cjk();
	test_thin_censored();
	test_thin_batched();
	test_write_error();
	bl_cleanup();
	bl_render_cleanup();
	return CHECK_DONE();
}
