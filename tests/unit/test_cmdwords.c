/* test_cmdwords.c - the words a command hook reads, up to a shell operator. */
#include <string.h>

#include "../../parsers/cmdwords.h"
#include "check.h"

/* The words of cmd after the tool name, joined by '|', into out. */
static const char *words(const char *cmd, char *out, size_t n)
{
	const char *p = bl_cmd_args(cmd), *w;
	size_t wl, len = 0;
	out[0] = '\0';
	while (bl_cmd_word(&p, &w, &wl)) {
		if (len + wl + 2 >= n)
			break;
		if (len)
			out[len++] = '|';
		memcpy(out + len, w, wl);
		len += wl;
		out[len] = '\0';
	}
	return out;
}

int main(void)
{
	char b[256];
	CHECK(strcmp(words("bonnie++ -d /tank -s 8g -u root", b, sizeof b),
		     "-d|/tank|-s|8g|-u|root") == 0);
	CHECK(strcmp(words("  bonnie -d\t/x  -m zfs  ", b, sizeof b), "-d|/x|-m|zfs") == 0);
	/* shell operators end the tool's words */
	CHECK(strcmp(words("bonnie++ -d /t | tee out.txt", b, sizeof b), "-d|/t") == 0);
	CHECK(strcmp(words("diskinfo -t ada0 2>&1 > log", b, sizeof b), "-t|ada0") == 0);
	CHECK(strcmp(words("diskinfo -t ada0 >log", b, sizeof b), "-t|ada0") == 0);
	CHECK(strcmp(words("zpool iostat -v 5; date", b, sizeof b), "iostat|-v|5") == 0);
	CHECK(strcmp(words("zpool iostat -v 5 && date", b, sizeof b), "iostat|-v|5") == 0);
	CHECK(strcmp(words("zpool iostat <in", b, sizeof b), "iostat") == 0);
	/* a path with a digit first is a word, "2>" only as an operator */
	CHECK(strcmp(words("diskinfo 2disk 20", b, sizeof b), "2disk|20") == 0);
	CHECK(strcmp(words("bonnie++ -d /t|tee out.txt", b, sizeof b), "-d|/t") == 0);
	CHECK(strcmp(words("diskinfo -t ada0 2>/dev/null", b, sizeof b), "-t|ada0") == 0);
	/* nothing after the tool name */
	CHECK(strcmp(words("bonnie++", b, sizeof b), "") == 0);
	CHECK(strcmp(words("", b, sizeof b), "") == 0);
	return CHECK_DONE();
}
