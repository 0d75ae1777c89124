/* fuzz_mbox_input.h - a fuzz input made the body of an mbox's first
 * message, so that the framing starts at a real separator and every
 * "From " line the fuzzer writes is tried as the next one. */
#ifndef BL_FUZZ_MBOX_INPUT_H
#define BL_FUZZ_MBOX_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The mbox (*n bytes, malloc'd), or NULL when memory ran out. */
static char *as_mbox(const uint8_t *data, size_t size, size_t *n)
{
	static const char head[] = "From a@b Mon Jan 11 10:00:00 2010\nFrom: a@b\nSubject: x\n\n";
	char *buf = malloc(sizeof head - 1 + size);
	if (!buf)
		return NULL;
	memcpy(buf, head, sizeof head - 1);
	memcpy(buf + sizeof head - 1, data, size);
	*n = sizeof head - 1 + size;
	return buf;
}

#endif
