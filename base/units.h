/* units.h - bounded number, size and duration parsing for tool output.
 *
 * Every function reads at most `len` bytes, never reads past them, never
 * allocates, and reports failure instead of guessing. None depends on the
 * process locale: a decimal comma is accepted only where asked for. */
#ifndef BL_UNITS_H
#define BL_UNITS_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "2097152000" -> 2097152000. Digits only; fails on overflow or no digits.
 * *end (optional) receives the number of bytes consumed. */
bool bl_parse_u64(const char *s, size_t len, uint64_t *out, size_t *end);

/* "67.255574", "9.5351e-05", "-1.5", "1,23" (when comma_ok), "+5".
 * Fails on no digits, non-finite values or overflow. */
bool bl_parse_double(const char *s, size_t len, bool comma_ok, double *out, size_t *end);

/* A dd operand size: "1m" "1M" "64k" "512" "8k" "1MB" "1KiB" "2x512" "4b"
 * "1w". BSD and GNU suffixes: b=512, w=2 (BSD 4), k/K=1024, m/M=1024^2,
 * g/G, t/T, p/P, e/E; "kB"/"MB"... are powers of 1000 (GNU), "KiB" powers of
 * 1024. The whole string must be consumed. */
bool bl_parse_size(const char *s, size_t len, uint64_t *out);

/* A duration as shells and time(1) print it, in seconds:
 * "1:32.46" (m:s), "1:02:03.5" (h:m:s), "4m37.724s", "0m1.597s",
 * "0.220", "1.23s", "2h3m4s". The whole string must be consumed. */
bool bl_parse_duration(const char *s, size_t len, double *out);

/* A rate with an SI or IEC unit as GNU dd and others print it:
 * "4.4 GB/s" -> 4.4e9 B/s; "98 KiB/s"; "0.0 kB/s"; "12,5 MB/s" with comma_ok.
 * Also "bytes/sec", "B/s". Returns false for unknown units. */
bool bl_parse_rate(const char *s, size_t len, bool comma_ok, double *out);

/* Multiplier of a unit prefix for bytes: "k" "K" "kB" "KiB" "M" "MB" "MiB"...
 * si_bytes: whether a bare "kB/MB" means 1000-based (GNU style). */
bool bl_unit_multiplier(const char *s, size_t len, double *out);

/* True if the whole span is ASCII whitespace (or empty). */
bool bl_is_blank(const char *s, size_t len);

/* 10^k: exact from a table for 0 <= k <= 22 (every power of ten a double
 * holds exactly), pow() beyond; the same value pow(10, k) gives. */
static inline double bl_pow10(int k)
{
	static const double p[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	return k >= 0 && k <= 22 ? p[k] : pow(10.0, k);
}

#endif
