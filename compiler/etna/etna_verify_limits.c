/*
 * etna_verify_limits: an independent check that the program fits its GPU
 * (../../shared/reference/targets.md §4.2), counted from the program
 * itself, not from the statistics: instructions without an instruction
 * cache, temporaries, uniform vec4s read, samplers, VS outputs and FS
 * varyings, branch targets, and no integer instruction or immediate where
 * the core has none.
 */
#include "compiler/etna/etna_ra.h"

static bool failf(struct strbuf *err, const char *what, unsigned got, unsigned max)
{
	strbuf_addf(err, "%s: %u, the limit is %u", what, got, max);
	return false;
}

bool etna_verify_limits(const struct etna_shader *s, struct strbuf *err)
{
	const struct etna_info *t = s->info;
	bool vs = s->stage == STAGE_VERTEX;
	unsigned instrs = 0, temps = 0, uniforms = 0, samplers = 0;
	unsigned max_samplers = vs ? t->vertex_sampler_offset + t->vertex_sampler_count
				   : t->fragment_sampler_count;
	etna_foreach_block(b, s)
		etna_foreach_instr(in, b) {
			unsigned f = etna_op_infos[in->opc].flags;
			if (f & ETNA_META)
				continue;
			instrs++;
			if ((f & ETNA_INT) && !t->has_integers) {
				strbuf_addf(err, "instruction %u: %s needs integer support", in->ip,
					    etna_op_infos[in->opc].name);
				return false;
			}
			if (in->dst.file == ETNA_FILE_TEMP && in->dst.reg + 1u > temps)
				temps = in->dst.reg + 1u;
			for (unsigned k = 0; k < 3; k++) {
				const struct etna_src *src = &in->src[k];
				if (src->file == ETNA_FILE_TEMP && src->reg + 1u > temps)
					temps = src->reg + 1u;
				if (src->file == ETNA_FILE_UNIFORM && !src->rel && src->reg + 1u > uniforms)
					uniforms = src->reg + 1u;
				if (src->file == ETNA_FILE_IMMED && !t->has_immediates) {
					strbuf_addf(err, "instruction %u: an immediate before HALTI2", in->ip);
					return false;
				}
			}
			if ((f & ETNA_TEX) && in->tex_id + 1 > samplers)
				samplers = in->tex_id + 1;
			if (in->target && in->target->ip > s->num_instrs)
				return failf(err, "branch target", in->target->ip, s->num_instrs);
		}
	if (instrs != s->num_instrs)
		return failf(err, "instructions laid out", instrs, s->num_instrs);
	if (!t->has_icache && instrs > t->max_instructions)
		return failf(err, "instructions", instrs, t->max_instructions);
	if (temps > t->max_temps)
		return failf(err, "temporaries", temps, t->max_temps);
	if (temps > s->num_temps && !(s->stage == STAGE_FRAGMENT && temps == 1))
		return failf(err, "temporaries used beyond the temps statistic", temps, s->num_temps);
	if (uniforms > s->const_count)
		return failf(err, "uniform vec4 read beyond the uniform image", uniforms,
			     s->const_count);
	if (s->const_count > (vs ? t->max_vs_uniforms : t->max_ps_uniforms))
		return failf(err, "uniform vec4", s->const_count,
			     vs ? t->max_vs_uniforms : t->max_ps_uniforms);
	if (samplers > max_samplers)
		return failf(err, "sampler", samplers, max_samplers);
	if (vs && s->num_outputs + 1 + s->has_point_size > t->max_vs_outputs)
		return failf(err, "VS outputs", s->num_outputs + 1 + s->has_point_size,
			     t->max_vs_outputs);
	if (!vs && s->num_inputs > t->max_varyings)
		return failf(err, "varyings", s->num_inputs, t->max_varyings);
	return true;
}
