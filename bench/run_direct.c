/*
 * The floor under `shdb run`: compile_file() over a list of files in one
 * process, for every target, no workers, no records written.  bench/10-run.sh
 * compares `shdb run -j1` with it to get the runner's own cost per file.
 *
 *	run_direct ROOT LIST	LIST: one path per line, relative to ROOT
 *
 * Prints "files N seconds S".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compiler/compile.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: run_direct ROOT LIST\n");
		return 2;
	}
	FILE *list = fopen(argv[2], "r");
	if (!list || chdir(argv[1]) < 0) {
		perror("run_direct");
		return 1;
	}
	struct compile_options o;
	compile_options_init(&o);
	char *line = NULL;
	size_t cap = 0, files = 0;
	ssize_t n;
	double start = now();
	while ((n = getline(&line, &cap, list)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		struct compile_output out;
		compile_output_init(&out);
		compile_file(line, &o, targets, num_targets, &out);
		compile_output_release(&out);
		files++;
	}
	printf("files %zu seconds %.3f\n", files, now() - start);
	free(line);
	fclose(list);
	return 0;
}
