/*
 * Comparing runs, and the equivalence check built on it.
 *
 * `after` must give what `before` gives wherever `before` is defined: a
 * component or byte that is poison in `before` may be anything in `after`
 * (a pass may refine an undefined value), one that is defined must be
 * equal — bit for bit for integers; for values `before` computed as floats,
 * any two NaNs are equal and a tolerance may apply.  Outputs of discarded
 * and demoted lanes are not compared, their fate is: live or not.  A
 * demoted lane and a discarded one write nothing alike; what a demoted lane
 * still does as a helper shows in the other lanes (derivatives, subgroup
 * operations), which are compared, so a machine without demote may
 * terminate the lane instead (a3xx–a5xx: kill).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/interp.h"

/* ---- floats ---- */

static bool is_nan(uint64_t v, unsigned bits)
{
	unsigned m = bits == 16 ? 10 : bits == 32 ? 23 : 52;
	uint64_t exp = (v >> m) & ((1u << (bits - 1 - m)) - 1);
	return exp == ((1u << (bits - 1 - m)) - 1) && (v & (((uint64_t)1 << m) - 1));
}

/* Floats as integers in the same order (−0 and +0 both 0). */
static int64_t ordered(uint64_t v, unsigned bits)
{
	uint64_t sign = v >> (bits - 1) & 1;
	uint64_t mag = v & (bits >= 64 ? INT64_MAX : (((uint64_t)1 << (bits - 1)) - 1));
	return sign ? -(int64_t)mag : (int64_t)mag;
}

bool interp_float_equal(uint64_t a, uint64_t b, unsigned bits, const struct interp_tolerance *tol)
{
	if (a == b || (tol && tol->floats_free))
		return true;
	if (bits != 16 && bits != 32 && bits != 64)
		return false;
	bool na = is_nan(a, bits), nb = is_nan(b, bits);
	if (na || nb)
		return na && nb;
	if (!tol)
		return false;
	if (tol->float_relaxed && ordered(a, bits) == 0 && ordered(b, bits) == 0)
		return true;	/* −0 and +0 */
	int64_t d = ordered(a, bits) - ordered(b, bits);
	if (tol->ulp && (d < 0 ? -(uint64_t)d : (uint64_t)d) <= tol->ulp)
		return true;
	double x = ir_float_from_bits(a, bits), y = ir_float_from_bits(b, bits);
	if (isinf(x) || isinf(y))
		return false;
	double diff = fabs(x - y), mag = fmax(fabs(x), fabs(y));
	return (tol->abs > 0 && diff <= tol->abs) || (tol->rel > 0 && diff <= tol->rel * mag);
}

/* interp_float_equal(), with float_relaxed only for the zeros whose sign
 * `before` left open (`tag` is its tag) in the sizes `s` does not preserve. */
static bool float_equal_in(const struct shader *s, uint8_t tag, uint64_t a, uint64_t b,
			   unsigned bits, const struct interp_tolerance *tol)
{
	if (tol && tol->float_relaxed &&
	    (!(interp_relaxed_bits(s) & ir_bits_mask(bits)) || !(tag & INTERP_TAG_SZERO))) {
		struct interp_tolerance t = *tol;
		t.float_relaxed = false;
		return interp_float_equal(a, b, bits, &t);
	}
	return interp_float_equal(a, b, bits, tol);
}

/* ---- messages ---- */

static void add_value(struct strbuf *sb, uint64_t v, unsigned bits, bool is_float, bool poison)
{
	if (poison) {
		strbuf_addstr(sb, "undef");
		return;
	}
	strbuf_addf(sb, "0x%0*llx", (int)(bits + 3) / 4, (unsigned long long)v);
	if (is_float && (bits == 16 || bits == 32 || bits == 64))
		strbuf_addf(sb, " (%.9g)", ir_float_from_bits(v, bits));
}

static const char comp_names[] = "xyzwefghijklmnop";

/* ---- outputs ---- */

struct where {
	const char *what;	/* "output", "GS vertex 3 output" */
	unsigned decl;
	int event;		/* GS: the lane's event, else -1 */
	struct interp_diff *at;	/* where the difference is, or NULL */
};

static void diff_at(struct interp_diff *at, struct interp_diff d)
{
	if (at)
		*at = d;
}

static bool compare_output(const struct shader *s, const struct interp_result *before,
			   const struct interp_output *ob, const struct interp_output *oa,
			   struct where w, const struct interp_tolerance *tol, struct strbuf *why)
{
	const struct io_decl *d = s->outputs[w.decl];
	unsigned slots = decl_num_slots(d->array_size), nc = d->num_components;
	if (ob->count != oa->count) {
		strbuf_addf(why, "%s %u: %zu components before, %zu after", w.what, w.decl, ob->count,
			    oa->count);
		diff_at(w.at, (struct interp_diff){ .kind = INTERP_DIFF_SHAPE });
		return false;
	}
	for (size_t x = 0; x < ob->count; x++) {
		size_t per_lane = ob->count / ob->lanes;
		unsigned lane = (unsigned)(x / per_lane), vertex = (unsigned)(x % per_lane / (slots * nc));
		unsigned slot = (unsigned)(x / nc % slots), comp = (unsigned)(x % nc);
		if (ob->lanes > 1 && before->fate[lane] != LANE_LIVE)
			continue;
		uint8_t tb = ob->tags[x], ta = oa->tags[x];
		if (tb & INTERP_TAG_POISON)
			continue;
		/* a mediump output is declared a float whatever made it */
		bool is_float = (tb & INTERP_TAG_FLOAT) || d->mediump;
		bool same = !(ta & INTERP_TAG_POISON) &&
			    (is_float ? float_equal_in(s, tb, ob->vals[x], oa->vals[x], d->bit_size, tol)
			     : ob->vals[x] == oa->vals[x]);
		if (same)
			continue;
		diff_at(w.at, (struct interp_diff){ .kind = w.event < 0 ? INTERP_DIFF_OUTPUT : INTERP_DIFF_GS,
				.decl = w.decl, .lane = lane, .vertex = vertex, .slot = slot,
				.comp = comp, .event = w.event });
		strbuf_addf(why, "%s %u", w.what, w.decl);
		if (d->location >= 0)
			strbuf_addf(why, " (location %d)", d->location);
		else
			strbuf_addf(why, " (%s)", builtin_names[d->builtin]);
		if (ob->lanes > 1)
			strbuf_addf(why, " lane %u", lane);
		if (ob->vertices > 1)
			strbuf_addf(why, " vertex %u", vertex);
		if (slots > 1)
			strbuf_addf(why, " [%u]", slot);
		strbuf_addf(why, " .%c: ", comp_names[(d->component + comp) & 15]);
		add_value(why, ob->vals[x], d->bit_size, is_float, false);
		strbuf_addstr(why, " before, ");
		add_value(why, oa->vals[x], d->bit_size, is_float, ta & INTERP_TAG_POISON);
		strbuf_addstr(why, " after");
		return false;
	}
	return true;
}

/* ---- memory ---- */

static unsigned tag_float_bytes(uint8_t tag)
{
	switch (tag & INTERP_TAG_FLOAT) {
	case INTERP_TAG_F16: return 2;
	case INTERP_TAG_F32: return 4;
	case INTERP_TAG_F64: return 8;
	default: return 0;
	}
}

static uint64_t read_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* Whether bytes [at, at+n) of `before` hold one float of n bytes. */
static bool float_element(const struct interp_memory *b, uint32_t at, unsigned n)
{
	if (!n || at + n > b->size)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (b->tags[at + i] != b->tags[at])
			return false;
	return true;
}

static bool compare_memory(const struct shader *s, const char *what, unsigned slot,
			   const struct interp_memory *b, const struct interp_memory *a,
			   const struct interp_tolerance *tol, struct strbuf *why,
			   struct interp_diff *where)
{
	if (a->size != b->size) {
		strbuf_addf(why, "%s %u: %u bytes before, %u after", what, slot, b->size, a->size);
		diff_at(where, (struct interp_diff){ .kind = INTERP_DIFF_SHAPE });
		return false;
	}
	for (uint32_t i = 0; i < b->size; i++) {
		if (b->tags[i] & INTERP_TAG_POISON)
			continue;
		bool a_poison = a->tags[i] & INTERP_TAG_POISON;
		if (!a_poison && a->data[i] == b->data[i])
			continue;
		unsigned n = tag_float_bytes(b->tags[i]);
		uint32_t at = i & ~(uint32_t)(n ? n - 1 : 0);
		if (!a_poison && float_element(b, at, n)) {
			bool poisoned = false;
			for (unsigned k = 0; k < n; k++)
				poisoned |= a->tags[at + k] & INTERP_TAG_POISON;
			if (!poisoned && float_equal_in(s, b->tags[at], read_le(b->data + at, n),
							read_le(a->data + at, n), 8 * n, tol)) {
				i = at + n - 1;
				continue;
			}
		}
		unsigned w = n ? n : 4;
		at = i & ~(uint32_t)(w - 1);
		if (at + w > b->size)
			w = 1, at = i;
		diff_at(where, (struct interp_diff){ .kind = INTERP_DIFF_MEMORY, .buffer = slot,
				.byte = at, .event = -1 });
		strbuf_addf(why, "%s %u byte %u: ", what, slot, at);
		add_value(why, read_le(b->data + at, w), 8 * w, n != 0, false);
		strbuf_addstr(why, " before, ");
		add_value(why, read_le(a->data + at, w), 8 * w, n != 0, a_poison);
		strbuf_addstr(why, " after");
		return false;
	}
	return true;
}

static bool compare_image(const struct shader *s, unsigned slot, const struct interp_image *b,
			  const struct interp_image *a, const struct interp_tolerance *tol,
			  struct strbuf *why, struct interp_diff *where)
{
	if (!b->written && !a->written)
		return true;
	for (uint32_t t = 0; t < b->num_texels; t++) {
		for (unsigned k = 0; k < 4; k++) {
			size_t x = (size_t)t * 4 + k;
			uint8_t tb = b->written ? b->tags[x] : 0xff, ta = a->written ? a->tags[x] : 0xff;
			if (tb != 0xff && (tb & INTERP_TAG_POISON))
				continue;
			if (tb == 0xff && ta == 0xff)
				continue;
			bool same = tb != 0xff && ta != 0xff && !(ta & INTERP_TAG_POISON);
			if (same) {
				unsigned n = tag_float_bytes(tb);
				same = n ? float_equal_in(s, tb, b->texels[x], a->texels[x], 8 * n, tol)
				       : b->texels[x] == a->texels[x];
			}
			if (same)
				continue;
			diff_at(where, (struct interp_diff){ .kind = INTERP_DIFF_IMAGE, .buffer = slot,
					.byte = t, .comp = k, .event = -1 });
			strbuf_addf(why, "image %u texel %u .%c: ", slot, t, comp_names[k]);
			if (tb == 0xff)
				strbuf_addstr(why, "not written");
			else
				strbuf_addf(why, "0x%llx", (unsigned long long)b->texels[x]);
			strbuf_addstr(why, " before, ");
			if (ta == 0xff)
				strbuf_addstr(why, "not written");
			else if (ta & INTERP_TAG_POISON)
				strbuf_addstr(why, "undef");
			else
				strbuf_addf(why, "0x%llx", (unsigned long long)a->texels[x]);
			strbuf_addstr(why, " after");
			return false;
		}
	}
	return true;
}

/* ---- geometry shader vertices, lane by lane ---- */

/*
 * What a lane's events mean: its primitives.  The events are compared in
 * a canonical form that keeps exactly that: per stream, a vertex is cut
 * from the one before (an end_primitive event before it) when an
 * end_primitive of its stream came since that stream's last vertex; an
 * end_primitive that ends no primitive (before a stream's first vertex,
 * after another, at the end) does nothing (the API's EndStreamPrimitive on
 * an empty primitive); vertices past max_vertices (vertices_out; all
 * streams count) have no effect, as the API allows and a machine running a
 * fibre per output vertex (ir3) does.
 */
struct gs_canon {
	const struct interp_gs_event *v;	/* the vertex, or NULL: a cut */
	unsigned stream;
};

static unsigned gs_canonical(const struct shader *s, const struct interp_result *r, unsigned lane,
			     struct gs_canon *out)
{
	bool pending[4] = { false }, seen[4] = { false };
	unsigned n = 0, vertices = 0, max = s->info.vertices_out;
	for (unsigned i = 0; i < r->num_gs_events; i++) {
		const struct interp_gs_event *e = &r->gs_events[i];
		unsigned st = e->stream & 3;
		if (e->lane != lane)
			continue;
		if (e->end_primitive) {
			pending[st] = true;
			continue;
		}
		if (max && vertices++ >= max)
			break;
		if (pending[st] && seen[st])
			out[n++] = (struct gs_canon){ NULL, st };
		out[n++] = (struct gs_canon){ e, st };
		pending[st] = false;
		seen[st] = true;
	}
	return n;
}

static bool compare_gs(const struct shader *s, const struct interp_result *b,
		       const struct interp_result *a, const struct interp_tolerance *tol,
		       struct strbuf *why, struct interp_diff *where)
{
	struct gs_canon *cb = xmalloc(sizeof(*cb) * (2 * b->num_gs_events + 1));
	struct gs_canon *ca = xmalloc(sizeof(*ca) * (2 * a->num_gs_events + 1));
	bool same = true;
	for (unsigned lane = 0; same && lane < b->num_lanes; lane++) {
		unsigned nb = gs_canonical(s, b, lane, cb), na = gs_canonical(s, a, lane, ca);
		for (unsigned n = 0; same && (n < nb || n < na); n++) {
			const struct gs_canon *eb = n < nb ? &cb[n] : NULL, *ea = n < na ? &ca[n] : NULL;
			if (!eb || !ea || !eb->v != !ea->v || eb->stream != ea->stream) {
				diff_at(where, (struct interp_diff){ .kind = INTERP_DIFF_GS, .lane = lane,
						.event = (int)n, .decl = ~0u });
				strbuf_addf(why, "lane %u: geometry event %u differs (%s before, %s after)",
					    lane, n, !eb ? "none" : eb->v ? "vertex" : "end_primitive",
					    !ea ? "none" : ea->v ? "vertex" : "end_primitive");
				same = false;
				break;
			}
			if (!eb->v)
				continue;
			char what[64];
			snprintf(what, sizeof(what), "lane %u emitted vertex %u: output", lane, n);
			for (unsigned o = 0; same && o < b->num_outputs; o++)
				same = compare_output(s, b, &eb->v->outputs[o], &ea->v->outputs[o],
						      (struct where){ what, o, (int)n, where }, tol, why);
		}
	}
	free(cb);
	free(ca);
	return same;
}

bool interp_compare(const struct shader *s, const struct interp_result *before,
		    const struct interp_result *after, const struct interp_tolerance *tol,
		    struct strbuf *why)
{
	return interp_compare_at(s, before, after, tol, why, NULL);
}

bool interp_compare_at(const struct shader *s, const struct interp_result *before,
		       const struct interp_result *after, const struct interp_tolerance *tol,
		       struct strbuf *why, struct interp_diff *at)
{
	diff_at(at, (struct interp_diff){ .kind = INTERP_DIFF_STATUS, .event = -1 });
	if (after->status != INTERP_OK) {
		strbuf_addf(why, "after: %s (%s)", interp_status_names[after->status],
			    after->message ? after->message : "");
		return false;
	}
	if (before->num_lanes != after->num_lanes || before->num_outputs != after->num_outputs ||
	    before->num_ssbos != after->num_ssbos || before->num_images != after->num_images) {
		strbuf_addstr(why, "the runs have different shapes");
		diff_at(at, (struct interp_diff){ .kind = INTERP_DIFF_SHAPE, .event = -1 });
		return false;
	}
	static const char *const fates[] = { "live", "discarded", "demoted" };
	for (unsigned l = 0; l < before->num_lanes; l++) {
		if ((before->fate[l] == LANE_LIVE) != (after->fate[l] == LANE_LIVE)) {
			diff_at(at, (struct interp_diff){ .kind = INTERP_DIFF_FATE, .lane = l, .event = -1 });
			strbuf_addf(why, "lane %u: %s before, %s after", l, fates[before->fate[l]],
				    fates[after->fate[l]]);
			return false;
		}
	}
	for (unsigned o = 0; o < before->num_outputs; o++)
		if (!compare_output(s, before, &before->outputs[o], &after->outputs[o],
				    (struct where){ "output", o, -1, at }, tol, why))
			return false;
	for (unsigned i = 0; i < before->num_ssbos; i++)
		if (!compare_memory(s, "ssbo", i, &before->ssbo[i], &after->ssbo[i], tol, why, at))
			return false;
	if (!compare_memory(s, "global memory", 0, &before->global, &after->global, tol, why, at)) {
		if (at && at->kind == INTERP_DIFF_MEMORY)
			at->buffer = before->num_ssbos;
		return false;
	}
	for (unsigned i = 0; i < before->num_images; i++)
		if (!compare_image(s, i, &before->image[i], &after->image[i], tol, why, at))
			return false;
	if (!compare_gs(s, before, after, tol, why, at))
		return false;
	diff_at(at, (struct interp_diff){ .kind = INTERP_DIFF_NONE, .event = -1 });
	return true;
}

/* ---- what a run defines ---- */

static size_t output_defined(const struct interp_result *r, const struct interp_output *o)
{
	size_t n = 0, per_lane = o->count / (o->lanes ? o->lanes : 1);
	for (size_t x = 0; x < o->count; x++)
		n += !(o->tags[x] & INTERP_TAG_POISON) &&
		     (o->lanes == 1 || r->fate[x / per_lane] == LANE_LIVE);
	return n;
}

static size_t memory_defined(const struct interp_memory *m)
{
	size_t n = 0;
	for (uint32_t i = 0; i < m->size; i++)
		n += (m->tags[i] & (INTERP_TAG_WRITTEN | INTERP_TAG_POISON)) == INTERP_TAG_WRITTEN;
	return n;
}

size_t interp_result_defined(const struct interp_result *r)
{
	size_t n = 0;
	if (r->status != INTERP_OK)
		return 0;
	for (unsigned o = 0; o < r->num_outputs; o++)
		n += output_defined(r, &r->outputs[o]);
	for (unsigned i = 0; i < r->num_ssbos; i++)
		n += memory_defined(&r->ssbo[i]);
	n += memory_defined(&r->global);
	for (unsigned i = 0; i < r->num_images; i++)
		for (size_t x = 0; r->image[i].written && x < (size_t)r->image[i].num_texels * 4; x++) {
			uint8_t t = r->image[i].tags[x];
			n += t != 0xff && !(t & INTERP_TAG_POISON);
		}
	for (unsigned e = 0; e < r->num_gs_events; e++)
		for (unsigned o = 0; !r->gs_events[e].end_primitive && o < r->num_outputs; o++)
			n += output_defined(r, &r->gs_events[e].outputs[o]);
	return n;
}

/* ---- the equivalence check ---- */

struct interp_baseline {
	struct shader *before;
	unsigned seeds;
	uint64_t step_limit;
	struct interp_inputs **in;
	/* results by mode (spirv_undef | float_relaxed << 1); mode 0 made at
	 * once, the others when a tolerance first asks for them */
	struct interp_result **res[4];
};

struct interp_baseline *interp_baseline_create(struct shader *before, unsigned seeds,
					       uint64_t step_limit)
{
	struct interp_baseline *b = xcalloc(1, sizeof(*b));
	b->before = before;
	b->seeds = seeds;
	b->step_limit = step_limit ? step_limit : INTERP_DEFAULT_STEP_LIMIT;
	b->in = xcalloc(seeds + 1, sizeof(*b->in));
	for (unsigned m = 0; m < 4; m++)
		b->res[m] = xcalloc(seeds + 1, sizeof(*b->res[m]));
	struct interp_options opt = { b->step_limit };
	for (unsigned i = 0; i < seeds; i++) {
		b->in[i] = interp_inputs_random(before, i);
		b->res[0][i] = interp_run(before, b->in[i], &opt);
	}
	return b;
}

void interp_baseline_free(struct interp_baseline *b)
{
	if (!b)
		return;
	for (unsigned i = 0; i < b->seeds; i++) {
		interp_inputs_free(b->in[i]);
		for (unsigned m = 0; m < 4; m++)
			interp_result_free(b->res[m][i]);
	}
	free(b->in);
	for (unsigned m = 0; m < 4; m++)
		free(b->res[m]);
	free(b);
}

bool interp_baseline_check(struct interp_baseline *b, struct shader *after,
			   const struct interp_tolerance *tol, struct strbuf *diag,
			   struct interp_equiv_stats *stats)
{
	struct interp_equiv_stats st = { 0, 0, 0 };
	bool ok = true;
	unsigned mode = tol ? (unsigned)tol->spirv_undef | (unsigned)tol->float_relaxed << 1 : 0;
	for (unsigned i = 0; i < b->seeds && ok; i++) {
		if (tol && tol->moderate_inputs && !interp_seed_is_tame(i)) {
			st.skipped++;
			continue;
		}
		if (!b->res[mode][i]) {
			struct interp_options o = { b->step_limit, mode & 1, mode >> 1 };
			b->res[mode][i] = interp_run(b->before, b->in[i], &o);
		}
		const struct interp_result *rb = b->res[mode][i];
		if (rb->status == INTERP_ERROR) {
			strbuf_addf(diag, "seed %u: the interpreter cannot run the shader: %s", i,
				    rb->message);
			ok = false;
			break;
		}
		if (rb->status != INTERP_OK) {
			st.skipped++;
			continue;
		}
		/* a pass may lengthen the code: give `after` room */
		struct interp_options opt = { rb->steps * 8 + 100000 };
		if (opt.step_limit < b->step_limit)
			opt.step_limit = b->step_limit;
		struct interp_result *ra = interp_run(after, b->in[i], &opt);
		struct strbuf why = STRBUF_INIT;
		if (!interp_compare(b->before, rb, ra, tol, &why)) {
			strbuf_addf(diag, "seed %u: %s", i, why.buf);
			ok = false;
		} else {
			st.compared++;
			st.defined += interp_result_defined(rb);
		}
		strbuf_release(&why);
		interp_result_free(ra);
	}
	if (stats)
		*stats = st;
	return ok;
}

bool interp_check_equivalent_stats(struct shader *before, struct shader *after, unsigned seeds,
				   const struct interp_tolerance *tol, struct strbuf *diag,
				   struct interp_equiv_stats *stats)
{
	struct interp_baseline *b = interp_baseline_create(before, seeds, 0);
	bool ok = interp_baseline_check(b, after, tol, diag, stats);
	interp_baseline_free(b);
	return ok;
}

bool interp_check_equivalent(struct shader *before, struct shader *after, unsigned seeds,
			     const struct interp_tolerance *tol, struct strbuf *diag)
{
	return interp_check_equivalent_stats(before, after, seeds, tol, diag, NULL);
}

/* ---- printing ---- */

static void print_output(const struct shader *s, const struct interp_result *r, unsigned o,
			 struct strbuf *out)
{
	const struct io_decl *d = s->outputs[o];
	const struct interp_output *op = &r->outputs[o];
	unsigned slots = decl_num_slots(d->array_size), nc = d->num_components;
	for (unsigned lane = 0; lane < op->lanes; lane++) {
		if (op->lanes > 1 && r->fate[lane] != LANE_LIVE)
			continue;
		for (unsigned v = 0; v < op->vertices; v++) {
			for (unsigned sl = 0; sl < slots; sl++) {
				strbuf_addf(out, "output %u", o);
				if (op->lanes > 1)
					strbuf_addf(out, " lane %u", lane);
				if (op->vertices > 1)
					strbuf_addf(out, " vertex %u", v);
				if (slots > 1)
					strbuf_addf(out, " [%u]", sl);
				strbuf_addch(out, ':');
				for (unsigned k = 0; k < nc; k++) {
					size_t x = interp_io_index(d, op->lanes, op->vertices, lane, v, sl, k);
					strbuf_addch(out, ' ');
					add_value(out, op->vals[x], d->bit_size, op->tags[x] & INTERP_TAG_FLOAT,
						  op->tags[x] & INTERP_TAG_POISON);
				}
				strbuf_addch(out, '\n');
			}
		}
	}
}

void interp_result_print(const struct shader *s, const struct interp_result *r, struct strbuf *out)
{
	strbuf_addf(out, "status: %s", interp_status_names[r->status]);
	if (r->message)
		strbuf_addf(out, " (%s)", r->message);
	strbuf_addf(out, ", %llu steps\n", (unsigned long long)r->steps);
	if (r->status == INTERP_ERROR)
		return;
	for (unsigned l = 0; l < r->num_lanes && r->fate; l++)
		if (r->fate[l] != LANE_LIVE)
			strbuf_addf(out, "lane %u: %s\n", l,
				    r->fate[l] == LANE_DISCARDED ? "discarded" : "demoted");
	for (unsigned o = 0; o < r->num_outputs; o++)
		print_output(s, r, o, out);
	for (unsigned i = 0; i < r->num_ssbos; i++) {
		const struct interp_memory *m = &r->ssbo[i];
		for (uint32_t at = 0; at + 4 <= m->size; at += 4) {
			bool written = false;
			for (unsigned k = 0; k < 4; k++)
				written |= m->tags[at + k] & INTERP_TAG_WRITTEN;
			if (!written)
				continue;	/* input words are not shown */
			strbuf_addf(out, "ssbo %u byte %u: ", i, at);
			add_value(out, read_le(m->data + at, 4), 32, tag_float_bytes(m->tags[at]) == 4,
				  m->tags[at] & INTERP_TAG_POISON);
			strbuf_addch(out, '\n');
		}
	}
	for (unsigned i = 0; i < r->num_gs_events; i++) {
		const struct interp_gs_event *e = &r->gs_events[i];
		strbuf_addf(out, "lane %u: %s stream %u\n", e->lane,
			    e->end_primitive ? "end_primitive" : "emit_vertex", e->stream);
		for (unsigned o = 0; !e->end_primitive && o < r->num_outputs; o++) {
			const struct io_decl *d = s->outputs[o];
			strbuf_addf(out, "  output %u:", o);
			for (size_t x = 0; x < e->outputs[o].count; x++) {
				strbuf_addch(out, ' ');
				add_value(out, e->outputs[o].vals[x], d->bit_size,
					  e->outputs[o].tags[x] & INTERP_TAG_FLOAT,
					  e->outputs[o].tags[x] & INTERP_TAG_POISON);
			}
			strbuf_addch(out, '\n');
		}
	}
}

static void print_words(const char *what, unsigned slot, const struct interp_buffer *b,
			struct strbuf *out)
{
	if (!b->size)
		return;
	strbuf_addf(out, "%s %u (%u bytes):", what, slot, b->size);
	for (uint32_t at = 0; at + 4 <= b->size && at < 32; at += 4)
		strbuf_addf(out, " %08x", (unsigned)read_le(b->data + at, 4));
	strbuf_addstr(out, b->size > 32 ? " …\n" : "\n");
}

void interp_inputs_print(const struct shader *s, const struct interp_inputs *in,
			 struct strbuf *out)
{
	strbuf_addf(out, "lanes %u, subgroup size %u, vertices %u\n", in->num_lanes,
		    in->subgroup_size, in->num_vertices);
	for (unsigned i = 0; i < in->num_inputs && i < s->num_inputs; i++) {
		const struct io_decl *d = s->inputs[i];
		size_t per_lane = in->input_count[i] / (d->patch ? 1 : in->num_lanes);
		for (unsigned l = 0; l < (d->patch ? 1 : in->num_lanes); l++) {
			strbuf_addf(out, "input %u", i);
			if (!d->patch)
				strbuf_addf(out, " lane %u", l);
			strbuf_addch(out, ':');
			for (size_t x = 0; x < per_lane && x < 16; x++)
				strbuf_addf(out, " %0*llx", (int)(d->bit_size + 3) / 4,
					    (unsigned long long)in->input[i][l * per_lane + x]);
			strbuf_addstr(out, per_lane > 16 ? " …\n" : "\n");
		}
	}
	if (s->info.uniform_size)
		print_words("uniforms", 0, &in->uniforms, out);
	if (s->info.push_constant_size)
		print_words("push constants", 0, &in->push_constants, out);
	for (unsigned i = 0; i < in->num_ubos; i++)
		print_words("ubo", i, &in->ubo[i], out);
	for (unsigned i = 0; i < in->num_ssbos; i++)
		print_words("ssbo", i, &in->ssbo[i], out);
	for (unsigned i = 0; i < in->num_textures; i++) {
		const struct interp_texture *t = &in->texture[i];
		strbuf_addf(out, "texture %u: %ux%ux%u, %u layers, %u levels, %u samples\n", i,
			    t->size[0], t->size[1], t->size[2], t->layers, t->levels, t->samples);
	}
	strbuf_addf(out, "workgroup id %u,%u,%u; vertex id from %u, instance %u, primitive %u; "
		    "quad at %u,%u\n", in->workgroup_id[0], in->workgroup_id[1], in->workgroup_id[2],
		    in->vertex_id_base, in->instance_id, in->primitive_id, 2 * in->quad_x,
		    2 * in->quad_y);
}
