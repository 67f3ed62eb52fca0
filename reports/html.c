/*
 * HTML pages; see html.h.
 */
#include "reports/html.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compiler/util/file.h"
#include "compiler/util/utf8.h"
#include "stats/format.h"

void html_escape(struct strbuf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = utf8_seq_len(p, strnlen((const char *)p, 4));
		switch (n ? *p : 0) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		case '"': strbuf_addstr(out, "&quot;"); break;
		case '\'': strbuf_addstr(out, "&#39;"); break;
		case '\t':
		case '\n':
			strbuf_addch(out, *p);
			break;
		default:
			if (!n || *p < 0x20 || *p == 0x7f)
				strbuf_addstr(out, "\xef\xbf\xbd");	/* U+FFFD */
			else
				strbuf_add(out, p, n);
		}
		p += n ? n : 1;
	}
}

/* One style sheet for every page: readable at 1280 px, no web fonts. */
static const char css[] =
	"body{font:14px/1.45 'DejaVu Sans',Verdana,sans-serif;margin:0;color:#1d2428;background:#f4f6f8}"
	"header{background:#263238;color:#fff;padding:14px 28px}"
	"header h1{margin:0;font-size:21px;font-weight:600}"
	"header p{margin:4px 0 0;color:#cfd8dc}"
	"header a{color:#b3e5fc}"
	"main{max-width:1360px;margin:0 auto;padding:6px 28px 40px}"
	"section{background:#fff;border:1px solid #d9dee3;border-radius:6px;margin:16px 0;padding:10px 18px 14px}"
	"h2{font-size:18px;margin:6px 0 10px}h3{font-size:15px;margin:16px 0 8px}"
	"table{border-collapse:collapse;font-size:13px;margin:4px 0}"
	"th,td{padding:3px 9px;border-bottom:1px solid #e8ecef;text-align:left;vertical-align:top}"
	"th{background:#f0f3f5;font-weight:600}"
	".n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
	".good{color:#1b7d3a}.bad{color:#c62828}.muted{color:#6b7b86}"
	"tr.hurt td{background:#fdecec}tr.helped td{background:#eaf6ec}"
	".verdict-hurt{color:#c62828;font-weight:600}.verdict-helped{color:#1b7d3a;font-weight:600}"
	".charts{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:14px}"
	".runs{display:grid;grid-template-columns:420px minmax(0,1fr);gap:22px;align-items:start;margin-top:12px}"
	".scroll{overflow-x:auto}table.runs td,table.runs th{white-space:nowrap}"
	".nw{white-space:nowrap}"
	"figure{margin:0}figure img{width:100%;height:auto;border:1px solid #e8ecef;background:#fff}"
	"figcaption{font-size:12px;color:#6b7b86;margin-top:2px}"
	".lists{display:grid;grid-template-columns:1fr 1fr;gap:18px}"
	"details{margin:6px 0}summary{cursor:pointer;font-weight:600}"
	"code,pre{font-family:'DejaVu Sans Mono',monospace;font-size:12px}"
	"td.path{max-width:520px;overflow-wrap:anywhere}"
	"pre.diff{background:#fafbfc;border:1px solid #e8ecef;padding:6px 0;overflow-x:auto}"
	"pre.diff span{display:block;padding:0 10px}"
	"pre.diff .add{background:#e6ffed}pre.diff .del{background:#ffeef0}"
	"pre.diff .hunk{color:#6f42c1;background:#f3f0fb}"
	"ul.problems{font-family:'DejaVu Sans Mono',monospace;font-size:12px}"
	".note{color:#6b7b86;font-style:italic}"
	"th[data-sorted=up]::after{content:' ▲'}th[data-sorted=down]::after{content:' ▼'}"
	"svg.spark{background:#fff;border:1px solid #e8ecef}"
	"pre.source{background:#fafbfc;border:1px solid #e8ecef;padding:6px 10px;overflow-x:auto;"
	"max-height:480px}";

void page_begin(struct page *p, const char *title)
{
	strbuf_init(&p->out);
	arena_init(&p->scratch);
	strbuf_addf(&p->out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
			     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
			     "<meta name=\"generator\" content=\"shdb report\"/>\n"
			     "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n",
		    E(p, title), css);
}

/* A click on a header of a table.sortable sorts its rows by that column (a
 * second click reverses); numbers as numbers.  The page reads the same
 * without it.  Written without '<' and '&', so the page stays well-formed
 * XML too. */
static const char sort_script[] =
	"<script>\n"
	"function shdbKey(cell) {\n"
	"  var s = cell ? (cell.getAttribute('data-sort') || cell.textContent.trim()) : '';\n"
	"  return /^[+-]?[0-9][0-9,]*([.][0-9]+)?%?$/.test(s) ? parseFloat(s.replace(/,/g, '')) :\n"
	"    s.toLowerCase();\n"
	"}\n"
	"document.querySelectorAll('table.sortable').forEach(function (t) {\n"
	"  var head = t.rows[0];\n"
	"  Array.prototype.forEach.call(head.cells, function (th, col) {\n"
	"    th.style.cursor = 'pointer';\n"
	"    th.title = 'sort by this column';\n"
	"    th.addEventListener('click', function () {\n"
	"      var down = th.getAttribute('data-sorted') === 'up';\n"
	"      Array.prototype.forEach.call(head.cells, function (h) {\n"
	"        h.removeAttribute('data-sorted');\n"
	"      });\n"
	"      th.setAttribute('data-sorted', down ? 'down' : 'up');\n"
	"      var rows = Array.prototype.slice.call(t.rows, 1);\n"
	"      rows.sort(function (a, b) {\n"
	"        var x = shdbKey(a.cells[col]), y = shdbKey(b.cells[col]);\n"
	"        var c = typeof x === typeof y ? (x > y) - (y > x) : typeof x === 'number' ? -1 : 1;\n"
	"        return down ? -c : c;\n"
	"      });\n"
	"      rows.forEach(function (r) { r.parentNode.appendChild(r); });\n"
	"    });\n"
	"  });\n"
	"});\n"
	"</script>\n";

void page_end(struct page *p)
{
	strbuf_addstr(&p->out, sort_script);
	strbuf_addstr(&p->out, "</body>\n</html>\n");
	arena_release(&p->scratch);
}

int page_write(struct page *p, const char *path, struct diag *diag)
{
	struct strbuf err = STRBUF_INIT;
	int ret = write_file_atomic(path, p->out.buf, p->out.len, &err);
	if (ret < 0)
		diag_error(diag, error_progname, 0, 0, "%s", err.buf);
	strbuf_release(&err);
	return ret;
}

void page_release(struct page *p)
{
	strbuf_release(&p->out);
	arena_release(&p->scratch);
}

static const char *keep(struct page *p, struct strbuf *sb)
{
	const char *s = arena_strndup(&p->scratch, sb->buf, sb->len);
	strbuf_release(sb);
	return s;
}

const char *E(struct page *p, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	html_escape(&sb, s ? s : "");
	return keep(p, &sb);
}

const char *N(struct page *p, double v)
{
	struct strbuf sb = STRBUF_INIT;
	fmt_num(&sb, v);
	return keep(p, &sb);
}

const char *P(struct page *p, double frac)
{
	struct strbuf sb = STRBUF_INIT;
	fmt_pct(&sb, frac);
	return keep(p, &sb);
}

const char *X(struct page *p, double v)
{
	struct strbuf sb = STRBUF_INIT;
	if (isnan(v))
		strbuf_addstr(&sb, "nan");
	else if (isinf(v))
		strbuf_addstr(&sb, v > 0 ? "inf" : "-inf");
	else
		strbuf_addf(&sb, "%.17g", v);
	return keep(p, &sb);
}

const char *change_class(bool higher_better, double before, double after)
{
	if (before == after || isnan(before) || isnan(after))
		return "";
	return (after < before) != higher_better ? "good" : "bad";
}
