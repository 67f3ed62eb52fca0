#include "stats/re.h"

pcre2_code *re_compile(const char *pattern, uint32_t flags, const char *what,
		       struct strbuf *err)
{
	int code;
	PCRE2_SIZE offset;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
				       flags | PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &code, &offset, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(code, msg, sizeof(msg));
		strbuf_addf(err, "%s '%s': %s at offset %zu", what, pattern, (const char *)msg,
			    (size_t)offset);
		return NULL;
	}
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);	/* best effort: falls back */
	return re;
}

bool re_search(const pcre2_code *re, const char *s, size_t len, pcre2_match_data *md)
{
	return pcre2_match(re, (PCRE2_SPTR)s, len, 0, 0, md, NULL) >= 0;
}
