/*
 * Instruction selection for etnaviv, shared by its files (etna_isel.c: the
 * driver, values, phi webs and control flow; etna_isel_alu.c: ALU ops and
 * constants; etna_isel_intr.c: intrinsics and textures).  Not for use
 * outside compiler/etna.
 *
 * What an IR value is to selection (struct isel_def, by SSA index):
 *  - CONST   its components are uniform-file words (constants, uniforms,
 *            texture sizes, UBO addresses, tagged as Mesa's etna_compile
 *            tags them): read through const_src, never in a register;
 *  - TEMP    a machine value (etna.h) it is read from, component k of the
 *            IR value being component k of the machine value;
 *  - POS     the fragment position, t0;
 *  - FACE    the front-face flag (the internal register);
 *  - BYPASS  a mov read through: its source with the mov's swizzle (Mesa's
 *            BYPASS_SRC, for movs only textures read).
 * An instruction whose result only feeds a vecN or a mov writes straight
 * into the vecN's (the mov's) machine value: `into` says which and `wr`
 * which of the IR result's components lands in each value component
 * (Mesa's real_def; such a result is never read by itself).
 */
#ifndef SHDB_ETNA_ISEL_H
#define SHDB_ETNA_ISEL_H

#include "compiler/etna/etna_nir.h"
#include "compiler/etna/etna_ra.h"
#include "compiler/util/strbuf.h"

enum isel_kind { ISEL_NONE, ISEL_CONST, ISEL_TEMP, ISEL_POS, ISEL_FACE, ISEL_BYPASS };

#define ISEL_NO_COMP 0xff

struct isel_def {
	uint8_t kind;			/* enum isel_kind */
	uint8_t num_components;
	unsigned value;			/* TEMP: the machine value */
	uint64_t c[4];			/* CONST: tagged uniform-file words */
	/* where the defining instruction writes (TEMP results) */
	unsigned into;			/* the machine value written */
	uint8_t wr[4];			/* by value component: IR component, or ISEL_NO_COMP */
	bool bypassed;			/* written into a vecN's or mov's value */
	bool dead;			/* selection emits nothing for it */
	bool written_through;		/* a source writes into its value (BYPASS_DST) */
	unsigned set;			/* phi webs: union-find parent (SSA index) */
	bool web;			/* a phi, or merged with one */
	struct etna_instr *first_writer;	/* for the class of the value */
};

/* A location several vertex outputs write parts of (other components):
 * one register, handed on after its last store. */
struct out_slot {
	int location;
	unsigned value;			/* ETNA_NO_VALUE until the first store */
	unsigned written;		/* channels stored so far */
	unsigned stores;		/* stores still to come */
};

struct isel {
	struct shader *ir;
	struct etna_shader *s;
	const struct etna_info *t;
	struct strbuf *err;
	bool failed;
	struct isel_def *d;		/* by SSA index */
	struct etna_block **blocks;	/* by IR block index */
	struct etna_block *cur;		/* where instructions go */
	unsigned *ubo_base;		/* HALTI0, by UBO slot: its first uniform dword */
	unsigned *input_first;		/* by input declaration: its first entry in input_reg */
	unsigned *input_reg;		/* by input slot: its register, or ~0 */
	unsigned input_slots;		/* entries in input_reg */
	unsigned point_coord_slot;	/* FS: gl_PointCoord's register, or ~0 */
	unsigned num_inputs;		/* input registers */
	bool *out_shared;		/* by output declaration: shares its location */
	struct out_slot *out_slots;	/* the shared locations: one register each */
	unsigned num_out_slots;
	unsigned cull_offset;		/* FS: the cull distances' first element in the
					   compact clip/cull array (the clip
					   distances' declared size) */
};

__attribute__((format(printf, 2, 3)))
void esel_error(struct isel *c, const char *fmt, ...);

static inline struct isel_def *isel_def(struct isel *c, const struct ssa_def *def)
{
	return &c->d[def->index];
}

/* The register of a location several vertex outputs share, when `def` is
 * stored there whole and nowhere else (its components from *comp), or
 * ETNA_NO_VALUE. */
unsigned esel_shared_output_value(struct isel *c, const struct ssa_def *def, unsigned *comp);
struct etna_instr *esel_emit(struct isel *c, enum etna_opc opc);
/* The destination of `def`'s instruction: its own value or the one it is
 * written into. */
void esel_dst(struct isel *c, struct etna_instr *in, const struct ssa_def *def);
/* A source reading `def` through `swiz` (channel → IR component). */
struct etna_src esel_src(struct isel *c, const struct ssa_def *def, const uint8_t *swiz);
/* Mesa's const_src: an immediate (HALTI2+, one constant component) or a
 * vec4 of the uniform file, words deduplicated per component. */
struct etna_src esel_const_src(struct isel *c, const uint64_t *v, unsigned n,
			       const uint8_t *swiz);
/* A new machine value for `def`'s own result. */
unsigned esel_own_value(struct isel *c, const struct ssa_def *def);

void esel_alu(struct isel *c, struct alu_instr *alu);
/* Mesa's lower_alu for vecN: the movs of the sources that cannot write
 * into the vector themselves. */
void esel_vec(struct isel *c, struct alu_instr *alu);
void esel_intrinsic(struct isel *c, struct intrinsic_instr *intr);
void esel_tex(struct isel *c, struct tex_instr *tex);
/* Inputs and the uniform file (etna_isel_intr.c): input registers, which
 * loads are uniform-file words; after emission, the I/O counts. */
void esel_intrinsics_classify(struct isel *c);
/* Before HALTI5: lod/bias packed with the coordinate (changes the IR). */
void esel_pack_tex(struct isel *c);
void esel_finish_io(struct isel *c);
/* Analysis before emission (etna_isel_alu.c): which values are constants,
 * which vecN sources need movs, which results write into a vecN or mov. */
void esel_classify(struct isel *c);
void esel_real_defs(struct isel *c);
/* Whether `alu` folds a fneg/fabs source into a modifier (Mesa's
 * etna_nir_lower_to_source_mods): the source read, the modifiers. */
const struct ssa_def *esel_src_mods(const struct alu_instr *alu, unsigned i, uint8_t *swiz,
				   bool *neg, bool *abs);

#endif
