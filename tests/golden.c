/* golden.c - the corpus runner.
 *
 * For every corpus/<tool>/<case>/input, parses the input and compares the
 * documents, as JSON, to expected.json (one document: an object; several
 * messages: an array). Prints one line per failing case and the paths that
 * differ. A case without expected.json fails. With --update, writes
 * expected.json instead (review the diff before committing).
 *
 * Each document is also written run by run (bl_parse_message_write, what
 * `benchlog parse` does), indented and compact: the bytes must be those of
 * the JSON tree.
 *
 * usage: golden [--update] CORPUS_DIR */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../parsers/benchlog.h"
#include "rows_layout.h"

#define DUMP_FLAGS (JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) | JSON_INDENT(2))

static int read_all(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t cap = 4096, n = 0;
	char *b = malloc(cap);
	size_t r;
	while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			char *nb = realloc(b, cap *= 2);
			if (!nb) {
				free(b);
				b = NULL;
			}
			b = nb;
		}
	}
	fclose(f);
	if (!b)
		return -1;
	*out = b;
	*len = n;
	return 0;
}

struct membuf {
	char *s;
	size_t len, cap;
};

static int mem_write(const char *buf, size_t n, void *ctx)
{
	struct membuf *b = ctx;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *v = realloc(b->s, cap);
		if (!v)
			return -1;
		b->s = v;
		b->cap = cap;
	}
	memcpy(b->s + b->len, buf, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

/* Documents whose streamed bytes differed from the tree's. */
static int write_mismatch;

/* The streamed document, read back, is what jansson writes for it (each
 * element of its rows on one line: rows_layout.h), and its rows expanded
 * (table.h), it is json_dumps of the tree, for `flags`. */
static bool same_written(struct bl_message *m, json_t *tree, size_t flags)
{
	char *want = json_dumps(tree, flags);
	struct membuf got = {0};
	json_t *tail = bl_parse_message_write(m, "input", flags, mem_write, &got);
	json_t *back = got.s ? json_loads(got.s, 0, NULL) : NULL;
	char *layout = back ? rows_layout_dump(back, flags) : NULL;
	char *expanded = back && !bl_doc_expand_rows(back) ? json_dumps(back, flags) : NULL;
	bool same = want && tail && layout && expanded && strcmp(layout, got.s) == 0 &&
		    strcmp(want, expanded) == 0 &&
		    json_equal(json_object_get(tail, "diagnostics"),
			       json_object_get(tree, "diagnostics"));
	json_decref(tail);
	json_decref(back);
	free(layout);
	free(expanded);
	free(want);
	free(got.s);
	return same;
}

static int collect(struct bl_message *m, void *ctx)
{
	json_t *docs = ctx;
	json_t *d = bl_parse_message(m, "input");
	if (!d)
		return -1;
	if (!same_written(m, d, DUMP_FLAGS) ||
	    !same_written(m, d, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) | JSON_COMPACT))
		write_mismatch++;
	/* round-trip through text so reals compare as they are stored */
	char *s = json_dumps(d, DUMP_FLAGS);
	json_decref(d);
	json_t *back = s ? json_loads(s, 0, NULL) : NULL;
	free(s);
	if (!back)
		return -1;
	json_array_append_new(docs, back);
	return 0;
}

static int printed;

static void diff(const char *path, json_t *want, json_t *got)
{
	if (printed >= 12 || json_equal(want, got))
		return;
	char sub[1024];
	if (json_is_object(want) && json_is_object(got)) {
		const char *k;
		json_t *v;
		json_object_foreach(want, k, v)
		{
			snprintf(sub, sizeof sub, "%s.%s", path, k);
			json_t *g = json_object_get(got, k);
			if (!g) {
				printf("    %s: missing\n", sub);
				printed++;
			} else {
				diff(sub, v, g);
			}
		}
		json_object_foreach(got, k, v)
		{
			if (!json_object_get(want, k) && printed < 12) {
				char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
				printf("    %s.%s: unexpected %.200s\n", path, k, t ? t : "?");
				free(t);
				printed++;
			}
		}
		return;
	}
	if (json_is_array(want) && json_is_array(got)) {
		size_t nw = json_array_size(want), ng = json_array_size(got);
		if (nw != ng) {
			printf("    %s: %zu items expected, %zu found\n", path, nw, ng);
			printed++;
		}
		for (size_t i = 0; i < nw && i < ng; i++) {
			snprintf(sub, sizeof sub, "%s[%zu]", path, i);
			diff(sub, json_array_get(want, i), json_array_get(got, i));
		}
		return;
	}
	char *w = json_dumps(want, JSON_COMPACT | JSON_ENCODE_ANY);
	char *g = json_dumps(got, JSON_COMPACT | JSON_ENCODE_ANY);
	printf("    %s: expected %.200s, got %.200s\n", path, w ? w : "?", g ? g : "?");
	printed++;
	free(w);
	free(g);
}

static int run_case(const char *dir, int update)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/input", dir);
	char *data;
	size_t len;
	if (read_all(path, &data, &len) < 0) {
		printf("FAIL %s: cannot read input: %s\n", dir, strerror(errno));
		return 1;
	}
	json_t *docs = json_array();
	int rc = bl_ingest_buffer(bl_parser_ingest(), data, len, collect, docs);
	free(data);
	if (rc != 0) {
		printf("FAIL %s: parse failed (%d)\n", dir, rc);
		json_decref(docs);
		return 1;
	}
	if (write_mismatch) {
		printf("FAIL %s: the document written run by run differs from its JSON tree\n",
		       dir);
		write_mismatch = 0;
		json_decref(docs);
		return 1;
	}
	json_t *got = json_array_size(docs) == 1 ? json_incref(json_array_get(docs, 0))
						 : json_incref(docs);
	json_decref(docs);
	snprintf(path, sizeof path, "%s/expected.json", dir);
	if (update) {
		int r = json_dump_file(got, path, DUMP_FLAGS);
		json_decref(got);
		if (r < 0) {
			printf("FAIL %s: cannot write expected.json\n", dir);
			return 1;
		}
		/* json_dump_file ends without a newline; add one */
		FILE *f = fopen(path, "a");
		if (f) {
			fputc('\n', f);
			fclose(f);
		}
		return 0;
	}
	json_error_t err;
	json_t *want = json_load_file(path, 0, &err);
	if (!want) {
		printf("FAIL %s: expected.json: %s (line %d)\n", dir, err.text, err.line);
		json_decref(got);
		return 1;
	}
	int bad = !json_equal(want, got);
	if (bad) {
		printf("FAIL %s\n", dir);
		printed = 0;
		diff("$", want, got);
	}
	json_decref(want);
	json_decref(got);
	return bad;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists subdirectories of dir, sorted. */
static size_t subdirs(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	size_t n = 0, cap = 0;
	char **v = NULL;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char p[4096];
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = realloc(v, cap * sizeof *v);
		}
		v[n++] = strdup(p);
	}
	if (d)
		closedir(d);
	if (n)
		qsort(v, n, sizeof *v, cmp);
	*out = v;
	return n;
}

int main(int argc, char **argv)
{
	int update = argc > 1 && strcmp(argv[1], "--update") == 0;
	const char *root = argc > 1 + update ? argv[1 + update] : "corpus";
	char **tools;
	size_t ntools = subdirs(root, &tools);
	int pass = 0, fail = 0;
	for (size_t i = 0; i < ntools; i++) {
		char **cases;
		size_t ncases = subdirs(tools[i], &cases);
		for (size_t j = 0; j < ncases; j++) {
			if (run_case(cases[j], update))
				fail++;
			else
				pass++;
			free(cases[j]);
		}
		free(cases);
		free(tools[i]);
	}
	free(tools);
	bl_cleanup();
	if (update)
		printf("golden: wrote %d expected.json, %d failed\n", pass, fail);
	else
		printf("golden: %d passed, %d failed\n", pass, fail);
	return fail || (!pass && !update) ? 1 : 0;
}
