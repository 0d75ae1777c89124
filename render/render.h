/* render.h - charts and tables from benchlog/1 documents.
 *
 *   documents (json_t) --select--> items --model--> charts --layout--> boxes
 *                                                     |                  |
 *                                                     +--> table     draw (cairo) --> PNG/SVG/PDF
 *
 * render/ reads documents, and of the parsers only what each tool's
 * descriptor says about its charts (parsers/views.h): it names no tool. The
 * library prints nothing: output goes through a write callback, failures
 * are return values.
 *
 * Ownership: bl_chart_build() returns a new chart set that the caller frees
 * with bl_charts_free(); the documents are borrowed while building only. */
#ifndef BL_RENDER_H
#define BL_RENDER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "../base/jsonread.h"
#include "../parsers/views.h" /* enum bl_key */

/* ------------------------------------------------------------ options */

enum bl_sort { BL_SORT_INPUT, BL_SORT_NAME, BL_SORT_VALUE };
/* BL_UNITS_TOOL: the convention of the tool's own output (its view's
 * binary_units), the default. */
enum bl_units { BL_UNITS_TOOL, BL_UNITS_DECIMAL, BL_UNITS_BINARY };
enum bl_orient { BL_ORIENT_AUTO, BL_ORIENT_VERTICAL, BL_ORIENT_HORIZONTAL };

struct bl_chart_opts {
	const char *tool; /* only this tool (NULL: all) */
	const char *metric; /* this metric instead of the tool's defaults */
	enum bl_key group_by; /* BL_KEY_NONE: the view's own */
	const char *where; /* PCRE2 regex on label or command (NULL: all) */
	enum bl_sort sort;
	enum bl_units units;
	const char *title; /* overrides the computed title */
	bool log;
	/* every bar as a percentage of the bar of its series labelled this
	 * (NULL: absolute values) */
	const char *baseline;
};

/* Parses a --group-by / --sort / --units word; -1 when unknown. */
int bl_key_parse(const char *word);
int bl_sort_parse(const char *word);
int bl_units_parse(const char *word);

/* ------------------------------------------------------------ model */

/* Repeats that disagree are drawn one mark a run, up to this many. */
#define BL_BAR_VALS 8
/* A bar names up to this many of the runs it aggregates. */
#define BL_BAR_RUNS 16

/* A run a bar aggregates: the document's index and the run's in it. */
struct bl_run_ref {
	unsigned doc, run;
};

/* One bar: the values of one (category, series) pair. Repeats aggregate to
 * the median, with the min-max spread and their number. What it points to
 * is its chart's (a table of 60,000 bars kept a few runs and values in
 * each, most of them unused). */
struct bl_bar {
	size_t cat, ser; /* indices into chart cats / series */
	double value; /* median of the known values; NAN when only censored without bound */
	double min, max; /* spread of the values (== value for n == 1) */
	size_t n; /* how many values */
	bool censored; /* a value is a lower bound (bonnie++ +++++) */
	bool approximate; /* a value was printed rounded */
	bool disagree; /* repeats more than 2x apart: the median hides them */
	const char *warning; /* the code of a warning about a run it holds, or NULL */
	double *vals; /* when disagree: each run's value, ascending */
	size_t nvals; /* how many of vals (0 when n > BL_BAR_VALS) */
	/* the runs it aggregates, distinct, in input order; more_runs when
	 * there were more than BL_BAR_RUNS */
	const struct bl_run_ref *runs;
	size_t nruns;
	bool more_runs;
};

/* A scale: the value axis, in display units. */
struct bl_scale {
	double div; /* base value / div = display value */
	char unit[16]; /* display unit, "MB/s", "MiB/s", "s", "ms" */
	double lo, hi; /* axis range in base units */
	double ticks[24]; /* tick values in base units */
	size_t nticks;
	bool log;
};

/* Which way a chart's values are better: throughput and rates higher,
 * times and latencies lower; sizes neither. */
enum bl_better { BL_BETTER_UNKNOWN, BL_BETTER_HIGHER, BL_BETTER_LOWER };

struct bl_chart {
	char *id; /* file name stem: "dd-throughput", "bonnie-rates" */
	char *title;
	char *subtitle; /* sources and system */
	char *metric_label; /* what the axis measures: "throughput (MB/s)" */
	const char *unit; /* base unit of every bar (static) */
	enum bl_better better; /* from the unit: "s" lower, "B/s" higher */
	char **cats;
	size_t ncats;
	char **series;
	size_t nseries;
	struct bl_bar *bars;
	size_t nbars;
	struct bl_scale scale;
	bool any_censored, any_approximate, any_repeats, any_disagree;
	char warning[64]; /* the first bar's warning code, or "": a footnote */
	bool auto_log; /* drawn on a log axis because its values span more than
			* two orders of magnitude */
	/* provenance */
	char **sources;
	size_t nsources;
	char **commands;
	size_t ncommands;
	/* what the bars point to: their runs, the values of those whose
	 * repeats disagree, and the warning codes, one copy each */
	struct bl_run_ref *bar_runs;
	double *bar_vals;
	char **warnings;
	size_t nwarnings;
};

struct bl_charts {
	struct bl_chart *v;
	size_t n;
};

/* Builds the charts for an array of documents (borrowed). Returns 0, or -1
 * with a message in err (size errlen) on a bad option (an invalid regex)
 * or out of memory. No matching data is not an error: n == 0. */
int bl_chart_build(json_t *docs, const struct bl_chart_opts *o, struct bl_charts *out, char *err,
		   size_t errlen);
void bl_charts_free(struct bl_charts *c);

/* What bl_chart_build and bl_table_csv read of a document (lean.c), with
 * runs (borrowed) as its "runs": a new value, NULL out of memory. */
json_t *bl_render_lean_doc(json_t *doc, json_t *runs);
/* The members of a run neither reads (lean.c), for a reader to pass over
 * (jsonread.h, bl_json_run_opts.skip): NULL-terminated. */
extern const char *const bl_render_lean_run_skip[];
/* The members of a run of which one member is read, lifted in their
 * place (bl_json_run_opts.lift): "span.line". */
extern const char *const bl_render_lean_run_lift[];
/* The line run starts on: its span's line, or its span where a lean
 * reading lifted it; 0 when it has none. */
json_int_t bl_render_run_line(json_t *run);
/* The same as the value the run holds (NULL when none), for a column of
 * its own. */
json_t *bl_render_run_line_value(json_t *run);
/* The members of a run that repeat from run to run (its tool, variant,
 * parameters...): read once and shared (bl_json_run_opts.share). */
extern const char *const bl_render_lean_run_share[];

struct bl_theme;
/* The charts as data (render/model_json.c): an array of
 * {id, title, subtitle, axis, unit, base_unit, divisor, log,
 * lower_is_better, series [{name, color}], bars [{label, series, value,
 * n, min, max, censored, flags}]}, values in the display unit; colours
 * from theme t. NULL out of memory. */
json_t *bl_charts_model(const struct bl_chart *charts, size_t n, const struct bl_theme *t);
/* A Vega-Lite (v5) specification of chart c: its bars as data. */
json_t *bl_chart_vega_lite(const struct bl_chart *c, const struct bl_theme *t);

/* --baseline (render/baseline.c): the category named `label` (exactly,
 * else the one that contains it, caseless), or -1 when none or several. */
long bl_chart_find_cat(const struct bl_chart *c, const char *label);
/* Every bar of c as a percentage of the bar of its series in category
 * `label`; unit "%". A series without a bar there is left out. Returns 0,
 * -1 when c has no such category or no value in it (c left as it was),
 * -2 out of memory. */
int bl_chart_rebase(struct bl_chart *c, const char *label, enum bl_units units);

/* The bar of (cat, ser), or NULL. */
const struct bl_bar *bl_chart_bar(const struct bl_chart *c, size_t cat, size_t ser);
/* The chart's bars in the order of their cells (category, then series),
 * the first bar of a cell only, for a whole table: *n of them, freed with
 * free(); NULL when out of memory. A table of thousands of sources holds
 * a bar in few of its cells, and writes the rest empty without a place
 * of its own for each. */
const struct bl_bar **bl_chart_cell_order(const struct bl_chart *c, size_t *n);

/* Scale and numbers (render/scale.c). */
void bl_scale_compute(struct bl_scale *s, const char *unit, double lo, double hi, bool log,
		      enum bl_units units);
/* Which way values in `unit` are better: per second (a rate) higher,
 * seconds (a time) lower, else unknown. */
enum bl_better bl_unit_better(const char *unit);
/* "higher is better", "lower is better", or "" when unknown. */
const char *bl_better_text(enum bl_better b);
/* The value axis's title with the direction: "throughput (MB/s), higher
 * is better". */
void bl_axis_text(const struct bl_chart *c, char *buf, size_t len);
/* A value in the scale's display unit, 3 significant digits: "22.7". */
void bl_scale_format(const struct bl_scale *s, double v, char *buf, size_t len);
/* A value with its own best unit: "22.7 MB/s", "1.5 s", "8 KiB". */
void bl_format_value(double v, const char *unit, enum bl_units units, char *buf, size_t len);

/* ------------------------------------------------------------ layout */

struct bl_rect {
	double x, y, w, h;
};

/* Text measurement: the width and height of `text` in a font of `size` px
 * wrapped at `wrap` px (wrap <= 0: no wrapping). draw.c gives a pango
 * measurer; tests may give their own. */
struct bl_measure {
	void (*size)(void *ctx, const char *text, double size, double wrap, bool bold, double *w,
		     double *h);
	void *ctx;
};

struct bl_bar_box {
	struct bl_rect r; /* the bar itself */
	double wlo, whi; /* whisker ends along the value axis (pixels) */
	bool whisker;
	bool stub; /* censored without a bound: a short open bar */
};

/* What a bar shows besides itself. */
struct bl_bar_marks {
	struct bl_rect label; /* where its value label goes */
	char text[64]; /* the value label: "22.7", "≥ 120", "~1.4", "117 / 279" */
	struct bl_rect nbox; /* where "n=3" goes (inside the bar's base) */
	char ntext[24]; /* "n=3" for repeats, else "" */
	double dots[BL_BAR_VALS]; /* along the value axis (pixels): each run of a
				   * bar whose repeats disagree */
	size_t ndots;
};

struct bl_cat_box {
	struct bl_rect r;
	double wrap;
};
struct bl_tick_box {
	double pos;
	char text[24];
};
struct bl_legend_box {
	struct bl_rect swatch;
	double tx, ty;
};

/* A bar thinner than this (px, across the value axis) is too thin to
 * show hatching or an arrow: its pale fill alone tells it censored. */
#define BL_THIN_BAR 1.5
/* The series colours before two share one (palette.c): 7, deeper, paler. */
#define BL_SERIES_COLOURS 21

struct bl_layout {
	double width, height;
	bool horizontal;
	/* more series than colours, and every bar thinner than BL_THIN_BAR
	 * however the chart is sized: too many series side by side to tell
	 * apart by colour, so all are drawn in one (grey) */
	bool crowded;
	struct bl_rect plot; /* the area inside the axes */
	struct bl_rect title, subtitle, axis_title, note;
	struct bl_bar_box *bars; /* parallel to chart->bars */
	/* parallel to chart->bars; NULL in a crowded chart, whose bars are
	 * too thin for labels, whiskers or dots */
	struct bl_bar_marks *marks;
	struct bl_cat_box *cats; /* parallel to chart->cats */
	struct bl_tick_box ticks[24];
	size_t nticks;
	struct bl_legend_box *legend; /* parallel to chart->series */
	size_t nlegend; /* the series the legend names: the first so many */
	char note_text[512]; /* what the marks mean */
	double font; /* base font size, px */
};

/* Lays out a chart on a width x height canvas (height 0: chosen from the
 * number of bars). Returns 0, or -1 on out of memory. */
int bl_layout_chart(const struct bl_chart *c, double width, double height, enum bl_orient orient,
		    const struct bl_measure *m, struct bl_layout *out);
void bl_layout_free(struct bl_layout *l);

/* ------------------------------------------------------------ drawing */

struct bl_rgb {
	double r, g, b;
};
struct bl_theme {
	const char *name;
	struct bl_rgb background, text, muted, grid, axis;
	const struct bl_rgb *series; /* colour-blind-safe palette */
	size_t nseries;
};
/* "light" or "dark"; NULL when unknown. */
const struct bl_theme *bl_theme_get(const char *name);
struct bl_rgb bl_theme_series(const struct bl_theme *t, size_t i);

/* Where output goes: returns 0, or -1 on a write error. */
typedef int (*bl_write_fn)(void *ctx, const unsigned char *data, size_t len);

enum bl_format { BL_FORMAT_PNG, BL_FORMAT_SVG, BL_FORMAT_PDF };
/* From a file name's extension; -1 when unknown. */
int bl_format_from_path(const char *path);

struct bl_render_opts {
	double width, height; /* px (pt in PDF); height 0: automatic */
	enum bl_orient orient;
	const struct bl_theme *theme;
};

/* A pango measurer (for bl_layout_chart outside drawing). Free with
 * bl_measure_pango_free. */
int bl_measure_pango_new(struct bl_measure *m);
void bl_measure_pango_free(struct bl_measure *m);

/* Chart texts are set in DejaVu Sans, from its two files (FONT_FILE and
 * FONT_BOLD_FILE in the Makefile) through a fontconfig configuration that
 * holds only them; a text with a character they lack, through the
 * system's configuration (render/fonts.c). bl_render_fonts_init makes the
 * private configuration fontconfig's current one, so that pango's FcInit
 * loads nothing: optional, once, before anything in the process uses
 * fontconfig (a program that draws charts once and exits saves 30 M
 * instructions). When the files are missing or not that family's, it
 * loads the system configuration as FcInit would, without the
 * descriptions of the configuration files that are not enabled. 0 when
 * the private fonts are in use, -1 when every text takes the system path. */
int bl_render_fonts_init(void);

/* For tests: sets texts from files regular and bold from now on (NULL:
 * the system path for every text), after releasing what drawing keeps
 * (bl_render_cleanup). 0, or -1 as bl_render_fonts_init. */
int bl_render_fonts_use(const char *regular, const char *bold);

/* Releases the fonts and caches drawing loaded (at exit, for leak
 * checkers). */
void bl_render_cleanup(void);

/* NULL when charts can be drawn; else why not. The program loads its
 * drawing code when it first draws (render/draw_module.h), and says here
 * when it could not; linked in whole, drawing is always there. */
const char *bl_render_unavailable(void);

/* Draws one laid-out chart on a cairo context (cairo_t *, as void * so this
 * header needs no cairo). */
void bl_draw_chart(void *cr, const struct bl_chart *c, const struct bl_layout *l,
		   const struct bl_theme *t);

/* One line of a chart's text, where bl_draw_chart would paint it: its
 * start and baseline in user space, which `matrix` (cairo's xx, yx, xy,
 * yy, x0, y0) maps to the page (the value axis's title is turned). */
struct bl_text_line {
	const char *text; /* not NUL-terminated: len bytes */
	size_t len;
	double x, y, size;
	bool bold;
	struct bl_rgb colour;
	double matrix[6];
};
struct bl_text_sink {
	void (*line)(void *ctx, const struct bl_text_line *t);
	void *ctx;
};
/* As bl_draw_chart, but every text goes to `sink` (NULL: painted). */
void bl_draw_chart_texts(void *cr, const struct bl_chart *c, const struct bl_layout *l,
			 const struct bl_theme *t, const struct bl_text_sink *sink);

/* Renders charts [0, n) to one file: PNG and SVG take the first chart only,
 * PDF writes one page per chart. Provenance goes into PNG text chunks, SVG
 * <metadata> and the PDF document information. Returns 0, or -1 with a
 * message in err. */
int bl_render(const struct bl_chart *charts, size_t n, enum bl_format fmt,
	      const struct bl_render_opts *o, bl_write_fn write, void *ctx, char *err,
	      size_t errlen);

/* Per format (render/png.c, svg.c, pdf.c). */
int bl_render_png(const struct bl_chart *c, const struct bl_render_opts *o, bl_write_fn write,
		  void *ctx);
int bl_render_svg(const struct bl_chart *c, const struct bl_render_opts *o, bl_write_fn write,
		  void *ctx);
/* What the report adds to a chart's SVG: a prefix for every id (several
 * charts in one page), and over each bar with a non-NULL bar_href[i]
 * (parallel to the chart's bars) a link to the runs it aggregates, with
 * bar_data[i] as its data-runs attribute; not in a crowded chart, whose
 * bars are too thin to point at (the table beside it links each). */
struct bl_svg_opts {
	const char *id_prefix;
	const char *const *bar_href;
	const char *const *bar_data;
};
int bl_render_svg_with(const struct bl_chart *c, const struct bl_render_opts *o,
		       const struct bl_svg_opts *so, bl_write_fn write, void *ctx);
int bl_render_pdf(const struct bl_chart *charts, size_t n, const struct bl_render_opts *o,
		  bl_write_fn write, void *ctx);

/* Provenance text: "benchlog 0.1.0", the sources and commands, one a line
 * (new string). */
char *bl_chart_provenance(const struct bl_chart *c, const char *what);

/* ------------------------------------------------------------ tables */

enum bl_table_style { BL_TABLE_TEXT, BL_TABLE_MARKDOWN };

/* The chart as a table: categories down, series across, each cell the
 * median with its unit, spread and N. Returns 0 or -1 on a write error. */
int bl_table_chart(const struct bl_chart *c, enum bl_table_style style, bl_write_fn write,
		   void *ctx);
/* A table cell for bar b (NULL: ""), in the chart's display unit: "45.1",
 * "≥ 120", "~1.4", "45.1 (44.7–47.6, n=3)", "3.58 to 10.8 (n=6,
 * disagree)"; "*" after a value from a run with a warning. */
void bl_table_cell(const struct bl_chart *c, const struct bl_bar *b, char *buf, size_t len);
/* Every result of the documents as tidy CSV: one row per result. */
int bl_table_csv(json_t *docs, const struct bl_chart_opts *o, bl_write_fn write, void *ctx);

/* Display width of UTF-8 text in terminal columns (CJK counts two). */
size_t bl_text_width(const char *s);

#endif
