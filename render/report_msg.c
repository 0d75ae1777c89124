/* report_msg.c - one message's section of the report: where it came from
 * and how it was decoded, the system context found in its prose, its
 * runs (each row linked to its span, with the span's original bytes), and
 * its decoded text with every run's span highlighted and every diagnostic
 * under the line it is about.
 *
 * Ids: "m3" the section of document 3, "run-3-0" its run 0's row,
 * "span-3-0" that run's span in the text, "L3-41" input line 41. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/mapped.h"
#include "../base/message.h"
#include "../parsers/run_results.h"
#include "html.h"
#include "report.h"

/* A run's span in the message's decoded text: [from, to). */
struct text_span {
	size_t from, to, run;
};

/* A diagnostic at a text offset. */
struct text_diag {
	size_t at;
	json_t *d;
};

static size_t num(json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));
	return v > 0 ? (size_t)v : 0;
}

static void put_header(struct bl_buf *b, struct bl_message *m, const char *path, json_t *doc,
		       size_t d)
{
	json_t *src = json_object_get(doc, "source");
	size_t nruns = json_array_size(json_object_get(doc, "runs"));
	bl_html_printf(b, "<section class=\"msg\" id=\"m%zu\">\n<h2>", d);
	bl_html_esc(b, path);
	if (m->subject || json_object_get(src, "message"))
		bl_html_printf(b, " — message %zu", m->index);
	bl_html_put(b, "</h2>\n<p class=\"meta\">");
	if (m->subject) {
		bl_html_put(b, "<b>");
		bl_html_esc(b, m->subject);
		bl_html_put(b, "</b><br>");
	}
	if (m->from || m->date) {
		bl_html_esc(b, m->from);
		bl_html_put(b, m->from && m->date ? ", " : "");
		bl_html_esc(b, m->date);
		bl_html_put(b, "<br>");
	}
	bl_html_printf(b, "%zu run%s; bytes %zu to %zu of the input; decoded: ", nruns,
		       nruns == 1 ? "" : "s", num(src, "offset"),
		       num(src, "offset") + num(src, "bytes"));
	size_t i;
	json_t *v;
	json_t *dec = json_object_get(src, "decoding");
	json_array_foreach(dec, i, v)
	{
		bl_html_put(b, i ? ", " : "");
		bl_html_put(b, "<span class=\"decoding\">");
		bl_html_esc(b, json_string_value(v));
		bl_html_put(b, "</span>");
	}
	if (json_array_size(dec) == 0)
		bl_html_put(b, "nothing (plain text)");
	bl_html_put(b, "</p>\n");
	if (json_is_true(json_object_get(doc, "partial")))
		bl_html_put(b,
			    "<p class=\"partial\">Partial: part of this message could not be "
			    "read (cut off, damaged or too long); the diagnostics in the text say "
			    "where.</p>\n");
}

/* The system context: one row per fact, its text and a link to its line. */
static void put_system(struct bl_buf *b, json_t *doc, size_t d)
{
	json_t *sys = json_object_get(doc, "system");
	if (json_object_size(sys) == 0)
		return;
	bl_html_put(b, "<details class=\"system\" open><summary>System context found in the "
		       "prose</summary>\n<table>\n");
	const char *key;
	json_t *facts;
	json_object_foreach(sys, key, facts)
	{
		size_t i;
		json_t *f;
		json_array_foreach(facts, i, f)
		{
			size_t line = num(f, "line");
			bl_html_put(b, "<tr><th>");
			bl_html_esc(b, key);
			bl_html_put(b, "</th><td>");
			bl_html_esc(b, json_string_value(json_object_get(f, "raw")));
			if (line)
				bl_html_printf(b, "</td><td><a href=\"#L%zu-%zu\">line %zu</a>", d,
					       line, line);
			bl_html_put(b, "</td></tr>\n");
		}
	}
	bl_html_put(b, "</table></details>\n");
}

/* How telling a result in `unit` is at a glance: rates first, then
 * times; counts and sizes last. */
static int unit_rank(const char *unit)
{
	static const char *const order[] = {"B/s", "ops/s", "s", NULL};
	for (int i = 0; order[i]; i++)
		if (unit && strcmp(unit, order[i]) == 0)
			return i;
	return 3;
}

/* A run's most telling results (three at most, rates first), with their
 * units: "throughput 31.2 MB/s". */
static void put_results(struct bl_buf *b, json_t *run)
{
	size_t shown = 0, n = bl_res_count(run);
	struct bl_res_iter it;
	struct bl_res r, *x = &r;
	for (int rank = 0; rank <= 3 && shown < 3; rank++)
		for (bl_res_begin(&it, run); bl_res_next(&it, &r);) {
			json_t *val = bl_res_get(x, "value");
			const char *unit = json_string_value(bl_res_get(x, "unit"));
			if (!json_is_number(val) || !unit || shown == 3 || unit_rank(unit) != rank)
				continue;
			char buf[64];
			bl_format_value(json_number_value(val), unit, BL_UNITS_DECIMAL, buf,
					sizeof buf);
			bl_html_put(b, shown++ ? "<br>" : "");
			bl_html_esc(b, json_string_value(bl_res_get(x, "metric")));
			bl_html_put(b, " <span class=\"v\">");
			bl_html_esc(b, buf);
			bl_html_put(b, "</span>");
		}
	if (n > shown)
		bl_html_printf(b, "%s<span class=\"more\">%zu result%s in all</span>",
			       shown ? "<br>" : "", n, n == 1 ? "" : "s");
}

/* The input bytes [from, to) of the message, as they were: a line at a
 * time past ORIGINAL_PIECE bytes, the section handed on as it grows (a
 * zpool stream's run is the whole post). A cut after a newline is no cut
 * in a character, valid or not. */
#define ORIGINAL_PIECE ((size_t)256 << 10)
static void put_original(const struct bl_section_out *out, const struct bl_message *m, size_t from,
			 size_t to)
{
	if (from < m->raw_offset || to > m->raw_offset + m->raw_len || to <= from)
		return;
	struct bl_buf *b = out->b;
	bl_html_put(b, "<details class=\"orig\"><summary>original bytes</summary><pre>");
	const char *s = m->raw + (from - m->raw_offset);
	size_t n = to - from;
	while (n > ORIGINAL_PIECE) {
		const char *nl = memchr(s + ORIGINAL_PIECE, '\n', n - ORIGINAL_PIECE);
		size_t piece = nl ? (size_t)(nl - s) + 1 : n;
		bl_html_text(b, s, piece);
		bl_mapped_passed(s, s + piece);
		bl_section_flush_full(out);
		s += piece;
		n -= piece;
	}
	bl_html_text(b, s, n);
	bl_html_put(b, "</pre></details>");
}

static void put_runs(const struct bl_section_out *out, const struct bl_message *m, json_t *doc,
		     size_t d)
{
	struct bl_buf *b = out->b;
	json_t *runs = json_object_get(doc, "runs");
	if (json_array_size(runs) == 0) {
		bl_html_put(b, "<p class=\"none\">No benchmark output was found in this "
			       "message.</p>\n");
		return;
	}
	bl_html_put(b,
		    "<div class=\"scroll\"><table class=\"runs sortable\">\n<thead><tr><th>run</th>"
		    "<th>tool</th><th>label</th><th>command</th><th>lines</th>"
		    "<th>results</th><th>source</th></tr></thead><tbody>\n");
	size_t i;
	json_t *run;
	json_array_foreach(runs, i, run)
	{
		json_t *span = json_object_get(run, "span");
		size_t line = num(span, "line");
		bl_html_printf(
			b,
			"<tr id=\"run-%zu-%zu\"><td data-v=\"%zu\"><a href=\"#span-%zu-%zu\">%zu</a>"
			"</td><td>",
			d, i, i, d, i, i);
		bl_html_esc(b, json_string_value(json_object_get(run, "tool")));
		bl_html_put(b, " <span class=\"variant\">");
		bl_html_esc(b, json_string_value(json_object_get(run, "variant")));
		bl_html_put(b, "</span></td><td>");
		bl_html_esc(b, json_string_value(json_object_get(run, "label")));
		bl_html_put(b, "</td><td><code>");
		bl_html_esc(b, json_string_value(json_object_get(run, "command")));
		bl_html_printf(
			b,
			"</code></td><td data-v=\"%zu\"><a href=\"#L%zu-%zu\">%zu–%zu</a></td><td>",
			line, d, line, line, num(span, "end_line"));
		put_results(b, run);
		bl_html_put(b, "</td><td>");
		put_original(out, m, num(span, "offset"), num(span, "end_offset"));
		bl_html_put(b, "</td></tr>\n");
		bl_section_flush_full(out); /* a long post's page is many times its size */
	}
	bl_html_put(b, "</tbody></table></div>\n");
}

static int by_from(const void *a, const void *b)
{
	const struct text_span *x = a, *y = b;
	return x->from < y->from   ? -1
	       : x->from > y->from ? 1
				   : (x->run > y->run) - (x->run < y->run);
}

static int by_at(const void *a, const void *b)
{
	const struct text_diag *x = a, *y = b;
	return (x->at > y->at) - (x->at < y->at);
}

/* The runs' spans in text offsets, sorted and made disjoint (a span that
 * starts inside the one before starts where that one ends). */
static struct text_span *text_spans(const struct bl_message *m, json_t *runs, size_t *n)
{
	*n = json_array_size(runs);
	struct text_span *v = calloc(*n ? *n : 1, sizeof *v);
	if (!v)
		return NULL;
	size_t i;
	json_t *run;
	json_array_foreach(runs, i, run)
	{
		json_t *span = json_object_get(run, "span");
		v[i].from = bl_message_text_at(m, num(span, "offset"));
		v[i].to = bl_message_text_at(m, num(span, "end_offset"));
		if (v[i].to < v[i].from)
			v[i].to = v[i].from;
		v[i].run = i;
	}
	qsort(v, *n, sizeof *v, by_from);
	for (size_t k = 1; k < *n; k++) {
		if (v[k].from < v[k - 1].to)
			v[k].from = v[k - 1].to;
		if (v[k].to < v[k].from)
			v[k].to = v[k].from;
	}
	return v;
}

static struct text_diag *text_diags(const struct bl_message *m, json_t *diags, size_t *n)
{
	*n = json_array_size(diags);
	struct text_diag *v = calloc(*n ? *n : 1, sizeof *v);
	if (!v)
		return NULL;
	size_t i;
	json_t *d;
	json_array_foreach(diags, i, d)
	{
		v[i].at = bl_message_text_at(m, num(d, "offset"));
		v[i].d = d;
	}
	qsort(v, *n, sizeof *v, by_at);
	return v;
}

static void put_diag(struct bl_buf *b, json_t *d)
{
	const char *level = json_string_value(json_object_get(d, "level"));
	json_t *run = json_object_get(d, "run");
	bl_html_put(b, "<span class=\"diag ");
	bl_html_esc(b, level ? level : "info");
	bl_html_put(b, "\">");
	bl_html_esc(b, level);
	bl_html_put(b, ": ");
	bl_html_esc(b, json_string_value(json_object_get(d, "message")));
	bl_html_put(b, " [");
	bl_html_esc(b, json_string_value(json_object_get(d, "code")));
	bl_html_put(b, "]");
	if (json_is_integer(run))
		bl_html_printf(b, " (run %lld)", (long long)json_integer_value(run));
	bl_html_put(b, "</span>");
}

/* The text as it goes out: position, the next span to open, the open one. */
struct text_out {
	struct bl_buf *b;
	struct bl_message *m;
	size_t d, pos;
	struct text_span *spans;
	size_t nspans, next;
	bool open;
};

/* Emits text up to `to`, closing and opening marks at the span edges
 * before it; a mark that opens at `to` waits for the next call, after
 * the next line's number. `all`: every edge left too (the end). */
static void text_until(struct text_out *t, size_t to, bool all)
{
	for (;;) {
		size_t close_at = t->open ? t->spans[t->next - 1].to : SIZE_MAX;
		size_t open_at =
			!t->open && t->next < t->nspans ? t->spans[t->next].from : SIZE_MAX;
		size_t edge = close_at < open_at ? close_at : open_at;
		if (edge == SIZE_MAX || (!all && (edge > to || (edge == to && edge == open_at))))
			break;
		if (edge > to)
			edge = to;
		bl_html_text(t->b, t->m->text + t->pos, edge - t->pos);
		t->pos = edge;
		if (t->open) {
			bl_html_put(t->b, "</mark>");
			t->open = false;
			continue;
		}
		size_t r = t->spans[t->next++].run;
		bl_html_printf(t->b,
			       "<mark class=\"run\" id=\"span-%zu-%zu\"><a class=\"tag\" "
			       "href=\"#run-%zu-%zu\">run %zu</a>",
			       t->d, r, t->d, r, r);
		t->open = true;
	}
	bl_html_text(t->b, t->m->text + t->pos, to - t->pos);
	t->pos = to;
}

static void put_line_no(struct text_out *t)
{
	size_t line = bl_message_line(t->m, t->pos);
	bl_html_printf(t->b, "<span class=\"ln\" id=\"L%zu-%zu\">%zu</span>", t->d, line, line);
}

static void put_text(const struct bl_section_out *out, struct bl_message *m, json_t *doc, size_t d)
{
	struct bl_buf *b = out->b;
	size_t ns, nd;
	struct text_span *spans = text_spans(m, json_object_get(doc, "runs"), &ns);
	struct text_diag *diags = text_diags(m, json_object_get(doc, "diagnostics"), &nd);
	if (!spans || !diags) {
		b->failed = true;
		free(spans);
		free(diags);
		return;
	}
	bl_html_put(b, "<pre class=\"text\">");
	struct text_out t = {b, m, d, 0, spans, ns, 0, false};
	size_t di = 0;
	do {
		put_line_no(&t);
		const char *nl = memchr(m->text + t.pos, '\n', m->len - t.pos);
		size_t end = nl ? (size_t)(nl - m->text) + 1 : m->len;
		bl_mapped_passed(m->text + t.pos, m->text + end); /* twice_read's */
		text_until(&t, end, false);
		if (!nl)
			bl_html_put(b, "\n");
		for (; di < nd && diags[di].at < end; di++)
			put_diag(b, diags[di].d);
		bl_section_flush_full(out);
	} while (t.pos < m->len);
	text_until(&t, m->len, true);
	for (; di < nd; di++)
		put_diag(b, diags[di].d);
	bl_html_put(b, "</pre>\n");
	free(spans);
	free(diags);
}

void bl_report_message(const struct bl_section_out *out, struct bl_message *m, const char *path,
		       json_t *doc, size_t d)
{
	struct bl_buf *b = out->b;
	put_header(b, m, path, doc, d);
	put_system(b, doc, d);
	put_runs(out, m, doc, d);
	bl_html_put(b, "<h3>The text as read</h3>\n");
	put_text(out, m, doc, d);
	bl_html_put(b, "</section>\n");
}
