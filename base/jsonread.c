/* jsonread.c - benchlog JSON read back into jansson values, fast.
 *
 * json_loadb reads a byte at a time through a callback; a pretty-printed
 * document (a 130 KB one of 100 runs is two thirds indentation) cost 17 M
 * instructions to load, more than the layout of its chart. This reader
 * skips whitespace and copies strings in runs, and builds the same values
 * through jansson's own constructors. It takes the plain cases only:
 * anything else (an error anywhere, \u escapes, a number strtoll or
 * strtod would reject, nesting deeper than MAX_DEPTH) makes it give up,
 * and the caller hands the text to json_loadb, which then decides, with
 * its own messages. What it accepts, it reads as json_loadb with
 * JSON_DISABLE_EOF_CHECK does (tests/unit/test_jsonread.c compares the
 * two on the corpus and on edge cases). */
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "hash.h"
#include "jsonread.h"
#include "mapped.h"
#include "utf8.h"

#define MAX_DEPTH 256

struct reader {
	const unsigned char *p, *end;
	char *buf; /* a string's decoded bytes */
	size_t cap;
	bool results_as_text; /* bl_json_read_results_as_text */
	bool in_runs; /* reading the document's "runs" */
	int run_depth; /* the depth of a run's members: 3 in a document, 1 alone */
	bool kept_in_place; /* bl_json_read_run_in_place: kept texts point into text */
	/* bl_json_read_run_with: each block kept in place copied first, and
	 * the members not wanted passed over */
	bl_json_stash_fn stash;
	void *stash_ctx;
	const char *const *skip;
	const char *const *lift;
	struct bl_json_shared *shared;
	const char *const *share;
	/* checking a row kept as text: values are read as they would be,
	 * and each stands for itself by `checked`, made of nothing */
	bool check_only;
};

static json_t *const checked = (json_t *)&checked;

/* A kept text that points into the text read: BL_JSON_KEPT_REF, then the
 * address of its first byte, its length and their tag, as the machine
 * holds them. */
#define KEPT_REF_LEN (1 + sizeof(const unsigned char *) + sizeof(size_t) + sizeof(uint64_t))

/* The secret of the tags, drawn once per process: a document read with
 * json_loadb can hold any string, "\u0002" and eight bytes of an address
 * among them, and must not make a reader look there. */
static uint64_t tag_key(void)
{
	static _Atomic uint64_t key;
	uint64_t k = atomic_load(&key);
	if (k)
		return k;
	struct timespec ts;
	if (getrandom(&k, sizeof k, 0) != (ssize_t)sizeof k) {
		clock_gettime(CLOCK_MONOTONIC, &ts); /* no getrandom: the least bad */
		k = ((uint64_t)ts.tv_nsec << 32) ^ (uint64_t)ts.tv_sec ^ (uintptr_t)&ts;
	}
	uint64_t none = 0;
	atomic_compare_exchange_strong(&key, &none, k | 1);
	return atomic_load(&key);
}

static uint64_t fmix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdu;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53u;
	return h ^ (h >> 33);
}

/* The tag of a kept text at p, n bytes long. */
static uint64_t ref_tag(const unsigned char *p, size_t n)
{
	uint64_t k = tag_key();
	return fmix(fmix((uint64_t)(uintptr_t)p ^ k) ^ (uint64_t)n ^ (k >> 7 | k << 57));
}

static void skip_ws(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t'))
		r->p++;
}

/* Steps over c when it is next. */
static bool eat(struct reader *r, char c)
{
	if (r->p >= r->end || *r->p != (unsigned char)c)
		return false;
	r->p++;
	return true;
}

static bool room(struct reader *r, size_t need)
{
	if (need <= r->cap)
		return true;
	size_t cap = r->cap ? r->cap : 256;
	while (cap < need)
		cap *= 2;
	char *b = realloc(r->buf, cap);
	if (!b)
		return false;
	r->buf = b;
	r->cap = cap;
	return true;
}

/* A string after its opening quote, decoded into r->buf; its length, or
 * -1 to give up. */
static ptrdiff_t string(struct reader *r)
{
	size_t n = 0;
	for (;;) {
		const unsigned char *s = r->p;
		while (r->p < r->end && *r->p >= 0x20 && *r->p < 0x80 && *r->p != '"' &&
		       *r->p != '\\')
			r->p++;
		size_t k = (size_t)(r->p - s);
		if (k) {
			if (!room(r, n + k + 4))
				return -1;
			memcpy(r->buf + n, s, k);
			n += k;
		}
		if (r->p >= r->end || *r->p < 0x20)
			return -1;
		if (*r->p == '"') {
			r->p++;
			return (ptrdiff_t)n;
		}
		if (!room(r, n + 4))
			return -1;
		if (*r->p == '\\') {
			if (r->end - r->p < 2)
				return -1;
			char c;
			switch (r->p[1]) {
			case '"': c = '"'; break;
			case '\\': c = '\\'; break;
			case '/': c = '/'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			default: return -1; /* \u and the invalid ones: json_loadb */
			}
			r->buf[n++] = c;
			r->p += 2;
			continue;
		}
		size_t u = bl_utf8_len(r->p, (size_t)(r->end - r->p));
		if (!u)
			return -1;
		memcpy(r->buf + n, r->p, u);
		n += u;
		r->p += u;
	}
}

static bool digits(struct reader *r)
{
	const unsigned char *s = r->p;
	while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
		r->p++;
	return r->p > s;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? as json_loadb's lexer;
 * an integer through strtoll, a real through strtod, as it converts them. */
static json_t *number(struct reader *r)
{
	const unsigned char *s = r->p;
	bool real = false;
	eat(r, '-');
	if (!eat(r, '0') && !digits(r))
		return NULL;
	if (eat(r, '.')) {
		if (!digits(r))
			return NULL;
		real = true;
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
		r->p++;
		if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
			r->p++;
		if (!digits(r))
			return NULL;
		real = true;
	}
	/* a digit, letter or dot right after: json_loadb's error, not ours */
	if (r->p < r->end && ((*r->p >= '0' && *r->p <= '9') || *r->p == '.' ||
			      (*r->p | 0x20) == 'e' || *r->p == '-' || *r->p == '+'))
		return NULL;
	size_t len = (size_t)(r->p - s);
	bool neg = *s == '-';
	if (!real && len - neg <= 18) {
		/* 18 digits or fewer: no overflow, as strtoll reads them */
		long long v = 0;
		for (const unsigned char *d = s + neg; d < r->p; d++)
			v = v * 10 + (*d - '0');
		return r->check_only ? checked : json_integer((json_int_t)(neg ? -v : v));
	}
	char tmp[64];
	if (len >= sizeof tmp)
		return NULL;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	char *end;
	errno = 0;
	if (!real) {
		long long v = strtoll(tmp, &end, 10);
		if (errno || end != tmp + len)
			return NULL;
		return r->check_only ? checked : json_integer((json_int_t)v);
	}
	double v = strtod(tmp, &end);
	if (errno || end != tmp + len)
		return NULL;
	return r->check_only ? checked : json_real(v);
}

static bool word(struct reader *r, const char *w, size_t n)
{
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n) != 0)
		return false;
	r->p += n;
	return true;
}

static json_t *value(struct reader *r, int depth);
static json_t *kept_value(struct reader *r, int depth, char kept);
static bool check_value(struct reader *r, int depth);

/* Sets o's member key to v (a new reference); not when only checking. */
static int set_member(struct reader *r, json_t *o, const char *key, size_t klen, json_t *v)
{
	return r->check_only ? 0 : json_object_setn_new_nocheck(o, key, klen, v);
}

/* What of member key's array value is kept as text: its arrays ('[')
 * for "rows", its objects ('{') for "results", when a run's results are
 * kept as text and the member is a run's (of an object at `depth` 3 in
 * the document's "runs"); else 0. */
static char kept_member(const struct reader *r, int depth, const char *key, size_t klen)
{
	if (!r->in_runs || r->check_only || depth != r->run_depth)
		return 0;
	if (klen == 4 && memcmp(key, "rows", 4) == 0)
		return '[';
	if (klen == 7 && memcmp(key, "results", 7) == 0)
		return '{';
	return 0;
}

/* Whether key (klen bytes) is one of the names of list (NULL-terminated;
 * NULL: none). */
static bool named(const char *const *list, const char *key, size_t klen)
{
	for (const char *const *s = list; s && *s; s++)
		if (strlen(*s) == klen && memcmp(*s, key, klen) == 0)
			return true;
	return false;
}

/* The member of the run's member key that r->lift lifts in its place
 * ("line" for "span", of "span.line"), or NULL. */
static const char *lifted(const struct reader *r, const char *key, size_t klen)
{
	for (const char *const *l = r->lift; l && *l; l++)
		if (strncmp(*l, key, klen) == 0 && (*l)[klen] == '.')
			return *l + klen + 1;
	return NULL;
}

/* The value of member `sub` of the object at r->p, its other members
 * checked and passed over (the object itself is never made): null when
 * it has no such member or it is no integer, NULL when it is not JSON.
 * A value that is no object is read as it is. */
static json_t *lifted_value(struct reader *r, int depth, const char *sub)
{
	skip_ws(r);
	if (!eat(r, '{'))
		return value(r, depth);
	json_t *kept = json_null();
	skip_ws(r);
	if (eat(r, '}'))
		return kept;
	for (;;) {
		skip_ws(r);
		ptrdiff_t klen = eat(r, '"') ? string(r) : -1;
		bool want = klen >= 0 && strlen(sub) == (size_t)klen &&
			    memcmp(r->buf, sub, (size_t)klen) == 0;
		skip_ws(r);
		if (klen < 0 || !eat(r, ':'))
			break;
		if (want) { /* named twice: the last, as json_loadb keeps it */
			json_decref(kept);
			kept = value(r, depth + 1);
			if (!kept)
				return NULL;
			/* a number only: what stands in the member's place is
			 * then never taken for the member itself */
			if (!json_is_integer(kept)) {
				json_decref(kept);
				kept = json_null();
			}
		} else if (!check_value(r, depth + 1)) {
			break;
		}
		skip_ws(r);
		if (eat(r, ','))
			continue;
		if (eat(r, '}'))
			return kept;
		break;
	}
	json_decref(kept);
	return NULL;
}

/* ------------------------------------------------------ shared values */

/* the longest text of a value shared, and the most values kept */
#define SHARED_TEXT_MAX 1024
#define SHARED_BITS_MAX 16

struct shared_slot {
	uint64_t hash;
	unsigned char *text; /* a copy; NULL: the slot is free */
	size_t len;
	json_t *value; /* NULL until the value is read */
};

struct bl_json_shared {
	struct shared_slot *slot; /* 2^bits, open addressing */
	unsigned bits;
	size_t used;
};

struct bl_json_shared *bl_json_shared_new(void)
{
	struct bl_json_shared *sh = calloc(1, sizeof *sh);
	if (sh && !(sh->slot = calloc((size_t)1 << 10, sizeof *sh->slot))) {
		free(sh);
		return NULL;
	}
	if (sh)
		sh->bits = 10;
	return sh;
}

void bl_json_shared_free(struct bl_json_shared *sh)
{
	if (!sh)
		return;
	for (size_t i = 0; i < (size_t)1 << sh->bits; i++) {
		json_decref(sh->slot[i].value);
		free(sh->slot[i].text);
	}
	free(sh->slot);
	free(sh);
}

/* The slot of text t[0, n) in slots of 2^bits: its own, or the free one
 * where it would go. */
static struct shared_slot *slot_of(struct shared_slot *slots, unsigned bits, uint64_t h,
				   const unsigned char *t, size_t n)
{
	size_t mask = ((size_t)1 << bits) - 1;
	for (size_t i = (size_t)(h >> (64 - bits));; i = (i + 1) & mask) {
		struct shared_slot *s = &slots[i];
		if (!s->text || (s->hash == h && s->len == n && memcmp(s->text, t, n) == 0))
			return s;
	}
}

/* Doubles the table, up to 2^SHARED_BITS_MAX slots; false when it is
 * full (no value is added then). */
static bool shared_grow(struct bl_json_shared *sh)
{
	if (sh->bits >= SHARED_BITS_MAX)
		return false;
	unsigned bits = sh->bits + 1;
	struct shared_slot *slots = calloc((size_t)1 << bits, sizeof *slots);
	if (!slots)
		return false;
	for (size_t i = 0; i < (size_t)1 << sh->bits; i++) {
		struct shared_slot *o = &sh->slot[i];
		if (o->text)
			*slot_of(slots, bits, o->hash, o->text, o->len) = *o;
	}
	free(sh->slot);
	sh->slot = slots;
	sh->bits = bits;
	return true;
}

/* The slot of text t[0, n): found, or made for it (its value NULL);
 * NULL when there is no room. */
static struct shared_slot *shared_slot(struct bl_json_shared *sh, const unsigned char *t, size_t n)
{
	uint64_t h = bl_hash_bytes((const char *)t, n);
	struct shared_slot *s = slot_of(sh->slot, sh->bits, h, t, n);
	if (s->text)
		return s;
	/* at most three quarters full: the probes stay short */
	if (4 * (sh->used + 1) > 3 * ((size_t)1 << sh->bits)) {
		if (!shared_grow(sh))
			return NULL;
		s = slot_of(sh->slot, sh->bits, h, t, n);
	}
	unsigned char *copy = malloc(n ? n : 1);
	if (!copy)
		return NULL;
	memcpy(copy, t, n);
	*s = (struct shared_slot){.hash = h, .text = copy, .len = n};
	sh->used++;
	return s;
}

/* The value at r->p, shared with those read from the same text before:
 * the text is checked first (nothing made), then looked up, and read
 * into a value only when it is new. */
static json_t *shared_value(struct reader *r, int depth)
{
	skip_ws(r);
	const unsigned char *start = r->p;
	if (!check_value(r, depth))
		return NULL;
	size_t n = (size_t)(r->p - start);
	struct shared_slot *s = n <= SHARED_TEXT_MAX ? shared_slot(r->shared, start, n) : NULL;
	if (s && s->value)
		return json_incref(s->value);
	r->p = start;
	json_t *v = value(r, depth);
	if (v && s)
		s->value = json_incref(v);
	return v;
}

/* A run's member: passed over when skipped (`checked` stands for it),
 * lifted, shared, or read as member_value reads it. */
static json_t *run_member(struct reader *r, int depth, const char *key, size_t klen)
{
	if (named(r->skip, key, klen))
		return check_value(r, depth) ? checked : NULL;
	const char *sub = lifted(r, key, klen);
	if (sub)
		return lifted_value(r, depth, sub);
	if (r->shared && named(r->share, key, klen))
		return shared_value(r, depth);
	return kept_value(r, depth, kept_member(r, depth, key, klen));
}

/* The value of member key of an object at depth. */
static json_t *member_value(struct reader *r, int depth, const char *key, size_t klen)
{
	if ((r->skip || r->lift || r->shared) && r->in_runs && !r->check_only &&
	    depth == r->run_depth)
		return run_member(r, depth, key, klen);
	if (r->results_as_text && depth == 1 && klen == 4 && memcmp(key, "runs", 4) == 0) {
		r->in_runs = true;
		json_t *v = value(r, depth);
		r->in_runs = false;
		return v;
	}
	return kept_value(r, depth, kept_member(r, depth, key, klen));
}

static json_t *object(struct reader *r, int depth)
{
	json_t *o = r->check_only ? checked : json_object();
	if (!o)
		return NULL;
	skip_ws(r);
	if (eat(r, '}'))
		return o;
	for (;;) {
		skip_ws(r);
		if (!eat(r, '"'))
			break;
		ptrdiff_t klen = string(r);
		if (klen < 0)
			break;
		/* the key stays in r->buf while the value is read: copy it */
		char small[64];
		char *key = (size_t)klen < sizeof small ? small : malloc((size_t)klen + 1);
		if (!key)
			break;
		if (klen > 0)
			memcpy(key, r->buf, (size_t)klen);
		key[klen] = '\0';
		skip_ws(r);
		json_t *v = NULL;
		if (eat(r, ':'))
			v = member_value(r, depth, key, (size_t)klen);
		/* `checked` outside a check: a member passed over (skipped) */
		int rc = v == checked && !r->check_only ? 0
			 : v                            ? set_member(r, o, key, (size_t)klen, v)
							: -1;
		if (key != small)
			free(key);
		if (rc < 0)
			break;
		skip_ws(r);
		if (eat(r, ','))
			continue;
		if (eat(r, '}'))
			return o;
		break;
	}
	if (o != checked)
		json_decref(o);
	return NULL;
}

/* Appends v (a new reference) to a; not when only checking. */
static int append(struct reader *r, json_t *a, json_t *v)
{
	return r->check_only ? 0 : json_array_append_new(a, v);
}

static json_t *kept_text(struct reader *r, int depth);
static json_t *kept_ref(const unsigned char *start, size_t n);

/* Reads the value at r->p only to check it, as value() would read it. */
static bool check_value(struct reader *r, int depth)
{
	r->check_only = true;
	json_t *v = value(r, depth);
	r->check_only = false;
	return v != NULL;
}

/* Appends to a the kept text of the elements read in place from *start
 * to end, if any, and starts none. */
static bool end_block(struct reader *r, json_t *a, const unsigned char **start,
		      const unsigned char *end)
{
	if (!*start)
		return true;
	size_t n = (size_t)(end - *start);
	const unsigned char *at = r->stash ? r->stash(*start, n, r->stash_ctx) : *start;
	json_t *v = at ? kept_ref(at, n) : NULL;
	*start = NULL;
	return v && append(r, a, v) == 0;
}

/* An array, after its '['; its elements that open with `kept` ('[' or
 * '{'; 0: none) kept as text: each its own, or read in place, those in a
 * row one text from the first's first byte to the last's last (the rows
 * between two shape declarations: "[0,...],[0,...]"). */
static json_t *array(struct reader *r, int depth, char kept)
{
	json_t *a = r->check_only ? checked : json_array();
	if (!a)
		return NULL;
	skip_ws(r);
	if (eat(r, ']'))
		return a;
	const unsigned char *block = NULL, *block_end = NULL;
	for (;;) {
		skip_ws(r);
		bool keep = kept && r->p < r->end && *r->p == (unsigned char)kept;
		if (keep && r->kept_in_place) {
			const unsigned char *start = r->p;
			if (!check_value(r, depth))
				break;
			bl_mapped_passed(start, r->p); /* a long run read from a file */
			block = block ? block : start;
			block_end = r->p;
		} else {
			json_t *v = NULL;
			/* a shape of the rows: {"shape": 0, "coords": ...} */
			bool shape = kept == '[' && r->shared && r->p < r->end && *r->p == '{';
			if (end_block(r, a, &block, block_end))
				v = keep    ? kept_text(r, depth)
				    : shape ? shared_value(r, depth)
					    : value(r, depth);
			if (!v || append(r, a, v) < 0)
				break;
		}
		skip_ws(r);
		if (eat(r, ','))
			continue;
		if (eat(r, ']') && end_block(r, a, &block, block_end))
			return a;
		break;
	}
	if (a != checked)
		json_decref(a);
	return NULL;
}

static json_t *value(struct reader *r, int depth)
{
	skip_ws(r);
	if (r->p >= r->end || depth >= MAX_DEPTH)
		return NULL;
	switch (*r->p) {
	case '{': r->p++; return object(r, depth + 1);
	case '[': r->p++; return array(r, depth + 1, 0);
	case '"': {
		r->p++;
		ptrdiff_t n = string(r);
		if (n < 0)
			return NULL;
		return r->check_only ? checked : json_stringn_nocheck(n ? r->buf : "", (size_t)n);
	}
	case 't': return word(r, "true", 4) ? (r->check_only ? checked : json_true()) : NULL;
	case 'f': return word(r, "false", 5) ? (r->check_only ? checked : json_false()) : NULL;
	case 'n': return word(r, "null", 4) ? (r->check_only ? checked : json_null()) : NULL;
	default: return number(r);
	}
}

/* A kept text pointing to n bytes at start (bl_json_read_run_in_place). */
static json_t *kept_ref(const unsigned char *start, size_t n)
{
	char ref[KEPT_REF_LEN];
	uint64_t tag = ref_tag(start, n);
	ref[0] = BL_JSON_KEPT_REF;
	memcpy(ref + 1, &start, sizeof start);
	memcpy(ref + 1 + sizeof start, &n, sizeof n);
	memcpy(ref + 1 + sizeof start + sizeof n, &tag, sizeof tag);
	return json_stringn_nocheck(ref, sizeof ref);
}

/* An element kept as its text once checked, a row of "rows" or a
 * result of "results": "[0,\"tank\",331,[7864320,\"7.5M\",\"approximate\"]]". */
static json_t *kept_text(struct reader *r, int depth)
{
	const unsigned char *start = r->p;
	if (!check_value(r, depth))
		return NULL;
	size_t n = (size_t)(r->p - start);
	if (!room(r, n + 1))
		return NULL;
	r->buf[0] = BL_JSON_KEPT;
	memcpy(r->buf + 1, start, n);
	return json_stringn_nocheck(r->buf, n + 1);
}

/* A member's value, and when `kept` ('[' or '{') and it is an array, its
 * elements that open with `kept` kept as text; its others (the shapes'
 * declarations of "rows") read. */
static json_t *kept_value(struct reader *r, int depth, char kept)
{
	skip_ws(r);
	if (!kept || r->p >= r->end || *r->p != '[' || depth >= MAX_DEPTH)
		return value(r, depth);
	r->p++;
	return array(r, depth + 1, kept);
}

/* One object from the start of text, read as the reader r (its flags
 * set) reads it. */
static json_t *read_with(struct reader r, const char *text, size_t len, size_t *used)
{
	r.p = (const unsigned char *)text;
	r.end = (const unsigned char *)text + len;
	skip_ws(&r);
	json_t *v = r.p < r.end && *r.p == '{' ? value(&r, 0) : NULL;
	free(r.buf);
	if (v && used)
		*used = (size_t)(r.p - (const unsigned char *)text);
	return v;
}

json_t *bl_json_read(const char *text, size_t len, size_t *used)
{
	return read_with((struct reader){0}, text, len, used);
}

json_t *bl_json_read_results_as_text(const char *text, size_t len, size_t *used)
{
	return read_with((struct reader){.results_as_text = true, .run_depth = 3}, text, len, used);
}

json_t *bl_json_read_run_as_text(const char *text, size_t len, size_t *used)
{
	return read_with((struct reader){.in_runs = true, .run_depth = 1}, text, len, used);
}

json_t *bl_json_read_run_with(const char *text, size_t len, size_t *used,
			      const struct bl_json_run_opts *o)
{
	return read_with((struct reader){.in_runs = true,
					 .run_depth = 1,
					 .kept_in_place = true,
					 .stash = o->stash,
					 .stash_ctx = o->stash_ctx,
					 .skip = o->skip,
					 .lift = o->lift,
					 .shared = o->shared,
					 .share = o->share},
			 text, len, used);
}

json_t *bl_json_read_run_in_place(const char *text, size_t len, size_t *used)
{
	return read_with((struct reader){.in_runs = true, .run_depth = 1, .kept_in_place = true},
			 text, len, used);
}

/* The text a kept value holds or points to; NULL when v is not a kept
 * text, or points with a tag that is not the one this process made. */
static const unsigned char *kept_bytes(const json_t *v, size_t *n)
{
	if (!json_is_string(v) || json_string_length(v) < 2)
		return NULL;
	const char *s = json_string_value(v);
	if (s[0] == BL_JSON_KEPT) {
		*n = json_string_length(v) - 1;
		return (const unsigned char *)s + 1;
	}
	if (s[0] != BL_JSON_KEPT_REF || json_string_length(v) != KEPT_REF_LEN)
		return NULL;
	const unsigned char *p;
	uint64_t tag;
	memcpy(&p, s + 1, sizeof p);
	memcpy(n, s + 1 + sizeof p, sizeof *n);
	memcpy(&tag, s + 1 + sizeof p + sizeof *n, sizeof tag);
	return *n && tag == ref_tag(p, *n) ? p : NULL;
}

bool bl_json_is_kept(const json_t *v)
{
	size_t n;
	return kept_bytes(v, &n) != NULL;
}

/* Steps to the next element of a kept text: past blanks, and past the
 * comma after an element (not `first`); false at the text's end, or at
 * a separator that is not a comma. */
static bool next_separator(struct reader *r, bool first)
{
	skip_ws(r);
	if (first)
		return r->p < r->end;
	if (!eat(r, ','))
		return false;
	skip_ws(r);
	return true;
}

json_t *bl_json_kept_next(const json_t *kept, size_t *at)
{
	size_t n;
	const unsigned char *text = kept_bytes(kept, &n);
	if (!text) {
		*at = BL_JSON_KEPT_BAD;
		return NULL;
	}
	if (*at == BL_JSON_KEPT_BAD || *at >= n)
		return NULL;
	if (*at == 0) /* a text among others in a mapping: those behind go */
		bl_mapped_reading(text);
	struct reader r = {.p = text + *at, .end = text + n};
	if (!next_separator(&r, *at == 0)) {
		/* past the last: only blanks may follow it */
		bl_mapped_passed(text + *at, text + n);
		*at = r.p == r.end ? n : BL_JSON_KEPT_BAD;
		return NULL;
	}
	json_t *v = r.p < r.end && (*r.p == '[' || *r.p == '{') ? value(&r, 1) : NULL;
	if (v && json_string_value(kept)[0] == BL_JSON_KEPT) {
		skip_ws(&r); /* a text copied holds its one element, no more */
		if (r.p != r.end) {
			json_decref(v);
			v = NULL;
		}
	}
	free(r.buf);
	bl_mapped_passed(text + *at, r.p);
	*at = v ? (size_t)(r.p - text) : BL_JSON_KEPT_BAD;
	return v;
}
