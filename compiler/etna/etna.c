/*
 * The etnaviv machine IR (etna.h): the opcode table, construction, and the
 * printer of the form before register assignment (values as %N).
 */
#include "compiler/etna/etna.h"

#include "compiler/util/error.h"

const struct etna_op_info etna_op_infos[ETNA_OP_COUNT] = {
#define ETNA_OP(n, s, f) [ETNA_OP_##n] = { .name = #n, .srcs = (s), .flags = (f) },
#include "compiler/etna/etna_ops.def"
#undef ETNA_OP
	[ETNA_OP_input] = { .name = "input", .srcs = 0, .flags = ETNA_META },
	[ETNA_OP_output] = { .name = "output", .srcs = 4, .flags = ETNA_META },
	[ETNA_OP_undef] = { .name = "undef", .srcs = 0, .flags = ETNA_META },
};

const char *const etna_type_names[] = {
#define X(n) #n,
	ETNA_TYPES(X)
#undef X
};

const char *const etna_cond_names[] = {
#define X(n) #n,
	ETNA_CONDS(X)
#undef X
};

struct etna_shader *etna_shader_create(struct arena *a, enum shader_stage stage,
				       const struct etna_info *info)
{
	struct etna_shader *s = arena_new(a, struct etna_shader);
	s->arena = a;
	s->stage = stage;
	s->info = info;
	list_init(&s->blocks);
	return s;
}

void etna_shader_release(struct etna_shader *s)
{
	if (!s)
		return;
	etna_foreach_block(b, s)
		array_free(&b->preds);
	array_free(&s->values);
}

struct etna_block *etna_block_create(struct etna_shader *s)
{
	struct etna_block *b = arena_new(s->arena, struct etna_block);
	list_init(&b->instrs);
	b->shader = s;
	b->index = s->num_blocks++;
	list_add_tail(&s->blocks, &b->link);
	return b;
}

struct etna_instr *etna_instr_create(struct etna_block *b, enum etna_opc opc)
{
	struct etna_instr *i = arena_new(b->shader->arena, struct etna_instr);
	i->opc = opc;
	i->block = b;
	i->dst.value = ETNA_NO_VALUE;
	for (unsigned s = 0; s < 3; s++)
		i->src[s].value = ETNA_NO_VALUE;
	list_add_tail(&b->instrs, &i->link);
	return i;
}

unsigned etna_value_create(struct etna_shader *s, unsigned n)
{
	if (n < 1 || n > 4)
		BUG("a value of %u components", n);
	struct etna_value *v = array_push_zero(&s->values);
	v->num_components = (uint8_t)n;
	v->cls = (uint8_t)(ETNA_CLASS_SCALAR + n - 1);
	v->forced = -1;
	return (unsigned)(s->values.len - 1);
}

void etna_block_add_pred(struct etna_block *b, struct etna_block *pred)
{
	for (size_t i = 0; i < b->preds.len; i++)
		if (b->preds.data[i] == pred)
			return;
	array_push(&b->preds, pred);
}

/* ---- printing before assignment ---- */

static const char comp_names[] = "xyzw";

static void print_src(struct strbuf *out, const struct etna_instr *in, unsigned slot)
{
	const struct etna_src *s = &in->src[slot];
	if (s->file == ETNA_FILE_NONE) {
		strbuf_addstr(out, "void");
		return;
	}
	strbuf_addstr(out, s->neg ? "-" : "");
	strbuf_addstr(out, s->abs ? "|" : "");
	switch (s->file) {
	case ETNA_FILE_TEMP:
		if (s->fixed)
			strbuf_addf(out, "t%u", s->reg);
		else
			strbuf_addf(out, "%%%u", s->value);
		break;
	case ETNA_FILE_UNIFORM:
		strbuf_addf(out, "u%u%s", s->reg, s->rel ? "[a.x]" : "");
		break;
	case ETNA_FILE_IMMED:
		strbuf_addf(out, "#%u:0x%x", s->imm_type, s->imm);
		break;
	case ETNA_FILE_INTERNAL:
		strbuf_addstr(out, "i0");
		break;
	}
	if (s->file != ETNA_FILE_IMMED && s->file != ETNA_FILE_INTERNAL) {
		strbuf_addch(out, '.');
		for (unsigned c = 0; c < 4; c++) {
			unsigned k = s->swiz[c];
			if (s->file == ETNA_FILE_UNIFORM)
				k = s->cmap[k];
			strbuf_addch(out, comp_names[k & 3]);
		}
	}
	strbuf_addstr(out, s->abs ? "|" : "");
}

static void print_instr(struct strbuf *out, const struct etna_instr *in)
{
	const struct etna_op_info *info = &etna_op_infos[in->opc];
	strbuf_addf(out, "\t%s", info->name);
	if (in->cond)
		strbuf_addf(out, ".%s", etna_cond_names[in->cond]);
	if (in->type)
		strbuf_addf(out, ".%s", etna_type_names[in->type]);
	if (in->sat)
		strbuf_addstr(out, ".sat");
	strbuf_addch(out, ' ');
	if (in->dst.file == ETNA_FILE_TEMP) {
		strbuf_addf(out, "%%%u.", in->dst.value);
		for (unsigned k = 0; k < 4; k++)
			strbuf_addch(out, in->dst.mask & (1u << k) ? comp_names[in->dst.map[k] & 3] : '_');
	} else {
		strbuf_addstr(out, in->dst.file == ETNA_FILE_ADDR ? "a0.x" : "void");
	}
	for (unsigned s = 0; s < 3; s++) {
		strbuf_addstr(out, ", ");
		print_src(out, in, s);
	}
	if (info->flags & ETNA_TEX)
		strbuf_addf(out, ", tex%u", in->tex_id);
	if (in->target)
		strbuf_addf(out, ", b%u", in->target->index);
	strbuf_addch(out, '\n');
}

void etna_print(struct strbuf *out, const struct etna_shader *s)
{
	strbuf_addf(out, "; %s, %zu values\n", stage_name(s->stage), s->values.len);
	etna_foreach_block(b, s) {
		strbuf_addf(out, "b%u:", b->index);
		for (size_t p = 0; p < b->preds.len; p++)
			strbuf_addf(out, "%s b%u", p ? "," : "  # preds:", b->preds.data[p]->index);
		strbuf_addch(out, '\n');
		etna_foreach_instr(i, b)
			print_instr(out, i);
	}
}
