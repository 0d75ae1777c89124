/* test_spill.c - spills (parsers/spill.c): what is written comes back in
 * order, from memory and from a temporary file; a spill taken over by
 * another comes back after the bytes written before it and before those
 * written after, however the two are held; and a spill refuses a part
 * past BL_SPILL_PARTS, moving nothing. */
#include <stdlib.h>
#include <string.h>

#include "../../base/buf.h"
#include "../../parsers/spill.h"
#include "check.h"

static int gather(const char *s, size_t n, void *ctx)
{
	return bl_buf_put(ctx, s, n) ? 0 : -1;
}

/* A stream of n bytes from `seed`, written in pieces of up to 5000. */
static void fill(struct bl_spill *sp, struct bl_buf *want, size_t n, unsigned seed)
{
	char piece[5000];
	while (n) {
		size_t k = 1 + (seed = seed * 1103515245u + 12345u) % sizeof piece;
		if (k > n)
			k = n;
		for (size_t i = 0; i < k; i++)
			piece[i] = (char)('a' + (seed + i) % 26);
		CHECK(bl_spill_write(piece, k, sp) == 0);
		CHECK(bl_buf_put(want, piece, k));
		n -= k;
	}
}

static bool same(struct bl_spill *sp, const struct bl_buf *want)
{
	struct bl_buf got = {0};
	bool ok = bl_spill_copy(sp, gather, &got) == 0 && got.n == want->n &&
		  (!got.n || memcmp(got.p, want->p, got.n) == 0);
	if (!ok)
		printf("  %zu bytes back, %zu written\n", got.n, want->n);
	bl_buf_free(&got);
	return ok;
}

int main(void)
{
	/* sizes in memory, at the limit, and in a file */
	const size_t sizes[] = {0, 1, 70000, BL_SPILL_MEM, BL_SPILL_MEM + 1, 3 * BL_SPILL_MEM};
	const size_t nsizes = sizeof sizes / sizeof *sizes;
	for (size_t i = 0; i < nsizes; i++) {
		struct bl_spill sp = {0};
		struct bl_buf want = {0};
		fill(&sp, &want, sizes[i], (unsigned)i);
		CHECK(bl_spill_in_file(&sp) == (sizes[i] > BL_SPILL_MEM));
		CHECK(same(&sp, &want));
		bl_spill_free(&sp);
		bl_buf_free(&want);
	}
	/* before, taken over, after: every pair of sizes */
	for (size_t a = 0; a < nsizes; a++)
		for (size_t b = 0; b < nsizes; b++) {
			struct bl_spill to = {0}, from = {0};
			struct bl_buf want = {0}, other = {0};
			fill(&to, &want, sizes[a], 7u + (unsigned)a);
			fill(&from, &other, sizes[b], 99u + (unsigned)b);
			CHECK(bl_spill_adopt(&to, &from));
			CHECK(bl_spill_in_file(&from) == false);
			CHECK(bl_buf_put(&want, other.p, other.n));
			fill(&to, &want, 2 * BL_SPILL_MEM / 3, 5u);
			CHECK(same(&to, &want));
			bl_spill_free(&to);
			bl_spill_free(&from);
			bl_buf_free(&want);
			bl_buf_free(&other);
		}
	/* parts up to the limit; the one past it is refused, nothing moved */
	struct bl_spill to = {0};
	struct bl_buf want = {0};
	size_t taken = 0;
	for (int k = 0; k < 2 * BL_SPILL_PARTS; k++) {
		struct bl_spill from = {0};
		struct bl_buf other = {0};
		fill(&to, &want, 100, (unsigned)k);
		fill(&from, &other, BL_SPILL_MEM + 10, 1000u + (unsigned)k);
		if (bl_spill_adopt(&to, &from)) {
			taken++;
			CHECK(bl_buf_put(&want, other.p, other.n));
		} else {
			/* as write.c does then: copied */
			CHECK(bl_spill_in_file(&from));
			CHECK(bl_spill_copy(&from, bl_spill_write, &to) == 0);
			CHECK(bl_buf_put(&want, other.p, other.n));
		}
		bl_spill_free(&from);
		bl_buf_free(&other);
	}
	CHECK(taken > 1 && taken <= BL_SPILL_PARTS);
	CHECK(same(&to, &want));
	bl_spill_free(&to);
	bl_buf_free(&want);
	return CHECK_DONE();
}
