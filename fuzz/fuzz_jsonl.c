/*
 * Fuzz target: JSONL records (stats/read_jsonl.c), read into a run (fuzz/stats_reader.h).
 */
#include "fuzz/stats_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_stats_reader(data, size, SOURCE_JSONL);
}
