/* test_ingest.c - the ingest decoders and their offset maps (ingest/). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../ingest/decode.h"
#include "../../ingest/ingest.h"
#include "../../parsers/benchlog.h"
#include "../../parsers/system.h"
#include "check.h"

static struct bl_message msg;

static void reset(const char *raw)
{
	bl_message_free(&msg);
	memset(&msg, 0, sizeof msg);
	msg.raw = raw;
	msg.raw_len = strlen(raw);
	msg.raw_line = 1;
}

/* Runs decoder `fn` over a plain string; returns the output (caller frees). */
#define DECODE(out, raw, call)                                  \
	do {                                                    \
		struct bl_src in;                               \
		reset(raw);                                     \
		bl_src_plain(&in, (raw), strlen(raw), 0);       \
		bl_tbuf_init(&(out));                           \
		call;                                           \
		bl_tbuf_reserve(&(out), 1);                     \
		(out).s[(out).len] = '\0';                      \
	} while (0)

static size_t origin(const struct bl_tbuf *b, size_t off)
{
	struct bl_src s;
	bl_src_from_tbuf(&s, b);
	return bl_src_origin(&s, off);
}

static void test_qp(void)
{
	struct bl_tbuf o;
	const char *raw = "# dd if=3D/dev/zero bs=3D1M =\nok=20\n";
	DECODE(o, raw, bl_qp_decode(&msg, &in, &o, false));
	CHECK(strcmp(o.s, "# dd if=/dev/zero bs=1M ok \n") == 0);
	CHECK(origin(&o, 7) == 7);   /* '=' from "=3D" */
	CHECK(origin(&o, 8) == 10);  /* '/' after the escape */
	CHECK(origin(&o, 24) == 30); /* 'o' after the soft break */
	CHECK(msg.diags.n == 0);
	bl_tbuf_free(&o);
	DECODE(o, "to = test and =ZZ", bl_qp_decode(&msg, &in, &o, true));
	CHECK(strcmp(o.s, "to test and =ZZ") == 0);
	CHECK(msg.diags.n == 1 && strcmp(msg.diags.v[0].code, "qp.bad-escape") == 0 &&
	      msg.diags.v[0].offset == 14);
	bl_tbuf_free(&o);
	CHECK(bl_qp_detect("dd if=3D/dev/zero of=3D/x bs=3D1m count=3D20\n", 44));
	CHECK(!bl_qp_detect("dd if=/dev/zero of=/x bs=1m count=2000\n", 39));
	CHECK(!bl_qp_detect("count=2000 count=2001 count=2002\n", 33));
}

static void test_base64(void)
{
	struct bl_tbuf o;
	DECODE(o, "aGVs\nbG8=\n", bl_base64_decode(&msg, &in, &o));
	CHECK(strcmp(o.s, "hello") == 0);
	CHECK(origin(&o, 0) == 0 && origin(&o, 3) == 5);
	CHECK(msg.diags.n == 0);
	bl_tbuf_free(&o);
	DECODE(o, "aG*Vs\nbG8", bl_base64_decode(&msg, &in, &o));
	CHECK(strncmp(o.s, "hel", 3) == 0);
	CHECK(msg.diags.n == 1 && strcmp(msg.diags.v[0].code, "base64.bad-char") == 0 &&
	      msg.diags.v[0].offset == 2);
	bl_tbuf_free(&o);
	unsigned char buf[8];
	CHECK(bl_base64_decode_plain("w6k=", 4, buf) == 2 && buf[0] == 0xC3 && buf[1] == 0xA9);
}

static void test_charset(void)
{
	struct bl_tbuf o;
	/* the pipeline's repair writes nothing for valid text, and the text
	 * with U+FFFD, mapped back, otherwise */
	bool changed = true;
	DECODE(o, "valid \xC3\xA9 text\n", changed = bl_utf8_repair(&msg, &in, &o));
	CHECK(!changed && o.len == 0);
	bl_tbuf_free(&o);
	DECODE(o, "ab\xff\xfe" "cd", changed = bl_utf8_repair(&msg, &in, &o));
	CHECK(changed && strcmp(o.s, "ab\xEF\xBF\xBD" "cd") == 0);
	CHECK(origin(&o, 0) == 0 && origin(&o, 2) == 2 && origin(&o, 3) == 3 && origin(&o, 4) == 3 &&
	      origin(&o, 5) == 4 && origin(&o, 6) == 5);
	bl_tbuf_free(&o);
	DECODE(o, "caf\xe9 ok", bl_charset_to_utf8(&msg, &in, &o, "iso-8859-1"));
	CHECK(strcmp(o.s, "caf\xC3\xA9 ok") == 0);
	CHECK(origin(&o, 3) == 3 && origin(&o, 4) == 3 && origin(&o, 5) == 4);
	bl_tbuf_free(&o);
	/* KOI8-R "Тест" */
	DECODE(o, "\xf4\xc5\xd3\xd4", bl_charset_to_utf8(&msg, &in, &o, "koi8-r"));
	CHECK(strcmp(o.s, "\xD0\xA2\xD0\xB5\xD1\x81\xD1\x82") == 0);
	bl_tbuf_free(&o);
	/* Big5 "測試": two bytes each, the second below 0x80 for some characters */
	DECODE(o, "\xb4\xfa\xb8\xd5 x", bl_charset_to_utf8(&msg, &in, &o, "big5"));
	CHECK(strcmp(o.s, "\xE6\xB8\xAC\xE8\xA9\xA6 x") == 0);
	CHECK(origin(&o, 3) == 2 && origin(&o, 6) == 4);
	bl_tbuf_free(&o);
	/* ISO-2022-JP is stateful: the shift survives characters fed one by one */
	DECODE(o, "\x1b$B0\"\x1b(B x", bl_charset_to_utf8(&msg, &in, &o, "iso-2022-jp"));
	CHECK(strcmp(o.s, "\xE5\x94\x96 x") == 0);
	CHECK(origin(&o, 0) == 3);
	bl_tbuf_free(&o);
	DECODE(o, "a\xff" "b", bl_charset_to_utf8(&msg, &in, &o, "x-nonesuch"));
	CHECK(strcmp(o.s, "a\xEF\xBF\xBD" "b") == 0);
	CHECK(msg.diags.n == 2); /* unknown charset, invalid byte */
	bl_tbuf_free(&o);
	const char *words = "=?ISO-8859-1?Q?R=E9sultats_dd?= =?UTF-8?B?w6k=?= (x)";
	char *s = bl_rfc2047_decode(words, strlen(words));
	CHECK(s && strcmp(s, "R\xC3\xA9sultats dd\xC3\xA9 (x)") == 0);
	free(s);
}

static void test_headers(void)
{
	const char *raw = "From: A <a@b>\nSubject: =?utf-8?q?caf=C3=A9?=\nContent-Type: multipart/mixed;\n"
			  "\tboundary=\"xyz\"; charset=ISO-8859-2\nContent-Transfer-Encoding: Base64\n\nbody\n";
	struct bl_src in;
	struct bl_headers h;
	bl_src_plain(&in, raw, strlen(raw), 0);
	bl_headers_parse(&in, &h);
	CHECK(strcmp(h.type, "multipart/mixed") == 0);
	CHECK(strcmp(h.boundary, "xyz") == 0);
	CHECK(strcmp(h.charset, "iso-8859-2") == 0);
	CHECK(strcmp(h.encoding, "base64") == 0);
	CHECK(h.subject && strcmp(h.subject, "caf\xC3\xA9") == 0);
	CHECK(h.has_body && strcmp(raw + h.body, "body\n") == 0);
	bl_headers_free(&h);
	CHECK(bl_headers_detect(raw, strlen(raw)));
	CHECK(!bl_headers_detect("Note: this is prose\nand more\n\n", 30));
}

static void test_html(void)
{
	struct bl_tbuf o;
	const char *raw = "<html><script>x=\"2000+0 records in\"</script><p>a&nbsp;&nbsp;b &gt; c</p>"
			  "<pre>  x\n  y</pre>d<br>e &amp;&#x41;</html>";
	DECODE(o, raw, bl_html_to_text(&msg, &in, &o));
	/* a paragraph then <pre>: a blank line between, as a browser shows it */
	CHECK(strcmp(o.s, "a  b > c\n\n  x\n  y\nd\ne &A\n") == 0);
	CHECK(origin(&o, 0) == (size_t)(strstr(raw, "a&nbsp") - raw));
	bl_tbuf_free(&o);
	CHECK(bl_html_detect("  <!DOCTYPE html><html>", 23));
	CHECK(!bl_html_detect("2000+0 records in <b>", 21));
	char cs[32];
	CHECK(bl_html_meta_charset("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=Windows-1250\">",
				   73, cs, sizeof cs) && strcmp(cs, "windows-1250") == 0);
}

static void test_quote(void)
{
	struct bl_tbuf o;
	const char *raw = "> a\n>> b\n> > c\n| d\n| e | f |\nplain\n";
	DECODE(o, raw, bl_quote_strip(&msg, &in, &o));
	CHECK(strcmp(o.s, "a\nb\nc\nd\n| e | f |\nplain\n") == 0);
	bl_tbuf_to_message(&o, &msg);
	CHECK(bl_message_quote_depth(&msg, 0) == 1);
	CHECK(bl_message_quote_depth(&msg, 2) == 2);
	CHECK(bl_message_quote_depth(&msg, 4) == 2);
	CHECK(bl_message_quote_depth(&msg, 6) == 1);
	CHECK(bl_message_quote_depth(&msg, 8) == 0);
	CHECK(bl_message_origin(&msg, 2) == 7);
	/* unquoted lines before the first quote are kept, with their map */
	bool any = false;
	DECODE(o, "plain\n> q\nmore\n", any = bl_quote_strip(&msg, &in, &o));
	CHECK(any && strcmp(o.s, "plain\nq\nmore\n") == 0);
	CHECK(origin(&o, 0) == 0 && origin(&o, 6) == 8 && origin(&o, 8) == 10);
	bl_tbuf_free(&o);
	/* nothing quoted: false, and no copy written */
	any = true;
	DECODE(o, "no quotes here\nnone\n", any = bl_quote_strip(&msg, &in, &o));
	CHECK(!any && o.len == 0);
	bl_tbuf_free(&o);
}

static void test_rewrap_unflatten(void)
{
	struct bl_tbuf o;
	const char *raw = "2097152000 bytes transferred in 67.255574 secs (31181832\nbytes/sec)\nnext\n";
	DECODE(o, raw, bl_rewrap(&msg, &in, &o, false, false));
	CHECK(strcmp(o.s, "2097152000 bytes transferred in 67.255574 secs (31181832 bytes/sec)\nnext\n") == 0);
	bl_tbuf_free(&o);
	/* nothing to join: false, and nothing written (no copy of the text) */
	bool joined = true;
	DECODE(o, "a short line\nbytes/sec)\n", joined = bl_rewrap(&msg, &in, &o, false, false));
	CHECK(!joined && o.len == 0);
	bl_tbuf_free(&o);
	DECODE(o, "para one \ncontinues\n> q \n> r\n", bl_flowed_decode(&msg, &in, &o, false));
	CHECK(strcmp(o.s, "para one continues\n> q r\n") == 0);
	bl_tbuf_free(&o);
	char flat[600];
	snprintf(flat, sizeof flat, "%s", "Some prose that goes on for a while. Then: # dd if=/dev/zero of=/x bs=1m "
		 "count=2 2+0 records in 2+0 records out 2097152 bytes transferred in 0.5 secs (4194304 bytes/sec) "
		 "and more text after it, long enough to make this a flattened line of more than two hundred and fifty "
		 "characters in all.");
	DECODE(o, flat, bl_unflatten(&msg, &in, &o));
	CHECK(o.len == strlen(flat));
	CHECK(strstr(o.s, "\n# dd if=/dev/zero of=/x bs=1m count=2\n2+0 records in\n2+0 records out\n"
			  "2097152 bytes transferred in 0.5 secs (4194304 bytes/sec)\n") != NULL);
	bl_tbuf_free(&o);
}

struct count {
	size_t n;
	size_t off[8];
	char subj[8][32];
};

static int collect(struct bl_message *m, void *ctx)
{
	struct count *c = ctx;
	if (c->n < 8) {
		c->off[c->n] = m->raw_offset;
		snprintf(c->subj[c->n], sizeof c->subj[0], "%s", m->subject ? m->subject : "");
	}
	c->n++;
	return 0;
}

struct feed {
	const char *s;
	size_t len, pos, step;
};

/* Uneven chunks: 1, 8, 57, ... bytes, so separators fall across reads. */
static long uneven(void *ctx, char *buf, size_t cap)
{
	struct feed *f = ctx;
	size_t n = f->len - f->pos;
	if (n > f->step)
		n = f->step;
	if (n > cap)
		n = cap;
	memcpy(buf, f->s + f->pos, n);
	f->pos += n;
	f->step = f->step * 7 % 1021 + 1;
	return (long)n;
}

static long one_byte(void *ctx, char *buf, size_t cap)
{
	struct feed *f = ctx;
	if (f->pos >= f->len || !cap)
		return 0;
	buf[0] = f->s[f->pos++];
	return 1;
}

static void test_mbox(void)
{
	const char *mbox = "From a@x Mon Jan 11 10:00:00 2010\nSubject: one\nFrom: a@x\n\n"
			   "From here on it is body.\n>From quoted\n\n"
			   "From b@x Mon Jan 11 11:00:00 2010\nSubject: two\nFrom: b@x\n\nx\n";
	CHECK(bl_detect_format(mbox, strlen(mbox)) == BL_INPUT_MBOX);
	CHECK(bl_mbox_is_separator("From b@x Mon Jan 11 11:00:00 2010", 33));
	CHECK(!bl_mbox_is_separator("From here on it is body.", 24));
	struct count whole = {0}, streamed = {0};
	bl_ingest_buffer(mbox, strlen(mbox), collect, &whole);
	struct feed f = {mbox, strlen(mbox), 0, 1};
	CHECK(bl_ingest_stream(one_byte, &f, BL_INPUT_AUTO, collect, &streamed) == 0);
	CHECK(whole.n == 2 && streamed.n == 2);
	CHECK(whole.off[1] == (size_t)(strstr(mbox, "From b@x") - mbox));
	CHECK(streamed.off[1] == whole.off[1]);
	CHECK(strcmp(streamed.subj[0], "one") == 0 && strcmp(streamed.subj[1], "two") == 0);
	/* past the first 64 KiB read, with separators cut by chunk ends */
	size_t nmsg = 1500, cap = nmsg * 200, len = 0;
	char *big = malloc(cap);
	for (size_t i = 0; i < nmsg; i++)
		len += (size_t)snprintf(big + len, cap - len,
					"From n@x Mon Jan 11 10:%02zu:00 2010\nSubject: %zu\nFrom: n@x\n\n"
					"From the body, line %zu.\n\n",
					i % 60, i, i);
	for (size_t step = 1; step < 5000; step = step * 13 + 2) {
		struct count c = {0};
		struct feed g = {big, len, 0, step};
		CHECK(bl_ingest_stream(uneven, &g, BL_INPUT_AUTO, collect, &c) == 0);
		CHECK(c.n == nmsg);
	}
	free(big);
	CHECK(bl_detect_format("Subject: x\nFrom: y\n\nbody", 24) == BL_INPUT_EML);
	CHECK(bl_detect_format("<html><body>x", 13) == BL_INPUT_HTML);
	CHECK(bl_detect_format("2000+0 records in\n", 18) == BL_INPUT_TEXT);
	enum bl_input_format fmt;
	CHECK(bl_input_format_parse("qp", &fmt) && fmt == BL_INPUT_QP);
	CHECK(!bl_input_format_parse("pdf", &fmt));
}

static int first_doc(struct bl_message *m, void *ctx)
{
	json_t **out = ctx;
	if (!*out)
		*out = bl_parse_message(m, "t");
	return 0;
}

/* The whole path: an mbox message with a QP body quoted in a reply; the
 * run's span must point at the original bytes. */
static void test_end_to_end(void)
{
	const char *mbox = "From a@x Mon Jan 11 10:00:00 2010\nSubject: r\nFrom: a@x\n"
			   "Content-Transfer-Encoding: quoted-printable\n\n"
			   "> # dd if=3D/dev/zero of=3D/x bs=3D1m count=3D2\n> 2+0 records in\n> 2+0 records out\n"
			   "> 2097152 bytes transferred in 0.5 secs (4194304 bytes/sec)\n";
	json_t *doc = NULL;
	bl_ingest_buffer(mbox, strlen(mbox), first_doc, &doc);
	CHECK(doc != NULL);
	json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
	CHECK(run != NULL);
	json_t *span = json_object_get(run, "span");
	size_t off = (size_t)json_integer_value(json_object_get(span, "offset"));
	CHECK(off == (size_t)(strstr(mbox, "# dd") - mbox));
	CHECK(json_integer_value(json_object_get(span, "line")) == 6);
	CHECK(json_integer_value(json_object_get(run, "quote_depth")) == 1);
	CHECK(strcmp(json_string_value(json_object_get(run, "command")), "dd if=/dev/zero of=/x bs=1m count=2") == 0);
	json_t *dec = json_object_get(json_object_get(doc, "source"), "decoding");
	CHECK(json_array_size(dec) == 3 &&
	      strcmp(json_string_value(json_array_get(dec, 1)), "quoted-printable") == 0);
	json_decref(doc);
}

static void test_system(void)
{
	const char *raw = "CPU: Intel(R) Core(TM)2 Duo CPU E8400 @ 3.00GHz (3000.01-MHz K8-class CPU)\n"
			  "real memory  = 2147483648 (2048 MB)\n"
			  "ada0: <WDC WD15EARS-00Z5B1 80.00A80> ATA-8 SATA 2.x device\n"
			  "FreeBSD 8.0-RELEASE #0: Sat Nov 21 15:02:08 UTC 2009\n"
			  "vfs.zfs.arc_max: 104857600\n"
			  "and prose: x = 1\n";
	struct bl_message m;
	bl_message_from_text(&m, raw, strlen(raw), 0, 1);
	json_t *s = bl_system_extract(&m);
	CHECK(s != NULL);
	CHECK(json_array_size(json_object_get(s, "cpu")) == 1);
	CHECK(json_integer_value(json_object_get(json_array_get(json_object_get(s, "memory"), 0), "bytes")) ==
	      2147483648LL);
	json_t *disk = json_array_get(json_object_get(s, "disks"), 0);
	CHECK(disk && strcmp(json_string_value(json_object_get(disk, "device")), "ada0") == 0);
	json_t *os = json_array_get(json_object_get(s, "os"), 0);
	CHECK(os && strcmp(json_string_value(json_object_get(os, "release")), "8.0-RELEASE") == 0);
	json_t *t = json_array_get(json_object_get(s, "tunables"), 0);
	CHECK(t && json_integer_value(json_object_get(t, "number")) == 104857600 &&
	      strcmp(json_string_value(json_object_get(t, "file")), "sysctl") == 0);
	CHECK(json_array_size(json_object_get(s, "tunables")) == 1);
	json_decref(s);
	bl_message_free(&m);
}

static int count_runs(struct bl_message *m, void *ctx)
{
	json_t *d = bl_parse_message(m, "t");
	*(size_t *)ctx += json_array_size(json_object_get(d, "runs"));
	json_decref(d);
	return 0;
}

/* A long single line of prose with runs in it: decoded and scanned in
 * time proportional to its length (a quadratic step would take minutes). */
static void test_long_line(void)
{
	const char *unit = "word word word # dd if=/dev/zero of=/x bs=1m count=2 2+0 records in 2+0 records out "
			   "2097152 bytes transferred in 0.5 secs (4194304 bytes/sec) more prose here. ";
	size_t ul = strlen(unit), reps = 20000;
	char *big = malloc(ul * reps + 1);
	for (size_t i = 0; i < reps; i++)
		memcpy(big + i * ul, unit, ul);
	big[ul * reps] = '\0';
	clock_t t0 = clock();
	size_t runs = 0;
	bl_ingest_buffer(big, ul * reps, count_runs, &runs);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	CHECK(runs == reps);
	CHECK(secs < 60);
	printf("long line: %zu bytes, %zu runs in %.2f s\n", ul * reps, runs, secs);
	/* an anchor every 5 bytes and no tool line: each used to cost a read
	 * of the whole line (quadratic); wrapped, it is linear */
	size_t n = 2 << 20;
	for (size_t i = 0; i < n; i++)
		big[i] = "1+1 a"[i % 5];
	t0 = clock();
	runs = 0;
	bl_ingest_buffer(big, n, count_runs, &runs);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	CHECK(runs == 0);
	CHECK(secs < 30);
	printf("anchor storm: %zu bytes in %.2f s\n", n, secs);
	free(big);
}

int main(void)
{
	test_qp();
	test_base64();
	test_charset();
	test_headers();
	test_html();
	test_quote();
	test_rewrap_unflatten();
	test_mbox();
	test_end_to_end();
	test_system();
	test_long_line();
	bl_message_free(&msg);
	bl_cleanup();
	return CHECK_DONE();
}
