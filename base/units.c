/* units.c - bounded number, size and duration parsing for tool output. */
#include "units.h"

#include <math.h>
#include <string.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool bl_is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n' && s[i] != '\f' &&
		    s[i] != '\v')
			return false;
	return true;
}

bool bl_parse_u64(const char *s, size_t len, uint64_t *out, size_t *end)
{
	uint64_t v = 0;
	size_t i = 0;
	while (i < len && is_digit(s[i])) {
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
		i++;
	}
	if (i == 0)
		return false;
	*out = v;
	if (end)
		*end = i;
	return true;
}

/* Decimal text to double without strtod: strtod follows the locale, and
 * tool output may carry a decimal comma ("0,0153913 s" under de_DE). The
 * mantissa is accumulated in an integer of up to 19 digits and scaled once,
 * which is exact for every figure these tools print. */
bool bl_parse_double(const char *s, size_t len, bool comma_ok, double *out, size_t *end)
{
	size_t i = 0;
	bool neg = false;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	uint64_t mant = 0;
	int digits = 0, scale = 0;
	bool any = false;
	while (i < len && is_digit(s[i])) {
		any = true;
		if (digits < 19) {
			mant = mant * 10 + (uint64_t)(s[i] - '0');
			if (mant)
				digits++;
		} else {
			scale++;
		}
		i++;
	}
	if (i < len && (s[i] == '.' || (comma_ok && s[i] == ',')) && i + 1 < len &&
	    is_digit(s[i + 1])) {
		i++;
		while (i < len && is_digit(s[i])) {
			any = true;
			if (digits < 19) {
				mant = mant * 10 + (uint64_t)(s[i] - '0');
				if (mant)
					digits++;
				scale--;
			}
			i++;
		}
	}
	if (!any)
		return false;
	if (i + 1 < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;
		bool eneg = false;
		if (j < len && (s[j] == '-' || s[j] == '+'))
			eneg = s[j++] == '-';
		if (j < len && is_digit(s[j])) {
			int e = 0;
			while (j < len && is_digit(s[j])) {
				if (e < 10000)
					e = e * 10 + (s[j] - '0');
				j++;
			}
			scale += eneg ? -e : e;
			i = j;
		}
	}
	double v = (double)mant;
	if (scale > 0)
		v *= bl_pow10(scale);
	else if (scale < 0)
		v /= bl_pow10(-scale);
	if (!isfinite(v))
		return false;
	*out = neg ? -v : v;
	if (end)
		*end = i;
	return true;
}

struct unit_def {
	const char *name;
	double mult;
};

/* Byte multipliers by suffix. Order matters: longer names first where one
 * is a prefix of another is irrelevant because matching is exact. */
static const struct unit_def byte_units[] = {
	{"", 1},
	{"B", 1},
	{"b", 1},
	{"bytes", 1},
	{"byte", 1},
	{"k", 1024},
	{"K", 1024},
	{"KB", 1000}, /* GNU: KB and kB are 1000 */
	{"kB", 1000},
	{"KiB", 1024},
	{"kiB", 1024},
	{"m", 1048576},
	{"M", 1048576},
	{"MB", 1e6},
	{"MiB", 1048576},
	{"g", 1073741824.0},
	{"G", 1073741824.0},
	{"GB", 1e9},
	{"GiB", 1073741824.0},
	{"t", 1099511627776.0},
	{"T", 1099511627776.0},
	{"TB", 1e12},
	{"TiB", 1099511627776.0},
	{"p", 1125899906842624.0},
	{"P", 1125899906842624.0},
	{"PB", 1e15},
	{"PiB", 1125899906842624.0},
	{"E", 1152921504606846976.0},
	{"EB", 1e18},
	{"EiB", 1152921504606846976.0},
};

bool bl_unit_multiplier(const char *s, size_t len, double *out)
{
	for (size_t i = 0; i < sizeof byte_units / sizeof byte_units[0]; i++) {
		if (strlen(byte_units[i].name) == len && memcmp(byte_units[i].name, s, len) == 0) {
			*out = byte_units[i].mult;
			return true;
		}
	}
	return false;
}

/* One factor of a dd size: digits and an optional suffix. dd's own suffixes
 * differ from the rate units above: a lone "b" is a 512-byte block, "w" a
 * word, "c" a byte. */
static bool size_factor(const char *s, size_t len, uint64_t *out)
{
	uint64_t n;
	size_t used;
	if (!bl_parse_u64(s, len, &n, &used))
		return false;
	const char *suf = s + used;
	size_t slen = len - used;
	double mult;
	if (slen == 0 || (slen == 1 && suf[0] == 'c'))
		mult = 1;
	else if (slen == 1 && (suf[0] == 'b' || suf[0] == 'B'))
		mult = 512;
	else if (slen == 1 && suf[0] == 'w')
		mult = 2;
	else if (!bl_unit_multiplier(suf, slen, &mult) || mult == 1)
		return false;
	double v = (double)n * mult;
	if (v >= 18446744073709551615.0)
		return false;
	*out = (uint64_t)n * (uint64_t)mult;
	return true;
}

bool bl_parse_size(const char *s, size_t len, uint64_t *out)
{
	/* BSD dd multiplies factors joined by 'x' or '*': "2x512", "1024*1024". */
	uint64_t total = 1;
	size_t start = 0;
	if (len == 0)
		return false;
	for (size_t i = 0; i <= len; i++) {
		if (i == len || s[i] == 'x' || s[i] == '*') {
			uint64_t f;
			if (i == start || !size_factor(s + start, i - start, &f))
				return false;
			if (f != 0 && total > UINT64_MAX / f)
				return false;
			total *= f;
			start = i + 1;
		}
	}
	*out = total;
	return true;
}

bool bl_parse_duration(const char *s, size_t len, double *out)
{
	/* Forms with colons: [[h:]m:]s[.frac] */
	if (memchr(s, ':', len)) {
		double parts[3];
		int n = 0;
		size_t i = 0;
		while (i < len) {
			double v;
			size_t used;
			if (n == 3 || !bl_parse_double(s + i, len - i, false, &v, &used) || v < 0)
				return false;
			parts[n++] = v;
			i += used;
			if (i < len) {
				if (s[i] != ':')
					return false;
				i++;
				if (i == len)
					return false;
			}
		}
		double t = 0;
		for (int k = 0; k < n; k++)
			t = t * 60 + parts[k];
		*out = t;
		return n >= 2;
	}
	/* Forms with unit letters: 4m37.724s, 2h3m4s, 1.5s, or a bare number. */
	double t = 0;
	size_t i = 0;
	bool any = false;
	while (i < len) {
		double v;
		size_t used;
		if (!bl_parse_double(s + i, len - i, false, &v, &used) || v < 0)
			return false;
		i += used;
		any = true;
		if (i == len) {
			t += v;
			break;
		}
		switch (s[i]) {
		case 'h': t += v * 3600; break;
		case 'm':
			if (i + 1 < len && s[i + 1] == 's') {
				t += v / 1000;
				i++;
			} else {
				t += v * 60;
			}
			break;
		case 's': t += v; break;
		default: return false;
		}
		i++;
	}
	if (!any)
		return false;
	*out = t;
	return true;
}

bool bl_parse_rate(const char *s, size_t len, bool comma_ok, double *out)
{
	double v;
	size_t used;
	if (!bl_parse_double(s, len, comma_ok, &v, &used))
		return false;
	size_t i = used;
	while (i < len && s[i] == ' ')
		i++;
	const char *u = s + i;
	size_t ulen = len - i;
	/* "bytes/sec", "B/s", "kB/s", "MiB/s", "kbytes/sec" */
	size_t slash = 0;
	while (slash < ulen && u[slash] != '/')
		slash++;
	if (slash == ulen)
		return false;
	const char *per = u + slash + 1;
	size_t plen = ulen - slash - 1;
	if (!((plen == 1 && per[0] == 's') || (plen == 3 && memcmp(per, "sec", 3) == 0)))
		return false;
	double mult;
	if (slash >= 5 && memcmp(u + slash - 5, "bytes", 5) == 0) {
		/* "bytes/sec", "kbytes/sec": the prefix is 1024-based in BSD tools */
		if (slash == 5)
			mult = 1;
		else if (slash == 6 && (u[0] == 'k' || u[0] == 'K'))
			mult = 1024;
		else if (slash == 6 && (u[0] == 'm' || u[0] == 'M'))
			mult = 1048576;
		else
			return false;
	} else if (!bl_unit_multiplier(u, slash, &mult)) {
		return false;
	}
	*out = v * mult;
	return true;
}
