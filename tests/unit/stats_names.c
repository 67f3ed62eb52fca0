/* Interned strings: ids are dense, stable, and found again. */
#include <stdio.h>
#include <string.h>

#include "stats/names.h"
#include "tap.h"

int main(void)
{
	struct names n = NAMES_INIT;
	is_int(names_find(&n, "a", 1), -1, "nothing in an empty table");
	is_int(names_intern(&n, "a/x.frag", 8), 0, "the first string is 0");
	is_int(names_intern(&n, "a/x.frag", 8), 0, "and again");
	is_int(names_intern(&n, "a/x.frag!!", 8), 0, "the length decides, not a NUL");
	is_int(names_intern(&n, "a/x.fra", 7), 1, "a prefix is another string");
	is_int(names_intern(&n, "", 0), 2, "the empty string is a string");
	is_int(names_intern(&n, "a/x.frag", 8), 0, "the first again, after others");
	is_str(n.list.data[1], "a/x.fra", "strings are NUL-terminated copies");
	is_int(names_find(&n, "", 0), 2, "find the empty string");

	char buf[64];
	int bad = 0;
	for (int i = 0; i < 200000; i++) {
		int len = snprintf(buf, sizeof(buf), "shaders/app_%d/%d.shader_test", i % 400, i);
		bad += names_intern(&n, buf, (size_t)len) != (uint32_t)(i + 3);
	}
	is_int(bad, 0, "200000 distinct strings get ids in order");
	bad = 0;
	for (int i = 0; i < 200000; i += 7) {
		int len = snprintf(buf, sizeof(buf), "shaders/app_%d/%d.shader_test", i % 400, i);
		bad += names_find(&n, buf, (size_t)len) != i + 3;
		bad += strcmp(n.list.data[i + 3], buf) != 0;
	}
	is_int(bad, 0, "and are found again, unchanged, after the table grew");
	is_int(names_find(&n, "shaders/app_0/200000.shader_test", 32), -1, "a string never added");
	names_release(&n);
	is_int(n.list.len, 0, "released");
	return done_testing();
}
