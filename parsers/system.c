/* system.c - the machine a post describes, read line by line.
 *
 *   Proc: Intell Atom 330 (2x1.6Ghz) - 1 package(s) x 2 core(s) x 2 HTT threads
 *   Chipset: Intel 82945G
 *   Sys: 8.0-RELEASE FreeBSD 8.0-RELEASE #0
 *   ad4: 953869MB <Seagate ST31000533CS SC15> at ata2-master SATA150
 *   geli init -s 4096 -K /etc/keys/ad4s2.key /dev/ad4s2
 *   vfs.zfs.arc_max="100M"          (after a mention of /boot/loader.conf)
 *   vm.kmem_size=768M
 *   CPU：Intel Core 2 Duo E8400      (a full-width colon, as CJK posts write)
 *   srebrny# gmirror list  /  Geom name: data02  /  Balance: round-robin
 *   zpool status: config: / NAME STATE READ WRITE CKSUM / tank ONLINE 0 0 0
 *
 * Only lines of ordinary length are read (a flattened post is split by
 * ingest first), so a hostile line costs one length check. */
#include "system.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anchor.h"
#include "../base/find.h"
#include "../base/re.h"
#include "../base/units.h"

#define MAX_LINE 1000
#define MAX_RAW 300
#define MAX_ITEMS 200

/* "Label: value" with an ASCII or full-width colon ("：" is EF BC 9A). */
#define COLON "[ \\t]*(?::|\\x{FF1A})[ \\t]*"

static struct bl_re cpu_re =
	BL_RE("^[ \\t]*(?:CPU|Proc|Processor|model name|hw\\.model)" COLON "(\\S.*?)[ \\t]*$",
	      PCRE2_CASELESS);
static struct bl_re topo_re = BL_RE(
	"(\\d+) package\\(s\\) x (\\d+) core\\(s\\)(?: x (\\d+) (?:HTT|SMT|hardware) threads)?", 0);
static struct bl_re mem_re =
	BL_RE("^[ \\t]*(?:RAM|Mem|Memory|real memory|MemTotal|hw\\.physmem)(?:" COLON
	      "|[ \\t]*=[ \\t]*)(\\S.*?)[ \\t]*$",
	      PCRE2_CASELESS);
static struct bl_re size_re = BL_RE("(\\d+(?:\\.\\d+)?)[ \\t]?([KMGT])i?B\\b", PCRE2_CASELESS);
static struct bl_re chipset_re =
	BL_RE("^[ \\t]*(Chipset|MB|Motherboard|Mainboard|Board)" COLON "(\\S.*?)[ \\t]*$",
	      PCRE2_CASELESS);
/* "ad4: 953869MB <Seagate ST31000533CS SC15> at ata2-master SATA150" */
static struct bl_re ata_disk_re = BL_RE(
	"^[ \\t]*([a-z]{2,6}\\d+): (\\d+)MB <([^>\\n]{1,100})> at (\\S+)(?: (\\S.*?))?[ \\t]*$", 0);
/* "ada0: <WDC WD15EARS-00Z5B1 80.00A80> ATA-8 SATA 2.x device" */
static struct bl_re cam_disk_re =
	BL_RE("^[ \\t]*((?:ada|da|nda|nvd|cd)\\d+): <([^>\\n]{1,100})> (.*device.*)$", 0);
/* "atapci1: <Intel ICH7 SATA300 controller> port 0x30c8-0x30cf,... irq 19 at device 31.2 on pci0" */
static struct bl_re ctl_re = BL_RE(
	"^[ \\t]*((?:atapci|ahci|ahcich|mps|mpr|mpt|mfi|mrsas|siis|mvs|ciss|arcmsr|hptrr|twa|aac|ahc|ahd|isp)\\d+): <([^>\\n]{1,100})>",
	0);
static struct bl_re hdd_re = BL_RE(
	"^[ \\t]*(?:HDD|Hdd|Disks?|Drives?|Storage)" COLON "(\\S.*?)[ \\t]*$", PCRE2_CASELESS);
static struct bl_re os_label_re =
	BL_RE("^[ \\t]*(?:OS|Sys|System|Operating system|uname -a)" COLON "(\\S.*?)[ \\t]*$",
	      PCRE2_CASELESS);
/* "FreeBSD srebrny 8.0-RELEASE FreeBSD 8.0-RELEASE #0: Sat Nov 21 ..." (uname -a)
 * "FreeBSD 8.0-RELEASE #0: Sat Nov 21 15:02:08 UTC 2009" (dmesg) */
static struct bl_re uname_re = BL_RE(
	"^[ \\t]*(FreeBSD|NetBSD|OpenBSD|DragonFly|Linux|SunOS|Darwin) (?:\\S+ )?(\\d+\\.\\d+(?:\\.\\d+)*(?:-[A-Za-z0-9.]+)*) (?:#|\\S*BSD|\\S+ #|SMP|.*GNU/Linux)",
	0);
static struct bl_re os_name_re = BL_RE(
	"\\b(FreeBSD|NetBSD|OpenBSD|DragonFly(?:BSD)?|Linux|Solaris|SunOS|illumos|OpenIndiana|Darwin|macOS|Debian|Ubuntu|CentOS|Fedora|OpenSolaris|Nexenta)\\b",
	0);
static struct bl_re release_re = BL_RE(
	"\\b(\\d+\\.\\d+(?:\\.\\d+)?(?:-(?:RELEASE|STABLE|CURRENT|PRERELEASE|BETA\\d*|RC\\d*)(?:-p\\d+)?|R\\b)?)",
	0);
/* anywhere in prose: "I'm running amd64 7.2-STABLE from 14th Jan." */
static struct bl_re bsd_release_re = BL_RE(
	"\\b\\d+\\.\\d+-(?:RELEASE|STABLE|CURRENT|PRERELEASE|BETA\\d*|RC\\d*)(?:-p\\d+)?\\b", 0);
/* vfs.zfs.arc_max="100M", vm.kmem_size=768M, vfs.zfs.prefetch_disable: 1 */
static struct bl_re tunable_re = BL_RE(
	"^[ \\t]*([a-z][a-z0-9_]*(?:\\.[a-zA-Z0-9_%-]+)+)[ \\t]*(=|:)[ \\t]*(?:\"([^\"\\n]*)\"|'([^'\\n]*)'|([^\\s\"'#]+))[ \\t\\x{A0}]*(?:#.*)?$",
	0);
/* ahci_load="YES", zfs_enable="YES" */
static struct bl_re knob_re = BL_RE(
	"^[ \\t]*([a-z][a-z0-9_]*_(?:load|enable|flags|name|type))[ \\t]*=[ \\t]*\"([^\"\\n]*)\"[ \\t\\x{A0}]*(?:#.*)?$",
	0);
static struct bl_re conffile_re = BL_RE(
	"(/boot/loader\\.conf(?:\\.local)?|/etc/sysctl\\.conf|/etc/rc\\.conf(?:\\.local)?|/boot/device\\.hints)",
	0);
static struct bl_re empty_re =
	BL_RE("(?:^|\\s)empty(?: file)?:?[ \\t]+(/\\S+)|(/\\S+) is empty", PCRE2_CASELESS);
/* "srebrny# geli init -s 4096 -K /etc/keys/ad4s2.key /dev/ad4s2" */
static struct bl_re geli_re = BL_RE(
	"^(?:[ \\t]*\\S{0,60}[#$%>])?[ \\t]*geli (init|attach|onetime|configure|setkey|label) (.*?)[ \\t]*$",
	0);
static struct bl_re gmirror_re = BL_RE(
	"^(?:[ \\t]*\\S{0,60}[#$%>])?[ \\t]*gmirror (label|insert|list|status|configure|create)\\b[ \\t]*(.*?)[ \\t]*$",
	0);
static struct bl_re keyval_re = BL_RE("^[ \\t]*([A-Z][A-Za-z ]{0,30}): (\\S.*?)[ \\t]*$", 0);
static struct bl_re zpool_create_re = BL_RE(
	"^(?:[ \\t]*\\S{0,60}[#$%>])?[ \\t]*zpool create ((?:-\\S+ (?:\\S+=\\S+ )?)*)(\\S+) (.+?)[ \\t]*$",
	0);
static struct bl_re pool_re = BL_RE("^[ \\t]*pool: (\\S+)[ \\t]*$", 0);
static struct bl_re zhead_re =
	BL_RE("^[ \\t]*NAME[ \\t]+STATE[ \\t]+READ[ \\t]+WRITE[ \\t]+CKSUM[ \\t]*$", 0);
static struct bl_re zrow_re = BL_RE(
	"^([ \\t]*)(\\S+)[ \\t]+(ONLINE|DEGRADED|FAULTED|OFFLINE|UNAVAIL|REMOVED|AVAIL|INUSE)(?:[ \\t]+(\\d+\\S*)[ \\t]+(\\d+\\S*)[ \\t]+(\\d+\\S*))?",
	0);
static struct bl_re zclass_re = BL_RE("^([ \\t]*)(logs|cache|spares|special|dedup)[ \\t]*$", 0);

struct sys {
	struct bl_message *m;
	json_t *root;
	size_t items;
	const char *conf; /* config file in force, or NULL */
	long conf_until; /* line index until which it stays in force */
	const char *pool; /* "pool: tank" read above a vdev tree, or NULL */
	size_t poollen;
	bool os_seen; /* an OS item is in (a release in prose adds none) */
	size_t empty_end; /* the line before here was looked at for "empty" */
	bool empty_in; /* and holds it */
	const struct bl_sites *sites; /* where the marks are (NULL: searched here) */
	size_t mark_at; /* the window of marks found last (bl_find_marks) */
	uint64_t marks; /* its marks not looked at yet */
	size_t mark_next; /* where the search goes on */
};

static json_t *grp(struct sys *s, const char *name)
{
	/* the object is made with its first item: most posts have none */
	if (!s->root && !(s->root = json_object()))
		return NULL;
	json_t *a = json_object_get(s->root, name);
	if (!a) {
		a = json_array();
		json_object_set_new(s->root, name, a);
	}
	return a;
}

/* A new item {raw, line} in group `name` (borrowed), or NULL past the cap. */
static json_t *item(struct sys *s, const char *name, const struct bl_line *l)
{
	if (s->items >= MAX_ITEMS)
		return NULL;
	size_t n = l->len;
	const char *p = l->s;
	while (n && (*p == ' ' || *p == '\t')) {
		p++;
		n--;
	}
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (n > MAX_RAW) {
		n = MAX_RAW;
		while (n && ((unsigned char)p[n] & 0xC0) == 0x80)
			n--;
	}
	json_t *o = json_object(), *g = o ? grp(s, name) : NULL;
	if (!g) {
		json_decref(o);
		return NULL;
	}
	json_object_set_new(o, "raw", json_stringn(p, n));
	json_object_set_new(o, "line", json_integer((json_int_t)bl_message_line(s->m, l->off)));
	json_array_append_new(g, o);
	s->items++;
	return o;
}

static void set_group(json_t *o, const char *key, const struct bl_line *l,
		      const struct bl_re_match *m, int g)
{
	if (o && bl_re_gset(m, g))
		json_object_set_new(o, key, json_stringn(l->s + m->ov[2 * g], bl_re_glen(m, g)));
}

/* The whole of [s, s+n) as a number. */
static bool u64_of(const char *s, size_t n, uint64_t *v)
{
	size_t end;
	return bl_parse_u64(s, n, v, &end) && end == n;
}

/* "2GB DDR2 x 3" -> 2 GiB; "2147483648 (2048 MB)" -> 2147483648 */
static void mem_bytes(json_t *o, const char *v, size_t n)
{
	uint64_t b;
	size_t end;
	if (bl_parse_u64(v, n, &b, &end) && b > (1u << 20) && (end == n || v[end] == ' ')) {
		json_object_set_new(o, "bytes", json_integer((json_int_t)b));
		return;
	}
	struct bl_re_match m;
	if (!bl_re_match(&size_re, v, n, 0, &m))
		return;
	double x;
	if (!bl_parse_double(v + m.ov[2], bl_re_glen(&m, 1), false, &x, NULL))
		return;
	const char *units = "KMGT";
	char u = v[m.ov[4]];
	if (u >= 'a')
		u = (char)(u - 32);
	const char *k = strchr(units, u);
	if (!k)
		return;
	double mul = 1024;
	for (const char *q = units; q < k; q++)
		mul *= 1024;
	json_object_set_new(o, "bytes", json_integer((json_int_t)(x * mul)));
}

static void os_fields(json_t *o, const char *v, size_t n)
{
	struct bl_re_match m;
	if (bl_re_match(&os_name_re, v, n, 0, &m))
		json_object_set_new(o, "name", json_stringn(v + m.ov[2], bl_re_glen(&m, 1)));
	if (bl_re_match(&release_re, v, n, 0, &m))
		json_object_set_new(o, "release", json_stringn(v + m.ov[2], bl_re_glen(&m, 1)));
}

/* geli init options: -s sectorsize, -K keyfile, -e ealgo, -a aalgo,
 * -l keylen, -B backupfile, -b, -P; the last word is the provider. */
static void geli_fields(json_t *o, const char *a, size_t n)
{
	size_t i = 0;
	const char *last = NULL;
	size_t lastl = 0;
	while (i < n) {
		while (i < n && (a[i] == ' ' || a[i] == '\t'))
			i++;
		size_t w = i;
		while (i < n && a[i] != ' ' && a[i] != '\t')
			i++;
		size_t wl = i - w;
		if (!wl)
			break;
		if (a[w] == '-' && wl == 2) {
			char f = a[w + 1];
			const char *key = f == 's'   ? "sector_size"
					  : f == 'K' ? "keyfile"
					  : f == 'e' ? "encryption"
					  : f == 'a' ? "authentication"
					  : f == 'l' ? "key_length"
					  : f == 'B' ? "backup_file"
					  : f == 'i' ? "iterations"
					  : f == 'J' ? "passfile"
						     : NULL;
			if (!key) {
				if (f == 'b')
					json_object_set_new(o, "boot", json_true());
				else if (f == 'P')
					json_object_set_new(o, "no_passphrase", json_true());
				continue;
			}
			while (i < n && (a[i] == ' ' || a[i] == '\t'))
				i++;
			size_t v = i;
			while (i < n && a[i] != ' ' && a[i] != '\t')
				i++;
			uint64_t num;
			if ((f == 's' || f == 'l' || f == 'i') && u64_of(a + v, i - v, &num))
				json_object_set_new(o, key, json_integer((json_int_t)num));
			else
				json_object_set_new(o, key, json_stringn(a + v, i - v));
			continue;
		}
		last = a + w;
		lastl = wl;
	}
	if (last)
		json_object_set_new(o, "provider", json_stringn(last, lastl));
}

static void tunable_value(json_t *o, const char *v, size_t n)
{
	json_object_set_new(o, "value", json_stringn(v, n));
	uint64_t num;
	if (n && u64_of(v, n, &num) && num <= INT64_MAX) {
		json_object_set_new(o, "number", json_integer((json_int_t)num));
		return;
	}
	/* "100M", "1024M", "5M": loader.conf sizes are powers of 1024 */
	if (n >= 2 && n < 24 && strchr("KkMmGgTt", v[n - 1]) && bl_parse_size(v, n, &num) &&
	    num <= INT64_MAX)
		json_object_set_new(o, "bytes", json_integer((json_int_t)num));
}

static void lower_key(char *out, size_t outsz, const char *s, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n && o + 1 < outsz; i++) {
		char c = s[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		out[o++] = c == ' ' ? '_' : c;
	}
	out[o] = '\0';
}

/* "Geom name: data02", "State: COMPLETE", ... after "gmirror list" */
static struct bl_line gmirror_block(struct sys *s, json_t *o, struct bl_line cur)
{
	json_t *fields = json_object();
	struct bl_line next;
	int n = 0;
	while (n < 40 && bl_line_next(s->m, &cur, &next)) {
		struct bl_re_match m;
		if (!bl_re_match(&keyval_re, next.s, next.len, 0, &m))
			break;
		char key[40];
		lower_key(key, sizeof key, next.s + m.ov[2], bl_re_glen(&m, 1));
		const char *v = next.s + m.ov[4];
		size_t vl = bl_re_glen(&m, 2);
		uint64_t num;
		if (u64_of(v, vl, &num) && num <= INT64_MAX)
			json_object_set_new(fields, key, json_integer((json_int_t)num));
		else
			json_object_set_new(fields, key, json_stringn(v, vl));
		cur = next;
		n++;
	}
	if (o && json_object_size(fields))
		json_object_set(o, "fields", fields);
	json_decref(fields);
	return cur;
}

/* The vdev tree under "NAME STATE READ WRITE CKSUM". */
static struct bl_line zpool_config(struct sys *s, const struct bl_line *head, const char *pool,
				   size_t poollen)
{
	json_t *o = item(s, "zpool", head);
	json_t *vdevs = json_array();
	struct bl_line cur = *head, next;
	size_t base_indent = (size_t)-1;
	int n = 0;
	while (n < 200 && bl_line_next(s->m, &cur, &next)) {
		struct bl_re_match m;
		if (bl_re_match(&zclass_re, next.s, next.len, 0, &m)) {
			json_t *v = json_object();
			json_object_set_new(v, "name",
					    json_stringn(next.s + m.ov[4], bl_re_glen(&m, 2)));
			json_object_set_new(v, "class", json_true());
			json_array_append_new(vdevs, v);
		} else if (bl_re_match(&zrow_re, next.s, next.len, 0, &m)) {
			size_t indent = bl_re_glen(&m, 1);
			if (base_indent == (size_t)-1)
				base_indent = indent;
			json_t *v = json_object();
			json_object_set_new(v, "name",
					    json_stringn(next.s + m.ov[4], bl_re_glen(&m, 2)));
			json_object_set_new(v, "state",
					    json_stringn(next.s + m.ov[6], bl_re_glen(&m, 3)));
			json_object_set_new(v, "indent",
					    json_integer((json_int_t)(indent >= base_indent
									      ? indent - base_indent
									      : 0)));
			json_array_append_new(vdevs, v);
			if (o && !pool && json_array_size(vdevs) == 1)
				json_object_set_new(
					o, "pool",
					json_stringn(next.s + m.ov[4], bl_re_glen(&m, 2)));
		} else if (!bl_is_blank(next.s, next.len) || json_array_size(vdevs)) {
			break;
		}
		cur = next;
		n++;
	}
	if (o) {
		if (pool)
			json_object_set_new(o, "pool", json_stringn(pool, poollen));
		json_object_set(o, "vdevs", vdevs);
	}
	json_decref(vdevs);
	return cur;
}

/* A pattern that cannot match a line without `need` is not run on it:
 * most lines of a post have no ':' or '=' and would cost every pattern
 * below (a sixth of the time on dense tool output). */
static bool match_if(bool need, struct bl_re *re, const struct bl_line *l, struct bl_re_match *m)
{
	return need && bl_re_match(re, l->s, l->len, 0, m);
}

/* Whether c, the first byte of a line after its blanks, can start a match
 * of a pattern whose label is one of the words starting with `firsts`
 * (lowercase; the patterns are caseless). A byte of a multibyte character
 * may be one of the few that caseless UTF-8 matching folds to ASCII (the
 * long s, U+017F, matches 's'): those lines are always tried. */
static bool label_start(unsigned char c, const char *firsts)
{
	if (c >= 0x80)
		return true;
	if (c >= 'A' && c <= 'Z')
		c = (unsigned char)(c - 'A' + 'a');
	for (const char *f = firsts; c && *f; f++)
		if ((unsigned char)*f == c)
			return true;
	return false;
}

/* Whether the word occurs in line l: found by its first byte (a line is a
 * few dozen bytes: one memchr, no vector steps to set up). */
static inline bool in_text(const struct bl_line *l, const char *w, size_t n)
{
	return bl_find_by(l->s, l->len, w, n, 0) != NULL;
}

/* Whether a line that starts with c (after its indentation) may be one of
 * uname_re's or zhead_re's. */
static inline bool start_letter(unsigned char c)
{
	switch (c) {
	case 'F':
	case 'N':
	case 'O':
	case 'D':
	case 'L':
	case 'S': return true;
	default: return false;
	}
}

/* How long the name uname_re takes that s starts with, its blank
 * included; 0 when it starts with none (most lines: a capital that
 * starts none, or a second letter that ends the look). */
static size_t os_word_len(const char *s, size_t n)
{
#define OS_WORD(w) (n >= sizeof(w) - 1 && memcmp(s, w, sizeof(w) - 1) == 0 ? sizeof(w) - 1 : 0)
	switch (n ? s[0] : 0) {
	case 'F': return OS_WORD("FreeBSD ");
	case 'N': return OS_WORD("NetBSD ");
	case 'O': return OS_WORD("OpenBSD ");
	case 'D': return n > 1 && s[1] == 'r' ? OS_WORD("DragonFly ") : OS_WORD("Darwin ");
	case 'L': return OS_WORD("Linux ");
	case 'S': return OS_WORD("SunOS ");
	default: return 0;
	}
#undef OS_WORD
}

/* Whether s starts with a name uname_re takes and a blank. */
static bool os_word(const char *s, size_t n)
{
	return os_word_len(s, n) != 0;
}

/* "8.0-RELEASE", "7.2-STABLE", "9.0-RC1", "10.1-BETA2": a digit before a
 * '-' and one of the letters the releases start with after it. */
static bool has_release_dash(const char *s, size_t n)
{
	const char *p = s, *e = s + n;
	while (p < e && (p = memchr(p, '-', (size_t)(e - p)))) {
		if (p > s && p[-1] >= '0' && p[-1] <= '9' && p + 1 < e && p[1] &&
		    strchr("RSCPB", p[1]))
			return true;
		p++;
	}
	return false;
}

/* Whether the text at p (n bytes, after a line's indentation) starts
 * with one of the labels (ASCII, compared without case, as the caseless
 * patterns compare them); a byte of a multibyte character among the bytes
 * compared may be one that caseless UTF-8 matching folds to ASCII (the
 * long s, U+017F, matches 's'): such a start is taken to be a label.
 * Most lines a mark leads to start with no label: a tool's row, a
 * command, a sentence with a ':' in it. */
static bool precheck_off; /* for tests: bl_system_set_precheck() */

void bl_system_set_precheck(bool on)
{
	precheck_off = !on;
}

static bool label_at(const char *p, size_t n, const char *const *labels)
{
	if (precheck_off)
		return true;
	for (; *labels; labels++) {
		size_t k = 0;
		const char *w = *labels;
		for (; w[k] && k < n; k++) {
			unsigned char c = (unsigned char)p[k];
			if (c >= 0x80)
				return true;
			if (c >= 'A' && c <= 'Z')
				c = (unsigned char)(c - 'A' + 'a');
			if (c != (unsigned char)w[k])
				break;
		}
		if (!w[k])
			return true;
	}
	return false;
}

/* The labels of cpu_re, mem_re, chipset_re, hdd_re and os_label_re
 * (lowercase; a label that starts another one stands for both). */
static const char *const cpu_labels[] = {"cpu", "proc", "model name", "hw.model", NULL};
static const char *const mem_labels[] = {"ram", "mem", "real memory", "hw.physmem", NULL};
static const char *const board_labels[] = {"chipset",   "mb",    "motherboard",
					   "mainboard", "board", NULL};
static const char *const hdd_labels[] = {"hdd", "disk", "drive", "storage", NULL};
static const char *const os_labels[] = {"os", "sys", "operating system", "uname -a", NULL};

/* How many bytes at p (n of them) are in [lo, hi]. */
static size_t span_of(const char *p, size_t n, char lo, char hi)
{
	size_t k = 0;
	while (k < n && p[k] >= lo && p[k] <= hi)
		k++;
	return k;
}

/* Whether the word at p (after a line's indentation) may be
 * tunable_re's "vfs.zfs.arc_max": [a-z][a-z0-9_]* and a '.'; knob_re's
 * "ahci_load": the same and (blanks and) '='; a device's "ad4:" of
 * ata_disk_re, cam_disk_re and ctl_re: letters, digits and ':'. */
static size_t name_len(const char *p, size_t n)
{
	size_t k = 0;
	if (n && p[0] >= 'a' && p[0] <= 'z')
		for (k = 1; k < n && ((p[k] >= 'a' && p[k] <= 'z') ||
				      (p[k] >= '0' && p[k] <= '9') || p[k] == '_');)
			k++;
	return k;
}

static bool tunable_word(const char *p, size_t n)
{
	size_t k = name_len(p, n);
	return precheck_off || (k && k < n && p[k] == '.');
}

static bool knob_word(const char *p, size_t n)
{
	size_t k = name_len(p, n);
	while (k && k < n && (p[k] == ' ' || p[k] == '\t'))
		k++;
	return precheck_off || (k && k < n && p[k] == '=');
}

static bool device_word(const char *p, size_t n)
{
	size_t k = span_of(p, n, 'a', 'z'), d = k ? span_of(p + k, n - k, '0', '9') : 0;
	return precheck_off || (d && k + d < n && p[k + d] == ':');
}

/* What a line has that its patterns need, found once for them all. */
struct line_needs {
	size_t b; /* the indentation's length */
	unsigned char c0; /* the first byte after it (0: none) */
	bool lower; /* c0 is a lowercase letter */
	bool colon, wide, eq, slash;
	const char *w; /* the line after its indentation */
	size_t wn;
	bool cpu, mem, dev; /* it may be cpu_re's, mem_re's, a device's */
};

/* What line l has that the patterns need. */
static void needs_of(const struct bl_line *l, struct line_needs *ln)
{
	/* the first byte after the indentation: each "Label:" pattern is
	 * tried only on a line that starts like one */
	size_t b = 0;
	while (b < l->len && (l->s[b] == ' ' || l->s[b] == '\t'))
		b++;
	ln->b = b;
	ln->c0 = b < l->len ? (unsigned char)l->s[b] : 0;
	ln->lower = ln->c0 >= 'a' && ln->c0 <= 'z';
	/* what the patterns need: ':' (COLON also takes the full-width
	 * "："), '=', a '/' for a path */
	ln->colon = memchr(l->s, ':', l->len) != NULL;
	ln->wide = in_text(l, "\xEF\xBC\x9A", 3);
	ln->eq = memchr(l->s, '=', l->len) != NULL;
	ln->slash = memchr(l->s, '/', l->len) != NULL;
	/* what the line starts with, after its indentation */
	ln->w = l->s + b;
	ln->wn = l->len - b;
	ln->cpu = (ln->colon || ln->wide) && label_start(ln->c0, "cpmh") &&
		  label_at(ln->w, ln->wn, cpu_labels);
	ln->mem = (ln->colon || ln->wide || ln->eq) && label_start(ln->c0, "rmh") &&
		  label_at(ln->w, ln->wn, mem_labels);
	ln->dev = ln->colon && ln->lower && device_word(ln->w, ln->wn);
}

/* A config file named ("/boot/loader.conf": in force for the lines
 * after it), and a file said to be empty ("/tmp/x is empty"). */
static void file_facts(struct sys *s, const struct bl_line *l, const struct line_needs *ln,
		       long idx)
{
	struct bl_re_match m;
	json_t *o;
	if (match_if(ln->slash && (in_text(l, "/boot/", 6) || in_text(l, "/etc/", 5)), &conffile_re,
		     l, &m)) {
		static const char *const files[] = {"/boot/loader.conf",
						    "/boot/loader.conf.local",
						    "/etc/sysctl.conf",
						    "/etc/rc.conf",
						    "/etc/rc.conf.local",
						    "/boot/device.hints",
						    NULL};
		for (const char *const *f = files; *f; f++)
			if (strlen(*f) == bl_re_glen(&m, 1) &&
			    memcmp(*f, l->s + m.ov[2], strlen(*f)) == 0)
				s->conf = *f;
		s->conf_until = idx + 3;
	}
	if (match_if(ln->slash && (in_text(l, "mpty", 4) || in_text(l, "MPTY", 4)), &empty_re, l,
		     &m) &&
	    (o = item(s, "files", l))) {
		set_group(o, "path", l, &m, bl_re_gset(&m, 1) ? 1 : 2);
		json_object_set_new(o, "empty", json_true());
	}
}

/* A tunable: "vm.kmem_size=768M", "vfs.zfs.prefetch_disable: 1" (a
 * sysctl root's), "ahci_load="YES"", with the config file it is in force
 * from; whether the line was one. */
static bool tunable_fact(struct sys *s, const struct bl_line *l, const struct line_needs *ln,
			 long idx)
{
	struct bl_re_match m;
	json_t *o;
	if (match_if(ln->lower && (ln->colon || ln->eq) && tunable_word(ln->w, ln->wn), &tunable_re,
		     l, &m) &&
	    (l->s[m.ov[4]] == '=' ||
	     /* "name: value" only for sysctl roots, not prose */
	     strncmp(l->s + m.ov[2], "vfs.", 4) == 0 || strncmp(l->s + m.ov[2], "vm.", 3) == 0 ||
	     strncmp(l->s + m.ov[2], "kern.", 5) == 0 || strncmp(l->s + m.ov[2], "hw.", 3) == 0 ||
	     strncmp(l->s + m.ov[2], "net.", 4) == 0 ||
	     strncmp(l->s + m.ov[2], "kstat.", 6) == 0) &&
	    !match_if(ln->cpu, &cpu_re, l, NULL) && !match_if(ln->mem, &mem_re, l, NULL) &&
	    (o = item(s, "tunables", l))) {
		set_group(o, "key", l, &m, 1);
		int g = bl_re_gset(&m, 3) ? 3 : bl_re_gset(&m, 4) ? 4 : 5;
		tunable_value(o, l->s + m.ov[2 * g], bl_re_glen(&m, g));
		if (s->conf && idx <= s->conf_until)
			json_object_set_new(o, "file", json_string(s->conf));
		else if (l->s[m.ov[4]] == ':')
			json_object_set_new(o, "file", json_string("sysctl"));
		if (s->conf && idx <= s->conf_until)
			s->conf_until = idx + 2;
		return true;
	}
	if (match_if(ln->lower && ln->eq && knob_word(ln->w, ln->wn), &knob_re, l, &m) &&
	    (o = item(s, "tunables", l))) {
		set_group(o, "key", l, &m, 1);
		tunable_value(o, l->s + m.ov[4], bl_re_glen(&m, 2));
		if (s->conf && idx <= s->conf_until) {
			json_object_set_new(o, "file", json_string(s->conf));
			s->conf_until = idx + 2;
		}
		return true;
	}
	return false;
}

/* A labelled CPU (with its packages, cores and threads), memory size,
 * chipset or board; whether the line was one. */
static bool hardware_fact(struct sys *s, const struct bl_line *l, const struct line_needs *ln)
{
	struct bl_re_match m;
	json_t *o;
	if (match_if(ln->cpu, &cpu_re, l, &m) && (o = item(s, "cpu", l))) {
		set_group(o, "value", l, &m, 1);
		struct bl_re_match t;
		if (bl_re_match(&topo_re, l->s, l->len, 0, &t)) {
			uint64_t v;
			if (u64_of(l->s + t.ov[2], bl_re_glen(&t, 1), &v))
				json_object_set_new(o, "packages", json_integer((json_int_t)v));
			if (u64_of(l->s + t.ov[4], bl_re_glen(&t, 2), &v))
				json_object_set_new(o, "cores", json_integer((json_int_t)v));
			if (bl_re_gset(&t, 3) && u64_of(l->s + t.ov[6], bl_re_glen(&t, 3), &v))
				json_object_set_new(o, "threads", json_integer((json_int_t)v));
		}
		return true;
	}
	if (match_if(ln->mem, &mem_re, l, &m) && (o = item(s, "memory", l))) {
		set_group(o, "value", l, &m, 1);
		mem_bytes(o, l->s + m.ov[2], bl_re_glen(&m, 1));
		return true;
	}
	if (match_if((ln->colon || ln->wide) && label_start(ln->c0, "cmb") &&
			     label_at(ln->w, ln->wn, board_labels),
		     &chipset_re, l, &m)) {
		bool chip = bl_re_glen(&m, 1) == 7;
		if ((o = item(s, chip ? "chipset" : "board", l)))
			set_group(o, "value", l, &m, 2);
		return true;
	}
	return false;
}

/* A disk or controller of the boot messages ("ad4: 953869MB <...> at
 * ata2-master SATA150", "ada0: <...> ATA-8 SATA 2.x device", "atapci1:
 * <...>"), or a labelled disk; whether the line was one. */
static bool disk_fact(struct sys *s, const struct bl_line *l, const struct line_needs *ln)
{
	struct bl_re_match m;
	json_t *o;
	if (match_if(ln->dev, &ata_disk_re, l, &m) && (o = item(s, "disks", l))) {
		set_group(o, "device", l, &m, 1);
		uint64_t mb;
		if (u64_of(l->s + m.ov[4], bl_re_glen(&m, 2), &mb) && mb < ((uint64_t)1 << 40))
			json_object_set_new(o, "bytes", json_integer((json_int_t)(mb * 1048576)));
		set_group(o, "model", l, &m, 3);
		set_group(o, "attachment", l, &m, 4);
		set_group(o, "interface", l, &m, 5);
		return true;
	}
	if (match_if(ln->dev && strchr("adnc", ln->c0), &cam_disk_re, l, &m) &&
	    (o = item(s, "disks", l))) {
		set_group(o, "device", l, &m, 1);
		set_group(o, "model", l, &m, 2);
		set_group(o, "interface", l, &m, 3);
		return true;
	}
	if (match_if(ln->dev, &ctl_re, l, &m) && (o = item(s, "controllers", l))) {
		set_group(o, "device", l, &m, 1);
		set_group(o, "model", l, &m, 2);
		return true;
	}
	if (match_if((ln->colon || ln->wide) && label_start(ln->c0, "hds") &&
			     label_at(ln->w, ln->wn, hdd_labels),
		     &hdd_re, l, &m) &&
	    (o = item(s, "disks", l))) {
		set_group(o, "value", l, &m, 1);
		return true;
	}
	return false;
}

/* A labelled OS ("OS: FreeBSD 8.0-RELEASE amd64") or a uname line
 * ("FreeBSD 8.0-RELEASE #0: Sat Nov 21 ..."); whether the line was one. */
static bool os_fact(struct sys *s, const struct bl_line *l, const struct line_needs *ln)
{
	struct bl_re_match m;
	json_t *o;
	if (match_if((ln->colon || ln->wide) && label_start(ln->c0, "osu") &&
			     label_at(ln->w, ln->wn, os_labels),
		     &os_label_re, l, &m) &&
	    (o = item(s, "os", l))) {
		set_group(o, "value", l, &m, 1);
		os_fields(o, l->s + m.ov[2], bl_re_glen(&m, 1));
		s->os_seen = true;
		return true;
	}
	if (match_if(start_letter(ln->c0) && os_word(l->s + ln->b, l->len - ln->b), &uname_re, l,
		     &m) &&
	    (o = item(s, "os", l))) {
		set_group(o, "name", l, &m, 1);
		set_group(o, "release", l, &m, 2);
		s->os_seen = true;
		return true;
	}
	return false;
}

/* A command's line (geli, gmirror, zpool create) or a pool's status
 * ("pool: tank", then the vdev tree under "NAME STATE ..."); *l moves to
 * the last line of a block read with it. Whether the line was one. */
static bool command_fact(struct sys *s, struct bl_line *l, const struct line_needs *ln)
{
	struct bl_re_match m;
	json_t *o;
	if (match_if(in_text(l, "geli ", 5), &geli_re, l, &m) && (o = item(s, "geli", l))) {
		set_group(o, "action", l, &m, 1);
		geli_fields(o, l->s + m.ov[4], bl_re_glen(&m, 2));
		return true;
	}
	if (match_if(in_text(l, "gmirror ", 8), &gmirror_re, l, &m)) {
		o = item(s, "gmirror", l);
		set_group(o, "action", l, &m, 1);
		if (o && bl_re_glen(&m, 2))
			set_group(o, "arguments", l, &m, 2);
		if (bl_re_glen(&m, 1) == 4 && memcmp(l->s + m.ov[2], "list", 4) == 0)
			*l = gmirror_block(s, o, *l);
		return true;
	}
	if (match_if(in_text(l, "zpool create ", 13), &zpool_create_re, l, &m) &&
	    (o = item(s, "zpool", l))) {
		json_object_set_new(o, "action", json_string("create"));
		set_group(o, "pool", l, &m, 2);
		set_group(o, "layout", l, &m, 3);
		return true;
	}
	if (match_if(ln->colon && ln->c0 == 'p', &pool_re, l, &m)) {
		s->pool = l->s + m.ov[2];
		s->poollen = bl_re_glen(&m, 1);
		return true;
	}
	if (match_if(ln->c0 == 'N' && l->len - ln->b >= 4 && memcmp(l->s + ln->b, "NAME", 4) == 0,
		     &zhead_re, l, &m)) {
		*l = zpool_config(s, l, s->pool, s->poollen);
		s->pool = NULL;
		return true;
	}
	return false;
}

/* A release named in prose ("8.0-RELEASE"), when nothing better says it. */
static void release_in_prose(struct sys *s, const struct bl_line *l)
{
	struct bl_re_match m;
	json_t *o;
	if (!s->os_seen && match_if(has_release_dash(l->s, l->len), &bsd_release_re, l, &m) &&
	    (o = item(s, "os", l))) {
		json_object_set_new(o, "release", json_stringn(l->s + m.ov[0], m.ov[1] - m.ov[0]));
		struct bl_re_match n2;
		if (bl_re_match(&os_name_re, l->s, l->len, 0, &n2))
			json_object_set_new(o, "name",
					    json_stringn(l->s + n2.ov[2], bl_re_glen(&n2, 1)));
		s->os_seen = true;
	}
}

/* What one line holds (or the piece of a long line): each pattern is tried
 * only on a line that has what it needs. idx counts the lines read. */
static void one_line(struct sys *s, struct bl_line *lp, long idx)
{
	struct bl_line l = *lp;
	if (!l.len || l.len > MAX_LINE)
		return;
	struct line_needs ln;
	needs_of(&l, &ln);
	file_facts(s, &l, &ln, idx);
	/* one fact a line: the first kind that matches */
	if (!tunable_fact(s, &l, &ln, idx) && !hardware_fact(s, &l, &ln) &&
	    !disk_fact(s, &l, &ln) && !os_fact(s, &l, &ln) && !command_fact(s, &l, &ln))
		release_in_prose(s, &l);
	*lp = l;
}

/* ------------------------------------------------------------ candidates
 *
 * Nearly every line of prose is none of the above, and most hold nothing
 * any pattern needs: the lines read are only those a mark leads to
 * (bl_find_marks, 64 bytes a step), each mark checked where it sits first.
 * Lines between two candidates are never looked at. */

/* Anywhere: ':', '=', '：''s first byte (EF BC 9A), a path's '/', a
 * prompt's '#', '$', '%' or '>' ("srebrny# geli init ..."). After a digit:
 * a release's '-' ("8.0-RELEASE"; not the dashes of a table's rule, of a
 * vdev's empty capacity or of a word). At a line start: the first letters
 * of the names uname_re takes and of "NAME" (zhead_re), of "geli",
 * "gmirror" and "zpool" (a command without a prompt), and the blanks of an
 * indented one. Spelled out as bl_marks_add() builds them, one group a
 * bit:
 *   0 "#$%/" (0x2_)   1 ":=>" (0x3_)   2 "\xEF"   3 "DFLNO" (0x4_)   4 "S"
 *   5 "gz" (also 'j' and 'w')   6 "-" after a digit
 *   7 " \t" (0x20, 0x09; also 0x00 and ')')
 * groups 3, 4, 5 and 7 only at a line start, where a mark costs a line at
 * most: two of them share a group to leave one for the '-', and no group
 * that counts anywhere takes more bytes than its own (a lead byte of
 * Chinese or Japanese text would stop the search at every character). */
const struct bl_marks bl_system_marks = {
	.lo = {0x80, 0, 0, 0x11, 0x09, 0x01, 0x08, 0x20, 0, 0x80, 0x22, 0, 0x08, 0x42, 0x0A, 0x0D},
	.hi = {0x80, 0, 0xC1, 0x02, 0x08, 0x10, 0x20, 0x20, 0, 0, 0, 0, 0, 0, 0x04, 0},
	.line = 0xB8,
	.groups = 8,
	.digit = 0x40,
};

/* Whether the word w (n bytes) is at t[i] (text of len bytes). */
static inline bool word_at(const char *t, size_t len, size_t i, const char *w, size_t n)
{
	return len - i >= n && memcmp(t + i, w, n) == 0;
}

/* Whether a command the patterns read ("geli ", "gmirror ", "zpool
 * create ") is at t[i] after blanks: what follows a prompt, or starts a
 * line, in geli_re, gmirror_re and zpool_create_re. */
static bool command_at(const char *t, size_t len, size_t i)
{
	while (i < len && (t[i] == ' ' || t[i] == '\t'))
		i++;
	return word_at(t, len, i, "geli ", 5) || word_at(t, len, i, "gmirror ", 8) ||
	       word_at(t, len, i, "zpool create ", 13);
}

/* Whether c is one of what \s takes in the patterns (PCRE2's ASCII
 * blanks: no PCRE2_UCP). */
static inline bool re_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* Whether a line (or a piece of a long one) starting at t[i] may be one
 * that only its start makes a candidate: uname_re's "FreeBSD 8.0-RELEASE
 * #0: ...", with its version as the next word or the one after
 * ("FreeBSD srebrny 8.0-RELEASE ..."); zhead_re's "NAME STATE ..."; a
 * command without a prompt. Most prose lines that start with "So" or
 * "Linux is" stop here. A line longer than MAX_LINE is never read, so no
 * search goes further. */
static bool starts_like(const char *t, size_t len, size_t i)
{
	size_t end = len - i > MAX_LINE ? i + MAX_LINE : len;
	if (t[i] == ' ' || t[i] == '\t') {
		while (i < end && (t[i] == ' ' || t[i] == '\t'))
			i++;
		if (i >= end)
			return false;
	}
	switch (t[i]) {
	case 'N':
		if (word_at(t, len, i, "NAME", 4))
			return true;
		break;
	case 'g':
	case 'z': return command_at(t, len, i);
	case 'F':
	case 'O':
	case 'D':
	case 'L':
	case 'S': break;
	default: return false;
	}
	size_t w = os_word_len(t + i, len - i);
	if (!w)
		return false;
	/* "(?:\S+ )?(\d+\.\d+" after the name: a digit now, or after the
	 * next word (\S: not one of PCRE2's ASCII blanks) and one ' ' */
	i += w;
	if (i < end && t[i] >= '0' && t[i] <= '9')
		return true;
	while (i < end && !re_space(t[i]))
		i++;
	return i >= end || (t[i] == ' ' && i + 1 < len && t[i + 1] >= '0' && t[i + 1] <= '9');
}

/* Whether the line around t[at] may hold the word "empty" the way
 * empty_re's guard looks for it ("mpty" or "MPTY"); a line longer than
 * MAX_LINE may (its pieces are left to the reading). Each line is
 * searched once, for the first '/' in it: prose has a '/' in a line or two
 * of ten ("MB/s"), and the word in nearly none. */
static bool empty_near(struct sys *s, size_t at)
{
	if (at < s->empty_end)
		return s->empty_in; /* the line of a '/' before */
	const char *t = s->m->text;
	size_t back = at > MAX_LINE + 1 ? at - MAX_LINE - 1 : 0;
	const char *nl = memrchr(t + back, '\n', at - back);
	if (!nl && back > 0) {
		s->empty_end = at + 1;
		return s->empty_in = true;
	}
	size_t ls = nl ? (size_t)(nl - t) + 1 : 0, n;
	s->empty_in = bl_find_lit2_line(t + ls, s->m->len - ls, "mpty", "MPTY", 4, &n) != NULL;
	s->empty_end = s->empty_in ? at + 1 : ls + n;
	return s->empty_in;
}

/* Whether the mark at t[at] makes its line a candidate: each check is
 * one the line's patterns need (the guards in one_line()), looked at
 * where the mark is. */
static bool candidate(struct sys *s, size_t at)
{
	const char *t = s->m->text;
	size_t len = s->m->len;
	switch (t[at]) {
	case ':':
	case '=': return true;
	case '\xEF': return word_at(t, len, at, "\xEF\xBC\x9A", 3);
	case '/':
		/* conffile_re's "/boot/loader.conf", "/etc/rc.conf"; else empty_re */
		return word_at(t, len, at, "/boot/", 6) || word_at(t, len, at, "/etc/", 5) ||
		       empty_near(s, at);
	case '-':
		/* bsd_release_re, tried only until an OS is known (the mark
		 * is right after a digit: "8.0-RELEASE") */
		return !s->os_seen && at + 1 < len && t[at + 1] && strchr("RSCPB", t[at + 1]);
	case '#':
	case '$':
	case '%':
	case '>': return command_at(t, len, at + 1);
	default:
		/* a line start's group (or a byte sharing its halves) */
		return at > 0 && t[at - 1] == '\n' && starts_like(t, len, at);
	}
}

/* The first window of 64 offsets from `from` on that holds marks, as
 * bl_find_marks() gives it: from the sites pass when there is one. */
static size_t next_marks(const struct sys *s, size_t from, uint64_t *bits, size_t *next)
{
	const struct bl_message *m = s->m;
	if (!s->sites)
		return bl_find_marks(m->text, from, m->len, &bl_system_marks, bits, next);
	/* the sites may be of a longer text than the message's (a window's
	 * own part): their words past the message's end are not read (a mark
	 * past the end in its last word is, and ends the search) */
	const uint64_t *w = s->sites->sys;
	size_t k = from / 64, n = (m->len + 63) / 64;
	uint64_t b = k < n ? w[k] & ~(uint64_t)0 << (from % 64) : 0;
	while (!b && ++k < n)
		b = w[k];
	*bits = b;
	if (!b) {
		*next = m->len;
		return m->len;
	}
	*next = 64 * k + 64 < m->len ? 64 * k + 64 : m->len;
	return 64 * k;
}

/* The text offset of the next candidate at or after `from`, SIZE_MAX
 * when there is none. Offset 0 and the cuts where a long line's pieces
 * start (bl_line_cut) are line starts of their own, which no '\n'
 * precedes. */
static size_t next_candidate(struct sys *s, size_t from)
{
	const struct bl_message *m = s->m;
	if (from == 0 && starts_like(m->text, m->len, 0))
		return 0;
	size_t k = from / BL_LINE_MAX ? from / BL_LINE_MAX : 1; /* the first cut at or after from */
	size_t cut = bl_line_cut(m, k);
	if (cut < from)
		cut = bl_line_cut(m, ++k);
	/* the marks of the last window from `from` on */
	size_t base = s->mark_at, next = s->mark_next;
	uint64_t bits = s->marks;
	if (from >= next)
		bits = 0, next = from;
	else if (from > base)
		bits &= ~(uint64_t)0 << (from - base);
	for (;;) {
		size_t at = m->len;
		if (!bits && next < m->len)
			base = next_marks(s, next, &bits, &next);
		if (bits) {
			at = base + (size_t)__builtin_ctzll(bits);
			bits &= bits - 1;
		}
		for (; cut < at && cut < m->len; cut = bl_line_cut(m, ++k))
			if (starts_like(m->text, m->len, cut)) {
				if (at < m->len) /* the mark is put back, to be looked at next */
					bits |= (uint64_t)1 << (at - base);
				at = cut;
				goto found;
			}
		if (at >= m->len) {
			at = SIZE_MAX;
			goto found;
		}
		if (candidate(s, at))
			goto found;
		continue;
	found:
		s->mark_at = base;
		s->mark_next = next;
		s->marks = bits;
		return at;
	}
}

static json_t *extract(struct bl_message *msg, bool every_line)
{
	struct sys s = {.m = msg, .root = NULL, .conf = NULL, .conf_until = -1};
	if (!msg->len)
		goto done;
	if (!every_line)
		s.sites = bl_message_marks(msg);
	struct bl_line l;
	size_t at = every_line ? 0 : next_candidate(&s, 0);
	if (at == SIZE_MAX)
		goto done;
	bl_line_at(msg, at, &l);
	for (long idx = 0;; idx++) {
		one_line(&s, &l, idx);
		/* the lines a config file is in force for are read one by one
		 * (its tunables are counted in lines); past them, only the
		 * next candidate: idx stays past conf_until */
		if (every_line || idx < s.conf_until) {
			struct bl_line next;
			if (!bl_line_next(msg, &l, &next))
				break;
			l = next;
			continue;
		}
		if (l.next >= msg->len || (at = next_candidate(&s, l.next)) == SIZE_MAX)
			break;
		bl_line_at(msg, at, &l);
	}
done:
	if (s.root && !json_object_size(s.root)) {
		json_decref(s.root);
		return NULL;
	}
	return s.root;
}

json_t *bl_system_extract(struct bl_message *msg)
{
	return extract(msg, false);
}

json_t *bl_system_extract_every_line(struct bl_message *msg)
{
	return extract(msg, true);
}
