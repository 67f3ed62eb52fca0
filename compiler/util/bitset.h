/*
 * Fixed-size bitsets over dense indices (liveness, dataflow, visited sets).
 * The caller owns the words; sizes are in bits.  All inline.
 */
#ifndef SHDB_UTIL_BITSET_H
#define SHDB_UTIL_BITSET_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t bitset_word;
#define BITSET_WORD_BITS 64
#define BITSET_WORDS(n) (((size_t)(n) + BITSET_WORD_BITS - 1) / BITSET_WORD_BITS)

static inline void bitset_set(bitset_word *s, size_t i)
{
	s[i / BITSET_WORD_BITS] |= (bitset_word)1 << (i % BITSET_WORD_BITS);
}

static inline void bitset_clear(bitset_word *s, size_t i)
{
	s[i / BITSET_WORD_BITS] &= ~((bitset_word)1 << (i % BITSET_WORD_BITS));
}

static inline bool bitset_test(const bitset_word *s, size_t i)
{
	return (s[i / BITSET_WORD_BITS] >> (i % BITSET_WORD_BITS)) & 1;
}

static inline void bitset_zero(bitset_word *s, size_t nbits)
{
	memset(s, 0, BITSET_WORDS(nbits) * sizeof(bitset_word));
}

static inline void bitset_copy(bitset_word *dst, const bitset_word *src, size_t nbits)
{
	memcpy(dst, src, BITSET_WORDS(nbits) * sizeof(bitset_word));
}

/* dst |= src; returns whether dst changed (the dataflow fixed-point test). */
static inline bool bitset_union(bitset_word *dst, const bitset_word *src, size_t nbits)
{
	bool changed = false;
	for (size_t w = 0; w < BITSET_WORDS(nbits); w++) {
		bitset_word n = dst[w] | src[w];
		changed |= n != dst[w];
		dst[w] = n;
	}
	return changed;
}

/* dst &= ~src */
static inline void bitset_subtract(bitset_word *dst, const bitset_word *src, size_t nbits)
{
	for (size_t w = 0; w < BITSET_WORDS(nbits); w++)
		dst[w] &= ~src[w];
}

static inline bool bitset_equal(const bitset_word *a, const bitset_word *b, size_t nbits)
{
	return !memcmp(a, b, BITSET_WORDS(nbits) * sizeof(bitset_word));
}

static inline size_t bitset_count(const bitset_word *s, size_t nbits)
{
	size_t n = 0;
	for (size_t w = 0; w < BITSET_WORDS(nbits); w++)
		n += (size_t)__builtin_popcountll(s[w]);
	return n;
}

/* The first set bit at or after `i`, or `nbits` when there is none. */
static inline size_t bitset_next(const bitset_word *s, size_t nbits, size_t i)
{
	while (i < nbits) {
		bitset_word w = s[i / BITSET_WORD_BITS] >> (i % BITSET_WORD_BITS);
		if (w) {
			i += (size_t)__builtin_ctzll(w);
			return i < nbits ? i : nbits;
		}
		i = (i / BITSET_WORD_BITS + 1) * BITSET_WORD_BITS;
	}
	return nbits;
}

#define BITSET_FOREACH(i, s, nbits) \
	for (size_t i = bitset_next((s), (nbits), 0); i < (nbits); i = bitset_next((s), (nbits), i + 1))

#endif
