/*
 * The interpreter on shaders nobody wrote: seeded mutations of the golden
 * files (an ALU opcode swapped for another of its family, a source renamed
 * to an earlier value) that still validate are run on random inputs.  Each
 * run must end (ok, step limit or undefined behaviour — never an
 * interpreter error), must not crash or read uninitialised memory (make
 * SANITIZE=1 check), and must repeat itself exactly.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/interp.h"
#include "compiler/util/file.h"
#include "ir_util.h"
#include "tap.h"

#define MUTANTS_PER_FILE 80
#define SEEDS 3

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Opcode families: a member may replace another (same sources, same types). */
static const char *const families[] = {
	" fadd fsub fmul fdiv fmin fmax fpow fmod frem ",
	" iadd isub imul idiv udiv irem imod umod imin imax umin umax iand ior ixor ishl ishr ushr "
	"uadd_sat iadd_sat umul_high imul_high ",
	" fneg fabs fsat fsign frcp frsq fsqrt fexp2 flog2 fsin fcos ffloor fceil ftrunc "
	"fround_even ffract ",
	" ineg iabs isign inot bitfield_reverse ",
	" flt fge feq fneu fltu fgeu fequ fneo ford funord ",
	" ilt ige ult uge ieq ine ",
	" f2i32 f2u32 ",
	" i2f32 u2f32 ",
};

/* The n-th word of a family string (space separated, leading space). */
static void family_word(const char *fam, unsigned n, char *out, size_t cap)
{
	const char *p = fam + 1;
	while (n--)
		p = strchr(p, ' ') + 1;
	size_t len = strcspn(p, " ");
	snprintf(out, cap, "%.*s", (int)(len < cap ? len : cap - 1), p);
}

static unsigned family_size(const char *fam)
{
	unsigned n = 0;
	for (const char *p = fam + 1; *p; p++)
		n += *p == ' ';
	return n;
}

/* Mutate one instruction line in place (into `out`). */
static void mutate_line(const char *line, struct strbuf *out)
{
	const char *eq = strstr(line, " = ");
	const char *pct = strchr(line, '%');
	if (!eq || !pct || pct > eq) {
		strbuf_addstr(out, line);
		return;
	}
	unsigned self = (unsigned)strtoul(pct + 1, NULL, 10);
	const char *op = eq + 3;
	size_t oplen = strcspn(op, " ");
	char word[64];
	snprintf(word, sizeof(word), " %.*s ", (int)(oplen < 60 ? oplen : 60), op);
	for (size_t f = 0; f < sizeof(families) / sizeof(*families); f++) {
		if (rnd() % 3 && strstr(families[f], word)) {
			char repl[64];
			family_word(families[f], (unsigned)(rnd() % family_size(families[f])), repl,
				    sizeof(repl));
			strbuf_add(out, line, (size_t)(op - line));
			strbuf_addstr(out, repl);
			strbuf_addstr(out, op + oplen);
			return;
		}
	}
	/* rename the first source to an earlier value */
	const char *src = strchr(op, '%');
	if (!src || !self) {
		strbuf_addstr(out, line);
		return;
	}
	size_t digits = strspn(src + 1, "0123456789");
	strbuf_add(out, line, (size_t)(src - line));
	strbuf_addf(out, "%%%u", (unsigned)(rnd() % self));
	strbuf_addstr(out, src + 1 + digits);
}

static char *mutant(const char *text)
{
	size_t lines = 1;
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	size_t pick[3];
	for (unsigned k = 0; k < 3; k++)
		pick[k] = (size_t)(rnd() % lines);
	struct strbuf out = STRBUF_INIT, line = STRBUF_INIT;
	size_t n = 0;
	for (const char *p = text; *p; n++) {
		size_t len = strcspn(p, "\n");
		strbuf_reset(&line);
		strbuf_add(&line, p, len);
		if (n == pick[0] || n == pick[1] || n == pick[2])
			mutate_line(line.buf, &out);
		else
			strbuf_addstr(&out, line.buf);
		strbuf_addch(&out, '\n');
		p += len + (p[len] == '\n');
	}
	strbuf_release(&line);
	return strbuf_detach(&out, NULL);
}

struct counts {
	unsigned valid, runs, status[4];
	bool repeat;
};

static void run_mutant(struct shader *s, struct counts *n, const char *file)
{
	for (unsigned seed = 0; seed < SEEDS; seed++) {
		struct interp_inputs *in = interp_inputs_random(s, seed);
		struct interp_options opt = { 5000, seed == 2 };
		struct interp_result *a = interp_run(s, in, &opt), *b = interp_run(s, in, &opt);
		n->runs++;
		n->status[a->status]++;
		if (a->status == INTERP_ERROR)
			tap_diag("%s: %s", file, a->message);
		struct strbuf why = STRBUF_INIT;
		if (a->status == INTERP_OK && !interp_compare(s, a, b, NULL, &why)) {
			n->repeat = false;
			tap_diag("%s: a second run differs: %s", file, why.buf);
		}
		interp_result_print(s, a, &why);
		interp_inputs_print(s, in, &why);
		strbuf_release(&why);
		interp_result_free(a);
		interp_result_free(b);
		interp_inputs_free(in);
	}
}

int main(void)
{
	char **files;
	size_t nfiles = golden_files(&files);
	if (!nfiles)
		return skip_all("no golden files in tests/ir (run from the source root)");
	struct counts n = { .repeat = true };
	for (size_t f = 0; f < nfiles; f++) {
		struct strbuf text = STRBUF_INIT;
		if (read_file(files[f], &text, NULL) < 0)
			continue;
		for (unsigned m = 0; m < MUTANTS_PER_FILE; m++) {
			char *t = mutant(text.buf);
			struct diag d = DIAG_INIT;
			struct shader *s = ir_parse("mutant", t, strlen(t), &d);
			if (s && ir_validate(s, &d, "mutant")) {
				n.valid++;
				run_mutant(s, &n, files[f]);
			}
			if (s)
				shader_free(s);
			diag_release(&d);
			free(t);
		}
		strbuf_release(&text);
	}
	golden_files_free(files, nfiles);
	tap_diag("%u valid mutants, %u runs: %u ok, %u step limit, %u undefined", n.valid, n.runs,
		 n.status[INTERP_OK], n.status[INTERP_STEP_LIMIT], n.status[INTERP_UNDEFINED]);
	ok(n.valid > 100, "enough mutants validate to mean something");
	ok(n.status[INTERP_ERROR] == 0, "the interpreter runs every valid mutant");
	ok(n.repeat, "every run repeats itself exactly");
	return done_testing();
}
