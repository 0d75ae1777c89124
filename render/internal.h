/* internal.h - what the render files share and nobody else needs: the
 * views being drawn, and the items select.c pulls out of documents. */
#ifndef BL_RENDER_INTERNAL_H
#define BL_RENDER_INTERNAL_H

#include "../base/buf.h"
#include "../parsers/run_results.h"
#include "name_index.h"
#include "render.h"

/* A view being drawn: the runs of one tool, and a copy of a chart view
 * (the tool's own, the generic one, or one --metric asks for) whose keys
 * --group-by may change. */
struct bl_view {
	const char *tool;
	struct bl_chart_view chart;
};

/* The chart views of `tool`, ending with a NULL name: its descriptor's,
 * or the generic one for a tool without any, whose title then wants the
 * tool's name before it (*is_generic). */
const struct bl_chart_view *bl_views_for(const char *tool, bool *is_generic);
/* A readable name for a metric of `tool` ("seq_output_block" -> "block
 * write"): the title a descriptor gives it, else the name with spaces. */
const char *bl_metric_title(const char *tool, const char *metric, char *buf, size_t len);
/* The ends of a copy when `tool` copies a file (dd), else NULL. */
const struct bl_transfer *bl_transfer_of(const char *tool);

/* One value pulled out of a document for a view. */
struct bl_item {
	/* texts of the list's (bl_items_keep) */
	const char *cat, *ser, *split;
	const char *run; /* the run's name, for views that keep runs apart */
	double cat_order; /* numeric order for coordinate keys, else NAN */
	double split_order;
	double ser_order; /* numeric order of a coordinate series (file size) */
	double value; /* NAN: censored without a printed bound */
	bool censored, approximate;
	const char *warning; /* the code of a warning about its run, borrowed */
	size_t src; /* index of the document's source */
	size_t doc, run_index; /* the document's index in the input array, the run's in it */
	const char *command; /* borrowed from the document */
	const char *source; /* the source path, borrowed */
	const char *source_name; /* its short name, borrowed from bl_select */
	/* 1 + the index of its further values in the list's `more`; 0: none */
	size_t more;
};

/* The further values of an item: values that came with the same place
 * (the same run, names and keys) as its own. */
struct bl_item_more {
	double *v; /* NAN: censored without a printed bound */
	size_t n, cap;
};

struct bl_items {
	struct bl_item *v;
	size_t n, cap;
	/* the distinct texts of the items' keys, one copy each: a long
	 * stream's values share a few categories and series */
	char **texts;
	size_t ntexts;
	struct bl_name_index ix;
	struct bl_item_more *more;
	size_t nmore;
	/* the items by their place (items.c): 1 + an index, 0 empty */
	size_t *slots;
	size_t nslots;
};
/* Adds x to the list (items.c); a value whose place an item has already
 * joins that item's further values, censored and approximate marks
 * joining its own. 0, or -1 out of memory. */
int bl_items_add(struct bl_items *it, const struct bl_item *x);
/* Appends x to the growing array *v of *n values (room for *cap):
 * 0, or -1 out of memory (the array as it was). */
int bl_doubles_push(double **v, size_t *n, size_t *cap, double x);
/* The further values of x, an item of it: *n of them. */
const double *bl_item_more_values(const struct bl_items *it, const struct bl_item *x, size_t *n);
void bl_items_free(struct bl_items *it);
/* The list's copy of s, or NULL on out of memory. */
const char *bl_items_keep(struct bl_items *it, const char *s);
/* The index in it->texts of a text the list keeps. */
size_t bl_items_text_index(const struct bl_items *it, const char *kept);

struct bl_select {
	const struct bl_chart_opts *o;
	void *where; /* pcre2_code * or NULL */
	void *md; /* pcre2_match_data * */
	json_t *docs; /* borrowed */
	size_t nsources; /* distinct sources (path and message) */
	size_t *src_of_doc; /* document index -> source index */
	char **src_names; /* short, distinct names of the sources */
	/* by source: the first document of it whose "system" has a text
	 * (a string not empty), or SIZE_MAX */
	size_t *system_doc;
	/* by document: its runs' names and warnings, made on first use and
	 * kept for every view (select.c) */
	char ***run_names;
	const char ***run_warnings;
	size_t ndocs;
};
const char *bl_select_source_name(const struct bl_select *s, size_t src);

int bl_select_init(struct bl_select *s, json_t *docs, const struct bl_chart_opts *o, char *err,
		   size_t errlen);
void bl_select_free(struct bl_select *s);
/* Appends the items of view v from every document. -1 on out of memory. */
int bl_select_items(struct bl_select *s, const struct bl_view *v, struct bl_items *out);
/* True when run passes --tool and --where. */
bool bl_select_run(struct bl_select *s, json_t *run);
/* The tools present (after filters), in input order: fills names (borrowed). */
size_t bl_select_tools(struct bl_select *s, const char **names, size_t max);
/* "file.txt" from "/path/to/file.txt" (borrowed pointer into path). */
const char *bl_basename(const char *path);

/* Views that keep runs apart (render/run_prefix.c): each item's series
 * gets its run's own words before it when runs share a cell of a chart.
 * 0, or -1 on out of memory. */
int bl_prefix_runs(const struct bl_view *v, struct bl_items *it);

/* Median of v[0..n), which it reorders; NAN when n is 0. */
double bl_median(double *v, size_t n);

/* A growable byte buffer that cairo writes into (render/output.c). */
/* A cairo_write_func_t: appends to the struct bl_buf closure. */
#include <cairo.h>
cairo_status_t bl_membuf_write(void *closure, const unsigned char *data, unsigned int len);

/* Lays out chart c with the render options and pango's measures (free
 * with bl_layout_free). 0, or -1 on out of memory. */
int bl_render_layout(const struct bl_chart *c, const struct bl_render_opts *o, struct bl_layout *l);

#endif
