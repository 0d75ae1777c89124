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
