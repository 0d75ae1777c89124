/* runs_out.c - `parse --runs`: one run per line, for jq, pandas, DuckDB
 * and Spark, each run with where it came from:
 *   {"source":"list.mbox","message_index":3,"message_id":"<m4@x>",
 *    "tool":"dd","label":...,"results":[...]}
 * The documents are cut as they are written, a byte at a time: the
 * document's "source" (a few hundred bytes) is kept to begin each line,
 * a run's bytes are passed on as they come. A run of a million results
 * is never held, neither as text nor as a tree. */
#include <stdlib.h>
#include <string.h>

#include "../base/buf.h"
#include "cli.h"

/* Where the cutter is in the document: in a top-level member's value,
 * which one it is. */
enum member { M_OTHER, M_SOURCE, M_RUNS };

struct cli_runs {
	FILE *out; /* of the current cli_runs_feed */
	bool pretty;
	int failed; /* memory ran out (write errors: ferror) */
	/* the document's JSON: nesting depth outside strings, and strings */
	int depth;
	bool in_str, esc;
	/* at depth 1: the key being read, and whose value follows */
	bool want_key, in_key;
	struct bl_buf key, source, prefix;
	enum member member;
	/* in a run: nothing of it written yet but its opening */
	bool in_run, run_empty;
	/* --pretty: the line re-indented as jansson's JSON_INDENT(2) does */
	int pdepth;
	bool pstr, pesc, popen;
};

struct cli_runs *cli_runs_new(bool pretty)
{
	struct cli_runs *r = calloc(1, sizeof *r);
	if (r)
		r->pretty = pretty;
	return r;
}

void cli_runs_restart(struct cli_runs *r)
{
	r->depth = r->pdepth = 0;
	r->in_str = r->esc = r->want_key = r->in_key = false;
	r->in_run = r->run_empty = r->pstr = r->pesc = r->popen = false;
	r->member = M_OTHER;
}

void cli_runs_free(struct cli_runs *r)
{
	if (!r)
		return;
	bl_buf_free(&r->key);
	bl_buf_free(&r->source);
	bl_buf_free(&r->prefix);
	free(r);
}

/* Whether a JSON string goes on after its byte c (false at its closing
 * quote); *esc: the byte before was an escaping backslash. */
static bool in_string(bool *esc, char c)
{
	if (*esc) {
		*esc = false;
		return true;
	}
	*esc = c == '\\';
	return c != '"';
}

static void put_indent(struct cli_runs *r)
{
	fputc('\n', r->out);
	for (int i = 0; i < 2 * r->pdepth; i++)
		fputc(' ', r->out);
}

/* One byte of a compact line, written indented. */
static void pretty_byte(struct cli_runs *r, char c)
{
	if (r->pstr) {
		r->pstr = in_string(&r->pesc, c);
		fputc(c, r->out);
		return;
	}
	bool closing = c == '}' || c == ']';
	if (closing)
		r->pdepth--;
	/* a new line before each member, and before the close of a container
	 * that has members ("{}" and "[]" stay as they are) */
	if (r->popen != closing)
		put_indent(r);
	r->popen = false;
	fputc(c, r->out);
	switch (c) {
	case '{':
	case '[':
		r->pdepth++;
		r->popen = true;
		break;
	case ',': put_indent(r); break;
	case ':': fputc(' ', r->out); break;
	case '"': r->pstr = true; break;
	default: break;
	}
}

/* Bytes of the output line: as they are, or re-indented. */
static void emit(struct cli_runs *r, const char *s, size_t n)
{
	if (!r->pretty) {
		fwrite(s, 1, n, r->out);
		return;
	}
	for (size_t i = 0; i < n; i++)
		pretty_byte(r, s[i]);
}

/* `,"name":` and v as compact JSON (null when absent), appended to the
 * line's beginning. */
static bool add_field(struct bl_buf *b, const char *name, json_t *v)
{
	/* dumped in place: jansson's strings come from the CLI's own pool */
	size_t flags = JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(15);
	if (!v)
		v = json_null();
	size_t need = json_dumpb(v, NULL, 0, flags);
	if (!need || !bl_buf_put(b, ",\"", 2) || !bl_buf_put(b, name, strlen(name)) ||
	    !bl_buf_put(b, "\":", 2) || !bl_buf_reserve(b, need))
		return false;
	b->n += json_dumpb(v, b->p + b->n, need, flags);
	b->p[b->n] = '\0';
	return true;
}

/* The beginning of each line, from the document's source:
 * {"source":PATH,"message_index":N,"message_id":ID (without its '}'). */
static bool make_prefix(struct cli_runs *r)
{
	json_t *src = json_loadb(r->source.p, r->source.n, 0, NULL);
	json_t *msg = json_object_get(src, "message");
	r->prefix.n = 0;
	bool ok = src && bl_buf_put(&r->prefix, "{", 1) &&
		  add_field(&r->prefix, "source", json_object_get(src, "path")) &&
		  add_field(&r->prefix, "message_index", json_object_get(msg, "index")) &&
		  add_field(&r->prefix, "message_id", json_object_get(msg, "message_id"));
	json_decref(src);
	if (ok) /* the first field's comma */
		memmove(r->prefix.p + 1, r->prefix.p + 2, --r->prefix.n - 1);
	return ok;
}

/* A structural byte (outside strings) at the document's top levels:
 * keys at depth 1, the end of the source, the beginning of a run. */
static void structure(struct cli_runs *r, char c)
{
	int before = r->depth;
	if (c == '{' || c == '[')
		r->depth++;
	else if (c == '}' || c == ']')
		r->depth--;
	if (before == 0 && c == '{') {
		r->want_key = true; /* a document begins */
		r->member = M_OTHER;
	} else if (before == 1 && (c == ',' || c == ':')) {
		r->want_key = c == ',';
	}
	if (r->member == M_SOURCE && before == 2 && r->depth == 1 && !make_prefix(r))
		r->failed = 1;
	if (r->member == M_RUNS && before == 2 && c == '{') {
		emit(r, r->prefix.p, r->prefix.n);
		r->in_run = true;
		r->run_empty = true;
	}
}

/* A key at depth 1 ended: which member its value is. */
static void key_done(struct cli_runs *r)
{
	r->in_key = false;
	r->member = r->key.n == 6 && memcmp(r->key.p, "source", 6) == 0 ? M_SOURCE
		    : r->key.n == 4 && memcmp(r->key.p, "runs", 4) == 0 ? M_RUNS
									: M_OTHER;
	if (r->member == M_SOURCE)
		r->source.n = 0;
}

/* One byte of the document, not of a run's inside: strings, keys, the
 * source kept, structure. */
static void step(struct cli_runs *r, char c)
{
	bool structural = !r->in_str &&
			  (c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':');
	if (r->member == M_SOURCE && (r->depth >= 2 || (structural && c == '{')) &&
	    !bl_buf_put(&r->source, &c, 1))
		r->failed = 1;
	if (r->in_str) {
		r->in_str = in_string(&r->esc, c);
		if (r->in_key && !r->in_str)
			key_done(r);
		else if (r->in_key && !bl_buf_put(&r->key, &c, 1))
			r->failed = 1;
	} else if (c == '"') {
		r->in_str = true;
		r->in_key = r->depth == 1 && r->want_key;
		r->key.n = 0;
	} else if (structural) {
		structure(r, c);
	}
}

/* The end of a run: its '}' and the line's end. */
static void run_end(struct cli_runs *r)
{
	emit(r, "}\n", 2);
	r->in_run = false;
	r->pdepth = 0;
	r->popen = r->pstr = r->pesc = false;
}

int cli_runs_feed(struct cli_runs *r, FILE *out, const char *s, size_t n)
{
	r->out = out;
	size_t from = 0; /* s[from, i): a run's bytes, to write */
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!r->in_run) {
			step(r, c);
			from = i + 1;
			continue;
		}
		/* inside a run: only its depth and strings matter */
		if (r->in_str) {
			r->in_str = in_string(&r->esc, c);
		} else if (c == '"') {
			r->in_str = true;
		} else if (c == '{' || c == '[') {
			r->depth++;
		} else if (c == '}' || c == ']') {
			if (--r->depth == 2) {
				emit(r, s + from, i - from);
				run_end(r);
				from = i + 1;
				continue;
			}
		}
		if (r->run_empty) {
			/* the run's first member follows the line's beginning */
			emit(r, ",", 1);
			r->run_empty = false;
		}
	}
	if (r->in_run)
		emit(r, s + from, n - from);
	return r->failed || ferror(out) ? -1 : 0;
}
