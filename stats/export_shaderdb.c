/*
 * Mesa's shader-db log from a run's records; see export_shaderdb.h.
 */
#include "stats/export_shaderdb.h"

#include <string.h>

#include "stats/stage.h"
#include "stats/format.h"

/* Targets the records name (records without a target aside). */
static size_t named_targets(const struct run *run)
{
	size_t n = 0;
	for (size_t i = 0; i < run->targets.list.len; i++)
		n += *run->targets.list.data[i] != '\0';
	return n;
}

static const char *mesa_stage(const char *stage)
{
	enum shader_stage s = stage_from_name(stage);
	return s == STAGE_NONE ? stage : stage_mesa_name(s);
}

/* One record's statistics: "12 inst, 3 nops, 1:2 spills:fills". */
static void add_stats(struct strbuf *sb, const struct run *run, size_t row)
{
	const struct column *fills = run_column(run, "fills");
	const char *sep = "";
	double v, f;
	for (size_t k = 0; k < run->cols.len; k++) {
		const struct column *c = run->cols.data[k];
		if (c == fills || !column_get(c, row, &v))
			continue;
		strbuf_addstr(sb, sep);
		fmt_num(sb, v);
		if (!strcmp(c->info->key, "spills") && fills && column_get(fills, row, &f)) {
			strbuf_addch(sb, ':');
			fmt_num(sb, f);
			strbuf_addstr(sb, " spills:fills");
		} else {
			strbuf_addf(sb, " %s", c->info->mesa);
		}
		sep = ", ";
	}
}

int export_shaderdb(FILE *out, const struct run *run, struct strbuf *err)
{
	if (named_targets(run) > 1) {
		strbuf_addf(err, "%s has records of %zu targets: choose one with --target (Mesa's "
			    "lines name none)", run->label, named_targets(run));
		return -1;
	}
	struct strbuf line = STRBUF_INIT;
	for (size_t row = 0; row < run->rows.len; row++) {
		if (run->rows.data[row].status != STATUS_OK)
			continue;
		strbuf_reset(&line);
		strbuf_addf(&line, "%s - %s shader: ", run_path(run, row), mesa_stage(run_stage(run, row)));
		add_stats(&line, run, row);
		strbuf_addch(&line, '\n');
		fwrite(line.buf, 1, line.len, out);
	}
	strbuf_release(&line);
	return 0;
}
