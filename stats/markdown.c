/*
 * Markdown code spans and text of any string; see markdown.h.
 */
#include "stats/markdown.h"

#include <string.h>

/* One character of the string, a line break as a space. */
static void add_char(struct strbuf *sb, char c, bool pipes)
{
	if (c == '|' && pipes)
		strbuf_addstr(sb, "\\|");
	else
		strbuf_addch(sb, c == '\n' || c == '\r' ? ' ' : c);
}

void md_code(struct strbuf *sb, const char *s, bool pipes)
{
	size_t run = 0, longest = 0, len = strlen(s);
	if (!len)
		return;		/* "``" would be two backticks, not an empty span */
	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	/* a space inside the fence when the string starts or ends with a
	 * backtick (or a space, which the fence would strip) */
	bool pad = len && (s[0] == '`' || s[len - 1] == '`' || s[0] == ' ' || s[len - 1] == ' ');
	strbuf_addchars(sb, '`', longest + 1);
	strbuf_addstr(sb, pad ? " " : "");
	for (const char *p = s; *p; p++)
		add_char(sb, *p, pipes);
	strbuf_addstr(sb, pad ? " " : "");
	strbuf_addchars(sb, '`', longest + 1);
}

/*
 * The characters that can open or close inline Markdown inside a table cell:
 * emphasis, code, links and images (with '[' and ']' escaped no link can form,
 * so '(' and ')' stay as they are), raw HTML and entities, strikethrough and
 * the escape itself.  The block-level marks ('#', '-', '+', '>' …) mean nothing
 * inside a cell; '>' is escaped for HTML anyway.
 */
static const char md_inline[] = "\\`*_[]<>&~!";

void md_text(struct strbuf *sb, const char *s, bool pipes)
{
	for (const char *p = s; *p; p++) {
		if (strchr(md_inline, *p))
			strbuf_addch(sb, '\\');
		add_char(sb, *p, pipes);
	}
}
