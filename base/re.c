/* re.c - PCRE2 patterns compiled once, with JIT. */
#include "re.h"

#include <stdlib.h>
#include <string.h>

#include "message.h"

_Static_assert(BL_RE_PAD <= BL_TEXT_PAD, "a message's text is padded for its patterns");

static struct bl_re *compiled;
static bool lead_check = true;
static pcre2_match_data *md;
static pcre2_jit_stack *jit_stack;
static pcre2_match_context *mctx;

pcre2_code *bl_re_compile_dynamic(const char *pattern, uint32_t options)
{
	int err;
	PCRE2_SIZE erroff;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, options, &err,
				      &erroff, NULL);
	if (!c)
		return NULL;
	/* JIT is an optimisation: where it is unavailable the interpreter runs */
	(void)pcre2_jit_compile(c, PCRE2_JIT_COMPLETE);
	return c;
}

static bool ensure(struct bl_re *re)
{
	if (re->code)
		return true;
	if (re->failed || !re->pattern)
		return false;
	re->code = bl_re_compile_dynamic(re->pattern, re->options);
	if (!re->code) {
		re->failed = true;
		return false;
	}
	/* options that change what the first byte may be leave no lead */
	const uint32_t plain = PCRE2_UTF | PCRE2_NO_UTF_CHECK | PCRE2_CASELESS | PCRE2_DOTALL |
			       PCRE2_DOLLAR_ENDONLY;
	re->has_lead = !(re->options & ~plain) &&
		       bl_re_lead(re->pattern, re->options & PCRE2_CASELESS, &re->lead);
	re->next = compiled;
	compiled = re;
	return true;
}

void bl_re_reset(struct bl_re *re, const char *pattern)
{
	if (re->code) {
		for (struct bl_re **l = &compiled; *l; l = &(*l)->next)
			if (*l == re) {
				*l = re->next;
				break;
			}
		pcre2_code_free(re->code);
		re->code = NULL;
	}
	re->next = NULL;
	re->failed = false;
	re->pattern = pattern;
}

bool bl_re_match(struct bl_re *re, const char *subject, size_t len, size_t start,
		 struct bl_re_match *m)
{
	if (start > len || !ensure(re))
		return false;
	/* most lines a line pattern is tried on fail at their first byte */
	if (re->has_lead && start == 0 && lead_check && !bl_re_lead_may(&re->lead, subject, len))
		return false;
	if (!md) {
		md = pcre2_match_data_create(BL_RE_MAX_GROUPS, NULL);
		mctx = pcre2_match_context_create(NULL);
		jit_stack = pcre2_jit_stack_create(32 * 1024, 512 * 1024, NULL);
		if (!md || !mctx)
			return false;
		if (jit_stack)
			pcre2_jit_stack_assign(mctx, NULL, jit_stack);
		/* bound backtracking on hostile input */
		pcre2_set_match_limit(mctx, 1000000);
		pcre2_set_depth_limit(mctx, 10000);
	}
	int rc = pcre2_match(re->code, (PCRE2_SPTR)subject, len, start, PCRE2_NO_UTF_CHECK, md,
			     mctx);
	if (rc < 0)
		return false;
	if (m) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		uint32_t n = pcre2_get_ovector_count(md);
		if (n > BL_RE_MAX_GROUPS)
			n = BL_RE_MAX_GROUPS;
		for (uint32_t i = 0; i < n; i++) {
			m->ov[2 * i] = ov[2 * i];
			m->ov[2 * i + 1] = ov[2 * i + 1];
		}
		m->ngroups = (int)n;
		/* groups past rc are unset */
		for (uint32_t i = (uint32_t)rc; i < n; i++)
			m->ov[2 * i] = m->ov[2 * i + 1] = PCRE2_UNSET;
	}
	return true;
}

static char *copy_buf;
static size_t copy_cap;

bool bl_re_match_copy(struct bl_re *re, const char *subject, size_t len, size_t start,
		      struct bl_re_match *m)
{
	if (len + BL_RE_PAD < len)
		return false;
	if (len + BL_RE_PAD > copy_cap) {
		size_t cap = copy_cap ? copy_cap : 256;
		while (cap < len + BL_RE_PAD)
			cap *= 2;
		char *b = realloc(copy_buf, cap);
		if (!b)
			return false;
		copy_buf = b;
		copy_cap = cap;
	}
	memcpy(copy_buf, subject, len);
	bl_re_pad(copy_buf, len);
	return bl_re_match(re, copy_buf, len, start, m);
}

void bl_re_set_lead_check(bool on)
{
	lead_check = on;
}

void bl_re_each_compiled(void (*fn)(struct bl_re *re, void *ctx), void *ctx)
{
	for (struct bl_re *re = compiled; re; re = re->next)
		fn(re, ctx);
}

void bl_re_free_all(void)
{
	free(copy_buf);
	copy_buf = NULL;
	copy_cap = 0;
	while (compiled) {
		struct bl_re *n = compiled->next;
		pcre2_code_free(compiled->code);
		compiled->code = NULL;
		compiled->next = NULL;
		compiled = n;
	}
	pcre2_match_data_free(md);
	md = NULL;
	pcre2_match_context_free(mctx);
	mctx = NULL;
	pcre2_jit_stack_free(jit_stack);
	jit_stack = NULL;
}
