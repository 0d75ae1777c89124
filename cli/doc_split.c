/* doc_split.c - a document's JSON text taken apart as it is written (see
 * doc_split.h). */
#include <stdlib.h>
#include <string.h>

#include "doc_split.h"

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

/* A run's last byte was put: hands its text on. */
static void run_done(struct cli_doc_split *s)
{
	if (!s->failed && s->on_run(s->run.p, s->run.n, s->ctx) < 0)
		s->failed = true;
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
				put(s, &s->run, buf + from, i + 1 - from);
				run_done(s);
				from = i + 1;
			} else if (s->in_runs && s->depth == 1) {
				s->in_runs = false; /* the closing ']' goes to rest */
				from = i;
			}
		}
	}
	if (!s->failed && (!s->in_runs || s->depth >= 3))
		put(s, s->in_runs ? &s->run : &s->rest, buf + from, n - from);
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
	char *p = s->run.p;
	char *fit = p ? realloc(p, s->run.n + 1) : NULL; /* its doubling let go */
	s->run = (struct bl_buf){0};
	return fit ? fit : p;
}

void cli_doc_split_reset(struct cli_doc_split *s)
{
	s->rest.n = 0;
	s->run.n = 0;
	s->depth = 0;
	s->in_string = s->escaped = s->in_runs = s->runs_seen = false;
	s->failed = s->ended = false;
}

void cli_doc_split_free(struct cli_doc_split *s)
{
	bl_buf_free(&s->rest);
	bl_buf_free(&s->run);
}
