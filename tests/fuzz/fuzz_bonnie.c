/* fuzz_bonnie.c - arbitrary text through the scanner with a bonnie or
 * bonnie++ header in front, so that every input reaches the two parsers'
 * row, cell, wrap and CSV code (a random input rarely starts a table). */
#include "fuzz_prefixed.h"

static const char *const heads[] = {
	"Version 1.93d       ------Sequential Output------ --Sequential Input- --Random-\n"
	"Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
	"Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n",
	"Version 2.00a       ------Sequential Create------ --------Random Create--------\n"
	"feasvm              -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
	"files:max:min        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n",
	"              ---Sequential Output (nosync)--- ---Sequential Input-- --Rnd Seek-\n"
	"              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --04k (03)-\n"
	"Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU   /sec %CPU\n",
	"1.98,2.00a,",
	"",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_prefixed(heads, sizeof heads / sizeof *heads, data, size);
}
