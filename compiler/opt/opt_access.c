/*
 * opt_access: what a load may assume of the memory it reads (Mesa's
 * nir_opt_access, Vulkan rules).  A storage buffer or image load reads
 * read-only memory when its access says so, when its binding is declared
 * NonWritable, or when the shader writes no memory of that kind at all
 * (no buffer store or atomic: buffers; no image store or atomic: images;
 * neither: global memory), or — a restrict buffer (SPIR-V's storage
 * buffers unless decorated Aliased) — when nothing in the shader writes
 * that declaration (a store at a slot it cannot place writes them all).
 * Such a load is marked non_writeable, and
 * can_reorder unless it is volatile or coherent in a shader with a barrier
 * on that memory — then two loads of the same address give the same value
 * wherever they run, so CSE may merge them and code motion move them
 * (instr_is_reorderable), and a backend may read through a cache that
 * writes do not keep coherent (ir3's isam for buffers).
 *
 *	@load_ssbo %c0, %o access=non_writeable  →  access=non_writeable|can_reorder
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"

#include <stdlib.h>

enum { BUFFERS, IMAGES, GLOBAL, NUM_KINDS };

struct usage {
	bool written[NUM_KINDS];
	bool barrier[NUM_KINDS];	/* a barrier makes that memory visible */
	bool *ssbo_written;		/* per storage buffer declaration */
};

/* The storage buffer declaration a slot source names: a constant slot, or
 * a dynamic index into an array of buffers (slot + index); -1 when it
 * cannot be told. */
static int ssbo_decl_of(struct shader *s, struct src *slot)
{
	struct ssa_def *d = slot->ssa;
	uint32_t base;
	struct load_const_instr *c = ssa_def_as_const(d);
	if (c) {
		base = (uint32_t)c->value[0];
	} else if (d->parent->type == INSTR_alu && instr_as_alu(d->parent)->op == OP_iadd) {
		struct alu_instr *add = instr_as_alu(d->parent);
		unsigned n = ssa_def_as_const(add->src[1].src.ssa) ? 1 : 0;
		struct load_const_instr *k = ssa_def_as_const(add->src[n].src.ssa);
		if (!k)
			return -1;
		base = (uint32_t)k->value[add->src[n].swizzle[0]];
	} else {
		return -1;
	}
	for (unsigned i = 0; i < s->num_ssbos; i++)
		if (base >= s->ssbos[i]->slot && base < s->ssbos[i]->slot + decl_num_slots(s->ssbos[i]->array_size))
			return (int)i;
	return -1;
}

static void ssbo_write(struct shader *s, struct usage *u, struct src *slot)
{
	int d = ssbo_decl_of(s, slot);
	for (unsigned i = 0; i < s->num_ssbos; i++)
		u->ssbo_written[i] |= d < 0 || (unsigned)d == i;
}

static void scan(struct shader *s, struct usage *u)
{
	foreach_block(b, s->fn)
		foreach_instr(i, b) {
			if (i->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(i);
			switch (intr->op) {
			case INTR_store_ssbo:
				u->written[BUFFERS] = true;
				ssbo_write(s, u, &intr->src[1]);
				break;
			case INTR_ssbo_atomic: case INTR_ssbo_atomic_swap:
				u->written[BUFFERS] = true;
				ssbo_write(s, u, &intr->src[0]);
				break;
			case INTR_image_store: case INTR_image_atomic: case INTR_image_atomic_swap:
				u->written[IMAGES] = true;
				break;
			case INTR_store_global: case INTR_global_atomic: case INTR_global_atomic_swap:
				u->written[GLOBAL] = true;
				break;
			case INTR_barrier: {
				unsigned modes = (unsigned)intrinsic_get(intr, INTR_IDX_memory_modes);
				u->barrier[BUFFERS] |= (modes & MODE_SSBO) != 0;
				u->barrier[IMAGES] |= (modes & MODE_IMAGE) != 0;
				u->barrier[GLOBAL] |= (modes & (MODE_GLOBAL | MODE_SSBO)) != 0;
				break;
			}
			default:
				break;
			}
		}
}

/* The access its declaration gives a load at a constant slot. */
static unsigned decl_access(struct shader *s, struct intrinsic_instr *intr, int kind)
{
	struct load_const_instr *c = ssa_def_as_const(intr->src[0].ssa);
	if (!c)
		return 0;
	unsigned slot = (unsigned)c->value[0];
	if (kind == BUFFERS) {
		struct buffer_decl *d = shader_find_buffer(s->ssbos, s->num_ssbos, slot);
		return d ? d->access : 0;
	}
	struct resource_decl *d = shader_find_resource(s->images, s->num_images, slot);
	return d ? d->access : 0;
}

bool opt_access(struct shader *s)
{
	struct usage u = { 0 };
	bool none = false;
	u.ssbo_written = s->num_ssbos ? calloc(s->num_ssbos, sizeof(bool)) : &none;
	if (!u.ssbo_written)
		return false;
	scan(s, &u);
	bool progress = false;
	foreach_block(b, s->fn)
		foreach_instr(i, b) {
			if (i->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(i);
			int kind = intr->op == INTR_load_ssbo ? BUFFERS :
				   intr->op == INTR_image_load ? IMAGES :
				   intr->op == INTR_load_global ? GLOBAL : -1;
			if (kind < 0)
				continue;
			unsigned access = (unsigned)intrinsic_get(intr, INTR_IDX_access);
			bool readonly = (access & ACCESS_NON_WRITEABLE) ||
					(kind != GLOBAL && (decl_access(s, intr, kind) & ACCESS_NON_WRITEABLE));
			if (kind == GLOBAL)
				readonly |= !u.written[BUFFERS] && !u.written[IMAGES] && !u.written[GLOBAL];
			else
				readonly |= !u.written[kind];
			if (kind == BUFFERS && !readonly) {
				int d = ssbo_decl_of(s, &intr->src[0]);
				readonly = d >= 0 && (s->ssbos[d]->access & ACCESS_RESTRICT) &&
					   !u.ssbo_written[d];
			}
			if (!readonly)
				continue;
			unsigned now = access | ACCESS_NON_WRITEABLE;
			if (!(access & ACCESS_VOLATILE) && (!u.barrier[kind] || !(access & ACCESS_COHERENT)))
				now |= ACCESS_CAN_REORDER;
			if (now != access) {
				intrinsic_set(intr, INTR_IDX_access, (int32_t)now);
				progress = true;
			}
		}
	if (s->num_ssbos)
		free(u.ssbo_written);
	return shader_progress(s, progress, META_ALL);
}
