/* run_prefix.c - runs kept apart in a chart: the words of its command
 * that tell a run from the others beside it in a split ("-I -e: write"
 * beside "write"), or its whole name where words do not tell them apart.
 * Items are grouped by their keys through hashes (name_index.h), so that
 * the thousands of runs of a long log cost no more than the square of a
 * few. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "name_index.h"

/* Whether word w (len n) is a word of the space-separated text t. */
static bool has_word(const char *t, const char *w, size_t n)
{
	for (const char *p = t; *p;) {
		while (*p == ' ')
			p++;
		size_t k = strcspn(p, " ");
		if (k == n && strncmp(p, w, n) == 0)
			return true;
		p += k;
	}
	return false;
}

/* The words of run x's command that some other run of the chart (other
 * in `others`, the runs' commands) lacks: "-I -e" for `iozone -i 0 -s 4m
 * -I -e` beside `iozone -i 0 -s 4m`; into buf, "" when none. */
static void own_words(const char *cmd, const char *const *others, size_t nothers, char *buf,
		      size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (const char *p = cmd; *p;) {
		while (*p == ' ')
			p++;
		size_t k = strcspn(p, " ");
		bool everywhere = true;
		for (size_t o = 0; o < nothers && everywhere; o++)
			everywhere = has_word(others[o], p, k);
		if (k && !everywhere && used + k + 2 < len) {
			used += (size_t)snprintf(buf + used, len - used, "%s%.*s", used ? " " : "",
						 (int)k, p);
		}
		p += k;
	}
}

/* A key of two or three texts, each after its length ("5 tank/3 ada1"):
 * two keys are equal only when their texts are. */
static char *joined(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + (c ? strlen(c) : 0) + 3 * 24;
	char *t = malloc(n);
	if (t)
		snprintf(t, n, "%zu %s%zu %s%zu %s", strlen(a), a, strlen(b), b, c ? strlen(c) : 0,
			 c ? c : "");
	return t;
}

static char *cell_key(const struct bl_items *it, char *const *pre, size_t i)
{
	(void)pre;
	return joined(it->v[i].split, it->v[i].cat, it->v[i].ser);
}

static char *split_run(const struct bl_items *it, char *const *pre, size_t i)
{
	(void)pre;
	return joined(it->v[i].split, it->v[i].run, NULL);
}

static char *split_prefix(const struct bl_items *it, char *const *pre, size_t i)
{
	return joined(it->v[i].split, pre[i], NULL);
}

static char *split_only(const struct bl_items *it, char *const *pre, size_t i)
{
	(void)pre;
	return joined(it->v[i].split, "", NULL);
}

/* A run's words: its command, else its name. */
static const char *run_words(const struct bl_item *x)
{
	return x->command ? x->command : x->run;
}

static char *split_run_words(const struct bl_items *it, char *const *pre, size_t i)
{
	(void)pre;
	return joined(it->v[i].split, it->v[i].run, run_words(&it->v[i]));
}

/* The items grouped by their keys key(it, pre, i) (bl_name_groups):
 * members[from[k], from[k + 1]) have key k, *count keys in all.
 * Returns from, or NULL on out of memory. */
static size_t *group_items(const struct bl_items *it, char *const *pre,
			   char *(*key)(const struct bl_items *, char *const *, size_t),
			   size_t *members, size_t *count)
{
	size_t n = it->n, *from = NULL;
	char **keys = calloc(n ? n : 1, sizeof *keys);
	size_t *num = malloc((n ? n : 1) * sizeof *num);
	bool ok = keys && num;
	for (size_t i = 0; ok && i < n; i++)
		ok = (keys[i] = key(it, pre, i)) != NULL;
	long nk = ok ? bl_name_number(keys, n, num) : -1;
	if (nk >= 0 && (from = bl_name_groups(num, n, (size_t)nk, members)))
		*count = (size_t)nk;
	for (size_t i = 0; keys && i < n; i++)
		free(keys[i]);
	free(keys);
	free(num);
	return from;
}

/* Whether every item of a group of group_items(key) has the same text
 * as the group's first: its run's (pre NULL), or its prefix. 1 or 0, -1
 * on out of memory. */
static int groups_agree(const struct bl_items *it, char *const *pre,
			char *(*key)(const struct bl_items *, char *const *, size_t),
			char *const *texts)
{
	size_t *members = malloc((it->n ? it->n : 1) * sizeof *members), count = 0;
	size_t *from = members ? group_items(it, pre, key, members, &count) : NULL;
	int rc = from ? 1 : -1;
	for (size_t k = 0; rc == 1 && k < count; k++) {
		size_t first = members[from[k]];
		for (size_t m = from[k] + 1; rc == 1 && m < from[k + 1]; m++)
			if (strcmp(texts ? texts[members[m]] : it->v[members[m]].run,
				   texts ? texts[first] : it->v[first].run) != 0)
				rc = 0;
	}
	free(members);
	free(from);
	return rc;
}

/* Whether two runs share a cell of one chart (the same split, category
 * and series): 1 or 0, -1 on out of memory. */
static int runs_share_cell(const struct bl_items *it)
{
	int agree = groups_agree(it, NULL, cell_key, NULL);
	return agree < 0 ? -1 : !agree;
}

/* Whether the prefixes pre[] tell the runs of each split apart: in a
 * split, the same run has the same prefix and two runs two prefixes. 1
 * or 0, -1 on out of memory. */
static int prefixes_tell(const struct bl_items *it, char *const *pre)
{
	int same_pre = groups_agree(it, pre, split_run, pre);
	if (same_pre != 1)
		return same_pre;
	return groups_agree(it, pre, split_prefix, NULL);
}

#define OTHERS_MAX 16

/* The words of the runs beside run x in its split that own_words
 * compares x's command with: the first OTHERS_MAX distinct ones of other
 * runs, in item order. cand[0, ncand) are the split's items, each
 * (run, words) once, in item order. */
static size_t other_words(const struct bl_items *it, const size_t *cand, size_t ncand,
			  const struct bl_item *x, const char **others)
{
	size_t n = 0;
	for (size_t c = 0; c < ncand && n < OTHERS_MAX; c++) {
		const struct bl_item *y = &it->v[cand[c]];
		bool seen = false;
		for (size_t k = 0; k < n && !seen; k++)
			seen = strcmp(others[k], run_words(y)) == 0;
		if (!seen && strcmp(y->run, x->run) != 0)
			others[n++] = run_words(y);
	}
	return n;
}

/* The items of each split, each (run, words) once, in item order: the
 * first item of each group of split_run_words. cand[from[k], from[k+1])
 * are split k's; split_of[i] is item i's split. NULL: out of memory. */
static size_t *split_candidates(const struct bl_items *it, size_t *cand, size_t *split_of)
{
	size_t n = it->n, nsplits = 0, nrw = 0, *from = NULL;
	size_t *members = malloc((n ? n : 1) * sizeof *members);
	size_t *rw_members = malloc((n ? n : 1) * sizeof *rw_members);
	bool *first = calloc(n ? n : 1, sizeof *first);
	size_t *split_from = members && rw_members && first
				     ? group_items(it, NULL, split_only, members, &nsplits)
				     : NULL;
	size_t *rw_from =
		split_from ? group_items(it, NULL, split_run_words, rw_members, &nrw) : NULL;
	if (rw_from && (from = calloc(nsplits + 1, sizeof *from))) {
		for (size_t k = 0; k < nrw; k++)
			first[rw_members[rw_from[k]]] = true;
		size_t used = 0;
		for (size_t k = 0; k < nsplits; k++) {
			from[k] = used;
			for (size_t m = split_from[k]; m < split_from[k + 1]; m++) {
				split_of[members[m]] = k;
				if (first[members[m]])
					cand[used++] = members[m];
			}
		}
		from[nsplits] = used;
	}
	free(members);
	free(rw_members);
	free(first);
	free(split_from);
	free(rw_from);
	return from;
}

/* The name of each item's run before its series when runs share cells
 * of a chart, into pre[]: its label, else the words of its command the
 * other runs of its split lack ("-I -e: write"). The other runs are
 * found once for each run's name in a split. -1 on out of memory. */
static int run_prefixes(const struct bl_items *it, char **pre)
{
	size_t n = it->n, ngroups = 0;
	size_t *cand = malloc((n ? n : 1) * sizeof *cand);
	size_t *split_of = malloc((n ? n : 1) * sizeof *split_of);
	size_t *members = malloc((n ? n : 1) * sizeof *members);
	size_t *cand_from =
		cand && split_of && members ? split_candidates(it, cand, split_of) : NULL;
	size_t *from = cand_from ? group_items(it, NULL, split_run, members, &ngroups) : NULL;
	int rc = from ? 0 : -1;
	for (size_t g = 0; rc == 0 && g < ngroups; g++) {
		const struct bl_item *x0 = &it->v[members[from[g]]];
		size_t k = split_of[members[from[g]]];
		const char *others[OTHERS_MAX];
		size_t nothers = other_words(it, cand + cand_from[k],
					     cand_from[k + 1] - cand_from[k], x0, others);
		for (size_t m = from[g]; rc == 0 && m < from[g + 1]; m++) {
			const struct bl_item *x = &it->v[members[m]];
			char buf[256];
			if (!x->command || strcmp(x->run, x->command) != 0)
				snprintf(buf, sizeof buf, "%s", x->run); /* a label, whole */
			else
				own_words(x->command, others, nothers, buf, sizeof buf);
			if (!(pre[members[m]] = strdup(buf)))
				rc = -1;
		}
	}
	free(cand);
	free(split_of);
	free(members);
	free(cand_from);
	free(from);
	return rc;
}

/* Views that keep runs apart: runs that share a cell of one chart (two
 * iozone runs of one file size, with and without -I) are told apart in
 * the series, not drawn as repeats of one measurement: each run's own
 * words before the test ("-I -e: write"); the run with no words of its
 * own keeps the bare test name. When the words do not tell the runs
 * apart, their whole names go first. */
int bl_prefix_runs(const struct bl_view *v, struct bl_items *it)
{
	if (!v->chart.keep_runs_apart)
		return 0;
	int shared = runs_share_cell(it);
	if (shared <= 0)
		return shared;
	char **pre = calloc(it->n, sizeof *pre);
	if (!pre)
		return -1;
	/* every two runs of a chart get different prefixes */
	bool told = run_prefixes(it, pre) == 0;
	int rc = 0;
	if (told && (rc = prefixes_tell(it, pre)) >= 0) {
		told = rc == 1;
		rc = 0;
	}
	for (size_t i = 0; i < it->n && rc == 0; i++) {
		struct bl_item *x = &it->v[i];
		const char *p = told ? pre[i] : x->run;
		size_t n = strlen(p) + strlen(x->ser) + 3;
		char *t = malloc(n);
		if (!t) {
			rc = -1;
			break;
		}
		snprintf(t, n, "%s%s%s", p, *p && *x->ser ? ": " : "", x->ser);
		x->ser = bl_items_keep(it, t);
		free(t);
		if (!x->ser) {
			rc = -1;
			break;
		}
	}
	for (size_t i = 0; i < it->n; i++)
		free(pre[i]);
	free(pre);
	return rc;
}
