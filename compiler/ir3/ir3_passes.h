/*
 * The backend's passes, one per file, in pipeline order (ir3_compile.c runs
 * them; targets.md §2.2 is the order Mesa uses).  Passes that transform
 * return whether they changed anything.
 */
#ifndef SHDB_IR3_PASSES_H
#define SHDB_IR3_PASSES_H

#include "compiler/ir3/ir3.h"
#include "stats/stat.h"

/* ir3_cp.c, ir3_cse.c, ir3_dce.c: run together until none progresses */
bool ir3_cf(struct ir3 *ir);
bool ir3_opt_cp(struct ir3 *ir);
bool ir3_opt_cse(struct ir3 *ir);
bool ir3_opt_dce(struct ir3 *ir);

/* ir3_alias.c (a7xx): tex sources through alias.tex; a750 FS outputs through alias.rt */
bool ir3_lower_alias_tex_srcs(struct ir3 *ir);
bool ir3_lower_alias_rt(struct ir3 *ir);
/* after legalisation: the alias.tex instructions themselves */
bool ir3_insert_alias_tex(struct ir3 *ir);

/* ir3_reconvergence.c: (jp) points and the branch stack depth */
unsigned ir3_calc_reconvergence(struct ir3 *ir);

/* ir3_sched.c: pre-RA list scheduling per block */
bool ir3_sched(struct ir3 *ir);
/* ir3_rpt.c: repeat groups (Mesa 24.3's ir3_cleanup_rpt, ir3_merge_rpt) */
bool ir3_cleanup_rpt(struct ir3 *ir);
bool ir3_merge_rpt(struct ir3 *ir);
/* No repeat groups (the passes are not wanted). */
void ir3_drop_rpt(struct ir3 *ir);

/* ir3_ra.c: merge sets, spilling (ir3_spill.c) when the live values exceed
 * the file, allocation, parallel copies lowered.  Fails (false, message in
 * `err`) when they exceed it without private memory (a3xx/a4xx).
 * `ra_limit` (stress mode): spill to that many 32-bit registers (0: off). */
bool ir3_ra(struct ir3 *ir, unsigned branchstack, unsigned ra_limit, struct strbuf *err);
/* ir3_lower_copies.c: parallel copies, collects and splits → movs/swaps */
void ir3_lower_copies(struct ir3 *ir);

/* ir3_postsched.c: post-RA list scheduling on physical registers */
bool ir3_postsched(struct ir3 *ir);

/* ir3_legalize.c: nops, (ss)/(sy), (ei), (eq), branches, end */
bool ir3_legalize(struct ir3 *ir, unsigned *branchstack);

/* ir3_verify_regs.c, ir3_verify_timing.c: independent checks of the result */
bool ir3_verify_regs(struct ir3 *ir, struct strbuf *err);
bool ir3_verify_timing(struct ir3 *ir, struct strbuf *err);

/* ir3_delay.c: the scheduler's latency estimates */
unsigned ir3_src_read_delay(const struct ir3_info *t, const struct ir3_instruction *i, unsigned n);
unsigned ir3_delayslots(const struct ir3_info *t, const struct ir3_instruction *assigner,
			const struct ir3_instruction *consumer, unsigned n, bool soft);
unsigned ir3_soft_ss_delay(const struct ir3_instruction *i);
unsigned ir3_soft_sy_delay(const struct ir3_instruction *i, enum shader_stage stage);

/* ir3_info.c: the statistics of Mesa's shader-db line (targets.md §1.9),
 * by their IDs in the statistics table (stats/stats.def) */
void ir3_collect_stats(struct ir3 *ir, unsigned branchstack, struct stat_values *s);

/* ir3_disasm.c: the program in ir3's assembly syntax */
void ir3_disasm(struct strbuf *sb, struct ir3 *ir);

#endif
