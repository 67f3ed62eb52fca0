/*
 * The builder API as instruction selection will use it (the example of
 * compiler/ir3/README.md), through the whole backend.
 */
#include "compiler/ir3/ir3_compile.h"
#include "compiler/target.h"
#include "tap.h"

int main(void)
{
	struct arena arena = ARENA_INIT;
	struct ir3 *ir = ir3_create(&arena, STAGE_FRAGMENT);
	ir->const_size = 2;
	struct ir3_block *b0 = ir3_block_create(ir);
	struct ir3_builder b = ir3_builder_at_end(b0);
	struct ir3_register *ij = ir3_b_input(&b, 0, 2, true);
	struct ir3_register *x = ir3_b_bary(&b, 0, ij);
	struct ir3_register *c = ir3_b_const(&b, TYPE_F32, 4 * 1 + 2);
	struct ir3_register *y = ir3_b_alu2(&b, OPC_MUL_F, x, c);
	struct ir3_register *coord[2] = { x, y };
	struct ir3_register *vec = ir3_b_collect(&b, 2, coord);
	struct ir3_register *t = ir3_b_tex(&b, OPC_SAM, TYPE_F32, 0xf, 0, 0, 1, &vec);
	struct ir3_register *r = ir3_b_split(&b, t, 0);
	ir3_b_end(&b, 1, &r)->srcs[0]->slot = 0;
	ir3_calc_preds(ir);

	struct strbuf text = STRBUF_INIT;
	ir3_print(&text, ir);
	ok(strstr(text.buf, "sam.f32") && strstr(text.buf, "end rt0.x="), "the built IR prints");
	strbuf_release(&text);

	struct ir3_compile_options o = { .verify = true, .validate = true, .want_disasm = true };
	struct ir3_compile_output out;
	ir3_compile_output_init(&out);
	ok(!ir3_compile_machine(ir, target_find("a630")->ir3, &o, &out), "it compiles for a630");
	if (out.error.len)
		tap_diag("%s", out.error.buf);
	ok(strstr(out.disasm.buf, "(ei)") && strstr(out.disasm.buf, "sam (f32)(x)"),
	   "the disassembly has the last bary.f (ei) and a one-component sam");
	is_int(out.stats.value[STAT_CAT5], 1, "one texture instruction");
	is_int(out.stats.value[STAT_CONSTLEN], 4, "constlen: two declared vec4, aligned to 4");
	ir3_compile_output_release(&out);
	arena_release(&arena);
	return done_testing();
}
