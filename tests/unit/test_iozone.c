/* test_iozone.c - the iozone parser (parsers/iozone*.c) on small inputs:
 * cell placement by column edge, cells that ran together, the command
 * line, the report checked against a table, notes between rows, units. */
#include <string.h>

#include "../../parsers/benchlog.h"
#include "check.h"

static json_t *parse(const char *text)
{
	struct bl_message m;
	if (bl_message_from_text(&m, text, strlen(text), 0, 1) < 0)
		return NULL;
	json_t *doc = bl_parse_message(&m, "test");
	bl_message_free(&m);
	return doc;
}

static size_t nruns(json_t *doc)
{
	return json_array_size(json_object_get(doc, "runs"));
}

static json_t *run(json_t *doc, size_t i)
{
	return json_array_get(json_object_get(doc, "runs"), i);
}

/* The result of run i with this metric (and scope, sizes when given). */
static json_t *find(json_t *doc, size_t i, const char *metric, const char *scope, long long fsize,
		    long long rsize)
{
	size_t k;
	json_t *r;
	json_array_foreach(json_object_get(run(doc, i), "results"), k, r)
	{
		if (strcmp(json_string_value(json_object_get(r, "metric")), metric) != 0)
			continue;
		json_t *s = json_object_get(r, "scope");
		if (scope && (!s || strcmp(json_string_value(s), scope) != 0))
			continue;
		if (fsize >= 0 && json_integer_value(json_object_get(r, "file_size")) != fsize)
			continue;
		if (rsize >= 0 && json_integer_value(json_object_get(r, "record_size")) != rsize)
			continue;
		return r;
	}
	return NULL;
}

static double value(json_t *r)
{
	return r ? json_number_value(json_object_get(r, "value")) : -1;
}

static const char *unit(json_t *r)
{
	return r ? json_string_value(json_object_get(r, "unit")) : "";
}

static int diags(json_t *doc, const char *code)
{
	int n = 0;
	size_t k;
	json_t *d;
	json_array_foreach(json_object_get(doc, "diagnostics"), k, d) n +=
		strcmp(json_string_value(json_object_get(d, "code")), code) == 0;
	return n;
}

#define H1                                                                                         \
	"                                                              random    random     bkwd    record    stride                                    \n"
#define H2                                                                                         \
	"              kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread\n"

/* -i 0 -i 2: read and reread are blank; random read goes to its column,
 * not to "read" as counting tokens would have it */
static void test_blank_middle(void)
{
	json_t *doc = parse(
		H1 H2
		"           16384       4   573741   645072                     677116   765470                                                                \n");
	CHECK(nruns(doc) == 1);
	CHECK(value(find(doc, 0, "random_read", NULL, 16777216, 4096)) == 677116.0 * 1024);
	CHECK(value(find(doc, 0, "random_write", NULL, 16777216, 4096)) == 765470.0 * 1024);
	CHECK(find(doc, 0, "read", NULL, -1, -1) == NULL);
	CHECK(json_array_size(json_object_get(run(doc, 0), "results")) == 4);
	json_decref(doc);
}

/* a 9-digit rewrite fills its %9 cell and touches the write before it */
static void test_overflow(void)
{
	json_t *doc = parse(H1 H2 "            4096      64  2884558123456789  9419791  9105266\n");
	CHECK(diags(doc, "iozone.cell-overflow") == 1);
	CHECK(find(doc, 0, "rewrite", NULL, -1, -1) == NULL);
	CHECK(value(find(doc, 0, "read", NULL, -1, -1)) == 9419791.0 * 1024);
	json_decref(doc);
}

static void test_command(void)
{
	json_t *doc =
		parse("$ iozone -Rab out.xls -i0 -i 1 -s4g -r 128k -t 3 -T -F /a /b /c -+u\n"
		      "\tThroughput test with 3 threads\n"
		      "\tChildren see throughput for  3 initial writers \t= 4540367.50 kB/sec\n"
		      "\tMin xfer \t\t\t\t\t=    3968.00 kB\n");
	json_t *p = json_object_get(run(doc, 0), "params");
	CHECK(json_is_true(json_object_get(p, "excel_report")));
	CHECK(json_is_true(json_object_get(p, "auto_mode")));
	CHECK(strcmp(json_string_value(json_object_get(p, "excel_file")), "out.xls") == 0);
	CHECK(json_array_size(json_object_get(p, "tests")) == 2);
	CHECK(json_integer_value(json_object_get(p, "file_size")) == 4294967296LL);
	CHECK(json_integer_value(json_object_get(p, "record_size")) == 131072);
	CHECK(json_integer_value(json_object_get(p, "threads")) == 3);
	CHECK(json_array_size(json_object_get(p, "files")) == 3);
	CHECK(json_is_true(json_object_get(p, "cpu_utilization")));
	json_t *r = find(doc, 0, "initial_writers", "children", -1, -1);
	CHECK(value(r) == 4540367.50 * 1024);
	CHECK(json_integer_value(json_object_get(r, "threads")) == 3);
	CHECK(value(find(doc, 0, "initial_writers", "min_xfer", -1, -1)) == 3968.0 * 1024);
	CHECK(strcmp(unit(find(doc, 0, "initial_writers", "min_xfer", -1, -1)), "B") == 0);
	json_decref(doc);
}

/* iozone -a skips small records of big files; the report then prints the
 * row's values from the left, under the wrong record sizes. With the table
 * at hand the values pair with its rows in order, and agree. */
static void test_report_crossover(void)
{
	json_t *doc = parse(
		H1 H2 "           65536      64  3345496 12639479\n"
		      "           65536     128  3794792 15977962\n"
		      "\niozone test complete.\nExcel output is below:\n\n"
		      "\"Writer report\"\n        \"4\"  \"8\"  \"16\"  \"32\"  \"64\"  \"128\"\n"
		      "\"65536\"   3345496  3794792 \n");
	CHECK(nruns(doc) == 1);
	CHECK(diags(doc, "iozone.report-mismatch") == 0);
	CHECK(diags(doc, "iozone.report-only") == 0);
	CHECK(json_array_size(json_object_get(run(doc, 0), "results")) == 4);
	json_decref(doc);
}

/* iozone's note between two rows does not end the table */
static void test_interjection(void)
{
	json_t *doc = parse(H1 H2 "              64       4   973296  2295784\n"
				  "\nThe test completed too quickly to give a good result\n"
				  "You will get a more precise measure of this machine's\n"
				  "performance by re-running iozone using the command:\n\n"
				  "\tiozone 2048 \t(i.e., file size = 2048 kilobytes64)\n"
				  "              64       8  1532928  4321737\n");
	CHECK(value(find(doc, 0, "write", NULL, 65536, 8192)) == 1532928.0 * 1024);
	CHECK(diags(doc, "iozone.interjection") == 1);
	json_decref(doc);
}

static void test_units(void)
{
	json_t *doc =
		parse("\tIozone: Performance Test of File I/O\n"
		      "\tMicroseconds/op Mode. Output is in microseconds per operation.\n" H1 H2
		      "            4096      64       12       10\n");
	json_t *r = find(doc, 0, "write", NULL, -1, -1);
	CHECK(strcmp(unit(r), "s") == 0);
	CHECK_NEAR(value(r), 12e-6, 1e-12);
	json_decref(doc);
	doc = parse("$ iozone -O -t 2 -i 0\n"
		    "\tChildren see throughput for  2 initial writers \t=   12345.67 ops/sec\n"
		    "\tMin xfer \t\t\t\t\t=     256.00 ops\n");
	CHECK(strcmp(unit(find(doc, 0, "initial_writers", "children", -1, -1)), "ops/s") == 0);
	CHECK(value(find(doc, 0, "initial_writers", "children", -1, -1)) == 12345.67);
	CHECK(strcmp(unit(find(doc, 0, "initial_writers", "min_xfer", -1, -1)), "ops") == 0);
	json_decref(doc);
}

/* not mine, malformed, partial */
static void test_outcomes(void)
{
	json_t *doc = parse("kB  reclen  write are the columns I looked at.\n");
	CHECK(nruns(doc) == 0);
	CHECK(json_array_size(json_object_get(doc, "diagnostics")) == 0);
	json_decref(doc);
	doc = parse(
		"\tIozone: Performance Test of File I/O\n\t        Version $Revision: 3.489 $\n\n(then it crashed)\n");
	CHECK(nruns(doc) == 0);
	CHECK(diags(doc, "iozone.no-results") == 1);
	json_decref(doc);
	doc = parse(H1 H2 "            1024       4   973296  2295784  4317393  3483896\n"
			  "            1024       8  1532928  4321737  86\n");
	CHECK(nruns(doc) == 1);
	CHECK(diags(doc, "iozone.table-cut") == 1);
	CHECK(json_is_true(json_object_get(doc, "partial")));
	CHECK(find(doc, 0, "write", NULL, 1048576, 8192) == NULL);
	CHECK(value(find(doc, 0, "reread", NULL, 1048576, 4096)) == 3483896.0 * 1024);
	json_decref(doc);
	/* a banner right after a banner: the first run printed nothing */
	doc = parse(
		"\tIozone: Performance Test of File I/O\n\t        Version $Revision: 3.489 $\n\n"
		"\tIozone: Performance Test of File I/O\n\t        Version $Revision: 3.465 $\n" H1
			H2 "              64       4   973296  2295784\n");
	CHECK(nruns(doc) == 1);
	CHECK(diags(doc, "iozone.no-results") == 1);
	CHECK(strcmp(json_string_value(
			     json_object_get(json_object_get(run(doc, 0), "params"), "version")),
		     "3.465") == 0);
	json_decref(doc);
	/* cut inside its last cell: "42" of "4211" still stands near reread */
	doc = parse(H1 H2 "            1024       4   973296  2295784  4317393  3483896\n"
			  "            1024       8  1532928  4321737  8610501  42\n");
	CHECK(diags(doc, "iozone.table-cut") == 1);
	CHECK(find(doc, 0, "reread", NULL, 1048576, 8192) == NULL);
	CHECK(json_array_size(json_object_get(run(doc, 0), "results")) == 4);
	json_decref(doc);
}

int main(void)
{
	test_blank_middle();
	test_overflow();
	test_command();
	test_report_crossover();
	test_interjection();
	test_units();
	test_outcomes();
	bl_cleanup();
	return CHECK_DONE();
}
