/*
 * Dead code elimination: an instruction stays when it has effects beyond its
 * destinations (stores, flow, barriers, `end`, …: IR3_OP_SIDE in
 * ir3_ops.def), is a shader input, or defines a value something live reads
 * (including the mova a relative access depends on).  Everything else goes.
 */
#include "compiler/ir3/ir3.h"

#include "compiler/util/array.h"

static bool is_root(const struct ir3_instruction *i)
{
	return ir3_has_flag(i, IR3_OP_SIDE) || ir3_has_flag(i, IR3_OP_STORE) ||
	       ir3_has_flag(i, IR3_OP_ATOMIC) || i->opc == OPC_META_INPUT || i->ndst == 0;
}

bool ir3_opt_dce(struct ir3 *ir)
{
	ARRAY(struct ir3_instruction *) work = ARRAY_INIT;
	foreach_block(b, ir) {
		foreach_instr(i, b) {
			i->flags &= ~IR3_INSTR_MARK;
			if (is_root(i)) {
				i->flags |= IR3_INSTR_MARK;
				array_push(&work, i);
			}
		}
	}
	while (work.len) {
		struct ir3_instruction *i = array_pop(&work);
		for (unsigned n = 0; n <= i->nsrc; n++) {
			struct ir3_instruction *d;
			if (n == i->nsrc)
				d = i->address;
			else
				d = i->srcs[n]->def ? i->srcs[n]->def->instr : NULL;
			if (d && !(d->flags & IR3_INSTR_MARK)) {
				d->flags |= IR3_INSTR_MARK;
				array_push(&work, d);
			}
		}
	}
	array_free(&work);

	bool progress = false;
	foreach_block(b, ir) {
		foreach_instr_safe(i, b) {
			if (i->flags & IR3_INSTR_MARK) {
				i->flags &= ~IR3_INSTR_MARK;
				continue;
			}
			ir3_instr_remove(i);
			progress = true;
		}
	}
	return progress;
}
