/* iozone_command.c - params from an iozone command line, as the shell
 * line above the output or iozone's own "Command line used:" gives it. */
#include "iozone.h"

#include <stdio.h>
#include <string.h>

#include "../base/units.h"

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
		case 'k':
		case 'K': mul = 1024; break;
		case 'm':
		case 'M': mul = 1024ull * 1024; break;
		case 'g':
		case 'G': mul = 1024ull * 1024 * 1024; break;
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

/* An iozone command line in words, and what its options said so far. */
struct iz_cmd {
	const char *words[128];
	size_t lens[128], n;
	size_t i; /* the word under way */
	long long streams, lmin, lmax; /* -t, -l, -u; -1 when not given */
	bool threads; /* -T */
	json_t *tests, *files; /* -i, -F; NULL when not given */
	int nrec; /* the -r operands read */
};

/* Splits `cmd` into words, up to a shell operator. */
static void split_words(struct iz_cmd *cl, const char *cmd)
{
	const char *p = cmd;
	while (*p && cl->n < 128) {
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
		cl->words[cl->n] = w;
		cl->lens[cl->n++] = (size_t)(p - w);
	}
}

/* An option without an argument: "-a", "-I", "-T", ... */
static void flag_option(struct bl_run *run, char o, struct iz_cmd *cl)
{
	switch (o) {
	case 'a':
	case 'A': iz_param_true(run, "auto_mode"); break;
	case 'I': iz_param_true(run, "o_direct"); break;
	case 'e': iz_param_true(run, "include_fsync"); break;
	case 'c': iz_param_true(run, "include_close"); break;
	case 'O': iz_param_true(run, "ops_mode"); break;
	case 'N': iz_param_true(run, "usec_mode"); break;
	case 'R': iz_param_true(run, "excel_report"); break;
	case 'T': cl->threads = true; break;
	case 'o': iz_param_true(run, "o_sync"); break;
	case 'z': iz_param_true(run, "all_record_sizes"); break;
	case 'B': iz_param_true(run, "mmap"); break;
	default: break;
	}
}

/* Option `o` with its argument [a, a+al): "-s 4m", "-r64k", "-i 0", ... */
static void arg_option(struct bl_run *run, char o, const char *a, size_t al, struct iz_cmd *cl)
{
	uint64_t v;
	switch (o) {
	case 's':
		if (iz_size(a, al, &v))
			bl_run_param_int(run, "file_size", (long long)v);
		break;
	case 'r':
		if (iz_size(a, al, &v)) {
			if (cl->nrec++ == 0) {
				json_object_del(run->params, "record_size");
				json_object_del(run->params, "record_sizes");
			}
			iz_add_record_size(run, v);
		}
		break;
	case 'g':
		if (iz_size(a, al, &v))
			bl_run_param_int(run, "max_file_size", (long long)v);
		break;
	case 'n':
		if (iz_size(a, al, &v))
			bl_run_param_int(run, "min_file_size", (long long)v);
		break;
	case 'y':
		if (iz_size(a, al, &v))
			bl_run_param_int(run, "min_record_size", (long long)v);
		break;
	case 'q':
		if (iz_size(a, al, &v))
			bl_run_param_int(run, "max_record_size", (long long)v);
		break;
	case 'i':
		if (bl_parse_u64(a, al, &v, NULL) && v < 64) {
			if (!cl->tests)
				cl->tests = json_array();
			json_array_append_new(cl->tests, json_integer((json_int_t)v));
		}
		break;
	case 't':
		if (bl_parse_u64(a, al, &v, NULL) && v < 1000000)
			cl->streams = (long long)v;
		break;
	case 'l':
		if (bl_parse_u64(a, al, &v, NULL) && v < 1000000)
			cl->lmin = (long long)v;
		break;
	case 'u':
		if (bl_parse_u64(a, al, &v, NULL) && v < 1000000)
			cl->lmax = (long long)v;
		break;
	case 'f': bl_run_param_str(run, "file", a, al); break;
	case 'b': bl_run_param_str(run, "excel_file", a, al); break;
	case 'F':
		/* -F takes every following word that is not an option */
		cl->files = cl->files ? cl->files : json_array();
		json_array_append_new(cl->files, json_stringn(a, al));
		while (cl->i + 1 < cl->n && cl->words[cl->i + 1][0] != '-') {
			size_t i = ++cl->i;
			json_array_append_new(cl->files, json_stringn(cl->words[i], cl->lens[i]));
		}
		break;
	default: break;
	}
}

/* The options of word cl->i, clustered as getopt allows ("-Rab out.xls"):
 * an option's argument is the rest of the word or the next word. */
static void word_options(struct bl_run *run, struct iz_cmd *cl)
{
	const char *w = cl->words[cl->i];
	size_t wl = cl->lens[cl->i];
	if (wl < 2 || w[0] != '-')
		return;
	for (size_t k = 1; k < wl; k++) {
		char o = w[k];
		if (o == '+') {
			/* -+u CPU utilization; -+m file, -+p N, ... take one */
			char o2 = k + 1 < wl ? w[k + 1] : 0;
			if (o2 == 'u')
				iz_param_true(run, "cpu_utilization");
			if (o2 && strchr("mpxwyCBGNST", o2) && k + 2 >= wl)
				cl->i++;
			return;
		}
		if (!takes_arg(o)) {
			flag_option(run, o, cl);
			continue;
		}
		const char *a;
		size_t al;
		if (k + 1 < wl) {
			a = w + k + 1;
			al = wl - k - 1;
		} else if (cl->i + 1 < cl->n) {
			cl->i++;
			a = cl->words[cl->i];
			al = cl->lens[cl->i];
		} else {
			return;
		}
		arg_option(run, o, a, al, cl);
		return; /* the argument ended this word */
	}
}

/* "/usr/bin/iozone -i 0 -i 1 -s 4m -r 64k -f /tmp/x/ioz.tmp"
 * "iozone -i0 -i1 -i2 -O -I -s4g -r128k -f /data0/blah"
 * "iozone -Ra -g 2G -b out.xls"
 * Options cluster as getopt allows ("-Rab out.xls"); the command ends at a
 * shell operator. */
void iz_command(struct bl_doc *doc, struct bl_run *run, const char *cmd)
{
	(void)doc;
	struct iz_cmd cl = {.streams = -1, .lmin = -1, .lmax = -1};
	split_words(&cl, cmd);
	for (cl.i = 1; cl.i < cl.n; cl.i++)
		word_options(run, &cl);
	const char *unit = cl.threads ? "threads" : "processes";
	char key[32];
	if (cl.threads)
		iz_param_true(run, "use_threads");
	if (cl.streams >= 0)
		bl_run_param_int(run, unit, cl.streams);
	if (cl.lmin >= 0) {
		snprintf(key, sizeof key, "min_%s", unit);
		bl_run_param_int(run, key, cl.lmin);
	}
	if (cl.lmax >= 0) {
		snprintf(key, sizeof key, "max_%s", unit);
		bl_run_param_int(run, key, cl.lmax);
	}
	if (cl.tests)
		json_object_set_new(run->params, "tests", cl.tests);
	if (cl.files)
		json_object_set_new(run->params, "files", cl.files);
}
