/*
 * The SPIR-V reader: one module's entry point → one IR shader
 * (compiler/ir/ir.h), with every function inlined, structured control flow
 * turned into ifs and loops, stage I/O, buffers, textures and images lowered
 * to explicit locations, slots and byte offsets (load_input, store_output,
 * load_ubo, load_ssbo, tex …), and function-local and private variables as
 * `local` declarations for lower_vars_to_ssa.
 *
 *	struct spirv_options so = { .entry = "main", .stage = STAGE_FRAGMENT };
 *	struct shader *s = spirv_to_ir(words, n, &so, "x.frag", &diag);
 *	if (!s) … diag holds "x.frag: error: word 1234: OpFoo: …"
 *
 * The input is untrusted: every word is read through bounds checks, every
 * id through its kind, and a module that is malformed or uses something we
 * do not translate gets one message naming the instruction and its word
 * offset — "unsupported: OpTypeCooperativeMatrixKHR" — and NULL, never a
 * crash or a hang.  The IR made is validated; should a module that breaks
 * rules the reader does not check give invalid IR, spirv-val names the
 * module's fault ("not a valid module: …"), or, when it finds none, the
 * error is ours ("internal error: …").  Re-entrant: all state is per call.
 */
#ifndef SHDB_SPIRV_SPIRV_H
#define SHDB_SPIRV_SPIRV_H

#include <stddef.h>
#include <stdint.h>

#include "compiler/compile_types.h"
#include "compiler/ir/ir.h"

struct spirv_options {
	const char *entry;		/* the entry point's name; NULL: the first of `stage` */
	enum shader_stage stage;	/* STAGE_NONE: the first entry point's */
	const struct spec_value *specs;	/* --spec ID=VALUE overrides */
	size_t num_specs;
};

struct shader *spirv_to_ir(const uint32_t *words, size_t num_words, const struct spirv_options *o,
			   const char *name, struct diag *diag);

#endif
