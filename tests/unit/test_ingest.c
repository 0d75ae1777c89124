/* test_ingest.c - the ingest decoders and their offset maps (ingest/). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../ingest/decode.h"
#include "../../ingest/ingest.h"
#include "../../ingest/unflatten.h"
#include "../../parsers/anchor.h"
#include "../../parsers/benchlog.h"
#include "../../parsers/system.h"
#include "../feed.h"
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
#define DECODE(out, raw, call)                                                                     \
	do {                                                                                       \
		struct bl_src in;                                                                  \
		reset(raw);                                                                        \
		bl_src_plain(&in, (raw), strlen(raw), 0);                                          \
		bl_tbuf_init(&(out));                                                              \
		call;                                                                              \
		bl_tbuf_reserve(&(out), 1);                                                        \
		(out).s[(out).len] = '\0';                                                         \
	} while (0)

/* s[0, n) followed by BL_TEXT_PAD zero bytes, as ingest gives a text to
 * the sites pass (caller frees). */
static char *padded(const char *s, size_t n)
{
	char *p = calloc(n + BL_TEXT_PAD, 1);
	if (p)
		memcpy(p, s, n);
	return p;
}

/* Whether the unflattener takes s for a flattened post; the same with its
 * literals searched and with the sites pass's (ingest's way). */
static bool detect(const char *s, size_t n)
{
	bl_unflatten_set_prefilter(false);
	bool searched = bl_unflatten_detect(s, n, NULL);
	bl_unflatten_set_prefilter(true);
	char *p = padded(s, n);
	struct bl_sites *st = p ? bl_sites_find(bl_parser_sites(), p, n) : NULL;
	CHECK(st != NULL);
	CHECK(searched == bl_unflatten_detect(p, n, st));
	bl_sites_free(st);
	free(p);
	return searched;
}

/* bl_unflatten with its literals searched and its prefilters off into
 * out; again with the sites of a padded copy and the prefilters on, which
 * must give the same text. */
static bool unflatten(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out)
{
	bl_unflatten_set_prefilter(false);
	bool changed = bl_unflatten(m, in, out, NULL);
	bl_unflatten_set_prefilter(true);
	char *p = padded(in->s, in->len);
	struct bl_sites *st = p ? bl_sites_find(bl_parser_sites(), p, in->len) : NULL;
	struct bl_message m2;
	struct bl_src in2;
	struct bl_tbuf o2;
	memset(&m2, 0, sizeof m2);
	bl_src_plain(&in2, p ? p : "", p ? in->len : 0, 0);
	bl_tbuf_init(&o2);
	CHECK(st != NULL);
	CHECK(bl_unflatten(&m2, &in2, &o2, st) == changed);
	CHECK(o2.len == out->len && (!o2.len || memcmp(o2.s, out->s, o2.len) == 0));
	bl_tbuf_free(&o2);
	bl_message_free(&m2);
	bl_sites_free(st);
	free(p);
	return changed;
}

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
	CHECK(origin(&o, 7) == 7); /* '=' from "=3D" */
	CHECK(origin(&o, 8) == 10); /* '/' after the escape */
	CHECK(origin(&o, 24) == 30); /* 'o' after the soft break */
	CHECK(msg.diags.n == 0);
	bl_tbuf_free(&o);
	DECODE(o, "to = test and =ZZ", bl_qp_decode(&msg, &in, &o, true));
	CHECK(strcmp(o.s, "to test and =ZZ") == 0);
	CHECK(msg.diags.n == 1 && strcmp(msg.diags.v[0].code, "qp.bad-escape") == 0 &&
	      msg.diags.v[0].offset == 14);
	bl_tbuf_free(&o);
	/* escapes one after another: one map segment of step 3, each byte
	 * from its '=' */
	DECODE(o, "=E6=BC=A2=E5=AD=97 ok", bl_qp_decode(&msg, &in, &o, false));
	CHECK(strcmp(o.s, "\xE6\xBC\xA2\xE5\xAD\x97 ok") == 0);
	for (size_t k = 0; k < 6; k++)
		CHECK(origin(&o, k) == 3 * k);
	CHECK(origin(&o, 6) == 18 && origin(&o, 8) == 20);
	CHECK(o.nsegs == 2 && o.segs[0].step == 2 && o.segs[1].step == 0);
	bl_tbuf_free(&o);
	CHECK(bl_qp_detect("dd if=3D/dev/zero of=3D/x bs=3D1m count=3D20\n", 44));
	CHECK(!bl_qp_detect("dd if=/dev/zero of=/x bs=1m count=2000\n", 39));
	CHECK(!bl_qp_detect("count=2000 count=2001 count=2002\n", 33));
}

#define DETECT(lit) bl_qp_detect((lit), sizeof(lit) - 1)

/* Headerless quoted-printable with nothing but soft breaks and a trailing
 * blank, as a table wider than 76 columns comes out of an encoder. */
static void test_qp_detect_tables(void)
{
	/* a zpool iostat header soft-broken at 76 columns */
	CHECK(DETECT("$ zpool iostat -v dr\n"
		     "                       capacity     operations     bandwidth    =\n"
		     "                latency\n"
		     "pool                 alloc   free   read  write   read  write   read  w=\n"
		     "rite\n"));
	/* one trailing blank, written "=20" at the line end */
	CHECK(DETECT("                       capacity     operations     bandwidth=20\n"
		     "pool                 alloc   free   read  write   read  write\n"));
	/* a bonnie row soft-broken once, and no other '=' */
	CHECK(DETECT("Machine   Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec=\n"
		     " %CP\n"));
	/* dd commands are not quoted-printable, even with a short line ending
	 * in '=' or a "count=20 " */
	CHECK(!DETECT("# dd if=/dev/zero of=/root/z bs=1M count=20 \n"
		      "200+0 records in\n200+0 records out\n"));
	CHECK(!DETECT("# dd if=/dev/zero of=/data/test.bin bs=1048576 count=4096 conv=fdatasync =\n"
		      "x\n"));
	/* a short line ending in '=' is not a soft break at the encoder's width */
	CHECK(!DETECT("export CFLAGS=\nmake\n"));
	/* an underline of '=' is not either, even 70 columns wide */
	CHECK(!DETECT("Results\n"
		      "======================================================================\n"
		      "text\n"));
	/* a line longer than 76 columns ending in '=' */
	CHECK(!DETECT("a very long line of prose that goes on and on past the width of any mail "
		      "encoder =\nnext\n"));
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

	/* lines of 76 characters, 57 bytes each: a map segment a line (and
	 * one more where a block of the input starts), each byte mapped
	 * onto the line it was decoded from */
	char body[20 * 77 + 1];
	for (size_t l = 0; l < 20; l++) {
		for (size_t q = 0; q < 19; q++)
			memcpy(body + l * 77 + q * 4, "QUFB", 4);
		body[l * 77 + 76] = '\n';
	}
	body[sizeof body - 1] = '\0';
	DECODE(o, body, bl_base64_decode(&msg, &in, &o));
	CHECK(o.len == 20 * 57 && o.nsegs <= 20 + sizeof body / BL_BASE64_BLOCK + 1);
	bool on_line = true;
	for (size_t k = 0; k < o.len; k++)
		on_line &= origin(&o, k) / 77 == k / 57;
	CHECK(on_line);
	bl_tbuf_free(&o);
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
	DECODE(o,
	       "ab\xff\xfe"
	       "cd",
	       changed = bl_utf8_repair(&msg, &in, &o));
	CHECK(changed && strcmp(o.s, "ab\xEF\xBF\xBD"
				     "cd") == 0);
	CHECK(origin(&o, 0) == 0 && origin(&o, 2) == 2 && origin(&o, 3) == 3 &&
	      origin(&o, 4) == 3 && origin(&o, 5) == 4 && origin(&o, 6) == 5);
	bl_tbuf_free(&o);
	/* a U+FFFD for the text's last byte maps inside the input, up to its
	 * end (nothing after it to clamp to: a fuzz_mime finding) */
	DECODE(o, "ab\xff", changed = bl_utf8_repair(&msg, &in, &o));
	CHECK(changed && o.len == 5 && origin(&o, 2) == 2 && origin(&o, 4) == 2 &&
	      origin(&o, 5) == 3);
	for (size_t i = 0; i < o.nsegs; i++)
		CHECK(o.segs[i].raw_off <= 3 && o.segs[i].text_off <= o.len);
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
	DECODE(o,
	       "a\xff"
	       "b",
	       bl_charset_to_utf8(&msg, &in, &o, "x-nonesuch"));
	CHECK(strcmp(o.s, "a\xEF\xBF\xBD"
			  "b") == 0);
	CHECK(msg.diags.n == 2); /* unknown charset, invalid byte */
	bl_tbuf_free(&o);
	const char *words = "=?ISO-8859-1?Q?R=E9sultats_dd?= =?UTF-8?B?w6k=?= (x)";
	char *s = bl_rfc2047_decode(words, strlen(words));
	CHECK(s && strcmp(s, "R\xC3\xA9sultats dd\xC3\xA9 (x)") == 0);
	free(s);
}

static int first_doc(struct bl_message *m, void *ctx);

/* raw[0, n), a text in UTF-16 or UTF-32 of order `order` (which its
 * start must tell), made UTF-8 into *o as the message `msg`'s text,
 * NUL-terminated. */
static void wide_text(const char *raw, size_t n, int order, struct bl_tbuf *o)
{
	struct bl_src in;
	reset("");
	msg.raw = raw;
	msg.raw_len = n;
	bl_src_plain(&in, raw, n, 0);
	bl_tbuf_init(o);
	CHECK(bl_wide_order(raw, n) == order);
	CHECK(bl_wide_to_utf8(&msg, &in, o, order));
	CHECK(bl_tbuf_reserve(o, 1));
	o->s[o->len] = '\0';
}

/* UTF-16 text (utf16.c): "A\r\n", U+1F600 as a surrogate pair, a lone
 * surrogate, U+0000 and an odd last byte; an exact map. */
static void test_utf16(void)
{
	static const char le[] = "\xFF\xFE"
				 "A\0\r\0\n\0"
				 "\x3D\xD8\x00\xDE"
				 "\x00\xD8x\0\0\0\n\0"
				 "\xE9\0\x42";
	struct bl_tbuf o;
	wide_text(le, sizeof le - 1, BL_UTF16_LE, &o);
	CHECK(strcmp(o.s, "A\r\n\xF0\x9F\x98\x80\xEF\xBF\xBDx\xEF\xBF\xBD\n\xC3\xA9\xEF\xBF\xBD") ==
	      0);
	/* every character maps to its first byte in the input: ASCII by a
	 * wide segment, "\r\n" to 4 and 6, the others each where it starts */
	static const size_t at[][2] = {{0, 2},   {1, 4},   {2, 6},   {3, 8},   {7, 12},
				       {10, 14}, {11, 16}, {14, 18}, {15, 20}, {17, 22}};
	for (size_t k = 0; k < sizeof at / sizeof at[0]; k++)
		CHECK(origin(&o, at[k][0]) == at[k][1]);
	/* inside a character: no further than its last byte */
	CHECK(origin(&o, 5) == 10 && origin(&o, 16) == 21);
	CHECK(o.segs[0].step == 1 && o.segs[1].step == 0);
	/* a later step's copy keeps the map: "\r\n" and what follows */
	struct bl_src from;
	struct bl_tbuf copy;
	bl_src_from_tbuf(&from, &o);
	bl_tbuf_init(&copy);
	bl_tbuf_copy(&copy, &from, 1, 10);
	CHECK(origin(&copy, 0) == 4 && origin(&copy, 1) == 6 && origin(&copy, 2) == 8 &&
	      origin(&copy, 9) == 14);
	bl_tbuf_free(&copy);
	CHECK(msg.diags.n == 1 && strstr(msg.diags.v[0].message, "3 characters"));
	bl_tbuf_free(&o);
	/* no mark: ASCII two bytes a character, either order; UTF-8 is not */
	CHECK(bl_wide_order("i\0o\0z\0o\0n\0e\0 \0-\0R\0\r\0\n\0", 22) == BL_UTF16_LE);
	CHECK(bl_wide_order("\0i\0o\0z\0o\0n\0e\0 \0-\0R\0\r\0\n", 22) == BL_UTF16_BE);
	CHECK(bl_wide_order("iozone -R -a -s 1g -r 64k\n", 26) == 0);
	CHECK(bl_wide_order("\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16) == 0);
	/* a file: its runs found */
	const char *post = "2097152000 bytes transferred in 67.255574 secs (31181832 bytes/sec)\n";
	char wide[256] = "\xFF\xFE";
	size_t n = 2;
	for (const char *p = post; *p; p++) {
		wide[n++] = *p;
		wide[n++] = '\0';
	}
	json_t *doc = NULL;
	CHECK(bl_ingest_buffer(bl_parser_ingest(), wide, n, first_doc, &doc) == 0);
	json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
	CHECK(run && strcmp(json_string_value(json_object_get(run, "tool")), "dd") == 0);
	json_decref(doc);
}

/* UTF-32 text (utf16.c): its marks and orders, U+1F600 in one unit, a
 * value past U+10FFFF and a cut last unit; an exact map; its lines. */
static void test_utf32(void)
{
	static const char le[] = "\xFF\xFE\0\0"
				 "A\0\0\0"
				 "\x00\xF6\x01\x00"
				 "\0\0\x11\0"
				 "\n\0\0\0"
				 "B\0";
	struct bl_tbuf o;
	struct bl_src in;
	wide_text(le, sizeof le - 1, BL_UTF32_LE, &o);
	CHECK(strcmp(o.s, "A\xF0\x9F\x98\x80\xEF\xBF\xBD\n\xEF\xBF\xBD") == 0);
	static const size_t at[][2] = {{0, 4}, {1, 8}, {5, 12}, {8, 16}, {9, 20}};
	for (size_t k = 0; k < sizeof at / sizeof at[0]; k++)
		CHECK(origin(&o, at[k][0]) == at[k][1]);
	CHECK(o.segs[0].step == 3);
	CHECK(msg.diags.n == 1 &&
	      strstr(msg.diags.v[0].message, "2 characters not text in UTF-32"));
	bl_tbuf_free(&o);
	/* one line break, a unit of four bytes: the line after it starts at 20 */
	msg.raw_wide = BL_UTF32_LE;
	CHECK(bl_message_raw_lines(&msg, 0, msg.raw_len) == 1);
	CHECK(bl_message_raw_line_start(&msg, 20) && !bl_message_raw_line_start(&msg, 17));
	CHECK(bl_raw_lines("\0\0\0\n\0\0\n\0", 8, BL_UTF32_BE) == 1);
	/* marks: UTF-32 before UTF-16, whose mark starts UTF-32LE's */
	CHECK(bl_wide_bom("\0\0\xFE\xFF", 4) == BL_UTF32_BE);
	CHECK(bl_wide_bom("\xFF\xFEi\0", 4) == BL_UTF16_LE);
	/* no mark: ASCII four bytes a character, either order */
	CHECK(bl_wide_order("i\0\0\0o\0\0\0z\0\0\0o\0\0\0\n\0\0\0", 20) == BL_UTF32_LE);
	CHECK(bl_wide_order("\0\0\0i\0\0\0o\0\0\0z\0\0\0o\0\0\0\n", 20) == BL_UTF32_BE);
	/* a mark of UTF-16 read as UTF-32 is a character, not skipped */
	reset("");
	bl_src_plain(&in, "\xFF\xFEi\0", 4, 0);
	bl_tbuf_init(&o);
	bl_wide_to_utf8(&msg, &in, &o, BL_UTF32_LE);
	CHECK(o.len == 3 && msg.diags.n == 1);
	bl_tbuf_free(&o);
}

static void test_headers(void)
{
	const char *raw =
		"From: A <a@b>\nSubject: =?utf-8?q?caf=C3=A9?=\nContent-Type: multipart/mixed;\n"
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
	const char *raw =
		"<html><script>x=\"2000+0 records in\"</script><p>a&nbsp;&nbsp;b &gt; c</p>"
		"<pre>  x\n  y</pre>d<br>e &amp;&#x41;</html>";
	DECODE(o, raw, bl_html_to_text(&msg, &in, &o));
	/* a paragraph then <pre>: a blank line between, as a browser shows it */
	CHECK(strcmp(o.s, "a  b > c\n\n  x\n  y\nd\ne &A\n") == 0);
	CHECK(origin(&o, 0) == (size_t)(strstr(raw, "a&nbsp") - raw));
	bl_tbuf_free(&o);
	CHECK(msg.subject == NULL);
	/* the page's <h1> names it (before its <title>), when no mail did */
	DECODE(o,
	       "<html><head><title>Archive</title></head><body><h1>Re: benchmarks</h1>"
	       "<pre>$ dd</pre></body></html>",
	       bl_html_to_text(&msg, &in, &o));
	CHECK(msg.subject && strcmp(msg.subject, "Re: benchmarks") == 0);
	bl_tbuf_free(&o);
	DECODE(o, "<title> ZFS on top of mirrors\n </title><p>text</p>",
	       bl_html_to_text(&msg, &in, &o));
	CHECK(msg.subject && strcmp(msg.subject, "ZFS on top of mirrors") == 0);
	bl_tbuf_free(&o);
	CHECK(bl_html_detect("  <!DOCTYPE html><html>", 23));
	CHECK(!bl_html_detect("2000+0 records in <b>", 21));
	char cs[32];
	CHECK(bl_html_meta_charset(
		      "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=Windows-1250\">",
		      73, cs, sizeof cs) &&
	      strcmp(cs, "windows-1250") == 0);
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
	/* dd's '\r'-separated progress, quoted again after each '\r' */
	raw = "> \r> 93 bytes copied, 1 s\r> 25 bytes\n> x\r>> y\nz\r> w\n";
	DECODE(o, raw, bl_quote_strip(&msg, &in, &o));
	CHECK(strcmp(o.s, "\r93 bytes copied, 1 s\r25 bytes\nx\r>> y\nz\r> w\n") == 0);
	bl_tbuf_to_message(&o, &msg);
	CHECK(bl_message_origin(&msg, 1) == 5); /* '9' after the second "> " */
	/* Supercite initials quote a block, nested under "> " too; a prompt
	 * that ends in '>' on a line of its own is no quote */
	raw = "ZC> Hi!\nZC>\nZC> 2+0 records in\n> JB> x\n> JB> y\nServer> show disk\nok\n";
	DECODE(o, raw, bl_quote_strip(&msg, &in, &o));
	CHECK(strcmp(o.s, "Hi!\n\n2+0 records in\nx\ny\nServer> show disk\nok\n") == 0);
	bl_tbuf_to_message(&o, &msg);
	CHECK(bl_message_quote_depth(&msg, 0) == 1);
	CHECK(bl_message_quote_depth(&msg, 20) == 2); /* "x" under "> JB> " */
	CHECK(bl_message_quote_depth(&msg, 24) == 0);
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
	const char *raw =
		"2097152000 bytes transferred in 67.255574 secs (31181832\nbytes/sec)\nnext\n";
	DECODE(o, raw, bl_rewrap(&msg, &in, &o, false, false));
	CHECK(strcmp(o.s,
		     "2097152000 bytes transferred in 67.255574 secs (31181832 bytes/sec)\nnext\n") ==
	      0);
	bl_tbuf_free(&o);
	/* nothing to join: false, and nothing written (no copy of the text) */
	bool joined = true;
	DECODE(o, "a short line\nbytes/sec)\n", joined = bl_rewrap(&msg, &in, &o, false, false));
	CHECK(!joined && o.len == 0);
	bl_tbuf_free(&o);
	/* lines to join among prose (passed without a look): an indented
	 * tool line, a dd command and its operands, a tool line at the end */
	DECODE(o,
	       "Some prose that runs on, 3 things, and more.\nA second line = of it\n"
	       "  2097152000 bytes transferred in 67.255574 secs (31181832\nbytes/sec)\n"
	       "prose again, with an = sign, and then\n"
	       "srebrny# dd if=/dev/zero of=/data01/a/very/long/path/test01\nbs=1m count=2000\n"
	       "x = y\nz\n"
	       "2097152000 bytes transferred in 67.255574 secs (31181832\nbytes/sec)",
	       joined = bl_rewrap(&msg, &in, &o, false, false));
	CHECK(joined &&
	      strcmp(o.s,
		     "Some prose that runs on, 3 things, and more.\nA second line = of it\n"
		     "  2097152000 bytes transferred in 67.255574 secs (31181832 bytes/sec)\n"
		     "prose again, with an = sign, and then\n"
		     "srebrny# dd if=/dev/zero of=/data01/a/very/long/path/test01 bs=1m count=2000\n"
		     "x = y\nz\n"
		     "2097152000 bytes transferred in 67.255574 secs (31181832 bytes/sec)") == 0);
	bl_tbuf_free(&o);
	DECODE(o, "para one \ncontinues\n> q \n> r\n", bl_flowed_decode(&msg, &in, &o, false));
	CHECK(strcmp(o.s, "para one continues\n> q r\n") == 0);
	bl_tbuf_free(&o);
	char flat[600];
	snprintf(
		flat, sizeof flat, "%s",
		"Some prose that goes on for a while. Then: # dd if=/dev/zero of=/x bs=1m "
		"count=2 2+0 records in 2+0 records out 2097152 bytes transferred in 0.5 secs (4194304 bytes/sec) "
		"and more text after it, long enough to make this a flattened line of more than two hundred and fifty "
		"characters in all.");
	DECODE(o, flat, unflatten(&msg, &in, &o));
	CHECK(o.len == strlen(flat));
	CHECK(strstr(o.s,
		     "\n# dd if=/dev/zero of=/x bs=1m count=2\n2+0 records in\n2+0 records out\n"
		     "2097152 bytes transferred in 0.5 secs (4194304 bytes/sec)\n") != NULL);
	bl_tbuf_free(&o);
}

/* Unflattens `flat` (the expected text with each '\n' made a blank) and
 * checks that the breaks come back where `want` has them. */
static bool unflattens_to(const char *want)
{
	char flat[2048];
	size_t n = strlen(want);
	if (n >= sizeof flat)
		return false;
	for (size_t i = 0; i <= n; i++)
		flat[i] = want[i] == '\n' ? ' ' : want[i];
	struct bl_tbuf o;
	bool detected = detect(flat, n);
	DECODE(o, flat, unflatten(&msg, &in, &o));
	bool ok = detected && o.len == n && strcmp(o.s, want) == 0;
	if (!strchr(want, '\n'))
		ok = o.len == 0; /* nothing to break: the text is left as it is */
	if (!ok)
		fprintf(stderr, "unflattened (detected %d):\n%s\n", detected, o.s);
	bl_tbuf_free(&o);
	return ok;
}

/* Tool lines that make a short line a flattened post, and those that
 * do not. */
static void test_unflatten_short(void)
{
	/* GNU dd, one byte, under UNFLATTEN_MIN bytes in all */
	CHECK(unflattens_to(
		"A single byte:\n $ dd bs=1 count=1 if=/dev/zero of=/tmp/x/g\n1+0 records in\n"
		"1+0 records out\n1 byte copied, 0.000116333 s, 8.6 kB/s"));
	/* Android's dd spells the seconds out, as the parser reads it */
	CHECK(unflattens_to(
		"On the phone:\n$ dd if=/dev/zero of=/sdcard/t bs=1048576 count=32\n"
		"33554432 bytes transferred in 3.184339 seconds (10537330 bytes/sec)\nok"));
	/* translated records and summary */
	CHECK(unflattens_to(
		"nas:~# dd if=/dev/zero of=/srv/t bs=1M count=2048\n2048+0 Datensätze ein\n"
		"2048+0 Datensätze aus\n2147483648 Bytes (2,1 GB, 2,0 GiB) kopiert, 14,2731 s, 150 MB/s"));
	CHECK(unflattens_to(
		"[user@old ~]$ dd if=/dev/zero of=/tmp/big bs=1M count=1024\n1024+0 записей получено\n"
		"1024+0 записей отправлено\n скопировано 1073741824 байт (1,1 GB), 6,93021 c, 155 MB/c"));
	/* busybox, and the indentation of the next line kept */
	CHECK(unflattens_to(
		"64+0 records out\n67108864 bytes (64.0MB) copied, 0.052498 seconds, 1.2GB/s\n"
		"    next"));
	/* pdksh's one-line time is one line, not three */
	CHECK(unflattens_to("2147483648 bytes transferred in 18.392 secs (116761192 bytes/sec)\n"
			    "    0m18.40s real     0m00.00s user     0m02.85s system\nafter"));
	/* GNU time's two lines */
	CHECK(unflattens_to(
		"1+0 records out\n0.00user 0.01system 0:00.01elapsed 83%CPU (0avgtext+0avgdata "
		"2772maxresident)k\n0inputs+65536outputs (0major+358minor)pagefaults 0swaps"));
	/* zsh: the times follow the command on its line */
	CHECK(unflattens_to(
		"% time dd if=/dev/zero of=x bs=1m count=100\n100+0 records in\n"
		"dd if=/dev/zero of=x bs=1m count=100  0.00s user 0.21s system 95% cpu 0.220 total\nnext"));
	/* a GNU summary cut after "copied" */
	CHECK(unflattens_to(
		"300+0 records out\n314572800 bytes (315 MB, 300 MiB) copied\n``` next"));
	/* csh's report, a tab or blanks after the percentage (tcsh) */
	CHECK(unflattens_to(
		"Ten keywords:\n% time ./crawl.sh google 300\n     0.396u 1.298s 0:31.91 5.2%\t0+0k 0+23472io 0pf+0w\n"
		"Good enough"));
	CHECK(unflattens_to(
		"Drive A to B:\n$ time cp 1GB.FILE /mnt/b/1GB.FILE\n0.032u 11.308s 0:17.56 64.5%    0+0k 0+0io 0pf+0w\n"
		"``` About 17.5 s"));
	/* zsh's fields padded, the job name given */
	CHECK(unflattens_to(
		"Building it:\n$ time make make  0.75s user  0.41s system  7% cpu  15.608 total\n"
		"``` so 16 s"));
	/* one zsh report in a short line, an empty line after it */
	CHECK(unflattens_to(
		"It ran for a minute:      java -cp x Main     0.48s user  0.07s system  0% cpu  1:00.25 total\n"
		" Half a second of CPU."));
	/* dd's progress updates stay on their line (its first '\r' is lost
	 * when the lines are joined) */
	CHECK(unflattens_to(
		"$ dd if=/dev/zero of=/tmp/b bs=1M count=3 status=progress\n"
		"9332 bytes (9 kB) copied, 1 s, 9 kB/s\r25711 bytes (25 kB) copied, 2 s, 13 kB/s\n"
		"3+0 records in"));
	/* patterns found by the same byte: a ')' and a '+' of prose before
	 * the tool line, csh's "0+0k" (a '+' that is not dd's) before its
	 * "0pf+" */
	CHECK(unflattens_to(
		"Drive A (1+x) to B:\n$ time cp 1GB.FILE /mnt/b/1GB.FILE\n0.032u 11.308s 0:17.56 64.5%    "
		"0+0k 0+0io 0pf+0w\n``` About 17.5 s"));
	CHECK(unflattens_to(
		"Two (2) runs:\n2147483648 bytes transferred in 18.392 secs (116761192 bytes/sec)\n"
		"    0m18.40s real     0m00.00s user     0m02.85s system\nafter"));
	/* prose that mentions one tool line is not a flattened post */
	const char *prose = "Counting 10+0 records in the table above was a mistake.\n";
	CHECK(!detect(prose, strlen(prose)));
	/* a zsh report with a note after one blank is a line of its own */
	const char *note =
		"reading, no parsing:  0.45s user  0.99s system 124% cpu  1.164 total (idle reference)\n";
	CHECK(!detect(note, strlen(note)));
	const char *lines =
		"$ dd if=/dev/zero of=/x bs=1m count=1\n1+0 records in\n1+0 records out\n";
	CHECK(!detect(lines, strlen(lines)));
	/* a tool line alone on its line, blanks or a '\r' around it (its
	 * three ", " are three literals of the sites pass): none; one with
	 * another tool line or words after it: a flattened post */
	static const char *const alone[] = {
		"536870912 bytes (537 MB, 512 MiB) copied, 3.81952 s, 141 MB/s\n",
		"   536870912 bytes (537 MB, 512 MiB) copied, 3.81952 s, 141 MB/s   \nnext\n",
		"536870912 bytes (537 MB, 512 MiB) copied, 3.81952 s, 141 MB/s\r\n",
		"536870912 bytes (537 MB, 512 MiB) copied, 3.81952 s, 141 MB/s \r\n",
		"\t1+0 records in\t\n"};
	for (size_t k = 0; k < sizeof alone / sizeof *alone; k++)
		CHECK(!detect(alone[k], strlen(alone[k])));
	static const char *const two[] = {
		"536870912 bytes (537 MB, 512 MiB) copied, 3.81952 s, 141 MB/s 1+0 records in\n",
		"Run: $ dd if=/dev/zero of=/x bs=1m count=1 536870912 bytes (537 MB, 512 MiB) copied, 3.8 s, 141 MB/s\n",
		"1+0 records in 1+0 records out\n"};
	for (size_t k = 0; k < sizeof two / sizeof *two; k++)
		CHECK(detect(two[k], strlen(two[k])));
	/* a bonnie++ CSV row is a long line without a word weak_re needs;
	 * a diskinfo row in a flattened post has them */
	CHECK(unflattens_to(
		"Results:\n1.98,2.00a,ANDREW-PC,1,1731168315,63G,,8192,5,540,99,745124,100,980550,91,2205,"
		"99,1203968,58,+++++,+++,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
		"16366us,5650us,12027us,4465us,1806us,478us,586us,404us,3818us,3324us,837us,3156us\n"
		"$ dd if=/dev/zero of=/x bs=1m count=1\n1+0 records in"));
	/* long lines where one word alone lets weak_re, weak_end_re or
	 * start_re run: the breaks are those found without the prefilters */
	static const char *const only[] = {"Excel output is below:",
					   "Seek times:",
					   "Tue Mar 5 14:02:16 2024",
					   "\"Writer report\"",
					   "\"64\" 1149134 3526006",
					   "capacity operations bandwidth",
					   "tank total_wait disk_wait",
					   "latency read write",
					   "512 # sectorsize",
					   "time to read 10MB block",
					   "--------Sequential Output",
					   "-Per Chr- --Block-- -Rewrite-",
					   "-Create-- --Read--- -Delete-- -Create--",
					   "Latency 12345us",
					   "random random bkwd record stride",
					   "= 19.927 msec",
					   "srebrny# dd if=/dev/zero",
					   "x$ dd bs=1",
					   "x% zpool iostat",
					   "a> zpool list",
					   "dd: error writing",
					   "*** (mirror hdd, eli) zfs:"};
	for (size_t k = 0; k < sizeof only / sizeof *only; k++) {
		char line[600];
		int w = snprintf(line, sizeof line, "words of a post %s and more words after it",
				 only[k]);
		while (w > 0 && (size_t)w < 400)
			w += snprintf(line + w, sizeof line - (size_t)w, " more");
		struct bl_tbuf o;
		DECODE(o, line, unflatten(&msg, &in, &o));
		bl_tbuf_free(&o);
	}
	CHECK(unflattens_to(
		"# diskinfo -t ada1\nSeek times:\n\tFull stroke:\t  250 iter in   4.401227 sec =   17.605 msec\n"
		"\tHalf stroke:\t  250 iter in   3.250118 sec =   13.000 msec\nand that is all of it, "
		"written out in words long enough to make this line a long one for sure."));
}

/* Tables in a flattened post: rows cut at the width of a zpool rule,
 * tab-separated rows, headers. */
static void test_unflatten_tables(void)
{
	CHECK(unflattens_to("Watching both pools while the scrub runs, every five seconds:\n"
			    "root@fbsd:~ # zpool iostat -T d 5 3\n"
			    "Tue Mar  5 14:02:11 2024\n"
			    "              capacity     operations     bandwidth\n"
			    "pool        alloc   free   read  write   read  write\n"
			    "----------  -----  -----  -----  -----  -----  -----\n"
			    "tank         900G  1.12T    100    300    12M    40M\n"
			    "  mirror-0   900G  1.12T    100    300    12M    40M\n"
			    "    ada1        -      -     50    150     6M    20M\n"
			    "----------  -----  -----  -----  -----  -----  -----\n"
			    "Tue Mar  5 14:02:16 2024\n"
			    "tank         901G  1.12T    107    311  13.0M  41.0M\n"
			    "----------  -----  -----  -----  -----  -----  -----\n"
			    "and the text after it, not cut."));
	/* a rule whose rows do not fit is left alone */
	CHECK(unflattens_to(
		"A table of my own that is not zpool's, and a long line of prose around it "
		"so that the line counts as flattened in the first place, which needs "
		"two hundred and fifty bytes in all: -----  ----  ------ a b c d e f g h "
		"i j k l m n o p q r s t u v w x y z and so on."));
	/* zpool iostat -H: tabs between fields, an empty line between two rows */
	CHECK(unflattens_to("The collection script runs this every five minutes and greps it:\n"
			    "$ zpool iostat -Hv\n"
			    "tank\t2.01T\t2.99T\t310\t1.18K\t41.0M\t151M\n"
			    "raidz1-0\t2.01T\t2.97T\t310\t1.07K\t41.0M\t140M\n"
			    "ada1\t-\t-\t104\t367\t13.7M\t46.0M\n"
			    "\n"
			    "ada4p1\t300M\t19.7G\t0\t110\t0\t11.0M\n"
			    "Tabs between the fields, no header."));
	/* iozone: the preamble's tab-led lines, rows found by the columns of
	 * "kB" and "reclen" (the header line's trailing blanks kept) */
	CHECK(unflattens_to(
		"Operations per second on the old array, 8k records, direct I/O:\n"
		"# iozone -i0 -i1 -O -s2g -r8k -f /export/iozone.tmp\n"
		"\tIozone: Performance Test of File I/O\n"
		"\tRecord Size 8 KB\n"
		"                                                            random  random    bkwd   record   stride\n"
		"              KB  reclen   write rewrite    read    reread    read   write\n"
		"         2097152       8     452    1626      732      740    1776    1627\n"
		"         2097152      16     904    3252     1464     1480    3552    3254\n"
		"            4096      64     805    1390     3296     3604    1234    5678\n"
		"iozone test complete."));
	/* two cells that happen to line up with "kB" and "reclen" (102858 is
	 * no record length) stay in their row */
	CHECK(unflattens_to("Before the update, on the same pool, with the same file size:\n"
			    "    KB  reclen   write rewrite    read    reread    read   write\n"
			    "262144       4   78206  102858   255676   169557  115634   50844\n"
			    "262144      64  118094  117850   138111   148853  145103   62908\n"
			    "After the update: much the same, as the table shows."));
	/* iozone rows whose indentation a wiki turned into tabs, each row's
	 * line padded with tabs after it: a row starts where its file size
	 * ends at column 16, as "kB" does, tab stops of 8 */
	CHECK(unflattens_to(
		"Only the table, from a wiki page that turned the spaces into tabs, sorry:\n"
		"\t\t\t\t\t      random\trandom\t   bkwd\n\t\t\t\t       \n"
		"\t      kB  reclen    write  rewrite    read    reread\n"
		"\t   65536     128  2697436  2845504  1422101  2888368\n\t\t\t      \n"
		"\t   65536    1024  5510768  3191317  3442577  2518511\n\t\t\t\t      "
		"Numbers are kB/s."));
	/* iozone's table retyped with single blanks: rows by their file size
	 * and record length, each pair after the one above, as many cells in
	 * each row as in the first; "1024 512" inside a row starts none */
	CHECK(unflattens_to(
		"A forum squeezed the runs of spaces, so the columns are gone:\n"
		"kB reclen write rewrite read reread read write read rewrite read fwrite\n"
		"16384 4 573741 645072 677116 765470\n"
		"16384 64 2414771 1024 512 1797650\n"
		"32768 4 2414771 2825231 815261 1797650\n"
		" And a second box with more memory, the same test and the same file size."));
	/* zpool iostat under a rule that an editor cut to "---": the rows by
	 * their cells (a name and six values, bold or not), a note after a
	 * row kept on its line */
	CHECK(unflattens_to(
		"The resilver, as the editor left it after eating the dashes of the rule:\n"
		"                  capacity     operations     bandwidth\n"
		"    pool        alloc   free   read  write   read  write\n"
		"    ---\n"
		"    tank        5.12T  2.13T  **1.60K**    311   **199M**  38.1M\n"
		"      mirror-0  2.56T  1.07T    406     72  50.6M  4.51M\n"
		"        ada1        -      -      0     71      0  4.50M  <-- the new disk\n"
		"        ada2        -      -    203     36  25.3M  2.26M\n"
		"    ---\n"
		"And then it calmed down."));
	/* the cut rule's indentation is not looked for before the text */
	char cut[300];
	snprintf(
		cut, sizeof cut, "%s",
		"pool        alloc   free   read  write   read  write     ---     "
		"tank        5.12T  2.13T    812    144   101M  9.02M and some prose after it so that the line "
		"is long enough to be read as a flattened post of its own, well over two hundred and fifty bytes.");
	struct bl_tbuf co;
	DECODE(co, cut, unflatten(&msg, &in, &co));
	CHECK(co.len == 0 || co.len == strlen(cut));
	bl_tbuf_free(&co);
	/* iozone's header and rows wrapped at 72 columns by a mail client:
	 * each first line ends where the header's does, within a column or
	 * two, and the rest follows after one blank */
	CHECK(unflattens_to(
		"My mail client folds long lines, sorry about the table below, it is the default run:\n"
		"              kB  reclen    write  rewrite    read    reread    read\n"
		"write     read   rewrite      read   fwrite frewrite    fread  freread\n"
		"             512       4  1652186  1167693   931090  1168372  1488884\n"
		"559885  1876783    510922   1553612  1690001   504040  1608037  1003370\n"
		"             512     512 14588749  8440113 13600174 13465011 12489350\n"
		"12117824 13279610   8465695  12609305  7462352  9951075 13402431 12444227\n"
		"iozone test complete."));
	/* iozone -R */
	CHECK(unflattens_to(
		"I only kept the spreadsheet part of the output (iozone -a -g 256k -R):\n"
		" Excel output is below:\n"
		" \"Writer report\"\n"
		"        \"4\"  \"8\"  \"16\"\n"
		"\"64\"   1149134  3526006  1698432\n"
		" \"128\"   3050294  2490748  2673568\n"
		" \"Throughput report Y-axis is type of test X-axis is number of processes\"\n"
		"\"Record size = 64 kBytes \"\n"
		" \"  Initial write \"  812345.25   1402553.50\n"
		"The rest looked the same."));
	/* bonnie: rows cut at the header's width, one that overflows its
	 * columns ends before the next name */
	CHECK(unflattens_to(
		"Second machine, same pool moved over, with the same test as above:\n"
		" # bonnie -d /home/dslab/data -s 4096 -m zfs\n"
		"              -------Sequential Output-------- ---Sequential Input-- --Random--\n"
		"              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n"
		"Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU\n"
		"zfs      4096 79500 44.1 106960 20.8 60252 12.9 155730 70.2 170719 13.6 121.5  0.5\n"
		"zfs      4096 78294 42.9 108320 20.8 58735 13.0 145792 64.4 167522 13.2 118.4  0.5\n"
		"The older box with the same disks, for comparison."));
	/* bonnie++: latency lines between the rows, the file table, CSV */
	CHECK(unflattens_to(
		"Two passes with -x 2 pasted into one table (the second row has no name):\n"
		" Version  1.97       ------Sequential Output------ --Sequential Input- --Random-\n"
		"Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
		"Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
		"db-replica-07.ex 8G   702  97 98011  14 40321   6  1533  96 120455   9 402.1   5\n"
		"Latency             12043us     301ms     512ms    9822us   88310us     410ms\n"
		"                      699  97 97345  14 41002   6  1529  96 119800   9 398.7   5\n"
		"Latency             11987us     298ms     530ms   10201us   90122us     395ms\n"
		"                    ------Sequential Create------ --------Random Create--------\n"
		"                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
		"files:max:min        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
		"raid5            16  5011  18 +++++ +++  4712  14  5230  19 +++++ +++  3901  12\n"
		"1.97,1.97,srv,1,1389000000,8G,,702,97,98011,14,40321,6,1533,96,120455,9,402.1,5\n"
		"1.97,1.97,srv,1,1389000000,8G,,699,97,97345,14,41002,6,1529,96,119800,9,398.7,5\n"
		"That is all."));
	/* bonnie++ 1.02 rows whose machine names hold a blank */
	CHECK(unflattens_to(
		"Runs on the diskless boxes, all of them with an NFS root and the same kernel:\n"
		"Machine    Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP /sec %CP\n"
		"box (v2)   300M  4054  57  5121   2  3549   3  5942  91 10195   3 442.2   4\n"
		"box (v3+)  300M  5965  82  7861   3  2739   2  5437  82  9316   3 675.5   6\n"
		"That is all."));
	/* a bonnie++ header whose machine column was cut away */
	CHECK(unflattens_to(
		"Roughly the same on both kernels, so I only kept one of the two tables here:\n"
		"      -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
		" Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
		"2512M 14348  81 49495  26 24438  16 16040  96 55006  15 373.7   1\n"
		"One disk."));
	/* bonnie: a disk's model written over "Machine" */
	CHECK(unflattens_to(
		"The SCSI disk should leave the old IDE one far behind, but it does not here:\n"
		"ST318451LW MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU\n"
		"SCSI      200 21544 96.8 51367 51.4 11141 16.3 17729 58.2 40968 40.4 602.9  5.4\n"
		"IDE       200  3884 72.8  4513 86.0  1781 36.4  3144 89.9  4052 95.3 131.5  0.9\n"
		"Odd."));
	/* GNU time -v keeps its tab-led fields whole */
	CHECK(unflattens_to(
		"$ /usr/bin/time -v dd if=/dev/zero of=/tmp/f bs=1M count=16\n16+0 records in\n"
		"16+0 records out\n16777216 bytes (17 MB, 16 MiB) copied, 0.00798285 s, 2.1 GB/s\n"
		"\tCommand being timed: \"dd if=/dev/zero of=/tmp/f bs=1M count=16\"\n"
		"\tUser time (seconds): 0.00\n"
		"\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:00.01\n"
		"\tExit status: 0"));
}

struct count {
	size_t n;
	size_t with_sites; /* messages handed over with the sites of their text */
	size_t off[8];
	char subj[8][32];
};

static int collect(struct bl_message *m, void *ctx)
{
	struct count *c = ctx;
	c->with_sites += m->sites && m->sites->len == m->len;
	if (c->n < 8) {
		c->off[c->n] = m->raw_offset;
		snprintf(c->subj[c->n], sizeof c->subj[0], "%s", m->subject ? m->subject : "");
	}
	c->n++;
	return 0;
}

static void test_mbox(void)
{
	const char *mbox = "From a@x Mon Jan 11 10:00:00 2010\nSubject: one\nFrom: a@x\n\n"
			   "From here on it is body.\n>From quoted\n\n"
			   "From b@x Mon Jan 11 11:00:00 2010\nSubject: two\nFrom: b@x\n\nx\n";
	CHECK(bl_detect_format(mbox, strlen(mbox)) == BL_INPUT_MBOX);
	CHECK(bl_mbox_is_separator("From b@x Mon Jan 11 11:00:00 2010", 33));
	CHECK(!bl_mbox_is_separator("From here on it is body.", 24));
	/* the separator line that is framing, and the quoted ones to unquote */
	const char *first = "From a@x Mon Jan 11 10:00:00 2010\n";
	CHECK(bl_mbox_separator_len(mbox, strlen(mbox)) == strlen(first));
	CHECK(bl_mbox_separator_len("Subject: one\n\nx\n", 16) == 0);
	CHECK(bl_mbox_separator_len(first, strlen(first) - 1) == 0); /* no newline yet */
	size_t q = bl_mbox_next_quoted(mbox, strlen(mbox), strlen(first));
	CHECK(q == (size_t)(strstr(mbox, ">From quoted") - mbox));
	CHECK(bl_mbox_next_quoted(mbox, strlen(mbox), q + 1) == strlen(mbox));
	const char *deep = "x\n>>From y\n";
	CHECK(bl_mbox_next_quoted(deep, strlen(deep), 0) == 2);
	const char *mid = "a >From y\n>Fro";
	CHECK(bl_mbox_next_quoted(mid, strlen(mid), 0) ==
	      strlen(mid)); /* not at a line start; cut */
	CHECK(bl_mbox_next_quoted(">From z\n", 8, 0) == 0);
	struct count whole = {0}, streamed = {0};
	bl_ingest_buffer(bl_parser_ingest(), mbox, strlen(mbox), collect, &whole);
	struct feed f = {mbox, strlen(mbox), 0, 1, 1}; /* a byte a read */
	CHECK(bl_ingest_stream(bl_parser_ingest(), feed_read, &f, BL_INPUT_AUTO, collect,
			       &streamed) == 0);
	CHECK(whole.n == 2 && streamed.n == 2);
	CHECK(whole.with_sites == 2 && streamed.with_sites == 2);
	CHECK(whole.off[1] == (size_t)(strstr(mbox, "From b@x") - mbox));
	CHECK(streamed.off[1] == whole.off[1]);
	CHECK(strcmp(streamed.subj[0], "one") == 0 && strcmp(streamed.subj[1], "two") == 0);
	/* past the first 64 KiB read, with separators cut by chunk ends */
	size_t nmsg = 1500, cap = nmsg * 200, len = 0;
	char *big = malloc(cap);
	for (size_t i = 0; i < nmsg; i++)
		len += (size_t)snprintf(
			big + len, cap - len,
			"From n@x Mon Jan 11 10:%02zu:00 2010\nSubject: %zu\nFrom: n@x\n\n"
			"From the body, line %zu.\n\n",
			i % 60, i, i);
	for (size_t step = 1; step < 5000; step = step * 13 + 2) {
		struct count c = {0};
		struct feed g = {big, len, 0, step, 1021};
		CHECK(bl_ingest_stream(bl_parser_ingest(), feed_read, &g, BL_INPUT_AUTO, collect,
				       &c) == 0);
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
	const char *mbox =
		"From a@x Mon Jan 11 10:00:00 2010\nSubject: r\nFrom: a@x\n"
		"Content-Transfer-Encoding: quoted-printable\n\n"
		"> # dd if=3D/dev/zero of=3D/x bs=3D1m count=3D2\n> 2+0 records in\n> 2+0 records out\n"
		"> 2097152 bytes transferred in 0.5 secs (4194304 bytes/sec)\n";
	json_t *doc = NULL;
	bl_ingest_buffer(bl_parser_ingest(), mbox, strlen(mbox), first_doc, &doc);
	CHECK(doc != NULL);
	json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
	CHECK(run != NULL);
	json_t *span = json_object_get(run, "span");
	size_t off = (size_t)json_integer_value(json_object_get(span, "offset"));
	CHECK(off == (size_t)(strstr(mbox, "# dd") - mbox));
	CHECK(json_integer_value(json_object_get(span, "line")) == 6);
	CHECK(json_integer_value(json_object_get(run, "quote_depth")) == 1);
	CHECK(strcmp(json_string_value(json_object_get(run, "command")),
		     "dd if=/dev/zero of=/x bs=1m count=2") == 0);
	json_t *dec = json_object_get(json_object_get(doc, "source"), "decoding");
	CHECK(json_array_size(dec) == 3 &&
	      strcmp(json_string_value(json_array_get(dec, 1)), "quoted-printable") == 0);
	json_decref(doc);
}

static void test_system(void)
{
	const char *raw =
		"CPU: Intel(R) Core(TM)2 Duo CPU E8400 @ 3.00GHz (3000.01-MHz K8-class CPU)\n"
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
	CHECK(json_integer_value(json_object_get(json_array_get(json_object_get(s, "memory"), 0),
						 "bytes")) == 2147483648LL);
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
	const char *unit =
		"word word word # dd if=/dev/zero of=/x bs=1m count=2 2+0 records in 2+0 records out "
		"2097152 bytes transferred in 0.5 secs (4194304 bytes/sec) more prose here. ";
	size_t ul = strlen(unit), reps = 20000;
	char *big = malloc(ul * reps + 1);
	for (size_t i = 0; i < reps; i++)
		memcpy(big + i * ul, unit, ul);
	big[ul * reps] = '\0';
	clock_t t0 = clock();
	size_t runs = 0;
	bl_ingest_buffer(bl_parser_ingest(), big, ul * reps, count_runs, &runs);
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
	bl_ingest_buffer(bl_parser_ingest(), big, n, count_runs, &runs);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	CHECK(runs == 0);
	CHECK(secs < 30);
	printf("anchor storm: %zu bytes in %.2f s\n", n, secs);
	free(big);
}

/* The unflattener knows a tool's lines from the tool's descriptor alone:
 * without csh time's shapes in the plan its report is not broken out of
 * a flattened line, with them it is; without any plan nothing is. */
static void test_unflatten_shapes_from_descriptors(void)
{
	const char *want = "Ten keywords:\n% time ./crawl.sh google 300\n"
			   "     0.396u 1.298s 0:31.91 5.2%\t0+0k 0+23472io 0pf+0w\nGood enough";
	const struct bl_ingest_plan *all = bl_parser_ingest();
	const struct bl_tool_shapes *tools[64];
	struct bl_ingest_plan no_time = *all;
	CHECK(all->ntools <= 64);
	for (size_t t = 0; t < all->ntools && t < 64; t++)
		tools[t] = all->tools[t] == bl_parser_find("time")->shapes ? NULL : all->tools[t];
	no_time.tools = tools;
	CHECK(bl_shapes_use(&no_time));
	CHECK(!unflattens_to(want));
	CHECK(bl_shapes_use(all));
	const char *two = "x 0.396u 1.298s 0:31.91 5.2%\t0+0k 0+23472io 0pf+0w "
			  "y 0.396u 1.298s 0:31.91 5.2%\t0+0k 0+23472io 0pf+0w";
	CHECK(detect(two, strlen(two)));
	CHECK(bl_shapes_use(NULL));
	CHECK(!detect(two, strlen(two)));
	CHECK(bl_shapes_use(all));
	CHECK(unflattens_to(want));
}

/* "=3D" left in text that is not quoted-printable: made '=' before a
 * blank, a digit or a '/', left before a letter */
static void test_qp_stray(void)
{
	struct bl_tbuf o;
	bool any = false;
	DECODE(o, "> 64 MB in 5.63 seconds =3D 11.37 MB/sec\ndd if=3D/dev/zero bs=3D1M x=3Dy\n",
	       any = bl_qp_stray(&msg, &in, &o));
	CHECK(any &&
	      strcmp(o.s,
		     "> 64 MB in 5.63 seconds = 11.37 MB/sec\ndd if=/dev/zero bs=1M x=3Dy\n") == 0);
	CHECK(origin(&o, 24) == 24 && origin(&o, 26) == 28);
	bl_tbuf_free(&o);
	DECODE(o, "no escapes here, x=3Dy\n", any = bl_qp_stray(&msg, &in, &o));
	CHECK(!any);
	bl_tbuf_free(&o);
}

/* HTML regions of a text post: a run of lines ending in <br/> is decoded
 * on its own, the text around it kept as it is (&nbsp; included); two
 * such lines are not a region. */
static void test_html_regions(void)
{
	struct bl_tbuf o;
	bool any = false;
	const char *raw =
		"text &nbsp; kept\n<div>\na<br/>\nb &amp; c<br/>\n&nbsp;d<br/></div>\nafter\n";
	DECODE(o, raw, any = bl_html_regions(&msg, &in, &o));
	CHECK(any && strstr(o.s, "text &nbsp; kept\n") == o.s);
	CHECK(strstr(o.s, "a\nb & c\n") && strstr(o.s, "d\n") && !strstr(o.s, "<br"));
	CHECK(strstr(o.s, "\nafter\n"));
	bl_tbuf_free(&o);
	DECODE(o, "one<br>\ntwo<br>\nthree\n", any = bl_html_regions(&msg, &in, &o));
	CHECK(!any);
	bl_tbuf_free(&o);
}

/* A byte put one step on from a segment of one byte makes it of that
 * step, and keeps its origin even when the next segment starts there
 * (an HTML blank given the origin of the word after it); the lines of a
 * UTF-16 message stop at its last byte, an odd one 0A too. */
static void test_map_steps(void)
{
	struct bl_tbuf b;
	bl_tbuf_init(&b);
	bl_tbuf_putc(&b, 'a', 3);
	bl_tbuf_putc(&b, ' ', 5);
	bl_tbuf_put(&b, "b", 1, 5);
	CHECK(b.segs[0].step == 1);
	CHECK(origin(&b, 0) == 3 && origin(&b, 1) == 5 && origin(&b, 2) == 5);
	bl_tbuf_free(&b);
	static const char odd[] = "\xFF\xFE"
				  "a\0\n\0"
				  "b\0\n";
	struct bl_message u;
	memset(&u, 0, sizeof u);
	u.raw = odd;
	u.raw_len = sizeof odd - 1;
	u.raw_wide = BL_UTF16_LE;
	CHECK(bl_message_raw_lines(&u, 0, u.raw_len) == 1);
	CHECK(bl_message_raw_lines(&u, 3, 7) == 1 && bl_message_raw_lines(&u, 7, 9) == 0);
	CHECK(bl_message_raw_line_start(&u, 6) && !bl_message_raw_line_start(&u, 8));
}

/* The map's raw offsets are 30 bits: an origin past 1 GB of one message
 * (read whole) fails the text, as running out of memory does, and is
 * never kept wrapped. */
static void test_map_limits(void)
{
	struct bl_tbuf b;
	bl_tbuf_init(&b);
	bl_tbuf_put(&b, "ab", 2, 7);
	/* U+FFFD for the byte before the last that fits, then an empty
	 * segment at the last */
	bl_tbuf_put_at(&b, "\xEF\xBF\xBD", 3, BL_SEG_RAW_MAX - 1);
	CHECK(!b.failed && b.nsegs == 3 && b.segs[2].raw_off == BL_SEG_RAW_MAX);
	struct bl_src s;
	bl_src_from_tbuf(&s, &b);
	CHECK(bl_src_origin(&s, 1) == 8 && bl_src_origin(&s, 2) == BL_SEG_RAW_MAX - 1 &&
	      bl_src_origin(&s, 5) == BL_SEG_RAW_MAX);
	bl_tbuf_put_at(&b, "\xEF\xBF\xBD", 3, BL_SEG_RAW_MAX + 1);
	CHECK(b.failed);
	bl_tbuf_free(&b);
}

/* Each message's runs and step-failed diagnostics; its text must be
 * valid UTF-8, padded, whatever step failed. */
struct failed_count {
	size_t docs, runs, failed;
};

static int count_failed(struct bl_message *m, void *ctx)
{
	struct failed_count *c = ctx;
	CHECK(m->text && bl_utf8_valid(m->text, m->len));
	for (size_t k = 0; m->text && k < BL_TEXT_PAD; k++)
		CHECK(m->text[m->len + k] == 0);
	json_t *d = bl_parse_message(m, "t"), *x;
	size_t i;
	c->docs++;
	c->runs += json_array_size(json_object_get(d, "runs"));
	json_array_foreach(json_object_get(d, "diagnostics"), i, x) c->failed +=
		strcmp(json_string_value(json_object_get(x, "code")), "ingest.step-failed") == 0;
	json_decref(d);
	return 0;
}

/* A mail whose decoding failed does not stop the mails after it (an
 * mbox read in place, padded or not), and the bytes kept are made valid
 * UTF-8 before any pattern reads them (Latin-1, UTF-16). */
static void test_step_failed_goes_on(void)
{
	static const char mbox[] =
		"From a@x Mon Jan 11 10:00:00 2010\nFrom: a@x\n"
		"Content-Transfer-Encoding: quoted-printable\n"
		"Content-Type: text/plain; charset=iso-8859-1\n\n"
		"caf\xE9 =E9t=E9 1024000 bytes transferred in 1.5 secs (682666 bytes/sec)\n"
		"a long line of prose, and more of it, and more of it, and more of it, and more,\n"
		"a long line of prose, and more of it, and more of it, and more of it, and more,\n"
		"a long line of prose, and more of it, and more of it, and more of it, and more,\n\n"
		"From b@x Mon Jan 11 10:01:00 2010\nFrom: b@x\n\n"
		"2097152000 bytes transferred in 35.290738 secs (59417943 bytes/sec)\n";
	for (int streamed = 0; streamed < 2; streamed++) {
		struct failed_count c = {0, 0, 0};
		struct feed f = {mbox, sizeof mbox - 1, 0, 64, 0};
		/* the first mail's text is over the limit, the second's not */
		bl_tbuf_set_max(250);
		int rc = streamed ? bl_ingest_stream(bl_parser_ingest(), feed_read, &f,
						     BL_INPUT_AUTO, count_failed, &c)
				  : bl_ingest_buffer(bl_parser_ingest(), mbox, sizeof mbox - 1,
						     count_failed, &c);
		bl_tbuf_set_max(0);
		CHECK(rc == 0 && c.docs == 2 && c.failed >= 1 && c.runs >= 1);
	}
	/* UTF-16 that cannot be decoded: no text, never its NUL bytes */
	static char wide[256];
	const char *post = "2097152000 bytes transferred in 35.290738 secs (59417943 bytes/sec)\n";
	size_t n = 0;
	wide[n++] = '\xFF';
	wide[n++] = '\xFE';
	for (const char *p = post; *p; p++) {
		wide[n++] = *p;
		wide[n++] = '\0';
	}
	struct failed_count c = {0, 0, 0};
	bl_tbuf_set_max(80);
	CHECK(bl_ingest_one(bl_parser_ingest(), wide, n, 0, 1, 0, BL_INPUT_TEXT, true, count_failed,
			    &c) == 0);
	bl_tbuf_set_max(0);
	CHECK(c.docs == 1 && c.failed >= 1);
}

/* A mail whose decoding cannot be made (its text past the size limit,
 * here lowered): the raw text is read and a diagnostic says why. */
static void test_step_failed(void)
{
	const char *eml =
		"Subject: r\nFrom: a@x\nContent-Transfer-Encoding: quoted-printable\n\n"
		"2097152000 bytes transferred in 67.255574 secs (31181832 byte=\ns/sec)\n";
	/* the mail in place, padded as a file read whole is */
	static char padded[512];
	CHECK(strlen(eml) + BL_TEXT_PAD < sizeof padded);
	memcpy(padded, eml, strlen(eml));
	bl_tbuf_set_max(40);
	json_t *doc = NULL;
	CHECK(bl_ingest_one(bl_parser_ingest(), padded, strlen(eml), 0, 1, 0, BL_INPUT_EML, true,
			    first_doc, &doc) == 0);
	bl_tbuf_set_max(0);
	CHECK(json_array_size(json_object_get(json_object_get(doc, "source"), "decoding")) == 0);
	json_t *d, *diags = json_object_get(doc, "diagnostics");
	size_t i, failed = 0;
	json_array_foreach(diags, i, d)
	{
		const char *code = json_string_value(json_object_get(d, "code"));
		const char *text = json_string_value(json_object_get(d, "message"));
		if (code && strcmp(code, "ingest.step-failed") == 0) {
			failed++;
			CHECK(text && strstr(text, "over 1 GB"));
		}
	}
	CHECK(failed > 0);
	json_decref(doc);
	/* the same mail within the limit: decoded, no such diagnostic */
	doc = NULL;
	CHECK(bl_ingest_buffer(bl_parser_ingest(), eml, strlen(eml), first_doc, &doc) == 0);
	json_array_foreach(json_object_get(doc, "diagnostics"), i, d)
		CHECK(strcmp(json_string_value(json_object_get(d, "code")), "ingest.step-failed"));
	json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
	CHECK(run && strcmp(json_string_value(json_object_get(run, "tool")), "dd") == 0);
	json_decref(doc);
	test_step_failed_goes_on();
}

/* A line's break is the blank just before the mail quote markers that
 * start it, however deep; the blanks before that end the line above. */
static void test_break_before_quote(void)
{
	static const struct {
		const char *s, *line, *at; /* the text, its tool line, the break */
	} cases[] = {
		{"K/sec %CP    > > freebsd.javaforu 2G   430", "freebsd", " > > f"},
		{"in detail: >> 4000+0 records in", "4000", " >> 4"},
		/* an empty quoted line between: its marker stays apart */
		{"wrote: >  > 4000+0 records in", "4000", " > 4"},
		/* a comparison in prose is no marker: the break is just before
		 * the line */
		{"a > b and 4000+0 records in", "4000", " 4000"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *s = cases[i].s;
		size_t at = 0;
		CHECK(bl_break_before(s, (size_t)(strstr(s, cases[i].line) - s), &at));
		CHECK(at == (size_t)(strstr(s, cases[i].at) - s));
	}
}

int main(void)
{
	test_break_before_quote();
	test_map_steps();
	test_map_limits();
	/* the tools' shapes, as ingest is handed them */
	CHECK(bl_shapes_use(bl_parser_ingest()));
	test_step_failed();
	test_qp();
	test_html_regions();
	test_qp_stray();
	test_unflatten_shapes_from_descriptors();
	test_qp_detect_tables();
	test_base64();
	test_charset();
	test_utf16();
	test_utf32();
	test_headers();
	test_html();
	test_quote();
	test_rewrap_unflatten();
	test_unflatten_short();
	test_unflatten_tables();
	test_mbox();
	test_end_to_end();
	test_system();
	test_long_line();
	bl_message_free(&msg);
	bl_cleanup();
	return CHECK_DONE();
}
