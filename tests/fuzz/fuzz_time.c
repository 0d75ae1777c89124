/* fuzz_time.c - arbitrary text after the start of each time(1) report
 * family (csh, bash, POSIX -p, zsh, BSD and GNU /usr/bin/time, -v), with a
 * command above it, so that mutations reach the field readers and the code
 * that attaches a report to the run it timed. */
#include "fuzz_prefixed.h"

static const char *const heads[] = {
	"srebrny# time dd if=/dev/zero of=x bs=1m count=100\n"
	"100+0 records in\n100+0 records out\n"
	"104857600 bytes transferred in 1.5 secs (69905066 bytes/sec)\n0.000u ",
	"$ time cp -r a b\n\nreal\t",
	"$ time -p tar xf ports.tar\nreal ",
	"% time make -j4\nmake -j4  ",
	"$ /usr/bin/time -l gzip -9 big\n        ",
	"$ /usr/bin/time -v rsync -a a b\n\tCommand being timed: \"rsync -a a b\"\n\t",
	"",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_prefixed(heads, sizeof heads / sizeof *heads, data, size);
}
