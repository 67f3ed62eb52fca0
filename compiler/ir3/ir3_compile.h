/*
 * The ir3 backend's driver: machine IR in, allocated and legalised program,
 * statistics and disassembly out.  Instruction selection produces the IR
 * (ir3.h); the text form (ir3_parse) produces it for tests.
 */
#ifndef SHDB_IR3_COMPILE_H
#define SHDB_IR3_COMPILE_H

#include "compiler/ir3/ir3_passes.h"
#include "compiler/util/pass.h"

struct ir3_compile_options {
	bool verify;			/* run both verifiers on the result */
	bool validate;			/* validate the IR after every pass */
	bool want_disasm;
	bool allocated;			/* the input has its registers: legalise it only */
	const char *print_after;	/* a pass name or "all": IR dumps into `dump` */
	unsigned test_break;		/* test only: IR3_BREAK_* (ir3.h) */
	const char *passes;		/* NULL, or the passes named by --passes: the
					 * optional passes (ir3_passes.def) not in it
					 * are left out */
	bool time_passes;		/* each pass's time into `times` */
	const char *made_by;		/* the pass that made the input ("ir3_isel"):
					 * validated and dumped first, or NULL */
	const char *volatile *running;	/* NULL, or set to the running pass's name */
	unsigned ra_limit;		/* stress mode: spill to this many 32-bit registers */
};

struct ir3_compile_output {
	struct stat_values stats;	/* by ID (stats/stats.def) */
	struct strbuf disasm;
	struct strbuf dump;
	struct strbuf error;		/* why the compile failed */
	bool broken;			/* a pass left invalid IR: a compiler bug */
	pass_times times;
};

void ir3_compile_output_init(struct ir3_compile_output *out);
void ir3_compile_output_release(struct ir3_compile_output *out);

/*
 * Run the backend on `ir` for `target` (the passes' names as in the
 * registry):
 *	ir3_opt_cp/cse/dce → ir3_lower_alias_tex_srcs, ir3_lower_alias_rt
 *	(a7xx) → ir3_sched → ir3_cleanup_rpt → ir3_ra → ir3_merge_rpt →
 *	ir3_postsched → ir3_legalize →
 *	ir3_insert_alias_tex → verify → statistics → disassembly
 * Returns 0, or -1 with `out->error` set ("register pressure N exceeds M",
 * a verifier's finding, …).
 */
int ir3_compile_machine(struct ir3 *ir, const struct ir3_info *target,
			const struct ir3_compile_options *o, struct ir3_compile_output *out);

#endif
