/* docs.c - where the documents of chart and table live: jansson values
 * parsed from JSON are carved out of a few large blocks and dropped
 * together when the command ends.
 *
 * A 100-bar document of 130 KB is 30,000 values; allocating them one by
 * one and freeing them one by one (json_decref walks the whole tree) was a
 * fifth of the instructions of `benchlog chart`. Here a value is a bump
 * of a pointer, and jansson's free is a no-op for a value in a block.
 * A post's documents are written as JSON and read back the same way
 * (but report's documents without runs, which it lets go of one by one).
 * Values made outside cli_docs_arena(true)/(false)
 * come from malloc and go back to free as before. Only the documents use
 * the blocks, and nothing edits a loaded document, so cli_docs_free drops
 * the blocks without walking the tree. */
#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/jsonread.h"
#include "../base/mapped.h"
#include "../base/spool.h"
#include "cli.h"

struct block {
	struct block *next;
	size_t used, cap;
	alignas(max_align_t) unsigned char data[];
};

static struct block *blocks; /* the newest first */

/* memory of malloc's the documents point into, the newest first */
struct adopted {
	struct adopted *next;
	void *p;
};
static struct adopted *adopted;
/* the values the documents' runs share (jsonread.h) */
static struct bl_json_shared *shared;
static bool arena_on;
static bool installed;

#define FIRST_BLOCK ((size_t)256 << 10)
/* The strictest alignment a jansson value needs: its structs hold
 * pointers, sizes, json_int_t and doubles, never a long double. 8 bytes
 * where max_align_t asks 16: a table of 16,000 runs holds 860,000 values,
 * most of them 24 to 72 bytes, and rounding each to 16 cost 2 MB. */
union jansson_align {
	void *p;
	size_t z;
	long long i;
	double d;
};
#define ALIGN (alignof(union jansson_align))

/* The blocks' spans by address, for in_blocks: every value jansson frees
 * is looked up, most of them from malloc and in no block (a table of
 * 150,000 runs frees tens of millions), so the look-up is a binary
 * search, not a walk of the list. Blocks double: 48 spans reach far past
 * any address space. */
#define SPANS_MAX 48
static struct span {
	uintptr_t lo, hi;
} spans[SPANS_MAX];
static size_t nspans;

static bool in_blocks(const void *p)
{
	uintptr_t a = (uintptr_t)p;
	/* past every block's ends: most values freed while reading (a row
	 * read from its text) */
	if (!nspans || a < spans[0].lo || a >= spans[nspans - 1].hi)
		return false;
	/* the last span that starts at or before a */
	size_t lo = 0, hi = nspans;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (spans[mid].lo <= a)
			lo = mid;
		else
			hi = mid;
	}
	return spans[lo].lo <= a && a < spans[lo].hi;
}

/* Adds block b's span, in order of address; false when there is no room. */
static bool add_span(const struct block *b)
{
	if (nspans == SPANS_MAX)
		return false;
	struct span sp = {(uintptr_t)b->data, (uintptr_t)b->data + b->cap};
	size_t i = nspans++;
	for (; i > 0 && spans[i - 1].lo > sp.lo; i--)
		spans[i] = spans[i - 1];
	spans[i] = sp;
	return true;
}

static void *docs_malloc(size_t n)
{
	if (!arena_on)
		return malloc(n);
	if (n > SIZE_MAX / 2)
		return NULL;
	n = (n + ALIGN - 1) & ~(ALIGN - 1);
	if (!blocks || blocks->cap - blocks->used < n) {
		/* each block twice the last: few blocks for in_blocks to look at */
		size_t cap = blocks ? blocks->cap * 2 : FIRST_BLOCK;
		while (cap < n)
			cap *= 2;
		struct block *b = malloc(sizeof *b + cap);
		if (!b)
			return NULL;
		b->next = blocks;
		b->used = 0;
		b->cap = cap;
		if (!add_span(b)) {
			free(b);
			return NULL;
		}
		blocks = b;
	}
	void *p = blocks->data + blocks->used;
	blocks->used += n;
	return p;
}

static void docs_free(void *p)
{
	if (p && !in_blocks(p))
		free(p);
}

static void arena(bool on)
{
	if (!installed) {
		json_set_alloc_funcs(docs_malloc, docs_free);
		installed = true;
	}
	arena_on = on;
}

json_t *cli_docs_new(void)
{
	arena(true);
	json_t *docs = json_array();
	arena(false);
	return docs;
}

void cli_docs_arena(bool on)
{
	arena(on);
}

int cli_docs_adopt(void *p)
{
	struct adopted *a = malloc(sizeof *a);
	if (!a) {
		bl_mapped_or_free(p);
		return -1;
	}
	a->p = p;
	a->next = adopted;
	adopted = a;
	return 0;
}

/* The chunk stashed texts are copied into, adopted when made, where the
 * spool cannot take them. */
#define STASH_CHUNK ((size_t)1 << 20)
static unsigned char *stash_at;
static size_t stash_left;
/* where they go first: a chunk on disk once full, its pages read back
 * as a reader comes to them (spool.h) */
static struct bl_spool spool;
static enum { SPOOL_UNTRIED, SPOOL_ON, SPOOL_OFF } spool_state;

static unsigned char *spooled(size_t n)
{
	if (spool_state == SPOOL_UNTRIED)
		spool_state = bl_spool_init(&spool) == 0 ? SPOOL_ON : SPOOL_OFF;
	return spool_state == SPOOL_ON ? bl_spool_alloc(&spool, n) : NULL;
}

const unsigned char *cli_docs_stash(const unsigned char *p, size_t n, void *ctx)
{
	(void)ctx;
	unsigned char *sp = n <= STASH_CHUNK / 4 ? spooled(n) : NULL;
	if (sp) {
		memcpy(sp, p, n);
		return sp;
	}
	if (n > STASH_CHUNK / 4) { /* a chunk of its own */
		unsigned char *own = malloc(n ? n : 1);
		if (!own || cli_docs_adopt(own) < 0)
			return NULL;
		memcpy(own, p, n);
		return own;
	}
	if (n > stash_left) {
		unsigned char *c = malloc(STASH_CHUNK);
		if (!c || cli_docs_adopt(c) < 0)
			return NULL;
		stash_at = c;
		stash_left = STASH_CHUNK;
	}
	unsigned char *at = stash_at;
	memcpy(at, p, n);
	stash_at += n;
	stash_left -= n;
	return at;
}

struct bl_json_shared *cli_docs_shared(void)
{
	if (!shared)
		shared = bl_json_shared_new();
	return shared;
}

void cli_docs_free(json_t *docs)
{
	if (docs && !in_blocks(docs))
		json_decref(docs); /* frees what came from malloc; blocks stay */
	bl_json_shared_free(shared); /* its values may lie in the blocks */
	shared = NULL;
	while (adopted) {
		struct adopted *a = adopted;
		adopted = a->next;
		bl_mapped_or_free(a->p); /* a run's text may be read from a file */
		free(a);
	}
	while (blocks) {
		struct block *b = blocks;
		blocks = b->next;
		free(b);
	}
	nspans = 0;
	stash_at = NULL;
	stash_left = 0;
	if (spool_state == SPOOL_ON)
		bl_spool_free(&spool);
	spool_state = SPOOL_UNTRIED;
}
