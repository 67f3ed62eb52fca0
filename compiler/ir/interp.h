/*
 * The IR interpreter: runs a shader on given inputs and returns what it
 * wrote.  It is the oracle of the optimiser: a pass is correct when the
 * shader before and after it give the same results on many random inputs
 * (interp_check_equivalent()).  Semantics in compiler/ir/INTERP.md.
 *
 *	struct interp_inputs *in = interp_inputs_random(s, seed);
 *	struct interp_result *r = interp_run(s, in, NULL);
 *	if (r->status == INTERP_OK) … r->outputs[0].vals …
 *	interp_result_free(r);
 *	interp_inputs_free(in);
 *
 * One run executes a small group of invocations ("lanes") in lock-step, as
 * a SIMT machine with an active mask over the structured control flow: a
 * 2×2 quad for fragment shaders, one workgroup for compute, the invocations
 * of one patch for tessellation control, 4 vertices for other stages.
 *
 * Every value carries shadow bits per component: `poison` (undefined:
 * from `undef`, uninitialised memory, out-of-range local and I/O reads,
 * helper-lane reads …), `float` (made by a float operation; the comparator
 * reads it) and, under float_relaxed, "a zero whose sign is open".  Results
 * are raw bits with those tags (INTERP_TAG_*).
 *
 * Nothing here has mutable global state: each run owns its context.
 */
#ifndef SHDB_IR_INTERP_H
#define SHDB_IR_INTERP_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/ir.h"
#include "compiler/util/arena.h"
#include "compiler/util/strbuf.h"

#define INTERP_MAX_LANES 1024
#define INTERP_DEFAULT_STEP_LIMIT 200000

/* Shadow tags of a component of a result and of each byte of memory:
 * poison, and the size of the float it holds when a float operation made
 * it (memory keeps the size to find the float again). */
enum {
	INTERP_TAG_POISON = 1 << 0,	/* undefined */
	INTERP_TAG_F16 = 1 << 1,
	INTERP_TAG_F32 = 2 << 1,
	INTERP_TAG_F64 = 3 << 1,
	INTERP_TAG_FLOAT = 3 << 1,	/* mask: any of the three */
	INTERP_TAG_WRITTEN = 1 << 3,	/* memory: written by the run */
	INTERP_TAG_SZERO = 1 << 4,	/* a float zero whose sign float_relaxed
					 * leaves open */
};

/* ------------------------------------------------------------------------
 * Inputs.
 */

/* A byte-addressed buffer (uniforms, push constants, UBO, SSBO, global). */
struct interp_buffer {
	uint8_t *data;
	uint32_t size;
};

/* A sampled texture or a storage image: a deterministic function of the
 * texel's coordinates, level, layer and sample, and of `hash`. */
struct interp_texture {
	uint32_t size[3];		/* width, height, depth at level 0 (unused ones 1) */
	uint32_t layers;		/* array layers (cube: cubes) */
	uint32_t levels;		/* mip levels */
	uint32_t samples;		/* 1, or the sample count of a multisampled one */
	uint64_t hash;
};

/*
 * Everything a run reads.  interp_inputs_create() sizes it for a shader with
 * zero values (deterministic defaults for system values); the random
 * generator fills it.  Arrays are indexed by declaration (stage inputs) or
 * by slot (buffers, textures, images).
 */
struct interp_inputs {
	struct arena arena;		/* owns everything below */
	uint64_t seed;
	unsigned num_lanes;		/* invocations run together */
	unsigned num_vertices;		/* per-vertex input arrays: vertices */
	unsigned subgroup_size;		/* a power of two */

	/* Stage inputs: input[i] holds the raw bits of declaration i,
	 * [lane][vertex][slot][component] (see interp_input_index()); patch
	 * inputs have one lane, non-per-vertex ones one vertex. */
	unsigned num_inputs;
	uint64_t **input;
	size_t *input_count;		/* components in input[i] */

	struct interp_buffer uniforms, push_constants;
	struct interp_buffer global;	/* global memory at addresses global_base … */
	uint64_t global_base;
	unsigned num_ubos, num_ssbos;	/* slots */
	struct interp_buffer *ubo, *ssbo;
	unsigned num_textures, num_images;	/* slots */
	struct interp_texture *texture, *image;

	/* system values */
	uint32_t workgroup_size[3], workgroup_id[3], num_workgroups[3];
	uint32_t vertex_id_base, instance_id, base_vertex, base_instance, draw_id;
	uint32_t primitive_id, view_index, patch_vertices_in, sample_id, sample_mask_in;
	uint32_t quad_x, quad_y;	/* fragment: the quad's top-left pixel / 2 */
	float *frag_zw;			/* per lane: frag_coord z, w */
	float *tess_coord;		/* per lane: 3 floats */
	float *point_coord;		/* per lane: 2 floats */
	uint8_t *front_face;		/* per lane */

	/* What the machine does where the API leaves the choice open (a
	 * backend's simulator says, exec_backend.prepare; the defaults are
	 * the interpreter's own choices). */
	bool coarse_derivatives;	/* ddx/ddy are ddx_coarse/ddy_coarse, not fine */
	/* A lowered shader for a machine that truncates the array layer, the
	 * lowering having added 0.5 (ir3's lower_ir3_tex): the layer operand
	 * is truncated, not rounded. */
	bool layer_truncates;
	/* What a backend's lowered shader reads of the machine's state (the
	 * ir3 lowering's load_primitive_param/location_ir3, rel_patch_id):
	 * NULL for the defaults (0, 16 bytes a slot, patch 0). */
	const uint32_t *primitive_params, *primitive_map;
	unsigned num_primitive_params, num_primitive_map;
	const uint32_t *rel_patch_id;	/* per lane */
	const uint32_t *header;		/* per lane: the TCS/GS header (NULL: the lane's
					   invocation id in bits 11–15) */
	struct interp_buffer shared;	/* local memory's first bytes when the run starts
					   (the previous stage's outputs); the rest poison */
	bool ubo_unchecked;		/* an out-of-bounds UBO read is undefined (no
					   robust access: a raw address), not 0 */
	unsigned address_bits;		/* 32: a global access reads the address's low
					   half (a GPU of 32-bit addresses: a pointer's
					   high half is 0 there); 0: all 64 bits */
};

/* Inputs sized for `s`, all zero but system values. */
struct interp_inputs *interp_inputs_create(struct shader *s);
/* Random inputs for `s` from `seed` (interp_random.c): special floats and
 * integers mixed with ordinary values, every buffer filled. */
struct interp_inputs *interp_inputs_random(struct shader *s, uint64_t seed);
/* Whether `seed` gives tame inputs (levels 0 and 3: no special values, no
 * magnitudes past a few units). */
bool interp_seed_is_tame(uint64_t seed);
void interp_inputs_free(struct interp_inputs *in);
/* Position of a component in in->input[decl] (or of an output in
 * interp_output.vals): lane, vertex, slot, component relative to the
 * declaration's first component. */
size_t interp_io_index(const struct io_decl *d, unsigned nlanes_stored, unsigned nverts,
		       unsigned lane, unsigned vertex, unsigned slot, unsigned comp);
size_t interp_input_index(const struct interp_inputs *in, const struct io_decl *d,
			  unsigned lane, unsigned vertex, unsigned slot, unsigned comp);

/* Whether two stage inputs or outputs share a component of a location: an
 * interface Vulkan does not allow (glslang's automatic locations put an
 * unlocated block at an explicit one's location), where a machine keeping
 * one vector per location has one value for both (interp.c: outputs so
 * are undefined; interp_random.c: inputs so read one value). */
bool interp_io_overlap(const struct io_decl *a, const struct io_decl *b);

/* Fragment inputs away from the pixel centre (interp_at_*): */
/* the standard 4x sample positions in a pixel, x and y in [0, 1) */
extern const float interp_sample_positions[4][2];
/* the barycentrics of lane l's pixel centre, the frame of
 * interp_at_barycentric: i grows by 1/8 a pixel to the right, j by 1/8 a
 * pixel down, from 1/4 at the quad's first pixel */
void interp_pixel_barycentrics(unsigned l, float *i, float *j);
/* how far barycentrics (i, j) are from lane l's pixel centre, in pixels */
void interp_barycentric_offset(unsigned l, float i, float j, double *ox, double *oy);
/* Component `comp` (relative to the declaration's first) of slot `slot` of
 * input `decl` for lane l, at (ox, oy) pixels from its centre, as a float
 * of `bits` bits: the lane's own value plus the input's change across the
 * quad (its first row and column) times the offset, in double, rounded
 * once; at the centre in the input's size, and for flat inputs, the
 * input's bits. */
uint64_t interp_input_at(const struct interp_inputs *in, const struct io_decl *d, unsigned decl,
			 unsigned l, unsigned slot, unsigned comp, double ox, double oy,
			 unsigned bits);

/* ------------------------------------------------------------------------
 * Running.
 */
struct interp_options {
	uint64_t step_limit;		/* instructions executed; 0: the default */
	/* ALU results SPIR-V and GLSL leave undefined (division by zero, shift
	 * by the bit size or more, pow of a negative, float-to-int out of range
	 * … INTERP.md lists them) are poison, not the folder's value.  For
	 * checking passes that may compute them differently. */
	bool spirv_undef;
	/* Vulkan's default float rules: for a bit size without
	 * SignedZeroInfNanPreserve (float_controls szinpNN), a non-exact ALU op
	 * with a NaN or infinite float operand or result gives poison, and the
	 * sign of its zero results is open (INTERP_TAG_SZERO). */
	bool float_relaxed;
};

enum interp_status {
	INTERP_OK,
	INTERP_STEP_LIMIT,		/* the limit was reached: maybe an infinite loop */
	INTERP_UNDEFINED,		/* undefined behaviour (a branch on poison …) */
	INTERP_ERROR,			/* the interpreter cannot run this (message says) */
};
extern const char *const interp_status_names[];

/* The final value of one output declaration (or a GS vertex's copy). */
struct interp_output {
	unsigned lanes, vertices;	/* stored lanes (1 when shared), per-vertex entries */
	size_t count;			/* components: lanes × vertices × slots × comps */
	uint64_t *vals;
	uint8_t *tags;
};

/* A memory region after the run: bytes and their tags. */
struct interp_memory {
	uint32_t size;
	uint8_t *data;
	uint8_t *tags;
};

/* A storage image's texels after the run (only when written). */
struct interp_image {
	bool written;
	uint32_t num_texels;		/* width × height × depth × layers × samples */
	uint64_t *texels;		/* 4 components each */
	uint8_t *tags;
};

/* A vertex emitted by a geometry shader: its stream and every output. */
struct interp_gs_event {
	unsigned lane;
	bool end_primitive;		/* else a vertex */
	unsigned stream;
	struct interp_output *outputs;	/* num_outputs, for vertices */
};

enum interp_lane_fate { LANE_LIVE, LANE_DISCARDED, LANE_DEMOTED };

struct interp_result {
	struct arena arena;		/* owns everything below */
	enum interp_status status;
	char *message;			/* why, unless INTERP_OK */
	uint64_t steps;
	unsigned num_lanes;
	uint8_t *fate;			/* enum interp_lane_fate per lane */

	unsigned num_outputs;
	struct interp_output *outputs;	/* per output declaration */
	unsigned num_ssbos;
	struct interp_memory *ssbo;	/* per SSBO slot */
	struct interp_memory global;
	unsigned num_images;
	struct interp_image *image;	/* per image slot */
	unsigned num_gs_events;
	struct interp_gs_event *gs_events;
};

/* IR_BITS_ of the float sizes whose signed zeros, infinities and NaNs `s`
 * does not preserve (no float_controls szinpNN): float_relaxed's sizes. */
unsigned interp_relaxed_bits(const struct shader *s);

/* A result shaped for `s` run on `in`, as a run starts it: every output
 * poison, the buffers as the inputs hold them, no image written, every
 * lane live.  What a backend simulator fills (compiler/exec). */
struct interp_result *interp_result_create(const struct shader *s, const struct interp_inputs *in);
/* Run `s` (a valid shader: ir_validate()) on `in`.  Never fails: what the
 * interpreter cannot run (an intrinsic it does not know, inputs made for
 * another shader) gives INTERP_ERROR with a message.  A test runs every
 * intrinsic of the table. */
struct interp_result *interp_run(struct shader *s, const struct interp_inputs *in,
				 const struct interp_options *opt);
void interp_result_free(struct interp_result *r);
/* The output component, or false when poison (or beyond the storage). */
bool interp_output_get(const struct interp_result *r, const struct shader *s, unsigned decl,
		       unsigned lane, unsigned vertex, unsigned slot, unsigned comp, uint64_t *bits);

/* ------------------------------------------------------------------------
 * Textures as data (interp_tex.c): the interpreter's texture model, for the
 * interpreter's tex instruction and for a backend simulator's texture
 * instructions, so both read the same texels (INTERP.md, "Textures").
 */
struct interp_tex_request {
	enum tex_op op;
	enum image_dim dim;
	bool is_array, is_shadow, is_sparse;
	bool int_result;		/* an integer texture: nearest texel, raw bits */
	bool query;			/* txs, query_levels, texture_samples */
	bool has_quads;			/* implicit lod from the 2×2 quad (fragment, compute) */
	unsigned component;		/* tg4 */
	unsigned num_components;	/* of the result (the sparse code last) */
	unsigned bit_size;		/* of the result */
};

/* One lane's operands; coordinates and reference already projected. */
struct interp_tex_lane {
	bool active;			/* runs the lookup (implicit lod reads the quad) */
	bool poison;			/* an operand is undefined: the result is */
	bool coord_poison;		/* the coordinates are: neighbours' lod is */
	double coord[4];		/* the coordinates, then the array layer */
	int32_t icoord[4];		/* txf, txf_ms: the same as integers */
	bool has_ref, has_bias, has_min_lod;
	double ref, lod, bias, min_lod;	/* lod: txl's */
	uint64_t ilod;			/* txf, txs: the level */
	double ddx[3], ddy[3];		/* txd */
	int32_t offset[3];
	uint32_t ms_index;
	uint32_t texture, sampler;	/* slots */
};

/* The lookup of lane `l` of `lanes` (its quad neighbours are read for an
 * implicit lod): rq->num_components results and their INTERP_TAG_* tags. */
void interp_tex_lookup(const struct interp_inputs *in, const struct interp_tex_request *rq,
		       const struct interp_tex_lane *lanes, unsigned nlanes, unsigned l,
		       uint64_t *vals, uint8_t *tags);
/* The texel `comp` of an image (or texture) model (interp_tex.c): its bits
 * hashed from the coordinates. */
uint64_t interp_texel_hash(const struct interp_texture *t, unsigned slot, unsigned level,
			   const int64_t *xyz, unsigned layer, unsigned sample, unsigned comp);
/* Storage images (interp_mem.c): the texel an access at `coord` (x, y, z
 * or layer, as the image_* intrinsics take them) reaches, -1 out of
 * bounds; the model's value of a texel never written. */
int64_t interp_image_texel(const struct interp_texture *t, enum image_dim dim, bool array,
			   const uint64_t *coord, uint64_t sample, uint64_t lod);
uint64_t interp_image_model(const struct interp_texture *t, unsigned slot, int64_t texel,
			    unsigned k, bool is_float, unsigned bits);
/* An atomic's new value: op(old, data), or for the swaps data when old
 * equals cmp (interp_mem.c). */
uint64_t interp_atomic_new(enum atomic_op op, unsigned bits, uint64_t old, uint64_t cmp,
			   uint64_t data);
/* Memory tags for a value of `bits` bits (INTERP_TAG_FLOAT becomes a size
 * code so that floats can be found again in memory). */
uint8_t interp_mem_tag(bool poison, bool is_float, unsigned bits);

/* ------------------------------------------------------------------------
 * Comparing (interp_compare.c).
 */

/* How far a float result may drift: within `ulp` units in the last place,
 * or `rel` relative difference, or `abs` absolute difference.  All zero:
 * bitwise, except that two NaNs are equal whatever their payloads.  With
 * `float_relaxed` −0 equals +0.  With `spirv_undef` and `float_relaxed`,
 * results SPIR-V or Vulkan leave undefined may differ too (the equivalence
 * check runs `before` with the matching interp_options). */
struct interp_tolerance {
	double rel;
	double abs;
	uint32_t ulp;
	bool spirv_undef;		/* run `before` with interp_options.spirv_undef */
	/* run `before` with interp_options.float_relaxed, and take -0 for +0
	 * where the shader does not preserve signed zeros */
	bool float_relaxed;
	/* floats `before` computed are not compared (any value, NaN or
	 * infinite alike): what else the runs wrote must be the same */
	bool floats_free;
	/* only the seeds of tame inputs are compared (interp_seed_is_tame()):
	 * the pass is approximate where values overflow or cancel */
	bool moderate_inputs;
};

/*
 * Whether `after` gives what `before` gives: for every component `before`
 * defines (not poison) — outputs of lanes not discarded, SSBO and global
 * bytes, images, GS vertices — `after` has the same bits (floats within
 * `tol`), and the same lanes are discarded.  Only comparable runs (both
 * INTERP_OK) may be given.  On a difference appends one line to `why`.
 */
bool interp_compare(const struct shader *s, const struct interp_result *before,
		    const struct interp_result *after, const struct interp_tolerance *tol,
		    struct strbuf *why);
/* Where interp_compare_at() found the first difference. */
struct interp_diff {
	enum {
		INTERP_DIFF_NONE, INTERP_DIFF_STATUS, INTERP_DIFF_SHAPE, INTERP_DIFF_FATE,
		INTERP_DIFF_OUTPUT,	/* decl, lane, vertex, slot (array element), comp */
		INTERP_DIFF_GS,		/* the same in lane's emitted vertex `event`; decl ~0u:
					 * the events themselves differ */
		INTERP_DIFF_MEMORY,	/* buffer (SSBO slot; global memory: 0 after them), byte */
		INTERP_DIFF_IMAGE,	/* buffer (image slot), byte (texel), comp */
	} kind;
	unsigned decl, lane, vertex, slot, comp;	/* comp from the declaration's first */
	int event;
	unsigned buffer;
	uint32_t byte;
};
/* interp_compare(), saying where the first difference is. */
bool interp_compare_at(const struct shader *s, const struct interp_result *before,
		       const struct interp_result *after, const struct interp_tolerance *tol,
		       struct strbuf *why, struct interp_diff *at);
/* Whether two floats of `bits` bits are equal within `tol`. */
bool interp_float_equal(uint64_t a, uint64_t b, unsigned bits, const struct interp_tolerance *tol);

/* How many result components (outputs of live lanes, GS vertex outputs,
 * image texel components) and written memory bytes a run defines: what a
 * comparison of it can check. */
size_t interp_result_defined(const struct interp_result *r);

/* Counts of one equivalence check. */
struct interp_equiv_stats {
	unsigned compared;		/* seeds where both ran and were compared */
	unsigned skipped;		/* seeds where `before` did not end normally */
	uint64_t defined;		/* interp_result_defined() of `before`, summed */
};

/*
 * Run `before` and `after` on `seeds` random input sets (seeds 0 … seeds-1)
 * made from `before`'s declarations and compare them (interp_compare()).
 * A seed on which `before` reaches the step limit or undefined behaviour
 * is skipped; `after` failing where `before` did not is a difference.
 * Returns false on the first difference, with a message in `diag`
 * ("seed 17: output 0 lane 2 .y: 0x3f800000 (1) != 0x3f800001 (1.0000001)").
 * `stats` may be NULL.
 */
bool interp_check_equivalent(struct shader *before, struct shader *after, unsigned seeds,
			     const struct interp_tolerance *tol, struct strbuf *diag);
bool interp_check_equivalent_stats(struct shader *before, struct shader *after, unsigned seeds,
				   const struct interp_tolerance *tol, struct strbuf *diag,
				   struct interp_equiv_stats *stats);
/*
 * A baseline: the random inputs and the results of `before` for seeds
 * 0 … seeds-1, computed once so that one shader can be compared with many
 * transformed copies (the equivalence harness runs every pass on it).
 * `step_limit` 0 means the default.  interp_check_equivalent() is
 * create + check + free.
 */
struct interp_baseline;
struct interp_baseline *interp_baseline_create(struct shader *before, unsigned seeds,
					       uint64_t step_limit);
bool interp_baseline_check(struct interp_baseline *base, struct shader *after,
			   const struct interp_tolerance *tol, struct strbuf *diag,
			   struct interp_equiv_stats *stats);
void interp_baseline_free(struct interp_baseline *base);

/* Print a run's results (status, lanes' fates, outputs per lane, written
 * SSBO words, GS vertices) and the inputs that matter most (stage inputs,
 * the first words of buffers, system values), for `shdb compile --interp`
 * and test messages. */
void interp_result_print(const struct shader *s, const struct interp_result *r,
			 struct strbuf *out);
void interp_inputs_print(const struct shader *s, const struct interp_inputs *in,
			 struct strbuf *out);

#endif
