/*
 * The pass infrastructure (compiler/opt/opt.h): PASS() bookkeeping —
 * metadata invalidation, the progress checks, validation after each pass,
 * --print-after dumps, timing — and pipelines by name.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/builder.h"
#include "compiler/opt/opt.h"
#include "tap.h"

static struct shader *small_shader(void)
{
	struct shader *s = shader_create(STAGE_FRAGMENT, "main");
	struct io_decl *out = shader_add_output(s);
	out->location = 0;
	out->num_components = 1;
	out->bit_size = 32;
	struct builder b;
	builder_init_at_end(&b, s);
	struct ssa_def *zero = b_imm_int(&b, 0);
	struct ssa_def *x = b_fadd(&b, b_imm_float(&b, 1.0), b_imm_float(&b, 2.0));
	b_store_output(&b, x, 0, 0, 1, zero);
	return s;
}

/* Passes under test. */
static bool pass_nothing(struct shader *s)
{
	return shader_progress(s, false, 0);
}

static bool pass_honest(struct shader *s)
{
	struct builder b;
	builder_init(&b, s, cursor_before_block(function_start_block(s->fn)));
	b_undef(&b, 1, 32);
	return shader_progress(s, true, META_CONTROL_FLOW);
}

static bool pass_forgets_metadata(struct shader *s)
{
	(void)s;
	return true;
}

static bool pass_silent_change(struct shader *s)
{
	struct builder b;
	builder_init(&b, s, cursor_before_block(function_start_block(s->fn)));
	b_undef(&b, 1, 32);
	return shader_progress(s, false, 0);
}

static bool pass_breaks_ir(struct shader *s)
{
	struct instr *first = block_first_instr(function_start_block(s->fn));
	instr_remove(first);	/* its value is still used */
	return shader_progress(s, true, 0);
}

static bool pass_with_arg(struct shader *s, int n)
{
	return shader_progress(s, n > 0, META_ALL);
}

static void test_pass_macro(void)
{
	struct shader *s = small_shader();
	struct diag d = DIAG_INIT;
	struct strbuf dump = STRBUF_INIT;
	struct pipeline pl;
	const char *volatile running = "x";
	bool progress = false;

	pipeline_init(&pl, s, &d, "t.ir");
	pl.validate = true;
	pl.check_progress = true;
	pl.print_after = "pass_honest";
	pl.dump = &dump;
	pl.time_passes = true;
	pl.running = &running;
	metadata_require(s->fn, META_ALL);
	PASS(progress, &pl, pass_nothing);
	ok(!progress && !pl.failed, "a pass without progress");
	is_int(s->fn->valid_metadata & META_ALL, META_ALL, "keeps the metadata");
	PASS(progress, &pl, pass_honest);
	ok(progress && !pl.failed, "a pass with progress");
	ok(!(s->fn->valid_metadata & META_LIVENESS), "drops what it did not preserve");
	ok(!(s->fn->valid_metadata & META_NOT_PROPERLY_RESET), "the check flag is cleared");
	ok(running == NULL, "the running pass is cleared after it");
	PASS(progress, &pl, pass_with_arg, 0);
	ok(!pl.failed, "passes take extra arguments");
	ok(!strncmp(dump.buf, "# after pass_honest\nshader fragment\n", 36),
	   "print_after dumps the shader after the named pass");
	ok(!strstr(dump.buf, "pass_nothing"), "and only after it");
	is_int(pl.times.len, 3, "time_passes records each pass");
	is_str(pl.times.data[1].name, "pass_honest", "by name");
	is_int(pl.times.data[1].progress, 1, "with its progress");
	is_str(d.text.buf, "", "no message");
	pipeline_release(&pl);
	strbuf_release(&dump);
	diag_release(&d);
	shader_free(s);
}

static void expect_failure(pass_fn fn, const char *name, const char *want)
{
	struct shader *s = small_shader();
	struct diag d = DIAG_INIT;
	struct pipeline pl;
	bool progress = false;
	pipeline_init(&pl, s, &d, "t.ir");
	pl.validate = true;
	pl.check_progress = true;
	pipeline_before_(&pl, name);
	pipeline_after_(&pl, name, fn(s));
	ok(pl.failed && strstr(d.text.buf, want), "%s: reported", name);
	if (!strstr(d.text.buf, want))
		tap_diag("got: %s", d.text.buf);
	PASS(progress, &pl, pass_honest);
	ok(!progress, "%s: later passes are skipped", name);
	pipeline_release(&pl);
	diag_release(&d);
	shader_free(s);
}

static void test_checks(void)
{
	expect_failure(pass_forgets_metadata, "pass_forgets_metadata",
		       "t.ir: error: internal error after pass_forgets_metadata: "
		       "progress reported without shader_progress()");
	expect_failure(pass_silent_change, "pass_silent_change",
		       "t.ir: error: internal error after pass_silent_change: "
		       "the shader changed but the pass reported no progress");
	expect_failure(pass_breaks_ir, "pass_breaks_ir",
		       "t.ir: error: internal error after pass_breaks_ir: IR validation failed\n"
		       "t.ir: error: '@store_output %3, %0 base=0 component=0 write_mask=x': "
		       "reads a value whose instruction was removed (%0)");

	/* without validation, a forgotten shader_progress only drops metadata */
	struct shader *s = small_shader();
	struct diag d = DIAG_INIT;
	struct pipeline pl;
	bool progress = false;
	pipeline_init(&pl, s, &d, "t.ir");
	pl.validate = false;
	metadata_require(s->fn, META_ALL);
	PASS(progress, &pl, pass_forgets_metadata);
	ok(!pl.failed && !(s->fn->valid_metadata & META_ALL),
	   "without validation, metadata is dropped and the pipeline goes on");
	pipeline_release(&pl);
	diag_release(&d);
	shader_free(s);
}

static void test_lists(void)
{
	struct shader *s = small_shader();
	struct diag d = DIAG_INIT;
	struct strbuf dump = STRBUF_INIT, err = STRBUF_INIT;
	struct pipeline pl;

	pipeline_init(&pl, s, &d, "t.ir");
	pl.print_after = "all";
	pl.dump = &dump;
	ok(pipeline_run_list(&pl, "none"), "'none' runs nothing");
	is_str(dump.buf, "", "and dumps nothing");
	ok(pipeline_run_list(&pl, "calc_reindex,calc_reindex"), "a list of registered passes");
	is_str(dump.buf, "# after calc_reindex: no progress\n# after calc_reindex: no progress\n",
	       "print_after=all notes every pass");
	ok(!pipeline_run_list(&pl, "calc_reindex,nope"), "an unknown name fails");
	ok(strstr(d.text.buf, "t.ir: error: unknown pass 'nope' (known passes: calc_reindex"),
	   "with the list of known passes");
	pipeline_release(&pl);

	ok(pipeline_check_names(NULL, NULL, &err) && pipeline_check_names("none", "all", &err),
	   "NULL, none and all are fine");
	ok(!pipeline_check_names("calc_reindex,", NULL, &err), "an empty name fails");
	is_str(err.buf, "empty pass name in 'calc_reindex,'", "with a message");
	strbuf_reset(&err);
	ok(!pipeline_check_names(NULL, "opt_x", &err), "an unknown --print-after fails");
	ok(pass_find("calc_reindex", 12) && !pass_find("calc", 4), "pass_find matches whole names");

	char *before = ir_print_string(s);
	pipeline_init(&pl, s, &d, "t.ir");
	opt_default(&pl);
	char *after = ir_print_string(s);
	ok(!pl.failed && strcmp(before, after) && strstr(after, "load_const 0x40400000  # 3.0"),
	   "the default pipeline folds 1.0 + 2.0");
	free(before);
	free(after);
	pipeline_release(&pl);
	strbuf_release(&dump);
	strbuf_release(&err);
	diag_release(&d);
	shader_free(s);
}

int main(void)
{
	test_pass_macro();
	test_checks();
	test_lists();
	return done_testing();
}
