/* fuzz_iozone.c - the iozone parser under arbitrary input. The first byte
 * picks a real opening (banner and preamble, a 3.489 or 3.308 table header,
 * a throughput section, an Excel report) and the rest follows it, so that
 * the fuzzer spends its time inside the table, throughput and report
 * readers rather than looking for an anchor. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../parsers/benchlog.h"

static const char *const openings[] = {
	"\tIozone: Performance Test of File I/O\n"
	"\t        Version $Revision: 3.489 $\n"
	"\tAuto Mode\n"
	"\tFile size set to 1024 kB\n"
	"\tCommand line used: iozone -a -s 1m -i 0 -i 2 -R\n"
	"\tOutput is in kBytes/sec\n",
	"                                                              random    random     bkwd    record    stride                                    \n"
	"              kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread\n",
	"                                                            random  random    bkwd   record   stride                                   \n"
	"              KB  reclen   write rewrite    read    reread    read   write    read  rewrite     read   fwrite frewrite   fread  freread\n",
	"\tThroughput test with 2 processes\n"
	"\tEach process writes a 4096 kByte file in 64 kByte records\n\n"
	"\tChildren see throughput for  2 initial writers \t= 4540367.50 kB/sec\n",
	"Excel output is below:\n\n\"Writer report\"\n        \"4\"  \"1024\"\n",
	"\n\"Throughput report Y-axis is type of test X-axis is number of processes\"\n"
	"\"Record size = 64 kBytes \"\n\"Output is in kBytes/sec\"\n\n",
	"",
};

#define NOPEN (sizeof openings / sizeof openings[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 1 << 20)
		return 0;
	const char *open = openings[data[0] % NOPEN];
	size_t ol = strlen(open), n = ol + size - 1;
	char *buf = malloc(n + 1);
	if (!buf)
		return 0;
	memcpy(buf, open, ol);
	memcpy(buf + ol, data + 1, size - 1);
	buf[n] = '\0';
	struct bl_message m;
	if (bl_message_from_text(&m, buf, n, 0, 1) == 0) {
		json_t *doc = bl_parse_message(&m, "fuzz");
		if (doc) {
			char *s = json_dumps(doc, JSON_COMPACT);
			free(s);
			json_decref(doc);
		}
	}
	bl_message_free(&m);
	free(buf);
	return 0;
}
