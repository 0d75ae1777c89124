/* replay.c - the plans of one document run in order, each tool's output
 * parsed by the same parser that read the post, and the comparison
 * document built from what finished. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../parsers/benchlog.h"
#include "internal.h"

#define KEEP_OUTPUT (64u << 10)

struct progress_ctx {
	const struct bl_replay_opts *o;
	struct bl_replay_progress pr;
	double remaining_after; /* expected seconds of the plans after this one */
	double avg; /* mean duration so far, for plans with no estimate */
};

static double estimate(const struct bl_plan *p, double avg)
{
	if (p->expected_seconds >= 0)
		return p->expected_seconds;
	return avg > 0 ? avg : -1;
}

static void tick(void *vctx, double elapsed)
{
	struct progress_ctx *c = vctx;
	if (!c->o->progress)
		return;
	c->pr.elapsed = elapsed;
	double mine = estimate(c->pr.plan, c->avg);
	double left = mine >= 0 ? fmax(mine - elapsed, 0) : -1;
	c->pr.eta = (left >= 0 && c->remaining_after >= 0) ? left + c->remaining_after : -1;
	c->pr.finished = false;
	c->o->progress(c->o->progress_ctx, &c->pr);
}

/* The runs of the replay output that the plan's parser found. */
static json_t *parse_output(const struct bl_plan *p, const struct bl_spawn_result *sr,
			    json_t **diags)
{
	json_t *runs = json_array();
	*diags = json_array();
	struct bl_message m;
	if (bl_message_from_text(&m, sr->output, sr->len, 0, 1) < 0) {
		bl_message_free(&m);
		return runs;
	}
	json_t *doc = bl_parse_message(&m, "replay");
	bl_message_free(&m);
	if (!doc)
		return runs;
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(doc, "runs"), i, r)
	{
		const char *t = json_string_value(json_object_get(r, "tool"));
		if (t && p->parser && strcmp(t, p->parser) == 0) {
			json_t *o = json_object();
			json_object_set(o, "tool", json_object_get(r, "tool"));
			json_object_set(o, "variant", json_object_get(r, "variant"));
			json_object_set(o, "results", json_object_get(r, "results"));
			json_array_append_new(runs, o);
		}
	}
	json_array_extend(*diags, json_object_get(doc, "diagnostics"));
	json_decref(doc);
	return runs;
}

static json_t *tail_text(const struct bl_spawn_result *sr)
{
	const char *s = sr->output ? sr->output : "";
	size_t len = sr->len;
	if (len > KEEP_OUTPUT) {
		s += len - KEEP_OUTPUT;
		len = KEEP_OUTPUT;
		/* not in the middle of a UTF-8 sequence */
		while (len && ((unsigned char)*s & 0xC0) == 0x80) {
			s++;
			len--;
		}
	}
	json_t *j = json_stringn(s, len);
	return j ? j : json_string("(output not valid UTF-8)");
}

static const char *outcome(const struct bl_spawn_result *sr)
{
	if (sr->spawn_failed)
		return "failed";
	if (sr->interrupted)
		return "interrupted";
	if (sr->timed_out)
		return "timeout";
	if (sr->exit_status != 0)
		return "failed";
	return "done";
}

/* Runs one READY plan; fills `e` (the replay entry). Returns its outcome. */
static const char *run_plan(const struct bl_plan *p, json_t *archived, const char *scratch,
			    const char *bwrap, const struct bl_replay_opts *o,
			    struct progress_ctx *pc, json_t *e, json_t *tools, bool total_limited)
{
	char why[400];
	if (bl_sandbox_prepare(p, scratch, why, sizeof why) < 0) {
		json_object_set_new(e, "reason", json_string(why));
		return "failed";
	}
	bl_sandbox_drop_cache(p);
	char *tool = bl_replay_which(p->tool, o->tools_dir);
	if (!tool) {
		json_object_set_new(e, "reason", json_string("the tool disappeared"));
		return "failed";
	}
	if (!json_object_get(tools, p->tool))
		json_object_set_new(tools, p->tool,
				    bl_replay_tool_version(p->tool, tool, bwrap, scratch,
							   bl_budget_seconds(o)));
	struct bl_spawn_result sr;
	json_t *steps = NULL;
	if (p->kind == BL_KIND_ZPOOL) {
		steps = json_array();
		bl_zpool_run(p, scratch, o, bwrap, &sr, steps);
		sr.cpu_unknown = true; /* zpool iostat's own, not the pool's */
	} else {
		char **argv = bl_sandbox_argv(p, tool, bwrap, scratch);
		if (!argv) {
			free(tool);
			return "failed";
		}
		bl_spawn(argv, bwrap ? NULL : p->cwd, bl_budget_seconds(o), o->interrupted, tick,
			 pc, &sr);
		bl_argv_free(argv);
	}
	free(tool);
	const char *st = outcome(&sr);
	if (sr.spawn_failed)
		json_object_set_new(e, "reason", json_string(sr.error));
	else if (sr.timed_out)
		json_object_set_new(
			e, "reason",
			json_string(total_limited ? "stopped at --max-total-seconds: the whole "
						    "replay's time ran out"
						  : "stopped at --max-seconds"));
	json_t *res = json_object();
	json_object_set_new(res, "exit_status", json_integer(sr.exit_status));
	if (sr.signal)
		json_object_set_new(res, "signal", json_integer(sr.signal));
	json_t *t = json_object();
	json_object_set_new(t, "real", json_real(round(sr.real * 1e3) / 1e3));
	if (sr.cpu_unknown) {
		json_object_set_new(t, "user", json_null());
		json_object_set_new(t, "system", json_null());
	} else {
		json_object_set_new(t, "user", json_real(round(sr.user * 1e3) / 1e3));
		json_object_set_new(t, "system", json_real(round(sr.system * 1e3) / 1e3));
	}
	json_object_set_new(res, "time", t);
	json_t *diags;
	json_t *runs = parse_output(p, &sr, &diags);
	json_object_set_new(res, "runs", runs);
	if (json_array_size(diags))
		json_object_set(res, "diagnostics", diags);
	json_object_set_new(res, "output", tail_text(&sr));
	if (sr.truncated || sr.len > KEEP_OUTPUT)
		json_object_set_new(res, "output_truncated", json_true());
	if (steps)
		json_object_set_new(res, "steps", steps);
	json_object_set_new(e, "replayed", res);
	json_object_set_new(e, "comparison", bl_compare_run(archived, runs, p, &sr));
	if (!json_array_size(runs) && !sr.spawn_failed)
		json_object_set_new(
			e, "note",
			json_string(
				bl_parser_find(p->parser)
					? "the parser found no results in the replay's output"
					: "no parser for this tool's output yet: the output is kept, "
					  "the comparison is empty"));
	json_decref(diags);
	bl_spawn_result_free(&sr);
	return st;
}

static void human(uint64_t b, char *buf, size_t n)
{
	static const char *const unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
	double v = (double)b;
	size_t u = 0;
	while (v >= 1024 && u + 1 < sizeof unit / sizeof unit[0]) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%llu bytes", (unsigned long long)b);
	else
		snprintf(buf, n, "%.*f %s", v < 10 && v != (double)(uint64_t)v ? 1 : 0, v, unit[u]);
}

/* What a run is charged against the whole replay's bytes: the data it is
 * planned to move (the per-run budget when unknown) and the input files
 * prepared for it that are not there yet. *disk: what it may put on the
 * scratch file system (nothing for dd if=/dev/zero of=/dev/null). */
static uint64_t run_cost(const struct bl_plan *p, const struct bl_replay_opts *o, uint64_t *disk)
{
	uint64_t prepared = 0, moved = p->replay_bytes ? p->replay_bytes : bl_budget_bytes(o);
	bool writes = false;
	for (size_t i = 0; i < p->npaths; i++) {
		const struct bl_plan_path *pp = &p->paths[i];
		struct stat st;
		if (pp->role != BL_PATH_READ)
			writes = true;
		else if (lstat(pp->path, &st) < 0)
			prepared += pp->prepare_bytes;
	}
	*disk = prepared + (writes ? moved : 0);
	return moved + prepared;
}

/* Whether the whole replay's budget and the scratch file system let plan
 * `p` start; else the reason is left in t->spent. *seconds: how long it
 * may run; *limited: the whole replay's time, not --max-seconds, set it. */
static bool budget_allows(const struct bl_plan *p, const char *scratch,
			  const struct bl_replay_opts *o, struct bl_replay_total *t, uint64_t *cost,
			  double *seconds, bool *limited)
{
	char a[32], b[32], c[32];
	double now = bl_now();
	if (!t->started)
		t->started = now;
	*seconds = bl_budget_seconds(o);
	*limited = false;
	if (t->max_seconds > 0) {
		double left = t->max_seconds - (now - t->started);
		if (left < 0.5) {
			snprintf(
				t->spent, sizeof t->spent,
				"the whole replay's time (--max-total-seconds %g) is spent: %zu run%s in "
				"%.0f s",
				t->max_seconds, t->done, t->done == 1 ? "" : "s", now - t->started);
			return false;
		}
		if (left < *seconds) {
			*seconds = left;
			*limited = true;
		}
	}
	uint64_t disk;
	*cost = run_cost(p, o, &disk);
	if (t->max_bytes && t->used_bytes + *cost > t->max_bytes) {
		human(t->max_bytes, a, sizeof a);
		human(t->used_bytes, b, sizeof b);
		human(*cost, c, sizeof c);
		snprintf(
			t->spent, sizeof t->spent,
			"the whole replay's data budget (--max-total-bytes %s) is spent: %zu run%s "
			"moved %s, the next needs %s",
			a, t->done, t->done == 1 ? "" : "s", b, c);
		return false;
	}
	long long free_bytes = bl_free_bytes(scratch);
	if (free_bytes >= 0 && (uint64_t)free_bytes < disk + BL_REPLAY_FREE_RESERVE) {
		human((uint64_t)free_bytes, a, sizeof a);
		human(disk, b, sizeof b);
		human(BL_REPLAY_FREE_RESERVE, c, sizeof c);
		snprintf(t->spent, sizeof t->spent,
			 "the scratch file system has %s free: the next run needs %s and %s are "
			 "kept free",
			 a, b, c);
		return false;
	}
	return true;
}

/* After plan i: its files go, but those a later plan of the document
 * reads (a dd read of the file an earlier dd wrote) stay for it. Returns
 * the bytes the scratch dir held. */
static uint64_t clear_after(const struct bl_plan_set *s, size_t i, const char *scratch, bool remove)
{
	size_t n = 0;
	for (size_t k = i + 1; k < s->n; k++)
		n += s->v[k].npaths;
	char **keep = calloc(n ? n : 1, sizeof *keep);
	if (!keep)
		return 0;
	n = 0;
	for (size_t k = i + 1; k < s->n; k++)
		for (size_t j = 0; j < s->v[k].npaths; j++)
			if (s->v[k].status == BL_PLAN_READY &&
			    s->v[k].paths[j].role == BL_PATH_READ)
				keep[n++] = s->v[k].paths[j].path;
	uint64_t bytes = bl_scratch_clear(scratch, keep, n, remove);
	free(keep);
	return bytes;
}

/* A document's replay as it goes, plan after plan. */
struct run_all {
	const struct bl_plan_set *s;
	const struct bl_replay_opts *o;
	struct bl_replay_total *total;
	const char *bwrap; /* NULL: no sandbox */
	json_t *tools; /* the environment's tool versions (borrowed) */
	struct progress_ctx pc;
	double spent; /* seconds the plans run so far took */
	size_t finished; /* plans run so far */
	bool stopped; /* interrupted: no later plan runs */
};

/* The expected seconds of the READY plans after plan i (`avg` for those
 * with no estimate), or -1 when one is unknown. */
static double time_after(const struct bl_plan_set *s, size_t i, double avg)
{
	double left = 0;
	for (size_t k = i + 1; k < s->n; k++) {
		if (s->v[k].status != BL_PLAN_READY)
			continue;
		double est = estimate(&s->v[k], avg);
		if (est < 0)
			return -1;
		left += est;
	}
	return left;
}

/* Runs plan i, which the budgets let start (`cost` bytes, `seconds` at
 * most, `limited` by the whole replay's time), into its entry `e`, and
 * charges it to the totals; its files go. Returns its outcome. */
static const char *run_ready(struct run_all *r, size_t i, json_t *archived, json_t *e,
			     uint64_t cost, double seconds, bool limited)
{
	const struct bl_plan *p = &r->s->v[i];
	const struct bl_replay_opts *o = r->o;
	struct bl_replay_total *total = r->total;
	r->pc.pr.index = r->finished;
	r->pc.pr.plan = p;
	r->pc.avg = r->finished ? r->spent / (double)r->finished : -1;
	r->pc.remaining_after = time_after(r->s, i, r->pc.avg);
	tick(&r->pc, 0);
	double t0 = bl_now();
	struct bl_replay_opts ro = *o;
	ro.max_seconds = seconds;
	const char *st =
		run_plan(p, archived, r->s->scratch, r->bwrap, &ro, &r->pc, e, r->tools, limited);
	r->spent += bl_now() - t0;
	r->finished++;
	total->done++;
	total->used_bytes += cost;
	uint64_t held = clear_after(r->s, i, r->s->scratch, !o->keep_files);
	json_t *rep = json_object_get(e, "replayed");
	if (rep)
		json_object_set_new(rep, "scratch_bytes", json_integer((json_int_t)held));
	if (strcmp(st, "interrupted") == 0)
		r->stopped = true;
	else if (strcmp(st, "timeout") == 0 && limited)
		snprintf(total->spent, sizeof total->spent,
			 "the whole replay's time (--max-total-seconds %g) ran out during run %zu",
			 total->max_seconds, p->run);
	if (o->progress) {
		r->pc.pr.elapsed = bl_now() - t0;
		r->pc.pr.finished = true;
		r->pc.pr.status = st;
		o->progress(o->progress_ctx, &r->pc.pr);
	}
	return st;
}

/* Plan i into its entry `e`: not ready, not run (interrupted, or a
 * budget spent: the reason), or run. Returns its status. */
static const char *replay_one(struct run_all *r, size_t i, json_t *archived, json_t *e)
{
	const struct bl_plan *p = &r->s->v[i];
	struct bl_replay_total *total = r->total;
	uint64_t cost = 0;
	double seconds = 0;
	bool limited = false;
	if (p->status != BL_PLAN_READY) {
		json_object_set_new(e, "reason", json_string(p->reason ? p->reason : ""));
		return bl_plan_status_name(p->status);
	}
	if (r->stopped || (r->o->interrupted && *r->o->interrupted)) {
		json_object_set_new(e, "reason", json_string("interrupted before this run"));
		r->stopped = true;
		return "not-run";
	}
	if (total->spent[0] ||
	    !budget_allows(p, r->s->scratch, r->o, total, &cost, &seconds, &limited)) {
		char why[sizeof total->spent + 16];
		snprintf(why, sizeof why, "not run: %s", total->spent);
		json_object_set_new(e, "reason", json_string(why));
		total->not_run++;
		return "not-run";
	}
	return run_ready(r, i, archived, e, cost, seconds, limited);
}

/* Nothing keeps the page cache out of a run smaller than this machine's
 * memory: it may time memory, not the disk. The entry says so and names a
 * size that would not fit (twice the memory). */
static void cache_note(json_t *e, const struct bl_plan *p, json_t *env)
{
	json_t *mem = json_object_get(json_object_get(env, "cpu"), "memory_bytes");
	if (p->page_cache || !p->replay_bytes || !json_is_integer(mem) ||
	    (double)p->replay_bytes >= json_number_value(mem))
		return;
	json_object_set_new(e, "fits_in_memory",
			    json_pack("{s:I, s:I, s:s}", "replay_bytes",
				      (json_int_t)p->replay_bytes, "memory_bytes",
				      json_integer_value(mem), "note",
				      "nothing keeps the page cache out of this run and it fits in "
				      "memory: it may time memory rather than the disk; a "
				      "--max-bytes of twice the memory would not fit"));
}

/* The entry of a plan: the archived run it replays and the plan. */
static json_t *new_entry(const struct bl_plan *p, json_t *archived)
{
	json_t *e = json_object();
	json_object_set_new(e, "run", json_integer((json_int_t)p->run));
	json_object_set(e, "tool", json_object_get(archived, "tool"));
	json_object_set(e, "label", json_object_get(archived, "label"));
	json_object_set(e, "command", json_object_get(archived, "command"));
	json_object_set_new(e, "plan", bl_plan_to_json(p));
	return e;
}

/* The budget object: a run's bytes and seconds, the whole replay's
 * (null: no limit). */
static json_t *new_budget(const struct bl_replay_opts *o, const struct bl_replay_total *total)
{
	json_t *budget = json_object();
	json_object_set_new(budget, "max_bytes", json_integer((json_int_t)bl_budget_bytes(o)));
	json_object_set_new(budget, "max_seconds", json_real(bl_budget_seconds(o)));
	json_object_set_new(budget, "max_total_bytes",
			    total->max_bytes ? json_integer((json_int_t)total->max_bytes)
					     : json_null());
	json_object_set_new(budget, "max_total_seconds",
			    total->max_seconds > 0 ? json_real(total->max_seconds) : json_null());
	return budget;
}

json_t *bl_replay_run_all(json_t *doc, struct bl_plan_set *s, const struct bl_replay_opts *o)
{
	json_t *out = json_object();
	if (!out)
		return NULL;
	json_object_set_new(out, "schema", json_string(BL_REPLAY_SCHEMA_ID));
	json_object_set(out, "source", json_object_get(doc, "source"));
	json_t *env = bl_replay_environment(s->scratch, o);
	struct bl_replay_total local = {0};
	struct bl_replay_total *total = o->total ? o->total : &local;
	struct run_all r = {.s = s,
			    .o = o,
			    .total = total,
			    .tools = json_object_get(env, "tools"),
			    .pc = {.o = o}};
	json_object_set_new(out, "environment", env);
	json_t *budget = new_budget(o, total);
	json_object_set_new(out, "budget", budget);
	char *bwrap = NULL;
	if (!o->no_sandbox)
		bl_sandbox_probe(&bwrap);
	r.bwrap = bwrap;

	for (size_t i = 0; i < s->n; i++)
		r.pc.pr.total += s->v[i].status == BL_PLAN_READY;
	json_t *entries = json_array();
	json_t *counts = json_object();
	json_t *runs = json_object_get(doc, "runs");
	for (size_t i = 0; i < s->n; i++) {
		json_t *archived = json_array_get(runs, s->v[i].run);
		json_t *e = new_entry(&s->v[i], archived);
		const char *st = replay_one(&r, i, archived, e);
		if (strcmp(st, "done") == 0)
			cache_note(e, &s->v[i], env);
		json_object_set_new(e, "status", json_string(st));
		json_int_t prev = json_integer_value(json_object_get(counts, st));
		json_object_set_new(counts, st, json_integer(prev + 1));
		json_array_append_new(entries, e);
	}
	free(bwrap);
	json_object_set_new(budget, "total_used_bytes",
			    json_integer((json_int_t)total->used_bytes));
	json_object_set_new(
		budget, "total_used_seconds",
		json_real(total->started ? round((bl_now() - total->started) * 1e3) / 1e3 : 0.0));
	if (total->spent[0])
		json_object_set_new(budget, "stopped", json_string(total->spent));
	json_object_set_new(out, "interrupted", json_boolean(r.stopped));
	json_object_set_new(out, "summary", counts);
	json_object_set_new(out, "replays", entries);
	return out;
}
