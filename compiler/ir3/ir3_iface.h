/*
 * The program's interface as instruction selection made it: what each
 * input register, varying location and output of the machine program
 * holds in terms of the shader's declarations, and the const-file layout.
 * The hardware learns the same from the driver's state (VFD, VPC, the const
 * upload); the simulator (compiler/ir3/sim) reads it to bind the
 * interpreter's inputs to registers and to read the outputs back.
 *
 *	META_INPUT %2.xy    IR3_IFACE_IJ, ij ISEL_IJ_PERSP_PIXEL
 *	META_INPUT %5.xyz   IR3_IFACE_ATTR, decl 1, elem 0, comp 0
 *	bary.f %7, 4, %2    varyings[4] = { decl 0, elem 1, comp 0 }
 *	end  %9 (src n)     outputs[n] = { .x: decl 2 elem 0, .y: decl 3 elem 0,
 *	                                   slot -1 }
 *
 * Outputs are in the order selection gave `end` its sources, one per
 * location (the declarations at one location share its vector, each its
 * components); a750's alias.rt takes constant colour outputs out of `end`
 * (their `slot`, rtN.c, finds them again), the rest keep their order.
 * Names are for humans: the disassembly's declarations (ir3_disasm.c) say
 * what a register holds.
 */
#ifndef SHDB_IR3_IFACE_H
#define SHDB_IR3_IFACE_H

#include "compiler/ir3/ir3_nir.h"

enum ir3_iface_kind {
	IR3_IFACE_ATTR,			/* a stage input's components */
	IR3_IFACE_SYSVAL,		/* a system value the hardware delivers */
	IR3_IFACE_IJ,			/* FS barycentrics (enum isel_ij) */
};

struct ir3_iface_input {
	const struct ir3_instruction *instr;	/* its META_INPUT */
	const char *name;		/* for the listing: vPos, vUV[2], ij_persp_pixel, … */
	enum ir3_iface_kind kind;
	unsigned decl, elem, comp;	/* ATTR: declaration, array element, first component */
	enum intrinsic sysval;		/* SYSVAL: the intrinsic that reads it */
	unsigned ij;			/* IJ: the kind */
};

/* A varying location (inloc) of a fragment shader. */
struct ir3_iface_varying {
	int decl;			/* the input declaration; -1: gl_PointCoord; -2: none */
	unsigned elem, comp;		/* array element, component in the slot (absolute) */
	const char *name;		/* for the listing, or NULL (none) */
};

struct ir3_iface_comp {
	int decl;			/* the output declaration, -1: none */
	unsigned elem;			/* its array element */
	unsigned comp;			/* the component of that element's value */
};

struct ir3_iface_output {
	struct ir3_iface_comp comp[4];	/* what each component of the vector is */
	int slot;			/* rtN.c of a colour output, else -1 */
	const char *name;		/* for the listing */
};

struct ir3_iface {
	struct ir3_iface_input *inputs;
	unsigned num_inputs;
	struct ir3_iface_varying *varyings;	/* by inloc */
	unsigned num_varyings;
	struct ir3_iface_output *outputs;	/* by `end` source, as selected */
	unsigned num_outputs;
	struct ir3_const_layout layout;
	const uint8_t *const_data;	/* the constant data UBO's bytes (layout.const_data_slot) */
	unsigned scratch_size;		/* bytes of private memory per fibre the lowering asked */
	unsigned shared_size;		/* bytes of local memory the lowered shader uses */
	unsigned image_ibo;		/* the IBO slot of image 0: SSBOs come first */
};

#endif
