/*
 * Writing the report's HTML.  A page is markup we write ourselves plus
 * strings from the history (paths, labels, messages, target names, the
 * HISTORY path itself): every one of those goes through E(), which escapes
 * it for text and for quoted attribute values alike, and replaces what XML
 * cannot hold (bytes that are not UTF-8, control characters) by U+FFFD.  So
 * the pages are well-formed XML as well as HTML, which the tests check.
 *
 *	struct page p;
 *	page_begin(&p, "shdb report");
 *	strbuf_addf(&p.out, "<td title=\"%s\">%s</td>", E(&p, path), N(&p, 412));
 *	page_end(&p);
 *	page_write(&p, "OUT/index.html", &diag);
 *
 * Links and file names are never built from history strings: detail pages
 * are named by a hash, charts by a sanitised target name.
 */
#ifndef SHDB_REPORTS_HTML_H
#define SHDB_REPORTS_HTML_H

#include <stdbool.h>

#include "compiler/util/arena.h"
#include "compiler/util/error.h"
#include "compiler/util/strbuf.h"

struct page {
	struct strbuf out;
	struct arena scratch;	/* the strings of E(), N(), P() until page_end */
};

/* Append `s` escaped: & < > " ' as references, invalid UTF-8 and control
 * characters (but tab and newline) as U+FFFD. */
void html_escape(struct strbuf *out, const char *s);

void page_begin(struct page *p, const char *title);
void page_end(struct page *p);
/* Write the page to `path`; -1 with a message in `diag`. */
int page_write(struct page *p, const char *path, struct diag *diag);
void page_release(struct page *p);

/* Escaped copies, numbers as shdb cmp prints them ("412", "5.67"), signed
 * percentages ("-3.10%"), all valid until page_end. */
const char *E(struct page *p, const char *s);
const char *N(struct page *p, double v);
const char *P(struct page *p, double frac);
/* A number exactly, for data-* attributes ("412", "0.1"): %.17g. */
const char *X(struct page *p, double v);

/* "good", "bad" or "" by which way a change went for a statistic. */
const char *change_class(bool higher_better, double before, double after);

#endif
