/* tmp.c - see tmp.h. */
#include "tmp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

const char *bl_temp_dir(void)
{
	const char *dir = getenv("TMPDIR");
	return dir && *dir ? dir : "/tmp";
}

int bl_temp_fd(const char *what)
{
	char path[4096];
	if ((size_t)snprintf(path, sizeof path, "%s/benchlog-%s.XXXXXX", bl_temp_dir(), what) >=
	    sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	int fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}
