/* posts.c - a post's messages for report, each with its document: an
 * mbox a message at a time, any other post whole, but a long plain text,
 * which is read twice and never held (twice_read). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/buf.h"
#include "../base/mapped.h"
#include "../base/message.h"
#include "../base/tmp.h"
#include "../ingest/ingest.h"
#include "../parsers/benchlog.h"
#include "cli.h"
#include "load.h"

/* The bytes a post's format is told from, as ingest tells it. */
#define DETECT_BYTES ((size_t)64 << 10)

/* The document under way once its text is whole, its runs put back;
 * NULL when memory ran out. */
static json_t *collected_doc(struct collect *c)
{
	json_t *doc = cli_collect_rest(c);
	if (doc && c->runs && json_object_set(doc, "runs", c->runs) < 0) {
		json_decref(doc);
		doc = NULL;
	}
	return doc;
}

/* A message's document, for report: written as JSON and read back a run
 * at a time as it is written (doc_split.h), each run into the blocks
 * with the values runs share (cli_docs_shared), as chart and table read
 * them but with its span whole; the rest of the document outside the
 * blocks, to be let go when it has no runs. NULL when memory ran out. */
static json_t *message_doc(struct bl_message *m, const char *path)
{
	struct collect c;
	cli_collect_init(&c, NULL, path);
	c.whole_spans = true;
	json_t *tail = bl_parse_message_write(m, path, DOC_FLAGS, cli_collect_put, &c.split);
	/* not in the documents' blocks: report lets go of a document of
	 * prose once its section is written */
	json_t *doc = tail ? collected_doc(&c) : NULL;
	json_decref(tail);
	cli_collect_free(&c);
	return doc;
}

/* A post that begins as JSON would, read whole: its messages to each,
 * unless it is benchlog JSON (*is_docs). */
static int each_whole(struct peeked *in, const char *path, bl_message_fn each, void *ctx,
		      bool *is_docs)
{
	struct bl_buf all = {0};
	if (cli_peek_whole(in, path, &all) < 0)
		return -1;
	int rc = 0;
	if (cli_is_docs(all.p, all.n))
		*is_docs = true;
	else if ((rc = bl_ingest_buffer(bl_parser_ingest(), all.p, all.n, each, ctx)) != 0)
		cli_failed_between(path, errno);
	bl_buf_free(&all);
	return rc == 0 && !*is_docs ? 0 : -1;
}

/* A post's messages, each whole, to each with its document. */
struct with_doc {
	const char *path;
	cli_message_fn each;
	void *ctx;
};

static int message_with_doc(struct bl_message *m, void *vctx)
{
	struct with_doc *w = vctx;
	json_t *doc = message_doc(m, w->path);
	return doc ? w->each(m, doc, w->ctx) : -1;
}

/* A plain text this long is read twice rather than held (report): its
 * document a window at a time, then its text from a copy of it. */
#define TWICE_FROM ((size_t)8 << 20)

/* What the first reading reads the input through: each byte also
 * written to the copy the text is shown from, which nothing else can cut
 * short or grow while it is mapped. */
struct tee {
	struct peeked *in;
	int fd; /* the copy, unlinked */
	size_t n; /* bytes in it */
	bool failed; /* a write failed (a full disk): no copy to show */
};

static long tee_read(void *ctx, char *buf, size_t cap)
{
	struct tee *t = ctx;
	long got = cli_peek_read(t->in, buf, cap);
	if (got > 0 && !t->failed) {
		size_t w = bl_write_fd(t->fd, buf, (size_t)got);
		t->n += w;
		t->failed = w < (size_t)got;
	}
	return got;
}

/* The long plain post under way: its document, read a window at a time
 * while every window's text is its bytes (nothing decoded) and its copy
 * takes them. */
struct plain_read {
	struct collect c;
	const struct tee *copy;
	json_t *doc; /* once the last window is read */
	bool plain;
};

static bool plain_text(const struct bl_message *m)
{
	return !m->ndecodings && m->text_borrowed && !m->raw_wide && !m->nprefixes && !m->nquotes &&
	       !m->truncated && !m->subject;
}

/* A window of the post; 1 stops at the first one that is not plain, or
 * once the copy failed: the post is then read again, whole. */
static int plain_window(struct bl_message *m, void *ctx)
{
	struct plain_read *p = ctx;
	if (!(p->plain = plain_text(m) && !p->copy->failed))
		return 1;
	json_t *tail;
	if (bl_parse_message_or_window(&p->c.windows, m, p->c.path, DOC_FLAGS, cli_collect_put,
				       &p->c.split, &tail) < 0)
		return -1;
	if (!tail)
		return 0; /* a window before the last */
	json_decref(tail);
	return (p->doc = collected_doc(&p->c)) ? 0 : -1;
}

/* The document of a long plain post, read through t a window at a time
 * as parse reads it; NULL, with *plain false, when a window decoded
 * something or the copy failed (the post is then read whole), or with
 * the error told. */
static json_t *plain_doc(struct tee *t, const char *path, bool *plain)
{
	struct plain_read p = {.copy = t, .plain = true};
	cli_collect_init(&p.c, NULL, path);
	p.c.whole_spans = true;
	errno = 0;
	int r = bl_ingest_stream(bl_parser_ingest(), tee_read, t, BL_INPUT_TEXT, plain_window, &p);
	int e = errno;
	cli_collect_free(&p.c);
	*plain = p.plain;
	if (r == 0 && p.doc)
		return p.doc;
	json_decref(p.doc);
	if (r == -2)
		cli_error("%s: %s", path, strerror(e));
	else if (p.plain)
		cli_failed_between(path, e);
	return NULL;
}

/* Back to the input's first bytes after the peek: a regular file read
 * again. */
static int rewind_peeked(struct peeked *in)
{
	if (lseek(in->fd, (off_t)in->n, SEEK_SET) != (off_t)in->n)
		return -1;
	in->at = 0;
	return 0;
}

/* The text of a long plain post, from its copy through a mapping, to
 * each with the document. */
static int show_copy(const struct tee *t, const char *path, json_t *doc, cli_message_fn each,
		     void *ctx)
{
	char *text = bl_mapped_fd(t->fd, t->n, BL_TEXT_PAD);
	if (!text) {
		cli_error("%s: %s", path, strerror(errno));
		json_decref(doc);
		return -1;
	}
	struct bl_message m;
	bl_ingest_as_is(&m, text, t->n);
	int rc = each(&m, doc, ctx) == 0 ? 0 : -1;
	bl_message_free(&m);
	bl_mapped_free(text);
	return rc;
}

/* Whether the input is a regular file of TWICE_FROM bytes or more, read
 * from its start, whose first 64 KB (a mail's headers may pass 4 KB)
 * read as plain text. */
static bool long_plain_file(const struct peeked *in)
{
	struct stat st;
	if (fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < TWICE_FROM ||
	    lseek(in->fd, 0, SEEK_CUR) != (off_t)in->n)
		return false;
	char *head = malloc(DETECT_BYTES);
	ssize_t got = head ? pread(in->fd, head, DETECT_BYTES, 0) : -1;
	bool text = got > 0 && bl_detect_format(head, (size_t)got) == BL_INPUT_TEXT;
	free(head);
	return text;
}

/* A long post of plain text, in a regular file read from its start: its
 * document read a window at a time, each byte copied to a temporary
 * file as it is read, then its text through a mapping of that copy, the
 * pages read let go (base/mapped.h): neither is ever whole in memory. 0,
 * -1 with the error told, or 1 when the input is not one such (or a
 * window decoded something, or the copy failed: read it again, whole). */
static int twice_read(struct peeked *in, const char *path, cli_message_fn each, void *ctx)
{
	struct tee t = {in, -1, 0, false};
	if (!long_plain_file(in) || (t.fd = bl_temp_fd("post")) < 0)
		return 1;
	bool plain;
	json_t *doc = plain_doc(&t, path, &plain);
	int rc = -1;
	if (doc && !t.failed) {
		rc = show_copy(&t, path, doc, each, ctx);
	} else if (doc || !plain) {
		json_decref(doc);
		rc = rewind_peeked(in) == 0 ? 1 : -1; /* read again, whole */
		if (rc < 0)
			cli_error("%s: %s", path, strerror(errno));
	}
	close(t.fd);
	return rc;
}

int cli_each_message(const char *file, const char *path, cli_message_fn each, void *ctx,
		     bool *is_docs)
{
	*is_docs = false;
	char head[HEAD_BYTES];
	struct peeked in;
	if (cli_peek_open(file, path, head, &in) < 0)
		return -1;
	struct with_doc w = {path, each, ctx};
	int rc = -1;
	if (cli_opens_document(head, in.n))
		*is_docs = true;
	else if (cli_may_be_json(head, in.n, sizeof head))
		rc = each_whole(&in, path, message_with_doc, &w, is_docs);
	else if ((rc = twice_read(&in, path, each, ctx)) == 1)
		/* each message whole, an mbox one at a time */
		rc = cli_peek_stream(&in, path, true, message_with_doc, &w);
	cli_close_input(in.fd);
	return rc == 0 ? 0 : -1;
}
