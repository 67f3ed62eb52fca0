/*
 * --fail-on thresholds for CI: when one is crossed, the command exits with
 * status 1 and says why in one line.
 *
 *	[SCOPE:]NAME OP [+|-]NUMBER[%]
 *
 *	inst>+0.5%          the total of inst grew by more than 0.5% (shdb cmp)
 *	total:waves<-1%     the total of waves fell by more than 1%
 *	shader:full>=+2     some shader's full grew by 2 or more
 *	inst>5              the total of inst changed by more than +5 (cmp), or
 *	                    is above 5 (stats)
 *	lost>0  crash>0     counts: which names exist depends on the command
 *
 * OP is >, >=, < or <=; SCOPE is total (the default) or shader.  The change is
 * after - before (so a "helped" change of a lower-is-better statistic is
 * negative); "%" makes it relative to before.
 */
#ifndef SHDB_STATS_THRESHOLD_H
#define SHDB_STATS_THRESHOLD_H

#include <stdbool.h>

#include "compiler/util/strbuf.h"

enum threshold_scope { SCOPE_TOTAL, SCOPE_SHADER };
enum threshold_op { OP_GT, OP_GE, OP_LT, OP_LE };

struct threshold {
	const char *text;		/* as given */
	enum threshold_scope scope;
	char name[128];
	enum threshold_op op;
	double value;			/* a fraction when relative: 0.5% is 0.005 */
	bool relative;
	bool scope_given;		/* "total:" or "shader:" was written */
};

/* The outcome of checking one threshold. */
struct threshold_check {
	const struct threshold *threshold;
	bool crossed;
	char reason[512];	/* one line, "fail-on 'inst>+0.5%': ..." */
};

/* false, with the reason in `err`, when `text` is not a threshold. */
bool threshold_parse(const char *text, struct threshold *t, struct strbuf *err);
/* Does `x` cross it (x OP value)? */
bool threshold_crossed(const struct threshold *t, double x);
const char *threshold_op_text(enum threshold_op op);

#endif
