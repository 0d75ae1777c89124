/* anchor.c - anchors reduced to needles, searched in bucket tables (see
 * anchor.h); the JIT-compiled alternation runs only on the lines that hold
 * a needle. */
#include "anchor.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ingest/unflatten.h"
#include "parser.h"
#include "re.h"
#include "system.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

/* ------------------------------------------------------ anchors to needles */

/* Past a character class "[...]" at p, or NULL. */
static const char *skip_class(const char *p, const char *e)
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
static const char *skip_group(const char *p, const char *e)
{
	int depth = 0;
	while (p < e) {
		if (*p == '\\') {
			p += 2;
			continue;
		}
		if (*p == '[') {
			p = skip_class(p, e);
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

/* The tokens of a needle tested in the vector pass: a window of VT. */
#define VT 4

static double prose_rate(const struct bl_needle *n, size_t at);

/* Where the VT tokens of needle n tested in the vector pass start: the
 * window prose has least (prose_rate(); "size" of "sectorsize", not the
 * "sect" of every "sector"), the first of equals. */
static size_t trigger_at(const struct bl_needle *n)
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
	const char *end;   /* past the run's last token in the pattern, or
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
			p = skip_class(p, e);
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
			p = skip_group(p, e);
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
		/* the quantifier, if any */
		unsigned long lo = 1, hi = 1;
		if (p < e && (*p == '?' || *p == '*' || *p == '+' || *p == '{')) {
			if (*p == '?')
				lo = 0;
			else if (*p == '*')
				lo = 0, hi = ULONG_MAX;
			else if (*p == '+')
				hi = ULONG_MAX;
			else {
				char *q;
				const char *s = p + 1;
				lo = (*s == ',') ? 0 : strtoul(s, &q, 10);
				if (*s != ',' && q == s)
					return false;
				if (*s != ',')
					s = q;
				if (*s == ',') {
					s++;
					hi = (*s == '}') ? ULONG_MAX : strtoul(s, &q, 10);
					if (*s != '}')
						s = q;
				} else {
					hi = lo;
				}
				if (*s != '}')
					return false;
				p = s;
			}
			p++;
			if (p < e && (*p == '?' || *p == '+'))
				p++; /* lazy or possessive */
		}
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

int bl_anchor_needles(const char *anchor, struct bl_needle *out, size_t max)
{
	const char *p = anchor, *e = anchor + strlen(anchor), *b = anchor;
	size_t n = 0;
	for (;;) {
		if (p == e || *p == '|') {
			if (n == max || !reduce_branch(b, p, &out[n]))
				return -1;
			out[n].branch_off = (size_t)(b - anchor);
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
			p = skip_class(p, e);
		else if (*p == '(')
			p = skip_group(p, e);
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
typedef unsigned char vbytes __attribute__((vector_size(32)));

/* One token of a needle's window, as a byte range: mask = x - lo <= span. */
struct vtok {
	unsigned char lo, span;
};

/* ------------------------------------------------------- compiled patterns */

#define MAX_NEEDLES 128
#define NBUCKETS 16
#define THEN_MAX 4
#define BEFORE_MAX 8

/* The steps of a then-check: a blank run (of at least one, or of any
 * length), a digit, a byte. */
enum { THEN_BLANKS1, THEN_BLANKS0, THEN_DIGIT, THEN_BYTE, THEN_CLASS };

static struct {
	bool built, failed, off;
	unsigned gen; /* counts the tables built, for the sites found with them */
	bool portable; /* for tests: the portable pass even where AVX2 is */
	struct bl_needle needles[MAX_NEEDLES];
	size_t trig[MAX_NEEDLES]; /* where each needle's vector test starts */
	struct vtok vt[MAX_NEEDLES][VT]; /* and its tokens */
	pcre2_code *branch[MAX_NEEDLES];  /* the anchor branch of each needle */
	size_t vwin[MAX_NEEDLES], nvwin;  /* needles with distinct windows */
	size_t nneedles;
	/* for a needle that stands for no parser (its parser is SIZE_MAX):
	 * the unflattener's literal it is (bl_tool_literal()) */
	size_t tool[MAX_NEEDLES];
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
	pcre2_code *fast; /* parsers found by their needles */
	pcre2_code *slow; /* parsers found by the regex alone */
} A;

/* The scan of the last message, kept for the next: making one (match
 * data, a match context, 1 KB zeroed) cost 2,200 instructions, paid by
 * every message of an archive. */
static struct bl_anchor_scan *spare;
static void scan_destroy(struct bl_anchor_scan *s);
/* The sites freed last, kept with their arrays for the next text: two
 * allocations zeroed and their lists grown again cost a message of
 * prose 1,300 instructions. */
static struct bl_sites *spare_sites;
static void sites_destroy(struct bl_sites *st);

static void free_patterns(void)
{
	if (spare) {
		scan_destroy(spare);
		spare = NULL;
	}
	if (spare_sites) {
		sites_destroy(spare_sites);
		spare_sites = NULL;
	}
	pcre2_code_free(A.fast);
	pcre2_code_free(A.slow);
	for (size_t i = 0; i < A.nneedles; i++) {
		pcre2_code_free(A.branch[i]);
		A.branch[i] = NULL;
	}
	A.fast = A.slow = NULL;
	A.built = A.failed = false;
	A.nneedles = 0;
	A.gen++;
}

void bl_anchor_set_prefilter(bool on)
{
	free_patterns();
	A.off = !on;
}

/* (*MARK:i)anchor_i | ... over the parsers in `use`; NULL when none. */
static pcre2_code *alternation(const bool *use, bool *err)
{
	size_t need = 16, any = 0;
	for (size_t i = 0; bl_parsers[i]; i++)
		if (use[i])
			need += strlen(bl_parsers[i]->anchor) + 32;
	char *pat = malloc(need);
	if (!pat) {
		*err = true;
		return NULL;
	}
	size_t o = (size_t)snprintf(pat, need, "(?m)");
	for (size_t i = 0; bl_parsers[i]; i++)
		if (use[i])
			o += (size_t)snprintf(pat + o, need - o, "%s(*MARK:%zu)(?:%s)",
					      any++ ? "|" : "", i, bl_parsers[i]->anchor);
	pcre2_code *c = any ? bl_re_compile_dynamic(pat, PCRE2_UTF | PCRE2_NO_UTF_CHECK) : NULL;
	free(pat);
	if (any && !c)
		*err = true;
	return c;
}

/* How often byte x occurs in the prose of mail, roughly (English letter
 * frequencies, a blank in six bytes, capitals of names and acronyms
 * ("FreeBSD", "SATA"), some digits and punctuation): what a window that
 * takes x costs in false finds. */
static double prose_weight(unsigned x)
{
	static const double letters[26] = {
		8.2, 1.5, 2.8, 4.3, 12.7, 2.2, 2.0, 6.1, 7.0, 0.2, 0.8, 4.0, 2.4,
		6.7, 7.5, 1.9, 0.1, 6.0, 6.3, 9.1, 2.8, 1.0, 2.4, 0.2, 2.0, 0.1};
	if (x >= 'a' && x <= 'z')
		return letters[x - 'a'] * 0.0075;
	if (x >= 'A' && x <= 'Z')
		return letters[x - 'A'] * 0.001;
	if (x >= '0' && x <= '9')
		return 0.003;
	switch (x) {
	case ' ': return 0.16;
	case '\n': return 0.015;
	case ',': case '.': return 0.01;
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
static void tok_nibbles(const struct vtok *v, unsigned *lo, unsigned *hi)
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
static double bucket_rate(const unsigned lo[VT], const unsigned hi[VT])
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
		tok_nibbles(&v, &lo[k], &hi[k]);
	}
	return bucket_rate(lo, hi);
}

/* Puts each distinct window in one of NBUCKETS buckets and fills the
 * nibble tables. A bucket takes the product of its windows' nibble sets,
 * so windows that share a bucket make each other's false finds ("sec" of
 * "sectorsize" with "\\du \\d" takes "re " and "se "). The windows that
 * prose has most are placed first, each where it adds the fewest finds in
 * prose (prose_weight); then each is moved while a move lowers the total. */
static void buckets(void)
{
	unsigned lo[NBUCKETS][VT], hi[NBUCKETS][VT];
	size_t nv = A.nvwin;
	unsigned wl[MAX_NEEDLES][VT], wh[MAX_NEEDLES][VT];
	double own[MAX_NEEDLES];
	size_t order[MAX_NEEDLES], wb[MAX_NEEDLES];
	for (size_t u = 0; u < nv; u++) {
		for (int k = 0; k < VT; k++)
			tok_nibbles(&A.vt[A.vwin[u]][k], &wl[u][k], &wh[u][k]);
		own[u] = bucket_rate(wl[u], wh[u]);
		order[u] = u;
		wb[u] = NBUCKETS; /* none yet */
	}
	for (size_t a = 1; a < nv; a++)
		for (size_t b = a; b > 0 && own[order[b]] > own[order[b - 1]]; b--) {
			size_t t = order[b];
			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	for (int pass = 0; pass < 4; pass++) {
		bool moved = false;
		for (size_t o = 0; o < nv; o++) {
			size_t u = order[o];
			/* the buckets as they are without u */
			memset(lo, 0, sizeof lo);
			memset(hi, 0, sizeof hi);
			for (size_t v = 0; v < nv; v++)
				if (v != u && wb[v] < NBUCKETS)
					for (int k = 0; k < VT; k++) {
						lo[wb[v]][k] |= wl[v][k];
						hi[wb[v]][k] |= wh[v][k];
					}
			double best = 1e300;
			size_t bb = 0;
			for (size_t b = 0; b < NBUCKETS; b++) {
				unsigned nl[VT], nh[VT];
				for (int k = 0; k < VT; k++) {
					nl[k] = lo[b][k] | wl[u][k];
					nh[k] = hi[b][k] | wh[u][k];
				}
				double add = bucket_rate(nl, nh) - bucket_rate(lo[b], hi[b]);
				if (add < best - 1e-12) {
					best = add;
					bb = b;
				}
			}
			if (wb[u] != bb)
				moved = pass > 0 || moved;
			wb[u] = bb;
		}
		if (pass > 0 && !moved)
			break;
	}
	memset(lo, 0, sizeof lo);
	memset(hi, 0, sizeof hi);
	for (size_t u = 0; u < nv; u++)
		for (int k = 0; k < VT; k++) {
			lo[wb[u]][k] |= wl[u][k];
			hi[wb[u]][k] |= wh[u][k];
		}
	memset(A.bset, 0, sizeof A.bset);
	memset(A.wset, 0, sizeof A.wset);
	memset(A.nbwin, 0, sizeof A.nbwin);
	for (size_t u = 0; u < nv; u++) {
		A.bwin[wb[u]][A.nbwin[wb[u]]++] = (unsigned char)u;
		uint32_t mask = 0, val = 0;
		for (int k = 0; k < VT; k++) {
			const struct vtok *v = &A.vt[A.vwin[u]][k];
			unsigned char km = v->span == 0 ? 0xFF : v->span == 9 ? 0xF0 : 0;
			mask |= (uint32_t)km << (8 * k);
			val |= (uint32_t)(v->lo & km) << (8 * k);
		}
		A.wmask[u] = mask;
		A.wval[u] = val;
	}
	for (size_t i = 0; i < A.nneedles; i++)
		for (size_t u = 0; u < nv; u++)
			if (memcmp(A.vt[A.vwin[u]], A.vt[i], sizeof A.vt[i]) == 0) {
				A.bucket[i] = (unsigned short)(1u << wb[u]);
				A.bset[wb[u]][i / 64] |= (uint64_t)1 << (i % 64);
				A.wset[u][i / 64] |= (uint64_t)1 << (i % 64);
				break;
			}
	memset(A.nib, 0, sizeof A.nib);
	for (unsigned b = 0; b < NBUCKETS; b++)
		for (int k = 0; k < VT; k++)
			for (unsigned x = 0; x < 16; x++) {
				if (lo[b][k] & (1u << x))
					A.nib[b / 8][k][0][x] |= (unsigned char)(1u << (b % 8));
				if (hi[b][k] & (1u << x))
					A.nib[b / 8][k][1][x] |= (unsigned char)(1u << (b % 8));
			}
}

/* What the branch text b (n bytes, the rest of a branch after a needle)
 * requires next, read as far as it is one of these, into needle i's
 * then-check:
 *   "[ \\t]+" a blank run, "[ \\t]*" a blank run or none,
 *   "\\d" a digit, a plain byte itself (and "\\d+" or "x+": one, then
 *   nothing more is known).
 * diskinfo's "ada0  512  500107862016 ..." is found by "512", which prose
 * has as a word; its branch goes on "[ \\t]+\\d": a blank run and a
 * digit, which the word is rarely followed by. A blank run is taken
 * greedily, so a step that could take a blank does not follow one. */
static void then_steps(size_t i, const char *b, size_t n)
{
	size_t k = 0, at = 0;
	A.then_n[i] = 0;
	while (k < THEN_MAX && at < n) {
		const char *r = b + at;
		size_t rest = n - at;
		bool after_blanks = k && (A.then_op[i][k - 1] == THEN_BLANKS1 ||
					  A.then_op[i][k - 1] == THEN_BLANKS0);
		if (rest >= 6 && memcmp(r, "[ \\t]", 5) == 0 && (r[5] == '+' || r[5] == '*')) {
			if (after_blanks)
				break;
			A.then_op[i][k++] = r[5] == '+' ? THEN_BLANKS1 : THEN_BLANKS0;
			at += 6;
			continue;
		}
		unsigned char op, byte = 0;
		size_t len;
		if (rest >= 2 && r[0] == '\\' && r[1] == 'd') {
			op = THEN_DIGIT;
			len = 2;
		} else if ((unsigned char)r[0] < 0x80 && r[0] > ' ' && !strchr("\\^$.|?*+()[]{}#", r[0])) {
			op = THEN_BYTE;
			byte = (unsigned char)r[0];
			len = 1;
		} else if (r[0] == ' ' && !after_blanks) {
			op = THEN_BYTE;
			byte = ' ';
			len = 1;
		} else {
			break;
		}
		char q = at + len < n ? b[at + len] : '\0';
		if (q == '?' || q == '*' || q == '{')
			break; /* optional or counted: not known to be there */
		A.then_op[i][k] = op;
		A.then_byte[i][k++] = byte;
		if (q == '+')
			break; /* one at least; where the run ends is not known */
		at += len;
	}
	A.then_n[i] = k;
}

/* Whether the text after needle i, from `at`, passes its then-check. */
static bool then_ok(size_t i, const unsigned char *t, size_t len, size_t at)
{
	for (size_t k = 0; k < A.then_n[i]; k++) {
		switch (A.then_op[i][k]) {
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
			if (at >= len || t[at] != A.then_byte[i][k])
				return false;
			at++;
		}
	}
	return true;
}

/* One element of a pattern at p (before e) as a step of a before-check:
 * a byte, "\\d", a class of bytes ("[MG]", "[KM]"), or a blank run
 * ("[ \\t]+", "[ \\t]*"); false for anything else (a group, an anchor,
 * a quantified element, "\\S", a negated class). *next: past the element
 * and its quantifier. */
static bool before_elem(const char *p, const char *e, unsigned char *op, unsigned char *byte,
			uint8_t set[32], const char **next)
{
	memset(set, 0, 32);
	*byte = 0;
	if (e - p >= 6 && memcmp(p, "[ \\t]", 5) == 0 && (p[5] == '+' || p[5] == '*')) {
		*op = p[5] == '+' ? THEN_BLANKS1 : THEN_BLANKS0;
		*next = p + 6;
		/* lazy or possessive: not known */
		if (*next < e && (**next == '?' || **next == '+')) {
			(*next)++;
			return false;
		}
		return true;
	}
	bool ok = true;
	const char *q = p + 1;
	unsigned char c = (unsigned char)*p;
	if (c == '\\') {
		unsigned char d = p + 1 < e ? (unsigned char)p[1] : 0;
		q = p + 2 <= e ? p + 2 : e;
		if (d == 'd') {
			*op = THEN_DIGIT;
		} else if (d == 't') {
			*op = THEN_BYTE;
			*byte = '\t';
		} else if (d && d < 0x80 && !((d >= '0' && d <= '9') || (d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z'))) {
			*op = THEN_BYTE;
			*byte = d;
		} else {
			ok = false;
		}
	} else if (c == '[') {
		q = skip_class(p, e);
		if (!q) {
			*next = e;
			return false;
		}
		*op = THEN_CLASS;
		const char *m = p + 1, *me = q - 1;
		if (m < me && *m == '^')
			ok = false;
		while (ok && m < me) {
			unsigned lo, hi;
			if (*m == '\\' && m + 1 < me) {
				unsigned char d = (unsigned char)m[1];
				m += 2;
				if (d == 'd') {
					lo = '0', hi = '9';
				} else if (d == 't') {
					lo = hi = '\t';
				} else if (d < 0x80 && !((d >= '0' && d <= '9') || (d >= 'a' && d <= 'z') ||
							 (d >= 'A' && d <= 'Z'))) {
					lo = hi = d;
				} else {
					ok = false;
					break;
				}
			} else if (*m == '[' || (unsigned char)*m >= 0x80) {
				ok = false;
				break;
			} else {
				lo = hi = (unsigned char)*m++;
				if (m + 1 < me && *m == '-' && m[1] != '\\' && (unsigned char)m[1] < 0x80) {
					hi = (unsigned char)m[1];
					m += 2;
				}
			}
			for (unsigned x = lo; x <= hi; x++)
				set[x / 8] |= (uint8_t)(1u << (x % 8));
		}
	} else if (c == '(') {
		q = skip_group(p, e);
		if (!q)
			q = e;
		ok = false;
	} else if (c >= 0x80 || strchr("|^$.?*+{)", c)) {
		ok = false;
	} else {
		*op = THEN_BYTE;
		*byte = c;
	}
	/* a quantifier: the element is not known to be there once */
	if (q < e && (*q == '?' || *q == '*' || *q == '+' || *q == '{')) {
		ok = false;
		if (*q == '{') {
			const char *z = memchr(q, '}', (size_t)(e - q));
			q = z ? z + 1 : e;
		} else {
			q++;
		}
		if (q < e && (*q == '?' || *q == '+'))
			q++;
	}
	*next = q;
	return ok;
}

/* Whether before-step k of needle i may take a blank. */
static bool before_blank(size_t i, size_t k)
{
	switch (A.before_op[i][k]) {
	case THEN_BLANKS1:
	case THEN_BLANKS0:
		return true;
	case THEN_BYTE:
		return A.before_byte[i][k] == ' ' || A.before_byte[i][k] == '\t';
	case THEN_CLASS:
		return (A.before_set[i][k][' ' / 8] >> (' ' % 8) & 1) ||
		       (A.before_set[i][k]['\t' / 8] >> ('\t' % 8) & 1);
	default:
		return false;
	}
}

/* What the branch text b requires right before needle i, which starts at
 * b[at]: the simple elements just before it, read as far back as they go
 * (at most BEFORE_MAX). zpool's "read[ \\t]+write" is found by "write",
 * which prose has often, and seldom after "read" and blanks. A blank run
 * is read back greedily: the steps stop before one that could take a
 * blank itself. */
static void before_steps(size_t i, const char *b, size_t at)
{
	unsigned char op[BEFORE_MAX], byte[BEFORE_MAX];
	uint8_t set[BEFORE_MAX][32];
	size_t n = 0;
	const char *p = b, *e = b + at;
	while (p < e) {
		unsigned char o, y;
		uint8_t st[32];
		const char *next;
		if (!before_elem(p, e, &o, &y, st, &next)) {
			n = 0;
		} else {
			if (n == BEFORE_MAX) {
				/* the ones next to the needle are kept */
				memmove(op, op + 1, n - 1);
				memmove(byte, byte + 1, n - 1);
				memmove(set, set + 1, (n - 1) * sizeof set[0]);
				n--;
			}
			op[n] = o;
			byte[n] = y;
			memcpy(set[n], st, 32);
			n++;
		}
		p = next > p ? next : p + 1;
	}
	memcpy(A.before_op[i], op, n);
	memcpy(A.before_byte[i], byte, n);
	memcpy(A.before_set[i], set, n * sizeof set[0]);
	/* from the needle back: a blank run's step, then one that may take
	 * a blank too, ends the steps */
	size_t k = n;
	while (k > 0) {
		k--;
		bool blanks = A.before_op[i][k] == THEN_BLANKS1 || A.before_op[i][k] == THEN_BLANKS0;
		if (blanks && k > 0 && before_blank(i, k - 1))
			break;
	}
	/* steps k .. n - 1 are kept */
	memmove(A.before_op[i], A.before_op[i] + k, n - k);
	memmove(A.before_byte[i], A.before_byte[i] + k, n - k);
	memmove(A.before_set[i], A.before_set[i] + k, (n - k) * sizeof set[0]);
	A.before_n[i] = n - k;
}

/* Whether the text before needle i's start p passes its before-check. */
static inline bool before_ok(size_t i, const unsigned char *t, size_t p)
{
	size_t at = p;
	for (size_t k = A.before_n[i]; k-- > 0;) {
		switch (A.before_op[i][k]) {
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
			if (!at || !(A.before_set[i][k][t[at - 1] / 8] >> (t[at - 1] % 8) & 1))
				return false;
			at--;
			break;
		default:
			if (!at || t[at - 1] != A.before_byte[i][k])
				return false;
			at--;
		}
	}
	return true;
}

/* For a branch that starts at a line start ("^", and "^[ \\t]*"): the
 * bytes its line can start with, after the blanks, as PCRE2 finds them
 * for the rest of the branch. Most prose lines a needle is found in start
 * with a byte the branch cannot: "write" in a sentence is not zpool's
 * "pool alloc free read write" header, which starts with p or v. */
static void lead_bytes(size_t i, const char *b, size_t n)
{
	A.has_lead[i] = A.lead_blanks[i] = false;
	if (!n || b[0] != '^')
		return;
	b++, n--;
	if (n >= 6 && memcmp(b, "[ \\t]*", 6) == 0) {
		A.lead_blanks[i] = true;
		b += 6, n -= 6;
	}
	int errc;
	PCRE2_SIZE erro;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)b, n, PCRE2_UTF | PCRE2_NO_UTF_CHECK, &errc, &erro, NULL);
	if (!c)
		return;
	uint32_t type = 0, unit = 0;
	const uint8_t *map = NULL;
	pcre2_pattern_info(c, PCRE2_INFO_FIRSTCODETYPE, &type);
	memset(A.lead[i], 0, sizeof A.lead[i]);
	if (type == 1 && pcre2_pattern_info(c, PCRE2_INFO_FIRSTCODEUNIT, &unit) == 0 && unit < 256) {
		A.lead[i][unit / 8] |= (uint8_t)(1u << (unit % 8));
		A.has_lead[i] = true;
	} else if (type == 0 && pcre2_pattern_info(c, PCRE2_INFO_FIRSTBITMAP, &map) == 0 && map) {
		memcpy(A.lead[i], map, 32);
		A.has_lead[i] = true;
	}
	pcre2_code_free(c);
}

/* Whether the window [ws, we) around needle i's find may hold a match of
 * its branch, as far as the line's first byte tells. */
static bool lead_ok(size_t i, const struct bl_message *m, size_t ws, size_t we)
{
	if (!A.has_lead[i] || (ws && m->text[ws - 1] != '\n'))
		return true; /* not a line start: a part of a long line */
	size_t b = ws;
	if (A.lead_blanks[i])
		while (b < we && (m->text[b] == ' ' || m->text[b] == '\t'))
			b++;
	if (b >= we)
		return true;
	unsigned char x = (unsigned char)m->text[b];
	return A.lead[i][x / 8] & (1u << (x % 8));
}

static bool build(void)
{
	if (A.built)
		return !A.failed;
	static bool registered;
	if (!registered) {
		atexit(free_patterns);
		registered = true;
	}
	A.built = true;
	size_t np = 0;
	while (bl_parsers[np])
		np++;
	bool *fast = calloc(np + 1, sizeof *fast), *slow = calloc(np + 1, sizeof *slow);
	bool err = !fast || !slow;
	for (size_t i = 0; i < np && !err; i++) {
		int k = A.off ? -1
			      : bl_anchor_needles(bl_parsers[i]->anchor, A.needles + A.nneedles,
						  MAX_NEEDLES - A.nneedles);
		if (k <= 0) {
			slow[i] = true;
			continue;
		}
		fast[i] = true;
		for (int j = 0; j < k; j++)
			A.needles[A.nneedles++].parser = i;
	}
	/* the unflattener's literals, found in the same pass (bl_sites_find):
	 * needles of no parser, a literal's bytes (and a digit after them) */
	for (size_t g = 0; g < bl_tool_literals() && !err; g++) {
		bool digit;
		const char *next;
		const char *lit = bl_tool_literal(g, &digit, &next);
		size_t ll = strlen(lit);
		if (A.nneedles == MAX_NEEDLES || g >= BL_TOOL_MAX || !ll || ll + digit > BL_NEEDLE_MAX) {
			err = true;
			break;
		}
		struct bl_needle *nd = &A.needles[A.nneedles];
		memset(nd, 0, sizeof *nd);
		for (size_t k = 0; k < ll; k++)
			nd->tok[k] = (unsigned char)lit[k];
		nd->ntok = ll;
		if (digit)
			nd->tok[nd->ntok++] = BL_NEEDLE_DIGIT;
		nd->parser = SIZE_MAX;
		nd->after_at = SIZE_MAX;
		A.tool[A.nneedles++] = g;
	}
	A.any_before = false;
	for (size_t i = 0; i < A.nneedles && !err; i++) {
		const struct bl_needle *nd = &A.needles[i];
		A.then_n[i] = 0;
		A.before_n[i] = 0;
		A.has_lead[i] = false;
		if (nd->parser == SIZE_MAX) {
			bool digit;
			const char *next;
			bl_tool_literal(A.tool[i], &digit, &next);
			if (next)
				then_steps(i, next, strlen(next));
		} else {
			/* each needle's own branch, to look closer at a find cheaply */
			char pat[2048];
			int w = snprintf(pat, sizeof pat, "(?m)(?:%.*s)", (int)nd->branch_len,
					 bl_parsers[nd->parser]->anchor + nd->branch_off);
			A.branch[i] = w > 0 && (size_t)w < sizeof pat
					      ? bl_re_compile_dynamic(pat, PCRE2_UTF | PCRE2_NO_UTF_CHECK)
					      : NULL;
			if (!A.branch[i])
				err = true;
			const char *branch = bl_parsers[nd->parser]->anchor + nd->branch_off;
			if (nd->after_at <= nd->branch_len)
				then_steps(i, branch + nd->after_at, nd->branch_len - nd->after_at);
			if (nd->before_at <= nd->branch_len)
				before_steps(i, branch, nd->before_at);
			A.any_before = A.any_before || A.before_n[i];
			lead_bytes(i, branch, nd->branch_len);
		}
		A.trig[i] = trigger_at(&A.needles[i]);
		for (size_t t = 0; t < VT; t++) {
			size_t at = A.trig[i] + t;
			struct vtok *v = &A.vt[i][t];
			if (at >= A.needles[i].ntok)
				{
				v->lo = 0; /* past a short needle: any byte */
				v->span = 255;
			}
			else if (A.needles[i].tok[at] == BL_NEEDLE_DIGIT)
				{
				v->lo = '0';
				v->span = 9;
			}
			else
				{
				v->lo = (unsigned char)A.needles[i].tok[at];
				v->span = 0;
			}
		}
	}
	for (size_t i = 0; i < A.nneedles; i++) {
		unsigned char mk[16] = {0}, vl[16] = {0}, dg[16] = {0};
		for (size_t k = 0; k < 16 && k < A.needles[i].ntok; k++) {
			unsigned t = A.needles[i].tok[k];
			mk[k] = t == BL_NEEDLE_DIGIT ? 0xF0 : 0xFF;
			vl[k] = t == BL_NEEDLE_DIGIT ? 0x30 : (unsigned char)t;
			dg[k] = t == BL_NEEDLE_DIGIT ? 0x10 : 0;
		}
		memcpy(A.qmask[i], mk, sizeof mk);
		memcpy(A.qval[i], vl, sizeof vl);
		memcpy(A.qdigit[i], dg, sizeof dg);
		A.qwhole[i] = A.needles[i].ntok <= 16;
	}
	/* needles that share a window ("real", "\d real") share its test */
	A.nvwin = 0;
	for (size_t i = 0; i < A.nneedles; i++) {
		size_t u = 0;
		while (u < A.nvwin && memcmp(A.vt[A.vwin[u]], A.vt[i], sizeof A.vt[i]) != 0)
			u++;
		if (u == A.nvwin)
			A.vwin[A.nvwin++] = i;
	}
	buckets();
	if (!err) {
		A.fast = alternation(fast, &err);
		A.slow = alternation(slow, &err);
	}
	free(fast);
	free(slow);
	A.failed = err;
	return !err;
}

/* ---------------------------------------------------------------- the sites */

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
static inline bool found_by(const unsigned char *t, size_t len, size_t q, size_t i, size_t min_p,
			    size_t *p, bool whole)
{
	const struct bl_needle *nd = &A.needles[i];
	if (q < A.trig[i] || q - A.trig[i] < min_p)
		return false;
	*p = q - A.trig[i];
	if (*p + nd->ntok > len)
		return false;
	/* 16 bytes from p: inside the text and the zero bytes after it
	 * (BL_TEXT_PAD) */
	uint64_t w[2];
	memcpy(w, t + *p, sizeof w);
	if ((w[0] & A.qmask[i][0]) != A.qval[i][0] || (w[1] & A.qmask[i][1]) != A.qval[i][1])
		return false;
	const uint64_t low = 0x0F0F0F0F0F0F0F0Full, six = 0x0606060606060606ull;
	if (whole && A.qwhole[i]) {
		/* the digits' low halves are 0 to 9 */
		if ((((w[0] & low) + six) & A.qdigit[i][0]) | (((w[1] & low) + six) & A.qdigit[i][1]))
			return false;
	} else if (!verify(nd, t + *p)) {
		return false;
	}
	return then_ok(i, t, len, *p + nd->ntok) && before_ok(i, t, *p);
}

static inline bool found(const unsigned char *t, size_t len, size_t q, size_t i, size_t min_p,
			 size_t *p)
{
	return found_by(t, len, q, i, min_p, p, true);
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

/* Needle i found at q (its start p): a find of the scan's, or a start of
 * one of the unflattener's literals. */
static void record(struct bl_sites *st, size_t q, size_t i, size_t p)
{
	if (A.needles[i].parser == SIZE_MAX) {
		struct bl_site_list *l = &st->tool[A.tool[i]];
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
static inline void finds_at(const unsigned char *t, size_t len, size_t q, unsigned got,
			    struct bl_sites *st)
{
	size_t p;
	/* the buckets take the products of their windows' bytes: the
	 * windows that are at q itself, first */
	uint32_t x;
	memcpy(&x, t + q, sizeof x); /* within the text and the zero bytes after it */
	uint64_t sets[MAX_NEEDLES / 64] = {0};
	for (unsigned g = got; g; g &= g - 1) {
		unsigned b = (unsigned)__builtin_ctz(g);
		for (unsigned k = 0; k < A.nbwin[b]; k++) {
			unsigned u = A.bwin[b][k];
			if ((x & A.wmask[u]) == A.wval[u])
				for (size_t w = 0; w < MAX_NEEDLES / 64; w++)
					sets[w] |= A.wset[u][w];
		}
	}
	for (size_t w = 0; w < MAX_NEEDLES / 64; w++) {
		for (uint64_t set = sets[w]; set; set &= set - 1) {
			size_t i = 64 * w + (size_t)__builtin_ctzll(set);
			if (found(t, len, q, i, 0, &p))
				record(st, q, i, p);
		}
	}
}

/* The lines of the text from *ls on (a line start), up to position end,
 * given the newlines in [q, q + 64) (bit j: text[q + j]): whether one is
 * BL_UNFLATTEN_MIN bytes long or longer; *ls moves to the last line
 * start. */
static inline bool long_line_in(size_t q, uint64_t nl, size_t end, size_t *ls)
{
	if (!nl)
		return end - *ls >= BL_UNFLATTEN_MIN;
	size_t first = q + (size_t)__builtin_ctzll(nl);
	bool longer = first - *ls >= BL_UNFLATTEN_MIN;
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
	__m256i tab[2][VT][2]; /* A.nib, in both lanes */
	__m256i mlo, mhi;     /* the marks' nibble tables */
	__m256i anywhere, at_start;
};

/* What the 32 positions from p hold: the buckets found at each (*acc0,
 * *acc1, one byte a position), and as bits (bit j: position p + j):
 * those with a find, the marks of the groups that count anywhere (*any)
 * and of those that count at a line start (*line), the newlines (*nl).
 * Reads p[0, 35). */
__attribute__((target("avx2"), always_inline)) static inline uint32_t
half_step(const unsigned char *p, const struct nibble_tabs *tb, __m256i *acc0, __m256i *acc1,
	  uint32_t *any, uint32_t *line, uint32_t *nl)
{
	const __m256i low = _mm256_set1_epi8(0x0f), zero = _mm256_setzero_si256();
	/* token k of every window at the 32 positions: the bytes from
	 * p + k, each looked up by its nibbles */
#define NIBBLES(k, v, vl, vh)                                                                    \
	__m256i v = _mm256_loadu_si256((const __m256i *)(p + (k)));                              \
	__m256i vl = _mm256_and_si256(v, low);                                                   \
	__m256i vh = _mm256_and_si256(_mm256_srli_epi16(v, 4), low)
#define TAKES(g, k, vl, vh)                                                                      \
	_mm256_and_si256(_mm256_shuffle_epi8(tb->tab[g][k][0], vl),                              \
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
	__m256i m = _mm256_and_si256(_mm256_shuffle_epi8(tb->mlo, vl0), _mm256_shuffle_epi8(tb->mhi, vh0));
	*any = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(m, tb->anywhere), zero));
	*line = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(m, tb->at_start), zero));
	*nl = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, _mm256_set1_epi8('\n')));
	*acc0 = a0;
	*acc1 = a1;
	return ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_or_si256(a0, a1), zero));
}

/* The 64 positions from q, read at p (t + q, or a copy of the text's
 * last bytes followed by zero bytes), of which those in `in` are the
 * text's. *after_nl: text[q - 1] is a newline; *ls: where the line being
 * read starts. */
__attribute__((target("avx2"), always_inline)) static inline void
step64(const unsigned char *t, size_t len, const unsigned char *p, size_t q, uint64_t in,
       const struct nibble_tabs *tb, uint64_t *after_nl, size_t *ls, struct bl_sites *st)
{
	__m256i acc[2][2];
	uint32_t any0, any1, line0, line1, nl0, nl1;
	uint64_t bits = half_step(p, tb, &acc[0][0], &acc[0][1], &any0, &line0, &nl0);
	bits |= (uint64_t)half_step(p + 32, tb, &acc[1][0], &acc[1][1], &any1, &line1, &nl1) << 32;
	uint64_t nl = (nl0 | (uint64_t)nl1 << 32) & in;
	uint64_t any = any0 | (uint64_t)any1 << 32, line = line0 | (uint64_t)line1 << 32;
	/* the marks: of a group that counts anywhere, or of one that
	 * counts at a line start right after a newline */
	st->sys[q / 64] = (any | (line & (nl << 1 | *after_nl))) & in;
	*after_nl = nl >> 63;
	if (!st->long_line)
		st->long_line = long_line_in(q, nl, q + 64 < len ? q + 64 : len, ls);
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
		finds_at(t, len, q + j, got[j / 32][0][j % 32] | (unsigned)got[j / 32][1][j % 32] << 8,
			 st);
	}
}

__attribute__((target("avx2"))) static void sites_avx2(const unsigned char *t, size_t len,
						       struct bl_sites *st)
{
	struct nibble_tabs tb;
	for (int g = 0; g < 2; g++)
		for (int k = 0; k < VT; k++)
			for (int h = 0; h < 2; h++)
				tb.tab[g][k][h] = _mm256_broadcastsi128_si256(
					_mm_loadu_si128((const __m128i *)A.nib[g][k][h]));
	const struct bl_marks *mk = &bl_system_marks;
	tb.mlo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)mk->lo));
	tb.mhi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)mk->hi));
	tb.anywhere = _mm256_set1_epi8((char)(unsigned char)~mk->line);
	tb.at_start = _mm256_set1_epi8((char)mk->line);
	uint64_t after_nl = 0; /* offset 0 is no line start */
	size_t ls = 0, q = 0;
	/* a step reads 67 bytes: in place while they are the text's or
	 * the zero bytes after it (BL_TEXT_PAD) */
	for (; len - q >= 64; q += 64)
		step64(t, len, t + q, q, ~(uint64_t)0, &tb, &after_nl, &ls, st);
	if (q < len) {
		/* the last bytes, then zero bytes as after the text */
		unsigned char last[64 + 64] = {0};
		memcpy(last, t + q, len - q);
		step64(t, len, last, q, ((uint64_t)1 << (len - q)) - 1, &tb, &after_nl, &ls, st);
	}
}
#endif

/* The portable pass: each needle's window tested at W positions at
 * once; the marks and the line lengths read apart. */
static void sites_vec(const unsigned char *t, size_t len, struct bl_sites *st)
{
	size_t q = 0, p;
	const size_t W = sizeof(vbytes);
	for (; q + W + VT - 1 <= len; q += W) {
		vbytes w[VT], any = {0};
		for (size_t k = 0; k < VT; k++)
			memcpy(&w[k], t + q + k, W);
		for (size_t u = 0; u < A.nvwin; u++) {
			size_t i = A.vwin[u];
			vbytes m0 = (vbytes)((vbytes)(w[0] - A.vt[i][0].lo) <= A.vt[i][0].span);
			for (size_t k = 1; k < VT; k++)
				m0 &= (vbytes)((vbytes)(w[k] - A.vt[i][k].lo) <= A.vt[i][k].span);
			any |= m0;
		}
		uint64_t lanes[sizeof(vbytes) / 8], or = 0;
		memcpy(lanes, &any, sizeof lanes);
		for (size_t j = 0; j < sizeof lanes / 8; j++)
			or |= lanes[j];
		if (!or)
			continue;
		for (size_t j = 0; j < W; j++)
			for (size_t i = 0; any[j] && i < A.nneedles; i++)
				if (found_by(t, len, q + j, i, 0, &p, false))
					record(st, q + j, i, p);
	}
	/* the last bytes, too few for a vector step, one by one */
	for (; q < len; q++)
		for (size_t i = 0; i < A.nneedles; i++)
			if (found_by(t, len, q, i, 0, &p, false))
				record(st, q, i, p);
	uint64_t bits;
	for (size_t next = 0, base; next < len;)
		for (base = bl_find_marks((const char *)t, next, len, &bl_system_marks, &bits, &next);
		     bits; bits &= bits - 1) {
			size_t at = base + (size_t)__builtin_ctzll(bits);
			st->sys[at / 64] |= (uint64_t)1 << (at % 64);
		}
	for (size_t ls = 0; !st->long_line && len - ls >= BL_UNFLATTEN_MIN;) {
		const char *nl = memrchr(t + ls, '\n', BL_UNFLATTEN_MIN);
		st->long_line = !nl;
		ls = nl ? (size_t)(nl - (const char *)t) + 1 : ls;
	}
}

static void sites_destroy(struct bl_sites *st)
{
	free(st->q);
	free(st->needle);
	for (size_t g = 0; g < BL_TOOL_MAX; g++)
		free(st->tool[g].v);
	free(st->sys);
	free(st);
}

void bl_sites_free(struct bl_sites *st)
{
	if (!st)
		return;
	if (!spare_sites) {
		spare_sites = st;
		return;
	}
	sites_destroy(st);
}

struct bl_sites *bl_sites_find(const char *text, size_t len)
{
	if (!build())
		return NULL;
	struct bl_sites *st = spare_sites;
	if (st) {
		/* the arrays of the last sites freed, emptied */
		spare_sites = NULL;
		st->n = 0;
		for (size_t g = 0; g < BL_TOOL_MAX; g++)
			st->tool[g].n = 0;
		st->long_line = st->failed = false;
	} else if (!(st = calloc(1, sizeof *st))) {
		return NULL;
	}
	st->gen = A.gen;
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
	if (avx2 && !A.portable)
		sites_avx2((const unsigned char *)text, len, st);
	else
#endif
		sites_vec((const unsigned char *)text, len, st);
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

static void first_tokens(void)
{
	if (first_gen == A.gen)
		return;
	memset(first_tok, 0, sizeof first_tok);
	max_ntok = 0;
	for (size_t i = 0; i < A.nneedles; i++) {
		const struct bl_needle *nd = &A.needles[i];
		if (nd->ntok > max_ntok)
			max_ntok = nd->ntok;
		for (unsigned x = 0; x < 256; x++)
			if (nd->tok[0] == x || (nd->tok[0] == BL_NEEDLE_DIGIT && x >= '0' && x <= '9'))
				first_tok[x][i / 64] |= (uint64_t)1 << (i % 64);
	}
	first_gen = A.gen;
}

/* Entry k of st's needle finds, by needle start and then the order of the
 * pass (position tested, needle). */
static bool find_before(size_t qa, unsigned ia, size_t qb, unsigned ib)
{
	return qa < qb || (qa == qb && ia < ib);
}

bool bl_sites_update(struct bl_sites *st, const char *text, size_t len, const size_t *at, size_t n)
{
	if (!build() || st->gen != A.gen || st->len != len)
		return false;
	if (!n)
		return true;
	first_tokens();
	const unsigned char *t = (const unsigned char *)text;
	/* the starts of the finds that may read a changed byte b: the
	 * needle's bytes hold it, or its then-check reads up to it over
	 * blanks and at most THEN_MAX other bytes (a newline taken for a
	 * blank, since other changed bytes were blanks before) */
	size_t words = (len + 63) / 64;
	uint64_t *dirty = calloc(words ? words : 1, sizeof *dirty);
	size_t *nq = NULL;
	unsigned char *ni = NULL;
	size_t nn = 0, ncap = 0;
	bool ok = dirty != NULL;
	for (size_t k = 0; ok && k < n; k++) {
		size_t b = at[k], z = b, other = 0;
		while (z > 0 && (t[z - 1] == ' ' || t[z - 1] == '\t' || t[z - 1] == '\n' || other < THEN_MAX)) {
			if (t[z - 1] != ' ' && t[z - 1] != '\t' && t[z - 1] != '\n')
				other++;
			z--;
		}
		size_t lo = z > max_ntok ? z - max_ntok : 0, hi = b;
		/* and those whose before-check reads back to b over blanks and
		 * at most BEFORE_MAX other bytes */
		for (other = 0; A.any_before && hi + 1 < len &&
				(t[hi + 1] == ' ' || t[hi + 1] == '\t' || t[hi + 1] == '\n' || other < BEFORE_MAX);
		     hi++)
			if (t[hi + 1] != ' ' && t[hi + 1] != '\t' && t[hi + 1] != '\n')
				other++;
		if (A.any_before && hi + 1 < len)
			hi++; /* the needle's start, after what its check reads */
		for (size_t p = lo; p <= hi; p++) {
			if (dirty[p / 64] >> (p % 64) & 1)
				continue;
			dirty[p / 64] |= (uint64_t)1 << (p % 64);
			/* the needles that start at p in the new text */
			for (size_t w = 0; w < MAX_NEEDLES / 64; w++)
				for (uint64_t set = first_tok[t[p]][w]; set; set &= set - 1) {
					size_t i = 64 * w + (size_t)__builtin_ctzll(set), pp;
					if (!found(t, len, p + A.trig[i], i, 0, &pp))
						continue;
					if (A.needles[i].parser == SIZE_MAX) {
						/* a literal's starts: put in below */
						continue;
					}
					if (nn == ncap) {
						size_t c = ncap ? 2 * ncap : 64;
						size_t *q2 = realloc(nq, c * sizeof *q2);
						if (q2)
							nq = q2;
						unsigned char *i2 = q2 ? realloc(ni, c) : NULL;
						if (!i2) {
							ok = false;
							break;
						}
						ni = i2;
						ncap = c;
					}
					nq[nn] = p + A.trig[i];
					ni[nn++] = (unsigned char)i;
				}
		}
	}
	if (ok) {
		/* the needle finds: the old ones whose start is not dirty,
		 * merged with the new ones, in the pass's order */
		for (size_t a = 1; a < nn; a++)
			for (size_t c = a; c > 0 && find_before(nq[c], ni[c], nq[c - 1], ni[c - 1]); c--) {
				size_t tq = nq[c];
				unsigned char ti = ni[c];
				nq[c] = nq[c - 1];
				ni[c] = ni[c - 1];
				nq[c - 1] = tq;
				ni[c - 1] = ti;
			}
		size_t kept = 0;
		for (size_t k = 0; k < st->n; k++) {
			size_t p = st->q[k] - A.trig[st->needle[k]];
			if (!(dirty[p / 64] >> (p % 64) & 1)) {
				st->q[kept] = st->q[k];
				st->needle[kept++] = st->needle[k];
			}
		}
		size_t total = kept + nn;
		size_t *mq = malloc((total ? total : 1) * sizeof *mq);
		unsigned char *mi = malloc(total ? total : 1);
		ok = mq && mi;
		if (ok) {
			size_t x = 0, y = 0, o = 0;
			while (x < kept || y < nn)
				if (y == nn || (x < kept && find_before(st->q[x], st->needle[x], nq[y], ni[y]))) {
					mq[o] = st->q[x];
					mi[o++] = st->needle[x++];
				} else {
					mq[o] = nq[y];
					mi[o++] = ni[y++];
				}
			free(st->q);
			free(st->needle);
			st->q = mq;
			st->needle = mi;
			st->n = st->cap = total;
		} else {
			free(mq);
			free(mi);
		}
	}
	/* the literals' starts: the old ones outside the dirty starts, and
	 * the new ones in them, ascending */
	for (size_t i = 0; ok && i < A.nneedles; i++) {
		if (A.needles[i].parser != SIZE_MAX)
			continue;
		struct bl_site_list *l = &st->tool[A.tool[i]];
		struct bl_site_list nl = {NULL, 0, 0};
		size_t x = 0;
		for (size_t w = 0; ok && w < words; w++)
			for (uint64_t d = dirty[w]; ok && d; d &= d - 1) {
				size_t p = 64 * w + (size_t)__builtin_ctzll(d), pp;
				for (; ok && x < l->n && l->v[x] < p; x++)
					if (!(dirty[l->v[x] / 64] >> (l->v[x] % 64) & 1))
						ok = grow((void **)&nl.v, &nl.cap, nl.n, sizeof *nl.v) &&
						     ((nl.v[nl.n++] = l->v[x]), true);
				if (ok && (first_tok[t[p]][i / 64] >> (i % 64) & 1) &&
				    found(t, len, p + A.trig[i], i, 0, &pp))
					ok = grow((void **)&nl.v, &nl.cap, nl.n, sizeof *nl.v) &&
					     ((nl.v[nl.n++] = p), true);
			}
		for (; ok && x < l->n; x++)
			if (!(dirty[l->v[x] / 64] >> (l->v[x] % 64) & 1))
				ok = grow((void **)&nl.v, &nl.cap, nl.n, sizeof *nl.v) &&
				     ((nl.v[nl.n++] = l->v[x]), true);
		if (ok) {
			free(l->v);
			*l = nl;
		} else {
			free(nl.v);
		}
	}
	/* the marks of the changed bytes and of the bytes after them */
	const struct bl_marks *mk = &bl_system_marks;
	for (size_t k = 0; ok && k < n; k++)
		for (size_t x = at[k]; x < len && x <= at[k] + 1; x++) {
			unsigned g = mk->lo[t[x] & 15] & mk->hi[t[x] >> 4];
			bool mark = (g & ~(unsigned)mk->line) || (x > 0 && t[x - 1] == '\n' && (g & mk->line));
			if (mark)
				st->sys[x / 64] |= (uint64_t)1 << (x % 64);
			else
				st->sys[x / 64] &= ~((uint64_t)1 << (x % 64));
		}
	/* the lines are shorter than they were: looked at again */
	st->long_line = false;
	for (size_t ls = 0; ok && !st->long_line && len - ls >= BL_UNFLATTEN_MIN;) {
		const char *nl = memrchr(text + ls, '\n', BL_UNFLATTEN_MIN);
		st->long_line = !nl;
		ls = nl ? (size_t)(nl - text) + 1 : ls;
	}
	free(dirty);
	free(nq);
	free(ni);
	return ok;
}

const struct bl_sites *bl_message_sites(struct bl_message *msg)
{
	if (!build())
		return NULL;
	if (msg->sites && msg->sites->gen == A.gen && msg->sites->len == msg->len)
		return msg->sites;
	bl_sites_free(msg->sites);
	msg->sites = bl_sites_find(msg->text, msg->len);
	return msg->sites;
}

const struct bl_sites *bl_message_marks(struct bl_message *msg)
{
	if (!build())
		return NULL;
	if (msg->sites && msg->sites->gen == A.gen && msg->sites->len >= msg->len)
		return msg->sites;
	return bl_message_sites(msg);
}

void bl_anchor_set_portable(bool on)
{
	A.portable = on;
}

/* ----------------------------------------------------------------- the scan */

struct bl_anchor_scan {
	const struct bl_message *msg;
	const struct bl_sites *sites;
	size_t k;                 /* the next of the needle finds (sites) */
	size_t qpos;              /* where the last find was tested */
	size_t ws, we;            /* the window around a needle: text[ws, we) */
	bool cut;                 /* we is not the end of a line */
	size_t clear[MAX_NEEDLES]; /* no match of needle i's branch starts before */
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	struct bl_anchor_hit slow_hit;
	bool slow_valid, slow_done;
	/* a hit of the needle search not yet handed out, because a hit of the
	 * whole-text regex came first: the needle search has moved past it and
	 * would not find it again */
	struct bl_anchor_hit fast_hit;
	bool fast_valid;
	size_t failed_at;         /* a search that gave up (match limit): where */
	bool failed;
};

/* The next needle find that starts at or after min_p: its start, and
 * which needle in *which; SIZE_MAX when there is none. */
static size_t next_needle(struct bl_anchor_scan *s, size_t min_p, size_t *which)
{
	const struct bl_sites *st = s->sites;
	while (s->k < st->n) {
		size_t k = s->k++, i = st->needle[k];
		s->qpos = st->q[k];
		if (s->qpos - A.trig[i] >= min_p) {
			*which = i;
			return s->qpos - A.trig[i];
		}
	}
	s->qpos = s->msg->len;
	return SIZE_MAX;
}

static void scan_destroy(struct bl_anchor_scan *s)
{
	pcre2_match_data_free(s->md);
	pcre2_match_context_free(s->mctx);
	free(s);
}

struct bl_anchor_scan *bl_anchor_scan_new(struct bl_message *msg)
{
	if (!build())
		return NULL;
	const struct bl_sites *st = bl_message_sites(msg);
	if (!st)
		return NULL;
	struct bl_anchor_scan *s = spare;
	if (s) {
		spare = NULL;
		pcre2_match_data *md = s->md;
		pcre2_match_context *mctx = s->mctx;
		memset(s, 0, sizeof *s);
		s->md = md;
		s->mctx = mctx;
		s->msg = msg;
		s->sites = st;
		return s;
	}
	s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->msg = msg;
	s->sites = st;
	s->md = pcre2_match_data_create(2, NULL);
	s->mctx = pcre2_match_context_create(NULL);
	if (!s->md || !s->mctx) {
		bl_anchor_scan_free(s);
		return NULL;
	}
	/* bound backtracking on hostile input */
	pcre2_set_match_limit(s->mctx, 1000000);
	return s;
}

bool bl_anchor_incomplete(const struct bl_anchor_scan *s, size_t *where)
{
	if (s->failed && where)
		*where = s->failed_at;
	return s->failed;
}

void bl_anchor_scan_free(struct bl_anchor_scan *s)
{
	if (!s)
		return;
	if (!spare && s->md && s->mctx) {
		spare = s;
		return;
	}
	scan_destroy(s);
}

static bool match(struct bl_anchor_scan *s, pcre2_code *re, size_t sublen, size_t start,
		  uint32_t opts, struct bl_anchor_hit *h)
{
	int rc = pcre2_match(re, (PCRE2_SPTR)s->msg->text, sublen, start,
			     opts | PCRE2_NO_UTF_CHECK, s->md, s->mctx);
	if (rc < 0) {
		/* not "no match" but a limit: what lies there was not searched */
		if (rc != PCRE2_ERROR_NOMATCH && !s->failed) {
			s->failed = true;
			s->failed_at = start;
		}
		return false;
	}
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(s->md);
	size_t idx = 0;
	for (PCRE2_SPTR c = pcre2_get_mark(s->md); c && *c; c++)
		idx = idx * 10 + (size_t)(*c - '0');
	h->start = ov[0];
	h->end = ov[1] > ov[0] ? ov[1] : ov[0];
	h->parser = idx;
	return true;
}

/* A match lies within LOOKBACK bytes before its needle and is shorter
 * than that; lines longer than LONG_LINE are searched in windows of
 * [needle - LOOKBACK, needle + AHEAD), not whole. */
#define LOOKBACK 512
#define AHEAD 2048
#define LONG_LINE 4096

/* The window of text around a needle at c: its line, or a part of a long
 * line. */
static void window(struct bl_anchor_scan *s, size_t c)
{
	const struct bl_message *m = s->msg;
	struct bl_line line;
	bl_line_at(m, c, &line);
	/* the line with its newline, so that '$' matches before it; a piece
	 * cut out of a long line does not end a line */
	s->ws = line.off;
	s->we = line.next;
	s->cut = s->we < m->len && m->text[s->we - 1] != '\n';
	if (s->we - s->ws <= LONG_LINE)
		return;
	if (c - s->ws > LOOKBACK)
		s->ws = c - LOOKBACK;
	if (s->we - c > AHEAD) {
		s->we = c + AHEAD;
		s->cut = true;
	}
	/* windows start and end on characters */
	while (s->ws < c && ((unsigned char)m->text[s->ws] & 0xC0) == 0x80)
		s->ws++;
	while (s->we < m->len && ((unsigned char)m->text[s->we] & 0xC0) == 0x80)
		s->we++;
}

/* The first hit at or after pos among the parsers found by needles.
 *
 * Needles come in the order of the vector pass. A needle found is first
 * checked with its own branch of the anchor (cheap: PCRE2 optimizes one
 * branch far better than the alternation), and what that branch cannot
 * match is remembered, so a run of needles costs linear time. Where the
 * branch matches, the whole alternation decides which anchor matches
 * leftmost there and which parser is asked first; it need only look from
 * LOOKBACK (and a needle's length) before the needle: a match starting
 * earlier would have a needle found earlier. */
static bool fast_next(struct bl_anchor_scan *s, size_t pos, struct bl_anchor_hit *h)
{
	const struct bl_message *m = s->msg;
	/* a needle tested before pos starts before it: so would its match */
	if (s->qpos < pos) {
		s->qpos = pos;
		while (s->k < s->sites->n && s->sites->q[s->k] < pos)
			s->k++;
	}
	for (;;) {
		size_t q = s->qpos, k = s->k, i = 0;
		size_t c = next_needle(s, pos, &i);
		if (c >= m->len)
			return false;
		if (c < s->clear[i])
			continue; /* its branch cannot match here: seen already */
		window(s, c);
		size_t from = s->ws > s->clear[i] ? s->ws : s->clear[i];
		if (from < pos)
			from = pos;
		struct bl_anchor_hit bh;
		uint32_t opts = s->cut ? PCRE2_NOTEOL : 0;
		if (!lead_ok(i, m, s->ws, s->we) || !match(s, A.branch[i], s->we, from, opts, &bh)) {
			/* no match of this branch starts before the window's end,
			 * or, in a cut window, before a match could still fit */
			s->clear[i] = s->cut ? s->we - LOOKBACK : s->we;
			continue;
		}
		size_t near = s->qpos > BL_NEEDLE_MAX + LOOKBACK ? s->qpos - BL_NEEDLE_MAX - LOOKBACK : 0;
		from = s->ws > pos ? s->ws : pos;
		if (from < near)
			from = near;
		while (from < bh.start && ((unsigned char)m->text[from] & 0xC0) == 0x80)
			from++;
		if (!match(s, A.fast, s->we, from, opts, h))
			*h = bh; /* cannot happen: the branch is in the alternation */
		if (h->start < bh.start) {
			/* an earlier anchor: this needle's match is still to come */
			s->qpos = q;
			s->k = k;
		}
		return true;
	}
}

static bool slow_next(struct bl_anchor_scan *s, size_t pos, struct bl_anchor_hit *h)
{
	if (!A.slow || s->slow_done)
		return false;
	if (!s->slow_valid || s->slow_hit.start < pos) {
		s->slow_valid = match(s, A.slow, s->msg->len, pos, 0, &s->slow_hit);
		if (!s->slow_valid) {
			s->slow_done = true;
			return false;
		}
	}
	*h = s->slow_hit;
	return true;
}

bool bl_anchor_next(struct bl_anchor_scan *s, size_t pos, struct bl_anchor_hit *h)
{
	if (pos > s->msg->len)
		return false;
	struct bl_anchor_hit f, w;
	bool hf;
	if (s->fast_valid && s->fast_hit.start >= pos) {
		f = s->fast_hit;
		hf = true;
	} else {
		hf = A.fast && fast_next(s, pos, &f);
	}
	s->fast_valid = false;
	bool hw = slow_next(s, pos, &w);
	if (hf && hw && !(f.start < w.start || (f.start == w.start && f.parser < w.parser))) {
		/* the whole-text hit goes first; keep the needle's for later */
		s->fast_hit = f;
		s->fast_valid = true;
	}
	if (hf && hw)
		*h = (f.start < w.start || (f.start == w.start && f.parser < w.parser)) ? f : w;
	else if (hf)
		*h = f;
	else if (hw)
		*h = w;
	return hf || hw;
}
