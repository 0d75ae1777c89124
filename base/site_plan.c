/* site_plan.c - a site plan built from its source (see sites.h): the
 * needles of the patterns and the literals, each one's window placed in a
 * bucket of the vector pass, and the checks of what must stand before and
 * after a needle and at the start of its line. */
#include <stdlib.h>
#include <string.h>

#include "re.h"
#include "site_plan.h"

/* Puts each distinct window in one of NBUCKETS buckets and fills the
 * nibble tables. A bucket takes the product of its windows' nibble sets,
 * so windows that share a bucket make each other's false finds ("sec" of
 * "sectorsize" with "\\du \\d" takes "re " and "se "). The windows that
 * prose has most are placed first, each where it adds the fewest finds in
 * prose (prose_weight); then each is moved while a move lowers the total. */
static void buckets(struct bl_site_plan *P)
{
	unsigned lo[NBUCKETS][VT], hi[NBUCKETS][VT];
	size_t nv = P->nvwin;
	unsigned wl[MAX_NEEDLES][VT], wh[MAX_NEEDLES][VT];
	double own[MAX_NEEDLES];
	size_t order[MAX_NEEDLES], wb[MAX_NEEDLES];
	for (size_t u = 0; u < nv; u++) {
		for (int k = 0; k < VT; k++)
			bl_vtok_nibbles(&P->vt[P->vwin[u]][k], &wl[u][k], &wh[u][k]);
		own[u] = bl_nibbles_rate(wl[u], wh[u]);
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
				double add =
					bl_nibbles_rate(nl, nh) - bl_nibbles_rate(lo[b], hi[b]);
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
	memset(P->bset, 0, sizeof P->bset);
	memset(P->wset, 0, sizeof P->wset);
	memset(P->nbwin, 0, sizeof P->nbwin);
	for (size_t u = 0; u < nv; u++) {
		P->bwin[wb[u]][P->nbwin[wb[u]]++] = (unsigned char)u;
		uint32_t mask = 0, val = 0;
		for (int k = 0; k < VT; k++) {
			const struct vtok *v = &P->vt[P->vwin[u]][k];
			unsigned char km = v->span == 0 ? 0xFF : v->span == 9 ? 0xF0 : 0;
			mask |= (uint32_t)km << (8 * k);
			val |= (uint32_t)(v->lo & km) << (8 * k);
		}
		P->wmask[u] = mask;
		P->wval[u] = val;
	}
	for (size_t i = 0; i < P->nneedles; i++)
		for (size_t u = 0; u < nv; u++)
			if (memcmp(P->vt[P->vwin[u]], P->vt[i], sizeof P->vt[i]) == 0) {
				P->bucket[i] = (unsigned short)(1u << wb[u]);
				P->bset[wb[u]][i / 64] |= (uint64_t)1 << (i % 64);
				P->wset[u][i / 64] |= (uint64_t)1 << (i % 64);
				break;
			}
	memset(P->nib, 0, sizeof P->nib);
	for (unsigned b = 0; b < NBUCKETS; b++)
		for (int k = 0; k < VT; k++)
			for (unsigned x = 0; x < 16; x++) {
				if (lo[b][k] & (1u << x))
					P->nib[b / 8][k][0][x] |= (unsigned char)(1u << (b % 8));
				if (hi[b][k] & (1u << x))
					P->nib[b / 8][k][1][x] |= (unsigned char)(1u << (b % 8));
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
static void then_steps(struct bl_site_plan *P, size_t i, const char *b, size_t n)
{
	size_t k = 0, at = 0;
	P->then_n[i] = 0;
	while (k < THEN_MAX && at < n) {
		const char *r = b + at;
		size_t rest = n - at;
		bool after_blanks = k && (P->then_op[i][k - 1] == THEN_BLANKS1 ||
					  P->then_op[i][k - 1] == THEN_BLANKS0);
		if (rest >= 6 && memcmp(r, "[ \\t]", 5) == 0 && (r[5] == '+' || r[5] == '*')) {
			if (after_blanks)
				break;
			P->then_op[i][k++] = r[5] == '+' ? THEN_BLANKS1 : THEN_BLANKS0;
			at += 6;
			continue;
		}
		unsigned char op, byte = 0;
		size_t len;
		if (rest >= 2 && r[0] == '\\' && r[1] == 'd') {
			op = THEN_DIGIT;
			len = 2;
		} else if ((unsigned char)r[0] < 0x80 && r[0] > ' ' &&
			   !strchr("\\^$.|?*+()[]{}#", r[0])) {
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
		P->then_op[i][k] = op;
		P->then_byte[i][k++] = byte;
		if (q == '+')
			break; /* one at least; where the run ends is not known */
		at += len;
	}
	P->then_n[i] = k;
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
		} else if (d && d < 0x80 &&
			   !((d >= '0' && d <= '9') || (d >= 'a' && d <= 'z') ||
			     (d >= 'A' && d <= 'Z'))) {
			*op = THEN_BYTE;
			*byte = d;
		} else {
			ok = false;
		}
	} else if (c == '[') {
		q = bl_pattern_skip_class(p, e);
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
				} else if (d < 0x80 &&
					   !((d >= '0' && d <= '9') || (d >= 'a' && d <= 'z') ||
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
				if (m + 1 < me && *m == '-' && m[1] != '\\' &&
				    (unsigned char)m[1] < 0x80) {
					hi = (unsigned char)m[1];
					m += 2;
				}
			}
			for (unsigned x = lo; x <= hi; x++)
				set[x / 8] |= (uint8_t)(1u << (x % 8));
		}
	} else if (c == '(') {
		q = bl_pattern_skip_group(p, e);
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
static bool before_blank(const struct bl_site_plan *P, size_t i, size_t k)
{
	switch (P->before_op[i][k]) {
	case THEN_BLANKS1:
	case THEN_BLANKS0: return true;
	case THEN_BYTE: return P->before_byte[i][k] == ' ' || P->before_byte[i][k] == '\t';
	case THEN_CLASS:
		return (P->before_set[i][k][' ' / 8] >> (' ' % 8) & 1) ||
		       (P->before_set[i][k]['\t' / 8] >> ('\t' % 8) & 1);
	default: return false;
	}
}

/* What the branch text b requires right before needle i, which starts at
 * b[at]: the simple elements just before it, read as far back as they go
 * (at most BEFORE_MAX). zpool's "read[ \\t]+write" is found by "write",
 * which prose has often, and seldom after "read" and blanks. A blank run
 * is read back greedily: the steps stop before one that could take a
 * blank itself. */
static void before_steps(struct bl_site_plan *P, size_t i, const char *b, size_t at)
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
	memcpy(P->before_op[i], op, n);
	memcpy(P->before_byte[i], byte, n);
	memcpy(P->before_set[i], set, n * sizeof set[0]);
	/* from the needle back: a blank run's step, then one that may take
	 * a blank too, ends the steps */
	size_t k = n;
	while (k > 0) {
		k--;
		bool blanks =
			P->before_op[i][k] == THEN_BLANKS1 || P->before_op[i][k] == THEN_BLANKS0;
		if (blanks && k > 0 && before_blank(P, i, k - 1))
			break;
	}
	/* steps k .. n - 1 are kept */
	memmove(P->before_op[i], P->before_op[i] + k, n - k);
	memmove(P->before_byte[i], P->before_byte[i] + k, n - k);
	memmove(P->before_set[i], P->before_set[i] + k, (n - k) * sizeof set[0]);
	P->before_n[i] = n - k;
}

/* For a branch that starts at a line start ("^", and "^[ \\t]*"): the
 * bytes its line can start with, after the blanks, as PCRE2 finds them
 * for the rest of the branch. Most prose lines a needle is found in start
 * with a byte the branch cannot: "write" in a sentence is not zpool's
 * "pool alloc free read write" header, which starts with p or v. */
static void lead_bytes(struct bl_site_plan *P, size_t i, const char *b, size_t n)
{
	P->has_lead[i] = P->lead_blanks[i] = false;
	if (!n || b[0] != '^')
		return;
	b++, n--;
	if (n >= 6 && memcmp(b, "[ \\t]*", 6) == 0) {
		P->lead_blanks[i] = true;
		b += 6, n -= 6;
	}
	int errc;
	PCRE2_SIZE erro;
	pcre2_code *c =
		pcre2_compile((PCRE2_SPTR)b, n, PCRE2_UTF | PCRE2_NO_UTF_CHECK, &errc, &erro, NULL);
	if (!c)
		return;
	uint32_t type = 0, unit = 0;
	const uint8_t *map = NULL;
	pcre2_pattern_info(c, PCRE2_INFO_FIRSTCODETYPE, &type);
	memset(P->lead[i], 0, sizeof P->lead[i]);
	if (type == 1 && pcre2_pattern_info(c, PCRE2_INFO_FIRSTCODEUNIT, &unit) == 0 &&
	    unit < 256) {
		P->lead[i][unit / 8] |= (uint8_t)(1u << (unit % 8));
		P->has_lead[i] = true;
	} else if (type == 0 && pcre2_pattern_info(c, PCRE2_INFO_FIRSTBITMAP, &map) == 0 && map) {
		memcpy(P->lead[i], map, 32);
		P->has_lead[i] = true;
	}
	pcre2_code_free(c);
}

/* The needles of every pattern the source lets be reduced; a pattern
 * with none is not reduced (its reader runs it whole). */
static bool pattern_needles(struct bl_site_plan *P, const struct bl_site_source *src)
{
	if (src->npatterns > BL_SITE_PATTERNS_MAX)
		return false;
	P->npatterns = src->npatterns;
	for (size_t i = 0; i < src->npatterns; i++) {
		int k = src->reduce ? bl_pattern_needles(src->patterns[i], P->needles + P->nneedles,
							 MAX_NEEDLES - P->nneedles)
				    : -1;
		if (k <= 0)
			continue;
		P->reduced[i] = true;
		for (int j = 0; j < k; j++)
			P->needles[P->nneedles++].pattern = i;
	}
	return true;
}

/* The literals as needles of no pattern: their bytes, and a digit after
 * them when they ask for one. */
static bool literal_needles(struct bl_site_plan *P, const struct bl_site_source *src)
{
	if (src->nliterals > BL_SITE_LITERALS_MAX)
		return false;
	for (size_t g = 0; g < src->nliterals; g++) {
		const struct bl_site_literal *lit = &src->literals[g];
		size_t ll = strlen(lit->bytes);
		if (P->nneedles == MAX_NEEDLES || !ll || ll + lit->digit > BL_NEEDLE_MAX)
			return false;
		struct bl_needle *nd = &P->needles[P->nneedles];
		memset(nd, 0, sizeof *nd);
		for (size_t k = 0; k < ll; k++)
			nd->tok[k] = (unsigned char)lit->bytes[k];
		nd->ntok = ll;
		if (lit->digit)
			nd->tok[nd->ntok++] = BL_NEEDLE_DIGIT;
		nd->pattern = SIZE_MAX;
		nd->after_at = SIZE_MAX;
		P->literal[P->nneedles++] = g;
	}
	return true;
}

/* Needle i's checks: what its branch (or its literal's `next`) requires
 * after it, before it and at the start of its line. */
static void needle_checks(struct bl_site_plan *P, const struct bl_site_source *src, size_t i)
{
	const struct bl_needle *nd = &P->needles[i];
	P->then_n[i] = 0;
	P->before_n[i] = 0;
	P->has_lead[i] = false;
	if (nd->pattern == SIZE_MAX) {
		const char *next = src->literals[P->literal[i]].next;
		if (next)
			then_steps(P, i, next, strlen(next));
		return;
	}
	const char *branch = src->patterns[nd->pattern] + nd->branch_off;
	if (nd->after_at <= nd->branch_len)
		then_steps(P, i, branch + nd->after_at, nd->branch_len - nd->after_at);
	if (nd->before_at <= nd->branch_len)
		before_steps(P, i, branch, nd->before_at);
	P->any_before = P->any_before || P->before_n[i];
	lead_bytes(P, i, branch, nd->branch_len);
}

/* Needle i's window of the vector pass, as byte ranges, and its first 16
 * tokens as masks and values over two words. */
static void needle_window(struct bl_site_plan *P, size_t i)
{
	const struct bl_needle *nd = &P->needles[i];
	P->trig[i] = bl_needle_trigger(nd);
	for (size_t t = 0; t < VT; t++) {
		size_t at = P->trig[i] + t;
		struct vtok *v = &P->vt[i][t];
		if (at >= nd->ntok)
			*v = (struct vtok){0, 255}; /* past a short needle: any byte */
		else if (nd->tok[at] == BL_NEEDLE_DIGIT)
			*v = (struct vtok){'0', 9};
		else
			*v = (struct vtok){(unsigned char)nd->tok[at], 0};
	}
	unsigned char mk[16] = {0}, vl[16] = {0}, dg[16] = {0};
	for (size_t k = 0; k < 16 && k < nd->ntok; k++) {
		unsigned t = nd->tok[k];
		mk[k] = t == BL_NEEDLE_DIGIT ? 0xF0 : 0xFF;
		vl[k] = t == BL_NEEDLE_DIGIT ? 0x30 : (unsigned char)t;
		dg[k] = t == BL_NEEDLE_DIGIT ? 0x10 : 0;
	}
	memcpy(P->qmask[i], mk, sizeof mk);
	memcpy(P->qval[i], vl, sizeof vl);
	memcpy(P->qdigit[i], dg, sizeof dg);
	P->qwhole[i] = nd->ntok <= 16;
}

struct bl_site_plan *bl_site_plan_new(const struct bl_site_source *src)
{
	static unsigned generations;
	struct bl_site_plan *P = calloc(1, sizeof *P);
	if (!P)
		return NULL;
	P->gen = ++generations;
	P->marks = src->marks;
	P->long_line = src->long_line;
	if (!pattern_needles(P, src) || !literal_needles(P, src)) {
		free(P);
		return NULL;
	}
	for (size_t i = 0; i < P->nneedles; i++) {
		needle_checks(P, src, i);
		needle_window(P, i);
	}
	/* needles that share a window ("real", "\d real") share its test */
	for (size_t i = 0; i < P->nneedles; i++) {
		size_t u = 0;
		while (u < P->nvwin && memcmp(P->vt[P->vwin[u]], P->vt[i], sizeof P->vt[i]) != 0)
			u++;
		if (u == P->nvwin)
			P->vwin[P->nvwin++] = i;
	}
	buckets(P);
	return P;
}

void bl_site_plan_free(struct bl_site_plan *p)
{
	free(p);
}

bool bl_site_plan_reduced(const struct bl_site_plan *p, size_t i)
{
	return i < p->npatterns && p->reduced[i];
}

size_t bl_site_plan_needles(const struct bl_site_plan *p)
{
	return p->nneedles;
}

const struct bl_needle *bl_site_plan_needle(const struct bl_site_plan *p, size_t i)
{
	return &p->needles[i];
}

size_t bl_site_plan_trigger(const struct bl_site_plan *p, size_t i)
{
	return p->trig[i];
}
