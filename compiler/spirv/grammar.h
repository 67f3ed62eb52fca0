/*
 * The SPIR-V grammar as data: opcode names and operand layouts, enumerant
 * names and parameters, GLSL.std.450 instruction names.  The tables are
 * generated at build time from SPIRV-Headers' grammar JSON
 * (compiler/spirv/gen/grammar_gen.c → $(BUILD)/gen/spirv_grammar.{h,inc});
 * nothing here is typed by hand.  Values unknown to this SPIRV-Headers are
 * answered with NULL, never a crash: newer producers' modules are data.
 *
 *	const struct spv_op_info *op = spv_op_info(SpvOpLoad);
 *	op->name → "OpLoad", op->min_words → 4 (opcode, type, result, pointer)
 *	spv_enum_name(SPV_KIND_Capability, SpvCapabilityShader) → "Shader"
 */
#ifndef SHDB_SPIRV_GRAMMAR_H
#define SHDB_SPIRV_GRAMMAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spirv_grammar.h"

enum spv_operand_kind {
#define X(name, category) SPV_KIND_##name,
	SPV_OPERAND_KINDS(X)
#undef X
	SPV_KIND_COUNT
};

enum spv_category { SPV_CAT_BIT, SPV_CAT_VALUE, SPV_CAT_ID, SPV_CAT_LITERAL, SPV_CAT_COMPOSITE };
enum spv_quant { SPV_QUANT_ONE, SPV_QUANT_OPTIONAL, SPV_QUANT_MANY };

struct spv_operand {
	uint16_t kind;		/* enum spv_operand_kind */
	uint8_t quant;		/* enum spv_quant */
};

struct spv_op_info {
	uint32_t opcode;
	const char *name;	/* "OpLoad" */
	uint16_t first;		/* operands: spv_op_operands(info)[0 .. count) */
	uint16_t count;
	uint8_t min_words;	/* the opcode word and every required operand */
	bool has_type;		/* word 1 is the result type */
	bool has_result;	/* the result id is word 1, or word 2 after a type */
};

struct spv_enumerant {
	uint16_t kind;
	uint32_t value;
	const char *name;
	uint16_t first;		/* parameters */
	uint16_t count;
};

struct spv_extinst_info {
	uint32_t opcode;
	const char *name;	/* "FClamp" */
	uint8_t num_operands;
};

/* The grammar's instruction for `opcode`, or NULL when this SPIRV-Headers
 * does not know it. */
const struct spv_op_info *spv_op_info(uint32_t opcode);
const struct spv_operand *spv_op_operands(const struct spv_op_info *info);
/* "OpLoad", or "opcode 12345" (written into `buf`) when unknown. */
const char *spv_op_name(uint32_t opcode, char buf[24]);

enum spv_category spv_kind_category(enum spv_operand_kind kind);
const char *spv_kind_name(enum spv_operand_kind kind);
/* The enumerant `value` of a value enum, or the single bit `value` of a bit
 * enum; NULL when unknown. */
const struct spv_enumerant *spv_enumerant(enum spv_operand_kind kind, uint32_t value);
/* Its name, or NULL. */
const char *spv_enum_name(enum spv_operand_kind kind, uint32_t value);
/* "Shader", or "Capability 4242" (into `buf`) when unknown. */
const char *spv_enum_name_or_number(enum spv_operand_kind kind, uint32_t value, char buf[40]);
/* Words the parameters of an enumerant (or of every bit set in a bit enum
 * value) take; -1 when one of them is unknown or variable-length. */
int spv_enum_param_words(enum spv_operand_kind kind, uint32_t value);

const struct spv_extinst_info *spv_glsl450_info(uint32_t opcode);

/* The version of SPIRV-Headers the tables come from, e.g. "1.6 revision 1". */
const char *spv_grammar_version(void);

#endif
