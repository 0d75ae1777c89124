/* tmp.h - temporary files, unlinked at once, where the user wants them:
 * $TMPDIR, else /tmp (tmpfile() takes /tmp whatever TMPDIR says). */
#ifndef BL_TMP_H
#define BL_TMP_H

/* The directory temporary files go to. */
const char *bl_temp_dir(void);

/* An unlinked file "<dir>/benchlog-<what>.XXXXXX", open for reading and
 * writing, closed on exec; -1 with errno set. */
int bl_temp_fd(const char *what);

#endif
