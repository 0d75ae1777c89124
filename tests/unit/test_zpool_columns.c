/* test_zpool_columns.c - columns of zpool iostat headers (parsers/zpool_columns.c). */
#include <string.h>

#include "../../parsers/zpool_iostat.h"
#include "check.h"

static struct zcol cols[ZP_MAX_COLS];

static size_t header(const char *top, const char *bot, bool histo)
{
	struct bl_ztok t[ZP_MAX_TOK], b[ZP_MAX_TOK];
	size_t nt = bl_zpool_split(top, strlen(top), t, ZP_MAX_TOK);
	size_t nb = bl_zpool_split(bot, strlen(bot), b, ZP_MAX_TOK);
	return bl_zpool_columns(t, nt, b, nb, histo, cols);
}

static bool is(size_t i, const char *metric, enum zcol_kind kind)
{
	return strcmp(cols[i].metric, metric) == 0 && cols[i].kind == kind;
}

static void test_default(void)
{
	CHECK(header("               capacity     operations    bandwidth",
		     "pool        alloc   free   read  write   read  write", false) == 6);
	CHECK(is(0, "alloc", ZC_CAPACITY) && is(1, "free", ZC_CAPACITY));
	CHECK(is(2, "read_ops", ZC_OPS) && is(3, "write_ops", ZC_OPS));
	CHECK(is(4, "read_bandwidth", ZC_BANDWIDTH) && is(5, "write_bandwidth", ZC_BANDWIDTH));
	/* old releases: used avail are alloc free; spacing collapsed by a mailer */
	CHECK(header("capacity operations bandwidth", "pool used avail read write read write",
		     false) == 6);
	CHECK(is(0, "alloc", ZC_CAPACITY) && is(1, "free", ZC_CAPACITY));
}

static void test_latency_queue(void)
{
	/* -l -q of OpenZFS 2.x: scrub/trim/rebuild are one column over "wait" */
	CHECK(header("  capacity operations bandwidth total_wait disk_wait syncq_wait asyncq_wait scrub trim rebuild"
		     " syncq_read syncq_write asyncq_read asyncq_write scrubq_read trimq_write rebuildq_write",
		     "pool alloc free read write read write read write read write read write read write wait wait wait"
		     " pend activ pend activ pend activ pend activ pend activ pend activ pend activ",
		     false) == 31);
	CHECK(is(6, "total_wait_read", ZC_LATENCY) && is(13, "asyncq_wait_write", ZC_LATENCY));
	CHECK(is(14, "scrub_wait", ZC_LATENCY) && is(16, "rebuild_wait", ZC_LATENCY));
	CHECK(is(17, "syncq_read_pend", ZC_QUEUE) && is(30, "rebuildq_write_activ", ZC_QUEUE));
	/* ZFS on Linux 0.7: no trim, no rebuild */
	CHECK(header("capacity operations bandwidth total_wait disk_wait syncq_wait asyncq_wait scrub",
		     "pool alloc free read write read write read write read write read write read write wait",
		     false) == 15);
	CHECK(is(14, "scrub_wait", ZC_LATENCY));
}

static void test_histograms(void)
{
	/* -w: the vdev's name first; scrub trim rebuild have no top label */
	CHECK(header("tank         total_wait     disk_wait    syncq_wait    asyncq_wait",
		     "latency      read  write   read  write   read  write   read  write  scrub   trim  rebuild",
		     true) == 11);
	CHECK(is(0, "total_wait_read", ZC_HISTO) && is(8, "scrub", ZC_HISTO) &&
	      is(10, "rebuild", ZC_HISTO));
	/* 0.7's -w called the queues sync_queue and async_queue */
	CHECK(header("tank total_wait disk_wait sync_queue async_queue",
		     "latency read write read write read write read write scrub", true) == 9);
	CHECK(is(4, "sync_queue_read", ZC_HISTO) && is(8, "scrub", ZC_HISTO));
	/* -r: "scrub" spans ind and agg here */
	CHECK(header("tank sync_read sync_write async_read async_write scrub trim rebuild",
		     "req_size ind agg ind agg ind agg ind agg ind agg ind agg ind agg",
		     true) == 14);
	CHECK(is(8, "scrub_ind", ZC_HISTO) && is(13, "rebuild_agg", ZC_HISTO));
}

static void test_scripted(void)
{
	CHECK(bl_zpool_scripted_columns(false, false, 6, cols) == 6 &&
	      is(5, "write_bandwidth", ZC_BANDWIDTH));
	CHECK(bl_zpool_scripted_columns(true, false, 17, cols) == 17 &&
	      is(16, "rebuild_wait", ZC_LATENCY));
	CHECK(bl_zpool_scripted_columns(false, true, 20, cols) == 20 &&
	      is(19, "rebuildq_write_activ", ZC_QUEUE));
	CHECK(bl_zpool_scripted_columns(true, true, 31, cols) == 31 &&
	      is(17, "syncq_read_pend", ZC_QUEUE));
	CHECK(bl_zpool_scripted_histo_columns(true, 11, cols) == 11 && is(9, "trim", ZC_HISTO));
	CHECK(bl_zpool_scripted_histo_columns(false, 14, cols) == 14 &&
	      is(1, "sync_read_agg", ZC_HISTO));
}

static void test_split(void)
{
	struct bl_ztok t[ZP_MAX_TOK];
	const char *row = "    tank\xc2\xa0 5.12T\t**1.60K**  `12ms` <--";
	size_t n = bl_zpool_split(row, strlen(row), t, ZP_MAX_TOK);
	CHECK(n == 5);
	CHECK(bl_zpool_tok_is(&t[0], "tank") && bl_zpool_tok_is(&t[1], "5.12T"));
	CHECK(bl_zpool_tok_is(&t[2], "1.60K") && bl_zpool_tok_is(&t[3], "12ms"));
	CHECK(bl_zpool_tok_is(&t[4], "<--"));
	CHECK(bl_zpool_split("", 0, t, ZP_MAX_TOK) == 0);
	CHECK(bl_zpool_split("a b c", 5, t, 2) == 2);
}

/* Lines of blanks, tabs, no-break spaces, emphasis marks and words,
 * split at once and a byte at a time: the same words. */
static void test_split_same(void)
{
	static const char *const parts[] = {" ",     "  ", "\t",  "\xc2\xa0", "\xc2",
					    "\xa0",  "*",  "**",  "`",        "tank",
					    "1.60K", "-",  "ad4", "\0",       "12ms"};
	unsigned long long rng = 0x9E3779B97F4A7C15ULL;
	size_t wrong = 0;
	for (int i = 0; i < 200000; i++) {
		char line[128];
		size_t len = 0;
		rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
		size_t want_len = (size_t)(rng >> 33) % 90;
		while (len < want_len) {
			rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
			/* mostly blanks and words, as a table row is */
			size_t k = (size_t)(rng >> 33) % 64;
			const char *p = parts[k < 20   ? 0
					      : k < 24 ? 1
					      : k < 40 ? 9 + k % 6
						       : k % 15];
			size_t pn = p[0] ? strlen(p) : 1;
			if (len + pn > sizeof line)
				break;
			memcpy(line + len, p, pn);
			len += pn;
		}
		size_t max = 1 + (size_t)(rng >> 40) % ZP_MAX_TOK;
		struct bl_ztok a[ZP_MAX_TOK], b[ZP_MAX_TOK];
		size_t na = bl_zpool_split(line, len, a, max);
		size_t nb = bl_zpool_split_bytes(line, len, b, max);
		bool same = na == nb;
		for (size_t k = 0; same && k < na; k++)
			same = a[k].s == b[k].s && a[k].n == b[k].n;
		wrong += !same;
	}
	CHECK(wrong == 0);
}

int main(void)
{
	test_default();
	test_latency_queue();
	test_histograms();
	test_scripted();
	test_split();
	test_split_same();
	return CHECK_DONE();
}
