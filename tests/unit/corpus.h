/* corpus.h - every case of the corpus (corpus/TOOL/CASE/), for the unit
 * tests that read them all. */
#ifndef BL_TEST_CORPUS_H
#define BL_TEST_CORPUS_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

#include "slurp.h"

/* Calls fn with the bytes of `file` ("input", "expected.json") of each
 * case that has one; the number of such cases. */
static size_t corpus_each(const char *file, void (*fn)(const char *text, size_t len, void *ctx),
			  void *ctx)
{
	size_t n = 0;
	DIR *top = opendir("corpus");
	struct dirent *t;
	while (top && (t = readdir(top))) {
		char dir[512];
		snprintf(dir, sizeof dir, "corpus/%s", t->d_name);
		DIR *d = t->d_name[0] == '.' ? NULL : opendir(dir);
		struct dirent *c;
		while (d && (c = readdir(d))) {
			char path[1024];
			snprintf(path, sizeof path, "%s/%s/%s", dir, c->d_name, file);
			size_t len;
			char *text = c->d_name[0] == '.' ? NULL : slurp(path, &len);
			if (text) {
				fn(text, len, ctx);
				n++;
			}
			free(text);
		}
		if (d)
			closedir(d);
	}
	if (top)
		closedir(top);
	return n;
}

#endif
