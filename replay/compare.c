/* compare.c - an archived run beside its replay, one row per metric.
 *
 * Results are matched by metric and coordinates (file_size, record_size,
 * vdev, sample: whatever the parser put beside the value), so that every
 * tool's table compares cell by cell with no per-tool code. Amounts (bytes,
 * records, the elapsed time of a fixed amount) are compared against the
 * archived amount times the scale; rates and percentages directly:
 *
 *   metric      archived     expected    replayed    ratio
 *   bytes       2097152000   268435456   268435456   1.00
 *   throughput  31181832     -           1.2e9       38.5   */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* An amount that shrinks with the scale. */
static bool extensive(const char *metric, const char *unit)
{
	if (!unit)
		return false;
	if (strcmp(unit, "B") == 0 || strcmp(unit, "records") == 0 || strcmp(unit, "count") == 0 ||
	    strcmp(unit, "ops") == 0)
		return true;
	/* the time a fixed amount took; not a latency */
	return strcmp(unit, "s") == 0 && metric &&
	       (strcmp(metric, "elapsed") == 0 || strncmp(metric, "time.", 5) == 0);
}

/* Not a coordinate: the value itself and how it was printed ("raw",
 * bonnie++'s "table_raw"). */
static bool is_meta(const char *k)
{
	size_t l = strlen(k);
	return strcmp(k, "metric") == 0 || strcmp(k, "value") == 0 || strcmp(k, "unit") == 0 ||
	       strcmp(k, "flags") == 0 || (l >= 3 && strcmp(k + l - 3, "raw") == 0);
}

/* A size coordinate the plan scaled with the data: iozone's -s 512m run as
 * -s4m puts the replayed cells at file_size 4194304, the archived ones at
 * 536870912. */
static bool scaled_size(const char *k, json_t *av, json_t *bv, double scale)
{
	if (strcmp(k, "file_size") != 0 || !json_is_integer(av) || !json_is_integer(bv) ||
	    !(scale > 0.0 && scale < 1.0))
		return false;
	double want = (double)json_integer_value(av) * scale;
	return fabs(want - (double)json_integer_value(bv)) < 0.5;
}

/* Same metric and the same coordinates; the replay's vdev names are read
 * through `rename` (its pool and file disks stand for the post's), its
 * file sizes through the plan's scale. */
static bool same_cell(json_t *a, json_t *b, json_t *rename, double scale)
{
	if (!json_equal(json_object_get(a, "metric"), json_object_get(b, "metric")))
		return false;
	const char *k;
	json_t *v;
	size_t na = 0, nb = 0;
	json_object_foreach(a, k, v)
	{
		if (is_meta(k))
			continue;
		na++;
		json_t *bv = json_object_get(b, k);
		if (rename && strcmp(k, "vdev") == 0 && json_is_string(bv)) {
			json_t *to = json_object_get(rename, json_string_value(bv));
			if (to)
				bv = to;
		}
		if (!json_equal(v, bv) && !scaled_size(k, v, bv, scale))
			return false;
	}
	json_object_foreach(b, k, v)
	{
		if (!is_meta(k))
			nb++;
	}
	return na == nb;
}

static json_t *find_cell(json_t *runs, json_t *cell, json_t *rename, double scale)
{
	size_t i, k;
	json_t *run, *r;
	json_array_foreach(runs, i, run)
	{
		json_array_foreach(json_object_get(run, "results"), k, r)
		{
			if (same_cell(cell, r, rename, scale))
				return r;
		}
	}
	return NULL;
}

static json_t *num(double v)
{
	if (!isfinite(v))
		return json_null();
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_integer((json_int_t)v);
	return json_real(v);
}

static json_t *row(const char *metric, const char *unit, double archived, double replayed,
		   double scale, json_t *coords, json_t *flags, json_t *replayed_flags)
{
	json_t *o = json_object();
	json_object_set_new(o, "metric", json_string(metric));
	if (coords)
		json_object_update(o, coords);
	json_object_set_new(o, "unit", json_string(unit ? unit : ""));
	json_object_set_new(o, "archived", num(archived));
	bool ext = extensive(metric, unit);
	double expect = ext ? archived * scale : archived;
	if (ext && scale != 1.0)
		json_object_set_new(o, "expected", num(round(expect * 1e6) / 1e6));
	json_object_set_new(o, "replayed", num(replayed));
	double ratio =
		(isfinite(replayed) && isfinite(expect) && expect > 0) ? replayed / expect : NAN;
	json_object_set_new(o, "ratio",
			    isfinite(ratio) ? json_real(round(ratio * 1e4) / 1e4) : json_null());
	json_object_set_new(o, "scaled", json_boolean(ext && scale != 1.0));
	if (flags)
		json_object_set(o, "archived_flags", flags);
	/* bonnie++'s +++++ under a small budget: the test took under 0.5 s,
	 * a value too fast to measure, not a missing one */
	if (replayed_flags && json_array_size(replayed_flags))
		json_object_set(o, "replayed_flags", replayed_flags);
	return o;
}

/* The scale that happened: replayed bytes over archived bytes, when both
 * are known (a read replays whatever the write before it left). */
static double actual_scale(json_t *archived, json_t *replayed, const struct bl_plan *p)
{
	double a = bl_run_value(archived, "bytes");
	double r = NAN;
	size_t i;
	json_t *run;
	json_array_foreach(replayed, i, run)
	{
		r = bl_run_value(run, "bytes");
		if (!isnan(r))
			break;
	}
	if (a > 0 && r > 0)
		return r / a;
	return p->scale > 0 ? p->scale : 1.0;
}

json_t *bl_compare_run(json_t *archived, json_t *replayed, const struct bl_plan *p,
		       const struct bl_spawn_result *sr)
{
	json_t *rows = json_array();
	if (!rows)
		return NULL;
	double scale = actual_scale(archived, replayed, p);
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(archived, "results"), i, r)
	{
		const char *metric = json_string_value(json_object_get(r, "metric"));
		const char *unit = json_string_value(json_object_get(r, "unit"));
		json_t *av = json_object_get(r, "value");
		if (!metric || !json_is_number(av))
			continue;
		json_t *coords = json_object();
		const char *k;
		json_t *v;
		json_object_foreach(r, k, v)
		{
			if (!is_meta(k))
				json_object_set(coords, k, v);
		}
		json_t *match = find_cell(replayed, r, p->rename, p->scale);
		double rv = NAN;
		if (match && json_is_number(json_object_get(match, "value")))
			rv = json_number_value(json_object_get(match, "value"));
		json_array_append_new(rows, row(metric, unit, json_number_value(av), rv, scale,
						json_object_size(coords) ? coords : NULL,
						json_object_get(r, "flags"),
						match ? json_object_get(match, "flags") : NULL));
		json_decref(coords);
	}
	/* time(1): the post's report against wait4() of the replay */
	json_t *t = json_object_get(archived, "time");
	if (json_is_object(t) && sr && !sr->spawn_failed) {
		static const char *const keys[] = {"real", "user", "system"};
		double mine[] = {sr->real, sr->cpu_unknown ? NAN : sr->user,
				 sr->cpu_unknown ? NAN : sr->system};
		for (size_t k = 0; k < 3; k++) {
			json_t *v = json_object_get(t, keys[k]);
			if (!json_is_number(v))
				continue;
			char name[16];
			snprintf(name, sizeof name, "time.%s", keys[k]);
			json_array_append_new(rows, row(name, "s", json_number_value(v),
							round(mine[k] * 1e3) / 1e3, scale, NULL,
							NULL, NULL));
		}
	}
	return rows;
}
