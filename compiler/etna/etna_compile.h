/*
 * The etnaviv backend's driver: machine IR in (etna_isel), allocated
 * program, statistics and disassembly out.
 */
#ifndef SHDB_ETNA_COMPILE_H
#define SHDB_ETNA_COMPILE_H

#include "compiler/etna/etna.h"
#include "compiler/util/pass.h"

struct etna_compile_options {
	bool verify;			/* run both verifiers on the result */
	bool validate;			/* validate the machine IR after every pass */
	bool want_disasm;
	const char *print_after;	/* a pass name or "all": IR dumps into `dump` */
	bool time_passes;		/* each pass's time into `times` */
	const char *made_by;		/* the pass that made the input ("etna_isel"):
					 * validated and dumped first, or NULL */
	const char *volatile *running;	/* NULL, or set to the running pass's name */
};

struct etna_compile_output {
	struct stat_values stats;	/* by ID (stats/stats.def) */
	struct strbuf disasm;
	struct strbuf dump;
	struct strbuf error;		/* why the compile failed */
	bool broken;			/* a pass left invalid IR: a compiler bug */
	pass_times times;
};

void etna_compile_output_init(struct etna_compile_output *out);
void etna_compile_output_release(struct etna_compile_output *out);

/*
 * Run the backend on `s` (the passes' names as in the registry):
 *	etna_ra → etna_finish → Mesa's limits → verifiers → statistics →
 *	disassembly
 * Returns 0, or -1 with `out->error` set (no register for a value, a limit,
 * a verifier's finding).
 */
int etna_compile_machine(struct etna_shader *s, const struct etna_compile_options *o,
			 struct etna_compile_output *out);

/* Mesa's compile-time limits (etna_compile_check_limits) on the laid-out
 * program: false with its message when it does not fit the target. */
bool etna_check_limits(const struct etna_shader *s, struct strbuf *err);

/* Mesa's line first — instructions, temps, immediates, loops — then the
 * other statistics in the table's order. */
extern const enum stat_id etna_mesa_line[4];

#endif
