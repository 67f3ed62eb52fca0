/*
 * exec_check(): the interpreter against a backend's simulator, seed by
 * seed (exec_check.h).  The interpreter runs with the tolerance's options
 * (spirv_undef, float_relaxed), so what SPIR-V and Vulkan leave open is
 * poison there and anything goes in the machine's result.
 */
#include "compiler/exec/exec_check.h"

#include <stdlib.h>
#include <time.h>

#include "compiler/opt/opt.h"
#include "compiler/util/array.h"

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct exec_run {
	uint64_t seed;
	struct interp_inputs *in;
	struct interp_result *want;
};

struct exec_cache {
	ARRAY(struct exec_run) runs;
};

struct exec_cache *exec_cache_new(void)
{
	return xcalloc(1, sizeof(struct exec_cache));
}

static void run_release(struct exec_run *r)
{
	interp_result_free(r->want);
	interp_inputs_free(r->in);
}

void exec_cache_free(struct exec_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->runs.len; i++)
		run_release(&c->runs.data[i]);
	array_free(&c->runs);
	free(c);
}

uint64_t exec_step_limit(unsigned lanes)
{
	uint64_t n = EXEC_LANE_STEPS / (lanes ? lanes : 1);
	return n < 1000 ? 1000 : n;
}

/* Whether two preparations of one seed's inputs are the same machine's. */
static bool same_machine(const struct interp_inputs *a, const struct interp_inputs *b)
{
	return a->subgroup_size == b->subgroup_size &&
	       a->coarse_derivatives == b->coarse_derivatives &&
	       a->ubo_unchecked == b->ubo_unchecked && a->address_bits == b->address_bits;
}

/* The inputs of `seed` as `be` prepares them and the interpreter's run on
 * them: from the cache, or made now (and kept there when there is one). */
static struct exec_run get_run(struct shader *s, const struct exec_backend *be, uint64_t seed,
			       const struct interp_tolerance *tol, struct exec_cache *cache,
			       bool *owned, struct exec_stats *st)
{
	struct interp_inputs *in = interp_inputs_random(s, seed);
	if (be->prepare)
		be->prepare(be->ctx, in);
	for (size_t i = 0; cache && i < cache->runs.len; i++) {
		struct exec_run *r = &cache->runs.data[i];
		if (r->seed == seed && same_machine(r->in, in)) {
			interp_inputs_free(in);
			*owned = false;
			return *r;
		}
	}
	struct interp_options opt = { .step_limit = exec_step_limit(in->num_lanes),
				      .spirv_undef = tol->spirv_undef,
				      .float_relaxed = tol->float_relaxed };
	uint64_t t0 = now_ns();
	struct exec_run r = { seed, in, interp_run(s, in, &opt) };
	st->interp_ns += now_ns() - t0;
	*owned = !cache;
	if (cache)
		array_push(&cache->runs, r);
	return r;
}

struct interp_tolerance exec_tolerance(void)
{
	struct interp_tolerance t = { 0 };
	for (unsigned i = 0; i < num_registered_passes; i++) {
		const struct interp_tolerance *p = &pass_registry[i].tolerance;
		t.rel = p->rel > t.rel ? p->rel : t.rel;
		t.abs = p->abs > t.abs ? p->abs : t.abs;
		t.ulp = p->ulp > t.ulp ? p->ulp : t.ulp;
		t.spirv_undef |= p->spirv_undef;
		t.float_relaxed |= p->float_relaxed;
	}
	return t;
}

/* Whether the backend's last run `got` differs from `want` in floats only
 * and computes what the lowered shader says on the same inputs (exactly,
 * but for NaN payloads): the lowerings' float approximations explain the
 * difference.  What is not a float (integers, bits, fates) must be what
 * the source shader gives — unless the lowering computed mediump values at
 * lower precision (info.precision_lowered), which the source allows to
 * change anything that depends on them, down to leaving the result
 * undefined (a mediump value out of 16-bit range): then the seed has no
 * verdict (LOWERED_UNDEFINED). */
enum lowered_verdict { LOWERED_DIFFERS, LOWERED_AGREES, LOWERED_UNDEFINED };

static enum lowered_verdict agrees_lowered(struct shader *s, const struct exec_backend *be,
					   const struct interp_inputs *in,
					   const struct interp_result *want,
					   const struct interp_result *got,
					   const struct interp_tolerance *tol)
{
	if (!be->lowered || !be->lowered_inputs)
		return LOWERED_DIFFERS;
	struct interp_tolerance loose = *tol;
	loose.floats_free = true;
	struct strbuf why = STRBUF_INIT;
	bool floats_only = be->lowered->info.precision_lowered ||
			   interp_compare(s, want, got, &loose, &why);
	strbuf_release(&why);
	if (!floats_only)
		return LOWERED_DIFFERS;
	struct interp_inputs lin;
	be->lowered_inputs(be->ctx, in, &lin);
	struct interp_options opt = { .step_limit = exec_step_limit(lin.num_lanes),
				      .spirv_undef = tol->spirv_undef,
				      .float_relaxed = tol->float_relaxed };
	struct interp_result *lwant = interp_run(be->lowered, &lin, &opt);
	if (be->lowered_result && lwant->status == INTERP_OK)
		be->lowered_result(be->ctx, lwant);
	/* a backend may put buffers of its own after the global memory (ir3's
	 * tess buffers): what the source shader has is compared */
	if (lwant->global.size > got->global.size)
		lwant->global.size = got->global.size;
	struct interp_tolerance exact = { .spirv_undef = tol->spirv_undef,
					  .float_relaxed = tol->float_relaxed };
	enum lowered_verdict v =
		lwant->status != INTERP_OK
			? (be->lowered->info.precision_lowered ? LOWERED_UNDEFINED : LOWERED_DIFFERS)
		: interp_compare(be->lowered, lwant, got, &exact, &why) ? LOWERED_AGREES
									 : LOWERED_DIFFERS;
	strbuf_release(&why);
	interp_result_free(lwant);
	return v;
}

/* One seed: true when both agree or the interpreter has no verdict. */
static bool check_seed(struct shader *s, const struct exec_backend *be, uint64_t seed,
		       const struct interp_tolerance *tol, struct strbuf *diag,
		       struct exec_stats *st, struct exec_cache *cache)
{
	bool owned;
	struct exec_run run = get_run(s, be, seed, tol, cache, &owned, st);
	bool same = true;
	if (run.want->status != INTERP_OK) {
		st->skipped++;
		st->skipped_limit += run.want->status == INTERP_STEP_LIMIT;
	} else {
		uint64_t t0 = now_ns();
		struct interp_result *got = be->run(be->ctx, run.in);
		st->run_ns += now_ns() - t0;
		struct strbuf why = STRBUF_INIT;
		struct interp_diff at;
		same = interp_compare_at(s, run.want, got, tol, &why, &at);
		bool reduced = be->lowered && be->lowered->info.precision_lowered;
		enum lowered_verdict v = LOWERED_DIFFERS;
		if (!same && (reduced || (at.kind != INTERP_DIFF_FATE && at.kind != INTERP_DIFF_STATUS)))
			v = agrees_lowered(s, be, run.in, run.want, got, tol);
		if (v == LOWERED_AGREES) {
			same = true;
			st->via_lowered++;
		}
		if (v == LOWERED_UNDEFINED) {
			/* no verdict: as a seed the interpreter cannot judge */
			same = true;
			st->skipped++;
		} else if (!same) {
			strbuf_addf(diag, "seed %llu: %s", (unsigned long long)seed, why.buf);
			if (be->origin && at.kind != INTERP_DIFF_STATUS && at.kind != INTERP_DIFF_SHAPE) {
				struct strbuf o = STRBUF_INIT;
				be->origin(be->ctx, &at, &o);
				if (o.len)
					strbuf_addf(diag, "; %s", o.buf);
				strbuf_release(&o);
			}
		} else {
			st->compared++;
			st->defined += interp_result_defined(run.want);
		}
		strbuf_release(&why);
		interp_result_free(got);
	}
	if (owned)
		run_release(&run);
	return same;
}

bool exec_check(struct shader *s, const struct exec_backend *be, uint64_t first, unsigned seeds,
		const struct interp_tolerance *tol, struct strbuf *diag, struct exec_stats *st,
		struct exec_cache *cache)
{
	struct exec_stats own = { 0 };
	if (!st)
		st = &own;
	*st = (struct exec_stats){ 0 };
	for (unsigned k = 0; k < seeds || (!st->compared && k < EXEC_MORE_SEEDS * seeds); k++)
		if (!check_seed(s, be, first + k, tol, diag, st, cache))
			return false;
	return true;
}
