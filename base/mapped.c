/* mapped.c - see mapped.h. The mappings made are listed, so that a
 * block is let go only from one of them: madvise(MADV_DONTNEED) on memory
 * of malloc would empty it. */
#include "mapped.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* At most this many mappings at once; past it bl_mapped_fd refuses, and
 * its caller keeps the text in memory. */
#define MAPPINGS 256

static struct {
	_Atomic uintptr_t start; /* 0: a free slot */
	_Atomic size_t len; /* 0 while the slot is taken or let go */
	_Atomic uintptr_t cursor; /* where a reader last began (bl_mapped_reading) */
} maps[MAPPINGS];
static _Atomic size_t nslots; /* the slots ever taken: the rest are free */

/* A slot for the mapping at start, or -1 when none is free. */
static long take_slot(uintptr_t start, size_t len)
{
	for (size_t i = 0; i < MAPPINGS; i++) {
		uintptr_t none = 0;
		if (atomic_compare_exchange_strong(&maps[i].start, &none, start)) {
			atomic_store(&maps[i].cursor, 0);
			atomic_store(&maps[i].len, len);
			size_t seen = atomic_load(&nslots);
			while (seen < i + 1 && !atomic_compare_exchange_weak(&nslots, &seen, i + 1))
				;
			return (long)i;
		}
	}
	return -1;
}

long bl_mapped_register(const void *start)
{
	return take_slot((uintptr_t)start, 0);
}

void bl_mapped_resize(long slot, size_t len)
{
	atomic_store(&maps[slot].len, len);
}

void bl_mapped_unregister(long slot)
{
	atomic_store(&maps[slot].len, 0);
	atomic_store(&maps[slot].start, 0);
}

char *bl_mapped_fd(int fd, size_t n, size_t pad)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t file = (n + page - 1) / page * page;
	size_t whole = (n + pad + page - 1) / page * page;
	whole = whole ? whole : page;
	/* zeros first, the file's pages over them: a page of a mapping that
	 * lies wholly past the end of its file may not be read */
	char *p = mmap(NULL, whole, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (file && mmap(p, file, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
		munmap(p, whole);
		return NULL;
	}
	if (take_slot((uintptr_t)p, whole) < 0) {
		munmap(p, whole);
		errno = EMFILE;
		return NULL;
	}
	return p;
}

/* The slot of the mapping holding p, or -1. */
static long slot_of(uintptr_t p)
{
	size_t n = atomic_load(&nslots);
	for (size_t i = 0; i < n; i++) {
		uintptr_t s = atomic_load(&maps[i].start);
		if (s && p >= s && p - s < atomic_load(&maps[i].len))
			return (long)i;
	}
	return -1;
}

bool bl_mapped_free(void *p)
{
	long i = p ? slot_of((uintptr_t)p) : -1;
	if (i < 0 || atomic_load(&maps[i].start) != (uintptr_t)p)
		return false;
	size_t len = atomic_exchange(&maps[i].len, 0);
	munmap(p, len);
	bl_mapped_unregister(i);
	return true;
}

void bl_mapped_or_free(void *p)
{
	if (!bl_mapped_free(p))
		free(p);
}

void bl_mapped_let_go(const void *from, const void *to)
{
	uintptr_t f = (uintptr_t)from, t = (uintptr_t)to;
	if (t <= f || f / BL_MAPPED_BLOCK == t / BL_MAPPED_BLOCK)
		return;
	long i = slot_of(f);
	if (i < 0)
		return;
	uintptr_t start = atomic_load(&maps[i].start);
	uintptr_t end = start + atomic_load(&maps[i].len);
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = f / BL_MAPPED_BLOCK * BL_MAPPED_BLOCK;
	uintptr_t hi = t / BL_MAPPED_BLOCK * BL_MAPPED_BLOCK;
	if (lo < start)
		lo = start; /* a mapping starts on a page */
	if (hi > end)
		hi = end / page * page;
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

void bl_mapped_reading(const void *p)
{
	if (!atomic_load(&nslots))
		return;
	long i = slot_of((uintptr_t)p);
	if (i < 0)
		return;
	uintptr_t was = atomic_exchange(&maps[i].cursor, (uintptr_t)p);
	if (was && was < (uintptr_t)p)
		bl_mapped_let_go((const void *)was, p);
}
