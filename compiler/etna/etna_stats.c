/*
 * etna_collect_stats: Mesa's shader-db line for etnaviv
 * (../../shared/reference/targets.md §4.3, etnaviv_shader.c
 * dump_shader_info) plus counts of our own, by the IDs of stats/stats.def:
 *
 *	instructions  code_size / 4: the 128-bit instructions
 *	temps         num_temps from allocation (an FS counts t0)
 *	immediates    the uniform image's 32-bit words (its vec4 × 4)
 *	loops         the loops in the program (Mesa's field is always 0)
 *	nops          nop instructions: only an empty shader's one (the
 *	              hardware interlocks; Mesa inserts none)
 *	texture       texture fetches
 */
#include "compiler/etna/etna.h"

void etna_collect_stats(const struct etna_shader *s, struct stat_values *v)
{
	unsigned nops = 0, texture = 0;
	etna_foreach_block(b, s)
		etna_foreach_instr(in, b) {
			nops += in->opc == ETNA_OP_nop;
			texture += (etna_op_infos[in->opc].flags & ETNA_TEX) != 0;
		}
	stat_set(v, STAT_INSTRUCTIONS, s->num_instrs);
	stat_set(v, STAT_TEMPS, s->num_temps);
	stat_set(v, STAT_IMMEDIATES, s->const_count * 4);
	stat_set(v, STAT_LOOPS, s->num_loops);
	stat_set(v, STAT_NOPS, nops);
	stat_set(v, STAT_TEXTURE, texture);
}
