/* doc_split.c - a document's JSON text taken apart as it is written (see
 * doc_split.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/mapped.h"
#include "../base/tmp.h"
#include "doc_split.h"

/* what of a run in a file is gathered before it is written there */
#define RUN_STAGE ((size_t)1 << 16)

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Whether rest ends with the key "runs" and its colon, the key after a
 * '{' or ',' (`,"runs":`; not `"x\"runs":`, a key ending in runs). */
static bool names_runs(const struct bl_buf *rest)
{
	size_t i = rest->n;
	while (i && blank(rest->p[i - 1]))
		i--;
	if (!i || rest->p[--i] != ':')
		return false;
	while (i && blank(rest->p[i - 1]))
		i--;
	if (i < 6 || memcmp(rest->p + i - 6, "\"runs\"", 6) != 0)
		return false;
	i -= 6;
	while (i && blank(rest->p[i - 1]))
		i--;
	return i && (rest->p[i - 1] == ',' || rest->p[i - 1] == '{');
}

static void put(struct cli_doc_split *s, struct bl_buf *b, const char *p, size_t n)
{
	if (n && !bl_buf_put(b, p, n))
		s->failed = true;
}

static void close_file(struct cli_doc_split *s)
{
	if (s->run_in_file)
		close(s->run_fd);
	s->run_in_file = false;
}

/* The run's file could not take more (a full disk): what it holds is
 * read back before what waits in s->run, and the run goes on in memory,
 * as it would with no file at all. */
static void back_to_memory(struct cli_doc_split *s)
{
	struct bl_buf all = {0};
	if (lseek(s->run_fd, 0, SEEK_SET) != 0 ||
	    bl_buf_read_fd(&all, s->run_fd, s->run_in_fd) < 0 || all.n != s->run_in_fd ||
	    (s->run.n && !bl_buf_put(&all, s->run.p, s->run.n)))
		s->failed = true;
	bl_buf_free(&s->run);
	s->run = all;
	close_file(s);
	s->file_refused = true;
}

/* Writes what the run's file has not got yet there. */
static void flush_run(struct cli_doc_split *s)
{
	if (!s->run.n)
		return;
	size_t w = bl_write_fd(s->run_fd, s->run.p, s->run.n);
	s->run_in_fd += w;
	memmove(s->run.p, s->run.p + w, s->run.n - w);
	s->run.n -= w;
	if (s->run.n)
		back_to_memory(s);
}

/* The run grew past CLI_SPLIT_RUN_MEM: its text goes on in a file, and
 * the memory that held it is let go. No file to be had: it stays in
 * memory. */
static void to_file(struct cli_doc_split *s)
{
	int fd = bl_temp_fd("run");
	if (fd < 0) {
		s->file_refused = true;
		return;
	}
	s->run_fd = fd;
	s->run_in_file = true;
	s->run_in_fd = 0;
	flush_run(s);
	if (s->run_in_file)
		bl_buf_free(&s->run);
}

static void put_run(struct cli_doc_split *s, const char *p, size_t n)
{
	if (!s->run_in_file && !s->file_refused && s->run.n + n > CLI_SPLIT_RUN_MEM)
		to_file(s);
	put(s, &s->run, p, n);
	if (s->run_in_file && s->run.n >= RUN_STAGE)
		flush_run(s);
}

/* The text of a run in its file, NUL-terminated: mapped, or read back
 * into memory (s->run) when the file could not take its last bytes or
 * cannot be mapped. NULL when neither works. */
static const char *file_text(struct cli_doc_split *s, size_t *n)
{
	flush_run(s);
	if (s->run_in_file && !(s->handed = bl_mapped_fd(s->run_fd, s->run_in_fd, 1)))
		back_to_memory(s);
	*n = s->handed ? s->run_in_fd : s->run.n;
	return s->failed ? NULL : s->handed ? s->handed : s->run.p;
}

/* A run's last byte was put: hands its text on. */
static void run_done(struct cli_doc_split *s)
{
	const char *text = s->run.p;
	size_t n = s->run.n;
	if (s->run_in_file && !(text = file_text(s, &n)))
		s->failed = true;
	if (!s->failed && s->on_run(text, n, s->ctx) < 0)
		s->failed = true;
	if (s->handed) /* not taken */
		bl_mapped_free(s->handed);
	s->handed = NULL;
	s->file_refused = false;
	close_file(s);
	s->run.n = 0;
}

/* Takes buf[0, n), or up to the end of the outermost value when
 * stop_at_end: the bytes taken. */
static size_t split(struct cli_doc_split *s, const char *buf, size_t n, bool stop_at_end)
{
	size_t from = 0; /* the first byte not yet put where it goes */
	for (size_t i = 0; i < n && !s->failed; i++) {
		char c = buf[i];
		if (s->in_string) {
			if (s->escaped)
				s->escaped = false;
			else if (c == '\\')
				s->escaped = true;
			else if (c == '"')
				s->in_string = false;
			continue;
		}
		if (s->in_runs && s->depth == 2 && c != '{' && c != ']' && c != ',' && !blank(c)) {
			/* a run that is not an object: the runs after it would
			 * take the wrong numbers in the diagnostics */
			s->failed = true;
			break;
		}
		if (c == '"') {
			s->in_string = true;
		} else if (c == '{' || c == '[') {
			if (s->in_runs && s->depth == 2) {
				from = i; /* a run opens: the commas before it go */
			} else if (!s->in_runs && s->depth == 1 && c == '[') {
				put(s, &s->rest, buf + from, i - from);
				from = i;
				s->in_runs = names_runs(&s->rest);
				if (s->in_runs && s->runs_seen) {
					s->failed = true;
					break;
				}
				if (s->in_runs) {
					s->runs_seen = true;
					put(s, &s->rest, "[", 1);
					from = i + 1;
				}
			}
			s->depth++;
		} else if (c == '}' || c == ']') {
			if (s->depth == 0) {
				s->failed = true;
				break;
			}
			s->depth--;
			if (s->depth == 0 && stop_at_end) {
				put(s, &s->rest, buf + from, i + 1 - from);
				s->ended = true;
				return i + 1;
			}
			if (s->in_runs && s->depth == 2) {
				put_run(s, buf + from, i + 1 - from);
				run_done(s);
				from = i + 1;
			} else if (s->in_runs && s->depth == 1) {
				s->in_runs = false; /* the closing ']' goes to rest */
				from = i;
			}
		}
	}
	if (!s->failed && s->in_runs && s->depth >= 3)
		put_run(s, buf + from, n - from);
	else if (!s->failed && !s->in_runs)
		put(s, &s->rest, buf + from, n - from);
	return n;
}

int cli_doc_split_put(struct cli_doc_split *s, const char *buf, size_t n)
{
	split(s, buf, n, false);
	return s->failed ? -1 : 0;
}

long cli_doc_split_feed(struct cli_doc_split *s, const char *buf, size_t n)
{
	size_t used = split(s, buf, n, true);
	return s->failed ? -1 : (long)used;
}

char *cli_doc_split_take_run(struct cli_doc_split *s)
{
	if (s->handed) {
		char *p = s->handed;
		s->handed = NULL; /* the caller's now */
		return p;
	}
	char *p = s->run.p;
	char *fit = p ? realloc(p, s->run.n + 1) : NULL; /* its doubling let go */
	s->run = (struct bl_buf){0};
	return fit ? fit : p;
}

void cli_doc_split_reset(struct cli_doc_split *s)
{
	close_file(s);
	s->file_refused = false;
	s->rest.n = 0;
	s->run.n = 0;
	s->depth = 0;
	s->in_string = s->escaped = s->in_runs = s->runs_seen = false;
	s->failed = s->ended = false;
}

void cli_doc_split_free(struct cli_doc_split *s)
{
	close_file(s);
	bl_buf_free(&s->rest);
	bl_buf_free(&s->run);
}
