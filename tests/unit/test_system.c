/* test_system.c - the system extractor reads only the lines its marks
 * lead to (bl_system_extract); reading every line in turn
 * (bl_system_extract_every_line) must give the same object, wherever the
 * system lines sit: after long stretches of prose, at the start of the
 * text, indented, behind a prompt, on the pieces of a line longer than
 * BL_LINE_MAX, and in the lines a config file is in force for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/anchor.h"
#include "../../parsers/system.h"
#include "check.h"
#include "text.h"

/* Lines of every kind the patterns read, and near misses. */
static const char *const sys_lines[] = {
	"CPU: Intel(R) Core(TM)2 Duo CPU E8400 @ 3.00GHz",
	"Proc: Intell Atom 330 (2x1.6Ghz) - 1 package(s) x 2 core(s) x 2 HTT threads",
	"real memory  = 2147483648 (2048 MB)",
	"Chipset: Intel 82945G",
	"ad4: 953869MB <Seagate ST31000533CS SC15> at ata2-master SATA150",
	"ada0: <WDC WD15EARS-00Z5B1 80.00A80> ATA-8 SATA 2.x device",
	"atapci1: <Intel ICH7 SATA300 controller> port 0x30c8-0x30cf irq 19 at device 31.2 on pci0",
	"Disks: 4x WD20EARS",
	"OS: FreeBSD 8.0-RELEASE amd64",
	"FreeBSD srebrny 8.0-RELEASE FreeBSD 8.0-RELEASE #0: Sat Nov 21 15:02:08 UTC 2009",
	"FreeBSD 8.0-RELEASE #0: Sat Nov 21 15:02:08 UTC 2009",
	"  Linux box 2.6.32-5-amd64 #1 SMP Mon Jan 16 16:22:28 UTC 2012 x86_64 GNU/Linux",
	"\tSunOS host 5.11 snv_134 i86pc i386 i86pc",
	"FreeBSD is what I run here",
	"Linux  2.6 is older",
	"I'm running amd64 7.2-STABLE from 14th Jan.",
	"vfs.zfs.arc_max=\"100M\"",
	"vm.kmem_size=768M",
	"vfs.zfs.prefetch_disable: 1",
	"ahci_load=\"YES\"",
	"zfs_enable=\"YES\"",
	"I put this in /boot/loader.conf:",
	"and /etc/sysctl.conf has",
	"empty file: /etc/rc.conf.local",
	/* the words the lines start with, in other cases, after blanks, as
	 * near misses, and with a long s (U+017F), which caseless matching
	 * takes for an 's' */
	"MEMORY: 4GB",
	"  mODEL NAME: Xeon",
	"Proce\xC5\xBF\xC5\xBFor: Intel Atom",
	"\xC5\xBFtorage: 4 disks",
	"\xC5\xBFys: FreeBSD 9.1-RELEASE",
	"Mainboard: Supermicro X7SPA",
	"MB: Asus",
	"Board : Intel",
	"Drives: 2x ST3000",
	"Storage: 2x 4TB",
	"Operating System: FreeBSD 10.0",
	"uname -a: FreeBSD x 9.0-RELEASE",
	"Processing: done",
	"Memo: none",
	"Boarding: 7:30",
	"OSes: many",
	"Disco: none",
	"vm.kmem_size = 768M",
	"vfs .zfs=1",
	"kern_x=1",
	"geom_mirror_load = \"YES\"",
	"zfs_load=\"YES\" # zfs",
	"ad4: 953869MB <Seagate ST31000533CS SC15> at ata2-master",
	"  ada12: <ST4000DM000> ACS-2 ATA SATA 3.x device",
	"ahcich0: <AHCI channel> at channel 0 on ahci0",
	"mfi0: <LSI MegaSAS> port 0x1000",
	"ad: 5MB <x> at y",
	"a4b: 5MB <x> at y",
	"hw.physmem: 4294967296",
	"hw.model: Intel(R) Core(TM) i7",
	"/boot/loader.conf is empty",
	"the file /tmp/x is EMPTY",
	"srebrny# geli init -s 4096 -K /etc/keys/ad4s2.key /dev/ad4s2",
	"geli attach -k /etc/keys/ad4s2.key /dev/ad4s2",
	"  gmirror label -v -b round-robin data02 /dev/ad4 /dev/ad6",
	"srebrny# gmirror list",
	"Geom name: data02",
	"State: COMPLETE",
	"Balance: round-robin",
	"% zpool create tank raidz ad4 ad6 ad8",
	"zpool create -o ashift=12 tank mirror ada0 ada1",
	"  pool: tank",
	" state: ONLINE",
	"config:",
	"",
	"\tNAME        STATE     READ WRITE CKSUM",
	"\ttank        ONLINE       0     0     0",
	"\t  raidz1    ONLINE       0     0     0",
	"\t    ad4     ONLINE       0     0     0",
	"\t    ad6     ONLINE       0     0     0",
	"\tlogs",
	"\t  ad8       ONLINE       0     0     0",
	"CPU\xEF\xBC\x9A"
	"Intel Core 2 Duo E8400",
	"Memory\xEF\xBC\x9A"
	"4GB",
	"hw.physmem: 4261076992",
	"kern.maxvnodes: 100000",
	/* releases right after a rule of dashes, whose marks are passed at
	 * once */
	"----------  -----  FreeBSD 10.3-RELEASE-p4",
	"----9.2-STABLE--",
};

/* Prose: lines that start with the letters the marks stop at, and hold the
 * bytes they stop at, yet are no system line. */
static const char *const prose[] = {
	"So the numbers below are what I got on the second try",
	"Linux does this differently, as far as I know",
	"Darwin and NetBSD were not tried",
	"On the other hand the throughput was 80 MB/s - not bad",
	"Do you see the same? Times: 10:30 and 11:45",
	"see http://example.org/bench/ for the rest",
	"NAME was wrong in the last mail",
	"gets better after a reboot",
	"zero errors so far > none",
	"Sent from 10-Stable box, the 2-Server setup",
	"d = 4, e = 5; it is empty now",
	"Operating systems differ",
	"",
	"   ",
	"(and that is all)",
};

static unsigned rnd(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) & 0x7fff;
}

/* Both readings of text t, compared. */
static int same(const char *t, size_t n)
{
	struct bl_message m;
	if (bl_message_from_text(&m, t, n, 0, 1) != 0)
		return 0;
	json_t *a = bl_system_extract(&m);
	bl_system_set_precheck(false);
	json_t *b = bl_system_extract_every_line(&m);
	bl_system_set_precheck(true);
	int ok = (!a && !b) || (a && b && json_equal(a, b));
	if (!ok) {
		char *x = a ? json_dumps(a, JSON_SORT_KEYS) : NULL,
		     *y = b ? json_dumps(b, JSON_SORT_KEYS) : NULL;
		printf("marks:      %s\nevery line: %s\n", x ? x : "null", y ? y : "null");
		free(x);
		free(y);
	}
	json_decref(a);
	json_decref(b);
	bl_message_free(&m);
	return ok;
}

/* Both readings of the first `part` bytes of text t, the fast one with
 * the marks found on the whole text (a window's own part is read so: the
 * message's length cut short, its sites those of the whole window). */
static int same_part(const char *t, size_t n, size_t part)
{
	struct bl_message m;
	if (bl_message_from_text(&m, t, n, 0, 1) != 0)
		return 0;
	int ok = bl_message_sites(&m) != NULL;
	m.len = part;
	json_t *a = bl_system_extract(&m);
	CHECK(m.sites && m.sites->len == n); /* not found again for the part */
	memset(m.lc_start, 0, sizeof m.lc_start);
	memset(m.lc_hi, 0, sizeof m.lc_hi);
	bl_system_set_precheck(false);
	json_t *b = bl_system_extract_every_line(&m);
	bl_system_set_precheck(true);
	ok = ok && ((!a && !b) || (a && b && json_equal(a, b)));
	if (!ok) {
		char *x = a ? json_dumps(a, JSON_SORT_KEYS) : NULL,
		     *y = b ? json_dumps(b, JSON_SORT_KEYS) : NULL;
		printf("part %zu of %zu: marks:      %s\nevery line: %s\n", part, n, x ? x : "null",
		       y ? y : "null");
		free(x);
		free(y);
	}
	json_decref(a);
	json_decref(b);
	m.len = n;
	bl_message_free(&m);
	return ok;
}

/* The object of text t, read the fast way (new reference). */
static json_t *extract(const char *t)
{
	struct bl_message m;
	bl_message_from_text(&m, t, strlen(t), 0, 1);
	json_t *s = bl_system_extract(&m);
	bl_message_free(&m);
	return s;
}

/* Random texts: system lines among prose, CRLF lines, long lines whose
 * pieces start with a system word. */
static void test_random(void)
{
	unsigned seed = 11;
	const size_t nsys = sizeof sys_lines / sizeof *sys_lines,
		     nprose = sizeof prose / sizeof *prose;
	for (int round = 0; round < 400; round++) {
		struct text t = {0};
		int lines = 1 + (int)(rnd(&seed) % 60);
		for (int i = 0; i < lines; i++) {
			unsigned r = rnd(&seed) % 100;
			if (r < 25) {
				put(&t, sys_lines[rnd(&seed) % nsys]);
			} else if (r < 28) {
				/* a line longer than BL_LINE_MAX: pieces cut at
				 * multiples of it start with whatever is there */
				size_t to = (t.n / BL_LINE_MAX + 1 + rnd(&seed) % 2) * BL_LINE_MAX;
				while (t.n + 60 < to)
					put(&t, "word word word word word word word word ");
				while (t.n < to)
					put(&t, "x");
				/* a piece with no mark in it, a tunable right after */
				static const char *const piece[] = {
					"FreeBSD 8.0-RELEASE #0: Sat Nov 21",
					"geli init -s 4096 /dev/ad4s2",
					"geli init ad4s2\nvm.kmem_size=768M",
					"NAME STATE READ WRITE CKSUM\nkern.maxvnodes=9"};
				put(&t, piece[rnd(&seed) % 4]);
				if (rnd(&seed) % 2)
					while (t.n < to + BL_LINE_MAX + 10)
						put(&t, " tail words");
			} else {
				put(&t, prose[rnd(&seed) % nprose]);
			}
			put(&t, rnd(&seed) % 9 == 0 ? "\r\n" : "\n");
		}
		CHECK(same(t.s, t.n));
		/* without its last newline, and cut anywhere */
		CHECK(same(t.s, t.n ? t.n - 1 : 0));
		CHECK(same(t.s, rnd(&seed) % (t.n + 1)));
		/* a part of it read with the marks of the whole */
		CHECK(same_part(t.s, t.n, rnd(&seed) % (t.n + 1)));
		if (t.n > 64)
			CHECK(same_part(t.s, t.n, t.n - 1 - rnd(&seed) % 64));
		free(t.s);
	}
}

/* Behaviour the fast reading must keep, spelled out. */
static void test_cases(void)
{
	/* a uname line at the very start, and one after a stretch of prose */
	json_t *s = extract("FreeBSD 8.0-RELEASE #0: Sat Nov 21 15:02:08 UTC 2009\n");
	CHECK(s && json_array_size(json_object_get(s, "os")) == 1);
	json_decref(s);
	struct text t = {0};
	for (int i = 0; i < 500; i++)
		put(&t, "Some words of prose, nothing else in them at all\n");
	put(&t,
	    "  Linux box 2.6.32-5-amd64 #1 SMP Mon Jan 16 16:22:28 UTC 2012 x86_64 GNU/Linux\n");
	s = extract(t.s);
	json_t *os = json_array_get(json_object_get(s, "os"), 0);
	CHECK(os && strcmp(json_string_value(json_object_get(os, "name")), "Linux") == 0 &&
	      strcmp(json_string_value(json_object_get(os, "release")), "2.6.32-5-amd64") == 0);
	CHECK(same(t.s, t.n));
	json_decref(s);
	free(t.s);

	/* a config file is in force for the next 3 lines, prose or not, and
	 * 2 more after each of its tunables (the lines between are read one
	 * by one, not passed) */
	s = extract("It goes in /boot/loader.conf:\n"
		    "Some words of prose\n"
		    "More of them\n"
		    "vm.kmem_size=768M\n"
		    "and prose again\n"
		    "vfs.zfs.arc_max=\"100M\"\n"
		    "y\n"
		    "z\n"
		    "w\n"
		    "kern.maxvnodes=100000\n");
	json_t *tun = json_object_get(s, "tunables");
	CHECK(json_array_size(tun) == 3);
	CHECK(strcmp(json_string_value(json_object_get(json_array_get(tun, 0), "file")),
		     "/boot/loader.conf") == 0);
	CHECK(strcmp(json_string_value(json_object_get(json_array_get(tun, 1), "file")),
		     "/boot/loader.conf") == 0);
	CHECK(json_object_get(json_array_get(tun, 2), "file") == NULL);
	json_decref(s);

	/* a command behind a prompt, and one on the piece of a long line */
	s = extract("srebrny# geli init -s 4096 -K /etc/keys/ad4s2.key /dev/ad4s2\n");
	CHECK(s && json_array_size(json_object_get(s, "geli")) == 1);
	json_decref(s);
	t = (struct text){0};
	while (t.n < BL_LINE_MAX)
		put(&t, "x");
	put(&t, "geli init -s 4096 /dev/ad4s2\n");
	s = extract(t.s);
	CHECK(s && json_array_size(json_object_get(s, "geli")) == 1);
	json_decref(s);
	CHECK(same(t.s, t.n));
	free(t.s);

	/* prose that starts like a system line is none */
	CHECK(extract("Linux is what I run\nSo it goes: on\nFreeBSD  8.0 here\n") == NULL);
}

int main(void)
{
	test_cases();
	test_random();
	return CHECK_DONE();
}
