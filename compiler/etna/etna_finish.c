/*
 * etna_finish: the program's layout, as Mesa's emit_cf_list leaves it:
 * each instruction's position, each block's first position (branch
 * targets are blocks, so they resolve to these), and one nop for a shader
 * that emits nothing (Mesa's "empty shader gets one nop",
 * ../../shared/reference/targets.md §4.3).  Meta instructions take no
 * position.
 */
#include "compiler/etna/etna.h"

bool etna_finish(struct etna_shader *s)
{
	unsigned ip = 0;
	struct etna_block *last = NULL;
	etna_foreach_block(b, s) {
		b->ip = ip;
		etna_foreach_instr(in, b)
			if (!(etna_op_infos[in->opc].flags & ETNA_META))
				in->ip = ip++;
		last = b;
	}
	if (!ip && last) {
		struct etna_instr *nop = etna_instr_create(last, ETNA_OP_nop);
		nop->ip = ip++;
	}
	s->num_instrs = ip;
	return true;
}
