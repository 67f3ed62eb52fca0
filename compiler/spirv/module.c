/*
 * spirv_to_ir(), and the module's words: the header, the framing of every
 * instruction (its word count fits, it has at least the words the grammar
 * requires), the module-level sections in one pass, and each function's
 * blocks and merge instructions.  Types, constants and variables are built
 * as they come (types.c, constant.c, memory.c); function bodies are only
 * indexed here and translated by cfg.c once the entry point is chosen.
 *
 * Every id is checked when read: below the bound, defined, of the kind the
 * operand needs.  Unknown enum values (capabilities, extensions, source
 * languages, execution modes, decorations) are kept as data; an unknown
 * opcode is an error only where its result could matter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/front/front.h"
#include "compiler/spirv/spirv_private.h"

/* ---- errors ---- */

const char *spv_cur_name(struct spv *r, char buf[24])
{
	if (!r->cur || r->cur >= r->num_words)
		return NULL;
	return spv_op_name(spv_opcode(r, r->cur), buf);
}

static NORETURN void vfail(struct spv *r, const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf msg = STRBUF_INIT;
	char buf[24];
	const char *op = spv_cur_name(r, buf);
	if (op)
		strbuf_addf(&msg, "word %zu: %s: ", r->cur, op);
	strbuf_addstr(&msg, prefix);
	strbuf_vaddf(&msg, fmt, ap);
	diag_error(r->diag, r->name, 0, 0, "%s", msg.buf);
	strbuf_release(&msg);
	longjmp(r->fail, 1);
}

void spv_fail(struct spv *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(r, "", fmt, ap);
}

void spv_unsupported(struct spv *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(r, "unsupported: ", fmt, ap);
}

/* ---- words ---- */

uint32_t spv_word(struct spv *r, unsigned i)
{
	if (i >= spv_count(r, r->cur))
		spv_fail(r, "operand %u is missing (the instruction has %u words)", i,
			 spv_count(r, r->cur));
	return r->w[r->cur + i];
}

const char *spv_string(struct spv *r, unsigned i, unsigned *next)
{
	unsigned n = spv_count(r, r->cur);
	if (i >= n)
		spv_fail(r, "a literal string is missing");
	const char *s = (const char *)&r->w[r->cur + i];
	const char *nul = memchr(s, 0, (size_t)(n - i) * 4);
	if (!nul)
		spv_fail(r, "an unterminated literal string");
	if (next)
		*next = i + (unsigned)((size_t)(nul - s) / 4) + 1;
	return s;
}

/* ---- ids ---- */

struct spv_id *spv_id(struct spv *r, uint32_t id)
{
	if (id == 0 || id >= r->bound)
		spv_fail(r, "id %u is out of range (bound %u)", id, r->bound);
	return &r->ids[id];
}


static const char *const id_kind_names[] = {
	"nothing", "a type", "a constant", "a variable", "a function", "a label",
	"an instruction set", "a string", "a decoration group", "a value", "a pointer",
	"an image or sampler", "a debug value",
};

static NORETURN void wrong_kind(struct spv *r, uint32_t id, const char *want)
{
	struct spv_id *x = spv_id(r, id);
	if (x->kind == ID_NONE && !x->word)
		spv_fail(r, "%%%u is not defined", id);
	if (x->kind == ID_NONE && x->in_function) {
		char buf[24];
		spv_fail(r, "%%%u (%s at word %u) has no value here", id,
			 spv_op_name(spv_opcode(r, x->word), buf), x->word);
	}
	spv_fail(r, "%%%u is %s, not %s", id, id_kind_names[x->kind], want);
}

struct spv_type *spv_get_type(struct spv *r, uint32_t id)
{
	struct spv_id *x = spv_id(r, id);
	if (x->kind != ID_TYPE)
		wrong_kind(r, id, "a type");
	return x->t;
}

struct spv_const *spv_get_const(struct spv *r, uint32_t id)
{
	struct spv_id *x = spv_id(r, id);
	if (x->kind != ID_CONST)
		wrong_kind(r, id, "a constant");
	return x->c;
}

uint64_t spv_const_uint(struct spv *r, uint32_t id)
{
	struct spv_const *c = spv_get_const(r, id);
	if (c->type->kind != T_INT && c->type->kind != T_BOOL)
		spv_fail(r, "%%%u is not an integer constant", id);
	return c->v[0];
}

bool spv_id_const_u32(struct spv *r, uint32_t id, uint32_t *out)
{
	struct spv_id *x = spv_id(r, id);
	if (x->kind != ID_CONST || (x->c->type->kind != T_INT && x->c->type->kind != T_BOOL) ||
	    x->c->undef)
		return false;
	*out = (uint32_t)x->c->v[0];
	return true;
}

const char *spv_id_name(struct spv *r, uint32_t id)
{
	return id && id < r->bound ? r->ids[id].name : NULL;
}

/* ---- decorations ---- */

const struct spv_deco *spv_deco(struct spv *r, uint32_t id, int member, SpvDecoration d)
{
	for (const struct spv_deco *x = spv_id(r, id)->decos; x; x = x->next)
		if (x->member == member && x->deco == (uint32_t)d)
			return x;
	return NULL;
}

bool spv_has_deco(struct spv *r, uint32_t id, int member, SpvDecoration d)
{
	return spv_deco(r, id, member, d) != NULL;
}

uint32_t spv_deco_arg(struct spv *r, uint32_t id, int member, SpvDecoration d, uint32_t dflt)
{
	const struct spv_deco *x = spv_deco(r, id, member, d);
	return x && x->num_args ? x->args[0] : dflt;
}

const char *spv_member_name(struct spv *r, uint32_t struct_id, unsigned member)
{
	if (!struct_id)
		return NULL;
	const struct spv_deco *d = spv_deco(r, struct_id, (int)member,
					    (SpvDecoration)SPV_DECO_MEMBER_NAME);
	return d ? (const char *)d->args : NULL;
}

static void add_deco(struct spv *r, uint32_t target, int32_t member, uint32_t deco,
		     const uint32_t *args, uint32_t num_args)
{
	struct spv_id *x = spv_id(r, target);
	struct spv_deco *d = arena_new(&r->arena, struct spv_deco);
	d->member = member;
	d->deco = deco;
	d->args = args;
	d->num_args = num_args;
	d->next = x->decos;
	x->decos = d;
}

/* OpDecorate, OpDecorateId, OpDecorateString, OpMemberDecorate(String). */
static void decorate(struct spv *r, uint32_t op)
{
	bool member = op == SpvOpMemberDecorate || op == SpvOpMemberDecorateString;
	unsigned first = member ? 3 : 2;
	uint32_t target = spv_word(r, 1), deco = spv_word(r, first);
	int32_t m = member ? (int32_t)spv_word(r, 2) : -1;
	if (member && m < 0)
		spv_fail(r, "member %u is out of range", spv_word(r, 2));
	add_deco(r, target, m, deco, &r->w[r->cur + first + 1], spv_nwords(r) - first - 1);
}

/* OpGroupDecorate / OpGroupMemberDecorate: copy the group's decorations. */
static void group_decorate(struct spv *r, uint32_t op)
{
	uint32_t group = spv_word(r, 1);
	struct spv_id *g = spv_id(r, group);
	if (g->kind != ID_GROUP)
		wrong_kind(r, group, "a decoration group");
	unsigned step = op == SpvOpGroupMemberDecorate ? 2 : 1;
	for (unsigned i = 2; i + step - 1 < spv_nwords(r); i += step) {
		uint32_t target = spv_word(r, i);
		int32_t member = step == 2 ? (int32_t)spv_word(r, i + 1) : -1;
		if (step == 2 && member < 0)
			spv_fail(r, "member %u is out of range", spv_word(r, i + 1));
		for (const struct spv_deco *d = g->decos; d; d = d->next)
			add_deco(r, target, member, d->deco, d->args, d->num_args);
	}
}

/* ---- the module-level pass ---- */

static void define(struct spv *r, uint32_t id, bool in_function)
{
	struct spv_id *x = spv_id(r, id);
	if (x->word)
		spv_fail(r, "%%%u is defined twice (first at word %u)", id, x->word);
	x->word = (uint32_t)r->cur;
	x->in_function = in_function;
}

static void capability(struct spv *r)
{
	uint32_t cap = spv_word(r, 1);
	switch (cap) {
	case SpvCapabilityKernel:
		spv_unsupported(r, "Capability Kernel (OpenCL modules)");
	case SpvCapabilityLinkage:
		/* a library module: it fails later if it has no entry point */
		break;
	default:
		break;
	}
}

static void ext_inst_import(struct spv *r)
{
	uint32_t id = spv_word(r, 1);
	const char *name = spv_string(r, 2, NULL);
	struct spv_id *x = spv_id(r, id);
	x->kind = ID_EXTSET;
	if (!strcmp(name, "GLSL.std.450"))
		x->extset = EXTSET_GLSL450;
	else if (!strncmp(name, "NonSemantic.", 12))
		x->extset = EXTSET_NONSEMANTIC;
	else if (!strcmp(name, "OpenCL.DebugInfo.100") || !strcmp(name, "DebugInfo"))
		x->extset = EXTSET_DEBUG;
	else if (!strcmp(name, "SPV_AMD_shader_trinary_minmax"))
		x->extset = EXTSET_AMD_MINMAX;
	else if (!strcmp(name, "SPV_AMD_gcn_shader"))
		x->extset = EXTSET_AMD_GCN;
	else if (!strcmp(name, "SPV_AMD_shader_ballot"))
		x->extset = EXTSET_AMD_BALLOT;
	else
		x->extset = EXTSET_UNKNOWN;
	x->name = name;
}

static void entry_point(struct spv *r)
{
	uint32_t model = spv_word(r, 1), id = spv_word(r, 2);
	unsigned next;
	const char *name = spv_string(r, 3, &next);
	const struct spirv_options *o = r->opts;
	enum shader_stage stage = stage_from_spirv_model(model);

	if (r->entry_id)
		return;
	if (o->entry && strcmp(o->entry, name))
		return;
	if (o->stage != STAGE_NONE && stage != o->stage)
		return;
	spv_id(r, id);
	r->entry_id = id;
	r->model = (SpvExecutionModel)model;
	r->stage = stage;
	r->entry_name = name;
	r->interface = &r->w[r->cur + next];
	r->num_interface = spv_nwords(r) > next ? spv_nwords(r) - next : 0;
}

/* Every mode is recorded; filter_modes() keeps the entry point's. */
static void execution_mode(struct spv *r, bool by_id)
{
	struct spv_exec_mode *m;
	spv_word(r, 2);
	r->modes = arena_realloc(&r->arena, r->modes, r->num_modes * sizeof(*m),
				 (r->num_modes + 1) * sizeof(*m));
	m = &r->modes[r->num_modes++];
	m->mode = spv_word(r, 2);
	m->args = &r->w[r->cur + 3];
	m->num_args = spv_nwords(r) - 3;
	m->by_id = by_id;
}

/* ---- functions: blocks and merges ---- */

struct func_scan {
	struct spv_func *f;
	struct spv_block *block;	/* the open block, or NULL */
};

static bool is_terminator(uint32_t op)
{
	switch (op) {
	case SpvOpBranch: case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn:
	case SpvOpReturnValue: case SpvOpKill: case SpvOpUnreachable:
	case SpvOpTerminateInvocation: case SpvOpIgnoreIntersectionKHR:
	case SpvOpTerminateRayKHR: case SpvOpEmitMeshTasksEXT:
		return true;
	}
	return false;
}

static void function_begin(struct spv *r, struct func_scan *fs)
{
	struct spv_func *f = arena_new(&r->arena, struct spv_func);
	uint32_t id = spv_word(r, 2);
	struct spv_id *x = spv_id(r, id);
	f->id = id;
	f->begin = r->cur;
	f->type = spv_get_type(r, spv_word(r, 4));
	if (f->type->kind != T_FUNCTION)
		spv_fail(r, "%%%u is not a function type", spv_word(r, 4));
	f->params = arena_array(&r->arena, uint32_t, f->type->length + 1);
	x->kind = ID_FUNC;
	x->func = f;
	r->funcs = arena_realloc(&r->arena, r->funcs, r->num_funcs * sizeof(*r->funcs),
				 (r->num_funcs + 1) * sizeof(*r->funcs));
	r->funcs[r->num_funcs++] = f;
	fs->f = f;
	fs->block = NULL;
}

static void function_instr(struct spv *r, struct func_scan *fs, uint32_t op)
{
	struct spv_func *f = fs->f;
	switch (op) {
	case SpvOpFunctionParameter:
		if (fs->block || f->first_label)
			spv_fail(r, "a parameter after the first block");
		if (f->num_params >= f->type->length)
			spv_fail(r, "more parameters than the function type has");
		f->params[f->num_params++] = spv_word(r, 2);
		return;
	case SpvOpLabel: {
		if (fs->block)
			spv_fail(r, "a block without a terminator before this label");
		struct spv_block *b = arena_new(&r->arena, struct spv_block);
		struct spv_id *x = spv_id(r, spv_word(r, 1));
		b->label = spv_word(r, 1);
		b->begin = r->cur + spv_nwords(r);
		x->kind = ID_LABEL;
		x->block = b;
		if (!f->first_label) {
			if (f->num_params != f->type->length)
				spv_fail(r, "%u parameters for a function type of %u", f->num_params,
					 f->type->length);
			f->first_label = b->label;
		}
		fs->block = b;
		return;
	}
	case SpvOpLine: case SpvOpNoLine: case SpvOpNop:
		return;
	}
	if (!fs->block)
		spv_fail(r, "an instruction outside a block");
	if (op == SpvOpSelectionMerge || op == SpvOpLoopMerge) {
		if (fs->block->merge)
			spv_fail(r, "a block with two merge instructions");
		fs->block->merge = r->cur;
		fs->block->merge_label = spv_word(r, 1);
		fs->block->loop = op == SpvOpLoopMerge;
		if (fs->block->loop)
			fs->block->continue_label = spv_word(r, 2);
		return;
	}
	if (is_terminator(op)) {
		fs->block->term = r->cur;
		fs->block = NULL;
		return;
	}
	if (fs->block->merge)
		spv_fail(r, "an instruction between a merge instruction and its branch");
}

static void function_end(struct spv *r, struct func_scan *fs)
{
	if (fs->block)
		spv_fail(r, "a block without a terminator");
	if (!fs->f->first_label && fs->f->num_params != fs->f->type->length)
		spv_fail(r, "a function declaration without a body");
	fs->f->end = r->cur;
	fs->f = NULL;
}

/* Record the result id (and, in a function, its type) of any instruction
 * the grammar knows. */
static void record_result(struct spv *r, const struct spv_op_info *info, bool in_function)
{
	if (!info->has_result)
		return;
	uint32_t id = spv_word(r, info->has_type ? 2 : 1);
	define(r, id, in_function);
	if (in_function && info->has_type)
		r->ids[id].type = spv_get_type(r, spv_word(r, 1));
}

/* Instructions of the module's preamble and global sections. */
static void module_instr(struct spv *r, uint32_t op)
{
	switch (op) {
	case SpvOpCapability: capability(r); break;
	case SpvOpExtInstImport: ext_inst_import(r); break;
	case SpvOpMemoryModel:
		r->has_physical = spv_word(r, 1) == SpvAddressingModelPhysicalStorageBuffer64;
		break;
	case SpvOpEntryPoint: entry_point(r); break;
	case SpvOpExecutionMode: execution_mode(r, false); break;
	case SpvOpExecutionModeId: execution_mode(r, true); break;
	case SpvOpString:
		spv_id(r, spv_word(r, 1))->kind = ID_STRING;
		break;
	case SpvOpMemberName: {
		unsigned next;
		spv_string(r, 3, &next);
		add_deco(r, spv_word(r, 1), (int32_t)spv_word(r, 2), SPV_DECO_MEMBER_NAME,
			 &r->w[r->cur + 3], next - 3);
		break;
	}
	case SpvOpName: {
		const char *name = spv_string(r, 2, NULL);
		spv_id(r, spv_word(r, 1))->name = name;
		break;
	}
	case SpvOpDecorate: case SpvOpDecorateId: case SpvOpDecorateString:
	case SpvOpMemberDecorate: case SpvOpMemberDecorateString:
		decorate(r, op);
		break;
	case SpvOpDecorationGroup:
		spv_id(r, spv_word(r, 1))->kind = ID_GROUP;
		break;
	case SpvOpGroupDecorate: case SpvOpGroupMemberDecorate:
		group_decorate(r, op);
		break;
	case SpvOpVariable:
		spv_variable(r, false);
		break;
	case SpvOpExtInst: {
		struct spv_id *set = spv_id(r, spv_word(r, 3));
		if (set->kind != ID_EXTSET)
			wrong_kind(r, spv_word(r, 3), "an instruction set");
		if (set->extset != EXTSET_NONSEMANTIC && set->extset != EXTSET_DEBUG)
			spv_unsupported(r, "a %s instruction at module scope",
					set->name ? set->name : "extended");
		spv_id(r, spv_word(r, 2))->kind = ID_IGNORED;
		break;
	}
	default:
		if (op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer)
			spv_type_instr(r, op);
		else if ((op >= SpvOpConstantTrue && op <= SpvOpSpecConstantOp) || op == SpvOpUndef)
			spv_const_instr(r, op);
		else
			spv_type_instr(r, op);	/* newer types, or unsupported */
		break;
	}
}

/* Check an instruction's framing against the grammar; returns its info
 * (NULL for an opcode this SPIRV-Headers does not know). */
static const struct spv_op_info *frame(struct spv *r, size_t at)
{
	uint32_t count = spv_count(r, at), op = spv_opcode(r, at);
	char buf[24];
	r->cur = at;
	if (count == 0 || count > r->num_words - at) {
		r->cur = 0;
		diag_error(r->diag, r->name, 0, 0, "word %zu: %s: %s instruction (%u words, %zu left)",
			   at, spv_op_name(op, buf), count ? "truncated" : "zero-length", count,
			   r->num_words - at);
		longjmp(r->fail, 1);
	}
	const struct spv_op_info *info = spv_op_info(op);
	if (info && count < info->min_words)
		spv_fail(r, "%u words, the grammar needs at least %u", count, info->min_words);
	return info;
}

static void scan_module(struct spv *r)
{
	struct func_scan fs = { 0 };
	for (size_t at = SPV_HEADER_WORDS; at < r->num_words; at += spv_count(r, at)) {
		const struct spv_op_info *info = frame(r, at);
		uint32_t op = spv_opcode(r, at);
		if (op == SpvOpFunction) {
			if (fs.f)
				spv_fail(r, "a function inside a function");
			record_result(r, info, false);
			function_begin(r, &fs);
			continue;
		}
		if (op == SpvOpFunctionEnd) {
			if (!fs.f)
				spv_fail(r, "OpFunctionEnd outside a function");
			function_end(r, &fs);
			continue;
		}
		if (fs.f) {
			if (info)
				record_result(r, info, true);
			function_instr(r, &fs, op);
			continue;
		}
		if (op == SpvOpLine || op == SpvOpNoLine || op == SpvOpNop || op == SpvOpSource ||
		    op == SpvOpSourceContinued || op == SpvOpSourceExtension ||
		    op == SpvOpModuleProcessed || op == SpvOpExtension)
			continue;
		if (!info)
			spv_unsupported(r, "opcode %u (unknown to SPIRV-Headers %s)", op,
					spv_grammar_version());
		if (info->has_result && op != SpvOpTypeForwardPointer)
			define(r, spv_word(r, info->has_type ? 2 : 1), false);
		module_instr(r, op);
	}
	if (fs.f)
		spv_fail(r, "the module ends inside a function");
	r->cur = 0;
}

/* ---- the header ---- */

static void check_header(struct spv *r)
{
	if (r->num_words < SPV_HEADER_WORDS || r->w[0] != SpvMagicNumber) {
		diag_error(r->diag, r->name, 0, 0, "not a SPIR-V module");
		longjmp(r->fail, 1);
	}
	r->version = r->w[1];
	r->bound = r->w[3];
	/* ids need not be dense (hand-written assembly): calloc's pages cost only
	 * when touched, but a bound far beyond the module is no module */
	if (r->bound == 0 || r->bound > (4 * r->num_words + 1024 > (1u << 18) ?
					 4 * r->num_words + 1024 : (1u << 18))) {
		diag_error(r->diag, r->name, 0, 0, "implausible id bound %u for %zu words", r->bound,
			   r->num_words);
		longjmp(r->fail, 1);
	}
	r->ids = xcalloc(r->bound, sizeof(*r->ids));
}

/* The modes recorded before the entry point was known may name another. */
static void filter_modes(struct spv *r)
{
	unsigned n = 0;
	for (unsigned i = 0; i < r->num_modes; i++)
		if (r->modes[i].args[-2] == r->entry_id)
			r->modes[n++] = r->modes[i];
	r->num_modes = n;
}

static void choose_entry(struct spv *r)
{
	const struct spirv_options *o = r->opts;
	r->cur = 0;
	if (!r->entry_id) {
		if (o->entry || o->stage != STAGE_NONE)
			diag_error(r->diag, r->name, 0, 0, "no %s entry point%s%s%s",
				   o->stage != STAGE_NONE ? stage_name(o->stage) : "",
				   o->entry ? " named '" : "", o->entry ? o->entry : "",
				   o->entry ? "'" : "");
		else
			diag_error(r->diag, r->name, 0, 0, "the module has no entry point");
		longjmp(r->fail, 1);
	}
	if (r->stage == STAGE_NONE || r->model == SpvExecutionModelMeshNV) {
		char buf[40];
		diag_error(r->diag, r->name, 0, 0, "unsupported: %s shaders",
			   spv_enum_name_or_number(SPV_KIND_ExecutionModel, r->model, buf));
		longjmp(r->fail, 1);
	}
	struct spv_id *x = &r->ids[r->entry_id];
	if (x->kind != ID_FUNC || !x->func->first_label) {
		diag_error(r->diag, r->name, 0, 0, "the entry point %%%u is not a defined function",
			   r->entry_id);
		longjmp(r->fail, 1);
	}
	filter_modes(r);
}

/* ---- execution modes → shader information ---- */

static uint32_t mode_arg(struct spv *r, const struct spv_exec_mode *m, unsigned i)
{
	if (i >= m->num_args)
		spv_fail(r, "execution mode %u lacks an operand", m->mode);
	if (!m->by_id)
		return m->args[i];
	uint32_t v;
	if (!spv_id_const_u32(r, m->args[i], &v))
		spv_fail(r, "execution mode operand %%%u is not an integer constant", m->args[i]);
	return v;
}

static unsigned float_control_bit(struct spv *r, uint32_t mode, uint32_t width)
{
	int w = width == 16 ? 0 : width == 32 ? 1 : width == 64 ? 2 : -1;
	if (w < 0)
		return 0;
	switch (mode) {
	case SpvExecutionModeDenormPreserve: return 1u << (FLOAT_CONTROL_BIT_denorm_preserve16 + w);
	case SpvExecutionModeDenormFlushToZero: return 1u << (FLOAT_CONTROL_BIT_denorm_flush16 + w);
	case SpvExecutionModeRoundingModeRTE: return 1u << (FLOAT_CONTROL_BIT_rte16 + w);
	case SpvExecutionModeRoundingModeRTZ: return 1u << (FLOAT_CONTROL_BIT_rtz16 + w);
	case SpvExecutionModeSignedZeroInfNanPreserve: return 1u << (FLOAT_CONTROL_BIT_szinp16 + w);
	}
	(void)r;
	return 0;
}

static enum primitive input_primitive(struct spv *r, uint32_t mode)
{
	bool tess = r->stage == STAGE_TESS_CTRL || r->stage == STAGE_TESS_EVAL;
	switch (mode) {
	case SpvExecutionModeInputPoints: return PRIM_points;
	case SpvExecutionModeInputLines: return PRIM_lines;
	case SpvExecutionModeInputLinesAdjacency: return PRIM_lines_adjacency;
	case SpvExecutionModeTriangles: return PRIM_triangles;
	case SpvExecutionModeInputTrianglesAdjacency: return PRIM_triangles_adjacency;
	case SpvExecutionModeQuads: return tess ? PRIM_quads : PRIM_none;
	case SpvExecutionModeIsolines: return tess ? PRIM_isolines : PRIM_none;
	}
	return PRIM_none;
}

static void apply_mode(struct spv *r, const struct spv_exec_mode *m)
{
	struct shader_info *info = &r->s->info;
	bool tess = r->stage == STAGE_TESS_CTRL || r->stage == STAGE_TESS_EVAL;
	switch (m->mode) {
	case SpvExecutionModeLocalSize: case SpvExecutionModeLocalSizeId:
		for (unsigned i = 0; i < 3; i++) {
			uint32_t v = mode_arg(r, m, i);
			if (v == 0 || v > 65535)
				spv_fail(r, "workgroup size %u", v);
			info->workgroup_size[i] = (uint16_t)v;
		}
		break;
	case SpvExecutionModeOriginUpperLeft: info->origin_upper_left = true; break;
	case SpvExecutionModePixelCenterInteger: info->pixel_center_integer = true; break;
	case SpvExecutionModeEarlyFragmentTests: info->early_fragment_tests = true; break;
	case SpvExecutionModePostDepthCoverage: info->post_depth_coverage = true; break;
	case SpvExecutionModeDepthReplacing:
		if (!info->depth_layout)
			info->depth_layout = DEPTH_any;
		break;
	case SpvExecutionModeDepthGreater: info->depth_layout = DEPTH_greater; break;
	case SpvExecutionModeDepthLess: info->depth_layout = DEPTH_less; break;
	case SpvExecutionModeDepthUnchanged: info->depth_layout = DEPTH_unchanged; break;
	case SpvExecutionModePixelInterlockOrderedEXT: case SpvExecutionModePixelInterlockUnorderedEXT:
		info->pixel_interlock = true;
		break;
	case SpvExecutionModeSampleInterlockOrderedEXT:
	case SpvExecutionModeSampleInterlockUnorderedEXT:
		info->sample_interlock = true;
		break;
	case SpvExecutionModeInvocations: info->invocations = (uint16_t)mode_arg(r, m, 0); break;
	case SpvExecutionModeOutputVertices:
		info->vertices_out = (uint16_t)mode_arg(r, m, 0);
		break;
	case SpvExecutionModeOutputPrimitivesEXT:
		info->primitives_out = (uint16_t)mode_arg(r, m, 0);
		break;
	case SpvExecutionModeInputPoints: case SpvExecutionModeInputLines:
	case SpvExecutionModeInputLinesAdjacency: case SpvExecutionModeTriangles:
	case SpvExecutionModeInputTrianglesAdjacency: case SpvExecutionModeQuads:
	case SpvExecutionModeIsolines:
		if (tess)
			info->tess_primitive = input_primitive(r, m->mode);
		else
			info->input_primitive = input_primitive(r, m->mode);
		break;
	case SpvExecutionModeOutputPoints: info->output_primitive = PRIM_points; break;
	case SpvExecutionModeOutputLineStrip: info->output_primitive = PRIM_line_strip; break;
	case SpvExecutionModeOutputTriangleStrip:
		info->output_primitive = PRIM_triangle_strip;
		break;
	case SpvExecutionModeOutputLinesEXT: info->output_primitive = PRIM_lines; break;
	case SpvExecutionModeOutputTrianglesEXT: info->output_primitive = PRIM_triangles; break;
	case SpvExecutionModeSpacingEqual: info->tess_spacing = SPACING_equal; break;
	case SpvExecutionModeSpacingFractionalEven:
		info->tess_spacing = SPACING_fractional_even;
		break;
	case SpvExecutionModeSpacingFractionalOdd:
		info->tess_spacing = SPACING_fractional_odd;
		break;
	case SpvExecutionModeVertexOrderCcw: info->tess_ccw = true; break;
	case SpvExecutionModeVertexOrderCw: info->tess_ccw = false; break;
	case SpvExecutionModePointMode: info->tess_point_mode = true; break;
	case SpvExecutionModeDenormPreserve: case SpvExecutionModeDenormFlushToZero:
	case SpvExecutionModeRoundingModeRTE: case SpvExecutionModeRoundingModeRTZ:
	case SpvExecutionModeSignedZeroInfNanPreserve:
		info->float_controls |= float_control_bit(r, m->mode, mode_arg(r, m, 0));
		break;
	default:
		break;	/* no effect on the IR (or unknown: data) */
	}
}

/* The WorkgroupSize builtin constant overrides LocalSize (SPIR-V 2.2.2). */
static void workgroup_size_builtin(struct spv *r)
{
	if (!r->workgroup_size_id)
		return;
	struct spv_const *c = spv_get_const(r, r->workgroup_size_id);
	if (c->type->kind != T_VECTOR || c->type->length != 3)
		spv_fail(r, "the WorkgroupSize builtin is not a 3-component vector");
	for (unsigned i = 0; i < 3; i++) {
		uint64_t v = c->elems ? c->elems[i]->v[0] : c->v[i];
		if (v == 0 || v > 65535)
			spv_fail(r, "workgroup size %llu", (unsigned long long)v);
		r->s->info.workgroup_size[i] = (uint16_t)v;
	}
}

static void apply_modes(struct spv *r)
{
	for (unsigned i = 0; i < r->num_modes; i++) {
		r->cur = (size_t)(r->modes[i].args - r->w) - 3;
		apply_mode(r, &r->modes[i]);
	}
	r->cur = 0;
	workgroup_size_builtin(r);
	struct shader_info *info = &r->s->info;
	if (r->stage == STAGE_GEOMETRY && !info->invocations)
		info->invocations = 1;
	if (r->stage == STAGE_COMPUTE && !info->workgroup_size[0]) {
		diag_error(r->diag, r->name, 0, 0, "a compute shader without a workgroup size");
		longjmp(r->fail, 1);
	}
}

/* ---- the entry point ---- */

/*
 * The reader checks only what it relies on; a module that breaks SPIR-V's
 * other rules (types of operands, dominance) may still come out as invalid
 * IR.  Then spirv-val judges: an invalid module is the input's fault, a
 * valid one is a bug of ours.
 */
static bool check_output(struct shader *s, const uint32_t *words, size_t n, const char *name,
			 struct diag *diag)
{
	struct diag d = DIAG_INIT;
	struct strbuf err = STRBUF_INIT;
	bool ok = ir_validate(s, &d, name);
	if (!ok) {
		if (spirv_validate(words, n, &err) < 0) {
			strbuf_rtrim(&err);
			diag_error(diag, name, 0, 0, "not a valid module: %s", err.buf);
		} else {
			strbuf_addstr(&diag->text, d.text.buf);
			diag->errors += d.errors;
			diag_error(diag, name, 0, 0, "internal error: the SPIR-V reader made invalid IR");
		}
	}
	strbuf_release(&err);
	diag_release(&d);
	return ok;
}

static void release(struct spv *r)
{
	strmap_release(&r->consts);
	arena_release(&r->arena);
	free(r->ids);
	free(r);
}

struct shader *spirv_to_ir(const uint32_t *words, size_t num_words, const struct spirv_options *o,
			   const char *name, struct diag *diag)
{
	struct spv *r = xcalloc(1, sizeof(*r));
	struct shader *volatile s = NULL;

	r->w = words;
	r->num_words = num_words;
	r->name = name;
	r->diag = diag;
	r->opts = o;
	r->stage = STAGE_NONE;
	arena_init(&r->arena);
	if (setjmp(r->fail)) {
		shader_free(s);
		release(r);
		return NULL;
	}
	check_header(r);
	scan_module(r);
	choose_entry(r);
	s = shader_create(r->stage, r->entry_name);
	r->s = s;
	builder_init(&r->b, s, cursor_after_block(function_start_block(s->fn)));
	apply_modes(r);
	spv_init_private(r);
	spv_emit_entry(r);
	release(r);
	if (!check_output(s, words, num_words, name, diag)) {
		shader_free(s);
		return NULL;
	}
	return s;
}
