/*
 * The legalised program in ir3's assembly syntax, one instruction per line,
 * as Mesa's disassembler prints it (src/freedreno/isa/ir3-cat*.xml display
 * strings and the tests in ir3/tests/disasm.c):
 *
 *	(sy)(ss)(jp)(rpt2)nop
 *	(nop3) cmps.f.lt p0.x, (abs)r1.x, c16.x
 *	sam.3d (f32)(xyzw)r1.x, r0.z, s#3, t#2
 *	ldg.u32 r1.z, g[r1.z+7], 1
 *	br !p0.x, #3
 *	alias.tex.b32.1 r40.x, r3.z
 *
 * Meta instructions emit nothing and are skipped; jump targets are relative
 * instruction offsets.  Cat6 forms are close to, not always exactly, Mesa's.
 * A preamble (shps … shpe) is printed in place, as Mesa does.
 *
 * Around the listing, as Mesa's ir3_shader_disasm, what the registers and
 * consts hold before the first instruction and what `end` hands on, so that
 * no register is read without saying where it came from; the names are
 * selection's (ir3_iface.h), absent for machine IR read from text:
 *
 *	@in(r0.x)	in0 (wrmask=0x3)	; ij_persp_pixel
 *	@tex(r1.x)	src=0, samp=0, tex=0, wrmask=0xf, opc=sam	; vUV.xy
 *	@const(c2.x)	0x3f000000, 0x40400000, 0x00000000, 0x00000000
 *	; consts: c0.x-c1.w user, c2.x-c2.w preamble, c3.x- immediates
 *	…
 *	; fragment: outputs: r0.x (rt0.x fragColor)
 *	; fragment: inputs: il 0-1 vUV.xy
 */
#include "compiler/ir3/ir3_iface.h"
#include "compiler/ir3/ir3_ir.h"	/* ir3's foreach_* and TYPE_* (see there) */
#include "compiler/ir3/ir3_passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stage.h"

static const char comp[] = "xyzw";

static void reg(struct strbuf *sb, const struct ir3_register *r)
{
	if (ir3_reg_is_array_access(r) && (r->flags & IR3_REG_RELATIV))
		strbuf_addf(sb, "%sr<a0.x + %u>", (r->flags & IR3_REG_HALF) ? "h" : "",
			    ir3_array_elem_num(r));
	else if (ir3_reg_is_array_access(r))
		ir3_reg_name(sb, ir3_array_elem_num(r), r->flags & IR3_REG_HALF);
	else if (r->flags & IR3_REG_PREDICATE)
		strbuf_addf(sb, "p0.%c", comp[r->num & 3]);
	else if (r->flags & IR3_REG_ADDR)
		strbuf_addf(sb, "a%u.x", r->num & 1);
	else if (r->flags & IR3_REG_RT)
		strbuf_addf(sb, "rt%u.%c", r->num >> 2, comp[r->num & 3]);
	else
		ir3_reg_name(sb, r->num, r->flags & IR3_REG_HALF);
}

static const char *const flut_names[] = {
	"0.0", "0.5", "1.0", "2.0", "e", "pi", "1/pi", "1/log2(e)", "log2(e)", "1/log2(10)",
	"log2(10)", "4.0",
};

static float half_float(uint32_t h)
{
	unsigned s = (h >> 15) & 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
	float f = e == 0 ? (float)m / 16777216.0f
			 : (float)(m | 0x400) / 1024.0f * (e >= 15 ? (float)(1u << (e - 15)) : 1.0f / (float)(1u << (15 - e)));
	return s ? -f : f;
}

static void immediate(struct strbuf *sb, const struct ir3_instruction *i, const struct ir3_register *r)
{
	const char *h = (r->flags & IR3_REG_HALF) ? "h" : "";
	if (ir3_cat(i) == 2 && ir3_has_flag(i, IR3_OP_FLOAT)) {
		int k = ir3_flut(r->uim, r->flags & IR3_REG_HALF);
		if (k >= 0) {
			strbuf_addf(sb, "%s(%s)", h, flut_names[k]);
			return;
		}
	}
	if ((i->opc == OPC_MOV || i->opc == OPC_ALIAS) && ir3_type_is_float(i->type)) {
		float f;
		if (r->flags & IR3_REG_HALF)
			f = half_float(r->uim);
		else
			memcpy(&f, &r->uim, 4);
		strbuf_addf(sb, "%s(%f)", h, (double)f);
		return;
	}
	if (r->flags & IR3_REG_HALF)
		strbuf_addf(sb, "h(%d)", r->iim);
	else
		strbuf_addf(sb, "%d", r->iim);
}

static void src(struct strbuf *sb, const struct ir3_instruction *i, const struct ir3_register *r)
{
	if (r->flags & (IR3_REG_FNEG | IR3_REG_SNEG | IR3_REG_BNOT))
		strbuf_addstr(sb, "(neg)");
	if (r->flags & (IR3_REG_FABS | IR3_REG_SABS))
		strbuf_addstr(sb, "(abs)");
	if (r->flags & IR3_REG_R)
		strbuf_addstr(sb, "(r)");
	if (r->flags & IR3_REG_IMMED) {
		immediate(sb, i, r);
	} else if (r->flags & IR3_REG_CONST) {
		const char *h = (r->flags & IR3_REG_HALF) ? "h" : "";
		if (r->flags & IR3_REG_RELATIV)
			strbuf_addf(sb, "%sc<a0.x + %d>", h, r->rel_offset);
		else
			strbuf_addf(sb, "%sc%u.%c", h, r->num >> 2, comp[r->num & 3]);
	} else {
		reg(sb, r);
	}
}

static void dst(struct strbuf *sb, const struct ir3_register *r)
{
	if (r->flags & IR3_REG_EI)
		strbuf_addstr(sb, "(ei)");
	reg(sb, r);
}

static void flags(struct strbuf *sb, const struct ir3_instruction *i)
{
	if (i->flags & IR3_INSTR_SY)
		strbuf_addstr(sb, "(sy)");
	if (i->flags & IR3_INSTR_SS)
		strbuf_addstr(sb, "(ss)");
	if (i->flags & IR3_INSTR_JP)
		strbuf_addstr(sb, "(jp)");
	if (i->flags & IR3_INSTR_EQ)
		strbuf_addstr(sb, "(eq)");
	if (i->flags & IR3_INSTR_SAT)
		strbuf_addstr(sb, "(sat)");
	/* swz/gat/sct time as (rpt1) in Mesa, but their encoding (cat1 "multi")
	 * has no repeat field: bits 40-41 select the operation */
	if (i->repeat && i->opc != OPC_SWZ && i->opc != OPC_GAT && i->opc != OPC_SCT)
		strbuf_addf(sb, "(rpt%u)", i->repeat);
	if (i->nop)
		strbuf_addf(sb, "(nop%u) ", i->nop);
}

static unsigned target_ip(const struct ir3_block *b)
{
	for (; b; b = b->next)
		foreach_instr(i, b)
			if (!ir3_is_meta(i))
				return i->ip;
	return 0;
}

static void operands(struct strbuf *sb, const struct ir3_instruction *i, unsigned from)
{
	bool first = true;
	for (unsigned n = 0; n < i->ndst; n++) {
		strbuf_addstr(sb, first ? " " : ", ");
		dst(sb, i->dsts[n]);
		first = false;
	}
	for (unsigned n = from; n < i->nsrc; n++) {
		if (i->srcs[n]->flags & IR3_REG_TIED)
			continue;
		strbuf_addstr(sb, first ? " " : ", ");
		src(sb, i, i->srcs[n]);
		first = false;
	}
}

static void cat0(struct strbuf *sb, const struct ir3_instruction *i)
{
	strbuf_addstr(sb, ir3_op(i->opc)->name);
	bool first = true;
	if (i->opc != OPC_END && i->opc != OPC_CHMASK) {
		for (unsigned n = 0; n < i->nsrc; n++) {
			strbuf_addstr(sb, first ? " " : ", ");
			if (n == 0 && (i->flags & IR3_INSTR_INV))
				strbuf_addch(sb, '!');
			src(sb, i, i->srcs[n]);
			first = false;
		}
	}
	if (i->target)
		strbuf_addf(sb, "%s#%d", first ? " " : ", ", (int)target_ip(i->target) - (int)i->ip);
}

static bool uses_samp(enum ir3_opc opc)
{
	switch (opc) {
	case OPC_ISAM: case OPC_ISAML: case OPC_ISAMM: case OPC_SAM: case OPC_SAMB: case OPC_SAML:
	case OPC_SAMGQ: case OPC_GETLOD: case OPC_CONV: case OPC_CONVM: case OPC_GATHER4R:
	case OPC_GATHER4G: case OPC_GATHER4B: case OPC_GATHER4A: case OPC_SAMGP0: case OPC_SAMGP1:
	case OPC_SAMGP2: case OPC_SAMGP3:
		return true;
	default:
		return false;
	}
}

static bool uses_tex(enum ir3_opc opc)
{
	return uses_samp(opc) || opc == OPC_GETSIZE || opc == OPC_GETBUF || opc == OPC_GETINFO;
}

static void cat5(struct strbuf *sb, const struct ir3_instruction *i)
{
	strbuf_addstr(sb, ir3_op(i->opc)->name);
	if (i->flags & IR3_INSTR_3D)
		strbuf_addstr(sb, ".3d");
	if (i->flags & IR3_INSTR_A)
		strbuf_addstr(sb, ".a");
	if (i->flags & IR3_INSTR_O)
		strbuf_addstr(sb, ".o");
	if (i->flags & IR3_INSTR_S)
		strbuf_addstr(sb, ".s");
	if (i->flags & IR3_INSTR_P)
		strbuf_addstr(sb, ".p");
	if (i->flags & IR3_INSTR_S2EN)
		strbuf_addstr(sb, ".s2en.nonuniform");
	if (!i->ndst)
		return;
	const struct ir3_register *d = i->dsts[0];
	strbuf_addf(sb, " (%s)(", ir3_type_name(i->type));
	for (unsigned c = 0; c < 4; c++)
		if (d->wrmask & (1u << c))
			strbuf_addch(sb, comp[c]);
	strbuf_addch(sb, ')');
	dst(sb, d);
	/* alias groups read their first register */
	for (unsigned n = 0; n < i->nsrc; n++) {
		const struct ir3_register *r = i->srcs[n];
		if ((r->flags & IR3_REG_ALIAS) && !(r->flags & IR3_REG_FIRST_ALIAS))
			continue;
		strbuf_addstr(sb, ", ");
		src(sb, i, r);
	}
	if (i->flags & IR3_INSTR_S2EN)
		return;
	if (uses_samp(i->opc))
		strbuf_addf(sb, ", s#%u", i->samp);
	if (uses_tex(i->opc))
		strbuf_addf(sb, ", t#%u", i->tex);
	if (i->off && (i->flags & IR3_INSTR_SSBO))
		strbuf_addf(sb, ", +%d", i->off);	/* isam.v's immediate offset */
}

static void mem_addr(struct strbuf *sb, const struct ir3_instruction *i, char space,
		     const struct ir3_register *base, int off)
{
	strbuf_addf(sb, "%c[", space);
	src(sb, i, base);
	if (off)
		strbuf_addf(sb, "%+d", off);
	strbuf_addch(sb, ']');
}

static int imm_or_zero(const struct ir3_instruction *i, unsigned n)
{
	return n < i->nsrc && (i->srcs[n]->flags & IR3_REG_IMMED) ? i->srcs[n]->iim : 0;
}

static void cat6(struct strbuf *sb, const struct ir3_instruction *i)
{
	const char *name = ir3_op(i->opc)->name;
	const char *type = ir3_type_name(i->type);
	switch (i->opc) {
	case OPC_LDG: case OPC_LDL: case OPC_LDP: case OPC_LDLW:
		strbuf_addf(sb, "%s.%s ", name, type);
		dst(sb, i->dsts[0]);
		strbuf_addstr(sb, ", ");
		mem_addr(sb, i, i->opc == OPC_LDG ? 'g' : i->opc == OPC_LDP ? 'p' : 'l', i->srcs[0],
			 imm_or_zero(i, 1));
		strbuf_addf(sb, ", %d", imm_or_zero(i, 2));
		return;
	case OPC_STG:
		strbuf_addf(sb, "%s.%s ", name, type);
		mem_addr(sb, i, 'g', i->srcs[0], imm_or_zero(i, 1));
		strbuf_addstr(sb, ", ");
		src(sb, i, i->srcs[2]);
		strbuf_addf(sb, ", %d", imm_or_zero(i, 3));
		return;
	case OPC_LDG_A: case OPC_STG_A: {
		/* ldg.a.u32 r0.x, g[r1.x+(r2.x<<2)], 4: a dword offset; on a7xx
		 * (ldg_a_bytes) a byte offset, g[r1.x+r2.x] */
		bool st = i->opc == OPC_STG_A;
		bool bytes = i->ir && i->ir->target && i->ir->target->ldg_a_bytes;
		strbuf_addf(sb, "%s.%s ", name, type);
		if (!st) {
			dst(sb, i->dsts[0]);
			strbuf_addstr(sb, ", ");
		}
		strbuf_addstr(sb, "g[");
		src(sb, i, i->srcs[0]);
		strbuf_addstr(sb, bytes ? "+" : "+(");
		src(sb, i, i->srcs[1]);
		strbuf_addstr(sb, bytes ? "]" : "<<2)]");
		if (st) {
			strbuf_addstr(sb, ", ");
			src(sb, i, i->srcs[2]);
		}
		strbuf_addf(sb, ", %d", imm_or_zero(i, st ? 3 : 2));
		return;
	}
	case OPC_STL: case OPC_STP: case OPC_STLW:
		strbuf_addf(sb, "%s.%s ", name, type);
		mem_addr(sb, i, i->opc == OPC_STP ? 'p' : 'l', i->srcs[0], i->off);
		strbuf_addstr(sb, ", ");
		src(sb, i, i->srcs[1]);
		strbuf_addf(sb, ", %d", imm_or_zero(i, 2));
		return;
	case OPC_LDLV:
		strbuf_addf(sb, "%s.%s ", name, type);
		dst(sb, i->dsts[0]);
		strbuf_addf(sb, ", l[%d], %d", imm_or_zero(i, 0), imm_or_zero(i, 1));
		return;
	case OPC_LDC:
		strbuf_addf(sb, "ldc.offset%d.%u.imm", i->off, i->ndst ? ir3_reg_elems(i->dsts[0]) : 1);
		operands(sb, i, 0);
		return;
	case OPC_STC: case OPC_STSC:
		strbuf_addf(sb, "%s.%s c[%s%d]", name, type, i->nsrc > 2 ? "a1.x+" : "",
			    imm_or_zero(i, 0));
		for (unsigned n = 1; n < i->nsrc && n < 2; n++) {
			strbuf_addstr(sb, ", ");
			src(sb, i, i->srcs[n]);
		}
		if (i->nsrc > 1)
			strbuf_addf(sb, ", %u", ir3_reg_elems(i->srcs[1]));
		return;
	default:
		strbuf_addf(sb, "%s.%s", name, type);
		/* the components loaded, or stored (the value, the last source) */
		if (ir3_has_flag(i, IR3_OP_LOAD) || ir3_has_flag(i, IR3_OP_STORE))
			strbuf_addf(sb, ".%u", i->ndst ? ir3_reg_elems(i->dsts[0])
					      : i->nsrc ? ir3_reg_elems(i->srcs[i->nsrc - 1]) : 1);
		operands(sb, i, 0);
		if (i->off && (i->opc == OPC_LDIB || i->opc == OPC_STIB))
			strbuf_addf(sb, ", +%d", i->off);	/* the immediate offset */
		return;
	}
}

static void instr(struct strbuf *sb, const struct ir3_instruction *i)
{
	flags(sb, i);
	switch (ir3_cat(i)) {
	case 0:
		cat0(sb, i);
		return;
	case 1:
		if (i->opc == OPC_MOV)
			strbuf_addf(sb, "%s.%s%s", i->type == i->dst_type ? "mov" : "cov",
				    ir3_type_name(i->type), ir3_type_name(i->dst_type));
		else if (i->opc == OPC_SWZ || i->opc == OPC_GAT || i->opc == OPC_SCT)
			strbuf_addf(sb, "%s.%s%s", ir3_op(i->opc)->name, ir3_type_name(i->type),
				    ir3_type_name(i->dst_type));
		else
			strbuf_addstr(sb, ir3_op(i->opc)->name);
		operands(sb, i, 0);
		return;
	case 2:
	case 3:
	case 4:
		strbuf_addstr(sb, ir3_op(i->opc)->name);
		if (ir3_has_flag(i, IR3_OP_COND))
			strbuf_addf(sb, ".%s", ir3_cond_name(i->cond));
		operands(sb, i, 0);
		return;
	case 5:
		cat5(sb, i);
		return;
	case 6:
		cat6(sb, i);
		return;
	default:
		if (i->opc == OPC_ALIAS) {
			bool f = ir3_type_is_float(i->type), h = ir3_type_is_half(i->type);
			strbuf_addf(sb, "alias.%s.%c%s.%u",
				    i->alias_scope == ALIAS_RT ? "rt" : i->alias_scope == ALIAS_MEM ? "mem" : "tex",
				    f ? 'f' : 'b', h ? "16" : "32", i->alias_table);
			operands(sb, i, 0);
			return;
		}
		strbuf_addstr(sb, ir3_op(i->opc)->name);
		operands(sb, i, 0);
		return;
	}
}

/* ---- declarations (Mesa's ir3_shader_disasm) ---- */

static const char *input_name(const struct ir3 *ir, const struct ir3_instruction *in)
{
	for (unsigned n = 0; ir->iface && n < ir->iface->num_inputs; n++)
		if (ir->iface->inputs[n].instr == in)
			return ir->iface->inputs[n].name;
	return NULL;
}

/* "vUV.xy": the varying at `inloc` and the next n - 1, after `before`. */
static void varying_name(struct strbuf *sb, const struct ir3 *ir, unsigned inloc, unsigned n,
			 const char *before)
{
	const struct ir3_iface *f = ir->iface;
	if (!f || inloc + n > f->num_varyings || !f->varyings[inloc].name)
		return;
	strbuf_addf(sb, "%s%s.", before, f->varyings[inloc].name);
	for (unsigned k = 0; k < n; k++)
		strbuf_addch(sb, comp[f->varyings[inloc + k].comp & 3]);
}

static void decl_in(struct strbuf *sb, const struct ir3 *ir, const struct ir3_instruction *i,
		    unsigned n)
{
	const struct ir3_register *d = i->dsts[0];
	strbuf_addstr(sb, "@in(");
	ir3_reg_name(sb, d->num, d->flags & IR3_REG_HALF);
	strbuf_addf(sb, ")\tin%u", n);
	if (d->wrmask > 1)
		strbuf_addf(sb, " (wrmask=0x%x)", d->wrmask);
	const char *name = input_name(ir, i);
	if (name)
		strbuf_addf(sb, "\t; %s", name);
	strbuf_addch(sb, '\n');
}

static void decl_tex(struct strbuf *sb, const struct ir3 *ir, const struct ir3_instruction *i)
{
	const struct ir3_register *d = i->dsts[0];
	strbuf_addstr(sb, "@tex(");
	ir3_reg_name(sb, d->num, d->flags & IR3_REG_HALF);
	strbuf_addf(sb, ")\tsrc=%d, samp=%u, tex=%u, wrmask=0x%x, opc=sam", i->off, i->samp, i->tex,
		    d->wrmask);
	varying_name(sb, ir, (unsigned)i->off, 2, "\t; ");
	strbuf_addch(sb, '\n');
}

/* "c2.x-c3.w what" */
static void const_range(struct strbuf *sb, bool *first, unsigned vec4, unsigned n, const char *what)
{
	if (!n)
		return;
	strbuf_addf(sb, "%s c%u.x-c%u.w %s", *first ? "; consts:" : ",", vec4, vec4 + n - 1, what);
	*first = false;
}

/* Where the const file's parts are (the lowering's layout), then the immediates. */
static void const_layout(struct strbuf *sb, const struct ir3 *ir)
{
	const struct ir3_const_layout *l = &ir->iface->layout;
	bool first = true;
	const_range(sb, &first, 0, l->user_vec4, "user");
	for (unsigned k = 0; k < l->num_ranges; k++) {
		const struct ir3_ubo_range *r = &l->ranges[k];
		if (r->offset == ~0u)
			continue;
		char what[64];
		snprintf(what, sizeof(what), "ubo%u[%u:%u]", r->slot, r->start, r->end);
		const_range(sb, &first, r->offset / 16, (r->end - r->start) / 16, what);
	}
	const_range(sb, &first, l->preamble_vec4, l->preamble_size_vec4, "preamble");
	if (l->ubo_ptrs)
		const_range(sb, &first, l->ubo_ptr_vec4, l->driver_vec4 - l->ubo_ptr_vec4, "ubo addresses");
	const_range(sb, &first, l->driver_vec4, (l->num_driver_params + 3) / 4, "driver params");
	if (l->primitive_map_vec4 > l->primitive_param_vec4) {
		const_range(sb, &first, l->primitive_param_vec4,
			    l->primitive_map_vec4 - l->primitive_param_vec4, "primitive params");
		const_range(sb, &first, l->primitive_map_vec4, l->size_vec4 - l->primitive_map_vec4,
			    "primitive map");
	}
	if (ir->nimmediates)
		strbuf_addf(sb, "%s c%u.x- immediates", first ? "; consts:" : ",", ir->const_size);
	else if (first)
		return;
	strbuf_addch(sb, '\n');
}

static void header(struct strbuf *sb, const struct ir3 *ir)
{
	unsigned n = 0;
	foreach_instr(i, ir->first)
		if (i->opc == OPC_META_INPUT)
			decl_in(sb, ir, i, n++);
	foreach_instr(i, ir->first)
		if (i->opc == OPC_META_TEX_PREFETCH)
			decl_tex(sb, ir, i);
	for (unsigned v = 0; v * 4 < ir->nimmediates; v++) {
		strbuf_addf(sb, "@const(c%u.x)\t", ir->const_size + v);
		for (unsigned k = 0; k < 4; k++)
			strbuf_addf(sb, "%s0x%08x", k ? ", " : "",
				    v * 4 + k < ir->nimmediates ? ir->immediates[v * 4 + k] : 0);
		strbuf_addch(sb, '\n');
	}
	if (ir->iface)
		const_layout(sb, ir);
}

/* The name of `end`'s source n: by its colour slot, else in selection's order. */
static const struct ir3_iface_output *output_of(const struct ir3 *ir, const struct ir3_register *src,
						unsigned n)
{
	const struct ir3_iface *f = ir->iface;
	for (unsigned k = 0; f && src->slot >= 0 && k < f->num_outputs; k++)
		if (f->outputs[k].slot == src->slot)
			return &f->outputs[k];
	return f && src->slot < 0 && n < f->num_outputs ? &f->outputs[n] : NULL;
}

static bool in_end(const struct ir3_instruction *end, int slot)
{
	for (unsigned n = 0; end && n < end->nsrc; n++)
		if (end->srcs[n]->slot == slot)
			return true;
	return false;
}

/* What `end` hands on (nothing for a shader that writes only memory). */
static void outputs(struct strbuf *sb, const struct ir3 *ir, const struct ir3_instruction *end)
{
	unsigned aliased = 0;
	for (unsigned k = 0; ir->iface && k < ir->iface->num_outputs; k++)
		aliased += ir->iface->outputs[k].slot >= 0 && !in_end(end, ir->iface->outputs[k].slot);
	if (!aliased && (!end || !end->nsrc))
		return;
	strbuf_addf(sb, "; %s: outputs:", stage_name(ir->stage));
	for (unsigned n = 0; end && n < end->nsrc; n++) {
		const struct ir3_register *r = end->srcs[n];
		const struct ir3_iface_output *o = output_of(ir, r, n);
		strbuf_addch(sb, ' ');
		reg(sb, r);
		if (r->slot >= 0)
			strbuf_addf(sb, " (rt%d.%c%s%s)", r->slot / 4, comp[r->slot & 3], o ? " " : "",
				    o ? o->name : "");
		else if (o)
			strbuf_addf(sb, " (%s)", o->name);
	}
	for (unsigned k = 0; ir->iface && k < ir->iface->num_outputs; k++) {
		const struct ir3_iface_output *o = &ir->iface->outputs[k];
		if (o->slot >= 0 && !in_end(end, o->slot))
			strbuf_addf(sb, " rt%d (%s: alias.rt)", o->slot / 4, o->name);
	}
	strbuf_addch(sb, '\n');
}

/* FS: which varying locations the program reads (bary.f, flat.b, the
 * texture prefetches' coordinates). */
static bool *varyings_read(const struct ir3 *ir, unsigned n)
{
	bool *read = xcalloc(n + 1, sizeof(bool));
	foreach_block(b, ir)
		foreach_instr(i, b) {
			/* (rptN) with (r) on the inloc: the next N too */
			bool in = (i->opc == OPC_BARY_F || i->opc == OPC_FLAT_B) && i->nsrc &&
				  (i->srcs[0]->flags & IR3_REG_IMMED);
			unsigned reps = in && (i->srcs[0]->flags & IR3_REG_R) ? i->repeat : 0;
			for (unsigned k = 0; in && k <= reps; k++)
				if (i->srcs[0]->uim + k < n)
					read[i->srcs[0]->uim + k] = true;
			for (unsigned k = 0; i->opc == OPC_META_TEX_PREFETCH && k < 2; k++)
				if ((unsigned)i->off + k < n)
					read[i->off + k] = true;
		}
	return read;
}

/* FS: the varyings read, a run of locations per declaration. */
static void varyings(struct strbuf *sb, const struct ir3 *ir)
{
	const struct ir3_iface *f = ir->iface;
	unsigned nv = f ? f->num_varyings : 0;
	bool *read = varyings_read(ir, nv), any = false;
	for (unsigned il = 0; il < nv;) {
		const char *name = read[il] ? f->varyings[il].name : NULL;
		unsigned n = 1;
		while (name && il + n < nv && read[il + n] && f->varyings[il + n].name &&
		       !strcmp(f->varyings[il + n].name, name))
			n++;
		if (name) {
			strbuf_addf(sb, "%s il %u", any ? "," : "; fragment: inputs:", il);
			if (n > 1)
				strbuf_addf(sb, "-%u", il + n - 1);
			varying_name(sb, ir, il, n, " ");
			any = true;
		}
		il += n;
	}
	if (any)
		strbuf_addch(sb, '\n');
	free(read);
}

static void footer(struct strbuf *sb, const struct ir3 *ir)
{
	const struct ir3_instruction *end = NULL;
	foreach_block(b, ir)
		foreach_instr(i, b)
			if (i->opc == OPC_END)
				end = i;
	outputs(sb, ir, end);
	if (ir->stage == STAGE_FRAGMENT)
		varyings(sb, ir);
}

void ir3_disasm(struct strbuf *sb, struct ir3 *ir)
{
	unsigned ip = 0;
	foreach_block(b, ir)
		foreach_instr(i, b)
			if (!ir3_is_meta(i))
				i->ip = ip++;
	header(sb, ir);
	foreach_block(b, ir)
		foreach_instr(i, b) {
			if (ir3_is_meta(i))
				continue;
			instr(sb, i);
			strbuf_addch(sb, '\n');
		}
	footer(sb, ir);
}
