/*
 * The ir3 verifiers must catch broken programs: each case is an allocated
 * (and for timing, legalised) program in the text form, deliberately wrong
 * or deliberately right, and the message the verifier must give.
 */
#include "compiler/ir3/ir3_passes.h"
#include "compiler/target.h"
#include "compiler/util/error.h"
#include "tap.h"

enum which { REGS, TIMING };

static void check(enum which w, const char *target, const char *text, const char *want,
		  const char *what)
{
	struct arena a = ARENA_INIT;
	struct diag d = DIAG_INIT;
	struct strbuf err = STRBUF_INIT;
	struct ir3 *ir = ir3_parse(&a, "case.mir", text, &d);
	if (!ir) {
		ok(false, "%s: parses", what);
		tap_diag("%s", d.text.buf);
		goto out;
	}
	ir->target = target_find(target)->ir3;
	bool passed = w == REGS ? ir3_verify_regs(ir, &err) : ir3_verify_timing(ir, &err);
	if (!want) {
		ok(passed, "%s", what);
		if (!passed)
			tap_diag("%s", err.buf);
	} else {
		ok(!passed && strstr(err.buf, want), "%s", what);
		if (passed || !strstr(err.buf, want))
			tap_diag("got: %s", passed ? "(passed)" : err.buf);
	}
out:
	strbuf_release(&err);
	diag_release(&d);
	arena_release(&a);
}

static void register_cases(void)
{
	check(REGS, "a630",
	      "stage vertex\nb0:\n"
	      "\t%0:r0.x = input\n\t%1:r0.y = input\n"
	      "\t%2:r0.z = add.f %0:r0.x, %1:r0.y\n"
	      "\t%3:r0.w = mul.f %2:r0.z, %0:r0.x\n"
	      "\tend %3:r0.w\n",
	      NULL, "regs: a correct allocation passes");
	check(REGS, "a630",
	      "stage vertex\nb0:\n"
	      "\t%0:r0.x = input\n\t%1:r0.y = input\n"
	      "\t%2:r0.x = add.f %0:r0.x, %1:r0.y\n"
	      "\t%3:r0.y = mul.f %2:r0.x, %0:r0.x\n"
	      "\tend %3:r0.y\n",
	      "reads %0.x from a register that holds %2.x",
	      "regs: two live values in one register");
	check(REGS, "a630",
	      "stage vertex\nb0:\n"
	      "\t%0:r0.x = input\n"
	      "\t%1:r0.y = add.f %0:r1.x, %0:r0.x\n"
	      "\tend %1:r0.y\n",
	      "reads %0.x from a register that holds nothing",
	      "regs: a read of the wrong register");
	check(REGS, "a630",
	      "stage vertex\nb0:\n"
	      "\th%0:hr50.x = input\n"
	      "\tend h%0:hr50.x\n",
	      "outside the register file",
	      "regs: half registers above hr47 with merged registers");
	check(REGS, "a630",
	      "stage vertex\nb0:\n"
	      "\t%0:r0.x = input\n\th%1:hr0.y = input\n"
	      "\t%2:r1.x = add.f %0:r0.x, %0:r0.x\n"
	      "\tend %2:r1.x, h%1:hr0.y\n",
	      "from a register that holds %1.x",
	      "regs: hr0.y is half of r0.x on a6xx");
	check(REGS, "a530",
	      "stage vertex\nb0:\n"
	      "\t%0:r0.x = input\n\th%1:hr0.y = input\n"
	      "\t%2:r1.x = add.f %0:r0.x, %0:r0.x\n"
	      "\tend %2:r1.x, h%1:hr0.y\n",
	      NULL, "regs: hr0.y is its own register on a5xx");
	/* a copy moves a value; a swap exchanges two */
	check(REGS, "a630",
	      "stage vertex\nb0:\n"
	      "\t%0:r0.x = input\n\t%1:r0.y = input\n"
	      "\t(copy) r0.y, r0.x = swz.u32u32 r0.x, r0.y\n"
	      "\t%2:r1.x = add.f %0:r0.y, %1:r0.x\n"
	      "\tend %2:r1.x\n",
	      NULL, "regs: a swz swap is followed");
	check(REGS, "a306",
	      "stage vertex\nb0:\n"
	      "\t%0:r0.x = input\n\t%1:r0.y = input\n"
	      "\t(copy) r0.x = xor.b r0.x, r0.y\n"
	      "\t(copy) r0.y = xor.b r0.y, r0.x\n"
	      "\t(copy) r0.x = xor.b r0.x, r0.y\n"
	      "\t%2:r1.x = add.f %0:r0.y, %1:r0.x\n"
	      "\tend %2:r1.x\n",
	      NULL, "regs: an xor swap is followed");
	check(REGS, "a306",
	      "stage vertex\nb0:\n"
	      "\t%0:r0.x = input\n\t%1:r0.y = input\n"
	      "\t(copy) r0.x = xor.b r0.x, r0.y\n"
	      "\t(copy) r0.y = xor.b r0.y, r0.x\n"
	      "\t%2:r1.x = add.f %0:r0.y, %1:r0.x\n"
	      "\tend %2:r1.x\n",
	      "a half-done xor swap", "regs: a broken xor swap");
	/* control flow: a value moved on one path only */
	check(REGS, "a630",
	      "stage vertex\nb0:\n"
	      "\t%0:r0.x = input\n\tp%1:p0.x = cmps.f.lt %0:r0.x, c0.x\n"
	      "\tbr p%1:p0.x, b1, b2\n"
	      "b1:\n\t(copy) r1.x = mov.u32u32 r0.x\n\tjump b3\n"
	      "b2:\n\tjump b3\n"
	      "b3:\n\t%2:r2.x = add.f %0:r1.x, c0.y\n\tend %2:r2.x\n",
	      "different values on different paths", "regs: a copy on one path only");
	/* a phi whose register does not get its value from one side */
	check(REGS, "a630",
	      "stage vertex\nb0:\n"
	      "\t%0:r0.x = input\n\tp%1:p0.x = cmps.f.lt %0:r0.x, c0.x\n"
	      "\tbr p%1:p0.x, b1, b2\n"
	      "b1:\n\t%2:r1.x = add.f %0:r0.x, c0.y\n\t%3:r1.x = pcopy %2:r1.x\n\tjump b3\n"
	      "b2:\n\t%4:r1.y = mul.f %0:r0.x, c0.y\n\t%5:r1.x = pcopy %4:r1.y\n\tjump b3\n"
	      "b3:\n\t%6:r1.x = phi b1: %3, b2: %5\n\tend %6:r1.x\n",
	      "reads %4.x from a register that holds nothing", "regs: a phi copy left out");
	/* a collect whose lowering forgot a component */
	check(REGS, "a630",
	      "stage fragment\nb0:\n"
	      "\t%0:r0.x = input\n\t%1:r0.y = input\n"
	      "\t(copy) r1.x = mov.u32u32 r0.x\n"
	      "\t%2.xy:r1.x = collect %0:r0.x, %1:r0.y\n"
	      "\t%3.xyzw:r2.x = sam.f32 %2:r1.x, s#0, t#0\n"
	      "\tend %3:r2.x\n",
	      "reads %1.x from a register that holds nothing", "regs: a collect missing a copy");
}

static void timing_cases(void)
{
#define ALU3(n) \
	"stage vertex\nlegalized\nb0:\n" \
	"\t%0:r0.x = input\n" \
	"\t(nop" #n ") %1:r0.y = add.f %0:r0.x, c0.x\n" \
	"\t%2:r0.z = mul.f %1:r0.y, %1:r0.y\n" \
	"\tend %2:r0.z\n"
	check(TIMING, "a630", ALU3(3), NULL, "timing: ALU→ALU with (nop3) on a6xx");
	check(TIMING, "a630", ALU3(2), "reads r0.y 1 cycle(s) too early", "timing: (nop2) is short on a6xx");
	check(TIMING, "a740", ALU3(2), NULL, "timing: (nop2) is enough on a7xx");
	check(TIMING, "a630",
	      "stage vertex\nlegalized\nb0:\n\t%0:r0.x = input\n"
	      "\t%1:r0.y = add.f %0:r0.x, c0.x\n\t(rpt2) nop\n"
	      "\t%2:r0.z = mul.f %1:r0.y, %1:r0.y\n\tend %2:r0.z\n",
	      NULL, "timing: (rpt2)nop fills three cycles");
	check(TIMING, "a630",
	      "stage vertex\nlegalized\nb0:\n\t%0:r0.x = input\n"
	      "\t(nop3) %1:r0.y = add.f %0:r0.x, c0.x\n"
	      "\t%2:r0.z = rcp %1:r0.y\n\tend %2:r0.z\n",
	      "reads r0.y 3 cycle(s) too early", "timing: an SFU consumer waits 6 cycles");
	check(TIMING, "a630",
	      "stage vertex\nlegalized\nb0:\n\t%0:r0.x = input\n"
	      "\t(nop3) %1:r0.y = add.f %0:r0.x, c0.x\n"
	      "\t%2:r0.z = cov.f16f32 hr0.z\n\tend %2:r0.z\n",
	      "too early", "timing: half/full mismatch needs the longer delay");
	check(TIMING, "a630",
	      "stage vertex\nlegalized\nb0:\n\t%0:r0.x = input\n\t%5:r1.x = input\n"
	      "\t(nop1) %1:r0.y = add.f %0:r0.x, c0.x\n"
	      "\t%2:r0.z = mad.f32 %5:r1.x, c0.y, %1:r0.y\n\tend %2:r0.z\n",
	      NULL, "timing: mad reads src2 late");
	check(TIMING, "a630",
	      "stage vertex\nlegalized\nb0:\n\t%0:r0.x = input\n\t%5:r1.x = input\n"
	      "\t(nop1) %1:r0.y = add.f %0:r0.x, c0.x\n"
	      "\t%2:r0.z = mad.f32 %1:r0.y, c0.y, %5:r1.x\n\tend %2:r0.z\n",
	      "too early", "timing: …but src0 on time");
	check(TIMING, "a630",
	      "stage vertex\nlegalized\nb0:\n\t%0:r0.x = input\n"
	      "\t%1:r0.y = rcp %0:r0.x\n"
	      "\t%2:r0.z = add.f %1:r0.y, c0.x\n\tend %2:r0.z\n",
	      "without (ss)", "timing: SFU result without (ss)");
	check(TIMING, "a630",
	      "stage vertex\nlegalized\nb0:\n\t%0:r0.x = input\n"
	      "\t%1:r0.y = rcp %0:r0.x\n"
	      "\t(ss)%2:r0.z = add.f %1:r0.y, c0.x\n\tend %2:r0.z\n",
	      NULL, "timing: SFU result with (ss)");
	check(TIMING, "a630",
	      "stage fragment\nlegalized\nb0:\n\t%0.xy:r0.x = input\n"
	      "\t%1.xyzw:r1.x = sam.f32 %0:r0.x, s#0, t#0\n"
	      "\t%2:r2.x = add.f %1:r1.x, c0.x\n\tend %2:r2.x\n",
	      "without (sy)", "timing: texture result without (sy)");
	check(TIMING, "a630",
	      "stage fragment\nlegalized\nb0:\n\t%0.xy:r0.x = input\n"
	      "\t%1.xyzw:r1.x = sam.f32 %0:r0.x, s#0, t#0\n"
	      "\t%2:r0.x = add.f c0.x, c0.y\n\t(sy) %3:r2.x = add.f %1:r1.x, %2:r0.x\n"
	      "\tend %3:r2.x\n",
	      "may still read", "timing: overwriting a texture source (WAR)");
	check(TIMING, "a630",
	      "stage fragment\nlegalized\nb0:\n\t%0.xy:r0.x = input\n"
	      "\t%1:r1.x = ldl.u32 %0:r0.x, 0, 1\n"
	      "\t(sy) %2:r2.x = add.f %1:r1.x, c0.x\n\tend %2:r2.x\n",
	      "without (ss)", "timing: a local load needs (ss), not (sy)");
	check(TIMING, "a630",
	      "stage fragment\nlegalized\nb0:\n\t%0.xy:r0.x = input\n"
	      "\t(rpt5) nop\n"
	      "\t(ss) %1.xyzw:r1.x = sam.f32 %0:r0.x, s#0, t#0\n\tend %1:r1.x\n",
	      "has no (ss) bit", "timing: (ss) on cat5");
	check(TIMING, "a630",
	      "stage compute\nlegalized\nb0:\n\t%0:r0.x = input\n"
	      "\tbar\n\t%1:r0.y = add.f %0:r0.x, c0.x\n\tend %1:r0.y\n",
	      "without (ss)(sy)", "timing: after a barrier");
	check(TIMING, "a630",
	      "stage vertex\nlegalized\nb0:\n\t%0:r0.x = input\n\t%1:r0.y = mov.u32u32 0\n"
	      "b1:\n\t%2:r0.y = add.u %1:r0.y, 1\n"
	      "\tp%3:p0.x = cmps.u.lt %2:r0.y, c0.x\n"
	      "\tbr p%3:p0.x, b1\n"
	      "b2:\n\tend %2:r0.y\n",
	      "too early", "timing: a loop's back edge carries the delays");
	check(TIMING, "a630",
	      "stage vertex\nlegalized\nb0:\n\t%0:r0.x = input\n\t%1:r0.y = mov.u32u32 0\n"
	      "\t(rpt2) nop\n"
	      "b1:\n\t(nop3) %2:r0.y = add.u %1:r0.y, 1\n"
	      "\t(nop2) p%3:p0.x = cmps.u.lt %2:r0.y, c0.x\n"
	      "\t(rpt3) nop\n"
	      "\tbr p%3:p0.x, b1\n"
	      "b2:\n\tend %2:r0.y\n",
	      NULL, "timing: a loop with enough nops");
}

int main(void)
{
	register_cases();
	timing_cases();
	return done_testing();
}
