/*
 * cat6 in the simulator: loads, stores and atomics on the memories the
 * interpreter has, with its layouts and bounds (INTERP.md "Memory"): out
 * of bounds a read gives 0, a write is dropped, an atomic returns 0.
 *
 *	IBO slot n (ldib, stib, atomic.b, resinfo)  SSBO n below the first image
 *	                                            slot (iface image_ibo), offsets
 *	                                            in units of the access (a6xx), else
 *	                                            image n - image_ibo
 *	ldgb/stgb (a3xx–a5xx)                       SSBO n, byte offsets
 *	ldg, stg, atomic.g (addresses)              global memory at in->global_base,
 *	                                            UBO n at SIM_UBO_BASE + n·2^20
 *	ldl, stl, ldlw, stlw, atomic              local (shared) memory
 *	ldp/stp                                     private memory, per fibre
 *	ldc                                         UBO n, vec4 offset + component
 *	stc                                         the const file (the preamble)
 *
 * Shared and private memory start poison; helper fibres (demoted) do not
 * store and their atomics return poison.
 */
#include "compiler/ir3/sim/sim_priv.h"

#include <string.h>

#define SIM_UBO_BASE 0x10000000u
#define SIM_UBO_STRIDE 0x100000u
#define SIM_PRIV_SIZE 65536u

static void mem_init(struct srun *r, struct smem *m, uint8_t *data, uint8_t *tags, uint32_t size,
		     uint64_t base)
{
	m->size = size;
	m->base = base;
	m->data = data;
	m->tags = tags;
	m->writer = arena_array(&r->arena, uint32_t, (size_t)size + 1);
}

static void mem_fresh(struct srun *r, struct smem *m, uint32_t size, bool poison)
{
	uint8_t *data = arena_array(&r->arena, uint8_t, (size_t)size + 1);
	uint8_t *tags = arena_alloc(&r->arena, (size_t)size + 1);
	memset(tags, poison ? INTERP_TAG_POISON : 0, size);
	mem_init(r, m, data, tags, size, 0);
}

void sim_mem_region(struct srun *r, struct smem *m, uint32_t size, uint64_t base, bool poison)
{
	mem_fresh(r, m, size, poison);
	m->base = base;
}

void sim_mem_setup(struct srun *r)
{
	const struct interp_inputs *in = r->in;
	struct interp_result *res = r->res;
	const struct ir3_iface *f = r->sim->f;
	r->nssbo = res->num_ssbos;
	r->ssbo = arena_array(&r->arena, struct smem, r->nssbo + 1);
	for (unsigned k = 0; k < r->nssbo; k++)
		mem_init(r, &r->ssbo[k], res->ssbo[k].data, res->ssbo[k].tags, res->ssbo[k].size, 0);
	mem_init(r, &r->global, res->global.data, res->global.tags, res->global.size,
		 in->global_base);
	unsigned shared = f->shared_size > r->sim->ir->shared_size ? f->shared_size
								   : r->sim->ir->shared_size;
	mem_fresh(r, &r->shared, shared, true);
	r->nubo = in->num_ubos;
	int cd = f->layout.const_data_slot;
	if (cd >= 0 && (unsigned)cd + 1 > r->nubo)
		r->nubo = (unsigned)cd + 1;
	r->ubo = arena_array(&r->arena, struct smem, r->nubo + 1);
	for (unsigned k = 0; k < r->nubo; k++) {
		struct smem *m = &r->ubo[k];
		bool is_cd = (int)k == cd;
		uint32_t size = is_cd ? f->layout.const_data_size : k < in->num_ubos ? in->ubo[k].size : 0;
		mem_fresh(r, m, size, false);
		if (is_cd && f->const_data)
			memcpy(m->data, f->const_data, size);
		else if (k < in->num_ubos)
			memcpy(m->data, in->ubo[k].data, size);
		m->base = SIM_UBO_BASE + (uint64_t)k * SIM_UBO_STRIDE;
		m->read_only = true;
	}
	r->priv = arena_array(&r->arena, struct smem, r->nf + 1);
}

void sim_mem_finish(struct srun *r)
{
	(void)r;	/* SSBOs, global memory and images are the result's own */
}

/* ---- regions ---- */

/* The region and offset of a global address, or NULL. */
static struct smem *at_address(struct srun *r, uint64_t addr, uint64_t *off)
{
	struct smem *regions[3] = { &r->global, &r->tess_param, &r->tess_factor };
	for (unsigned k = 0; k < 3; k++)
		if (regions[k]->data && addr >= regions[k]->base &&
		    addr - regions[k]->base < regions[k]->size) {
			*off = addr - regions[k]->base;
			return regions[k];
		}
	for (unsigned k = 0; k < r->nubo; k++)
		if (addr >= r->ubo[k].base && addr - r->ubo[k].base < SIM_UBO_STRIDE) {
			*off = addr - r->ubo[k].base;
			return &r->ubo[k];
		}
	return NULL;
}

static struct smem *priv_of(struct srun *r, unsigned f)
{
	struct smem *m = &r->priv[f];
	if (!m->data)
		mem_fresh(r, m, SIM_PRIV_SIZE, true);
	return m;
}

/* Read `bytes` bytes (1, 2 or 4) at `off`: 0 out of bounds. */
static struct sval mem_read(const struct smem *m, uint64_t off, unsigned bytes)
{
	struct sval v = { 0 };
	if (!m || off > m->size || m->size - off < bytes)
		return v;
	for (unsigned k = 0; k < bytes; k++) {
		v.bits |= (uint32_t)m->data[off + k] << (8 * k);
		v.poison |= m->tags[off + k] & INTERP_TAG_POISON;
	}
	return v;
}

static void mem_write(struct srun *r, struct smem *m, uint64_t off, unsigned bytes, struct sval v,
		      uint32_t pc)
{
	if (!m || m->read_only || off > m->size || m->size - off < bytes)
		return;
	(void)r;
	for (unsigned k = 0; k < bytes; k++) {
		m->data[off + k] = (uint8_t)(v.bits >> (8 * k));
		m->tags[off + k] = (v.poison ? INTERP_TAG_POISON : 0) | INTERP_TAG_WRITTEN;
		m->writer[off + k] = pc + 1;
	}
}

/* ---- operands ---- */

static const struct ir3_instruction *instr_at(struct srun *r, uint32_t pc)
{
	return r->sim->prog[pc].i;
}

static unsigned type_bytes(enum ir3_type t)
{
	switch (t) {
	case TYPE_U8: case TYPE_S8: return 1;
	case TYPE_F16: case TYPE_U16: case TYPE_S16: return 2;
	default: return 4;
	}
}

/* Scalar source n (element e) of the instruction for fibre f; poison
 * goes to *poison. */
static uint32_t opnd(struct srun *r, uint32_t pc, unsigned f, unsigned n, unsigned e, bool *poison)
{
	struct sval v = sim_read(r, pc, f, instr_at(r, pc)->srcs[n], e);
	*poison |= v.poison;
	return v.bits;
}

/* An address in a register pair (a5xx+: two dwords, before: one). */
static uint64_t address(struct srun *r, uint32_t pc, unsigned f, unsigned n, bool *poison)
{
	uint64_t lo = opnd(r, pc, f, n, 0, poison);
	if (ir3_reg_elems(instr_at(r, pc)->srcs[n]) < 2)
		return lo;
	return lo | (uint64_t)opnd(r, pc, f, n, 1, poison) << 32;
}

static unsigned count_of(const struct ir3_instruction *i, unsigned n)
{
	return n < i->nsrc && (i->srcs[n]->flags & IR3_REG_IMMED) ? i->srcs[n]->uim : 1;
}

/* A store or atomic at an undefined address: the run is undefined. */
static void undefined_address(struct srun *r, uint32_t pc)
{
	struct strbuf sb = STRBUF_INIT;
	sim_print_instr(&sb, r->sim, pc);
	sim_stop(r, "%s accesses memory at an undefined address", sb.buf);
	strbuf_release(&sb);
}

static void load_to(struct srun *r, uint32_t pc, unsigned f, const struct smem *m, uint64_t off,
		    unsigned n, bool addr_poison)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	unsigned bytes = type_bytes(i->type);
	for (unsigned k = 0; k < n; k++) {
		struct sval v = addr_poison ? (struct sval){ 0, true, 0 } : mem_read(m, off + k * bytes, bytes);
		if (i->type == TYPE_S8 && !v.poison)
			v.bits = (uint32_t)(int32_t)(int8_t)v.bits;
		else if (i->type == TYPE_S16 && !v.poison)
			v.bits = (uint32_t)(int32_t)(int16_t)v.bits;
		sim_write(r, pc, f, i->dsts[0], k, v);
	}
}

static void store_from(struct srun *r, uint32_t pc, unsigned f, struct smem *m, uint64_t off,
		       unsigned vsrc, unsigned n)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	unsigned bytes = type_bytes(i->type);
	if (r->demoted[f])
		return;
	for (unsigned k = 0; k < n; k++) {
		struct sval v = sim_read(r, pc, f, i->srcs[vsrc], k);
		mem_write(r, m, off + k * bytes, bytes, v, pc);
	}
}

/* ---- the IBO: SSBOs, then images ---- */

static struct smem *ssbo(struct srun *r, uint32_t slot)
{
	return slot < r->nssbo ? &r->ssbo[slot] : NULL;
}

static const struct resource_decl *image_decl(struct srun *r, unsigned slot)
{
	return shader_find_resource(r->sim->s->images, r->sim->s->num_images, slot);
}

/* An image access: the texel of the coordinates in source n, -1 outside. */
static int64_t image_texel(struct srun *r, uint32_t pc, unsigned f, unsigned slot, unsigned n,
			   bool *poison)
{
	const struct resource_decl *d = image_decl(r, slot);
	if (!d || slot >= r->in->num_images)
		return -1;
	uint64_t co[4] = { 0, 0, 0, 0 };
	unsigned nc = ir3_reg_elems(instr_at(r, pc)->srcs[n]);
	for (unsigned k = 0; k < nc && k < 4; k++)
		co[k] = opnd(r, pc, f, n, k, poison);
	unsigned dims = image_dim_coords(d->dim) + d->is_array;
	uint64_t sample = d->is_ms && nc > dims ? co[dims] : 0;
	return interp_image_texel(&r->in->image[slot], d->dim, d->is_array, co, sample, 0);
}

static void image_touch(struct srun *r, unsigned slot)
{
	struct interp_image *im = &r->res->image[slot];
	if (im->texels)
		return;
	size_t n = (size_t)im->num_texels * 4;
	im->texels = arena_array(&r->res->arena, uint64_t, n + 1);
	im->tags = arena_alloc(&r->res->arena, n + 1);
	memset(im->tags, 0xff, n);
}

static struct sval image_read(struct srun *r, unsigned slot, int64_t texel, unsigned k,
			      unsigned bits)
{
	const struct interp_image *im = &r->res->image[slot];
	size_t x = (size_t)texel * 4 + k;
	if (!im->texels || im->tags[x] == 0xff) {
		const struct resource_decl *d = image_decl(r, slot);
		bool is_float = d && d->type == BASE_float;
		return (struct sval){ (uint32_t)interp_image_model(&r->in->image[slot], slot, texel, k,
								   is_float, bits), false, 0 };
	}
	return (struct sval){ (uint32_t)im->texels[x], im->tags[x] & INTERP_TAG_POISON, 0 };
}

static void image_write(struct srun *r, unsigned slot, int64_t texel, unsigned k, struct sval v,
			unsigned bits)
{
	image_touch(r, slot);
	struct interp_image *im = &r->res->image[slot];
	im->texels[(size_t)texel * 4 + k] = v.bits & (bits >= 32 ? UINT32_MAX : (1u << bits) - 1);
	im->tags[(size_t)texel * 4 + k] = v.poison ? INTERP_TAG_POISON : 0;
	im->written = true;
}

/* The IBO slot of source 0 (an immediate or a register). */
static uint32_t ibo_slot(struct srun *r, uint32_t pc, unsigned f, bool *poison)
{
	return opnd(r, pc, f, 0, 0, poison);
}

static void exec_ldib(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	bool p = false;
	uint32_t slot = ibo_slot(r, pc, f, &p);
	unsigned base = r->sim->f->image_ibo, n = ir3_reg_elems(i->dsts[0]);
	if (slot < base || i->opc == OPC_LDGB) {
		uint64_t off = opnd(r, pc, f, 1, 0, &p) + (uint64_t)i->off;	/* + the immediate */
		load_to(r, pc, f, ssbo(r, slot), i->opc == OPC_LDGB ? off : off * type_bytes(i->type), n, p);
		return;
	}
	slot -= base;
	int64_t texel = image_texel(r, pc, f, slot, 1, &p);
	unsigned bits = (i->dsts[0]->flags & IR3_REG_HALF) ? 16 : 32;
	for (unsigned k = 0; k < n; k++) {
		struct sval v = { 0, p, 0 };
		if (!p && texel >= 0 && k < 4)
			v = image_read(r, slot, texel, k, bits);
		sim_write(r, pc, f, i->dsts[0], k, v);
	}
}

static void exec_stib(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	bool p = false;
	uint32_t slot = ibo_slot(r, pc, f, &p);
	unsigned base = r->sim->f->image_ibo, n = ir3_reg_elems(i->srcs[2]);
	if (slot < base || i->opc == OPC_STGB) {
		uint64_t off = opnd(r, pc, f, 1, 0, &p) + (uint64_t)i->off;	/* + the immediate */
		if (p) {
			undefined_address(r, pc);
			return;
		}
		store_from(r, pc, f, ssbo(r, slot), i->opc == OPC_STGB ? off : off * type_bytes(i->type),
			   2, n);
		return;
	}
	slot -= base;
	int64_t texel = image_texel(r, pc, f, slot, 1, &p);
	if (p) {
		undefined_address(r, pc);
		return;
	}
	if (texel < 0 || r->demoted[f])
		return;
	unsigned bits = type_bytes(i->type) * 8;
	for (unsigned k = 0; k < n && k < 4; k++)
		image_write(r, slot, texel, k, sim_read(r, pc, f, i->srcs[2], k), bits);
}

/* resinfo: an SSBO's size in bytes (a5xx: low and high 16 bits), an
 * image's size at level 0 and its samples last. */
static void exec_resinfo(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	bool p = false;
	uint32_t slot = ibo_slot(r, pc, f, &p);
	unsigned base = r->sim->f->image_ibo, n = ir3_reg_elems(i->dsts[0]);
	uint32_t v[4] = { 0, 0, 0, 0 };
	if (slot < base) {
		uint32_t size = slot < r->nssbo ? r->ssbo[slot].size : 0;
		if (r->sim->t->ibo_ssbo) {
			v[0] = size;
		} else {
			v[0] = size & 0xffff;
			v[1] = size >> 16;
		}
	} else if (slot - base < r->in->num_images && image_decl(r, slot - base)) {
		const struct interp_texture *t = &r->in->image[slot - base];
		const struct resource_decl *d = image_decl(r, slot - base);
		unsigned nd = d->dim == DIM_cube ? 2 : image_dim_coords(d->dim);
		for (unsigned k = 0; k < 3; k++)
			v[k] = k < nd ? t->size[k] : k == nd && d->is_array ? t->layers : 0;
		v[3] = t->samples;
	}
	for (unsigned k = 0; k < n && k < 4; k++)
		sim_write(r, pc, f, i->dsts[0], k, (struct sval){ v[k], p, 0 });
}

/* ---- atomics ---- */

static enum atomic_op atomic_op_of(const struct ir3_instruction *i, enum ir3_opc base)
{
	bool fl = i->type == TYPE_F32 || i->type == TYPE_F16;
	bool sg = i->type == TYPE_S32 || i->type == TYPE_S16;
	switch (i->opc - base) {
	case 0: return fl ? ATOMIC_fadd : ATOMIC_iadd;
	case 1: return ATOMIC_xchg;
	case 2: return fl ? ATOMIC_fcmpxchg : ATOMIC_cmpxchg;
	case 3: return fl ? ATOMIC_fmin : sg ? ATOMIC_imin : ATOMIC_umin;
	case 4: return fl ? ATOMIC_fmax : sg ? ATOMIC_imax : ATOMIC_umax;
	case 5: return ATOMIC_iand;
	case 6: return ATOMIC_ior;
	default: return ATOMIC_ixor;
	}
}

/* An atomic on 4 bytes of `m` at `off`; the data (or compare, data) is
 * source `dsrc`. */
/* A u64 atomic: (low, high) pairs in the data source, the comparand's
 * first for cmpxchg; the old value to the two destination registers. */
static void atomic64_at(struct srun *r, uint32_t pc, unsigned f, struct smem *m, uint64_t off,
			enum atomic_op op, unsigned dsrc)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	if (off > m->size || m->size - off < 8) {
		for (unsigned e = 0; e < 2; e++)
			sim_write(r, pc, f, i->dsts[0], e, (struct sval){ 0 });
		return;
	}
	bool dp = false;
	unsigned d = op == ATOMIC_cmpxchg ? 2 : 0;
	uint64_t cmp = d ? opnd(r, pc, f, dsrc, 0, &dp) | (uint64_t)opnd(r, pc, f, dsrc, 1, &dp) << 32
			 : 0;
	uint64_t data = opnd(r, pc, f, dsrc, d, &dp) | (uint64_t)opnd(r, pc, f, dsrc, d + 1, &dp) << 32;
	struct sval lo = mem_read(m, off, 4), hi = mem_read(m, off + 4, 4);
	uint64_t nv = interp_atomic_new(op, 64, lo.bits | (uint64_t)hi.bits << 32, cmp, data);
	bool p = lo.poison || hi.poison || dp;
	mem_write(r, m, off, 4, (struct sval){ (uint32_t)nv, p, 0 }, pc);
	mem_write(r, m, off + 4, 4, (struct sval){ (uint32_t)(nv >> 32), p, 0 }, pc);
	sim_write(r, pc, f, i->dsts[0], 0, lo);
	sim_write(r, pc, f, i->dsts[0], 1, hi);
}

static void atomic_at(struct srun *r, uint32_t pc, unsigned f, struct smem *m, uint64_t off,
		      enum atomic_op op, unsigned dsrc, bool addr_poison)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	if (addr_poison) {
		undefined_address(r, pc);
		return;
	}
	if (r->demoted[f]) {
		sim_write(r, pc, f, i->dsts[0], 0, (struct sval){ 0, true, 0 });
		return;
	}
	if (!m || off > m->size || m->size - off < 4) {
		sim_write(r, pc, f, i->dsts[0], 0, (struct sval){ 0 });
		return;
	}
	bool swap = op == ATOMIC_cmpxchg || op == ATOMIC_fcmpxchg;
	bool dp = false;
	if (i->type == TYPE_ATOMIC_U64) {
		atomic64_at(r, pc, f, m, off, op, dsrc);
		return;
	}
	uint32_t cmp = swap ? opnd(r, pc, f, dsrc, 0, &dp) : 0;
	uint32_t data = opnd(r, pc, f, dsrc, swap ? 1 : 0, &dp);
	struct sval old = mem_read(m, off, 4);
	uint64_t nv = interp_atomic_new(op, 32, old.bits, cmp, data);
	mem_write(r, m, off, 4, (struct sval){ (uint32_t)nv, old.poison || dp, 0 }, pc);
	sim_write(r, pc, f, i->dsts[0], 0, old);
}

static void exec_atomic(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	bool p = false;
	if (ir3_has_flag(i, IR3_OP_LOCAL)) {
		uint64_t off = opnd(r, pc, f, 0, 0, &p);
		atomic_at(r, pc, f, &r->shared, off, atomic_op_of(i, OPC_ATOMIC_ADD), 1, p);
		return;
	}
	if (i->opc >= OPC_ATOMIC_G_ADD && i->opc <= OPC_ATOMIC_G_XOR) {
		uint64_t off = 0, addr = address(r, pc, f, 0, &p);
		struct smem *m = at_address(r, addr, &off);
		atomic_at(r, pc, f, m && !m->read_only ? m : NULL, off,
			  atomic_op_of(i, OPC_ATOMIC_G_ADD), 1, p);
		return;
	}
	uint32_t slot = ibo_slot(r, pc, f, &p);
	enum atomic_op op = atomic_op_of(i, OPC_ATOMIC_B_ADD);
	unsigned base = r->sim->f->image_ibo;
	if (slot < base) {
		uint64_t off = opnd(r, pc, f, 1, 0, &p);
		atomic_at(r, pc, f, ssbo(r, slot), r->sim->t->ibo_ssbo ? off * 4 : off, op, 2, p);
		return;
	}
	/* an image atomic on the texel's first component */
	slot -= base;
	int64_t texel = image_texel(r, pc, f, slot, 1, &p);
	if (p) {
		undefined_address(r, pc);
		return;
	}
	if (r->demoted[f] || texel < 0) {
		sim_write(r, pc, f, i->dsts[0], 0, (struct sval){ 0, r->demoted[f], 0 });
		return;
	}
	bool swap = op == ATOMIC_cmpxchg || op == ATOMIC_fcmpxchg, dp = false;
	uint32_t cmp = swap ? opnd(r, pc, f, 2, 0, &dp) : 0;
	uint32_t data = opnd(r, pc, f, 2, swap ? 1 : 0, &dp);
	struct sval old = image_read(r, slot, texel, 0, 32);
	uint64_t nv = interp_atomic_new(op, 32, old.bits, cmp, data);
	image_write(r, slot, texel, 0, (struct sval){ (uint32_t)nv, old.poison || dp, 0 }, 32);
	sim_write(r, pc, f, i->dsts[0], 0, old);
}

/* ---- the rest ---- */

/* shfl: the value of another fibre of the wave (off: 0 absolute, 1 xor,
 * 2 up, 3 down); an inactive or absent one gives poison. */
static struct sval shfl_value(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	const struct swave *w = r->wave;
	bool p = false;
	uint32_t idx = opnd(r, pc, f, 1, 0, &p), me = f - w->first, from;
	switch (i->off) {
	case 1: from = me ^ idx; break;
	case 2: from = me - idx; break;
	case 3: from = me + idx; break;
	default: from = idx; break;
	}
	if (p || from >= w->count || !r->active[w->first + from])
		return (struct sval){ 0, true, 0 };
	return sim_read(r, pc, w->first + from, i->srcs[0], 0);
}

static void exec_ldc(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	bool p = false;
	uint32_t vec4 = opnd(r, pc, f, 0, 0, &p), slot = opnd(r, pc, f, 1, 0, &p);
	const struct smem *m = slot < r->nubo ? &r->ubo[slot] : NULL;
	load_to(r, pc, f, m, (uint64_t)vec4 * 16 + (uint64_t)i->off * 4, ir3_reg_elems(i->dsts[0]), p);
}

static void exec_stc(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	bool p = false;
	uint32_t at = opnd(r, pc, f, 0, 0, &p);
	if (i->nsrc > 2)
		at += opnd(r, pc, f, 2, 0, &p);	/* a1.x */
	for (unsigned k = 0; k < ir3_reg_elems(i->srcs[1]) && at + k < SIM_CONSTS; k++) {
		struct sval v = sim_read(r, pc, f, i->srcs[1], k);
		r->consts[at + k] = v.bits;
		r->const_set[at + k] = !v.poison && !p;
	}
}

static void exec_one(struct srun *r, uint32_t pc, unsigned f)
{
	const struct ir3_instruction *i = instr_at(r, pc);
	bool p = false;
	uint64_t off = 0;
	struct smem *m;
	switch (i->opc) {
	case OPC_LDG:
		m = at_address(r, address(r, pc, f, 0, &p) + opnd(r, pc, f, 1, 0, &p), &off);
		load_to(r, pc, f, m, off, count_of(i, 2), p);
		return;
	case OPC_LDG_A:
		m = at_address(r, address(r, pc, f, 0, &p) +
				  (r->sim->t->ldg_a_bytes ? 1 : 4) * (uint64_t)opnd(r, pc, f, 1, 0, &p), &off);
		load_to(r, pc, f, m, off, count_of(i, 2), p);
		return;
	case OPC_STG: case OPC_STG_A: {
		uint64_t o = opnd(r, pc, f, 1, 0, &p);
		m = at_address(r, address(r, pc, f, 0, &p) +
				  (i->opc == OPC_STG_A && !r->sim->t->ldg_a_bytes ? 4 * o : o), &off);
		if (p)
			undefined_address(r, pc);
		else
			store_from(r, pc, f, m, off, 2, count_of(i, 3));
		return;
	}
	case OPC_LDL: case OPC_LDLW:
		off = (uint64_t)opnd(r, pc, f, 0, 0, &p) + opnd(r, pc, f, 1, 0, &p);
		load_to(r, pc, f, &r->shared, off, count_of(i, 2), p);
		return;
	case OPC_STL: case OPC_STLW:
		off = (uint64_t)opnd(r, pc, f, 0, 0, &p) + (uint64_t)(int64_t)i->off;
		if (p)
			undefined_address(r, pc);
		else
			store_from(r, pc, f, &r->shared, off, 1, count_of(i, 2));
		return;
	case OPC_LDP:	/* a 32-bit address: the signed immediate wraps */
		off = (uint32_t)(opnd(r, pc, f, 0, 0, &p) + opnd(r, pc, f, 1, 0, &p));
		load_to(r, pc, f, priv_of(r, f), off, count_of(i, 2), p);
		return;
	case OPC_STP:
		off = (uint32_t)(opnd(r, pc, f, 0, 0, &p) + (uint32_t)i->off);
		if (p)
			undefined_address(r, pc);
		else
			store_from(r, pc, f, priv_of(r, f), off, 1, count_of(i, 2));
		return;
	case OPC_LDIB: case OPC_LDGB: exec_ldib(r, pc, f); return;
	case OPC_ISAM:	/* IR3_INSTR_SSBO: SSBO `tex` at the element src0.x */
		load_to(r, pc, f, ssbo(r, i->tex),
			((uint64_t)opnd(r, pc, f, 0, 0, &p) + (uint64_t)i->off) * type_bytes(i->type),
			ir3_reg_elems(i->dsts[0]), p);
		return;
	case OPC_STIB: case OPC_STGB: exec_stib(r, pc, f); return;
	case OPC_LDC: exec_ldc(r, pc, f); return;
	case OPC_STC: exec_stc(r, pc, f); return;
	case OPC_RESINFO: exec_resinfo(r, pc, f); return;
	case OPC_GETFIBERID:
		sim_write(r, pc, f, i->dsts[0], 0, (struct sval){ f - r->wave->first, false, 0 });
		return;
	default:
		if (ir3_has_flag(i, IR3_OP_ATOMIC)) {
			exec_atomic(r, pc, f);
			return;
		}
		sim_error(r, "the simulator does not run %s", ir3_op(i->opc)->name);
		return;
	}
}

void sim_exec_mem(struct srun *r, uint32_t pc)
{
	const struct swave *w = r->wave;
	/* shfl reads other fibres' sources: every fibre reads before any writes */
	if (instr_at(r, pc)->opc == OPC_SHFL) {
		struct sval *v = arena_array(&r->arena, struct sval, w->count);
		for (unsigned f = w->first; f < w->first + w->count; f++)
			if (r->active[f])
				v[f - w->first] = shfl_value(r, pc, f);
		for (unsigned f = w->first; f < w->first + w->count; f++)
			if (r->active[f])
				sim_write(r, pc, f, instr_at(r, pc)->dsts[0], 0, v[f - w->first]);
		return;
	}
	for (unsigned f = w->first; f < w->first + w->count && !r->stop; f++)
		if (r->active[f])
			exec_one(r, pc, f);
}
