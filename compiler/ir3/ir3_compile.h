/*
 * The ir3 backend's driver: machine IR in, allocated and legalised program,
 * statistics and disassembly out.  Instruction selection produces the IR
 * (ir3.h); the text form (ir3_parse) produces it for tests.
 */
#ifndef SHDB_IR3_COMPILE_H
#define SHDB_IR3_COMPILE_H

#include "compiler/compile.h"
#include "compiler/ir3/ir3_passes.h"

struct ir3_compile_options {
	bool verify;			/* run both verifiers on the result */
	bool validate;			/* validate the IR after every pass */
	bool want_disasm;
	bool allocated;			/* the input has its registers: legalise it only */
	const char *print_after;	/* a pass name or "all": IR dumps into `dump` */
	unsigned test_break;		/* test only: IR3_BREAK_* (ir3.h) */
};

struct ir3_compile_output {
	struct stat_values stats;	/* by ID (stats/stats.def) */
	struct strbuf disasm;
	struct strbuf dump;
	struct strbuf error;		/* why the compile failed */
};

void ir3_compile_output_init(struct ir3_compile_output *out);
void ir3_compile_output_release(struct ir3_compile_output *out);

/*
 * Run the backend on `ir` for `target`:
 *	cp/cse/dce → alias.tex/alias.rt (a7xx) → sched → RA → postsched →
 *	legalize → alias.tex insertion → verify → statistics → disassembly
 * Returns 0, or -1 with `out->error` set ("register pressure N exceeds M",
 * a verifier's finding, …).
 */
int ir3_compile_machine(struct ir3 *ir, const struct ir3_info *target,
			const struct ir3_compile_options *o, struct ir3_compile_output *out);

#endif
