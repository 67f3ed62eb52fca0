/*
 * SPIR-V in its two file forms, and the SPIRV-Tools services the front end
 * offers (front.h): binary modules, checked and handed on; assembly text,
 * assembled with libSPIRV-Tools; validation and disassembly.
 *
 * Binary modules are untrusted: the checks here are the header (magic, in
 * either byte order, version, id bound) and the instruction stream's framing
 * (no zero word count, no instruction past the end), enough to find the
 * entry point safely.  We walk the stream ourselves rather than with
 * spvBinaryParse(), which stops at opcodes and enum values this SPIRV-Tools
 * does not know; newer producers' modules must reach the reader, which
 * treats such values as data.
 */
#include <string.h>

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.h>

#include "compiler/front/front_internal.h"

#define HEADER_WORDS 5

static uint32_t bswap32(uint32_t w)
{
	return (w >> 24) | ((w >> 8) & 0xff00) | ((w << 8) & 0xff0000) | (w << 24);
}

/* The universal environment of the module's SPIR-V version (1.6 for newer). */
static spv_target_env env_of_version(uint32_t version)
{
	static const spv_target_env envs[] = {
		SPV_ENV_UNIVERSAL_1_0, SPV_ENV_UNIVERSAL_1_1, SPV_ENV_UNIVERSAL_1_2,
		SPV_ENV_UNIVERSAL_1_3, SPV_ENV_UNIVERSAL_1_4, SPV_ENV_UNIVERSAL_1_5,
		SPV_ENV_UNIVERSAL_1_6,
	};
	uint32_t minor = (version >> 8) & 0xff;
	return envs[minor < 6 ? minor : 6];
}

/* Header checks, for any module (from a file or not). */
static int check_header(const uint32_t *w, size_t n, struct strbuf *err)
{
	if (n < HEADER_WORDS) {
		strbuf_addf(err, "too short for a SPIR-V module (%zu words, the header alone is 5)", n);
		return -1;
	}
	if (w[0] != SpvMagicNumber) {
		strbuf_addf(err, "not a SPIR-V module (magic number 0x%08x)", w[0]);
		return -1;
	}
	if ((w[1] >> 16) != 1 || (w[1] & 0xff0000ff)) {
		strbuf_addf(err, "unknown SPIR-V version 0x%08x", w[1]);
		return -1;
	}
	if (w[3] == 0 || w[3] > (1u << 26)) {
		strbuf_addf(err, "implausible id bound %u in the header", w[3]);
		return -1;
	}
	return 0;
}

/* The entry point's name, NUL-terminated inside words [from, end). */
static const char *literal_string(const uint32_t *w, size_t from, size_t end)
{
	const char *s = (const char *)(w + from);
	return from < end && memchr(s, 0, (end - from) * 4) ? s : NULL;
}

/*
 * Walk the instructions, checking their framing, and pick the entry point:
 * the one named -e, else the first of stage `want`, else (when `want` only
 * came from the file name, or is unknown) the first.  Fills u->stage and
 * u->entry.
 */
static int find_entry_point(const uint32_t *w, size_t n, enum shader_stage want,
			    bool want_from_name, const char *entry, struct spirv_unit *u,
			    struct strbuf *err)
{
	const char *best_name = NULL, *first_name = NULL;
	uint32_t best_model = 0, first_model = 0, last_op = 0;
	int entries = 0;

	for (size_t i = HEADER_WORDS; i < n;) {
		uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
		if (count == 0 || count > n - i) {
			strbuf_addf(err, "%s instruction at word %zu (opcode %u, %u words)",
				    count ? "truncated" : "zero-length", i, op, count);
			return -1;
		}
		if (op == SpvOpEntryPoint && count >= 4) {
			const char *name = literal_string(w, i + 3, i + count);
			uint32_t model = w[i + 1];
			if (!name) {
				strbuf_addf(err, "OpEntryPoint at word %zu: unterminated name", i);
				return -1;
			}
			if (!entries++) {
				first_name = name;
				first_model = model;
			}
			bool named = entry && !strcmp(name, entry);
			bool staged = !entry && (want == STAGE_NONE || stage_from_spirv_model(model) == want);
			if (!best_name && (named || staged)) {
				best_name = name;
				best_model = model;
			}
		}
		last_op = op;
		i += count;
	}
	/* a shader's last instruction ends a function: anything else was cut short */
	if (entries && last_op != SpvOpFunctionEnd) {
		strbuf_addf(err, "the module ends with Op%s, not OpFunctionEnd: truncated?",
			    spvOpcodeString(last_op));
		return -1;
	}
	if (!best_name && !entry && entries && want_from_name) {
		best_name = first_name;	/* the file name guessed wrong; the module knows */
		best_model = first_model;
	}
	if (!best_name) {
		if (!entries)
			strbuf_addstr(err, "the module has no entry point (a library module?)");
		else if (entry)
			strbuf_addf(err, "no entry point named '%s'", entry);
		else
			strbuf_addf(err, "no %s entry point", stage_name(want));
		return -1;
	}
	u->stage = stage_from_spirv_model(best_model);
	if (u->stage == STAGE_NONE) {
		strbuf_addf(err, "entry point '%s' has execution model %u, which no stage of ours runs",
			    best_name, best_model);
		return -1;
	}
	u->entry = xstrdup(best_name);
	return 0;
}

/* Take ownership of `words` for `u` after the checks every module gets. */
static int accept_words(struct spirv_unit *u, const char *file, uint32_t *words, size_t n,
			const struct compile_options *o)
{
	struct strbuf err = STRBUF_INIT;
	enum shader_stage want = u->stage;

	if (check_header(words, n, &err) < 0 ||
	    find_entry_point(words, n, want, o->stage == STAGE_NONE, o->entry, u, &err) < 0) {
		diag_error(&u->diag, file, 0, 0, "%s", err.buf);
		strbuf_release(&err);
		free(words);
		if (u->stage == STAGE_NONE)
			u->stage = want;
		return -1;
	}
	u->words = words;
	u->num_words = n;
	u->status = RESULT_OK;
	strbuf_release(&err);
	return 0;
}

int spirv_from_binary(struct spirv_unit *u, const char *file, const char *data, size_t len,
		      const struct compile_options *o)
{
	u->how = "binary";
	if (len % 4) {
		diag_error(&u->diag, file, 0, 0,
			   "size %zu is not a multiple of 4: not a SPIR-V module", len);
		return -1;
	}
	size_t n = len / 4;
	uint32_t *words = xmalloc(len);
	memcpy(words, data, len);
	if (words[0] == bswap32(SpvMagicNumber))
		for (size_t i = 0; i < n; i++)
			words[i] = bswap32(words[i]);
	return accept_words(u, file, words, n, o);
}

/*
 * The assembler's target: SPIRV-Cross names files "x.spv14.asm.frag" for
 * SPIR-V 1.4; spirv-dis writes "; Version: 1.3" in its header; otherwise
 * Vulkan 1.1's SPIR-V 1.3, as SPIRV-Cross's test runner assembles.
 */
static spv_target_env assembly_env(const char *file, const char *text, size_t len)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	if (strstr(base, ".spv16."))
		return SPV_ENV_UNIVERSAL_1_6;
	if (strstr(base, ".spv15."))
		return SPV_ENV_UNIVERSAL_1_5;
	if (strstr(base, ".spv14."))
		return SPV_ENV_UNIVERSAL_1_4;
	const char *v = memmem(text, len < 512 ? len : 512, "; Version: 1.", 13);
	if (v && (size_t)(v - text) + 13 < len && v[13] >= '0' && v[13] <= '6')
		return env_of_version((uint32_t)(v[13] - '0') << 8);
	return SPV_ENV_VULKAN_1_1;
}

int spirv_from_assembly(struct spirv_unit *u, const char *file, const char *data, size_t len,
			const struct compile_options *o)
{
	spv_context ctx = spvContextCreate(assembly_env(file, data, len));
	spv_binary bin = NULL;
	spv_diagnostic diag = NULL;

	u->how = "spirv-as";
	if (spvTextToBinaryWithOptions(ctx, data, len, SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS,
				       &bin, &diag) != SPV_SUCCESS) {
		if (diag)
			diag_error(&u->diag, file, (int)diag->position.line + 1,
				   (int)diag->position.column + 1, "%s", diag->error);
		else
			diag_error(&u->diag, file, 0, 0, "the SPIR-V assembler failed");
		spvDiagnosticDestroy(diag);
		spvBinaryDestroy(bin);
		spvContextDestroy(ctx);
		return -1;
	}
	uint32_t *words = xmalloc(bin->wordCount * sizeof(uint32_t));
	memcpy(words, bin->code, bin->wordCount * sizeof(uint32_t));
	size_t n = bin->wordCount;
	spvBinaryDestroy(bin);
	spvContextDestroy(ctx);
	return accept_words(u, file, words, n, o);
}

int spirv_validate(const uint32_t *words, size_t num_words, struct strbuf *err)
{
	spv_context ctx = spvContextCreate(num_words > 1 ? env_of_version(words[1])
							 : SPV_ENV_UNIVERSAL_1_6);
	spv_const_binary_t bin = { words, num_words };
	spv_diagnostic diag = NULL;
	int ret = 0;

	if (spvValidate(ctx, &bin, &diag) != SPV_SUCCESS) {
		strbuf_addf(err, "spirv-val: %s", diag && diag->error ? diag->error : "invalid module");
		strbuf_rtrim(err);
		ret = -1;
	}
	spvDiagnosticDestroy(diag);
	spvContextDestroy(ctx);
	return ret;
}

int spirv_disassemble(const uint32_t *words, size_t num_words, struct strbuf *out,
		      struct strbuf *err)
{
	spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
	spv_text text = NULL;
	spv_diagnostic diag = NULL;
	int ret = 0;

	if (spvBinaryToText(ctx, words, num_words,
			    SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT,
			    &text, &diag) != SPV_SUCCESS) {
		strbuf_addf(err, "spirv-dis: %s", diag && diag->error ? diag->error : "cannot disassemble");
		ret = -1;
	} else {
		strbuf_add(out, text->str, text->length);
	}
	spvTextDestroy(text);
	spvDiagnosticDestroy(diag);
	spvContextDestroy(ctx);
	return ret;
}
