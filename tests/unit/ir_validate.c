/*
 * The validator: one negative test per rule, from parsed text where the
 * parser lets the mistake through, else from IR broken by hand.  Each
 * expects the message (and, for parsed input, the line).
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/builder.h"
#include "tap.h"

#define DECLS \
	"input 0 32x4 location=0 smooth\n" \
	"output 0 32x4 location=0\n" \
	"ubo 0 set=0 binding=0 size=16\n" \
	"ssbo 0 set=0 binding=1 size=16\n" \
	"texture 0 2d float set=0 binding=2\n" \
	"texture 1 2d shadow float set=0 binding=3\n" \
	"sampler 0 set=0 binding=2\n" \
	"image 0 2d float set=0 binding=4 format=rgba8\n" \
	"local 0 32x4[2]\n"

/* Lines 14-18 of every fragment case. */
#define BODY_HEAD \
	"fn main {\n" \
	"block b0:\n" \
	"\t32 %0 = load_const 0\n" \
	"\t32x4 %1 = @load_input %0 base=0 component=0\n" \
	"\t1 %2 = load_const true\n" \
	"\t32x2 %3 = mov %1.xy\n"

#define FS(body) "shader fragment\n\n" DECLS "\n" BODY_HEAD body "}\n"

static struct shader *parse(const char *text)
{
	struct diag d = DIAG_INIT;
	struct shader *s = ir_parse("t.ir", text, strlen(text), &d);
	if (!s)
		tap_diag("unexpected parse error: %s", d.text.buf);
	diag_release(&d);
	return s;
}

/* Validate `s`: it must fail with `want` among its messages. */
static void fails_with(struct shader *s, const char *want, const char *what)
{
	struct diag d = DIAG_INIT;
	bool valid = s ? ir_validate(s, &d, "t.ir") : true;
	if (!ok(s && !valid && strstr(d.text.buf, want), "%s", what))
		tap_diag("expected '%s', got:\n%s", want, d.text.buf);
	diag_release(&d);
}

static void bad(const char *text, const char *want)
{
	struct shader *s = parse(text);
	fails_with(s, want, want);
	shader_free(s);
}

static void good(const char *text, const char *what)
{
	struct shader *s = parse(text);
	struct diag d = DIAG_INIT;
	if (!ok(s && ir_validate(s, &d, "t.ir"), "%s", what))
		tap_diag("%s", d.text.buf);
	diag_release(&d);
	shader_free(s);
}

static void test_baseline(void)
{
	struct shader *s = parse(FS("\t@store_output %1, %0 base=0 component=0 write_mask=xyzw\n"));
	struct diag d = DIAG_INIT;
	ok(s && ir_validate(s, &d, "t.ir"), "the baseline shader is valid");
	diag_release(&d);
	shader_free(s);
}

static void test_parsed(void)
{
	/* dominance and definitions */
	bad(FS("\t32 %4 = fneg %5\n\t32 %5 = fneg %4\n"),
	    "t.ir:19: error: '32 %4 = fneg %5': %5 does not dominate this use");
	bad(FS("\tif %2 {\n\tblock b1:\n\t\t32 %4 = fneg %0\n\t} else {\n\tblock b2:\n\t}\n"
	       "block b3:\n\t32 %5 = fneg %4\n"),
	    "t.ir:26: error: '32 %5 = fneg %4': %4 does not dominate this use");
	/* ALU */
	bad(FS("\t32x2 %4 = fadd %3, %3.xz\n"), "source 1: swizzle reads component 2 of %3, which has 2");
	bad(FS("\t16 %4 = load_const 1\n\t32 %5 = ldexp %0, %4\n"),
	    "source 1 is 16-bit, ldexp takes 32-bit");
	bad(FS("\t16 %4 = load_const 1\n\t32 %5 = fadd %0, %4\n"),
	    "sources of different bit sizes (32 and 16)");
	bad(FS("\t8 %4 = load_const 1\n\t8 %5 = fadd %4, %4\n"), "source 0: 8-bit float");
	bad(FS("\t32 %4 = flt %0, %0\n"), "result is 32-bit, flt gives 1-bit");
	bad(FS("\t16 %4 = fadd %0, %0\n"), "result is 16-bit, its sources 32-bit");
	bad(FS("\t32x2 %4 = fdot3 %1.xyz, %1.xyz\n"), "fdot3 has 1 components, not 2");
	/* intrinsics */
	bad("shader vertex\n\nfn main {\nblock b0:\n\t@discard\n}\n",
	    "t.ir:5: error: '@discard': discard is not allowed in a vertex shader");
	bad(FS("\t@store_output %1, %0 base=0 component=0 write_mask=0\n"),
	    "write_mask 0 is empty or wider than the value");
	bad(FS("\t@store_output %3, %0 base=0 component=0 write_mask=xyz\n"),
	    "write_mask 0x7 is empty or wider than the value");
	bad(FS("\t32 %4 = @ssbo_atomic %0, %0, %0 atomic_op=none access=none\n"), "invalid atomic op");
	bad(FS("\t32 %4 = @reduce %0 reduction_op=fsub cluster_size=0\n"),
	    "reduction_op is not a reduction opcode");
	bad(FS("\t32 %4 = @reduce %0 reduction_op=iadd cluster_size=3\n"),
	    "cluster_size is not a power of two");
	bad(FS("\t32x4 %4 = @load_ubo %0, %0 align_mul=12 align_offset=0\n"),
	    "align_mul is not a power of two");
	bad(FS("\t32x4 %4 = @image_load %0, %3, %0, %0 image_dim=none image_array=0 format=rgba8 "
	       "access=none dest_type=float\n"), "invalid image dimension");
	bad(FS("\t32x4 %4 = @image_load %0, %3, %0, %0 image_dim=2d image_array=2 format=rgba8 "
	       "access=none dest_type=float\n"), "image_array is not 0 or 1");
	bad(FS("\t32x4 %4 = @image_load %0, %3, %0, %0 image_dim=2d image_array=0 format=rgba8 "
	       "access=none dest_type=bool\n"), "invalid dest_type");
	bad(FS("\t32x4 %4 = @image_load %0, %1, %0, %0 image_dim=2d image_array=0 format=rgba8 "
	       "access=none dest_type=float\n"), "source 1 has 4 components, not 2");
	bad(FS("\t32x4 %4 = @load_input %0 base=-1 component=0\n"), "negative base");
	bad(FS("\t16 %4 = load_const 0\n\t32x4 %5 = @load_input %4 base=0 component=0\n"),
	    "source 0: 16-bit is not allowed");
	bad(FS("\t32x2 %4 = @load_frag_coord\n"), "result has 2 components, not 4");
	bad(FS("\t32 %4 = @load_front_face\n"), "32-bit result is not allowed");
	bad(FS("\t32x4 %4 = @load_input %0 base=3 component=0\n"), "base 3 names no input declaration");
	bad(FS("\t32x2 %4 = @load_input %0 base=0 component=3\n"),
	    "components 3..4 are outside input 0");
	bad(FS("\t16x4 %4 = @load_input %0 base=0 component=0\n"), "16-bit access to a 32-bit input");
	bad(FS("\t32 %4 = load_const 1\n\t32x4 %5 = @load_input %4 base=0 component=0\n"),
	    "offset 1 is outside input 0 (1 slots)");
	bad(FS("\t@store_per_vertex_output %1, %0, %0 base=0 component=0 write_mask=xyzw\n"),
	    "store_per_vertex_output is not allowed in a fragment shader");
	bad("shader geometry input_primitive=points output_primitive=points vertices_out=1\n\n"
	    "input 0 32x4 location=0 per_vertex\n\nfn main {\nblock b0:\n\t32 %0 = load_const 0\n"
	    "\t32x4 %1 = @load_input %0 base=0 component=0\n}\n",
	    "input 0 is per-vertex: use the per_vertex access");
	bad("shader geometry input_primitive=points output_primitive=points vertices_out=1\n\n"
	    "input 0 32x4 location=0\n\nfn main {\nblock b0:\n\t32 %0 = load_const 0\n"
	    "\t32x4 %1 = @load_per_vertex_input %0, %0 base=0 component=0\n}\n",
	    "input 0 is not per-vertex");
	good(FS("\t32 %4 = load_const 1\n\t32x4 %5 = @load_local %4 local=0 base=1\n"),
	     "a constant offset past a local's end is valid (undefined only if it runs)");
	bad(FS("\t32x4 %4 = @load_local %0 local=1 base=0\n"), "local 1 is not declared");
	bad(FS("\t32x2 %4 = @load_local %0 local=0 base=0\n"),
	    "local 0 is 32x4, accessed as 32x2");
	bad(FS("\t32x4 %4 = @load_local %0 local=0 base=2\n"), "base 2 is outside local 0 (2 elements)");
	bad(FS("\t32 %4 = load_const 5\n\t32x4 %5 = @load_ubo %4, %0 align_mul=16 align_offset=0\n"),
	    "ubo slot 5 is not declared");
	bad(FS("\t32 %4 = load_const 5\n\t@store_ssbo %0, %4, %0 write_mask=x access=none align_mul=4 "
	       "align_offset=0\n"), "ssbo slot 5 is not declared");
	bad(FS("\t32 %4 = load_const 5\n\t32x2 %5 = @image_size %4, %0 image_dim=2d image_array=0\n"),
	    "image slot 5 is not declared");
	/* textures */
	bad(FS("\t32x4 %4 = tex none float texture=0 sampler=0 coord=%3\n"),
	    "invalid texture op or dimension");
	bad(FS("\t32x4 %4 = tex 2d float texture=0 sampler=0 coord=%3 coord=%3\n"), "two coord sources");
	bad(FS("\t32x2 %4 = txs 2d int texture=0 sampler=0 bias=%0\n"), "txs takes no bias source");
	bad(FS("\t32x4 %4 = tex 2d float texture=0 sampler=0 coord=%1\n"),
	    "coord source has 4 components, not 2");
	bad(FS("\t32x4 %4 = txb 2d float texture=0 sampler=0 coord=%3\n"), "txb needs a bias source");
	bad(FS("\t32 %4 = tex 2d shadow float texture=1 sampler=0 coord=%3\n"),
	    "a shadow lookup needs a comparator");
	bad(FS("\t32x4 %4 = tex 2d float texture=0 sampler=0 coord=%3 comparator=%0\n"),
	    "a comparator on a lookup not marked shadow");
	bad(FS("\t32x4 %4 = tex 2d bool texture=0 sampler=0 coord=%3\n"), "invalid result type");
	bad(FS("\t32x3 %4 = tex 2d float texture=0 sampler=0 coord=%3\n"),
	    "result has 3 components, not 4");
	bad(FS("\t64x4 %4 = tex 2d float texture=0 sampler=0 coord=%3\n"), "64-bit texture result");
	bad(FS("\t32x4 %4 = tg4 2d float texture=0 sampler=0 component=4 coord=%3\n"),
	    "invalid gather component");
	bad(FS("\t32x4 %4 = tex 2d float texture=7 sampler=0 coord=%3\n"), "texture slot 7 is not declared");
	bad(FS("\t32x4 %4 = tex 2d float texture=0 sampler=7 coord=%3\n"), "sampler slot 7 is not declared");
	/* phis */
	bad(FS("\t32 %4 = fneg %0\n\t32 %5 = phi\n"), "a phi after a non-phi instruction");
	bad(FS("\tif %2 {\n\tblock b1:\n\t} else {\n\tblock b2:\n\t}\nblock b3:\n"
	       "\t32 %4 = phi b1: %0, b0: %0, b2: %0\n"),
	    "a source from a block that is not a predecessor");
	bad(FS("\tif %2 {\n\tblock b1:\n\t} else {\n\tblock b2:\n\t}\nblock b3:\n"
	       "\t32 %4 = phi b1: %0, b1: %0, b2: %0\n"), "two sources from block b1");
	bad(FS("\tif %2 {\n\tblock b1:\n\t} else {\n\tblock b2:\n\t}\nblock b3:\n"
	       "\t32 %4 = phi b1: %0, b2: %3\n"), "source %3 is 32x2, the phi 32x1");
	bad(FS("\tif %2 {\n\tblock b1:\n\t} else {\n\tblock b2:\n\t\t32 %5 = fneg %0\n\t}\nblock b3:\n"
	       "\t32 %4 = phi b1: %5, b2: %5\n"), "%5 does not dominate the end of predecessor b1");
	bad(FS("\tif %2 {\n\tblock b1:\n\t} else {\n\tblock b2:\n\t}\nblock b3:\n"
	       "\t32 %4 = phi b1: %0\n"), "1 sources for 2 predecessors");
	/* jumps and ifs */
	bad(FS("\tloop {\n\tblock b1:\n\t\tbreak\n\t\t32 %4 = fneg %0\n\t}\nblock b2:\n"),
	    "'break': instructions after a jump");
	bad(FS("\tbreak\n"), "'break': break outside a loop");
	bad(FS("\tcontinue\n"), "'continue': continue outside a loop");
	bad(FS("\tif %0 {\n\tblock b1:\n\t} else {\n\tblock b2:\n\t}\nblock b3:\n"),
	    "block b0: the condition of the if after it, %0, is not a 1-bit scalar");
	bad(FS("\tif %4 {\n\tblock b1:\n\t\t1 %4 = load_const false\n\t} else {\n\tblock b2:\n\t}\n"
	       "block b3:\n"), "the condition of the if after it, %4, does not dominate it");
	/* declarations and stage information */
	/* booleans are no stage I/O; 8-bit values are (GL_EXT_shader_8bit_storage) */
	bad("shader fragment\n\ninput 0 1x4 location=0\n\nfn main {\nblock b0:\n}\n",
	    "input 0: invalid type");
	good("shader fragment\n\ninput 0 8x4 location=0 flat\n\nfn main {\nblock b0:\n}\n",
	     "an 8-bit input");
	bad("shader fragment\n\ninput 0 32 location=300\n\nfn main {\nblock b0:\n}\n",
	    "input 0: a location from 0 to 255 is needed");
	bad("shader fragment\n\noutput 0 32 builtin=frag_depth location=0\n\nfn main {\nblock b0:\n}\n",
	    "output 0: a builtin has no location");
	bad("shader fragment\n\ninput 0 32x4 location=0 component=2\n\nfn main {\nblock b0:\n}\n",
	    "input 0: components beyond 4");
	bad("shader fragment\n\ntexture 0 float set=0 binding=0\n\nfn main {\nblock b0:\n}\n",
	    "texture 0: a dimension is needed");
	bad("shader fragment\n\nsampler 0 2d set=0 binding=0\n\nfn main {\nblock b0:\n}\n",
	    "sampler 0: a sampler has no dimension");
	bad("shader fragment\n\nimage 0 2d set=0 binding=0\n\nfn main {\nblock b0:\n}\n",
	    "image 0: a sampled type (float, int or uint) is needed");
	bad("shader fragment\n\nlocal 0 32[0]\n\nfn main {\nblock b0:\n}\n", "local 0: invalid size");
	bad("shader compute workgroup_size=8,0,1\n\nfn main {\nblock b0:\n}\n",
	    "a compute shader needs a workgroup size");
}

/* ---- IR broken by hand: what the parser cannot express ---- */

static struct shader *base(struct ssa_def **x, struct ssa_def **y)
{
	struct shader *s = shader_create(STAGE_FRAGMENT, "main");
	struct builder b;
	builder_init_at_end(&b, s);
	*x = b_imm_int(&b, 1);
	*y = b_iadd(&b, *x, *x);
	return s;
}

static void test_structure(void)
{
	struct ssa_def *x, *y;
	struct shader *s = base(&x, &y);
	struct cf_if *nif = cf_append_if(s->fn, &s->fn->body, &s->fn->cf);
	if_set_condition(nif, x);
	cf_append_block(s->fn, &nif->then_list, &nif->cf);
	cf_append_block(s->fn, &s->fn->body, &s->fn->cf);
	fails_with(s, "an empty CF list (every list holds at least a block)", "an empty else list");
	cf_append_block(s->fn, &nif->else_list, &nif->cf);
	struct diag d = DIAG_INIT;
	ok(!ir_validate(s, &d, "t") && strstr(d.text.buf, "is not a 1-bit scalar"),
	   "with the list filled, the 32-bit condition is what remains");
	diag_release(&d);
	shader_free(s);

	s = base(&x, &y);
	cf_append_block(s->fn, &s->fn->body, &s->fn->cf);
	fails_with(s, "two blocks in a row in a CF list", "two blocks in a row");
	shader_free(s);

	s = base(&x, &y);
	struct cf_loop *loop = cf_append_loop(s->fn, &s->fn->body, &s->fn->cf);
	cf_append_block(s->fn, &loop->body, &loop->cf);
	fails_with(s, "a CF list that does not end with a block", "a list ending in a loop");
	loop = cf_append_loop(s->fn, &s->fn->body, &s->fn->cf);
	fails_with(s, "an if or loop not followed by a block", "two loops in a row");
	shader_free(s);

	s = base(&x, &y);
	loop = cf_append_loop(s->fn, &s->fn->body, &s->fn->cf);
	cf_append_loop(s->fn, &loop->body, &loop->cf);
	cf_append_block(s->fn, &s->fn->body, &s->fn->cf);
	fails_with(s, "a CF list that does not start with a block", "a list starting with a loop");
	shader_free(s);

	s = base(&x, &y);
	function_start_block(s->fn)->cf.parent = NULL;
	fails_with(s, "a CF node with the wrong parent or list", "a wrong parent");
	shader_free(s);

	s = base(&x, &y);
	nif = cf_append_if(s->fn, &s->fn->body, &s->fn->cf);
	cf_append_block(s->fn, &nif->then_list, &nif->cf);
	cf_append_block(s->fn, &nif->else_list, &nif->cf);
	cf_append_block(s->fn, &s->fn->body, &s->fn->cf);
	fails_with(s, "an if has no condition or a condition not its own", "an if without condition");
	shader_free(s);

	struct shader *other = shader_create(STAGE_FRAGMENT, "other");
	s = base(&x, &y);
	struct block *foreign = function_start_block(other->fn);
	list_del(&foreign->cf.link);
	loop = cf_append_loop(s->fn, &s->fn->body, &s->fn->cf);
	foreign->cf.parent = &loop->cf;
	foreign->cf.list = &loop->body;
	list_add_tail(&loop->body, &foreign->cf.link);
	cf_append_block(s->fn, &s->fn->body, &s->fn->cf);
	fails_with(s, "a block of another function is in the CF tree", "a foreign block");
	shader_free(s);
	shader_free(other);

	s = base(&x, &y);
	list_add_tail(&s->fn->end_block->instrs, &undef_instr_create(s, 1, 32)->instr.link);
	fails_with(s, "the end block holds instructions", "an instruction in the end block");
	shader_free(s);
}

static void test_values(void)
{
	struct ssa_def *x, *y;
	struct shader *s = base(&x, &y);
	y->parent->block = NULL;
	fails_with(s, "instruction's block pointer is wrong", "a wrong block pointer");
	y->parent->block = function_start_block(s->fn);
	struct ssa_def fake = *y;
	instr_as_alu(y->parent)->def.parent = fake.parent == y->parent ? x->parent : NULL;
	fails_with(s, "value's parent is not its instruction", "a value with the wrong parent");
	y->parent = &instr_as_alu(fake.parent)->instr;
	shader_free(s);

	s = base(&x, &y);
	y->bit_size = 7;
	fails_with(s, "invalid size 7x1", "an invalid bit size");
	y->bit_size = 32;
	y->index = 50;
	fails_with(s, "value index 50 is not below ssa_alloc (2)", "an index beyond ssa_alloc");
	y->index = 0;
	fails_with(s, "value index 0 is used twice", "a duplicate index");
	shader_free(s);

	s = base(&x, &y);
	struct load_const_instr *lc = instr_as_load_const(x->parent);
	lc->value[0] = 1ull << 40;
	fails_with(s, "constant component 0 has bits above 32", "a constant wider than its value");
	shader_free(s);
}

static void test_sources(void)
{
	struct ssa_def *x, *y;
	struct shader *s = base(&x, &y);
	struct alu_instr *add = instr_as_alu(y->parent);
	list_del(&add->src[1].src.use_link);
	add->src[1].src.use_link.next = add->src[1].src.use_link.prev = NULL;
	fails_with(s, "a source is missing from its value's use list", "an unlinked source");
	shader_free(s);

	s = base(&x, &y);
	add = instr_as_alu(y->parent);
	add->src[0].src.parent_instr = x->parent;
	fails_with(s, "a source's parent is not its instruction", "a source with the wrong parent");
	shader_free(s);

	s = base(&x, &y);
	add = instr_as_alu(y->parent);
	list_del(&add->src[0].src.use_link);
	add->src[0].src.use_link.next = add->src[0].src.use_link.prev = NULL;
	add->src[0].src.ssa = NULL;
	fails_with(s, "a source reads no value", "a source without a value");
	shader_free(s);

	struct ssa_def *ox, *oy;
	struct shader *other = base(&ox, &oy);
	s = base(&x, &y);
	src_rewrite(&instr_as_alu(y->parent)->src[0].src, ox);
	fails_with(s, "reads a value defined outside the function", "a value of another shader");
	src_rewrite(&instr_as_alu(y->parent)->src[0].src, x);
	shader_free(s);
	shader_free(other);

	/* use lists */
	s = base(&x, &y);
	struct src stray = { .ssa = y, .parent_instr = x->parent };
	list_add_tail(&x->uses, &stray.use_link);
	fails_with(s, "a use of %0 reads another value", "a use reading another value");
	stray.ssa = x;
	fails_with(s, "a use of %0 is not a source of its user", "a use its user does not have");
	stray.parent_instr = NULL;
	stray.parent_if = (struct cf_if *)(void *)&stray;
	fails_with(s, "a use of %0 is not its if's condition", "a use claiming to be an if condition");
	list_del(&stray.use_link);
	shader_free(s);

	s = base(&x, &y);
	struct builder b;
	builder_init_at_end(&b, s);
	struct ssa_def *z = b_ineg(&b, y);
	instr_remove(y->parent);
	fails_with(s, "reads a value whose instruction was removed (%1)", "a use of a removed value");
	(void)z;
	shader_free(s);

	s = base(&x, &y);
	builder_init_at_end(&b, s);
	z = b_ineg(&b, y);
	list_del(&z->parent->link);	/* unlinked from the block, uses left behind */
	z->parent->block = NULL;
	fails_with(s, "%1 is used by a removed instruction", "a use from an instruction not in a block");
	shader_free(s);
}

static void test_metadata_and_cfg(void)
{
	struct ssa_def *x, *y;
	struct shader *s = base(&x, &y);
	struct builder b;
	builder_init_at_end(&b, s);
	struct cf_if *nif = b_push_if(&b, b_imm_bool(&b, true));
	b_pop_if(&b, nif);
	metadata_require(s->fn, META_BLOCK_INDEX | META_DOMINANCE);
	cf_as_block(cf_node_next(&nif->cf))->index = 7;
	fails_with(s, "block index metadata is marked valid but stale", "stale block indices");
	shader_free(s);

	s = base(&x, &y);
	builder_init_at_end(&b, s);
	nif = b_push_if(&b, b_imm_bool(&b, true));
	b_pop_if(&b, nif);
	metadata_require(s->fn, META_DOMINANCE);
	cf_as_block(cf_node_next(&nif->cf))->idom = cf_if_then_block(nif);
	fails_with(s, "dominance metadata is marked valid but stale", "stale dominance");
	shader_free(s);

	s = base(&x, &y);
	builder_init_at_end(&b, s);
	nif = b_push_if(&b, b_imm_bool(&b, true));
	b_pop_if(&b, nif);
	function_cfg_ensure(s->fn);
	struct block *after = cf_as_block(cf_node_next(&nif->cf));
	after->preds_[0] = function_start_block(s->fn);
	fails_with(s, "predecessor b0 does not list it as a successor", "a corrupt CFG");
	shader_free(s);

	s = base(&x, &y);
	builder_init_at_end(&b, s);
	nif = b_push_if(&b, b_imm_bool(&b, true));
	b_pop_if(&b, nif);
	list_del(&nif->condition.use_link);
	nif->condition.use_link.next = nif->condition.use_link.prev = NULL;
	fails_with(s, "the condition of the if after it is missing from its use list",
		   "an if condition not in its use list");
	shader_free(s);
}

static void test_decls(void)
{
	struct ssa_def *x, *y;
	struct shader *s = base(&x, &y);
	struct buffer_decl *u = shader_add_ubo(s);
	u->array_size = 3;
	shader_add_ubo(s)->slot = 2;
	fails_with(s, "ubo 1: slots overlap the previous declaration", "overlapping slots");
	shader_free(s);

	s = base(&x, &y);
	s->info.float_controls = 1u << 30;
	fails_with(s, "invalid float controls", "unknown float-control bits");
	shader_free(s);

	s = base(&x, &y);
	s->stage = STAGE_COUNT;
	fails_with(s, "invalid stage", "an invalid stage");
	shader_free(s);

	s = base(&x, &y);
	struct builder b;
	builder_init_at_end(&b, s);
	struct intrinsic_instr *fc = b_intrinsic(&b, INTR_load_frag_coord, 0, 0, NULL, NULL);
	fc->num_components = 4;
	fails_with(s, "num_components set on a fixed-size intrinsic", "num_components on a sysval");
	fc->num_components = 0;
	struct intrinsic_instr *dx = b_intrinsic(&b, INTR_ddx, 1, 32, &y, NULL);
	dx->num_components = 5;
	fails_with(s, "invalid num_components 5", "an invalid num_components");
	shader_free(s);
}

int main(void)
{
	test_baseline();
	test_parsed();
	test_structure();
	test_values();
	test_sources();
	test_metadata_and_cfg();
	test_decls();
	return done_testing();
}
