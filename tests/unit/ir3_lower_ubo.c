/*
 * lower_ir3_ubo_vec4 against the interpreter: loads of 1 to 4 components
 * at dynamic offsets of every alignment (inside one vec4 or across two),
 * and at constant offsets that cross a vec4, must read what the original
 * load_ubo reads, on 100 random UBO contents and offsets each; and before
 * a6xx the pass changes nothing.
 */
#include <stdio.h>
#include <string.h>

#include "compiler/ir/interp.h"
#include "compiler/ir3/ir3_nir.h"
#include "compiler/target.h"
#include "compiler/util/strbuf.h"
#include "tap.h"

/* A fragment shader reading `n` components of UBO 0 at byte offset
 * (input & 63) * 4 (or at `const_off` when >= 0); align as given. */
static struct shader *make(unsigned n, int const_off, unsigned align_mul, unsigned align_off)
{
	struct strbuf t = STRBUF_INIT;
	strbuf_addf(&t, "shader fragment\n\ninput 0 32 location=0 flat\noutput 0 32x%u location=0\n"
			"ubo 0 set=0 binding=0 size=1024\n\nfn main {\nblock b0:\n"
			"\t32     %%0 = load_const 0\n"
			"\t32     %%1 = @load_input %%0 base=0 component=0\n"
			"\t32     %%2 = load_const 63\n"
			"\t32     %%3 = iand %%1, %%2\n"
			"\t32     %%4 = load_const 2\n"
			"\t32     %%5 = ishl %%3, %%4\n"
			"\t32     %%6 = load_const %d\n", n < 2 ? 4 : n, const_off);
	const char *ty = n == 1 ? "32    " : n == 2 ? "32x2  " : n == 3 ? "32x3  " : "32x4  ";
	strbuf_addf(&t, "\t%s %%7 = @load_ubo %%0, %%%d align_mul=%u align_offset=%u\n", ty,
		    const_off >= 0 ? 6 : 5, align_mul, align_off);
	if (n == 1)
		strbuf_addstr(&t, "\t32x4   %8 = vec4 %7, %7, %7, %7\n"
				  "\t@store_output %8, %0 base=0 component=0 write_mask=xyzw\n}\n");
	else
		strbuf_addf(&t, "\t@store_output %%7, %%0 base=0 component=0 write_mask=%.*s\n}\n",
			    (int)n, "xyzw");
	struct diag d = DIAG_INIT;
	struct shader *s = ir_parse("ubo.ir", t.buf, t.len, &d);
	if (!s)
		tap_diag("%s\n%s", d.text.buf, t.buf);
	diag_release(&d);
	strbuf_release(&t);
	return s;
}

static void check(unsigned n, int const_off, unsigned align_mul, unsigned align_off,
		  const char *target)
{
	struct shader *before = make(n, const_off, align_mul, align_off);
	if (!ok(before != NULL, "%u components, offset %d, align %u+%u parses", n, const_off,
		align_mul, align_off))
		return;
	struct shader *after = shader_clone(before);
	struct ir3_lowering t = ir3_lowering_view(target_find(target)->ir3);
	bool progress = lower_ir3_ubo_vec4(after, &t);
	struct diag d = DIAG_INIT;
	bool valid = ir_validate(after, &d, "ubo.ir");
	struct strbuf why = STRBUF_INIT;
	bool same = valid && interp_check_equivalent(before, after, 100, NULL, &why);
	ok(same && progress == t.ubo_ldc,
	   "%s: %u components at %s offset, align_mul %u offset %u: %s", target, n,
	   const_off >= 0 ? "a constant" : "a dynamic", align_mul, align_off,
	   t.ubo_ldc ? "whole vec4s, the same values" : "unchanged");
	if (!valid || !same)
		tap_diag("%s%s", d.text.buf, why.buf);
	diag_release(&d);
	strbuf_release(&why);
	shader_free(before);
	shader_free(after);
}

int main(void)
{
	for (unsigned n = 1; n <= 4; n++)
		check(n, -1, 4, 0, "a630");	/* anywhere: may cross a vec4 */
	check(1, -1, 4, 0, "a530");		/* ldg before a6xx: left alone */
	check(2, -1, 8, 0, "a630");
	check(1, 36, 4, 0, "a630");		/* constant, inside a vec4 */
	check(3, 40, 8, 8, "a630");		/* constant, across two */
	check(4, 4, 4, 0, "a630");
	return done_testing();
}
