/*
 * Compile time of the ir3 path per shader and target: the whole pipeline
 * (compile_source with the target: parse, optimisation, ir3 lowering,
 * selection, backend) and the backend alone (the same less the front end
 * and optimisation, timed without a target).  Median and p90 over `runs`
 * compiles each, in microseconds.
 *
 *	isel [RUNS] FILE.ir…     (generated shaders are added: a VS with N
 *	                          matrix products, an FS with N texture fetches)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compiler/compile.h"
#include "compiler/target.h"
#include "compiler/util/file.h"
#include "compiler/util/strbuf.h"

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t time_one(const char *name, const struct strbuf *text, const struct target *t)
{
	struct compile_options o;
	struct compile_output out;
	compile_options_init(&o);
	compile_output_init(&out);
	uint64_t t0 = now_ns();
	compile_source(name, text->buf, text->len, &o, t ? &t : NULL, t ? 1 : 0, &out);
	uint64_t ns = now_ns() - t0;
	compile_output_release(&out);
	compile_options_release(&o);
	return ns;
}

/* A VS of n dependent matrix products (UBO at constant offsets). */
static void gen_vs(struct strbuf *sb, unsigned n)
{
	strbuf_addstr(sb, "shader vertex\ninput 0 32x4 location=0\noutput 0 32x4 builtin=position\n"
			  "ubo 0 set=0 binding=0 size=4096\nfn main {\nblock b0:\n"
			  "\t32 %0 = load_const 0\n\t32x4 %1 = @load_input %0 base=0 component=0\n");
	unsigned v = 2, prev = 1;
	for (unsigned k = 0; k < n; k++) {
		unsigned row[4];
		for (unsigned r = 0; r < 4; r++) {
			strbuf_addf(sb, "\t32 %%%u = load_const %u\n", v, (k * 4 + r) * 16 % 4096);
			strbuf_addf(sb, "\t32x4 %%%u = @load_ubo %%0, %%%u align_mul=16 align_offset=0\n",
				    v + 1, v);
			strbuf_addf(sb, "\t32 %%%u = fdot4 %%%u, %%%u\n", v + 2, v + 1, prev);
			row[r] = v + 2;
			v += 3;
		}
		strbuf_addf(sb, "\t32x4 %%%u = vec4 %%%u, %%%u, %%%u, %%%u\n", v, row[0], row[1], row[2],
			    row[3]);
		prev = v++;
	}
	strbuf_addf(sb, "\t@store_output %%%u, %%0 base=0 component=0 write_mask=xyzw\n}\n", prev);
}

/* An FS of n texture fetches at coordinates from the previous results. */
static void gen_fs(struct strbuf *sb, unsigned n)
{
	strbuf_addstr(sb, "shader fragment\ninput 0 32x2 location=0 smooth\noutput 0 32x4 location=0\n"
			  "texture 0 2d float combined set=0 binding=0\n"
			  "sampler 0 combined set=0 binding=0\nfn main {\nblock b0:\n"
			  "\t32 %0 = load_const 0\n\t32x2 %1 = @load_input %0 base=0 component=0\n");
	unsigned v = 2, coord = 1, acc = 0;
	for (unsigned k = 0; k < n; k++) {
		strbuf_addf(sb, "\t32x4 %%%u = tex 2d float texture=0 sampler=0 coord=%%%u\n", v, coord);
		strbuf_addf(sb, "\t32x2 %%%u = fmul %%%u.xy, %%%u.zw\n", v + 1, v, v);
		if (acc)
			strbuf_addf(sb, "\t32x4 %%%u = fadd %%%u, %%%u\n", v + 2, acc, v);
		else
			strbuf_addf(sb, "\t32x4 %%%u = mov %%%u\n", v + 2, v);
		coord = v + 1;
		acc = v + 2;
		v += 3;
	}
	strbuf_addf(sb, "\t@store_output %%%u, %%0 base=0 component=0 write_mask=xyzw\n}\n", acc);
}

struct input {
	char name[256];
	struct strbuf text;
};

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 30;
	if (runs < 3)
		runs = 3;
	struct input *in = calloc((size_t)argc + 8, sizeof(*in));
	size_t n = 0;
	for (int k = 2; k < argc; k++) {
		struct strbuf err = STRBUF_INIT;
		strbuf_init(&in[n].text);
		if (read_file(argv[k], &in[n].text, &err) == 0) {
			const char *base = strrchr(argv[k], '/');
			snprintf(in[n].name, sizeof(in[n].name), "%s", base ? base + 1 : argv[k]);
			n++;
		}
		strbuf_release(&err);
	}
	static const unsigned sizes[] = { 4, 16, 64 };
	for (unsigned k = 0; k < 3; k++) {
		strbuf_init(&in[n].text);
		gen_vs(&in[n].text, sizes[k]);
		snprintf(in[n].name, sizeof(in[n].name), "gen-vs-%u.ir", sizes[k]);
		n++;
		strbuf_init(&in[n].text);
		gen_fs(&in[n].text, sizes[k]);
		snprintf(in[n].name, sizeof(in[n].name), "gen-fs-%u.ir", sizes[k]);
		n++;
	}
	static const char *const tnames[] = { "a306", "a530", "a630", "a740" };
	uint64_t *whole = malloc(sizeof(uint64_t) * (size_t)runs);
	uint64_t *front = malloc(sizeof(uint64_t) * (size_t)runs);
	uint64_t *back = malloc(sizeof(uint64_t) * (size_t)runs);
	printf("%-28s %-5s %10s %10s %10s %10s\n", "shader", "gpu", "whole_med", "whole_p90",
	       "backend_med", "backend_p90");
	for (size_t i = 0; i < n; i++) {
		char path[300];
		snprintf(path, sizeof(path), "%s", in[i].name);
		for (int r = 0; r < runs; r++)
			front[r] = time_one(path, &in[i].text, NULL);
		qsort(front, (size_t)runs, sizeof(uint64_t), cmp_u64);
		uint64_t front_med = front[runs / 2];
		for (unsigned t = 0; t < 4; t++) {
			const struct target *tg = target_find(tnames[t]);
			for (int r = 0; r < runs; r++) {
				whole[r] = time_one(path, &in[i].text, tg);
				back[r] = whole[r] > front_med ? whole[r] - front_med : 0;
			}
			qsort(whole, (size_t)runs, sizeof(uint64_t), cmp_u64);
			qsort(back, (size_t)runs, sizeof(uint64_t), cmp_u64);
			int p90 = runs * 9 / 10;
			printf("%-28s %-5s %10.1f %10.1f %10.1f %10.1f\n", in[i].name, tnames[t],
			       whole[runs / 2] / 1e3, whole[p90] / 1e3, back[runs / 2] / 1e3, back[p90] / 1e3);
		}
		strbuf_release(&in[i].text);
	}
	free(whole);
	free(front);
	free(back);
	free(in);
	return 0;
}
