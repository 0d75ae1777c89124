/* test_parts.c - long multipart mails read part by part (ingest/parts.c),
 * and long HTML mails in windows:
 * in windows of several sizes, as an .eml file and inside an mbox, each
 * gives the documents a whole reading gives (mime.c), byte for byte:
 * attachments passed over, alternatives, nested multiparts, forwarded
 * mails, transfer encodings, CRLF, and damage (no closing delimiter, a
 * multipart without delimiters). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../ingest/decode.h"
#include "../../parsers/benchlog.h"
#include "check.h"
#include "window_docs.h"

/* Member `key` of element i of an array of objects (NULL: none). */
static json_t *member_at(json_t *array, size_t i, const char *key)
{
	return json_object_get(json_array_get(array, i), key);
}

static const char NOTE[] =
	"Same pool as last week, but with the new cables; the scrub had finished an hour "
	"before, and nothing else ran.\n";
static const char DD_RUN[] = "# dd if=/dev/zero of=/tank/f bs=1M count=1024\n"
			     "1024+0 records in\n1024+0 records out\n"
			     "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 9.25 s, 116 MB/s\n";
static const char DD_BSD_RUN[] =
	"% dd if=/dev/ada0 of=/dev/null bs=1m count=500\n"
	"500+0 records in\n500+0 records out\n"
	"524288000 bytes transferred in 4.102 secs (127810421 bytes/sec)\n";

/* A mail being written (window_docs.h's buffer). */
static void add(struct buf *t, const char *s, size_t n)
{
	buf_write(s, n, t);
}

static void adds(struct buf *t, const char *s)
{
	add(t, s, strlen(s));
}

/* About `kb` kilobytes of notes and runs, the runs numbered from `from`
 * (`accents`: the notes in Latin-1 words too, for a charset). */
static void runs_text(struct buf *t, size_t kb, size_t from, bool accents)
{
	size_t start = t->n;
	for (size_t i = from; t->n - start < kb * 1024; i++) {
		char head[64];
		snprintf(head, sizeof head, "\nTry %zu%s:\n", i,
			 accents ? " (d\xc3\xa9j\xc3\xa0 vu)" : "");
		for (size_t k = 0; k <= i % 3; k++)
			adds(t, NOTE);
		adds(t, head);
		adds(t, i % 2 ? DD_RUN : DD_BSD_RUN);
	}
}

/* `n` bytes that are no text, in base64 lines of 76 characters. */
static void binary(struct buf *t, size_t n)
{
	unsigned char *b = malloc(n);
	uint32_t x = 2463534242u;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		b[i] = (unsigned char)x;
	}
	char *o = malloc(n * 2 + 8);
	add(t, o, base64_encode(b, n, 76, o));
	free(o);
	free(b);
}

/* t's text from `from` on, as quoted-printable, from Latin-1 or UTF-8 */
static void qp_of(struct buf *t, const struct buf *plain, bool latin1)
{
	char *in = malloc(plain->n + 1), *o = malloc(plain->n * 3 + 8);
	size_t n = 0;
	for (size_t i = 0; i < plain->n; i++) {
		unsigned char c = (unsigned char)plain->s[i];
		if (latin1 && c == 0xC3 && i + 1 < plain->n) {
			in[n++] = (char)(0xC0 | ((unsigned char)plain->s[++i] & 0x3F));
			continue;
		}
		in[n++] = (char)c;
	}
	add(t, o, qp_encode(in, n, o));
	free(in);
	free(o);
}

static const char HEAD[] = "From: ops@example.org\nSubject: pool numbers, attached\n"
			   "Date: Tue, 2 Mar 2010 09:00:00 +0000\nMIME-Version: 1.0\n";

/* A mixed mail: a note, a binary attachment, runs in quoted-printable
 * Latin-1, closed, with an epilogue. */
static void mixed_mail(struct buf *t)
{
	adds(t, HEAD);
	adds(t, "Content-Type: multipart/mixed; boundary=\"=_b1\"\n\n"
		"This is a multi-part message in MIME format.\n--=_b1\n"
		"Content-Type: text/plain; charset=utf-8\n\n");
	runs_text(t, 40, 0, false);
	adds(t, "\n--=_b1\nContent-Type: application/octet-stream; name=\"pool.bin\"\n"
		"Content-Transfer-Encoding: base64\n\n");
	binary(t, 45000);
	adds(t, "--=_b1\nContent-Type: text/plain; charset=iso-8859-1\n"
		"Content-Transfer-Encoding: quoted-printable\n\n");
	struct buf plain = {0};
	runs_text(&plain, 40, 100, true);
	qp_of(t, &plain, true);
	free(plain.s);
	adds(t, "\n--=_b1--\nAn epilogue nobody reads.\n");
}

/* A mail of nested parts: an alternative with HTML before the plain
 * text, an image, a forwarded mail, runs in base64, a PDF after the
 * last text. */
static void nested_mail(struct buf *t)
{
	adds(t, HEAD);
	adds(t, "Content-Type: multipart/mixed; boundary=outer\n\n--outer\n"
		"Content-Type: multipart/alternative; boundary=\"alt\"\n\n--alt\n"
		"Content-Type: text/html; charset=utf-8\n\n<html><body><pre>");
	adds(t, DD_RUN);
	adds(t, "</pre></body></html>\n--alt\nContent-Type: text/plain; charset=utf-8\n\n");
	runs_text(t, 30, 200, false);
	adds(t, "--alt--\n\n--outer\nContent-Type: image/png\n"
		"Content-Transfer-Encoding: base64\n\n");
	binary(t, 30000);
	adds(t, "--outer\nContent-Type: message/rfc822\n\nFrom: old@example.org\n"
		"Subject: Fwd: the numbers of 2009\nContent-Type: text/plain\n\n");
	runs_text(t, 20, 300, false);
	adds(t, "--outer\nContent-Type: text/plain; charset=utf-8\n"
		"Content-Transfer-Encoding: base64\n\n");
	struct buf plain = {0};
	runs_text(&plain, 30, 400, true);
	char *o = malloc(plain.n * 2 + 8);
	add(t, o, base64_encode((const unsigned char *)plain.s, plain.n, 76, o));
	free(o);
	free(plain.s);
	adds(t, "--outer\nContent-Type: application/pdf\nContent-Transfer-Encoding: base64\n\n");
	binary(t, 20000);
	adds(t, "--outer--\n");
}

/* Damage: a multipart part with no delimiter of its own (read as plain
 * text), and a mail that ends without its closing delimiter. */
static void damaged_mail(struct buf *t)
{
	adds(t, HEAD);
	adds(t, "Content-Type: multipart/mixed; boundary=\"top\"\n\n--top\n"
		"Content-Type: multipart/related; boundary=\"never\"\n\n");
	runs_text(t, 20, 500, false);
	adds(t, "\n--top\nContent-Type: application/zip\n\n");
	binary(t, 30000);
	adds(t, "--top\nContent-Type: multipart/mixed\n\n");
	runs_text(t, 5, 600, false);
	/* no part: its first delimiter closes it (read as plain text) */
	adds(t, "--top\nContent-Type: multipart/mixed; boundary=\"z\"\n\nBefore it closes:\n");
	adds(t, DD_RUN);
	adds(t, "--z--\nAnd after:\n");
	adds(t, DD_BSD_RUN);
	/* a multipart with no body at all */
	adds(t, "--top\nContent-Type: multipart/related; boundary=never\n\n");
	adds(t, "--top\n\n");
	runs_text(t, 30, 700, false);
}

/* A delimiter of two open levels: the inner boundary is the outer's and
 * "--", so "--a--" closes the outer and opens an inner part; the outer
 * splits first, the inner's body ends before the line. */
static void prefix_mail(struct buf *t)
{
	adds(t, HEAD);
	adds(t, "Content-Type: multipart/mixed; boundary=a\n\n--a\n\n");
	runs_text(t, 30, 0, false);
	adds(t, "--a\nContent-Type: multipart/mixed; boundary=\"a--\"\n\n");
	runs_text(t, 20, 100, false);
	adds(t, "--a--\n");
	runs_text(t, 30, 200, false);
}

/* A page of `kb` kilobytes: runs in <pre>, notes in paragraphs. */
static void page_text(struct buf *t, size_t kb, size_t from)
{
	size_t start = t->n;
	adds(t, "<html><head><title>the numbers</title></head><body>\n");
	for (size_t i = from; t->n - start < kb * 1024; i++) {
		char head[64];
		snprintf(head, sizeof head, "<h2>Try %zu</h2>\n<p>", i);
		adds(t, head);
		adds(t, NOTE);
		adds(t, "</p>\n<pre>");
		adds(t, i % 2 ? DD_RUN : DD_BSD_RUN);
		adds(t, "</pre>\n");
	}
	adds(t, "</body></html>\n");
}

/* Pages and digests: an alternative of HTML alone, a digest of two
 * mails (its parts message/rfc822 unless they say), an HTML attachment
 * with a comment never closed. */
static void pages_mail(struct buf *t)
{
	adds(t, HEAD);
	adds(t, "Content-Type: multipart/mixed; boundary=m\n\n--m\n"
		"Content-Type: multipart/alternative; boundary=a\n\n--a\n"
		"Content-Type: text/html; charset=utf-8\n\n");
	page_text(t, 40, 800);
	adds(t, "--a--\n--m\nContent-Type: multipart/digest; boundary=d\n\n--d\n\n"
		"From: one@example.org\nSubject: first\n\n");
	runs_text(t, 10, 900, false);
	adds(t, "--d\n\nFrom: two@example.org\nSubject: second\n\n");
	runs_text(t, 10, 950, false);
	adds(t, "--d--\n--m\nContent-Type: text/html\n\n");
	page_text(t, 30, 1000);
	adds(t, "<!-- left open\n--m--\n");
}

/* The mail with its line breaks as CRLF. */
static void crlf(struct buf *t)
{
	struct buf c = {0};
	for (size_t i = 0; i < t->n; i++)
		add(&c, t->s[i] == '\n' ? "\r\n" : t->s + i, t->s[i] == '\n' ? 2 : 1);
	free(t->s);
	*t = c;
}

/* Whether the runs of docs, read part by part, are those of a whole
 * reading, but for this: a run at the end of a part ends where the part
 * does, where a whole reading, whose text goes on with the next part's,
 * gives the first byte of the next part it reads (past delimiters and
 * parts passed over). Such ends are set to the whole reading's, and
 * the documents compared. */
static bool like_whole_parts(const char *s, json_t *whole, json_t *docs)
{
	json_t *w = json_deep_copy(docs);
	bool ok = json_array_size(w) == json_array_size(whole);
	for (size_t d = 0; ok && d < json_array_size(whole); d++) {
		json_t *ra = member_at(whole, d, "runs");
		json_t *rb = member_at(w, d, "runs");
		ok = json_array_size(ra) == json_array_size(rb);
		for (size_t i = 0; ok && i < json_array_size(ra); i++) {
			json_t *sa = member_at(ra, i, "span");
			json_t *sb = member_at(rb, i, "span");
			json_int_t ea = json_integer_value(json_object_get(sa, "end_offset"));
			json_int_t eb = json_integer_value(json_object_get(sb, "end_offset"));
			if (ea == eb)
				continue;
			/* a delimiter ("--boundary") between the two */
			const char *gap = s + eb, *past = s + ea;
			ok = eb < ea && memmem(gap, (size_t)(past - gap), "\n--", 3) != NULL;
			json_object_set_new(sb, "end_offset", json_integer(ea));
		}
	}
	ok = ok && json_equal(w, whole);
	json_decref(w);
	return ok;
}

/* The documents of s read part by part in windows of several sizes are
 * those of a whole reading (like_whole_parts); *nwin: the windows of the
 * first (the most). */
static void check_parts(const char *s, size_t len, size_t ndocs, size_t *nwin)
{
	check_windows_by(s, len, ndocs, nwin, like_whole_parts);
}

/* The mail alone, and in an mbox between two short mails: documents of
 * a whole reading, read part by part in windows. */
static void check_mail(const char *label, struct buf *mail)
{
	size_t nwin = 0;
	check_parts(mail->s, mail->n, 1, &nwin);
	if (nwin < 6)
		printf("%s: %zu windows\n", label, nwin);
	CHECK(nwin >= 6);
	struct buf box = {0};
	adds(&box, "From ops@example.org Tue Mar  2 08:00:00 2010\n");
	adds(&box, HEAD);
	adds(&box, "\nBefore.\n");
	adds(&box, DD_RUN);
	adds(&box, "\nFrom ops@example.org Tue Mar  2 09:00:00 2010\n");
	add(&box, mail->s, mail->n);
	adds(&box, "\nFrom ops@example.org Tue Mar  2 10:00:00 2010\n");
	adds(&box, HEAD);
	adds(&box, "\n>From the list: after.\n");
	adds(&box, DD_BSD_RUN);
	check_parts(box.s, box.n, 3, &nwin);
	CHECK(nwin >= 6);
	free(box.s);
}

/* How a document read part by part names its decodings and what it says:
 * the whole reading's (checked above), and these in it. */
static void check_said(const struct buf *mail, const char *const *codes, size_t ncodes,
		       const char *const *decodings, size_t ndec, size_t nruns)
{
	json_t *docs = parse(mail->s, mail->n, 16384, 4096, NULL);
	json_t *d = json_array_get(docs, 0);
	CHECK(json_array_size(json_object_get(d, "runs")) == nruns);
	json_t *diags = json_object_get(d, "diagnostics"), *v;
	for (size_t k = 0; k < ncodes; k++) {
		bool seen = false;
		size_t i;
		json_array_foreach(diags, i, v) seen |=
			strcmp(json_string_value(json_object_get(v, "code")), codes[k]) == 0;
		if (!seen)
			printf("no %s\n", codes[k]);
		CHECK(seen);
	}
	json_t *dec = json_object_get(json_object_get(d, "source"), "decoding");
	for (size_t k = 0; k < ndec; k++) {
		bool seen = false;
		size_t i;
		json_array_foreach(dec, i, v) seen |=
			strcmp(json_string_value(v), decodings[k]) == 0;
		CHECK(seen);
	}
	json_decref(docs);
}

/* How many times the document of mail t read part by part says `code`. */
static size_t count_code(const struct buf *t, const char *code)
{
	json_t *docs = parse(t->s, t->n, 16384, 4096, NULL), *v;
	json_t *diags = member_at(docs, 0, "diagnostics");
	size_t i, n = 0;
	json_array_foreach(diags, i, v) n +=
		strcmp(json_string_value(json_object_get(v, "code")), code) == 0;
	json_decref(docs);
	return n;
}

static void test_mixed(void)
{
	struct buf t = {0};
	mixed_mail(&t);
	check_mail("mixed", &t);
	static const char *const codes[] = {"mime.skipped-part"};
	static const char *const dec[] = {"mime", "quoted-printable", "charset"};
	json_t *whole = parse(t.s, t.n, 0, 0, NULL);
	size_t nruns = json_array_size(member_at(whole, 0, "runs"));
	json_decref(whole);
	CHECK(nruns > 100);
	check_said(&t, codes, 1, dec, 3, nruns);
	crlf(&t);
	check_mail("mixed, CRLF", &t);
	free(t.s);
}

static void test_nested(void)
{
	struct buf t = {0};
	nested_mail(&t);
	check_mail("nested", &t);
	static const char *const codes[] = {"mime.skipped-part"};
	static const char *const dec[] = {"mime", "base64"};
	json_t *whole = parse(t.s, t.n, 0, 0, NULL);
	json_t *doc = json_array_get(whole, 0);
	size_t nruns = json_array_size(json_object_get(doc, "runs"));
	/* the plain text of the alternative, not its HTML */
	char *dump = json_dumps(doc, 0);
	CHECK(!strstr(dump, "\"html\""));
	free(dump);
	json_decref(whole);
	check_said(&t, codes, 1, dec, 2, nruns);
	free(t.s);
}

static void test_damaged(void)
{
	struct buf t = {0};
	damaged_mail(&t);
	check_mail("damaged", &t);
	static const char *const codes[] = {"mime.missing-boundary", "mime.no-boundary",
					    "mime.truncated", "mime.skipped-part"};
	/* three multiparts with no part of their own */
	CHECK(count_code(&t, "mime.missing-boundary") == 3);
	json_t *whole = parse(t.s, t.n, 0, 0, NULL);
	json_t *doc = json_array_get(whole, 0);
	size_t nruns = json_array_size(json_object_get(doc, "runs"));
	CHECK(json_is_true(json_object_get(doc, "partial")));
	json_decref(whole);
	check_said(&t, codes, 4, NULL, 0, nruns);
	free(t.s);
}

/* A mail whose body is one HTML page sent as is: read in windows, each
 * decoding the page from where the one before left it; a heading past
 * the first window names a mail that has no Subject, as a whole reading
 * does, and not one that has. */
static void test_html_mail(void)
{
	for (int named = 0; named < 2; named++) {
		struct buf t = {0};
		adds(&t, named ? HEAD : "From: ops@example.org\nMIME-Version: 1.0\n");
		adds(&t, "Content-Type: text/html; charset=utf-8\n"
			 "Content-Transfer-Encoding: 8bit\n\n<html><head><title>ignored</title>"
			 "</head><body>\n<!-- a comment of a few kilobytes:\n");
		runs_text(&t, 5, 0, false);
		adds(&t, "-->\n");
		/* the first heading past the first window */
		page_text(&t, 40, 50);
		adds(&t, "<h1>Pool numbers &amp; more</h1>\n");
		page_text(&t, 80, 100);
		adds(&t, "<h1>A later heading</h1>\n");
		page_text(&t, 40, 300);
		check_mail(named ? "html mail" : "html mail, no subject", &t);
		json_t *docs = parse(t.s, t.n, 16384, 4096, NULL);
		json_t *msg = json_object_get(member_at(docs, 0, "source"), "message");
		const char *subject = json_string_value(json_object_get(msg, "subject"));
		CHECK(subject && strcmp(subject, named ? "pool numbers, attached"
						       : "Pool numbers & more") == 0);
		json_decref(docs);
		free(t.s);
	}
}

struct from_body {
	struct docs d;
	size_t body; /* where the mail's body starts */
	bool before; /* a window past the first started before it */
};

static int each_from_body(struct bl_message *m, void *ctx)
{
	struct from_body *f = ctx;
	f->before |= m->window.index > 0 && m->raw_offset < f->body;
	return each(m, &f->d);
}

/* An HTML mail whose headers are long (a References field of
 * kilobytes): read whole past half a window, else in windows cut in its
 * body only, however its lines fall (a line of spans longer than a
 * window's half). */
static void test_html_long_headers(void)
{
	static const size_t heads[] = {5000, 5000, 5000, 14000, 20000},
			    lines[] = {1, 130, 220, 1, 1};
	for (size_t k = 0; k < 5; k++) {
		struct buf t = {0};
		adds(&t, HEAD);
		adds(&t, "References:");
		/* folded in lines of 150 bytes: read as a mail's headers */
		while (t.n < heads[k])
			adds(&t, " <20100302090000.GA12345.a-long-message-id-as-some-clients-make-"
				 "them.abcdefghijklmnopqrstuvwxyz.0123456789@mail.example.org>\n");
		adds(&t, "Content-Type: text/html\n\n");
		for (size_t i = 0; i < lines[k]; i++)
			adds(&t, "<p>Short lines first.</p>\n");
		/* shorter than unflatten.c's huge line, longer than a window */
		for (int i = 0; i < 1000; i++)
			adds(&t, "<span class=\"c\">word &amp; word</span> ");
		adds(&t, "\n");
		page_text(&t, 60, 0);
		/* the line of spans is cut where it may be: noted */
		size_t nwin;
		check_sources_runs_like_whole(t.s, t.n, 1, &nwin);
		CHECK(bl_detect_format(t.s, t.n) == BL_INPUT_EML);
		/* the page's windows start in its body, where its decoding
		 * starts, not in the headers before it */
		struct feed f = {t.s, t.n, 0, 65536, 100003};
		struct from_body fb = {
			{json_array(), NULL, 0}, (size_t)(strstr(t.s, "\n\n") - t.s) + 2, false};
		CHECK(bl_ingest_stream_window(bl_parser_ingest(), feed_read, &f, BL_INPUT_AUTO,
					      16384, 4096, each_from_body, &fb) == 0);
		CHECK(!fb.before);
		json_decref(fb.d.docs);
		bl_window_doc_free(fb.d.w);
		free(t.s);
	}
}

/* A mail of no Subject and an HTML part in windows: named by the part's
 * first <h1> past its <title>, as a whole reading names it; and a
 * comment never closed early in the part, said at its end. */
static void test_html_part(void)
{
	for (int comment = 0; comment < 2; comment++) {
		struct buf t = {0};
		adds(&t, "From: ops@example.org\nMIME-Version: 1.0\n"
			 "Content-Type: multipart/mixed; boundary=m\n\n--m\n\n");
		runs_text(&t, 5, 0, false);
		adds(&t, "--m\nContent-Type: text/html\n\n");
		if (comment)
			adds(&t, "<!-- never closed\n");
		page_text(&t, 30, 10);
		adds(&t, "<h1>Late &amp; heading</h1>\n");
		page_text(&t, 30, 50);
		adds(&t, "--m--\n");
		if (!comment) {
			check_mail("html part", &t);
		} else {
			/* the rest of the part hidden, its windows are cut where
			 * they may be (noted); the comment is said once */
			json_t *whole = parse(t.s, t.n, 0, 0, NULL);
			json_t *docs = parse(t.s, t.n, 16384, 4096, NULL);
			CHECK(json_array_size(member_at(whole, 0, "runs")) ==
			      json_array_size(member_at(docs, 0, "runs")));
			CHECK(count_code(&t, "html.unclosed-comment") == 1);
			json_decref(whole);
			json_decref(docs);
		}
		free(t.s);
	}
}

/* A nested multipart that closes before any part of its own, farther
 * than a window: what precedes its closing delimiter is passed over
 * (said so), what follows it is read as text, and the mail's parts after
 * it are read. */
static void test_closed_first_far(void)
{
	struct buf t = {0};
	adds(&t, HEAD);
	adds(&t, "Content-Type: multipart/mixed; boundary=top\n\n--top\n\n");
	runs_text(&t, 5, 0, false);
	adds(&t, "--top\nContent-Type: multipart/mixed; boundary=z\n\n");
	runs_text(&t, 400, 100, false);
	adds(&t, "--z--\nAfter it closed:\n");
	adds(&t, DD_BSD_RUN);
	adds(&t, "--top\n\n");
	runs_text(&t, 30, 9000, false);
	adds(&t, "--top--\n");
	json_t *whole = parse(t.s, t.n, 0, 0, NULL);
	json_t *docs = parse(t.s, t.n, 16384, 4096, NULL);
	json_t *wr = member_at(whole, 0, "runs");
	json_t *dr = member_at(docs, 0, "runs");
	CHECK(json_array_size(docs) == 1);
	/* the last runs, after the multipart, are the whole reading's */
	size_t nw = json_array_size(wr), nd = json_array_size(dr);
	CHECK(nd > 20 && nd < nw);
	for (size_t i = 1; i <= 20 && i <= nd; i++) {
		json_t *a = member_at(wr, nw - i, "span");
		json_t *b = member_at(dr, nd - i, "span");
		CHECK(json_equal(json_object_get(a, "offset"), json_object_get(b, "offset")));
	}
	CHECK(count_code(&t, "mime.missing-boundary") == 1);
	CHECK(count_code(&t, "mime.truncated") == 0);
	json_decref(whole);
	json_decref(docs);
	free(t.s);
}

static void test_prefix(void)
{
	struct buf t = {0};
	prefix_mail(&t);
	check_mail("prefix", &t);
	free(t.s);
}

/* Reads of up to a megabyte (each fill then drops what was passed
 * over), none across `stop` (a delimiter's first byte). */
struct stopping {
	const char *s;
	size_t len, pos, stop;
};

static long read_stopping(void *ctx, char *buf, size_t cap)
{
	struct stopping *f = ctx;
	size_t n = f->len - f->pos;
	n = n < cap ? n : cap;
	if (f->pos < f->stop && f->pos + n > f->stop)
		n = f->stop - f->pos;
	memcpy(buf, f->s + f->pos, n);
	f->pos += n;
	return (long)n;
}

/* An attachment of megabytes passed over, what was read ending once
 * right at the delimiter after it: the part's end is read before it (its
 * "\n" was dropped with the attachment, once). */
static void delimiter_at_read(size_t size)
{
	struct buf t = {0};
	adds(&t, HEAD);
	adds(&t, "Content-Type: multipart/mixed; boundary=b\n\n--b\n\n");
	runs_text(&t, 30, 0, false);
	adds(&t, "--b\nContent-Type: application/octet-stream\n"
		 "Content-Transfer-Encoding: base64\n\n");
	binary(&t, size);
	size_t stop = t.n;
	adds(&t, "--b\n\n");
	runs_text(&t, 30, 100, false);
	adds(&t, "--b--\n");
	json_t *whole = parse(t.s, t.n, 0, 0, NULL);
	for (size_t k = 0; k < 3; k++) {
		struct stopping f = {t.s, t.n, 0, stop - k};
		struct docs d = {json_array(), NULL, 0};
		CHECK(bl_ingest_stream_window(bl_parser_ingest(), read_stopping, &f, BL_INPUT_AUTO,
					      16384, 4096, each, &d) == 0);
		CHECK(d.windows > 4);
		CHECK(like_whole_parts(t.s, whole, d.docs));
		json_decref(d.docs);
		bl_window_doc_free(d.w);
	}
	json_decref(whole);
	free(t.s);
}

static void test_delimiter_at_read(void)
{
	/* attachments of sizes that make one of the drops fall there */
	for (size_t size = 1200000; size < 3000000; size += 300000)
		delimiter_at_read(size);
}

static void test_pages(void)
{
	struct buf t = {0};
	pages_mail(&t);
	check_mail("pages", &t);
	static const char *const codes[] = {"html.unclosed-comment"};
	static const char *const dec[] = {"mime", "html"};
	json_t *whole = parse(t.s, t.n, 0, 0, NULL);
	size_t nruns = json_array_size(member_at(whole, 0, "runs"));
	json_decref(whole);
	CHECK(nruns > 40);
	check_said(&t, codes, 1, dec, 2, nruns);
	free(t.s);
}

struct ahead {
	struct docs d;
	const struct feed *f;
	size_t most; /* the most input read past a window's first byte */
};

static int each_ahead(struct bl_message *m, void *ctx)
{
	struct ahead *a = ctx;
	if (a->f->pos - m->raw_offset > a->most)
		a->most = a->f->pos - m->raw_offset;
	return each(m, &a->d);
}

/* A long mail as a mail client sends it: an alternative of plain text
 * first, then HTML, and an attachment of megabytes: read part by part,
 * nothing is held. Read no further ahead of the window handed over than
 * a window, its context, a part's headers and a read (the alternative's
 * plain text is not held to find its end, nor the attachment). */
static void test_read_ahead(void)
{
	struct buf t = {0};
	adds(&t, HEAD);
	adds(&t, "Content-Type: multipart/mixed; boundary=m\n\n--m\n"
		 "Content-Type: multipart/alternative; boundary=a\n\n--a\n"
		 "Content-Type: text/plain; charset=utf-8\n\n");
	runs_text(&t, 600, 0, false);
	adds(&t, "--a\nContent-Type: text/html\n\n");
	page_text(&t, 50, 0);
	adds(&t, "--a--\n--m\nContent-Type: application/octet-stream\n"
		 "Content-Transfer-Encoding: base64\n\n");
	binary(&t, 1500000);
	adds(&t, "--m\nContent-Type: text/plain\n\n");
	runs_text(&t, 100, 2000, false);
	adds(&t, "--m--\n");
	struct feed f = {t.s, t.n, 0, 65536, 100003};
	struct ahead a = {{json_array(), NULL, 0}, &f, 0};
	CHECK(bl_ingest_stream_window(bl_parser_ingest(), feed_read, &f, BL_INPUT_AUTO, 16384, 4096,
				      each_ahead, &a) == 0);
	CHECK(a.d.windows > 40);
	if (a.most > 256 * 1024)
		printf("read %zu bytes past a window's start\n", a.most);
	CHECK(a.most <= 256 * 1024);
	json_t *whole = parse(t.s, t.n, 0, 0, NULL);
	CHECK(like_whole_parts(t.s, whole, a.d.docs));
	json_decref(whole);
	json_decref(a.d.docs);
	bl_window_doc_free(a.d.w);
	free(t.s);
}

int main(void)
{
	test_mixed();
	test_nested();
	test_damaged();
	test_prefix();
	test_html_mail();
	test_html_long_headers();
	test_html_part();
	test_closed_first_far();
	test_delimiter_at_read();
	test_pages();
	test_read_ahead();
	bl_cleanup();
	return CHECK_DONE();
}
