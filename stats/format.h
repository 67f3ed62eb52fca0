/*
 * Number formatting shared by the human-readable printers of `shdb stats` and
 * `shdb cmp`, and the choice of output format and colour.
 *
 *	fmt_num(sb, 12)        "12"        fmt_num(sb, 5.666)   "5.67"
 *	fmt_pct(sb, -0.031)    "-3.10%"    fmt_pct(sb, 0.00004) "+<.01%"
 *	fmt_change(sb, 420, 407)  "420 -> 407 (-3.10%)"
 */
#ifndef SHDB_STATS_FORMAT_H
#define SHDB_STATS_FORMAT_H

#include <stdbool.h>

#include "compiler/util/strbuf.h"

enum out_format {
	FORMAT_TEXT,
	FORMAT_MARKDOWN,
	FORMAT_JSON,
	FORMAT_CSV,
	FORMAT_REPORTPY,	/* shdb cmp only: report.py's own layout */
	FORMAT_SHADERDB,	/* shdb stats only: the records as Mesa's shader-db log */
};

/* "text" … "shaderdb"; false for another name. */
bool parse_format(const char *name, enum out_format *out);

/* --color=auto|always|never: whether to colour standard output; false for another name. */
bool parse_color(const char *name, bool *out);

/* An integral value as an integer, anything else with two decimals. */
void fmt_num(struct strbuf *sb, double v);
/* A fraction as a signed percentage: "+4.00%", "-12.01%", "0.00%", "+<.01%", "+inf%". */
void fmt_pct(struct strbuf *sb, double frac);
/* A magnitude as a percentage, unsigned: "4.00%", "<.01%". */
void fmt_pct_mag(struct strbuf *sb, double frac);
/* "before -> after (±p%)"; no percentage when nothing changed or before is 0. */
void fmt_change(struct strbuf *sb, double before, double after);

/* ANSI colours, or nothing when `on` is false. */
#define COLOR_GREEN "\033[32m"
#define COLOR_RED "\033[31m"
#define COLOR_YELLOW "\033[33m"
#define COLOR_BOLD "\033[1m"
#define COLOR_RESET "\033[0m"

void strbuf_add_colored(struct strbuf *sb, bool on, const char *color, const char *text);

#endif
