/* time.c - reports of time(1) and the shells' time keyword.
 *
 * A report right after a timed command's output is attached to that run
 * ("time dd ..." then dd's summary then the csh line). A report of a
 * command no parser knows ("time (tar xvf ports.tar)") is a run of its own,
 * tool "time", with its command and times as results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"
#include "../base/re.h"
#include "../base/units.h"

/* csh/tcsh: "0.068u 10.386s 1:32.46 11.2% 26+1497k 63+16066io 0pf+0w";
 * tcsh puts a tab after the percent, which a paste turns into blanks:
 * "0.032u 11.308s 0:17.56 64.5%    0+0k 0+0io 0pf+0w" */
static struct bl_re csh_re = BL_RE(
	"^[ \\t]*(\\d{1,12}\\.\\d{1,6})u (\\d{1,12}\\.\\d{1,6})s "
	"(\\d{1,6}:\\d{1,2}(?::\\d{1,2})?(?:\\.\\d{1,6})?) (\\d{1,6}(?:\\.\\d{1,3})?)%"
	"(?:[ \\t]+(\\d{1,12})\\+(\\d{1,12})k (\\d{1,12})\\+(\\d{1,12})io (\\d{1,12})pf\\+(\\d{1,12})w)?[ \\t]*$",
	0);

/* bash, ksh: "real\t4m37.724s"; POSIX -p: "real 1.23"; BusyBox's ash
 * puts a blank after the minutes: "real    0m 5.59s"; one line each of
 * real, user, sys. */
static struct bl_re sh_re = BL_RE(
	"^[ \\t]*(real|user|sys)[ \\t]+(\\d{1,9}(?:h\\d{1,2})?(?:m ?\\d{1,2})?(?:[.,]\\d{1,9})?s?)[ \\t]*$",
	0);

/* zsh: "dd if=/dev/zero of=x bs=1m count=100  0.00s user 0.21s system 95% cpu 0.220 total"
 * (the command comes first: its numbers are not times). Pasted reports
 * pad the fields and may lose the job name or carry a note after them:
 *   "pip install  0.75s user  0.41s system  7% cpu  15.608 total"
 *   "0.03s user  0.01s system  98% cpu  0.048 total"
 *   "readStream, no parsing:  0.45s user  0.99s system 124% cpu  1.164 total (idle reference)" */
static struct bl_re zsh_re = BL_RE(
	"^(?:(.{0,2000}?)[ \\t]+|[ \\t]*)(\\d{1,9}\\.\\d{1,6})s user[ \\t]+(\\d{1,9}\\.\\d{1,6})s system[ \\t]+"
	"(\\d{1,6})% cpu[ \\t]+((?:\\d{1,6}:){0,2}\\d{1,9}\\.\\d{1,6}) total[ \\t]*(?:\\([^()\\n]{1,80}\\)[ \\t]*)?$",
	0);

/* BSD /usr/bin/time: "        1.23 real         0.00 user         0.01 sys" */
static struct bl_re bsd_re =
	BL_RE("^[ \\t]*(\\d{1,12}\\.\\d{1,6}) real[ \\t]+(\\d{1,12}\\.\\d{1,6}) user[ \\t]+"
	      "(\\d{1,12}\\.\\d{1,6}) sys[ \\t]*$",
	      0);
/* its -l lines: "      1920  maximum resident set size" */
static struct bl_re bsd_l_re = BL_RE("^[ \\t]*(\\d{1,20})  ([a-z][a-z ]{2,60}[a-z])[ \\t]*$", 0);

/* GNU /usr/bin/time default:
 * "0.00user 0.00system 0:00.00elapsed 100%CPU (0avgtext+0avgdata 1920maxresident)k"
 * "0inputs+0outputs (0major+75minor)pagefaults 0swaps" */
static struct bl_re gnu_re =
	BL_RE("^[ \\t]*(\\d{1,12}\\.\\d{1,6})user (\\d{1,12}\\.\\d{1,6})system "
	      "((?:\\d{1,6}:){1,2}\\d{1,2}(?:\\.\\d{1,6})?)elapsed (\\d{1,6}|\\?)%CPU"
	      "(?: \\((\\d{1,20})avgtext\\+(\\d{1,20})avgdata (\\d{1,20})maxresident\\)k)?[ \\t]*$",
	      0);
static struct bl_re gnu2_re = BL_RE(
	"^[ \\t]*(\\d{1,20})inputs\\+(\\d{1,20})outputs \\((\\d{1,20})major\\+(\\d{1,20})minor\\)pagefaults (\\d{1,20})swaps[ \\t]*$",
	0);

/* GNU -v: "\tCommand being timed: \"dd if=/dev/zero of=x\"" and lines of
 * "\t<what>: <value>" up to "\tExit status: 0". */
static struct bl_re gnuv_cmd_re = BL_RE("^[ \\t]*Command being timed: \"(.{0,2000})\"[ \\t]*$", 0);
/* keys may hold colons: "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:00.01" */
static struct bl_re gnuv_kv_re = BL_RE("^[ \\t]+([A-Z][^\\n]{2,80}?): (.{0,100})$", 0);

/* GNU time, before its report, when the command did not end well:
 * "Command exited with non-zero status 1", "Command terminated by signal 2" */
static struct bl_re gnu_status_re = BL_RE(
	"^[ \\t]*Command (exited with non-zero status|terminated by signal|stopped by signal) (\\d{1,5})[ \\t]*$",
	0);

/* pdksh and mksh (OpenBSD's ksh, Android's shell), one line:
 * "    0m18.40s real     0m00.00s user     0m02.85s system" */
static struct bl_re pdksh_re = BL_RE(
	"^[ \\t]*(\\d{1,9}m\\d{1,2}\\.\\d{1,6}s) real[ \\t]+(\\d{1,9}m\\d{1,2}\\.\\d{1,6}s) user[ \\t]+"
	"(\\d{1,9}m\\d{1,2}\\.\\d{1,6}s) system[ \\t]*$",
	0);

static double num(const struct bl_line *l, const struct bl_re_match *m, int g)
{
	double v = NAN;
	if (bl_re_gset(m, g))
		bl_parse_double(l->s + m->ov[2 * g], bl_re_glen(m, g), true, &v, NULL);
	return v;
}

static double dur(const struct bl_line *l, const struct bl_re_match *m, int g)
{
	double v = NAN;
	if (!bl_re_gset(m, g))
		return v;
	/* "0,5s" under a comma locale: read as a point; BusyBox's "0m 5.59s"
	 * without its blank */
	char buf[64];
	size_t n = 0, gl = bl_re_glen(m, g);
	if (gl >= sizeof buf)
		return v;
	for (size_t i = 0; i < gl; i++) {
		char c = l->s[m->ov[2 * g] + i];
		if (c != ' ')
			buf[n++] = c == ',' ? '.' : c;
	}
	bl_parse_duration(buf, n, &v);
	return v;
}

static void extra_int(json_t **extra, const char *key, const struct bl_line *l,
		      const struct bl_re_match *m, int g)
{
	uint64_t v;
	if (!bl_re_gset(m, g) || !bl_parse_u64(l->s + m->ov[2 * g], bl_re_glen(m, g), &v, NULL))
		return;
	if (!*extra)
		*extra = json_object();
	json_object_set_new(*extra, key, json_integer((json_int_t)v));
}

/* "Maximum resident set size (kbytes)" -> "maximum_resident_set_size_kbytes" */
static void slug(const char *s, size_t n, char *out, size_t cap)
{
	size_t o = 0;
	bool sep = false;
	for (size_t i = 0; i < n && o + 2 < cap; i++) {
		char c = s[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (sep && o)
				out[o++] = '_';
			out[o++] = c;
			sep = false;
		} else {
			sep = true;
		}
	}
	out[o] = '\0';
}

struct report {
	struct bl_time t;
	size_t off, end; /* text span of the report */
	char *command; /* printed inside the report (zsh, GNU -v), or NULL */
	char *label; /* a caption written in place of zsh's job name */
};

/* csh/tcsh, matched in m: "0.068u 10.386s 1:32.46 11.2% 26+1497k ..." */
static bool read_csh(const struct bl_line *l, const struct bl_re_match *m, struct report *r)
{
	r->t.variant = "csh";
	r->t.user = num(l, m, 1);
	r->t.system = num(l, m, 2);
	r->t.real = dur(l, m, 3);
	r->t.cpu_percent = num(l, m, 4);
	extra_int(&r->t.extra, "shared_kb", l, m, 5);
	extra_int(&r->t.extra, "unshared_kb", l, m, 6);
	extra_int(&r->t.extra, "blocks_in", l, m, 7);
	extra_int(&r->t.extra, "blocks_out", l, m, 8);
	extra_int(&r->t.extra, "page_faults", l, m, 9);
	extra_int(&r->t.extra, "swaps", l, m, 10);
	return true;
}

/* BSD /usr/bin/time, matched in m, and the -l lines below it. */
static bool read_bsd(const struct bl_message *msg, const struct bl_line *l, struct bl_re_match *m,
		     struct report *r)
{
	r->t.variant = "bsd";
	r->t.real = num(l, m, 1);
	r->t.user = num(l, m, 2);
	r->t.system = num(l, m, 3);
	struct bl_line cur = *l, next;
	while (bl_line_next(msg, &cur, &next) && bl_re_match(&bsd_l_re, next.s, next.len, 0, m)) {
		char key[80];
		slug(next.s + m->ov[4], bl_re_glen(m, 2), key, sizeof key);
		extra_int(&r->t.extra, key, &next, m, 1);
		cur = next;
	}
	r->end = cur.next;
	return true;
}

/* GNU /usr/bin/time's default, matched in m, and its second line. */
static bool read_gnu(const struct bl_message *msg, const struct bl_line *l, struct bl_re_match *m,
		     struct report *r)
{
	r->t.variant = "gnu";
	r->t.user = num(l, m, 1);
	r->t.system = num(l, m, 2);
	r->t.real = dur(l, m, 3);
	r->t.cpu_percent = num(l, m, 4);
	extra_int(&r->t.extra, "avgtext_kb", l, m, 5);
	extra_int(&r->t.extra, "avgdata_kb", l, m, 6);
	extra_int(&r->t.extra, "maxresident_kb", l, m, 7);
	struct bl_line next;
	if (bl_line_next(msg, l, &next) && bl_re_match(&gnu2_re, next.s, next.len, 0, m)) {
		extra_int(&r->t.extra, "inputs", &next, m, 1);
		extra_int(&r->t.extra, "outputs", &next, m, 2);
		extra_int(&r->t.extra, "major_faults", &next, m, 3);
		extra_int(&r->t.extra, "minor_faults", &next, m, 4);
		extra_int(&r->t.extra, "swaps", &next, m, 5);
		r->end = next.next;
	}
	return true;
}

/* One "\t<what>: <value>" line of GNU -v (matched in m) into the report. */
static void gnu_verbose_field(const struct bl_line *l, const struct bl_re_match *m,
			      struct report *r)
{
	const char *k = l->s + m->ov[2];
	size_t kl = bl_re_glen(m, 1);
	const char *v = l->s + m->ov[4];
	size_t vl = bl_re_glen(m, 2);
	double d = NAN;
	if (kl >= 9 && memcmp(k, "User time", 9) == 0)
		bl_parse_double(v, vl, false, &r->t.user, NULL);
	else if (kl >= 11 && memcmp(k, "System time", 11) == 0)
		bl_parse_double(v, vl, false, &r->t.system, NULL);
	else if (kl >= 11 && memcmp(k, "Percent of ", 11) == 0)
		bl_parse_double(v, vl, false, &r->t.cpu_percent, NULL);
	else if (kl >= 7 && memcmp(k, "Elapsed", 7) == 0)
		bl_parse_duration(v, vl, &r->t.real);
	else if (bl_parse_double(v, vl, false, &d, NULL)) {
		char key[96];
		slug(k, kl, key, sizeof key);
		if (!r->t.extra)
			r->t.extra = json_object();
		json_object_set_new(r->t.extra, key,
				    bl_value_is_int(d) ? json_integer((json_int_t)d)
						       : json_real(d));
	}
}

/* GNU -v: "Command being timed:" (matched in m), then at least three of
 * its field lines. */
static bool read_gnu_verbose(const struct bl_message *msg, const struct bl_line *l,
			     struct bl_re_match *m, struct report *r)
{
	r->t.variant = "gnu-verbose";
	r->command = bl_strndup_trim(l->s + m->ov[2], bl_re_glen(m, 1));
	struct bl_line cur = *l, next;
	int n = 0;
	while (n < 40 && bl_line_next(msg, &cur, &next) &&
	       bl_re_match(&gnuv_kv_re, next.s, next.len, 0, m)) {
		gnu_verbose_field(&next, m, r);
		cur = next;
		n++;
	}
	if (n < 3) {
		free(r->command);
		json_decref(r->t.extra);
		return false;
	}
	r->end = cur.next;
	return true;
}

/* pdksh and mksh, matched in m: "0m18.40s real 0m00.00s user 0m02.85s system" */
static bool read_pdksh(const struct bl_line *l, const struct bl_re_match *m, struct report *r)
{
	r->t.variant = "ksh";
	r->t.real = dur(l, m, 1);
	r->t.user = dur(l, m, 2);
	r->t.system = dur(l, m, 3);
	return true;
}

/* zsh, matched in m: the job name (or the author's caption in its place),
 * then "0.00s user 0.21s system 95% cpu 0.220 total". */
static bool read_zsh(const struct bl_line *l, const struct bl_re_match *m, struct report *r)
{
	r->t.variant = "zsh";
	r->command = bl_re_glen(m, 1) ? bl_strndup_trim(l->s + m->ov[2], bl_re_glen(m, 1)) : NULL;
	size_t cl = r->command ? strlen(r->command) : 0;
	if (cl && r->command[cl - 1] == ':') {
		/* "fh.read every buffer:   29.86s user ...": the author's
		 * words in place of the job name */
		r->command[cl - 1] = '\0';
		r->label = bl_strndup_trim(r->command, cl - 1);
		free(r->command);
		r->command = NULL;
	} else if (cl == 0) {
		free(r->command);
		r->command = NULL;
	}
	r->t.user = num(l, m, 2);
	r->t.system = num(l, m, 3);
	r->t.cpu_percent = num(l, m, 4);
	r->t.real = dur(l, m, 5);
	return true;
}

/* bash, ksh93 and POSIX -p: real, user and sys, in that order, from the
 * line matched in m (its report may follow a blank line). */
static bool read_sh(const struct bl_message *msg, const struct bl_line *l, struct bl_re_match *m,
		    struct report *r)
{
	struct bl_line cur = *l;
	const char *names[3] = {"real", "user", "sys"};
	double *dst[3] = {&r->t.real, &r->t.user, &r->t.system};
	bool posix = true, ksh93 = true;
	for (int i = 0; i < 3; i++) {
		if (i) {
			struct bl_line next;
			if (!bl_line_next(msg, &cur, &next) ||
			    !bl_re_match(&sh_re, next.s, next.len, 0, m))
				return false;
			cur = next;
		}
		if (bl_re_glen(m, 1) != strlen(names[i]) ||
		    memcmp(cur.s + m->ov[2], names[i], bl_re_glen(m, 1)) != 0)
			return false;
		const char *v = cur.s + m->ov[4];
		size_t vl = bl_re_glen(m, 2);
		if (memchr(v, 'm', vl) || memchr(v, 'h', vl) || v[vl - 1] == 's')
			posix = false;
		/* ksh93 pads the seconds and prints two decimals:
		 * "real\t0m09.14s"; bash prints "0m9.140s" */
		const char *mm = memchr(v, 'm', vl);
		if (!mm || (size_t)(v + vl - mm) != 7 || mm[3] != '.')
			ksh93 = false;
		*dst[i] = dur(&cur, m, 2);
	}
	r->t.variant = posix ? "posix" : ksh93 ? "ksh" : "bash";
	r->end = cur.next;
	return true;
}

/* Reads the report that starts at or around `anchor`: the first of the
 * forms above that its line matches. */
static bool read_report(struct bl_scan *sc, const struct bl_line *anchor, struct report *r)
{
	struct bl_message *msg = bl_scan_message(sc);
	struct bl_re_match m;
	const struct bl_line *l = anchor;
	memset(r, 0, sizeof *r);
	r->t.real = r->t.user = r->t.system = r->t.cpu_percent = NAN;
	r->t.present = true;
	r->off = l->off;
	r->end = l->next;

	if (bl_re_match(&csh_re, l->s, l->len, 0, &m))
		return read_csh(l, &m, r);
	if (bl_re_match(&bsd_re, l->s, l->len, 0, &m))
		return read_bsd(msg, l, &m, r);
	if (bl_re_match(&gnu_re, l->s, l->len, 0, &m))
		return read_gnu(msg, l, &m, r);
	if (bl_re_match(&gnuv_cmd_re, l->s, l->len, 0, &m))
		return read_gnu_verbose(msg, l, &m, r);
	if (bl_re_match(&pdksh_re, l->s, l->len, 0, &m))
		return read_pdksh(l, &m, r);
	if (bl_re_match(&zsh_re, l->s, l->len, 0, &m))
		return read_zsh(l, &m, r);
	if (bl_re_match(&sh_re, l->s, l->len, 0, &m))
		return read_sh(msg, l, &m, r);
	return false;
}

static bool only_blank(const struct bl_message *msg, size_t from, size_t to)
{
	return from <= to && to <= msg->len && bl_is_blank(msg->text + from, to - from);
}

/* Collapses white space so that "dd  if=x" and "dd if=x" compare equal. */
static bool same_command(const char *a, const char *b)
{
	for (;;) {
		while (*a == ' ' || *a == '\t')
			a++;
		while (*b == ' ' || *b == '\t')
			b++;
		if (!*a || !*b)
			return !*a && !*b;
		const char *ea = a, *eb = b;
		while (*ea && *ea != ' ' && *ea != '\t')
			ea++;
		while (*eb && *eb != ' ' && *eb != '\t')
			eb++;
		if (ea - a != eb - b || memcmp(a, b, (size_t)(ea - a)) != 0)
			return false;
		a = ea;
		b = eb;
	}
}

/* Is `printed` (what zsh or GNU -v print) the command of the run? zsh
 * prints what was typed after "time", wrappers included ("sudo dd ..."),
 * where the run's command starts at the tool's word. */
static bool names_command(const char *printed, const char *cmd)
{
	if (same_command(printed, cmd))
		return true;
	/* a padded copy: the pattern reads past the end of its subject */
	size_t n = strlen(printed);
	char *line = malloc(n + BL_RE_PAD);
	if (!line)
		return false;
	memcpy(line, printed, n);
	bl_re_pad(line, n);
	struct bl_cmdline cl;
	bool named = bl_scan_parse_cmdline(line, n, NULL, &cl) && cl.cmd_start > 0 &&
		     same_command(printed + cl.cmd_start, cmd);
	free(line);
	return named;
}

static void add_time_results(struct bl_run *run)
{
	bl_run_result(run, "elapsed", run->time.real, "s", NULL, 0);
	bl_run_result(run, "user", run->time.user, "s", NULL, 0);
	bl_run_result(run, "system", run->time.system, "s", NULL, 0);
	if (!isnan(run->time.cpu_percent))
		bl_run_result(run, "cpu", run->time.cpu_percent, "percent", NULL, 0);
}

/* How far above its report a timed command may stand: the command's own
 * output comes between (f3write prints nine lines before GNU time's). */
#define TIMED_LOOKBACK 16

/* The command a report timed, when the report does not print it:
 *   $ time (tar xvf ports.tar 2>/dev/null)
 *   [root@freebsd:/ufs]$ time rm -R ports
 *   $ /usr/bin/time f3write -e 1 /run/media/jimis/KINGSTON/   (output between)
 * Only a line with a time wrapper is taken, and a block claimed above
 * (the floor) ends the search. */
static bool find_timed_command(struct bl_scan *sc, struct bl_run *run)
{
	struct bl_message *msg = bl_scan_message(sc);
	struct bl_line cur, prev;
	bl_line_at(msg, run->off, &cur);
	for (int k = 0; k < TIMED_LOOKBACK; k++) {
		if (!bl_line_prev(msg, &cur, &prev) || prev.off < bl_scan_floor(sc))
			return false;
		cur = prev;
		struct bl_cmdline cl;
		if (!bl_scan_parse_cmdline(cur.s, cur.len, NULL, &cl) || !cl.timed)
			continue;
		run->command = bl_strndup_trim(cur.s + cl.cmd_start, cur.len - cl.cmd_start);
		run->timed = true;
		run->has_command = run->command != NULL;
		run->cmd_off = cur.off;
		run->off = cur.off;
		return true;
	}
	return false;
}

static enum bl_claim time_claim(struct bl_scan *sc, const struct bl_line *anchor, size_t *end)
{
	struct bl_message *msg = bl_scan_message(sc);
	struct bl_doc *doc = bl_scan_doc(sc);
	struct report r;
	if (!read_report(sc, anchor, &r))
		return BL_NOT_MINE;
	/* GNU time's "Command exited with non-zero status 1" above its report */
	if (strcmp(r.t.variant, "gnu") == 0 || strcmp(r.t.variant, "gnu-verbose") == 0) {
		struct bl_line at, up;
		struct bl_re_match m;
		bl_line_at(msg, r.off, &at);
		if (bl_line_prev(msg, &at, &up) && up.off >= bl_scan_floor(sc) &&
		    bl_re_match(&gnu_status_re, up.s, up.len, 0, &m)) {
			const char *what = up.s + m.ov[2];
			extra_int(&r.t.extra, what[0] == 'e' ? "exit_status" : "signal", &up, &m,
				  2);
			r.off = up.off;
		}
	}
	r.t.off = r.off;
	r.t.end_off = r.end;
	*end = r.end;

	/* Attach to the run it timed: the last run, ending just above, whose
	 * command was timed or is the command the report names. */
	struct bl_run *last = bl_doc_last_run(doc);
	if (last && !last->time.present && strcmp(last->tool, "time") != 0 &&
	    only_blank(msg, last->end_off, r.off) &&
	    (r.command ? (last->command && names_command(r.command, last->command))
		       : last->timed)) {
		last->time = r.t;
		last->end_off = r.end;
		free(r.command);
		free(r.label);
		return BL_CLAIMED;
	}

	struct bl_run *run = bl_doc_add_run(doc, "time", r.t.variant, r.off, r.end);
	if (!run) {
		free(r.command);
		free(r.label);
		json_decref(r.t.extra);
		return BL_NOT_MINE;
	}
	run->time = r.t;
	run->label = r.label;
	if (r.command) {
		run->command = r.command;
		run->has_command = true;
		run->timed = true;
	} else {
		find_timed_command(sc, run);
	}
	add_time_results(run);
	return BL_CLAIMED;
}

static const char *const time_variants[] = {
	"csh (tcsh: 0.068u 10.386s 1:32.46 11.2% ...)",
	"bash (real/user/sys with 0m1.597s, after a blank line)",
	"ksh (ksh93: real 0m09.14s; pdksh/mksh: 0m18.40s real 0m00.00s user 0m02.85s system)",
	"posix (time -p: real 1.23)",
	"zsh (command, then: 0.00s user 0.21s system 95% cpu 0.220 total)",
	"bsd (/usr/bin/time: 1.23 real 0.00 user 0.01 sys, and -l)",
	"gnu (/usr/bin/time: 0.00user 0.00system 0:00.00elapsed 100%CPU, after \"Command exited with non-zero status N\")",
	"gnu-verbose (/usr/bin/time -v)",
	NULL,
};

/* How time's reports look where a post lost its line breaks
 * (ingest/shapes.h). */
/* csh's time: "0.029u 6.422s 1:07.25 9.5% 26+1531k 0+0io 0pf+0w", and
 * tcsh's, a tab or a run of blanks after the percentage:
 * "0.396u 1.298s 0:31.91 5.2%\t0+0k 0+23472io 0pf+0w",
 * "0.032u 11.308s 0:17.56 64.5%    0+0k 0+0io 0pf+0w" */
#define TIME_CSH                                                                                   \
	"\\d+\\.\\d+u \\d+\\.\\d+s [\\d:.]+ [\\d.]+%[ \\t]{1,16}\\d+\\+\\d+k \\d+\\+\\d+io \\d+pf\\+\\d+w"
/* pdksh: "0m18.40s real     0m00.00s user     0m02.85s system" */
#define TIME_PDKSH "\\d+m[\\d.]+s real +\\d+m[\\d.]+s user +\\d+m[\\d.]+s sys(?:tem)?"
/* BSD /usr/bin/time ("%9.2f real %9.2f user %9.2f sys"):
 * "7.42 real         0.00 user         0.41 sys"; not a time -p after
 * "sleep 0.1": "0.1 real 0.10 user 0.00 sys" */
#define TIME_BSD "\\d+\\.\\d\\d real {2,}\\d+\\.\\d\\d user {2,}\\d+\\.\\d\\d sys"
/* "real 0m1.597s" "user 0m0.001s" "sys 0m0.5s" (bash time, tabs kept),
 * "real    0m 2.92s" (BusyBox ash),
 * "real 0.01" (time -p); not zsh's "0.00s user 0.21s system" */
#define TIME_FIELD(word) word "[ \\t]+(?:\\d+m ?[\\d.]+s|\\d+\\.\\d+(?![\\d.s]))"
/* GNU time: "0.00user 0.01system 0:00.01elapsed 83%CPU (0avgtext+0avgdata 2772maxresident)k"
 * "0inputs+65536outputs (0major+358minor)pagefaults 0swaps"
 * "Command exited with non-zero status 1" */
#define TIME_GNU                                                                                   \
	"\\d+\\.\\d+user \\d+\\.\\d+system [\\d:.]+elapsed \\d+%CPU "                              \
	"\\(\\d+avgtext\\+\\d+avgdata \\d+maxresident\\)k"
#define TIME_GNU_IO "\\d+inputs\\+\\d+outputs \\(\\d+major\\+\\d+minor\\)pagefaults \\d+swaps"
#define TIME_GNU_EXIT "Command exited with non-zero status \\d+"
/* zsh prints the command before its times, on one line:
 *   "dd if=/dev/zero of=x bs=1m count=100  0.00s user 0.21s system 95% cpu 0.220 total"
 * and pasted reports pad the fields:
 *   "pip install  0.75s user  0.41s system  7% cpu  15.608 total" */
#define TIME_ZSH                                                                                      \
	"\\d+(?:\\.\\d+)?s user[ \\t]{1,16}\\d+(?:\\.\\d+)?s system[ \\t]{1,16}\\d+% cpu[ \\t]{1,16}" \
	"[\\d:.]+ total"

static const struct bl_line_shape time_lines[] = {
	{.pattern = TIME_CSH, .lit = "pf+", .rare = 2, .digit_after = true, .rewrapped = true},
	/* their lines hold a match of TIME_FIELD("real") too
	 * ("0m18.40s real     0m00.00s"): not searched for */
	{.pattern = TIME_PDKSH},
	{.pattern = TIME_BSD},
	/* prose has each of their letters every few dozen bytes: found by
	 * the ends of the word, not by memchr */
	{.pattern = TIME_FIELD("real"),
	 .lit = "real",
	 .rare = BL_SHAPE_BY_ENDS,
	 .next = "[ \\t]+\\d"},
	{.pattern = TIME_FIELD("user"),
	 .lit = "user",
	 .rare = BL_SHAPE_BY_ENDS,
	 .next = "[ \\t]+\\d"},
	{.pattern = TIME_FIELD("sys"), .lit = "sys", .rare = BL_SHAPE_BY_ENDS, .next = "[ \\t]+\\d"},
	/* a mail client may break it after "(0avgtext+0avgdata" */
	{.pattern = TIME_GNU, .lit = "%CPU ", .rare = 0, .rewrapped = true},
	{.pattern = TIME_GNU_IO, .lit = "outputs (", .rare = 8, .digit_after = true},
	/* by its ends too: its rarest byte, x, is every few hundred bytes of
	 * some archives */
	{.pattern = TIME_GNU_EXIT, .lit = "Command exited", .rare = BL_SHAPE_BY_ENDS},
};

/* a short line with a zsh report is a flattened post when a prompt or
 * an empty line's blanks share it */
static const struct bl_line_shape time_ends[] = {
	{.pattern = TIME_ZSH, .lit = "% cpu", .rare = 0},
};

static const struct bl_tool_shapes time_shapes = {
	.lines = time_lines,
	.nlines = sizeof time_lines / sizeof time_lines[0],
	.ends = time_ends,
	.nends = sizeof time_ends / sizeof time_ends[0],
	/* GNU time -v, one tab-led field a line: "\tUser time (seconds): 0.00",
	 * "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:00.01" */
	.weak_starts =
		"\\t(?=[A-Z][^\\t\\n]{1,80}?: )"
		/* BSD /usr/bin/time -l: "      2936  maximum resident set size" */
		"|(?<!\\d)\\d+  (?=(?:maximum|average|page|swaps|block|messages|signals|voluntary|involuntary)\\b)",
	.weak_start_needs = (const char *const[]){"\t", "  ", NULL},
};

/* Charts: the three times of each command side by side, titled as the
 * shells print them. */
static const char *const time_chart_metrics[] = {"elapsed", "user", "system", NULL};

static const struct bl_chart_view time_views[] = {
	{.name = "elapsed",
	 .title = "time(1) per command",
	 .metrics = time_chart_metrics,
	 .unit = "s",
	 .category = BL_KEY_LABEL,
	 .series = BL_KEY_METRIC,
	 .chart_per = BL_KEY_NONE},
	{.name = NULL},
};

static const struct bl_metric_info time_metric_info[] = {
	{.metric = "elapsed", .title = "real", .units = "s", .about = "wall-clock time"},
	{.metric = "user", .title = "user", .units = "s", .about = "CPU time in user mode"},
	{.metric = "system", .title = "sys", .units = "s", .about = "CPU time in the kernel"},
	{.metric = "cpu", .units = "percent", .about = "(user + sys) / real, as time printed it"},
	{.metric = NULL},
};

const struct bl_parser bl_parser_time = {
	.name = "time",
	.summary = "time(1) and shell time reports, attached to the run they timed",
	.variants = time_variants,
	.anchor =
		"\\d\\.\\d+u \\d+\\.\\d+s \\d|^[ \\t]*real[ \\t]+\\d|\\d real[ \\t]+\\d|\\ds real[ \\t]+\\d|"
		"\\dsystem \\d|s system[ \\t]+\\d+% cpu|Command being timed:",
	.command_word = NULL,
	.shapes = &time_shapes,
	.claim = time_claim,
	.command = NULL,
	.views = time_views,
	.metrics = time_metric_info,
};
