/* table.c - the charts' comparisons as text: an aligned terminal table,
 * a Markdown table, and tidy CSV (one row per result). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* East Asian wide and fullwidth ranges: two terminal columns. */
static bool wide(unsigned long c)
{
	return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF && c != 0x303F) ||
	       (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
	       (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
	       (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x20000 && c <= 0x3FFFD);
}

size_t bl_text_width(const char *s)
{
	size_t w = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned long c = *p;
		int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
		if (extra)
			c &= 0x3F >> extra;
		p++;
		for (int i = 0; i < extra && (*p & 0xC0) == 0x80; i++)
			c = c << 6 | (*p++ & 0x3F);
		if (c >= 0x300 && c <= 0x36F)
			continue; /* combining marks */
		w += wide(c) ? 2 : 1;
	}
	return w;
}

static int out(bl_write_fn write, void *ctx, const char *s)
{
	return write(ctx, (const unsigned char *)s, strlen(s));
}

static int pad(bl_write_fn write, void *ctx, size_t n)
{
	static const char spaces[] = "                                ";
	while (n > 0) {
		size_t k = n < 32 ? n : 32;
		if (write(ctx, (const unsigned char *)spaces, k) != 0)
			return -1;
		n -= k;
	}
	return 0;
}

/* A cell: "45.1", "≥ 120", "~1.4", "45.1 (44.7–47.6, n=3)", "3.58 to 10.8
 * (n=6, disagree)", or "". */
void bl_table_cell(const struct bl_chart *c, const struct bl_bar *b, char *buf, size_t len)
{
	char v[32], lo[32], hi[32];
	if (!b) {
		buf[0] = '\0';
		return;
	}
	if (isnan(b->value)) {
		snprintf(buf, len, "too fast to time");
		return;
	}
	bl_scale_format(&c->scale, b->value, v, sizeof v);
	size_t k = strlen(v);
	if (b->warning && k + 1 < sizeof v) {
		v[k] = '*'; /* fmt3 leaves room: at most 12 of 32 bytes */
		v[k + 1] = '\0';
	}
	const char *mark = b->censored ? "≥ " : b->approximate ? "~" : "";
	if (b->disagree) {
		/* no median where the repeats disagree: their range */
		bl_scale_format(&c->scale, b->min, lo, sizeof lo);
		bl_scale_format(&c->scale, b->max, hi, sizeof hi);
		snprintf(buf, len, "%s%s to %s (n=%zu, disagree)", mark, lo, hi, b->n);
	} else if (b->n > 1) {
		bl_scale_format(&c->scale, b->min, lo, sizeof lo);
		bl_scale_format(&c->scale, b->max, hi, sizeof hi);
		snprintf(buf, len, "%s%s (%s–%s, n=%zu)", mark, v, lo, hi, b->n);
	} else {
		snprintf(buf, len, "%s%s", mark, v);
	}
}

/* Markdown cells: what would make a table cell or emphasis escaped
 * ("mirror|0" -> "mirror\|0", "*** degraded ***" -> "\*\*\* degraded
 * \*\*\*", "data_01" -> "data\_01"), '<' as "&lt;" (no HTML tag from
 * a label), line breaks as spaces. */
static void md_escape(const char *s, char *buf, size_t len)
{
	size_t j = 0;
	for (; *s && j + 5 < len; s++) {
		if (*s == '<') {
			memcpy(buf + j, "&lt;", 4);
			j += 4;
			continue;
		}
		if (strchr("|*_`\\[]", *s))
			buf[j++] = '\\';
		buf[j++] = *s == '\n' ? ' ' : *s;
	}
	buf[j] = '\0';
}

/* The text of the cell in row r (0: the head) and column k (0: the
 * categories), b its bar (NULL: none), into buf or a label as it is. */
static const char *cell_text(const struct bl_chart *c, const struct bl_bar *b, size_t r, size_t k,
			     bool md, char *buf, size_t len)
{
	const char *label = NULL;
	if (r == 0)
		label = k == 0 ? c->metric_label : c->series[k - 1][0] ? c->series[k - 1] : "value";
	else if (k == 0)
		label = c->cats[r - 1];
	if (!label) {
		bl_table_cell(c, b, buf, len);
		return buf;
	}
	if (!md)
		return label;
	md_escape(label, buf, len);
	return buf;
}

/* The widths of the table's columns, width[0, nseries + 1). */
static void col_widths(const struct bl_chart *c, const struct bl_bar *const *order, size_t n,
		       bool md, size_t *width)
{
	char buf[512];
	for (size_t r = 0; r <= c->ncats; r++)
		for (size_t k = 0; k <= (r ? 0 : c->nseries); k++) {
			size_t w = bl_text_width(cell_text(c, NULL, r, k, md, buf, sizeof buf));
			if (w > width[k])
				width[k] = w;
		}
	for (size_t i = 0; i < n; i++) {
		size_t k = order[i]->ser + 1;
		size_t w = bl_text_width(
			cell_text(c, order[i], order[i]->cat + 1, k, md, buf, sizeof buf));
		if (w > width[k])
			width[k] = w;
	}
}

/* The title line. */
static int title_line(const struct bl_chart *c, bool md, bl_write_fn write, void *ctx)
{
	const char *dir = bl_better_text(c->better);
	return out(write, ctx, md ? "**" : "") || out(write, ctx, c->title) ||
	       out(write, ctx, md ? "** — " : " — ") || out(write, ctx, c->subtitle) ||
	       out(write, ctx, *dir ? " — " : "") || out(write, ctx, dir) ||
	       out(write, ctx, md ? "\n\n" : "\n");
}

/* The rule under the head: dashes as wide as each column. */
static int rule_line(size_t cols, const size_t *width, bool md, bl_write_fn write, void *ctx)
{
	for (size_t k = 0; k < cols; k++) {
		if (md ? out(write, ctx, k ? " " : "| ") : k && out(write, ctx, "  "))
			return -1;
		for (size_t i = 0; i + (md && k ? 1 : 0) < width[k]; i++)
			if (out(write, ctx, "-"))
				return -1;
		if (md && ((k && out(write, ctx, ":")) || out(write, ctx, " |")))
			return -1;
	}
	return out(write, ctx, "\n");
}

/* Row r: its cells from *at on in order (those of row r taken). */
static int row_line(const struct bl_chart *c, size_t r, const struct bl_bar *const *order, size_t n,
		    size_t *at, const size_t *width, bool md, bl_write_fn write, void *ctx)
{
	char buf[512];
	size_t cols = c->nseries + 1;
	for (size_t k = 0; k < cols; k++) {
		const struct bl_bar *b = NULL;
		if (r && k && *at < n && order[*at]->cat == r - 1 && order[*at]->ser == k - 1)
			b = order[(*at)++];
		const char *t = cell_text(c, b, r, k, md, buf, sizeof buf);
		size_t gap = width[k] - bl_text_width(t);
		bool right = k > 0 && r > 0; /* numbers right-aligned */
		if (md && out(write, ctx, k ? " " : "| "))
			return -1;
		if (!md && k > 0 && out(write, ctx, "  "))
			return -1;
		if ((right && pad(write, ctx, gap)) || out(write, ctx, t) ||
		    (!right && (md || k + 1 < cols) && pad(write, ctx, gap)))
			return -1;
		if (md && out(write, ctx, " |"))
			return -1;
	}
	return out(write, ctx, "\n");
}

int bl_table_chart(const struct bl_chart *c, enum bl_table_style style, bl_write_fn write,
		   void *ctx)
{
	size_t cols = c->nseries + 1, n = 0, at = 0;
	bool md = style == BL_TABLE_MARKDOWN;
	size_t *width = calloc(cols, sizeof *width);
	const struct bl_bar **order = width ? bl_chart_cell_order(c, &n) : NULL;
	int rc = order ? 0 : -1;
	if (rc == 0) {
		col_widths(c, order, n, md, width);
		rc = title_line(c, md, write, ctx);
	}
	for (size_t r = 0; rc == 0 && r <= c->ncats; r++) {
		rc = row_line(c, r, order, n, &at, width, md, write, ctx);
		if (rc == 0 && r == 0)
			rc = rule_line(cols, width, md, write, ctx);
	}
	if (rc == 0 && c->warning[0] &&
	    (out(write, ctx, md ? "\n\\* read with a warning (" : "* read with a warning (") ||
	     out(write, ctx, c->warning) || out(write, ctx, ", in the document)\n")))
		rc = -1;
	free(width);
	free(order);
	return rc;
}

/* ------------------------------------------------------------ CSV */

/* RFC 4180: quoted when it holds a comma, quote or line break. */
static int csv_field(bl_write_fn write, void *ctx, const char *s, bool last)
{
	if (!s)
		s = "";
	bool q = strpbrk(s, ",\"\r\n") != NULL;
	if (q && out(write, ctx, "\""))
		return -1;
	for (const char *p = s; *p; p++) {
		if (*p == '"' && q && out(write, ctx, "\""))
			return -1;
		if (write(ctx, (const unsigned char *)p, 1))
			return -1;
	}
	if (q && out(write, ctx, "\""))
		return -1;
	return out(write, ctx, last ? "\n" : ",");
}

static const char *const fixed_cols[] = {"source",  "message", "tool", "variant", "label",
					 "command", "group",   "line", "metric",  "value",
					 "unit",    "flags",   "raw"};
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A JSON scalar as CSV text (new string); "" for null. */
static char *scalar(json_t *v)
{
	if (!v || json_is_null(v))
		return strdup("");
	if (json_is_string(v))
		return strdup(json_string_value(v));
	/* json_dumpb, not json_dumps: what json_dumps returns comes from
	 * jansson's allocator, which the command may have replaced
	 * (cli/json_pool.c), and is not free()'s to take */
	const size_t flags = JSON_ENCODE_ANY | JSON_REAL_PRECISION(17);
	char buf[64];
	size_t n = json_dumpb(v, buf, sizeof buf - 1, flags);
	if (!n)
		return NULL;
	if (n < sizeof buf) {
		buf[n] = '\0';
		return strdup(buf);
	}
	char *s = malloc(n + 1);
	if (s && json_dumpb(v, s, n, flags) == n) {
		s[n] = '\0';
		return s;
	}
	free(s);
	return NULL;
}

int bl_table_csv(json_t *docs, const struct bl_chart_opts *o, bl_write_fn write, void *ctx)
{
	struct bl_select s;
	char err[128];
	if (bl_select_init(&s, docs, o, err, sizeof err) < 0)
		return -1;
	/* coordinate columns: every other member of a result, sorted */
	char *coords[32]; /* copied: a result read from its text goes */
	size_t nc = 0, di, ri;
	json_t *doc, *run;
	struct bl_res_iter it;
	struct bl_res r, *res = &r;
	json_array_foreach(docs, di, doc)
	{
		json_array_foreach(json_object_get(doc, "runs"), ri, run)
		{
			if (!bl_select_run(&s, run))
				continue;
			for (bl_res_begin(&it, run); bl_res_next(&it, &r);) {
				const char *key;
				json_t *v;
				for (size_t c = 0; bl_res_coord(res, c, &key, &v); c++) {
					size_t i = 0;
					while (i < nc && strcmp(coords[i], key) != 0)
						i++;
					if (i == nc && nc < 32 && (coords[nc] = strdup(key)))
						nc++;
				}
			}
		}
	}
	qsort(coords, nc, sizeof *coords, cmp_str);
	int rc = -1;
	size_t nfixed = sizeof fixed_cols / sizeof fixed_cols[0];
	for (size_t i = 0; i < nfixed; i++)
		if (csv_field(write, ctx, fixed_cols[i], i + 1 == nfixed && nc == 0))
			goto done;
	for (size_t i = 0; i < nc; i++)
		if (csv_field(write, ctx, coords[i], i + 1 == nc))
			goto done;
	json_array_foreach(docs, di, doc)
	{
		json_t *src = json_object_get(doc, "source");
		json_t *msg = json_object_get(src, "message");
		json_array_foreach(json_object_get(doc, "runs"), ri, run)
		{
			if (!bl_select_run(&s, run))
				continue;
			for (bl_res_begin(&it, run); bl_res_next(&it, &r);) {
				char *f[13];
				f[0] = scalar(json_object_get(src, "path"));
				f[1] = scalar(json_object_get(msg, "index"));
				f[2] = scalar(json_object_get(run, "tool"));
				f[3] = scalar(json_object_get(run, "variant"));
				f[4] = scalar(json_object_get(run, "label"));
				f[5] = scalar(json_object_get(run, "command"));
				f[6] = scalar(json_object_get(run, "group"));
				f[7] = scalar(bl_render_run_line_value(run));
				f[8] = scalar(bl_res_get(res, "metric"));
				f[9] = scalar(bl_res_get(res, "value"));
				f[10] = scalar(bl_res_get(res, "unit"));
				char flags[128] = "";
				size_t used = 0;
				const char *fl;
				for (size_t fi = 0; (fl = bl_res_flag(res, fi)); fi++) {
					int w = snprintf(flags + used, sizeof flags - used, "%s%s",
							 used ? ";" : "", fl);
					if (w > 0 && (size_t)w < sizeof flags - used)
						used += (size_t)w;
				}
				f[11] = strdup(flags);
				f[12] = scalar(bl_res_get(res, "raw"));
				int bad = 0;
				for (size_t i = 0; i < 13; i++) {
					if (!bad && csv_field(write, ctx, f[i], i == 12 && nc == 0))
						bad = 1;
					free(f[i]);
				}
				for (size_t i = 0; i < nc && !bad; i++) {
					char *v = scalar(bl_res_get(res, coords[i]));
					if (csv_field(write, ctx, v, i + 1 == nc))
						bad = 1;
					free(v);
				}
				if (bad) {
					bl_res_end(&it);
					goto done;
				}
			}
		}
	}
	rc = 0;
done:
	for (size_t i = 0; i < nc; i++)
		free(coords[i]);
	bl_select_free(&s);
	return rc;
}
