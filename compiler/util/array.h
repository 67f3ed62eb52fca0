/*
 * Growable arrays of any type, as macros over a small struct:
 *
 *	ARRAY(int) a = ARRAY_INIT;
 *	array_push(&a, 42);
 *	for (size_t i = 0; i < a.len; i++) use(a.data[i]);
 *	array_free(&a);
 *
 * Storage comes from malloc; `array_free` releases it.  Pointers into `data`
 * are invalidated by a push that grows the array.
 */
#ifndef SHDB_UTIL_ARRAY_H
#define SHDB_UTIL_ARRAY_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

#define ARRAY(T) struct { T *data; size_t len, cap; }
#define ARRAY_INIT { 0 }

/* Make room for `n` more elements. */
#define array_reserve(a, n) \
	array_grow_((void **)&(a)->data, &(a)->cap, (a)->len + (n), sizeof(*(a)->data))
#define array_push(a, ...) \
	(array_reserve((a), 1), (a)->data[(a)->len++] = (__VA_ARGS__))
/* Append a zeroed element and return a pointer to it. */
#define array_push_zero(a) \
	(array_reserve((a), 1), memset(&(a)->data[(a)->len], 0, sizeof(*(a)->data)), \
	 &(a)->data[(a)->len++])
#define array_pop(a) ((a)->data[--(a)->len])
#define array_last(a) ((a)->data[(a)->len - 1])
#define array_free(a) (free((a)->data), (a)->data = NULL, (a)->len = (a)->cap = 0)
/* qsort() the elements; an empty array's data is NULL, which qsort may not
 * be given even with no elements (undefined behaviour UBSan reports). */
#define array_sort(a, cmp)                                                     \
	do {                                                                   \
		if ((a)->len > 1)                                              \
			qsort((a)->data, (a)->len, sizeof(*(a)->data), cmp);   \
	} while (0)

static inline void array_grow_(void **data, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t n = *cap ? *cap * 2 : 8;
	while (n < need)
		n *= 2;
	*data = xrealloc(*data, n * elem);
	*cap = n;
}

#endif
