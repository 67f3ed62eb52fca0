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
 */
#include "compiler/ir3/ir3_passes.h"

#include <string.h>

static const char comp[] = "xyzw";

static void reg(struct strbuf *sb, const struct ir3_register *r)
{
	if (r->flags & IR3_REG_PREDICATE)
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
		/* ldg.a.u32 r0.x, g[r1.x+(r2.x<<2)], 4 */
		bool st = i->opc == OPC_STG_A;
		strbuf_addf(sb, "%s.%s ", name, type);
		if (!st) {
			dst(sb, i->dsts[0]);
			strbuf_addstr(sb, ", ");
		}
		strbuf_addstr(sb, "g[");
		src(sb, i, i->srcs[0]);
		strbuf_addstr(sb, "+(");
		src(sb, i, i->srcs[1]);
		strbuf_addstr(sb, "<<2)]");
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
		strbuf_addf(sb, "%s.%s c[%d]", name, type, imm_or_zero(i, 0));
		for (unsigned n = 1; n < i->nsrc; n++) {
			strbuf_addstr(sb, ", ");
			src(sb, i, i->srcs[n]);
		}
		if (i->nsrc > 1)
			strbuf_addf(sb, ", %u", ir3_reg_elems(i->srcs[1]));
		return;
	default:
		strbuf_addf(sb, "%s.%s", name, type);
		if (ir3_has_flag(i, IR3_OP_LOAD) || ir3_has_flag(i, IR3_OP_STORE))
			strbuf_addf(sb, ".%u", i->ndst ? ir3_reg_elems(i->dsts[0]) : 1);
		operands(sb, i, 0);
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

void ir3_disasm(struct strbuf *sb, struct ir3 *ir)
{
	unsigned ip = 0;
	foreach_block(b, ir)
		foreach_instr(i, b)
			if (!ir3_is_meta(i))
				i->ip = ip++;
	foreach_block(b, ir)
		foreach_instr(i, b) {
			if (ir3_is_meta(i))
				continue;
			instr(sb, i);
			strbuf_addch(sb, '\n');
		}
}
