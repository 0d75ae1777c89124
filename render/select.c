/* select.c - pulls the values a chart shows out of benchlog/1 documents:
 * filters (--tool, --where), the names of runs, and the keys that make
 * categories, series and separate charts (--group-by). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <math.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../parsers/run_results.h"
#include "internal.h"
#include "name_index.h"

int bl_key_parse(const char *w)
{
	static const struct {
		const char *name;
		enum bl_key key;
	} keys[] = {
		{"label", BL_KEY_LABEL}, {"run", BL_KEY_RUN},       {"source", BL_KEY_SOURCE},
		{"tool", BL_KEY_TOOL},   {"metric", BL_KEY_METRIC},
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strcmp(w, keys[i].name) == 0)
			return (int)keys[i].key;
	return -1;
}

int bl_sort_parse(const char *w)
{
	if (strcmp(w, "input") == 0 || strcmp(w, "none") == 0)
		return BL_SORT_INPUT;
	if (strcmp(w, "name") == 0 || strcmp(w, "label") == 0)
		return BL_SORT_NAME;
	if (strcmp(w, "value") == 0)
		return BL_SORT_VALUE;
	return -1;
}

int bl_units_parse(const char *w)
{
	if (strcmp(w, "decimal") == 0 || strcmp(w, "si") == 0 || strcmp(w, "MB/s") == 0)
		return BL_UNITS_DECIMAL;
	if (strcmp(w, "binary") == 0 || strcmp(w, "iec") == 0 || strcmp(w, "MiB/s") == 0)
		return BL_UNITS_BINARY;
	return -1;
}

const char *bl_basename(const char *path)
{
	if (!path)
		return "-";
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

/* The last `parts` components of path (borrowed pointer into path). */
static const char *path_tail(const char *path, int parts)
{
	const char *p = path + strlen(path);
	while (p > path && p[-1] == '/')
		p--; /* trailing slashes */
	for (int k = 0; k < parts && p > path; k++) {
		p--;
		while (p > path && p[-1] != '/')
			p--;
		if (k + 1 < parts && p > path)
			p--;
	}
	return p;
}

/* The tails of the distinct paths paths[0, np): tails[k] is path k's
 * last `parts` components with as many directories as it takes to tell
 * it from every other path's tail of as many components (at most 8). A
 * level's tails are counted by text, not compared two by two: a mail
 * archive gives thousands of sources. -1 on out of memory. */
static int distinct_tails(char *const *paths, size_t np, const char **tails)
{
	char **level = malloc((np ? np : 1) * sizeof *level);
	size_t *num = malloc((np ? np : 1) * sizeof *num), *count = NULL;
	bool *done = calloc(np ? np : 1, sizeof *done);
	int rc = level && num && done ? 0 : -1;
	size_t ndone = 0;
	for (int parts = 1; parts < 8 && ndone < np && rc == 0; parts++) {
		for (size_t k = 0; k < np; k++)
			level[k] = (char *)path_tail(paths[k], parts);
		long nt = bl_name_number(level, np, num);
		free(count);
		count = nt < 0 ? NULL : calloc((size_t)nt + 1, sizeof *count);
		if (!count) {
			rc = -1;
			break;
		}
		for (size_t k = 0; k < np; k++)
			count[num[k]]++;
		for (size_t k = 0; k < np; k++)
			if (!done[k] && count[num[k]] == 1) {
				tails[k] = level[k];
				done[k] = true;
				ndone++;
			}
	}
	for (size_t k = 0; k < np && rc == 0; k++)
		if (!done[k])
			tails[k] = path_tail(paths[k], 8);
	free(level);
	free(num);
	free(count);
	free(done);
	return rc;
}

/* Short names for the sources: the file name, with as many directories as
 * it takes to tell them apart (corpus/a/input, corpus/b/input -> a/input,
 * b/input), and "#k" for the k-th message of a mail archive. */
static int source_names(struct bl_select *s)
{
	size_t nd = json_array_size(s->docs), ns = s->nsources ? s->nsources : 1;
	char **paths = calloc(ns, sizeof *paths), **distinct = calloc(ns, sizeof *distinct);
	json_int_t *msgs = calloc(ns, sizeof *msgs);
	size_t *num = calloc(ns, sizeof *num);
	const char **tails = calloc(ns, sizeof *tails);
	int rc = paths && distinct && msgs && num && tails ? 0 : -1;
	for (size_t i = 0; i < nd && rc == 0; i++) {
		json_t *src = json_object_get(json_array_get(s->docs, i), "source");
		const char *p = json_string_value(json_object_get(src, "path"));
		json_t *m = json_object_get(src, "message");
		paths[s->src_of_doc[i]] = (char *)(p ? p : "-");
		msgs[s->src_of_doc[i]] =
			m ? json_integer_value(json_object_get(m, "index")) + 1 : 0;
	}
	/* the messages of one archive share its path: the names are told
	 * apart among the distinct paths */
	long np = rc == 0 ? bl_name_number(paths, s->nsources, num) : -1;
	for (size_t i = 0; np > 0 && i < s->nsources; i++)
		distinct[num[i]] = paths[i];
	if (np < 0 || distinct_tails(distinct, (size_t)np, tails) < 0)
		rc = -1;
	for (size_t i = 0; i < s->nsources && rc == 0; i++) {
		char buf[512];
		if (msgs[i])
			snprintf(buf, sizeof buf, "%s #%lld", tails[num[i]], (long long)msgs[i]);
		else
			snprintf(buf, sizeof buf, "%s", tails[num[i]]);
		if (!(s->src_names[i] = strdup(buf)))
			rc = -1;
	}
	free(paths);
	free(distinct);
	free(msgs);
	free(num);
	free(tails);
	return rc;
}

/* FNV-1a of a NUL-terminated string. */
static uint64_t hash_str(const char *p)
{
	uint64_t h = 14695981039346656037u;
	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	return h;
}

/* The canonical text of a source object (malloc'd here: jansson's own
 * allocator may be a caller's arena). */
static char *source_key(json_t *src)
{
	const size_t flags = JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY;
	json_t *v = src ? src : json_null();
	size_t n = json_dumpb(v, NULL, 0, flags);
	char *k = malloc(n + 1);
	if (k && json_dumpb(v, k, n, flags) == n)
		k[n] = '\0';
	else if (k)
		k[0] = '\0';
	return k;
}

/* s->src_of_doc: documents with equal "source" objects (path, message,
 * offset) share a number, in order of first appearance; an mbox of
 * 100,000 messages is numbered through a hash of each source's canonical
 * text, not by comparing every pair. -1 out of memory. */
static int number_sources(struct bl_select *s, json_t *docs)
{
	size_t nd = json_array_size(docs), cap = 16;
	while (cap < 2 * nd)
		cap *= 2;
	char **keys = calloc(nd ? nd : 1, sizeof *keys);
	size_t *slot = calloc(cap, sizeof *slot); /* a document index + 1, 0 empty */
	int rc = keys && slot ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < nd; i++) {
		if (!(keys[i] = source_key(json_object_get(json_array_get(docs, i), "source")))) {
			rc = -1;
			break;
		}
		size_t h = (size_t)hash_str(keys[i]) & (cap - 1);
		while (slot[h] && strcmp(keys[slot[h] - 1], keys[i]) != 0)
			h = (h + 1) & (cap - 1);
		if (slot[h]) {
			s->src_of_doc[i] = s->src_of_doc[slot[h] - 1];
		} else {
			slot[h] = i + 1;
			s->src_of_doc[i] = s->nsources++;
		}
	}
	for (size_t i = 0; keys && i < nd; i++)
		free(keys[i]);
	free(keys);
	free(slot);
	return rc;
}

/* Whether a document's "system" has a string that is not empty. */
static bool has_system_text(json_t *doc)
{
	const char *key;
	json_t *v;
	json_object_foreach(json_object_get(doc, "system"), key, v)
	{
		if (json_is_string(v) && *json_string_value(v))
			return true;
	}
	return false;
}

static int system_docs(struct bl_select *s)
{
	s->system_doc = malloc((s->nsources ? s->nsources : 1) * sizeof *s->system_doc);
	if (!s->system_doc)
		return -1;
	for (size_t k = 0; k < s->nsources; k++)
		s->system_doc[k] = SIZE_MAX;
	for (size_t i = 0; i < s->ndocs; i++) {
		size_t *d = &s->system_doc[s->src_of_doc[i]];
		if (*d == SIZE_MAX && has_system_text(json_array_get(s->docs, i)))
			*d = i;
	}
	return 0;
}

int bl_select_init(struct bl_select *s, json_t *docs, const struct bl_chart_opts *o, char *err,
		   size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->o = o;
	s->docs = docs;
	if (o->where) {
		int ec;
		PCRE2_SIZE eo;
		pcre2_code *re = pcre2_compile((PCRE2_SPTR)o->where, PCRE2_ZERO_TERMINATED,
					       PCRE2_UTF | PCRE2_CASELESS, &ec, &eo, NULL);
		if (!re) {
			unsigned char msg[128];
			pcre2_get_error_message(ec, msg, sizeof msg);
			snprintf(err, errlen, "--where: %s at offset %zu", (char *)msg, (size_t)eo);
			return -1;
		}
		s->where = re;
		s->md = pcre2_match_data_create_from_pattern(re, NULL);
		if (!s->md) {
			snprintf(err, errlen, "out of memory");
			bl_select_free(s);
			return -1;
		}
	}
	/* distinct sources: the same path with several messages counts each */
	size_t nd = json_array_size(docs);
	s->src_of_doc = calloc(nd ? nd : 1, sizeof *s->src_of_doc);
	s->src_names = calloc(nd ? nd : 1, sizeof *s->src_names);
	s->run_names = calloc(nd ? nd : 1, sizeof *s->run_names);
	s->run_warnings = calloc(nd ? nd : 1, sizeof *s->run_warnings);
	s->ndocs = nd;
	if (!s->src_of_doc || !s->src_names || !s->run_names || !s->run_warnings) {
		snprintf(err, errlen, "out of memory");
		bl_select_free(s);
		return -1;
	}
	if (number_sources(s, docs) < 0 || source_names(s) < 0 || system_docs(s) < 0) {
		snprintf(err, errlen, "out of memory");
		bl_select_free(s);
		return -1;
	}
	return 0;
}

void bl_select_free(struct bl_select *s)
{
	pcre2_match_data_free(s->md);
	pcre2_code_free(s->where);
	s->md = s->where = NULL;
	if (s->src_names)
		for (size_t i = 0; i < s->nsources; i++)
			free(s->src_names[i]);
	free(s->src_names);
	free(s->src_of_doc);
	free(s->system_doc);
	s->src_names = NULL;
	s->src_of_doc = NULL;
	s->system_doc = NULL;
	for (size_t d = 0; d < s->ndocs; d++) {
		if (s->run_names && s->run_names[d]) {
			for (size_t i = 0; s->run_names[d][i]; i++)
				free(s->run_names[d][i]);
			free(s->run_names[d]);
		}
		if (s->run_warnings)
			free(s->run_warnings[d]);
	}
	free(s->run_names);
	free(s->run_warnings);
	s->run_names = NULL;
	s->run_warnings = NULL;
	s->ndocs = 0;
}

const char *bl_select_source_name(const struct bl_select *s, size_t src)
{
	return src < s->nsources && s->src_names[src] ? s->src_names[src] : "-";
}

static bool re_hit(struct bl_select *s, const char *text)
{
	return text &&
	       pcre2_match(s->where, (PCRE2_SPTR)text, strlen(text), 0, 0, s->md, NULL) >= 0;
}

bool bl_select_run(struct bl_select *s, json_t *run)
{
	const char *tool = json_string_value(json_object_get(run, "tool"));
	if (!tool || (s->o->tool && strcmp(s->o->tool, tool) != 0))
		return false;
	if (s->where && !re_hit(s, json_string_value(json_object_get(run, "label"))) &&
	    !re_hit(s, json_string_value(json_object_get(run, "command"))))
		return false;
	return true;
}

size_t bl_select_tools(struct bl_select *s, const char **names, size_t max)
{
	size_t n = 0, i, k;
	json_t *d, *run;
	json_array_foreach(s->docs, i, d)
	{
		json_array_foreach(json_object_get(d, "runs"), k, run)
		{
			if (!bl_select_run(s, run))
				continue;
			const char *t = json_string_value(json_object_get(run, "tool"));
			size_t j = 0;
			while (j < n && strcmp(names[j], t) != 0)
				j++;
			if (j == n && n < max)
				names[n++] = t;
		}
	}
	return n;
}

/* ------------------------------------------------------------ run names */

static const char *param_str(json_t *run, const char *key)
{
	return json_string_value(json_object_get(json_object_get(run, "params"), key));
}

/* The ends of the run's copy when its tool copies a file (dd), else NULL. */
static const struct bl_transfer *run_transfer(json_t *run)
{
	return bl_transfer_of(json_string_value(json_object_get(run, "tool")));
}

static bool in_list(const char *const *list, const char *s)
{
	for (; s && list && *list; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

/* A copy that reads a generator is a write, one that writes a sink a read
 * (struct bl_transfer); both make a test of memory, neither a copy. */
static const char *transfer_direction(const struct bl_transfer *t, json_t *run)
{
	bool from_generator = in_list(t->generators, param_str(run, t->from));
	bool to_sink = in_list(t->sinks, param_str(run, t->to));
	if (from_generator && to_sink)
		return "memory";
	if (from_generator)
		return "write";
	if (to_sink)
		return "read";
	return "copy";
}

/* The name a run goes by before repeats are told apart: its label; for a
 * copy without one, the file it writes or reads; else the machine or
 * device its output names; else its command. */
static const char *base_name(json_t *run, char *buf, size_t len)
{
	const char *label = json_string_value(json_object_get(run, "label"));
	if (label && *label)
		return label;
	const struct bl_transfer *t = run_transfer(run);
	if (t) {
		const char *dir = transfer_direction(t, run);
		const char *p = strcmp(dir, "write") == 0  ? param_str(run, t->to)
				: strcmp(dir, "read") == 0 ? param_str(run, t->from)
							   : NULL;
		if (p)
			return p;
	}
	/* what a tool's own output names: bonnie's machine column, a device */
	static const char *const names[] = {"machine", "device", "pool"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const char *p = param_str(run, names[i]);
		if (p && *p)
			return p;
	}
	const char *cmd = json_string_value(json_object_get(run, "command"));
	if (cmd && *cmd)
		return cmd;
	snprintf(buf, len, "line %lld", (long long)bl_render_run_line(run));
	return buf;
}

/* A param's value as a label part: "file size 8 GiB", "count 32768". */
static void param_words(const char *name, json_t *v, char *buf, size_t len)
{
	char words[64], val[64];
	snprintf(words, sizeof words, "%s", name);
	for (char *p = words; *p; p++)
		if (*p == '_')
			*p = ' ';
	if (json_is_number(v) && strstr(name, "size"))
		bl_format_value(json_number_value(v), "B", BL_UNITS_BINARY, val, sizeof val);
	else if (json_is_integer(v))
		snprintf(val, sizeof val, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(val, sizeof val, "%g", json_real_value(v));
	else if (json_is_string(v))
		snprintf(val, sizeof val, "%s", json_string_value(v));
	else
		snprintf(val, sizeof val, "?");
	snprintf(buf, len, "%s %s", words, val);
}

/* The runs of a document by key (tool, name, direction): runs[i]'s key
 * is number kid[i], and the runs of key k are at[from[k], from[k + 1]),
 * in their order. A key's runs of one repeat group are number gid[i]
 * among the (key, group) pairs, first met by run first[gid[i]]. A long
 * log has thousands of runs: each is compared with those of its key
 * only, or found by a number. */
struct key_runs {
	size_t *kid, *from, *at, *gid, *first;
	size_t nkeys;
};

static void key_runs_free(struct key_runs *kr)
{
	free(kr->kid);
	free(kr->from);
	free(kr->at);
	free(kr->gid);
	free(kr->first);
}

static char *group_text(size_t kid, json_int_t group)
{
	char *t = malloc(48);
	if (t)
		snprintf(t, 48, "%zu|%lld", kid, (long long)group);
	return t;
}

/* Numbers n texts (made by text(i, arg), NULL on out of memory) into
 * num: bl_name_number. How many are distinct, or -1. */
static long number_texts(size_t n, char *(*text)(size_t i, const void *arg), const void *arg,
			 size_t *num)
{
	char **t = calloc(n ? n : 1, sizeof *t);
	long count = t ? 0 : -1;
	for (size_t i = 0; i < n && count == 0; i++)
		if (!(t[i] = text(i, arg)))
			count = -1;
	if (count == 0)
		count = bl_name_number(t, n, num);
	for (size_t i = 0; t && i < n; i++)
		free(t[i]);
	free(t);
	return count;
}

struct group_arg {
	const size_t *kid;
	const json_int_t *groups;
};

static char *group_text_of(size_t i, const void *arg)
{
	const struct group_arg *a = arg;
	return group_text(a->kid[i], a->groups[i]);
}

/* Numbers the n keys and their (key, group) pairs, and lists the runs of
 * each key. 0, or -1 on out of memory. */
static int key_runs_make(struct key_runs *kr, char *const *keys, const json_int_t *groups, size_t n)
{
	size_t one = n ? n : 1;
	kr->kid = malloc(one * sizeof *kr->kid);
	kr->at = malloc(one * sizeof *kr->at);
	kr->gid = malloc(one * sizeof *kr->gid);
	kr->first = malloc(one * sizeof *kr->first);
	long nk = kr->kid && kr->at && kr->gid && kr->first ? bl_name_number(keys, n, kr->kid) : -1;
	kr->nkeys = nk >= 0 ? (size_t)nk : 0;
	kr->from = nk >= 0 ? bl_name_groups(kr->kid, n, (size_t)nk, kr->at) : NULL;
	struct group_arg ga = {kr->kid, groups};
	long ng = kr->from ? number_texts(n, group_text_of, &ga, kr->gid) : -1;
	if (ng < 0)
		return -1;
	/* numbered as first met: pair g's first run is the first to have g */
	for (size_t i = 0, next = 0; i < n; i++)
		if (kr->gid[i] == next)
			kr->first[next++] = i;
	return 0;
}

/* How many runs of a document have what (a key's run in a group, a
 * param's value under a key): counts by a text, so that telling a run's
 * params from those of the other groups under its key costs the same
 * with two groups as with thousands (a long log of one command). */
struct counts {
	struct bl_name_index ix;
	char **names;
	size_t n, cap, *count;
};

static void counts_free(struct counts *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->names[i]);
	free(c->names);
	free(c->count);
	bl_name_index_free(&c->ix);
}

/* The count of `what` (0 when never added), plus `add`; -1 on out of
 * memory. */
static long counts_add(struct counts *c, const char *what, size_t add)
{
	long k = bl_name_intern(&c->names, &c->n, &c->ix, what);
	if (k < 0)
		return -1;
	if (c->n > c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		size_t *v = realloc(c->count, cap * sizeof *v);
		if (!v)
			return -1;
		memset(v + c->cap, 0, (cap - c->cap) * sizeof *v);
		c->count = v;
		c->cap = cap;
	}
	return (long)(c->count[k] += add);
}

/* v as JSON text (a new string), keys sorted: two values are equal
 * (json_equal) when their texts are. json_dumpb: the text is ours to
 * free, whoever allocates jansson's memory. */
static char *value_text(json_t *v)
{
	const size_t flags = JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY;
	size_t n = json_dumpb(v, NULL, 0, flags);
	char *t = n ? malloc(n + 1) : NULL;
	if (t && json_dumpb(v, t, n, flags) == n)
		t[n] = '\0';
	else if (t) {
		free(t);
		t = NULL;
	}
	return t;
}

/* The text that counts run i's param `name` = v under its key, in its
 * group (all: every group): "kid|group|len:name|value". NULL on out of
 * memory. */
static char *param_text(size_t kid, json_int_t group, bool all, const char *name, json_t *v)
{
	char *value = value_text(v);
	if (!value)
		return NULL;
	size_t n = strlen(name) + strlen(value) + 64;
	char *t = malloc(n);
	if (t && all)
		snprintf(t, n, "%zu|*|%zu:%s|%s", kid, strlen(name), name, value);
	else if (t)
		snprintf(t, n, "%zu|%lld|%zu:%s|%s", kid, (long long)group, strlen(name), name,
			 value);
	free(value);
	return t;
}

/* Counts every run's params, under its key and in its group, and each
 * group's runs under its key. 0, or -1 on out of memory. */
static int count_params(struct counts *c, json_t *runs, const struct key_runs *kr,
			const json_int_t *groups, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *g = group_text(kr->kid[i], groups[i]);
		long got = g ? counts_add(c, g, 1) : -1;
		free(g);
		if (got < 0)
			return -1;
		const char *name;
		json_t *v;
		json_object_foreach(json_object_get(json_array_get(runs, i), "params"), name, v)
		{
			for (int all = 0; all < 2; all++) {
				char *t = param_text(kr->kid[i], groups[i], all, name, v);
				got = t ? counts_add(c, t, 1) : -1;
				free(t);
				if (got < 0)
					return -1;
			}
		}
	}
	return 0;
}

/* Whether some run of another group under run i's key has another value
 * of param `name` than v (or none): of the runs of other groups, fewer
 * have v than there are. -1 on out of memory. */
static int param_differs(struct counts *c, const struct key_runs *kr, const json_int_t *groups,
			 size_t i, const char *name, json_t *v)
{
	size_t k = kr->kid[i];
	char *g = group_text(k, groups[i]), *all = param_text(k, groups[i], true, name, v);
	char *mine = param_text(k, groups[i], false, name, v);
	long in_group = g ? counts_add(c, g, 0) : -1;
	long same_all = all ? counts_add(c, all, 0) : -1;
	long same_mine = mine ? counts_add(c, mine, 0) : -1;
	free(g);
	free(all);
	free(mine);
	if (in_group < 0 || same_all < 0 || same_mine < 0)
		return -1;
	size_t others = kr->from[k + 1] - kr->from[k] - (size_t)in_group;
	return (size_t)(same_all - same_mine) < others;
}

/* What tells run i's group from the other groups under its key: the one
 * or two params whose values differ ("file size 8 GiB" for `bonnie++
 * -s 8192` beside `-s 2048`), into buf; "" when none or more differ (or
 * memory ran out). */
static void params_told(json_t *runs, struct counts *c, const struct key_runs *kr,
			const json_int_t *groups, size_t i, char *buf, size_t len)
{
	json_t *mine = json_object_get(json_array_get(runs, i), "params");
	const char *key;
	json_t *v;
	size_t used = 0, ndiff = 0;
	buf[0] = '\0';
	json_object_foreach(mine, key, v)
	{
		int differs = param_differs(c, kr, groups, i, key, v);
		if (differs < 0) {
			buf[0] = '\0';
			return;
		}
		if (!differs)
			continue;
		if (++ndiff > 2) {
			buf[0] = '\0';
			return;
		}
		char part[160];
		param_words(key, v, part, sizeof part);
		int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", part);
		if (w > 0 && (size_t)w < len - used)
			used += (size_t)w;
	}
}

struct better_arg {
	const struct key_runs *kr;
	char *const *better;
	bool pair; /* the text of the run's (key, group) pair and name, else of its key and name */
};

static char *better_text(size_t i, const void *arg)
{
	const struct better_arg *a = arg;
	const char *b = a->better[i] ? a->better[i] : "";
	size_t len = strlen(b) + 48;
	char *t = malloc(len);
	if (t)
		snprintf(t, len, "%zu|%s", a->pair ? a->kr->gid[i] : a->kr->kid[i], b);
	return t;
}

/* Whether run i keeps its better name (ok[i], a new array; NULL on out
 * of memory): every run under its key has one, and under the key, the
 * runs of its group are those of its name. Counted: a run of its group
 * or of its name and not of both would make the counts of the pair, of
 * the group and of the name differ. */
static bool *names_tell_groups(const struct key_runs *kr, char *const *better, size_t n)
{
	size_t one = n ? n : 1;
	bool *ok = calloc(one, sizeof *ok);
	size_t *name = malloc(one * sizeof *name), *pair = malloc(one * sizeof *pair);
	size_t *count = calloc(3 * one + kr->nkeys, sizeof *count);
	struct better_arg by_name = {kr, better, false}, by_pair = {kr, better, true};
	if (!ok || !name || !pair || !count || number_texts(n, better_text, &by_name, name) < 0 ||
	    number_texts(n, better_text, &by_pair, pair) < 0) {
		free(ok);
		ok = NULL;
		goto out;
	}
	size_t *of_name = count, *of_pair = count + one, *of_group = count + 2 * one,
	       *lacking = count + 3 * one;
	for (size_t i = 0; i < n; i++) {
		of_name[name[i]]++;
		of_pair[pair[i]]++;
		of_group[kr->gid[i]]++;
		lacking[kr->kid[i]] += !better[i];
	}
	for (size_t i = 0; i < n; i++)
		ok[i] = better[i] && !lacking[kr->kid[i]] && of_name[name[i]] == of_pair[pair[i]] &&
			of_group[kr->gid[i]] == of_pair[pair[i]];
out:
	free(name);
	free(pair);
	free(count);
	return ok;
}

/* Groups that share a key are told apart by their params where these
 * differ: "freebsd.javaforum.h (file size 2 GiB)" and "(file size 8 GiB)"
 * instead of "freebsd.javaforum.h" and "freebsd.javaforum.h #2". A key
 * whose groups the params do not tell apart keeps its "#k" names. */
static void name_by_params(json_t *runs, const struct key_runs *kr, const json_int_t *groups,
			   char **names, size_t n)
{
	char **better = calloc(n ? n : 1, sizeof *better);
	struct counts c = {0};
	if (!better || count_params(&c, runs, kr, groups, n) < 0) {
		free(better);
		counts_free(&c);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		char told[320], nb[32], buf[1024];
		params_told(runs, &c, kr, groups, i, told, sizeof told);
		if (!told[0])
			continue;
		snprintf(buf, sizeof buf, "%s (%s)",
			 base_name(json_array_get(runs, i), nb, sizeof nb), told);
		better[i] = strdup(buf);
	}
	bool *ok = names_tell_groups(kr, better, n);
	for (size_t i = 0; i < n; i++) {
		if (ok && ok[i]) {
			free(names[i]);
			names[i] = better[i];
		} else {
			free(better[i]);
		}
	}
	free(ok);
	free(better);
	counts_free(&c);
}

/* Run i's name: that of the first run of its key and group when that
 * is before it, else its base name with the next ordinal under the key
 * ("name #2"; key_ord: the last given under each key). NULL on out of
 * memory. */
static char *name_run(const struct key_runs *kr, size_t *key_ord, char **names, size_t i,
		      const char *base)
{
	size_t first = kr->first[kr->gid[i]];
	if (first < i)
		return strdup(names[first]);
	size_t ord = ++key_ord[kr->kid[i]];
	size_t len = strlen(base) + 24;
	char *name = malloc(len);
	if (name) {
		if (ord > 1)
			snprintf(name, len, "%s #%zu", base, ord);
		else
			snprintf(name, len, "%s", base);
	}
	return name;
}

/* Names for every run of a document. Repeats (one group of the document)
 * share a name; two groups never do: two that would (the post ran
 * `dd of=/zfs/testfile` for two configurations without a heading, or a
 * write and a read under one heading) become "name", "name #2", and the
 * k-th write pairs with the k-th read. */
static char **run_names(json_t *doc)
{
	json_t *runs = json_object_get(doc, "runs");
	size_t n = json_array_size(runs);
	char **names = calloc(n + 1, sizeof *names); /* NULL after the last */
	char **keys = calloc(n ? n : 1, sizeof *keys); /* tool, name, direction */
	json_int_t *groups = calloc(n ? n : 1, sizeof *groups); /* the runs' repeat groups */
	size_t *key_ord = NULL; /* the last ordinal given under each key: 1, 2, ... */
	struct key_runs kr = {0};
	if (!names || !keys || !groups)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		json_t *run = json_array_get(runs, i);
		char nb[32], key[1024];
		const char *base = base_name(run, nb, sizeof nb);
		const char *tool = json_string_value(json_object_get(run, "tool"));
		const struct bl_transfer *t = run_transfer(run);
		snprintf(key, sizeof key, "%s\x1f%s\x1f%s", tool ? tool : "", base,
			 t ? transfer_direction(t, run) : "");
		groups[i] = json_integer_value(json_object_get(run, "group"));
		if (!(keys[i] = strdup(key)))
			goto fail;
	}
	if (key_runs_make(&kr, keys, groups, n) < 0 ||
	    !(key_ord = calloc(kr.nkeys ? kr.nkeys : 1, sizeof *key_ord)))
		goto fail;
	for (size_t i = 0; i < n; i++) {
		char nb[32];
		const char *base = base_name(json_array_get(runs, i), nb, sizeof nb);
		if (!(names[i] = name_run(&kr, key_ord, names, i, base)))
			goto fail;
	}
	name_by_params(runs, &kr, groups, names, n);
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	free(groups);
	free(key_ord);
	key_runs_free(&kr);
	return names;
fail:
	for (size_t i = 0; i < n; i++) {
		if (names)
			free(names[i]);
		if (keys)
			free(keys[i]);
	}
	free(names);
	free(keys);
	free(groups);
	free(key_ord);
	key_runs_free(&kr);
	return NULL;
}

/* ------------------------------------------------------------ keys */

static char *format_size_key(double v)
{
	char buf[48];
	bl_format_value(v, "B", BL_UNITS_BINARY, buf, sizeof buf);
	return strdup(buf);
}

/* The text of key k for one result, or NULL when the result has no such
 * key (an iozone cell without a record size). *order gets a numeric order
 * for coordinates. Returns "" (new) for BL_KEY_NONE. */
static char *key_text(enum bl_key k, json_t *run, const struct bl_res *res, const char *name,
		      const char *srcname, double *order, bool *missing)
{
	char buf[256];
	*order = NAN;
	*missing = false;
	const char *tool = json_string_value(json_object_get(run, "tool"));
	const char *metric = json_string_value(bl_res_get(res, "metric"));
	switch (k) {
	case BL_KEY_NONE: return strdup("");
	case BL_KEY_LABEL: return strdup(name);
	case BL_KEY_RUN: {
		json_int_t line = bl_render_run_line(run);
		snprintf(buf, sizeof buf, "%s (line %lld)", name, (long long)line);
		return strdup(buf);
	}
	case BL_KEY_SOURCE: return strdup(srcname);
	case BL_KEY_TOOL: return strdup(tool ? tool : "?");
	case BL_KEY_METRIC: return strdup(bl_metric_title(tool, metric, buf, sizeof buf));
	case BL_KEY_DIRECTION: {
		const struct bl_transfer *t = run_transfer(run);
		if (t)
			return strdup(transfer_direction(t, run));
		return strdup(bl_metric_title(tool, metric, buf, sizeof buf));
	}
	case BL_KEY_RECORD_SIZE:
	case BL_KEY_FILE_SIZE:
	case BL_KEY_BLOCK_SIZE: {
		json_t *c = bl_res_get(res, k == BL_KEY_RECORD_SIZE ? "record_size"
					    : k == BL_KEY_FILE_SIZE ? "file_size"
								    : "size");
		if (!json_is_number(c)) {
			*missing = true;
			return NULL;
		}
		*order = json_number_value(c);
		return format_size_key(*order);
	}
	case BL_KEY_VDEV: {
		json_t *c = bl_res_get(res, "vdev");
		const char *cls = json_string_value(bl_res_get(res, "class"));
		if (!c)
			c = bl_res_get(res, "pool");
		if (!json_is_string(c))
			return strdup(name);
		/* the class of a log, cache, special or dedup vdev: "mirror-4 (logs)" */
		if (cls && *cls)
			snprintf(buf, sizeof buf, "%s (%s)", json_string_value(c), cls);
		else
			snprintf(buf, sizeof buf, "%s", json_string_value(c));
		return strdup(buf);
	}
	case BL_KEY_PROCESSES: {
		json_t *c = bl_res_get(res, "processes");
		const char *what = "process";
		if (!json_is_integer(c)) {
			c = bl_res_get(res, "threads");
			what = "thread";
		}
		if (!json_is_integer(c)) {
			*missing = true;
			return NULL;
		}
		*order = (double)json_integer_value(c);
		snprintf(buf, sizeof buf, "%lld %s%s", (long long)json_integer_value(c), what,
			 json_integer_value(c) == 1 ? "" : (what[0] == 'p' ? "es" : "s"));
		return strdup(buf);
	}
	case BL_KEY_SAMPLE: {
		json_t *c = bl_res_get(res, "sample");
		if (!json_is_integer(c)) {
			*missing = true;
			return NULL;
		}
		*order = (double)json_integer_value(c);
		snprintf(buf, sizeof buf, "sample %lld", (long long)json_integer_value(c));
		return strdup(buf);
	}
	}
	return strdup("");
}

static bool metric_wanted(const struct bl_chart_view *v, const char *metric)
{
	if (!v->metrics)
		return true;
	for (const char *const *m = v->metrics; *m; m++)
		if (strcmp(*m, metric) == 0)
			return true;
	return false;
}

/* Whether a result of run has a sample after the first (looked for
 * until one is found: a stream's second sample comes early). */
static bool later_samples(json_t *run)
{
	struct bl_res_iter it;
	struct bl_res r;
	for (bl_res_begin(&it, run); bl_res_next(&it, &r);) {
		json_t *c = bl_res_get(&r, "sample");
		if (json_is_integer(c) && json_integer_value(c) > 0) {
			bl_res_end(&it);
			return true;
		}
	}
	return false;
}

/* The items' copy of s, a text of key_text's, which is freed; NULL when
 * s is or memory ran out. */
static const char *keep_text(struct bl_items *it, char *s)
{
	const char *k = s ? bl_items_keep(it, s) : NULL;
	free(s);
	return k;
}

/* The category, series, split and run of item x (a value of res in run
 * named `name`), as the view's keys make them: 1, 0 when res has not a
 * key they need, -1 on out of memory. */
static int item_keys(struct bl_items *it, const struct bl_chart_view *c, json_t *run,
		     const struct bl_res *res, const char *name, const char *sname,
		     struct bl_item *x)
{
	bool miss1, miss2, miss3;
	char *cat = key_text(c->category, run, res, name, sname, &x->cat_order, &miss1);
	char *ser = key_text(c->series, run, res, name, sname, &x->ser_order, &miss2);
	char *split = key_text(c->chart_per, run, res, name, sname, &x->split_order, &miss3);
	if (miss1 || miss2 || miss3) {
		free(cat);
		free(ser);
		free(split);
		return 0;
	}
	x->cat = keep_text(it, cat);
	x->ser = keep_text(it, ser);
	x->split = keep_text(it, split);
	x->run = c->keep_runs_apart ? bl_items_keep(it, name) : NULL;
	return x->cat && x->ser && x->split && (!c->keep_runs_apart || x->run) ? 1 : -1;
}

/* For each of the document's runs, the code of the first warning (or
 * error) it has about the run, or NULL: its values were read, but not
 * cleanly. A new array (NULL: out of memory), its codes borrowed. */
static const char **run_warnings(json_t *doc)
{
	size_t n = json_array_size(json_object_get(doc, "runs")), i;
	const char **w = calloc(n ? n : 1, sizeof *w);
	json_t *d;
	if (!w)
		return NULL;
	json_array_foreach(json_object_get(doc, "diagnostics"), i, d)
	{
		const char *level = json_string_value(json_object_get(d, "level"));
		json_t *run = json_object_get(d, "run");
		if (!level || strcmp(level, "info") == 0 || !json_is_integer(run))
			continue;
		json_int_t ri = json_integer_value(run);
		if (ri >= 0 && (size_t)ri < n && !w[ri])
			w[ri] = json_string_value(json_object_get(d, "code"));
	}
	return w;
}

int bl_select_items(struct bl_select *s, const struct bl_view *v, struct bl_items *out)
{
	const struct bl_chart_view *c = &v->chart;
	size_t di, ri;
	json_t *doc, *run;
	json_array_foreach(s->docs, di, doc)
	{
		char **names = NULL;
		const char **warnings = NULL;
		json_t *runs = json_object_get(doc, "runs");
		size_t src = s->src_of_doc[di];
		const char *sname = bl_select_source_name(s, src);
		json_array_foreach(runs, ri, run)
		{
			const char *tool = json_string_value(json_object_get(run, "tool"));
			if (!tool || (v->tool && strcmp(tool, v->tool) != 0) ||
			    !bl_select_run(s, run))
				continue;
			if (!names && !(names = s->run_names[di]) &&
			    !(names = s->run_names[di] = run_names(doc)))
				return -1;
			if (!warnings && !(warnings = s->run_warnings[di]) &&
			    !(warnings = s->run_warnings[di] = run_warnings(doc)))
				return -1;
			bool later = c->skip_since_boot_sample && later_samples(run);
			const char *warning = warnings[ri];
			struct bl_res_iter rit;
			struct bl_res rr, *res = &rr;
			for (bl_res_begin(&rit, run); bl_res_next(&rit, &rr);) {
				const char *metric = json_string_value(bl_res_get(res, "metric"));
				const char *unit = json_string_value(bl_res_get(res, "unit"));
				if (!metric || !unit || !metric_wanted(c, metric) ||
				    (c->unit && strcmp(unit, c->unit) != 0))
					continue;
				if (c->skip_results_with && bl_res_get(res, c->skip_results_with))
					continue;
				const char *scope = json_string_value(bl_res_get(res, "scope"));
				if (c->only_scope && (!scope || strcmp(scope, c->only_scope) != 0))
					continue;
				if (bl_res_has_flag(res, "not-run"))
					continue;
				/* the first zpool iostat sample averages since boot */
				json_t *smp = bl_res_get(res, "sample");
				if (later && json_is_integer(smp) && json_integer_value(smp) == 0)
					continue;
				json_t *val = bl_res_get(res, "value");
				bool censored = bl_res_has_flag(res, "censored");
				if (!json_is_number(val) && !censored)
					continue;
				struct bl_item x = {0};
				x.value = json_is_number(val) ? json_number_value(val) : NAN;
				if (censored && x.value == 0)
					x.value = NAN; /* no printed bound: never a zero */
				x.censored = censored;
				x.approximate = bl_res_has_flag(res, "approximate");
				x.warning = warning;
				x.src = src;
				x.doc = di;
				x.run_index = ri;
				x.command = json_string_value(json_object_get(run, "command"));
				x.source = json_string_value(
					json_object_get(json_object_get(doc, "source"), "path"));
				x.source_name = sname;
				int keys = item_keys(out, c, run, res, names[ri], sname, &x);
				if (keys < 0 || (keys > 0 && bl_items_add(out, &x) < 0)) {
					bl_res_end(&rit);
					goto oom;
				}
			}
		}
		continue;
	oom:
		return -1;
	}
	return 0;
}
