/* load.c - inputs for chart and table: a raw post (parsed here through the
 * library) or benchlog/1 JSON (one document, several concatenated, or JSON
 * Lines), told apart by their first bytes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../base/buf.h"
#include "../parsers/benchlog.h"
#include "../render/render.h"
#include "cli.h"

static json_t *read_value(const char *s, size_t len, size_t *used, json_error_t *e);

struct collect {
	json_t *docs;
	const char *path;
	struct bl_buf text; /* a message's document, as JSON */
};

static int put_text(const char *buf, size_t n, void *ctx)
{
	return bl_buf_put(ctx, buf, n) ? 0 : -1;
}

json_t *cli_message_doc(struct bl_message *m, const char *path, struct bl_buf *text)
{
	const size_t flags = JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17);
	text->n = 0;
	json_t *tail = bl_parse_message_write(m, path, flags, put_text, text);
	json_decref(tail);
	if (!tail || text->failed)
		return NULL;
	size_t used = 0;
	json_error_t e;
	cli_docs_arena(true);
	json_t *doc = read_value(text->p, text->n, &used, &e);
	cli_docs_arena(false);
	return doc;
}

static int each_message(struct bl_message *m, void *vctx)
{
	struct collect *c = vctx;
	json_t *doc = cli_message_doc(m, c->path, &c->text);
	if (!doc)
		return -1;
	return json_array_append_new(c->docs, doc) == 0 ? 0 : -1;
}

static size_t skip_blanks(const char *data, size_t len, size_t i)
{
	while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
		i++;
	return i;
}

/* Where JSON documents would start: past a BOM and blanks, at a '{';
 * len when the text cannot be JSON documents. */
static size_t json_start(const char *data, size_t len)
{
	size_t i = len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	i = skip_blanks(data, len, i);
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
		const char *bad = bl_doc_check_rows(d);
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

int cli_load_docs(char **files, int nfiles, json_t *docs)
{
	int rc = 0;
	for (int f = 0; f < nfiles; f++) {
		char *data;
		size_t len;
		const char *path = strcmp(files[f], "-") == 0 ? "<stdin>" : files[f];
		if (cli_read_file(files[f], &data, &len) < 0) {
			cli_error("%s: %s", path, strerror(errno));
			rc = -1;
			continue;
		}
		cli_docs_arena(true);
		int j = load_json(data, len, path, docs);
		cli_docs_arena(false);
		if (j < 0)
			rc = -1;
		else if (j == 0) {
			struct collect c = {docs, path, {0}};
			if (bl_ingest_buffer(bl_parser_ingest(), data, len, each_message, &c) !=
			    0) {
				cli_error("%s: out of memory", path);
				rc = -1;
			}
			bl_buf_free(&c.text);
		}
		free(data);
	}
	return rc;
}

int cli_write_out(void *ctx, const unsigned char *data, size_t len)
{
	FILE *f = ctx;
	return len == 0 || fwrite(data, 1, len, f) == len ? 0 : -1;
}
