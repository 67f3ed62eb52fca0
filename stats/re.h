/*
 * PCRE2 (8-bit) for the runner: --include/--exclude, --stat-pattern and the
 * ir3 preset.  Include this instead of <pcre2.h>.
 */
#ifndef SHDB_STATS_RE_H
#define SHDB_STATS_RE_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>
#include <stdbool.h>
#include <stddef.h>

#include "compiler/util/strbuf.h"

/* Compile `pattern` (with `flags`, e.g. PCRE2_MULTILINE); on error returns NULL
 * and puts "what: pattern: message at offset N" in `err`. */
pcre2_code *re_compile(const char *pattern, uint32_t flags, const char *what,
		       struct strbuf *err);

/* Does `re` match anywhere in the `len` bytes of `s`?  `md` is scratch space
 * (pcre2_match_data_create(…)); a matching error counts as no match. */
bool re_search(const pcre2_code *re, const char *s, size_t len, pcre2_match_data *md);

#endif
