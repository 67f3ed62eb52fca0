/*
 * What every part of the compiler shares with its callers: the options a
 * compile takes and the results it gives (one per stage × target), with
 * their statistics by the table's keys.  compile.h adds the entry points;
 * front ends and backends include only this, so their arrows point down
 * (README.md, Layout).
 */
#ifndef SHDB_COMPILE_TYPES_H
#define SHDB_COMPILE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/stage.h"
#include "compiler/target.h"
#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "compiler/util/pass.h"
#include "stats/stat.h"

enum glsl_mode {
	GLSL_MODE_AUTO,		/* chosen from the source (loose uniforms → relaxed) */
	GLSL_MODE_VULKAN,	/* strict Vulkan GLSL */
	GLSL_MODE_RELAXED,	/* GL-style GLSL under glslang's relaxed Vulkan rules */
};

/* Which Mesa release the backends follow where releases differ (--mesa).
 * Today only ir3's a7xx rules do: current Mesa's shorter delays and its
 * alias.tex/alias.rt (issue 5 asked for them) against Mesa 24.3's, the
 * compiler ../shared/reference/mesa-ir3-dev.tsv was made with.  Every other
 * rule follows 24.3 either way (compiler/ir3/ir3_targets.c). */
enum mesa_rules {
	MESA_RULES_MAIN,	/* the default: current Mesa */
	MESA_RULES_24_3,	/* Mesa 24.3 */
};

struct spec_value {
	uint32_t id;
	uint64_t bits;		/* the constant's value, as the SPIR-V words hold it */
};

/* What a running compile is doing, for crash reports: the runner's worker
 * reads it from a signal handler, so it is only ever a pointer to a static
 * string. */
struct compile_progress {
	const char *volatile phase;	/* "glslang", "spirv", "opt", "ir3", … */
	const char *volatile pass;	/* the pass running, or NULL */
	const char *volatile target;	/* the target being compiled, or NULL */
};

struct compile_options {
	enum input_kind kind;		/* INPUT_UNKNOWN: from the file name */
	enum shader_stage stage;	/* STAGE_NONE: from the file name */
	ARRAY(enum shader_stage) stages;	/* --stage LIST or the manifest's stages: those
					 * of a file of several that are compiled (none:
					 * all), paired with `entries` when as many */
	const char *entry;		/* entry point; NULL: "main" */
	ARRAY(const char *) entries;	/* HLSL entry points, each its own program (-e
					 * given several times, the manifest's list) */
	const char *program;		/* the one program to compile of a file that holds
					 * several: an HLSL entry point, a Fossilize
					 * pipeline's hash; NULL: every one */
	ARRAY(const char *) defines;	/* -D NAME[=VALUE] */
	ARRAY(const char *) include_dirs;	/* -I DIR */
	enum glsl_mode glsl_mode;
	ARRAY(struct spec_value) specs;	/* --spec ID=VALUE */
	const char *passes;		/* NULL: the default pipelines; "none"; "a,b,c":
					 * the target-independent passes to run, in order,
					 * and the optional backend passes that run */
	const char *print_after;	/* a pass name or "all": IR dumps into the result */
	bool validate;			/* run spirv-val on SPIR-V input first */
	bool verify;			/* run the backend's independent verifiers */
	unsigned ra_limit;		/* stress mode: spill to this many 32-bit registers
					 * (register allocation; 0: the whole file) */
	enum mesa_rules mesa;		/* --mesa: the Mesa release whose rules apply */
	bool validate_ir;		/* validate the IR after every pass, and check each
					 * pass's progress report (validation is also on in
					 * any build without NDEBUG) */
	bool want_spirv;		/* keep the SPIR-V (disassembled) in the result */
	bool want_ir;			/* keep the optimised IR text in the result */
	bool want_disasm;		/* keep the backend's disassembly */
	/* the differential test (compiler/exec): run the final code in the
	 * backend's simulator on the random inputs of `exec_seeds` seeds from
	 * `exec_first_seed` and compare with the interpreter; 0: off */
	unsigned exec_seeds;
	uint64_t exec_first_seed;
	bool want_exec_text;		/* keep the simulator's results of the first seed */
	bool time_passes;		/* each pass's time into compile_output.times */
	const char *test_break;		/* test only: what the backend breaks on purpose
					 * ("ra,postsched,nops": SHDB_IR3_BREAK, which
					 * shdb compile reads), to show the simulator
					 * catches it; NULL: nothing */
	struct compile_progress *progress;	/* NULL, or updated as the compile goes */
};

void compile_options_init(struct compile_options *o);
void compile_options_release(struct compile_options *o);
/* --stage / the manifest's stages: "frag" or "vert,frag" (any spelling of
 * stage_from_name) into o->stages, and o->stage when there is one.
 * Returns 0, or -1 with "unknown stage 'x'" in `err`. */
int compile_options_set_stages(struct compile_options *o, const char *list, struct strbuf *err);

enum result_status {
	RESULT_OK,
	RESULT_ERROR,		/* the input is bad or uses something unsupported */
	RESULT_CRASH,		/* the compiler crashed (set by the runner) or failed
				 * one of its own checks (IR invalid after a pass) */
	RESULT_TIMEOUT,		/* set by the runner: the compiler hung */
	RESULT_SKIPPED,		/* nothing to do (e.g. HLSL without an entry point) */
};

const char *result_status_name(enum result_status s);
/* "main" or "24.3" (what --mesa takes, and a run's settings record). */
const char *mesa_rules_name(enum mesa_rules m);
/* --mesa's argument: 0 and the rules, or -1 with what it takes in `err`. */
int mesa_rules_parse(const char *name, enum mesa_rules *m, struct strbuf *err);

/* What the differential test said (compile_options.exec_seeds). */
enum exec_status {
	EXEC_NOT_RUN,
	EXEC_AGREE,		/* the simulator agrees with the interpreter on every seed */
	EXEC_AGREE_LOWERED,	/* … some seeds only with the lowered shader (exec_check.h):
				 * the lowerings' float approximations differ */
	EXEC_DIFFER,		/* it does not: the result is RESULT_ERROR, the message says where */
	EXEC_CANNOT_RUN,	/* the simulator cannot run this code: exec_note says why */
};

/* One statistic of a result; `key` is a static string: a key of the
 * statistics table (stats/stats.def), or the name an external compiler's
 * output gave (runner/extcc.c). */
struct stat_value {
	const char *key;
	int64_t value;
};

/* The outcome for one stage on one target.  `target` is NULL for results of
 * the front end alone (no target asked, or the front end failed). */
struct compile_result {
	char *program;			/* of a file of several programs: which one (records
					 * name it "<file>/<program>"); NULL otherwise */
	enum shader_stage stage;
	const struct target *target;
	enum result_status status;
	char *message;			/* the first error line, or NULL */
	ARRAY(struct stat_value) stats;
	char *spirv;			/* SPIR-V disassembly, when asked */
	char *ir;			/* IR text (and --print-after dumps), when asked */
	char *disasm;			/* backend disassembly, when asked */
	enum exec_status exec;
	char *exec_note;		/* EXEC_CANNOT_RUN: why */
	char *exec_text;		/* the simulator's results, when asked */
	uint64_t exec_sim_us;		/* of time_us, the simulator's runs */
	uint64_t exec_interp_us;	/* … and the interpreter's */
	uint64_t time_us;
	uint64_t backend_us;		/* of time_us, this target's own work (backend alone) */
	uint64_t front_us;		/* of time_us, the source's translation to SPIR-V
					 * (glslang, the assembler; reading a binary) */
};

/* Append the statistics set in `v` to r->stats, in the table's order, under
 * the table's keys: how a backend's values become a result. */
void result_add_stats(struct compile_result *r, const struct stat_values *v);
/* The same with the IDs of `first` (those set) leading, in that order: a
 * backend whose Mesa line does not follow the table's order (etnaviv's
 * ends in loops, a row the table places in ir3's line). */
void result_add_stats_ordered(struct compile_result *r, const struct stat_values *v,
			      const enum stat_id *first, size_t n);

struct compile_output {
	ARRAY(struct compile_result) results;
	struct diag diag;		/* every message, located, in order */
	pass_times times;		/* with time_passes: per pass, every pipeline */
};

/* Fail `r` (a result for a target) with `status` and `msg`, the message
 * also in the diag, located at `name` and naming the target. */
void result_fail(struct compile_output *out, const char *name, struct compile_result *r,
		 enum result_status status, const char *msg);
/* Append `text` (a backend's --print-after dumps) to r->ir under a
 * "# ---- TARGET what ----" line. */
void result_add_ir(struct compile_result *r, const char *what, const char *text);

void compile_output_init(struct compile_output *out);
void compile_output_release(struct compile_output *out);

#endif
