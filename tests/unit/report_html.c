/*
 * shdb report's escaping: markup characters as references, bytes that are not
 * UTF-8 (overlong forms, surrogates, truncated sequences) and control
 * characters as U+FFFD, everything else kept.
 */
#include "reports/html.h"
#include "tap.h"

static const char *esc(const char *s)
{
	static struct strbuf sb = STRBUF_INIT;
	strbuf_reset(&sb);
	html_escape(&sb, s);
	return sb.buf;
}

int main(void)
{
	is_str(esc("a<script>alert(\"x\")</script>"),
	       "a&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;", "tags and double quotes");
	is_str(esc("it's & <b>"), "it&#39;s &amp; &lt;b&gt;", "single quotes and ampersands");
	is_str(esc("&amp;"), "&amp;amp;", "an entity stays text");
	is_str(esc("tab\there\nnew line"), "tab\there\nnew line", "tab and newline kept");
	is_str(esc("bell\a, esc\033, del\177"), "bell\xef\xbf\xbd, esc\xef\xbf\xbd, del\xef\xbf\xbd",
	       "control characters replaced");
	is_str(esc("caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80",
	       "UTF-8 of 2, 3 and 4 bytes kept");
	is_str(esc("x\xffy"), "x\xef\xbf\xbdy", "a byte that starts nothing");
	is_str(esc("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd", "an overlong '/'");
	is_str(esc("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "a surrogate");
	is_str(esc("\xf4\x90\x80\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
	       "past U+10FFFF");
	is_str(esc("ab\xe2\x86"), "ab\xef\xbf\xbd\xef\xbf\xbd", "a sequence cut by the end");
	is_str(esc("\xe2<b"), "\xef\xbf\xbd&lt;b", "a sequence cut by markup");
	return done_testing();
}
