/*
 * What the interpreter's files share (interp.c, interp_mem.c, interp_tex.c,
 * interp_lanes.c): the run context and value access.  Not for users: see
 * interp.h.
 *
 * Values: every SSA value has, per lane, num_components raw words in
 * c->vals and one tag word in c->tags: bits 0–15 say which components are
 * poison, bits 16–31 which were computed as floats, bits 32–47 which are
 * float zeros whose sign float_relaxed leaves open.
 */
#ifndef SHDB_IR_INTERP_PRIV_H
#define SHDB_IR_INTERP_PRIV_H

#include "compiler/ir/interp.h"

typedef uint64_t tagword;
#define TAGW_POISON_ALL 0xffffu
#define TAGW_FLOAT_SHIFT 16
#define TAGW_SZERO_SHIFT 32

enum lane_state {
	LS_RUNNING,
	LS_BROKE,			/* left the innermost loop: back after it */
	LS_CONTINUED,			/* back at the next iteration */
	LS_RETURNED,
	LS_TERMINATED,			/* discard / terminate */
};

struct lane {
	uint8_t state;
	bool demoted;			/* a helper: runs on, but has no side effect */
	struct block *pred;		/* the block it ran last (for phis) */
};

/* A region of memory the run reads and writes: bytes and per-byte tags. */
struct mem {
	uint8_t *data, *tags;
	uint32_t size;
};

struct image_state {
	const struct interp_texture *model;
	uint32_t num_texels;
	uint64_t *texels;		/* 4 per texel; NULL until first touched */
	uint8_t *tags;
	bool written;
};

/* The lanes an instruction runs on. */
struct lanes {
	unsigned n;
	unsigned *l;
};

struct ictx {
	struct shader *s;
	const struct interp_inputs *in;
	struct interp_result *res;
	struct arena arena;		/* the run's scratch, freed at the end */
	unsigned nl;			/* lanes */
	struct lane *lane;
	uint64_t *vals;
	size_t *off;			/* by SSA index: first word in vals */
	tagword *tags;			/* [index][lane] */

	/* memory */
	struct mem *ssbo;		/* res->ssbo, as struct mem */
	struct mem global, shared;
	struct mem preamble;		/* the ir3 preamble's stores (dwords by base) */
	struct mem *scratch;		/* per lane */
	uint64_t **local_vals;		/* per local decl: [lane][element][comp] */
	uint8_t **local_tags;
	struct image_state *image;
	bool shared_outputs;		/* TCS and mesh: one set of outputs */

	uint64_t steps, step_limit;
	bool spirv_undef;		/* interp_options.spirv_undef */
	unsigned relaxed_bits;		/* float_relaxed: IR_BITS_ of sizes relaxed */
	bool stop;			/* a verdict was reached: unwind */
	bool lanes_changed;		/* a lane stopped inside the current block */
	uint8_t *in_map;		/* per lane: runs the current instruction */
	bool in_map_valid;
};


static inline uint64_t *ival(struct ictx *c, const struct ssa_def *d, unsigned l)
{
	return c->vals + c->off[d->index] + (size_t)l * d->num_components;
}

static inline tagword *itag(struct ictx *c, const struct ssa_def *d, unsigned l)
{
	return &c->tags[(size_t)d->index * c->nl + l];
}

static inline bool ipoison(struct ictx *c, const struct ssa_def *d, unsigned l, unsigned comp)
{
	return (*itag(c, d, l) >> comp) & 1;
}

/* Whether any component of a value is poison for lane l. */
static inline bool ipoison_any(struct ictx *c, const struct ssa_def *d, unsigned l)
{
	return (*itag(c, d, l) & ((1u << d->num_components) - 1)) != 0;
}

static inline uint64_t imask(unsigned bits)
{
	return bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

static inline int64_t isext(uint64_t v, unsigned bits)
{
	if (bits >= 64)
		return (int64_t)v;
	uint64_t sign = (uint64_t)1 << (bits - 1);
	v &= imask(bits);
	return (int64_t)((v ^ sign) - sign);
}

/* The tag bits of component k. */
static inline tagword itag_bits(unsigned k)
{
	return (tagword)1 << k | (tagword)1 << (k + TAGW_FLOAT_SHIFT) |
	       (tagword)1 << (k + TAGW_SZERO_SHIFT);
}

/* Set component k of a value for lane l, with its tags. */
static inline void iput(struct ictx *c, const struct ssa_def *d, unsigned l, unsigned k,
			uint64_t v, bool poison, bool is_float)
{
	ival(c, d, l)[k] = v & imask(d->bit_size);
	tagword *t = itag(c, d, l);
	*t &= ~itag_bits(k);
	*t |= (tagword)poison << k | (tagword)is_float << (k + TAGW_FLOAT_SHIFT);
}

/* The same from a memory tag byte (INTERP_TAG_*). */
static inline void iput_mem(struct ictx *c, const struct ssa_def *d, unsigned l, unsigned k,
			    uint64_t v, uint8_t tag)
{
	iput(c, d, l, k, v, tag & INTERP_TAG_POISON, tag & INTERP_TAG_FLOAT);
	if ((tag & INTERP_TAG_FLOAT) && (tag & INTERP_TAG_SZERO))
		*itag(c, d, l) |= (tagword)1 << (k + TAGW_SZERO_SHIFT);
}

/* Component k's tags as a memory tag byte. */
static inline uint8_t itag_mem(struct ictx *c, const struct ssa_def *d, unsigned l, unsigned k)
{
	tagword t = *itag(c, d, l);
	return interp_mem_tag(t >> k & 1, t >> (k + TAGW_FLOAT_SHIFT) & 1, d->bit_size) |
	       (t >> (k + TAGW_SZERO_SHIFT) & 1 ? INTERP_TAG_SZERO : 0);
}

static inline void iput_poison(struct ictx *c, const struct ssa_def *d, unsigned l)
{
	for (unsigned k = 0; k < d->num_components; k++)
		iput(c, d, l, k, 0, true, false);
}

/* Scalar source `i` of an intrinsic for lane l (component 0). */
static inline uint64_t isrc(struct ictx *c, const struct intrinsic_instr *intr, unsigned i,
			    unsigned l)
{
	return ival(c, intr->src[i].ssa, l)[0];
}

/* The verdicts: stop the run with a status and a message. */
PRINTF_LIKE(2, 3) void interp_undefined(struct ictx *c, const char *fmt, ...);
PRINTF_LIKE(2, 3) void interp_error(struct ictx *c, const char *fmt, ...);


/* interp_mem.c */
void interp_mem_setup(struct ictx *c);
bool interp_exec_memory(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls);
void interp_mem_finish(struct ictx *c);
/* interp_tex.c */
void interp_exec_tex(struct ictx *c, struct tex_instr *tex, const struct lanes *ls);
/* interp_newer.c */
bool interp_exec_newer(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls);
/* interp_lanes.c */
bool interp_exec_cross_lane(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls);
/* Whether lane `l` runs the current instruction (is in `ls`). */
bool interp_lane_in(struct ictx *c, const struct lanes *ls, unsigned l);

#endif
