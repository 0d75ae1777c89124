/* test_chart_fonts.c - the fonts chart texts are set with (render/fonts.c):
 * a text the private DejaVu Sans files cover takes them, a text with a
 * character they lack (CJK) takes the system configuration, and so does
 * every text when a file is missing or is not DejaVu Sans; a chart gives
 * the same bytes, in every format, whichever path its texts took. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../parsers/benchlog.h"
#include "../../render/fonts.h"
#include "../../render/render.h"
#include "check.h"
#include "post.h"

#define DEJAVU "/usr/share/fonts/truetype/dejavu/"

/* Under ASan: whole stacks for allocations. cairo 1.16 leaks a buffer
 * subsetting Noto Sans CJK into a PDF (tests/lsan.supp: inside
 * cairo_surface_finish); cairo has no frame pointers, so the fast unwinder
 * stops inside cairo and the suppression never sees cairo_surface_finish. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}

struct mem {
	unsigned char *p;
	size_t n, cap;
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

/* The chart's files in the three formats, drawn with the fonts set now. */
struct files {
	struct mem f[3];
};

static void draw(const struct bl_charts *cs, struct files *out)
{
	struct bl_render_opts ro = {.width = 960, .theme = bl_theme_get("light")};
	char err[128];
	for (int f = BL_FORMAT_PNG; f <= BL_FORMAT_PDF; f++) {
		struct mem *m = &out->f[f - BL_FORMAT_PNG];
		*m = (struct mem){0};
		CHECK(bl_render(cs->v, cs->n, (enum bl_format)f, &ro, mem_write, m, err,
				sizeof err) == 0);
		CHECK(m->n > 0);
	}
}

static bool same(const struct files *a, const struct files *b)
{
	for (int i = 0; i < 3; i++)
		if (a->f[i].n != b->f[i].n || memcmp(a->f[i].p, b->f[i].p, a->f[i].n) != 0)
			return false;
	return true;
}

static void files_free(struct files *a)
{
	for (int i = 0; i < 3; i++)
		free(a->f[i].p);
}

/* Copies file from into directory dir; the new path in out. */
static bool copy_into(const char *from, const char *dir, char *out, size_t len)
{
	const char *base = strrchr(from, '/') + 1;
	snprintf(out, len, "%s/%s", dir, base);
	FILE *in = fopen(from, "rb"), *o = fopen(out, "wb");
	bool ok = in && o;
	char buf[65536];
	size_t n;
	while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
		ok = fwrite(buf, 1, n, o) == n;
	if (in)
		fclose(in);
	if (o && fclose(o) != 0)
		ok = false;
	return ok;
}

static bool own(const char *text, bool bold)
{
	bool o = false;
	CHECK(bl_fonts_map_for(text, bold, &o) != NULL);
	return o;
}

/* Which texts the private fonts take. */
static void test_paths(void)
{
	CHECK(bl_render_fonts_use(DEJAVU "DejaVuSans.ttf", DEJAVU "DejaVuSans-Bold.ttf") == 0);
	CHECK(own("config 000", false));
	CHECK(own("dd throughput (MB/s)", true));
	CHECK(own("Größe µs – déjà", false)); /* Latin-1 and a dash: DejaVu has them */
	CHECK(own("", false));
	CHECK(!own("raidz 写入", false)); /* CJK: the system's fallback fonts */
	CHECK(!own("写", true));
	CHECK(!own("tab\there", false)); /* a control character DejaVu has no glyph for */
	CHECK(!own("bad \xff utf-8", false)); /* not UTF-8 */
	CHECK(!own("cut \xe5\x86", false)); /* a sequence cut short */
	CHECK(own("config 000", false)); /* the system map did not change the choice */

	/* missing files, or files that are not DejaVu Sans regular and bold */
	CHECK(bl_render_fonts_use("/nonexistent/DejaVuSans.ttf", DEJAVU "DejaVuSans-Bold.ttf") ==
	      -1);
	CHECK(!own("config 000", false));
	CHECK(bl_render_fonts_use(DEJAVU "DejaVuSans.ttf", "/nonexistent/b.ttf") == -1);
	CHECK(!own("config 000", true));
	CHECK(bl_render_fonts_use(DEJAVU "DejaVuSans-Bold.ttf", DEJAVU "DejaVuSans.ttf") == -1);
	CHECK(bl_render_fonts_use(DEJAVU "DejaVuSansMono.ttf", DEJAVU "DejaVuSans-Bold.ttf") == -1);
	CHECK(bl_render_fonts_use("Makefile", DEJAVU "DejaVuSans-Bold.ttf") == -1);
	CHECK(bl_render_fonts_use(NULL, NULL) == -1);
	CHECK(!own("config 000", false));
}

/* A chart drawn with the private fonts, with the system's only, and with
 * missing font files: the same bytes. */
static void test_same_bytes(const char *input, const char *tool, bool latin)
{
	json_t *docs = post(input);
	struct bl_chart_opts o = {.tool = tool};
	struct bl_charts cs;
	char err[128];
	CHECK(bl_chart_build(docs, &o, &cs, err, sizeof err) == 0 && cs.n >= 1);

	struct files own_fonts, sys, missing, copies;
	CHECK(bl_render_fonts_use(DEJAVU "DejaVuSans.ttf", DEJAVU "DejaVuSans-Bold.ttf") == 0);
	draw(&cs, &own_fonts);
	/* a chart with a CJK text sets all its texts through the system's fonts */
	bl_fonts_for_charts(cs.v, cs.n);
	CHECK(own(cs.v[0].title, true) == latin);
	CHECK(own("config 000", false) == latin);

	CHECK(bl_render_fonts_use(NULL, NULL) == -1);
	draw(&cs, &sys);
	CHECK(bl_render_fonts_use("/nonexistent/a.ttf", "/nonexistent/b.ttf") == -1);
	draw(&cs, &missing);
	/* the files where fontconfig has no cache of their directory: read
	 * from the files themselves */
	char dir[] = "/tmp/bl-fonts-XXXXXX", regular[256], bold[256];
	CHECK(mkdtemp(dir) != NULL);
	CHECK(copy_into(DEJAVU "DejaVuSans.ttf", dir, regular, sizeof regular));
	CHECK(copy_into(DEJAVU "DejaVuSans-Bold.ttf", dir, bold, sizeof bold));
	CHECK(bl_render_fonts_use(regular, bold) == 0);
	CHECK(own("config 000", false));
	draw(&cs, &copies);
	CHECK(same(&own_fonts, &sys));
	CHECK(same(&sys, &missing));
	CHECK(same(&own_fonts, &copies));
	CHECK(bl_render_fonts_use(NULL, NULL) == -1); /* before the files go */
	unlink(regular);
	unlink(bold);
	rmdir(dir);
	files_free(&copies);
	files_free(&own_fonts);
	files_free(&sys);
	files_free(&missing);
	bl_charts_free(&cs);
	json_decref(docs);
}

/* A chart of Latin text drawn after a CJK one (layouts are kept across
 * charts): the same bytes as drawn first. */
static void test_after_cjk(void)
{
	CHECK(bl_render_fonts_use(DEJAVU "DejaVuSans.ttf", DEJAVU "DejaVuSans-Bold.ttf") == 0);
	json_t *latin = post("corpus/dd/seed004-ufs-zfs-repeats/input");
	json_t *cjk = post("corpus/dd/seed001-raidz-captions/input");
	struct bl_chart_opts o = {.tool = "dd"};
	struct bl_charts a, b;
	char err[128];
	CHECK(bl_chart_build(latin, &o, &a, err, sizeof err) == 0 && a.n >= 1);
	CHECK(bl_chart_build(cjk, &o, &b, err, sizeof err) == 0 && b.n >= 1);
	struct files first, cjk_files, again;
	draw(&a, &first);
	draw(&b, &cjk_files);
	draw(&a, &again);
	CHECK(same(&first, &again));
	files_free(&first);
	files_free(&cjk_files);
	files_free(&again);
	bl_charts_free(&a);
	bl_charts_free(&b);
	json_decref(latin);
	json_decref(cjk);
}

int main(void)
{
	if (access(DEJAVU "DejaVuSans.ttf", R_OK) != 0 ||
	    access(DEJAVU "DejaVuSans-Bold.ttf", R_OK) != 0) {
		printf("test_chart_fonts: no DejaVu Sans (fonts-dejavu-core): skipped\n");
		return 0;
	}
	test_paths();
	test_same_bytes("corpus/dd/seed004-ufs-zfs-repeats/input", "dd", true);
	test_same_bytes("corpus/dd/seed001-raidz-captions/input", "dd", false);
	test_after_cjk();
	bl_cleanup();
	bl_render_cleanup();
	return CHECK_DONE();
}
