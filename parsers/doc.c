/* doc.c - runs, results and diagnostics of one message, and their JSON. */
#include "doc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/utf8.h"
#include "parser.h"
#include "../base/units.h"

char *bl_strndup_trim(const char *s, size_t len)
{
	while (len && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r' ||
		       s[len - 1] == '\n'))
		len--;
	char *r = malloc(len + 1);
	if (!r)
		return NULL;
	memcpy(r, s, len);
	r[len] = '\0';
	return r;
}

int bl_doc_init(struct bl_doc *doc, struct bl_message *msg, const char *path)
{
	memset(doc, 0, sizeof *doc);
	doc->msg = msg;
	doc->path = strdup(path ? path : "-");
	return doc->path ? 0 : -1;
}

static void run_free(struct bl_run *r)
{
	free(r->label);
	free(r->command);
	json_decref(r->params);
	bl_results_free(&r->results);
	json_decref(r->time.extra);
	free(r->rec_off);
	free(r->resume);
}

int bl_run_record(struct bl_run *r, size_t index, size_t off)
{
	if (index != r->nrec)
		return 0;
	if (r->nrec == r->reccap) {
		size_t cap = r->reccap ? r->reccap * 2 : 16;
		size_t *v = realloc(r->rec_off, cap * sizeof *v);
		if (!v)
			return -1;
		r->rec_off = v;
		r->reccap = cap;
	}
	r->rec_off[r->nrec++] = off;
	return 0;
}

void bl_doc_free(struct bl_doc *doc)
{
	for (size_t i = 0; i < doc->nruns; i++)
		run_free(&doc->runs[i]);
	free(doc->runs);
	free(doc->path);
	free(doc->prev.command);
	free(doc->prev.label);
	json_decref(doc->system);
	bl_diags_free(&doc->diags);
	memset(doc, 0, sizeof *doc);
}

struct bl_run *bl_doc_add_run(struct bl_doc *doc, const char *tool, const char *variant, size_t off,
			      size_t end_off)
{
	if (doc->nruns == doc->cap) {
		size_t cap = doc->cap ? doc->cap * 2 : 8;
		struct bl_run *v = realloc(doc->runs, cap * sizeof *v);
		if (!v)
			return NULL;
		doc->runs = v;
		doc->cap = cap;
	}
	struct bl_run *r = &doc->runs[doc->nruns];
	memset(r, 0, sizeof *r);
	r->params = json_object();
	bl_results_init(&r->results);
	if (!r->params) {
		run_free(r);
		return NULL;
	}
	r->tool = tool;
	r->variant = variant;
	r->off = off;
	r->end_off = end_off;
	r->group = -1;
	r->time.real = r->time.user = r->time.system = r->time.cpu_percent = NAN;
	doc->nruns++;
	return r;
}

/* The first of run's results of record `last` (their count when there
 * is none): a walk back from the end, which a result of an earlier
 * record or with no record number (dd's summary) ends, and past 64
 * results a search by halves, results coming record by record. A walk
 * over every result of the record under way, at each line the parser
 * reads, made a wide pool's histograms (36,000 results a sample)
 * quadratic. */
static size_t record_start(const struct bl_run *run, const char *key, long long last)
{
	size_t hi = bl_results_count(&run->results), lo = 0;
	for (int k = 0; k < 64; k++, hi--)
		if (!hi || bl_result_int(bl_results_at(&run->results, hi - 1), key, 0) < last)
			return hi;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (bl_result_int(bl_results_at(&run->results, mid), key, 0) >= last)
			hi = mid;
		else
			lo = mid + 1;
	}
	return hi;
}

void bl_doc_run_progress(struct bl_doc *doc, struct bl_run *run)
{
	size_t n = bl_results_count(&run->results);
	if (!doc->results_sink || run->keep_results || doc->sink_rc || run->nrec < 2 ||
	    n < BL_RESULTS_PIECE)
		return;
	const struct bl_parser *p = bl_parser_find(run->tool);
	if (!p || !p->records)
		return;
	/* all but the record under way */
	size_t done = record_start(run, p->records->key, (long long)run->nrec - 1);
	if (!done)
		return;
	int rc = doc->results_sink(doc->sink_ctx, doc, run, done);
	if (rc == 0 && bl_results_drop_front(&run->results, done) == 0)
		return;
	if (rc < 0)
		doc->sink_rc = rc;
	else if (rc == 0)
		doc->sink_rc = -1; /* handed over, and still held: out of memory */
	run->keep_results = true;
}

void bl_doc_drop_last_run(struct bl_doc *doc)
{
	if (!doc->nruns)
		return;
	doc->nruns--;
	run_free(&doc->runs[doc->nruns]);
}

/* A value as JSON: integers stay integers so that byte counts print
 * exactly; non-finite values (never printed by a tool) become null. */
static json_t *number(double v)
{
	if (!isfinite(v))
		return json_null();
	if (bl_value_is_int(v))
		return json_integer((json_int_t)v);
	return json_real(v);
}

struct bl_result *bl_run_result(struct bl_run *run, const char *metric, double value,
				const char *unit, const char *raw, unsigned flags)
{
	struct bl_result *r = bl_results_add(&run->results);
	if (!r)
		return NULL;
	bl_result_set_metric(r, metric);
	r->value = value;
	bl_result_set_unit(r, unit);
	bl_result_set_raw(r, raw);
	r->flags = flags;
	return r;
}

void bl_run_param_str(struct bl_run *run, const char *key, const char *val, size_t len)
{
	json_t *s = json_stringn(val, len);
	if (s)
		json_object_set_new(run->params, key, s);
}

void bl_run_param_int(struct bl_run *run, const char *key, long long val)
{
	json_object_set_new(run->params, key, json_integer(val));
}

void bl_run_param_real(struct bl_run *run, const char *key, double val)
{
	json_object_set_new(run->params, key, number(val));
}

void bl_doc_diag(struct bl_doc *doc, long run, enum bl_level level, const char *code,
		 size_t text_off, const char *fmt, ...)
{
	char buf[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	size_t line = doc->msg ? bl_message_line(doc->msg, text_off) : 0;
	size_t off = doc->msg ? bl_message_origin(doc->msg, text_off) : text_off;
	size_t dropped = doc->diags.dropped;
	struct bl_run *r;
	struct bl_diag *d = bl_diags_add(&doc->diags, level, code, line, off, "%s", buf);
	if (d)
		d->run = bl_doc_run_id(doc, run);
	else if (doc->diags.dropped > dropped && (r = bl_doc_run(doc, run)) != NULL) {
		r->diags_dropped++;
		r->diags_dropped_elsewhere += doc->diags.last_elsewhere;
		bl_diags_held_drop(&doc->diags, bl_doc_run_id(doc, run), code);
	}
}

void bl_doc_retract_diags(struct bl_doc *doc, long ri, const char *code)
{
	size_t dropped, elsewhere;
	bl_diags_retract(&doc->diags, bl_doc_run_id(doc, ri), code, &dropped, &elsewhere);
	struct bl_run *r = bl_doc_run(doc, ri);
	if (r) {
		r->diags_dropped -= dropped;
		r->diags_dropped_elsewhere -= elsewhere;
	}
}

static bool same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

bool bl_doc_nothing_between(const struct bl_message *m, size_t from, size_t to)
{
	if (!m || from > to || to > m->len)
		return false;
	size_t i = from;
	while (i < to) {
		const char *nl = memchr(m->text + i, '\n', to - i);
		size_t end = nl ? (size_t)(nl - m->text) : to;
		const char *s = m->text + i;
		size_t len = end - i;
		while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
			len--;
		while (len && (*s == ' ' || *s == '\t')) {
			s++;
			len--;
		}
		if (len) {
			char last = s[len - 1];
			bool prompt = (last == '$' || last == '#' || last == '%' || last == '>') &&
				      !memchr(s, ' ', len);
			if (!prompt)
				return false;
		}
		i = end + 1;
	}
	return true;
}

/* Gives r its repeat group, from the run before it (doc->prev). */
static void assign_group(struct bl_doc *doc, struct bl_run *r)
{
	const bool have = doc->prev.set;
	if (have && r->repeat_of_prev && same_str(doc->prev.tool, r->tool))
		r->group = doc->prev.group;
	else if (have && r->command && same_str(doc->prev.tool, r->tool) &&
		 same_str(doc->prev.command, r->command) && same_str(doc->prev.label, r->label) &&
		 bl_doc_nothing_between(doc->msg, doc->prev.end_off, r->off))
		r->group = doc->prev.group;
	else
		r->group = doc->next_group++;
}

/* Makes r the run before the next one; `take`: r is about to be freed,
 * its command and label move over instead of being copied. */
static void remember(struct bl_doc *doc, struct bl_run *r, bool take)
{
	free(doc->prev.command);
	free(doc->prev.label);
	doc->prev.set = true;
	doc->prev.tool = r->tool;
	doc->prev.end_off = r->end_off;
	doc->prev.group = r->group;
	if (take) {
		doc->prev.command = r->command;
		doc->prev.label = r->label;
		r->command = r->label = NULL;
	} else {
		doc->prev.command = r->command ? strdup(r->command) : NULL;
		doc->prev.label = r->label ? strdup(r->label) : NULL;
	}
}

void bl_doc_group_repeats(struct bl_doc *doc)
{
	for (size_t i = 0; i < doc->nruns; i++) {
		assign_group(doc, &doc->runs[i]);
		remember(doc, &doc->runs[i], false);
	}
}

int bl_doc_flush(struct bl_doc *doc, size_t keep)
{
	if (!doc->sink || doc->nruns <= keep)
		return doc->sink_rc;
	size_t k = doc->nruns - keep;
	for (size_t i = 0; i < k; i++) {
		struct bl_run *r = &doc->runs[i];
		assign_group(doc, r);
		if (!doc->sink_rc)
			doc->sink_rc = doc->sink(doc->sink_ctx, doc, r, doc->base + i);
		remember(doc, r, true);
		run_free(r);
	}
	memmove(doc->runs, doc->runs + k, keep * sizeof *doc->runs);
	doc->nruns = keep;
	doc->base += k;
	return doc->sink_rc;
}

static json_t *str_or_null(const char *s)
{
	if (!s)
		return json_null();
	json_t *j = json_string(s);
	return j ? j : json_null();
}

json_t *bl_doc_time_json(struct bl_doc *doc, const struct bl_time *t)
{
	json_t *o = json_object();
	json_object_set_new(o, "variant", json_string(t->variant));
	if (!isnan(t->real))
		json_object_set_new(o, "real", number(t->real));
	if (!isnan(t->user))
		json_object_set_new(o, "user", number(t->user));
	if (!isnan(t->system))
		json_object_set_new(o, "system", number(t->system));
	if (!isnan(t->cpu_percent))
		json_object_set_new(o, "cpu_percent", number(t->cpu_percent));
	if (t->extra && json_object_size(t->extra))
		json_object_set(o, "extra", t->extra);
	json_object_set_new(o, "line", json_integer((json_int_t)bl_message_line(doc->msg, t->off)));
	return o;
}

struct bl_span bl_doc_span(const struct bl_doc *doc, size_t off, size_t end_off)
{
	size_t last = end_off > off ? end_off - 1 : off;
	/* end_off may include the final newline: point end_line at the last
	 * byte of content */
	while (last > off && (doc->msg->text[last] == '\n' || doc->msg->text[last] == '\r'))
		last--;
	return (struct bl_span){bl_message_line(doc->msg, off), bl_message_line(doc->msg, last),
				bl_message_origin(doc->msg, off),
				bl_message_origin(doc->msg, end_off)};
}

static json_t *span_json(struct bl_doc *doc, size_t off, size_t end_off)
{
	json_t *o = json_object();
	struct bl_span sp = bl_doc_span(doc, off, end_off);
	json_object_set_new(o, "line", json_integer((json_int_t)sp.line));
	json_object_set_new(o, "end_line", json_integer((json_int_t)sp.end_line));
	json_object_set_new(o, "offset", json_integer((json_int_t)sp.offset));
	json_object_set_new(o, "end_offset", json_integer((json_int_t)sp.end_offset));
	return o;
}

static json_t *source_json(struct bl_doc *doc)
{
	struct bl_message *m = doc->msg;
	json_t *src = json_object();
	json_object_set_new(src, "path", str_or_null(doc->path));
	if (m->subject || m->from || m->date || m->message_id || m->index) {
		json_t *msg = json_object();
		json_object_set_new(msg, "index", json_integer((json_int_t)m->index));
		if (m->subject)
			json_object_set_new(msg, "subject", str_or_null(m->subject));
		if (m->from)
			json_object_set_new(msg, "from", str_or_null(m->from));
		if (m->date)
			json_object_set_new(msg, "date", str_or_null(m->date));
		if (m->message_id)
			json_object_set_new(msg, "message_id", str_or_null(m->message_id));
		json_object_set_new(src, "message", msg);
	}
	json_t *dec = json_array();
	for (size_t i = 0; i < m->ndecodings; i++)
		json_array_append_new(dec, json_string(m->decodings[i]));
	json_object_set_new(src, "decoding", dec);
	json_object_set_new(src, "offset", json_integer((json_int_t)m->raw_offset));
	json_object_set_new(src, "bytes", json_integer((json_int_t)m->raw_len));
	return src;
}

static json_t *diag_json(const struct bl_diag *d)
{
	json_t *o = json_object();
	json_object_set_new(o, "level", json_string(bl_level_name(d->level)));
	json_object_set_new(o, "code", json_string(d->code));
	if (d->line)
		json_object_set_new(o, "line", json_integer((json_int_t)d->line));
	json_object_set_new(o, "offset", json_integer((json_int_t)d->offset));
	if (d->run >= 0)
		json_object_set_new(o, "run", json_integer(d->run));
	json_object_set_new(o, "message", str_or_null(d->message));
	return o;
}

json_t *bl_doc_head_json(struct bl_doc *doc)
{
	json_t *root = json_object();
	if (!root)
		return NULL;
	json_object_set_new(root, "schema", json_string(BL_SCHEMA_ID));
	json_object_set_new(root, "source", source_json(doc));
	if (doc->system)
		json_object_set(root, "system", doc->system);
	return root;
}

json_t *bl_doc_run_head_json(struct bl_doc *doc, const struct bl_run *r, size_t index)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "tool", json_string(r->tool));
	json_object_set_new(o, "variant", str_or_null(r->variant));
	json_object_set_new(o, "label", str_or_null(r->label));
	json_object_set_new(o, "command", str_or_null(r->command));
	json_object_set_new(o, "group", json_integer(r->group < 0 ? (json_int_t)index : r->group));
	if (r->quote_depth)
		json_object_set_new(o, "quote_depth", json_integer(r->quote_depth));
	json_object_set_new(o, "span", span_json(doc, r->off, r->end_off));
	json_object_set(o, "params", r->params);
	json_object_set_new(o, "results", json_array());
	if (r->time.present)
		json_object_set_new(o, "time", bl_doc_time_json(doc, &r->time));
	return o;
}

json_t *bl_doc_run_json(struct bl_doc *doc, const struct bl_run *r, size_t index)
{
	json_t *o = bl_doc_run_head_json(doc, r, index);
	json_t *results = json_object_get(o, "results");
	for (size_t i = 0; results && i < bl_results_count(&r->results); i++)
		if (json_array_append_new(results, bl_result_json(bl_results_at(&r->results, i))) <
		    0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

json_t *bl_doc_tail_json(struct bl_doc *doc)
{
	json_t *tail = json_object();
	if (!tail)
		return NULL;
	json_t *diags = json_array();
	for (size_t pass = 0; pass < 2; pass++) {
		const struct bl_diags *ds = pass ? &doc->diags : &doc->msg->diags;
		for (size_t i = 0; i < ds->n; i++)
			json_array_append_new(diags, diag_json(&ds->v[i]));
	}
	json_object_set_new(tail, "diagnostics", diags);
	size_t dropped = doc->diags.dropped + doc->msg->diags.dropped;
	if (dropped)
		json_object_set_new(tail, "diagnostics_dropped", json_integer((json_int_t)dropped));
	json_object_set_new(tail, "partial", json_boolean(doc->partial || doc->msg->truncated));
	return tail;
}
