/*
 * --fail-on thresholds checked against a comparison (cmp/fail_on.c).
 */
#ifndef SHDB_CMP_FAIL_ON_H
#define SHDB_CMP_FAIL_ON_H

#include "cmp/print.h"

/* Check `t`; false (with the reason in `err`) when it names nothing the
 * comparison has. */
bool check_fail_on(const struct comparison *c, const struct threshold *t, struct threshold_check *fc,
		   struct strbuf *err);

#endif
