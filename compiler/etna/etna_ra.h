/*
 * The virtual register classes of etnaviv (../../shared/reference/targets.md
 * §4.3, Mesa's etnaviv_compiler_nir_ra.c; the patch of
 * ../../shared/reference/seeds/etnaviv-virtual-register-classes.txt).
 *
 * Each of the 64 vec4 temporaries carries 22 virtual registers, one per
 * shape a value can take in it:
 *
 *	VEC4                      xyzw
 *	VEC3  (4)                 xyz xyw xzw yzw
 *	VEC2  (6)                 xy xz xw yz yw zw
 *	SCALAR (4)                x y z w
 *	VEC2T (2) fast div/log/sin/cos    xy zw
 *	VEC2C (3) LOAD, contiguous        xy yz zw
 *	VEC3C (2) LOAD, contiguous        xyz yzw
 *
 * Virtual register r = base × 22 + type.  Two virtual registers conflict
 * when they share a base and their write masks intersect, so a VEC3 xyz and
 * a SCALAR w of one temporary hold two values at once.  A value of class C
 * is read through etna_reg_swiz[type] and written through
 * etna_reg_writemask[type] and etna_reg_dst_swiz[type].
 */
#ifndef SHDB_ETNA_RA_H
#define SHDB_ETNA_RA_H

#include <stdint.h>

#include "compiler/etna/etna.h"

#define ETNA_MAX_TEMPS 64

enum etna_reg_type {
	ETNA_REG_VEC4,
	ETNA_REG_VEC3_XYZ, ETNA_REG_VEC3_XYW, ETNA_REG_VEC3_XZW, ETNA_REG_VEC3_YZW,
	ETNA_REG_VEC2_XY, ETNA_REG_VEC2_XZ, ETNA_REG_VEC2_XW, ETNA_REG_VEC2_YZ,
	ETNA_REG_VEC2_YW, ETNA_REG_VEC2_ZW,
	ETNA_REG_SCALAR_X, ETNA_REG_SCALAR_Y, ETNA_REG_SCALAR_Z, ETNA_REG_SCALAR_W,
	ETNA_REG_VEC2T_XY, ETNA_REG_VEC2T_ZW,
	ETNA_REG_VEC2C_XY, ETNA_REG_VEC2C_YZ, ETNA_REG_VEC2C_ZW,
	ETNA_REG_VEC3C_XYZ, ETNA_REG_VEC3C_YZW,
	ETNA_NUM_REG_TYPES,
};

/* Channels a type occupies (as a destination write mask). */
extern const uint8_t etna_reg_writemask[ETNA_NUM_REG_TYPES];
/* Reading a value of this type: its component k is channel swiz[k]. */
extern const uint8_t etna_reg_swiz[ETNA_NUM_REG_TYPES][4];
/* Writing it: channel p takes the value's component dst_swiz[p]. */
extern const uint8_t etna_reg_dst_swiz[ETNA_NUM_REG_TYPES][4];
extern const uint8_t etna_reg_class[ETNA_NUM_REG_TYPES];
extern const char *const etna_reg_class_names[ETNA_NUM_CLASSES];
/* Mesa's q_values[B][C] (etnaviv_compiler_nir_ra.c), in class order. */
extern const unsigned etna_q_values[ETNA_NUM_CLASSES][ETNA_NUM_CLASSES];

/* Input registers: the type of an input of `num_components` components
 * from channel `component` of its register (component + num_components
 * <= 4: the declaration's channels). */
enum etna_reg_type etna_input_type(unsigned component, unsigned num_components);

/* The register set: 64 banks of the 22 types, the conflicts of
 * overlapping write masks, the 7 classes; `q` NULL computes the q table
 * from the conflicts (tests compare it with Mesa's), else Mesa's table. */
struct ra_regs *etna_ra_regs_create(const unsigned *q);

static inline unsigned etna_vreg(unsigned base, enum etna_reg_type t)
{
	return base * ETNA_NUM_REG_TYPES + (unsigned)t;
}
static inline enum etna_reg_type etna_vreg_type(unsigned vreg)
{
	return (enum etna_reg_type)(vreg % ETNA_NUM_REG_TYPES);
}
/* The physical temporary of a virtual register: a fragment shader's are
 * one higher (t0 holds the position), wrapping, as Mesa's reg_get_base. */
static inline unsigned etna_vreg_base(unsigned vreg, enum shader_stage stage)
{
	unsigned base = vreg / ETNA_NUM_REG_TYPES;
	return stage == STAGE_FRAGMENT ? (base + 1) % ETNA_MAX_TEMPS : base;
}

/* Mesa's REG_FRAG_DEPTH: r63.z, which wraps to t0.z in a fragment shader. */
#define ETNA_VREG_FRAG_DEPTH etna_vreg(ETNA_MAX_TEMPS - 1, ETNA_REG_SCALAR_Z)

#endif
