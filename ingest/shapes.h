/* shapes.h - what tool output looks like, as ingest needs it to put back
 * the line breaks a post lost (flattened onto one line, or re-wrapped by
 * a mail client).
 *
 * Ingest knows no tool: each tool's descriptor (parsers/<tool>.c) carries
 * its shapes, and the registry hands them down with the site plan in a
 * struct bl_ingest_plan, given to every bl_ingest_* call. */
#ifndef BL_SHAPES_H
#define BL_SHAPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/sites.h"

struct bl_breaks;

/* A line that is a tool's output whole, with a break before and after it
 * where it stands in a flattened text. `pattern` is matched where a
 * number can start (not after a digit or a '.'). */
struct bl_line_shape {
	const char *pattern;
	/* How the unflattener finds such lines in a text before running the
	 * pattern: a literal every match holds on its first line (NULL: the
	 * lines are found by another shape's literal); the index of its
	 * rarest byte, searched with memchr, or BL_SHAPE_BY_ENDS (found by
	 * its first and last bytes: a literal of letters prose is full of);
	 * whether a digit follows it; a literal every match holds after it
	 * on its line (or NULL); what every match has right after it, as the
	 * site pass checks it ("[ \\t]+\\d"), or NULL. */
	const char *lit;
	size_t rare;
	bool digit_after;
	const char *then;
	const char *next;
	/* a mail client may have wrapped such a line in two (rewrap.c) */
	bool rewrapped;
};

#define BL_SHAPE_BY_ENDS SIZE_MAX

/* A tool's shapes. The fragments are PCRE2 alternations (NULL: none). */
struct bl_tool_shapes {
	const struct bl_line_shape *lines; /* a break before and after */
	size_t nlines;
	/* a break after only: zsh prints the command before its times on one
	 * line */
	const struct bl_line_shape *ends;
	size_t nends;
	/* a break before these, where no prompt stands before a command:
	 * "dd (?=(?:if|of|bs)=)" */
	const char *starts;
	/* a break before / after these, in a line already known to be
	 * flattened (they do not make one so): table headers, a report's
	 * fields */
	const char *weak_starts;
	const char *weak_ends;
	/* a command of key=value operands a mail client broke before its
	 * last operands: the line above (ending the command), the line below
	 * (operands only); both fragments, both hold a '=' */
	const char *wrapped_command;
	const char *wrapped_operands;
	/* the breaks between the rows of the tool's tables in a flattened
	 * line [s, s+len) at offset `base` of the text (unflatten.h's
	 * bl_breaks_add), where ingest's dashed rules and separators do not
	 * tell them; NULL: none */
	void (*table_breaks)(const char *s, size_t len, size_t base, struct bl_breaks *b);
	/* For each fragment, literals one of which every match holds (or the
	 * rest of its line after it, for a lookahead), NULL-terminated: a
	 * line without any is not searched. */
	const char *const *start_needs;
	const char *const *weak_start_needs;
	const char *const *weak_end_needs;
};

/* What ingest is handed: the site plan (base/sites.h) and every tool's
 * shapes and command word, in the registry's order. */
struct bl_ingest_plan {
	const struct bl_site_plan *sites;
	const struct bl_tool_shapes *const *tools;
	const char *const *commands; /* "dd", "bonnie++": after a prompt */
	size_t ntools;
};

/* The literals the unflattener searches for, in its order: the lines'
 * of every tool, then the ends' of every tool. Returns how many (at most
 * max are written; more than max: the plan cannot be used). */
size_t bl_shape_literals(const struct bl_ingest_plan *p, struct bl_site_literal *out, size_t max);
/* The shape of literal g of that order. */
const struct bl_line_shape *bl_shape_of_literal(const struct bl_ingest_plan *p, size_t g,
						bool *end);

/* Appends s to the pattern being composed in buf (at *n, of cap bytes);
 * false when it does not fit. */
bool bl_shapes_cat(char *buf, size_t cap, size_t *n, const char *s);

/* Makes the unflattener and the rewrapper read with p's shapes (the
 * patterns are composed and compiled when p differs from the plan they
 * were made for). False when memory ran out or there are too many
 * literals; NULL: no tool is known, nothing is unflattened. */
bool bl_shapes_use(const struct bl_ingest_plan *p);

#endif
