/* html_regions.c - HTML inside a text post, decoded region by region.
 *
 * A blog or forum post kept as Markdown or text can hold one part as HTML,
 * a device's output in a <div> with a <br/> at each line end:
 *   <div>
 *   /dev/da0<br/>
 *   &nbsp; &nbsp; 512 &nbsp; &nbsp; # sectorsize<br/>
 *   ...<br/></div>
 * while the rest of the post is text (with &nbsp; runs that the parsers
 * take as blanks). Such a region is a run of lines each of which ends in
 * a <br> or holds tags alone, three <br> line ends at least; it is made
 * text by the HTML decoder on its own, the lines around it left as they
 * are. A document that is HTML from its start is the HTML step's. */
#include <strings.h>
#include <string.h>

#include "decode.h"

#define REGION_MIN_BR 3

/* Whether the line [s, s+n) (without its newline) ends in <br>, <br/> or
 * <br /> (and blanks, and closing tags: "d<br/></div>"). */
static bool ends_in_br(const char *s, size_t n)
{
	for (;;) {
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
			n--;
		const char *lt = n && s[n - 1] == '>' ? memrchr(s, '<', n) : NULL;
		if (!lt || lt + 1 >= s + n || lt[1] != '/')
			break;
		n = (size_t)(lt - s); /* a closing tag */
	}
	static const char *const br[] = {"<br>", "<br/>", "<br />", NULL};
	for (const char *const *b = br; *b; b++) {
		size_t k = strlen(*b);
		if (n >= k && strncasecmp(s + n - k, *b, k) == 0)
			return true;
	}
	return false;
}

/* Whether the line holds tags alone ("<div>", "<br/></div>", "</p>"). */
static bool tags_only(const char *s, size_t n)
{
	size_t i = 0, tags = 0;
	for (;;) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i == n)
			return tags > 0;
		if (s[i] != '<' || i + 1 == n || !(s[i + 1] == '/' || (s[i + 1] | 0x20) >= 'a'))
			return false;
		const char *gt = memchr(s + i, '>', n - i);
		if (!gt)
			return false;
		i = (size_t)(gt - s) + 1;
		tags++;
	}
}

/* The region that starts at the line at `a` or later: [*rs, *re), the end
 * of its last line included. False when none is left. */
static bool next_region(const char *s, size_t n, size_t a, size_t *rs, size_t *re)
{
	size_t start = SIZE_MAX, brs = 0;
	for (size_t i = a; i < n;) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t e = nl ? (size_t)(nl - s) : n, next = nl ? e + 1 : n;
		bool br = ends_in_br(s + i, e - i);
		if (br || tags_only(s + i, e - i)) {
			if (start == SIZE_MAX)
				start = i;
			brs += br;
			*re = next;
		} else {
			if (brs >= REGION_MIN_BR) {
				*rs = start;
				return true;
			}
			start = SIZE_MAX;
			brs = 0;
		}
		i = next;
	}
	if (start != SIZE_MAX && brs >= REGION_MIN_BR) {
		*rs = start;
		return true;
	}
	return false;
}

/* Whether s[0, n) holds "<br" in any case: a memchr pass for '<' (memmem
 * has no vector search, and costs a third of a mail archive's reading). */
static bool has_br(const char *s, size_t n)
{
	for (const char *p = s, *e = s + n; (p = memchr(p, '<', (size_t)(e - p))); p++)
		if (e - p >= 3 && (p[1] | 0x20) == 'b' && (p[2] | 0x20) == 'r')
			return true;
	return false;
}

bool bl_html_regions(struct bl_message *m, struct bl_src *in, struct bl_tbuf *out)
{
	const char *s = in->s;
	size_t n = in->len, done = 0, rs, re;
	/* most posts hold no "<br": passed in one memchr search */
	if (!has_br(s, n))
		return false;
	bool any = false;
	while (done < n && next_region(s, n, done, &rs, &re)) {
		if (!any && !bl_tbuf_reserve(out, n))
			return false;
		any = true;
		bl_tbuf_copy(out, in, done, rs - done);
		struct bl_src region;
		bl_src_sub(&region, in, rs, re - rs);
		bl_html_to_text(m, &region, out);
		done = re;
	}
	if (any)
		bl_tbuf_copy(out, in, done, n - done);
	return any;
}
