/* doc_split.h - a document's JSON text taken apart as it is written: each
 * element of its "runs" handed on once its text is whole, the rest kept
 * with "runs": [] in their place. A long input's document is then never
 * whole in memory, one run of it at a time:
 *
 *   {"schema":"benchlog/1","source":{...},"runs":[{"tool":"dd",...},
 *    {"tool":"dd",...}],"diagnostics":[...]}
 *
 * gives on_run the text of each {"tool":"dd",...}, and leaves
 * {"schema":"benchlog/1","source":{...},"runs":[],"diagnostics":[...]}
 * in rest. Strings are followed (a brace in a command is text), and
 * "runs" is the member of that name of the outermost object. An element
 * of "runs" that is not an object fails the split, and so does a second
 * "runs" member (a reader would keep one of the two).
 *
 * A run's text past CLI_SPLIT_RUN_MEM (a long stream's one run) goes to
 * a temporary file as it comes, and is handed on as a mapping of the
 * file (base/mapped.h): the reader lets go of the pages it has read. */
#ifndef CLI_DOC_SPLIT_H
#define CLI_DOC_SPLIT_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/buf.h"

/* the bytes of a run's text held in memory; past them, in a file */
#define CLI_SPLIT_RUN_MEM ((size_t)4 << 20)

struct cli_doc_split {
	/* a run's text, whole; 0 or -1 (then the split stops) */
	int (*on_run)(const char *text, size_t n, void *ctx);
	void *ctx;
	struct bl_buf rest; /* the document without its runs */
	struct bl_buf run; /* the run under way, or what is not in its file yet */
	int run_fd; /* the run's file when run_in_file */
	size_t run_in_fd; /* the bytes written to it */
	char *handed; /* the mapping on_run is given, until taken; or NULL */
	bool run_in_file;
	bool file_refused; /* the run found no file, or filled it: in memory */
	unsigned depth; /* of the containers open */
	bool in_string, escaped, in_runs;
	bool runs_seen; /* the document's "runs" was opened */
	bool failed; /* memory ran out, on_run failed, or the text is no document */
	bool ended; /* cli_doc_split_feed took the outermost value's last byte */
};

/* Takes the next n bytes of the text: 0, or -1 once it failed. */
int cli_doc_split_put(struct cli_doc_split *s, const char *buf, size_t n);
/* As cli_doc_split_put, but stops after the byte that closes the
 * outermost value, and sets ended: in a stream of documents, the bytes
 * after it are the next one's. The bytes taken, or -1 once it failed. */
long cli_doc_split_feed(struct cli_doc_split *s, const char *buf, size_t n);
/* Called from on_run: the run's text, NUL-terminated, now the caller's
 * to free by bl_mapped_or_free (a mapping of its file, or memory of
 * malloc's); the split starts its next run in memory of its own. */
char *cli_doc_split_take_run(struct cli_doc_split *s);
/* Ready for the next document: rest emptied, memory kept. */
void cli_doc_split_reset(struct cli_doc_split *s);
void cli_doc_split_free(struct cli_doc_split *s);

#endif
