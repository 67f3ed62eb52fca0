/*
 * A tiny evaluator of straight-line shaders for the pass tests, and
 * random values with the special cases mixed in (header-only: each test
 * is its own program).  It runs one block: load_const, undef (as 0),
 * load_input (base, direct), ALU through the opcode table's folder
 * (alu_instr_eval) and store_output; anything else makes it fail.  The
 * interpreter proper (and its equivalence harness) covers whole shaders;
 * this is enough to check that a rewrite of arithmetic keeps its values.
 */
#ifndef SHDB_TESTS_OPT_EVAL_H
#define SHDB_TESTS_OPT_EVAL_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/builder.h"

#define EVAL_MAX_IO 8

struct eval_io {
	uint64_t v[EVAL_MAX_IO][16];
};

__attribute__((unused))
static bool eval_straight(struct shader *s, const struct eval_io *in, struct eval_io *out)
{
	struct function *fn = s->fn;
	uint64_t (*val)[16] = calloc(fn->ssa_alloc ? fn->ssa_alloc : 1, sizeof(*val));
	bool ok_ = true;
	memset(out, 0, sizeof(*out));
	foreach_block(b, fn) {
		foreach_instr(i, b) {
			switch (i->type) {
			case INSTR_load_const: {
				struct load_const_instr *lc = instr_as_load_const(i);
				memcpy(val[lc->def.index], lc->value, lc->def.num_components * sizeof(uint64_t));
				break;
			}
			case INSTR_undef:
				break;
			case INSTR_alu: {
				struct alu_instr *alu = instr_as_alu(i);
				const uint64_t *srcs[ALU_MAX_INPUTS];
				for (unsigned k = 0; k < alu_op_infos[alu->op].num_inputs; k++)
					srcs[k] = val[alu->src[k].src.ssa->index];
				alu_instr_eval(alu, srcs, val[alu->def.index]);
				break;
			}
			case INSTR_intrinsic: {
				struct intrinsic_instr *intr = instr_as_intrinsic(i);
				int base = intrinsic_has(intr->op, INTR_IDX_base) ? intrinsic_get(intr, INTR_IDX_base) : 0;
				if (base < 0 || base >= EVAL_MAX_IO) {
					ok_ = false;
				} else if (intr->op == INTR_load_input) {
					memcpy(val[intr->def.index], in->v[base], sizeof(in->v[base]));
				} else if (intr->op == INTR_store_output) {
					const uint64_t *v = val[intr->src[0].ssa->index];
					unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
					for (unsigned c = 0; c < 16; c++)
						if (mask & (1u << c))
							out->v[base][c] = v[c];
				} else {
					ok_ = false;
				}
				break;
			}
			default:
				ok_ = false;
				break;
			}
		}
	}
	free(val);
	return ok_;
}

/* ---- random values (xorshift; deterministic per seed) ---- */

static uint64_t rnd_state_ = 0x9e3779b97f4a7c15ull;

static uint64_t rnd64(void)
{
	uint64_t x = rnd_state_;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rnd_state_ = x;
}

/* SHDB_TEST_SEED=N picks another sequence (the default is fixed). */
__attribute__((unused))
static void rnd_seed_from_env(void)
{
	const char *seed = getenv("SHDB_TEST_SEED");
	if (seed && strtoull(seed, NULL, 0))
		rnd_state_ = strtoull(seed, NULL, 0) * 0x2545f4914f6cdd1dull | 1;
}

static unsigned rnd_below(unsigned n)
{
	return (unsigned)(rnd64() % n);
}

static uint64_t mask_to(uint64_t v, unsigned bits)
{
	return bits >= 64 ? v : v & (((uint64_t)1 << bits) - 1);
}

/* A float of `bits` bits: specials (±0, ±1, ±inf, NaN, denormals, huge,
 * halves) a third of the time, else a value in [-8, 8) or random bits. */
__attribute__((unused))
static uint64_t rnd_float(unsigned bits)
{
	static const double special[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.5, 3.0, INFINITY,
					  -INFINITY, NAN, 1e-40, -1e-300, 65504.0, 1e30, -1e300,
					  0.25, 1.5, 7.0, -0.75 };
	unsigned r = rnd_below(12);
	if (r < 4)
		return ir_float_to_bits(special[rnd_below(sizeof(special) / sizeof(*special))], bits);
	if (r < 10)
		return ir_float_to_bits((double)(int64_t)rnd_below(1 << 16) / 4096.0 - 8.0, bits);
	uint64_t v = mask_to(rnd64(), bits);
	/* a quiet NaN, not a signalling one the host might quieten */
	double d = ir_float_from_bits(v, bits);
	return d != d ? ir_float_to_bits(NAN, bits) : v;
}

/* An integer of `bits` bits: 0, ±1, 2, the extremes, small, or random. */
__attribute__((unused))
static uint64_t rnd_int(unsigned bits)
{
	unsigned r = rnd_below(10);
	uint64_t min = bits >= 64 ? (uint64_t)1 << 63 : (uint64_t)1 << (bits - 1);
	switch (r) {
	case 0: return 0;
	case 1: return 1;
	case 2: return mask_to(UINT64_MAX, bits);
	case 3: return mask_to(min, bits);
	case 4: return mask_to(min - 1, bits);
	case 5: return 2;
	case 6: case 7: return mask_to((uint64_t)rnd_below(64) - 32, bits);
	default: return mask_to(rnd64(), bits);
	}
}

/* Whether two raw values are the same: bits, or both NaN for floats. */
__attribute__((unused))
static bool same_value(uint64_t x, uint64_t y, unsigned bits, bool is_float)
{
	if (x == y)
		return true;
	if (!is_float || bits < 16)
		return false;
	double a = ir_float_from_bits(x, bits), b = ir_float_from_bits(y, bits);
	return a != a && b != b;
}

/* Close enough for an inexact rewrite: equal (±0 alike), or both finite
 * and within a relative 2e-2 (f16) or 1e-3. */
__attribute__((unused))
static bool close_value(uint64_t x, uint64_t y, unsigned bits)
{
	double a = ir_float_from_bits(x, bits), b = ir_float_from_bits(y, bits);
	if (a == b || (a != a && b != b))
		return true;
	if (!isfinite(a) || !isfinite(b))
		return false;
	return fabs(a - b) <= (bits == 16 ? 2e-2 : 1e-3) * fmax(fabs(a), fabs(b)) + 1e-30;
}

#endif
