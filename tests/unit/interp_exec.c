/*
 * The interpreter beyond the ALU (INTERP.md): control flow (nested loops
 * with break and continue, phis copied in parallel, return), locals with
 * indirect access, memory and its bounds, atomics and their return values,
 * barriers, discard and demote, derivatives, subgroup operations, geometry
 * emission, undefined behaviour, the step limit — and every intrinsic of the
 * table runs.
 */
#include "compiler/ir/builder.h"
#include "interp_util.h"

/* ---- control flow ---- */

static const char loops_ir[] =
	"shader compute workgroup_size=4,1,1\n"
	"ssbo 0 set=0 binding=0 size=64\n"
	"fn main {\n"
	"block b0:\n"
	"	32 %0 = load_const 0\n"
	"	32 %1 = load_const 1\n"
	"	32 %2 = load_const 4\n"
	"	32 %3 = load_const 32\n"
	"	32x3 %4 = @load_local_invocation_id\n"
	"	32 %5 = imul %4.x, %2\n"
	"	32 %6 = @load_ssbo %0, %5 access=none align_mul=4 align_offset=0\n"
	"	loop {\n"
	"	block head:\n"
	"		32 %7 = phi b0: %0, skip: %10, latch: %10\n"
	"		32 %8 = phi b0: %0, skip: %8, latch: %18\n"
	"		1 %9 = ige %7, %6\n"
	"		if %9 {\n"
	"		block brk:\n"
	"			break\n"
	"		} else {\n"
	"		block nobrk:\n"
	"		}\n"
	"	block body:\n"
	"		32 %10 = iadd %7, %1\n"
	"		1 %11 = ieq %7, %1\n"
	"		if %11 {\n"
	"		block skip:\n"
	"			continue\n"
	"		} else {\n"
	"		block noskip:\n"
	"		}\n"
	"	block pre_inner:\n"
	"		loop {\n"
	"		block ihead:\n"
	"			32 %12 = phi pre_inner: %0, ilatch: %15\n"
	"			32 %13 = phi pre_inner: %8, ilatch: %16\n"
	"			1 %14 = ige %12, %7\n"
	"			if %14 {\n"
	"			block ibrk:\n"
	"				break\n"
	"			} else {\n"
	"			block inobrk:\n"
	"			}\n"
	"		block ilatch:\n"
	"			32 %15 = iadd %12, %1\n"
	"			32 %16 = iadd %13, %12\n"
	"		}\n"
	"	block latch:\n"
	"		32 %18 = iadd %13, %3\n"
	"	}\n"
	"block end:\n"
	"	32 %19 = iadd %5, %3\n"
	"	@store_ssbo %8, %0, %19 write_mask=x access=none align_mul=4 align_offset=0\n"
	"}\n";

/* What loops_ir computes, in C. */
static uint32_t loops_reference(uint32_t n)
{
	uint32_t sum = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (i == 1)
			continue;
		for (uint32_t j = 0; j < i; j++)
			sum += j;
		sum += 32;
	}
	return sum;
}

static void test_loops(void)
{
	struct shader *s = parse_ir(loops_ir);
	struct interp_inputs *in = interp_inputs_create(s);
	static const uint32_t n[4] = { 0, 1, 3, 5 };
	for (unsigned l = 0; l < 4; l++)
		set32(&in->ssbo[0], 4 * l, n[l]);
	struct interp_result *r = run_ir(s, in);
	bool good = r->status == INTERP_OK;
	for (unsigned l = 0; l < 4; l++) {
		uint32_t got = mem32(&r->ssbo[0], 32 + 4 * l);
		good &= got == loops_reference(n[l]);
		if (got != loops_reference(n[l]))
			tap_diag("lane %u: %u, expected %u", l, got, loops_reference(n[l]));
	}
	ok(good, "nested loops with break and continue: each lane its own trip counts");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

static const char swap_ir[] =
	"shader fragment\n"
	"input 0 32 location=0 flat\n"
	"output 0 32x2 location=0\n"
	"fn main {\n"
	"block start:\n"
	"	32 %0 = load_const 0\n"
	"	32 %1 = load_const 1\n"
	"	32 %2 = load_const 7\n"
	"	32 %3 = @load_input %0 base=0 component=0\n"
	"	loop {\n"
	"	block head:\n"
	"		32 %4 = phi start: %0, body: %9\n"
	"		32 %5 = phi start: %1, body: %6\n"
	"		32 %6 = phi start: %2, body: %5\n"
	"		1 %7 = ige %4, %3\n"
	"		if %7 {\n"
	"		block brk:\n"
	"			break\n"
	"		} else {\n"
	"		block cont:\n"
	"		}\n"
	"	block body:\n"
	"		32 %9 = iadd %4, %1\n"
	"	}\n"
	"block end:\n"
	"	32x2 %10 = vec2 %5, %6\n"
	"	@store_output %10, %0 base=0 component=0 write_mask=xy\n"
	"}\n";

static void test_phi_swap(void)
{
	struct shader *s = parse_ir(swap_ir);
	struct interp_inputs *in = interp_inputs_create(s);
	for (unsigned l = 0; l < 4; l++)
		set_input(s, in, 0, l, 0, l);
	struct interp_result *r = run_ir(s, in);
	bool good = r->status == INTERP_OK;
	for (unsigned l = 0; l < 4; l++) {
		uint64_t a = l % 2 ? 7 : 1, b = l % 2 ? 1 : 7;
		good &= out_or(r, s, 0, l, 0, POISON) == a && out_or(r, s, 0, l, 1, POISON) == b;
	}
	ok(good, "phis of a block read their sources in parallel (a swap)");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

static const char return_ir[] =
	"shader fragment\n"
	"input 0 32 location=0 flat\n"
	"output 0 32 location=0\n"
	"fn main {\n"
	"block b0:\n"
	"	32 %0 = load_const 0\n"
	"	32 %1 = load_const 1\n"
	"	32 %2 = @load_input %0 base=0 component=0\n"
	"	loop {\n"
	"	block b1:\n"
	"		1 %3 = ieq %2, %0\n"
	"		if %3 {\n"
	"		block b2:\n"
	"			return\n"
	"		} else {\n"
	"		block b3:\n"
	"		}\n"
	"	block b4:\n"
	"		break\n"
	"	}\n"
	"block b5:\n"
	"	@store_output %2, %0 base=0 component=0 write_mask=x\n"
	"}\n";

static void test_return(void)
{
	struct shader *s = parse_ir(return_ir);
	struct interp_inputs *in = interp_inputs_create(s);
	for (unsigned l = 0; l < 4; l++)
		set_input(s, in, 0, l, 0, l % 2 ? 5 : 0);
	struct interp_result *r = run_ir(s, in);
	ok(r->status == INTERP_OK && out_or(r, s, 0, 0, 0, POISON) == POISON &&
	   out_or(r, s, 0, 1, 0, POISON) == 5 && out_or(r, s, 0, 3, 0, POISON) == 5,
	   "return inside a loop ends the lane; the others go on");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

/* ---- locals ---- */

static const char locals_ir[] =
	"shader fragment\n"
	"input 0 32 location=0 flat\n"
	"input 1 32 location=1 flat\n"
	"output 0 32x2 location=0\n"
	"local 0 32[4]\n"
	"fn main {\n"
	"block b0:\n"
	"	32 %0 = load_const 0\n"
	"	32 %1 = load_const 1\n"
	"	32 %2 = load_const 10\n"
	"	32 %3 = load_const 20\n"
	"	32 %4 = load_const 30\n"
	"	32 %5 = load_const 99\n"
	"	32 %6 = @load_input %0 base=0 component=0\n"
	"	32 %7 = @load_input %0 base=1 component=0\n"
	"	@store_local %0, %0 local=0 base=0 write_mask=x\n"
	"	@store_local %2, %0 local=0 base=1 write_mask=x\n"
	"	@store_local %3, %0 local=0 base=2 write_mask=x\n"
	"	@store_local %4, %0 local=0 base=3 write_mask=x\n"
	"	@store_local %5, %6 local=0 base=0 write_mask=x\n"
	"	32 %8 = @load_local %7 local=0 base=0\n"
	"	32 %9 = @load_local %1 local=0 base=1\n"
	"	32x2 %10 = vec2 %8, %9\n"
	"	@store_output %10, %0 base=0 component=0 write_mask=xy\n"
	"}\n";

static void test_locals(void)
{
	struct shader *s = parse_ir(locals_ir);
	struct interp_inputs *in = interp_inputs_create(s);
	/* (store index, load index) per lane */
	static const uint32_t idx[4][2] = { { 2, 2 }, { 0, 3 }, { 1, 4 }, { 3, 0 } };
	for (unsigned l = 0; l < 4; l++) {
		set_input(s, in, 0, l, 0, idx[l][0]);
		set_input(s, in, 1, l, 0, idx[l][1]);
	}
	struct interp_result *r = run_ir(s, in);
	ok(r->status == INTERP_OK && out_or(r, s, 0, 0, 0, POISON) == 99 &&
	   out_or(r, s, 0, 0, 1, POISON) == 99, "an indirect store then an indirect load");
	ok(out_or(r, s, 0, 1, 0, POISON) == 30 && out_or(r, s, 0, 1, 1, POISON) == 20,
	   "base + offset addresses the element");
	ok(out_or(r, s, 0, 2, 0, POISON) == POISON && out_or(r, s, 0, 2, 1, POISON) == 20,
	   "an out-of-range load is poison");
	ok(out_or(r, s, 0, 3, 0, POISON) == 0, "locals are per lane");
	interp_result_free(r);

	set_input(s, in, 0, 2, 0, 4);
	r = interp_run(s, in, NULL);
	ok(r->status == INTERP_UNDEFINED && strstr(r->message, "out-of-range"),
	   "an out-of-range store is undefined behaviour");
	interp_result_free(r);
	set_input(s, in, 0, 2, 0, 0xffffffff);
	r = interp_run(s, in, NULL);
	ok(r->status == INTERP_UNDEFINED, "… also at a negative index");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

/* ---- memory ---- */

static const char memory_ir[] =
	"shader compute workgroup_size=1,1,1 shared_size=16 push_constant_size=8 uniform_size=8\n"
	"ubo 0 set=0 binding=0 size=16\n"
	"ssbo 0 set=0 binding=1 size=16\n"
	"fn main {\n"
	"block b0:\n"
	"	32 %0 = load_const 0\n"
	"	32 %1 = load_const 4\n"
	"	32 %2 = load_const 0x10000\n"
	"	32 %3 = load_const 2\n"
	"	64 %4 = load_const 0\n"
	"	64 %5 = load_const 0x1000\n"
	"	32 %6 = @load_ubo %0, %1 align_mul=4 align_offset=0\n"
	"	32 %7 = @load_ssbo %0, %2 access=none align_mul=4 align_offset=0\n"
	"	32 %8 = @load_push_constant %0 base=4\n"
	"	32 %9 = @load_uniform %1 base=0\n"
	"	32x4 %10 = vec4 %6, %7, %8, %9\n"
	"	16 %11 = @load_ssbo %0, %3 access=none align_mul=2 align_offset=0\n"
	"	64 %12 = @load_global %4 access=none align_mul=8 align_offset=0\n"
	"	32 %13 = @load_global %5 access=none align_mul=4 align_offset=0\n"
	"	32 %14 = @load_shared %0 base=0 align_mul=4 align_offset=0\n"
	"	32 %15 = load_const 268\n"
	"	32x2 %16 = @load_ssbo %0, %15 access=none align_mul=4 align_offset=0\n"
	"	32 %20 = load_const 16\n"
	"	32 %21 = load_const 32\n"
	"	32 %22 = load_const 40\n"
	"	32 %23 = load_const 44\n"
	"	32 %24 = load_const 48\n"
	"	32 %25 = load_const 56\n"
	"	@store_ssbo %10, %0, %20 write_mask=xyzw access=none align_mul=4 align_offset=0\n"
	"	@store_ssbo %6, %0, %2 write_mask=x access=none align_mul=4 align_offset=0\n"
	"	@store_ssbo %12, %0, %21 write_mask=x access=none align_mul=8 align_offset=0\n"
	"	@store_ssbo %11, %0, %22 write_mask=x access=none align_mul=2 align_offset=0\n"
	"	@store_ssbo %14, %0, %23 write_mask=x access=none align_mul=4 align_offset=0\n"
	"	@store_ssbo %16, %0, %24 write_mask=xy access=none align_mul=4 align_offset=0\n"
	"	@store_ssbo %13, %0, %25 write_mask=x access=none align_mul=4 align_offset=0\n"
	"	32x2 %26 = vec2 %6, %6\n"
	"	@store_ssbo %26, %0, %15 write_mask=xy access=none align_mul=4 align_offset=0\n"
	"}\n";

static void test_memory(void)
{
	struct shader *s = parse_ir(memory_ir);
	struct interp_inputs *in = interp_inputs_create(s);
	set32(&in->ubo[0], 4, 0x11111111);
	set32(&in->push_constants, 4, 0x22222222);
	set32(&in->uniforms, 4, 0x33333333);
	set32(&in->ssbo[0], 0, 0xaaaabbbb);
	set32(&in->ssbo[0], 268, 0x44444444);
	set32(&in->global, 0, 0x89abcdef);
	set32(&in->global, 4, 0x01234567);
	struct interp_result *r = run_ir(s, in);
	const struct interp_memory *m = &r->ssbo[0];
	ok(r->status == INTERP_OK && m->size == 16 + 256, "an SSBO has its size + 256 bytes");
	ok(mem32(m, 16) == 0x11111111 && mem32(m, 24) == 0x22222222 && mem32(m, 28) == 0x33333333,
	   "UBO, push constant and uniform loads at base + offset");
	ok(mem32(m, 20) == 0, "an out-of-bounds load gives 0");
	ok(mem32(m, 32) == 0x89abcdef && mem32(m, 36) == 0x01234567, "64-bit global load and store");
	ok(mem32(m, 56) == 0, "a global load out of bounds gives 0");
	ok((mem32(m, 40) & 0xffff) == 0xaaaa, "a 16-bit load and store, little-endian");
	ok(mem_poison(m, 44) && !mem_poison(m, 48), "shared memory starts undefined");
	ok(mem32(m, 48) == 0x44444444 && mem32(m, 52) == 0,
	   "each component of a load is bounds-checked on its own");
	ok(mem32(m, 268) == 0x11111111, "… and of a store: the first component lands");
	ok(!(m->tags[0] & INTERP_TAG_WRITTEN) && (m->tags[16] & INTERP_TAG_WRITTEN),
	   "written bytes are marked");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

/* A UBO load's range (range_base, range) bounds what its access chain
 * could index: outside it, the index was out of the array's bounds. */
static void test_ubo_range(void)
{
	struct shader *s = parse_ir(
		"shader fragment push_constant_size=8\n"
		"ubo 0 set=0 binding=0 size=64\n"
		"output 0 32x2 location=0\n"
		"fn main {\nblock b0:\n"
		"\t32 %0 = load_const 0\n"
		"\t32 %1 = load_const 4\n"
		"\t32 %2 = @load_push_constant %0 base=0\n"
		"\t32 %3 = @load_push_constant %1 base=0\n"
		"\t32 %4 = @load_ubo %0, %2 align_mul=4 align_offset=0 range_base=16 range=32\n"
		"\t32 %5 = @load_ubo %0, %3 align_mul=4 align_offset=0 range_base=16 range=32\n"
		"\t32x2 %6 = vec2 %4, %5\n"
		"\t@store_output %6, %0 base=0 component=0 write_mask=xy\n"
		"}\n");
	struct interp_inputs *in = interp_inputs_create(s);
	set32(&in->push_constants, 0, 44);
	set32(&in->push_constants, 4, 48);
	set32(&in->ubo[0], 44, 0x12345678);
	set32(&in->ubo[0], 48, 0x9abcdef0);
	struct interp_result *r = run_ir(s, in);
	ok(out_or(r, s, 0, 0, 0, POISON) == 0x12345678, "a UBO load inside its range reads the buffer");
	ok(out_or(r, s, 0, 0, 1, POISON) == POISON,
	   "one past it is undefined, though the buffer holds the bytes");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

/* ---- random inputs typed by use ---- */

static const char typed_ir[] =
	"shader fragment\n"
	"ubo 0 set=0 binding=0 size=16\n"
	"output 0 32x2 location=0\n"
	"fn main {\n"
	"block b0:\n"
	"	32 %0 = load_const 0\n"
	"	32 %1 = load_const 4\n"
	"	32 %2 = @load_ubo %0, %0 align_mul=4 align_offset=0\n"
	"	32 %3 = fadd %2, %2\n"
	"	32 %4 = @load_ubo %0, %1 align_mul=4 align_offset=0\n"
	"	32 %5 = iadd %4, %4\n"
	"	32x2 %6 = vec2 %3, %5\n"
	"	@store_output %6, %0 base=0 component=0 write_mask=xy\n"
	"}\n";

/* A buffer word an ALU op reads as a float gets a float, one read as an
 * integer an integer: on the tame seeds (seed % 4 == 0) floats lie on a
 * 1/16 grid in [-4, 4], integers in 0–3. */
static void test_typed_inputs(void)
{
	struct shader *s = parse_ir(typed_ir);
	bool floats = true, ints = true;
	for (uint64_t seed = 0; seed < 40; seed += 4) {
		struct interp_inputs *in = interp_inputs_random(s, seed);
		uint32_t f, i;
		memcpy(&f, in->ubo[0].data, 4);
		memcpy(&i, in->ubo[0].data + 4, 4);
		floats &= (f & 0x7fffffff) == 0 || (f & 0x7fffffff) >= 0x3d800000;
		ints &= i < 4;
		interp_inputs_free(in);
	}
	ok(floats && ints, "a UBO word read as a float is a float, one read as an integer an integer");
	shader_free(s);
}

/* ---- atomics ---- */

static const char atomics_ir[] =
	"shader compute workgroup_size=4,1,1 shared_size=16\n"
	"ssbo 0 set=0 binding=0 size=64\n"
	"image 0 2d uint set=0 binding=1 format=r32ui\n"
	"fn main {\n"
	"block b0:\n"
	"	32 %0 = load_const 0\n"
	"	32 %1 = load_const 1\n"
	"	32 %2 = load_const 4\n"
	"	64 %3 = load_const 8\n"
	"	32 %4 = load_const 0x3f800000\n"
	"	32x3 %5 = @load_local_invocation_id\n"
	"	32 %6 = mov %5.x\n"
	"	32 %7 = iadd %6, %1\n"
	"	32 %8 = @ssbo_atomic %0, %0, %7 atomic_op=iadd access=none\n"
	"	32 %9 = @ssbo_atomic_swap %0, %2, %6, %7 atomic_op=cmpxchg access=none\n"
	"	@store_shared %0, %0 base=0 write_mask=x align_mul=4 align_offset=0\n"
	"	@barrier execution_scope=workgroup memory_scope=workgroup memory_semantics=acquire|release memory_modes=shared\n"
	"	32 %10 = @shared_atomic %0, %7 base=0 atomic_op=umax\n"
	"	32 %11 = @global_atomic %3, %4 atomic_op=fadd access=none\n"
	"	32x2 %12 = vec2 %0, %0\n"
	"	32 %13 = @image_atomic %0, %12, %0, %7 image_dim=2d image_array=0 format=r32ui atomic_op=iadd\n"
	"	32 %14 = imul %6, %2\n"
	"	32 %15 = load_const 16\n"
	"	32 %16 = iadd %14, %15\n"
	"	@store_ssbo %8, %0, %16 write_mask=x access=none align_mul=4 align_offset=0\n"
	"	32 %17 = iadd %16, %15\n"
	"	@store_ssbo %9, %0, %17 write_mask=x access=none align_mul=4 align_offset=0\n"
	"	32 %18 = iadd %17, %15\n"
	"	@store_ssbo %10, %0, %18 write_mask=x access=none align_mul=4 align_offset=0\n"
	"	32 %19 = iadd %18, %15\n"
	"	@store_ssbo %11, %0, %19 write_mask=x access=none align_mul=4 align_offset=0\n"
	"	32 %20 = iadd %19, %15\n"
	"	@store_ssbo %13, %0, %20 write_mask=x access=none align_mul=4 align_offset=0\n"
	"}\n";

static void test_atomics(void)
{
	struct shader *s = parse_ir(atomics_ir);
	struct interp_inputs *in = interp_inputs_create(s);
	set32(&in->ssbo[0], 0, 100);
	set32(&in->ssbo[0], 4, 0);
	set32(&in->global, 8, fbits(0.5f));
	struct interp_result *r = run_ir(s, in);
	const struct interp_memory *m = &r->ssbo[0];
	bool iadd = true, cas = true, umax = true, fadd = true, img = true;
	uint32_t m0 = mem32(m, 80);
	static const uint32_t prefix[4] = { 0, 1, 3, 6 };
	for (unsigned l = 0; l < 4; l++) {
		iadd &= mem32(m, 16 + 4 * l) == 100 + prefix[l];
		cas &= mem32(m, 32 + 4 * l) == l;
		umax &= mem32(m, 48 + 4 * l) == l;
		fadd &= mem32(m, 64 + 4 * l) == fbits(0.5f + l);
		img &= mem32(m, 80 + 4 * l) == m0 + prefix[l];
	}
	ok(r->status == INTERP_OK && iadd && mem32(m, 0) == 110,
	   "ssbo_atomic iadd returns the old value, lanes in order");
	ok(cas && mem32(m, 4) == 4, "cmpxchg succeeds when the old value is the comparand");
	ok(umax, "shared_atomic umax");
	ok(fadd && mem32(&r->global, 8) == fbits(4.5f), "global_atomic fadd adds floats");
	ok(img && r->image[0].written && r->image[0].texels[0] == (uint32_t)(m0 + 10),
	   "image_atomic starts from the image's model value and is recorded");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

/* ---- barriers ---- */

static const char barrier_ir[] =
	"shader compute workgroup_size=4,1,1 shared_size=16\n"
	"ssbo 0 set=0 binding=0 size=16\n"
	"fn main {\n"
	"block b0:\n"
	"	32 %0 = load_const 0\n"
	"	32 %1 = load_const 1\n"
	"	32 %2 = load_const 4\n"
	"	32 %3 = load_const 3\n"
	"	32 %4 = load_const 10\n"
	"	32x3 %5 = @load_local_invocation_id\n"
	"	32 %6 = mov %5.x\n"
	"	32 %7 = imul %6, %2\n"
	"	32 %8 = imul %6, %4\n"
	"	@store_shared %8, %7 base=0 write_mask=x align_mul=4 align_offset=0\n"
	"	@barrier execution_scope=workgroup memory_scope=workgroup memory_semantics=acquire|release memory_modes=shared\n"
	"	32 %9 = iadd %6, %1\n"
	"	32 %10 = iand %9, %3\n"
	"	32 %11 = imul %10, %2\n"
	"	32 %12 = @load_shared %11 base=0 align_mul=4 align_offset=0\n"
	"	@store_ssbo %12, %0, %7 write_mask=x access=none align_mul=4 align_offset=0\n"
	"	1 %13 = ieq %6, %0\n"
	"	if %13 {\n"
	"	block b1:\n"
	"		@barrier execution_scope=SCOPE memory_scope=workgroup memory_semantics=acquire|release memory_modes=shared\n"
	"	} else {\n"
	"	block b2:\n"
	"	}\n"
	"block b3:\n"
	"}\n";

static void test_barriers(void)
{
	char *text = replace_word(barrier_ir, "SCOPE", "none");
	struct shader *s = parse_ir(text);
	free(text);
	struct interp_inputs *in = interp_inputs_create(s);
	struct interp_result *r = run_ir(s, in);
	bool good = r->status == INTERP_OK;
	for (unsigned l = 0; l < 4; l++)
		good &= mem32(&r->ssbo[0], 4 * l) == ((l + 1) & 3) * 10;
	ok(good, "after a barrier each invocation reads its neighbour's shared store");
	interp_result_free(r);
	shader_free(s);
	text = replace_word(barrier_ir, "SCOPE", "workgroup");
	s = parse_ir(text);
	free(text);
	r = interp_run(s, in, NULL);
	ok(r->status == INTERP_UNDEFINED && strstr(r->message, "non-uniform"),
	   "a workgroup barrier in non-uniform control flow is undefined behaviour");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

/* ---- discard, demote, derivatives ---- */

static const char kill_ir[] =
	"shader fragment\n"
	"ssbo 0 set=0 binding=0 size=16\n"
	"output 0 32x2 location=0\n"
	"fn main {\n"
	"block b0:\n"
	"	32 %0 = load_const 0\n"
	"	32 %1 = load_const 1\n"
	"	32 %2 = load_const 2\n"
	"	32 %3 = load_const 4\n"
	"	32x4 %4 = @load_frag_coord\n"
	"	32 %5 = mov %4.x\n"
	"	32 %6 = f2u32 %4.x\n"
	"	32 %7 = f2u32 %4.y\n"
	"	32 %8 = imul %7, %2\n"
	"	32 %9 = iadd %6, %8\n"
	"	1 %10 = ieq %9, %0\n"
	"	@discard_if %10\n"
	"	1 %11 = ieq %9, %1\n"
	"	@demote_if %11\n"
	"	1 %12 = @is_helper_invocation\n"
	"	32 %13 = b2i32 %12\n"
	"	32 %14 = imul %9, %3\n"
	"	@store_ssbo %13, %0, %14 write_mask=x access=none align_mul=4 align_offset=0\n"
	"	32 %15 = @ddx_fine %5\n"
	"	32 %16 = @ssbo_atomic %0, %0, %1 atomic_op=iadd access=none\n"
	"	32x2 %17 = vec2 %15, %16\n"
	"	@store_output %17, %0 base=0 component=0 write_mask=xy\n"
	"}\n";

static void test_discard_demote(void)
{
	struct shader *s = parse_ir(kill_ir);
	struct interp_inputs *in = interp_inputs_create(s);
	for (unsigned w = 0; w < 4; w++)
		set32(&in->ssbo[0], 4 * w, 77);
	struct interp_result *r = run_ir(s, in);
	const struct interp_memory *m = &r->ssbo[0];
	ok(r->status == INTERP_OK && r->fate[0] == LANE_DISCARDED && r->fate[1] == LANE_DEMOTED &&
	   r->fate[2] == LANE_LIVE && r->fate[3] == LANE_LIVE, "discard_if and demote_if set the fates");
	ok(mem32(m, 4) == 77 && mem32(m, 8) == 0 && mem32(m, 12) == 0,
	   "a helper lane does not store; is_helper_invocation is false elsewhere");
	ok(mem32(m, 0) == 77 + 2, "only the two live lanes do the atomic");
	ok(out_or(r, s, 0, 2, 0, POISON) == fbits(1.0f) && out_or(r, s, 0, 3, 0, POISON) == fbits(1.0f),
	   "ddx_fine of frag_coord.x is 1 in a complete row");
	ok(out_or(r, s, 0, 2, 1, POISON) == 77 + 0 && out_or(r, s, 0, 3, 1, POISON) == 77 + 1,
	   "… and atomics return in lane order");
	uint64_t v;
	ok(!interp_output_get(r, s, 0, 1, 0, 0, 0, &v) && !interp_output_get(r, s, 0, 1, 0, 0, 1, &v),
	   "the helper's derivative reads a discarded lane (poison), its atomic returns poison");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

static const char ddx_ir[] =
	"shader fragment\n"
	"output 0 32x4 location=0\n"
	"fn main {\n"
	"block b0:\n"
	"	32 %0 = load_const 0\n"
	"	32x4 %1 = @load_frag_coord\n"
	"	32 %2 = fmul %1.x, %1.y\n"
	"	32 %3 = @ddx_fine %2\n"
	"	32 %4 = @ddx_coarse %2\n"
	"	32 %5 = @ddy %2\n"
	"	32 %6 = @ddy_coarse %2\n"
	"	32x4 %7 = vec4 %3, %4, %5, %6\n"
	"	@store_output %7, %0 base=0 component=0 write_mask=xyzw\n"
	"}\n";

static void test_derivatives(void)
{
	struct shader *s = parse_ir(ddx_ir);
	struct interp_inputs *in = interp_inputs_create(s);
	struct interp_result *r = run_ir(s, in);
	/* x·y at the pixel centres: 0.25 0.75 / 0.75 2.25 */
	static const float want[4][4] = {
		{ 0.5f, 0.5f, 0.5f, 0.5f }, { 0.5f, 0.5f, 1.5f, 0.5f },
		{ 1.5f, 0.5f, 0.5f, 0.5f }, { 1.5f, 0.5f, 1.5f, 0.5f },
	};
	bool good = r->status == INTERP_OK;
	for (unsigned l = 0; l < 4; l++)
		for (unsigned k = 0; k < 4; k++)
			good &= out_or(r, s, 0, l, k, POISON) == fbits(want[l][k]);
	ok(good, "ddx/ddy fine (the lane's row or column) and coarse (the quad's first)");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

/* ---- subgroups ---- */

static const char subgroup_ir[] =
	"shader compute workgroup_size=8,1,1 subgroup_size=4\n"
	"ssbo 0 set=0 binding=0 size=256\n"
	"fn main {\n"
	"block b0:\n"
	"	32 %0 = load_const 0\n"
	"	32 %1 = load_const 1\n"
	"	32 %2 = load_const 4\n"
	"	32 %3 = load_const 32\n"
	"	32x3 %4 = @load_local_invocation_id\n"
	"	32 %5 = mov %4.x\n"
	"	32 %6 = iand %5, %1\n"
	"	1 %7 = ine %6, %0\n"
	"	32x4 %8 = @ballot %7\n"
	"	32 %9 = @reduce %5 reduction_op=iadd cluster_size=0\n"
	"	32 %10 = @exclusive_scan %5 reduction_op=iadd\n"
	"	32 %11 = @shuffle_xor %5, %1\n"
	"	1 %12 = @elect\n"
	"	32 %13 = b2i32 %12\n"
	"	32 %14 = @reduce %5 reduction_op=iadd cluster_size=2\n"
	"	32 %15 = @quad_swap_diagonal %5\n"
	"	32 %16 = @exclusive_scan %5 reduction_op=imin\n"
	"	32x4 %17 = vec4 %8.x, %9, %10, %11\n"
	"	32x4 %18 = vec4 %13, %14, %15, %16\n"
	"	32 %19 = imul %5, %3\n"
	"	@store_ssbo %17, %0, %19 write_mask=xyzw access=none align_mul=4 align_offset=0\n"
	"	32 %20 = load_const 16\n"
	"	32 %21 = iadd %19, %20\n"
	"	@store_ssbo %18, %0, %21 write_mask=xyzw access=none align_mul=4 align_offset=0\n"
	"	if %7 {\n"
	"	block b1:\n"
	"		32 %22 = @read_first_invocation %5\n"
	"		32 %23 = @read_invocation %5, %0\n"
	"		1 %24 = @vote_all %7\n"
	"		32 %25 = b2i32 %24\n"
	"		32 %26 = @shuffle_up %5, %1\n"
	"		32x4 %27 = vec4 %22, %23, %25, %26\n"
	"		@store_ssbo %27, %0, %19 write_mask=xyzw access=none align_mul=4 align_offset=0\n"
	"	} else {\n"
	"	block b2:\n"
	"	}\n"
	"block b3:\n"
	"}\n";

static void test_subgroups(void)
{
	struct shader *s = parse_ir(subgroup_ir);
	struct interp_inputs *in = interp_inputs_create(s);
	struct interp_result *r = run_ir(s, in);
	const struct interp_memory *m = &r->ssbo[0];
	bool ballot = true, reduce = true, scan = true, shuffle = true, elect = true;
	bool cluster = true, quad = true, scan_min = true;
	for (unsigned l = 0; l < 8; l += 2) {	/* even lanes: the first branch only */
		unsigned b = l & ~3u, sl = l & 3;
		ballot &= mem32(m, 32 * l) == 0xa;
		reduce &= mem32(m, 32 * l + 4) == (b ? 22 : 6);
		scan &= mem32(m, 32 * l + 8) == (sl ? b * sl + sl * (sl - 1) / 2 : 0);
		shuffle &= mem32(m, 32 * l + 12) == (l ^ 1);
	}
	for (unsigned l = 0; l < 8; l++) {
		elect &= mem32(m, 32 * l + 16) == ((l & 3) == 0);
		cluster &= mem32(m, 32 * l + 20) == 2 * (l & ~1u) + 1;
		quad &= mem32(m, 32 * l + 24) == (l ^ 3);
		scan_min &= mem32(m, 32 * l + 28) == ((l & 3) ? (l & ~3u) : 0x7fffffff);
	}
	ok(r->status == INTERP_OK && ballot, "ballot of the odd lanes is 0b1010 in each subgroup");
	ok(reduce && cluster, "reduce over the subgroup and over clusters of 2");
	ok(scan && scan_min, "exclusive scans; the first lane gets the identity (imin: INT_MAX)");
	ok(shuffle && quad, "shuffle_xor and quad_swap_diagonal");
	ok(elect, "elect picks the first lane of each subgroup");
	bool first = true, vote = true, undef = true;
	for (unsigned l = 1; l < 8; l += 2) {
		first &= mem32(m, 32 * l) == (l & ~3u) + 1;
		undef &= mem_poison(m, 32 * l + 4);
		vote &= mem32(m, 32 * l + 8) == 1;
		undef &= mem_poison(m, 32 * l + 12);	/* shuffle_up: the even lane below */
	}
	ok(first && vote, "in a branch: read_first_invocation and vote_all see the active lanes");
	ok(undef, "reading an inactive lane (read_invocation, shuffle_up) is poison");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

/* ---- geometry ---- */

static void test_geometry(void)
{
	static const char gs_ir[] =
		"shader geometry input_primitive=triangles output_primitive=triangle_strip vertices_out=3 invocations=1\n"
		"input 0 32x2 location=0 per_vertex\n"
		"output 0 32x2 location=0\n"
		"fn main {\n"
		"block b0:\n"
		"	32 %0 = load_const 0\n"
		"	32 %1 = load_const 1\n"
		"	32 %2 = load_const 3\n"
		"	loop {\n"
		"	block b1:\n"
		"		32 %3 = phi b0: %0, b4: %6\n"
		"		1 %4 = uge %3, %2\n"
		"		if %4 {\n"
		"		block b2:\n"
		"			break\n"
		"		} else {\n"
		"		block b3:\n"
		"		}\n"
		"	block b4:\n"
		"		32x2 %5 = @load_per_vertex_input %3, %0 base=0 component=0\n"
		"		@store_output %5, %0 base=0 component=0 write_mask=xy\n"
		"		@emit_vertex stream=0\n"
		"		32 %6 = iadd %3, %1\n"
		"	}\n"
		"block b5:\n"
		"	@end_primitive stream=0\n"
		"}\n";
	struct shader *s = parse_ir(gs_ir);
	struct interp_inputs *in = interp_inputs_create(s);
	for (unsigned v = 0; v < 3; v++)
		for (unsigned k = 0; k < 2; k++)
			in->input[0][interp_input_index(in, s->inputs[0], 0, v, 0, k)] = 10 * v + k;
	struct interp_result *r = run_ir(s, in);
	bool good = r->status == INTERP_OK && in->num_vertices == 3 && r->num_gs_events == 4;
	for (unsigned v = 0; good && v < 3; v++)
		good &= !r->gs_events[v].end_primitive && r->gs_events[v].outputs[0].vals[0] == 10 * v &&
			r->gs_events[v].outputs[0].vals[1] == 10 * v + 1;
	ok(good && r->gs_events[3].end_primitive, "emit_vertex copies the outputs; end_primitive is recorded");
	ok(out_or(r, s, 0, 0, 0, POISON) == POISON, "outputs are undefined after emit_vertex");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

/* ---- verdicts ---- */

static void test_step_limit(void)
{
	struct shader *s = parse_ir("shader compute workgroup_size=1,1,1\n"
				    "fn main {\nblock b0:\n\tloop {\n\tblock b1:\n\t}\nblock b2:\n}\n");
	struct interp_inputs *in = interp_inputs_create(s);
	struct interp_options opt = { 1000 };
	struct interp_result *r = interp_run(s, in, &opt);
	ok(r->status == INTERP_STEP_LIMIT && r->steps == 1001 && strstr(r->message, "step limit"),
	   "an empty infinite loop ends at the step limit");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);

	s = parse_ir(loops_ir);
	in = interp_inputs_create(s);
	for (unsigned l = 0; l < 4; l++)
		set32(&in->ssbo[0], 4 * l, 0x7fffffff);
	r = interp_run(s, in, &opt);
	ok(r->status == INTERP_STEP_LIMIT, "a loop of 2^31 iterations too");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

static void test_undefined(void)
{
	struct shader *s = parse_ir("shader fragment\noutput 0 32 location=0\n"
				    "fn main {\nblock b0:\n\t32 %0 = load_const 0\n\t32 %1 = undef\n"
				    "\t32 %2 = iadd %1, %0\n"
				    "\t@store_output %2, %0 base=0 component=0 write_mask=x\n"
				    "\t1 %3 = ieq %2, %0\n\tif %3 {\n\tblock b1:\n\t} else {\n"
				    "\tblock b2:\n\t}\nblock b3:\n}\n");
	struct interp_inputs *in = interp_inputs_create(s);
	struct interp_result *r = interp_run(s, in, NULL);
	ok(r->status == INTERP_UNDEFINED && strstr(r->message, "undefined condition"),
	   "a branch on a value computed from undef is undefined behaviour");
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

/* ---- every intrinsic of the table runs ---- */

static enum shader_stage stage_for(unsigned stages)
{
	static const struct { unsigned bit; enum shader_stage stage; } map[] = {
		{ INTR_STAGE_CS, STAGE_COMPUTE }, { INTR_STAGE_FS, STAGE_FRAGMENT },
		{ INTR_STAGE_TCS, STAGE_TESS_CTRL }, { INTR_STAGE_GS, STAGE_GEOMETRY },
		{ INTR_STAGE_TES, STAGE_TESS_EVAL }, { INTR_STAGE_VS, STAGE_VERTEX },
	};
	for (unsigned i = 0; i < sizeof(map) / sizeof(*map); i++)
		if (!stages || stages & map[i].bit)
			return map[i].stage;
	return STAGE_COMPUTE;
}

static unsigned pick_bits(unsigned mask)
{
	if (!mask || mask & IR_BITS_32)
		return 32;
	return mask & IR_BITS_1 ? 1 : mask & IR_BITS_64 ? 64 : 16;
}

static bool per_vertex_op(enum intrinsic op)
{
	return op == INTR_load_per_vertex_input || op == INTR_load_per_vertex_output ||
	       op == INTR_store_per_vertex_output;
}

/* A shader with declarations for everything an intrinsic may name, and the
 * intrinsic on constant (mostly zero) sources. */
static struct shader *intrinsic_shader(enum intrinsic op)
{
	const struct intrinsic_info *info = &intrinsic_infos[op];
	struct shader *s = shader_create(stage_for(info->stages), "main");
	s->info.workgroup_size[0] = 4;
	s->info.workgroup_size[1] = s->info.workgroup_size[2] = 1;
	s->info.shared_size = 64;
	s->info.scratch_size = 64;
	s->info.vertices_out = 3;
	s->info.input_primitive = PRIM_triangles;
	struct io_decl *io = shader_add_input(s);
	io->location = 0, io->num_components = 4, io->bit_size = 32, io->per_vertex = per_vertex_op(op);
	io = shader_add_output(s);
	io->location = 0, io->num_components = 4, io->bit_size = 32, io->per_vertex = per_vertex_op(op);
	struct local_decl *loc = shader_add_local(s);
	loc->num_elements = 2, loc->num_components = 4, loc->bit_size = 32;
	shader_add_ubo(s)->size = 64;
	shader_add_ssbo(s)->size = 64;
	struct resource_decl *img = shader_add_image(s);
	img->dim = DIM_2d, img->type = BASE_uint, img->format = FORMAT_r32ui;

	bool sized = op == INTR_load_local || op == INTR_store_local || op == INTR_load_input ||
		     op == INTR_load_output || op == INTR_store_output || per_vertex_op(op) ||
		     op == INTR_interp_at_centroid || op == INTR_interp_at_sample ||
		     op == INTR_interp_at_offset;
	unsigned nc = sized ? 4 : 1;
	struct builder b;
	builder_init_at_end(&b, s);
	struct ssa_def *srcs[INTR_MAX_SRCS];
	for (unsigned i = 0; i < info->num_srcs; i++) {
		int n = info->src_components[i];
		unsigned comps = n > 0 ? (unsigned)n : n == 0 ? nc : 2;
		uint64_t zero[16] = { 0 };
		srcs[i] = b_const(&b, comps, pick_bits(info->src_bit_sizes[i]), zero);
	}
	bool swap = op == INTR_ssbo_atomic_swap || op == INTR_shared_atomic_swap ||
		    op == INTR_global_atomic_swap || op == INTR_image_atomic_swap;
	struct intr_indices idx = {
		.atomic_op = swap ? ATOMIC_cmpxchg : ATOMIC_iadd,
		.execution_scope = SCOPE_workgroup,
		.memory_scope = SCOPE_workgroup,
		.reduction_op = OP_iadd,
		.image_dim = DIM_2d,
		.format = FORMAT_r32ui,
		.dest_type = BASE_uint,
		.src_type = BASE_uint,
		.align_mul = 4,
	};
	unsigned bits = info->dest_components == INTR_NO_DEST ? 0 : pick_bits(info->dest_bit_sizes);
	b_intrinsic(&b, op, nc, bits, srcs, &idx);
	return s;
}

static void test_every_intrinsic(void)
{
	bool all = true;
	for (int op = 0; op < INTR_COUNT; op++) {
		struct shader *s = intrinsic_shader((enum intrinsic)op);
		struct diag d = DIAG_INIT;
		if (!ir_validate(s, &d, intrinsic_infos[op].name)) {
			tap_diag("@%s: the test shader is not valid:\n%s", intrinsic_infos[op].name, d.text.buf);
			all = false;
		}
		struct interp_inputs *in = interp_inputs_random(s, 1);
		struct interp_result *r = interp_run(s, in, NULL);
		if (r->status == INTERP_ERROR) {
			tap_diag("@%s: %s", intrinsic_infos[op].name, r->message);
			all = false;
		}
		interp_result_free(r);
		interp_inputs_free(in);
		diag_release(&d);
		shader_free(s);
	}
	ok(all, "every intrinsic of intrinsics.def runs (%d)", INTR_COUNT);
}

int main(void)
{
	test_loops();
	test_phi_swap();
	test_return();
	test_locals();
	test_memory();
	test_typed_inputs();
	test_atomics();
	test_barriers();
	test_discard_demote();
	test_derivatives();
	test_subgroups();
	test_geometry();
	test_step_limit();
	test_undefined();
	test_ubo_range();
	test_every_intrinsic();
	return done_testing();
}
