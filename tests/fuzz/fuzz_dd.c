/* fuzz_dd.c - arbitrary text after a dd command line of each family (BSD,
 * GNU, translated GNU, busybox, status=progress), so that mutations reach
 * the records, summary, error and progress lines and the operand checks. */
#include "fuzz_prefixed.h"

static const char *const heads[] = {
	"# dd if=/dev/zero of=/tank/x bs=1m count=2000\n2000+0 records in\n",
	"$ dd if=/dev/zero of=x bs=64k count=16 oflag=direct status=progress\n",
	"$ LANG=de_DE.UTF-8 dd if=/dev/zero of=x bs=1M count=10\n10+0 Datensätze ein\n",
	"~ # busybox dd if=/dev/zero of=/tmp/x bs=1M count=8\n8+0 records in\n8+0 records out\n",
	"dd if=/dev/ad4 of=/dev/null bs=128k count=2000 iflag=count_bytes\n",
	"",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_prefixed(heads, sizeof heads / sizeof *heads, data, size);
}
