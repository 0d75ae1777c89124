/* test_replay_plan.c - replay plan building: the tokenizer, re-rooting,
 * device detection, translation, scaling, and the plans of each tool
 * (replay/words.c, plan*.c, translate.c, scale.c, compare.c). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../replay/internal.h"
#include "check.h"

#define SCRATCH "/scratch/x"

static int split(const char *cmd, struct bl_words *w)
{
	char why[200];
	return bl_words_split(cmd, w, why, sizeof why);
}

static void test_words(void)
{
	struct bl_words w;
	CHECK(split("dd if=/dev/zero of=/data01/test01 bs=1m count=2000", &w) == 0);
	CHECK(w.n == 5 && strcmp(w.v[0], "dd") == 0 && strcmp(w.v[4], "count=2000") == 0 &&
	      w.v[5] == NULL);
	bl_words_free(&w);
	CHECK(split("dd if='/tmp/a b' of=\"x y\"  2>&1", &w) == 0);
	CHECK(w.n == 3 && strcmp(w.v[1], "if=/tmp/a b") == 0 && strcmp(w.v[2], "of=x y") == 0);
	bl_words_free(&w);
	/* everything a shell would interpret is refused */
	const char *bad[] = {
		"dd if=/dev/zero of=x; rm -rf /",
		"dd if=/dev/zero bs=1m | tail -1",
		"dd of=$(mktemp)",
		"dd of=`id`",
		"dd of=$HOME/x",
		"dd if=x > /dev/sda",
		"dd if=x < y",
		"dd of=*.img",
		"(cd /; dd if=x)",
		"dd of=~/x",
		"dd if=x && reboot",
		"dd if=x & disown",
		"dd of=\"$(id)\"",
		"dd of=\"`id`\"",
		"dd of='unbalanced",
		"dd if=x\nreboot",
		"dd if=x 2>/dev/null",
		"dd if=x # comment",
		"dd of=a\\;b",
		"dd if=x 1>&2",
		"",
		"   ",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int r = split(bad[i], &w);
		CHECK(r == -1);
		if (r == 0) {
			printf("  accepted: %s\n", bad[i]);
			bl_words_free(&w);
		}
	}
	char why[200];
	CHECK(bl_words_split("dd if=x | sh", &w, why, sizeof why) == -1 && strstr(why, "'|'"));
	/* single quotes keep $ literally: no expansion is ever done */
	CHECK(split("dd of='$HOME'", &w) == 0 && strcmp(w.v[1], "of=$HOME") == 0);
	bl_words_free(&w);
}

static void test_reroot(void)
{
	char *r;
	CHECK((r = bl_reroot(SCRATCH, "/data01/test01")) &&
	      strcmp(r, SCRATCH "/fs/data01/test01") == 0);
	free(r);
	CHECK((r = bl_reroot(SCRATCH, "test")) && strcmp(r, SCRATCH "/fs/cwd/test") == 0);
	free(r);
	/* ".." never climbs out */
	CHECK((r = bl_reroot(SCRATCH, "/../../etc/passwd")) &&
	      strcmp(r, SCRATCH "/fs/etc/passwd") == 0);
	free(r);
	CHECK((r = bl_reroot(SCRATCH, "../../../../x")) && strcmp(r, SCRATCH "/fs/cwd/x") == 0);
	free(r);
	CHECK((r = bl_reroot(SCRATCH, "/a/./b//c/../d")) && strcmp(r, SCRATCH "/fs/a/b/d") == 0);
	free(r);
	CHECK((r = bl_reroot(SCRATCH, "/")) && strcmp(r, SCRATCH "/fs") == 0);
	free(r);
	CHECK(bl_reroot(SCRATCH, "") == NULL);
	CHECK(bl_reroot(SCRATCH, "a\tb") == NULL);
}

static void test_devices(void)
{
	CHECK(bl_dev_kind("/dev/zero") == BL_DEV_ZERO);
	CHECK(bl_dev_kind("/dev/urandom") == BL_DEV_RANDOM);
	CHECK(bl_dev_kind("/dev/null") == BL_DEV_NULL);
	CHECK(bl_dev_kind("/dev/sda") == BL_DEV_OTHER);
	CHECK(bl_dev_kind("/dev/ad10p1") == BL_DEV_OTHER);
	CHECK(bl_dev_kind("//dev/../dev/sda") == BL_DEV_OTHER);
	CHECK(bl_dev_kind("/dev/./null") == BL_DEV_NULL);
	CHECK(bl_dev_kind("/proc/sys/vm/drop_caches") == BL_DEV_OTHER);
	CHECK(bl_dev_kind("/sys/block/sda") == BL_DEV_OTHER);
	CHECK(bl_dev_kind("/data01/test01") == BL_DEV_NONE);
	CHECK(bl_dev_kind("dev/sda") == BL_DEV_NONE); /* relative: a file in cwd */
	CHECK(strstr(bl_dev_describe("/dev/ad4s2"), "FreeBSD ATA"));
	CHECK(strstr(bl_dev_describe("/dev/ada0p1"), "CAM"));
	CHECK(strstr(bl_dev_describe("/dev/sda"), "Linux"));
}

static void test_translate(void)
{
	uint64_t v;
	char buf[32];
	CHECK(bl_dd_size("1m", true, &v) && v == 1048576);
	CHECK(bl_dd_size("64k", true, &v) && v == 65536);
	CHECK(bl_dd_size("8k", true, &v) && v == 8192);
	CHECK(bl_dd_size("2x512", false, &v) && v == 1024);
	CHECK(bl_dd_size("1w", true, &v) && v == 4); /* BSD: sizeof(int) */
	CHECK(bl_dd_size("1w", false, &v) && v == 2); /* GNU */
	CHECK(!bl_dd_size("1q", true, &v));
	bl_dd_size_gnu(1048576, buf, sizeof buf);
	CHECK(strcmp(buf, "1M") == 0);
	bl_dd_size_gnu(65536, buf, sizeof buf);
	CHECK(strcmp(buf, "64K") == 0);
	bl_dd_size_gnu(1000, buf, sizeof buf);
	CHECK(strcmp(buf, "1000") == 0);
	bl_dd_size_gnu(3ULL << 30, buf, sizeof buf);
	CHECK(strcmp(buf, "3G") == 0);
	CHECK(bl_bonnie_size_mib("4096", &v) && v == 4096);
	CHECK(bl_bonnie_size_mib("4g", &v) && v == 4096);
	CHECK(bl_bonnie_size_mib("300M", &v) && v == 300);
	CHECK(!bl_bonnie_size_mib("4x", &v));
	CHECK(bl_iozone_size("512m", &v) && v == 512ULL << 20);
	CHECK(bl_iozone_size("64", &v) && v == 65536); /* KiB */
	CHECK(bl_iozone_size("4k", &v) && v == 4096);
	CHECK(bl_scale_bytes(2097152000, 256 << 20) == 256 << 20);
	CHECK(bl_scale_bytes(1 << 20, 256 << 20) == 1 << 20);
	CHECK(bl_scale_bytes(0, 256 << 20) == 256 << 20);
	CHECK_NEAR(bl_scale_ratio(268435456, 2097152000), 0.128, 1e-9);
}

/* A document with one run, as a parser would write it. */
static json_t *doc_with(const char *tool, const char *variant, const char *cmd, double bytes)
{
	json_t *run = json_pack("{s:s, s:s?, s:s?, s:{}, s:[]}", "tool", tool, "variant", variant,
				"command", cmd, "params", "results");
	if (bytes > 0)
		json_array_append_new(json_object_get(run, "results"),
				      json_pack("{s:s, s:f, s:s}", "metric", "bytes", "value",
						bytes, "unit", "B"));
	return json_pack("{s:s, s:[o]}", "schema", "benchlog/1", "runs", run);
}

struct planned {
	struct bl_plan p;
	struct bl_plan_set set;
	json_t *doc;
};

/* Plans run 0 of a one-run document with one planner, without looking
 * for the tool on this machine. */
static void plan_with(void (*fn)(struct bl_plan *, const struct bl_words *,
				 const struct bl_plan_ctx *),
		      const char *tool, const char *variant, const char *cmd, double bytes,
		      uint64_t budget, struct planned *out)
{
	static struct bl_replay_opts o;
	memset(&o, 0, sizeof o);
	o.max_bytes = budget;
	memset(out, 0, sizeof *out);
	out->doc = doc_with(tool, variant, cmd, bytes);
	CHECK(out->doc != NULL);
	out->set.v = &out->p;
	out->set.n = 1;
	out->p.scale = 1;
	struct bl_plan_ctx c = {.o = &o,
				.scratch = SCRATCH,
				.doc = out->doc,
				.run = json_array_get(json_object_get(out->doc, "runs"), 0),
				.set = &out->set};
	struct bl_words w;
	if (split(cmd, &w) == 0) {
		fn(&out->p, &w, &c);
		bl_words_free(&w);
	}
}

static void planned_free(struct planned *pl)
{
	struct bl_plan_set s = {.v = calloc(1, sizeof(struct bl_plan)), .n = 1};
	s.v[0] = pl->p;
	bl_plan_set_free(&s);
	json_decref(pl->doc);
}

/* The argv joined by spaces. */
static const char *joined(const struct bl_plan *p)
{
	static char buf[2048];
	buf[0] = '\0';
	for (size_t i = 0; i < p->argc; i++) {
		size_t l = strlen(buf);
		snprintf(buf + l, sizeof buf - l, "%s%s", i ? " " : "", p->argv[i]);
	}
	return buf;
}

static bool has_note(const struct bl_plan *p, const char *s)
{
	size_t i;
	json_t *n;
	json_array_foreach(p->notes, i, n) if (strstr(json_string_value(n), s)) return true;
	return false;
}

static void test_dd(void)
{
	struct planned pl;
	/* the FreeBSD write of seed 000, scaled to 256 MiB */
	plan_with(bl_plan_dd, "dd", "bsd", "dd if=/dev/zero of=/data01/test01 bs=1m count=2000",
		  2097152000, 256 << 20, &pl);
	CHECK(pl.p.status == BL_PLAN_READY);
	CHECK(strcmp(joined(&pl.p), "dd if=/dev/zero of=" SCRATCH
				    "/fs/data01/test01 bs=1M count=256 conv=fdatasync") == 0);
	/* a write reaches the device before dd's time stops; a read starts cold */
	CHECK(pl.p.page_cache && strstr(pl.p.page_cache, "device"));
	CHECK(has_note(
		&pl.p,
		"conv=fdatasync added: the write reaches the device before dd's time stops"));
	CHECK(pl.p.archived_bytes == 2097152000 && pl.p.replay_bytes == 256 << 20);
	CHECK_NEAR(pl.p.scale, 0.128, 1e-9);
	CHECK(has_note(&pl.p, "bs=1m written the GNU way: bs=1M"));
	CHECK(pl.p.npaths == 1 && pl.p.paths[0].role == BL_PATH_WRITE);
	planned_free(&pl);

	/* the read: a scratch file prepared when absent; no count added */
	plan_with(bl_plan_dd, "dd", "bsd", "dd if=/data01/test01 of=/dev/null bs=1m", 2097152000,
		  256 << 20, &pl);
	CHECK(strcmp(joined(&pl.p), "dd if=" SCRATCH "/fs/data01/test01 of=/dev/null bs=1M") == 0);
	CHECK(pl.p.npaths == 1 && pl.p.paths[0].role == BL_PATH_READ &&
	      pl.p.paths[0].prepare_bytes == 256 << 20);
	CHECK(pl.p.page_cache && strstr(pl.p.page_cache, "dropped"));
	planned_free(&pl);

	/* the post's own flush is kept, none added */
	plan_with(bl_plan_dd, "dd", "gnu", "dd if=/dev/zero of=x bs=1M count=10 oflag=direct",
		  10485760, 256 << 20, &pl);
	CHECK(strcmp(joined(&pl.p), "dd if=/dev/zero of=" SCRATCH "/fs/cwd/x bs=1M count=10 "
				    "oflag=direct") == 0);
	planned_free(&pl);
	plan_with(bl_plan_dd, "dd", "gnu", "dd if=/dev/zero of=x bs=1M count=10 conv=notrunc,fsync",
		  10485760, 256 << 20, &pl);
	CHECK(strcmp(joined(&pl.p), "dd if=/dev/zero of=" SCRATCH "/fs/cwd/x bs=1M count=10 "
				    "conv=notrunc,fsync") == 0);
	planned_free(&pl);
	/* conv=sync pads blocks and flushes nothing */
	plan_with(bl_plan_dd, "dd", "gnu", "dd if=/dev/zero of=x bs=1M count=10 conv=sync",
		  10485760, 256 << 20, &pl);
	CHECK(strcmp(joined(&pl.p), "dd if=/dev/zero of=" SCRATCH "/fs/cwd/x bs=1M count=10 "
				    "conv=sync,fdatasync") == 0);
	planned_free(&pl);
	/* a copy to /dev/null of /dev/zero: memory, nothing to keep out */
	plan_with(bl_plan_dd, "dd", "gnu", "dd if=/dev/zero of=/dev/null bs=1M count=10", 10485760,
		  256 << 20, &pl);
	CHECK(pl.p.page_cache == NULL && !strstr(joined(&pl.p), "fdatasync"));
	planned_free(&pl);

	/* seed 004: ibs=64k count=32k, obs left to its default */
	plan_with(bl_plan_dd, "dd", "bsd", "dd if=/dev/zero of=/ufs/testfile ibs=64k count=32k",
		  2147483648.0, 64 << 20, &pl);
	CHECK(strcmp(joined(&pl.p), "dd if=/dev/zero of=" SCRATCH
				    "/fs/ufs/testfile ibs=64K count=1024 conv=fdatasync") == 0);
	planned_free(&pl);

	/* small enough: not scaled */
	plan_with(bl_plan_dd, "dd", "gnu", "dd if=/dev/zero of=x bs=1M count=10", 10485760,
		  256 << 20, &pl);
	CHECK(strcmp(joined(&pl.p),
		     "dd if=/dev/zero of=" SCRATCH "/fs/cwd/x bs=1M count=10 conv=fdatasync") == 0);
	CHECK(pl.p.scale == 1.0);
	planned_free(&pl);

	/* writes to devices: refused */
	const char *refused[] = {
		"dd if=/dev/zero of=/dev/sda",
		"dd if=/dev/zero of=/dev/ad10p1 bs=1m count=8k",
		"dd if=/dev/zero of=//dev/../dev/sda bs=1M",
		"dd if=/dev/zero of=/proc/sys/vm/drop_caches",
		"dd if=/dev/zero of=/dev/zero",
		"dd if=/dev/zero of=x bs=1m conv=ucase",
		"dd if=/dev/zero of=x iflag=weird",
		"dd if=/dev/zero of=x of=y",
		"dd if=/dev/zero of=x bs=lots",
		"dd if=/dev/zero of=x files=3",
		"dd of=x bs=1m count=10",
		"dd if=/dev/zero nonsense",
	};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		plan_with(bl_plan_dd, "dd", "bsd", refused[i], 0, 256 << 20, &pl);
		CHECK(pl.p.status == BL_PLAN_REFUSED && pl.p.reason);
		if (pl.p.status != BL_PLAN_REFUSED)
			printf("  not refused: %s -> %s\n", refused[i], joined(&pl.p));
		planned_free(&pl);
	}

	/* of=/etc/passwd is confined, not refused */
	plan_with(bl_plan_dd, "dd", "gnu", "dd if=/dev/zero of=/etc/passwd bs=1", 0, 1 << 20, &pl);
	CHECK(pl.p.status == BL_PLAN_READY);
	CHECK(strstr(joined(&pl.p), "of=" SCRATCH "/fs/etc/passwd"));
	planned_free(&pl);

	/* absurd counts and blocks: within the budget */
	plan_with(bl_plan_dd, "dd", "gnu", "dd if=/dev/urandom of=x bs=4G count=999999999999", 0,
		  16 << 20, &pl);
	CHECK(pl.p.status == BL_PLAN_READY);
	CHECK(strcmp(joined(&pl.p), "dd if=/dev/urandom of=" SCRATCH
				    "/fs/cwd/x bs=16M count=1 conv=fdatasync") == 0);
	CHECK(pl.p.replay_bytes == 16 << 20);
	planned_free(&pl);

	/* a device read becomes a scratch file; a huge seek is dropped */
	plan_with(bl_plan_dd, "dd", "bsd",
		  "dd if=/dev/ad4 of=/dev/null bs=1m count=100 seek=99999999", 0, 32 << 20, &pl);
	CHECK(pl.p.status == BL_PLAN_READY);
	CHECK(strcmp(joined(&pl.p), "dd if=" SCRATCH "/devices/ad4 of=/dev/null bs=1M count=32") ==
	      0);
	CHECK(pl.p.npaths == 1 && pl.p.paths[0].device && pl.p.paths[0].prepare_bytes == 32 << 20);
	CHECK(has_note(&pl.p, "seek=99999999 dropped"));
	planned_free(&pl);

	/* no of=: the data went to stdout */
	plan_with(bl_plan_dd, "dd", "gnu", "dd if=/dev/zero bs=1M count=4", 0, 256 << 20, &pl);
	CHECK(strcmp(joined(&pl.p), "dd if=/dev/zero of=/dev/null bs=1M count=4") == 0);
	planned_free(&pl);

	/* FreeBSD oflag=fsync is GNU conv=fsync; status=none is dropped */
	plan_with(bl_plan_dd, "dd", "bsd",
		  "dd if=/dev/zero of=f bs=64k count=16 oflag=fsync,direct status=none", 0,
		  256 << 20, &pl);
	CHECK(strcmp(joined(&pl.p), "dd if=/dev/zero of=" SCRATCH
				    "/fs/cwd/f bs=64K count=16 conv=fsync oflag=direct") == 0);
	planned_free(&pl);
}

static void test_bonnie(void)
{
	struct planned pl;
	plan_with(bl_plan_bonnie, "bonnie++", NULL,
		  "bonnie++ -d /tank/test -s 8192 -r 4096 -u root -m fileserver", 0, 256 << 20,
		  &pl);
	CHECK(pl.p.status == BL_PLAN_READY);
	const char *j = joined(&pl.p);
	CHECK(strncmp(j, "bonnie++ -d " SCRATCH "/fs/tank/test -s256 -r128 -n16 -mfileserver -x1",
		      67) == 0);
	CHECK(!strstr(j, "-u root") && (geteuid() != 0 || strstr(j, "-uroot")));
	CHECK(pl.p.archived_bytes == 8192ULL << 20 && pl.p.replay_bytes == 256 << 20);
	planned_free(&pl);
	/* "-d /": confined to the scratch root */
	plan_with(bl_plan_bonnie, "bonnie++", NULL, "bonnie++ -d / -s 0 -n 1", 0, 256 << 20, &pl);
	CHECK(pl.p.status == BL_PLAN_READY);
	CHECK(strstr(joined(&pl.p), "-d " SCRATCH "/fs -s0 -r0 -n1"));
	planned_free(&pl);
	/* 1.03 style: size with a unit, -f, no -d: the scratch cwd */
	plan_with(bl_plan_bonnie, "bonnie++", NULL, "bonnie++ -s 4g -f -n 0", 0, 64 << 20, &pl);
	CHECK(strstr(joined(&pl.p), "-d " SCRATCH "/fs/cwd -s64 -r32 -n0 -x1 -f"));
	planned_free(&pl);
	/* the file count follows the budget: 1024 files per 16 MiB */
	plan_with(bl_plan_bonnie, "bonnie++", NULL, "bonnie++ -s 2048 -r 1024 -n 16 -f", 0, 4 << 20,
		  &pl);
	CHECK(strstr(joined(&pl.p), "-s4 -r2 -n1 -x1 -f"));
	planned_free(&pl);
	/* under 2 MiB: file tests only */
	plan_with(bl_plan_bonnie, "bonnie++", NULL, "bonnie++ -s 2048 -n 1", 0, 1 << 20, &pl);
	CHECK(strstr(joined(&pl.p), "-s0 -r0 -n1") && pl.p.replay_bytes == 0);
	planned_free(&pl);
	/* -n with sizes: capped by the budget */
	plan_with(bl_plan_bonnie, "bonnie++", NULL, "bonnie++ -s 0 -n 128:20000:16:64", 0, 64 << 20,
		  &pl);
	CHECK(strstr(joined(&pl.p), "-n3:20000:16:64"));
	planned_free(&pl);
	const char *refused[] = {"bonnie++ -d /dev/sda",    "bonnie++ -p 4", "bonnie++ -y",
				 "bonnie++ -Z /etc/shadow", "bonnie++ -Q",   "bonnie++ -s lots",
				 "bonnie++ stray",          "bonnie++ -d",   "bonnie++ -n 1:x,y"};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		plan_with(bl_plan_bonnie, "bonnie++", NULL, refused[i], 0, 256 << 20, &pl);
		CHECK(pl.p.status == BL_PLAN_REFUSED);
		planned_free(&pl);
	}
}

static void test_iozone(void)
{
	struct planned pl;
	plan_with(bl_plan_iozone, "iozone", NULL,
		  "iozone -a -g 4g -i 0 -i 1 -f /tank/iozone.tmp -R -b /root/out.xls", 0, 256 << 20,
		  &pl);
	CHECK(pl.p.status == BL_PLAN_READY);
	CHECK(strcmp(joined(&pl.p),
		     "iozone -a -i0 -i1 -f " SCRATCH "/fs/tank/iozone.tmp -R -b " SCRATCH
		     "/fs/root/out.xls -g256m") == 0);
	CHECK(pl.p.archived_bytes == 4ULL << 30 && pl.p.replay_bytes == 256 << 20);
	planned_free(&pl);
	/* -f /etc/shadow: confined */
	plan_with(bl_plan_iozone, "iozone", NULL, "iozone -s 1g -r 4k -i 0 -f /etc/shadow", 0,
		  64 << 20, &pl);
	CHECK(pl.p.status == BL_PLAN_READY);
	CHECK(strcmp(joined(&pl.p), "iozone -r4k -i0 -f " SCRATCH "/fs/etc/shadow -s64m") == 0);
	planned_free(&pl);
	/* throughput mode: -t capped, the budget split, files re-rooted */
	plan_with(bl_plan_iozone, "iozone", NULL, "iozone -t 16 -s 1g -F /a/f1 /a/f2 -i 0", 0,
		  64 << 20, &pl);
	CHECK(pl.p.status == BL_PLAN_READY);
	CHECK(strcmp(joined(&pl.p),
		     "iozone -t4 -F " SCRATCH "/fs/a/f1 " SCRATCH "/fs/a/f2 -i0 -s16m") == 0);
	planned_free(&pl);
	const char *refused[] = {"iozone -U /mnt -a",
				 "iozone -+m clients.txt -t 2",
				 "iozone -f /dev/sda -s 1g",
				 "iozone -F /dev/sda /dev/sdb -t 2",
				 "iozone -Y /etc/passwd",
				 "iozone -s",
				 "iozone plain"};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		plan_with(bl_plan_iozone, "iozone", NULL, refused[i], 0, 256 << 20, &pl);
		CHECK(pl.p.status == BL_PLAN_REFUSED);
		if (pl.p.status != BL_PLAN_REFUSED)
			printf("  not refused: %s\n", refused[i]);
		planned_free(&pl);
	}
}

static void test_zpool(void)
{
	struct planned pl;
	json_t *doc = doc_with("zpool-iostat", NULL, "zpool iostat -v tank 5 100", 0);
	json_t *results =
		json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "results");
	const char *vdevs[] = {"tank", "mirror", "ad4", "ad6", "logs", "ad8"};
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < 6; i++)
			json_array_append_new(results,
					      json_pack("{s:s, s:s, s:i, s:i, s:s}", "metric",
							"write_bandwidth", "vdev", vdevs[i],
							"sample", s, "value", 1, "unit", "B/s"));
	struct bl_replay_opts o = {.max_bytes = 64 << 20, .max_seconds = 10};
	struct bl_plan p = {.scale = 1};
	struct bl_plan_set set = {.v = &p, .n = 1};
	struct bl_plan_ctx c = {.o = &o,
				.scratch = SCRATCH,
				.doc = doc,
				.run = json_array_get(json_object_get(doc, "runs"), 0),
				.set = &set};
	struct bl_words w;
	CHECK(split("zpool iostat -v tank 5 100", &w) == 0);
	bl_plan_zpool(&p, &w, &c);
	bl_words_free(&w);
	CHECK(p.status == BL_PLAN_READY && p.kind == BL_KIND_ZPOOL);
	CHECK(p.nvdevs == 2 && strcmp(p.vdevs[0].type, "mirror") == 0 && p.vdevs[0].ndisks == 2 &&
	      strcmp(p.vdevs[1].type, "log") == 0 && p.vdevs[1].ndisks == 1);
	/* interval shortened to 5 s, samples fit 10 s */
	CHECK(p.argc == 6 && strcmp(p.argv[2], "-v") == 0 &&
	      strncmp(p.argv[3], "benchlog", 8) == 0 && strcmp(p.argv[4], "5") == 0 &&
	      strcmp(p.argv[5], "2") == 0);
	CHECK(p.workload && strcmp(p.workload[0], "dd") == 0);
	struct bl_plan_set s2 = {.v = calloc(1, sizeof p), .n = 1};
	s2.v[0] = p;
	bl_plan_set_free(&s2);
	json_decref(doc);

	const char *refused[] = {"zpool destroy tank", "zpool create tank /dev/sda",
				 "zpool iostat -x tank", "zpool iostat a b 1"};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		plan_with(bl_plan_zpool, "zpool-iostat", NULL, refused[i], 0, 256 << 20, &pl);
		CHECK(pl.p.status == BL_PLAN_REFUSED);
		planned_free(&pl);
	}
}

/* Whole documents through bl_replay_plan: the tool allowlist. */
static void test_document(void)
{
	struct bl_replay_opts o = {.scratch = SCRATCH, .max_bytes = 1 << 20};
	json_t *doc = json_pack(
		"{s:s, s:[{s:s, s:s}, {s:s, s:s}, {s:s, s:n}, {s:s, s:s}, {s:s, s:s}, {s:s, s:s}]}",
		"schema", "benchlog/1", "runs", "tool", "time", "command",
		"(tar xvf ports.tar 2>/dev/null)", "tool", "time", "command", "rm -R ports", "tool",
		"dd", "command", "tool", "diskinfo", "command", "diskinfo -t /dev/ada0", "tool",
		"dd", "command", "bonnie++ -s 10", "tool", "time", "command",
		"dd if=/dev/zero of=t bs=1k count=1");
	struct bl_plan_set s;
	CHECK(bl_replay_plan(doc, &o, &s) == 0 && s.n == 6);
	CHECK(s.v[0].status == BL_PLAN_REFUSED); /* ( and > */
	CHECK(s.v[1].status == BL_PLAN_UNSUPPORTED); /* rm */
	CHECK(s.v[2].status == BL_PLAN_REFUSED); /* no command */
	CHECK(s.v[3].status == BL_PLAN_UNAVAILABLE && strstr(s.v[3].reason, "FreeBSD"));
	CHECK(s.v[4].status == BL_PLAN_REFUSED); /* dd output, bonnie++ command */
	CHECK(s.v[5].status == BL_PLAN_READY && strcmp(s.v[5].tool, "dd") == 0 &&
	      strcmp(s.v[5].parser, "dd") == 0);
	for (size_t i = 0; i < 5; i++)
		CHECK(s.v[i].argv == NULL);
	json_t *pj = bl_plan_to_json(&s.v[5]);
	CHECK(json_is_array(json_object_get(pj, "argv")) &&
	      json_array_size(json_object_get(pj, "paths")) == 1);
	json_decref(pj);
	bl_plan_set_free(&s);
	json_decref(doc);
}

static void test_compare(void)
{
	json_t *archived =
		json_pack("{s:[{s:s,s:i,s:s},{s:s,s:f,s:s},{s:s,s:i,s:s}], s:{s:f}}", "results",
			  "metric", "bytes", "value", 2097152000, "unit", "B", "metric", "elapsed",
			  "value", 67.255574, "unit", "s", "metric", "throughput", "value",
			  31181832, "unit", "B/s", "time", "real", 67.25);
	json_t *replayed = json_pack("[{s:[{s:s,s:i,s:s},{s:s,s:f,s:s},{s:s,s:f,s:s}]}]", "results",
				     "metric", "bytes", "value", 268435456, "unit", "B", "metric",
				     "elapsed", "value", 2.0, "unit", "s", "metric", "throughput",
				     "value", 134217728.0, "unit", "B/s");
	struct bl_plan p = {.scale = 0.128};
	struct bl_spawn_result sr = {.real = 2.1};
	json_t *rows = bl_compare_run(archived, replayed, &p, &sr);
	CHECK(json_array_size(rows) == 4);
	json_t *b = json_array_get(rows, 0), *e = json_array_get(rows, 1),
	       *t = json_array_get(rows, 2), *tr = json_array_get(rows, 3);
	CHECK(json_integer_value(json_object_get(b, "expected")) == 268435456);
	CHECK_NEAR(json_real_value(json_object_get(b, "ratio")), 1.0, 1e-9);
	CHECK(json_is_true(json_object_get(e, "scaled")));
	CHECK_NEAR(json_real_value(json_object_get(e, "expected")), 67.255574 * 0.128, 1e-5);
	CHECK(json_is_false(json_object_get(t, "scaled")));
	CHECK_NEAR(json_real_value(json_object_get(t, "ratio")), 4.3044, 1e-3);
	CHECK(strcmp(json_string_value(json_object_get(tr, "metric")), "time.real") == 0);
	json_decref(rows);
	/* how a value was printed is not a coordinate (bonnie++'s table_raw) */
	json_t *a3 = json_pack("{s:[{s:s,s:i,s:s,s:s}]}", "results", "metric", "seq_output_block",
			       "value", 337920, "unit", "B/s", "table_raw", "330m");
	json_t *r3 = json_pack("[{s:[{s:s,s:i,s:s,s:s}]}]", "results", "metric", "seq_output_block",
			       "value", 675840, "unit", "B/s", "table_raw", "660m");
	rows = bl_compare_run(a3, r3, &(struct bl_plan){.scale = 0.002}, NULL);
	CHECK(json_array_size(rows) == 1 &&
	      json_integer_value(json_object_get(json_array_get(rows, 0), "replayed")) == 675840 &&
	      json_real_value(json_object_get(json_array_get(rows, 0), "ratio")) == 2.0 &&
	      !json_object_get(json_array_get(rows, 0), "table_raw"));
	json_decref(rows);
	json_decref(a3);
	json_decref(r3);
	/* cells matched by coordinates */
	json_t *a2 = json_pack("{s:[{s:s,s:i,s:s,s:i,s:i}]}", "results", "metric", "write", "value",
			       100, "unit", "B/s", "file_size", 64, "record_size", 4);
	json_t *r2 = json_pack("[{s:[{s:s,s:i,s:s,s:i,s:i},{s:s,s:i,s:s,s:i,s:i}]}]", "results",
			       "metric", "write", "value", 5, "unit", "B/s", "file_size", 64,
			       "record_size", 8, "metric", "write", "value", 200, "unit", "B/s",
			       "file_size", 64, "record_size", 4);
	rows = bl_compare_run(a2, r2, &(struct bl_plan){.scale = 1}, NULL);
	CHECK(json_array_size(rows) == 1 &&
	      json_integer_value(json_object_get(json_array_get(rows, 0), "replayed")) == 200 &&
	      json_integer_value(json_object_get(json_array_get(rows, 0), "record_size")) == 4);
	json_decref(rows);
	json_decref(a2);
	json_decref(r2);
	json_decref(archived);
	json_decref(replayed);
}

int main(void)
{
	test_words();
	test_reroot();
	test_devices();
	test_translate();
	test_dd();
	test_bonnie();
	test_iozone();
	test_zpool();
	test_document();
	test_compare();
	return CHECK_DONE();
}
