/*
 * What the simulator's files share (sim.c, sim_alu.c, sim_mem.c,
 * sim_tex.c, sim_bind.c): the run's state.  Not for users: see ir3_sim.h.
 *
 * Registers are 16-bit units, per fibre: full rN.c is units 2(4N+c) and
 * 2(4N+c)+1 (low, high); a half register hrN.c is unit 4N+c where half
 * registers alias the full file (merged, a6xx+), 512 + 4N+c in the
 * separate half file before; p0.x–w and a0.x, a1.x follow.  Each unit has
 * a poison bit, the instruction that last wrote it and, when poison came
 * from a read the timing model refused, the instruction that read it.
 */
#ifndef SHDB_IR3_SIM_PRIV_H
#define SHDB_IR3_SIM_PRIV_H

#include "compiler/ir/interp.h"
#include "compiler/ir3/ir3_ir.h"	/* ir3's foreach_* and TYPE_* (see there) */
#include "compiler/ir3/ir3_iface.h"
#include "compiler/ir3/sim/ir3_sim.h"

#define SIM_GPR_COMPS 256		/* r0.x–r63.w */
#define SIM_HALF_FILE 512		/* first unit of the separate half file */
#define SIM_P_UNIT 1024			/* p0.x–p0.w */
#define SIM_A_UNIT 1028			/* a0.x, a1.x */
#define SIM_UNITS 1030
#define SIM_CONSTS (4 * 1024)		/* const components */
#define SIM_NONE INT64_MIN
#define SIM_MAX_ALIASES 32
#define SIM_MAX_FIBRES 1024		/* as the interpreter's lanes */

/* One instruction of the flattened program. */
struct sinstr {
	const struct ir3_instruction *i;
	uint32_t target;		/* branch target's pc */
	unsigned block;			/* for messages */
};

/* A region of memory: bytes, their tags (INTERP_TAG_*) and who wrote each. */
struct smem {
	uint8_t *data, *tags;
	uint32_t *writer;		/* pc + 1 of the last store, 0: the input */
	uint32_t size;
	uint64_t base;			/* its address (global address space) */
	bool read_only;
};

/* Per-wave timing (targets.md §1.6): the wave's clock, its sync points
 * and the alias.tex in effect; what each fibre's registers wait for is
 * per fibre (struct srun), as Mesa's legalize tracks it per path. */
struct stiming {
	int64_t cycle;
	uint32_t tick;			/* instructions run */
	uint32_t ss_tick, sy_tick;	/* the last (ss), (sy) */
	bitset_word const_ss[BITSET_WORDS(SIM_CONSTS)];
	bool barrier_ss, barrier_sy;
	unsigned barrier_block;		/* the block of the last cat7 barrier */
	/* alias.tex: register units the next texture instruction reads elsewhere */
	unsigned num_aliases;
	struct { unsigned unit; const struct ir3_register *src; unsigned elem; } alias[SIM_MAX_ALIASES];
};

enum fibre_state { FIBRE_RUNNING, FIBRE_ENDED, FIBRE_KILLED, FIBRE_AT_BARRIER };

struct swave {
	unsigned first, count;		/* fibres (lanes) */
	struct stiming *t;
	bool done, at_barrier;
};

/* The simulator as ir3_sim_create() prepared it. */
struct ir3_sim {
	struct arena arena;
	struct ir3 *ir;
	const struct ir3_iface *f;
	const struct ir3_info *t;
	struct shader *s;		/* the source shader: declarations */
	const struct shader *lowered;	/* the lowered one, once a backend is made */
	struct sinstr *prog;
	unsigned nprog;
	const struct ir3_instruction *end;	/* the `end` */
	const struct ir3_instruction **setup;	/* inputs and texture prefetches */
	unsigned nsetup;
	unsigned wave_size;

	/* the last run, for ir3_sim_origin() */
	struct srun *last;
};

/* One run. */
struct srun {
	struct ir3_sim *sim;
	const struct interp_inputs *in;
	struct interp_result *res;	/* what the run returns (the caller frees it) */
	struct arena arena;
	unsigned nf;			/* fibres */
	uint16_t *reg;			/* [fibre][unit] */
	uint8_t *poison;
	uint32_t *writer;		/* pc + 1; 0: an input, or never written */
	uint32_t *cause;		/* pc + 1 of a refused read that made it poison */
	uint8_t *state;			/* enum fibre_state */
	uint8_t *demoted;
	uint32_t *pc;
	uint8_t *active;		/* runs the current instruction */
	struct swave *waves;
	unsigned nwaves;
	struct swave *wave;		/* the wave running */

	uint32_t consts[SIM_CONSTS];
	uint8_t const_set[SIM_CONSTS];	/* defined by the harness or an stc */

	struct smem *ssbo;		/* per slot */
	unsigned nssbo;
	struct smem global, shared;
	struct smem *ubo;		/* per slot (a3xx–a5xx read them with ldg) */
	unsigned nubo;
	struct smem *priv;		/* per fibre */
	struct smem tess_param, tess_factor;
	/* geometry: fibres per lane (vertices_out; 0 for other stages), each
	 * fibre's vertex_flags output (lower_ir3_gs) and poison, and the
	 * fibre of each event of the result */
	unsigned gs_verts;
	uint32_t *gs_flags;
	uint8_t *gs_flags_poison;
	unsigned *gs_event_fibre;
	uint8_t *gs_local;		/* local memory as the run started (the inputs) */
	struct smem *image;		/* per slot: 4 dwords per texel, as the interpreter's */
	unsigned nimage;
	uint8_t **image_tags;		/* per slot: 4 per texel; NULL until written */

	/* output render targets alias.rt wrote: rtN.c */
	uint32_t rt[32];
	uint8_t rt_set[32];
	uint32_t rt_writer[32];
	/* the outputs `end` gives, per declaration: the result's, or (a
	 * geometry shader) per fibre, which sim_stage_finish() makes the
	 * lanes' vertices */
	struct interp_output *outs;
	uint32_t **out_writer;		/* per output declaration and component: pc + 1 */
	uint32_t **out_cause;		/* … and the refused read that made it poison */

	bool preamble_done;
	uint64_t steps, step_limit;
	bool stop;
	enum interp_status status;
	struct strbuf msg;		/* why the run stopped */
	/* timing per fibre and unit: the cycle an ALU result was written
	 * (INT32_MIN: none) and its size, the tick an asynchronous result or
	 * source became pending (0: none) and the instruction (pc + 1) */
	int32_t *t_written;
	uint8_t *t_half;
	uint32_t *t_ss, *t_sy, *t_war_ss, *t_war_any, *t_pend_by, *t_war_by;
	/* the current instruction: per fibre, source elements the timing
	 * refused (a bit per element of sources 0–15) */
	uint32_t *refused;
	/* the first read the timing model refused */
	uint32_t first_refused;		/* pc + 1, 0 none */
	struct strbuf refused_msg;
};

/* ---- register units ---- */

static inline unsigned sim_full_unit(unsigned comp) { return 2 * comp; }
unsigned sim_unit(const struct ir3_sim *sim, const struct ir3_register *r, unsigned comp);
/* Units per component of r: 2 for full, 1 for half, predicates, a0. */
static inline unsigned sim_unit_count(const struct ir3_register *r)
{
	return (r->flags & (IR3_REG_HALF | IR3_REG_PREDICATE | IR3_REG_ADDR)) ? 1 : 2;
}

static inline size_t sim_at(const struct srun *r, unsigned f, unsigned unit)
{
	(void)r;
	return (size_t)f * SIM_UNITS + unit;
}

/* A source or destination element's value for fibre f: bits, poison and
 * where poison came from. */
struct sval {
	uint32_t bits;
	bool poison;
	uint32_t cause;			/* pc + 1 of the refused read, or 0 */
};

/* sim.c */
__attribute__((format(printf, 2, 3))) void sim_stop(struct srun *r, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void sim_error(struct srun *r, const char *fmt, ...);
/* Read element `e` of source `n` of the instruction at `pc` for fibre f
 * (the timing was checked before: `refused` says the read came too
 * early).  Consts, immediates, relative consts, modifiers not applied. */
struct sval sim_read(struct srun *r, uint32_t pc, unsigned f, const struct ir3_register *src,
		     unsigned e);
/* Element e of source n of a texture instruction, through alias.tex. */
struct sval sim_read_tex(struct srun *r, uint32_t pc, unsigned f, unsigned n, unsigned e);
void sim_write(struct srun *r, uint32_t pc, unsigned f, const struct ir3_register *dst,
	       unsigned e, struct sval v);
/* The refusals of the current instruction's reads, per source element:
 * set by the timing check, read by sim_read. */
bool sim_refused(struct srun *r, const struct ir3_register *src, unsigned e);
void sim_print_instr(struct strbuf *sb, const struct ir3_sim *sim, uint32_t pc);
/* A write-after-read hazard on the asynchronous instruction at `pc`. */
void sim_war_poison(struct srun *r, uint32_t pc, unsigned f);

/* sim_alu.c: cat1–cat4 */
void sim_exec_alu(struct srun *r, uint32_t pc);
/* An f32 value from a half float or back (conversions the ALU shares). */
uint32_t sim_f16_to_f32(uint32_t h);
uint32_t sim_f32_to_f16(uint32_t f);

/* sim_mem.c: cat6, memory regions */
void sim_mem_setup(struct srun *r);
void sim_exec_mem(struct srun *r, uint32_t pc);
void sim_mem_finish(struct srun *r);
/* A fresh region of `size` bytes at address `base`, poison or 0. */
void sim_mem_region(struct srun *r, struct smem *m, uint32_t size, uint64_t base, bool poison);

/* sim_tex.c: cat5, and the texture prefetches before the first instruction */
void sim_exec_tex(struct srun *r, uint32_t pc);
void sim_prefetch(struct srun *r, const struct ir3_instruction *i);

/* sim_stage.c: tessellation and geometry I/O through memory */
/* The fibres a run on `in` takes: a lane each, a geometry shader's
 * vertices_out per lane. */
unsigned sim_stage_fibres(const struct ir3_sim *sim, const struct interp_inputs *in);
void sim_stage_setup(struct srun *r);
void sim_stage_finish(struct srun *r);
bool sim_stage_sysval(struct srun *r, enum intrinsic op, unsigned f, unsigned k, uint32_t *v);
/* A geometry shader's output `decl` (the lowered shader's: vertex_flags
 * is past the source's) of fibre f: true when it took it. */
bool sim_stage_output(struct srun *r, unsigned f, unsigned decl, struct sval v);
/* The fibre that emitted event `event` of `lane` (a geometry shader), or -1. */
int sim_stage_event_fibre(const struct srun *r, unsigned lane, int event);
void sim_stage_lowered_inputs(struct srun *r, struct interp_inputs *out);
void sim_stage_lowered_result(struct srun *r, struct interp_result *run);

/* sim_bind.c: the interface */
void sim_set_const(struct srun *r, unsigned comp, uint32_t v);
void sim_bind_inputs(struct srun *r);
void sim_bind_outputs(struct srun *r, unsigned f);
void sim_bind_rt(struct srun *r, const struct ir3_instruction *alias, uint32_t pc);
/* FS: bary.f / flat.b of varying `inloc` for fibre f at barycentrics ij. */
struct sval sim_varying(struct srun *r, unsigned f, unsigned inloc, float i, float j, bool flat);

#endif
