/*
 * Analyses on small shaders: block and instruction indices, dominators,
 * dominance frontiers, liveness, loop analysis and trip counts.
 */
#include <string.h>

#include "compiler/ir/ir.h"
#include "tap.h"

static struct shader *parse(const char *text)
{
	struct diag d = DIAG_INIT;
	struct shader *s = ir_parse("t.ir", text, strlen(text), &d);
	if (s && !ir_validate(s, &d, "t.ir")) {
		shader_free(s);
		s = NULL;
	}
	if (!s)
		BUG("test shader does not parse or validate:\n%s", d.text.buf);
	diag_release(&d);
	return s;
}

static struct block *blk(struct shader *s, unsigned i)
{
	metadata_require(s->fn, META_BLOCK_INDEX);
	return s->fn->blocks[i];
}

/* The value with index i (the shaders below number them in order). */
static struct ssa_def *val(struct shader *s, unsigned i)
{
	foreach_block(b, s->fn)
		foreach_instr(in, b)
			if (instr_def(in) && instr_def(in)->index == i)
				return instr_def(in);
	BUG("no value %%%u", i);
}

/* "b1 b3": the frontier of a block as text. */
static const char *frontier(struct block *b, char *buf, size_t n)
{
	size_t o = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < b->num_dom_frontier && o + 8 < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%sb%u", i ? " " : "", b->dom_frontier[i]->index);
	return buf;
}

#define DIAMOND \
	"shader fragment\n\noutput 0 32 location=0\n\nfn main {\nblock b0:\n" \
	"\t32 %0 = load_const 0\n" \
	"\t32 %1 = load_const 7\n" \
	"\t1 %2 = ieq %1, %0\n" \
	"\tif %2 {\n" \
	"\tblock b1:\n" \
	"\t\t32 %3 = iadd %1, %1\n" \
	"\t} else {\n" \
	"\tblock b2:\n" \
	"\t\t32 %4 = imul %1, %1\n" \
	"\t}\n" \
	"block b3:\n" \
	"\t32 %5 = phi b1: %3, b2: %4\n" \
	"\t32 %6 = iadd %5, %1\n" \
	"\t@store_output %6, %0 base=0 component=0 write_mask=x\n" \
	"}\n"

static void test_diamond(void)
{
	struct shader *s = parse(DIAMOND);
	char buf[64];
	metadata_require(s->fn, META_ALL);
	struct block *b0 = blk(s, 0), *b1 = blk(s, 1), *b2 = blk(s, 2), *b3 = blk(s, 3);
	is_int(s->fn->num_blocks, 4, "four blocks");
	ok(s->fn->end_block->index == 4 && s->fn->blocks[4] == s->fn->end_block,
	   "the end block comes last");
	ok(!b0->idom && b1->idom == b0 && b2->idom == b0 && b3->idom == b0, "idoms of a diamond");
	ok(s->fn->end_block->idom == b3, "the end block's idom");
	is_int(b0->num_dom_children, 3, "b0 dominates three blocks directly");
	ok(block_dominates(b0, b3) && !block_dominates(b1, b3) && block_dominates(b3, b3),
	   "block_dominates");
	ok(block_dominance_lca(b1, b2) == b0 && block_dominance_lca(b3, b3) == b3, "dominance LCA");
	is_str(frontier(b1, buf, sizeof(buf)), "b3", "DF(b1) = {b3}");
	is_str(frontier(b2, buf, sizeof(buf)), "b3", "DF(b2) = {b3}");
	is_str(frontier(b0, buf, sizeof(buf)), "", "DF(b0) = {}");

	/* instruction indices are in program order */
	unsigned last = 0;
	bool ordered = true;
	foreach_block(b, s->fn)
		foreach_instr(i, b) {
			ordered &= i->index >= last;
			last = i->index;
		}
	ok(ordered && s->fn->num_instrs == 8, "instruction indices in program order");
	unsigned expect = s->fn->num_blocks;
	bool reverse_ok = true;
	foreach_block_reverse(b, s->fn)
		reverse_ok &= b->index == --expect;
	ok(reverse_ok && expect == 0, "foreach_block_reverse visits every block backwards");

	/* liveness: %1 crosses every block; phi sources live out of their
	 * predecessor only; the condition dies in b0 */
	unsigned v1 = val(s, 1)->index, v3 = val(s, 3)->index, v4 = val(s, 4)->index;
	ok(bitset_test(b0->live_out, v1) && bitset_test(b1->live_in, v1) &&
	   bitset_test(b3->live_in, v1) && !bitset_test(b3->live_out, v1), "%%1 is live until b3");
	ok(bitset_test(b1->live_out, v3) && !bitset_test(b3->live_in, v3) &&
	   !bitset_test(b2->live_out, v3), "a phi source is live out of its predecessor only");
	ok(!bitset_test(b1->live_out, v4) && bitset_test(b2->live_out, v4), "and the other one");
	ok(!bitset_test(b0->live_out, val(s, 2)->index), "the if condition dies in its block");
	ok(bitset_test(b0->live_out, val(s, 0)->index), "%%0, used in b3, lives through");
	ok(ssa_def_is_live_after(val(s, 1), val(s, 2)->parent), "%%1 is live after %%2");
	ok(!ssa_def_is_live_after(val(s, 6), block_last_instr(b3)), "%%6 is dead after its last use");
	ok(ssa_def_is_live_after(val(s, 2), val(s, 2)->parent), "%%2 is live after itself (the if)");
	shader_free(s);
}

static void test_loop_dominance(void)
{
	struct shader *s = parse(
		"shader fragment\n\nfn main {\nblock b0:\n"
		"\t32 %0 = load_const 0\n"
		"\tloop {\n"
		"\tblock b1:\n"
		"\t\t32 %1 = phi b0: %0, b4: %3\n"
		"\t\t1 %2 = ieq %1, %0\n"
		"\t\tif %2 {\n\t\tblock b2:\n\t\t\tbreak\n\t\t} else {\n\t\tblock b3:\n\t\t}\n"
		"\tblock b4:\n"
		"\t\t32 %3 = iadd %1, %1\n"
		"\t}\n"
		"block b5:\n"
		"\t1 %4 = load_const true\n"
		"\tif %4 {\n\tblock b6:\n\t\treturn\n\t} else {\n\tblock b7:\n\t\treturn\n\t}\n"
		"block b8:\n"
		"\t32 %5 = iadd %0, %0\n"
		"}\n");
	char buf[64];
	metadata_require(s->fn, META_ALL);
	struct block *b1 = blk(s, 1), *b3 = blk(s, 3), *b4 = blk(s, 4), *b5 = blk(s, 5),
		     *b8 = blk(s, 8), *b2 = blk(s, 2);
	ok(b1->idom == blk(s, 0) && b4->idom == b3 && b3->idom == b1 && b5->idom == b2,
	   "idoms in and after a loop");
	is_str(frontier(b4, buf, sizeof(buf)), "b1", "the back edge puts the header in DF(b4)");
	is_str(frontier(b1, buf, sizeof(buf)), "b1", "and in its own frontier");
	ok(!block_is_reachable(b8) && !block_dominates(blk(s, 0), b8), "a block after two returns is unreachable");
	ok(s->fn->end_block->idom == b5, "both returns reach the end block");
	is_int(block_num_preds(s->fn->end_block), 3, "the end block has the returns and b8 as preds");
	ok(bitset_test(b4->live_out, val(s, 3)->index) && !bitset_test(b1->live_in, val(s, 3)->index),
	   "a back-edge phi source is live out of the latch, not into the header");
	ok(bitset_test(b1->live_in, val(s, 0)->index), "%%0 is live around the loop");
	unsigned expect = s->fn->num_blocks;
	bool reverse_ok = true;
	foreach_block_reverse(b, s->fn)
		reverse_ok &= b->index == --expect;
	ok(reverse_ok && expect == 0, "foreach_block_reverse through loops and ifs");
	shader_free(s);
}

/* A counted loop: `init`, `update` (op with step), terminator `cmp` (op
 * against limit), testing the phi or (next) the updated value. */
static struct shader *counted_loop(const char *type, const char *init, const char *op,
				   const char *step, const char *cmp, const char *limit, bool next,
				   bool at_end)
{
	char text[2048];
	const char *tested = next ? "%3" : "%1";
	char term[256];
	snprintf(term, sizeof(term),
		 "\t\t1 %%4 = %s %s, %%6\n"
		 "\t\tif %%4 {\n\t\tblock t1:\n\t\t\tbreak\n\t\t} else {\n\t\tblock t2:\n\t\t}\n"
		 "\tblock t3:\n", cmp, tested);
	snprintf(text, sizeof(text),
		 "shader fragment\n\nfn main {\nblock b0:\n"
		 "\t%s %%0 = load_const %s\n"
		 "\t%s %%5 = load_const %s\n"
		 "\t%s %%6 = load_const %s\n"
		 "\tloop {\n"
		 "\tblock b1:\n"
		 "\t\t%s %%1 = phi b0: %%0, %s: %%3\n"
		 "%s"
		 "\t\t%s %%3 = %s %%1, %%5\n"
		 "%s"
		 "\t}\n"
		 "block b9:\n"
		 "}\n",
		 type, init, type, step, type, limit, type, at_end ? "t3" : "t3",
		 at_end ? "" : term, type, op, at_end ? term : "");
	return parse(text);
}

static int64_t trip(struct shader *s, bool *exact)
{
	metadata_require(s->fn, META_LOOP_ANALYSIS);
	struct cf_loop *loop = cf_as_loop(cf_node_next(&function_start_block(s->fn)->cf));
	if (exact)
		*exact = loop->info->exact_trip_count;
	return loop->info->trip_count;
}

static void test_trip_counts(void)
{
	bool exact;
	struct shader *s = counted_loop("32", "0", "iadd", "1", "ige", "4", false, false);
	is_int(trip(s, &exact), 4, "for (i = 0; i < 4; i++): 4");
	ok(exact, "and exact");
	struct cf_loop *loop = cf_as_loop(cf_node_next(&function_start_block(s->fn)->cf));
	ok(loop->info->num_ivs == 1 && loop->info->num_terminators == 1 &&
	   loop->info->limiting == &loop->info->terminators[0] && loop->info->depth == 1,
	   "one induction variable, one terminator, depth 1");
	ok(loop->info->ivs[0].update->op == OP_iadd && loop->info->ivs[0].step_src == 1,
	   "the induction variable's update");
	shader_free(s);

	s = counted_loop("32", "0", "iadd", "1", "ige", "4", true, true);
	is_int(trip(s, NULL), 3, "do { i++ } while (i < 4): the terminator is passed 3 times");
	shader_free(s);
	s = counted_loop("32", "10", "iadd", "-3", "ilt", "0", false, false);
	is_int(trip(s, NULL), 4, "counting down by 3 from 10 below 0: 4");
	shader_free(s);
	s = counted_loop("32", "0xfffffffe", "iadd", "1", "ieq", "2", false, false);
	is_int(trip(s, NULL), 4, "an unsigned counter wrapping through zero: 4");
	shader_free(s);
	s = counted_loop("32", "1", "ishl", "1", "uge", "256", false, false);
	is_int(trip(s, NULL), 8, "doubling from 1 to 256: 8");
	shader_free(s);
	s = counted_loop("32", "0.0", "fadd", "0.1", "fge", "1.0", false, false);
	float f = 0.0f;
	int n = 0;
	while (!(f >= 1.0f)) {
		f += 0.1f;
		n++;
	}
	is_int(trip(s, NULL), n, "a float counter, with float rounding (%d)", n);
	shader_free(s);
	s = counted_loop("8", "0", "iadd", "1", "ieq", "200", false, false);
	is_int(trip(s, NULL), 200, "an 8-bit counter: 200");
	shader_free(s);
	s = counted_loop("32", "0", "iadd", "1", "ige", "100000", false, false);
	is_int(trip(s, NULL), -1, "more than LOOP_MAX_TRIP_COUNT iterations: unknown");
	shader_free(s);
	s = counted_loop("32", "0", "iadd", "0", "ige", "4", false, false);
	is_int(trip(s, NULL), -1, "a counter that never moves: unknown");
	shader_free(s);
}

static void test_loop_shapes(void)
{
	struct shader *s = parse(
		"shader fragment\n\ninput 0 32 location=0 flat\n\nfn main {\nblock b0:\n"
		"\t32 %0 = load_const 0\n"
		"\t32 %1 = @load_input %0 base=0 component=0\n"
		"\t32 %2 = load_const 1\n"
		"\tloop {\n"
		"\tblock b1:\n"
		"\t\t32 %3 = phi b0: %1, b7: %5\n"
		"\t\t1 %4 = ige %3, %1\n"
		"\t\tif %4 {\n\t\tblock b2:\n\t\t\tbreak\n\t\t} else {\n\t\tblock b3:\n\t\t}\n"
		"\tblock b4:\n"
		"\t\t32 %5 = iadd %3, %2\n"
		"\t\tloop {\n\t\tblock b5:\n\t\t\tbreak\n\t\t}\n"
		"\tblock b6:\n"
		"\t\tif %4 {\n\t\tblock b8:\n\t\t\tbreak\n\t\t} else {\n\t\tblock b9:\n\t\t}\n"
		"\tblock b7:\n"
		"\t}\n"
		"block b10:\n"
		"}\n");
	metadata_require(s->fn, META_LOOP_ANALYSIS);
	struct cf_loop *outer = cf_as_loop(cf_node_next(&function_start_block(s->fn)->cf));
	struct loop_info *info = outer->info;
	is_int(info->trip_count, -1, "a counter starting from an input: unknown trip count");
	is_int(info->num_ivs, 0, "and no induction variable");
	is_int(info->num_terminators, 2, "two terminators");
	is_int(info->num_breaks, 2, "two breaks of its own (the inner loop's not counted)");
	ok(!info->exact_trip_count && !info->has_continue && !info->has_return, "exits");
	is_int(info->num_instrs, 6, "six instructions, the inner loop's included");
	struct cf_loop *inner = NULL;
	foreach_cf_node(n, &outer->body)
		if (n->type == CF_LOOP)
			inner = cf_as_loop(n);
	ok(inner && inner->info->depth == 2 && info->depth == 1, "nesting depths");
	shader_free(s);

	/* a continue makes the count unknown */
	s = parse(
		"shader fragment\n\nfn main {\nblock b0:\n"
		"\t32 %0 = load_const 0\n"
		"\t32 %1 = load_const 1\n"
		"\t32 %2 = load_const 4\n"
		"\tloop {\n"
		"\tblock b1:\n"
		"\t\t32 %3 = phi b0: %0, b2: %5, b4: %5\n"
		"\t\t1 %4 = ige %3, %2\n"
		"\t\t32 %5 = iadd %3, %1\n"
		"\t\tif %4 {\n\t\tblock b2:\n\t\t\tcontinue\n\t\t} else {\n\t\tblock b3:\n\t\t\tbreak\n\t\t}\n"
		"\tblock b4:\n"
		"\t}\n"
		"block b5:\n"
		"}\n");
	metadata_require(s->fn, META_LOOP_ANALYSIS);
	info = cf_as_loop(cf_node_next(&function_start_block(s->fn)->cf))->info;
	ok(info->has_continue && info->trip_count == -1 && info->num_ivs == 0,
	   "a loop with a continue (and three phi sources): unknown");
	shader_free(s);
}

int main(void)
{
	test_diamond();
	test_loop_dominance();
	test_trip_counts();
	test_loop_shapes();
	return done_testing();
}
