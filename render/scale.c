/* scale.c - value axes: display units (decimal MB/s or binary MiB/s), nice
 * ticks, and numbers formatted to three significant digits. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render.h"

struct prefix {
	double div;
	const char *dec, *bin;
};

/* Byte-based units: decimal prefixes (kB = 1000 B) or binary (KiB = 1024 B). */
static const char *const dec_names[] = {"", "k", "M", "G", "T", "P"};
static const char *const bin_names[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};

static bool is_bytes(const char *unit)
{
	return strcmp(unit, "B") == 0 || strcmp(unit, "B/s") == 0;
}

/* The display unit for values up to `hi`: its divisor and its name. */
static void pick_unit(const char *unit, double hi, enum bl_units units, double *div, char *name,
		      size_t len)
{
	*div = 1;
	if (is_bytes(unit)) {
		double base = units == BL_UNITS_BINARY ? 1024 : 1000;
		int i = 0;
		while (i < 5 && hi / (*div * base) >= 1) {
			*div *= base;
			i++;
		}
		snprintf(name, len, "%s%s", units == BL_UNITS_BINARY ? bin_names[i] : dec_names[i],
			 unit);
		return;
	}
	if (strcmp(unit, "s") == 0) {
		if (hi > 0 && hi < 1e-3) {
			*div = 1e-6;
			snprintf(name, len, "µs");
		} else if (hi > 0 && hi < 1) {
			*div = 1e-3;
			snprintf(name, len, "ms");
		} else {
			snprintf(name, len, "s");
		}
		return;
	}
	if (strcmp(unit, "ops/s") == 0 || strcmp(unit, "ops") == 0 || strcmp(unit, "count") == 0 ||
	    strcmp(unit, "records") == 0) {
		if (hi >= 1e6) {
			*div = 1e6;
			snprintf(name, len, "M %s", unit);
		} else if (hi >= 1e4) {
			*div = 1e3;
			snprintf(name, len, "k %s", unit);
		} else {
			snprintf(name, len, "%s", unit);
		}
		return;
	}
	if (strcmp(unit, "percent") == 0) {
		snprintf(name, len, "%%");
		return;
	}
	snprintf(name, len, "%s", unit);
}

/* 1, 2, 2.5 or 5 times a power of ten, at least x. */
static double nice_step(double x)
{
	if (!(x > 0))
		return 1;
	double p = pow(10, floor(log10(x)));
	double m = x / p;
	double f = m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10;
	return f * p;
}

void bl_scale_compute(struct bl_scale *s, const char *unit, double lo, double hi, bool log,
		      enum bl_units units)
{
	memset(s, 0, sizeof *s);
	if (!(hi > 0) || !isfinite(hi))
		hi = 1;
	/* bytes in the unit of the typical value, not of the largest: 50 MB/s
	 * beside 1270 MB/s reads "50.5", not "0.0505 GB/s" */
	double typical = is_bytes(unit) && lo > 0 && lo < hi ? sqrt(lo * hi) : hi;
	pick_unit(unit, typical, units, &s->div, s->unit, sizeof s->unit);
	s->log = log && lo > 0;
	if (s->log) {
		/* decades of the display unit: 1, 10, 100 MiB/s, not 0.954 */
		double a = floor(log10(lo / s->div)), b = ceil(log10(hi / s->div));
		if (b <= a)
			b = a + 1;
		while (b - a > 20)
			a++;
		s->lo = pow(10, a) * s->div;
		s->hi = pow(10, b) * s->div;
		bool fine = b - a <= 2; /* few decades: add 2x and 5x */
		for (double e = a; e <= b && s->nticks < 24; e++) {
			double d = pow(10, e) * s->div;
			s->ticks[s->nticks++] = d;
			if (fine && e < b && s->nticks + 2 <= 24) {
				s->ticks[s->nticks++] = 2 * d;
				s->ticks[s->nticks++] = 5 * d;
			}
		}
		return;
	}
	/* ticks are chosen in display units so that they read 0, 20, 40 MB/s */
	double dhi = hi / s->div;
	double step = nice_step(dhi / 5);
	double top = ceil(dhi / step - 1e-9) * step;
	if (top < dhi * 1.0001)
		top += 0; /* the top tick may equal the largest value */
	s->lo = 0;
	s->hi = top * s->div;
	for (double t = 0; t <= top + step * 1e-6 && s->nticks < 24; t += step)
		s->ticks[s->nticks++] = t * s->div;
}

static void trim_zeros(char *buf)
{
	if (!strchr(buf, '.') || strchr(buf, 'e'))
		return; /* "1.2e-10": its zeros are the exponent's */
	size_t n = strlen(buf);
	while (n && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n && buf[n - 1] == '.')
		buf[--n] = '\0';
}

/* Three significant digits, no exponent for the magnitudes charts show
 * (an exponent below 0.001 and from 1e15 on). */
static void fmt3(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (a >= 1e15 || !isfinite(a))
		snprintf(buf, len, "%.3g", v); /* "1e+300", not 301 digits */
	else if (a >= 100 || a == 0)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 1)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
	trim_zeros(buf);
}

void bl_scale_format(const struct bl_scale *s, double v, char *buf, size_t len)
{
	fmt3(v / (s->div > 0 ? s->div : 1), buf, len);
}

void bl_format_value(double v, const char *unit, enum bl_units units, char *buf, size_t len)
{
	if (isnan(v)) {
		snprintf(buf, len, "?");
		return;
	}
	double div;
	char name[16], num[32];
	pick_unit(unit, fabs(v), units, &div, name, sizeof name);
	fmt3(v / div, num, sizeof num);
	if (strcmp(name, "%") == 0)
		snprintf(buf, len, "%s%%", num);
	else
		snprintf(buf, len, "%s %s", num, name);
}

enum bl_better bl_unit_better(const char *unit)
{
	size_t n = strlen(unit);
	if (strcmp(unit, "s") == 0)
		return BL_BETTER_LOWER;
	if (n > 2 && strcmp(unit + n - 2, "/s") == 0)
		return BL_BETTER_HIGHER;
	return BL_BETTER_UNKNOWN;
}

const char *bl_better_text(enum bl_better b)
{
	return b == BL_BETTER_HIGHER  ? "higher is better"
	       : b == BL_BETTER_LOWER ? "lower is better"
				      : "";
}

void bl_axis_text(const struct bl_chart *c, char *buf, size_t len)
{
	const char *dir = bl_better_text(c->better);
	if (c->scale.nticks == 0) {
		snprintf(buf, len, "%s", c->metric_label); /* no values: no direction */
		return;
	}
	snprintf(buf, len, "%s%s%s", c->metric_label, *dir ? ", " : "", dir);
}
