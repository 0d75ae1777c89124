/* translate.c - the spellings of one platform for the tools of this one.
 *
 * dd: FreeBSD and macOS write sizes in lower case ("bs=1m", "count=8k"),
 * which GNU dd rejects ("dd: invalid number: '1m'"); BSD's "w" suffix is
 * sizeof(int) = 4 where GNU's is 2. Sizes are turned into bytes and written
 * back the GNU way. Device names differ too (ad4s2, ada0p1, da0 on FreeBSD;
 * sda1, nvme0n1p1 on Linux), but replay never opens a device: they are only
 * named in the notes.
 * bonnie++: sizes are MiB unless suffixed ("-s 4096", "-s 4g", "-s 300M").
 * iozone: sizes are KiB unless suffixed ("-s 512m", "-r 4k", "-s 1024"). */
#include <stdio.h>
#include <string.h>

#include "../base/units.h"
#include "internal.h"

bool bl_dd_size(const char *s, bool bsd, uint64_t *out)
{
	size_t len = strlen(s);
	if (!len || len > 64)
		return false;
	/* BSD: "1w" is one int (4 bytes); GNU: 2 bytes */
	if (bsd && len >= 2 && s[len - 1] == 'w' && !strchr(s, 'x')) {
		uint64_t v;
		if (!bl_parse_u64(s, len - 1, &v, NULL) || v > UINT64_MAX / 4)
			return false;
		*out = v * 4;
		return true;
	}
	return bl_parse_size(s, len, out);
}

void bl_dd_size_gnu(uint64_t v, char *buf, size_t n)
{
	static const char suffix[] = "KMGTPE";
	int k = -1;
	uint64_t q = v;
	while (q && q % 1024 == 0 && k < 5) {
		q /= 1024;
		k++;
	}
	if (k >= 0)
		snprintf(buf, n, "%llu%c", (unsigned long long)q, suffix[k]);
	else
		snprintf(buf, n, "%llu", (unsigned long long)v);
}

const char *bl_dev_describe(const char *path)
{
	const char *d = strncmp(path, "/dev/", 5) == 0 ? path + 5 : path;
	struct {
		const char *prefix;
		const char *what;
	} names[] = {
		{"ada", "a FreeBSD ATA/SATA disk (CAM)"},
		{"ad", "a FreeBSD ATA disk (old ata driver)"},
		{"da", "a FreeBSD SCSI/USB disk"},
		{"nvd", "a FreeBSD NVMe disk"},
		{"nda", "a FreeBSD NVMe disk (CAM)"},
		{"md", "a FreeBSD memory disk or a Linux software RAID"},
		{"mirror/", "a FreeBSD gmirror volume"},
		{"gpt/", "a FreeBSD GPT label"},
		{"ufs/", "a FreeBSD UFS label"},
		{"zvol/", "a ZFS volume"},
		{"sd", "a Linux SCSI/SATA disk"},
		{"hd", "a Linux IDE disk"},
		{"nvme", "a Linux NVMe disk"},
		{"vd", "a Linux virtio disk"},
		{"xvd", "a Xen disk"},
		{"mapper/", "a Linux device-mapper volume"},
		{"loop", "a loop device"},
		{"rdsk/", "a Solaris raw disk"},
		{"dsk/", "a Solaris disk"},
		{"disk", "a macOS disk"},
		{"rdisk", "a macOS raw disk"},
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strncmp(d, names[i].prefix, strlen(names[i].prefix)) == 0)
			return names[i].what;
	return "a device";
}

/* A size with an optional k/m/g/t suffix (powers of 1024), in bytes; a
 * bare number counts `bare` bytes. */
static bool suffixed_bytes(const char *s, uint64_t bare, uint64_t *bytes)
{
	size_t len = strlen(s), end;
	uint64_t v;
	if (!bl_parse_u64(s, len, &v, &end) || v > (1ULL << 40))
		return false;
	if (end == len) {
		*bytes = v * bare;
		return true;
	}
	if (end + 1 != len)
		return false;
	const char *units = "kmgt", *u = strchr(units, s[end] | 0x20);
	if (!u || !*u)
		return false;
	unsigned shift = 10 * (unsigned)(u - units + 1);
	if (v > (UINT64_MAX >> shift))
		return false;
	*bytes = v << shift;
	return true;
}

/* bonnie++: "4096" -> 4096, "4g"/"4G" -> 4096, "300m" -> 300, "512k" -> 1
 * (rounded up) */
bool bl_bonnie_size_mib(const char *s, uint64_t *mib)
{
	uint64_t b;
	if (!suffixed_bytes(s, 1ULL << 20, &b))
		return false;
	*mib = (b + (1ULL << 20) - 1) >> 20;
	return true;
}

/* iozone: "-s 512m" "-s 1g" "-r 4k" "-s 1024" (KiB) */
bool bl_iozone_size(const char *s, uint64_t *bytes)
{
	return suffixed_bytes(s, 1024, bytes);
}
