/* needles.c - patterns reduced to needles (see sites.h), and how often
 * prose has a needle's window: the pass tests the rarest window of each
 * needle, and windows that share a bucket are chosen so that prose makes
 * few false finds. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "site_plan.h"

/* Past a character class "[...]" at p, or NULL. */
const char *bl_pattern_skip_class(const char *p, const char *e)
{
	p++;
	if (p < e && *p == '^')
		p++;
	if (p < e && *p == ']')
		p++; /* a leading ']' is a member */
	while (p < e && *p != ']') {
		if (*p == '\\')
			p++;
		else if (*p == '[' && p + 1 < e && p[1] == ':') {
			const char *q = strstr(p + 2, ":]");
			if (!q || q >= e)
				return NULL;
			p = q + 1;
		}
		p++;
	}
	return p < e ? p + 1 : NULL;
}

/* Past the group "(...)" at p, or NULL. */
const char *bl_pattern_skip_group(const char *p, const char *e)
{
	int depth = 0;
	while (p < e) {
		if (*p == '\\') {
			p += 2;
			continue;
		}
		if (*p == '[') {
			p = bl_pattern_skip_class(p, e);
			if (!p)
				return NULL;
			continue;
		}
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return p + 1;
		p++;
	}
	return NULL;
}

/* How unlikely a token is in prose; a needle's score is the sum. */
static double rarity(unsigned t)
{
	if (t == BL_NEEDLE_DIGIT)
		return 0.7;
	if (t == ' ')
		return 0.2;
	if (t >= 'a' && t <= 'z')
		return strchr("etaoinsr", (int)t) ? 0.5 : 1.0;
	if (t >= 'A' && t <= 'Z')
		return 1.5;
	if (t >= '0' && t <= '9')
		return 1.0;
	if (t == '.' || t == ',')
		return 0.6;
	return 2.5;
}

static double prose_rate(const struct bl_needle *n, size_t at);

/* Where the VT tokens of needle n tested in the vector pass start: the
 * window prose has least (prose_rate(); "size" of "sectorsize", not the
 * "sect" of every "sector"), the first of equals. */
size_t bl_needle_trigger(const struct bl_needle *n)
{
	if (n->ntok <= VT)
		return 0;
	size_t best = 0;
	double bs = 2;
	for (size_t i = 0; i + VT <= n->ntok; i++) {
		double sc = prose_rate(n, i);
		if (sc < bs) {
			bs = sc;
			best = i;
		}
	}
	return best;
}

struct reducer {
	unsigned short run[BL_NEEDLE_MAX];
	size_t n;
	const char *end; /* past the run's last token in the pattern, or
			    * NULL when that token repeats */
	const char *start; /* where its first token starts, or NULL when that
			    * token is the last copy of one that repeats */
	struct bl_needle best;
	const char *best_end, *best_start;
	double best_score;
};

/* Ends the current run of required tokens; keeps it if it is the best. */
static void close_run(struct reducer *r)
{
	double score = 0;
	size_t key_at = 0, key_len = 0;
	double key_score = -1;
	for (size_t i = 0; i < r->n;) {
		if (r->run[i] == BL_NEEDLE_DIGIT) {
			score += rarity(BL_NEEDLE_DIGIT);
			i++;
			continue;
		}
		size_t j = i;
		double ks = 0;
		while (j < r->n && r->run[j] != BL_NEEDLE_DIGIT)
			ks += rarity(r->run[j++]);
		score += ks;
		if (ks > key_score) {
			key_score = ks;
			key_at = i;
			key_len = j - i;
		}
		i = j;
	}
	/* a needle needs bytes to search for, and more than blanks */
	if (key_len && key_score >= 0.5 && score > r->best_score) {
		r->best_score = score;
		memset(&r->best, 0, sizeof r->best);
		memcpy(r->best.tok, r->run, r->n * sizeof r->run[0]);
		r->best.ntok = r->n;
		r->best.key_at = key_at;
		r->best.key_len = key_len;
		for (size_t k = 0; k < key_len; k++)
			r->best.key[k] = (char)r->run[key_at + k];
		r->best_end = r->end;
		r->best_start = r->start;
	}
	r->n = 0;
}

/* Token t, which starts at `at` in the pattern (NULL: a copy of a token
 * that repeats), onto the run. */
static void push(struct reducer *r, unsigned short t, const char *at)
{
	if (r->n == BL_NEEDLE_MAX)
		close_run(r); /* any piece of a required run is required too */
	if (!r->n)
		r->start = at;
	r->run[r->n++] = t;
}

/* The quantifier at p, if any ("?", "*", "+", "{2,5}", each perhaps lazy
 * or possessive): how often the token before it repeats, lo to hi (1 and
 * 1 without one). Past it, or NULL when it is malformed. */
static const char *quantifier(const char *p, const char *e, unsigned long *lo, unsigned long *hi)
{
	*lo = *hi = 1;
	if (p >= e || (*p != '?' && *p != '*' && *p != '+' && *p != '{'))
		return p;
	if (*p == '?') {
		*lo = 0;
	} else if (*p == '*') {
		*lo = 0;
		*hi = ULONG_MAX;
	} else if (*p == '+') {
		*hi = ULONG_MAX;
	} else {
		char *q;
		const char *s = p + 1;
		*lo = (*s == ',') ? 0 : strtoul(s, &q, 10);
		if (*s != ',' && q == s)
			return NULL;
		if (*s != ',')
			s = q;
		if (*s == ',') {
			s++;
			*hi = (*s == '}') ? ULONG_MAX : strtoul(s, &q, 10);
			if (*s != '}')
				s = q;
		} else {
			*hi = *lo;
		}
		if (*s != '}')
			return NULL;
		p = s;
	}
	p++;
	if (p < e && (*p == '?' || *p == '+'))
		p++; /* lazy or possessive */
	return p;
}

/* The best needle of one branch [p, e); false when it has none. */
static bool reduce_branch(const char *p, const char *e, struct bl_needle *out)
{
	struct reducer r = {.n = 0, .best_score = -1};
	const char *branch = p;
	while (p < e) {
		const char *tokp = p;
		unsigned char c = (unsigned char)*p;
		unsigned short tok = 0;
		bool other = false;
		if (c == '\\') {
			if (p + 1 >= e)
				return false;
			unsigned char d = (unsigned char)p[1];
			if (d == 'd')
				tok = BL_NEEDLE_DIGIT;
			else if (d == 't' || d == 'n' || d == 'r')
				tok = d == 't' ? '\t' : d == 'n' ? '\n' : '\r';
			else if (d && strchr("sSwWDbBntrfehHvVRAzZGK", d))
				other = true;
			else if ((d >= '0' && d <= '9') || (d >= 'a' && d <= 'z') ||
				 (d >= 'A' && d <= 'Z') || d >= 0x80)
				return false; /* \x41, \p{L}, \Q..\E, back references */
			else
				tok = d;
			p += 2;
		} else if (c == '[') {
			p = bl_pattern_skip_class(p, e);
			if (!p)
				return false;
			other = true;
		} else if (c == '(') {
			/* verbs (*MARK) and option settings (?i) change what follows */
			if (p + 1 < e && p[1] == '*')
				return false;
			if (p + 2 < e && p[1] == '?' &&
			    ((p[2] >= 'a' && p[2] <= 'z') || (p[2] >= 'A' && p[2] <= 'Z') ||
			     p[2] == '-' || p[2] == '^'))
				return false;
			p = bl_pattern_skip_group(p, e);
			if (!p)
				return false;
			other = true;
		} else if (c == '.' || c == '^' || c == '$') {
			other = true;
			p++;
		} else if (c >= 0x80) {
			other = true; /* a multibyte character: left to the regex */
			p++;
			while (p < e && ((unsigned char)*p & 0xC0) == 0x80)
				p++;
		} else if (strchr("*+?{)|#", c)) {
			return false;
		} else {
			tok = c;
			p++;
		}
		unsigned long lo, hi;
		if (!(p = quantifier(p, e, &lo, &hi)))
			return false;
		if (other || lo == 0) {
			close_run(&r);
		} else if (hi == 1) {
			push(&r, tok, tokp);
			r.end = p;
		} else {
			/* the first copy ends this run, the last starts the next */
			r.end = NULL;
			push(&r, tok, tokp);
			close_run(&r);
			push(&r, tok, NULL);
			r.end = p;
		}
	}
	close_run(&r);
	if (r.best_score < 0)
		return false;
	*out = r.best;
	out->after_at = r.best_end ? (size_t)(r.best_end - branch) : SIZE_MAX;
	out->before_at = r.best_start ? (size_t)(r.best_start - branch) : SIZE_MAX;
	return true;
}

int bl_pattern_needles(const char *pattern, struct bl_needle *out, size_t max)
{
	const char *p = pattern, *e = pattern + strlen(pattern), *b = pattern;
	size_t n = 0;
	for (;;) {
		if (p == e || *p == '|') {
			if (n == max || !reduce_branch(b, p, &out[n]))
				return -1;
			out[n].branch_off = (size_t)(b - pattern);
			out[n].branch_len = (size_t)(p - b);
			n++;
			if (p == e)
				return (int)n;
			b = ++p;
			continue;
		}
		if (*p == '\\')
			p = p + 1 < e ? p + 2 : e;
		else if (*p == '[')
			p = bl_pattern_skip_class(p, e);
		else if (*p == '(')
			p = bl_pattern_skip_group(p, e);
		else
			p++;
		if (!p)
			return -1;
	}
}

/* The needle search: each needle contributes its rarest window of four
 * tokens (a byte or a digit), and one pass over the text tests every
 * window against 32 positions at a time (GCC vector extensions: SSE2 or
 * AVX2 on x86-64, NEON on arm64, plain code elsewhere). Positions that
 * pass are verified against the whole needle. Prose passes almost never. */

/* How often byte x occurs in the prose of mail, roughly (English letter
 * frequencies, a blank in six bytes, capitals of names and acronyms
 * ("FreeBSD", "SATA"), some digits and punctuation): what a window that
 * takes x costs in false finds. */
static double prose_weight(unsigned x)
{
	static const double letters[26] = {8.2, 1.5, 2.8, 4.3, 12.7, 2.2, 2.0, 6.1, 7.0,
					   0.2, 0.8, 4.0, 2.4, 6.7,  7.5, 1.9, 0.1, 6.0,
					   6.3, 9.1, 2.8, 1.0, 2.4,  0.2, 2.0, 0.1};
	if (x >= 'a' && x <= 'z')
		return letters[x - 'a'] * 0.0075;
	if (x >= 'A' && x <= 'Z')
		return letters[x - 'A'] * 0.001;
	if (x >= '0' && x <= '9')
		return 0.003;
	switch (x) {
	case ' ': return 0.16;
	case '\n': return 0.015;
	case ',':
	case '.': return 0.01;
	default: return 0.0005;
	}
}

/* The share of prose bytes a bucket's nibble sets lo and hi take: in
 * *digits the ASCII digits', in *other the rest's. */
static void taken(unsigned lo, unsigned hi, double *digits, double *other)
{
	static double w[16][16];
	static bool ready;
	if (!ready) {
		for (unsigned x = 0; x < 256; x++)
			w[x & 15][x >> 4] = prose_weight(x);
		ready = true;
	}
	/* the same sets come up again and again while the buckets are
	 * placed: their shares are kept, by the last pair of sets per slot */
	static struct {
		uint32_t key;
		double digits, other;
	} memo[1024];
	uint32_t key = lo << 16 | hi, slot = (key * 2654435761u) >> 22;
	if (key && memo[slot].key == key) {
		*digits = memo[slot].digits;
		*other = memo[slot].other;
		return;
	}
	*digits = *other = 0;
	for (unsigned l = lo; l; l &= l - 1)
		for (unsigned h = hi; h; h &= h - 1) {
			unsigned x = (unsigned)__builtin_ctz(h) << 4 | (unsigned)__builtin_ctz(l);
			*(x >= '0' && x <= '9' ? digits : other) += w[x & 15][x >> 4];
		}
	memo[slot].key = key;
	memo[slot].digits = *digits;
	memo[slot].other = *other;
}

/* The bytes token v takes, as nibble sets: lo[] and hi[] bits 0..15. */
void bl_vtok_nibbles(const struct vtok *v, unsigned *lo, unsigned *hi)
{
	*lo = *hi = 0;
	for (unsigned x = 0; x < 256; x++)
		if ((unsigned char)(x - v->lo) <= v->span) {
			*lo |= 1u << (x & 15);
			*hi |= 1u << (x >> 4);
		}
}

/* The share of prose positions where a bucket with these nibble sets
 * finds something. Digits come in runs ("2010", "512 MB"): a digit
 * follows a digit 14 times as often as its share of the bytes says, and
 * a digit and a byte of another kind follow each other half as often (a
 * mail archive's prose), so that windows of digits ("512", "102", "\d+\d")
 * do not share a bucket, where they would take every number. */
double bl_nibbles_rate(const unsigned lo[VT], const unsigned hi[VT])
{
	static const double follow[2][2] = {{1.0, 0.56}, {0.56, 14.0}}; /* [digit before][digit] */
	double share[VT][2], r = 0;
	for (int k = 0; k < VT; k++)
		taken(lo[k], hi[k], &share[k][1], &share[k][0]);
	for (unsigned c = 0; c < 1u << VT; c++) {
		/* bit k of c: token k is a digit */
		double x = share[0][c & 1];
		for (int k = 1; k < VT; k++)
			x *= share[k][c >> k & 1] * follow[c >> (k - 1) & 1][c >> k & 1];
		r += x;
	}
	return r;
}

/* The share of prose positions where needle n's window of VT tokens
 * from `at` is found. */
static double prose_rate(const struct bl_needle *n, size_t at)
{
	unsigned lo[VT], hi[VT];
	for (size_t k = 0; k < VT; k++) {
		unsigned t = at + k < n->ntok ? n->tok[at + k] : 256;
		struct vtok v = {0, 255}; /* past the needle: any byte */
		if (t == BL_NEEDLE_DIGIT)
			v = (struct vtok){'0', 9};
		else if (t < 256)
			v = (struct vtok){(unsigned char)t, 0};
		bl_vtok_nibbles(&v, &lo[k], &hi[k]);
	}
	return bl_nibbles_rate(lo, hi);
}
