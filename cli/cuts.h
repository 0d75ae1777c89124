/* cuts.h - where a large mbox is cut into pieces (cuts.c). */
#ifndef BL_CLI_CUTS_H
#define BL_CLI_CUTS_H

#include <stddef.h>

#include "../ingest/ingest.h"

/* The first message of `file` (`size` bytes) that begins at or after
 * `target`, framing from the message start `at` (bl_mbox_cuts): 0, -1
 * when memory ran out, -2 when the file could not be read (errno says
 * why). */
int cli_find_cut(const char *file, const struct bl_mbox_cut *at, size_t target, size_t size,
		 struct bl_mbox_cut *cut);

#endif
