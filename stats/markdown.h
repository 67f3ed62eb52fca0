/*
 * Strings from the input in Markdown (shdb cmp --format=markdown, the
 * report's summary.md).  A path or a label may hold backticks, '|', line
 * breaks or HTML; none of it may end a code span, break a table row or reach
 * the reader as markup:
 *
 *	md_code(sb, "a`b|c\n<x>", false)   ->   `` a`b|c <x> ``
 *	md_text(sb, "<img src=x> *bold*")  ->   \<img src=x\> \*bold\*
 *
 * md_code() fences the string with more backticks than it holds; inside a
 * code span HTML is text.  md_text() backslash-escapes the characters that
 * open inline markup (emphasis, code, links, HTML, entities).  Both turn line
 * breaks into spaces.  With `pipes`, '|' is escaped for a table row we write
 * ourselves (table_print_markdown() escapes its cells itself).
 */
#ifndef SHDB_STATS_MARKDOWN_H
#define SHDB_STATS_MARKDOWN_H

#include <stdbool.h>

#include "compiler/util/strbuf.h"

void md_code(struct strbuf *sb, const char *s, bool pipes);
void md_text(struct strbuf *sb, const char *s, bool pipes);

#endif
