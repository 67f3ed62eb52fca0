/*
 * The pattern table of opt_algebraic: rules `search => replace` over
 * expression trees of ALU opcodes, written as C initializers
 * (algebraic_rules.c) and matched by opt_algebraic.c.  The table is
 * read-only data: no generator, no state.
 *
 * A pattern node is
 *	PN_OP	an ALU opcode (per-component opcodes only) with its sources;
 *		in a search, `once` asks that its value have a single use
 *		(so the rewrite does not duplicate work)
 *	PN_VAR	a variable, 0 … ALGEBRAIC_MAX_VARS-1: in a search it matches
 *		any value (a value and the swizzle reading it), the same one
 *		wherever it appears, if it meets `cond` and `bits`; in a
 *		replacement it stands for what it matched
 *	PN_FLOAT, PN_INT  a literal constant: in a search every component
 *		read must have exactly these bits at the value's bit size
 *		(so 0.0 and -0.0 differ; -1 is "all ones", true for a 1-bit
 *		value); in a replacement a constant of the bit size its place
 *		needs (the opcode's sized type, or its other sources' size)
 *
 * Replacements are built with the root's component count and exact flag;
 * an opcode of constants in a replacement (fneg(b) of a constant b) is
 * folded on the spot.
 *
 * Exactness.  A rule is exact when, for every input, it gives the bits the
 * folder would (alu_ops.def) — NaNs aside: any NaN equals any NaN, since
 * IEEE 754 leaves payloads open and the folder makes its NaNs canonical.
 * Every other rule is marked `inexact` (it may change a result for NaN,
 * ±inf or −0.0 inputs, or round differently, as NIR's `~` rules): it is
 * tried only when no matched instruction is `exact` and the shader's
 * float controls do not ask to preserve signed zeros, infs and NaNs at
 * that bit size.
 */
#ifndef SHDB_OPT_ALGEBRAIC_H
#define SHDB_OPT_ALGEBRAIC_H

#include "compiler/ir/ir.h"

#define ALGEBRAIC_MAX_VARS 4

enum pnode_kind { PN_VAR, PN_OP, PN_FLOAT, PN_INT };

/* Conditions on a search variable. */
enum var_cond {
	VC_ANY,
	VC_CONST,		/* a load_const (NIR's #a) */
	VC_NOT_CONST,		/* anything but a load_const */
	VC_POW2,		/* constant, each component a power of two as unsigned */
	VC_POS_POW2,		/* constant, each a power of two and positive as signed */
	VC_NEG_POW2,		/* constant, each negative with a power-of-two magnitude */
	VC_FPOW2_RCP,		/* float constant ±2^k whose reciprocal is a normal float */
	VC_NOT_NAN,		/* float constant, no component NaN */
	VC_COUNT
};

/* Conditions on a whole match. */
enum rule_cond {
	RC_NONE,
	RC_SHIFTS_FIT,		/* constants b, c: each below a's bit size, and b + c too */
	RC_COUNT
};

struct pnode {
	uint8_t kind;			/* enum pnode_kind */
	uint8_t var;			/* PN_VAR */
	uint8_t cond;			/* PN_VAR: enum var_cond */
	uint8_t bits;			/* PN_VAR: the bit size it must have, 0 = any */
	uint8_t once;			/* PN_OP in a search */
	uint16_t op;			/* PN_OP: enum alu_op */
	double f;			/* PN_FLOAT */
	int64_t i;			/* PN_INT */
	const struct pnode *src[4];	/* PN_OP */
};

struct algebraic_rule {
	const struct pnode *search, *replace;
	bool inexact;
	bool reassoc;			/* regroups a chain of two operations: an
					 * inexact rule whose error is bounded by
					 * the operands' magnitudes (cancellation,
					 * an intermediate's underflow), not the
					 * result's */
	bool bitops;			/* makes bit ops of arithmetic: only when
					 * s->info.algebraic_bitops (NIR's
					 * '!options->lower_bitops') */
	uint8_t bits;			/* IR_BITS_ mask of the root's unsized bit size, 0 = any */
	uint8_t cond;			/* enum rule_cond */
	unsigned line;			/* in algebraic_rules.c */
};

extern const struct algebraic_rule algebraic_rules[];
extern const unsigned num_algebraic_rules;

/*
 * Try one rule on an instruction: when it matches, build the replacement
 * before `alu`, move its uses there, remove `alu`, set *applied and return
 * where a walk should resume: the first instruction built, or the one that
 * followed `alu` (NULL at the end of the block).  The pass tries every rule
 * of the instruction's opcode in table order; tests call this for one rule
 * at a time.
 */
struct instr *algebraic_apply(struct alu_instr *alu, const struct algebraic_rule *rule,
			      bool *applied);

#endif
