/* fuzz_hdparm.c - arbitrary text after an hdparm command line and device
 * line of each spelling (-T and -t, the old buffer-cache reads, --direct
 * with an offset), so that mutations reach the timing lines, the lines
 * hdparm prints between them and the repeats. */
#include "fuzz_prefixed.h"

static const char *const heads[] = {
	"# hdparm -Tt /dev/sda\n\n/dev/sda:\n Timing cached reads:   11810 MB in  1.99 seconds = "
	"5931.70 MB/sec\n",
	"$ hdparm -tT /dev/hda\n\n/dev/hda:\n Timing buffer-cache reads:   128 MB in  0.81 seconds "
	"=158.02 MB/sec\n",
	"# hdparm -t --direct --offset 100 /dev/sdc\n\n/dev/sdc:\n Timing O_DIRECT disk reads "
	"(offset 100 GB): ",
	" Timing buffered disk reads:  152 MB in  3.01 seconds =  50.57 MB/sec\n",
	"",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_prefixed(heads, sizeof heads / sizeof *heads, data, size);
}
