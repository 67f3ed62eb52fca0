#include <stdint.h>
#include <string.h>

#include "compiler/util/arena.h"
#include "tap.h"

int main(void)
{
	struct arena a = ARENA_INIT;

	char *p = arena_alloc(&a, 1);
	ok(p != NULL, "first allocation");
	ok((uintptr_t)arena_alloc(&a, 3) % _Alignof(max_align_t) == 0, "allocations are aligned");

	int *z = arena_zalloc(&a, 100 * sizeof(int));
	int zero = 1;
	for (int i = 0; i < 100; i++)
		zero &= z[i] == 0;
	ok(zero, "zalloc zeroes");

	/* many allocations spanning chunks stay distinct and intact */
	int *ptrs[2000];
	for (int i = 0; i < 2000; i++) {
		ptrs[i] = arena_alloc(&a, sizeof(int) * (1 + i % 7));
		ptrs[i][0] = i;
	}
	int intact = 1;
	for (int i = 0; i < 2000; i++)
		intact &= ptrs[i][0] == i;
	ok(intact, "2000 allocations across chunks keep their values");

	char *big = arena_alloc(&a, 1 << 20);
	memset(big, 'x', 1 << 20);
	ok(big[(1 << 20) - 1] == 'x', "an allocation larger than a chunk");

	is_str(arena_strdup(&a, "hello"), "hello", "strdup");
	is_str(arena_strndup(&a, "hello", 3), "hel", "strndup");
	is_str(arena_printf(&a, "%s-%d", "n", 42), "n-42", "printf");

	/* realloc of the last allocation grows in place, otherwise copies */
	char *r = arena_alloc(&a, 8);
	memcpy(r, "1234567", 8);
	char *r2 = arena_realloc(&a, r, 8, 64);
	ok(r2 == r, "realloc of the last allocation grows in place");
	arena_alloc(&a, 1);
	char *r3 = arena_realloc(&a, r2, 64, 128);
	ok(r3 != r2 && !strcmp(r3, "1234567"), "realloc elsewhere copies the content");
	ok(arena_realloc(&a, r3, 128, 16) == r3, "shrinking keeps the block");

	ok(a.total >= (1 << 20), "total counts the system memory");
	arena_release(&a);
	is_int(a.total, 0, "release frees everything");
	ok(arena_alloc(&a, 16) != NULL, "usable again after release");
	arena_release(&a);
	return done_testing();
}
