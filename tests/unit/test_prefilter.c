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

static json_t *parse_file(const char *path, bool prefilter)
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
	json_t *docs = json_array();
	bl_anchor_set_prefilter(prefilter);
	bl_ingest_buffer(buf, got, collect, docs);
	bl_anchor_set_prefilter(true);
	free(buf);
	return docs;
}

int main(void)
{
	glob_t g;
	CHECK(glob("corpus/*/*/input", 0, NULL, &g) == 0 && g.gl_pathc > 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		json_t *on = parse_file(g.gl_pathv[i], true);
		json_t *off = parse_file(g.gl_pathv[i], false);
		bool same = on && off && json_equal(on, off);
		if (!same)
			printf("  prefilter changes the document of %s\n", g.gl_pathv[i]);
		CHECK(same);
		json_decref(on);
		json_decref(off);
	}
	globfree(&g);
	bl_cleanup();
	return CHECK_DONE();
}
