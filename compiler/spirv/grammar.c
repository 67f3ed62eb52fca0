/*
 * Lookups in the generated grammar tables (grammar.h).  Tables are sorted by
 * opcode or by (kind, value), so each lookup is a binary search.
 */
#include "compiler/spirv/grammar.h"

#include <stdio.h>

#include "spirv_grammar.inc"

#define COUNT(a) (sizeof(a) / sizeof(*(a)))

const struct spv_op_info *spv_op_info(uint32_t opcode)
{
	size_t lo = 0, hi = COUNT(spv_op_table);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (spv_op_table[mid].opcode == opcode)
			return &spv_op_table[mid];
		if (spv_op_table[mid].opcode < opcode)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct spv_operand *spv_op_operands(const struct spv_op_info *info)
{
	return &spv_operand_table[info->first];
}

const char *spv_op_name(uint32_t opcode, char buf[24])
{
	const struct spv_op_info *info = spv_op_info(opcode);
	if (info)
		return info->name;
	snprintf(buf, 24, "opcode %u", opcode);
	return buf;
}

static const struct {
	const char *name;
	enum spv_category category;
} kind_infos[] = {
#define X(name, category) { #name, SPV_CAT_##category },
	SPV_OPERAND_KINDS(X)
#undef X
};

enum spv_category spv_kind_category(enum spv_operand_kind kind)
{
	return kind_infos[kind].category;
}

const char *spv_kind_name(enum spv_operand_kind kind)
{
	return kind_infos[kind].name;
}

const struct spv_enumerant *spv_enumerant(enum spv_operand_kind kind, uint32_t value)
{
	size_t lo = 0, hi = COUNT(spv_enumerant_table);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct spv_enumerant *e = &spv_enumerant_table[mid];
		if (e->kind == kind && e->value == value)
			return e;
		if (e->kind < kind || (e->kind == kind && e->value < value))
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *spv_enum_name(enum spv_operand_kind kind, uint32_t value)
{
	const struct spv_enumerant *e = spv_enumerant(kind, value);
	return e ? e->name : NULL;
}

const char *spv_enum_name_or_number(enum spv_operand_kind kind, uint32_t value, char buf[40])
{
	const char *name = spv_enum_name(kind, value);
	if (name)
		return name;
	snprintf(buf, 40, "%s %u", spv_kind_name(kind), value);
	return buf;
}

/* Words one enumerant's parameters take (all are single words in the core
 * grammar: ids and literal integers); -1 for a string or an unknown kind. */
static int param_words(const struct spv_enumerant *e)
{
	int words = 0;
	for (unsigned i = 0; i < e->count; i++) {
		const struct spv_operand *p = &spv_param_table[e->first + i];
		if (p->quant != SPV_QUANT_ONE || p->kind == SPV_KIND_LiteralString)
			return -1;
		words += spv_kind_category(p->kind) == SPV_CAT_COMPOSITE ? 2 : 1;
	}
	return words;
}

int spv_enum_param_words(enum spv_operand_kind kind, uint32_t value)
{
	if (spv_kind_category(kind) != SPV_CAT_BIT) {
		const struct spv_enumerant *e = spv_enumerant(kind, value);
		return e ? param_words(e) : -1;
	}
	int words = 0;
	for (unsigned bit = 0; bit < 32; bit++) {
		if (!(value & (1u << bit)))
			continue;
		const struct spv_enumerant *e = spv_enumerant(kind, 1u << bit);
		int w = e ? param_words(e) : -1;
		if (w < 0)
			return -1;
		words += w;
	}
	return words;
}

const struct spv_extinst_info *spv_glsl450_info(uint32_t opcode)
{
	for (size_t i = 0; i < COUNT(spv_glsl450_table); i++)
		if (spv_glsl450_table[i].opcode == opcode)
			return &spv_glsl450_table[i];
	return NULL;
}

const char *spv_grammar_version(void)
{
	return SPV_GRAMMAR_VERSION;
}
