/* load.h - what load.c (documents for chart and table) and posts.c (a
 * post's messages for report) share: an input's first bytes peeked and
 * served again, and a post's document read back as parse writes it, a
 * run at a time (doc_split.h). Inside cli/ only. */
#ifndef CLI_LOAD_H
#define CLI_LOAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "../base/buf.h"
#include "../ingest/ingest.h"
#include "doc_split.h"

/* The document under way of an input, and where its documents go. */
struct collect {
	json_t *docs;
	const char *path;
	struct cli_doc_split split; /* the document under way */
	json_t *runs; /* its runs, in the arena */
	bool kept_one; /* a document of this input is in docs */
	bool whole_spans; /* runs keep their spans whole (report's), not lifted */
	struct bl_window_doc *windows; /* the document of a windowed input */
	/* benchlog JSON read a document at a time (load_json_stream): the
	 * documents read, the line the one under way starts on, the source
	 * path of the one before, and whether an error was told */
	bool from_json;
	size_t ndocs, doc_line;
	char *last_path;
	bool told;
};

/* A post's documents are written as parse writes them, and read back. */
#define DOC_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

/* docs: where keep_doc puts whole documents (NULL: the caller takes the
 * rest and runs itself). */
void cli_collect_init(struct collect *c, json_t *docs, const char *path);
void cli_collect_free(struct collect *c);
/* The writer parse's output is handed to (ctx: &c->split). */
int cli_collect_put(const char *buf, size_t n, void *ctx);
/* The document under way without its runs, once its text is whole;
 * NULL when it is not. */
json_t *cli_collect_rest(const struct collect *c);

/* The bytes read first, served again before the rest of the input. */
struct peeked {
	int fd;
	const char *head;
	size_t n, at;
};

/* The bytes read first of an input, to tell what it is. */
#define HEAD_BYTES 4096

/* Opens file and reads up to HEAD_BYTES of it into head: 0, or -1 with
 * the error told (nothing left open). */
int cli_peek_open(const char *file, const char *path, char *head, struct peeked *in);
/* A bl_read_fn: the peeked bytes, then the rest of the input. */
long cli_peek_read(void *ctx, char *buf, size_t cap);
/* A post's messages to each (whole: each message whole, else a long text
 * a window at a time): 0, or -1 with the error told. */
int cli_peek_stream(struct peeked *in, const char *path, bool whole, bl_message_fn each, void *ctx);
/* The whole input into all: 0, or -1 with the error told. */
int cli_peek_whole(struct peeked *in, const char *path, struct bl_buf *all);
/* Whether the first n bytes open a benchlog document. */
bool cli_opens_document(const char *head, size_t n);
/* Whether an input whose first n bytes are head (all of it when n is
 * under cap) may be JSON. */
bool cli_may_be_json(const char *head, size_t n, size_t cap);

#endif
