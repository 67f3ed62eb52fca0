/*
 * The builder: emit instructions at a cursor, NIR-builder style.
 *
 *	struct builder b;
 *	builder_init(&b, s, cursor_after_block(function_start_block(s->fn)));
 *	struct ssa_def *x = b_load_input(&b, 4, 32, 0, 0, b_imm_int(&b, 0));
 *	struct ssa_def *y = b_fmul(&b, x, b_imm_float(&b, 2.0));
 *	struct cf_if *nif = b_push_if(&b, b_flt(&b, b_channel(&b, y, 0), b_imm_float(&b, 0)));
 *	    b_discard(&b);
 *	b_pop_if(&b, nif);
 *	b_store_output(&b, y, 0, 0, 0xf, b_imm_int(&b, 0));
 *
 * Every instruction goes in at b->cursor, which then moves after it.  ALU
 * builders b_<op>() exist for every opcode of alu_ops.def.  Per-component
 * ops take the widest source's component count; one-component sources are
 * broadcast.  An unsized result takes the bit size of the first unsized
 * source.  b->exact marks new ALU instructions exact.
 */
#ifndef SHDB_IR_BUILDER_H
#define SHDB_IR_BUILDER_H

#include "compiler/ir/ir.h"

struct builder {
	struct shader *shader;
	struct cursor cursor;
	bool exact;
	bool mediump;			/* ALU instructions built are alu_instr.mediump */
};

void builder_init(struct builder *b, struct shader *s, struct cursor c);
/* At the end of the function (the last block of its body). */
void builder_init_at_end(struct builder *b, struct shader *s);
/* Insert an instruction built by hand. */
void b_insert(struct builder *b, struct instr *instr);

/* ---- ALU ---- */
struct ssa_def *b_alu(struct builder *b, enum alu_op op, struct ssa_def *s0, struct ssa_def *s1,
		      struct ssa_def *s2, struct ssa_def *s3);
/* Any number of sources (vec8, vec16). */
struct ssa_def *b_alu_n(struct builder *b, enum alu_op op, struct ssa_def *const *srcs);

#define UNOP(n, ...) \
	static inline struct ssa_def *b_##n(struct builder *b, struct ssa_def *x) \
	{ return b_alu(b, OP_##n, x, NULL, NULL, NULL); }
#define BINOP(n, ...) \
	static inline struct ssa_def *b_##n(struct builder *b, struct ssa_def *x, struct ssa_def *y) \
	{ return b_alu(b, OP_##n, x, y, NULL, NULL); }
#define TRIOP(n, ...) \
	static inline struct ssa_def *b_##n(struct builder *b, struct ssa_def *x, struct ssa_def *y, \
					    struct ssa_def *z) \
	{ return b_alu(b, OP_##n, x, y, z, NULL); }
#define QUADOP(n, ...) \
	static inline struct ssa_def *b_##n(struct builder *b, struct ssa_def *x, struct ssa_def *y, \
					    struct ssa_def *z, struct ssa_def *w) \
	{ return b_alu(b, OP_##n, x, y, z, w); }
#define HORIZ1(n, ...) UNOP(n)
#define HORIZ2(n, ...) BINOP(n)
#include "compiler/ir/alu_ops.def"

/* vecN from scalars (n = 1 returns srcs[0]); vec2..vec4 spelled out. */
struct ssa_def *b_vec(struct builder *b, struct ssa_def *const *srcs, unsigned n);
struct ssa_def *b_vec2(struct builder *b, struct ssa_def *x, struct ssa_def *y);
struct ssa_def *b_vec3(struct builder *b, struct ssa_def *x, struct ssa_def *y, struct ssa_def *z);
struct ssa_def *b_vec4(struct builder *b, struct ssa_def *x, struct ssa_def *y, struct ssa_def *z,
		       struct ssa_def *w);
/* One component, or a swizzle of `n` components, as a mov. */
struct ssa_def *b_channel(struct builder *b, struct ssa_def *def, unsigned c);
struct ssa_def *b_swizzle(struct builder *b, struct ssa_def *def, const unsigned *swizzle,
			  unsigned n);

/* ---- constants ---- */
struct ssa_def *b_const(struct builder *b, unsigned num_components, unsigned bit_size,
			const uint64_t *values);
struct ssa_def *b_imm_intN(struct builder *b, int64_t v, unsigned bit_size);
struct ssa_def *b_imm_floatN(struct builder *b, double v, unsigned bit_size);
static inline struct ssa_def *b_imm_int(struct builder *b, int64_t v) { return b_imm_intN(b, v, 32); }
static inline struct ssa_def *b_imm_float(struct builder *b, double v) { return b_imm_floatN(b, v, 32); }
struct ssa_def *b_imm_bool(struct builder *b, bool v);
struct ssa_def *b_imm_vec4(struct builder *b, double x, double y, double z, double w);
struct ssa_def *b_undef(struct builder *b, unsigned num_components, unsigned bit_size);

/* ---- intrinsics ---- */

/*
 * A generic intrinsic: `num_components` is the variable size (of the result
 * or of a variable-size source), `bit_size` that of the result (0: the only
 * size the table allows, else 32).  Indices the intrinsic lacks are ignored;
 * a zero write_mask means every component.  Returns the instruction.
 */
struct intrinsic_instr *b_intrinsic(struct builder *b, enum intrinsic op,
				    unsigned num_components, unsigned bit_size,
				    struct ssa_def *const *srcs, const struct intr_indices *idx);
/* The same returning the result (NULL without one):
 *	b_intr(b, load_ubo, 4, 32, (slot, offset), .align_mul = 16)	*/
#define b_intr(b, name, comps, bits, srcs, ...) \
	b_intrinsic_def_((b), INTR_##name, (comps), (bits), \
			 (struct ssa_def *const[]){ NULL, UNPAREN srcs } + 1, \
			 &(struct intr_indices){ __VA_ARGS__ })
struct ssa_def *b_intrinsic_def_(struct builder *b, enum intrinsic op, unsigned num_components,
				 unsigned bit_size, struct ssa_def *const *srcs,
				 const struct intr_indices *idx);

/* A system value (load_frag_coord, load_vertex_id …). */
struct ssa_def *b_sysval(struct builder *b, enum intrinsic op);
struct ssa_def *b_load_input(struct builder *b, unsigned comps, unsigned bits, unsigned base,
			     unsigned component, struct ssa_def *offset);
void b_store_output(struct builder *b, struct ssa_def *value, unsigned base, unsigned component,
		    unsigned write_mask, struct ssa_def *offset);
struct ssa_def *b_load_local(struct builder *b, unsigned local, unsigned base,
			     struct ssa_def *offset);
void b_store_local(struct builder *b, struct ssa_def *value, unsigned local, unsigned base,
		   unsigned write_mask, struct ssa_def *offset);
struct ssa_def *b_load_ubo(struct builder *b, unsigned comps, unsigned bits, struct ssa_def *slot,
			   struct ssa_def *offset);
void b_discard(struct builder *b);
void b_discard_if(struct builder *b, struct ssa_def *cond);

/* ---- textures ---- */
struct tex_desc {
	enum tex_op op;
	enum image_dim dim;
	bool is_array, is_shadow, is_sparse;
	enum base_type dest_type;	/* 0 (none): float */
	unsigned texture, sampler;
	uint8_t component;
	unsigned bit_size;		/* 0: 32 */
};
struct tex_src_desc {
	enum tex_src_type type;
	struct ssa_def *def;
};
/* A tex instruction with the result size the validator expects. */
struct ssa_def *b_tex(struct builder *b, const struct tex_desc *d,
		      const struct tex_src_desc *srcs, unsigned num_srcs);
/* Components of a tex instruction's result, from its op and fields. */
unsigned tex_dest_components(const struct tex_instr *tex);

/* ---- phis and control flow ---- */

/* A phi at the top of `block` (after its other phis); add sources with
 * phi_add_src(). */
struct phi_instr *b_phi(struct builder *b, struct block *block, unsigned num_components,
			unsigned bit_size);
/* After b_pop_if: a phi merging a value from each branch. */
struct ssa_def *b_if_phi(struct builder *b, struct cf_if *nif, struct ssa_def *then_def,
			 struct ssa_def *else_def);

/* if (cond) { [cursor] } else { } — b_push_else moves the cursor into the
 * else branch, b_pop_if after the if. */
struct cf_if *b_push_if(struct builder *b, struct ssa_def *cond);
void b_push_else(struct builder *b, struct cf_if *nif);
void b_pop_if(struct builder *b, struct cf_if *nif);
struct cf_loop *b_push_loop(struct builder *b);
void b_pop_loop(struct builder *b, struct cf_loop *loop);
void b_jump(struct builder *b, enum jump_type type);
static inline void b_break(struct builder *b) { b_jump(b, JUMP_break); }
static inline void b_continue(struct builder *b) { b_jump(b, JUMP_continue); }
static inline void b_return(struct builder *b) { b_jump(b, JUMP_return); }

/*
 * Replace intrinsics (Mesa's nir_shader_intrinsics_pass): `fn` is called
 * for each intrinsic with a builder placed before it and returns the value
 * that replaces its result — the intrinsic is then removed — or NULL to
 * keep it.  Returns whether anything was replaced; the caller reports the
 * progress (shader_progress) with what it preserved.
 */
typedef struct ssa_def *(*b_intrinsic_lower_fn)(struct builder *b, struct intrinsic_instr *intr,
						 void *data);
bool b_lower_intrinsics(struct shader *s, b_intrinsic_lower_fn fn, void *data);
/* The same for ALU instructions (nir_shader_lower_instructions on ALU):
 * the builder is exact where the instruction is. */
typedef struct ssa_def *(*b_alu_lower_fn)(struct builder *b, struct alu_instr *alu,
					   const void *data);
bool b_lower_alus(struct shader *s, b_alu_lower_fn fn, const void *data);

#endif
