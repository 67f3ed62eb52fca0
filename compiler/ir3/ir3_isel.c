/*
 * Instruction selection: the lowered IR (ir3_nir.h) to the machine IR, as
 * Mesa's ir3_compiler_nir.c emit_instructions does it.  This file walks the
 * structured control flow and owns values, phis and branches; ALU, intrinsics
 * and textures have their own files.
 *
 * Control flow.  Each IR block is one machine block.  A block followed by an
 * if ends in `br p0.x, then, else`; a block with a jump (break, continue,
 * return) or any other successor ends in `jump` (legalize drops jumps to
 * the next block); the preamble's ifs (ir3_nir_opt_preamble) end in `shps`
 * and `getone` instead, and the block ending in `shpe` needs no jump (as
 * Mesa's emit_if and ir3_legalize).  Every IR loop that reaches selection
 * adds one to `loops` (Mesa's emit_loop).  Blocks nothing reaches are removed (Mesa's
 * ir3_remove_unreachable).  Phis get one machine phi per component; their
 * sources are filled once every block is emitted (back edges).
 */
#include "compiler/ir3/ir3_isel.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

void isel_error(struct isel *c, const char *fmt, ...)
{
	if (c->failed)
		return;
	c->failed = true;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(c->err, fmt, ap);
	va_end(ap);
}

/* A value the selection has not defined (an error was reported): zeros, so
 * the walk can go on without special cases. */
static struct ir3_register **dummy(struct isel *c, unsigned n)
{
	struct ir3_register **r = arena_array(c->ir->arena, struct ir3_register *, n);
	struct ir3_builder top = isel_top(c);
	for (unsigned k = 0; k < n; k++)
		r[k] = ir3_b_imm(&top, TYPE_U32, 0);
	return r;
}

static unsigned num_regs(const struct ssa_def *def)
{
	return def->num_components * (def->bit_size == 64 ? 2 : 1);
}

struct ir3_register **isel_get(struct isel *c, struct ssa_def *def)
{
	struct ir3_register **r = c->vals[def->index];
	if (!r) {
		isel_error(c, "internal error: %%%u used before it is selected", def->index);
		r = c->vals[def->index] = dummy(c, num_regs(def));
	}
	return r;
}

struct ir3_register **isel_def(struct isel *c, struct ssa_def *def)
{
	unsigned n = num_regs(def);
	struct ir3_register **r = arena_array(c->ir->arena, struct ir3_register *, n);
	memset(r, 0, sizeof(*r) * n);
	c->vals[def->index] = r;
	return r;
}

struct ir3_builder isel_top(struct isel *c)
{
	struct ir3_block *first = c->ir->first;
	struct ir3_builder b = ir3_builder_at_end(first);
	/* after the inputs, which lead the block, before everything else */
	struct ir3_instruction *i = first->first;
	while (i && i->opc == OPC_META_INPUT)
		i = i->next;
	b.before = i;
	return b;
}

const char *isel_decl_name(struct isel *c, const struct io_decl *d, unsigned elem)
{
	const char *name = d->name && *d->name ? d->name : NULL;
	if (!name && d->builtin != BUILTIN_none)
		name = builtin_names[d->builtin];
	if (!name)
		name = arena_printf(c->ir->arena, "location %d", d->location);
	return d->array_size ? arena_printf(c->ir->arena, "%s[%u]", name, elem)
			     : arena_strdup(c->ir->arena, name);
}

/* "vertex_id" for load_vertex_id */
static const char *sysval_name(enum intrinsic op)
{
	const char *name = intrinsic_infos[op].name;
	return strncmp(name, "load_", 5) ? name : name + 5;
}

static const char *const ij_names[ISEL_IJ_COUNT] = {
	"ij_persp_pixel", "ij_persp_centroid", "ij_persp_sample",
	"ij_linear_pixel", "ij_linear_centroid", "ij_linear_sample",
};

void isel_iface_input(struct isel *c, struct ir3_register *input, struct ir3_iface_input what)
{
	struct ir3_iface *f = c->ir->iface;
	what.name = what.kind == IR3_IFACE_IJ ? ij_names[what.ij]
		    : what.kind == IR3_IFACE_SYSVAL ? sysval_name(what.sysval)
		    : isel_decl_name(c, c->s->inputs[what.decl], what.elem);
	size_t sz = sizeof(*f->inputs);
	f->inputs = arena_realloc(c->ir->arena, f->inputs, f->num_inputs * sz, (f->num_inputs + 1) * sz);
	what.instr = input->instr;
	f->inputs[f->num_inputs++] = what;
}

struct ir3_register *isel_imm(struct isel *c, uint32_t bits, bool half)
{
	return ir3_b_imm(&c->b, half ? TYPE_U16 : TYPE_U32, half ? bits & 0xffff : bits);
}

struct ir3_register *isel_const(struct isel *c, unsigned comp)
{
	return ir3_b_const(&c->b, TYPE_U32, comp);
}

unsigned isel_reg_flags(struct isel *c, unsigned bit_size)
{
	if (bit_size == 1)
		return c->bool_flags;
	return bit_size <= 16 ? IR3_REG_HALF : 0;
}

struct ir3_register *isel_resize(struct isel *c, struct ir3_register *r, bool half)
{
	bool is_half = r->flags & IR3_REG_HALF;
	if (is_half == half)
		return r;
	return half ? ir3_b_cov(&c->b, TYPE_U32, TYPE_U16, r) : ir3_b_cov(&c->b, TYPE_U16, TYPE_U32, r);
}

struct ir3_register *isel_predicate(struct isel *c, struct ir3_register *cond)
{
	struct ir3_instruction *def = cond->instr;
	if (def && (def->opc == OPC_CMPS_F || def->opc == OPC_CMPS_S || def->opc == OPC_CMPS_U) &&
	    !def->address) {
		/* a compare writes p0 directly: clone it with a predicate result */
		struct ir3_instruction *i = ir3_b_instr(&c->b, def->opc, 1, 0);
		i->cond = def->cond;
		ir3_dst_create(i, IR3_REG_PREDICATE, 1);
		for (unsigned n = 0; n < def->nsrc; n++) {
			struct ir3_register *s = def->srcs[n];
			if (s->def)
				ir3_src_ssa(i, s->def, s->flags & IR3_REG_MODS);
			else
				ir3_add_src(i, ir3_reg_clone(c->ir, s));
		}
		return i->dsts[0];
	}
	bool half = cond->flags & IR3_REG_HALF;
	return ir3_b_cmp(&c->b, OPC_CMPS_S, COND_NE, IR3_REG_PREDICATE, cond, isel_imm(c, 0, half));
}

struct ir3_register *isel_collect(struct isel *c, struct ir3_register **regs, unsigned n)
{
	if (n == 1)
		return regs[0];
	return ir3_b_collect(&c->b, n, regs);
}

void isel_split(struct isel *c, struct ir3_register *vec, unsigned n, struct ir3_register **out)
{
	if (n == 1 && vec->wrmask <= 1) {
		out[0] = vec;
		return;
	}
	for (unsigned k = 0; k < n; k++)
		out[k] = ir3_b_split(&c->b, vec, k);
}

bool isel_src_const(struct src *src, unsigned comp, uint32_t *value)
{
	struct load_const_instr *lc = ssa_def_as_const(src->ssa);
	if (!lc || lc->instr.type != INSTR_load_const)
		return false;
	*value = (uint32_t)lc->value[comp];
	return true;
}

static bool is_fetch(const struct ir3_instruction *i)
{
	if (i->opc == OPC_BARY_F || i->opc == OPC_FLAT_B)
		return true;
	/* a 16-bit varying's conversion */
	const struct ir3_register *s = i->opc == OPC_MOV && i->nsrc ? i->srcs[0] : NULL;
	return s && s->def && (s->def->instr->opc == OPC_BARY_F || s->def->instr->opc == OPC_FLAT_B);
}

/* Where a varying fetch goes: at the start of the main shader (after the
 * inputs), after the fetches made before it, so that they stay in the
 * order the shader reads them (Mesa's ir3_nir_move_varying_inputs). */
struct ir3_builder isel_varying_top(struct isel *c)
{
	struct ir3_block *start = c->main_start ? c->main_start : c->ir->first;
	struct ir3_builder b = ir3_builder_at_end(start);
	struct ir3_instruction *i = start->first;
	while (i && i->opc == OPC_META_INPUT)
		i = i->next;
	while (i && is_fetch(i))
		i = i->next;
	b.before = i;
	return b;
}

struct block *isel_main_start(struct function *fn)
{
	struct block *start = function_start_block(fn);
	struct cf_node *n = cf_node_next(&start->cf);
	if (!n || n->type != CF_IF)
		return start;
	struct instr *cond = cf_as_if(n)->condition.ssa->parent;
	if (cond->type != INSTR_intrinsic ||
	    instr_as_intrinsic(cond)->op != INTR_preamble_start_ir3)
		return start;
	return cf_as_block(cf_node_next(n));
}

/* ------------------------------------------------------------------ */

static void emit_load_const(struct isel *c, struct load_const_instr *lc)
{
	struct ir3_register **d = isel_def(c, &lc->def);
	unsigned bits = lc->def.bit_size;
	for (unsigned k = 0; k < lc->def.num_components; k++) {
		uint64_t v = lc->value[k];
		if (bits == 64) {
			d[2 * k] = isel_imm(c, (uint32_t)v, false);
			d[2 * k + 1] = isel_imm(c, (uint32_t)(v >> 32), false);
		} else {
			d[k] = ir3_b_imm(&c->b, bits == 1 ? c->bool_type : bits <= 16 ? TYPE_U16 : TYPE_U32,
					 (uint32_t)v);
		}
	}
}

/* Mesa's emit_undef: zeros. */
static void emit_undef(struct isel *c, struct undef_instr *u)
{
	struct ir3_register **d = isel_def(c, &u->def);
	bool half = isel_reg_flags(c, u->def.bit_size) & IR3_REG_HALF;
	for (unsigned k = 0; k < num_regs(&u->def); k++)
		d[k] = isel_imm(c, 0, half);
}

static void emit_phi(struct isel *c, struct block *blk, struct phi_instr *phi)
{
	struct ir3_register **d = isel_def(c, &phi->def);
	unsigned flags = isel_reg_flags(c, phi->def.bit_size);
	for (unsigned k = 0; k < num_regs(&phi->def); k++)
		d[k] = ir3_b_phi(c->blocks[blk->index], flags, 1);
	/* ir3_b_phi prepends: keep the phis in component order */
	for (unsigned k = 1; k < num_regs(&phi->def); k++) {
		struct ir3_instruction *i = d[k]->instr;
		ir3_instr_remove(i);
		ir3_instr_insert_after(d[k - 1]->instr, i);
	}
}

static void fill_phi(struct isel *c, struct phi_instr *phi)
{
	struct ir3_register **d = c->vals[phi->def.index];
	foreach_phi_src(ps, phi) {
		struct ir3_register **v = isel_get(c, ps->src.ssa);
		for (unsigned k = 0; k < num_regs(&phi->def); k++)
			ir3_phi_add_src(d[k], c->blocks[ps->pred->index], v[k]);
	}
}

static void emit_instr(struct isel *c, struct block *blk, struct instr *in)
{
	switch (in->type) {
	case INSTR_alu: isel_alu(c, instr_as_alu(in)); break;
	case INSTR_load_const: emit_load_const(c, instr_as_load_const(in)); break;
	case INSTR_undef: emit_undef(c, instr_as_undef(in)); break;
	case INSTR_intrinsic: isel_intrinsic(c, instr_as_intrinsic(in)); break;
	case INSTR_tex: isel_tex(c, instr_as_tex(in)); break;
	case INSTR_phi: emit_phi(c, blk, instr_as_phi(in)); break;
	case INSTR_jump: break;		/* the block's terminator, below */
	}
}

static void emit_cf_list(struct isel *c, struct list *list);

/* The block's code; its terminator unless an if follows (emit_if). */
static void emit_block(struct isel *c, struct block *blk)
{
	c->b = ir3_builder_at_end(c->blocks[blk->index]);
	ir_foreach_instr(in, blk) {
		emit_instr(c, blk, in);
		if (c->failed)
			return;
	}
	struct cf_node *next = cf_node_next(&blk->cf);
	if (next && next->type == CF_IF)
		return;
	struct block *succ = block_succ(blk, 0);
	struct instr *last = block_last_instr(blk);
	if (succ && last && last->type == INSTR_intrinsic &&
	    instr_as_intrinsic(last)->op == INTR_preamble_end_ir3)
		ir3_block_link(c->blocks[blk->index], c->blocks[succ->index]);
	else if (succ)
		ir3_b_jump(&c->b, c->blocks[succ->index]);
}

/* The terminator of the preamble's ifs: shps (the first wave goes into
 * the then branch), getone (one fibre of it does), or OPC_BR. */
static enum ir3_opc if_opc(struct cf_if *nif)
{
	struct instr *in = nif->condition.ssa->parent;
	if (in->type == INSTR_intrinsic && instr_as_intrinsic(in)->op == INTR_preamble_start_ir3)
		return OPC_SHPS;
	if (in->type == INSTR_intrinsic && instr_as_intrinsic(in)->op == INTR_elect_any_ir3)
		return OPC_GETONE;
	return OPC_BR;
}

static void emit_if(struct isel *c, struct cf_if *nif)
{
	/* the builder is still at the end of the block before the if */
	struct ir3_block *then = c->blocks[cf_if_then_block(nif)->index];
	struct ir3_block *otherwise = c->blocks[cf_if_else_block(nif)->index];
	enum ir3_opc opc = if_opc(nif);
	if (opc != OPC_BR) {
		ir3_b_instr(&c->b, opc, 0, 0);
		ir3_block_link(c->b.block, then);
		ir3_block_link(c->b.block, otherwise);
	} else {
		struct ir3_register *cond = isel_get(c, nif->condition.ssa)[0];
		ir3_b_br(&c->b, isel_predicate(c, cond), then, otherwise);
	}
	emit_cf_list(c, &nif->then_list);
	emit_cf_list(c, &nif->else_list);
}

static void emit_cf_list(struct isel *c, struct list *list)
{
	foreach_cf_node(node, list) {
		if (c->failed)
			return;
		switch (node->type) {
		case CF_BLOCK: emit_block(c, cf_as_block(node)); break;
		case CF_IF: emit_if(c, cf_as_if(node)); break;
		case CF_LOOP:
			c->loops++;
			emit_cf_list(c, &cf_as_loop(node)->body);
			break;
		case CF_FUNCTION: BUG("a function inside a function");
		}
	}
}

/* Mesa's ir3_remove_unreachable: blocks nothing branches to go, with the
 * phi sources that came from them. */
static void remove_unreachable(struct ir3 *ir)
{
	unsigned n = 0;
	foreach_block(b, ir)
		b->index = n++;
	bool *seen = xcalloc(n ? n : 1, sizeof(bool));
	struct ir3_block **stack = xmalloc(sizeof(*stack) * (n ? n : 1));
	unsigned sp = 0;
	stack[sp++] = ir->first;
	seen[ir->first->index] = true;
	while (sp) {
		struct ir3_block *b = stack[--sp];
		for (int s = 0; s < 2; s++)
			if (b->succ[s] && !seen[b->succ[s]->index]) {
				seen[b->succ[s]->index] = true;
				stack[sp++] = b->succ[s];
			}
	}
	foreach_block(b, ir) {
		if (!seen[b->index])
			continue;
		foreach_instr(i, b) {
			if (i->opc != OPC_META_PHI)
				break;
			unsigned out = 0;
			for (unsigned k = 0; k < i->nsrc; k++)
				if (seen[i->srcs[k]->pred->index])
					i->srcs[out++] = i->srcs[k];
			i->nsrc = out;
		}
	}
	foreach_block_safe(b, ir)
		if (!seen[b->index])
			ir3_block_remove(b);
	free(seen);
	free(stack);
	ir3_calc_preds(ir);
}

static bool stage_supported(enum shader_stage st)
{
	return st == STAGE_VERTEX || st == STAGE_FRAGMENT || st == STAGE_COMPUTE ||
	       st == STAGE_TESS_CTRL || st == STAGE_TESS_EVAL || st == STAGE_GEOMETRY;
}

/* Reads of the values selection placed in the shared file (a shared
 * system value): each names the register of its value, and where the
 * instruction cannot take a shared register there (a meta other than a
 * split, a slot whose encoding has no shared bit), it reads a copy in a
 * GPR made just before it instead (what Mesa's shared RA does when it
 * demotes a source); cse shares the copies of one block. */
static void shared_reads(struct ir3 *ir)
{
	foreach_block(b, ir)
		foreach_instr(i, b)
			for (unsigned n = 0; n < i->nsrc; n++) {
				struct ir3_register *r = i->srcs[n];
				if (!r->def || !(r->def->flags & IR3_REG_SHARED))
					continue;
				r->num = r->def->num;
				r->flags |= IR3_REG_ASSIGNED;
				bool ok = ir3_is_meta(i) ? i->opc == OPC_META_SPLIT
						       : ir3_valid_flags(i, n, r->flags & ~(IR3_REG_SSA |
											IR3_REG_ASSIGNED));
				if (ok)
					continue;
				struct ir3_builder at = { .block = b, .before = i };
				struct ir3_register *copy = ir3_b_mov(&at, TYPE_U32, r->def);
				copy->instr->srcs[0]->num = r->def->num;
				copy->instr->srcs[0]->flags |= IR3_REG_ASSIGNED;
				r->def = copy;
				r->flags &= ~(IR3_REG_SHARED | IR3_REG_ASSIGNED);
				r->num = 0;
			}
}

struct ir3 *ir3_isel(struct shader *s, const struct ir3_info *t,
		     const struct ir3_const_layout *layout, struct arena *arena,
		     struct strbuf *err)
{
	if (!stage_supported(s->stage)) {
		strbuf_addf(err, "the ir3 model does not compile %s shaders yet",
			    stage_name(s->stage));
		return NULL;
	}
	struct function *fn = s->fn;
	metadata_require(fn, META_BLOCK_INDEX | META_DOMINANCE);

	struct isel c = { .s = s, .t = t, .cl = layout, .err = err };
	c.ir = ir3_create(arena, s->stage);
	c.bool_flags = t->bool_16bit ? IR3_REG_HALF : 0;
	c.bool_type = t->bool_16bit ? TYPE_U16 : TYPE_U32;
	c.num_blocks = fn->num_blocks;
	c.vals = arena_array(arena, struct ir3_register **, fn->ssa_alloc + 1);
	memset(c.vals, 0, sizeof(*c.vals) * (fn->ssa_alloc + 1));
	c.blocks = arena_array(arena, struct ir3_block *, fn->num_blocks + 1);
	for (unsigned k = 0; k <= fn->num_blocks; k++)
		c.blocks[k] = ir3_block_create(c.ir);

	c.ir->const_size = layout->size_vec4;
	c.ir->pvtmem_size = s->info.scratch_size;
	c.ir->iface = arena_array(arena, struct ir3_iface, 1);
	c.ir->iface->layout = *layout;
	c.ir->iface->const_data = layout->const_data;
	c.ir->iface->scratch_size = s->info.scratch_size;
	c.ir->iface->shared_size = s->info.shared_size;
	for (unsigned k = 0; k < s->num_ssbos; k++) {
		unsigned end = s->ssbos[k]->slot + decl_num_slots(s->ssbos[k]->array_size);
		if (end > c.ir->iface->image_ibo)
			c.ir->iface->image_ibo = end;
	}
	if (s->stage == STAGE_COMPUTE) {
		for (int k = 0; k < 3; k++)
			c.ir->local_size[k] = s->info.workgroup_size[k] ? s->info.workgroup_size[k] : 1;
		c.ir->shared_size = s->info.shared_size;
	}

	struct block *main_start = isel_main_start(fn);
	if (main_start != function_start_block(fn))
		c.main_start = c.blocks[main_start->index];
	isel_setup_inputs(&c);
	emit_cf_list(&c, &fn->body);
	if (!c.failed) {
		c.b = ir3_builder_at_end(c.blocks[fn->num_blocks]);
		isel_emit_end(&c);
	}
	if (!c.failed) {
		ir_foreach_block(blk, fn)
			ir_foreach_instr(in, blk) {
				if (in->type != INSTR_phi)
					break;
				fill_phi(&c, instr_as_phi(in));
			}
	}
	if (c.failed)
		return NULL;
	c.ir->loops = (int)c.loops;
	remove_unreachable(c.ir);
	if (c.shared_values)
		shared_reads(c.ir);
	if (c.has_arrays) {
		isel_fold_array_stores(&c);
		ir3_array_to_ssa(c.ir);
	}
	return c.ir;
}
