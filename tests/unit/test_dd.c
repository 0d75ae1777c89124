/* test_dd.c - dd command lines and consistency checks, through the public
 * API: parse a small text, inspect the document. */
#include <stdlib.h>
#include <string.h>

#include "../../parsers/benchlog.h"
#include "check.h"

/* The document of one text (new reference), or NULL. */
static json_t *parse(const char *text)
{
	struct bl_message m;
	if (bl_message_from_text(&m, text, strlen(text), 0, 1) < 0)
		return NULL;
	json_t *doc = bl_parse_message(&m, "test");
	bl_message_free(&m);
	return doc;
}

/* A dd run under `cmd`: one 512-byte record, BSD summary. */
static json_t *parse_cmd(const char *cmd)
{
	char buf[1024];
	snprintf(buf, sizeof buf,
		 "%s\n1+0 records in\n1+0 records out\n"
		 "512 bytes transferred in 0.000100 secs (5120000 bytes/sec)\n",
		 cmd);
	return parse(buf);
}

static json_t *run0(json_t *doc)
{
	return json_array_get(json_object_get(doc, "runs"), 0);
}

static size_t nruns(json_t *doc)
{
	return json_array_size(json_object_get(doc, "runs"));
}

static long long param_int(json_t *doc, const char *key)
{
	json_t *v = json_object_get(json_object_get(run0(doc), "params"), key);
	return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

static const char *param_str(json_t *doc, const char *key)
{
	return json_string_value(json_object_get(json_object_get(run0(doc), "params"), key));
}

static const char *command(json_t *doc)
{
	return json_string_value(json_object_get(run0(doc), "command"));
}

static bool has_param(json_t *doc, const char *key)
{
	return json_object_get(json_object_get(run0(doc), "params"), key) != NULL;
}

static int ndiag(json_t *doc, const char *code)
{
	int n = 0;
	size_t i;
	json_t *d;
	json_array_foreach(json_object_get(doc, "diagnostics"), i,
			   d) if (strcmp(json_string_value(json_object_get(d, "code")), code) == 0)
		n++;
	return n;
}

static void test_operands(void)
{
	json_t *d = parse_cmd("$ dd if=/dev/ada0 of=/tmp/out bs=1m count=2000 conv=sync,noerror "
			      "iflag=direct oflag=dsync status=progress skip=3 seek=4 cbs=80");
	CHECK(d && nruns(d) == 1);
	CHECK(command(d) && strncmp(command(d), "dd if=/dev/ada0", 15) == 0);
	CHECK(param_str(d, "input") && strcmp(param_str(d, "input"), "/dev/ada0") == 0);
	CHECK(param_str(d, "output") && strcmp(param_str(d, "output"), "/tmp/out") == 0);
	CHECK(param_int(d, "block_size") == 1048576);
	CHECK(param_int(d, "count") == 2000);
	CHECK(param_int(d, "skip") == 3);
	CHECK(param_int(d, "seek") == 4);
	CHECK(param_int(d, "conversion_block_size") == 80);
	CHECK(param_str(d, "conv") && strcmp(param_str(d, "conv"), "sync,noerror") == 0);
	CHECK(param_str(d, "iflag") && strcmp(param_str(d, "iflag"), "direct") == 0);
	CHECK(param_str(d, "oflag") && strcmp(param_str(d, "oflag"), "dsync") == 0);
	CHECK(param_str(d, "status") && strcmp(param_str(d, "status"), "progress") == 0);
	json_decref(d);

	/* GNU's synonyms iseek= and oseek= */
	d = parse_cmd("$ dd if=a of=b iseek=7 oseek=9");
	CHECK(param_int(d, "skip") == 7 && param_int(d, "seek") == 9);
	json_decref(d);

	/* a word without '=' is not an operand */
	d = parse_cmd("$ dd if=a of=b --verbose bs=512");
	CHECK(param_int(d, "block_size") == 512);
	json_decref(d);
}

static void test_sizes(void)
{
	static const struct {
		const char *cmd;
		const char *key;
		long long want;
	} cases[] = {
		{"$ dd if=a of=b bs=1m", "block_size", 1048576},
		{"$ dd if=a of=b bs=1M", "block_size", 1048576},
		{"$ dd if=a of=b bs=64k", "block_size", 65536},
		{"$ dd if=a of=b ibs=64k count=32k", "count", 32768},
		{"$ dd if=a of=b ibs=64k count=32k", "input_block_size", 65536},
		{"$ dd if=a of=b obs=32k", "output_block_size", 32768},
		{"$ dd if=a of=b bs=2x512", "block_size", 1024},
		{"$ dd if=a of=b bs=1MB", "block_size", 1000000},
		{"$ dd if=a of=b bs=1KiB", "block_size", 1024},
		{"$ dd if=a of=b bs=4b", "block_size", 2048},
		{"$ dd if=a of=b count=8k", "count", 8192},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *d = parse_cmd(cases[i].cmd);
		long long got = param_int(d, cases[i].key);
		if (got != cases[i].want)
			printf("  %s: %s = %lld, want %lld\n", cases[i].cmd, cases[i].key, got,
			       cases[i].want);
		CHECK(got == cases[i].want);
		json_decref(d);
	}

	/* a size that cannot be read: no param, a warning, and no default
	 * block size guessed for the bytes check */
	json_t *d = parse_cmd("$ dd if=a of=b bs=12q count=1");
	CHECK(!has_param(d, "block_size"));
	CHECK(ndiag(d, "dd.bad-operand") == 1);
	CHECK(ndiag(d, "dd.bytes-mismatch") == 0);
	json_decref(d);
}

static void test_quotes(void)
{
	json_t *d = parse_cmd("$ dd if=\"/dev/zero\" of='/tmp/out file' bs=1k");
	/* a blank inside quotes is part of the value */
	CHECK(param_str(d, "input") && strcmp(param_str(d, "input"), "/dev/zero") == 0);
	CHECK(param_str(d, "output") && strcmp(param_str(d, "output"), "/tmp/out file") == 0);
	CHECK(param_int(d, "block_size") == 1024);
	json_decref(d);

	d = parse_cmd("$ dd if='/dev/zero' of=\"/tmp/q\"");
	CHECK(param_str(d, "input") && strcmp(param_str(d, "input"), "/dev/zero") == 0);
	CHECK(param_str(d, "output") && strcmp(param_str(d, "output"), "/tmp/q") == 0);
	json_decref(d);
}

static void test_shell_operators(void)
{
	/* the operands end at a pipe */
	json_t *d = parse_cmd("$ dd if=/dev/zero bs=1M count=8 | gzip > z.gz count=99");
	CHECK(param_int(d, "count") == 8);
	CHECK(!has_param(d, "output"));
	json_decref(d);

	/* ... at a redirection of stderr */
	d = parse_cmd("$ dd if=/dev/zero of=/tmp/f bs=1M count=4 2>&1 count=9");
	CHECK(param_int(d, "count") == 4);
	json_decref(d);
	d = parse_cmd("$ dd if=/dev/zero of=/tmp/f bs=1M count=4 2> log count=9");
	CHECK(param_int(d, "count") == 4);
	json_decref(d);

	/* ... at a list separator and at a background '&' */
	d = parse_cmd("$ dd if=a of=b bs=1k count=1 ; sync count=5");
	CHECK(param_int(d, "count") == 1);
	json_decref(d);
	d = parse_cmd("$ dd if=a of=b bs=1k count=1 & count=5");
	CHECK(param_int(d, "count") == 1);
	json_decref(d);

	/* dd later in a pipeline or a list: the command starts at dd */
	d = parse_cmd("$ head -c 512 /dev/zero | dd bs=1M of=/tmp/x/g");
	CHECK(command(d) && strcmp(command(d), "dd bs=1M of=/tmp/x/g") == 0);
	CHECK(param_int(d, "block_size") == 1048576);
	json_decref(d);
	d = parse_cmd(
		"$ sync; echo 3 > /proc/sys/vm/drop_caches; dd bs=1M if=/tmp/x/f of=/dev/null");
	CHECK(command(d) && strcmp(command(d), "dd bs=1M if=/tmp/x/f of=/dev/null") == 0);
	json_decref(d);
}

static void test_continued(void)
{
	/* a command continued with backslashes is read as one line */
	json_t *d = parse_cmd("% sudo dd \\\n    if=a \\\n    of=b \\\n    bs=64k");
	CHECK(command(d) && strcmp(command(d), "dd if=a of=b bs=64k") == 0);
	CHECK(param_int(d, "block_size") == 65536);
	json_decref(d);
}

static void test_wrapped(void)
{
	/* a mail client wrapped the command: its operands on the next line */
	json_t *d = parse_cmd("[root@host ~]# dd if=/dev/urandom of=/mnt/t\nbs=1M count=1");
	CHECK(command(d) && strcmp(command(d), "dd if=/dev/urandom of=/mnt/t bs=1M count=1") == 0);
	CHECK(param_int(d, "block_size") == 1048576);
	json_decref(d);
	/* output that is not operands is not joined */
	d = parse_cmd("$ dd if=a of=b bs=1k\nPassword:");
	CHECK(command(d) && strcmp(command(d), "dd if=a of=b bs=1k") == 0);
	json_decref(d);
}

static void test_prompts(void)
{
	static const char *const cmds[] = {
		"root@bsd:~ # dd if=a of=b bs=1k",
		"[root@freebsd:~]$ dd if=a of=b bs=1k",
		"srebrny# dd if=a of=b bs=1k",
		"user@host:~$ sudo dd if=a of=b bs=1k",
		"% dd if=a of=b bs=1k",
		"dd if=a of=b bs=1k",
		"tankywoo@gentoo-local ~ % sudo dd if=a of=b bs=1k",
		"$ sync; dd if=a of=b bs=1k; sync",
		"$ dd if=a of=b bs=1k && ls -l b",
	};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		json_t *d = parse_cmd(cmds[i]);
		bool ok = command(d) && strcmp(command(d), "dd if=a of=b bs=1k") == 0;
		if (!ok)
			printf("  prompt not read: %s\n", cmds[i]);
		CHECK(ok);
		json_decref(d);
	}
	/* under time the run is marked timed: its report attaches to it */
	json_t *d = parse("% time dd if=a of=b bs=512 count=1\n1+0 records in\n1+0 records out\n"
			  "512 bytes transferred in 0.000100 secs (5120000 bytes/sec)\n"
			  "0.000u 0.001s 0:00.00 0.0% 0+0k 0+1io 0pf+0w\n");
	CHECK(nruns(d) == 1);
	CHECK(json_object_get(run0(d), "time") != NULL);
	json_decref(d);
	/* a time report with no timed command above is a run of its own */
	d = parse("% dd if=a of=b bs=512 count=1\n1+0 records in\n1+0 records out\n"
		  "512 bytes transferred in 0.000100 secs (5120000 bytes/sec)\n"
		  "0.000u 0.001s 0:00.00 0.0% 0+0k 0+1io 0pf+0w\n");
	CHECK(nruns(d) == 2);
	CHECK(json_object_get(run0(d), "time") == NULL);
	json_decref(d);
}

static void test_consistency(void)
{
	/* ibs alone: records out are counted in 512-byte blocks */
	json_t *d = parse("$ dd if=/dev/zero of=x ibs=64k count=32k\n32768+0 records in\n"
			  "4194304+0 records out\n2147483648 bytes transferred in 48.094857 secs "
			  "(44651004 bytes/sec)\n");
	CHECK(nruns(d) == 1 && ndiag(d, "dd.bytes-mismatch") == 0 &&
	      ndiag(d, "dd.count-mismatch") == 0 && ndiag(d, "dd.rate-mismatch") == 0);
	json_decref(d);

	/* bs overrides ibs and obs, whatever the order */
	d = parse("$ dd if=a of=b obs=4k ibs=4k bs=1m count=2\n2+0 records in\n2+0 records out\n"
		  "2097152 bytes transferred in 1.000000 secs (2097152 bytes/sec)\n");
	CHECK(ndiag(d, "dd.bytes-mismatch") == 0);
	json_decref(d);

	/* obs alone: 64k output records */
	d = parse("$ dd if=a of=b obs=64k count=2048\n2048+0 records in\n16+0 records out\n"
		  "1048576 bytes transferred in 1.000000 secs (1048576 bytes/sec)\n");
	CHECK(ndiag(d, "dd.bytes-mismatch") == 0);
	json_decref(d);

	/* partial output records: bytes strictly between the bounds */
	d = parse("$ dd bs=1M of=/tmp/g\n2+1 records in\n2+1 records out\n"
		  "3000000 bytes (3.0 MB, 2.9 MiB) copied, 0.0033221 s, 903 MB/s\n");
	CHECK(ndiag(d, "dd.bytes-mismatch") == 0);
	json_decref(d);
	d = parse("$ dd bs=1M of=/tmp/g\n2+1 records in\n2+1 records out\n"
		  "2097152 bytes (2.1 MB, 2.0 MiB) copied, 0.0033221 s, 631 MB/s\n");
	CHECK(ndiag(d, "dd.bytes-mismatch") == 1);
	json_decref(d);

	/* count= against the records read */
	d = parse("# dd if=/dev/zero of=/tank/test bs=1m count=2000\n1024+0 records in\n"
		  "1024+0 records out\n1073741824 bytes transferred in 9.874161 secs "
		  "(108742588 bytes/sec)\n");
	CHECK(ndiag(d, "dd.count-mismatch") == 1);
	json_decref(d);

	/* iflag=count_bytes: count is in bytes */
	d = parse("$ dd if=/dev/zero of=x bs=4k count=1000 iflag=count_bytes\n0+1 records in\n"
		  "0+1 records out\n1000 bytes (1.0 kB) copied, 9.9428e-05 s, 10.1 MB/s\n");
	CHECK(ndiag(d, "dd.count-mismatch") == 0);
	json_decref(d);

	/* an error explains a short count */
	d = parse(
		"$ dd if=/dev/zero of=/tmp/x/small/f bs=1M count=16\n"
		"dd: error writing '/tmp/x/small/f': No space left on device\n5+0 records in\n"
		"4+0 records out\n4194304 bytes (4.2 MB, 4.0 MiB) copied, 0.00356296 s, 1.2 GB/s\n");
	CHECK(ndiag(d, "dd.count-mismatch") == 0 && ndiag(d, "dd.error") == 1);
	CHECK(param_str(d, "error") != NULL);
	json_decref(d);

	/* the printed rate against bytes over seconds: GNU rounds to what it
	 * shows, so 4.4 GB/s for 4.36e9 is fine and 44 GB/s is not */
	d = parse("$ dd bs=1M count=64 if=/dev/zero of=f\n64+0 records in\n64+0 records out\n"
		  "67108864 bytes (67 MB, 64 MiB) copied, 0.0153913 s, 4.4 GB/s\n");
	CHECK(ndiag(d, "dd.rate-mismatch") == 0);
	json_decref(d);
	d = parse("$ dd bs=1M count=64 if=/dev/zero of=f\n64+0 records in\n64+0 records out\n"
		  "67108864 bytes (67 MB, 64 MiB) copied, 0.0153913 s, 44 GB/s\n");
	CHECK(ndiag(d, "dd.rate-mismatch") == 1);
	json_decref(d);
}

static void test_not_dd(void)
{
	json_t *d = parse("2+2 words\n3+1 more words\n");
	CHECK(d && nruns(d) == 0);
	json_decref(d);
	d = parse("We saw 10+0 records in the log, and the bytes transferred in 2 s.\n");
	CHECK(d && nruns(d) == 0);
	json_decref(d);
	/* translated records with no summary need a dd command above them */
	d = parse("5+0 foo bar\n5+0 foo baz\n");
	CHECK(d && nruns(d) == 0);
	json_decref(d);
	d = parse(
		"$ dd if=a of=b bs=1k count=5 status=noxfer\n5+0 Datensätze ein\n5+0 Datensätze aus\n");
	CHECK(d && nruns(d) == 1);
	json_decref(d);
}

int main(void)
{
	test_operands();
	test_sizes();
	test_quotes();
	test_shell_operators();
	test_prompts();
	test_continued();
	test_wrapped();
	test_consistency();
	test_not_dd();
	bl_cleanup();
	return CHECK_DONE();
}
