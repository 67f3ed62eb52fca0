/*
 * A run's records as Mesa's shader-db log (`shdb stats --format=shaderdb`),
 * the lines shader-db's `run` prints and report.py reads, one per ok record:
 *
 *	lighting/blinn.frag - FRAG shader: 105 inst, 32 nops, 73 non-nops, …, 0 loops
 *
 * Statistics in the order the records list them, under their Mesa names
 * (stats/stats.def); a spills and fills pair as "a:b spills:fills".  Mesa's
 * lines name no target, so the records must be of one target (--target).
 */
#ifndef SHDB_STATS_EXPORT_SHADERDB_H
#define SHDB_STATS_EXPORT_SHADERDB_H

#include <stdio.h>

#include "stats/run.h"

/* Print the log; -1 with the reason in `err` when the records are of
 * several targets. */
int export_shaderdb(FILE *out, const struct run *run, struct strbuf *err);

#endif
