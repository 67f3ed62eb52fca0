/*
 * etna_validate: whether the machine IR is well formed, checked after every
 * pass on it in test builds (the pipeline's validate op, etna_compile.c):
 * blocks belong to the shader and their edges agree, every instruction has
 * a known opcode, reads only the source slots its opcode has
 * (etna_ops.def), and — before assignment — names values that exist.
 * What the code computes is the verifiers' business (etna_verify_regs.c).
 */
#include "compiler/etna/etna.h"

static bool has_pred(const struct etna_block *b, const struct etna_block *p)
{
	for (size_t i = 0; i < b->preds.len; i++)
		if (b->preds.data[i] == p)
			return true;
	return false;
}

static bool check_value(const struct etna_shader *s, bool fixed, unsigned value)
{
	return s->assigned || fixed || value < s->values.len;
}

static bool check_instr(const struct etna_shader *s, const struct etna_instr *in,
			struct strbuf *err)
{
	if (in->opc >= ETNA_OP_COUNT) {
		strbuf_addf(err, "b%u: an instruction of opcode %u", in->block->index, in->opc);
		return false;
	}
	const char *name = etna_op_infos[in->opc].name;
	if (in->dst.file == ETNA_FILE_TEMP && !check_value(s, in->dst.fixed, in->dst.value)) {
		strbuf_addf(err, "b%u: %s writes %%%u, which does not exist", in->block->index, name,
			    in->dst.value);
		return false;
	}
	for (unsigned k = 0; k < 3; k++) {
		const struct etna_src *src = &in->src[k];
		if (src->file == ETNA_FILE_NONE)
			continue;
		if (!(etna_op_infos[in->opc].srcs & (1u << k))) {
			strbuf_addf(err, "b%u: %s has no src%u", in->block->index, name, k);
			return false;
		}
		if (src->file == ETNA_FILE_TEMP && !check_value(s, src->fixed, src->value)) {
			strbuf_addf(err, "b%u: %s reads %%%u, which does not exist", in->block->index,
				    name, src->value);
			return false;
		}
	}
	if (in->target && in->target->shader != s) {
		strbuf_addf(err, "b%u: %s branches out of the shader", in->block->index, name);
		return false;
	}
	return true;
}

bool etna_validate(const struct etna_shader *s, struct strbuf *err)
{
	etna_foreach_block(b, s) {
		if (b->shader != s) {
			strbuf_addf(err, "b%u belongs to another shader", b->index);
			return false;
		}
		for (unsigned k = 0; k < 2; k++)
			if (b->succ[k] && !has_pred(b->succ[k], b)) {
				strbuf_addf(err, "b%u -> b%u: not among its predecessors", b->index,
					    b->succ[k]->index);
				return false;
			}
		etna_foreach_instr(in, b) {
			if (in->block != b) {
				strbuf_addf(err, "b%u holds an instruction of another block", b->index);
				return false;
			}
			if (!check_instr(s, in, err))
				return false;
		}
	}
	return true;
}
