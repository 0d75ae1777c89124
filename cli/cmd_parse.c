/* cmd_parse.c - `benchlog parse`: inputs to benchlog/1 documents. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/benchlog.h"
#include "cli.h"

static void help(void)
{
	puts("usage: benchlog parse [options] [FILE...]\n\n"
	     "Finds benchmark runs in each input (stdin when no FILE or '-') and\n"
	     "writes one benchlog/1 JSON document per input message.\n\n"
	     "options:\n"
	     "  -o, --output FILE  write to FILE (atomically: a temporary file renamed)\n"
	     "      --jsonl        one compact document per line (JSON Lines)\n"
	     "  -q, --quiet        do not print diagnostics on stderr\n"
	     "      --strict       exit 1 when a document has an error diagnostic\n"
	     "      --input-format auto|text|mbox|eml|html|qp\n"
	     "                     what the input is (default auto: detected from its\n"
	     "                     first bytes; an mbox is streamed message by message)\n"
	     "  -h, --help         this help\n\n"
	     "Diagnostics go to stderr as 'file:line: level: message [code]'.\n"
	     "exit status: 0 ok, 1 an input could not be read (or --strict and an\n"
	     "error), 2 usage.");
}

struct parse_ctx {
	FILE *out;
	const char *path;
	bool jsonl, quiet;
	size_t errors;
	int write_failed;
	struct bl_window_doc *windows; /* the document of a windowed input */
};

static void report(struct parse_ctx *c, json_t *doc)
{
	json_t *diags = json_object_get(doc, "diagnostics");
	size_t i;
	json_t *d;
	json_array_foreach(diags, i, d)
	{
		const char *level = json_string_value(json_object_get(d, "level"));
		if (level && strcmp(level, "error") == 0)
			c->errors++;
		if (c->quiet)
			continue;
		fprintf(stderr, "%s:%lld: %s: %s [%s]\n", c->path,
			(long long)json_integer_value(json_object_get(d, "line")),
			level ? level : "?",
			json_string_value(json_object_get(d, "message")),
			json_string_value(json_object_get(d, "code")));
	}
}

static int write_out(const char *buf, size_t n, void *vctx)
{
	struct parse_ctx *c = vctx;
	if (fwrite(buf, 1, n, c->out) != n) {
		c->write_failed = 1;
		return -1;
	}
	return 0;
}

static int each_message(struct bl_message *m, void *vctx)
{
	struct parse_ctx *c = vctx;
	size_t flags = JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) |
		       (c->jsonl ? JSON_COMPACT : JSON_INDENT(2));
	/* written run by run: a message with a million runs is never one
	 * JSON tree in memory */
	json_t *tail;
	if (m->window.on) {
		/* a large text input, a window at a time: one document */
		if (!c->windows && !(c->windows = bl_window_doc_new(c->path, flags)))
			return -1;
		if (bl_window_doc_add(c->windows, m) < 0)
			return -1;
		if (!m->window.last)
			return 0;
		tail = bl_window_doc_finish(c->windows, write_out, c);
		bl_window_doc_free(c->windows);
		c->windows = NULL;
	} else {
		tail = bl_parse_message_write(m, c->path, flags, write_out, c);
	}
	if (!tail)
		return c->write_failed ? 0 : -1;
	report(c, tail);
	if (fputc('\n', c->out) == EOF)
		c->write_failed = 1;
	json_decref(tail);
	return 0;
}

int cmd_parse(int argc, char **argv)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"jsonl", no_argument, NULL, 'j'},
		{"quiet", no_argument, NULL, 'q'},
		{"strict", no_argument, NULL, 's'},
		{"input-format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *output = NULL;
	bool jsonl = false, quiet = false, strict = false;
	enum bl_input_format fmt = BL_INPUT_AUTO;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
		switch (ch) {
		case 'o': output = optarg; break;
		case 'j': jsonl = true; break;
		case 'q': quiet = true; break;
		case 's': strict = true; break;
		case 'f':
			if (!bl_input_format_parse(optarg, &fmt)) {
				cli_error("parse: unknown input format '%s' (auto, text, mbox, eml, html, qp)",
					  optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h': help(); return EXIT_OK;
		default: return EXIT_USAGE;
		}
	}
	char *stdin_only[] = {"-"};
	char **files = optind < argc ? argv + optind : stdin_only;
	int nfiles = optind < argc ? argc - optind : 1;

	struct cli_out out;
	if (cli_out_open(&out, output) < 0)
		return EXIT_DATA;
	int rc = EXIT_OK;
	struct parse_ctx ctx = {.out = out.f, .jsonl = jsonl, .quiet = quiet};
	for (int i = 0; i < nfiles; i++) {
		ctx.path = strcmp(files[i], "-") == 0 ? "<stdin>" : files[i];
		int fd = cli_open_input(files[i]);
		if (fd < 0) {
			cli_error("%s: %s", ctx.path, strerror(errno));
			rc = EXIT_DATA;
			continue;
		}
		/* streamed: an mbox is never held whole in memory */
		int r = bl_ingest_stream(cli_read_chunk, &fd, fmt, each_message, &ctx);
		int e = errno;
		cli_close_input(fd);
		/* a read error or a failure between windows: no document */
		bl_window_doc_free(ctx.windows);
		ctx.windows = NULL;
		if (r == -2) {
			cli_error("%s: %s", ctx.path, strerror(e));
			rc = EXIT_DATA;
		} else if (r != 0) {
			cli_error("%s: out of memory", ctx.path);
			rc = EXIT_DATA;
		}
	}
	if (ctx.write_failed) {
		cli_error("%s: write error", output ? output : "standard output");
		cli_out_abort(&out);
		return EXIT_DATA;
	}
	if (cli_out_commit(&out) < 0)
		return EXIT_DATA;
	if (strict && ctx.errors)
		rc = EXIT_DATA;
	return rc;
}
