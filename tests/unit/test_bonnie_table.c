/* test_bonnie_table.c - rows, column placement and cells shared by the
 * bonnie and bonnie++ parsers (parsers/bonnie_table.c), and the bonnie++
 * CSV reader (parsers/bonniepp_csv.c). */
#include <math.h>
#include <string.h>

#include "../../parsers/bonnie_table.h"
#include "../../parsers/bonniepp.h"
#include "check.h"

static void row(struct bl_btab_row *r, const char *s)
{
	bl_btab_row_init(r, s, strlen(s));
}

/* bonnie++ IO columns: rate edges 25, 35, ...; %CP edges 29, 39, ... */
static const long edges[12] = {25, 29, 35, 39, 45, 49, 55, 59, 65, 69, 75, 79};

static void test_place(void)
{
	struct bl_btab_row r;
	int cell[12], unc;
	/* -f: the per-char columns are blank, found by position */
	row(&r, "feasvm           2G            322m  90  1.5g  84           +++++ +++ 15088  75");
	CHECK(r.ntok == 10);
	CHECK(bl_btab_place(&r, 2, edges, 12, cell, &unc) && unc == 0);
	CHECK(cell[0] == -1 && cell[1] == -1 && cell[2] == 2 && cell[3] == 3 && cell[6] == -1 &&
	      cell[7] == -1 && cell[8] == 6 && cell[11] == 9);
	/* a number wider than its cell pushes the rest right */
	row(&r, "nas         2G:64k           183512  30 31022   9           90411  10 301.7   1");
	CHECK(bl_btab_place(&r, 2, edges, 12, cell, &unc));
	CHECK(cell[0] == -1 && cell[2] == 2 && cell[4] == 4 && cell[6] == -1 && cell[8] == 6 &&
	      cell[10] == 8);
	/* collapsed white space with every cell present: taken in order */
	row(&r, "box 2G 430 98 44175 8 18723 4 716 96 50878 7 160.6 3");
	CHECK(bl_btab_place(&r, 2, edges, 12, cell, &unc) && cell[0] == 2 && cell[11] == 13);
	/* too many cells */
	row(&r, "box 2G 1 2 3 4 5 6 7 8 9 10 11 12 13");
	CHECK(!bl_btab_place(&r, 2, edges, 12, cell, &unc));
	/* a wrapped row: the continuation fills the last columns */
	row(&r, "fileserver      32G 88826  99 412003  45 190112  20 90120  97 602311");
	bl_btab_row_append(&r, "30  4022  62", 12);
	CHECK(r.wrapped_from == 11 && r.ntok == 14);
	CHECK(bl_btab_place(&r, 2, edges, 12, cell, &unc) && cell[9] == 11 && cell[11] == 13);
	/* markup hidden by a browser is dropped, tabs expanded */
	row(&r, "<pre>zfs\t 4096 **79500**");
	CHECK(strcmp(r.s, "zfs      4096 79500") == 0 && r.ntok == 3);
}

static void test_cells(void)
{
	struct bl_btab_cell c;
	bl_btab_rate("44175", 5, 1024, false, &c);
	CHECK(c.kind == BL_BTAB_VALUE && c.v == 44175.0 * 1024 && c.converted);
	bl_btab_rate("322m", 4, 1024, true, &c);
	CHECK(c.kind == BL_BTAB_VALUE && c.v == 322.0 * 1048576);
	bl_btab_rate("1.5g", 4, 1024, true, &c);
	CHECK(c.kind == BL_BTAB_VALUE && c.v == 1.5 * 1073741824.0);
	bl_btab_rate("322m", 4, 1024, false, &c);
	CHECK(c.kind == BL_BTAB_BAD);
	bl_btab_rate("+++++", 5, 1024, false, &c);
	CHECK(c.kind == BL_BTAB_CENSORED && strcmp(c.raw, "+++++") == 0);
	bl_btab_rate(NULL, 0, 1024, false, &c);
	CHECK(c.kind == BL_BTAB_BLANK);
	bl_btab_cpu("+++", 3, &c);
	CHECK(c.kind == BL_BTAB_CENSORED);
	bl_btab_cpu("44.1", 4, &c);
	CHECK(c.kind == BL_BTAB_VALUE && c.v == 44.1);
	bl_btab_latency("88046us", 7, &c);
	CHECK_NEAR(c.v, 0.088046, 1e-12);
	bl_btab_latency("273ms", 5, &c);
	CHECK_NEAR(c.v, 0.273, 1e-12);
	bl_btab_latency("3s", 2, &c);
	CHECK(c.v == 3);
	bl_btab_latency("3x", 2, &c);
	CHECK(c.kind == BL_BTAB_BAD);
	double v;
	CHECK(bl_btab_size("300M", 4, true, &v) && v == 300.0 * 1048576);
	CHECK(bl_btab_size("8k", 2, false, &v) && v == 8192);
	CHECK(!bl_btab_size("8q", 2, false, &v));
}

static void test_csv(void)
{
	struct bpp_rec r;
	const char *l198 =
		"1.98,2.00a,feasvm,1,1796028200,,,,,,,,,,,,,,,,,4,65536,1024,,2,1354,96,+++++,+++,"
		"7946,30,1422,95,+++++,+++,7872,32,,,,,,,1589us,296us,747us,1146us,100us,561us";
	CHECK(bpp_csv_row(l198, strlen(l198), &r));
	CHECK(!r.io && r.files && r.num_files == 4096 && r.max_size == 65536 && r.min_size == 1024);
	CHECK(r.num_dirs == 2 && (r.notes & BPP_N_DIRS_SHIFT));
	CHECK(r.rate[BL_T_SEQ_CREATE].v == 1354 && r.rate[BL_T_SEQ_READ].kind == BL_BTAB_CENSORED);
	CHECK_NEAR(r.lat[BL_T_RND_DELETE].v, 561e-6, 1e-12);
	const char *l196 =
		"1.96,1.96,thumper,1,1295624869,,,,,,,,,,,,,,16,,,,,4123,31,+++++,+++,6012,35,"
		"4410,30,+++++,+++,5120,33,,,,,,,2041us,655us,1103us,1896us,23us,1288us";
	CHECK(bpp_csv_row(l196, strlen(l196), &r) && (r.notes & BPP_N_SHORT_ROW));
	CHECK(r.rate[BL_T_RND_DELETE].v == 5120 && r.num_files == 16384);
	const char *l103 =
		"nas,2G:64k,,,83512,30,31022,9,,,90411,10,301.7,1,16:100000:16/64,1450,40,"
		"2210,12,2876,25,1398,39,815,6,1620,17";
	CHECK(bpp_csv_row(l103, strlen(l103), &r) && strcmp(r.variant, "csv-1.0x") == 0);
	CHECK(r.chunk_size == 65536 && r.rate[BL_T_OUT_CHAR].kind == BL_BTAB_BLANK);
	CHECK(r.rate[BL_T_SEEKS].v == 301.7 && r.num_dirs == 64);
	CHECK(!bpp_csv_row("a,b,c", 5, &r));
	CHECK(bpp_csv_header("format_version,bonnie_version,name,concurrency,seed", 51));
}

int main(void)
{
	test_place();
	test_cells();
	test_csv();
	return CHECK_DONE();
}
