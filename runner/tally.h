/*
 * Counting a run's records for run.json and the summary table: per target, the
 * records of each status and the sum of every numeric statistic of the `ok`
 * records.  Targets and statistic keys keep the order in which they first
 * appear; records are added in canonical order, so the table is the same
 * whatever -j (and the same after --resume or --merge).
 */
#ifndef SHDB_RUNNER_TALLY_H
#define SHDB_RUNNER_TALLY_H

#include <jansson.h>
#include <stdio.h>

#include "compiler/compile.h"
#include "compiler/util/array.h"
#include "compiler/util/hash.h"

#define TALLY_STATUSES 5	/* enum result_status: ok error crash timeout skipped */

struct tally_row {
	char *target;		/* "-" for records without a target */
	size_t count[TALLY_STATUSES];
	ARRAY(double) sums;	/* indexed like tally.keys */
};

struct tally {
	ARRAY(char *) keys;
	struct strmap key_index;	/* key → index + 1 */
	ARRAY(struct tally_row) rows;
	struct strmap row_index;	/* target → index + 1 */
	size_t records;
	size_t count[TALLY_STATUSES];
};

void tally_init(struct tally *t);
void tally_release(struct tally *t);

/* Add one parsed record; returns its status, or -1 (nothing added) when it is
 * not a record (no "status" string of the five). */
int tally_add(struct tally *t, json_t *rec);

/* The status of a parsed record, or -1 when it is not a record. */
int tally_status_of(json_t *rec);

/* {"ok": N, "error": N, "crash": N, "timeout": N, "skipped": N} */
json_t *tally_counts_json(const struct tally *t);

/* The summary table: one row per target with the status counts, then the
 * statistic sums in tables of at most eight columns. */
void tally_print(const struct tally *t, FILE *f);

/* The status named `s`, or -1. */
int status_from_name(const char *s);

#endif
