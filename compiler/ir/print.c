/*
 * The printer: a shader in the text form of FORMAT.md, which parse.c reads
 * back.  The output is canonical — a function of the IR alone: blocks are
 * numbered in program order, phi sources sorted by predecessor, every
 * property in a fixed order — so print(parse(print(s))) == print(s).
 *
 *	shader fragment origin_upper_left
 *
 *	input 0 32x4 location=0 smooth
 *	output 0 32x4 location=0
 *
 *	fn main {
 *	block b0:
 *		32     %0 = load_const 0
 *		32x4   %1 = @load_input %0 base=0 component=0
 *		       @store_output %1, %0 base=0 component=0 write_mask=xyzw
 *	}
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/builder.h"
#include "compiler/ir/text.h"

struct printer {
	struct strbuf *out;
	unsigned depth;
};

static void indent(struct printer *p, unsigned extra)
{
	strbuf_addchars(p->out, '\t', p->depth + extra);
}

/* ---- header and declarations ---- */

static void print_io(struct printer *p, const char *kind, unsigned i, const struct io_decl *d)
{
	strbuf_addf(p->out, "%s %u ", kind, i);
	text_print_type(p->out, d->num_components, d->bit_size);
	text_print_fields(p->out, d, &ir_io_fields);
	strbuf_addch(p->out, '\n');
}

static void print_buffer(struct printer *p, const char *kind, const struct buffer_decl *d)
{
	strbuf_addf(p->out, "%s %u", kind, d->slot);
	text_print_fields(p->out, d, &ir_buffer_fields);
	strbuf_addch(p->out, '\n');
}

static void print_resource(struct printer *p, const char *kind, const struct resource_decl *d)
{
	strbuf_addf(p->out, "%s %u", kind, d->slot);
	text_print_fields(p->out, d, &ir_resource_fields);
	strbuf_addch(p->out, '\n');
}

static void print_decls(struct printer *p, struct shader *s)
{
	size_t before = p->out->len;
	for (unsigned i = 0; i < s->num_inputs; i++)
		print_io(p, "input", i, s->inputs[i]);
	for (unsigned i = 0; i < s->num_outputs; i++)
		print_io(p, "output", i, s->outputs[i]);
	for (unsigned i = 0; i < s->num_ubos; i++)
		print_buffer(p, "ubo", s->ubos[i]);
	for (unsigned i = 0; i < s->num_ssbos; i++)
		print_buffer(p, "ssbo", s->ssbos[i]);
	for (unsigned i = 0; i < s->num_textures; i++)
		print_resource(p, "texture", s->textures[i]);
	for (unsigned i = 0; i < s->num_samplers; i++)
		print_resource(p, "sampler", s->samplers[i]);
	for (unsigned i = 0; i < s->num_images; i++)
		print_resource(p, "image", s->images[i]);
	for (unsigned i = 0; i < s->num_locals; i++) {
		const struct local_decl *d = s->locals[i];
		strbuf_addf(p->out, "local %u ", i);
		text_print_type(p->out, d->num_components, d->bit_size);
		strbuf_addf(p->out, "[%u]", d->num_elements);
		text_print_fields(p->out, d, &ir_local_fields);
		strbuf_addch(p->out, '\n');
	}
	if (p->out->len != before)
		strbuf_addch(p->out, '\n');
}

/* ---- instructions ---- */

static void print_def(struct printer *p, const struct ssa_def *def)
{
	struct strbuf type = STRBUF_INIT;
	text_print_type(&type, def->num_components, def->bit_size);
	strbuf_addf(p->out, "%-6s %%%u = ", type.buf, def->index);
	strbuf_release(&type);
}

static void print_src(struct printer *p, const struct src *src)
{
	if (src->ssa)
		strbuf_addf(p->out, "%%%u", src->ssa->index);
	else
		strbuf_addstr(p->out, "%?");
}

static bool swizzle_is_identity(const struct alu_instr *alu, unsigned i)
{
	unsigned n = alu_src_components(alu, i);
	if (!alu->src[i].src.ssa || alu->src[i].src.ssa->num_components != n)
		return false;
	for (unsigned c = 0; c < n; c++)
		if (alu->src[i].swizzle[c] != c)
			return false;
	return true;
}

static void print_alu(struct printer *p, const struct alu_instr *alu)
{
	const struct alu_op_info *info = &alu_op_infos[alu->op];
	strbuf_addstr(p->out, info->name);
	if (alu->exact)
		strbuf_addstr(p->out, " exact");
	if (alu->mediump)
		strbuf_addstr(p->out, " mediump");
	if (alu->no_signed_wrap)
		strbuf_addstr(p->out, " nsw");
	if (alu->no_unsigned_wrap)
		strbuf_addstr(p->out, " nuw");
	for (unsigned i = 0; i < info->num_inputs; i++) {
		strbuf_addstr(p->out, i ? ", " : " ");
		print_src(p, &alu->src[i].src);
		if (swizzle_is_identity(alu, i))
			continue;
		strbuf_addch(p->out, '.');
		for (unsigned c = 0; c < alu_src_components(alu, i) && c < 16; c++) {
			unsigned s = alu->src[i].swizzle[c];
			strbuf_addch(p->out, s < 16 ? text_swizzle_chars[s] : '?');
		}
	}
}

/* A constant component: true/false, a small signed decimal, or hex. */
static bool print_const_value(struct strbuf *out, uint64_t v, unsigned bits)
{
	if (bits == 1) {
		strbuf_addstr(out, v ? "true" : "false");
		return false;
	}
	int64_t s = bits >= 64 ? (int64_t)v
		    : (int64_t)((v ^ ((uint64_t)1 << (bits - 1))) - ((uint64_t)1 << (bits - 1)));
	if (s >= -1024 && s <= 1024) {
		strbuf_addf(out, "%lld", (long long)s);
		return false;
	}
	strbuf_addf(out, "0x%0*llx", (int)(bits / 4), (unsigned long long)v);
	return true;
}

/* A float for a comment: shortest-ish, with ".0" when it looks integral. */
static void print_float_comment(struct strbuf *out, uint64_t v, unsigned bits)
{
	double d = ir_float_from_bits(v, bits);
	char buf[64];
	snprintf(buf, sizeof(buf), "%.*g", bits == 16 ? 5 : bits == 32 ? 9 : 17, d);
	strbuf_addstr(out, buf);
	if (!strpbrk(buf, ".einIN"))
		strbuf_addstr(out, ".0");
}

static void print_load_const(struct printer *p, const struct load_const_instr *lc)
{
	unsigned n = lc->def.num_components, bits = lc->def.bit_size;
	bool any_hex = false;
	strbuf_addstr(p->out, "load_const ");
	for (unsigned c = 0; c < n; c++) {
		if (c)
			strbuf_addstr(p->out, ", ");
		any_hex |= print_const_value(p->out, lc->value[c], bits);
	}
	if (!any_hex || bits < 16)
		return;
	strbuf_addstr(p->out, "  # ");
	for (unsigned c = 0; c < n; c++) {
		if (c)
			strbuf_addstr(p->out, ", ");
		print_float_comment(p->out, lc->value[c], bits);
	}
}

static void print_intrinsic(struct printer *p, const struct intrinsic_instr *intr)
{
	const struct intrinsic_info *info = &intrinsic_infos[intr->op];
	strbuf_addf(p->out, "@%s", info->name);
	for (unsigned i = 0; i < info->num_srcs; i++) {
		strbuf_addstr(p->out, i ? ", " : " ");
		print_src(p, &intr->src[i]);
	}
	for (unsigned k = 0; k < INTR_MAX_INDICES && info->indices[k]; k++) {
		enum intr_index idx = (enum intr_index)info->indices[k];
		if (intr_index_infos[idx].kind == INDEX_KIND_OPT_INT && !intr->const_index[k])
			continue;
		strbuf_addf(p->out, " %s=", intr_index_infos[idx].name);
		text_print_index(p->out, idx, intr->const_index[k]);
	}
}

static void print_tex(struct printer *p, const struct tex_instr *tex)
{
	strbuf_addf(p->out, "%s %s", tex_op_names[tex->op], dim_names[tex->dim]);
	if (tex->is_array)
		strbuf_addstr(p->out, " array");
	if (tex->is_shadow)
		strbuf_addstr(p->out, " shadow");
	if (tex->is_sparse)
		strbuf_addstr(p->out, " sparse");
	strbuf_addf(p->out, " %s texture=%u sampler=%u", base_type_names[tex->dest_type],
		    tex->texture_index, tex->sampler_index);
	if (tex->op == TEX_OP_tg4)
		strbuf_addf(p->out, " component=%u", tex->component);
	for (unsigned i = 0; i < tex->num_srcs; i++) {
		strbuf_addf(p->out, " %s=", tex_src_names[tex->src[i].type]);
		print_src(p, &tex->src[i].src);
	}
}

static int cmp_phi_src(const void *a, const void *b)
{
	const struct phi_src *x = *(const struct phi_src *const *)a;
	const struct phi_src *y = *(const struct phi_src *const *)b;
	unsigned i = x->pred ? x->pred->index : 0, j = y->pred ? y->pred->index : 0;
	return (i > j) - (i < j);
}

static void print_phi(struct printer *p, const struct phi_instr *phi)
{
	size_t n = list_length(&phi->srcs), k = 0;
	const struct phi_src **srcs = xmalloc((n ? n : 1) * sizeof(*srcs));
	list_for_each_entry(const struct phi_src, ps, &phi->srcs, link)
		srcs[k++] = ps;
	qsort(srcs, n, sizeof(*srcs), cmp_phi_src);
	strbuf_addstr(p->out, "phi");
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(p->out, "%s b%u: ", i ? "," : "", srcs[i]->pred ? srcs[i]->pred->index : 0);
		print_src(p, &srcs[i]->src);
	}
	free(srcs);
}

static void print_instr_body(struct printer *p, struct instr *instr)
{
	struct ssa_def *def = instr_def(instr);
	if (def)
		print_def(p, def);
	switch (instr->type) {
	case INSTR_alu: print_alu(p, instr_as_alu(instr)); break;
	case INSTR_load_const: print_load_const(p, instr_as_load_const(instr)); break;
	case INSTR_undef: strbuf_addstr(p->out, "undef"); break;
	case INSTR_intrinsic: print_intrinsic(p, instr_as_intrinsic(instr)); break;
	case INSTR_tex: print_tex(p, instr_as_tex(instr)); break;
	case INSTR_phi: print_phi(p, instr_as_phi(instr)); break;
	case INSTR_jump:
		strbuf_addstr(p->out, instr_as_jump(instr)->type == JUMP_break ? "break"
			      : instr_as_jump(instr)->type == JUMP_continue ? "continue" : "return");
		break;
	}
}

/* ---- control flow ---- */

static void print_cf_list(struct printer *p, struct list *list);

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return (x > y) - (x < y);
}

static void print_block(struct printer *p, struct block *b)
{
	unsigned n;
	struct block *const *preds = block_preds(b, &n);
	indent(p, 0);
	strbuf_addf(p->out, "block b%u:", b->index);
	if (n) {
		/* in index order, for a canonical text */
		unsigned *idx = xmalloc(n * sizeof(*idx));
		for (unsigned i = 0; i < n; i++)
			idx[i] = preds[i]->index;
		qsort(idx, n, sizeof(*idx), cmp_unsigned);
		strbuf_addstr(p->out, "  # preds:");
		for (unsigned i = 0; i < n; i++)
			strbuf_addf(p->out, " b%u", idx[i]);
		free(idx);
	}
	strbuf_addch(p->out, '\n');
	foreach_instr(i, b) {
		indent(p, 1);
		print_instr_body(p, i);
		strbuf_addch(p->out, '\n');
	}
}

static void print_if(struct printer *p, struct cf_if *nif)
{
	indent(p, 1);
	strbuf_addstr(p->out, "if ");
	print_src(p, &nif->condition);
	if (nif->hint)
		strbuf_addf(p->out, " %s", if_hint_names[nif->hint]);
	strbuf_addstr(p->out, " {\n");
	p->depth++;
	print_cf_list(p, &nif->then_list);
	p->depth--;
	indent(p, 1);
	strbuf_addstr(p->out, "} else {\n");
	p->depth++;
	print_cf_list(p, &nif->else_list);
	p->depth--;
	indent(p, 1);
	strbuf_addstr(p->out, "}\n");
}

static void print_loop(struct printer *p, struct cf_loop *loop)
{
	indent(p, 1);
	strbuf_addstr(p->out, "loop");
	if (loop->hint)
		strbuf_addf(p->out, " %s", loop_hint_names[loop->hint]);
	strbuf_addstr(p->out, " {\n");
	p->depth++;
	print_cf_list(p, &loop->body);
	p->depth--;
	indent(p, 1);
	strbuf_addstr(p->out, "}\n");
}

static void print_cf_list(struct printer *p, struct list *list)
{
	foreach_cf_node(n, list) {
		switch (n->type) {
		case CF_BLOCK: print_block(p, cf_as_block(n)); break;
		case CF_IF: print_if(p, cf_as_if(n)); break;
		case CF_LOOP: print_loop(p, cf_as_loop(n)); break;
		default: break;
		}
	}
}

static bool is_identifier(const char *s)
{
	if (!*s || !(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

void ir_print(struct shader *s, struct strbuf *out)
{
	struct printer p = { .out = out };
	calc_block_index(s->fn);
	strbuf_addf(out, "shader %s", stage_name(s->stage));
	text_print_fields(out, &s->info, &ir_info_fields);
	strbuf_addstr(out, "\n\n");
	print_decls(&p, s);
	strbuf_addstr(out, "fn ");
	if (is_identifier(s->fn->name))
		strbuf_addstr(out, s->fn->name);
	else
		text_print_string(out, s->fn->name);
	strbuf_addstr(out, " {\n");
	print_cf_list(&p, &s->fn->body);
	strbuf_addstr(out, "}\n");
}

void ir_print_instr(struct instr *instr, struct strbuf *out)
{
	struct printer p = { .out = out };
	print_instr_body(&p, instr);
}

char *ir_print_string(struct shader *s)
{
	struct strbuf sb = STRBUF_INIT;
	ir_print(s, &sb);
	return strbuf_detach(&sb, NULL);
}
