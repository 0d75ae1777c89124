/* numfmt.c - numbers as jansson writes them into a document.
 *
 * Most reals in tool output are short decimals ("67.255574", "0.029"):
 * printf formatting each cost more than the rest of writing its result.
 * Those are written from their digits (real_digits); printf remains for
 * the others, and test_numfmt compares the two on millions of values. */
#include "numfmt.h"

#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

size_t bl_fmt_int(long long v, char buf[BL_NUM_MAX])
{
	if (v >= 0)
		return bl_fmt_u64((unsigned long long)v, buf);
	char digits[BL_NUM_MAX];
	size_t n = bl_fmt_u64(0ULL - (unsigned long long)v, digits);
	buf[0] = '-';
	memcpy(buf + 1, digits, n);
	return n + 1;
}

size_t bl_fmt_u64(unsigned long long u, char buf[BL_NUM_MAX])
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	static const unsigned long long tens[19] = {
		10ULL,
		100ULL,
		1000ULL,
		10000ULL,
		100000ULL,
		1000000ULL,
		10000000ULL,
		100000000ULL,
		1000000000ULL,
		10000000000ULL,
		100000000000ULL,
		1000000000000ULL,
		10000000000000ULL,
		100000000000000ULL,
		1000000000000000ULL,
		10000000000000000ULL,
		100000000000000000ULL,
		1000000000000000000ULL,
		10000000000000000000ULL,
	};
	/* the digits: t = floor(bits * log10(2)) (1233 / 4096), then one
	 * less when u is below 10^t */
	unsigned bits = u ? 64 - (unsigned)__builtin_clzll(u) : 1;
	size_t t = bits * 1233u >> 12;
	size_t n = t + 1 - (t && u < tens[t - 1]);
	char *p = buf + n; /* the digits are written from the last */
	while (u >= 100) {
		unsigned d = (unsigned)(u % 100);
		u /= 100;
		p -= 2;
		memcpy(p, pairs + 2 * d, 2);
	}
	if (u >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * u, 2);
	} else {
		*--p = (char)('0' + u);
	}
	return n;
}

/* The digits of m / 10^k (m with nd digits, no trailing zero unless k is
 * 0) as "%g" lays them out: plain ("0.00123", "67.255574", "12.0" with
 * jansson's ".0") when the exponent is from -4 to prec - 1, else
 * d.ddde-X with jansson's exponent, without '+' and leading zeros. */
static size_t layout(bool neg, const char *digits, size_t nd, int k, int prec, char *buf)
{
	size_t n = 0;
	int x = (int)nd - 1 - k; /* the exponent */
	if (neg)
		buf[n++] = '-';
	if (x < -4 || x >= prec) {
		buf[n++] = digits[0];
		if (nd > 1) {
			buf[n++] = '.';
			memcpy(buf + n, digits + 1, nd - 1);
			n += nd - 1;
		}
		buf[n++] = 'e';
		if (x < 0)
			buf[n++] = '-';
		char e[BL_NUM_MAX];
		size_t ne = bl_fmt_int(x < 0 ? -x : x, e);
		memcpy(buf + n, e, ne);
		return n + ne;
	}
	if (x < 0) {
		/* 0.00123 */
		buf[n++] = '0';
		buf[n++] = '.';
		for (int z = x + 1; z < 0; z++)
			buf[n++] = '0';
		memcpy(buf + n, digits, nd);
		return n + nd;
	}
	memcpy(buf + n, digits, (size_t)x + 1);
	n += (size_t)x + 1;
	buf[n++] = '.';
	if (k == 0) {
		buf[n++] = '0';
		return n;
	}
	memcpy(buf + n, digits + x + 1, (size_t)k);
	return n + (size_t)k;
}

/* v as "%.{prec}g" prints it, from its digits: when v is the double
 * nearest to m / 10^k for an integer m of at most prec digits (the least
 * such k), printing it to prec digits gives m's digits back. That holds
 * for prec <= 15: a double is within 1.2e-16 of m / 10^k, far inside the
 * rounding interval of the prec-th digit. k stays within the powers of
 * ten a double holds exactly, so that the division is exact but for its
 * one rounding. 0: not such a number (printf's turn). */
static size_t real_digits(double v, int prec, char *buf)
{
	double a = fabs(v);
	if (prec > 15 || !(a > 0) || a >= 1e15)
		return 0;
	for (int k = 0; k <= 22; k++) {
		double m = nearbyint(a * bl_pow10(k));
		if (m >= 1e15)
			return 0;
		if (m == 0 || m / bl_pow10(k) != a)
			continue;
		char digits[BL_NUM_MAX];
		size_t nd = bl_fmt_int((long long)m, digits);
		if (nd > (size_t)prec)
			return 0;
		return layout(v < 0, digits, nd, k, prec, buf);
	}
	return 0;
}

static size_t real_printf(double v, int prec, char *b)
{
	int r = snprintf(b, BL_NUM_MAX - 3, "%.*g", prec, v);
	if (r < 0 || (size_t)r >= BL_NUM_MAX - 3)
		return 0;
	size_t n = (size_t)r;
	const char point = *localeconv()->decimal_point;
	char *dot = point == '.' ? NULL : memchr(b, point, n);
	if (dot)
		*dot = '.';
	char *e = memchr(b, 'e', n);
	if (!e && !memchr(b, '.', n)) {
		b[n++] = '.';
		b[n++] = '0';
	}
	if (e) {
		char *from = e + 1, *to = e + 2;
		if (*from == '-')
			from++;
		while (to < b + n && *to == '0')
			to++;
		if (to != from) {
			memmove(from, to, (size_t)(b + n - to));
			n -= (size_t)(to - from);
		}
	}
	return n;
}

size_t bl_fmt_real(double v, int prec, char buf[BL_NUM_MAX])
{
	if (!isfinite(v))
		return 0;
	if (!prec)
		prec = 17;
	size_t n = real_digits(v, prec, buf);
	return n ? n : real_printf(v, prec, buf);
}
