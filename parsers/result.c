/* result.c - a run's results as structs, and their strings. */
#include "result.h"

#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/hash.h"
#include "../base/utf8.h"
#include "doc.h"

/* ------------------------------------------------------------ strings */

/* Strings are copied into chunks that never move; a string longer than
 * a chunk's share gets a chunk of its own. The first chunk is small and
 * each next one twice as large, up to STRS_CHUNK: a table of a thousand
 * runs of a few strings each holds them all at once. */
#define STRS_FIRST_CHUNK ((size_t)1 << 10)
#define STRS_CHUNK ((size_t)16 << 10)

struct strs_chunk {
	struct strs_chunk *next;
	char data[];
};

/* Strings copied lately, by a hash of their length and ends: a stream's
 * results repeat their names, units and vdevs, which are then kept once.
 * A store has a few slots inline; one that has copied many strings (a
 * long table) gets more. */
#define STRS_RECENT_FEW 32
#define STRS_RECENT_MANY 256
#define STRS_GROW_AFTER 64

struct strs_seen {
	const char *s;
	size_t n;
};

struct bl_strs {
	uint64_t id; /* never 0, and no other store's */
	struct strs_chunk *chunks;
	char *p;
	size_t left;
	size_t chunk; /* the size of the next chunk (0: the first) */
	size_t copies;
	unsigned nrecent; /* a power of two */
	struct strs_seen *recent; /* few, or a table of many */
	struct strs_seen few[STRS_RECENT_FEW];
};

static inline unsigned recent_slot(const char *s, size_t n)
{
	/* the first and last four bytes (or first, middle and last), mixed */
	uint32_t a = 0, b = 0;
	if (n >= 4) {
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
	} else if (n) {
		a = (unsigned char)s[0] | (uint32_t)(unsigned char)s[n / 2] << 8;
		b = (unsigned char)s[n - 1];
	}
	uint64_t h = ((uint64_t)a << 32 | (b ^ (uint32_t)n)) * 0x9E3779B97F4A7C15ULL;
	return (unsigned)(h >> 32);
}

/* A copy of s kept lately, or NULL. */
static const char *strs_recent(const struct bl_strs *st, const char *s, size_t n)
{
	unsigned k = recent_slot(s, n) & (st->nrecent - 1);
	if (st->recent[k].n == n && st->recent[k].s && memcmp(st->recent[k].s, s, n) == 0)
		return st->recent[k].s;
	return NULL;
}

/* A number never handed out before, never 0: a store's id, a place. */
static uint64_t fresh_number(void)
{
	static _Atomic uint64_t last;
	return atomic_fetch_add_explicit(&last, 1, memory_order_relaxed) + 1;
}

static struct bl_strs *strs_new(void)
{
	struct bl_strs *st = calloc(1, sizeof(struct bl_strs));
	if (st) {
		st->id = fresh_number();
		st->recent = st->few;
		st->nrecent = STRS_RECENT_FEW;
	}
	return st;
}

/* More slots for a store that copies many strings; the strings seen
 * lately are forgotten (they are found again once copied anew). */
static void strs_more_recent(struct bl_strs *st)
{
	struct strs_seen *many = calloc(STRS_RECENT_MANY, sizeof *many);
	if (!many)
		return;
	st->recent = many;
	st->nrecent = STRS_RECENT_MANY;
}

static void strs_free(struct bl_strs *st)
{
	if (!st)
		return;
	for (struct strs_chunk *c = st->chunks, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	if (st->recent != st->few)
		free(st->recent);
	free(st);
}

/* Whether no byte of s needs an escape in JSON: a control character,
 * '"' or '\\'. */
static bool json_plain(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == '"' || c == '\\')
			return false;
	}
	return true;
}

/* A string's head, before its bytes: its length (4 bytes) and whether
 * it is plain (json_plain), so that writing it needs neither. */
#define STRS_HEAD BL_STRS_HEAD

/* plain: json_plain(s, n) when known, else -1 */
static char *strs_put(char *d, const char *s, size_t n, int plain)
{
	uint32_t len = (uint32_t)n;
	memcpy(d, &len, 4);
	d[4] = (char)(plain < 0 ? json_plain(s, n) : plain);
	d += STRS_HEAD;
	if (n)
		memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* A copy of s that strs_recent did not find. */
static const char *strs_copy_new(struct bl_strs *st, const char *s, size_t n, int plain)
{
	if (n >= UINT32_MAX)
		return NULL;
	size_t need = STRS_HEAD + n + 1;
	if (need > st->left) {
		size_t chunk = st->chunk ? st->chunk : STRS_FIRST_CHUNK;
		bool own = need > chunk / 4;
		size_t size = own ? need : chunk;
		struct strs_chunk *c = malloc(sizeof *c + size);
		if (!c)
			return NULL;
		if (!own || !st->chunks) {
			c->next = st->chunks;
			st->chunks = c;
			st->p = c->data;
			st->left = size;
			st->chunk = chunk < STRS_CHUNK ? 2 * chunk : STRS_CHUNK;
		} else {
			/* a long string: its own chunk, behind the current one */
			c->next = st->chunks->next;
			st->chunks->next = c;
			return strs_put(c->data, s, n, plain);
		}
	}
	char *d = strs_put(st->p, s, n, plain);
	st->p += need;
	st->left -= need;
	if (++st->copies == STRS_GROW_AFTER)
		strs_more_recent(st);
	unsigned k = recent_slot(s, n) & (st->nrecent - 1);
	st->recent[k].s = d;
	st->recent[k].n = n;
	return d;
}

const char *bl_strs_copy(struct bl_strs *st, const char *s, size_t n)
{
	if (!st)
		return NULL;
	const char *seen = strs_recent(st, s, n);
	return seen ? seen : strs_copy_new(st, s, n, -1);
}

/* ------------------------------------------------------------ the list */

void bl_results_init(struct bl_results *rs)
{
	memset(rs, 0, sizeof *rs);
}

void bl_results_free(struct bl_results *rs)
{
	for (size_t i = 0; i < rs->nblocks; i++)
		free(rs->blocks[i]);
	free(rs->blocks);
	strs_free(rs->strs);
	memset(rs, 0, sizeof *rs);
}

struct bl_result *bl_results_add(struct bl_results *rs)
{
	if (!rs->strs && !(rs->strs = strs_new()))
		return NULL;
	size_t b = rs->nblocks, small = b < BL_RESULTS_SMALL;
	size_t room = small ? 4 * (((size_t)1 << b) - 1)
			    : BL_RESULTS_IN_SMALL + (b - BL_RESULTS_SMALL) * BL_RESULTS_BLOCK;
	if (rs->n == room) {
		struct bl_result **v = realloc(rs->blocks, (b + 1) * sizeof *v);
		if (!v)
			return NULL;
		rs->blocks = v;
		size_t size = small ? (size_t)4 << b : BL_RESULTS_BLOCK;
		if (!(v[b] = malloc(size * sizeof **v)))
			return NULL;
		rs->nblocks++;
	}
	struct bl_result *r = bl_results_at(rs, rs->n++);
	r->metric = r->unit = r->raw = NULL;
	r->value = NAN;
	r->flags = 0;
	r->ncoord = 0;
	r->initials = 0;
	r->place = 0;
	r->strs = rs->strs;
	return r;
}

/* Copies result `from` into `to` (a new result of another list). */
static void copy_result(struct bl_result *to, const struct bl_result *from)
{
	struct bl_strs *st = to->strs;
	bl_result_set_metric(to, from->metric);
	bl_result_set_unit(to, from->unit);
	to->raw = from->raw ? bl_strs_copy(st, from->raw, bl_strs_len(from->raw)) : NULL;
	to->value = from->value;
	to->flags = from->flags;
	to->ncoord = 0;
	to->initials = 0;
	for (unsigned k = 0; k < from->ncoord; k++)
		bl_result_set_coord(to, &from->coord[k]);
	/* the same coordinates in another store, unless one was lost (out
	 * of memory): then compared again */
	to->place = to->ncoord == from->ncoord ? from->place : 0;
}

int bl_results_drop_front(struct bl_results *rs, size_t n)
{
	if (n > rs->n)
		n = rs->n;
	struct bl_results rest;
	bl_results_init(&rest);
	for (size_t i = n; i < rs->n; i++) {
		struct bl_result *r = bl_results_add(&rest);
		if (!r) {
			bl_results_free(&rest);
			return -1;
		}
		copy_result(r, bl_results_at(rs, i));
	}
	bl_results_free(rs);
	*rs = rest;
	return 0;
}

struct bl_result *bl_results_find(const struct bl_results *rs, const char *metric)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct bl_result *r = bl_results_at(rs, i);
		if (r->metric && strcmp(r->metric, metric) == 0)
			return r;
	}
	return NULL;
}

/* ------------------------------------------------------------ members */

/* Whether every byte of s is ASCII but NUL: most strings a result keeps
 * ("7.5M", "tank/raidz1"), which are then UTF-8 with no more test. When
 * so, *plain tells whether it is json_plain too. */
static bool plain_ascii(const char *s, size_t n, bool *plain)
{
	bool escapes = false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((unsigned char)(c - 1) >= 0x7F) /* NUL, or 0x80 and above */
			return false;
		escapes |= c < 0x20 || c == '"' || c == '\\';
	}
	*plain = !escapes;
	return true;
}

/* Whether s is UTF-8 apart from its NUL bytes, which jansson takes. */
static bool utf8_but_nul(const char *s, size_t n)
{
	const char *z;
	while ((z = memchr(s, 0, n)) != NULL) {
		if (!bl_utf8_valid(s, (size_t)(z - s)))
			return false;
		n -= (size_t)(z - s) + 1;
		s = z + 1;
	}
	return bl_utf8_valid(s, n);
}

bool bl_json_string_ok(const char *s, size_t n)
{
	bool plain;
	return (n <= 64 && plain_ascii(s, n, &plain)) || utf8_but_nul(s, n);
}

const char *bl_strs_doc_copy(struct bl_strs *st, const char *s, size_t n)
{
	if (!st || !s)
		return NULL;
	const char *seen = strs_recent(st, s, n);
	if (seen)
		return seen;
	bool plain;
	if (n <= 64 && plain_ascii(s, n, &plain))
		return strs_copy_new(st, s, n, plain);
	return utf8_but_nul(s, n) ? strs_copy_new(st, s, n, -1) : NULL;
}

static const char *doc_string(struct bl_result *r, const char *s, size_t n)
{
	return bl_strs_doc_copy(r->strs, s, n);
}

/* ------------------------------------------------------------ names */

/* The names of metrics and units, kept once for the whole process (each
 * thread its own): a run's store starts empty, and copying a run's
 * names into it cost more than finding its numbers. At most VOCAB_MAX
 * names; past that, they are copied into the run's store. */
#define VOCAB_SLOTS 1024
#define VOCAB_MAX 512

static _Thread_local struct vocab {
	const char *names[VOCAB_SLOTS]; /* in strings of the heads of strs_put */
	char *blocks[VOCAB_MAX]; /* what to free */
	size_t n;
} vocab;

/* The kept copy of name s[0, n), made on first use; NULL when it is not
 * a string of the document or the names are full. */
static const char *vocab_name(const char *s, size_t n)
{
	size_t i = bl_hash_bytes(s, n) % VOCAB_SLOTS;
	for (; vocab.names[i]; i = (i + 1) % VOCAB_SLOTS) {
		const char *v = vocab.names[i];
		if (bl_strs_len(v) == n && memcmp(v, s, n) == 0)
			return v;
	}
	if (vocab.n == VOCAB_MAX || n >= 256 || !bl_json_string_ok(s, n))
		return NULL;
	char *b = malloc(STRS_HEAD + n + 1);
	if (!b)
		return NULL;
	vocab.blocks[vocab.n++] = b;
	char *v = strs_put(b, s, n, -1);
	v[-1] |= BL_STRS_KEPT;
	return vocab.names[i] = v;
}

/* The kept names of the texts at the addresses asked for lately: a
 * parser names its metrics and units by string literals, asked for again
 * for every result. What an address holds is compared before its name is
 * taken: a buffer may hold another text since. */
#define NAMES_AT_BITS 6
#define NAMES_AT (1 << NAMES_AT_BITS)
static _Thread_local struct {
	const char *at, *kept;
} names_at[NAMES_AT];

void bl_results_cleanup(void)
{
	for (size_t i = 0; i < vocab.n; i++)
		free(vocab.blocks[i]);
	memset(&vocab, 0, sizeof vocab);
	memset(names_at, 0, sizeof names_at);
}

const char *bl_result_kept_name(const char *s)
{
	return vocab_name(s, strlen(s));
}

static const char *name_string(struct bl_result *r, const char *s)
{
	size_t n = strlen(s);
	unsigned k = bl_hash_ptr(s, NAMES_AT_BITS);
	const char *kept = names_at[k].kept;
	if (names_at[k].at == s && bl_strs_len(kept) == n && memcmp(kept, s, n) == 0)
		return kept;
	const char *v = vocab_name(s, n);
	if (v) {
		names_at[k].at = s;
		names_at[k].kept = v;
	}
	return v ? v : doc_string(r, s, n);
}

void bl_result_set_metric(struct bl_result *r, const char *metric)
{
	r->metric = metric ? name_string(r, metric) : NULL;
}

void bl_result_set_unit(struct bl_result *r, const char *unit)
{
	r->unit = unit ? name_string(r, unit) : NULL;
}

void bl_result_set_raw(struct bl_result *r, const char *raw)
{
	r->raw = NULL;
	if (raw)
		bl_result_set_rawn(r, raw, strlen(raw));
}

/* Whether none of the 8 bytes of w is below 0x20, 0x80 or above, '"'
 * or '\\': a byte below 0x20 borrows into its top bit when 0x20 is
 * taken from it, a byte equal to c is zero after ^c and borrows when 1
 * is taken (a borrow passed on follows a byte found anyway). */
static inline bool plain_ascii8(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL, top = 0x8080808080808080ULL;
	const uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
	return !((w | ((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b)) & top);
}

/* A copy of s[0, n), up to 16 bytes of plain ASCII (plain_ascii8): a
 * number's printed text ("7.5M", "1.07T"), seldom one of those copied
 * lately, so copied without looking for it; its bytes are read and
 * written as two words that overlap, or one by one below 4. NULL,
 * nothing copied, for another text or a chunk without room:
 * strs_copy_new's. */
static const char *strs_copy_short(struct bl_strs *st, const char *s, size_t n)
{
	if (n > 16 || STRS_HEAD + n + 1 > st->left)
		return NULL;
	char *d = st->p + STRS_HEAD;
	if (n >= 8) {
		uint64_t a, b;
		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		if (!plain_ascii8(a) || !plain_ascii8(b))
			return NULL;
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		if (!plain_ascii8((uint64_t)b << 32 | a))
			return NULL;
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else {
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s[i];
			if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\')
				return NULL;
			d[i] = (char)c;
		}
	}
	uint32_t len = (uint32_t)n;
	memcpy(st->p, &len, 4);
	st->p[4] = BL_STRS_PLAIN;
	d[n] = '\0';
	st->p += STRS_HEAD + n + 1;
	st->left -= STRS_HEAD + n + 1;
	return d;
}

void bl_result_set_rawn(struct bl_result *r, const char *raw, size_t n)
{
	if (r->strs && (r->raw = strs_copy_short(r->strs, raw, n)) != NULL)
		return;
	/* up to a NUL, as a copy of the text made a string would be */
	const char *nul = memchr(raw, 0, n);
	if (nul)
		n = (size_t)(nul - raw);
	/* what is not UTF-8 was printed, but cannot be shown */
	r->raw = doc_string(r, raw, n);
	if (!r->raw)
		r->raw = bl_strs_copy(r->strs, "\xEF\xBF\xBD", 3);
}

/* A coordinate's bit in `initials`, from its key's first two bytes
 * ("sample" and "since_boot" apart). A key is never empty: its second
 * byte is at most its NUL. */
static uint32_t initial(const char *key)
{
	return UINT32_C(1) << (((unsigned char)key[0] + 2u * (unsigned char)key[1]) >> 1 & 31);
}

/* Whether coordinate name a is key: the same literal, or the same text
 * (the first two bytes tell most apart without a call: "sample" and
 * "since_boot"). */
static inline bool same_key(const char *a, const char *key)
{
	return a == key ||
	       (a[0] == key[0] && (!a[0] || (a[1] == key[1] && strcmp(a + 1, key + 1) == 0)));
}

/* The slot of `key`: its own, or a new one at the end (NULL when full). */
static struct bl_coord *slot(struct bl_result *r, const char *key)
{
	r->place = 0;
	if (r->initials & initial(key))
		for (unsigned k = r->ncoord; k-- > 0;) /* as bl_result_get */
			if (same_key(r->coord[k].key, key))
				return &r->coord[k];
	if (r->ncoord == BL_COORDS_MAX)
		return NULL;
	struct bl_coord *c = &r->coord[r->ncoord++];
	c->key = key;
	r->initials |= initial(key);
	return c;
}

void bl_result_set_int(struct bl_result *r, const char *key, long long v)
{
	struct bl_coord *c = slot(r, key);
	if (c) {
		c->type = BL_VAL_INT;
		c->v.i = v;
	}
}

void bl_result_set_real(struct bl_result *r, const char *key, double v)
{
	/* jansson has no real for what is not finite: the set fails, the
	 * member stays as it was */
	if (!isfinite(v))
		return;
	struct bl_coord *c = slot(r, key);
	if (c) {
		c->type = BL_VAL_REAL;
		c->v.d = v;
	}
}

void bl_result_set_bool(struct bl_result *r, const char *key, bool v)
{
	struct bl_coord *c = slot(r, key);
	if (c)
		c->type = v ? BL_VAL_TRUE : BL_VAL_FALSE;
}

void bl_result_set_null(struct bl_result *r, const char *key)
{
	struct bl_coord *c = slot(r, key);
	if (c)
		c->type = BL_VAL_NULL;
}

void bl_result_set_strn(struct bl_result *r, const char *key, const char *s, size_t n)
{
	const char *copy = doc_string(r, s, n);
	if (!copy || n > UINT_MAX) {
		/* jansson leaves out a member whose string it refuses, and a
		 * set that fails leaves the old value */
		return;
	}
	struct bl_coord *c = slot(r, key);
	if (c) {
		c->type = BL_VAL_STR;
		c->v.s = copy;
		c->len = (unsigned)n;
	}
}

void bl_result_set_str(struct bl_result *r, const char *key, const char *s)
{
	if (s)
		bl_result_set_strn(r, key, s, strlen(s));
}

void bl_result_set_coord(struct bl_result *r, const struct bl_coord *from)
{
	if (from->type == BL_VAL_STR) {
		bl_result_set_strn(r, from->key, from->v.s, from->len);
		return;
	}
	struct bl_coord *c = slot(r, from->key);
	if (c)
		*c = *from;
}

uint64_t bl_place_new(void)
{
	return fresh_number();
}

void bl_result_copy_coords(struct bl_result *to, struct bl_result *from)
{
	if (to->strs != from->strs || to->ncoord) {
		for (unsigned k = 0; k < from->ncoord; k++)
			bl_result_set_coord(to, &from->coord[k]);
		return;
	}
	/* the same store: its strings are shared */
	memcpy(to->coord, from->coord, from->ncoord * sizeof from->coord[0]);
	to->ncoord = from->ncoord;
	to->initials = from->initials;
	if (!from->place)
		from->place = bl_place_new();
	to->place = from->place;
}

void bl_coords_take(struct bl_coords *cs, const struct bl_result *r)
{
	cs->store = r->strs ? r->strs->id : 0;
	cs->n = r->ncoord;
	cs->initials = r->initials;
	memcpy(cs->c, r->coord, r->ncoord * sizeof r->coord[0]);
}

bool bl_result_put_coords(struct bl_result *r, const struct bl_coords *cs)
{
	/* the strings are those of a store while it lives: one with the
	 * same id is that store, still alive */
	if (!cs->store || r->ncoord || !r->strs || r->strs->id != cs->store)
		return false;
	memcpy(r->coord, cs->c, cs->n * sizeof cs->c[0]);
	r->ncoord = cs->n;
	r->initials = cs->initials;
	r->place = 0;
	return true;
}

void bl_result_del(struct bl_result *r, const char *key)
{
	for (unsigned k = 0; k < r->ncoord; k++)
		if (same_key(r->coord[k].key, key)) {
			memmove(&r->coord[k], &r->coord[k + 1],
				(r->ncoord - k - 1) * sizeof r->coord[0]);
			r->ncoord--;
			r->initials = 0;
			r->place = 0;
			for (unsigned j = 0; j < r->ncoord; j++)
				r->initials |= initial(r->coord[j].key);
			return;
		}
}

const struct bl_coord *bl_result_get(const struct bl_result *r, const char *key)
{
	if (!(r->initials & initial(key)))
		return NULL;
	/* from the last: a record's number ("sample") is set after the
	 * coordinates that place a row, and is what is asked for most */
	for (unsigned k = r->ncoord; k-- > 0;)
		if (same_key(r->coord[k].key, key))
			return &r->coord[k];
	return NULL;
}

long long bl_result_int(const struct bl_result *r, const char *key, long long dflt)
{
	const struct bl_coord *c = bl_result_get(r, key);
	return c && c->type == BL_VAL_INT ? c->v.i : dflt;
}

const char *bl_result_str(const struct bl_result *r, const char *key)
{
	const struct bl_coord *c = bl_result_get(r, key);
	return c && c->type == BL_VAL_STR ? c->v.s : NULL;
}

bool bl_result_number(const struct bl_result *r, double *v)
{
	if ((r->flags & BL_FLAG_NOT_RUN) || !isfinite(r->value))
		return false;
	*v = r->value;
	return true;
}

size_t bl_flag_names(unsigned flags, const char *names[4])
{
	size_t n = 0;
	if (flags & BL_FLAG_CENSORED)
		names[n++] = "censored";
	if (flags & BL_FLAG_APPROXIMATE)
		names[n++] = "approximate";
	if (flags & BL_FLAG_COMPUTED)
		names[n++] = "computed";
	if (flags & BL_FLAG_NOT_RUN)
		names[n++] = "not-run";
	return n;
}

/* ------------------------------------------------------------ JSON */

static json_t *coord_json(const struct bl_coord *c)
{
	switch (c->type) {
	case BL_VAL_NULL: return json_null();
	case BL_VAL_TRUE: return json_true();
	case BL_VAL_FALSE: return json_false();
	case BL_VAL_INT: return json_integer((json_int_t)c->v.i);
	case BL_VAL_REAL: return json_real(c->v.d);
	default: return json_stringn(c->v.s, c->len);
	}
}

json_t *bl_result_json(const struct bl_result *r)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	if (r->metric)
		json_object_set_new(o, "metric", json_string(r->metric));
	double v;
	json_object_set_new(o, "value",
			    !bl_result_number(r, &v) ? json_null()
			    : bl_value_is_int(v)     ? json_integer((json_int_t)v)
						     : json_real(v));
	if (r->unit)
		json_object_set_new(o, "unit", json_string(r->unit));
	if (r->raw)
		json_object_set_new(o, "raw", json_string(r->raw));
	if (r->flags) {
		const char *names[4];
		size_t n = bl_flag_names(r->flags, names);
		json_t *f = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(f, json_string(names[i]));
		json_object_set_new(o, "flags", f);
	}
	for (unsigned k = 0; k < r->ncoord; k++)
		json_object_set_new(o, r->coord[k].key, coord_json(&r->coord[k]));
	return o;
}
