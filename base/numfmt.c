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

typedef unsigned __int128 u128;

static u128 pow10_u128(int k)
{
	u128 p = 1;
	while (k-- > 0)
		p *= 10;
	return p;
}

/* a (positive, normal) times 10^s: its integer part in *whole, and
 * rounded to nearest, ties to even (printf's rounding of the exact
 * binary value), in *near. False, nothing set, where the product, the
 * shift or the power of ten would not fit in 128 bits, and where a
 * whole a would be divided (s < 0 with a fraction: left to printf). */
static bool scaled(double a, int s, u128 *whole, u128 *near)
{
	uint64_t bits;
	memcpy(&bits, &a, sizeof bits);
	int e2 = (int)(bits >> 52 & 0x7FF) - 1075;
	u128 m = (bits & ((1ULL << 52) - 1)) | 1ULL << 52, q, r, half;
	if (s >= 0) {
		/* m 10^s < 2^127 for s <= 22; a whole a (e2 >= 0) shifted
		 * only by as much as m 10^s leaves room for */
		if (s > 22 || e2 < -127 || (e2 >= 0 && (s > 1 || e2 > 70)))
			return false;
		u128 num = m * pow10_u128(s);
		if (e2 >= 0) {
			*whole = *near = num << e2;
			return true;
		}
		q = num >> -e2;
		r = num & (((u128)1 << -e2) - 1);
		half = (u128)1 << (-e2 - 1);
	} else {
		if (s < -38 || e2 < 0 || e2 > 73)
			return false;
		u128 num = m << e2, d = pow10_u128(-s);
		q = num / d;
		r = (num % d) * 2; /* against d: twice the remainder */
		half = d;
	}
	*whole = q;
	*near = r > half || (r == half && (q & 1)) ? q + 1 : q;
	return true;
}

/* v as "%.{prec}g" prints it, from its prec digits correctly rounded,
 * for most doubles from 1e-6 to 1e38: a computed value (a rate, a mean)
 * has no short decimal for real_digits, and printf took 3,500
 * instructions a number. 0 where scaled() cannot take v (below 2^53
 * with more whole digits than prec, at or above 2^126, or just under a
 * power of ten at the range's ends): printf's turn. */
static size_t real_exact(double v, int prec, char *buf)
{
	double a = fabs(v);
	if (!(a >= 1e-6 && a < 1e38) || prec < 1 || prec > 17)
		return 0;
	/* x, the exponent of the first digit: 10^(prec-1) <= a 10^(s) < 10^prec
	 * for s = prec - 1 - x */
	int x = (int)floor(log10(a));
	u128 whole = 0, n = 0, lo = pow10_u128(prec - 1), hi = lo * 10;
	for (int tries = 0;; tries++) {
		if (tries == 3 || !scaled(a, prec - 1 - x, &whole, &n))
			return 0;
		if (whole < lo)
			x--;
		else if (whole >= hi)
			x++;
		else
			break;
	}
	if (n == hi) { /* rounded up to the next power of ten */
		n = lo;
		x++;
	}
	/* the digits without trailing zeros, but those before a point */
	int k = prec - 1 - x, z = 0;
	while (n % 10 == 0 && (k - z > 0 || x >= prec || x < -4)) {
		n /= 10;
		z++;
	}
	char digits[BL_NUM_MAX];
	size_t nd = bl_fmt_u64((unsigned long long)n, digits);
	return layout(v < 0, digits, nd, k - z, prec, buf);
}

size_t bl_fmt_real(double v, int prec, char buf[BL_NUM_MAX])
{
	if (!isfinite(v))
		return 0;
	if (!prec)
		prec = 17;
	size_t n = real_digits(v, prec, buf);
	if (!n)
		n = real_exact(v, prec, buf);
	return n ? n : real_printf(v, prec, buf);
}
