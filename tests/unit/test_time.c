/* test_time.c - time reports: variants, values and which run they attach
 * to, through the public API. */
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

static json_t *run(json_t *doc, size_t i)
{
	return json_array_get(json_object_get(doc, "runs"), i);
}

static size_t nruns(json_t *doc)
{
	return json_array_size(json_object_get(doc, "runs"));
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : -1;
}

static bool is(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

#define BSD_DD                                                                                     \
	"1+0 records in\n1+0 records out\n512 bytes transferred in 0.000100 secs (5120000 bytes/sec)\n"

static void test_attach(void)
{
	/* csh after "time dd": one run, with its time */
	json_t *d = parse("% time dd if=a of=b bs=512 count=1\n" BSD_DD
			  "0.068u 10.386s 1:32.46 11.2% 26+1497k 63+16066io 0pf+0w\n");
	json_t *t = json_object_get(run(d, 0), "time");
	CHECK(nruns(d) == 1 && is(str(t, "variant"), "csh"));
	CHECK_NEAR(num(t, "real"), 92.46, 1e-9);
	CHECK_NEAR(num(t, "user"), 0.068, 1e-9);
	CHECK_NEAR(num(t, "system"), 10.386, 1e-9);
	CHECK_NEAR(num(t, "cpu_percent"), 11.2, 1e-9);
	json_decref(d);

	/* bash, blank line before real */
	d = parse("$ time dd if=a of=b bs=512 count=1\n" BSD_DD
		  "\nreal\t4m37.724s\nuser\t0m1.597s\nsys\t0m10.720s\n");
	t = json_object_get(run(d, 0), "time");
	CHECK(nruns(d) == 1 && is(str(t, "variant"), "bash"));
	CHECK_NEAR(num(t, "real"), 277.724, 1e-9);
	json_decref(d);

	/* zsh names the command: attached when it is the run's command ... */
	d = parse("% time dd if=a of=b bs=512 count=1\n" BSD_DD
		  "dd if=a of=b bs=512 count=1  0.00s user 0.21s system 95% cpu 0.220 total\n");
	CHECK(nruns(d) == 1 && is(str(json_object_get(run(d, 0), "time"), "variant"), "zsh"));
	json_decref(d);
	/* ... and a run of its own otherwise, with the command it names */
	d = parse("% time dd if=a of=b bs=512 count=1\n" BSD_DD
		  "dd if=a of=c bs=512 count=1  0.00s user 0.21s system 95% cpu 0.220 total\n");
	CHECK(nruns(d) == 2 && json_object_get(run(d, 0), "time") == NULL);
	CHECK(is(str(run(d, 1), "tool"), "time") &&
	      is(str(run(d, 1), "command"), "dd if=a of=c bs=512 count=1"));
	json_decref(d);

	/* GNU time after a failed dd: the status line belongs to the report */
	d = parse(
		"$ /usr/bin/time dd if=/dev/zero of=/dev/full bs=1M count=4\n"
		"dd: error writing '/dev/full': No space left on device\n1+0 records in\n0+0 records out\n"
		"0 bytes copied, 0.000897674 s, 0.0 kB/s\nCommand exited with non-zero status 1\n"
		"0.00user 0.00system 0:00.00elapsed 100%CPU (0avgtext+0avgdata 2772maxresident)k\n"
		"0inputs+0outputs (0major+358minor)pagefaults 0swaps\n");
	t = json_object_get(run(d, 0), "time");
	CHECK(nruns(d) == 1 && is(str(t, "variant"), "gnu"));
	CHECK(num(json_object_get(t, "extra"), "exit_status") == 1);
	CHECK(num(json_object_get(t, "extra"), "maxresident_kb") == 2772);
	json_decref(d);

	/* an untimed dd does not take the report of the next command */
	d = parse("# dd if=a of=b bs=512 count=1\n" BSD_DD
		  "# time sync\n0.000u 0.004s 0:00.91 0.0% 0+0k 0+12io 0pf+0w\n");
	CHECK(nruns(d) == 2 && json_object_get(run(d, 0), "time") == NULL);
	CHECK(is(str(run(d, 1), "command"), "sync"));
	json_decref(d);
}

static void test_own_runs(void)
{
	/* a command no parser knows */
	json_t *d = parse(
		"[root@freebsd:/ufs]$ time rm -R ports\n\nreal\t3m51.020s\nuser\t0m0.341s\nsys\t0m6.590s\n");
	CHECK(nruns(d) == 1 && is(str(run(d, 0), "tool"), "time"));
	CHECK(is(str(run(d, 0), "command"), "rm -R ports"));
	json_decref(d);

	/* no command at all */
	d = parse("Just the numbers:\n\nreal\t0m42.318s\nuser\t0m0.112s\nsys\t0m6.004s\n");
	CHECK(nruns(d) == 1 && json_is_null(json_object_get(run(d, 0), "command")));
	json_decref(d);
}

static void test_variants(void)
{
	static const struct {
		const char *text;
		const char *variant;
		double real;
	} cases[] = {
		{"real 1.23\nuser 0.00\nsys 0.01\n", "posix", 1.23},
		{"\nreal\t0m09.14s\nuser\t0m00.00s\nsys\t0m01.37s\n", "ksh", 9.14},
		{"    0m18.40s real     0m00.00s user     0m02.85s system\n", "ksh", 18.4},
		{"        7.42 real         0.00 user         0.41 sys\n", "bsd", 7.42},
		{"0.00user 0.01system 0:00.01elapsed 83%CPU (0avgtext+0avgdata 2772maxresident)k\n"
		 "0inputs+65536outputs (0major+358minor)pagefaults 0swaps\n",
		 "gnu", 0.01},
		{"make -j8 buildworld  8423.61s user 902.13s system 731% cpu 21:14.92 total\n",
		 "zsh", 1274.92},
		{"0.822u 14.607s 1:02:03 0.4% 41+2148k 12+93407io 2pf+0w\n", "csh", 3723},
		{"0.0u 2.3s 0:41 5% 0+0k 0+0io 0pf+0w\n", "csh", 41},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *d = parse(cases[i].text);
		json_t *t = json_object_get(run(d, 0), "time");
		bool ok = nruns(d) == 1 && is(str(t, "variant"), cases[i].variant) &&
			  fabs(num(t, "real") - cases[i].real) < 1e-9;
		if (!ok)
			printf("  case %zu: %zu runs, variant %s, real %g\n", i, nruns(d),
			       str(t, "variant") ? str(t, "variant") : "(none)", num(t, "real"));
		CHECK(ok);
		json_decref(d);
	}

	/* GNU -v: every line read, elapsed included */
	json_t *d = parse("\tCommand being timed: \"sleep 1\"\n\tUser time (seconds): 0.00\n"
			  "\tSystem time (seconds): 0.01\n\tPercent of CPU this job got: 84%\n"
			  "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:01.01\n"
			  "\tMaximum resident set size (kbytes): 2804\n\tExit status: 0\n");
	json_t *t = json_object_get(run(d, 0), "time");
	CHECK(nruns(d) == 1 && is(str(t, "variant"), "gnu-verbose"));
	CHECK_NEAR(num(t, "real"), 1.01, 1e-9);
	CHECK(num(json_object_get(t, "extra"), "maximum_resident_set_size_kbytes") == 2804);
	CHECK(num(json_object_get(t, "extra"), "exit_status") == 0);
	CHECK(is(str(run(d, 0), "command"), "sleep 1"));
	json_decref(d);
}

static void test_real_shapes(void)
{
	/* time after a prompt the shell reads as a command */
	json_t *d = parse(
		": || nomad@omics1 fs2test ; time cp -rp a b\n\nreal\t22m27.225s\nuser\t0m0.188s\nsys\t0m29.880s\n");
	CHECK(nruns(d) == 1 && is(str(run(d, 0), "command"), "cp -rp a b"));
	json_decref(d);
	/* /usr/bin/time -l as the last stage of a pipeline */
	d = parse("％ echo x | cat - f | /usr/bin/time -l nc localhost 53561\n"
		  "        0.14 real         0.00 user         0.00 sys\n");
	CHECK(nruns(d) == 1 && is(str(run(d, 0), "command"), "nc localhost 53561"));
	json_decref(d);
	/* zsh padded, with the author's caption in place of the job name */
	d = parse(
		"readStream, no parsing:  0.45s user  0.99s system 124% cpu  1.164 total (idle reference)\n");
	CHECK(nruns(d) == 1 && is(str(run(d, 0), "label"), "readStream, no parsing"));
	CHECK(json_is_null(json_object_get(run(d, 0), "command")));
	CHECK_NEAR(num(json_object_get(run(d, 0), "time"), "real"), 1.164, 1e-9);
	json_decref(d);
	/* tcsh's tab after the percent, pasted as blanks */
	d = parse("time cp a b\n0.032u 11.308s 0:17.56 64.5%    0+0k 0+0io 0pf+0w\n");
	CHECK(nruns(d) == 1 && is(str(run(d, 0), "command"), "cp a b"));
	json_decref(d);
	/* another program's own "real ... user ... sys" line is no report */
	d = parse("97800 records/s\nreal 10.00 s user  0.25 s sys  13.54 s\n");
	CHECK(nruns(d) == 0);
	json_decref(d);
}

int main(void)
{
	test_attach();
	test_real_shapes();
	test_own_runs();
	test_variants();
	bl_cleanup();
	return CHECK_DONE();
}
