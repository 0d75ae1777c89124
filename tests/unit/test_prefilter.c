/* test_prefilter.c - the needle prefilter (parsers/anchor.c) finds what the
 * plain regex finds: every corpus input parses to the same document with
 * the prefilter on and off. A hit of the whole-text regex that comes before
 * a needle's hit once made the needle's hit get lost (a dd run between two
 * zpool iostat reports in corpus/zpool-iostat/zfs-fuse-0.7-sample). */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/anchor.h"
#include "../../base/re.h"
#include "../../parsers/benchlog.h"
#include "check.h"

static int collect(struct bl_message *m, void *ctx)
{
	json_t *d = bl_parse_message(m, "input");
	if (!d)
		return -1;
	json_array_append_new(ctx, d);
	return 0;
}

static json_t *parse_buffer(const char *buf, size_t n, bool prefilter, bool portable)
{
	json_t *docs = json_array();
	bl_anchor_set_prefilter(prefilter);
	bl_re_set_lead_check(prefilter);
	bl_sites_set_portable(portable);
	bl_ingest_buffer(bl_parser_ingest(), buf, n, collect, docs);
	bl_anchor_set_prefilter(true);
	bl_re_set_lead_check(true);
	bl_sites_set_portable(false);
	return docs;
}

static json_t *parse_file(const char *path, bool prefilter, bool portable)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc(n > 0 ? (size_t)n : 1);
	size_t got = buf ? fread(buf, 1, (size_t)(n > 0 ? n : 0), f) : 0;
	fclose(f);
	json_t *docs = parse_buffer(buf, got, prefilter, portable);
	free(buf);
	return docs;
}

/* The lines of the corpus, as given, and after a blank and a tab. */
struct lines {
	char **v;
	size_t n, cap;
	size_t patterns, refused; /* patterns with a lead, subjects they refused */
};

static void add_line(struct lines *ls, const char *prefix, const char *s, size_t n)
{
	if (ls->n == ls->cap) {
		ls->cap = ls->cap ? 2 * ls->cap : 1024;
		ls->v = realloc(ls->v, ls->cap * sizeof *ls->v);
	}
	size_t k = strlen(prefix);
	char *l = malloc(k + n + 1);
	memcpy(l, prefix, k);
	memcpy(l + k, s, n);
	l[k + n] = '\0';
	ls->v[ls->n++] = l;
}

/* A line a pattern's lead turns down is one PCRE2 finds no match in. */
static void lead_refuses_no_match(struct bl_re *re, void *ctx)
{
	struct lines *ls = ctx;
	if (!re->has_lead)
		return;
	ls->patterns++;
	for (size_t i = 0; i < ls->n; i++) {
		size_t n = strlen(ls->v[i]);
		if (bl_re_lead_may(&re->lead, ls->v[i], n))
			continue;
		ls->refused++;
		bl_re_set_lead_check(false);
		bool match = bl_re_match_copy(re, ls->v[i], n, 0, NULL);
		bl_re_set_lead_check(true);
		if (match)
			printf("  the lead of /%s/ refused \"%s\"\n", re->pattern, ls->v[i]);
		CHECK(!match);
	}
}

static void test_leads_on_corpus(void)
{
	struct lines ls = {0};
	glob_t g;
	CHECK(glob("corpus/*/*/input", 0, NULL, &g) == 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "rb");
		char buf[1 << 16];
		size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
		if (f)
			fclose(f);
		for (size_t a = 0; a < n;) {
			const char *nl = memchr(buf + a, '\n', n - a);
			size_t e = nl ? (size_t)(nl - buf) : n;
			add_line(&ls, "", buf + a, e - a);
			add_line(&ls, " ", buf + a, e - a);
			add_line(&ls, "\t", buf + a, e - a);
			a = e + 1;
		}
	}
	globfree(&g);
	/* the patterns the corpus made the parsers compile */
	bl_re_each_compiled(lead_refuses_no_match, &ls);
	CHECK(ls.patterns > 50 && ls.refused > 100000);
	for (size_t i = 0; i < ls.n; i++)
		free(ls.v[i]);
	free(ls.v);
}

int main(void)
{
	glob_t g;
	CHECK(glob("corpus/*/*/input", 0, NULL, &g) == 0 && g.gl_pathc > 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		json_t *on = parse_file(g.gl_pathv[i], true, false);
		json_t *off = parse_file(g.gl_pathv[i], false, false);
		json_t *port = parse_file(g.gl_pathv[i], true, true);
		bool same = on && off && json_equal(on, off);
		if (!same)
			printf("  prefilter changes the document of %s\n", g.gl_pathv[i]);
		CHECK(same);
		/* the AVX2 pass (where the CPU has it) and the portable one */
		bool same2 = on && port && json_equal(on, port);
		if (!same2)
			printf("  the portable needle pass changes the document of %s\n",
			       g.gl_pathv[i]);
		CHECK(same2);
		json_decref(on);
		json_decref(off);
		json_decref(port);
	}
	globfree(&g);

	/* every corpus input cut into pieces and shuffled into prose: the
	 * needles of all parsers at every alignment of the 32-byte blocks */
	size_t total = 0, cap = 1 << 20;
	char *mix = malloc(cap);
	unsigned seed = 12345;
	CHECK(glob("corpus/*/*/input", 0, NULL, &g) == 0);
	for (size_t i = 0; mix && i < g.gl_pathc && total < cap - 8192; i++) {
		FILE *f = fopen(g.gl_pathv[i], "rb");
		if (!f)
			continue;
		char piece[4096];
		size_t n = fread(piece, 1, sizeof piece, f);
		fclose(f);
		seed = seed * 1103515245u + 12345u;
		size_t pad = (seed >> 16) % 37;
		static const char prose[] = "really the results reply, 2010 at 512 GB MB/s. ";
		for (size_t k = 0; k < pad; k++)
			mix[total++] = prose[k % (sizeof prose - 1)];
		memcpy(mix + total, piece, n);
		total += n;
	}
	globfree(&g);
	json_t *a = mix ? parse_buffer(mix, total, true, false) : NULL;
	json_t *b = mix ? parse_buffer(mix, total, true, true) : NULL;
	json_t *c = mix ? parse_buffer(mix, total, false, false) : NULL;
	size_t runs = 0, k;
	json_t *d;
	json_array_foreach(a, k, d) runs += json_array_size(json_object_get(d, "runs"));
	CHECK(runs > 100);
	CHECK(a && b && json_equal(a, b));
	CHECK(a && c && json_equal(a, c));
	json_decref(a);
	json_decref(b);
	json_decref(c);
	free(mix);
	test_leads_on_corpus();
	bl_cleanup();
	return CHECK_DONE();
}
