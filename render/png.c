/* png.c - PNG output: cairo draws into an image surface, and this file
 * encodes it ("Up" filter, deflated by zrows.c): cairo 1.16's own writer
 * takes ten times longer on a tall chart and writes no text chunks.
 * The provenance goes in as text chunks after IHDR: tEXt for ASCII text,
 * iTXt (UTF-8) otherwise. Keywords: Title, Software, Source, Comment (the
 * commands). */
#include <cairo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <zlib.h>

#include "internal.h"
#include "zrows.h"

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
	uint32_t crc = (uint32_t)crc32(0, chunk + 4, (uInt)(dlen + 4));
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
	uLong crc = crc32(0, head + 4, 4);
	if (len)
		crc = crc32(crc, data, (uInt)len);
	be32(tail, (uint32_t)crc);
	if (write(ctx, head, 8) != 0 || (len && write(ctx, data, len) != 0))
		return -1;
	return write(ctx, tail, 4);
}

/* Filtered bytes of pixels [x0, x1) of a row: each channel less the one
 * above. */
static void put_diff(struct bl_zrows *z, unsigned char *buf, const unsigned char *src,
		     const unsigned char *above, int x0, int x1)
{
	for (int x = x0; x < x1; x++) {
		uint32_t c, u;
		memcpy(&c, src + 4 * (size_t)x, 4);
		memcpy(&u, above + 4 * (size_t)x, 4);
		unsigned char *d = buf + 3 * (size_t)(x - x0);
		d[0] = (unsigned char)((c >> 16) - (u >> 16));
		d[1] = (unsigned char)((c >> 8) - (u >> 8));
		d[2] = (unsigned char)(c - u);
	}
	bl_zrows_put(z, buf, 3 * (size_t)(x1 - x0));
}

/* Are pixels [x, x + 4) as those above them? */
static inline bool same4(const unsigned char *src, const unsigned char *above, int x)
{
	uint64_t c0, c1, u0, u1;
	memcpy(&c0, src + 4 * (size_t)x, 8);
	memcpy(&c1, src + 4 * (size_t)x + 8, 8);
	memcpy(&u0, above + 4 * (size_t)x, 8);
	memcpy(&u1, above + 4 * (size_t)x + 8, 8);
	return ((c0 ^ u0) | (c1 ^ u1)) == 0;
}

/* Rows [0, h) of an RGB24 surface's pixels px (stride bytes a row), each
 * with filter "Up" (the difference to the row above: charts repeat rows,
 * so most bytes become zero), into the zlib stream z (zrows.c); above:
 * the row above the first (zeros atop the image). Pixels like those
 * above them, four at a time, go in as runs of zeros without being
 * converted or looked at again. */
static void deflate_rows(struct bl_zrows *z, const unsigned char *px, int w, int h, int stride,
			 const unsigned char *above, unsigned char *buf)
{
	static const unsigned char up = 2;
	for (int y = 0; y < h; y++) {
		const unsigned char *src = px + (size_t)y * (size_t)stride;
		if (y)
			above = src - stride;
		bl_zrows_put(z, &up, 1);
		if (memcmp(src, above, 4 * (size_t)w) == 0) {
			bl_zrows_zeros(z, 3 * (size_t)w); /* a row like the one above */
			continue;
		}
		int x = 0;
		while (x < w) {
			int start = x; /* pixels like those above: zeros */
			while (x + 4 <= w && same4(src, above, x))
				x += 4;
			if (x + 4 > w && memcmp(src + 4 * (size_t)x, above + 4 * (size_t)x,
						4 * (size_t)(w - x)) == 0)
				x = w;
			if (x > start)
				bl_zrows_zeros(z, 3 * (size_t)(x - start));
			start = x; /* and the others, four at a time */
			while (x < w && (x + 4 > w || !same4(src, above, x)))
				x = x + 4 < w ? x + 4 : w;
			if (x > start)
				put_diff(z, buf, src, above, start, x);
		}
	}
}

/* The compressed rows are written as IDAT chunks of IDAT_BYTES each, the
 * last shorter, whatever the bands they came from. */
#define IDAT_BYTES ((size_t)1 << 20)

/* Writes the whole IDAT_BYTES pieces of idat (all of it when last),
 * keeping the rest for the next. */
static int put_idat(struct bl_buf *idat, bool last, bl_write_fn write, void *ctx)
{
	size_t off = 0;
	while (idat->n - off >= IDAT_BYTES || (last && off < idat->n)) {
		size_t n = idat->n - off < IDAT_BYTES ? idat->n - off : IDAT_BYTES;
		if (chunk(write, ctx, "IDAT", (const unsigned char *)idat->p + off, n) != 0)
			return -1;
		off += n;
	}
	if (off) /* an empty buffer has no array to move */
		memmove(idat->p, idat->p + off, idat->n - off);
	idat->n -= off;
	return 0;
}

/* The pixels of the image surface, zeroed as cairo's own, in 2 MB pages
 * where the kernel has them (madvise: transparent huge pages on request):
 * a 960 x 2450 chart is 9 MB, 2300 page faults in 4 KB pages, a fifth of
 * the command's CPU time; five in 2 MB pages. */
#define HUGE_PAGE ((size_t)2 << 20)

struct pixels {
	void *map;
	size_t maplen;
};

static cairo_surface_t *image_surface(int w, int h, struct pixels *px)
{
	px->map = NULL;
	int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, w);
	if (w <= 0 || h <= 0 || stride <= 0 || (size_t)h > SIZE_MAX / 2 / (size_t)stride)
		return cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
	size_t len = (size_t)stride * (size_t)h;
	size_t maplen = len + HUGE_PAGE;
	void *map = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
	uintptr_t at = ((uintptr_t)map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
#ifdef MADV_HUGEPAGE
	madvise((void *)at, (len + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
#endif
	cairo_surface_t *s = cairo_image_surface_create_for_data((unsigned char *)at,
								 CAIRO_FORMAT_RGB24, w, h, stride);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		munmap(map, maplen);
		return s;
	}
	px->map = map;
	px->maplen = maplen;
	return s;
}

/* The rows drawn at a time: a chart of thousands of categories is
 * 30,000 rows tall, 115 MB of pixels whole; it is drawn band by band into
 * 8 MB, each band the whole chart moved up, which cairo clips. */
#define BAND_ROWS 2048

/* The PNG's signature, header and text chunks, before its pixels. */
static int put_head(const struct bl_chart *c, int w, int h, bl_write_fn write, void *ctx)
{
	/* width, height, depth 8, colour type 2 (RGB), deflate, filters, no interlace */
	unsigned char ihdr[13] = {0};
	be32(ihdr, (uint32_t)w);
	be32(ihdr + 4, (uint32_t)h);
	ihdr[8] = 8;
	ihdr[9] = 2;
	char *src = bl_chart_provenance(c, "source"), *cmds = bl_chart_provenance(c, "commands"),
	     *sw = bl_chart_provenance(c, "software");
	int rc = src && cmds && sw &&
				 write(ctx, (const unsigned char *)"\x89PNG\r\n\x1a\n", 8) == 0 &&
				 chunk(write, ctx, "IHDR", ihdr, sizeof ihdr) == 0 &&
				 text_chunk(write, ctx, "Title", c->title) == 0 &&
				 text_chunk(write, ctx, "Software", sw) == 0 &&
				 text_chunk(write, ctx, "Source", src) == 0 &&
				 text_chunk(write, ctx, "Comment", cmds) == 0
			 ? 0
			 : -1;
	free(src);
	free(cmds);
	free(sw);
	return rc;
}

/* Draws band after band of the chart into s (rows [y0, y0 + its height)
 * of the image each time) and puts their rows into z, then idat's whole
 * chunks out. */
static int draw_bands(cairo_surface_t *s, const struct bl_chart *c, const struct bl_layout *l,
		      const struct bl_theme *theme, int h, struct bl_zrows *z, struct bl_buf *idat,
		      bl_write_fn write, void *ctx)
{
	int w = cairo_image_surface_get_width(s), rows = cairo_image_surface_get_height(s);
	int stride = cairo_image_surface_get_stride(s);
	unsigned char *px = cairo_image_surface_get_data(s);
	unsigned char *buf = malloc((size_t)w * 3), *above = calloc((size_t)stride + 4, 1);
	int rc = buf && above ? 0 : -1;
	for (int y0 = 0; rc == 0 && y0 < h; y0 += rows) {
		int n = h - y0 < rows ? h - y0 : rows;
		if (y0)
			memset(px, 0, (size_t)stride * (size_t)rows);
		cairo_surface_mark_dirty(s);
		cairo_t *cr = cairo_create(s);
		cairo_translate(cr, 0, -(double)y0);
		bl_draw_chart(cr, c, l, theme);
		cairo_destroy(cr);
		cairo_surface_flush(s);
		deflate_rows(z, px, w, n, stride, above, buf);
		memcpy(above, px + (size_t)(n - 1) * (size_t)stride, (size_t)stride);
		rc = idat->failed ? -1 : put_idat(idat, false, write, ctx);
	}
	free(buf);
	free(above);
	return rc;
}

int bl_render_png(const struct bl_chart *c, const struct bl_render_opts *o, bl_write_fn write,
		  void *ctx)
{
	struct bl_layout l;
	if (bl_render_layout(c, o, &l) < 0)
		return -1;
	int w = (int)l.width, h = (int)l.height;
	struct pixels pixels;
	cairo_surface_t *s = image_surface(w, h < BAND_ROWS ? h : BAND_ROWS, &pixels);
	struct bl_buf idat = {0};
	struct bl_zrows *z = malloc(sizeof *z);
	int rc = -1;
	if (!z || cairo_surface_status(s) != CAIRO_STATUS_SUCCESS ||
	    put_head(c, w, h, write, ctx) != 0)
		goto out;
	bl_zrows_begin(z, &idat);
	if (draw_bands(s, c, &l, o->theme ? o->theme : bl_theme_get(NULL), h, z, &idat, write,
		       ctx) != 0 ||
	    bl_zrows_end(z) != 0 || put_idat(&idat, true, write, ctx) != 0 ||
	    chunk(write, ctx, "IEND", NULL, 0) != 0)
		goto out;
	rc = 0;
out:
	free(z);
	bl_buf_free(&idat);
	bl_layout_free(&l);
	cairo_surface_destroy(s);
	if (pixels.map)
		munmap(pixels.map, pixels.maplen);
	return rc;
}
