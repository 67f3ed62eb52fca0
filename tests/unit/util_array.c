#include "compiler/util/array.h"
#include "tap.h"

struct pair { int a, b; };

int main(void)
{
	ARRAY(int) a = ARRAY_INIT;
	for (int i = 0; i < 1000; i++)
		array_push(&a, i * i);
	is_int(a.len, 1000, "1000 pushes");
	ok(a.cap >= 1000, "capacity grew");
	int good = 1;
	for (int i = 0; i < 1000; i++)
		good &= a.data[i] == i * i;
	ok(good, "values kept in order");
	is_int(array_last(&a), 999 * 999, "last");
	is_int(array_pop(&a), 999 * 999, "pop returns the last");
	is_int(a.len, 999, "pop shrinks");
	array_free(&a);
	is_int(a.len, 0, "free resets");
	ok(a.data == NULL, "free releases storage");

	ARRAY(struct pair) p = ARRAY_INIT;
	struct pair *e = array_push_zero(&p);
	ok(e->a == 0 && e->b == 0, "push_zero gives a zeroed element");
	e->b = 7;
	array_push(&p, (struct pair){ 1, 2 });
	is_int(p.data[0].b, 7, "element written through the pointer");
	is_int(p.data[1].a, 1, "struct push");
	array_reserve(&p, 100);
	ok(p.cap >= 102, "reserve");
	array_free(&p);
	return done_testing();
}
