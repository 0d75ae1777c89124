/* site_plan.h - a site plan's tables, shared by the files that build
 * them (site_plan.c, needles.c) and the pass that reads them (sites.c). */
#ifndef BL_SITE_PLAN_H
#define BL_SITE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sites.h"

/* The needle search: each needle contributes its rarest window of four
 * tokens (a byte or a digit), and one pass over the text tests every
 * window against 32 positions at a time (GCC vector extensions: SSE2 or
 * AVX2 on x86-64, NEON on arm64, plain code elsewhere). Positions that
 * pass are verified against the whole needle. Prose passes almost never. */
#define VT 4

typedef unsigned char vbytes __attribute__((vector_size(32)));

/* One token of a needle's window, as a byte range: mask = x - lo <= span. */
struct vtok {
	unsigned char lo, span;
};

#define MAX_NEEDLES BL_SITE_NEEDLES_MAX
#define BL_SITE_PATTERNS_MAX 64
#define NBUCKETS 16
#define THEN_MAX 4
#define BEFORE_MAX 8

/* The steps of a then-check: a blank run (of at least one, or of any
 * length), a digit, a byte. */
enum { THEN_BLANKS1, THEN_BLANKS0, THEN_DIGIT, THEN_BYTE, THEN_CLASS };

struct bl_site_plan {
	unsigned gen; /* the plans built before it, for the sites found with it */
	const struct bl_marks *marks;
	size_t long_line;
	size_t npatterns;
	bool reduced[BL_SITE_PATTERNS_MAX]; /* pattern i is found by its needles */
	struct bl_needle needles[MAX_NEEDLES];
	size_t trig[MAX_NEEDLES]; /* where each needle's vector test starts */
	struct vtok vt[MAX_NEEDLES][VT]; /* and its tokens */
	size_t vwin[MAX_NEEDLES], nvwin; /* needles with distinct windows */
	size_t nneedles;
	/* for a needle that stands for no pattern (its pattern is SIZE_MAX):
	 * the literal it is */
	size_t literal[MAX_NEEDLES];
	/* the nibble tables of the AVX2 pass (see buckets()): bit b of
	 * nib[h][k][0][x & 15] & nib[h][k][1][x >> 4] says that some window
	 * of bucket 8h + b takes byte x as its token k */
	unsigned short bucket[MAX_NEEDLES]; /* the bucket bit of each needle */
	uint64_t bset[NBUCKETS][MAX_NEEDLES / 64]; /* bit i: needle i is in the bucket */
	/* the distinct windows of each bucket (indices in vwin), and each
	 * window's four bytes as a mask and value over a 32-bit load (a
	 * digit as 0x30 under 0xF0, any byte under 0) and its needles: a
	 * find of the vector pass is first looked up by its window */
	unsigned char bwin[NBUCKETS][MAX_NEEDLES], nbwin[NBUCKETS];
	uint32_t wmask[MAX_NEEDLES], wval[MAX_NEEDLES];
	uint64_t wset[MAX_NEEDLES][MAX_NEEDLES / 64];
	unsigned char nib[2][VT][2][16];
	/* each needle's first 16 tokens as masks and bytes over two words
	 * (a digit as 0x30 under 0xF0, a byte past the needle as anything),
	 * to turn most finds down in two compares before verify() */
	uint64_t qmask[MAX_NEEDLES][2], qval[MAX_NEEDLES][2];
	/* 0x10 in the bytes of the digits among them: a byte of 0x30 to 0x3F
	 * there is a digit when its low half plus 6 does not carry; and
	 * whether those two words tell a find whole (a needle of 16 tokens
	 * or fewer) */
	uint64_t qdigit[MAX_NEEDLES][2];
	bool qwhole[MAX_NEEDLES];
	/* what the branch requires right after each needle, as a few steps
	 * (then_steps()), checked before the branch runs */
	unsigned char then_op[MAX_NEEDLES][THEN_MAX], then_byte[MAX_NEEDLES][THEN_MAX];
	size_t then_n[MAX_NEEDLES];
	/* what the branch requires right before each needle, as steps read
	 * backwards from it (before_steps()): a byte, a digit, a class of
	 * bytes (its bitmap), a blank run */
	unsigned char before_op[MAX_NEEDLES][BEFORE_MAX], before_byte[MAX_NEEDLES][BEFORE_MAX];
	uint8_t before_set[MAX_NEEDLES][BEFORE_MAX][32];
	size_t before_n[MAX_NEEDLES];
	bool any_before;
	/* for a branch that starts "^" or "^[ \\t]*": the bytes its line can
	 * start with (after its blanks, when lead_blanks), as a bitmap */
	bool has_lead[MAX_NEEDLES], lead_blanks[MAX_NEEDLES];
	uint8_t lead[MAX_NEEDLES][32];
};

/* needles.c: where the VT tokens of needle n tested in the vector pass
 * start; the share of prose positions where a window is found. */
size_t bl_needle_trigger(const struct bl_needle *n);
void bl_vtok_nibbles(const struct vtok *v, unsigned *lo, unsigned *hi);
double bl_nibbles_rate(const unsigned lo[VT], const unsigned hi[VT]);
/* Past a character class "[...]" or a group "(...)" at p, or NULL. */
const char *bl_pattern_skip_class(const char *p, const char *e);
const char *bl_pattern_skip_group(const char *p, const char *e);

#endif
