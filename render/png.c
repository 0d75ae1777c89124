/* png.c - PNG output: cairo draws and encodes into memory, then the
 * provenance goes in as text chunks after IHDR (cairo 1.16 writes none):
 * tEXt for ASCII text, iTXt (UTF-8) otherwise. Keywords: Title, Software,
 * Source, Comment (the commands). */
#include <cairo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

int bl_render_png(const struct bl_chart *c, const struct bl_render_opts *o, bl_write_fn write,
		  void *ctx)
{
	double w, h;
	if (!crc_table[1])
		crc_init();
	if (bl_render_size(c, o, &w, &h) < 0)
		return -1;
	struct bl_render_opts fixed = *o;
	fixed.width = w;
	fixed.height = h;
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)h);
	struct bl_membuf buf = {0};
	int rc = -1;
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		goto out;
	cairo_t *cr = cairo_create(s);
	int dr = bl_render_page(cr, c, &fixed);
	cairo_destroy(cr);
	if (dr < 0)
		goto out;
	cairo_surface_flush(s);
	if (cairo_surface_write_to_png_stream(s, bl_membuf_write, &buf) != CAIRO_STATUS_SUCCESS ||
	    buf.failed)
		goto out;
	/* signature (8) and IHDR (4 + 4 + 13 + 4) come first */
	const size_t head = 8 + 25;
	if (buf.n < head || memcmp(buf.p + 12, "IHDR", 4) != 0)
		goto out;
	char *src = bl_chart_provenance(c, "source");
	char *cmds = bl_chart_provenance(c, "commands");
	char *sw = bl_chart_provenance(c, "software");
	if (src && cmds && sw && write(ctx, buf.p, head) == 0 &&
	    text_chunk(write, ctx, "Title", c->title) == 0 &&
	    text_chunk(write, ctx, "Software", sw) == 0 &&
	    text_chunk(write, ctx, "Source", src) == 0 &&
	    text_chunk(write, ctx, "Comment", cmds) == 0 &&
	    write(ctx, buf.p + head, buf.n - head) == 0)
		rc = 0;
	free(src);
	free(cmds);
	free(sw);
out:
	bl_membuf_free(&buf);
	cairo_surface_destroy(s);
	return rc;
}
