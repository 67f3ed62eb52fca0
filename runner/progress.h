/*
 * The progress line of `shdb run`, on standard error when it is a terminal and
 * nowhere otherwise:
 *
 *	[#########...........]  1234/4576  27%  350 files/s  ETA 0:10  failures 12
 *
 * The rate counts the files done in this session (a resumed run does not
 * count the files its earlier sessions did).
 */
#ifndef SHDB_RUNNER_PROGRESS_H
#define SHDB_RUNNER_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct progress {
	bool enabled;
	bool drawn;
	size_t total;		/* files in the run */
	size_t before;		/* done by earlier sessions (--resume) */
	uint64_t start_ms;
	uint64_t last_ms;
};

void progress_init(struct progress *p, size_t total, size_t before, bool enabled);
/* Redraw (at most ten times a second unless `force`). */
void progress_update(struct progress *p, size_t done, size_t failures, bool force);
/* Erase the line. */
void progress_end(struct progress *p);

#endif
