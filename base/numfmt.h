/* numfmt.h - numbers as jansson writes them into a document. */
#ifndef BL_NUMFMT_H
#define BL_NUMFMT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* Room for any number these write. */
#define BL_NUM_MAX 64

/* An integer in decimal: "-12". Returns its length (no NUL written). */
size_t bl_fmt_int(long long v, char buf[BL_NUM_MAX]);
size_t bl_fmt_u64(unsigned long long v, char buf[BL_NUM_MAX]);

/* A real as jansson's dump writes it with JSON_REAL_PRECISION(prec) (17
 * when prec is 0): printf's "%.*g", a '.' whatever the locale, ".0" after
 * a number with neither a point nor an exponent, the exponent without '+'
 * and leading zeros ("1e+20" -> "1e20", "2.5e-07" -> "2.5e-7"). Returns
 * its length (no NUL written), or 0 for what is not finite. */
size_t bl_fmt_real(double v, int prec, char buf[BL_NUM_MAX]);

/* round(v) and v == floor(v) without a call into libm: a table of a
 * dense stream rounds or tests every number it reads. Equal to libm's
 * for every double (test_numfmt). */
static inline double bl_round(double v)
{
	if (!(fabs(v) < 0x1p52)) /* NaN, infinite, or whole already */
		return v;
	double t = (double)(long long)v; /* toward zero */
	if (fabs(v - t) >= 0.5) /* v - t is exact */
		t += copysign(1.0, v);
	return copysign(t, v);
}

static inline bool bl_is_whole(double v)
{
	return fabs(v) < 0x1p53 && v == (double)(long long)v;
}

#endif
