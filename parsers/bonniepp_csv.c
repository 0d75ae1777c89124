/* bonniepp_csv.c - bonnie++ CSV lines, every format version.
 *
 * 1.0x (27 fields): name, size[:chunk], 12 IO cells, files spec, 12 file
 * cells:
 *   host,4G,547,99,62287,10,27113,5,2715,98,69567,7,227.5,0,16,5171,22,+++++,+++,...
 * 1.9x (48 fields): format_version, bonnie_version, name, concurrency,
 * seed, file_size, io_chunk_size, 12 IO cells, num_files, max_size,
 * min_size, num_dirs, file_chunk_size, 12 file cells, 12 latencies:
 *   1.97,1.97,host,1,1339089420,16G,,547,99,...,16,,,,,5171,22,...,12830us,...
 * 1.98 and 2.00 (50 fields): seeks and seek_proc_count after io_chunk_size:
 *   1.98,2.00a,feasvm,1,1796027592,64M,,8192,5,1333,99,+++++,+++,...
 * The format version is what 1.92 ("1.92"), 1.93 ("1.92b"), 1.93b-d
 * ("1.93b"), 1.96, 1.97 and 1.98/2.00 ("1.98") write. IO rates are K/sec,
 * file rates per second, latencies "NNus", "NNms", "Ns". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bonniepp.h"
#include "../base/re.h"
#include "../base/units.h"

#define MAX_FIELDS 64

struct field {
	const char *s;
	size_t n;
};

void bpp_rec_init(struct bpp_rec *r)
{
	memset(r, 0, sizeof *r);
	r->file_size = r->chunk_size = NAN;
	r->num_files = r->max_size = r->min_size = r->num_dirs = r->file_chunk_size = NAN;
	r->concurrency = r->seeks = r->seek_procs = -1;
	for (int t = 0; t < BL_T_COUNT; t++) {
		r->rate[t].kind = r->cpu[t].kind = r->lat[t].kind = BL_BTAB_BLANK;
		r->rate[t].v = r->cpu[t].v = r->lat[t].v = NAN;
	}
}

static size_t split(const char *s, size_t len, struct field *f)
{
	size_t n = 0, a = 0;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\r' || s[len - 1] == '\t'))
		len--;
	for (size_t i = 0; i <= len; i++) {
		if (i == len || s[i] == ',') {
			if (n == MAX_FIELDS)
				return n + 1;
			f[n].s = s + a;
			f[n].n = i - a;
			n++;
			a = i + 1;
		}
	}
	return n;
}

static void copy(char *dst, size_t cap, const struct field *f)
{
	size_t n = f->n < cap ? f->n : cap - 1;
	memcpy(dst, f->s, n);
	dst[n] = '\0';
}

/* "1.97", "1.92b", "1.98" */
static bool version_like(const struct field *f)
{
	if (f->n < 3 || f->n > 8 || f->s[0] < '0' || f->s[0] > '9' || f->s[1] != '.')
		return false;
	for (size_t i = 2; i < f->n; i++)
		if (!((f->s[i] >= '0' && f->s[i] <= '9') || (f->s[i] >= 'a' && f->s[i] <= 'z')))
			return false;
	return true;
}

/* "4G", "300M", "16G:8k" (1.0x), "2M" */
static bool size_like(const struct field *f)
{
	size_t i = 0;
	while (i < f->n && f->s[i] >= '0' && f->s[i] <= '9')
		i++;
	if (!i || i >= f->n || (f->s[i] != 'M' && f->s[i] != 'G'))
		return false;
	i++;
	return i == f->n || f->s[i] == ':';
}

static bool uint_field(const struct field *f, double *v)
{
	uint64_t u;
	size_t used;
	if (!f->n || !bl_parse_u64(f->s, f->n, &u, &used) || used != f->n)
		return false;
	*v = (double)u;
	return true;
}

static void cells(struct bpp_rec *r, const struct field *f, int t0, int t1)
{
	for (int t = t0, i = 0; t < t1; t++, i += 2) {
		/* IO rates are K/sec; seeks and file tests per second */
		bl_btab_rate(f[i].s, f[i].n, t < BL_T_SEEKS ? 1024.0 : 1.0, false, &r->rate[t]);
		bl_btab_cpu(f[i + 1].s, f[i + 1].n, &r->cpu[t]);
		if (r->rate[t].kind == BL_BTAB_BAD || r->cpu[t].kind == BL_BTAB_BAD) {
			if (!(r->notes & BPP_N_BAD_CELL))
				snprintf(r->bad, sizeof r->bad, "%.*s",
					 (int)(f[i].n < 24 ? f[i].n : 24), f[i].s);
			r->notes |= BPP_N_BAD_CELL;
		}
	}
}

/* "4G:8k" -> file size and chunk size */
static void size_chunk(struct bpp_rec *r, const struct field *f)
{
	const char *colon = memchr(f->s, ':', f->n);
	size_t sn = colon ? (size_t)(colon - f->s) : f->n;
	double v;
	if (bl_btab_size(f->s, sn, true, &v))
		r->file_size = v;
	if (colon && bl_btab_size(colon + 1, f->n - sn - 1, false, &v))
		r->chunk_size = v;
}

static bool row_10x(struct field *f, size_t nf, struct bpp_rec *r)
{
	if (nf != 27 || !(size_like(&f[1]) || f[1].n == 0))
		return false;
	/* the first field is a name, not a number */
	if (f[0].n && f[0].s[0] >= '0' && f[0].s[0] <= '9' && version_like(&f[0]))
		return false;
	r->variant = "csv-1.0x";
	copy(r->name, sizeof r->name, &f[0]);
	if (f[1].n) {
		r->io = true;
		size_chunk(r, &f[1]);
		cells(r, &f[2], BL_T_OUT_CHAR, BL_T_SEQ_CREATE);
	}
	if (f[14].n) {
		if (!bpp_files_spec(f[14].s, f[14].n, r))
			return false;
		r->files = true;
		cells(r, &f[15], BL_T_SEQ_CREATE, BL_T_COUNT);
	}
	/* any cell that is no number: some other CSV with 27 columns */
	return (r->io || r->files) && !(r->notes & BPP_N_BAD_CELL);
}

static const char *csv_variant(const char *fv)
{
	static const char *const known[] = {"csv-1.92", "csv-1.92b", "csv-1.93b", "csv-1.96",
					    "csv-1.97", "csv-1.98",  NULL};
	for (size_t i = 0; known[i]; i++)
		if (strcmp(known[i] + 4, fv) == 0)
			return known[i];
	return "csv-1.9x";
}

static bool row_19x(struct field *f, size_t nf, struct bpp_rec *r)
{
	if (nf < 40 || !version_like(&f[0]) || !version_like(&f[1]))
		return false;
	copy(r->format_version, sizeof r->format_version, &f[0]);
	copy(r->version, sizeof r->version, &f[1]);
	bool v198 = strcmp(r->format_version, "1.98") >= 0 && r->format_version[0] == '1';
	v198 = v198 || r->format_version[0] >= '2';
	size_t want = v198 ? 50 : 48;
	struct field g[MAX_FIELDS + 1];
	if (nf > MAX_FIELDS)
		return false;
	memcpy(g, f, nf * sizeof *f);
	if (nf + 1 == want) {
		/* 1.92 rows may lack the seed; 1.96's -s0 rows lack one comma */
		size_t at = size_like(&g[4]) ? 4 : (g[5].n == 0 ? 5 : 0);
		if (at) {
			memmove(&g[at + 1], &g[at], (nf - at) * sizeof *g);
			g[at].s = "";
			g[at].n = 0;
			nf++;
			r->notes |= at == 4 ? BPP_N_NO_SEED : BPP_N_SHORT_ROW;
		}
	}
	if (nf != want) {
		if (nf < want)
			return false;
		r->notes |= BPP_N_FIELD_COUNT;
	}
	r->variant = csv_variant(r->format_version);
	copy(r->name, sizeof r->name, &g[2]);
	double v;
	if (uint_field(&g[3], &v))
		r->concurrency = (long)v;
	copy(r->seed, sizeof r->seed, &g[4]);
	size_t i = 5;
	if (g[i].n) {
		r->io = true;
		size_chunk(r, &g[i]);
	}
	if (g[i + 1].n && bl_btab_size(g[i + 1].s, g[i + 1].n, false, &v))
		r->chunk_size = v;
	i += 2;
	if (v198) {
		if (uint_field(&g[i], &v))
			r->seeks = (long)v;
		if (uint_field(&g[i + 1], &v))
			r->seek_procs = (long)v;
		i += 2;
	}
	if (r->io)
		cells(r, &g[i], BL_T_OUT_CHAR, BL_T_SEQ_CREATE);
	i += 12;
	/* num_files, max_size, min_size, num_dirs, file_chunk_size */
	if (g[i].n) {
		r->files = true;
		if (uint_field(&g[i], &v))
			r->num_files = v * 1024.0;
		snprintf(r->files_spec, sizeof r->files_spec, "%.*s",
			 (int)(g[i].n < 20 ? g[i].n : 20), g[i].s);
		if (g[i + 1].n == 4 && memcmp(g[i + 1].s, "link", 4) == 0)
			snprintf(r->file_kind, sizeof r->file_kind, "link");
		else if (g[i + 1].n == 7 && memcmp(g[i + 1].s, "symlink", 7) == 0)
			snprintf(r->file_kind, sizeof r->file_kind, "symlink");
		else if (uint_field(&g[i + 1], &v))
			r->max_size = v;
		if (uint_field(&g[i + 2], &v))
			r->min_size = v;
		if (uint_field(&g[i + 3], &v))
			r->num_dirs = v;
		if (v198 && !g[i + 3].n && uint_field(&g[i + 4], &v)) {
			/* 1.98 never prints the chunk size: its num_dirs lands in
			 * that column ("4,65536,1024,,2") */
			r->num_dirs = v;
			r->notes |= BPP_N_DIRS_SHIFT;
		} else if (g[i + 4].n && bl_btab_size(g[i + 4].s, g[i + 4].n, false, &v)) {
			r->file_chunk_size = v;
		}
		cells(r, &g[i + 5], BL_T_SEQ_CREATE, BL_T_COUNT);
	}
	i += 17;
	r->has_lat = true;
	for (int t = 0; t < BL_T_COUNT && i + (size_t)t < nf; t++) {
		bl_btab_latency(g[i + t].s, g[i + t].n, &r->lat[t]);
		if (r->lat[t].kind == BL_BTAB_BAD || r->lat[t].kind == BL_BTAB_CENSORED)
			r->notes |= BPP_N_BAD_CELL;
	}
	return r->io || r->files;
}

bool bpp_csv_row(const char *s, size_t len, struct bpp_rec *rec)
{
	struct field f[MAX_FIELDS];
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	if (!len || !memchr(s, ',', len))
		return false;
	size_t nf = split(s, len, f);
	if (nf > MAX_FIELDS)
		return false;
	bpp_rec_init(rec);
	rec->csv = true;
	return row_19x(f, nf, rec) || (bpp_rec_init(rec), rec->csv = true, row_10x(f, nf, rec));
}

bool bpp_csv_header(const char *s, size_t len)
{
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	return (len > 30 && memcmp(s, "format_version,bonnie_version,", 30) == 0) ||
	       (len > 25 && memcmp(s, "name,file_size,putc,putc_cpu", 28) == 0);
}

/* "16" "16:100000:16/64" "4:65536:1024/2" "128:link" "1:0:0/1" */
bool bpp_files_spec(const char *s, size_t len, struct bpp_rec *r)
{
	double part[3] = {NAN, NAN, NAN};
	size_t i = 0, np = 0;
	char kind[8] = "";
	while (i < len && np < 3) {
		uint64_t v;
		size_t used;
		if (bl_parse_u64(s + i, len - i, &v, &used)) {
			part[np++] = (double)v;
			i += used;
		} else if (np == 1 && len - i >= 4 && memcmp(s + i, "link", 4) == 0) {
			snprintf(kind, sizeof kind, "link");
			i += 4;
			np = 3;
		} else if (np == 1 && len - i >= 7 && memcmp(s + i, "symlink", 7) == 0) {
			snprintf(kind, sizeof kind, "symlink");
			i += 7;
			np = 3;
		} else {
			return false;
		}
		if (i < len && s[i] == ':' && np < 3)
			i++;
		else
			break;
	}
	if (np == 0 || isnan(part[0]))
		return false;
	double dirs = NAN;
	if (i < len && s[i] == '/') {
		uint64_t v;
		size_t used;
		if (!bl_parse_u64(s + i + 1, len - i - 1, &v, &used))
			return false;
		dirs = (double)v;
		i += 1 + used;
	}
	if (i != len)
		return false;
	r->num_files = part[0] * 1024.0;
	r->max_size = part[1];
	r->min_size = part[2];
	r->num_dirs = dirs;
	memcpy(r->file_kind, kind, sizeof kind);
	snprintf(r->files_spec, sizeof r->files_spec, "%.*s", (int)(len < 40 ? len : 40), s);
	return true;
}
