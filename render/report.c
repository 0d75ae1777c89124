/* report.c - the report page (report.h): messages gathered as ingest
 * hands them out, then the page written around them: a summary, the
 * index of the messages, the comparisons, the sections; its style and
 * its one script inline, so the file stands alone. */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/message.h"
#include "../parsers/spill.h"
#include "html.h"

struct bl_report {
	/* every document, in order of their sections; one without runs,
	 * which no chart reads, as no_runs; NULL once compared */
	json_t *docs;
	json_t *no_runs; /* {"runs": []} */
	size_t ndocs;
	struct bl_charts charts; /* built from docs (bl_report_compare) */
	bool compared, compare_failed;
	/* the messages' sections, written as added: a page of a mail
	 * archive is twice its size, kept in a temporary file past a
	 * megabyte rather than in memory */
	struct bl_spill sections;
	struct bl_buf section; /* the one being written */
	struct bl_buf index; /* their entries in the index */
	size_t runs, diags, inputs;
	const char *last_path; /* to count inputs (borrowed while adding) */
	char *first_path;
};

struct bl_report *bl_report_new(void)
{
	struct bl_report *r = calloc(1, sizeof *r);
	if (r && (!(r->docs = json_array()) || !(r->no_runs = json_pack("{s:[]}", "runs")))) {
		json_decref(r->docs);
		free(r);
		return NULL;
	}
	return r;
}

void bl_report_free(struct bl_report *r)
{
	if (!r)
		return;
	json_decref(r->docs);
	json_decref(r->no_runs);
	bl_charts_free(&r->charts);
	bl_spill_free(&r->sections);
	bl_buf_free(&r->section);
	bl_buf_free(&r->index);
	free(r->first_path);
	free(r);
}

size_t bl_report_runs(const struct bl_report *r)
{
	return r->runs;
}

static void index_entry(struct bl_report *r, const struct bl_message *m, const char *path,
			json_t *doc, size_t d)
{
	size_t nruns = json_array_size(json_object_get(doc, "runs"));
	size_t ndiags = json_array_size(json_object_get(doc, "diagnostics"));
	bl_html_printf(&r->index, "<li><a href=\"#m%zu\">", d);
	bl_html_esc(&r->index, path);
	if (m->subject) {
		bl_html_printf(&r->index, " #%zu: ", m->index);
		bl_html_esc(&r->index, m->subject);
	}
	bl_html_printf(&r->index, "</a> <span class=\"count\">%zu run%s", nruns,
		       nruns == 1 ? "" : "s");
	if (ndiags)
		bl_html_printf(&r->index, ", %zu diagnostic%s", ndiags, ndiags == 1 ? "" : "s");
	bl_html_put(&r->index, "</span></li>\n");
}

void bl_section_flush_full(const struct bl_section_out *out)
{
	if (out->b->n >= BL_SECTION_FLUSH && !out->b->failed)
		out->flush(out->b, out->ctx);
}

/* The section written so far, to the sections (a bl_section_out flush). */
static void to_sections(struct bl_buf *b, void *ctx)
{
	struct bl_report *r = ctx;
	if (bl_spill_write(b->p, b->n, &r->sections) != 0)
		b->failed = true;
	b->n = 0;
}

int bl_report_add(struct bl_report *r, struct bl_message *m, const char *path, json_t *doc)
{
	if (r->compared) { /* its documents are let go of */
		json_decref(doc);
		return -1;
	}
	size_t d = r->ndocs; /* its index in docs once appended */
	if (!r->last_path || strcmp(r->last_path, path) != 0)
		r->inputs++;
	r->last_path = path;
	if (!r->first_path && !(r->first_path = strdup(path))) {
		json_decref(doc);
		return -1;
	}
	r->runs += json_array_size(json_object_get(doc, "runs"));
	r->diags += json_array_size(json_object_get(doc, "diagnostics"));
	index_entry(r, m, path, doc, d);
	r->section.n = 0;
	struct bl_section_out out = {&r->section, to_sections, r};
	bl_report_message(&out, m, path, doc, d);
	if (!json_array_size(json_object_get(doc, "runs"))) {
		json_decref(doc);
		doc = json_incref(r->no_runs);
	}
	if (json_array_append_new(r->docs, doc) < 0)
		return -1;
	r->ndocs++;
	if (r->section.failed || r->index.failed)
		return -1;
	return bl_spill_write(r->section.p, r->section.n, &r->sections);
}

/* Hands bytes on to a bl_write_fn (spill.h's writer takes signed char). */
struct pass_on {
	bl_write_fn write;
	void *ctx;
};

static int pass_on(const char *buf, size_t n, void *ctx)
{
	struct pass_on *p = ctx;
	return p->write(p->ctx, (const unsigned char *)buf, n) < 0 ? -1 : 0;
}

/* Light and dark, narrow and wide: the page's whole style. */
static const char style[] =
	":root{--bg:#fff;--fg:#1a1a1a;--muted:#5f5f5f;--line:#ddd;--mark:#fff3b0;"
	"--lit:#ffd54a;--warn:#b35900;--err:#b00020;--code:#f6f6f6}"
	"@media (prefers-color-scheme:dark){:root{--bg:#161616;--fg:#e8e8e8;--muted:#a0a0a0;"
	"--line:#333;--mark:#4a3f00;--lit:#7a6200;--warn:#ffb060;--err:#ff7080;--code:#222}}"
	"body{margin:0 auto;max-width:1100px;padding:0 12px 40px;background:var(--bg);"
	"color:var(--fg);font:15px/1.45 system-ui,sans-serif}"
	"h1,h2,nav,.meta,th,td{overflow-wrap:anywhere}"
	"h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid var(--line);"
	"padding-bottom:4px}h3{font-size:1em}"
	".meta,.count,.variant,.more,.none{color:var(--muted)}"
	".decoding{font-family:monospace;background:var(--code);padding:0 3px}"
	".partial{color:var(--err);font-weight:600}"
	".scroll{overflow-x:auto}table{border-collapse:collapse;margin:8px 0}"
	"th,td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}"
	"table.cmp td{text-align:right;white-space:nowrap}"
	"table.sortable thead th{cursor:pointer}table.sortable thead th:after{content:' \\2195';"
	"color:var(--muted)}"
	"code{overflow-wrap:anywhere}.v{white-space:nowrap;font-weight:600}"
	"pre.text{background:var(--code);padding:8px;white-space:pre-wrap;"
	"overflow-wrap:anywhere;font-size:13px;line-height:1.35}"
	".ln{display:inline-block;min-width:3.5em;color:var(--muted);user-select:none;"
	"text-align:right;padding-right:1em}"
	"mark.run{background:var(--mark);color:inherit}"
	"mark.run .tag{font:11px system-ui,sans-serif;background:var(--fg);color:var(--bg);"
	"padding:0 4px;border-radius:3px;margin-right:4px;text-decoration:none}"
	".diag{display:block;margin:2px 0 2px 4.5em;padding:2px 6px;border-left:3px solid;"
	"font:13px system-ui,sans-serif;white-space:normal}"
	".diag.warning{color:var(--warn)}.diag.error{color:var(--err)}.diag.info{color:var(--muted)}"
	"details.orig pre{max-height:20em;overflow:auto;background:var(--code);padding:4px;"
	"white-space:pre-wrap;overflow-wrap:anywhere}"
	"figure.chart{margin:16px 0}figure.chart svg{max-width:100%;height:auto}"
	"tr:target,mark:target,.lit{outline:3px solid var(--lit);background:var(--lit)}"
	".bar-link{cursor:pointer}.bar-link:hover{fill:rgba(0,0,0,.12)}";

/* Sortable tables (numbers by data-v), and the runs behind a bar or a
 * cell lit up when it is clicked. */
static const char script[] =
	"document.querySelectorAll('table.sortable').forEach(function(t){"
	"t.querySelectorAll('thead th').forEach(function(th,i){"
	"th.addEventListener('click',function(){"
	"var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows),"
	"up=th.dataset.dir!=='up';th.dataset.dir=up?'up':'down';"
	"function key(r){var c=r.cells[i];if(!c)return '';"
	"var v=c.dataset.v;return v!==undefined&&v!==''?parseFloat(v):c.textContent;}"
	"rows.sort(function(a,b){var x=key(a),y=key(b);"
	"var d=typeof x==='number'&&typeof y==='number'?x-y:String(x).localeCompare(String(y));"
	"return up?d:-d;});rows.forEach(function(r){body.appendChild(r);});});});});"
	"document.querySelectorAll('[data-runs]').forEach(function(a){"
	"a.addEventListener('click',function(){"
	"document.querySelectorAll('.lit').forEach(function(e){e.classList.remove('lit');});"
	"a.dataset.runs.split(' ').forEach(function(id){"
	"['run-','span-'].forEach(function(p){var e=document.getElementById(p+id);"
	"if(e)e.classList.add('lit');});});});});";

static void put_head(struct bl_buf *b, const struct bl_report *r, const char *title)
{
	bl_html_put(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		       "<meta name=\"generator\" content=\"benchlog " BL_VERSION "\">\n<title>");
	bl_html_esc(b, title);
	bl_html_put(b, "</title>\n<style>");
	bl_html_put(b, style);
	bl_html_put(b, "</style>\n</head>\n<body>\n<header>\n<h1>");
	bl_html_esc(b, title);
	size_t n = r->ndocs;
	bl_html_printf(b,
		       "</h1>\n<p class=\"meta\">%zu input%s, %zu message%s, %zu run%s, %zu "
		       "diagnostic%s. Each run's text is highlighted and linked to its row; a "
		       "chart's bar or a table's cell links to the runs it holds.</p>\n</header>\n",
		       r->inputs, r->inputs == 1 ? "" : "s", n, n == 1 ? "" : "s", r->runs,
		       r->runs == 1 ? "" : "s", r->diags, r->diags == 1 ? "" : "s");
}

/* The page's bytes as they are written (a bl_section_out flush): the
 * comparisons of a long post are tens of megabytes of SVG. */
struct page_out {
	bl_write_fn write;
	void *ctx;
	bool write_failed;
};

static void to_page(struct bl_buf *b, void *ctx)
{
	struct page_out *p = ctx;
	if (b->n && !p->write_failed && p->write(p->ctx, (const unsigned char *)b->p, b->n) < 0) {
		p->write_failed = true;
		b->failed = true;
	}
	b->n = 0;
}

int bl_report_compare(struct bl_report *r, const struct bl_report_opts *o, char *err, size_t errlen)
{
	if (r->compared) {
		if (r->compare_failed)
			snprintf(err, errlen, "the comparisons could not be built");
		return r->compare_failed ? -1 : 0;
	}
	struct bl_chart_opts none = {0};
	int rc = bl_chart_build(r->docs, o->charts ? o->charts : &none, &r->charts, err, errlen);
	json_decref(r->docs);
	r->docs = NULL;
	r->compared = true;
	r->compare_failed = rc < 0;
	return rc;
}

int bl_report_write(struct bl_report *r, const struct bl_report_opts *o, bl_write_fn write,
		    void *ctx, char *err, size_t errlen)
{
	if (bl_report_compare(r, o, err, errlen) < 0)
		return -1;
	struct bl_buf page = {0};
	struct page_out po = {write, ctx, false};
	struct bl_section_out out = {&page, to_page, &po};
	char title[512];
	if (o->title)
		snprintf(title, sizeof title, "%s", o->title);
	else
		snprintf(title, sizeof title, "benchlog report: %s%s",
			 r->first_path ? r->first_path : "no input",
			 r->inputs > 1 ? " and more" : "");
	put_head(&page, r, title);
	bl_html_put(&page, "<nav id=\"index\">\n<h2>Messages</h2>\n<ol start=\"0\">\n");
	bl_buf_put(&page, r->index.p, r->index.n);
	bl_html_put(&page, "</ol>\n</nav>\n");
	int rc = bl_report_charts(&out, &r->charts, o, err, errlen);
	bl_html_put(&page, "<section id=\"messages\">\n");
	struct bl_buf tail = {0};
	bl_html_put(&tail, "</section>\n<script>");
	bl_html_put(&tail, script);
	bl_html_put(&tail, "</script>\n</body>\n</html>\n");
	if (po.write_failed) { /* whatever the comparisons said of it */
		snprintf(err, errlen, "write error");
		rc = -1;
	}
	if (rc == 0 && (page.failed || tail.failed)) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	/* the sections as they are: the page is not copied whole */
	struct pass_on p = {write, ctx};
	if (rc == 0 && (write(ctx, (const unsigned char *)page.p, page.n) < 0 ||
			bl_spill_copy(&r->sections, pass_on, &p) < 0 ||
			write(ctx, (const unsigned char *)tail.p, tail.n) < 0)) {
		snprintf(err, errlen, "write error");
		rc = -1;
	}
	bl_buf_free(&page);
	bl_buf_free(&tail);
	return rc;
}
