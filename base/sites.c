/* sites.c - the pass that finds a plan's sites in a text (see sites.h),
 * and their update when the unflattener turns blanks into newlines. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "site_plan.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

/* The sites freed last, kept with their arrays for the next text: two
 * allocations zeroed and their lists grown again cost a message of
 * prose 1,300 instructions. */
static struct bl_sites *spare_sites;
/* for tests: the portable pass even where the AVX2 one runs */
static bool portable;

/* Whether the text after needle i, from `at`, passes its then-check. */
static bool then_ok(const struct bl_site_plan *P, size_t i, const unsigned char *t, size_t len,
		    size_t at)
{
	for (size_t k = 0; k < P->then_n[i]; k++) {
		switch (P->then_op[i][k]) {
		case THEN_BLANKS1:
			if (at >= len || (t[at] != ' ' && t[at] != '\t'))
				return false;
			/* fall through */
		case THEN_BLANKS0:
			while (at < len && (t[at] == ' ' || t[at] == '\t'))
				at++;
			break;
		case THEN_DIGIT:
			if (at >= len || t[at] < '0' || t[at] > '9')
				return false;
			at++;
			break;
		default:
			if (at >= len || t[at] != P->then_byte[i][k])
				return false;
			at++;
		}
	}
	return true;
}

/* Whether the text before needle i's start p passes its before-check. */
static inline bool before_ok(const struct bl_site_plan *P, size_t i, const unsigned char *t,
			     size_t p)
{
	size_t at = p;
	for (size_t k = P->before_n[i]; k-- > 0;) {
		switch (P->before_op[i][k]) {
		case THEN_BLANKS1:
			if (!at || (t[at - 1] != ' ' && t[at - 1] != '\t'))
				return false;
			/* fall through */
		case THEN_BLANKS0:
			while (at && (t[at - 1] == ' ' || t[at - 1] == '\t'))
				at--;
			break;
		case THEN_DIGIT:
			if (!at || t[at - 1] < '0' || t[at - 1] > '9')
				return false;
			at--;
			break;
		case THEN_CLASS:
			if (!at || !(P->before_set[i][k][t[at - 1] / 8] >> (t[at - 1] % 8) & 1))
				return false;
			at--;
			break;
		default:
			if (!at || t[at - 1] != P->before_byte[i][k])
				return false;
			at--;
		}
	}
	return true;
}

/* Whether the window [ws, we) around needle i's find may hold a match of
 * its branch, as far as the line's first byte tells. */
bool bl_site_lead_ok(const struct bl_site_plan *P, size_t i, const struct bl_message *m, size_t ws,
		     size_t we)
{
	if (!P->has_lead[i] || (ws && m->text[ws - 1] != '\n'))
		return true; /* not a line start: a part of a long line */
	size_t b = ws;
	if (P->lead_blanks[i])
		while (b < we && (m->text[b] == ' ' || m->text[b] == '\t'))
			b++;
	if (b >= we)
		return true;
	unsigned char x = (unsigned char)m->text[b];
	return P->lead[i][x / 8] & (1u << (x % 8));
}

static bool verify(const struct bl_needle *n, const unsigned char *s)
{
	for (size_t i = 0; i < n->ntok; i++) {
		if (n->tok[i] == BL_NEEDLE_DIGIT) {
			if (s[i] < '0' || s[i] > '9')
				return false;
		} else if (s[i] != n->tok[i]) {
			return false;
		}
	}
	return true;
}

/* Whether needle i is found where the vector pass tested position q, one
 * that starts at or after min_p; its start in *p. `whole`: a needle of 16
 * tokens or fewer is told by the two words from its start alone, not
 * compared token by token (verify(), which the portable pass, the
 * reference of the tests, runs). */
static inline bool found_by(const struct bl_site_plan *P, const unsigned char *t, size_t len,
			    size_t q, size_t i, size_t min_p, size_t *p, bool whole)
{
	const struct bl_needle *nd = &P->needles[i];
	if (q < P->trig[i] || q - P->trig[i] < min_p)
		return false;
	*p = q - P->trig[i];
	if (*p + nd->ntok > len)
		return false;
	/* 16 bytes from p: inside the text and the zero bytes after it
	 * (BL_TEXT_PAD) */
	uint64_t w[2];
	memcpy(w, t + *p, sizeof w);
	if ((w[0] & P->qmask[i][0]) != P->qval[i][0] || (w[1] & P->qmask[i][1]) != P->qval[i][1])
		return false;
	const uint64_t low = 0x0F0F0F0F0F0F0F0Full, six = 0x0606060606060606ull;
	if (whole && P->qwhole[i]) {
		/* the digits' low halves are 0 to 9 */
		if ((((w[0] & low) + six) & P->qdigit[i][0]) |
		    (((w[1] & low) + six) & P->qdigit[i][1]))
			return false;
	} else if (!verify(nd, t + *p)) {
		return false;
	}
	return then_ok(P, i, t, len, *p + nd->ntok) && before_ok(P, i, t, *p);
}

static inline bool found(const struct bl_site_plan *P, const unsigned char *t, size_t len, size_t q,
			 size_t i, size_t min_p, size_t *p)
{
	return found_by(P, t, len, q, i, min_p, p, true);
}

static bool grow(void **v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 64;
	void *nv = realloc(*v, c * size);
	if (!nv)
		return false;
	*v = nv;
	*cap = c;
	return true;
}

/* Needle i found at q (its start p): a find of a pattern's needle, or a start of
 * one of the literals. */
static void record(const struct bl_site_plan *P, struct bl_sites *st, size_t q, size_t i, size_t p)
{
	if (P->needles[i].pattern == SIZE_MAX) {
		struct bl_site_list *l = &st->literal[P->literal[i]];
		if (!grow((void **)&l->v, &l->cap, l->n, sizeof *l->v)) {
			st->failed = true;
			return;
		}
		l->v[l->n++] = p;
		return;
	}
	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 64;
		size_t *nq = realloc(st->q, cap * sizeof *nq);
		if (nq)
			st->q = nq;
		unsigned char *ni = nq ? realloc(st->needle, cap) : NULL;
		if (!ni) {
			st->failed = true;
			return;
		}
		st->needle = ni;
		st->cap = cap;
	}
	st->q[st->n] = q;
	st->needle[st->n++] = (unsigned char)i;
}

/* The finds of every needle at position q whose vector test passed for
 * the buckets in `got`, in the order of the needles: those of the
 * buckets' sets only. */
static inline void finds_at(const struct bl_site_plan *P, const unsigned char *t, size_t len,
			    size_t q, unsigned got, struct bl_sites *st)
{
	size_t p;
	/* the buckets take the products of their windows' bytes: the
	 * windows that are at q itself, first */
	uint32_t x;
	memcpy(&x, t + q, sizeof x); /* within the text and the zero bytes after it */
	uint64_t sets[MAX_NEEDLES / 64] = {0};
	for (unsigned g = got; g; g &= g - 1) {
		unsigned b = (unsigned)__builtin_ctz(g);
		for (unsigned k = 0; k < P->nbwin[b]; k++) {
			unsigned u = P->bwin[b][k];
			if ((x & P->wmask[u]) == P->wval[u])
				for (size_t w = 0; w < MAX_NEEDLES / 64; w++)
					sets[w] |= P->wset[u][w];
		}
	}
	for (size_t w = 0; w < MAX_NEEDLES / 64; w++) {
		for (uint64_t set = sets[w]; set; set &= set - 1) {
			size_t i = 64 * w + (size_t)__builtin_ctzll(set);
			if (found(P, t, len, q, i, 0, &p))
				record(P, st, q, i, p);
		}
	}
}

/* The lines of the text from *ls on (a line start), up to position end,
 * given the newlines in [q, q + 64) (bit j: text[q + j]): whether one is
 * P->long_line bytes long or longer; *ls moves to the last line
 * start. */
static inline bool long_line_in(size_t min, size_t q, uint64_t nl, size_t end, size_t *ls)
{
	if (!nl)
		return end - *ls >= min;
	size_t first = q + (size_t)__builtin_ctzll(nl);
	bool longer = first - *ls >= min;
	*ls = q + 64 - (size_t)__builtin_clzll(nl);
	return longer;
}

#if defined(__x86_64__) && defined(__GNUC__)
#define BL_HAVE_NIBBLE_PASS 1
/* The AVX2 pass: each byte's two nibbles look up, in one shuffle each,
 * the buckets whose windows take it at token 0, 1, 2 and 3; a position is
 * a find when some bucket takes all four (32 positions in a few
 * instructions, whatever the number of needles). Only the needles of the
 * buckets found are then checked, in the order of their index. The
 * system reader's marks are looked up from the same nibbles, and the
 * newlines tell the lengths of the lines. 64 positions a step, two
 * halves of 32: a step's marks are one word of sites->sys. */
struct nibble_tabs {
	__m256i tab[2][VT][2]; /* P->nib, in both lanes */
	__m256i mlo, mhi; /* the marks' nibble tables */
	__m256i anywhere, at_start, after_digit;
};

/* The marks at 32 positions, as bits (bit j: position p + j): of the
 * groups that count anywhere (any), of those that count at a line start
 * (line), of those that count after a digit (digit); and the newlines. */
struct half_marks {
	uint32_t any, line, digit, nl;
};

/* What the 32 positions from p hold: the buckets found at each (*acc0,
 * *acc1, one byte a position), and as bits (bit j: position p + j)
 * those with a find, and their marks (*hm). Reads p[0, 35). */
__attribute__((target("avx2"), always_inline)) static inline uint32_t half_step(
	const unsigned char *p, const struct nibble_tabs *tb, __m256i *acc0, __m256i *acc1,
	struct half_marks *hm)
{
	const __m256i low = _mm256_set1_epi8(0x0f), zero = _mm256_setzero_si256();
	/* token k of every window at the 32 positions: the bytes from
	 * p + k, each looked up by its nibbles */
#define NIBBLES(k, v, vl, vh)                                                                      \
	__m256i v = _mm256_loadu_si256((const __m256i *)(p + (k)));                                \
	__m256i vl = _mm256_and_si256(v, low);                                                     \
	__m256i vh = _mm256_and_si256(_mm256_srli_epi16(v, 4), low)
#define TAKES(g, k, vl, vh)                                                                        \
	_mm256_and_si256(_mm256_shuffle_epi8(tb->tab[g][k][0], vl),                                \
			 _mm256_shuffle_epi8(tb->tab[g][k][1], vh))
	NIBBLES(0, v0, vl0, vh0);
	__m256i a0 = TAKES(0, 0, vl0, vh0), a1 = TAKES(1, 0, vl0, vh0);
	NIBBLES(1, v1, vl1, vh1);
	a0 = _mm256_and_si256(a0, TAKES(0, 1, vl1, vh1));
	a1 = _mm256_and_si256(a1, TAKES(1, 1, vl1, vh1));
	NIBBLES(2, v2, vl2, vh2);
	a0 = _mm256_and_si256(a0, TAKES(0, 2, vl2, vh2));
	a1 = _mm256_and_si256(a1, TAKES(1, 2, vl2, vh2));
	NIBBLES(3, v3, vl3, vh3);
	a0 = _mm256_and_si256(a0, TAKES(0, 3, vl3, vh3));
	a1 = _mm256_and_si256(a1, TAKES(1, 3, vl3, vh3));
	(void)v1;
	(void)v2;
	(void)v3;
#undef TAKES
#undef NIBBLES
	__m256i m = _mm256_and_si256(_mm256_shuffle_epi8(tb->mlo, vl0),
				     _mm256_shuffle_epi8(tb->mhi, vh0));
	hm->any = ~(uint32_t)_mm256_movemask_epi8(
		_mm256_cmpeq_epi8(_mm256_and_si256(m, tb->anywhere), zero));
	hm->line = ~(uint32_t)_mm256_movemask_epi8(
		_mm256_cmpeq_epi8(_mm256_and_si256(m, tb->at_start), zero));
	hm->digit = ~(uint32_t)_mm256_movemask_epi8(
		_mm256_cmpeq_epi8(_mm256_and_si256(m, tb->after_digit), zero));
	hm->nl = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, _mm256_set1_epi8('\n')));
	*acc0 = a0;
	*acc1 = a1;
	return ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_or_si256(a0, a1), zero));
}

/* The digits among the 64 bytes at p, as bits. */
__attribute__((target("avx2"), always_inline)) static inline uint64_t digits64(
	const unsigned char *p)
{
	uint64_t bits = 0;
	for (int h = 0; h < 2; h++) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(p + 32 * h));
		__m256i d = _mm256_sub_epi8(v, _mm256_set1_epi8('0'));
		uint32_t m = (uint32_t)_mm256_movemask_epi8(
			_mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(9)), d));
		bits |= (uint64_t)m << (32 * h);
	}
	return bits;
}

/* The 64 positions from q, read at p (t + q, or a copy of the text's
 * last bytes followed by zero bytes), of which those in `in` are the
 * text's. *after_nl: text[q - 1] is a newline; *ls: where the line being
 * read starts. */
__attribute__((target("avx2"), always_inline)) static inline void step64(
	const struct bl_site_plan *P, const unsigned char *t, size_t len, const unsigned char *p,
	size_t q, uint64_t in, const struct nibble_tabs *tb, uint64_t *after_nl, size_t *ls,
	struct bl_sites *st)
{
	__m256i acc[2][2];
	struct half_marks h0, h1;
	uint64_t bits = half_step(p, tb, &acc[0][0], &acc[0][1], &h0);
	bits |= (uint64_t)half_step(p + 32, tb, &acc[1][0], &acc[1][1], &h1) << 32;
	uint64_t nl = (h0.nl | (uint64_t)h1.nl << 32) & in;
	uint64_t any = h0.any | (uint64_t)h1.any << 32, line = h0.line | (uint64_t)h1.line << 32;
	/* the marks: of a group that counts anywhere, or of one that
	 * counts at a line start right after a newline */
	uint64_t marks = any | (line & (nl << 1 | *after_nl));
	/* and of one that counts after a digit, right after one: the
	 * digits read only where such a group's byte is (a '-', rare in
	 * prose) */
	uint64_t digit = h0.digit | (uint64_t)h1.digit << 32;
	if (digit)
		marks |= digit & (digits64(p) << 1 | (q > 0 && t[q - 1] >= '0' && t[q - 1] <= '9'));
	st->sys[q / 64] = marks & in;
	*after_nl = nl >> 63;
	if (!st->long_line)
		st->long_line = long_line_in(P->long_line, q, nl, q + 64 < len ? q + 64 : len, ls);
	bits &= in;
	if (!bits)
		return;
	unsigned char got[2][2][32];
	_mm256_storeu_si256((__m256i *)got[0][0], acc[0][0]);
	_mm256_storeu_si256((__m256i *)got[0][1], acc[0][1]);
	_mm256_storeu_si256((__m256i *)got[1][0], acc[1][0]);
	_mm256_storeu_si256((__m256i *)got[1][1], acc[1][1]);
	for (; bits; bits &= bits - 1) {
		unsigned j = (unsigned)__builtin_ctzll(bits);
		finds_at(P, t, len, q + j,
			 got[j / 32][0][j % 32] | (unsigned)got[j / 32][1][j % 32] << 8, st);
	}
}

__attribute__((target("avx2"))) static void sites_avx2(const struct bl_site_plan *P,
						       const unsigned char *t, size_t len,
						       struct bl_sites *st)
{
	struct nibble_tabs tb;
	for (int g = 0; g < 2; g++)
		for (int k = 0; k < VT; k++)
			for (int h = 0; h < 2; h++)
				tb.tab[g][k][h] = _mm256_broadcastsi128_si256(
					_mm_loadu_si128((const __m128i *)P->nib[g][k][h]));
	const struct bl_marks *mk = P->marks;
	tb.mlo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)mk->lo));
	tb.mhi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)mk->hi));
	tb.anywhere = _mm256_set1_epi8((char)(unsigned char)~(mk->line | mk->digit));
	tb.at_start = _mm256_set1_epi8((char)mk->line);
	tb.after_digit = _mm256_set1_epi8((char)mk->digit);
	uint64_t after_nl = 0; /* offset 0 is no line start */
	size_t ls = 0, q = 0;
	/* a step reads 67 bytes: in place while they are the text's or
	 * the zero bytes after it (BL_TEXT_PAD) */
	for (; len - q >= 64; q += 64)
		step64(P, t, len, t + q, q, ~(uint64_t)0, &tb, &after_nl, &ls, st);
	if (q < len) {
		/* the last bytes, then zero bytes as after the text */
		unsigned char last[64 + 64] = {0};
		memcpy(last, t + q, len - q);
		step64(P, t, len, last, q, ((uint64_t)1 << (len - q)) - 1, &tb, &after_nl, &ls, st);
	}
}
#endif

/* The portable pass: each needle's window tested at W positions at
 * once; the marks and the line lengths read apart. */
static void sites_vec(const struct bl_site_plan *P, const unsigned char *t, size_t len,
		      struct bl_sites *st)
{
	size_t q = 0, p;
	const size_t W = sizeof(vbytes);
	for (; q + W + VT - 1 <= len; q += W) {
		vbytes w[VT], any = {0};
		for (size_t k = 0; k < VT; k++)
			memcpy(&w[k], t + q + k, W);
		for (size_t u = 0; u < P->nvwin; u++) {
			size_t i = P->vwin[u];
			vbytes m0 = (vbytes)((vbytes)(w[0] - P->vt[i][0].lo) <= P->vt[i][0].span);
			for (size_t k = 1; k < VT; k++)
				m0 &= (vbytes)((vbytes)(w[k] - P->vt[i][k].lo) <= P->vt[i][k].span);
			any |= m0;
		}
		uint64_t lanes[sizeof(vbytes) / 8], or = 0;
		memcpy(lanes, &any, sizeof lanes);
		for (size_t j = 0; j < sizeof lanes / 8; j++)
			or |= lanes[j];
		if (! or)
			continue;
		for (size_t j = 0; j < W; j++)
			for (size_t i = 0; any[j] && i < P->nneedles; i++)
				if (found_by(P, t, len, q + j, i, 0, &p, false))
					record(P, st, q + j, i, p);
	}
	/* the last bytes, too few for a vector step, one by one */
	for (; q < len; q++)
		for (size_t i = 0; i < P->nneedles; i++)
			if (found_by(P, t, len, q, i, 0, &p, false))
				record(P, st, q, i, p);
	uint64_t bits;
	for (size_t next = 0, base; next < len;)
		for (base = bl_find_marks((const char *)t, next, len, P->marks, &bits, &next); bits;
		     bits &= bits - 1) {
			size_t at = base + (size_t)__builtin_ctzll(bits);
			st->sys[at / 64] |= (uint64_t)1 << (at % 64);
		}
	for (size_t ls = 0; !st->long_line && len - ls >= P->long_line;) {
		const char *nl = memrchr(t + ls, '\n', P->long_line);
		st->long_line = !nl;
		ls = nl ? (size_t)(nl - (const char *)t) + 1 : ls;
	}
}

static void sites_destroy(struct bl_sites *st)
{
	if (!st)
		return;
	free(st->q);
	free(st->needle);
	for (size_t g = 0; g < BL_SITE_LITERALS_MAX; g++)
		free(st->literal[g].v);
	free(st->sys);
	free(st);
}

void bl_sites_drop_spare(void)
{
	sites_destroy(spare_sites);
	spare_sites = NULL;
}

void bl_sites_free(struct bl_sites *st)
{
	if (!st)
		return;
	if (!spare_sites) {
		static bool registered;
		if (!registered && atexit(bl_sites_drop_spare) == 0)
			registered = true;
		if (registered) {
			spare_sites = st;
			return;
		}
	}
	sites_destroy(st);
}

struct bl_sites *bl_sites_find(const struct bl_site_plan *P, const char *text, size_t len)
{
	struct bl_sites *st = spare_sites;
	if (st) {
		/* the arrays of the last sites freed, emptied */
		spare_sites = NULL;
		st->n = 0;
		for (size_t g = 0; g < BL_SITE_LITERALS_MAX; g++)
			st->literal[g].n = 0;
		st->long_line = st->failed = false;
	} else if (!(st = calloc(1, sizeof *st))) {
		return NULL;
	}
	st->gen = P->gen;
	st->len = len;
	st->nsys = (len + 63) / 64;
	if (st->syscap < st->nsys || !st->sys) {
		size_t cap = st->nsys ? st->nsys : 1;
		uint64_t *sys = realloc(st->sys, cap * sizeof *sys);
		if (!sys) {
			sites_destroy(st);
			return NULL;
		}
		st->sys = sys;
		st->syscap = cap;
	}
	memset(st->sys, 0, st->nsys * sizeof *st->sys);
#ifdef BL_HAVE_NIBBLE_PASS
	static int avx2 = -1;
	if (avx2 < 0)
		avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
	if (avx2 && !portable)
		sites_avx2(P, (const unsigned char *)text, len, st);
	else
#endif
		sites_vec(P, (const unsigned char *)text, len, st);
	if (st->failed) {
		sites_destroy(st);
		return NULL;
	}
	return st;
}

/* The needles whose first token takes byte x, for bl_sites_update(). */
static uint64_t first_tok[256][MAX_NEEDLES / 64];
static unsigned first_gen = ~0u;
static size_t max_ntok;

static void first_tokens(const struct bl_site_plan *P)
{
	if (first_gen == P->gen)
		return;
	memset(first_tok, 0, sizeof first_tok);
	max_ntok = 0;
	for (size_t i = 0; i < P->nneedles; i++) {
		const struct bl_needle *nd = &P->needles[i];
		if (nd->ntok > max_ntok)
			max_ntok = nd->ntok;
		for (unsigned x = 0; x < 256; x++)
			if (nd->tok[0] == x ||
			    (nd->tok[0] == BL_NEEDLE_DIGIT && x >= '0' && x <= '9'))
				first_tok[x][i / 64] |= (uint64_t)1 << (i % 64);
	}
	first_gen = P->gen;
}

/* Entry k of st's needle finds, by needle start and then the order of the
 * pass (position tested, needle). */
static bool find_before(size_t qa, unsigned ia, size_t qb, unsigned ib)
{
	return qa < qb || (qa == qb && ia < ib);
}

/* The needle finds that bl_sites_update() makes again: the positions
 * tested and the needles, as in struct bl_sites. */
struct new_finds {
	size_t *q;
	unsigned char *needle;
	size_t n, cap;
};

/* The starts [*lo, *hi] of the finds that may read a changed byte b: the
 * needle's bytes hold it, or its then-check reads up to it over blanks
 * and at most THEN_MAX other bytes (a newline taken for a blank, since
 * other changed bytes were blanks before). */
static void dirty_span(const struct bl_site_plan *P, const unsigned char *t, size_t len, size_t b,
		       size_t *lo, size_t *hi)
{
	size_t z = b, other = 0;
	while (z > 0 &&
	       (t[z - 1] == ' ' || t[z - 1] == '\t' || t[z - 1] == '\n' || other < THEN_MAX)) {
		if (t[z - 1] != ' ' && t[z - 1] != '\t' && t[z - 1] != '\n')
			other++;
		z--;
	}
	size_t h = b;
	/* and those whose before-check reads back to b over blanks and
	 * at most BEFORE_MAX other bytes */
	for (other = 0;
	     P->any_before && h + 1 < len &&
	     (t[h + 1] == ' ' || t[h + 1] == '\t' || t[h + 1] == '\n' || other < BEFORE_MAX);
	     h++)
		if (t[h + 1] != ' ' && t[h + 1] != '\t' && t[h + 1] != '\n')
			other++;
	if (P->any_before && h + 1 < len)
		h++; /* the needle's start, after what its check reads */
	*lo = z > max_ntok ? z - max_ntok : 0;
	*hi = h;
}

/* Appends the find of needle i at q to f; false when out of memory. */
static bool push_find(struct new_finds *f, size_t q, size_t i)
{
	if (f->n == f->cap) {
		size_t c = f->cap ? 2 * f->cap : 64;
		size_t *q2 = realloc(f->q, c * sizeof *q2);
		if (q2)
			f->q = q2;
		unsigned char *i2 = q2 ? realloc(f->needle, c) : NULL;
		if (!i2)
			return false;
		f->needle = i2;
		f->cap = c;
	}
	f->q[f->n] = q;
	f->needle[f->n++] = (unsigned char)i;
	return true;
}

/* Adds to f the patterns' needles that start at p in the new text. */
static bool finds_starting_at(const struct bl_site_plan *P, const unsigned char *t, size_t len,
			      size_t p, struct new_finds *f)
{
	bool ok = true;
	for (size_t w = 0; w < MAX_NEEDLES / 64; w++)
		for (uint64_t set = first_tok[t[p]][w]; set; set &= set - 1) {
			size_t i = 64 * w + (size_t)__builtin_ctzll(set), pp;
			if (!found(P, t, len, p + P->trig[i], i, 0, &pp))
				continue;
			if (P->needles[i].pattern == SIZE_MAX) {
				/* a literal's starts: put in by update_literal() */
				continue;
			}
			if (!push_find(f, p + P->trig[i], i)) {
				ok = false;
				break;
			}
		}
	return ok;
}

/* Marks dirty the starts that may read a changed byte, and adds to f the
 * patterns' finds at them. */
static bool dirty_starts(const struct bl_site_plan *P, const unsigned char *t, size_t len,
			 const size_t *at, size_t n, uint64_t *dirty, struct new_finds *f)
{
	bool ok = true;
	for (size_t k = 0; ok && k < n; k++) {
		size_t lo, hi;
		dirty_span(P, t, len, at[k], &lo, &hi);
		for (size_t p = lo; p <= hi; p++) {
			if (dirty[p / 64] >> (p % 64) & 1)
				continue;
			dirty[p / 64] |= (uint64_t)1 << (p % 64);
			if (!finds_starting_at(P, t, len, p, f))
				ok = false;
		}
	}
	return ok;
}

/* Sorts f's finds in the pass's order (find_before). */
static void sort_finds(struct new_finds *f)
{
	size_t *nq = f->q;
	unsigned char *ni = f->needle;
	for (size_t a = 1; a < f->n; a++)
		for (size_t c = a; c > 0 && find_before(nq[c], ni[c], nq[c - 1], ni[c - 1]); c--) {
			size_t tq = nq[c];
			unsigned char ti = ni[c];
			nq[c] = nq[c - 1];
			ni[c] = ni[c - 1];
			nq[c - 1] = tq;
			ni[c - 1] = ti;
		}
}

/* The needle finds: the old ones whose start is not dirty, merged with
 * the new ones of f (sorted), in the pass's order. */
static bool merge_finds(const struct bl_site_plan *P, struct bl_sites *st, const uint64_t *dirty,
			const struct new_finds *f)
{
	size_t kept = 0;
	for (size_t k = 0; k < st->n; k++) {
		size_t p = st->q[k] - P->trig[st->needle[k]];
		if (!(dirty[p / 64] >> (p % 64) & 1)) {
			st->q[kept] = st->q[k];
			st->needle[kept++] = st->needle[k];
		}
	}
	size_t total = kept + f->n;
	size_t *mq = malloc((total ? total : 1) * sizeof *mq);
	unsigned char *mi = malloc(total ? total : 1);
	if (!mq || !mi) {
		free(mq);
		free(mi);
		return false;
	}
	size_t x = 0, y = 0, o = 0;
	while (x < kept || y < f->n)
		if (y == f->n ||
		    (x < kept && find_before(st->q[x], st->needle[x], f->q[y], f->needle[y]))) {
			mq[o] = st->q[x];
			mi[o++] = st->needle[x++];
		} else {
			mq[o] = f->q[y];
			mi[o++] = f->needle[y++];
		}
	free(st->q);
	free(st->needle);
	st->q = mq;
	st->needle = mi;
	st->n = st->cap = total;
	return true;
}

/* Appends start p to the list l; false when out of memory. */
static bool push_start(struct bl_site_list *l, size_t p)
{
	return grow((void **)&l->v, &l->cap, l->n, sizeof *l->v) && ((l->v[l->n++] = p), true);
}

/* Literal needle i's starts: the old ones outside the dirty starts, and
 * the new ones in them, ascending. */
static bool update_literal(const struct bl_site_plan *P, struct bl_sites *st,
			   const unsigned char *t, size_t len, const uint64_t *dirty, size_t i)
{
	struct bl_site_list *l = &st->literal[P->literal[i]];
	struct bl_site_list nl = {NULL, 0, 0};
	size_t words = (len + 63) / 64, x = 0;
	bool ok = true;
	for (size_t w = 0; ok && w < words; w++)
		for (uint64_t d = dirty[w]; ok && d; d &= d - 1) {
			size_t p = 64 * w + (size_t)__builtin_ctzll(d), pp;
			for (; ok && x < l->n && l->v[x] < p; x++)
				if (!(dirty[l->v[x] / 64] >> (l->v[x] % 64) & 1))
					ok = push_start(&nl, l->v[x]);
			if (ok && (first_tok[t[p]][i / 64] >> (i % 64) & 1) &&
			    found(P, t, len, p + P->trig[i], i, 0, &pp))
				ok = push_start(&nl, p);
		}
	for (; ok && x < l->n; x++)
		if (!(dirty[l->v[x] / 64] >> (l->v[x] % 64) & 1))
			ok = push_start(&nl, l->v[x]);
	if (ok) {
		free(l->v);
		*l = nl;
	} else {
		free(nl.v);
	}
	return ok;
}

/* The marks of the changed bytes and of the bytes after them. */
static void update_marks(const struct bl_site_plan *P, struct bl_sites *st, const unsigned char *t,
			 size_t len, const size_t *at, size_t n)
{
	const struct bl_marks *mk = P->marks;
	for (size_t k = 0; k < n; k++)
		for (size_t x = at[k]; x < len && x <= at[k] + 1; x++) {
			if (bl_is_mark(mk, t[x], x > 0 ? t[x - 1] : 0))
				st->sys[x / 64] |= (uint64_t)1 << (x % 64);
			else
				st->sys[x / 64] &= ~((uint64_t)1 << (x % 64));
		}
}

/* Whether a line of the text is P->long_line bytes long or longer. */
static bool has_long_line(const struct bl_site_plan *P, const char *text, size_t len)
{
	bool long_line = false;
	for (size_t ls = 0; !long_line && len - ls >= P->long_line;) {
		const char *nl = memrchr(text + ls, '\n', P->long_line);
		long_line = !nl;
		ls = nl ? (size_t)(nl - text) + 1 : ls;
	}
	return long_line;
}

bool bl_sites_update(const struct bl_site_plan *P, struct bl_sites *st, const char *text,
		     size_t len, const size_t *at, size_t n)
{
	if (st->gen != P->gen || st->len != len)
		return false;
	if (!n)
		return true;
	first_tokens(P);
	const unsigned char *t = (const unsigned char *)text;
	size_t words = (len + 63) / 64;
	uint64_t *dirty = calloc(words ? words : 1, sizeof *dirty);
	struct new_finds f = {NULL, NULL, 0, 0};
	bool ok = dirty && dirty_starts(P, t, len, at, n, dirty, &f);
	if (ok) {
		sort_finds(&f);
		ok = merge_finds(P, st, dirty, &f);
	}
	for (size_t i = 0; ok && i < P->nneedles; i++)
		if (P->needles[i].pattern == SIZE_MAX)
			ok = update_literal(P, st, t, len, dirty, i);
	if (ok)
		update_marks(P, st, t, len, at, n);
	/* the lines are shorter than they were: looked at again */
	st->long_line = ok && has_long_line(P, text, len);
	free(dirty);
	free(f.q);
	free(f.needle);
	return ok;
}

const struct bl_sites *bl_sites_of_message(const struct bl_site_plan *P, struct bl_message *msg)
{
	if (msg->sites && msg->sites->gen == P->gen && msg->sites->len == msg->len)
		return msg->sites;
	bl_sites_free(msg->sites);
	msg->sites = bl_sites_find(P, msg->text, msg->len);
	return msg->sites;
}

const struct bl_sites *bl_marks_of_message(const struct bl_site_plan *P, struct bl_message *msg)
{
	if (msg->sites && msg->sites->gen == P->gen && msg->sites->len >= msg->len)
		return msg->sites;
	return bl_sites_of_message(P, msg);
}

void bl_sites_set_portable(bool on)
{
	portable = on;
}
