/*
 * The validator: every invariant of ir.h, checked without trusting the IR
 * (it runs on parsed input and after every pass, so it must not crash on
 * whatever a buggy pass leaves behind).  Phases:
 *
 *  1. structure: CF lists alternate blocks and ifs/loops, start and end with
 *     a block, parents and owners are right, if conditions are set.  When
 *     this fails nothing else is checked: the walks below rely on it.
 *  2. definitions: every instruction is in the block that lists it, every
 *     value has a valid size and a unique index below ssa_alloc.
 *  3. metadata marked valid is not stale (block indices, dominance).
 *  4. each instruction against its table (ALU sizes and types, swizzles,
 *     intrinsic sources, results, const indices, declarations named; tex
 *     sources per op), phis against predecessors, jumps last and inside
 *     loops, sources defined, in their use lists, and dominating their uses.
 *  5. use lists hold exactly the sources of live instructions.
 *  6. declarations and stage information.
 *
 * Uses in blocks unreachable from the start are not checked for dominance
 * (nothing dominates them); dead-control-flow removal deletes such code.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/builder.h"
#include "compiler/ir/text.h"

#define MAX_ERRORS 30

struct vctx {
	struct shader *s;
	struct function *fn;
	struct diag *diag;
	const char *name;
	unsigned errors;
	bitset_word *defined;		/* def indices seen */
	size_t num_srcs;		/* sources of live instructions, if conditions included */
	struct block *block;		/* being checked */
	struct instr *instr;
	unsigned loop_depth;
};

/* ---- reporting ---- */

static void squeeze_spaces(struct strbuf *sb)
{
	size_t o = 0;
	for (size_t i = 0; i < sb->len; i++)
		if (!(sb->buf[i] == ' ' && o && sb->buf[o - 1] == ' '))
			sb->buf[o++] = sb->buf[i];
	strbuf_setlen(sb, o);
}

__attribute__((format(printf, 3, 4)))
static void verror(struct vctx *c, struct instr *instr, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;
	if (++c->errors > MAX_ERRORS) {
		if (c->errors == MAX_ERRORS + 1)
			diag_error(c->diag, c->name, 0, 0, "too many IR validation errors");
		return;
	}
	if (instr) {
		struct strbuf text = STRBUF_INIT;
		ir_print_instr(instr, &text);
		squeeze_spaces(&text);
		strbuf_addf(&msg, "'%s': ", text.buf);
		strbuf_release(&text);
	} else if (c->block) {
		strbuf_addf(&msg, "block b%u: ", c->block->index);
	}
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	diag_error(c->diag, c->name, instr ? (int)instr->line : 0, 0, "%s", msg.buf);
	strbuf_release(&msg);
}

#define check(c, cond, instr, ...) \
	do { if (!(cond)) verror((c), (instr), __VA_ARGS__); } while (0)

/* ---- 1. structure ---- */

static bool check_list(struct vctx *c, struct list *list, struct cf_node *parent, unsigned depth);

static bool check_node(struct vctx *c, struct cf_node *n, unsigned depth)
{
	switch (n->type) {
	case CF_BLOCK: {
		struct block *b = cf_as_block(n);
		if (b->fn != c->fn) {
			verror(c, NULL, "a block of another function is in the CF tree");
			return false;
		}
		return true;
	}
	case CF_IF: {
		struct cf_if *nif = cf_as_if(n);
		if (!nif->condition.ssa || nif->condition.parent_if != nif ||
		    nif->condition.parent_instr) {
			verror(c, NULL, "an if has no condition or a condition not its own");
			return false;
		}
		return check_list(c, &nif->then_list, n, depth + 1) &&
		       check_list(c, &nif->else_list, n, depth + 1);
	}
	case CF_LOOP:
		return check_list(c, &cf_as_loop(n)->body, n, depth + 1);
	default:
		verror(c, NULL, "a function node inside the CF tree");
		return false;
	}
}

static bool check_list(struct vctx *c, struct list *list, struct cf_node *parent, unsigned depth)
{
	if (depth > 1000) {
		verror(c, NULL, "control flow nested more than 1000 deep");
		return false;
	}
	if (list_empty(list)) {
		verror(c, NULL, "an empty CF list (every list holds at least a block)");
		return false;
	}
	bool prev_block = false, first = true;
	foreach_cf_node(n, list) {
		bool is_block = n->type == CF_BLOCK;
		if (n->parent != parent || n->list != list) {
			verror(c, NULL, "a CF node with the wrong parent or list");
			return false;
		}
		if (first && !is_block) {
			verror(c, NULL, "a CF list that does not start with a block");
			return false;
		}
		if (!first && is_block == prev_block) {
			verror(c, NULL, is_block ? "two blocks in a row in a CF list"
			       : "an if or loop not followed by a block");
			return false;
		}
		if (!check_node(c, n, depth))
			return false;
		prev_block = is_block;
		first = false;
	}
	if (!prev_block) {
		verror(c, NULL, "a CF list that does not end with a block");
		return false;
	}
	return true;
}

/* ---- 2. definitions ---- */

static bool def_size_ok(const struct ssa_def *d)
{
	return ir_valid_num_components(d->num_components) && ir_valid_bit_size(d->bit_size);
}

static void collect_defs(struct vctx *c)
{
	foreach_block(b, c->fn) {
		c->block = b;
		foreach_instr(i, b) {
			check(c, i->block == b, i, "instruction's block pointer is wrong");
			struct ssa_def *d = instr_def(i);
			if (!d)
				continue;
			check(c, d->parent == i, i, "value's parent is not its instruction");
			check(c, def_size_ok(d), i, "invalid size %ux%u", d->bit_size, d->num_components);
			if (d->index >= c->fn->ssa_alloc) {
				verror(c, i, "value index %u is not below ssa_alloc (%u)", d->index,
				       c->fn->ssa_alloc);
			} else if (bitset_test(c->defined, d->index)) {
				verror(c, i, "value index %u is used twice", d->index);
			} else {
				bitset_set(c->defined, d->index);
			}
		}
	}
	c->block = NULL;
}

/* ---- 3. metadata ---- */

static void check_metadata(struct vctx *c)
{
	struct function *fn = c->fn;
	if (fn->valid_metadata & META_BLOCK_INDEX) {
		unsigned n = 0;
		bool ok = true;
		foreach_block(b, fn) {
			ok &= n < fn->num_blocks && fn->blocks[n] == b && b->index == n;
			n++;
		}
		check(c, ok && n == fn->num_blocks, NULL,
		      "block index metadata is marked valid but stale");
	}
	struct block **idoms = NULL;
	unsigned nb = 0;
	if (fn->valid_metadata & META_DOMINANCE && fn->valid_metadata & META_BLOCK_INDEX) {
		nb = fn->num_blocks + 1;
		idoms = xmalloc(nb * sizeof(*idoms));
		for (unsigned i = 0; i < nb; i++)
			idoms[i] = fn->blocks[i]->idom;
	}
	calc_block_index(fn);
	calc_instr_index(fn);
	calc_dominance(fn);
	if (idoms) {
		bool same = nb == fn->num_blocks + 1;
		for (unsigned i = 0; same && i < nb; i++)
			same = idoms[i] == fn->blocks[i]->idom;
		check(c, same, NULL, "dominance metadata is marked valid but stale");
		free(idoms);
	}
}

/* ---- 4. instructions ---- */

/* What is wrong with the value a source reads, or NULL when it is a live
 * value of this function. */
static const char *def_problem(struct vctx *c, const struct ssa_def *d)
{
	if (!d)
		return "a source reads no value";
	struct instr *p = d->parent;
	if (!p || !p->block)
		return "reads a value whose instruction was removed";
	struct block *b = p->block;
	if (b->fn != c->fn || b->index > c->fn->num_blocks || c->fn->blocks[b->index] != b)
		return "reads a value defined outside the function";
	if (d->index >= c->fn->ssa_alloc || !bitset_test(c->defined, d->index) || instr_def(p) != d)
		return "reads a value that is not defined";
	return NULL;
}

static bool src_def_ok(struct vctx *c, struct instr *instr, const struct src *src)
{
	const char *problem = def_problem(c, src->ssa);
	if (problem) {
		if (src->ssa)
			verror(c, instr, "%s (%%%u)", problem, src->ssa->index);
		else
			verror(c, instr, "%s", problem);
	}
	return !problem;
}

static bool src_linked(const struct src *src)
{
	return src->use_link.next && src->use_link.prev;
}

/* Whether the value of `src` is available at the end of `b` (`before` is
 * NULL) or just before instruction `before` of `b`. */
static bool dominates_use(const struct ssa_def *d, struct block *b, struct instr *before)
{
	struct block *db = d->parent->block;
	if (!block_is_reachable(b))
		return true;
	if (db == b)
		return !before || d->parent->index < before->index;
	return block_dominates(db, b);
}

static void check_src(struct vctx *c, struct instr *instr, struct src *src)
{
	c->num_srcs++;
	if (src->parent_instr != instr || src->parent_if)
		verror(c, instr, "a source's parent is not its instruction");
	if (!src_linked(src))
		verror(c, instr, "a source is missing from its value's use list");
	if (!src_def_ok(c, instr, src))
		return;
	if (instr->type != INSTR_phi && !dominates_use(src->ssa, c->block, instr))
		verror(c, instr, "%%%u does not dominate this use", src->ssa->index);
}

static bool check_src_cb(struct src *src, void *data)
{
	struct vctx *c = data;
	check_src(c, c->instr, src);
	return true;
}

static bool bits_in(unsigned mask, unsigned bits)
{
	return !mask || (mask & ir_bits_mask(bits));
}

static void check_alu(struct vctx *c, struct alu_instr *alu)
{
	struct instr *i = &alu->instr;
	if ((unsigned)alu->op >= OP_COUNT) {
		verror(c, i, "invalid opcode %d", alu->op);
		return;
	}
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	unsigned unsized = 0;
	if (info->output_size)
		check(c, alu->def.num_components == info->output_size, i,
		      "%s has %u components, not %u", info->name, info->output_size,
		      alu->def.num_components);
	for (unsigned k = 0; k < info->num_inputs; k++) {
		const struct ssa_def *s = alu->src[k].src.ssa;
		if (!s)
			continue;
		unsigned n = alu_src_components(alu, k);
		for (unsigned ch = 0; ch < n && ch < 16; ch++)
			if (alu->src[k].swizzle[ch] >= s->num_components) {
				verror(c, i, "source %u: swizzle reads component %u of %%%u, which has %u",
				       k, alu->src[k].swizzle[ch], s->index, s->num_components);
				break;
			}
		enum alu_type t = info->input_types[k];
		unsigned want = alu_type_bits(t);
		if (want) {
			check(c, s->bit_size == want, i, "source %u is %u-bit, %s takes %u-bit",
			      k, s->bit_size, info->name, want);
			continue;
		}
		if (!unsized)
			unsized = s->bit_size;
		check(c, s->bit_size == unsized, i, "sources of different bit sizes (%u and %u)",
		      unsized, s->bit_size);
		if (alu_type_base(t) == BASE_float)
			check(c, s->bit_size >= 16, i, "source %u: %u-bit float", k, s->bit_size);
	}
	unsigned want = alu_type_bits(info->output_type);
	if (want)
		check(c, alu->def.bit_size == want, i, "result is %u-bit, %s gives %u-bit",
		      alu->def.bit_size, info->name, want);
	else if (unsized)
		check(c, alu->def.bit_size == unsized, i, "result is %u-bit, its sources %u-bit",
		      alu->def.bit_size, unsized);
}

static void check_load_const(struct vctx *c, struct load_const_instr *lc)
{
	unsigned bits = lc->def.bit_size;
	uint64_t max = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
	for (unsigned k = 0; k < lc->def.num_components; k++)
		check(c, lc->value[k] <= max, &lc->instr, "constant component %u has bits above %u",
		      k, bits);
}

static bool is_power_of_two(int64_t v)
{
	return v > 0 && !(v & (v - 1));
}

static bool is_reduction_op(int32_t op)
{
	switch (op) {
	case OP_iadd: case OP_imul: case OP_fadd: case OP_fmul: case OP_imin: case OP_umin:
	case OP_fmin: case OP_imax: case OP_umax: case OP_fmax: case OP_iand: case OP_ior:
	case OP_ixor:
		return true;
	}
	return false;
}

static void check_index(struct vctx *c, struct intrinsic_instr *intr, enum intr_index idx,
			int32_t v)
{
	struct instr *i = &intr->instr;
	const char *name = intr_index_infos[idx].name;
	switch (intr_index_infos[idx].kind) {
	case INDEX_KIND_WRMASK: {
		unsigned n = intr->num_components;
		check(c, v > 0 && n <= 16 && (uint32_t)v < (1u << n), i,
		      "write_mask %#x is empty or wider than the value", v);
		break;
	}
	case INDEX_KIND_ACCESS:
		check(c, v >= 0 && v < (1 << ACCESS_BIT_COUNT), i, "invalid access bits");
		break;
	case INDEX_KIND_SEMANTICS:
		check(c, v >= 0 && v < (1 << SEMANTICS_BIT_COUNT), i, "invalid memory semantics");
		break;
	case INDEX_KIND_MODES:
		check(c, v >= 0 && v < (1 << MODE_BIT_COUNT), i, "invalid memory modes");
		break;
	case INDEX_KIND_ATOMIC:
		check(c, v > 0 && v < ATOMIC_COUNT, i, "invalid atomic op");
		break;
	case INDEX_KIND_SCOPE:
		check(c, v >= 0 && v < SCOPE_COUNT, i, "invalid %s", name);
		break;
	case INDEX_KIND_ALU_OP:
		check(c, is_reduction_op(v), i, "%s is not a reduction opcode", name);
		break;
	case INDEX_KIND_DIM:
		check(c, v > 0 && v < DIM_COUNT, i, "invalid image dimension");
		break;
	case INDEX_KIND_FORMAT:
		check(c, v >= 0 && v < FORMAT_COUNT, i, "invalid image format");
		break;
	case INDEX_KIND_BASE_TYPE:
		check(c, v == BASE_float || v == BASE_int || v == BASE_uint, i, "invalid %s", name);
		break;
	case INDEX_KIND_INT: case INDEX_KIND_OPT_INT:
		break;
	}
	switch (idx) {
	case INTR_IDX_align_mul:
		check(c, v == 0 || is_power_of_two(v), i, "align_mul is not a power of two");
		break;
	case INTR_IDX_cluster_size:
		check(c, v == 0 || is_power_of_two(v), i, "cluster_size is not a power of two");
		break;
	case INTR_IDX_image_array:
		check(c, v == 0 || v == 1, i, "image_array is not 0 or 1");
		break;
	case INTR_IDX_base: case INTR_IDX_component: case INTR_IDX_stream: case INTR_IDX_local:
	case INTR_IDX_align_offset:
		check(c, v >= 0, i, "negative %s", name);
		break;
	default:
		break;
	}
}

/* The value of a constant source, or -1 when it is not constant. */
static int64_t const_src(const struct src *src)
{
	struct load_const_instr *lc = src->ssa ? ssa_def_as_const(src->ssa) : NULL;
	return lc && lc->value[0] <= INT32_MAX ? (int64_t)lc->value[0] : -1;
}

static bool is_per_vertex_access(enum intrinsic op)
{
	return op == INTR_load_per_vertex_input || op == INTR_load_per_vertex_output ||
	       op == INTR_store_per_vertex_output;
}

/* An I/O access names a declaration and stays within its components and,
 * for a constant offset (the last source), its slots. */
static void check_io(struct vctx *c, struct intrinsic_instr *intr, bool output)
{
	struct instr *i = &intr->instr;
	int32_t base = intrinsic_get(intr, INTR_IDX_base);
	int32_t comp = intrinsic_get(intr, INTR_IDX_component);
	unsigned n = output ? c->s->num_outputs : c->s->num_inputs;
	if (base < 0 || (unsigned)base >= n) {
		verror(c, i, "base %d names no %s declaration", base, output ? "output" : "input");
		return;
	}
	const struct io_decl *d = output ? c->s->outputs[base] : c->s->inputs[base];
	unsigned comps = intrinsic_has_dest(intr->op) ? intr->def.num_components : intr->num_components;
	unsigned bits = intrinsic_has_dest(intr->op) ? intr->def.bit_size
			: intr->src[0].ssa ? intr->src[0].ssa->bit_size : d->bit_size;
	check(c, comp >= d->component && comp + comps <= (unsigned)d->component + d->num_components,
	      i, "components %d..%u are outside %s %d", comp, comp + comps - 1,
	      output ? "output" : "input", base);
	check(c, bits == d->bit_size, i, "%u-bit access to a %u-bit %s", bits, d->bit_size,
	      output ? "output" : "input");
	check(c, is_per_vertex_access(intr->op) == d->per_vertex, i,
	      d->per_vertex ? "%s %d is per-vertex: use the per_vertex access"
	      : "%s %d is not per-vertex", output ? "output" : "input", base);
	int64_t offset = const_src(&intr->src[intrinsic_infos[intr->op].num_srcs - 1]);
	check(c, offset < (int64_t)decl_num_slots(d->array_size), i,
	      "offset %lld is outside %s %d (%u slots)", (long long)offset,
	      output ? "output" : "input", base, decl_num_slots(d->array_size));
}

static void check_local(struct vctx *c, struct intrinsic_instr *intr)
{
	struct instr *i = &intr->instr;
	int32_t local = intrinsic_get(intr, INTR_IDX_local);
	if (local < 0 || (unsigned)local >= c->s->num_locals) {
		verror(c, i, "local %d is not declared", local);
		return;
	}
	const struct local_decl *d = c->s->locals[local];
	const struct ssa_def *v = intr->op == INTR_load_local ? &intr->def : intr->src[0].ssa;
	if (v)
		check(c, v->num_components == d->num_components && v->bit_size == d->bit_size, i,
		      "local %d is %ux%u, accessed as %ux%u", local, d->bit_size, d->num_components,
		      v->bit_size, v->num_components);
	int32_t base = intrinsic_get(intr, INTR_IDX_base);
	check(c, base >= 0 && (unsigned)base < d->num_elements, i,
	      "base %d is outside local %d (%u elements)", base, local, d->num_elements);
	/* A constant offset past the end is not invalid IR: constant folding
	 * makes one of a[i] in code that never runs with that i.  It is
	 * undefined when it runs, as any index out of range (INTERP.md). */
}

/* A constant slot source names a declaration. */
static void check_slot(struct vctx *c, struct intrinsic_instr *intr, const char *kind)
{
	struct load_const_instr *lc = intr->src[0].ssa ? ssa_def_as_const(intr->src[0].ssa) : NULL;
	if (!lc)
		return;
	uint64_t slot = lc->value[0];
	bool found;
	if (kind[0] == 'u')
		found = shader_find_buffer(c->s->ubos, c->s->num_ubos, (unsigned)slot) && slot <= UINT32_MAX;
	else if (kind[0] == 's')
		found = shader_find_buffer(c->s->ssbos, c->s->num_ssbos, (unsigned)slot) && slot <= UINT32_MAX;
	else
		found = shader_find_resource(c->s->images, c->s->num_images, (unsigned)slot) &&
			slot <= UINT32_MAX;
	check(c, found, &intr->instr, "%s slot %llu is not declared", kind, (unsigned long long)slot);
}

static void check_intrinsic_decls(struct vctx *c, struct intrinsic_instr *intr)
{
	switch (intr->op) {
	case INTR_load_input: case INTR_load_per_vertex_input: case INTR_interp_at_centroid:
	case INTR_interp_at_sample: case INTR_interp_at_offset:
		check_io(c, intr, false);
		break;
	case INTR_load_output: case INTR_load_per_vertex_output: case INTR_store_output:
	case INTR_store_per_vertex_output:
		check_io(c, intr, true);
		break;
	case INTR_load_local: case INTR_store_local:
		check_local(c, intr);
		break;
	case INTR_load_ubo:
		check_slot(c, intr, "ubo");
		break;
	case INTR_load_ssbo: case INTR_ssbo_atomic: case INTR_ssbo_atomic_swap:
	case INTR_get_ssbo_size:
		check_slot(c, intr, "ssbo");
		break;
	case INTR_store_ssbo:
		break;
	case INTR_image_load: case INTR_image_store: case INTR_image_atomic:
	case INTR_image_atomic_swap: case INTR_image_size: case INTR_image_samples:
		check_slot(c, intr, "image");
		break;
	default:
		break;
	}
	if (intr->op == INTR_store_ssbo && intr->src[1].ssa && ssa_def_as_const(intr->src[1].ssa)) {
		uint64_t slot = ssa_def_as_const(intr->src[1].ssa)->value[0];
		check(c, slot <= UINT32_MAX &&
		      shader_find_buffer(c->s->ssbos, c->s->num_ssbos, (unsigned)slot),
		      &intr->instr, "ssbo slot %llu is not declared", (unsigned long long)slot);
	}
}

static void check_intrinsic(struct vctx *c, struct intrinsic_instr *intr)
{
	struct instr *i = &intr->instr;
	if ((unsigned)intr->op >= INTR_COUNT) {
		verror(c, i, "invalid intrinsic %d", intr->op);
		return;
	}
	const struct intrinsic_info *info = &intrinsic_infos[intr->op];
	bool variable = intrinsic_has_variable_size(intr->op);
	if (variable)
		check(c, ir_valid_num_components(intr->num_components), i,
		      "invalid num_components %u", intr->num_components);
	else
		check(c, intr->num_components == 0, i, "num_components set on a fixed-size intrinsic");
	if (info->stages && intr_stage_bit(c->s->stage))
		check(c, info->stages & intr_stage_bit(c->s->stage), i, "%s is not allowed in a %s shader",
		      info->name, stage_name(c->s->stage));
	for (unsigned k = 0; k < INTR_MAX_INDICES && info->indices[k]; k++)
		check_index(c, intr, (enum intr_index)info->indices[k], intr->const_index[k]);
	for (unsigned k = 0; k < info->num_srcs; k++) {
		const struct ssa_def *s = intr->src[k].ssa;
		if (!s)
			continue;
		if (info->src_components[k] == INTR_IMAGE_COORD &&
		    (intrinsic_get(intr, INTR_IDX_image_dim) <= 0 ||
		     intrinsic_get(intr, INTR_IDX_image_dim) >= DIM_COUNT))
			continue;
		unsigned want = intrinsic_src_components(intr, k);
		check(c, s->num_components == want, i, "source %u has %u components, not %u", k,
		      s->num_components, want);
		check(c, bits_in(info->src_bit_sizes[k], s->bit_size), i,
		      "source %u: %u-bit is not allowed", k, s->bit_size);
	}
	if (intrinsic_has_dest(intr->op)) {
		unsigned want = info->dest_components ? (unsigned)info->dest_components
				: intr->num_components;
		check(c, intr->def.num_components == want, i, "result has %u components, not %u",
		      intr->def.num_components, want);
		check(c, bits_in(info->dest_bit_sizes, intr->def.bit_size), i,
		      "%u-bit result is not allowed", intr->def.bit_size);
	}
	check_intrinsic_decls(c, intr);
}

/* Which sources each texture op requires (R) or forbids (F). */
static bool tex_src_required(enum tex_op op, enum tex_src_type t)
{
	switch (t) {
	case TEX_SRC_coord:
		return op != TEX_OP_txs && op != TEX_OP_query_levels && op != TEX_OP_texture_samples;
	case TEX_SRC_bias: return op == TEX_OP_txb;
	case TEX_SRC_lod: return op == TEX_OP_txl;
	case TEX_SRC_ddx: case TEX_SRC_ddy: return op == TEX_OP_txd;
	case TEX_SRC_ms_index: return op == TEX_OP_txf_ms;
	default: return false;
	}
}

static bool tex_src_allowed(enum tex_op op, enum tex_src_type t)
{
	switch (t) {
	case TEX_SRC_coord: return tex_src_required(op, t);
	case TEX_SRC_bias: return op == TEX_OP_txb;
	case TEX_SRC_lod:
		return op == TEX_OP_txl || op == TEX_OP_txf || op == TEX_OP_txs;
	case TEX_SRC_ddx: case TEX_SRC_ddy: return op == TEX_OP_txd;
	case TEX_SRC_ms_index: return op == TEX_OP_txf_ms;
	case TEX_SRC_comparator:
		return op == TEX_OP_tex || op == TEX_OP_txb || op == TEX_OP_txl || op == TEX_OP_txd ||
		       op == TEX_OP_tg4;
	case TEX_SRC_projector:
		return op == TEX_OP_tex || op == TEX_OP_txb || op == TEX_OP_txl || op == TEX_OP_txd;
	case TEX_SRC_offset:
		return op != TEX_OP_txs && op != TEX_OP_query_levels && op != TEX_OP_texture_samples &&
		       op != TEX_OP_lod;
	case TEX_SRC_min_lod:
		return op == TEX_OP_tex || op == TEX_OP_txb || op == TEX_OP_txd;
	default:
		return true;
	}
}

static bool tex_uses_sampler(enum tex_op op)
{
	return op == TEX_OP_tex || op == TEX_OP_txb || op == TEX_OP_txl || op == TEX_OP_txd ||
	       op == TEX_OP_lod || op == TEX_OP_tg4;
}

static unsigned tex_src_components(const struct tex_instr *tex, enum tex_src_type t)
{
	unsigned dims = image_dim_coords(tex->dim);
	switch (t) {
	case TEX_SRC_coord: return dims + tex->is_array;
	case TEX_SRC_offset: case TEX_SRC_ddx: case TEX_SRC_ddy: return dims;
	default: return 1;
	}
}

static void check_tex(struct vctx *c, struct tex_instr *tex)
{
	struct instr *i = &tex->instr;
	unsigned seen = 0;
	if ((unsigned)tex->op >= TEX_OP_COUNT || tex->dim <= DIM_none || tex->dim >= DIM_COUNT) {
		verror(c, i, "invalid texture op or dimension");
		return;
	}
	for (unsigned k = 0; k < tex->num_srcs; k++) {
		enum tex_src_type t = tex->src[k].type;
		if ((unsigned)t >= TEX_SRC_COUNT) {
			verror(c, i, "invalid texture source type");
			continue;
		}
		check(c, !(seen & (1u << t)), i, "two %s sources", tex_src_names[t]);
		seen |= 1u << t;
		check(c, tex_src_allowed(tex->op, t), i, "%s takes no %s source", tex_op_names[tex->op],
		      tex_src_names[t]);
		const struct ssa_def *s = tex->src[k].src.ssa;
		if (s && tex_src_allowed(tex->op, t))
			check(c, s->num_components == tex_src_components(tex, t), i,
			      "%s source has %u components, not %u", tex_src_names[t], s->num_components,
			      tex_src_components(tex, t));
	}
	for (unsigned t = 0; t < TEX_SRC_COUNT; t++)
		if (tex_src_required(tex->op, (enum tex_src_type)t))
			check(c, seen & (1u << t), i, "%s needs a %s source", tex_op_names[tex->op],
			      tex_src_names[t]);
	if (tex_src_allowed(tex->op, TEX_SRC_comparator) && tex->op != TEX_OP_tg4)
		check(c, tex->is_shadow == !!(seen & (1u << TEX_SRC_comparator)), i,
		      tex->is_shadow ? "a shadow lookup needs a comparator"
		      : "a comparator on a lookup not marked shadow");
	check(c, tex->dest_type == BASE_float || tex->dest_type == BASE_int ||
	      tex->dest_type == BASE_uint, i, "invalid result type");
	check(c, tex->def.num_components == tex_dest_components(tex), i,
	      "result has %u components, not %u", tex->def.num_components, tex_dest_components(tex));
	check(c, tex->def.bit_size == 16 || tex->def.bit_size == 32, i, "%u-bit texture result",
	      tex->def.bit_size);
	check(c, tex->op == TEX_OP_tg4 ? tex->component < 4 : tex->component == 0, i,
	      "invalid gather component");
	check(c, shader_find_resource(c->s->textures, c->s->num_textures, tex->texture_index), i,
	      "texture slot %u is not declared", tex->texture_index);
	if (tex_uses_sampler(tex->op))
		check(c, shader_find_resource(c->s->samplers, c->s->num_samplers, tex->sampler_index),
		      i, "sampler slot %u is not declared", tex->sampler_index);
}

static void check_phi(struct vctx *c, struct phi_instr *phi)
{
	struct instr *i = &phi->instr;
	struct instr *prev = instr_prev(i);
	unsigned np, n = 0;
	struct block *const *preds = block_preds(c->block, &np);
	check(c, !prev || prev->type == INSTR_phi, i, "a phi after a non-phi instruction");
	foreach_phi_src(ps, phi) {
		n++;
		bool is_pred = false;
		for (unsigned k = 0; k < np; k++)
			is_pred |= preds[k] == ps->pred;
		if (!is_pred) {
			verror(c, i, "a source from a block that is not a predecessor");
			continue;
		}
		foreach_phi_src(other, phi) {
			if (other == ps)
				break;
			if (other->pred == ps->pred)
				verror(c, i, "two sources from block b%u", ps->pred->index);
		}
		const struct ssa_def *s = ps->src.ssa;
		if (def_problem(c, s))
			continue;
		check(c, s->num_components == phi->def.num_components && s->bit_size == phi->def.bit_size,
		      i, "source %%%u is %ux%u, the phi %ux%u", s->index, s->bit_size, s->num_components,
		      phi->def.bit_size, phi->def.num_components);
		if (block_is_reachable(ps->pred))
			check(c, dominates_use(s, ps->pred, NULL), i,
			      "%%%u does not dominate the end of predecessor b%u", s->index, ps->pred->index);
	}
	check(c, n == np, i, "%u sources for %u predecessors", n, np);
}

static void check_jump(struct vctx *c, struct jump_instr *j)
{
	check(c, instr_next(&j->instr) == NULL, &j->instr, "instructions after a jump");
	if (j->type != JUMP_return)
		check(c, c->loop_depth > 0, &j->instr, "%s outside a loop",
		      j->type == JUMP_break ? "break" : "continue");
}

static void check_instr(struct vctx *c, struct instr *i)
{
	c->instr = i;
	instr_foreach_src(i, check_src_cb, c);
	switch (i->type) {
	case INSTR_alu: check_alu(c, instr_as_alu(i)); break;
	case INSTR_load_const: check_load_const(c, instr_as_load_const(i)); break;
	case INSTR_intrinsic: check_intrinsic(c, instr_as_intrinsic(i)); break;
	case INSTR_tex: check_tex(c, instr_as_tex(i)); break;
	case INSTR_phi: check_phi(c, instr_as_phi(i)); break;
	case INSTR_jump: check_jump(c, instr_as_jump(i)); break;
	case INSTR_undef: break;
	default: verror(c, i, "invalid instruction type %d", i->type); break;
	}
}

static void check_block(struct vctx *c, struct block *b)
{
	c->block = b;
	foreach_instr(i, b)
		check_instr(c, i);
	unsigned np;
	struct block *const *preds = block_preds(b, &np);
	for (unsigned k = 0; k < np; k++)
		check(c, block_succ(preds[k], 0) == b || block_succ(preds[k], 1) == b, NULL,
		      "predecessor b%u does not list it as a successor", preds[k]->index);
}

static void check_if(struct vctx *c, struct cf_if *nif)
{
	struct block *before = cf_as_block(cf_node_prev(&nif->cf));
	struct src *cond = &nif->condition;
	c->block = before;
	c->num_srcs++;
	if (!src_linked(cond)) {
		verror(c, NULL, "the condition of the if after it is missing from its use list");
		return;
	}
	if (!src_def_ok(c, NULL, cond))
		return;
	check(c, cond->ssa->num_components == 1 && cond->ssa->bit_size == 1, NULL,
	      "the condition of the if after it, %%%u, is not a 1-bit scalar", cond->ssa->index);
	check(c, dominates_use(cond->ssa, before, NULL), NULL,
	      "the condition of the if after it, %%%u, does not dominate it", cond->ssa->index);
}

static void check_cf_list(struct vctx *c, struct list *list)
{
	foreach_cf_node(n, list) {
		switch (n->type) {
		case CF_BLOCK: check_block(c, cf_as_block(n)); break;
		case CF_IF:
			check_if(c, cf_as_if(n));
			check_cf_list(c, &cf_as_if(n)->then_list);
			check_cf_list(c, &cf_as_if(n)->else_list);
			break;
		case CF_LOOP:
			c->loop_depth++;
			check_cf_list(c, &cf_as_loop(n)->body);
			c->loop_depth--;
			break;
		default: break;
		}
	}
	c->block = NULL;
}

/* ---- 5. use lists ---- */

/* Whether `src` is one of the sources of `instr`. */
struct find_src { const struct src *src; bool found; };

static bool find_src_cb(struct src *src, void *data)
{
	struct find_src *f = data;
	if (src == f->src)
		f->found = true;
	return !f->found;
}

static void check_uses(struct vctx *c)
{
	size_t uses = 0;
	foreach_block(b, c->fn) {
		foreach_instr(i, b) {
			struct ssa_def *d = instr_def(i);
			if (!d)
				continue;
			foreach_use(u, d) {
				uses++;
				if (u->ssa != d) {
					verror(c, i, "a use of %%%u reads another value", d->index);
				} else if (u->parent_if) {
					if (u != &u->parent_if->condition)
						verror(c, i, "a use of %%%u is not its if's condition", d->index);
				} else if (!u->parent_instr || !u->parent_instr->block) {
					verror(c, i, "%%%u is used by a removed instruction", d->index);
				} else {
					struct find_src f = { u, false };
					instr_foreach_src(u->parent_instr, find_src_cb, &f);
					if (!f.found)
						verror(c, i, "a use of %%%u is not a source of its user", d->index);
				}
				if (uses > c->num_srcs + 1)
					break;
			}
		}
	}
	check(c, uses == c->num_srcs, NULL, "use lists hold %zu uses for %zu sources", uses,
	      c->num_srcs);
}

/* ---- 6. declarations ---- */

static void decl_error(struct vctx *c, const char *kind, unsigned i, const char *what)
{
	verror(c, NULL, "%s %u: %s", kind, i, what);
}

static void check_io_decls(struct vctx *c, struct io_decl **decls, unsigned n, const char *kind)
{
	for (unsigned i = 0; i < n; i++) {
		const struct io_decl *d = decls[i];
		if (!ir_valid_num_components(d->num_components) || d->num_components > 4 ||
		    d->bit_size < 8 || !ir_valid_bit_size(d->bit_size))
			decl_error(c, kind, i, "invalid type");
		if ((unsigned)d->builtin >= BUILTIN_COUNT || (unsigned)d->interp >= INTERP_COUNT)
			decl_error(c, kind, i, "invalid builtin or interpolation");
		else if (d->builtin == BUILTIN_none && (d->location < 0 || d->location > 255))
			decl_error(c, kind, i, "a location from 0 to 255 is needed");
		else if (d->builtin != BUILTIN_none && d->location != -1)
			decl_error(c, kind, i, "a builtin has no location");
		if (d->component + d->num_components > 4)
			decl_error(c, kind, i, "components beyond 4");
	}
}

static void check_slots(struct vctx *c, unsigned *slots, unsigned *counts, unsigned n,
			const char *kind)
{
	for (unsigned i = 1; i < n; i++)
		if (slots[i] < slots[i - 1] + counts[i - 1])
			decl_error(c, kind, i, "slots overlap the previous declaration");
}

static void check_buffers(struct vctx *c, struct buffer_decl **d, unsigned n, const char *kind)
{
	unsigned *slots = xmalloc((n + 1) * sizeof(*slots)), *counts = xmalloc((n + 1) * sizeof(*counts));
	for (unsigned i = 0; i < n; i++) {
		slots[i] = d[i]->slot;
		counts[i] = decl_num_slots(d[i]->array_size);
		if (d[i]->access >= (1u << ACCESS_BIT_COUNT))
			decl_error(c, kind, i, "invalid access bits");
	}
	check_slots(c, slots, counts, n, kind);
	free(slots);
	free(counts);
}

static void check_resources(struct vctx *c, struct resource_decl **d, unsigned n,
			    const char *kind, bool needs_dim)
{
	unsigned *slots = xmalloc((n + 1) * sizeof(*slots)), *counts = xmalloc((n + 1) * sizeof(*counts));
	for (unsigned i = 0; i < n; i++) {
		slots[i] = d[i]->slot;
		counts[i] = decl_num_slots(d[i]->array_size);
		if ((unsigned)d[i]->dim >= DIM_COUNT || (needs_dim != (d[i]->dim != DIM_none)))
			decl_error(c, kind, i, needs_dim ? "a dimension is needed" : "a sampler has no dimension");
		if ((unsigned)d[i]->type >= BASE_COUNT || (needs_dim && d[i]->type != BASE_float &&
							    d[i]->type != BASE_int && d[i]->type != BASE_uint))
			decl_error(c, kind, i, "a sampled type (float, int or uint) is needed");
		if ((unsigned)d[i]->format >= FORMAT_COUNT || d[i]->access >= (1u << ACCESS_BIT_COUNT))
			decl_error(c, kind, i, "invalid format or access bits");
	}
	check_slots(c, slots, counts, n, kind);
	free(slots);
	free(counts);
}

static void check_decls(struct vctx *c)
{
	struct shader *s = c->s;
	if ((unsigned)s->stage >= STAGE_COUNT)
		verror(c, NULL, "invalid stage");
	check_io_decls(c, s->inputs, s->num_inputs, "input");
	check_io_decls(c, s->outputs, s->num_outputs, "output");
	check_buffers(c, s->ubos, s->num_ubos, "ubo");
	check_buffers(c, s->ssbos, s->num_ssbos, "ssbo");
	check_resources(c, s->textures, s->num_textures, "texture", true);
	check_resources(c, s->samplers, s->num_samplers, "sampler", false);
	check_resources(c, s->images, s->num_images, "image", true);
	for (unsigned i = 0; i < s->num_locals; i++) {
		const struct local_decl *d = s->locals[i];
		if (!d->num_elements || !ir_valid_num_components(d->num_components) ||
		    !ir_valid_bit_size(d->bit_size))
			decl_error(c, "local", i, "invalid size");
	}
	if (s->stage == STAGE_COMPUTE && !s->info.workgroup_size_variable)
		check(c, s->info.workgroup_size[0] && s->info.workgroup_size[1] &&
		      s->info.workgroup_size[2], NULL, "a compute shader needs a workgroup size");
	if (s->info.float_controls >= (1u << FLOAT_CONTROL_BIT_COUNT))
		verror(c, NULL, "invalid float controls");
}

bool ir_validate(struct shader *s, struct diag *diag, const char *name)
{
	struct vctx c = { .s = s, .fn = s->fn, .diag = diag, .name = name };
	if (!check_list(&c, &s->fn->body, &s->fn->cf, 0))
		return false;
	if (!s->fn->end_block || !list_empty(&s->fn->end_block->instrs)) {
		verror(&c, NULL, "the end block holds instructions");
		return false;
	}
	c.defined = xcalloc(BITSET_WORDS(s->fn->ssa_alloc + 1), sizeof(bitset_word));
	check_metadata(&c);
	collect_defs(&c);
	check_cf_list(&c, &s->fn->body);
	check_uses(&c);
	check_decls(&c);
	free(c.defined);
	return c.errors == 0;
}
