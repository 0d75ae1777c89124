/* system.h - what a post says about the machine it measured: CPU, memory,
 * chipset and board, disks and controllers, OS and version, loader.conf
 * and sysctl tunables, geli, gmirror and zpool layouts.
 *
 * Each item keeps the line as written ("raw") and its line number, plus
 * the fields read from it. See "system" in schema/benchlog.schema.json. */
#ifndef BL_SYSTEM_H
#define BL_SYSTEM_H

#include <jansson.h>

#include "../base/message.h"
#include "../base/find.h"

/* The bytes a line the reader looks at must hold (':' '=' '/' ...), or
 * start with ("FreeBSD 8.0-RELEASE", "NAME  STATE"): the sites pass
 * (anchor.h) marks them, and only the lines around a mark are read. */
extern const struct bl_marks bl_system_marks;

/* The system object of a message (new reference): NULL when the post says
 * nothing about its machine, or memory ran out. */
json_t *bl_system_extract(struct bl_message *m);

/* The same, every line read in turn: the reference bl_system_extract() is
 * tested against (it reads only the lines its marks lead to). */
json_t *bl_system_extract_every_line(struct bl_message *m);

/* For tests: with the prechecks off, each pattern runs on every line its
 * guard lets it (the words a line starts with are not looked at first):
 * the reference the prechecks must agree with. */
void bl_system_set_precheck(bool on);

#endif
