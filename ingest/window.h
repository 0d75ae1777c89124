/* window.h - an input too large to decode whole, read in windows.
 *
 * A plain-text input (or quoted-printable text without headers) longer
 * than a window is decoded and scanned a window at a time, so that memory
 * stays bounded whatever its size: a 100 MB post flattened onto one line,
 * a gigabyte of NUL bytes, an archive saved as one text file, and so is a
 * long mail whose body is one plain-text part, and a long HTML page
 * (stream.c). Each window owns the runs that start in its part of the
 * input, [own_from, own_to), and reads `overlap` bytes on either side of
 * it as context (256 KB where the lines near the cut are short: stream.c,
 * cut_context): a run that straddles a cut is seen whole by the window
 * where it starts (its command line and label are in the bytes before),
 * and the next window drops what it sees of it again. All the windows of
 * an input make one document.
 *
 * Where to cut: at a line break when there is one; in a line longer than
 * half a window, where the unflattener (unflatten.c) breaks the line in
 * any case, so that each window splits its part of the line as a reading
 * of the whole line would:
 *   - after a sentence ("...the second run. Then the mirror..."): a line
 *     break of unflatten.c's sentence rule, which also restarts its
 *     wrapping of long lines;
 *   - inside a run of NUL bytes (one U+FFFD whatever its length);
 * and only when there is none of these, after a blank or at any character
 * (a "rough" cut, reported: runs around it may differ). */
#ifndef BL_WINDOW_H
#define BL_WINDOW_H

#include <stddef.h>

/* The part of the input each window owns, and the context read on either
 * side of it (more than unflatten.c's HUGE_LINE, so that a piece of a
 * huge line in a window is huge too). 6 MB, not 8: invalid UTF-8 every
 * few bytes makes a decoded window three times its size with a map entry
 * per replacement (64 MB of it took 72 MB with 8 MB windows, 66 MB with
 * 6; 54 MB once a map entry took 8 bytes, not 16); smaller windows read
 * the context more often (a 100 MB line: 14 s
 * with 8 MB, 20 s with 6, 26 s with 4). */
#define BL_WINDOW_DEFAULT ((size_t)6 << 20)
#define BL_WINDOW_OVERLAP ((size_t)5 << 18)

enum bl_cut {
	BL_CUT_LINE, /* after a line break */
	BL_CUT_SENTENCE, /* after the blank between two sentences */
	BL_CUT_NUL, /* inside a run of NUL bytes */
	BL_CUT_BLANK, /* after a blank: rough */
	BL_CUT_ANY, /* at a character boundary: rough */
};

/* The latest point p, lo < p <= hi, where a window may start in s (the
 * best kind of cut found in s[lo, hi)); lo < hi, s[hi] readable. */
size_t bl_window_cut(const char *s, size_t lo, size_t hi, enum bl_cut *kind);

#endif
