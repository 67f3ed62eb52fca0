/*
 * link_program() (link.h): match, drop, pack, for each producer → consumer
 * pair of graphics stages in pipeline order.
 *
 * Matching: a consumer input and a producer output are the same varying
 * when they are the same builtin (and both per-patch or not), or — for the
 * others — when their names are equal (by_name), or when their locations
 * and components overlap.  A matched input takes the output's location and
 * component.
 *
 * Dropping: an output no input of the next stage matches is removed with
 * its stores — unless the producer reads it back (a tessellation control
 * shader may), it is a tessellation level (the fixed-function tessellator
 * reads those), or the consumer is the fragment shader and the output is
 * one rasterisation needs (position, point size, clip and cull distances,
 * layer, viewport, shading rate).
 *
 * Packing: the locations the surviving non-builtin outputs use are
 * renumbered densely in their order (components stay), so `out vec4 a`
 * at location 3 and `out vec2 b` at location 7, component 2, become
 * locations 0 and 1.  Inputs without a producer are moved after them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/link/link.h"

static bool is_graphics(enum shader_stage s)
{
	return s == STAGE_VERTEX || s == STAGE_TESS_CTRL || s == STAGE_TESS_EVAL ||
	       s == STAGE_GEOMETRY || s == STAGE_FRAGMENT;
}

static unsigned slots(const struct io_decl *d)
{
	return decl_num_slots(d->array_size);
}

static bool overlap(const struct io_decl *a, const struct io_decl *b)
{
	if (a->location + (int)slots(a) <= b->location || b->location + (int)slots(b) <= a->location)
		return false;
	return a->component < b->component + b->num_components &&
	       b->component < a->component + a->num_components;
}

/* The producer output an input reads, or -1. */
static int find_output(const struct shader *p, const struct io_decl *in, const struct link_options *o)
{
	if (in->builtin != BUILTIN_none) {
		for (unsigned i = 0; i < p->num_outputs; i++)
			if (p->outputs[i]->builtin == in->builtin && p->outputs[i]->patch == in->patch)
				return (int)i;
		return -1;
	}
	if (o->by_name && in->name) {
		for (unsigned i = 0; i < p->num_outputs; i++)
			if (p->outputs[i]->builtin == BUILTIN_none && p->outputs[i]->name &&
			    !strcmp(p->outputs[i]->name, in->name))
				return (int)i;
		return -1;
	}
	for (unsigned i = 0; i < p->num_outputs; i++)
		if (p->outputs[i]->builtin == BUILTIN_none && p->outputs[i]->patch == in->patch &&
		    overlap(p->outputs[i], in))
			return (int)i;
	return -1;
}

/* Builtins the hardware after the last geometry stage reads. */
static bool raster_builtin(enum builtin b)
{
	switch (b) {
	case BUILTIN_position: case BUILTIN_point_size: case BUILTIN_clip_distance:
	case BUILTIN_cull_distance: case BUILTIN_layer: case BUILTIN_viewport:
	case BUILTIN_primitive_shading_rate:
		return true;
	default:
		return false;
	}
}

static bool is_output_store(const struct intrinsic_instr *intr)
{
	return intr->op == INTR_store_output || intr->op == INTR_store_per_vertex_output;
}

static bool is_output_load(const struct intrinsic_instr *intr)
{
	return intr->op == INTR_load_output || intr->op == INTR_load_per_vertex_output;
}

/* Outputs the shader reads back itself. */
static void outputs_read(struct shader *s, bool *read)
{
	foreach_block(b, s->fn)
		foreach_instr(i, b)
			if (i->type == INSTR_intrinsic && is_output_load(instr_as_intrinsic(i)))
				read[intrinsic_get(instr_as_intrinsic(i), INTR_IDX_base)] = true;
}

/* Remove the outputs not kept, with their stores, and renumber the rest. */
static bool drop_outputs(struct shader *s, const bool *keep)
{
	unsigned n = s->num_outputs, *map = xmalloc((n + 1) * sizeof(*map)), k = 0;
	bool changed = false;
	for (unsigned i = 0; i < n; i++) {
		map[i] = k;
		if (keep[i])
			s->outputs[k++] = s->outputs[i];
		else
			changed = true;
	}
	if (!changed) {
		free(map);
		return false;
	}
	foreach_block(b, s->fn) {
		foreach_instr_safe(i, b) {
			if (i->type != INSTR_intrinsic)
				continue;
			struct intrinsic_instr *intr = instr_as_intrinsic(i);
			if (!is_output_store(intr) && !is_output_load(intr))
				continue;
			unsigned base = (unsigned)intrinsic_get(intr, INTR_IDX_base);
			if (!keep[base]) {
				if (is_output_store(intr))
					instr_remove(i);
				continue;
			}
			intrinsic_set(intr, INTR_IDX_base, (int32_t)map[base]);
		}
	}
	s->num_outputs = k;
	free(map);
	shader_progress(s, true, META_CONTROL_FLOW);
	return true;
}

/*
 * Dense locations for the kept non-builtin outputs; a matched input moves
 * with its output (by name: to its location and component; by location:
 * keeping its offset from it), the others after them.
 */
static bool pack(struct shader *p, struct shader *c, const int *match, bool by_name)
{
	bool used[256] = { false }, changed = false;
	int newloc[256], *old = xmalloc((p->num_outputs + 1) * sizeof(*old));
	for (unsigned i = 0; i < p->num_outputs; i++) {
		const struct io_decl *d = p->outputs[i];
		old[i] = d->location;
		if (d->builtin != BUILTIN_none)
			continue;
		for (unsigned k = 0; k < slots(d) && d->location + k < 256; k++)
			used[d->location + k] = true;
	}
	int next = 0;
	for (int l = 0; l < 256; l++)
		newloc[l] = used[l] ? next++ : -1;
	for (unsigned i = 0; i < p->num_outputs; i++) {
		struct io_decl *d = p->outputs[i];
		if (d->builtin != BUILTIN_none || d->location == newloc[d->location])
			continue;
		d->location = newloc[d->location];
		changed = true;
	}
	for (unsigned i = 0; i < c->num_inputs; i++) {
		struct io_decl *in = c->inputs[i];
		if (in->builtin != BUILTIN_none)
			continue;
		int loc, comp = in->component;
		if (match[i] >= 0 && by_name) {
			loc = p->outputs[match[i]]->location;
			comp = p->outputs[match[i]]->component;
		} else if (match[i] >= 0) {
			int off = in->location - old[match[i]];
			loc = off >= 0 && off < 256 && used[old[match[i]] + off] ?
			      newloc[old[match[i]] + off] : p->outputs[match[i]]->location;
		} else {
			loc = next;
			next += (int)slots(in);
		}
		if (loc > 255)
			loc = 255;
		if (in->location != loc || in->component != comp) {
			in->location = loc;
			in->component = (uint8_t)comp;
			changed = true;
		}
	}
	free(old);
	return changed;
}

static const char *describe(const struct io_decl *d, char *buf, size_t size)
{
	if (d->builtin != BUILTIN_none)
		snprintf(buf, size, "builtin %s", builtin_names[d->builtin]);
	else if (d->name)
		snprintf(buf, size, "'%s'", d->name);
	else
		snprintf(buf, size, "location %d", d->location);
	return buf;
}

/* Whether an input can read what an output holds. */
static bool fits(const struct io_decl *in, const struct io_decl *out, bool by_name)
{
	if (in->bit_size != out->bit_size)
		return false;
	return !by_name || in->num_components <= out->num_components;
}

static bool link_pair(struct shader *p, struct shader *c, const struct link_options *o,
		      struct diag *diag, const char *name)
{
	int *match = xmalloc((c->num_inputs + 1) * sizeof(*match));
	bool *keep = xcalloc(p->num_outputs + 1, sizeof(*keep)), changed = false;
	char buf[160];
	for (unsigned i = 0; i < c->num_inputs; i++) {
		match[i] = find_output(p, c->inputs[i], o);
		if (match[i] >= 0 && !fits(c->inputs[i], p->outputs[match[i]],
					   o->by_name && c->inputs[i]->builtin == BUILTIN_none)) {
			diag_warning(diag, name, 0, 0, "%s input %s does not fit the %s output",
				     stage_name(c->stage), describe(c->inputs[i], buf, sizeof(buf)),
				     stage_name(p->stage));
			match[i] = -1;
		}
		if (match[i] >= 0)
			keep[match[i]] = true;
		else if (c->inputs[i]->builtin == BUILTIN_none)
			diag_warning(diag, name, 0, 0, "%s input %s has no matching %s output",
				     stage_name(c->stage), describe(c->inputs[i], buf, sizeof(buf)),
				     stage_name(p->stage));
	}
	outputs_read(p, keep);
	for (unsigned i = 0; i < p->num_outputs; i++) {
		enum builtin b = p->outputs[i]->builtin;
		if (b == BUILTIN_tess_level_outer || b == BUILTIN_tess_level_inner ||
		    (c->stage == STAGE_FRAGMENT && raster_builtin(b)))
			keep[i] = true;
	}
	/* inputs point at outputs by index: renumber after the drop */
	unsigned *map = xmalloc((p->num_outputs + 1) * sizeof(*map)), k = 0;
	for (unsigned i = 0; i < p->num_outputs; i++)
		map[i] = keep[i] ? k++ : ~0u;
	changed |= drop_outputs(p, keep);
	for (unsigned i = 0; i < c->num_inputs; i++)
		if (match[i] >= 0)
			match[i] = (int)map[match[i]];
	changed |= pack(p, c, match, o->by_name);
	free(map);
	free(keep);
	free(match);
	return changed;
}

bool link_program(struct shader **stages, size_t n, const struct link_options *o,
		  struct diag *diag, const char *name)
{
	struct shader *order[STAGE_COUNT] = { 0 };
	bool changed = false;
	if (o->separable)
		return false;
	for (size_t i = 0; i < n; i++)
		if (stages[i] && is_graphics(stages[i]->stage))
			order[stages[i]->stage] = stages[i];
	struct shader *prev = NULL;
	for (int s = STAGE_VERTEX; s <= STAGE_FRAGMENT; s++) {
		if (!order[s])
			continue;
		if (prev)
			changed |= link_pair(prev, order[s], o, diag, name);
		prev = order[s];
	}
	return changed;
}
