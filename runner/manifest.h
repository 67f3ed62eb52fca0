/*
 * Per-file options for a corpus: a TSV file with a header line naming its
 * columns (../shared/corpus/manifest.tsv is one).  Columns are found by name,
 * in any order; unknown ones are ignored:
 *
 *	path          the file, relative to the manifest's folder (required)
 *	repo          "owner/name": the file is then at <owner>-<name>/<path>
 *	kind          glsl, hlsl, spv, spvasm; anything else (include/other,
 *	              license) marks a file that is not a shader
 *	stages/stage  the stage ("frag", "fragment", "FRAG"); of a file of several
 *	              stages, a comma list ("vert,frag") selects those compiled
 *	glslang_mode  vk11, vk13 (strict Vulkan GLSL), vkrelaxed (GL-style),
 *	              incext+MODE (include paths: the file's folder), hlsl-vk11
 *	              (HLSL, entry point main), override140/override310es,
 *	              precompiled, spirv-as
 *	entry         the entry point; HLSL: a comma list, each its own program
 *	              (paired with the stages when as many)
 *	defines       space-separated NAME[=VALUE]
 *
 * Lines starting with '#' and empty lines are skipped.
 */
#ifndef SHDB_RUNNER_MANIFEST_H
#define SHDB_RUNNER_MANIFEST_H

#include <stdbool.h>

#include "compiler/compile.h"
#include "compiler/util/arena.h"
#include "compiler/util/hash.h"
#include "compiler/util/strbuf.h"

/* One row, as the compile options it implies.  Strings live in the manifest. */
struct manifest_entry {
	enum input_kind kind;		/* INPUT_UNKNOWN: by the file name */
	bool not_shader;		/* kind include/other, license, … */
	const char *kind_name;		/* the kind column, for messages */
	enum shader_stage stage;	/* STAGE_NONE: by the file name (or several) */
	const char *stages;		/* the stages column as given, or NULL */
	enum glsl_mode glsl_mode;
	bool include_own_dir;		/* incext+…: -I the file's folder */
	const char *entry;		/* or NULL; a comma list for several */
	const char *defines;		/* space-separated, or NULL */
	const char *mode_name;		/* the glslang_mode column, or NULL */
};

struct manifest {
	struct arena arena;
	struct strmap rows;		/* on-disk relative path → struct manifest_entry */
	char *dir;			/* the manifest's folder, real path */
	unsigned long long hash;	/* of the content: a run's settings name it */
};

/* Read `path`.  On error returns -1 with "file:line: message" in `err`. */
int manifest_load(struct manifest *m, const char *path, struct strbuf *err);
void manifest_release(struct manifest *m);

/* The row for `rel`, a path relative to the manifest's folder; NULL if none. */
const struct manifest_entry *manifest_find(const struct manifest *m, const char *rel);

/* Parse one glslang_mode value into `e` (exposed for tests). */
void manifest_parse_mode(struct manifest_entry *e, const char *mode);

/*
 * The compile options of a file: the command line's (`global`: defines,
 * include dirs, GLSL mode, passes, stages, entry points …), then its row's
 * (`e`, may be NULL), which win.  `path` is the file relative to where the
 * compile runs; strings are `global`'s, the manifest's or in `a`.  Release
 * `o` with compile_options_release().
 */
void manifest_options(const struct manifest_entry *e, const struct compile_options *global,
		      const char *path, struct compile_options *o, struct arena *a);

#endif
