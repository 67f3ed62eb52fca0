/*
 * ir3_sim_check(): the differential test of one compiled result, for
 * ir3_compile_shader (`shdb compile --sim`, `shdb run --verify-exec`,
 * `make ir3-check`): the final program in the simulator against the
 * interpreter on the shader the backend was given, within the tolerance
 * of the lowerings (exec_tolerance()).
 */
#include "compiler/compile_types.h"
#include "compiler/ir3/sim/sim_priv.h"

#include <stdlib.h>

/* The simulator's results of one seed, and the inputs, as text. */
static char *results_text(struct ir3_sim *sim, struct shader *s, uint64_t seed)
{
	struct strbuf sb = STRBUF_INIT;
	struct interp_inputs *in = interp_inputs_random(s, seed);
	ir3_sim_prepare(sim, in);
	struct interp_result *res = ir3_sim_run(sim, in);
	strbuf_addf(&sb, "; sim seed %llu\n", (unsigned long long)seed);
	interp_inputs_print(s, in, &sb);
	interp_result_print(s, res, &sb);
	if (sim->last->first_refused)
		strbuf_addf(&sb, "; timing: %s\n", sim->last->refused_msg.buf);
	interp_result_free(res);
	interp_inputs_free(in);
	return strbuf_detach(&sb, NULL);
}

int ir3_sim_check(struct ir3 *ir, struct shader *s, struct shader *lowered,
		  const struct compile_options *o, struct compile_result *r, struct exec_cache *cache)
{
	struct strbuf why = STRBUF_INIT;
	struct ir3_sim *sim = ir3_sim_create(ir, s, &why);
	int ret = 0;
	if (!sim) {
		r->exec = EXEC_CANNOT_RUN;
		r->exec_note = strbuf_detach(&why, NULL);
		return 0;
	}
	struct exec_backend be = ir3_sim_backend(sim, lowered);
	struct interp_tolerance tol = exec_tolerance();
	struct exec_stats st;
	bool same = exec_check(s, &be, o->exec_first_seed, o->exec_seeds, &tol, &why, &st, cache);
	r->exec_sim_us = st.run_ns / 1000;
	r->exec_interp_us = st.interp_ns / 1000;
	if (same) {
		r->exec = st.via_lowered ? EXEC_AGREE_LOWERED : EXEC_AGREE;
		if (!st.compared) {
			r->exec = EXEC_CANNOT_RUN;
			r->exec_note = xstrdup(
				!st.skipped_limit ? "nothing to compare: the random inputs make the "
						    "shader's behaviour undefined on every seed"
				: st.skipped_limit == st.skipped
					? "nothing to compare: the interpreter reaches its step "
					  "limit on every seed"
					: "nothing to compare: the interpreter reaches its step "
					  "limit or undefined behaviour on every seed");
		}
	} else {
		r->exec = EXEC_DIFFER;
		r->status = RESULT_ERROR;
		struct strbuf m = STRBUF_INIT;
		strbuf_addf(&m, "execution: %s", why.buf);
		free(r->message);
		r->message = strbuf_detach(&m, NULL);
		ret = -1;
	}
	if (o->want_exec_text)
		r->exec_text = results_text(sim, s, o->exec_first_seed);
	ir3_sim_free(sim);
	strbuf_release(&why);
	return ret;
}
