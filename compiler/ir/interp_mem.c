/*
 * The interpreter's memory: uniforms and push constants, UBOs, SSBOs,
 * shared, global and scratch memory (bytes, little-endian), local
 * variables, and storage images.
 *
 * Bounds (INTERP.md): each component of an access is checked on its own.
 * Out of bounds in a buffer, in shared, global or scratch memory: a read
 * gives 0, a write is dropped, an atomic returns 0 and changes nothing
 * (robustBufferAccess2); a UBO load past the end is poison where the
 * inputs say the machine does not check (ubo_unchecked), a push constant or
 * uniform load past the end always (they have no robustness).  A descriptor slot past the declared ones (an
 * array indexed out of bounds) is undefined: a read poison, a write or an
 * atomic undefined behaviour.  Locals: an
 * out-of-range read is poison, an out-of-range write undefined behaviour.
 * A store to an undefined address is undefined behaviour; a load from one
 * is poison.  Helper lanes (demoted) neither store nor do atomics; their
 * atomics return poison.  Shared and scratch memory and locals start
 * poison; buffers hold the inputs.
 */
#include <string.h>

#include "compiler/ir/interp_priv.h"

static void mem_init(struct ictx *c, struct mem *m, uint32_t size, const uint8_t *data,
		     bool poison)
{
	struct arena *a = &c->res->arena;
	m->size = size;
	m->data = arena_alloc(a, (size_t)size + 1);
	m->tags = arena_alloc(a, (size_t)size + 1);
	if (data)
		memcpy(m->data, data, size);
	else
		memset(m->data, 0, size);
	memset(m->tags, poison ? INTERP_TAG_POISON : 0, size);
}

/* The depth of a texel layer: a cube's six faces, a 3D image's slices. */
static uint32_t image_depth(const struct interp_texture *t, enum image_dim dim)
{
	return dim == DIM_cube ? 6 : dim == DIM_3d ? t->size[2] : 1;
}

void interp_mem_setup(struct ictx *c)
{
	const struct interp_inputs *in = c->in;
	struct shader *s = c->s;
	struct interp_result *r = c->res;
	r->num_ssbos = in->num_ssbos;
	r->ssbo = arena_array(&r->arena, struct interp_memory, in->num_ssbos + 1);
	c->ssbo = arena_array(&c->arena, struct mem, in->num_ssbos + 1);
	for (unsigned i = 0; i < in->num_ssbos; i++)
		mem_init(c, &c->ssbo[i], in->ssbo[i].size, in->ssbo[i].data, false);
	mem_init(c, &c->global, in->global.size, in->global.data, false);
	uint32_t shared = s->info.shared_size > in->shared.size ? s->info.shared_size : in->shared.size;
	mem_init(c, &c->shared, shared, NULL, true);
	mem_init(c, &c->preamble, 4 * 4 * 512, NULL, true);	/* a const file */
	if (in->shared.size) {
		memcpy(c->shared.data, in->shared.data, in->shared.size);
		memset(c->shared.tags, 0, in->shared.size);
	}
	c->scratch = arena_array(&c->arena, struct mem, c->nl);
	for (unsigned l = 0; l < c->nl && s->info.scratch_size; l++)
		mem_init(c, &c->scratch[l], s->info.scratch_size, NULL, true);

	c->local_vals = arena_array(&c->arena, uint64_t *, s->num_locals + 1);
	c->local_tags = arena_array(&c->arena, uint8_t *, s->num_locals + 1);
	for (unsigned i = 0; i < s->num_locals; i++) {
		size_t n = (size_t)c->nl * s->locals[i]->num_elements * s->locals[i]->num_components;
		c->local_vals[i] = arena_array(&c->arena, uint64_t, n + 1);
		c->local_tags[i] = arena_alloc(&c->arena, n + 1);
		memset(c->local_tags[i], INTERP_TAG_POISON, n);
	}

	r->num_images = in->num_images;
	r->image = arena_array(&r->arena, struct interp_image, in->num_images + 1);
	c->image = arena_array(&c->arena, struct image_state, in->num_images + 1);
	for (unsigned i = 0; i < in->num_images; i++) {
		const struct interp_texture *t = &in->image[i];
		c->image[i].model = t;
		/* a cube's layer is six faces (image_depth()), which size[2] does not count */
		const struct resource_decl *d = shader_find_resource(s->images, s->num_images, i);
		c->image[i].num_texels = t->size[0] * t->size[1] *
					 image_depth(t, d ? d->dim : DIM_2d) * t->layers * t->samples;
	}
}

void interp_mem_finish(struct ictx *c)
{
	struct interp_result *r = c->res;
	for (unsigned i = 0; i < r->num_ssbos; i++)
		r->ssbo[i] = (struct interp_memory){ c->ssbo[i].size, c->ssbo[i].data, c->ssbo[i].tags };
	r->global = (struct interp_memory){ c->global.size, c->global.data, c->global.tags };
	for (unsigned i = 0; i < r->num_images; i++) {
		struct image_state *im = &c->image[i];
		r->image[i] = (struct interp_image){ im->written, im->num_texels, im->texels, im->tags };
	}
}

/* ---- bytes ---- */

/* Read `bits` bits at `offset` of a region (tags NULL: defined, not float);
 * returns their tag: poison if a byte is, a float if every byte holds
 * part of one of that size (with an open sign if every byte says so).  Out
 * of bounds: 0,
 * defined. */
static uint8_t mem_read(const uint8_t *data, const uint8_t *tags, uint64_t size, uint64_t offset,
			unsigned bits, uint64_t *val)
{
	unsigned n = bits / 8;
	*val = 0;
	if (offset > size || size - offset < n)
		return 0;
	uint8_t want = interp_mem_tag(false, true, bits), poison = 0;
	bool flt = tags != NULL, szero = tags != NULL;
	for (unsigned i = 0; i < n; i++) {
		*val |= (uint64_t)data[offset + i] << (8 * i);
		if (tags) {
			poison |= tags[offset + i] & INTERP_TAG_POISON;
			flt &= (tags[offset + i] & INTERP_TAG_FLOAT) == want;
			szero &= (tags[offset + i] & INTERP_TAG_SZERO) != 0;
		}
	}
	return poison | (flt ? want | (szero ? INTERP_TAG_SZERO : 0) : 0);
}

static void mem_write(struct mem *m, uint64_t offset, unsigned bits, uint64_t val, uint8_t tag)
{
	unsigned n = bits / 8;
	if (offset > m->size || m->size - offset < n)
		return;
	for (unsigned i = 0; i < n; i++) {
		m->data[offset + i] = (uint8_t)(val >> (8 * i));
		m->tags[offset + i] = tag | INTERP_TAG_WRITTEN;
	}
}


/* Load every component of `def` from a region at byte `addr`. */
static void load_vec(struct ictx *c, const struct ssa_def *def, unsigned l, const uint8_t *data,
		     const uint8_t *tags, uint64_t size, uint64_t addr)
{
	unsigned bytes = def->bit_size / 8;
	for (unsigned k = 0; k < def->num_components; k++) {
		uint64_t v;
		uint8_t tag = mem_read(data, tags, size, addr + (uint64_t)k * bytes, def->bit_size, &v);
		iput_mem(c, def, l, k, v, tag);
	}
}

static void store_vec(struct ictx *c, struct mem *m, const struct ssa_def *v, unsigned l,
		      uint64_t addr, unsigned mask)
{
	unsigned bytes = v->bit_size / 8;
	for (unsigned k = 0; k < v->num_components; k++)
		if (mask >> k & 1)
			mem_write(m, addr + (uint64_t)k * bytes, v->bit_size, ival(c, v, l)[k],
				  itag_mem(c, v, l, k));
}

/* ---- atomics ---- */

static bool atomic_is_float(enum atomic_op op)
{
	return op == ATOMIC_fadd || op == ATOMIC_fmin || op == ATOMIC_fmax || op == ATOMIC_fcmpxchg;
}

/* The new value of an atomic: op(old, data), or for the swaps data when old
 * equals cmp (integer or float equality). */
uint64_t interp_atomic_new(enum atomic_op op, unsigned bits, uint64_t old, uint64_t cmp,
			  uint64_t data)
{
	uint64_t r;
	const uint64_t *srcs[2] = { &old, &data };
	switch (op) {
	case ATOMIC_xchg:
		return data;
	case ATOMIC_cmpxchg:
		return old == cmp ? data : old;
	case ATOMIC_fcmpxchg: {
		const uint64_t *fs[2] = { &old, &cmp };
		alu_fold(OP_feq, 1, bits, fs, &r);
		return r ? data : old;
	}
	default:
		alu_fold(atomic_op_alu(op), 1, bits, srcs, &r);
		return r;
	}
}

/* An atomic on a region: returns the old value (and its tag) through the
 * result; poison data makes the memory poison. */
static void atomic_mem(struct ictx *c, struct intrinsic_instr *intr, unsigned l, struct mem *m,
		       uint64_t addr, unsigned cmp_src, unsigned data_src)
{
	enum atomic_op op = (enum atomic_op)intrinsic_get(intr, INTR_IDX_atomic_op);
	unsigned bits = intr->def.bit_size;
	uint64_t old;
	if (c->lane[l].demoted) {
		iput_poison(c, &intr->def, l);
		return;
	}
	if (!m || addr > m->size || m->size - addr < bits / 8) {
		iput(c, &intr->def, l, 0, 0, false, false);
		return;
	}
	bool p = mem_read(m->data, m->tags, m->size, addr, bits, &old) & INTERP_TAG_POISON;
	uint64_t cmp = cmp_src ? isrc(c, intr, cmp_src, l) : 0;
	uint64_t data = isrc(c, intr, data_src, l);
	bool data_poison = ipoison(c, intr->src[data_src].ssa, l, 0) ||
			   (cmp_src && ipoison(c, intr->src[cmp_src].ssa, l, 0));
	uint64_t nv = interp_atomic_new(op, bits, old, cmp, data);
	mem_write(m, addr, bits, nv, interp_mem_tag(p || data_poison, atomic_is_float(op), bits));
	iput(c, &intr->def, l, 0, old, p, atomic_is_float(op));
}

/* ---- addressing ---- */

/* The SSBO or UBO slot of source 0 (or of source `src`), NULL when it names
 * none; *undef when the slot value is poison. */
static struct mem *ssbo_at(struct ictx *c, struct intrinsic_instr *intr, unsigned src,
			   unsigned l, bool *undef)
{
	*undef |= ipoison(c, intr->src[src].ssa, l, 0);
	uint64_t slot = isrc(c, intr, src, l);
	if (slot >= c->in->num_ssbos)
		*undef = true;	/* a descriptor array indexed out of bounds */
	return slot < c->in->num_ssbos ? &c->ssbo[slot] : NULL;
}

static bool addr_undef(struct ictx *c, struct intrinsic_instr *intr, unsigned src, unsigned l)
{
	return ipoison(c, intr->src[src].ssa, l, 0);
}

static uint64_t global_offset(struct ictx *c, uint64_t addr)
{
	if (c->in->address_bits == 32)
		addr &= UINT32_MAX;
	return addr >= c->in->global_base ? addr - c->in->global_base : UINT64_MAX;
}

/* The ir3 backend's global_ir3 address: two dwords (low, high) in source
 * `i` plus a dword offset in source i + 1. */
static uint64_t ir3_address(struct ictx *c, struct intrinsic_instr *intr, unsigned i, unsigned l)
{
	const uint64_t *a = ival(c, intr->src[i].ssa, l);
	return ((a[0] & 0xffffffffu) | (a[1] << 32)) + (uint64_t)(uint32_t)isrc(c, intr, i + 1, l) * 4;
}

static void store_undefined(struct ictx *c, struct intrinsic_instr *intr, unsigned l)
{
	interp_undefined(c, "@%s to an undefined address (lane %u)", intrinsic_infos[intr->op].name,
			 l);
}

static void exec_load(struct ictx *c, struct intrinsic_instr *intr, unsigned l)
{
	const struct interp_inputs *in = c->in;
	const struct ssa_def *d = &intr->def;
	int32_t base = intrinsic_has(intr->op, INTR_IDX_base) ? intrinsic_get(intr, INTR_IDX_base) : 0;
	bool undef = false;
	const struct interp_buffer *buf = NULL;
	const struct mem *m = NULL;
	uint64_t addr = 0;
	switch (intr->op) {
	case INTR_load_uniform:
		buf = &in->uniforms;
		addr = (uint64_t)base + (uint32_t)isrc(c, intr, 0, l);
		undef = addr_undef(c, intr, 0, l);
		break;
	case INTR_load_push_constant:
		buf = &in->push_constants;
		addr = (uint64_t)base + (uint32_t)isrc(c, intr, 0, l);
		undef = addr_undef(c, intr, 0, l);
		break;
	case INTR_load_ubo: {
		uint64_t slot = isrc(c, intr, 0, l);
		undef = addr_undef(c, intr, 0, l) || addr_undef(c, intr, 1, l) || slot >= in->num_ubos;
		buf = slot < in->num_ubos ? &in->ubo[slot] : NULL;
		addr = isrc(c, intr, 1, l);
		uint64_t bytes = (uint64_t)d->num_components * d->bit_size / 8;
		if (buf && in->ubo_unchecked && (addr > buf->size || buf->size - addr < bytes))
			undef = true;
		/* outside the array its access chain indexed: an index out of
		 * the array's bounds, undefined (SPIR-V; the range says where) */
		uint64_t rb = (uint32_t)intrinsic_get(intr, INTR_IDX_range_base);
		uint64_t rn = (uint32_t)intrinsic_get(intr, INTR_IDX_range);
		if (rn && (addr < rb || addr + bytes > rb + rn))
			undef = true;
		break;
	}
	case INTR_load_ssbo:
		m = ssbo_at(c, intr, 0, l, &undef);
		undef |= addr_undef(c, intr, 1, l);
		addr = isrc(c, intr, 1, l);
		break;
	case INTR_load_shared:
		m = &c->shared;
		addr = (uint64_t)base + (uint32_t)isrc(c, intr, 0, l);
		undef = addr_undef(c, intr, 0, l);
		break;
	case INTR_load_global:
		m = &c->global;
		addr = global_offset(c, isrc(c, intr, 0, l));
		undef = addr_undef(c, intr, 0, l);
		break;
	case INTR_load_shared_ir3:
		m = &c->shared;
		addr = (uint64_t)base + (uint32_t)isrc(c, intr, 0, l);
		undef = addr_undef(c, intr, 0, l);
		break;
	case INTR_load_global_ir3:
		m = &c->global;
		addr = global_offset(c, ir3_address(c, intr, 0, l));
		undef = addr_undef(c, intr, 0, l) || addr_undef(c, intr, 1, l);
		break;
	case INTR_load_preamble:
		m = &c->preamble;
		addr = 4 * (uint64_t)(uint32_t)base;
		break;
	default:		/* load_scratch */
		m = &c->scratch[l];
		addr = (uint64_t)base + (uint32_t)isrc(c, intr, 0, l);
		undef = addr_undef(c, intr, 0, l);
		break;
	}
	/* push constants and uniforms have no robustness: a read past their
	 * end is undefined (the const file holds anything there) */
	if ((intr->op == INTR_load_push_constant || intr->op == INTR_load_uniform) && buf &&
	    (addr > buf->size || buf->size - addr < (uint64_t)d->num_components * d->bit_size / 8))
		undef = true;
	if (undef)
		iput_poison(c, d, l);
	else if (buf)
		load_vec(c, d, l, buf->data, NULL, buf->size, addr);
	else if (m)
		load_vec(c, d, l, m->data, m->tags, m->size, addr);
	else
		for (unsigned k = 0; k < d->num_components; k++)
			iput(c, d, l, k, 0, false, false);
}

static void exec_store(struct ictx *c, struct intrinsic_instr *intr, unsigned l)
{
	const struct ssa_def *v = intr->src[0].ssa;
	unsigned mask = intrinsic_has(intr->op, INTR_IDX_write_mask)
				? (unsigned)intrinsic_get(intr, INTR_IDX_write_mask)
				: (1u << v->num_components) - 1;
	int32_t base = intrinsic_has(intr->op, INTR_IDX_base) ? intrinsic_get(intr, INTR_IDX_base) : 0;
	bool undef = false;
	struct mem *m;
	uint64_t addr;
	switch (intr->op) {
	case INTR_store_ssbo:
		m = ssbo_at(c, intr, 1, l, &undef);
		undef |= addr_undef(c, intr, 2, l);
		addr = isrc(c, intr, 2, l);
		break;
	case INTR_store_shared:
		m = &c->shared;
		undef = addr_undef(c, intr, 1, l);
		addr = (uint64_t)base + (uint32_t)isrc(c, intr, 1, l);
		break;
	case INTR_store_global:
		m = &c->global;
		undef = addr_undef(c, intr, 1, l);
		addr = global_offset(c, isrc(c, intr, 1, l));
		break;
	case INTR_store_shared_ir3:
		m = &c->shared;
		undef = addr_undef(c, intr, 1, l);
		addr = (uint64_t)base + (uint32_t)isrc(c, intr, 1, l);
		break;
	case INTR_store_global_ir3:
		m = &c->global;
		undef = addr_undef(c, intr, 1, l) || addr_undef(c, intr, 2, l);
		addr = global_offset(c, ir3_address(c, intr, 1, l));
		break;
	case INTR_store_preamble:
		m = &c->preamble;
		addr = 4 * (uint64_t)(uint32_t)base;
		break;
	default:		/* store_scratch */
		m = &c->scratch[l];
		undef = addr_undef(c, intr, 1, l);
		addr = (uint64_t)base + (uint32_t)isrc(c, intr, 1, l);
		break;
	}
	if (undef) {
		store_undefined(c, intr, l);
		return;
	}
	if (m && !c->lane[l].demoted)
		store_vec(c, m, v, l, addr, mask);
}

static void exec_atomic(struct ictx *c, struct intrinsic_instr *intr, unsigned l)
{
	bool swap = intr->op == INTR_ssbo_atomic_swap || intr->op == INTR_shared_atomic_swap ||
		    intr->op == INTR_global_atomic_swap;
	bool undef = false;
	struct mem *m;
	uint64_t addr;
	unsigned first;		/* the source after the address */
	switch (intr->op) {
	case INTR_ssbo_atomic: case INTR_ssbo_atomic_swap:
		m = ssbo_at(c, intr, 0, l, &undef);
		undef |= addr_undef(c, intr, 1, l);
		addr = isrc(c, intr, 1, l);
		first = 2;
		break;
	case INTR_shared_atomic: case INTR_shared_atomic_swap:
		m = &c->shared;
		undef = addr_undef(c, intr, 0, l);
		addr = (uint64_t)intrinsic_get(intr, INTR_IDX_base) + (uint32_t)isrc(c, intr, 0, l);
		first = 1;
		break;
	default:		/* global */
		m = &c->global;
		undef = addr_undef(c, intr, 0, l);
		addr = global_offset(c, isrc(c, intr, 0, l));
		first = 1;
		break;
	}
	if (undef) {
		store_undefined(c, intr, l);
		return;
	}
	atomic_mem(c, intr, l, m, addr, swap ? first : 0, swap ? first + 1 : first);
}

/* ---- locals ---- */

static void exec_local(struct ictx *c, struct intrinsic_instr *intr, unsigned l)
{
	bool load = intr->op == INTR_load_local;
	int32_t idx = intrinsic_get(intr, INTR_IDX_local);
	const struct local_decl *d = c->s->locals[idx];
	unsigned off_src = load ? 0 : 1;
	uint64_t elem = (uint64_t)intrinsic_get(intr, INTR_IDX_base) +
			(uint32_t)isrc(c, intr, off_src, l);
	bool undef = ipoison(c, intr->src[off_src].ssa, l, 0);
	bool in_range = elem < d->num_elements;
	size_t at = ((size_t)l * d->num_elements + (size_t)(in_range ? elem : 0)) * d->num_components;
	uint64_t *vals = c->local_vals[idx] + at;
	uint8_t *tags = c->local_tags[idx] + at;
	if (load) {
		for (unsigned k = 0; k < d->num_components; k++) {
			if (undef || !in_range)
				iput(c, &intr->def, l, k, 0, true, false);
			else
				iput_mem(c, &intr->def, l, k, vals[k], tags[k]);
		}
		return;
	}
	if (undef || !in_range) {
		interp_undefined(c, "store_local: %s element of local %d (lane %u)",
				 undef ? "an undefined" : "an out-of-range", idx, l);
		return;
	}
	const struct ssa_def *v = intr->src[0].ssa;
	unsigned mask = (unsigned)intrinsic_get(intr, INTR_IDX_write_mask);
	for (unsigned k = 0; k < d->num_components; k++) {
		if (!(mask >> k & 1))
			continue;
		vals[k] = ival(c, v, l)[k];
		tags[k] = itag_mem(c, v, l, k);
	}
}

/* ---- images ---- */

/* Texel coordinates of an image access: x, y, z (depth or cube face),
 * layer. */
static void image_coords(enum image_dim dim, bool array, const uint64_t *coord, int64_t *xyz,
			 int64_t *layer)
{
	unsigned n = image_dim_coords(dim);
	xyz[0] = xyz[1] = xyz[2] = 0;
	*layer = 0;
	for (unsigned k = 0; k < n; k++)
		xyz[k] = (int32_t)coord[k];
	if (dim == DIM_cube) {
		int64_t f = xyz[2];
		xyz[2] = f >= 0 ? f % 6 : -1;
		*layer = f >= 0 ? f / 6 : -1;
	} else if (array) {
		*layer = (int32_t)coord[n];
	}
}

int64_t interp_image_texel(const struct interp_texture *t, enum image_dim dim, bool array,
			   const uint64_t *coord, uint64_t sample, uint64_t lod)
{
	int64_t xyz[3], layer;
	image_coords(dim, array, coord, xyz, &layer);
	uint32_t depth = image_depth(t, dim);
	if (xyz[0] < 0 || xyz[0] >= t->size[0] || xyz[1] < 0 || xyz[1] >= t->size[1] ||
	    xyz[2] < 0 || xyz[2] >= depth || layer < 0 || layer >= t->layers || lod != 0)
		return -1;
	if (sample >= t->samples)
		sample = t->samples > 1 ? UINT64_MAX : 0;	/* single-sampled: ignored */
	if (sample == UINT64_MAX)
		return -1;
	return (((((int64_t)layer * depth + xyz[2]) * t->size[1] + xyz[1]) * t->size[0] + xyz[0]) *
		t->samples + (int64_t)sample);
}

/* The texel index of an access, or -1 when out of bounds. */
static int64_t image_texel(struct ictx *c, struct intrinsic_instr *intr, unsigned l,
			   unsigned *slot_out, bool *undef)
{
	enum image_dim dim = (enum image_dim)intrinsic_get(intr, INTR_IDX_image_dim);
	bool array = intrinsic_get(intr, INTR_IDX_image_array);
	uint64_t slot = isrc(c, intr, 0, l);
	*undef = ipoison_any(c, intr->src[0].ssa, l) || ipoison_any(c, intr->src[1].ssa, l) ||
		 ipoison_any(c, intr->src[2].ssa, l);
	if (intr->op == INTR_image_load || intr->op == INTR_image_store)
		*undef |= ipoison_any(c, intr->src[intr->op == INTR_image_load ? 3 : 4].ssa, l);
	if (slot >= c->in->num_images) {
		*undef = true;	/* a descriptor array indexed out of bounds */
		return -1;
	}
	*slot_out = (unsigned)slot;
	uint64_t lod = 0;
	if (intr->op == INTR_image_load)
		lod = isrc(c, intr, 3, l);
	else if (intr->op == INTR_image_store)
		lod = isrc(c, intr, 4, l);
	/* the front end reads a cube array as a 2D array of faces (layer
	 * 6 × cube + face), which is the cube's own addressing; the model
	 * counts cubes in its layers, so the access is bounded as a cube's */
	const struct resource_decl *d = shader_find_resource(c->s->images, c->s->num_images,
							      (unsigned)slot);
	if (d && d->dim == DIM_cube && dim == DIM_2d && array)
		dim = DIM_cube;
	return interp_image_texel(c->image[slot].model, dim, array, ival(c, intr->src[1].ssa, l),
				  isrc(c, intr, 2, l), lod);
}

static void image_touch(struct ictx *c, struct image_state *im)
{
	if (im->texels)
		return;
	size_t n = (size_t)im->num_texels * 4;
	im->texels = arena_array(&c->res->arena, uint64_t, n + 1);
	im->tags = arena_alloc(&c->res->arena, n + 1);
	memset(im->tags, 0xff, n);	/* 0xff: not written, the model's value */
}

uint64_t interp_image_model(const struct interp_texture *t, unsigned slot, int64_t texel,
			    unsigned k, bool is_float, unsigned bits)
{
	int64_t xyz[3] = { texel, 0, 0 };
	uint64_t h = interp_texel_hash(t, slot, 0, xyz, 0, 0, k);
	if (is_float)
		return ir_float_to_bits((double)(h >> 40) / (double)(1 << 24), bits);
	return h & imask(bits);
}

/* The model's value of component k of a texel, for an access of `type`
 * and `bits`. */
static uint64_t image_model(struct ictx *c, unsigned slot, int64_t texel, unsigned k,
			    enum base_type type, unsigned bits, bool *is_float)
{
	*is_float = type == BASE_float;
	return interp_image_model(c->image[slot].model, slot, texel, k, *is_float, bits);
}

static void image_read(struct ictx *c, unsigned slot, int64_t texel, unsigned k,
		       enum base_type type, unsigned bits, uint64_t *v, bool *poison, bool *flt)
{
	struct image_state *im = &c->image[slot];
	size_t x = (size_t)texel * 4 + k;
	*poison = false;
	if (!im->texels || im->tags[x] == 0xff) {
		*v = image_model(c, slot, texel, k, type, bits, flt);
		return;
	}
	*v = im->texels[x] & imask(bits);
	*poison = im->tags[x] & INTERP_TAG_POISON;
	*flt = im->tags[x] & INTERP_TAG_FLOAT;
}

static void image_write(struct ictx *c, unsigned slot, int64_t texel, unsigned k, uint64_t v,
			uint8_t tag)
{
	struct image_state *im = &c->image[slot];
	image_touch(c, im);
	im->texels[(size_t)texel * 4 + k] = v;
	im->tags[(size_t)texel * 4 + k] = tag;
	im->written = true;
}

static void exec_image_access(struct ictx *c, struct intrinsic_instr *intr, unsigned l)
{
	unsigned slot = 0;
	bool undef;
	int64_t texel = image_texel(c, intr, l, &slot, &undef);
	bool demoted = c->lane[l].demoted;
	switch (intr->op) {
	case INTR_image_load: {
		enum base_type type = (enum base_type)intrinsic_get(intr, INTR_IDX_dest_type);
		for (unsigned k = 0; k < intr->def.num_components; k++) {
			uint64_t v = 0;
			bool p = undef, f = false;
			if (!undef && texel >= 0 && k < 4)
				image_read(c, slot, texel, k, type, intr->def.bit_size, &v, &p, &f);
			iput(c, &intr->def, l, k, v, p, f);
		}
		return;
	}
	case INTR_image_store: {
		if (undef) {
			store_undefined(c, intr, l);
			return;
		}
		if (texel < 0 || demoted)
			return;
		const struct ssa_def *v = intr->src[3].ssa;
		for (unsigned k = 0; k < v->num_components && k < 4; k++)
			image_write(c, slot, texel, k, ival(c, v, l)[k], itag_mem(c, v, l, k));
		return;
	}
	default: {		/* image_atomic, image_atomic_swap */
		bool swap = intr->op == INTR_image_atomic_swap;
		enum atomic_op op = (enum atomic_op)intrinsic_get(intr, INTR_IDX_atomic_op);
		unsigned bits = intr->def.bit_size;
		if (undef) {
			store_undefined(c, intr, l);
			return;
		}
		if (demoted) {
			iput_poison(c, &intr->def, l);
			return;
		}
		if (texel < 0) {
			iput(c, &intr->def, l, 0, 0, false, false);
			return;
		}
		uint64_t old;
		bool p, f;
		image_read(c, slot, texel, 0, atomic_is_float(op) ? BASE_float : BASE_uint, bits,
			   &old, &p, &f);
		unsigned data_src = swap ? 4 : 3;
		uint64_t cmp = swap ? isrc(c, intr, 3, l) : 0;
		bool dp = ipoison(c, intr->src[data_src].ssa, l, 0) ||
			  (swap && ipoison(c, intr->src[3].ssa, l, 0));
		uint64_t nv = interp_atomic_new(op, bits, old, cmp, isrc(c, intr, data_src, l));
		image_write(c, slot, texel, 0, nv, interp_mem_tag(p || dp, atomic_is_float(op), bits));
		iput(c, &intr->def, l, 0, old, p, atomic_is_float(op));
		return;
	}
	}
}

/* image_size: the size at a level (cube: faces not counted; arrays: layers). */
static void exec_image_size(struct ictx *c, struct intrinsic_instr *intr, unsigned l)
{
	enum image_dim dim = (enum image_dim)intrinsic_get(intr, INTR_IDX_image_dim);
	uint64_t slot = isrc(c, intr, 0, l);
	bool undef = ipoison(c, intr->src[0].ssa, l, 0);
	if (intr->op == INTR_image_samples) {
		uint64_t n = slot < c->in->num_images ? c->in->image[slot].samples : 0;
		iput(c, &intr->def, l, 0, n, undef, false);
		return;
	}
	uint64_t lod = isrc(c, intr, 1, l);
	undef |= ipoison(c, intr->src[1].ssa, l, 0);
	const struct interp_texture *t = slot < c->in->num_images ? &c->in->image[slot] : NULL;
	unsigned n = dim == DIM_cube ? 2 : image_dim_coords(dim);
	for (unsigned k = 0; k < intr->def.num_components; k++) {
		uint64_t v = 0;
		if (t && k < n)
			v = lod < 32 && (t->size[k] >> lod) ? t->size[k] >> lod : (lod < 32 ? 1 : 0);
		else if (t)
			v = t->layers;
		iput(c, &intr->def, l, k, v, undef, false);
	}
}

bool interp_exec_memory(struct ictx *c, struct intrinsic_instr *intr, const struct lanes *ls)
{
	void (*fn)(struct ictx *, struct intrinsic_instr *, unsigned);
	switch (intr->op) {
	case INTR_load_uniform: case INTR_load_push_constant: case INTR_load_ubo:
	case INTR_load_ssbo: case INTR_load_shared: case INTR_load_global: case INTR_load_scratch:
	case INTR_load_shared_ir3: case INTR_load_global_ir3: case INTR_load_preamble:
		fn = exec_load;
		break;
	case INTR_store_ssbo: case INTR_store_shared: case INTR_store_global:
	case INTR_store_scratch: case INTR_store_shared_ir3: case INTR_store_global_ir3:
	case INTR_store_preamble:
		fn = exec_store;
		break;
	case INTR_ssbo_atomic: case INTR_ssbo_atomic_swap: case INTR_shared_atomic:
	case INTR_shared_atomic_swap: case INTR_global_atomic: case INTR_global_atomic_swap:
		fn = exec_atomic;
		break;
	case INTR_get_ssbo_size:
		for (unsigned i = 0; i < ls->n; i++) {
			unsigned l = ls->l[i];
			uint64_t slot = isrc(c, intr, 0, l);
			iput(c, &intr->def, l, 0, slot < c->in->num_ssbos ? c->ssbo[slot].size : 0,
			    ipoison(c, intr->src[0].ssa, l, 0), false);
		}
		return true;
	case INTR_load_local: case INTR_store_local:
		fn = exec_local;
		break;
	case INTR_image_load: case INTR_image_store: case INTR_image_atomic:
	case INTR_image_atomic_swap:
		fn = exec_image_access;
		break;
	case INTR_image_size: case INTR_image_samples:
		fn = exec_image_size;
		break;
	default:
		return false;
	}
	for (unsigned i = 0; i < ls->n && !c->stop; i++)
		fn(c, intr, ls->l[i]);
	return true;
}
