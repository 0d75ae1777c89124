/* internal.h - what the render files share and nobody else needs: the
 * default views per tool, and the items select.c pulls out of documents. */
#ifndef BL_RENDER_INTERNAL_H
#define BL_RENDER_INTERNAL_H

#include "../base/buf.h"
#include "render.h"

/* A default chart for a tool: which results, and what makes categories,
 * series and separate charts. */
struct bl_view {
	const char *tool;             /* exact tool name */
	const char *id;               /* file name part: "throughput" */
	const char *title;
	const char *const *metrics;   /* NULL-terminated list, or NULL: every metric of `unit` */
	const char *unit;             /* base unit the results must have */
	enum bl_key cat, ser, split;
	const char *without;          /* skip results that have this coordinate */
	bool skip_since_boot;         /* zpool iostat: sample 0 averages since boot */
	const char *scope;            /* only results whose "scope" is this (iozone -t) */
	bool per_run;                 /* never merge the cells of different runs: when
					 * two runs fill one (cat, ser), each run's name
					 * goes before the series */
};

/* The views of `tool` (NULL-terminated array of pointers into a static
 * table); the generic one for a tool without its own. */
size_t bl_views_for(const char *tool, const struct bl_view **out, size_t max);
/* A readable name for a metric ("seq_output_block" -> "block write"). */
const char *bl_metric_title(const char *tool, const char *metric, char *buf, size_t len);

/* One value pulled out of a document for a view. */
struct bl_item {
	char *cat, *ser, *split;     /* owned */
	char *run;                   /* owned; the run's name, for views with per_run */
	double cat_order;            /* numeric order for coordinate keys, else NAN */
	double split_order;
	double value;                /* NAN: censored without a printed bound */
	bool censored, approximate;
	size_t src;                  /* index of the document's source */
	const char *command;         /* borrowed from the document */
	const char *source;          /* the source path, borrowed */
	const char *source_name;     /* its short name, borrowed from bl_select */
};

struct bl_items {
	struct bl_item *v;
	size_t n, cap;
};

struct bl_select {
	const struct bl_chart_opts *o;
	void *where;                 /* pcre2_code * or NULL */
	void *md;                    /* pcre2_match_data * */
	json_t *docs;                /* borrowed */
	size_t nsources;             /* distinct sources (path and message) */
	size_t *src_of_doc;          /* document index -> source index */
	char **src_names;            /* short, distinct names of the sources */
};
const char *bl_select_source_name(const struct bl_select *s, size_t src);

int bl_select_init(struct bl_select *s, json_t *docs, const struct bl_chart_opts *o,
		   char *err, size_t errlen);
void bl_select_free(struct bl_select *s);
/* Appends the items of view v from every document. -1 on out of memory. */
int bl_select_items(struct bl_select *s, const struct bl_view *v, struct bl_items *out);
void bl_items_free(struct bl_items *it);
/* True when run passes --tool and --where. */
bool bl_select_run(struct bl_select *s, json_t *run);
/* The tools present (after filters), in input order: fills names (borrowed). */
size_t bl_select_tools(struct bl_select *s, const char **names, size_t max);
/* "file.txt" from "/path/to/file.txt" (borrowed pointer into path). */
const char *bl_basename(const char *path);

/* Median of v[0..n) (sorts v). */
double bl_median(double *v, size_t n);

/* A growable byte buffer that cairo writes into (render/output.c). */
/* A cairo_write_func_t: appends to the struct bl_buf closure. */
#include <cairo.h>
cairo_status_t bl_membuf_write(void *closure, const unsigned char *data, unsigned int len);

/* Lays out chart c with the render options and pango's measures (free
 * with bl_layout_free). 0, or -1 on out of memory. */
int bl_render_layout(const struct bl_chart *c, const struct bl_render_opts *o, struct bl_layout *l);

#endif
