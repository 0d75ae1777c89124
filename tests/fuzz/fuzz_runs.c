/* fuzz_runs.c - `parse --runs`: arbitrary bytes through ingest and the
 * scanner, each document written compact (as `benchlog parse --runs`
 * writes it) and fed to the runs cutter in pieces of sizes taken from
 * the input; the lines must be jansson's dump of each run with its
 * source, message index and message id first, compact and indented.
 * Raw bytes go through a cutter too: nothing may crash. A difference
 * aborts (a finding). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/runs_out.c"
#include "../../parsers/benchlog.h"

static size_t piece = 1;

static int collect(const char *p, size_t n, void *ctx)
{
	return bl_buf_put(ctx, p, n) ? 0 : -1;
}

/* What the cutter must write for doc: the old cutter's output. */
static void expected(json_t *doc, size_t flags, FILE *f)
{
	json_t *src = json_object_get(doc, "source");
	json_t *msg = json_object_get(src, "message");
	json_t *path = json_object_get(src, "path"), *index = json_object_get(msg, "index"),
	       *id = json_object_get(msg, "message_id");
	size_t i;
	json_t *run;
	json_array_foreach(json_object_get(doc, "runs"), i, run)
	{
		json_t *line = json_pack("{s:O, s:O, s:O}", "source", path ? path : json_null(),
					 "message_index", index ? index : json_null(), "message_id",
					 id ? id : json_null());
		if (!line || json_object_update(line, run) < 0)
			abort();
		json_dumpf(line, f, flags);
		fputc('\n', f);
		json_decref(line);
	}
}

static void check(const struct bl_buf *text, json_t *doc, bool pretty)
{
	char *got = NULL, *want = NULL;
	size_t ngot = 0, nwant = 0;
	FILE *g = open_memstream(&got, &ngot), *w = open_memstream(&want, &nwant);
	struct cli_runs *r = cli_runs_new(pretty);
	if (!g || !w || !r)
		abort();
	for (size_t at = 0; at < text->n; at += piece)
		cli_runs_feed(r, g, text->p + at, text->n - at < piece ? text->n - at : piece);
	expected(doc,
		 JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) |
			 (pretty ? JSON_INDENT(2) : JSON_COMPACT),
		 w);
	fclose(g);
	fclose(w);
	if (ngot != nwant || memcmp(got, want, ngot) != 0)
		abort();
	cli_runs_free(r);
	free(got);
	free(want);
}

static int each(struct bl_message *m, void *ctx)
{
	(void)ctx;
	size_t flags = JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) | JSON_COMPACT;
	json_t *doc = bl_parse_message(m, "fuzz");
	struct bl_buf text = {0};
	json_t *tail = bl_parse_message_write(m, "fuzz", flags, collect, &text);
	/* the document as written: its zpool runs have rows (table.h) */
	json_t *written = doc && tail && !text.failed ? json_loadb(text.p, text.n, 0, NULL) : NULL;
	if (written) {
		check(&text, written, false);
		check(&text, written, true);
	}
	json_decref(written);
	json_decref(tail);
	json_decref(doc);
	bl_buf_free(&text);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	piece = size ? data[0] % 64 + 1 : 1;
	bl_ingest_buffer(bl_parser_ingest(), (const char *)data, size, each, NULL);
	/* bytes that are not a document: read without harm */
	char *sink = NULL;
	size_t nsink = 0;
	FILE *f = open_memstream(&sink, &nsink);
	struct cli_runs *r = cli_runs_new(size && data[0] & 1);
	if (f && r)
		cli_runs_feed(r, f, (const char *)data, size);
	cli_runs_free(r);
	if (f)
		fclose(f);
	free(sink);
	return 0;
}
