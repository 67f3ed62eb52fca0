#include "compiler/util/bitset.h"
#include "tap.h"

int main(void)
{
	enum { N = 200 };
	bitset_word a[BITSET_WORDS(N)], b[BITSET_WORDS(N)];

	is_int(BITSET_WORDS(64), 1, "64 bits in one word");
	is_int(BITSET_WORDS(65), 2, "65 bits in two words");

	bitset_zero(a, N);
	is_int(bitset_count(a, N), 0, "zeroed");
	bitset_set(a, 0);
	bitset_set(a, 63);
	bitset_set(a, 64);
	bitset_set(a, 199);
	ok(bitset_test(a, 63) && bitset_test(a, 64) && !bitset_test(a, 65), "set and test");
	is_int(bitset_count(a, N), 4, "count");

	size_t seen[8], n = 0;
	BITSET_FOREACH(i, a, N)
		seen[n++] = i;
	ok(n == 4 && seen[0] == 0 && seen[1] == 63 && seen[2] == 64 && seen[3] == 199,
	   "foreach visits set bits in order");

	bitset_clear(a, 63);
	ok(!bitset_test(a, 63), "clear");

	bitset_zero(b, N);
	bitset_set(b, 100);
	ok(bitset_union(a, b, N), "union reports a change");
	ok(!bitset_union(a, b, N), "a second union reports none");
	ok(bitset_test(a, 100), "union result");
	bitset_subtract(a, b, N);
	ok(!bitset_test(a, 100) && bitset_test(a, 199), "subtract");

	bitset_copy(b, a, N);
	ok(bitset_equal(a, b, N), "copy and equal");
	is_int(bitset_next(a, N, 65), 199, "next skips empty words");
	is_int(bitset_next(a, N, 200), N, "next past the end");
	return done_testing();
}
