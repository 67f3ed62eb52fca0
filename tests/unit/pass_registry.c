/*
 * The one pass registry (compiler/passes.c): every name once, the
 * target-independent passes and the backend's; --passes and --print-after
 * checked against it; and every pass a compile runs, in any pipeline, is
 * registered under the name PASS() gives it (with --time-passes each one
 * is timed by name).
 */
#include <stdio.h>
#include <string.h>

#include "compiler/compile.h"
#include "compiler/opt/opt.h"
#include "compiler/target.h"
#include "tap.h"

/* A test shader with a loop and a texture: every kind of pass runs on it. */
static void shader_path(char *out, size_t size)
{
	const char *f = __FILE__;
	const char *slash = strrchr(f, '/');
	snprintf(out, size, "%.*s/../isel/fs-tex-lighting.ir", slash ? (int)(slash - f) : 1,
		 slash ? f : ".");
}

int main(void)
{
	int dup = 0;
	for (size_t i = 0; i < num_compile_passes; i++)
		for (size_t j = i + 1; j < num_compile_passes; j++)
			dup += !strcmp(compile_passes[i].name, compile_passes[j].name);
	is_int(dup, 0, "every pass is registered once");
	int missing = 0;
	for (unsigned i = 0; i < num_registered_passes; i++) {
		const struct pass_entry *e = compile_pass_find(pass_registry[i].name,
							       strlen(pass_registry[i].name));
		missing += !e || e->family;
	}
	is_int(missing, 0, "the target-independent passes are in it, with no family");

	struct strbuf err = STRBUF_INIT;
	ok(compile_check_passes("opt_dce,ir3_sched,ir3_postsched", "ir3_ra", &err),
	   "--passes and --print-after take backend passes");
	ok(compile_check_passes("opt_dce", "etna_ra", &err) &&
	   compile_check_passes(NULL, "lower_etna_alu", &err),
	   "… of every backend");
	ok(!compile_check_passes("opt_dce,ir3_nope", NULL, &err) &&
	   strstr(err.buf, "unknown pass 'ir3_nope' (known passes: ") && strstr(err.buf, " ir3_sched"),
	   "an unknown name is refused, the known ones listed");
	strbuf_release(&err);
	struct strbuf ir = STRBUF_INIT;
	compile_ir_passes("ir3_sched,opt_dce,ir3_opt_cp,opt_cse", &ir);
	is_str(ir.buf, "opt_dce,opt_cse", "the target-independent pipeline of a list, in order");
	strbuf_reset(&ir);
	compile_ir_passes("ir3_sched", &ir);
	is_str(ir.buf, "none", "none when the list names backend passes only");
	strbuf_release(&ir);

	char path[1024];
	shader_path(path, sizeof(path));
	for (size_t t = 0; t < num_targets; t++) {
		struct compile_options o;
		struct compile_output out;
		compile_options_init(&o);
		compile_output_init(&out);
		o.time_passes = true;
		int rc = compile_file(path, &o, &targets[t], 1, &out);
		if (rc)
			tap_diag("%s", out.diag.text.buf);
		int unregistered = 0;
		bool ra = false;
		for (size_t i = 0; i < out.times.len; i++) {
			const char *name = out.times.data[i].name;
			if (!compile_pass_find(name, strlen(name))) {
				tap_diag("%s: '%s' ran but is not registered", targets[t]->name, name);
				unregistered++;
			}
			ra |= !strcmp(name, "ir3_ra") || !strcmp(name, "etna_ra");
		}
		ok(rc == 0 && ra && !unregistered, "%s: the %zu passes that ran are all registered",
		   targets[t]->name, out.times.len);
		compile_output_release(&out);
		compile_options_release(&o);
	}
	return done_testing();
}
