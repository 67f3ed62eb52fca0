/*
 * Dead code elimination: an instruction stays when it has effects beyond its
 * destinations (stores, flow, barriers, `end`, …: IR3_OP_SIDE in
 * ir3_ops.def), is a shader input, or defines a value something live reads
 * (including the mova a relative access depends on).  Everything else goes;
 * a texture fetch loses the destination components no split reads.
 */
#include "compiler/ir3/ir3.h"

#include <stdint.h>

#include "compiler/util/array.h"

static bool is_root(const struct ir3_instruction *i)
{
	return ir3_has_flag(i, IR3_OP_SIDE) || ir3_has_flag(i, IR3_OP_STORE) ||
	       ir3_has_flag(i, IR3_OP_ATOMIC) || i->opc == OPC_META_INPUT || i->ndst == 0;
}

/* A texture fetch read only through splits writes only the components the
 * live splits read.  `data` of a live tex: its used components, or ~0u
 * when something reads the whole vector. */
static bool shrink_tex(struct ir3 *ir)
{
	foreach_block(b, ir)
		foreach_instr(i, b)
			if (ir3_is_tex(i) && i->ndst)
				i->data = (void *)(uintptr_t)0;
	foreach_block(b, ir)
		foreach_instr(i, b) {
			if (!(i->flags & IR3_INSTR_MARK))
				continue;
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *d = i->srcs[n]->def;
				if (!d || !ir3_is_tex(d->instr) || d != d->instr->dsts[0])
					continue;
				uintptr_t used = (uintptr_t)d->instr->data;
				used |= i->opc == OPC_META_SPLIT ? 1u << i->off : ~0u;
				d->instr->data = (void *)used;
			}
		}
	bool progress = false;
	foreach_block(b, ir)
		foreach_instr(i, b) {
			if (!ir3_is_tex(i) || !i->ndst || !(i->flags & IR3_INSTR_MARK))
				continue;
			unsigned used = (unsigned)(uintptr_t)i->data & i->dsts[0]->wrmask;
			i->data = NULL;
			if (used && used != i->dsts[0]->wrmask) {
				i->dsts[0]->wrmask = used;
				progress = true;
			}
		}
	return progress;
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

	bool progress = shrink_tex(ir);
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
