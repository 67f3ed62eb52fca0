/*
 * The machine IR's text form: what the printer writes the parser reads back
 * unchanged, and bad input gets a located message.
 */
#include <stdlib.h>

#include "compiler/ir3/ir3.h"
#include "compiler/util/error.h"
#include "tap.h"

static const char sample[] =
	"stage fragment\n"
	"consts 2\n"
	"\n"
	"b0:\n"
	"\t%0.xy = input bary\n"
	"\t%1 = bary.f 0, %0\n"
	"\t%2 = bary.f 1, %0\n"
	"\t%3 = mul.f %1, c0.x\n"
	"\t%4 = add.f (neg)%3, (0.5)\n"
	"\th%5 = cov.f32f16 %4\n"
	"\th%12 = add.f h%5, h(1.0)\n"
	"\tp%6 = cmps.f.lt %3, c<a%13 + 4>\n"
	"\ta%13 = mova 3\n"
	"\tbr p%6, b1, b2\n"
	"\n"
	"b1:\n"
	"\t%7 = rcp %4\n"
	"\tjump b3\n"
	"\n"
	"b2:\n"
	"\t%9.xy = collect %1, %2\n"
	"\t%8.xyzw = sam.3d.f32 %9, s#0, t#1\n"
	"\t%10 = split %8, off=2\n"
	"\tstg.u32 %9, 4, %10, 1\n"
	"\tjump b3\n"
	"\n"
	"b3:\n"
	"\t%11 = phi b1: %7, b2: %10\n"
	"\tend rt0.x=%11, rt0.y=%3\n";

static const char allocated[] =
	"stage vertex\n"
	"legalized\n"
	"\n"
	"b0:\n"
	"\t%0:r0.x = input\n"
	"\t(sy)(ss)(nop2) %1:r0.y = add.f %0:r0.x, (neg)c1.z\n"
	"\t(rpt5) nop\n"
	"\t(copy) r1.x = mov.u32u32 r0.y\n"
	"\t(ei)%2:r2.x = bary.f 0, r1.x\n"
	"\tbr !p0.x, b1\n"
	"\tjump b0\n"
	"\n"
	"b1:\n"
	"\tr40.x = alias.tex.b32 r1.x, table=1\n"
	"\trt0.y = alias.rt.f32 (1.0)\n"
	"\tend %1:r0.y\n";

static char *roundtrip(const char *text, struct arena *a, struct diag *d)
{
	struct ir3 *ir = ir3_parse(a, "t.mir", text, d);
	if (!ir)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	ir3_print(&sb, ir);
	return strbuf_detach(&sb, NULL);
}

static void check_roundtrip(const char *text, const char *what)
{
	struct arena a = ARENA_INIT;
	struct diag d = DIAG_INIT;
	char *once = roundtrip(text, &a, &d);
	ok(once != NULL, "%s parses", what);
	if (!once) {
		tap_diag("%s", d.text.buf);
	} else {
		char *twice = roundtrip(once, &a, &d);
		is_str(twice, once, "%s: print(parse(print(x))) == print(x)", what);
		free(twice);
	}
	free(once);
	diag_release(&d);
	arena_release(&a);
}

static void check_error(const char *text, const char *want, const char *what)
{
	struct arena a = ARENA_INIT;
	struct diag d = DIAG_INIT;
	struct ir3 *ir = ir3_parse(&a, "t.mir", text, &d);
	ok(!ir && strstr(d.text.buf, want), "%s", what);
	if (ir || !strstr(d.text.buf, want))
		tap_diag("got: %s", d.text.buf);
	diag_release(&d);
	arena_release(&a);
}

int main(void)
{
	check_roundtrip(sample, "SSA form");
	check_roundtrip(allocated, "allocated, legalised form");

	struct arena a = ARENA_INIT;
	struct diag d = DIAG_INIT;
	struct ir3 *ir = ir3_parse(&a, "t.mir", sample, &d);
	struct strbuf err = STRBUF_INIT;
	ok(ir && ir3_validate(ir, &err), "the sample validates");
	if (err.len)
		tap_diag("%s", err.buf);
	ok(ir && ir->first->succ[0] == ir->first->next && ir->last->npreds == 2,
	   "branches build the CFG");
	strbuf_release(&err);
	arena_release(&a);
	diag_release(&d);

	check_error("stage frag\nb0:\n\tfoo.f %1\n", "t.mir:3: error: unknown opcode 'foo.f'",
		    "unknown opcodes are located");
	check_error("stage frag\nb0:\n\tend %1\n", "t.mir:3: error: undefined value %1",
		    "undefined values are reported where used");
	check_error("stage frag\nb0:\n\tjump b7\n", "unknown block 'b7'", "unknown blocks");
	check_error("stage frag\nb0:\n\tjump b1\n\tjump b1\nb1:\n\tend\n",
		    "t.mir:4: error: a second branch in one block", "two branches in a block (fuzz)");
	check_error("stage frag\nb0:\n\t%0 = input\n\tjump b1\n\t%1 = mov.f32f32 %0\nb1:\n\tend\n",
		    "t.mir:5: error: an instruction after the block's branch",
		    "an instruction after a block's branch (fuzz)");
	check_error("stage frag\nlegalized\nb0:\n\tbr p0.x, b2\n\tbr p0.y, b3\nb1:\n\tend\n"
		    "b2:\n\tend\nb3:\n\tend\n",
		    "t.mir:5: error: block b0 branches to more than two places",
		    "legalised code: a block of two branches and a fall-through (fuzz)");
	check_error("stage frag\nb0:\n\t%1 = mov.u32u32 1\n\t%1 = mov.u32u32 2\n",
		    "t.mir:4: error: value %1 defined twice", "redefinitions");
	check_error("stagex frag\n", "unknown header line", "unknown headers");
	return done_testing();
}
