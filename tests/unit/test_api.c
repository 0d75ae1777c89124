/* test_api.c - the public interface (include/benchlog.h, api/documents.c):
 * what it hands out is what the documents hold, indices out of range give
 * nothing, every document's JSON is the one the parser writes, and a file
 * that cannot be read says why. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/benchlog.h"
#include "check.h"

static const char post[] =
	"*** (mirror hdd, eli) zfs:\n"
	"srebrny# time dd if=/dev/zero of=/data01/test01 bs=1m count=2000\n"
	"2000+0 records in\n"
	"2000+0 records out\n"
	"2097152000 bytes transferred in 67.255574 secs (31181832 bytes/sec)\n"
	"0.029u 6.422s 1:07.25 9.5% 26+1531k 0+0io 0pf+0w\n"
	"\n"
	"Version 1.96       ------Sequential Output------ --Sequential Input- --Random-\n"
	"Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
	"Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
	"freebsd.javaf 8192M   205  99 +++++ +++ 93290  22   403  99 +++++ +++ +++++ +++\n";

static void test_read(void)
{
	struct bl_documents *d = bl_documents_read(post, sizeof post - 1, "post.txt");
	CHECK(d != NULL);
	CHECK(bl_documents_count(d) == 1);
	CHECK(bl_documents_runs(d, 0) == 2);
	CHECK(strcmp(bl_documents_run_tool(d, 0, 0), "dd") == 0);
	CHECK(strcmp(bl_documents_run_label(d, 0, 0), "(mirror hdd, eli) zfs") == 0);
	CHECK(strcmp(bl_documents_run_command(d, 0, 0),
		     "dd if=/dev/zero of=/data01/test01 bs=1m count=2000") == 0);
	CHECK(bl_documents_run_line(d, 0, 0) == 2);
	CHECK(strcmp(bl_documents_run_tool(d, 0, 1), "bonnie++") == 0);
	struct bl_result_value v;
	bool throughput = false, censored = false;
	for (size_t i = 0; bl_documents_result(d, 0, 0, i, &v); i++)
		if (strcmp(v.metric, "throughput") == 0)
			throughput = v.value == 31181832.0 && strcmp(v.unit, "B/s") == 0 &&
				     strcmp(v.raw, "31181832 bytes/sec") == 0;
	CHECK(throughput);
	CHECK(bl_documents_results(d, 0, 0) > 3);
	for (size_t i = 0; bl_documents_result(d, 0, 1, i, &v); i++)
		if (strcmp(v.metric, "seq_output_block") == 0)
			censored = isnan(v.value) && v.censored && strcmp(v.raw, "+++++") == 0;
	CHECK(censored);
	/* out of range: nothing, not a crash */
	CHECK(bl_documents_runs(d, 1) == 0);
	CHECK(bl_documents_run_tool(d, 0, 2) == NULL);
	CHECK(bl_documents_run_line(d, 3, 0) == 0);
	CHECK(!bl_documents_result(d, 0, 0, 1000, &v));
	CHECK(!bl_documents_result(d, 0, 0, 0, NULL));
	CHECK(bl_documents_json(d, 1, false) == NULL);
	CHECK(bl_documents_runs(NULL, 0) == 0 && bl_documents_count(NULL) == 0);
	/* the JSON is the document, compact and indented */
	char *compact = bl_documents_json(d, 0, false), *pretty = bl_documents_json(d, 0, true);
	CHECK(compact && strstr(compact, "\"schema\":\"" BL_SCHEMA "\""));
	CHECK(compact && strstr(compact, "\"path\":\"post.txt\""));
	CHECK(pretty && strstr(pretty, "\n  \"runs\": ["));
	free(compact);
	free(pretty);
	CHECK(strcmp(bl_library_version(), "") != 0);
	bl_documents_free(d);
	bl_documents_free(NULL);
}

static void test_diagnostics(void)
{
	/* dd's count=2000 beside 1024 records: a diagnostic with its line */
	static const char bad[] =
		"$ dd if=/dev/zero of=/x bs=1m count=2000\n"
		"1024+0 records in\n1024+0 records out\n"
		"1073741824 bytes transferred in 10.0 secs (107374182 bytes/sec)\n";
	struct bl_documents *d = bl_documents_read(bad, sizeof bad - 1, NULL);
	struct bl_diagnostic g;
	bool found = false;
	for (size_t i = 0; bl_documents_diagnostic(d, 0, i, &g); i++)
		found |= g.line > 0 && g.level && g.code && g.message &&
			 strncmp(g.code, "dd.", 3) == 0;
	CHECK(found);
	CHECK(bl_documents_diagnostics(d, 0) > 0);
	CHECK(!bl_documents_diagnostic(d, 0, 99, &g));
	bl_documents_free(d);
}

static void test_file(void)
{
	errno = 0;
	CHECK(bl_documents_read_file("/nonexistent/post.txt") == NULL && errno == ENOENT);
	struct bl_documents *d = bl_documents_read_file("corpus/dd/bsd-freebsd-ibs-obs/input");
	CHECK(d && bl_documents_count(d) == 1 && bl_documents_runs(d, 0) == 4);
	bl_documents_free(d);
	/* nothing in it: one document without runs */
	d = bl_documents_read("", 0, "empty");
	CHECK(d && bl_documents_count(d) == 1 && bl_documents_runs(d, 0) == 0);
	bl_documents_free(d);
}

int main(void)
{
	test_read();
	test_diagnostics();
	test_file();
	return CHECK_DONE();
}
