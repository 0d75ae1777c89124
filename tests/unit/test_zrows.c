/* test_zrows.c - the PNG row deflater (render/zrows.c): what it writes
 * inflates, with zlib, to exactly the bytes put in (zlib checks the
 * Adler-32 too), for zeros, runs of a repeated pixel, noise, pieces of
 * every length and an empty stream; and a chart-like image comes out
 * smaller than its bytes. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../../render/zrows.h"
#include "check.h"

/* Inflates b into exactly want bytes; true when they equal want. */
static bool inflates_to(const struct bl_buf *b, const unsigned char *want, size_t n)
{
	uLongf len = (uLongf)n + 16;
	unsigned char *got = malloc(len);
	if (!got)
		return false;
	int r = uncompress(got, &len, (const Bytef *)b->p, (uLong)b->n);
	bool ok = r == Z_OK && len == n && memcmp(got, want, n) == 0;
	if (!ok)
		printf("  inflate: %d, %lu of %zu bytes\n", r, (unsigned long)len, n);
	free(got);
	return ok;
}

/* A byte source that also keeps what went in, to compare. */
struct run {
	struct bl_zrows z;
	struct bl_buf out;
	unsigned char *all;
	size_t n, cap;
};

static void start(struct run *r)
{
	memset(r, 0, sizeof *r);
	r->cap = 1 << 22;
	r->all = malloc(r->cap);
	bl_zrows_begin(&r->z, &r->out);
}

static void put(struct run *r, const unsigned char *p, size_t n)
{
	bl_zrows_put(&r->z, p, n);
	memcpy(r->all + r->n, p, n);
	r->n += n;
}

static void zeros(struct run *r, size_t n)
{
	bl_zrows_zeros(&r->z, n);
	memset(r->all + r->n, 0, n);
	r->n += n;
}

static bool finish(struct run *r)
{
	bool ok = bl_zrows_end(&r->z) == 0 && inflates_to(&r->out, r->all, r->n);
	bl_buf_free(&r->out);
	free(r->all);
	return ok;
}

static void test_empty(void)
{
	struct run r;
	start(&r);
	CHECK(finish(&r));
}

static void test_zeros_first(void)
{
	/* a match needs three bytes before it: zeros at the very start */
	for (size_t n = 1; n < 8; n++) {
		struct run r;
		start(&r);
		zeros(&r, n);
		CHECK(finish(&r));
	}
	struct run r;
	start(&r);
	zeros(&r, 100000); /* runs longer than a match (258) */
	CHECK(finish(&r));
}

static void test_pieces(void)
{
	/* every piece length 0..600 of noise, zeros and repeated pixels, in
	 * turn: runs cross piece boundaries, remainders of 1 and 2 after a
	 * 258-byte match */
	struct run r;
	start(&r);
	unsigned seed = 7;
	unsigned char buf[600];
	for (size_t len = 0; len < 600; len++) {
		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			buf[i] = (unsigned char)(seed >> 16);
		}
		put(&r, buf, len);
		zeros(&r, len);
		for (size_t i = 0; i < len; i++)
			buf[i] = (unsigned char)(i % 3 == 0 ? 0x12 : i % 3 == 1 ? 0xfe : 0x80);
		put(&r, buf, len);
		if (len % 7 == 0) { /* a zero piece after non-zero history */
			memset(buf, 0, len);
			put(&r, buf, len);
		}
	}
	CHECK(r.n > 500000);
	CHECK(finish(&r));
}

static void test_chart_like(void)
{
	/* 400 rows of 961 bytes, filter byte 2: most rows zero, some with a bar
	 * edge (one pixel difference repeated), some with "text" (noise) */
	struct run r;
	start(&r);
	unsigned char row[961];
	unsigned seed = 1;
	for (int y = 0; y < 400; y++) {
		row[0] = 2;
		memset(row + 1, 0, 960);
		if (y % 20 == 0)
			for (int x = 30; x < 250; x++)
				memcpy(row + 1 + 3 * x, "\x8e\xa2\xcf", 3);
		if (y % 20 > 4 && y % 20 < 12)
			for (int x = 0; x < 40; x++) {
				seed = seed * 1103515245u + 12345u;
				row[1 + (seed >> 8) % 960] = (unsigned char)(seed >> 20);
			}
		put(&r, row, 1);
		if (y % 2)
			put(&r, row + 1, 960);
		else
			for (int x = 0; x < 320;) { /* as png.c: runs of zero pixels as zeros */
				int x0 = x;
				while (x < 320 && memcmp(row + 1 + 3 * x, "\0\0\0", 3) == 0)
					x++;
				if (x > x0)
					zeros(&r, 3 * (size_t)(x - x0));
				x0 = x;
				while (x < 320 && memcmp(row + 1 + 3 * x, "\0\0\0", 3) != 0)
					x++;
				if (x > x0)
					put(&r, row + 1 + 3 * x0, 3 * (size_t)(x - x0));
			}
	}
	bool ok = bl_zrows_end(&r.z) == 0 && inflates_to(&r.out, r.all, r.n);
	CHECK(ok);
	CHECK(r.out.n < r.n / 10);
	if (r.out.n >= r.n / 10)
		printf("  %zu bytes deflated to %zu\n", r.n, r.out.n);
	bl_buf_free(&r.out);
	free(r.all);
}

int main(void)
{
	test_empty();
	test_zeros_first();
	test_pieces();
	test_chart_like();
	return CHECK_DONE();
}
