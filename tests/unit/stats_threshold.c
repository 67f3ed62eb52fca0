/* The --fail-on threshold parser. */
#include <math.h>

#include "stats/threshold.h"
#include "tap.h"

static void parses(const char *text, const char *name, enum threshold_scope scope,
		   enum threshold_op op, double value, bool relative)
{
	struct threshold t;
	struct strbuf err = STRBUF_INIT;
	bool good = threshold_parse(text, &t, &err);
	ok(good && !strcmp(t.name, name) && t.scope == scope && t.op == op &&
	   fabs(t.value - value) < 1e-15 && t.relative == relative, "'%s'", text);
	if (!good)
		tap_diag("%s", err.buf);
	strbuf_release(&err);
}

static void refuses(const char *text)
{
	struct threshold t;
	struct strbuf err = STRBUF_INIT;
	ok(!threshold_parse(text, &t, &err) && strstr(err.buf, "is not a threshold"),
	   "'%s' is refused", text);
	strbuf_release(&err);
}

int main(void)
{
	parses("inst>+0.5%", "inst", SCOPE_TOTAL, OP_GT, 0.005, true);
	parses("total:waves<-1%", "waves", SCOPE_TOTAL, OP_LT, -0.01, true);
	parses("shader:full>=+2", "full", SCOPE_SHADER, OP_GE, 2, false);
	parses(" inst <= 10 ", "inst", SCOPE_TOTAL, OP_LE, 10, false);
	parses("lost>0", "lost", SCOPE_TOTAL, OP_GT, 0, false);
	parses("code size>1.5 %", "code size", SCOPE_TOTAL, OP_GT, 0.015, true);
	parses("Instruction Count>=0", "Instruction Count", SCOPE_TOTAL, OP_GE, 0, false);

	refuses("inst");
	refuses(">5");
	refuses("inst>");
	refuses("inst>five");
	refuses("inst>5%%");
	refuses("inst>0x10");
	refuses("inst>nan");
	refuses("inst=5");
	refuses("inst>5 6");

	struct threshold t;
	struct strbuf err = STRBUF_INIT;
	threshold_parse("inst>=+1%", &t, &err);
	ok(threshold_crossed(&t, 0.01) && threshold_crossed(&t, 0.02) && !threshold_crossed(&t, 0.0099),
	   ">= crosses at the value and beyond");
	threshold_parse("waves<-1", &t, &err);
	ok(threshold_crossed(&t, -2) && !threshold_crossed(&t, -1), "< is strict");
	is_str(threshold_op_text(OP_LE), "<=", "operator text");
	strbuf_release(&err);
	return done_testing();
}
