/*
 * The compiler library's one entry point (../shared/DESIGN.md): given a file,
 * its options and a list of targets, return one result per stage × target.
 * `shdb compile` and the runner's workers both call compile_file().
 *
 * The front end and the target-independent optimisation run once per file;
 * each target then gets a clone of the optimised IR.  Nothing here prints or
 * exits: failures are results with a status and a message.
 */
#ifndef SHDB_COMPILE_H
#define SHDB_COMPILE_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/compile_types.h"
#include "compiler/util/strbuf.h"

/*
 * Compile `path` for every target in `targets` (none: run the front end and
 * the optimisation only).  Results are appended to `out` in a deterministic
 * order: by stage in pipeline order, then by target in the order given.
 * Returns 0 when every result is RESULT_OK or RESULT_SKIPPED, -1 otherwise.
 */
int compile_file(const char *path, const struct compile_options *o,
		 const struct target *const *targets, size_t num_targets,
		 struct compile_output *out);

/* The same, for a file already in memory (`name` is used in messages). */
int compile_source(const char *name, const char *data, size_t len, const struct compile_options *o,
		   const struct target *const *targets, size_t num_targets,
		   struct compile_output *out);

/*
 * The pass registry (compiler/passes.c): every pass by name, the
 * target-independent ones (compiler/opt/passes.def) and each backend's
 * (compiler/ir3/ir3_passes.def, compiler/etna/etna_passes.def).
 * --print-after may name any; --passes names the target-independent passes
 * to run, in order, and the optional backend passes that run (the others
 * are left out; required ones always run).
 */
struct pass_entry {
	const char *name;
	const char *family;		/* NULL: target-independent; "ir3", "etna" */
	bool optional;			/* a backend pass that --passes may leave out */
	const char *summary;
};
extern const struct pass_entry compile_passes[];
extern const size_t num_compile_passes;

/* The pass called `name` (`len` bytes), or NULL. */
const struct pass_entry *compile_pass_find(const char *name, size_t len);
/* Check --passes (NULL, "none" or a list) and --print-after (NULL, "all" or
 * a name); on error a message such as "unknown pass 'x' (known passes: …)"
 * in `err`. */
bool compile_check_passes(const char *passes, const char *print_after, struct strbuf *err);
/* The target-independent passes of a --passes list, in order ("none" when
 * there are none), appended to `out`. */
void compile_ir_passes(const char *passes, struct strbuf *out);

#endif
