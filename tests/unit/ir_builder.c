/*
 * Building IR: the builder, insertion and removal, use lists, rewriting
 * uses, control-flow insertion and removal, the derived CFG.  Each test
 * checks the printed result and runs the validator.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/builder.h"
#include "tap.h"

static struct shader *new_fs(struct builder *b)
{
	struct shader *s = shader_create(STAGE_FRAGMENT, "main");
	struct io_decl *in = shader_add_input(s);
	in->location = 0;
	in->num_components = 4;
	in->bit_size = 32;
	in->interp = INTERP_smooth;
	struct io_decl *out = shader_add_output(s);
	out->location = 0;
	out->num_components = 4;
	out->bit_size = 32;
	builder_init_at_end(b, s);
	return s;
}

static bool valid(struct shader *s, const char *what)
{
	struct diag d = DIAG_INIT;
	bool v = ir_validate(s, &d, "test");
	if (!ok(v, "%s: valid", what))
		tap_diag("%s", d.text.buf);
	diag_release(&d);
	return v;
}

static void invalid(struct shader *s, const char *msg, const char *what)
{
	struct diag d = DIAG_INIT;
	bool v = ir_validate(s, &d, "test");
	if (!ok(!v && strstr(d.text.buf, msg), "%s: reported", what))
		tap_diag("got: %s", d.text.buf);
	diag_release(&d);
}

static void is_ir(struct shader *s, const char *want, const char *what)
{
	char *got = ir_print_string(s);
	is_str(got, want, "%s", what);
	free(got);
}

static void test_straight_line(void)
{
	struct builder b;
	struct shader *s = new_fs(&b);
	struct ssa_def *zero = b_imm_int(&b, 0);
	struct ssa_def *x = b_load_input(&b, 4, 32, 0, 0, zero);
	struct ssa_def *y = b_fmul(&b, x, b_imm_float(&b, 2.0));
	struct ssa_def *z = b_ffma(&b, y, x, b_channel(&b, y, 3));
	b_store_output(&b, z, 0, 0, 0, zero);
	is_ir(s,
	      "shader fragment\n\n"
	      "input 0 32x4 location=0 smooth\n"
	      "output 0 32x4 location=0\n\n"
	      "fn main {\n"
	      "block b0:\n"
	      "\t32     %0 = load_const 0\n"
	      "\t32x4   %1 = @load_input %0 base=0 component=0\n"
	      "\t32     %2 = load_const 0x40000000  # 2.0\n"
	      "\t32x4   %3 = fmul %1, %2.xxxx\n"
	      "\t32     %4 = mov %3.w\n"
	      "\t32x4   %5 = ffma %3, %1, %4.xxxx\n"
	      "\t@store_output %5, %0 base=0 component=0 write_mask=xyzw\n"
	      "}\n",
	      "scalars broadcast, write masks default to every component");
	valid(s, "straight-line code");
	is_int(ssa_def_num_uses(zero), 2, "the constant has two uses");
	is_int(ssa_def_num_uses(y), 2, "fmul's value has two uses (ffma and the mov)");
	shader_free(s);
}

static void test_rewrite_and_remove(void)
{
	struct builder b;
	struct shader *s = new_fs(&b);
	struct ssa_def *zero = b_imm_int(&b, 0);
	struct ssa_def *x = b_load_input(&b, 4, 32, 0, 0, zero);
	struct ssa_def *a = b_fadd(&b, x, x);
	struct ssa_def *m = b_fmul(&b, a, x);
	b_store_output(&b, m, 0, 0, 0xf, zero);

	ssa_def_rewrite_uses(a, x);
	is_int(ssa_def_num_uses(a), 0, "rewrite_uses leaves no use of the old value");
	is_int(ssa_def_num_uses(x), 4, "and moves them to the new one");
	instr_remove(a->parent);
	ok(a->parent->block == NULL, "a removed instruction has no block");
	is_int(ssa_def_num_uses(x), 2, "removing it drops its sources from the use lists");
	valid(s, "after rewrite and remove");

	/* rewrite_uses_after: the uses after the new instruction only */
	b.cursor = cursor_after_instr(m->parent);
	struct ssa_def *neg = b_fneg(&b, m);
	ssa_def_rewrite_uses_after(m, neg, neg->parent);
	is_int(ssa_def_num_uses(m), 1, "rewrite_uses_after keeps the use that computes the new value");
	is_int(ssa_def_num_uses(neg), 1, "and moves the later one");
	valid(s, "after rewrite_uses_after");

	/* moving an instruction keeps its uses */
	instr_move(cursor_before_instr(m->parent), neg->parent);
	invalid(s, "'32x4 %4 = fneg %3': %3 does not dominate this use",
		"an instruction moved before its source");
	instr_move(cursor_after_instr(m->parent), neg->parent);
	valid(s, "moved back");
	shader_free(s);
}

static void test_if_else_and_phi(void)
{
	struct builder b;
	struct shader *s = new_fs(&b);
	struct ssa_def *zero = b_imm_int(&b, 0);
	struct ssa_def *x = b_load_input(&b, 4, 32, 0, 0, zero);
	struct ssa_def *c = b_flt(&b, b_channel(&b, x, 0), b_imm_float(&b, 0));
	struct cf_if *nif = b_push_if(&b, c);
	b_discard(&b);
	struct ssa_def *t = b_fadd(&b, x, x);
	b_push_else(&b, nif);
	struct ssa_def *e = b_fsub(&b, x, x);
	b_pop_if(&b, nif);
	struct ssa_def *p = b_if_phi(&b, nif, t, e);
	b_store_output(&b, p, 0, 0, 0xf, zero);
	valid(s, "if/else with a phi");

	struct block *after = cf_as_block(cf_node_next(&nif->cf));
	struct block *then_b = cf_if_then_block(nif), *else_b = cf_if_else_block(nif);
	struct block *start = function_start_block(s->fn);
	is_int(block_num_preds(after), 2, "the block after the if has two predecessors");
	ok(block_succ(start, 0) == then_b && block_succ(start, 1) == else_b,
	   "the block before it branches to both sides, then first");
	ok(block_succ(then_b, 0) == after && block_num_succs(then_b) == 1, "then falls through");
	ok(block_first_instr(after) == p->parent, "the phi is at the top of the block after");
	shader_free(s);
}

static void test_loop(void)
{
	struct builder b;
	struct shader *s = new_fs(&b);
	struct ssa_def *zero = b_imm_int(&b, 0);
	struct cf_loop *loop = b_push_loop(&b);
	struct block *header = cf_loop_header(loop);
	struct phi_instr *i = b_phi(&b, header, 1, 32);
	phi_add_src(i, cf_as_block(cf_node_prev(&loop->cf)), zero);
	struct cf_if *brk = b_push_if(&b, b_ige(&b, &i->def, b_imm_int(&b, 4)));
	b_break(&b);
	b_pop_if(&b, brk);
	struct ssa_def *next = b_iadd(&b, &i->def, b_imm_int(&b, 1));
	phi_add_src(i, cf_list_last_block(&loop->body), next);
	b_pop_loop(&b, loop);
	struct ssa_def *f = b_i2f32(&b, &i->def);
	b_store_output(&b, b_vec4(&b, f, f, f, f), 0, 0, 0xf, zero);
	valid(s, "a counted loop");
	is_ir(s,
	      "shader fragment\n\n"
	      "input 0 32x4 location=0 smooth\n"
	      "output 0 32x4 location=0\n\n"
	      "fn main {\n"
	      "block b0:\n"
	      "\t32     %0 = load_const 0\n"
	      "\tloop {\n"
	      "\tblock b1:  # preds: b0 b4\n"
	      "\t\t32     %1 = phi b0: %0, b4: %5\n"
	      "\t\t32     %2 = load_const 4\n"
	      "\t\t1      %3 = ige %1, %2\n"
	      "\t\tif %3 {\n"
	      "\t\tblock b2:  # preds: b1\n"
	      "\t\t\tbreak\n"
	      "\t\t} else {\n"
	      "\t\tblock b3:  # preds: b1\n"
	      "\t\t}\n"
	      "\tblock b4:  # preds: b3\n"
	      "\t\t32     %4 = load_const 1\n"
	      "\t\t32     %5 = iadd %1, %4\n"
	      "\t}\n"
	      "block b5:  # preds: b2\n"
	      "\t32     %6 = i2f32 %1\n"
	      "\t32x4   %7 = vec4 %6, %6, %6, %6\n"
	      "\t@store_output %7, %0 base=0 component=0 write_mask=xyzw\n"
	      "}\n",
	      "loop printed with its back edge");
	shader_free(s);
}

static void test_cf_remove_and_split(void)
{
	struct builder b;
	struct shader *s = new_fs(&b);
	struct ssa_def *zero = b_imm_int(&b, 0);
	struct ssa_def *x = b_load_input(&b, 4, 32, 0, 0, zero);
	struct ssa_def *y = b_fadd(&b, x, x);
	b_store_output(&b, y, 0, 0, 0xf, zero);

	/* an if inserted in the middle of a block splits it */
	struct cf_if *nif = cf_insert_if(cursor_after_instr(x->parent), b_imm_bool(&b, true));
	invalid(s, "the condition of the if after it, %3, does not dominate it",
		"an if whose condition comes later");
	ok(y->parent->block == cf_as_block(cf_node_next(&nif->cf)),
	   "instructions after the cursor go to the block after the if");
	ok(x->parent->block == cf_as_block(cf_node_prev(&nif->cf)),
	   "instructions before it stay before");
	/* the condition came from the builder's cursor; the builder wrote it at the end */
	instr_move(cursor_before_instr(x->parent), nif->condition.ssa->parent);
	valid(s, "condition moved before the if");

	struct builder ib;
	builder_init(&ib, s, cursor_after_block(cf_if_then_block(nif)));
	b_discard(&ib);
	cf_remove(&nif->cf);
	valid(s, "after removing the if");
	is_int(list_length(&s->fn->body), 1, "the blocks around it merged");
	ok(x->parent->block == y->parent->block, "into one block");
	shader_free(s);
}

/* An if whose block before is the larger: the block after merges into it,
 * and the phis of its successor (the outer if's join, then a loop header)
 * name the merged block as their predecessor. */
static const char *const merge_into_prev[] = {
	"shader fragment\n"
	"input 0 32x4 location=0 smooth name=\"v\"\n"
	"output 0 32x4 location=0\n"
	"fn main {\n"
	"block b0:\n"
	"\t32 %0 = load_const 0\n"
	"\t32x4 %1 = @load_input %0 base=0 component=0\n"
	"\t32 %2 = mov %1.x\n"
	"\t1 %3 = flt %2, %0\n"
	"\tif %3 {\n"
	"\tblock b1:\n"
	"\t\t32 %4 = fadd %2, %2\n"
	"\t\t32 %5 = fadd %4, %4\n"
	"\t\t1 %6 = flt %5, %0\n"
	"\t\tif %6 {\n"
	"\t\tblock b2:\n"
	"\t\t} else {\n"
	"\t\tblock b3:\n"
	"\t\t}\n"
	"\tblock b4:\n"
	"\t\t32 %7 = fmul %5, %5\n"
	"\t} else {\n"
	"\tblock b5:\n"
	"\t}\n"
	"block b6:\n"
	"\t32 %8 = phi b4: %7, b5: %0\n"
	"\t32x4 %9 = vec4 %8, %8, %8, %8\n"
	"\t@store_output %9, %0 base=0 component=0 write_mask=xyzw\n"
	"}\n",
	"shader fragment\n"
	"input 0 32x4 location=0 smooth name=\"v\"\n"
	"output 0 32x4 location=0\n"
	"fn main {\n"
	"block b0:\n"
	"\t32 %0 = load_const 0\n"
	"\t32x4 %1 = @load_input %0 base=0 component=0\n"
	"\t32 %2 = mov %1.x\n"
	"\t32 %3 = fadd %2, %2\n"
	"\t1 %4 = flt %3, %0\n"
	"\tif %4 {\n"
	"\tblock b1:\n"
	"\t} else {\n"
	"\tblock b2:\n"
	"\t}\n"
	"block b3:\n"
	"\tloop {\n"
	"\tblock b4:\n"
	"\t\t32 %5 = phi b3: %3, b7: %9\n"
	"\t\t32 %6 = load_const 4\n"
	"\t\t1 %7 = fge %5, %6\n"
	"\t\tif %7 {\n"
	"\t\tblock b5:\n"
	"\t\t\tbreak\n"
	"\t\t} else {\n"
	"\t\tblock b6:\n"
	"\t\t}\n"
	"\tblock b7:\n"
	"\t\t32 %9 = fadd %5, %5\n"
	"\t}\n"
	"block b8:\n"
	"\t32x4 %10 = vec4 %5, %5, %5, %5\n"
	"\t@store_output %10, %0 base=0 component=0 write_mask=xyzw\n"
	"}\n",
};

/* The first if found in `list`, depth first. */
static struct cf_if *first_innermost_if(struct list *list)
{
	foreach_cf_node(n, list) {
		if (n->type != CF_IF)
			continue;
		struct cf_if *inner = first_innermost_if(&cf_as_if(n)->then_list);
		return inner ? inner : cf_as_if(n);
	}
	return NULL;
}

static void test_cf_remove_merges_into_prev(void)
{
	for (size_t k = 0; k < sizeof(merge_into_prev) / sizeof(merge_into_prev[0]); k++) {
		struct diag d = DIAG_INIT;
		struct shader *s = ir_parse("merge.ir", merge_into_prev[k], strlen(merge_into_prev[k]),
					    &d);
		if (!ok(s && ir_validate(s, &d, "merge.ir"), "case %zu parses and validates", k)) {
			tap_diag("%s", d.text.buf);
			shader_free(s);
			diag_release(&d);
			continue;
		}
		struct cf_if *nif = first_innermost_if(&s->fn->body);
		struct block *prev = cf_as_block(cf_node_prev(&nif->cf));
		ok(cf_remove(&nif->cf) == prev, "case %zu: the larger block before stays", k);
		valid(s, "the phis after name it as their predecessor");
		shader_free(s);
		diag_release(&d);
	}
}

static void test_tex_and_intrinsics(void)
{
	struct builder b;
	struct shader *s = new_fs(&b);
	struct resource_decl *t = shader_add_texture(s);
	t->dim = DIM_2d;
	t->type = BASE_float;
	t->binding = 1;
	struct resource_decl *smp = shader_add_sampler(s);
	smp->binding = 1;
	struct buffer_decl *ubo = shader_add_ubo(s);
	ubo->size = 64;
	struct ssa_def *zero = b_imm_int(&b, 0);
	struct ssa_def *uv = b_load_input(&b, 2, 32, 0, 0, zero);
	struct ssa_def *texel = b_tex(&b, &(struct tex_desc){ .op = TEX_OP_tex, .dim = DIM_2d },
				      (struct tex_src_desc[]){ { TEX_SRC_coord, uv } }, 1);
	struct ssa_def *scale = b_load_ubo(&b, 4, 32, zero, b_imm_int(&b, 16));
	struct ssa_def *fc = b_sysval(&b, INTR_load_frag_coord);
	struct ssa_def *r = b_intr(&b, reduce, 4, 32, (fc), .reduction_op = OP_fadd);
	b_intr(&b, barrier, 0, 0, (), .execution_scope = SCOPE_workgroup,
	       .memory_scope = SCOPE_workgroup, .memory_semantics = (int32_t)SEMANTICS_ACQUIRE);
	b_store_output(&b, b_fmul(&b, b_fmul(&b, texel, scale), r), 0, 0, 0xf, zero);
	is_int(texel->num_components, 4, "a 2D lookup gives a vec4");
	is_int(fc->num_components, 4, "load_frag_coord is a vec4");
	struct tex_instr *tex = instr_as_tex(texel->parent);
	tex_instr_add_src(tex, TEX_SRC_bias, b_imm_float(&b, 0.5));
	tex->op = TEX_OP_txb;
	is_int(ssa_def_num_uses(uv), 1, "adding a tex source keeps the others' uses");
	invalid(s, "bias=%9': %9 does not dominate this use", "a bias defined after its use");
	instr_move(cursor_before_instr(&tex->instr), tex->src[1].src.ssa->parent);
	valid(s, "textures, UBOs, system values, subgroup ops and barriers");
	tex_instr_remove_src(tex, 1);
	tex->op = TEX_OP_tex;
	is_int(tex->num_srcs, 1, "removing a tex source");
	valid(s, "after removing the bias");
	char *text = ir_print_string(s);
	ok(strstr(text, "= tex 2d float texture=0 sampler=0 coord=%1\n") != NULL, "tex printed");
	ok(strstr(text, "@reduce %") && strstr(text, "reduction_op=fadd cluster_size=0"),
	   "reduce printed with its opcode");
	ok(strstr(text, "@barrier execution_scope=workgroup memory_scope=workgroup "
		  "memory_semantics=acquire memory_modes=none") != NULL, "barrier printed");
	free(text);
	shader_free(s);
}

static void test_metadata(void)
{
	struct builder b;
	struct shader *s = new_fs(&b);
	struct ssa_def *zero = b_imm_int(&b, 0);
	struct cf_if *nif = b_push_if(&b, b_imm_bool(&b, false));
	b_pop_if(&b, nif);
	b_store_output(&b, b_load_input(&b, 4, 32, 0, 0, zero), 0, 0, 0xf, zero);
	metadata_require(s->fn, META_ALL);
	is_int(s->fn->valid_metadata & META_ALL, META_ALL, "metadata_require computes everything");
	ok(!shader_progress(s, false, 0) && (s->fn->valid_metadata & META_ALL) == META_ALL,
	   "no progress keeps the metadata");
	ok(shader_progress(s, true, META_CONTROL_FLOW), "progress is returned");
	is_int(s->fn->valid_metadata & META_ALL, META_CONTROL_FLOW, "and drops what was not preserved");
	ok(shader_reindex(s) == false, "a shader built in order needs no renumbering");
	shader_free(s);
}

int main(void)
{
	test_straight_line();
	test_rewrite_and_remove();
	test_if_else_and_phi();
	test_loop();
	test_cf_remove_and_split();
	test_cf_remove_merges_into_prev();
	test_tex_and_intrinsics();
	test_metadata();
	return done_testing();
}
