/*
 * Number formatting and output choices; see format.h.
 */
#include "stats/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool parse_format(const char *name, enum out_format *out)
{
	static const struct {
		const char *name;
		enum out_format format;
	} formats[] = {
		{ "text", FORMAT_TEXT }, { "markdown", FORMAT_MARKDOWN }, { "md", FORMAT_MARKDOWN },
		{ "json", FORMAT_JSON }, { "csv", FORMAT_CSV }, { "reportpy", FORMAT_REPORTPY },
		{ "shaderdb", FORMAT_SHADERDB },
	};
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (!strcmp(name, formats[i].name)) {
			*out = formats[i].format;
			return true;
		}
	}
	return false;
}

bool parse_color(const char *name, bool *out)
{
	if (!strcmp(name, "always"))
		*out = true;
	else if (!strcmp(name, "never"))
		*out = false;
	else if (!strcmp(name, "auto")) {
		const char *term = getenv("TERM");
		*out = isatty(STDOUT_FILENO) && !getenv("NO_COLOR") && !(term && !strcmp(term, "dumb"));
	} else
		return false;
	return true;
}

void fmt_num(struct strbuf *sb, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		strbuf_addf(sb, "%.0f", v);
	else
		strbuf_addf(sb, "%.2f", v);
}

void fmt_pct(struct strbuf *sb, double frac)
{
	if (isinf(frac))
		strbuf_addstr(sb, frac > 0 ? "+inf%" : "-inf%");
	else if (frac == 0)
		strbuf_addstr(sb, "0.00%");
	else if (fabs(frac) < 0.0001)
		strbuf_addstr(sb, frac > 0 ? "+<.01%" : "-<.01%");
	else
		strbuf_addf(sb, "%+.2f%%", frac * 100);
}

void fmt_pct_mag(struct strbuf *sb, double frac)
{
	if (frac != 0 && fabs(frac) < 0.0001)
		strbuf_addstr(sb, "<.01%");
	else
		strbuf_addf(sb, "%.2f%%", frac * 100);
}

void fmt_change(struct strbuf *sb, double before, double after)
{
	fmt_num(sb, before);
	strbuf_addstr(sb, " -> ");
	fmt_num(sb, after);
	if (before != after && before != 0) {
		strbuf_addstr(sb, " (");
		fmt_pct(sb, (after - before) / before);
		strbuf_addch(sb, ')');
	}
}

void strbuf_add_colored(struct strbuf *sb, bool on, const char *color, const char *text)
{
	if (on)
		strbuf_addstr(sb, color);
	strbuf_addstr(sb, text);
	if (on)
		strbuf_addstr(sb, COLOR_RESET);
}
