/*
 * The pass registry: every pass by name, the target-independent ones
 * (compiler/opt/passes.def) then each backend's (compiler/ir3/ir3_passes.def,
 * compiler/etna/etna_passes.def),
 * for --passes, --print-after and --time-passes (compile.h).
 */
#include "compiler/compile.h"

#include <string.h>

#define REQUIRED false
#define OPTIONAL true
const struct pass_entry compile_passes[] = {
#define PASS_ENTRY(fn, summary_, ...) { .name = #fn, .summary = summary_ },
#include "compiler/opt/passes.def"
#undef PASS_ENTRY
#define BACKEND_PASS(fn, kind, summary_) \
	{ .name = #fn, .family = "ir3", .optional = kind, .summary = summary_ },
#include "compiler/ir3/ir3_passes.def"
#undef BACKEND_PASS
#define BACKEND_PASS(fn, kind, summary_) \
	{ .name = #fn, .family = "etna", .optional = kind, .summary = summary_ },
#include "compiler/etna/etna_passes.def"
#undef BACKEND_PASS
};
#undef REQUIRED
#undef OPTIONAL

const size_t num_compile_passes = sizeof(compile_passes) / sizeof(compile_passes[0]);

const struct pass_entry *compile_pass_find(const char *name, size_t len)
{
	for (size_t i = 0; i < num_compile_passes; i++)
		if (strlen(compile_passes[i].name) == len && !memcmp(compile_passes[i].name, name, len))
			return &compile_passes[i];
	return NULL;
}

static const char *entry_name(size_t i)
{
	return compile_passes[i].name;
}

bool compile_check_passes(const char *passes, const char *print_after, struct strbuf *err)
{
	const struct pass_names known = { num_compile_passes, entry_name };
	return pass_names_check(&known, passes, print_after, err);
}

void compile_ir_passes(const char *passes, struct strbuf *out)
{
	for (const char *p = passes; *p;) {
		size_t n = strcspn(p, ",");
		const struct pass_entry *e = compile_pass_find(p, n);
		if (e && !e->family)
			strbuf_addf(out, "%s%.*s", out->len ? "," : "", (int)n, p);
		p += n + (p[n] == ',');
	}
	if (!out->len)
		strbuf_addstr(out, "none");
}
