/*
 * The interpreter as an oracle (interp_compare.c): float equality with and
 * without tolerance, and interp_check_equivalent() on transformations that
 * are right (it must accept them: NaN payloads, refined undefined values,
 * the folder's shift semantics) and wrong (it must say where and why).
 */
#include <math.h>

#include "interp_util.h"

#define FS_HEAD "shader fragment\ninput 0 32 location=0 smooth\noutput 0 32 location=0\n" \
		"fn main {\nblock b0:\n\t32 %0 = load_const 0\n\t32 %1 = @load_input %0 base=0 component=0\n"
#define FS_TAIL "\t@store_output %9, %0 base=0 component=0 write_mask=x\n}\n"

static struct shader *fs(const char *body)
{
	size_t n = strlen(FS_HEAD) + strlen(body) + strlen(FS_TAIL) + 1;
	char *text = xmalloc(n);
	snprintf(text, n, "%s%s%s", FS_HEAD, body, FS_TAIL);
	struct shader *s = parse_ir(text);
	free(text);
	return s;
}

/* Whether `after` is accepted; the reason in *why (caller frees). */
static bool equivalent(const char *before, const char *after, const struct interp_tolerance *tol,
		       struct strbuf *why, struct interp_equiv_stats *st)
{
	struct shader *a = fs(before), *b = fs(after);
	struct interp_baseline *base = interp_baseline_create(a, 100, 10000);
	bool same = interp_baseline_check(base, b, tol, why, st);
	interp_baseline_free(base);
	shader_free(a);
	shader_free(b);
	return same;
}

static void test_float_equal(void)
{
	struct interp_tolerance exact = { 0, 0, 0 }, ulp2 = { .ulp = 2 }, rel = { .rel = 1e-6 };
	uint32_t one = fbits(1.0f), next = one + 1;
	ok(interp_float_equal(0x7fc00000, 0xffc00123, 32, &exact), "two NaNs are equal whatever their payloads");
	ok(interp_float_equal(0x7e00, 0x7c01, 16, NULL), "… also in f16 (a signalling NaN)");
	ok(!interp_float_equal(0x7fc00000, 0x7f800000, 32, &ulp2), "NaN is not inf");
	ok(!interp_float_equal(one, next, 32, &exact), "exact: one ulp apart differs");
	ok(interp_float_equal(one, next + 1, 32, &ulp2), "within 2 ulp");
	ok(!interp_float_equal(one, next + 2, 32, &ulp2), "not within 2 ulp");
	ok(interp_float_equal(0x80000000, 0, 32, &ulp2) && !interp_float_equal(0x80000000, 0, 32, &exact),
	   "-0 and +0: equal with a tolerance, not exactly");
	ok(interp_float_equal(0x80000001, 0x00000001, 32, &ulp2), "ulps count across zero");
	ok(interp_float_equal(fbits(1e6f), fbits(1e6f + 0.5f), 32, &rel), "a relative tolerance");
	ok(!interp_float_equal(0x7f800000, 0x7f7fffff, 32, &rel), "inf is not within any tolerance of a float");
	ok(interp_float_equal(0x3ff0000000000000ull, 0x3ff0000000000001ull, 64, &ulp2), "f64 ulps");
}

static void test_accepts(void)
{
	struct strbuf why = STRBUF_INIT;
	struct interp_equiv_stats st;
	bool same = equivalent("\t32 %2 = load_const 0x3f800000\n\t32 %9 = fmul %1, %2\n",
			       "\t32 %9 = mov %1\n", NULL, &why, &st);
	ok(same && st.compared == 100, "x * 1.0 → x: only NaN payloads differ, and they may");
	if (!same)
		tap_diag("%s", why.buf);
	strbuf_reset(&why);
	same = equivalent("\t32 %2 = undef\n\t32 %9 = fadd %1, %2\n",
			  "\t32 %9 = load_const 0\n", NULL, &why, &st);
	ok(same, "an undefined result may become anything");
	strbuf_reset(&why);
	same = equivalent("\t32 %2 = load_const 32\n\t32 %9 = ishl %1, %2\n",
			  "\t32 %9 = mov %1\n", NULL, &why, &st);
	ok(same, "x << 32 → x: shift counts wrap, as the folder says");
	strbuf_reset(&why);
	same = equivalent("\t32 %2 = load_const 0x40400000\n\t32 %9 = fdiv %1, %2\n",
			  "\t32 %2 = load_const 0x3eaaaaab\n\t32 %9 = fmul %1, %2\n",
			  &(struct interp_tolerance){ .ulp = 2 }, &why, &st);
	ok(same, "x / 3 → x * (1/3) within 2 ulp");
	strbuf_release(&why);
}

static void test_rejects(void)
{
	struct strbuf why = STRBUF_INIT;
	struct interp_equiv_stats st;
	bool same = equivalent("\t32 %2 = load_const 0\n\t32 %9 = fadd %1, %2\n",
			       "\t32 %9 = mov %1\n", NULL, &why, &st);
	ok(!same && strstr(why.buf, "seed ") && strstr(why.buf, "0x80000000"),
	   "x + 0.0 → x is wrong for -0.0, and the message shows it");
	tap_diag("%s", why.buf);
	strbuf_reset(&why);
	same = equivalent("\t32 %2 = load_const 0x40400000\n\t32 %9 = fdiv %1, %2\n",
			  "\t32 %2 = load_const 0x3eaaaaab\n\t32 %9 = fmul %1, %2\n", NULL, &why, &st);
	ok(!same, "x / 3 → x * (1/3) is not exact");
	strbuf_reset(&why);
	same = equivalent("\t32 %2 = load_const 32\n\t32 %9 = ishl %1, %2\n",
			  "\t32 %9 = load_const 0\n", NULL, &why, &st);
	ok(!same, "x << 32 → 0 contradicts the folder");
	strbuf_reset(&why);
	same = equivalent("\t32 %9 = mov %1\n", "\t32 %9 = undef\n", NULL, &why, &st);
	ok(!same && strstr(why.buf, "undef"), "a defined result may not become undefined");
	strbuf_reset(&why);
	same = equivalent("\t32 %9 = mov %1\n",
			  "\t32 %9 = mov %1\n\t1 %2 = flt %1, %0\n\t@discard_if %2\n", NULL, &why, &st);
	ok(!same && strstr(why.buf, "discarded after"), "discarding a lane is a difference");
	strbuf_reset(&why);
	same = equivalent("\t32 %9 = mov %1\n",
			  "\t32 %9 = mov %1\n\tloop {\n\tblock b1:\n\t}\nblock b2:\n", NULL, &why, &st);
	ok(!same && strstr(why.buf, "step limit"), "an infinite loop after a pass is a difference");
	strbuf_reset(&why);
	same = equivalent("\t32 %9 = mov %1\n\tloop {\n\tblock b1:\n\t}\nblock b2:\n",
			  "\t32 %9 = mov %1\n", NULL, &why, &st);
	ok(same && st.compared == 0 && st.skipped == 100,
	   "seeds where the original does not end are skipped");
	strbuf_release(&why);
}

/* Lowerings that differ only where SPIR-V leaves the result undefined. */
static void test_spirv_undef(void)
{
	struct strbuf why = STRBUF_INIT;
	struct interp_equiv_stats st;
	struct interp_tolerance undef = { .spirv_undef = true };
	const char *div = "\t32 %2 = f2i32 %1\n\t32 %3 = load_const 3\n\t32 %4 = iand %2, %3\n"
			  "\t32 %9 = idiv %2, %4\n";
	const char *div_lowered = "\t32 %2 = f2i32 %1\n\t32 %3 = load_const 3\n\t32 %4 = iand %2, %3\n"
				  "\t32 %5 = idiv %2, %4\n\t32 %6 = load_const -1\n\t1 %7 = ieq %4, %0\n"
				  "\t32 %9 = bcsel %7, %6, %5\n";
	ok(!equivalent(div, div_lowered, NULL, &why, &st),
	   "idiv giving -1 for a zero divisor contradicts the folder");
	strbuf_reset(&why);
	ok(equivalent(div, div_lowered, &undef, &why, &st),
	   "… and is accepted when the pass declares .spirv_undef");
	strbuf_reset(&why);
	const char *pow = "\t32 %2 = load_const 0x40000000\n\t32 %9 = fpow %1, %2\n";
	const char *pow_lowered = "\t32 %2 = load_const 0x40000000\n\t32 %3 = flog2 %1\n"
				  "\t32 %4 = fmul %3, %2\n\t32 %9 = fexp2 %4\n";
	struct interp_tolerance rel = { .rel = 1e-4 }, both = { .rel = 1e-4, .spirv_undef = true };
	ok(!equivalent(pow, pow_lowered, &rel, &why, &st), "pow → exp2(log2(x)·y) differs for x < 0");
	strbuf_reset(&why);
	ok(equivalent(pow, pow_lowered, &both, &why, &st), "… which .spirv_undef allows");
	if (why.len)
		tap_diag("%s", why.buf);
	strbuf_reset(&why);
	const char *shl = "\t32 %2 = f2u32 %1\n\t32 %9 = ishl %2, %2\n";
	const char *shl_clamped = "\t32 %2 = f2u32 %1\n\t32 %3 = load_const 31\n"
				  "\t32 %4 = umin %2, %3\n\t32 %9 = ishl %2, %4\n";
	ok(!equivalent(shl, shl_clamped, NULL, &why, &st) &&
	   equivalent(shl, shl_clamped, &undef, &why, &st),
	   "clamping the shift count: wrong by the folder, right with .spirv_undef");
	strbuf_release(&why);
}

/* Vulkan's default float rules: signed zeros, infinities and NaNs need not
 * be preserved unless the shader says SignedZeroInfNanPreserve. */
static void test_float_relaxed(void)
{
	struct strbuf why = STRBUF_INIT;
	struct interp_equiv_stats st;
	struct interp_tolerance relaxed = { .float_relaxed = true };
	static const struct { const char *before, *after, *what; } cases[] = {
		{ "\t32 %2 = load_const 0\n\t32 %9 = fadd %1, %2\n", "\t32 %9 = mov %1\n", "x + 0.0 → x" },
		{ "\t32 %2 = load_const 0\n\t32 %9 = fmul %1, %2\n", "\t32 %9 = load_const 0\n",
		  "x * 0.0 → 0.0" },
		{ "\t32 %9 = fsub %1, %1\n", "\t32 %9 = load_const 0\n", "x - x → 0.0" },
		{ "\t1 %2 = feq %1, %1\n\t32 %9 = b2i32 %2\n", "\t32 %9 = load_const 1\n",
		  "feq(x, x) → true" },
		{ "\t32 %2 = load_const 0x3f800000\n\t1 %3 = flt %1, %2\n\t1 %4 = inot %3\n"
		  "\t32 %9 = b2i32 %4\n",
		  "\t32 %2 = load_const 0x3f800000\n\t1 %3 = fge %1, %2\n\t32 %9 = b2i32 %3\n",
		  "!(x < 1) → x >= 1" },
		{ "\t32 %2 = load_const 0\n\t32 %3 = load_const 3\n\t32 %4 = fmul %1, %2\n"
		  "\t32 %9 = iadd %4, %3\n", "\t32 %9 = load_const 3\n",
		  "the bits of x * 0.0 read as an integer (the sign of zero is open)" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		bool strict = equivalent(cases[i].before, cases[i].after, NULL, &why, &st);
		strbuf_reset(&why);
		bool relax = equivalent(cases[i].before, cases[i].after, &relaxed, &why, &st);
		if (!relax)
			tap_diag("%s", why.buf);
		strbuf_reset(&why);
		ok(!strict && relax, "%s: wrong in IEEE, right under Vulkan's default float rules",
		   cases[i].what);
	}
	ok(!equivalent("\t32 %2 = load_const 0x3f800000\n\t32 %9 = fadd %1, %2\n",
		       "\t32 %9 = mov %1\n", &relaxed, &why, &st), "x + 1.0 → x is wrong anyway");
	strbuf_reset(&why);
	ok(!equivalent("\t32 %2 = load_const 0\n\t32 %9 = fadd exact %1, %2\n",
		       "\t32 %9 = mov %1\n", &relaxed, &why, &st),
	   "an exact instruction keeps IEEE semantics (x + 0.0 → x is wrong)");
	strbuf_reset(&why);
	ok(!equivalent("\t32 %2 = load_const 0\n\t32 %3 = fadd exact %1, %2\n\t32 %9 = mov %3\n",
		       "\t32 %9 = mov %1\n", &relaxed, &why, &st),
	   "… also through a move");
	strbuf_reset(&why);
	ok(equivalent("\t32 %2 = load_const 0x3f800000\n\t32 %3 = fadd %1, %0\n"
		      "\t32 %9 = fmul exact %3, %2\n",
		      "\t32 %2 = load_const 0x3f800000\n\t32 %9 = fmul exact %1, %2\n",
		      &relaxed, &why, &st),
	   "an exact op on a zero whose sign a relaxed op left open leaves it open");
	strbuf_reset(&why);
	/* SignedZeroInfNanPreserve for 32-bit floats: no relaxation */
	struct shader *a = parse_ir("shader fragment float_controls=szinp32\ninput 0 32 location=0 smooth\n"
				    "output 0 32 location=0\nfn main {\nblock b0:\n\t32 %0 = load_const 0\n"
				    "\t32 %1 = @load_input %0 base=0 component=0\n\t32 %2 = fadd %1, %0\n"
				    "\t@store_output %2, %0 base=0 component=0 write_mask=x\n}\n");
	struct shader *b = parse_ir("shader fragment float_controls=szinp32\ninput 0 32 location=0 smooth\n"
				    "output 0 32 location=0\nfn main {\nblock b0:\n\t32 %0 = load_const 0\n"
				    "\t32 %1 = @load_input %0 base=0 component=0\n"
				    "\t@store_output %1, %0 base=0 component=0 write_mask=x\n}\n");
	ok(!interp_check_equivalent(a, b, 100, &relaxed, &why),
	   "… but not when the shader preserves signed zeros (szinp32)");
	shader_free(a);
	shader_free(b);
	strbuf_release(&why);
}

static void test_check_equivalent(void)
{
	struct shader *a = fs("\t32 %9 = fneg %1\n"), *b = fs("\t32 %9 = fneg %1\n");
	struct strbuf why = STRBUF_INIT;
	ok(interp_check_equivalent(a, b, 100, NULL, &why), "interp_check_equivalent of a copy");
	strbuf_release(&why);
	shader_free(a);
	shader_free(b);
}

static void test_print(void)
{
	struct shader *s = fs("\t32 %9 = fadd %1, %1\n");
	struct interp_inputs *in = interp_inputs_create(s);
	for (unsigned l = 0; l < 4; l++)
		set_input(s, in, 0, l, 0, fbits(1.5f));
	struct interp_result *r = run_ir(s, in);
	struct strbuf out = STRBUF_INIT;
	interp_result_print(s, r, &out);
	ok(strstr(out.buf, "status: ok") && strstr(out.buf, "output 0 lane 3: 0x40400000 (3)"),
	   "interp_result_print");
	strbuf_release(&out);
	interp_result_free(r);
	interp_inputs_free(in);
	shader_free(s);
}

int main(void)
{
	test_float_equal();
	test_accepts();
	test_rejects();
	test_spirv_undef();
	test_float_relaxed();
	test_check_equivalent();
	test_print();
	return done_testing();
}
