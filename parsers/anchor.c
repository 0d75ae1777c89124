/* anchor.c - the parsers' anchors found through the site pass (see
 * anchor.h and base/sites.h): the JIT-compiled alternation runs only on
 * the lines that hold a needle. */
#include "anchor.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/re.h"
#include "../ingest/shapes.h"
#include "../ingest/unflatten.h"
#include "parser.h"
#include "system.h"

/* The parsers' site plan, with what the scan runs on a find: each
 * needle's own branch of its anchor, and the alternations of the anchors
 * found by needles (fast) and of those found by the regex alone (slow). */
static struct {
	bool built, failed, off;
	struct bl_site_plan *plan;
	pcre2_code *branch[BL_SITE_NEEDLES_MAX];
	pcre2_code *fast, *slow;
	/* what the plan was made of: its strings must outlive it */
	const char *patterns[64];
	struct bl_site_literal literals[BL_SITE_LITERALS_MAX];
	/* and what ingest is handed: the plan, the parsers' shapes */
	struct bl_ingest_plan ingest;
	const struct bl_tool_shapes *shapes[64];
	const char *commands[64];
} A;

/* The scan of the last message, kept for the next: making one (match
 * data, a match context, 1 KB zeroed) cost 2,200 instructions, paid by
 * every message of an archive. */
static struct bl_anchor_scan *spare;
static void scan_destroy(struct bl_anchor_scan *s);

static void free_patterns(void)
{
	if (spare) {
		scan_destroy(spare);
		spare = NULL;
	}
	pcre2_code_free(A.fast);
	pcre2_code_free(A.slow);
	for (size_t i = 0; i < BL_SITE_NEEDLES_MAX; i++) {
		pcre2_code_free(A.branch[i]);
		A.branch[i] = NULL;
	}
	bl_site_plan_free(A.plan);
	A.plan = NULL;
	A.fast = A.slow = NULL;
	A.built = A.failed = false;
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

/* What the parsers' plan looks for: every anchor, the literals of the
 * parsers' line shapes (found in the same pass, for ingest's
 * unflattener), the system reader's marks. */
static bool plan_source(struct bl_site_source *src)
{
	size_t np = 0;
	for (; bl_parsers[np]; np++) {
		if (np == sizeof A.patterns / sizeof A.patterns[0])
			return false;
		A.patterns[np] = bl_parsers[np]->anchor;
		A.shapes[np] = bl_parsers[np]->shapes;
		A.commands[np] = bl_parsers[np]->command_word;
	}
	A.ingest = (struct bl_ingest_plan){
		.tools = A.shapes,
		.commands = A.commands,
		.ntools = np,
	};
	size_t nl = bl_shape_literals(&A.ingest, A.literals, BL_SITE_LITERALS_MAX);
	if (nl > BL_SITE_LITERALS_MAX)
		return false;
	*src = (struct bl_site_source){
		.patterns = A.patterns,
		.npatterns = np,
		.reduce = !A.off,
		.literals = A.literals,
		.nliterals = nl,
		.marks = &bl_system_marks,
		.long_line = BL_UNFLATTEN_MIN,
	};
	return true;
}

/* Each needle's own branch, to look closer at a find cheaply. */
static bool compile_branches(void)
{
	for (size_t i = 0; i < bl_site_plan_needles(A.plan); i++) {
		const struct bl_needle *nd = bl_site_plan_needle(A.plan, i);
		if (nd->pattern == SIZE_MAX)
			continue;
		char pat[2048];
		int w = snprintf(pat, sizeof pat, "(?m)(?:%.*s)", (int)nd->branch_len,
				 bl_parsers[nd->pattern]->anchor + nd->branch_off);
		A.branch[i] = w > 0 && (size_t)w < sizeof pat
				      ? bl_re_compile_dynamic(pat, PCRE2_UTF | PCRE2_NO_UTF_CHECK)
				      : NULL;
		if (!A.branch[i])
			return false;
	}
	return true;
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
	struct bl_site_source src;
	bool err = !plan_source(&src) || !(A.plan = bl_site_plan_new(&src)) || !compile_branches();
	bool fast[64] = {false}, slow[64] = {false};
	for (size_t i = 0; !err && i < src.npatterns; i++) {
		fast[i] = bl_site_plan_reduced(A.plan, i);
		slow[i] = !fast[i];
	}
	if (!err) {
		A.fast = alternation(fast, &err);
		A.slow = alternation(slow, &err);
	}
	A.failed = err;
	return !err;
}

const struct bl_site_plan *bl_parser_sites(void)
{
	return build() ? A.plan : NULL;
}

const struct bl_ingest_plan *bl_parser_ingest(void)
{
	if (!build())
		return NULL;
	A.ingest.sites = A.plan;
	return &A.ingest;
}

const struct bl_sites *bl_message_sites(struct bl_message *msg)
{
	return build() ? bl_sites_of_message(A.plan, msg) : NULL;
}

const struct bl_sites *bl_message_marks(struct bl_message *msg)
{
	return build() ? bl_marks_of_message(A.plan, msg) : NULL;
}

/* ----------------------------------------------------------------- the scan */

struct bl_anchor_scan {
	const struct bl_message *msg;
	const struct bl_sites *sites;
	size_t k; /* the next of the needle finds (sites) */
	size_t qpos; /* where the last find was tested */
	size_t ws, we; /* the window around a needle: text[ws, we) */
	bool cut; /* we is not the end of a line */
	size_t clear[BL_SITE_NEEDLES_MAX]; /* no match of needle i's branch starts before */
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	struct bl_anchor_hit slow_hit;
	bool slow_valid, slow_done;
	/* a hit of the needle search not yet handed out, because a hit of the
	 * whole-text regex came first: the needle search has moved past it and
	 * would not find it again */
	struct bl_anchor_hit fast_hit;
	bool fast_valid;
	size_t failed_at; /* a search that gave up (match limit): where */
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
		if (s->qpos - bl_site_plan_trigger(A.plan, i) >= min_p) {
			*which = i;
			return s->qpos - bl_site_plan_trigger(A.plan, i);
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
	int rc = pcre2_match(re, (PCRE2_SPTR)s->msg->text, sublen, start, opts | PCRE2_NO_UTF_CHECK,
			     s->md, s->mctx);
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
		if (!bl_site_lead_ok(A.plan, i, m, s->ws, s->we) ||
		    !match(s, A.branch[i], s->we, from, opts, &bh)) {
			/* no match of this branch starts before the window's end,
			 * or, in a cut window, before a match could still fit */
			s->clear[i] = s->cut ? s->we - LOOKBACK : s->we;
			continue;
		}
		size_t near =
			s->qpos > BL_NEEDLE_MAX + LOOKBACK ? s->qpos - BL_NEEDLE_MAX - LOOKBACK : 0;
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
