#include <stdlib.h>
#include <string.h>

#include "compiler/util/strbuf.h"
#include "tap.h"

int main(void)
{
	struct strbuf sb = STRBUF_INIT;

	is_str(sb.buf, "", "a new strbuf is the empty string");
	is_int(sb.len, 0, "and has length 0");

	strbuf_addstr(&sb, "abc");
	strbuf_addch(&sb, 'd');
	strbuf_addf(&sb, "%d%s", 12, "ef");
	is_str(sb.buf, "abcd12ef", "addstr, addch, addf");
	is_int(sb.len, 8, "length follows");

	strbuf_reset(&sb);
	is_str(sb.buf, "", "reset empties");

	/* a formatted string longer than the initial guess */
	char big[5000];
	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	strbuf_addf(&sb, "<%s>", big);
	is_int(sb.len, 5001, "long addf");
	ok(sb.buf[0] == '<' && sb.buf[5000] == '>' && sb.buf[5001] == '\0', "long addf content");

	strbuf_reset(&sb);
	strbuf_add(&sb, "a\0b", 3);
	is_int(sb.len, 3, "add keeps embedded NUL bytes");
	ok(sb.buf[3] == '\0', "still NUL-terminated");

	strbuf_reset(&sb);
	strbuf_addstr(&sb, "line  \n\t");
	strbuf_rtrim(&sb);
	is_str(sb.buf, "line", "rtrim");

	strbuf_addchars(&sb, '-', 3);
	is_str(sb.buf, "line---", "addchars");

	size_t len;
	char *owned = strbuf_detach(&sb, &len);
	is_str(owned, "line---", "detach returns the content");
	is_int(len, 7, "detach returns the length");
	is_str(sb.buf, "", "detached strbuf is empty again");
	free(owned);

	owned = strbuf_detach(&sb, NULL);
	is_str(owned, "", "detach of an empty strbuf gives a malloc'ed empty string");
	free(owned);

	strbuf_release(&sb);
	return done_testing();
}
