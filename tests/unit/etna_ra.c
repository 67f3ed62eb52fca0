/*
 * The virtual register classes of the etnaviv model (compiler/etna/etna_ra.h)
 * and its allocator on small programs built by hand: each of the 22 shapes
 * and 7 classes, which shapes overlap, the q table recomputed from the
 * conflicts (Mesa's etna_q.py) against Mesa's hard-coded one, p, the
 * swizzles that read and write each shape, and allocations where values of
 * different sizes share temporaries or must not.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/etna/etna_ra.h"
#include "compiler/util/register_allocate.h"
#include "compiler/target.h"
#include "tap.h"

static unsigned popcount(unsigned x)
{
	return (unsigned)__builtin_popcount(x);
}

/* Components per class (VEC2T/VEC2C: 2, VEC3C: 3). */
static unsigned class_size(unsigned c)
{
	static const unsigned n[ETNA_NUM_CLASSES] = { 1, 2, 3, 4, 2, 2, 3 };
	return n[c];
}

static void test_shapes(void)
{
	unsigned per_class[ETNA_NUM_CLASSES] = { 0 };
	for (unsigned t = 0; t < ETNA_NUM_REG_TYPES; t++) {
		unsigned c = etna_reg_class[t], m = etna_reg_writemask[t];
		per_class[c]++;
		ok(popcount(m) == class_size(c), "type %u (%s): its mask has %u channels", t,
		   etna_reg_class_names[c], class_size(c));
		/* reading component k reads the k-th channel of the mask */
		for (unsigned k = 0, ch = 0; ch < 4; ch++)
			if (m & (1u << ch)) {
				ok(etna_reg_swiz[t][k] == ch && etna_reg_dst_swiz[t][ch] == k,
				   "type %u: component %u is channel %u, read and written", t, k, ch);
				k++;
			}
	}
	static const unsigned want[ETNA_NUM_CLASSES] = { 4, 6, 4, 1, 2, 3, 2 };
	for (unsigned c = 0; c < ETNA_NUM_CLASSES; c++)
		is_int(per_class[c], want[c], "class %s has %u shapes per temporary",
		       etna_reg_class_names[c], want[c]);
	/* the special classes: XY or ZW, contiguous runs */
	ok(etna_reg_writemask[ETNA_REG_VEC2T_XY] == 0x3 && etna_reg_writemask[ETNA_REG_VEC2T_ZW] == 0xc,
	   "VEC2T is xy or zw");
	ok(etna_reg_writemask[ETNA_REG_VEC2C_YZ] == 0x6 && etna_reg_writemask[ETNA_REG_VEC3C_YZW] == 0xe,
	   "VEC2C/VEC3C are contiguous");
}

static void test_regset(void)
{
	struct ra_regs *computed = etna_ra_regs_create(NULL);
	struct ra_regs *mesa = etna_ra_regs_create(&etna_q_values[0][0]);
	is_int(ra_regs_count(computed), 64 * 22, "64 temporaries of 22 virtual registers");
	bool same = true;
	for (unsigned b = 0; b < ETNA_NUM_CLASSES; b++)
		for (unsigned c = 0; c < ETNA_NUM_CLASSES; c++)
			if (ra_class_q(computed, b, c) != etna_q_values[b][c]) {
				same = false;
				tap_diag("q(%s, %s): computed %u, Mesa %u", etna_reg_class_names[b],
					 etna_reg_class_names[c], ra_class_q(computed, b, c),
					 etna_q_values[b][c]);
			}
	ok(same, "the q table computed from the conflicts is Mesa's q_values");
	static const unsigned p[ETNA_NUM_CLASSES] = { 256, 384, 256, 64, 128, 192, 128 };
	for (unsigned c = 0; c < ETNA_NUM_CLASSES; c++)
		is_int(ra_class_p(mesa, c), p[c], "p(%s) = %u", etna_reg_class_names[c], p[c]);
	/* overlap: same temporary and intersecting masks */
	ok(!ra_regs_conflict(mesa, etna_vreg(3, ETNA_REG_VEC3_XYZ), etna_vreg(3, ETNA_REG_SCALAR_W)),
	   "VEC3 xyz and SCALAR w of one temporary hold two values");
	ok(ra_regs_conflict(mesa, etna_vreg(3, ETNA_REG_VEC2_XZ), etna_vreg(3, ETNA_REG_VEC2_YZ)),
	   "VEC2 xz and yz overlap on z");
	ok(!ra_regs_conflict(mesa, etna_vreg(3, ETNA_REG_VEC2_XY), etna_vreg(3, ETNA_REG_VEC2_ZW)),
	   "VEC2 xy and zw share a temporary");
	ok(ra_regs_conflict(mesa, etna_vreg(3, ETNA_REG_VEC4), etna_vreg(3, ETNA_REG_SCALAR_Y)),
	   "a VEC4 takes the whole temporary");
	ok(!ra_regs_conflict(mesa, etna_vreg(3, ETNA_REG_VEC4), etna_vreg(4, ETNA_REG_VEC4)),
	   "different temporaries never conflict");
	ok(ra_regs_conflict(mesa, etna_vreg(5, ETNA_REG_VEC2T_ZW), etna_vreg(5, ETNA_REG_VEC3C_YZW)),
	   "VEC2T zw and VEC3C yzw overlap");
	/* a fragment shader's temporaries are one higher: t0 holds the position */
	is_int(etna_vreg_base(etna_vreg(0, ETNA_REG_VEC4), STAGE_FRAGMENT), 1, "FS base 0 is t1");
	is_int(etna_vreg_base(etna_vreg(0, ETNA_REG_VEC4), STAGE_VERTEX), 0, "VS base 0 is t0");
	is_int(etna_vreg_base(ETNA_VREG_FRAG_DEPTH, STAGE_FRAGMENT), 0, "FS depth wraps to t0");
	is_int(etna_vreg_type(ETNA_VREG_FRAG_DEPTH), ETNA_REG_SCALAR_Z, "… in .z");
	ra_regs_free(computed);
	ra_regs_free(mesa);
}

/* ---- allocation of small programs built by hand ---- */

struct prog {
	struct arena arena;
	struct etna_shader *s;
	struct etna_block *b;
};

static void prog_init(struct prog *p, enum shader_stage stage)
{
	arena_init(&p->arena);
	p->s = etna_shader_create(&p->arena, stage, target_find("gc7000")->etna);
	p->b = etna_block_create(p->s);
}

/* `mov %v.mask, 0.0`: a writer of a new value of n components reading no
 * other value. */
static unsigned def(struct prog *p, unsigned n)
{
	unsigned v = etna_value_create(p->s, n);
	struct etna_instr *in = etna_instr_create(p->b, ETNA_OP_mov);
	in->dst = (struct etna_dst){ .file = ETNA_FILE_TEMP, .value = v,
				     .mask = (uint8_t)((1u << n) - 1), .map = { 0, 1, 2, 3 } };
	in->src[2] = (struct etna_src){ .file = ETNA_FILE_IMMED, .value = ETNA_NO_VALUE };
	return v;
}

/* An instruction reading values a and b (keeps them live to here). */
static void use2(struct prog *p, unsigned a, unsigned b)
{
	struct etna_instr *in = etna_instr_create(p->b, ETNA_OP_texkill);
	in->src[0] = (struct etna_src){ .file = ETNA_FILE_TEMP, .value = a, .swiz = { 0, 0, 0, 0 } };
	in->src[1] = (struct etna_src){ .file = ETNA_FILE_TEMP, .value = b, .swiz = { 0, 0, 0, 0 } };
}

static unsigned allocate(struct prog *p)
{
	struct strbuf err = STRBUF_INIT;
	bool fine = etna_ra(p->s, &err);
	if (!fine)
		tap_diag("%s", err.buf);
	struct strbuf verr = STRBUF_INIT;
	etna_finish(p->s);
	if (fine && !etna_verify_regs(p->s, &verr)) {
		tap_diag("verifier: %s", verr.buf);
		fine = false;
	}
	strbuf_release(&err);
	strbuf_release(&verr);
	return fine ? p->s->num_temps : 0;
}

static void prog_release(struct prog *p)
{
	etna_shader_release(p->s);
	arena_release(&p->arena);
}

/* Two values live at once: how many temporaries they take. */
static unsigned pair(unsigned n1, unsigned n2)
{
	struct prog p;
	prog_init(&p, STAGE_VERTEX);
	unsigned a = def(&p, n1), b = def(&p, n2);
	use2(&p, a, b);
	unsigned t = allocate(&p);
	prog_release(&p);
	return t;
}

static void test_allocation(void)
{
	is_int(pair(3, 1), 1, "a vec3 and a scalar share one temporary (xyz + w)");
	is_int(pair(2, 2), 1, "two vec2 share one temporary (xy + zw)");
	is_int(pair(1, 1), 1, "two scalars share one temporary");
	is_int(pair(4, 1), 2, "a vec4 and a scalar need two");
	is_int(pair(3, 2), 2, "a vec3 and a vec2 need two");

	/* four scalars and a vec3 live together: x y z w of one temporary and
	 * a second for the vec3 */
	struct prog p;
	prog_init(&p, STAGE_VERTEX);
	unsigned v[5];
	for (unsigned i = 0; i < 4; i++)
		v[i] = def(&p, 1);
	v[4] = def(&p, 3);
	for (unsigned i = 0; i < 5; i++)
		use2(&p, v[i], v[(i + 1) % 5]);
	is_int(allocate(&p), 2, "four scalars and a vec3: two temporaries");
	prog_release(&p);

	/* values that do not overlap in time reuse the register */
	prog_init(&p, STAGE_VERTEX);
	unsigned a = def(&p, 4);
	use2(&p, a, a);
	unsigned b = def(&p, 4);
	use2(&p, b, b);
	is_int(allocate(&p), 1, "a vec4 dead before the next is written: one temporary");
	prog_release(&p);

	/* a fragment shader counts t0 */
	prog_init(&p, STAGE_FRAGMENT);
	a = def(&p, 2);
	use2(&p, a, a);
	is_int(allocate(&p), 2, "FS: one value in t1, t0 counted: 2 temps");
	prog_release(&p);

	/* a precoloured input keeps its register */
	prog_init(&p, STAGE_VERTEX);
	unsigned in = etna_value_create(p.s, 4);
	p.s->values.data[in].forced = (int)etna_vreg(5, ETNA_REG_VEC4);
	p.s->values.data[in].live_in = true;
	struct etna_instr *i = etna_instr_create(p.b, ETNA_OP_input);
	i->dst = (struct etna_dst){ .file = ETNA_FILE_TEMP, .value = in, .mask = 0xf,
				    .map = { 0, 1, 2, 3 } };
	a = def(&p, 4);
	use2(&p, in, a);
	is_int(allocate(&p), 6, "an input precoloured to t5: 6 temps");
	prog_release(&p);
}

int main(void)
{
	test_shapes();
	test_regset();
	test_allocation();
	return done_testing();
}
