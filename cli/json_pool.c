/* json_pool.c - jansson's small blocks from free lists, one per size.
 *
 * A mail archive makes and frees jansson values by the hundred thousand
 * (a run's results, their members, strings of a few bytes). glibc keeps
 * seven freed blocks of a size at hand; the rest go to its fast bins,
 * which the next larger request consolidates: on a prose archive its
 * malloc and free took 7% of `benchlog parse`'s instructions. Here a
 * block of up to POOL_MAX bytes is taken from and given back to the list
 * of its size class, a pop and a push; larger ones go to malloc. The
 * classes are carved from chunks that live until the process ends, so
 * the memory held is the most jansson ever held at once.
 *
 * Each block has a header of one max_align_t before it that holds its
 * class (POOL_BIG: from malloc), so that jansson's free, which is given
 * no size, finds its list.
 *
 * The leak checkers need malloc's own blocks: BENCHLOG_MALLOC=system
 * leaves jansson on malloc (tests/valgrind.sh sets it). In a build with
 * AddressSanitizer each block, header and all, comes from malloc, so that
 * its leak check still sees every jansson value and a free() of a block
 * jansson handed out (what json_dumps returns) is reported as a bad free;
 * the free lists themselves are tested there directly, poisoned while a
 * block is free (tests/unit/test_json_pool.c). */
#include "json_pool.h"

#include <jansson.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define POOL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOL_ASAN 1
#endif
#endif
#ifdef POOL_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)0)
#define UNPOISON(p, n) ((void)0)
#endif

#define HEAD sizeof(max_align_t)
#define STEP ((size_t)16)
#define POOL_MAX ((size_t)256)
#define NCLASS (POOL_MAX / STEP)
#define POOL_BIG ((size_t)-1)
#define CHUNK ((size_t)1 << 16)

struct block {
	struct block *next;
};

static struct block *free_list[NCLASS];
static char *carve, *carve_end;

/* The size class of a request of `size` bytes (0 for 1 to 16 bytes), or
 * POOL_BIG past POOL_MAX. */
static inline size_t class_of(size_t size)
{
	return size > POOL_MAX ? POOL_BIG : size ? (size - 1) / STEP : 0;
}

/* The bytes of a block of class c, its header included. */
static inline size_t class_bytes(size_t c)
{
	return (c + 1) * STEP + HEAD;
}

/* A fresh block of class c, carved from the current chunk or a new one
 * (the rest of the old one is left unused). */
static char *carve_block(size_t c)
{
	size_t n = class_bytes(c);
	if ((size_t)(carve_end - carve) < n) {
		void *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);
		if (p == MAP_FAILED)
			return NULL;
		carve = p;
		carve_end = carve + CHUNK;
		POISON(carve, CHUNK);
	}
	char *b = carve;
	carve += n;
	return b;
}

/* A block from the free lists, or from malloc past POOL_MAX (unused by
 * the command in a sanitizer build, where only the unit test calls it). */
__attribute__((unused)) static void *pooled_malloc(size_t size)
{
	size_t c = class_of(size);
	char *h;
	if (c == POOL_BIG) {
		if (size > (size_t)-1 - HEAD || !(h = malloc(HEAD + size)))
			return NULL;
		memcpy(h, &c, sizeof c);
		return h + HEAD;
	}
	if (free_list[c]) {
		h = (char *)free_list[c];
		UNPOISON(h, sizeof(struct block));
		free_list[c] = free_list[c]->next;
	} else if (!(h = carve_block(c))) {
		return NULL;
	}
	UNPOISON(h, sizeof c);
	memcpy(h, &c, sizeof c);
	POISON(h, HEAD);
	UNPOISON(h + HEAD, size);
	return h + HEAD;
}

static void pooled_free(void *p)
{
	if (!p)
		return;
	char *h = (char *)p - HEAD;
	size_t c;
	UNPOISON(h, sizeof c);
	memcpy(&c, h, sizeof c);
	if (c == POOL_BIG) {
		free(h);
		return;
	}
	POISON(h, class_bytes(c));
	UNPOISON(h, sizeof(struct block));
	struct block *b = (struct block *)(void *)h;
	b->next = free_list[c];
	free_list[c] = b;
	POISON(h, sizeof(struct block));
}

#ifdef POOL_ASAN
/* Every block from malloc, behind the same header. */
void *json_pool_malloc(size_t size)
{
	size_t c = POOL_BIG;
	char *h = size > (size_t)-1 - HEAD ? NULL : malloc(HEAD + size);
	if (!h)
		return NULL;
	memcpy(h, &c, sizeof c);
	return h + HEAD;
}

void json_pool_free(void *p)
{
	pooled_free(p);
}
#else
void *json_pool_malloc(size_t size)
{
	return pooled_malloc(size);
}

void json_pool_free(void *p)
{
	pooled_free(p);
}
#endif

bool json_pool_use(void)
{
	const char *m = getenv("BENCHLOG_MALLOC");
	if (m && strcmp(m, "system") == 0)
		return false;
	json_set_alloc_funcs(json_pool_malloc, json_pool_free);
	return true;
}
