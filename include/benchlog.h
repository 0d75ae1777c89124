/* benchlog.h - storage benchmarks read out of posts, as data.
 *
 * benchlog finds the output of dd, time, bonnie, bonnie++, iozone,
 * diskinfo and zpool iostat in what people pasted into mails, forum posts
 * and web pages (quoted, re-wrapped, quoted-printable, HTML, flattened
 * onto one line) and reads each run: the tool, what the author called it,
 * the command, and every measured number in base units.
 *
 *	struct bl_documents *d = bl_documents_read_file("post.txt");
 *	for (size_t i = 0; d && i < bl_documents_count(d); i++)
 *		for (size_t r = 0; r < bl_documents_runs(d, i); r++)
 *			printf("%s %s\n", bl_documents_run_tool(d, i, r),
 *			       bl_documents_run_label(d, i, r));
 *	bl_documents_free(d);
 *
 * Ownership: what a bl_documents_read* call returns is the caller's, to
 * free with bl_documents_free; every string the accessors return is
 * borrowed from it and lives until then; bl_documents_json returns new
 * text that the caller frees with free(). A document index runs from 0
 * to bl_documents_count() - 1, a run index from 0 to bl_documents_runs()
 * - 1, and so on; an index out of range gives 0, NULL or false. The
 * library prints nothing and never exits. Link with `pkg-config --libs
 * benchlog`. */
#ifndef BENCHLOG_H
#define BENCHLOG_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && !defined(BL_STATIC_BUILD)
#define BL_API __attribute__((visibility("default")))
#else
#define BL_API
#endif

/* The schema of the documents (schema/benchlog.schema.json). */
#define BL_SCHEMA "benchlog/1"

/* The documents read from one input: one per message (an mbox holds
 * many; a post, a mail or a page is one). */
struct bl_documents;

/* Reads an input held in memory: data[0, len), the bytes as found (plain
 * text, a mail, an mbox, an HTML page: the format is told from them).
 * `name` is what the documents call their source (NULL: "-"). The bytes
 * are not kept. Returns new documents, or NULL when memory ran out. */
BL_API struct bl_documents *bl_documents_read(const char *data, size_t len, const char *name);

/* Reads the file at `path`, named by its path. NULL when it cannot be read
 * (errno says why) or memory ran out. */
BL_API struct bl_documents *bl_documents_read_file(const char *path);

/* Frees the documents and every string borrowed from them. NULL is fine. */
BL_API void bl_documents_free(struct bl_documents *d);

/* How many documents; how many runs document `doc` holds. */
BL_API size_t bl_documents_count(const struct bl_documents *d);
BL_API size_t bl_documents_runs(const struct bl_documents *d, size_t doc);

/* A run: its tool ("dd", "bonnie++", "zpool-iostat"), the variant of the
 * tool's output ("gnu", "1.9x"), the label its author gave it ("(mirror
 * hdd, eli) zfs") and the command that produced it, or NULL where the
 * post has none; the line of the input it starts on (from 1). */
BL_API const char *bl_documents_run_tool(const struct bl_documents *d, size_t doc, size_t run);
BL_API const char *bl_documents_run_variant(const struct bl_documents *d, size_t doc, size_t run);
BL_API const char *bl_documents_run_label(const struct bl_documents *d, size_t doc, size_t run);
BL_API const char *bl_documents_run_command(const struct bl_documents *d, size_t doc, size_t run);
BL_API size_t bl_documents_run_line(const struct bl_documents *d, size_t doc, size_t run);

/* One measured number of a run. */
struct bl_result_value {
	const char *metric; /* "throughput", "seq_output_block", "read_ops" */
	double value; /* in base units; NAN where the tool printed no
			     * number: a test not run, bonnie++'s +++++ */
	const char *unit; /* "B/s", "s", "ops/s", "B", "percent", ... */
	const char *raw; /* the text as printed, where it was converted,
			     * or NULL */
	bool censored; /* the true value lies beyond what was printed */
	bool approximate; /* printed rounded ("1.44K") */
};

/* How many results run `run` of document `doc` holds; result `i` into
 * *out (its strings borrowed), false when there is no such result. */
BL_API size_t bl_documents_results(const struct bl_documents *d, size_t doc, size_t run);
BL_API bool bl_documents_result(const struct bl_documents *d, size_t doc, size_t run, size_t i,
				struct bl_result_value *out);

/* What the reading noticed: a line of the input (0: none), a level
 * ("info", "warning", "error"), a code ("dd.count-mismatch") and a
 * sentence. */
struct bl_diagnostic {
	size_t line;
	const char *level, *code, *message;
};
BL_API size_t bl_documents_diagnostics(const struct bl_documents *d, size_t doc);
BL_API bool bl_documents_diagnostic(const struct bl_documents *d, size_t doc, size_t i,
				    struct bl_diagnostic *out);

/* Document `doc` as benchlog/1 JSON, indented when `pretty`: new text, for
 * the caller to free(); NULL when there is no such document or memory ran
 * out. */
BL_API char *bl_documents_json(const struct bl_documents *d, size_t doc, bool pretty);

/* The library's version ("0.1.0"). */
BL_API const char *bl_library_version(void);

#ifdef __cplusplus
}
#endif

#endif
