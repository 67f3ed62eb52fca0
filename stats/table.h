/*
 * Tables for the human-readable printers: cells are added row by row, then
 * the table is printed with aligned columns (text) or as a Markdown table.
 * The first row is the header.
 *
 *	struct text_table t;
 *	table_init(&t, "lrr");			// 3 columns: left, right, right
 *	table_add(&t, NULL, "statistic"); ...
 *	table_add(&t, COLOR_GREEN, "%d", 3);	// a coloured cell (text output)
 *	table_print(&t, stdout, "  ", color);
 *	table_release(&t);
 */
#ifndef SHDB_STATS_TABLE_H
#define SHDB_STATS_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "compiler/util/array.h"

struct table_cell {
	char *text;
	const char *color;	/* NULL: none */
};

struct text_table {
	char *align;		/* one 'l' or 'r' per column (a copy) */
	size_t ncols;
	ARRAY(struct table_cell) cells;
};

void table_init(struct text_table *t, const char *align);
__attribute__((format(printf, 3, 4)))
void table_add(struct text_table *t, const char *color, const char *fmt, ...);
size_t table_rows(const struct text_table *t);
/* Aligned columns, two spaces apart, each line after `indent`; no trailing blanks. */
void table_print(const struct text_table *t, FILE *out, const char *indent, bool color);
/* | a | b |, with :-- / --: alignment markers; '|' in cells escaped. */
void table_print_markdown(const struct text_table *t, FILE *out);
void table_release(struct text_table *t);

#endif
