/*
 * The body of the three fuzz targets of shdb stats' readers (fuzz_jsonl.c,
 * fuzz_mesa.c, fuzz_fossil.c): the input read as one kind into a run's table
 * (stats/run.c, so run_add_record is fuzzed too), then summarised.
 */
#include "fuzz/fuzz.h"
#include "stats/run.h"
#include "stats/summary.h"

static int fuzz_stats_reader(const uint8_t *data, size_t size, enum source_kind kind)
{
	const char *path = fuzz_file(data, size);
	struct diag d = DIAG_INIT;
	struct run run;
	run_init(&run);
	struct reader rd = READER_INIT(&d, run_add_record, &run);
	run.reader = &rd;
	run.source = path;
	if (read_input(&rd, path, kind) == 0)
		FUZZ_CHECK(!rd.errors || fuzz_located(&d, path), "an error not located: '%s'",
			   d.text.buf);
	run.reader = NULL;
	struct run_summary sum;
	struct summary_options so = { .by = BY_TARGET_STAGE, .top = 10, .histogram = true };
	struct strbuf err = STRBUF_INIT;
	FUZZ_CHECK(summarize_run(&sum, &run, &so, &err), "summary: %s", err.buf);
	run_summary_release(&sum);
	strbuf_release(&err);
	reader_release(&rd);
	run_release(&run);
	diag_release(&d);
	return 0;
}
