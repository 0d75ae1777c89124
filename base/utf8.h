/* utf8.h - the one UTF-8 checker: what RFC 3629 allows, no overlong
 * forms, no surrogates, nothing above U+10FFFF (what jansson accepts). */
#ifndef BL_UTF8_H
#define BL_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* The length (1 to 4) of the valid sequence that starts s[0, n), or 0
 * when none does; an ASCII byte, NUL included, is a sequence of 1. */
size_t bl_utf8_len(const unsigned char *s, size_t n);
/* Whether s[0, n) is valid UTF-8 without a NUL byte. */
bool bl_utf8_valid(const char *s, size_t n);
/* Code point cp as UTF-8 into o (room for 4 bytes); its length. U+0000,
 * a surrogate or past U+10FFFF is written as U+FFFD. */
size_t bl_utf8_put(unsigned long cp, char *o);

#endif
