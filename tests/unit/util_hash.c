#include <stdio.h>
#include <string.h>

#include "compiler/util/hash.h"
#include "tap.h"

int main(void)
{
	struct strmap m = STRMAP_INIT;
	char key[32];
	bool inserted;

	ok(strmap_get(&m, "x", 1) == NULL, "empty map has nothing");
	for (int i = 0; i < 5000; i++) {
		snprintf(key, sizeof(key), "key%d", i);
		strmap_put(&m, key, strlen(key), &inserted)->value = (void *)(intptr_t)(i + 1);
	}
	is_int(m.len, 5000, "5000 keys");
	int found = 1;
	for (int i = 0; i < 5000; i++) {
		snprintf(key, sizeof(key), "key%d", i);
		found &= strmap_get(&m, key, strlen(key)) == (void *)(intptr_t)(i + 1);
	}
	ok(found, "every key maps to its value after growth");
	ok(strmap_get(&m, "key5000", 7) == NULL, "a missing key");
	strmap_put(&m, "key7", 4, &inserted);
	ok(!inserted, "putting an existing key does not insert");
	is_int(m.len, 5000, "nor change the count");

	/* keys with NUL bytes and prefixes are distinct */
	strmap_put(&m, "a\0b", 3, &inserted)->value = (void *)1;
	strmap_put(&m, "a", 1, &inserted)->value = (void *)2;
	ok(strmap_get(&m, "a\0b", 3) == (void *)1 && strmap_get(&m, "a", 1) == (void *)2,
	   "binary keys");

	size_t it = 0, n = 0;
	while (strmap_next(&m, &it))
		n++;
	is_int(n, 5002, "iteration visits every entry");
	strmap_release(&m);

	struct u64map u = U64MAP_INIT;
	uint64_t v;
	ok(!u64map_get(&u, 0, &v), "empty u64map");
	for (uint64_t k = 0; k < 10000; k++)
		u64map_set(&u, k * 0x9e3779b97f4a7c15ull, k);
	is_int(u.len, 10000, "10000 u64 keys");
	int all = 1;
	for (uint64_t k = 0; k < 10000; k++)
		all &= u64map_get(&u, k * 0x9e3779b97f4a7c15ull, &v) && v == k;
	ok(all, "every u64 key found");
	u64map_set(&u, 0, 99);
	ok(u64map_get(&u, 0, &v) && v == 99 && u.len == 10000, "overwrite");
	uint64_t key2, sum = 0;
	it = 0;
	while (u64map_next(&u, &it, &key2, &v))
		sum += v;
	is_int(sum, 9999ull * 10000 / 2 + 99, "iteration sums the values");
	u64map_release(&u);

	ok(hash_bytes("abc", 3) != hash_bytes("abd", 3), "hash distinguishes");
	is_int(hash_bytes("abc", 3), hash_bytes("abc", 3), "hash is deterministic");
	return done_testing();
}
