/*
 * Helpers shared by the comparison printers.
 */
#include "cmp/print.h"

#include <stdlib.h>
#include <string.h>

bool stat_changed(const struct stat_cmp *s)
{
	return s->helped.len || s->hurt.len;
}

size_t list_len(const struct cmp_print *p, size_t n)
{
	return p->top && p->top < n ? p->top : n;
}

static int cmp_groups(const void *x, const void *y, void *groups)
{
	const struct group_cmp *gx = &((const group_array *)groups)->data[*(const uint32_t *)x];
	const struct group_cmp *gy = &((const group_array *)groups)->data[*(const uint32_t *)y];
	if (gx->affected != gy->affected)
		return gx->affected > gy->affected ? -1 : 1;
	return strcmp(gx->name, gy->name);
}

void groups_by_affected(const group_array *groups, row_array *out)
{
	for (size_t i = 0; i < groups->len; i++)
		if (groups->data[i].affected || groups->len == 1)
			array_push(out, (uint32_t)i);
	if (out->len > 1)
		qsort_r(out->data, out->len, sizeof(uint32_t), cmp_groups, (void *)groups);
}

const char *better_text(const struct stat_info *info)
{
	return info->higher_better ? "higher is better" : "lower is better";
}

const char *verdict_word(enum verdict v)
{
	switch (v) {
	case VERDICT_NONE:
		return "";
	case VERDICT_INCONCLUSIVE_VALUE:
	case VERDICT_INCONCLUSIVE_REL:
	case VERDICT_INCONCLUSIVE_DISAGREE:
		return "inconclusive";
	case VERDICT_HELPED:
		return "helped";
	case VERDICT_HURT:
		return "HURT";
	}
	return "";
}
