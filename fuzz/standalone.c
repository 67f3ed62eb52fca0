/*
 * main() for a fuzz target without libFuzzer: runs LLVMFuzzerTestOneInput on
 * each file named, and on each file of each folder named (sorted, names
 * starting with '.' left out), and says which it ran, as TAP:
 *
 *	build/fuzz/fuzz_jsonl tests/fuzz/jsonl
 *	ok 1 - tests/fuzz/jsonl/crash-empty-key
 *	1..1
 *
 * A failing input aborts (FUZZ_CHECK) or trips a sanitizer, so the run stops
 * at it with its name printed last.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiler/util/array.h"
#include "compiler/util/error.h"
#include "compiler/util/file.h"
#include "fuzz/fuzz.h"

static unsigned count;

static void run_file(const char *path)
{
	struct strbuf data = STRBUF_INIT, err = STRBUF_INIT;
	printf("# %s\n", path);
	fflush(stdout);
	if (read_file(path, &data, &err) < 0) {
		printf("not ok %u - %s\n", ++count, err.buf);
		exit(1);
	}
	/* as libFuzzer gives it: a buffer of exactly the input's size, so that
	 * the sanitizer sees a read past its end (a strbuf ends in a NUL) */
	uint8_t *exact = xmalloc(data.len ? data.len : 1);
	memcpy(exact, data.buf, data.len);
	LLVMFuzzerTestOneInput(exact, data.len);
	free(exact);
	printf("ok %u - %s\n", ++count, path);
	strbuf_release(&data);
	strbuf_release(&err);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_dir(const char *dir)
{
	ARRAY(char *) names = ARRAY_INIT;
	DIR *d = opendir(dir);
	if (!d) {
		printf("not ok %u - cannot open %s\n", ++count, dir);
		exit(1);
	}
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.')
			array_push(&names, xstrdup(e->d_name));
	closedir(d);
	if (names.len)
		qsort(names.data, names.len, sizeof(char *), by_name);
	for (size_t i = 0; i < names.len; i++) {
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", dir, names.data[i]);
		if (!is_directory(path.buf))
			run_file(path.buf);
		strbuf_release(&path);
		free(names.data[i]);
	}
	array_free(&names);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (is_directory(argv[i]))
			run_dir(argv[i]);
		else
			run_file(argv[i]);
	}
	printf("1..%u\n", count);
	return 0;
}
