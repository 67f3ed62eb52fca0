/*
 * The front ends: whatever the input — GLSL, HLSL, SPIR-V assembly, a SPIR-V
 * binary or a .shader_test program — turn it into SPIR-V words, in process,
 * one unit per stage.  The SPIR-V reader takes it from there:
 *
 *	struct program p;
 *	program_init(&p, "x.shader_test");
 *	front_compile(&p, data, len, INPUT_SHADER_TEST, STAGE_NONE, &opts);
 *	for (size_t i = 0; i < p.units.len; i++) {
 *		struct spirv_unit *u = &p.units.data[i];
 *		if (u->status == RESULT_OK)
 *			read(u->words, u->num_words, u->stage, u->entry);
 *		else
 *			report(u->diag.text.buf);
 *	}
 *	program_release(&p);
 *
 * Invariants: units are in pipeline order (vertex … fragment, then compute
 * and the rest), at most one per stage; an ok unit has its words (host
 * endian, header checked) and an entry point of its stage named `entry`
 * when the module came from glslang; a failed unit has no words and at
 * least one error in its diag.  Nothing here prints or exits.
 */
#ifndef SHDB_FRONT_FRONT_H
#define SHDB_FRONT_FRONT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/compile_types.h"
#include "compiler/stage.h"
#include "compiler/util/array.h"
#include "compiler/util/error.h"

struct spirv_unit {
	enum shader_stage stage;
	char *entry;			/* the entry point's name ("main") */
	uint32_t *words;		/* NULL unless status is RESULT_OK */
	size_t num_words;
	enum result_status status;	/* RESULT_OK or RESULT_ERROR */
	struct diag diag;		/* this stage's messages, "file:line: error: …" */
	const char *how;		/* how the words were made (a static string):
					 * "vk11", "vk13" (strict Vulkan GLSL, SPIR-V 1.3
					 * or 1.6), "vkrelaxed", "vkrelaxed13" (GL-style),
					 * "gl" (OpenGL SPIR-V), "legacy", "legacy-es"
					 * (LEGACY.md), "hlsl", "spirv-as", "binary" */
	int line;			/* the stage's first line in its file (.shader_test) */
	uint64_t time_us;		/* time spent on this stage */
	ARRAY(struct spec_value) specs;	/* specialization the program gives it (a
					 * Fossilize pipeline's); --spec overrides */
};

/* What a .shader_test's [require] section asks for. */
struct program_require {
	int glsl_version;		/* "GLSL >= 1.40" → 140; 0 when absent */
	bool glsl_es;			/* "GLSL ES >= 3.00" */
	bool separable;			/* "SSO ENABLED": no stage's interface is dropped */
	ARRAY(char *) extensions;	/* GL_ARB_… names required */
};

/*
 * A file's stages.  One unit for a single-stage file, several for a
 * .shader_test.  `linked`: glslang linked the stages as one program, so
 * their interfaces were checked against each other.  Automatic locations
 * (GL-style and legacy GLSL) are still given stage by stage — glslang 12's
 * C interface has only the per-stage I/O mapper — so an output and the
 * input that reads it agree by name (OpName), and by location only where
 * the source gave one.
 */
struct program {
	const char *name;		/* the file name used in messages */
	ARRAY(struct spirv_unit) units;
	struct program_require require;
	bool linked;
};

void program_init(struct program *p, const char *name);
void program_release(struct program *p);

/*
 * Translate `data` (the contents of p->name, of kind `kind`) into SPIR-V.
 * `stage` is the stage the file name or --stage gave (STAGE_NONE: unknown).
 * Returns 0 when every unit is ok, -1 otherwise (and when there is no
 * unit at all, the reason is in a single failed unit).
 */
int front_compile(struct program *p, const char *data, size_t len, enum input_kind kind,
		  enum shader_stage stage, const struct compile_options *o);

/*
 * The programs of a file: one for most files; several for an HLSL file with
 * several entry points (each its own program, named by it) and for a
 * Fossilize database (each graphics or compute pipeline, named by its hash,
 * "%016llx").  front_compile() with o->program set compiles one of them.
 */
struct front_program {
	char *name;			/* NULL for the one program of most files */
	char *entry;			/* HLSL: its entry point */
	enum shader_stage stage;	/* HLSL: its stage (STAGE_NONE: unknown) */
};

struct front_programs {
	ARRAY(struct front_program) list;
	bool named;			/* records name each "<file>/<name>" */
};

/* `stage` is the stage the file name or --stage gave.  Returns 0, or -1 with
 * a located error in `d` (a database that is none). */
int front_list_programs(const char *name, const char *data, size_t len, enum input_kind kind,
			enum shader_stage stage, const struct compile_options *o,
			struct front_programs *out, struct diag *d);
void front_programs_release(struct front_programs *progs);

/* Whether `o` selects stage `s` of a file of several (its stage list). */
bool front_stage_selected(const struct compile_options *o, enum shader_stage s);

/* SPIR-V disassembly (friendly names, indented), for --emit=spirv.  Returns 0,
 * or -1 with a message in `err`. */
int spirv_disassemble(const uint32_t *words, size_t num_words, struct strbuf *out,
		      struct strbuf *err);

/* spirv-val on a module (the environment follows the module's version).
 * Returns 0, or -1 with the validator's message in `err`. */
int spirv_validate(const uint32_t *words, size_t num_words, struct strbuf *err);

#endif
