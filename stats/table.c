/*
 * Aligned and Markdown tables; see table.h.
 */
#include "stats/table.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"
#include "compiler/util/strbuf.h"
#include "stats/format.h"

void table_init(struct text_table *t, const char *align)
{
	memset(t, 0, sizeof(*t));
	t->align = xstrdup(align);
	t->ncols = strlen(align);
}

void table_add(struct text_table *t, const char *color, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	array_push(&t->cells, (struct table_cell){ strbuf_detach(&sb, NULL), color });
}

size_t table_rows(const struct text_table *t)
{
	return t->cells.len / t->ncols;
}

/* Display width: UTF-8 continuation bytes take no column. */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static size_t *column_widths(const struct text_table *t)
{
	size_t *w = xcalloc(t->ncols, sizeof(size_t));
	for (size_t i = 0; i < t->cells.len; i++) {
		size_t cw = width(t->cells.data[i].text);
		if (cw > w[i % t->ncols])
			w[i % t->ncols] = cw;
	}
	return w;
}

static void print_row(const struct text_table *t, FILE *out, size_t row, const size_t *w,
		      bool color)
{
	struct strbuf line = STRBUF_INIT;
	for (size_t col = 0; col < t->ncols; col++) {
		const struct table_cell *c = &t->cells.data[row * t->ncols + col];
		size_t pad = w[col] - width(c->text);
		bool last = col + 1 == t->ncols;
		if (col)
			strbuf_addstr(&line, "  ");
		if (t->align[col] == 'r')
			strbuf_addchars(&line, ' ', pad);
		const char *hue = row == 0 ? COLOR_BOLD : c->color;
		strbuf_add_colored(&line, color && hue, hue ? hue : "", c->text);
		if (t->align[col] != 'r' && !last)
			strbuf_addchars(&line, ' ', pad);
	}
	strbuf_rtrim(&line);
	fprintf(out, "%s\n", line.buf);
	strbuf_release(&line);
}

void table_print(const struct text_table *t, FILE *out, const char *indent, bool color)
{
	size_t *w = column_widths(t);
	for (size_t row = 0; row < table_rows(t); row++) {
		fputs(indent, out);
		print_row(t, out, row, w, color);
	}
	free(w);
}

static void markdown_cell(FILE *out, const char *text)
{
	fputs(" ", out);
	for (const char *p = text; *p; p++) {
		if (*p == '|')
			fputc('\\', out);
		fputc(*p, out);
	}
	fputs(" |", out);
}

void table_print_markdown(const struct text_table *t, FILE *out)
{
	for (size_t row = 0; row < table_rows(t); row++) {
		fputs("|", out);
		for (size_t col = 0; col < t->ncols; col++)
			markdown_cell(out, t->cells.data[row * t->ncols + col].text);
		fputs("\n", out);
		if (row)
			continue;
		fputs("|", out);
		for (size_t col = 0; col < t->ncols; col++)
			fputs(t->align[col] == 'r' ? " --: |" : " :-- |", out);
		fputs("\n", out);
	}
}

void table_release(struct text_table *t)
{
	for (size_t i = 0; i < t->cells.len; i++)
		free(t->cells.data[i].text);
	array_free(&t->cells);
	free(t->align);
}
