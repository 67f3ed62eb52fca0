/*
 * opt_shrink_vectors: values keep only the components something reads
 * (Mesa's nir_opt_shrink_vectors with shrink_start = false, as etnaviv's
 * optimisation loop runs it; ../../shared/reference/targets.md §4.3):
 *
 *  - a per-component ALU op or a vecN computes only the components read,
 *    compacted, and its readers' swizzles follow:
 *
 *	32x4 %3 = fmul %1, %2        →   32x2 %3 = fmul %1.xz, %2.xz
 *	32   %4 = fadd %3.z, %3.x        32   %4 = fadd %3.y, %3.x
 *
 *  - a constant keeps the components read, each value once;
 *  - loads of uniforms, push constants, UBOs and inputs drop the
 *    components after the last one read.  (Texture fetches keep their
 *    size: the IR's fetches have the size their op says.)
 *
 * A component is read when an ALU reader's swizzle names it for a channel
 * the reader uses; any other reader (a store, an intrinsic, a phi, an if)
 * reads them all.
 */
#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"

/* The components of `def` its readers read; 0 when one of them is not an
 * ALU instruction (then it reads them all and nothing may move). */
static unsigned components_read(const struct ssa_def *def)
{
	unsigned all = (1u << def->num_components) - 1, mask = 0;
	foreach_use(u, def) {
		struct instr *in = u->parent_instr;
		if (!in || in->type != INSTR_alu)
			return 0;
		struct alu_instr *alu = instr_as_alu(in);
		unsigned i = (unsigned)(container_of(u, struct alu_src, src) - alu->src);
		unsigned size = alu_op_infos[alu->op].input_sizes[i];
		unsigned n = size ? size : alu->def.num_components;
		for (unsigned c = 0; c < n; c++)
			mask |= 1u << alu->src[i].swizzle[c];
	}
	return mask & all;
}

/* Readers' swizzles through `remap` (old component → new). */
static void reswizzle(struct ssa_def *def, const uint8_t *remap)
{
	foreach_use(u, def) {
		struct alu_src *as = container_of(u, struct alu_src, src);
		for (unsigned c = 0; c < 16; c++)
			as->swizzle[c] = remap[as->swizzle[c] & 15];
	}
}

static void compact(unsigned mask, uint8_t *remap, uint8_t *keep, unsigned *n)
{
	*n = 0;
	for (unsigned k = 0; k < 16; k++) {
		remap[k] = 0;
		if (mask & (1u << k)) {
			remap[k] = (uint8_t)*n;
			keep[(*n)++] = (uint8_t)k;
		}
	}
}

static bool is_vec(enum alu_op op)
{
	return op == OP_vec2 || op == OP_vec3 || op == OP_vec4 || op == OP_vec8 || op == OP_vec16;
}

static enum alu_op vec_op(unsigned n)
{
	switch (n) {
	case 1: return OP_mov;
	case 2: return OP_vec2;
	case 3: return OP_vec3;
	case 4: return OP_vec4;
	case 8: return OP_vec8;
	default: return OP_vec16;
	}
}

static bool shrink_alu(struct shader *s, struct alu_instr *alu)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	struct ssa_def *def = &alu->def;
	unsigned mask = components_read(def);
	if (!mask || (unsigned)__builtin_popcount(mask) == def->num_components)
		return false;
	uint8_t remap[16], keep[16];
	unsigned n;
	compact(mask, remap, keep, &n);
	if (is_vec(alu->op)) {
		if (n != 1 && n != 2 && n != 3 && n != 4)
			return false;
		struct alu_instr *v = alu_instr_create(s, vec_op(n));
		for (unsigned k = 0; k < n; k++) {
			src_init(&v->src[k].src, &v->instr, alu->src[keep[k]].src.ssa);
			v->src[k].swizzle[0] = alu->src[keep[k]].swizzle[0];
		}
		ssa_def_init(&v->instr, &v->def, n, def->bit_size);
		instr_insert(cursor_before_instr(&alu->instr), &v->instr);
		reswizzle(def, remap);
		ssa_def_rewrite_uses(def, &v->def);
		instr_remove(&alu->instr);
		return true;
	}
	if (info->output_size)
		return false;	/* horizontal */
	for (unsigned i = 0; i < info->num_inputs; i++) {
		if (info->input_sizes[i])
			return false;
		uint8_t sw[16];
		for (unsigned k = 0; k < n; k++)
			sw[k] = alu->src[i].swizzle[keep[k]];
		for (unsigned k = 0; k < 16; k++)
			alu->src[i].swizzle[k] = k < n ? sw[k] : sw[n - 1];
	}
	reswizzle(def, remap);
	def->num_components = (uint8_t)n;
	return true;
}

/* A constant: the components read, each value once. */
static bool shrink_const(struct shader *s, struct load_const_instr *lc)
{
	struct ssa_def *def = &lc->def;
	unsigned mask = components_read(def);
	if (!mask || def->num_components == 1)
		return false;
	uint8_t remap[16] = { 0 };
	uint64_t v[16];
	unsigned n = 0;
	for (unsigned k = 0; k < def->num_components; k++) {
		if (!(mask & (1u << k)))
			continue;
		unsigned j = 0;
		while (j < n && v[j] != lc->value[k])
			j++;
		if (j == n)
			v[n++] = lc->value[k];
		remap[k] = (uint8_t)j;
	}
	if (n == def->num_components || (n != 1 && n != 2 && n != 3 && n != 4))
		return false;
	struct builder b;
	builder_init(&b, s, cursor_before_instr(&lc->instr));
	struct ssa_def *c = b_const(&b, n, def->bit_size, v);
	reswizzle(def, remap);
	ssa_def_rewrite_uses(def, c);
	instr_remove(&lc->instr);
	return true;
}

static bool trailing_load(enum intrinsic op)
{
	return op == INTR_load_uniform || op == INTR_load_push_constant || op == INTR_load_ubo ||
	       op == INTR_load_input;
}

/* Loads: the components up to the last one read. */
static bool shrink_trailing(struct ssa_def *def, uint8_t *num_components)
{
	unsigned mask = components_read(def);
	if (!ssa_def_has_uses(def))
		return false;
	unsigned n = mask ? 32 - (unsigned)__builtin_clz(mask) : 0;
	if (!n || n >= def->num_components)
		return false;
	def->num_components = (uint8_t)n;
	*num_components = (uint8_t)n;
	return true;
}

bool opt_shrink_vectors(struct shader *s)
{
	bool progress = false;
	foreach_block_reverse(b, s->fn)
		foreach_instr_reverse_safe(in, b) {
			switch (in->type) {
			case INSTR_alu:
				progress |= shrink_alu(s, instr_as_alu(in));
				break;
			case INSTR_load_const:
				progress |= shrink_const(s, instr_as_load_const(in));
				break;
			case INSTR_intrinsic: {
				struct intrinsic_instr *intr = instr_as_intrinsic(in);
				if (trailing_load(intr->op))
					progress |= shrink_trailing(&intr->def, &intr->num_components);
				break;
			}
			default:
				break;
			}
		}
	return shader_progress(s, progress, META_CONTROL_FLOW);
}
