/* table_csv.c - `benchlog table --csv`: one line per result, the fields
 * of its run first, then its coordinates, a column each, sorted by name:
 *
 *   source,message,tool,...,metric,value,unit,flags,raw,file_size,record_size
 *   post.txt,,iozone,auto,,iozone -a,0,12,write,123456,kB/s,,,64,4
 *
 * A dense post has a million results: everything goes through one
 * buffer, a run's own fields are made once for all its results, and a
 * result's coordinates are put in their columns in one pass over them. */
#include <stdlib.h>
#include <string.h>

#include "../base/numfmt.h"
#include "../parsers/run_results.h"
#include "internal.h"

#define CSV_BUF ((size_t)1 << 16)
#define CSV_COORDS 32 /* coordinate columns; a name past them is left out */

/* Fields made into buf[0, n), written out when it is full. */
struct csv {
	bl_write_fn write;
	void *ctx;
	int err;
	size_t n, cap;
	char *buf;
};

static void flush(struct csv *w)
{
	if (w->n && !w->err && w->write(w->ctx, (const unsigned char *)w->buf, w->n))
		w->err = -1;
	w->n = 0;
}

static void put(struct csv *w, const char *s, size_t n)
{
	while (n) {
		if (w->n == w->cap)
			flush(w);
		size_t k = w->cap - w->n < n ? w->cap - w->n : n;
		memcpy(w->buf + w->n, s, k);
		w->n += k;
		s += k;
		n -= k;
	}
}

/* A field, RFC 4180: quoted, its quotes doubled, when it holds a comma,
 * a quote or a line break ("1,5" -> "\"1,5\""); then ',' or the line end. */
static void field(struct csv *w, const char *s, size_t n, bool last)
{
	size_t i = 0;
	while (i < n && s[i] != ',' && s[i] != '"' && s[i] != '\r' && s[i] != '\n')
		i++;
	if (i == n) {
		put(w, s, n);
	} else {
		put(w, "\"", 1);
		for (const char *q; (q = memchr(s, '"', n));) {
			size_t k = (size_t)(q - s) + 1;
			put(w, s, k);
			put(w, "\"", 1);
			s += k;
			n -= k;
		}
		put(w, s, n);
		put(w, "\"", 1);
	}
	put(w, last ? "\n" : ",", 1);
}

/* A JSON value as a field: a string as it is, a number as the document
 * writes it, "" for null or none; an object or an array as JSON. */
static void scalar(struct csv *w, json_t *v, bool last)
{
	char num[BL_NUM_MAX];
	const char *s = "";
	size_t n = 0;
	switch (v ? json_typeof(v) : JSON_NULL) {
	case JSON_STRING:
		s = json_string_value(v);
		n = strlen(s);
		break;
	case JSON_INTEGER:
		n = bl_fmt_int((long long)json_integer_value(v), num);
		s = num;
		break;
	case JSON_REAL:
		n = bl_fmt_real(json_real_value(v), 17, num);
		s = num;
		break;
	case JSON_TRUE: s = "true", n = 4; break;
	case JSON_FALSE: s = "false", n = 5; break;
	case JSON_NULL: break;
	default: {
		/* json_dumpb, not json_dumps: what json_dumps returns comes
		 * from jansson's allocator, which the command may have replaced
		 * (cli/json_pool.c), and is not free()'s to take */
		const size_t flags = JSON_ENCODE_ANY | JSON_REAL_PRECISION(17);
		size_t len = json_dumpb(v, NULL, 0, flags);
		char *t = len ? malloc(len) : NULL;
		if (t && json_dumpb(v, t, len, flags) == len)
			field(w, t, len, last);
		else
			field(w, "", 0, last);
		free(t);
		return;
	}
	}
	field(w, s, n, last);
}

static void text(struct csv *w, const char *s, bool last)
{
	field(w, s, strlen(s), last);
}

static const char *const fixed_cols[] = {"source",  "message", "tool", "variant", "label",
					 "command", "group",   "line", "metric",  "value",
					 "unit",    "flags",   "raw"};
#define NFIXED (sizeof fixed_cols / sizeof fixed_cols[0])

/* The coordinate columns: their names (copies: a result read from its
 * text takes its names with it), sorted once all are known. */
struct cols {
	char *name[CSV_COORDS];
	/* a name of the result's own ("metric", "value", "unit", "raw",
	 * "flags") that a document's rows may give a coordinate: the column
	 * shows the result's own, as bl_res_get reads it */
	bool own[CSV_COORDS];
	size_t n;
};

/* The column of coordinate `key`, or -1. */
static long col_of(const struct cols *c, const char *key)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->name[i][0] == key[0] && strcmp(c->name[i], key) == 0)
			return (long)i;
	return -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every coordinate name of the selected runs' results, sorted. */
static void collect_cols(json_t *docs, struct bl_select *s, struct cols *c)
{
	size_t di, ri;
	json_t *doc, *run;
	json_array_foreach(docs, di, doc)
	{
		json_array_foreach(json_object_get(doc, "runs"), ri, run)
		{
			if (!bl_select_run(s, run))
				continue;
			struct bl_res_iter it;
			struct bl_res r;
			for (bl_res_begin(&it, run); bl_res_next(&it, &r);) {
				const char *key;
				json_t *v;
				for (size_t k = 0; bl_res_coord(&r, k, &key, &v); k++)
					if (col_of(c, key) < 0 && c->n < CSV_COORDS &&
					    (c->name[c->n] = strdup(key)))
						c->n++;
			}
		}
	}
	qsort(c->name, c->n, sizeof *c->name, cmp_str);
	for (size_t i = 0; i < c->n; i++)
		c->own[i] = bl_res_own_name(c->name[i]);
}

/* The flags of r apart by ';' ("censored;approximate") in buf[0, cap):
 * a flag that does not fit whole leaves what fits of it after the
 * others, unless one after it fits. Its length. */
static size_t flags_of(const struct bl_res *r, char *buf, size_t cap)
{
	size_t used = 0, shown = 0;
	const char *f;
	for (size_t i = 0; (f = bl_res_flag(r, i)); i++) {
		size_t len = strlen(f), sep = used ? 1 : 0, room = cap - used - 1;
		char *d = buf + used;
		if (sep && room)
			*d++ = ';';
		size_t k = sep + len <= room ? len : room > sep ? room - sep : 0;
		memcpy(d, f, k);
		shown = used + (room < sep ? room : sep) + k;
		if (sep + len <= room)
			used = shown;
	}
	return shown;
}

/* One line: the run's fields (`head`, made once a run), the result's,
 * its coordinates. */
static void result_line(struct csv *w, const struct bl_buf *head, struct bl_res *r,
			const struct cols *c)
{
	put(w, head->p, head->n);
	bool none = c->n == 0;
	scalar(w, bl_res_get(r, "metric"), false);
	scalar(w, bl_res_get(r, "value"), false);
	scalar(w, bl_res_get(r, "unit"), false);
	char flags[128];
	field(w, flags, flags_of(r, flags, sizeof flags), false);
	scalar(w, bl_res_get(r, "raw"), none);
	json_t *val[CSV_COORDS] = {0};
	const char *key;
	json_t *v;
	for (size_t k = 0; bl_res_coord(r, k, &key, &v); k++) {
		long i = col_of(c, key);
		if (i >= 0 && !val[i]) /* the first of a name, as bl_res_get */
			val[i] = v;
	}
	for (size_t i = 0; i < c->n; i++)
		if (c->own[i])
			val[i] = bl_res_get(r, c->name[i]);
	for (size_t i = 0; i < c->n; i++)
		scalar(w, val[i], i + 1 == c->n);
}

static int buf_write(void *ctx, const unsigned char *data, size_t len)
{
	return bl_buf_put(ctx, data, len) ? 0 : -1;
}

/* The fields of run `run` of document `doc` that every result repeats,
 * in *head. */
static int run_head(struct bl_buf *head, json_t *doc, json_t *run)
{
	char buf[1024];
	struct csv w = {.write = buf_write, .ctx = head, .cap = sizeof buf, .buf = buf};
	head->n = 0;
	json_t *src = json_object_get(doc, "source");
	scalar(&w, json_object_get(src, "path"), false);
	scalar(&w, json_object_get(json_object_get(src, "message"), "index"), false);
	static const char *const keys[] = {"tool", "variant", "label", "command", "group"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		scalar(&w, json_object_get(run, keys[i]), false);
	scalar(&w, bl_render_run_line_value(run), false);
	flush(&w);
	return w.err;
}

static void put_header(struct csv *w, const struct cols *c)
{
	for (size_t i = 0; i < NFIXED; i++)
		text(w, fixed_cols[i], i + 1 == NFIXED && c->n == 0);
	for (size_t i = 0; i < c->n; i++)
		text(w, c->name[i], i + 1 == c->n);
}

static int put_rows(struct csv *w, json_t *docs, struct bl_select *s, const struct cols *c)
{
	struct bl_buf head = {0};
	size_t di, ri;
	json_t *doc, *run;
	int rc = 0;
	json_array_foreach(docs, di, doc)
	{
		json_array_foreach(json_object_get(doc, "runs"), ri, run)
		{
			if (rc || w->err || !bl_select_run(s, run))
				continue;
			if (run_head(&head, doc, run) < 0) {
				rc = -1;
				continue;
			}
			struct bl_res_iter it;
			struct bl_res r;
			for (bl_res_begin(&it, run); !w->err && bl_res_next(&it, &r);)
				result_line(w, &head, &r, c);
			bl_res_end(&it);
		}
	}
	bl_buf_free(&head);
	return rc;
}

int bl_table_csv(json_t *docs, const struct bl_chart_opts *o, bl_write_fn write, void *ctx)
{
	struct bl_select s;
	char err[128];
	if (bl_select_init(&s, docs, o, err, sizeof err) < 0)
		return -1;
	struct csv w = {.write = write, .ctx = ctx, .cap = CSV_BUF, .buf = malloc(CSV_BUF)};
	struct cols c = {0};
	int rc = -1;
	if (w.buf) {
		collect_cols(docs, &s, &c);
		put_header(&w, &c);
		rc = put_rows(&w, docs, &s, &c);
		flush(&w);
		rc = rc || w.err ? -1 : 0;
	}
	for (size_t i = 0; i < c.n; i++)
		free(c.name[i]);
	free(w.buf);
	bl_select_free(&s);
	return rc;
}
