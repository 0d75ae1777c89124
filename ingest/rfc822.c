/* rfc822.c - mail headers (RFC 5322): the block up to the first empty
 * line, folded lines unfolded, the fields benchlog keeps, and RFC 2047
 * encoded words in Subject and From:
 *   Subject: =?ISO-8859-2?Q?Teszt_eredm=E9nyek?=
 *   Content-Type: text/plain; charset="iso-8859-1"; format=flowed
 *   Content-Transfer-Encoding: quoted-printable */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "decode.h"

/* Header fields of one entity are bounded (hostile input). */
#define MAX_FIELD 8192

static bool field_name(const char *s, size_t len, size_t *colon)
{
	size_t i = 0;
	while (i < len && i < 76 && s[i] > 32 && s[i] < 127 && s[i] != ':')
		i++;
	if (i == 0 || i >= len || s[i] != ':')
		return false;
	*colon = i;
	return true;
}

static void copy_lower(char *dst, size_t dsz, const char *s, size_t n)
{
	size_t o = 0;
	for (size_t i = 0; i < n && o + 1 < dsz; i++)
		dst[o++] = (char)tolower((unsigned char)s[i]);
	dst[o] = '\0';
}

static void trim(const char **s, size_t *n)
{
	while (*n && isspace((unsigned char)**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/* A parameter of a structured field: `charset="utf-8"` in
 * "text/plain; charset=\"utf-8\"; format=flowed". Copies the value. */
static bool param(const char *v, size_t n, const char *name, char *out, size_t outsz)
{
	size_t nl = strlen(name);
	for (size_t i = 0; i < n;) {
		const char *semi = memchr(v + i, ';', n - i);
		if (!semi)
			return false;
		i = (size_t)(semi - v) + 1;
		while (i < n && isspace((unsigned char)v[i]))
			i++;
		if (n - i > nl && strncasecmp(v + i, name, nl) == 0) {
			size_t k = i + nl;
			while (k < n && (v[k] == ' ' || v[k] == '\t'))
				k++;
			if (k >= n || v[k] != '=')
				continue;
			k++;
			while (k < n && (v[k] == ' ' || v[k] == '\t'))
				k++;
			size_t start = k, end;
			if (k < n && v[k] == '"') {
				start = ++k;
				while (k < n && v[k] != '"')
					k++;
				end = k;
			} else {
				while (k < n && v[k] != ';' && !isspace((unsigned char)v[k]))
					k++;
				end = k;
			}
			size_t len = end - start;
			if (len >= outsz)
				len = outsz - 1;
			memcpy(out, v + start, len);
			out[len] = '\0';
			return true;
		}
	}
	return false;
}

static char *dup_value(const char *s, size_t n, bool words)
{
	trim(&s, &n);
	if (words)
		return bl_rfc2047_decode(s, n);
	return bl_charset_string(s, n, NULL);
}

/* The fields field() reads; the others' values (Received,
 * DKIM-Signature, List-*: most of a list mail's header block) are not
 * copied. */
enum kept { K_NONE, K_SUBJECT, K_FROM, K_DATE, K_MESSAGE_ID, K_TYPE, K_ENCODING, K_DISPOSITION };

static enum kept kept_field(const char *name, size_t nl)
{
	/* most fields of a list mail (Received, X-..., List-..., DKIM-...)
	 * are told by their length and first letter, without a compare */
	char c = (char)(name[0] | 0x20);
	bool maybe = (nl == 7 && c == 's') || (nl == 4 && (c == 'f' || c == 'd')) ||
		     (nl == 10 && c == 'm') || ((nl == 12 || nl == 19 || nl == 25) && c == 'c');
	if (!maybe)
		return K_NONE;
	static const struct {
		const char *name;
		size_t len;
	} kept[] = {
		[K_SUBJECT] = {"subject", 7},
		[K_FROM] = {"from", 4},
		[K_DATE] = {"date", 4},
		[K_MESSAGE_ID] = {"message-id", 10},
		[K_TYPE] = {"content-type", 12},
		[K_ENCODING] = {"content-transfer-encoding", 25},
		[K_DISPOSITION] = {"content-disposition", 19},
	};
	for (size_t k = K_SUBJECT; k < sizeof kept / sizeof *kept; k++)
		if (nl == kept[k].len && strncasecmp(name, kept[k].name, nl) == 0)
			return (enum kept)k;
	return K_NONE;
}

/* The leading token of a structured value, lower case:
 *   text/plain; charset="utf-8"   ->   text/plain */
static void token_lower(char *dst, size_t dsz, const char *v, size_t vl)
{
	size_t tl = 0;
	while (tl < vl && v[tl] != ';' && !isspace((unsigned char)v[tl]))
		tl++;
	copy_lower(dst, dsz, v, tl);
}

static void content_type(struct bl_headers *h, const char *v, size_t vl)
{
	token_lower(h->type, sizeof h->type, v, vl);
	char buf[32];
	if (param(v, vl, "charset", h->charset, sizeof h->charset))
		copy_lower(h->charset, sizeof h->charset, h->charset, strlen(h->charset));
	param(v, vl, "boundary", h->boundary, sizeof h->boundary);
	if (param(v, vl, "format", buf, sizeof buf))
		h->flowed = strcasecmp(buf, "flowed") == 0;
	if (param(v, vl, "delsp", buf, sizeof buf))
		h->delsp = strcasecmp(buf, "yes") == 0;
}

static void field(struct bl_headers *h, enum kept which, const char *v, size_t vl)
{
	trim(&v, &vl);
	switch (which) {
	case K_SUBJECT:
		if (!h->subject)
			h->subject = dup_value(v, vl, true);
		break;
	case K_FROM:
		if (!h->from)
			h->from = dup_value(v, vl, true);
		break;
	case K_DATE:
		if (!h->date)
			h->date = dup_value(v, vl, false);
		break;
	case K_MESSAGE_ID:
		if (!h->message_id)
			h->message_id = dup_value(v, vl, false);
		break;
	case K_TYPE: content_type(h, v, vl); break;
	case K_ENCODING: copy_lower(h->encoding, sizeof h->encoding, v, vl); break;
	case K_DISPOSITION: token_lower(h->disposition, sizeof h->disposition, v, vl); break;
	case K_NONE: break;
	}
}

void bl_headers_parse(struct bl_src *src, struct bl_headers *h)
{
	memset(h, 0, sizeof *h);
	const char *s = src->s;
	size_t n = src->len, i = 0;
	char val[MAX_FIELD];
	size_t vl = 0;
	bool named = false; /* a field is under way */
	enum kept keep = K_NONE; /* which, if field() reads it */
	while (i < n) {
		const char *nlp = memchr(s + i, '\n', n - i);
		size_t end = nlp ? (size_t)(nlp - s) : n;
		size_t next = nlp ? end + 1 : n;
		size_t len = end - i;
		if (len && s[end - 1] == '\r')
			len--;
		if (len == 0) {
			h->has_body = true;
			h->body = next;
			break;
		}
		if ((s[i] == ' ' || s[i] == '\t') && named) {
			/* a folded line continues the field */
			if (keep && vl + len < MAX_FIELD) {
				memcpy(val + vl, s + i, len);
				vl += len;
			}
		} else {
			if (named && keep)
				field(h, keep, val, vl);
			size_t colon;
			if (field_name(s + i, len, &colon)) {
				named = true;
				vl = 0;
				h->nfields++;
				keep = kept_field(s + i, colon);
				size_t rest = len - colon - 1;
				if (keep) {
					if (rest >= MAX_FIELD)
						rest = MAX_FIELD - 1;
					memcpy(val, s + i + colon + 1, rest);
					vl = rest;
				}
			} else {
				/* not a header line: the body starts here (no blank line) */
				named = false;
				h->body = i;
				break;
			}
		}
		i = next;
		h->body = i;
	}
	if (named && keep && (i >= n || h->has_body))
		field(h, keep, val, vl);
}

void bl_headers_free(struct bl_headers *h)
{
	free(h->subject);
	free(h->from);
	free(h->date);
	free(h->message_id);
	h->subject = h->from = h->date = h->message_id = NULL;
}

/* ----------------------------------------------------------- RFC 2047 */

static int hexv(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* "=?charset?Q?text?=" at s: on success, the decoded UTF-8 appended to
 * out and the length of the word returned; 0 if it is not one. */
static size_t encoded_word(const char *s, size_t n, char **out, size_t *olen, size_t *ocap)
{
	if (n < 8 || s[0] != '=' || s[1] != '?')
		return 0;
	size_t i = 2;
	while (i < n && i < 64 && s[i] != '?' && !isspace((unsigned char)s[i]))
		i++;
	if (i >= n || s[i] != '?' || i == 2 || i + 3 >= n || s[i + 2] != '?')
		return 0;
	char cs[64];
	size_t csl = i - 2;
	memcpy(cs, s + 2, csl);
	cs[csl] = '\0';
	char *star = strchr(cs, '*'); /* RFC 2231 language: "utf-8*en" */
	if (star)
		*star = '\0';
	char enc = (char)toupper((unsigned char)s[i + 1]);
	if (enc != 'Q' && enc != 'B')
		return 0;
	size_t t = i + 3, te = t;
	while (te + 1 < n && !(s[te] == '?' && s[te + 1] == '=') && s[te] != '\n')
		te++;
	if (te + 1 >= n || s[te] != '?')
		return 0;
	size_t tl = te - t;
	unsigned char *bytes = malloc(tl + 1);
	if (!bytes)
		return 0;
	size_t bl = 0;
	if (enc == 'B') {
		bl = bl_base64_decode_plain(s + t, tl, bytes);
	} else {
		for (size_t k = t; k < te; k++) {
			if (s[k] == '_')
				bytes[bl++] = ' ';
			else if (s[k] == '=' && k + 2 < te + 1 &&
				 hexv((unsigned char)s[k + 1]) >= 0 &&
				 hexv((unsigned char)s[k + 2]) >= 0) {
				bytes[bl++] = (unsigned char)(hexv((unsigned char)s[k + 1]) * 16 +
							      hexv((unsigned char)s[k + 2]));
				k += 2;
			} else
				bytes[bl++] = (unsigned char)s[k];
		}
	}
	char *u = bl_charset_string((const char *)bytes, bl, cs);
	free(bytes);
	if (!u)
		return 0;
	size_t ul = strlen(u);
	if (*olen + ul + 1 > *ocap) {
		size_t cap = (*olen + ul + 1) * 2;
		char *nb = realloc(*out, cap);
		if (!nb) {
			free(u);
			return 0;
		}
		*out = nb;
		*ocap = cap;
	}
	memcpy(*out + *olen, u, ul);
	*olen += ul;
	free(u);
	return te + 2;
}

/* Whether s holds "=?", the start of an encoded word (memmem costs a
 * short value more). */
static bool has_encoded_word(const char *s, size_t n)
{
	for (const char *e = s + n, *q = memchr(s, '=', n); q && q + 1 < e;
	     q = memchr(q + 1, '=', (size_t)(e - q - 1)))
		if (q[1] == '?')
			return true;
	return false;
}

char *bl_rfc2047_decode(const char *s, size_t n)
{
	/* no encoded word ("=?"): the loop below would copy s as it is */
	if (!has_encoded_word(s, n))
		return bl_charset_string(s, n, NULL);
	size_t cap = n + 16, len = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	bool prev_word = false;
	size_t i = 0;
	while (i < n) {
		size_t k = encoded_word(s + i, n - i, &out, &len, &cap);
		if (k) {
			i += k;
			prev_word = true;
			continue;
		}
		/* blanks between two encoded words are dropped */
		if (prev_word && isspace((unsigned char)s[i])) {
			size_t j = i;
			while (j < n && isspace((unsigned char)s[j]))
				j++;
			if (j + 1 < n && s[j] == '=' && s[j + 1] == '?') {
				size_t save = len;
				size_t w = encoded_word(s + j, n - j, &out, &len, &cap);
				if (w) {
					i = j + w;
					continue;
				}
				len = save;
			}
		}
		prev_word = false;
		if (len + 2 > cap) {
			char *nb = realloc(out, cap *= 2);
			if (!nb) {
				free(out);
				return NULL;
			}
			out = nb;
		}
		out[len++] = s[i++];
	}
	/* the text around the words may hold raw 8-bit bytes: repair */
	char *r = bl_charset_string(out, len, NULL);
	free(out);
	return r;
}

bool bl_headers_detect(const char *s, size_t len)
{
	static const char *const known[] = {
		"from",       "to",           "subject",      "date",         "message-id",
		"received",   "return-path",  "mime-version", "content-type", "reply-to",
		"cc",         "delivered-to", "x-mailer",     "user-agent",   "in-reply-to",
		"references", "sender",       NULL,
	};
	size_t i = 0, hits = 0, lines = 0;
	while (i < len && lines < 200) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - s) : len;
		size_t ll = end - i;
		if (ll && s[end - 1] == '\r')
			ll--;
		if (ll == 0)
			return hits >= 2 && lines > 0;
		if (s[i] == ' ' || s[i] == '\t') {
			if (!lines)
				return false;
		} else {
			size_t colon;
			if (!field_name(s + i, ll, &colon))
				return false;
			for (const char *const *k = known; *k; k++)
				if (strlen(*k) == colon && strncasecmp(s + i, *k, colon) == 0)
					hits++;
		}
		lines++;
		if (!nl)
			break;
		i = end + 1;
	}
	return false;
}
