/* iozone_command.c - params from an iozone command line, as the shell
 * line above the output or iozone's own "Command line used:" gives it. */
#include "iozone.h"

#include <stdio.h>
#include <string.h>

#include "units.h"

/* An iozone size operand: "4m", "512k", "1g", "64K"; a bare number is kB. */
static bool iz_size(const char *s, size_t len, uint64_t *bytes)
{
	uint64_t v;
	size_t used;
	if (!bl_parse_u64(s, len, &v, &used))
		return false;
	uint64_t mul = 1024;
	if (used < len) {
		if (used + 1 != len)
			return false;
		switch (s[used]) {
		case 'k': case 'K': mul = 1024; break;
		case 'm': case 'M': mul = 1024ull * 1024; break;
		case 'g': case 'G': mul = 1024ull * 1024 * 1024; break;
		default: return false;
		}
	}
	if (v > UINT64_MAX / mul || v * mul > INT64_MAX)
		return false;
	*bytes = v * mul;
	return true;
}

/* Options that take an argument, from iozone's getopt string. */
static bool takes_arg(char o)
{
	return o && strchr("JjkVrtsfFdluUSLHPibXYgnyq", o) != NULL;
}

/* "/usr/bin/iozone -i 0 -i 1 -s 4m -r 64k -f /tmp/x/ioz.tmp"
 * "iozone -i0 -i1 -i2 -O -I -s4g -r128k -f /data0/blah"
 * "iozone -Ra -g 2G -b out.xls"
 * Options cluster as getopt allows ("-Rab out.xls"); the command ends at a
 * shell operator. */
void iz_command(struct bl_doc *doc, struct bl_run *run, const char *cmd)
{
	(void)doc;
	const char *words[128];
	size_t lens[128], n = 0;
	const char *p = cmd;
	while (*p && n < 128) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		const char *w = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*w == '|' || *w == ';' || *w == '&' || *w == '>' || *w == '<' ||
		    (w[0] == '2' && w[1] == '>'))
			break;
		words[n] = w;
		lens[n++] = (size_t)(p - w);
	}
	long long streams = -1, lmin = -1, lmax = -1;
	bool threads = false;
	json_t *tests = NULL, *files = NULL;
	int nrec = 0;
	for (size_t i = 1; i < n; i++) {
		const char *w = words[i];
		size_t wl = lens[i];
		if (wl < 2 || w[0] != '-')
			continue;
		for (size_t k = 1; k < wl; k++) {
			char o = w[k];
			if (o == '+') {
				/* -+u CPU utilization; -+m file, -+p N, ... take one */
				char o2 = k + 1 < wl ? w[k + 1] : 0;
				if (o2 == 'u')
					iz_param_true(run, "cpu_utilization");
				if (o2 && strchr("mpxwyCBGNST", o2) && k + 2 >= wl)
					i++;
				break;
			}
			if (!takes_arg(o)) {
				switch (o) {
				case 'a': case 'A': iz_param_true(run, "auto_mode"); break;
				case 'I': iz_param_true(run, "o_direct"); break;
				case 'e': iz_param_true(run, "include_fsync"); break;
				case 'c': iz_param_true(run, "include_close"); break;
				case 'O': iz_param_true(run, "ops_mode"); break;
				case 'N': iz_param_true(run, "usec_mode"); break;
				case 'R': iz_param_true(run, "excel_report"); break;
				case 'T': threads = true; break;
				case 'o': iz_param_true(run, "o_sync"); break;
				case 'z': iz_param_true(run, "all_record_sizes"); break;
				case 'B': iz_param_true(run, "mmap"); break;
				default: break;
				}
				continue;
			}
			/* the argument: the rest of this word, or the next word */
			const char *a;
			size_t al;
			if (k + 1 < wl) {
				a = w + k + 1;
				al = wl - k - 1;
			} else if (i + 1 < n) {
				a = words[++i];
				al = lens[i];
			} else {
				break;
			}
			uint64_t v;
			switch (o) {
			case 's':
				if (iz_size(a, al, &v))
					bl_run_param_int(run, "file_size", (long long)v);
				break;
			case 'r':
				if (iz_size(a, al, &v)) {
					if (nrec++ == 0) {
						json_object_del(run->params, "record_size");
						json_object_del(run->params, "record_sizes");
					}
					iz_add_record_size(run, v);
				}
				break;
			case 'g': if (iz_size(a, al, &v)) bl_run_param_int(run, "max_file_size", (long long)v); break;
			case 'n': if (iz_size(a, al, &v)) bl_run_param_int(run, "min_file_size", (long long)v); break;
			case 'y': if (iz_size(a, al, &v)) bl_run_param_int(run, "min_record_size", (long long)v); break;
			case 'q': if (iz_size(a, al, &v)) bl_run_param_int(run, "max_record_size", (long long)v); break;
			case 'i':
				if (bl_parse_u64(a, al, &v, NULL) && v < 64) {
					if (!tests)
						tests = json_array();
					json_array_append_new(tests, json_integer((json_int_t)v));
				}
				break;
			case 't': if (bl_parse_u64(a, al, &v, NULL) && v < 1000000) streams = (long long)v; break;
			case 'l': if (bl_parse_u64(a, al, &v, NULL) && v < 1000000) lmin = (long long)v; break;
			case 'u': if (bl_parse_u64(a, al, &v, NULL) && v < 1000000) lmax = (long long)v; break;
			case 'f': bl_run_param_str(run, "file", a, al); break;
			case 'b': bl_run_param_str(run, "excel_file", a, al); break;
			case 'F':
				/* -F takes every following word that is not an option */
				files = files ? files : json_array();
				json_array_append_new(files, json_stringn(a, al));
				while (i + 1 < n && words[i + 1][0] != '-') {
					i++;
					json_array_append_new(files, json_stringn(words[i], lens[i]));
				}
				break;
			default: break;
			}
			break; /* the argument ended this word */
		}
	}
	const char *unit = threads ? "threads" : "processes";
	char key[32];
	if (threads)
		iz_param_true(run, "use_threads");
	if (streams >= 0)
		bl_run_param_int(run, unit, streams);
	if (lmin >= 0) {
		snprintf(key, sizeof key, "min_%s", unit);
		bl_run_param_int(run, key, lmin);
	}
	if (lmax >= 0) {
		snprintf(key, sizeof key, "max_%s", unit);
		bl_run_param_int(run, key, lmax);
	}
	if (tests)
		json_object_set_new(run->params, "tests", tests);
	if (files)
		json_object_set_new(run->params, "files", files);
}

