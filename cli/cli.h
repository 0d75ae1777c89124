/* cli.h - what the subcommands share: reading inputs, writing outputs
 * atomically, and reporting with the program's name. Only cli/ prints or
 * exits. */
#ifndef BL_CLI_H
#define BL_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { EXIT_OK = 0, EXIT_DATA = 1, EXIT_USAGE = 2 };

/* Reads a whole file ("-" is stdin). Returns 0, or -1 with errno set. */
int cli_read_file(const char *path, char **data, size_t *len);

/* Opens an input for streaming ("-" is stdin); -1 with errno set (a
 * directory is EISDIR). cli_read_chunk is a bl_read_fn over &fd. */
int cli_open_input(const char *path);
long cli_read_chunk(void *fdp, char *buf, size_t cap);
void cli_close_input(int fd);
/* Says why reading `path` failed when it was not a read error (errno e):
 * memory ran out, or a temporary file (a large input's runs are kept in
 * one until its end) could not be written. */
void cli_failed_between(const char *path, int e);

/* Output that lands atomically: written to a temporary file beside the
 * target and renamed over it on commit; abandoned on abort. "-" or NULL is
 * stdout. */
/* An output: standard output (also as -o /dev/stdout), a regular file
 * written under a temporary name and renamed over it on commit (through
 * its symbolic links), or what is no regular file ("-o /dev/null", a
 * FIFO) written in place (tmp NULL). */
struct cli_out {
	FILE *f;
	char *path;
	char *tmp;
};
int cli_out_open(struct cli_out *o, const char *path);
int cli_out_commit(struct cli_out *o); /* 0, or -1 with a message printed */
void cli_out_abort(struct cli_out *o);

void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* After getopt_long returned '?' or ':' (opterr is 0 and the option string
 * starts with ':'): "benchlog parse: unknown option '--x'" and "Try
 * 'benchlog parse --help'." on stderr. Returns EXIT_USAGE. */
int cli_bad_option(const char *cmd, int ch, char **argv);

/* Hands each message of the post `file` (named `path`) to each, with
 * its document (the reference is each's), as `report` shows them: whole,
 * an mbox's one at a time, so that the input is never whole in memory
 * unless it is one message; a long plain text is read twice, never whole
 * (twice_read in load.c). Benchlog JSON is no post: *is_docs, and -1
 * with nothing told. 0, or -1 with the error told (each's failure as
 * memory or a temporary file's). */
struct bl_message;
#include <jansson.h>
typedef int (*cli_message_fn)(struct bl_message *m, json_t *doc, void *ctx);
int cli_each_message(const char *file, const char *path, cli_message_fn each, void *ctx,
		     bool *is_docs);

/* Loads every input (a post, or benchlog JSON documents) into the array
 * docs. Returns 0, or -1 after printing what failed (the rest is loaded). */
#include <jansson.h>
int cli_load_docs(char **files, int nfiles, json_t *docs);
/* Whether data is benchlog/1 JSON (its first value a document), as
 * cli_load_docs decides it. */
bool cli_is_docs(const char *data, size_t len);
/* The array for cli_load_docs, and its end (docs.c): documents parsed from
 * JSON live in blocks dropped at once by cli_docs_free. Between
 * cli_docs_arena(true) and (false) jansson allocates from the blocks. */
json_t *cli_docs_new(void);
/* Frees docs (NULL: none) and drops the blocks. */
void cli_docs_free(json_t *docs);
void cli_docs_arena(bool on);
/* Memory of malloc's, or a mapping of base/mapped.h, that the documents
 * point into (the text of a run read in place, jsonread.h), freed by
 * cli_docs_free. 0, or -1 (p freed). */
int cli_docs_adopt(void *p);
/* A copy of p[0, n) that lives until cli_docs_free, packed with the others
 * (a bl_json_stash_fn: the rows and results of a run read stashed); NULL
 * when memory ran out. */
const unsigned char *cli_docs_stash(const unsigned char *p, size_t n, void *ctx);
struct bl_json_shared;
/* The table of the values the documents' runs share, until
 * cli_docs_free; NULL when memory ran out (nothing is shared then). */
struct bl_json_shared *cli_docs_shared(void);
/* A bl_write_fn onto a FILE * context. */
int cli_write_out(void *ctx, const unsigned char *data, size_t len);

/* A line a run of a replay's comparison document: then, now, how much
 * faster or slower, and what kept the page cache out (replay_summary.c). */
void cli_replay_summary(json_t *cmp, FILE *f);

/* parse --runs (runs_out.c): the runs of benchlog/1 documents, their
 * compact JSON text fed as it is written, as lines on out, each with its
 * document's source path, message index and message id; indented with
 * `pretty`. Memory holds a document's source, never a run.
 * cli_runs_feed returns 0, or -1 when memory ran out or a write failed. */
struct cli_runs;
struct cli_runs *cli_runs_new(bool pretty);
int cli_runs_feed(struct cli_runs *r, FILE *out, const char *s, size_t n);
/* Forgets a document cut short (an input that failed part way): the
 * next input's documents are read from their start. */
void cli_runs_restart(struct cli_runs *r);
void cli_runs_free(struct cli_runs *r);

int cmd_parse(int argc, char **argv);
int cmd_chart(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_schema(int argc, char **argv);
int cmd_replay(int argc, char **argv);

#endif
