/* png.c - PNG output: cairo draws into an image surface, and this file
 * encodes it (zlib, "Up" filter): cairo 1.16's own
 * writer takes ten times longer on a tall chart and writes no text chunks.
 * The provenance goes in as text chunks after IHDR: tEXt for ASCII text,
 * iTXt (UTF-8) otherwise. Keywords: Title, Software, Source, Comment (the
 * commands). */
#include <cairo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "internal.h"

static uint32_t crc_table[256];

static void crc_init(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[n] = c;
	}
}

static uint32_t crc_update(uint32_t c, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return c;
}

static void be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static bool is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/* Writes one text chunk. Returns 0 or -1. */
static int text_chunk(bl_write_fn write, void *ctx, const char *key, const char *text)
{
	bool ascii = is_ascii(text);
	size_t klen = strlen(key), tlen = strlen(text);
	/* iTXt: keyword NUL, compression flag, method, language NUL, translated keyword NUL */
	size_t dlen = klen + 1 + (ascii ? 0 : 4) + tlen;
	if (dlen > 0x7fffffff)
		return -1;
	unsigned char *chunk = malloc(dlen + 12);
	if (!chunk)
		return -1;
	be32(chunk, (uint32_t)dlen);
	memcpy(chunk + 4, ascii ? "tEXt" : "iTXt", 4);
	unsigned char *d = chunk + 8;
	memcpy(d, key, klen);
	d += klen;
	*d++ = 0;
	if (!ascii) {
		*d++ = 0; /* not compressed */
		*d++ = 0; /* method */
		*d++ = 0; /* language: empty */
		*d++ = 0; /* translated keyword: empty */
	}
	memcpy(d, text, tlen);
	uint32_t crc = crc_update(0xffffffffu, chunk + 4, dlen + 4) ^ 0xffffffffu;
	be32(chunk + 8 + dlen, crc);
	int r = write(ctx, chunk, dlen + 12);
	free(chunk);
	return r;
}

static int chunk(bl_write_fn write, void *ctx, const char *type, const unsigned char *data,
		 size_t len)
{
	unsigned char head[8], tail[4];
	be32(head, (uint32_t)len);
	memcpy(head + 4, type, 4);
	uint32_t crc = crc_update(0xffffffffu, head + 4, 4);
	crc = crc_update(crc, data, len) ^ 0xffffffffu;
	be32(tail, crc);
	if (write(ctx, head, 8) != 0 || (len && write(ctx, data, len) != 0))
		return -1;
	return write(ctx, tail, 4);
}

/* The RGB rows of an RGB24 surface, each with filter "Up" (the difference
 * to the row above: charts repeat rows, so most bytes become zero),
 * deflated into out (level 1: as small as level 6 on charts, and
 * several times faster). */
static int deflate_rows(cairo_surface_t *s, struct bl_membuf *out)
{
	int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
	int stride = cairo_image_surface_get_stride(s);
	const unsigned char *px = cairo_image_surface_get_data(s);
	size_t rowlen = (size_t)w * 3 + 1;
	unsigned char *row = malloc(rowlen), *prev = calloc(rowlen, 1), *cur = malloc(rowlen);
	unsigned char buf[65536];
	z_stream z;
	memset(&z, 0, sizeof z);
	int rc = -1;
	if (!row || !prev || !cur || deflateInit2(&z, 1, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(row);
		free(prev);
		free(cur);
		return -1;
	}
	for (int y = 0; y < h; y++) {
		const uint32_t *src = (const uint32_t *)(const void *)(px + (size_t)y * (size_t)stride);
		for (int x = 0; x < w; x++) {
			cur[1 + 3 * x] = (unsigned char)(src[x] >> 16);
			cur[2 + 3 * x] = (unsigned char)(src[x] >> 8);
			cur[3 + 3 * x] = (unsigned char)src[x];
		}
		row[0] = 2; /* Up */
		for (size_t i = 1; i < rowlen; i++)
			row[i] = (unsigned char)(cur[i] - prev[i]);
		unsigned char *t = prev;
		prev = cur;
		cur = t;
		z.next_in = row;
		z.avail_in = (uInt)rowlen;
		int flush = y + 1 == h ? Z_FINISH : Z_NO_FLUSH;
		int zr;
		do {
			z.next_out = buf;
			z.avail_out = sizeof buf;
			zr = deflate(&z, flush);
			if (zr == Z_STREAM_ERROR)
				goto out;
			bl_membuf_write(out, buf, (unsigned)(sizeof buf - z.avail_out));
		} while (z.avail_out == 0 || (flush == Z_FINISH && zr != Z_STREAM_END));
	}
	rc = out->failed ? -1 : 0;
out:
	deflateEnd(&z);
	free(row);
	free(prev);
	free(cur);
	return rc;
}

int bl_render_png(const struct bl_chart *c, const struct bl_render_opts *o, bl_write_fn write,
		  void *ctx)
{
	if (!crc_table[1])
		crc_init();
	struct bl_layout l;
	if (bl_render_layout(c, o, &l) < 0)
		return -1;
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)l.width, (int)l.height);
	struct bl_membuf idat = {0};
	char *src = NULL, *cmds = NULL, *sw = NULL;
	int rc = -1;
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		goto out;
	cairo_t *cr = cairo_create(s);
	bl_draw_chart(cr, c, &l, o->theme ? o->theme : bl_theme_get(NULL));
	cairo_destroy(cr);
	cairo_surface_flush(s);
	if (deflate_rows(s, &idat) < 0)
		goto out;
	/* width, height, depth 8, colour type 2 (RGB), deflate, filters, no interlace */
	unsigned char ihdr[13] = {0};
	be32(ihdr, (uint32_t)cairo_image_surface_get_width(s));
	be32(ihdr + 4, (uint32_t)cairo_image_surface_get_height(s));
	ihdr[8] = 8;
	ihdr[9] = 2;
	src = bl_chart_provenance(c, "source");
	cmds = bl_chart_provenance(c, "commands");
	sw = bl_chart_provenance(c, "software");
	if (!src || !cmds || !sw)
		goto out;
	if (write(ctx, (const unsigned char *)"\x89PNG\r\n\x1a\n", 8) != 0 ||
	    chunk(write, ctx, "IHDR", ihdr, sizeof ihdr) != 0 ||
	    text_chunk(write, ctx, "Title", c->title) != 0 ||
	    text_chunk(write, ctx, "Software", sw) != 0 ||
	    text_chunk(write, ctx, "Source", src) != 0 ||
	    text_chunk(write, ctx, "Comment", cmds) != 0)
		goto out;
	for (size_t off = 0; off < idat.n; off += 1 << 20) {
		size_t n = idat.n - off < (1 << 20) ? idat.n - off : (1 << 20);
		if (chunk(write, ctx, "IDAT", idat.p + off, n) != 0)
			goto out;
	}
	if (chunk(write, ctx, "IEND", NULL, 0) != 0)
		goto out;
	rc = 0;
out:
	free(src);
	free(cmds);
	free(sw);
	bl_membuf_free(&idat);
	bl_layout_free(&l);
	cairo_surface_destroy(s);
	return rc;
}
