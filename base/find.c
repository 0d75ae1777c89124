/* find.c - the searches of find.h that are not inline. */
#include "find.h"

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

typedef unsigned char v16 __attribute__((vector_size(16)));

#if defined(__x86_64__) && defined(__GNUC__)
/* Whether the CPU runs AVX2, asked once. */
static bool have_avx2(void)
{
	static int avx2 = -1;
	if (avx2 < 0)
		avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
	return avx2;
}
#endif

/* Whether needle[1, nlen - 1) sits at s + 1 (its ends matched already). */
static inline bool inner_equal(const char *s, const char *needle, size_t nlen)
{
	for (size_t k = 1; k + 1 < nlen; k++)
		if (s[k] != needle[k])
			return false;
	return true;
}

/* Positions i on too few for a vector step (`digit`: only where an
 * ASCII digit follows the needle): each place of the needle's first byte,
 * found by memchr, compared. */
static const char *find_lit_tail(const char *s, size_t n, size_t i, const char *needle, size_t nlen,
				 bool digit)
{
	if (n < nlen + digit)
		return NULL;
	const size_t last = n - nlen - digit; /* the last position possible */
	while (i <= last) {
		const char *p = memchr(s + i, (unsigned char)needle[0], last - i + 1);
		if (!p)
			return NULL;
		i = (size_t)(p - s);
		if (s[i + nlen - 1] == needle[nlen - 1] && inner_equal(s + i, needle, nlen) &&
		    (!digit || (unsigned char)(s[i + nlen] - '0') <= 9))
			return p;
		i++;
	}
	return NULL;
}

#if defined(__x86_64__) && defined(__GNUC__)
#define BL_HAVE_AVX2_FIND 1
__attribute__((target("avx2"), always_inline)) static inline const char *find_lit_avx2(
	const char *s, size_t n, const char *needle, size_t nlen, bool digit)
{
	const __m256i first = _mm256_set1_epi8(needle[0]);
	const __m256i last = _mm256_set1_epi8(needle[nlen - 1]);
	const __m256i zero = _mm256_set1_epi8('0'), nine = _mm256_set1_epi8(9);
	size_t i = 0;
	for (; i + nlen + 32 <= n; i += 32) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(s + i + nlen - 1));
		__m256i hit =
			_mm256_and_si256(_mm256_cmpeq_epi8(a, first), _mm256_cmpeq_epi8(b, last));
		if (digit) {
			/* (x - '0') <= 9 unsigned: its minimum with 9 is itself */
			__m256i d = _mm256_sub_epi8(
				_mm256_loadu_si256((const __m256i *)(s + i + nlen)), zero);
			hit = _mm256_and_si256(hit, _mm256_cmpeq_epi8(_mm256_min_epu8(d, nine), d));
		}
		uint32_t bits = (uint32_t)_mm256_movemask_epi8(hit);
		while (bits) {
			unsigned j = (unsigned)__builtin_ctz(bits);
			if (inner_equal(s + i + j, needle, nlen))
				return s + i + j;
			bits &= bits - 1;
		}
	}
	return find_lit_tail(s, n, i, needle, nlen, digit);
}

/* one copy each way, the test of `digit` out of the loop */
__attribute__((target("avx2"))) static const char *find_lit_avx2_plain(const char *s, size_t n,
								       const char *needle,
								       size_t nlen)
{
	return find_lit_avx2(s, n, needle, nlen, false);
}

__attribute__((target("avx2"))) static const char *find_lit_avx2_digit(const char *s, size_t n,
								       const char *needle,
								       size_t nlen)
{
	return find_lit_avx2(s, n, needle, nlen, true);
}
#endif

static const char *find_lit_vec(const char *s, size_t n, const char *needle, size_t nlen,
				bool digit)
{
	size_t i = 0;
	for (; i + nlen + 16 <= n; i += 16) {
		v16 a, b, d;
		memcpy(&a, s + i, 16);
		memcpy(&b, s + i + nlen - 1, 16);
		v16 hit = (v16)(a == (unsigned char)needle[0]) &
			  (v16)(b == (unsigned char)needle[nlen - 1]);
		if (digit) {
			memcpy(&d, s + i + nlen, 16);
			hit &= (v16)((v16)(d - '0') <= 9);
		}
		uint64_t lanes[2];
		memcpy(lanes, &hit, sizeof lanes);
		if (!(lanes[0] | lanes[1]))
			continue;
		for (size_t j = 0; j < 16; j++)
			if (hit[j] && inner_equal(s + i + j, needle, nlen))
				return s + i + j;
	}
	return find_lit_tail(s, n, i, needle, nlen, digit);
}

static const char *find_lit(const char *s, size_t n, const char *needle, size_t nlen, bool digit)
{
	if (nlen == 0 || n < nlen + digit)
		return NULL;
#ifdef BL_HAVE_AVX2_FIND
	if (have_avx2())
		return digit ? find_lit_avx2_digit(s, n, needle, nlen)
			     : find_lit_avx2_plain(s, n, needle, nlen);
#endif
	return find_lit_vec(s, n, needle, nlen, digit);
}

void bl_byteset_init(struct bl_byteset *set, const char *members)
{
	memset(set, 0, sizeof *set);
	for (const unsigned char *p = (const unsigned char *)members; *p; p++)
		if (*p < 0x80)
			set->lo[*p & 15] |= (unsigned char)(1u << (*p >> 4));
}

static inline bool in_set(const struct bl_byteset *set, unsigned char c)
{
	return c < 0x80 && (set->lo[c & 15] >> (c >> 4) & 1);
}

#ifdef BL_HAVE_AVX2_FIND
/* A byte's low nibble looks up its set bits, its high nibble the bit it
 * needs (none for bytes past 0x7F): 32 lines starts a step. */
__attribute__((target("avx2"))) static size_t line_start_avx2(const char *s, size_t n,
							      const struct bl_byteset *set)
{
	static const unsigned char bit[16] = {1, 2, 4, 8, 16, 32, 64, 128};
	const __m256i lo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)set->lo));
	const __m256i hi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)bit));
	const __m256i nl = _mm256_set1_epi8('\n'), low = _mm256_set1_epi8(0x0f);
	const __m256i zero = _mm256_setzero_si256();
	size_t i = 0;
	for (; i + 1 + 32 <= n; i += 32) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(s + i + 1));
		__m256i m = _mm256_and_si256(
			_mm256_shuffle_epi8(lo, _mm256_and_si256(b, low)),
			_mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(b, 4), low)));
		uint32_t bits = (uint32_t)_mm256_movemask_epi8(
			_mm256_andnot_si256(_mm256_cmpeq_epi8(m, zero), _mm256_cmpeq_epi8(a, nl)));
		if (bits)
			return i + (size_t)__builtin_ctz(bits) + 1;
	}
	for (; i + 1 < n; i++)
		if (s[i] == '\n' && in_set(set, (unsigned char)s[i + 1]))
			return i + 1;
	return n;
}
#endif

size_t bl_find_line_start(const char *s, size_t n, const struct bl_byteset *set)
{
#ifdef BL_HAVE_AVX2_FIND
	if (have_avx2())
		return line_start_avx2(s, n, set);
#endif
	for (size_t i = 0; i + 1 < n; i++) {
		const char *p = memchr(s + i, '\n', n - 1 - i);
		if (!p)
			break;
		i = (size_t)(p - s);
		if (in_set(set, (unsigned char)s[i + 1]))
			return i + 1;
	}
	return n;
}

void bl_marks_init(struct bl_marks *mk)
{
	memset(mk, 0, sizeof *mk);
}

bool bl_marks_add(struct bl_marks *mk, const char *members, enum bl_mark_where where)
{
	if (mk->groups >= 8)
		return false;
	const unsigned char bit = (unsigned char)(1u << mk->groups++);
	for (const unsigned char *p = (const unsigned char *)members; *p; p++) {
		mk->lo[*p & 15] |= bit;
		mk->hi[*p >> 4] |= bit;
	}
	if (where == BL_MARK_LINE_START)
		mk->line |= bit;
	else if (where == BL_MARK_AFTER_DIGIT)
		mk->digit |= bit;
	return true;
}

#ifdef BL_HAVE_AVX2_FIND
/* The groups that count after each of the 32 bytes b: those counting
 * anywhere, the line start's after a '\n', the digit's after a digit. */
__attribute__((target("avx2"), always_inline)) static inline __m256i groups_after(__m256i b,
										  __m256i anywhere,
										  __m256i line,
										  __m256i digit)
{
	__m256i d = _mm256_sub_epi8(b, _mm256_set1_epi8('0'));
	__m256i is_digit = _mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(9)), d);
	__m256i is_nl = _mm256_cmpeq_epi8(b, _mm256_set1_epi8('\n'));
	return _mm256_or_si256(anywhere, _mm256_or_si256(_mm256_and_si256(is_nl, line),
							 _mm256_and_si256(is_digit, digit)));
}

/* A byte's low half looks up the groups that take it, its high half the
 * groups that take that: a mark where both agree, on a group that counts
 * anywhere, on one that counts at a line start after a '\n', or on one
 * that counts after a digit after one (the byte before, loaded one
 * back). 64 bytes a step; the last step overlaps the one before to end at
 * n. */
__attribute__((target("avx2"))) static size_t find_marks_avx2(const char *s, size_t from, size_t n,
							      const struct bl_marks *mk,
							      uint64_t *bits, size_t *next)
{
	const __m256i lo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)mk->lo));
	const __m256i hi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)mk->hi));
	const __m256i low = _mm256_set1_epi8(0x0f);
	const __m256i anywhere = _mm256_set1_epi8((char)(unsigned char)~(mk->line | mk->digit));
	const __m256i line = _mm256_set1_epi8((char)mk->line);
	const __m256i digit = _mm256_set1_epi8((char)mk->digit);
	const __m256i zero = _mm256_setzero_si256();
#define MARKS_AT(i)                                                                                \
	_mm256_and_si256(                                                                          \
		_mm256_and_si256(                                                                  \
			_mm256_shuffle_epi8(lo, _mm256_and_si256(a, low)),                         \
			_mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(a, 4), low))),  \
		groups_after(_mm256_loadu_si256((const __m256i *)(s + (i)-1)), anywhere, line,     \
			     digit))
#define MASK64(m, m2)                                                                              \
	((uint64_t)(uint32_t)~_mm256_movemask_epi8(_mm256_cmpeq_epi8(m, zero)) |                   \
	 (uint64_t)(uint32_t)~_mm256_movemask_epi8(_mm256_cmpeq_epi8(m2, zero)) << 32)
	size_t i = from;
	for (; i + 64 <= n; i += 64) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
		__m256i m = MARKS_AT(i);
		a = _mm256_loadu_si256((const __m256i *)(s + i + 32));
		__m256i m2 = MARKS_AT(i + 32);
		__m256i both = _mm256_or_si256(m, m2);
		if (!_mm256_testz_si256(both, both)) {
			*bits = MASK64(m, m2);
			*next = i + 64;
			return i;
		}
	}
	*next = n;
	if (i < n) {
		/* 64 bytes ending at n, the offsets before i dropped */
		size_t j = n - 64;
		__m256i a = _mm256_loadu_si256((const __m256i *)(s + j));
		__m256i m = MARKS_AT(j);
		a = _mm256_loadu_si256((const __m256i *)(s + j + 32));
		__m256i m2 = MARKS_AT(j + 32);
		*bits = MASK64(m, m2) >> (i - j);
		if (*bits)
			return i;
	}
#undef MASK64
#undef MARKS_AT
	*bits = 0;
	return n;
}
#endif

#ifdef BL_HAVE_AVX2_FIND
static int marks_avx2 = -1;
#endif

size_t bl_find_marks(const char *s, size_t from, size_t n, const struct bl_marks *mk,
		     uint64_t *bits, size_t *next)
{
#ifdef BL_HAVE_AVX2_FIND
	/* the vector steps read s[i - 1] and 64 bytes from i: from >= 1,
	 * and the last step is moved back to end at n */
	if (marks_avx2 > 0 && from > 0 && from < n && n >= 65)
		return find_marks_avx2(s, from, n, mk, bits, next);
#endif
	*bits = 0;
	*next = n;
	if (from >= n)
		return n;
	if (from == 0 && bl_is_mark(mk, (unsigned char)s[0], 0)) {
		*bits = 1;
		*next = 1;
		return 0;
	}
	if (from == 0)
		from = 1;
#ifdef BL_HAVE_AVX2_FIND
	if (marks_avx2 < 0)
		marks_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
	if (marks_avx2 && n >= 65)
		return find_marks_avx2(s, from, n, mk, bits, next);
#endif
	for (size_t i = from; i < n; i += 64) {
		size_t end = n - i > 64 ? i + 64 : n;
		for (size_t k = i; k < end; k++)
			if (bl_is_mark(mk, (unsigned char)s[k], (unsigned char)s[k - 1]))
				*bits |= (uint64_t)1 << (k - i);
		if (*bits) {
			*next = end;
			return i;
		}
	}
	return n;
}

size_t bl_find_mark(const char *s, size_t from, size_t n, const struct bl_marks *mk)
{
	uint64_t bits;
	size_t next, at = bl_find_marks(s, from, n, mk, &bits, &next);
	return bits ? at + (size_t)__builtin_ctzll(bits) : n;
}

const char *bl_find_lit(const char *s, size_t n, const char *needle, size_t nlen)
{
	if (nlen == 1)
		return n ? memchr(s, (unsigned char)needle[0], n) : NULL;
	return find_lit(s, n, needle, nlen, false);
}

/* Whether a or b sits at s: compared here, not by a call (which would
 * have the vector loop around it keep its registers in memory). */
static inline const char *either_at(const char *s, const char *a, const char *b, size_t nlen)
{
	size_t k = 0;
	while (k < nlen && s[k] == a[k])
		k++;
	if (k == nlen)
		return s;
	for (k = 0; k < nlen && s[k] == b[k]; k++)
		;
	return k == nlen ? s : NULL;
}

/* The positions from i on, one by one (the tail past the vector steps). */
static const char *find_lit2_line_tail(const char *s, size_t n, size_t i, const char *a,
				       const char *b, size_t nlen, size_t *line)
{
	for (; i < n && s[i] != '\n'; i++)
		if (i + nlen <= n && (s[i] == a[0] || s[i] == b[0]) && either_at(s + i, a, b, nlen))
			return s + i;
	*line = i;
	return NULL;
}

#ifdef BL_HAVE_AVX2_FIND
/* 32 positions a step, by both needles' first and last bytes, the
 * newline among them ending the search. */
__attribute__((target("avx2"))) static const char *find_lit2_line_avx2(const char *s, size_t n,
								       const char *a, const char *b,
								       size_t nlen, size_t *line)
{
	const __m256i a0 = _mm256_set1_epi8(a[0]), a1 = _mm256_set1_epi8(a[nlen - 1]);
	const __m256i b0 = _mm256_set1_epi8(b[0]), b1 = _mm256_set1_epi8(b[nlen - 1]);
	const __m256i nl = _mm256_set1_epi8('\n');
	size_t i = 0;
	for (; i + nlen - 1 + 32 <= n; i += 32) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(s + i));
		__m256i y = _mm256_loadu_si256((const __m256i *)(s + i + nlen - 1));
		uint32_t hit = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
			_mm256_and_si256(_mm256_cmpeq_epi8(x, a0), _mm256_cmpeq_epi8(y, a1)),
			_mm256_and_si256(_mm256_cmpeq_epi8(x, b0), _mm256_cmpeq_epi8(y, b1))));
		uint32_t end = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, nl));
		if (end)
			hit &= (end & -end) - 1; /* the positions before the newline */
		for (; hit; hit &= hit - 1) {
			const char *p = either_at(s + i + (size_t)__builtin_ctz(hit), a, b, nlen);
			if (p)
				return p;
		}
		if (end) {
			*line = i + (size_t)__builtin_ctz(end);
			return NULL;
		}
	}
	return find_lit2_line_tail(s, n, i, a, b, nlen, line);
}
#endif

const char *bl_find_lit2_line(const char *s, size_t n, const char *a, const char *b, size_t nlen,
			      size_t *line)
{
#ifdef BL_HAVE_AVX2_FIND
	if (have_avx2() && nlen >= 2)
		return find_lit2_line_avx2(s, n, a, b, nlen, line);
#endif
	return find_lit2_line_tail(s, n, 0, a, b, nlen, line);
}

const char *bl_find_lit_digit(const char *s, size_t n, const char *needle, size_t nlen)
{
	return find_lit(s, n, needle, nlen, true);
}

const char *bl_find_digit(const char *s, size_t n)
{
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		v16 v;
		memcpy(&v, s + i, 16);
		v16 d = (v16)((v16)(v - '0') <= 9);
		uint64_t lanes[2];
		memcpy(lanes, &d, sizeof lanes);
		if (!(lanes[0] | lanes[1]))
			continue;
		for (size_t j = 0; j < 16; j++)
			if (d[j])
				return s + i + j;
	}
	for (; i < n; i++)
		if ((unsigned char)(s[i] - '0') <= 9)
			return s + i;
	return NULL;
}

typedef signed char s16 __attribute__((vector_size(16)));

size_t bl_count_byte(const char *s, size_t n, char c)
{
	size_t count = 0, i = 0;
	const unsigned char u = (unsigned char)c;
	/* each lane of `acc` goes down by one a match (a match is 0xFF, added
	 * modulo 256), up to four times a step: 63 steps at most (252 matches)
	 * before it is added up */
	while (i + 64 <= n) {
		v16 acc = {0};
		size_t steps = (n - i) / 64 < 63 ? (n - i) / 64 : 63;
		for (size_t k = 0; k < steps; k++, i += 64) {
			v16 v[4];
			memcpy(v, s + i, 64);
			acc += (v16)(v[0] == u) + (v16)(v[1] == u) + (v16)(v[2] == u) +
			       (v16)(v[3] == u);
		}
		for (size_t k = 0; k < 16; k++)
			count += (unsigned char)(256u - acc[k]);
	}
	for (; i < n; i++)
		count += s[i] == c;
	return count;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* The 64-byte steps of bl_ascii_span in two AVX2 compares: where the
 * steps stopped (a multiple of 64 with a byte outside 1..127 in the next
 * 64, or the last multiple of 64 within n). */
__attribute__((target("avx2"))) static size_t ascii_steps_avx2(const char *s, size_t n)
{
	const __m256i zero = _mm256_setzero_si256();
	size_t i = 0;
	for (; i + 64 <= n; i += 64) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
		__m256i b = _mm256_loadu_si256((const __m256i *)(s + i + 32));
		/* 1..127 is above zero as a signed byte */
		__m256i good =
			_mm256_and_si256(_mm256_cmpgt_epi8(a, zero), _mm256_cmpgt_epi8(b, zero));
		if ((uint32_t)_mm256_movemask_epi8(good) != UINT32_MAX)
			break;
	}
	return i;
}
#endif

size_t bl_ascii_span(const char *s, size_t n)
{
	size_t i = 0;
#if defined(__x86_64__) && defined(__GNUC__)
	if (have_avx2())
		i = ascii_steps_avx2(s, n);
#endif
	/* 64 bytes a step while they are all ASCII (most of the text): a
	 * byte in 1..127 is one above zero as a signed char */
	for (; i + 64 <= n; i += 64) {
		s16 v[4];
		memcpy(v, s + i, 64);
		s16 bad = (s16)(v[0] < 1) | (s16)(v[1] < 1) | (s16)(v[2] < 1) | (s16)(v[3] < 1);
		uint64_t lanes[2];
		memcpy(lanes, &bad, sizeof lanes);
		if (lanes[0] | lanes[1])
			break;
	}
	for (; i + 16 <= n; i += 16) {
		v16 v;
		memcpy(&v, s + i, 16);
		/* 1..127 is (x - 1) < 127 */
		v16 bad = (v16)((v16)(v - 1) >= 127);
		uint64_t lanes[2];
		memcpy(lanes, &bad, sizeof lanes);
		if (lanes[0] | lanes[1])
			break;
	}
	while (i < n && (unsigned char)(s[i] - 1) < 127)
		i++;
	return i;
}
