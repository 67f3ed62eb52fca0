/*
 * The ir3 backend alone (cp/cse/dce → sched → RA → legalize → stats), timed
 * per shader on generated machine IR of three sizes, per target: median and
 * p90 in microseconds.  The programs are built with the builder API the way
 * instruction selection will build them (inputs, ALU, SFU, texture with
 * collect/split, if/else with phis, loops), from a fixed seed.
 *
 *	ir3_backend [shaders-per-size]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "compiler/ir3/ir3_compile.h"
#include "compiler/target.h"
#include "compiler/util/array.h"

struct gen {
	uint64_t seed;
	struct ir3 *ir;
	struct ir3_builder b;
	ARRAY(struct ir3_register *) vals;
};

static unsigned rnd(struct gen *g, unsigned n)
{
	g->seed = g->seed * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(g->seed >> 33) % n;
}

static struct ir3_register *pick(struct gen *g)
{
	return g->vals.data[rnd(g, (unsigned)g->vals.len)];
}

static void ops(struct gen *g, unsigned count)
{
	static const enum ir3_opc alu2[] = { OPC_ADD_F, OPC_MUL_F, OPC_MIN_F, OPC_MAX_F };
	static const enum ir3_opc sfu[] = { OPC_RCP, OPC_RSQ, OPC_LOG2, OPC_EXP2 };
	for (unsigned k = 0; k < count; k++) {
		unsigned r = rnd(g, 100);
		struct ir3_register *v;
		if (r < 45) {
			v = ir3_b_alu2(&g->b, alu2[rnd(g, 4)], pick(g), pick(g));
		} else if (r < 60) {
			struct ir3_register *c = ir3_b_const(&g->b, TYPE_F32, rnd(g, 64));
			v = ir3_b_alu2(&g->b, OPC_MUL_F, pick(g), c);
		} else if (r < 72) {
			v = ir3_b_alu3(&g->b, OPC_MAD_F32, pick(g), pick(g), pick(g));
		} else if (r < 80) {
			v = ir3_b_alu1(&g->b, sfu[rnd(g, 4)], pick(g));
		} else if (r < 88) {
			struct ir3_register *c[2] = { pick(g), pick(g) };
			struct ir3_register *coord = ir3_b_collect(&g->b, 2, c);
			struct ir3_register *t = ir3_b_tex(&g->b, OPC_SAM, TYPE_F32, 0xf, rnd(g, 8), rnd(g, 8),
							   1, &coord);
			for (unsigned comp = 0; comp < 4; comp++)
				if (rnd(g, 2))
					array_push(&g->vals, ir3_b_split(&g->b, t, comp));
			v = ir3_b_split(&g->b, t, 0);
		} else {
			struct ir3_register *imm = ir3_b_imm(&g->b, TYPE_F32, 0x3f000000u + rnd(g, 4) * 0x800000u);
			v = ir3_b_alu2(&g->b, OPC_ADD_F, pick(g), imm);
		}
		array_push(&g->vals, v);
	}
}

static struct ir3 *generate(struct arena *a, uint64_t seed, unsigned size)
{
	struct gen g = { .seed = seed };
	g.ir = ir3_create(a, STAGE_FRAGMENT);
	g.ir->const_size = 16;
	struct ir3_block *b = ir3_block_create(g.ir);
	g.b = ir3_builder_at_end(b);
	struct ir3_register *ij = ir3_b_input(&g.b, 0, 2, true);
	for (unsigned k = 0; k < 4; k++)
		array_push(&g.vals, ir3_b_bary(&g.b, k, ij));
	ops(&g, size / 4);

	unsigned regions = size / 40;
	for (unsigned k = 0; k < regions; k++) {
		if (rnd(&g, 2)) {
			/* if/else with a phi */
			struct ir3_register *p = ir3_b_cmp(&g.b, OPC_CMPS_F, COND_LT, IR3_REG_PREDICATE,
							   pick(&g), pick(&g));
			struct ir3_block *then = ir3_block_create(g.ir), *els = ir3_block_create(g.ir);
			struct ir3_block *join = ir3_block_create(g.ir);
			ir3_b_br(&g.b, p, then, els);
			size_t keep = g.vals.len;
			struct ir3_register *out[2];
			struct ir3_block *arms[2] = { then, els };
			for (int s = 0; s < 2; s++) {
				g.b = ir3_builder_at_end(arms[s]);
				ops(&g, 8 + rnd(&g, 16));
				out[s] = pick(&g);
				ir3_b_jump(&g.b, join);
				g.vals.len = keep;
			}
			struct ir3_register *phi = ir3_b_phi(join, 0, 1);
			ir3_phi_add_src(phi, then, out[0]);
			ir3_phi_add_src(phi, els, out[1]);
			array_push(&g.vals, phi);
			g.b = ir3_builder_at_end(join);
		} else {
			/* a counted loop carrying one value */
			struct ir3_block *pre = g.b.block;
			struct ir3_block *head = ir3_block_create(g.ir), *body = ir3_block_create(g.ir);
			struct ir3_block *exit = ir3_block_create(g.ir);
			struct ir3_register *init = pick(&g), *zero = ir3_b_imm(&g.b, TYPE_U32, 0);
			ir3_b_jump(&g.b, head);
			struct ir3_register *acc = ir3_b_phi(head, 0, 1), *i = ir3_b_phi(head, 0, 1);
			g.b = ir3_builder_at_end(head);
			struct ir3_register *c = ir3_b_const(&g.b, TYPE_U32, 3);
			struct ir3_register *p = ir3_b_cmp(&g.b, OPC_CMPS_U, COND_LT, IR3_REG_PREDICATE, i, c);
			ir3_b_br(&g.b, p, body, exit);
			g.b = ir3_builder_at_end(body);
			size_t keep = g.vals.len;
			array_push(&g.vals, acc);
			ops(&g, 8 + rnd(&g, 16));
			struct ir3_register *next = ir3_b_alu2(&g.b, OPC_ADD_F, acc, pick(&g));
			struct ir3_register *one = ir3_b_imm(&g.b, TYPE_U32, 1);
			struct ir3_register *inext = ir3_b_alu2(&g.b, OPC_ADD_U, i, one);
			ir3_b_jump(&g.b, head);
			g.vals.len = keep;
			ir3_phi_add_src(acc, pre, init);
			ir3_phi_add_src(acc, body, next);
			ir3_phi_add_src(i, pre, zero);
			ir3_phi_add_src(i, body, inext);
			array_push(&g.vals, acc);
			g.b = ir3_builder_at_end(exit);
		}
		ops(&g, size / (2 * (regions + 1)));
	}
	struct ir3_register *outs[4];
	for (int k = 0; k < 4; k++)
		outs[k] = pick(&g);
	struct ir3_instruction *end = ir3_b_end(&g.b, 4, outs);
	for (int k = 0; k < 4; k++)
		end->srcs[k]->slot = k;
	array_free(&g.vals);
	ir3_calc_preds(g.ir);
	return g.ir;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	unsigned per = argc > 1 ? (unsigned)atoi(argv[1]) : 40;
	static const unsigned sizes[] = { 50, 300, 2000 };
	static const char *const tnames[] = { "a306", "a530", "a630", "a740" };
	uint64_t *t = calloc(per, sizeof(*t));
	printf("%-6s %6s %8s %10s %10s %8s\n", "target", "size", "inst", "median_us", "p90_us", "failed");
	for (size_t ti = 0; ti < sizeof(tnames) / sizeof(tnames[0]); ti++) {
		const struct target *target = target_find(tnames[ti]);
		for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
			unsigned failed = 0;
			uint64_t inst = 0;
			for (unsigned k = 0; k < per; k++) {
				struct arena a = ARENA_INIT;
				struct ir3 *ir = generate(&a, 1000 * si + k + 1, sizes[si]);
				struct ir3_compile_options o = { 0 };
				struct ir3_compile_output out;
				ir3_compile_output_init(&out);
				uint64_t start = now_ns();
				failed += ir3_compile_machine(ir, target->ir3, &o, &out) != 0;
				t[k] = now_ns() - start;
				inst += (uint64_t)out.stats.value[STAT_INST];
				ir3_compile_output_release(&out);
				arena_release(&a);
			}
			qsort(t, per, sizeof(*t), cmp_u64);
			printf("%-6s %6u %8llu %10.1f %10.1f %8u\n", tnames[ti], sizes[si],
			       (unsigned long long)(inst / per), (double)t[per / 2] / 1000.0,
			       (double)t[per * 9 / 10] / 1000.0, failed);
		}
	}
	free(t);
	return 0;
}
