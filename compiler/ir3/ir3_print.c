/*
 * The text form of the machine IR, as written: ir3_parse.c reads exactly
 * this, so any dump can become a test.  A shader is a few header lines and
 * then blocks:
 *
 *	stage frag
 *	consts 1
 *
 *	b0:
 *		%0.xy = input bary
 *		%1 = bary.f 0, %0
 *		%2 = mul.f %1, c0.x
 *		end %2
 *
 * Values are `%N` (full), `h%N` (half), `p%N` (predicate), `a%N` (address),
 * with a component mask (`.xyzw`, or `[8]` for longer vectors) on their
 * definition.  After register allocation each GPR operand also shows its
 * register (`%2:r0.y`); copies RA inserts have no names (`(copy) r1.x = mov.u32u32 r0.x`).
 * An ir3 array value carries `{arrI:L}` (array I, L components); an access
 * of one element adds `[k]` or `[a%N + k]` (through a0.x), and its register
 * is the array's first (`%7{arr0:8}[a%5 + 2]:r1.x` reads r<a0.x + 6>).  An
 * array write names the array it updates as a `(tied)` source.
 * Before legalisation `br` names both successors (`br p%3, b1, b2`);
 * afterwards (header `legalized`) each branch names its own target and the
 * CFG follows the branches and fall-through.
 */
#include "compiler/ir3/ir3.h"

#include <stdio.h>
#include <string.h>

static const char comp_names[] = "xyzw";

static void print_block_name(struct strbuf *sb, const struct ir3_block *b)
{
	strbuf_addf(sb, "b%u", b->index);
}

static void print_mask(struct strbuf *sb, unsigned wrmask)
{
	unsigned n = ir3_reg_elems(&(struct ir3_register){ .wrmask = wrmask });
	if (n == 1 && wrmask == 1)
		return;
	if (n > 4) {
		strbuf_addf(sb, "[%u]", n);
		return;
	}
	strbuf_addch(sb, '.');
	for (unsigned c = 0; c < 4; c++)
		if (wrmask & (1u << c))
			strbuf_addch(sb, comp_names[c]);
}

static const char *class_prefix(unsigned flags)
{
	if (flags & IR3_REG_PREDICATE)
		return "p";
	if (flags & IR3_REG_ADDR)
		return "a";
	if (flags & IR3_REG_SHARED)
		return "s";
	if (flags & IR3_REG_HALF)
		return "h";
	return "";
}

/* A physical register: r1.y, hr0.z, p0.x, a0.x, rt2.w. */
static void print_phys(struct strbuf *sb, unsigned flags, unsigned num)
{
	if (flags & IR3_REG_PREDICATE)
		strbuf_addf(sb, "p0.%c", comp_names[num & 3]);
	else if (flags & IR3_REG_ADDR)
		strbuf_addf(sb, "a%u.x", num);
	else if (flags & IR3_REG_RT)
		strbuf_addf(sb, "rt%u.%c", num >> 2, comp_names[num & 3]);
	else
		ir3_reg_name(sb, num, flags & IR3_REG_HALF);
}

static void print_float(struct strbuf *sb, float f)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%.9g", (double)f);
	strbuf_addstr(sb, buf);
	if (!strpbrk(buf, ".eni"))
		strbuf_addstr(sb, ".0");
}

static float half_to_float(uint16_t h)
{
	unsigned sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
	float f;
	if (exp == 0)
		f = (float)mant / 1024.0f / 16384.0f;
	else if (exp == 31)
		f = mant ? 0.0f / 0.0f : 1.0f / 0.0f;
	else
		f = (1.0f + (float)mant / 1024.0f) * (float)(exp >= 15 ? 1u << (exp - 15) : 1) /
		    (float)(exp < 15 ? 1u << (15 - exp) : 1);
	return sign ? -f : f;
}

/* Whether `i` reads its immediates as floats (for printing them). */
static bool float_immediates(const struct ir3_instruction *i)
{
	if (ir3_has_flag(i, IR3_OP_FLOAT))
		return true;
	if (i->opc == OPC_MOV || i->opc == OPC_ALIAS)
		return ir3_type_is_float(i->type);
	return false;
}

static void print_imm(struct strbuf *sb, const struct ir3_instruction *i, const struct ir3_register *r)
{
	if (float_immediates(i)) {
		float f;
		if (r->flags & IR3_REG_HALF) {
			strbuf_addch(sb, 'h');
			f = half_to_float((uint16_t)r->uim);
		} else {
			memcpy(&f, &r->uim, 4);
		}
		strbuf_addch(sb, '(');
		print_float(sb, f);
		strbuf_addch(sb, ')');
	} else {
		strbuf_addf(sb, "%d", r->iim);
	}
}

static void print_mods(struct strbuf *sb, unsigned flags)
{
	if (flags & (IR3_REG_FNEG | IR3_REG_SNEG))
		strbuf_addstr(sb, "(neg)");
	if (flags & (IR3_REG_FABS | IR3_REG_SABS))
		strbuf_addstr(sb, "(abs)");
	if (flags & IR3_REG_BNOT)
		strbuf_addstr(sb, "(not)");
	if (flags & IR3_REG_R)
		strbuf_addstr(sb, "(r)");
	if (flags & IR3_REG_ALIAS)
		strbuf_addstr(sb, (flags & IR3_REG_FIRST_ALIAS) ? "(alias1)" : "(alias)");
	if (flags & IR3_REG_TIED)
		strbuf_addstr(sb, "(tied)");
}

static void print_value(struct strbuf *sb, const struct ir3_register *def, const struct ir3_register *r);

/* {arrI:L}, and [k] / [a%N + k] for an access of one element. */
static void print_array(struct strbuf *sb, const struct ir3_register *r)
{
	if (!(r->flags & IR3_REG_ARRAY))
		return;
	strbuf_addf(sb, "{arr%u:%u}", r->array_id, r->size);
	if (!ir3_reg_is_array_access(r))
		return;
	strbuf_addch(sb, '[');
	if (r->flags & IR3_REG_RELATIV) {
		const struct ir3_instruction *i = r->instr;
		if (i->address && i->address->ndst) {
			const struct ir3_register *a = i->address->dsts[0];
			print_value(sb, a, a);
		} else {
			strbuf_addstr(sb, "a0.x");
		}
		strbuf_addstr(sb, " + ");
	}
	strbuf_addf(sb, "%d]", r->rel_offset);
}

static void print_value(struct strbuf *sb, const struct ir3_register *def, const struct ir3_register *r)
{
	strbuf_addf(sb, "%s%%%u", class_prefix(def->flags), def->name);
	if (r != def)
		print_array(sb, r);
	if (r->flags & IR3_REG_ASSIGNED) {
		strbuf_addch(sb, ':');
		print_phys(sb, r->flags, r->num);
	}
}

static void print_const(struct strbuf *sb, const struct ir3_instruction *i, const struct ir3_register *r)
{
	const char *h = (r->flags & IR3_REG_HALF) ? "h" : "";
	if (r->flags & IR3_REG_RELATIV) {
		strbuf_addf(sb, "%sc<", h);
		if (i->address && i->address->ndst) {
			const struct ir3_register *a = i->address->dsts[0];
			print_value(sb, a, a);
		} else {
			strbuf_addstr(sb, "a0.x");
		}
		strbuf_addf(sb, " + %d>", r->rel_offset);
	} else {
		strbuf_addf(sb, "%sc%u.%c", h, r->num >> 2, comp_names[r->num & 3]);
	}
}

static void print_src(struct strbuf *sb, const struct ir3_instruction *i, const struct ir3_register *r)
{
	if (i->opc == OPC_META_PHI && r->pred) {
		print_block_name(sb, r->pred);
		strbuf_addstr(sb, ": ");
	}
	if (r->slot >= 0)
		strbuf_addf(sb, "rt%d.%c=", r->slot >> 2, comp_names[r->slot & 3]);
	print_mods(sb, r->flags);
	if (r->flags & IR3_REG_IMMED)
		print_imm(sb, i, r);
	else if (r->flags & IR3_REG_CONST)
		print_const(sb, i, r);
	else if (r->def)
		print_value(sb, r->def, r);
	else {
		print_phys(sb, r->flags, r->num);
		print_array(sb, r);
	}
}

static void print_dst(struct strbuf *sb, const struct ir3_register *r)
{
	if (r->flags & IR3_REG_EI)
		strbuf_addstr(sb, "(ei)");
	if (r->flags & IR3_REG_SSA) {
		strbuf_addf(sb, "%s%%%u", class_prefix(r->flags), r->name);
		if (r->flags & IR3_REG_ARRAY)
			print_array(sb, r);
		else
			print_mask(sb, r->wrmask);
		if (r->flags & IR3_REG_ASSIGNED) {
			strbuf_addch(sb, ':');
			print_phys(sb, r->flags, r->num);
		}
	} else {
		print_phys(sb, r->flags, r->num);
		if (r->flags & IR3_REG_ARRAY)
			print_array(sb, r);
		else
			print_mask(sb, r->wrmask);
	}
}

static void print_opname(struct strbuf *sb, const struct ir3_instruction *i)
{
	const struct ir3_opc_info *op = ir3_op(i->opc);
	if (i->opc == OPC_MOV) {
		strbuf_addf(sb, "%s.%s%s", i->type == i->dst_type ? "mov" : "cov",
			    ir3_type_name(i->type), ir3_type_name(i->dst_type));
		return;
	}
	if (i->opc == OPC_SWZ || i->opc == OPC_GAT || i->opc == OPC_SCT) {
		strbuf_addf(sb, "%s.%s%s", op->name, ir3_type_name(i->type), ir3_type_name(i->dst_type));
		return;
	}
	if (i->opc == OPC_ALIAS) {
		bool f = ir3_type_is_float(i->type);
		strbuf_addf(sb, "alias.%s.%c%s",
			    i->alias_scope == ALIAS_RT ? "rt" : i->alias_scope == ALIAS_MEM ? "mem" : "tex",
			    f ? 'f' : 'b', ir3_type_is_half(i->type) ? "16" : "32");
		return;
	}
	strbuf_addstr(sb, op->name);
	if (op->flags & IR3_OP_COND)
		strbuf_addf(sb, ".%s", ir3_cond_name(i->cond));
	if (op->cat == 5) {
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
			strbuf_addstr(sb, ".s2en");
	}
	if (op->cat == 5 || op->cat == 6 || i->opc == OPC_META_TEX_PREFETCH)
		strbuf_addf(sb, ".%s", ir3_type_name(i->type));
}

static void print_flags(struct strbuf *sb, const struct ir3_instruction *i)
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
	if (i->repeat)
		strbuf_addf(sb, "(rpt%u)", i->repeat);
	if (i->nop)
		strbuf_addf(sb, "(nop%u)", i->nop);
	if (i->flags & IR3_INSTR_COPY)
		strbuf_addstr(sb, "(copy)");
}

/* The targets a branch names in the text form. */
static void print_targets(struct strbuf *sb, const struct ir3_instruction *i, bool *first)
{
	const struct ir3_block *b = i->block;
	bool legalized = i->ir && i->ir->legalized;
	if (!ir3_is_flow(i))
		return;
	if (!legalized && ir3_is_terminator(i) && ir3_block_terminator((struct ir3_block *)b) == i) {
		for (int s = 0; s < 2; s++) {
			if (!b->succ[s])
				continue;
			strbuf_addstr(sb, *first ? " " : ", ");
			print_block_name(sb, b->succ[s]);
			*first = false;
		}
	} else if (i->target) {
		strbuf_addstr(sb, *first ? " " : ", ");
		print_block_name(sb, i->target);
		*first = false;
	}
}

void ir3_print_instr(struct strbuf *sb, const struct ir3_instruction *i)
{
	const struct ir3_opc_info *op = ir3_op(i->opc);
	bool first = true;

	size_t start = sb->len;
	print_flags(sb, i);
	if (sb->len != start)
		strbuf_addch(sb, ' ');
	for (unsigned n = 0; n < i->ndst; n++) {
		if (n)
			strbuf_addstr(sb, ", ");
		print_dst(sb, i->dsts[n]);
	}
	if (i->ndst)
		strbuf_addstr(sb, " = ");
	print_opname(sb, i);
	for (unsigned n = 0; n < i->nsrc; n++) {
		strbuf_addstr(sb, first ? " " : ", ");
		if (n == 0 && (i->flags & IR3_INSTR_INV))
			strbuf_addch(sb, '!');
		print_src(sb, i, i->srcs[n]);
		first = false;
	}
	if (i->opc == OPC_META_INPUT && i->bary_input) {
		strbuf_addstr(sb, " bary");
		first = false;
	}
	if (i->opc == OPC_META_SPLIT || i->opc == OPC_META_TEX_PREFETCH || i->opc == OPC_META_SPILL ||
	    (i->off && (op->cat == 6 || (i->flags & IR3_INSTR_SSBO)))) {
		strbuf_addf(sb, "%soff=%d", first ? " " : ", ", i->off);
		first = false;
	}
	if ((op->cat == 5 || i->opc == OPC_META_TEX_PREFETCH) && i->ndst) {
		strbuf_addf(sb, "%ss#%u, t#%u", first ? " " : ", ", i->samp, i->tex);
		first = false;
	}
	if (i->opc == OPC_ALIAS && i->alias_table) {
		strbuf_addf(sb, "%stable=%u", first ? " " : ", ", i->alias_table);
		first = false;
	}
	print_targets(sb, i, &first);
}

void ir3_print(struct strbuf *sb, const struct ir3 *ir)
{
	ir3_index_blocks((struct ir3 *)ir);
	strbuf_addf(sb, "stage %s\n", stage_name(ir->stage));
	if (ir->const_size)
		strbuf_addf(sb, "consts %u\n", ir->const_size);
	if (ir->nimmediates) {
		strbuf_addstr(sb, "immediates");
		for (unsigned n = 0; n < ir->nimmediates; n++)
			strbuf_addf(sb, " 0x%08x", ir->immediates[n]);
		strbuf_addch(sb, '\n');
	}
	if (ir->local_size[0])
		strbuf_addf(sb, "local_size %u %u %u\n", ir->local_size[0], ir->local_size[1],
			    ir->local_size[2]);
	if (ir->shared_size)
		strbuf_addf(sb, "shared_size %u\n", ir->shared_size);
	if (ir->pvtmem_size)
		strbuf_addf(sb, "pvtmem_size %u\n", ir->pvtmem_size);
	if (ir->branchstack >= 0)
		strbuf_addf(sb, "branchstack %d\n", ir->branchstack);
	if (ir->loops >= 0)
		strbuf_addf(sb, "loops %d\n", ir->loops);
	if (ir->need_pixlod)
		strbuf_addstr(sb, "pixlod\n");
	if (ir->legalized)
		strbuf_addstr(sb, "legalized\n");
	foreach_block(b, ir) {
		strbuf_addch(sb, '\n');
		print_block_name(sb, b);
		strbuf_addstr(sb, ":\n");
		foreach_instr(i, b) {
			strbuf_addch(sb, '\t');
			ir3_print_instr(sb, i);
			strbuf_addch(sb, '\n');
		}
	}
}
