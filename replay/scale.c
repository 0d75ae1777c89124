/* scale.c - sizes scaled down to the replay budget.
 *
 * A post's "dd bs=1m count=2000" moved 2 GB; replay moves at most the
 * budget (--max-bytes, default 256 MiB) and stops a tool at --max-seconds.
 * The ratio is recorded in the plan and in the comparison, so that amounts
 * (bytes, seconds) are compared against the archived amount times the
 * scale, and rates (B/s) directly. */
#include "internal.h"

uint64_t bl_budget_bytes(const struct bl_replay_opts *o)
{
	return o && o->max_bytes ? o->max_bytes : BL_REPLAY_DEFAULT_BYTES;
}

double bl_budget_seconds(const struct bl_replay_opts *o)
{
	return o && o->max_seconds > 0 ? o->max_seconds : BL_REPLAY_DEFAULT_SECONDS;
}

uint64_t bl_scale_bytes(uint64_t archived, uint64_t budget)
{
	if (!archived || archived > budget)
		return budget;
	return archived;
}

double bl_scale_ratio(uint64_t replay, uint64_t archived)
{
	if (!replay || !archived)
		return 1.0;
	return (double)replay / (double)archived;
}
