/*
 * The disassembly in etnaviv's assembly syntax (Mesa's src/etnaviv/isa,
 * tests/disasm.cpp), one instruction per line after allocation:
 *
 *	mul               t1.xy__, t1.xyyy, u0.xxxx, void
 *	texld             t2, tex0.xyzw, t1.xyyy, void, void
 *	branch.not.u32    void, t3.xxxx, void, void, 7
 *
 * The opcode with its condition, saturation, type and rounding, padded to
 * 17 columns; the destination (a full write mask prints no suffix) and the
 * three sources (void when unused); texture fetches name their sampler
 * after the destination, branches their target last.
 */
#include <stdio.h>
#include <string.h>

#include "compiler/etna/etna.h"

static const char comp[] = "xyzw";

static void print_swiz(struct strbuf *out, const uint8_t *swiz)
{
	strbuf_addch(out, '.');
	for (unsigned c = 0; c < 4; c++)
		strbuf_addch(out, comp[swiz[c] & 3]);
}

static void print_imm(struct strbuf *out, const struct etna_src *s)
{
	switch (s->imm_type) {
	case ETNA_IMM_FLOAT20: {
		union { uint32_t u; float f; } v = { .u = s->imm << 12 };
		strbuf_addf(out, "%f", (double)v.f);
		break;
	}
	case ETNA_IMM_INT20:
		strbuf_addf(out, "%d", (int32_t)(s->imm << 12) >> 12);
		break;
	default:
		strbuf_addf(out, "%u", s->imm);
		break;
	}
}

static void print_src(struct strbuf *out, const struct etna_src *s)
{
	switch (s->file) {
	case ETNA_FILE_NONE:
		strbuf_addstr(out, "void");
		return;
	case ETNA_FILE_IMMED:
		if (s->neg)
			strbuf_addch(out, '-');
		print_imm(out, s);
		return;
	default:
		break;
	}
	strbuf_addstr(out, s->neg ? "-" : "");
	strbuf_addstr(out, s->abs ? "|" : "");
	switch (s->file) {
	case ETNA_FILE_TEMP:
		strbuf_addf(out, "t%u", s->reg);
		break;
	case ETNA_FILE_UNIFORM:
		strbuf_addf(out, "u%u%s", s->reg, s->rel ? "[a.x]" : "");
		break;
	default:
		strbuf_addstr(out, "i0");
		break;
	}
	print_swiz(out, s->swiz);
	strbuf_addstr(out, s->abs ? "|" : "");
}

static void print_dst(struct strbuf *out, const struct etna_dst *d)
{
	if (d->file == ETNA_FILE_NONE) {
		strbuf_addstr(out, "void");
		return;
	}
	if (d->file == ETNA_FILE_ADDR)
		strbuf_addstr(out, "a0");
	else
		strbuf_addf(out, "t%u", d->reg);
	if (d->mask == 0xf)
		return;
	strbuf_addch(out, '.');
	for (unsigned c = 0; c < 4; c++)
		strbuf_addch(out, d->mask & (1u << c) ? comp[c] : '_');
}

static void print_instr(struct strbuf *out, const struct etna_shader *s,
			const struct etna_instr *in)
{
	const struct etna_op_info *info = &etna_op_infos[in->opc];
	char name[64];
	size_t n = (size_t)snprintf(name, sizeof(name), "%s", info->name);
	if (in->cond)
		n += (size_t)snprintf(name + n, sizeof(name) - n, ".%s", etna_cond_names[in->cond]);
	if (in->sat)
		n += (size_t)snprintf(name + n, sizeof(name) - n, ".sat");
	if (in->type)
		n += (size_t)snprintf(name + n, sizeof(name) - n, ".%s", etna_type_names[in->type]);
	if (in->rounding == ETNA_ROUND_RTZ)
		snprintf(name + n, sizeof(name) - n, ".rtz");
	strbuf_addf(out, "%-17s ", name);
	print_dst(out, &in->dst);
	if (info->flags & ETNA_TEX) {
		strbuf_addf(out, ", tex%u", in->tex_id);
		print_swiz(out, in->tex_swiz);
	}
	/* a branch's target takes the place of src2 */
	unsigned nsrc = in->opc == ETNA_OP_branch ? 2 : 3;
	for (unsigned k = 0; k < nsrc; k++) {
		strbuf_addstr(out, ", ");
		print_src(out, &in->src[k]);
	}
	if (in->opc == ETNA_OP_branch)
		strbuf_addf(out, ", %u", in->target ? in->target->ip : s->num_instrs);
	strbuf_addch(out, '\n');
}

void etna_disasm(struct strbuf *out, const struct etna_shader *s)
{
	etna_foreach_block(b, s)
		etna_foreach_instr(in, b)
			if (!(etna_op_infos[in->opc].flags & ETNA_META))
				print_instr(out, s, in);
}
