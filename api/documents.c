/* documents.c - the public interface (include/benchlog.h) over the
 * library's documents: an input read whole into benchlog/1 trees, their
 * members handed out as borrowed strings and numbers. */
#include "../include/benchlog.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/buf.h"
#include "../parsers/benchlog.h"

struct bl_documents {
	json_t *docs; /* array of benchlog/1 documents */
	char *name;
};

static int each_message(struct bl_message *m, void *ctx)
{
	struct bl_documents *d = ctx;
	json_t *doc = bl_parse_message(m, d->name);
	if (!doc || json_array_append_new(d->docs, doc) < 0)
		return -1;
	return 0;
}

struct bl_documents *bl_documents_read(const char *data, size_t len, const char *name)
{
	struct bl_documents *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->docs = json_array();
	d->name = strdup(name ? name : "-");
	if (!d->docs || !d->name ||
	    bl_ingest_buffer(bl_parser_ingest(), data, len, each_message, d) != 0) {
		bl_documents_free(d);
		return NULL;
	}
	return d;
}

struct bl_documents *bl_documents_read_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct bl_buf buf = {0};
	int rc = bl_buf_read_fd(&buf, fd, 0);
	int e = errno;
	close(fd);
	if (rc < 0) {
		bl_buf_free(&buf);
		errno = e;
		return NULL;
	}
	struct bl_documents *d = bl_documents_read(buf.p, buf.n, path);
	bl_buf_free(&buf);
	return d;
}

void bl_documents_free(struct bl_documents *d)
{
	if (!d)
		return;
	json_decref(d->docs);
	free(d->name);
	free(d);
}

size_t bl_documents_count(const struct bl_documents *d)
{
	return d ? json_array_size(d->docs) : 0;
}

static json_t *doc_at(const struct bl_documents *d, size_t doc)
{
	return d ? json_array_get(d->docs, doc) : NULL;
}

static json_t *run_at(const struct bl_documents *d, size_t doc, size_t run)
{
	return json_array_get(json_object_get(doc_at(d, doc), "runs"), run);
}

size_t bl_documents_runs(const struct bl_documents *d, size_t doc)
{
	return json_array_size(json_object_get(doc_at(d, doc), "runs"));
}

static const char *run_string(const struct bl_documents *d, size_t doc, size_t run, const char *key)
{
	return json_string_value(json_object_get(run_at(d, doc, run), key));
}

const char *bl_documents_run_tool(const struct bl_documents *d, size_t doc, size_t run)
{
	return run_string(d, doc, run, "tool");
}

const char *bl_documents_run_variant(const struct bl_documents *d, size_t doc, size_t run)
{
	return run_string(d, doc, run, "variant");
}

const char *bl_documents_run_label(const struct bl_documents *d, size_t doc, size_t run)
{
	return run_string(d, doc, run, "label");
}

const char *bl_documents_run_command(const struct bl_documents *d, size_t doc, size_t run)
{
	return run_string(d, doc, run, "command");
}

size_t bl_documents_run_line(const struct bl_documents *d, size_t doc, size_t run)
{
	json_t *span = json_object_get(run_at(d, doc, run), "span");
	json_int_t line = json_integer_value(json_object_get(span, "line"));
	return line > 0 ? (size_t)line : 0;
}

size_t bl_documents_results(const struct bl_documents *d, size_t doc, size_t run)
{
	return json_array_size(json_object_get(run_at(d, doc, run), "results"));
}

static bool has_flag(json_t *result, const char *flag)
{
	size_t i;
	json_t *f;
	json_array_foreach(json_object_get(result, "flags"), i,
			   f) if (json_is_string(f) &&
				  strcmp(json_string_value(f), flag) == 0) return true;
	return false;
}

bool bl_documents_result(const struct bl_documents *d, size_t doc, size_t run, size_t i,
			 struct bl_result_value *out)
{
	json_t *r = json_array_get(json_object_get(run_at(d, doc, run), "results"), i);
	if (!r || !out)
		return false;
	json_t *v = json_object_get(r, "value");
	out->metric = json_string_value(json_object_get(r, "metric"));
	out->value = json_is_number(v) ? json_number_value(v) : NAN;
	out->unit = json_string_value(json_object_get(r, "unit"));
	out->raw = json_string_value(json_object_get(r, "raw"));
	out->censored = has_flag(r, "censored");
	out->approximate = has_flag(r, "approximate");
	return true;
}

size_t bl_documents_diagnostics(const struct bl_documents *d, size_t doc)
{
	return json_array_size(json_object_get(doc_at(d, doc), "diagnostics"));
}

bool bl_documents_diagnostic(const struct bl_documents *d, size_t doc, size_t i,
			     struct bl_diagnostic *out)
{
	json_t *g = json_array_get(json_object_get(doc_at(d, doc), "diagnostics"), i);
	if (!g || !out)
		return false;
	json_int_t line = json_integer_value(json_object_get(g, "line"));
	out->line = line > 0 ? (size_t)line : 0;
	out->level = json_string_value(json_object_get(g, "level"));
	out->code = json_string_value(json_object_get(g, "code"));
	out->message = json_string_value(json_object_get(g, "message"));
	return true;
}

char *bl_documents_json(const struct bl_documents *d, size_t doc, bool pretty)
{
	json_t *j = doc_at(d, doc);
	if (!j)
		return NULL;
	return json_dumps(j, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) |
				     (pretty ? JSON_INDENT(2) : JSON_COMPACT));
}

const char *bl_library_version(void)
{
	return BL_VERSION;
}
