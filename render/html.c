/* html.c - escaped HTML text into a buffer (html.h). */
#include "html.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../base/utf8.h"

void bl_html_put(struct bl_buf *b, const char *s)
{
	bl_buf_put(b, s, strlen(s));
}

void bl_html_text(struct bl_buf *b, const char *s, size_t n)
{
	size_t i = 0, from = 0;
	while (i < n) {
		unsigned char ch = (unsigned char)s[i];
		const char *rep = NULL;
		char hex[8];
		size_t len = 1;
		if (ch >= 0x80) {
			len = bl_utf8_len((const unsigned char *)s + i, n - i);
			if (len == 0) {
				snprintf(hex, sizeof hex, "\\x%02X", ch);
				rep = hex;
				len = 1;
			}
		} else if (ch == '&') {
			rep = "&amp;";
		} else if (ch == '<') {
			rep = "&lt;";
		} else if (ch == '>') {
			rep = "&gt;";
		} else if (ch == '"') {
			rep = "&quot;";
		} else if ((ch < 0x20 && ch != '\t' && ch != '\n') || ch == 0x7f) {
			rep = "\xEF\xBF\xBD";
		}
		if (rep) {
			bl_buf_put(b, s + from, i - from);
			bl_html_put(b, rep);
			from = i + len;
		}
		i += len;
	}
	bl_buf_put(b, s + from, n - from);
}

void bl_html_esc(struct bl_buf *b, const char *s)
{
	if (s)
		bl_html_text(b, s, strlen(s));
}

void bl_html_printf(struct bl_buf *b, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		bl_buf_put(b, small, (size_t)n);
		return;
	}
	if (!bl_buf_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->n += (size_t)n;
}
