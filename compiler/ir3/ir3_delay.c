/*
 * The scheduler's latency estimates (Mesa's ir3_delay.c and ir3.h, targets.md
 * §1.6 "Scheduler estimate" and §1.9 soft delays).  Legalisation keeps its own
 * cycle-exact model; the timing verifier a third, independent one.
 */
#include "compiler/ir3/ir3_passes.h"

unsigned ir3_src_read_delay(const struct ir3_info *t, const struct ir3_instruction *i, unsigned n)
{
	/* gat/swz read their scalar sources one per cycle */
	if (i->opc == OPC_GAT || i->opc == OPC_SWZ)
		return n;
	/* mad/madsh read src2 late */
	if (ir3_has_flag(i, IR3_OP_MAD) && n == 2)
		return t->delay.cat3_src2_read;
	return 0;
}

unsigned ir3_soft_ss_delay(const struct ir3_instruction *i)
{
	/* SFU and local loads: ~10 cycles (8–10 measured); shared-reg producers: 6 */
	if (ir3_is_sfu(i) || ir3_is_local_load(i))
		return 10;
	return 6;
}

unsigned ir3_soft_sy_delay(const struct ir3_instruction *i, enum shader_stage stage)
{
	bool dbl = stage == STAGE_FRAGMENT || stage == STAGE_COMPUTE;
	unsigned c = i->ndst ? ir3_reg_elems(i->dsts[0]) : 1;
	if (i->opc == OPC_LDC)
		return dbl ? (21 + 8 * c) / 2 : 18 + 4 * c;
	if (ir3_is_tex(i)) {
		static const unsigned fs[4] = { 58 / 2, 60 / 2, 77 / 2, 79 / 2 };
		static const unsigned other[4] = { 51, 53, 62, 64 };
		unsigned k = c < 1 ? 0 : c > 4 ? 3 : c - 1;
		return dbl ? fs[k] : other[k];
	}
	return dbl ? (172 + c) / 2 : 109 + c;
}

/* The (ss) a consumer of `assigner` needs (Mesa's needs_ss, without the
 * scalar-ALU cases: no scalar ALU is modelled). */
static bool needs_ss(const struct ir3_instruction *assigner)
{
	return ir3_is_ss_producer(assigner);
}

unsigned ir3_delayslots(const struct ir3_info *t, const struct ir3_instruction *assigner,
			const struct ir3_instruction *consumer, unsigned n, bool soft)
{
	if (ir3_is_meta(assigner) || ir3_is_meta(consumer))
		return 0;
	if (ir3_writes_addr(assigner))
		return assigner->opc == OPC_MOVA || assigner->opc == OPC_MOVA1 ? t->delay.non_alu : 0;
	if (soft && needs_ss(assigner))
		return ir3_soft_ss_delay(assigner);
	if (needs_ss(assigner) || ir3_is_sy_producer(assigner))
		return 0;
	if (consumer->opc == OPC_END || consumer->opc == OPC_CHMASK)
		return 0;
	if (ir3_is_flow(consumer) || ir3_is_sfu(consumer) || ir3_is_tex(consumer) ||
	    ir3_is_mem(consumer))
		return t->delay.non_alu;
	if (ir3_writes_pred(assigner))
		return t->delay.non_alu;
	bool mismatch = n < consumer->nsrc && assigner->ndst &&
			(assigner->dsts[0]->flags & IR3_REG_HALF) !=
				(consumer->srcs[n]->flags & IR3_REG_HALF);
	unsigned d = t->delay.alu_to_alu + (mismatch ? t->delay.half_full_penalty : 0);
	unsigned rd = ir3_src_read_delay(t, consumer, n);
	return d > rd ? d - rd : 0;
}
