/* load.c - inputs for chart and table: a raw post (parsed here through the
 * library) or benchlog/1 JSON (one document, several concatenated, or JSON
 * Lines), told apart by their first bytes; and what posts.c (report's
 * input) reads them with too (load.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/buf.h"
#include "../base/find.h"
#include "../base/jsonread.h"
#include "../base/sites.h"
#include "../ingest/ingest.h"
#include "../parsers/benchlog.h"
#include "../render/render.h"
#include "cli.h"
#include "doc_split.h"
#include "load.h"

static json_t *read_value(const char *s, size_t len, size_t *used, json_error_t *e);

/* The runs array of the document under way, in the arena. */
static json_t *runs_of(struct collect *c)
{
	if (!c->runs) {
		cli_docs_arena(true);
		c->runs = json_array();
		cli_docs_arena(false);
	}
	return c->runs;
}

/* A run's text from this size on is kept, and its rows and results point
 * into it: a zpool iostat stream's rows are most of its text. A smaller
 * run (a dd summary's is 1 KB) has the text of its rows and results
 * copied, each block once (stashed), and points there: the rest of its
 * text is read into values, but for what chart and table do not read. */
#define IN_PLACE_FROM (64 << 10)

/* A run of benchlog JSON read (NULL: not JSON, e says why): -1 with
 * the error told when it is not, or its rows are not as a document's
 * rows are; the rows read to check them are let go (not in the arena). */
static int json_run_bad(struct collect *c, json_t *run, const json_error_t *e)
{
	const char *bad = run ? bl_doc_check_rows(run) : NULL;
	if (run && !bad)
		return 0;
	if (run)
		cli_error("%s: document %zu: %s", c->path, c->ndocs + 1, bad);
	else
		cli_error("%s:%zu: document %zu: a run that is not JSON: %s", c->path, c->doc_line,
			  c->ndocs + 1, e->text);
	c->told = true;
	return -1;
}

/* A run of the document under way, its text whole: read into the arena,
 * its results kept as text. */
static int each_run(const char *text, size_t n, void *vctx)
{
	struct collect *c = vctx;
	size_t used = 0;
	if (!runs_of(c))
		return -1;
	char *own = n >= IN_PLACE_FROM ? cli_doc_split_take_run(&c->split) : NULL;
	if (own)
		text = own;
	cli_docs_arena(true);
	struct bl_json_run_opts o = {.stash = own ? NULL : cli_docs_stash,
				     .skip = bl_render_lean_run_skip,
				     .lift = c->whole_spans ? NULL : bl_render_lean_run_lift,
				     .shared = cli_docs_shared(),
				     .share = bl_render_lean_run_share};
	json_t *run = bl_json_read_run_with(text, n, &used, &o);
	json_error_t e;
	if (!run)
		run = json_loadb(text, n, 0, &e);
	int rc = run && json_array_append_new(c->runs, run) == 0 ? 0 : -1;
	cli_docs_arena(false);
	if (c->from_json && (rc < 0 || json_run_bad(c, run, &e) < 0))
		rc = -1;
	if (own && cli_docs_adopt(own) < 0)
		rc = -1;
	return rc;
}

void cli_collect_init(struct collect *c, json_t *docs, const char *path)
{
	*c = (struct collect){.docs = docs, .path = path};
	c->split.on_run = each_run;
	c->split.ctx = c;
}

void cli_collect_free(struct collect *c)
{
	free(c->last_path);
	bl_window_doc_free(c->windows);
	cli_doc_split_free(&c->split);
	json_decref(c->runs);
}

int cli_collect_put(const char *buf, size_t n, void *ctx)
{
	return cli_doc_split_put(ctx, buf, n);
}

/* Lets go of the document under way. */
static void drop_doc(struct collect *c)
{
	json_decref(c->runs);
	c->runs = NULL;
	cli_doc_split_reset(&c->split);
}

/* Document doc, when `keep`, into docs as chart and table read it (its
 * lean copy), with the runs read: 0, or -1 out of memory. */
static int keep_lean(struct collect *c, json_t *doc, bool keep)
{
	if (!keep)
		return 0;
	/* the runs array made only for a document kept: one a prose
	 * message would stay in the arena */
	json_t *runs = runs_of(c);
	cli_docs_arena(true);
	json_t *lean = runs ? bl_render_lean_doc(doc, runs) : NULL;
	int rc = lean && json_array_append_new(c->docs, lean) == 0 ? 0 : -1;
	cli_docs_arena(false);
	c->kept_one = true;
	return rc;
}

/* The document under way without its runs (what the split kept of it),
 * read once its text is whole; NULL when it is not. */
json_t *cli_collect_rest(const struct collect *c)
{
	const struct bl_buf *rest = &c->split.rest;
	size_t used;
	json_error_t e;
	if (rest->failed || c->split.failed || c->split.depth)
		return NULL;
	return read_value(rest->p, rest->n, &used, &e);
}

/* The document whose text ended, into docs: its rest read, and its runs
 * put back. A document with no runs is kept only when it is the first of
 * its input (a mail archive's 100,000 messages are mostly prose): what is
 * compared is runs, and its input's path is all the others would add. */
static int keep_doc(struct collect *c)
{
	size_t nruns = c->runs ? json_array_size(c->runs) : 0;
	json_t *doc = cli_collect_rest(c);
	int rc = doc ? keep_lean(c, doc, nruns || !c->kept_one) : -1;
	json_decref(doc);
	drop_doc(c);
	return rc;
}

/* A post's message, or a window of a long one: its document once whole,
 * as parse writes it, its runs read as they are written. */
static int each_message(struct bl_message *m, void *vctx)
{
	struct collect *c = vctx;
	json_t *tail;
	int rc = bl_parse_message_or_window(&c->windows, m, c->path, DOC_FLAGS, cli_collect_put,
					    &c->split, &tail);
	if (rc == 0 && !tail)
		return 0; /* a window before the last */
	json_decref(tail);
	if (rc < 0) {
		drop_doc(c);
		return -1;
	}
	return keep_doc(c);
}

static size_t skip_blanks(const char *data, size_t len, size_t i)
{
	while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
		i++;
	return i;
}

/* Where JSON documents would start: past a BOM and blanks, at a '{';
 * len when the text cannot be JSON documents. */
/* Past a BOM and blanks. */
static size_t lead_end(const char *data, size_t len)
{
	size_t i = len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	return skip_blanks(data, len, i);
}

static size_t json_start(const char *data, size_t len)
{
	size_t i = lead_end(data, len);
	return i < len && data[i] == '{' ? i : len;
}

/* One JSON value from s: the plain reader first, its rows kept as text
 * (jsonread.h), json_loadb when it gives up. *used: its bytes; NULL with
 * e filled when it is not JSON. */
static json_t *read_value(const char *s, size_t len, size_t *used, json_error_t *e)
{
	json_t *d = bl_json_read_results_as_text(s, len, used);
	if (!d) {
		d = json_loadb(s, len, JSON_DISABLE_EOF_CHECK, e);
		*used = d ? (size_t)e->position : 0;
	}
	return d;
}

static bool is_document(json_t *d)
{
	const char *schema = json_string_value(json_object_get(d, "schema"));
	return schema && strcmp(schema, BL_SCHEMA_ID) == 0;
}

bool cli_is_docs(const char *data, size_t len)
{
	size_t i = json_start(data, len), used;
	json_error_t e;
	json_t *d = i < len ? read_value(data + i, len - i, &used, &e) : NULL;
	bool yes = d && is_document(d);
	json_decref(d);
	return yes;
}

/* Documents from JSON text: 1 when the text is benchlog JSON, 0 when it is
 * not JSON at all (a post), -1 when it starts as JSON but is broken. */
static int load_json(const char *data, size_t len, const char *path, json_t *docs)
{
	size_t i = json_start(data, len);
	if (i == len)
		return 0;
	size_t ndocs = 0;
	while (i < len) {
		json_error_t e;
		size_t used = 0;
		json_t *d = read_value(data + i, len - i, &used, &e);
		if (!d) {
			if (ndocs == 0)
				return 0; /* a post that happens to start with '{' */
			cli_error("%s:%d: not benchlog JSON: %s", path, e.line, e.text);
			return -1;
		}
		if (!is_document(d)) {
			json_decref(d);
			if (ndocs == 0)
				return 0;
			cli_error("%s: a JSON value that is not a %s document", path, BL_SCHEMA_ID);
			return -1;
		}
		/* the rows it reads to check them are let go: not in the arena */
		cli_docs_arena(false);
		const char *bad = bl_doc_check_rows(d);
		cli_docs_arena(true);
		if (bad) {
			json_decref(d);
			cli_error("%s: document %zu: %s", path, ndocs + 1, bad);
			return -1;
		}
		json_array_append_new(docs, d);
		ndocs++;
		i = skip_blanks(data, len, i + used);
	}
	return 1;
}

long cli_peek_read(void *ctx, char *buf, size_t cap)
{
	struct peeked *p = ctx;
	if (p->at == p->n)
		return cli_read_chunk(&p->fd, buf, cap);
	size_t k = p->n - p->at < cap ? p->n - p->at : cap;
	memcpy(buf, p->head + p->at, k);
	p->at += k;
	return (long)k;
}

/* A post's messages to each, an mbox message by message; a long text a
 * window at a time, or (whole) each message whole. 0, or -1 with the
 * error told (each's failure as memory or a temporary file's). */
int cli_peek_stream(struct peeked *in, const char *path, bool whole, bl_message_fn each, void *ctx)
{
	errno = 0;
	int r = whole ? bl_ingest_stream_window(bl_parser_ingest(), cli_peek_read, in,
						BL_INPUT_AUTO, 0, 0, each, ctx)
		      : bl_ingest_stream(bl_parser_ingest(), cli_peek_read, in, BL_INPUT_AUTO, each,
					 ctx);
	int e = errno;
	if (r == -2)
		cli_error("%s: %s", path, strerror(e));
	else if (r != 0)
		cli_failed_between(path, e);
	return r == 0 ? 0 : -1;
}

/* A post read as parse reads it: never the whole input in memory. */
static int load_post(struct peeked *in, const char *path, json_t *docs)
{
	struct collect c;
	cli_collect_init(&c, docs, path);
	int rc = cli_peek_stream(in, path, false, each_message, &c);
	cli_collect_free(&c);
	return rc;
}

/* The whole input into all (its first bytes, peeked, then the rest):
 * 0, or -1 with the error told. */
int cli_peek_whole(struct peeked *in, const char *path, struct bl_buf *all)
{
	struct stat st;
	size_t hint = fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode) ? (size_t)st.st_size : 0;
	if (bl_buf_put(all, in->head, in->n) &&
	    bl_buf_read_fd(all, in->fd, hint > in->n ? hint - in->n : 0) == 0)
		return 0;
	cli_error("%s: %s", path, strerror(all->failed ? ENOMEM : errno));
	bl_buf_free(all);
	return -1;
}

/* benchlog JSON, read whole, or a post that begins as JSON would. */
static int load_whole(struct peeked *in, const char *path, json_t *docs)
{
	struct bl_buf all = {0};
	if (cli_peek_whole(in, path, &all) < 0)
		return -1;
	cli_docs_arena(true);
	int j = load_json(all.p, all.n, path, docs);
	cli_docs_arena(false);
	int rc = j < 0 ? -1 : 0;
	if (j == 0) {
		struct collect c;
		cli_collect_init(&c, docs, path);
		if (bl_ingest_buffer(bl_parser_ingest(), all.p, all.n, each_message, &c) != 0) {
			cli_error("%s: out of memory", path);
			rc = -1;
		}
		cli_collect_free(&c);
	}
	bl_buf_free(&all);
	return rc;
}

/* ------------------------------------------ benchlog JSON as a stream */

/* The document whose text ended in a stream of benchlog JSON, into docs:
 * its rest read and checked. One with no runs is kept when its source's
 * path is not the one before's, as a post's first document is: a JSON
 * Lines file of a mail archive's documents then costs its runs. */
static int keep_json_doc(struct collect *c)
{
	struct bl_buf *rest = &c->split.rest;
	json_error_t e;
	size_t used, nruns = c->runs ? json_array_size(c->runs) : 0;
	json_t *doc = rest->failed ? NULL : read_value(rest->p, rest->n, &used, &e);
	int rc = -1;
	if (!doc && rest->failed)
		cli_error("%s: out of memory", c->path);
	else if (!doc)
		cli_error("%s:%zu: document %zu: not benchlog JSON: %s", c->path, c->doc_line,
			  c->ndocs + 1, e.text);
	else if (!is_document(doc))
		cli_error("%s:%zu: a JSON value that is not a %s document", c->path, c->doc_line,
			  BL_SCHEMA_ID);
	else
		rc = 0;
	if (rc == 0) {
		const char *path =
			json_string_value(json_object_get(json_object_get(doc, "source"), "path"));
		bool new_path = !c->last_path || !path || strcmp(path, c->last_path) != 0;
		if (new_path) {
			free(c->last_path);
			c->last_path = path ? strdup(path) : NULL;
		}
		rc = keep_lean(c, doc, nruns || new_path);
		if (rc < 0)
			cli_error("%s: out of memory", c->path);
		c->ndocs++;
	}
	json_decref(doc);
	drop_doc(c);
	return rc;
}

/* A piece buf[i, n) of a stream of documents: the blanks between them
 * passed, each one's text handed to the split, each one kept once
 * whole. *open: a document is under way; *line: the line at buf[i]. 0,
 * or -1 with the error told. */
static int take_json(struct collect *c, const char *buf, size_t n, size_t i, size_t *line,
		     bool *open)
{
	while (i < n) {
		if (!*open) {
			size_t start = skip_blanks(buf, n, i);
			*line += bl_count_byte(buf + i, start - i, '\n');
			if ((i = start) == n)
				break;
			if (buf[i] != '{') {
				/* "'[' where ...", or "byte 0x00 where ..." */
				unsigned char b = (unsigned char)buf[i];
				char what[16];
				snprintf(what, sizeof what,
					 b > 0x20 && b < 0x7F ? "'%c'" : "byte 0x%02x", b);
				cli_error(
					"%s:%zu: not benchlog JSON: %s where a document would start",
					c->path, *line, what);
				return -1;
			}
			*open = true;
			c->doc_line = *line;
		}
		long used = cli_doc_split_feed(&c->split, buf + i, n - i);
		if (used < 0) {
			if (!c->told)
				cli_error("%s:%zu: document %zu: not benchlog JSON", c->path,
					  c->doc_line, c->ndocs + 1);
			return -1;
		}
		*line += bl_count_byte(buf + i, (size_t)used, '\n');
		i += (size_t)used;
		if (c->split.ended) {
			*open = false;
			if (keep_json_doc(c) < 0)
				return -1;
		}
	}
	return 0;
}

/* Bytes of a stream of documents read at a time. */
#define JSON_PIECE ((size_t)1 << 20)

/* benchlog JSON as parse writes it (one document, several one after
 * another, or JSON Lines), read a document at a time, each one's runs
 * as they come, as a post's are: never the whole input in memory. */
static int load_json_stream(struct peeked *in, const char *path, json_t *docs)
{
	struct collect c;
	cli_collect_init(&c, docs, path);
	c.from_json = true;
	char *buf = malloc(JSON_PIECE);
	int rc = buf ? 0 : -1;
	if (!buf)
		cli_error("%s: out of memory", path);
	size_t line = 1;
	bool open = false, first = true;
	while (rc == 0) {
		errno = 0;
		long got = cli_peek_read(in, buf, JSON_PIECE);
		if (got <= 0) {
			if (got < 0) {
				cli_error("%s: %s", path, strerror(errno));
				rc = -1;
			}
			break;
		}
		size_t from = first && got >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
		first = false;
		rc = take_json(&c, buf, (size_t)got, from, &line, &open);
	}
	if (rc == 0 && open) {
		cli_error("%s:%zu: document %zu is cut short", path, c.doc_line, c.ndocs + 1);
		rc = -1;
	}
	free(buf);
	cli_collect_free(&c);
	return rc;
}

/* Whether the input's first n bytes open a document: a '{' (after a
 * BOM and blanks), then its schema, {"schema": "benchlog/1", as parse
 * writes it, or its diagnostics, {"diagnostics": [, where its members
 * are sorted by name (`jq -S`, Python's sort_keys). Such an input is
 * read a document at a time (load_json_stream); other JSON whole
 * (load_whole), which reads it as a post when it is no document. */
bool cli_opens_document(const char *head, size_t n)
{
	static const char *const schema_first[] = {"{", "\"schema\"", ":", "\"" BL_SCHEMA_ID "\""};
	static const char *const sorted[] = {"{", "\"diagnostics\"", ":", "["};
	const char *const *forms[] = {schema_first, sorted};
	for (size_t f = 0; f < 2; f++) {
		size_t i = lead_end(head, n), k = 0;
		for (; k < 4; k++) {
			size_t len = strlen(forms[f][k]);
			i = skip_blanks(head, n, i);
			if (n - i < len || memcmp(head + i, forms[f][k], len) != 0)
				break;
			i += len;
		}
		if (k == 4)
			return true;
	}
	return false;
}

/* Whether an input whose first n bytes are head (all of it when n is
 * under cap) may be benchlog JSON: a '{' first, after a BOM and blanks. */
bool cli_may_be_json(const char *head, size_t n, size_t cap)
{
	size_t i = json_start(head, n);
	return i < n || (n == cap && lead_end(head, n) == n);
}

/* Opens file and reads up to HEAD_BYTES of it into head, for *in to
 * serve again: 0, or -1 with the error told (nothing left open). */
int cli_peek_open(const char *file, const char *path, char *head, struct peeked *in)
{
	*in = (struct peeked){.fd = cli_open_input(file), .head = head};
	long got = 0;
	if (in->fd >= 0)
		while (in->n < HEAD_BYTES &&
		       (got = cli_read_chunk(&in->fd, head + in->n, HEAD_BYTES - in->n)) > 0)
			in->n += (size_t)got;
	if (in->fd >= 0 && got >= 0)
		return 0;
	cli_error("%s: %s", path, strerror(errno));
	if (in->fd >= 0)
		cli_close_input(in->fd);
	return -1;
}

static int load_file(const char *file, const char *path, json_t *docs)
{
	char head[HEAD_BYTES];
	struct peeked in;
	if (cli_peek_open(file, path, head, &in) < 0)
		return -1;
	int rc;
	if (cli_opens_document(head, in.n))
		rc = load_json_stream(&in, path, docs);
	else if (cli_may_be_json(head, in.n, sizeof head))
		rc = load_whole(&in, path, docs);
	else
		rc = load_post(&in, path, docs);
	cli_close_input(in.fd);
	return rc;
}

int cli_load_docs(char **files, int nfiles, json_t *docs)
{
	int rc = 0;
	for (int f = 0; f < nfiles; f++) {
		const char *path = strcmp(files[f], "-") == 0 ? "<stdin>" : files[f];
		if (load_file(files[f], path, docs) < 0)
			rc = -1;
	}
	bl_sites_drop_spare(); /* no more reading */
	return rc;
}

int cli_write_out(void *ctx, const unsigned char *data, size_t len)
{
	FILE *f = ctx;
	return len == 0 || fwrite(data, 1, len, f) == len ? 0 : -1;
}
