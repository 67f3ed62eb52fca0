/*
 * Records from fossilize-replay's pipeline statistics CSV
 * (`--enable-pipeline-stats out.csv`, shaderdb-tools.md §3.6):
 *
 *	Database,Pipeline type,Pipeline hash,PSO wall duration (ns),PSO duration (ns),
 *	    Stage duration (ns),Executable name,Subgroup size,Max Waves Per Core,...
 *	fossils/app1/app1.foz,GRAPHICS,0123456789abcdef,1200000,1100000,500000,VS,128,16,...
 *
 * One record per row: path "Database/Pipeline hash", stage the executable name
 * as printed (any name: "Mesh Shader" is as good as "VS"), statistics every
 * column after the fixed ones, whatever the driver.  A header line may come
 * again (concatenated CSVs, one per .foz) with other columns: each header
 * applies to the rows after it.  Hash columns are not statistics; durations
 * give the time; empty cells are missing values; true/false read as 1/0.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>

#include "stats/input.h"

enum column_role {
	COL_STAT,
	COL_IGNORED,
	COL_DATABASE,
	COL_PIPELINE_HASH,
	COL_EXECUTABLE,
	COL_STAGE_NS,
};

struct csv {
	ARRAY(char *) names;		/* of the current header, owned */
	ARRAY(enum column_role) roles;
	ARRAY(struct span) fields;	/* of the line being read */
	struct strbuf path;		/* "Database/Pipeline hash" */
	int header_line;		/* 0 before the first header */
	bool header_bad;		/* its rows are skipped: its error says why */
};

static bool has_hash(const char *name)
{
	for (const char *p = name; *p; p++)
		if (!strncasecmp(p, "hash", 4))
			return true;
	return false;
}

static enum column_role role_of(const char *name)
{
	static const struct {
		const char *name;
		enum column_role role;
	} fixed[] = {
		{ "Database", COL_DATABASE },
		{ "Pipeline hash", COL_PIPELINE_HASH },
		{ "Executable name", COL_EXECUTABLE },
		{ "Stage duration (ns)", COL_STAGE_NS },
		{ "Pipeline type", COL_IGNORED },
		{ "PSO wall duration (ns)", COL_IGNORED },
		{ "PSO duration (ns)", COL_IGNORED },
		{ "Subgroup size", COL_IGNORED },
	};
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcmp(name, fixed[i].name))
			return fixed[i].role;
	return has_hash(name) ? COL_IGNORED : COL_STAT;
}

/* The field at `p` (in double quotes it may hold commas; quotes are dropped,
 * a doubled "" inside is kept as is); returns where the field ends. */
static const char *next_field(const char *p, const char *end, struct span *out)
{
	if (p == end || *p != '"') {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *stop = comma ? comma : end;
		*out = (struct span){ p, (size_t)(stop - p) };
		return stop;
	}
	const char *start = ++p;
	while (p < end && !(*p == '"' && (p + 1 == end || p[1] != '"')))
		p += *p == '"' ? 2 : 1;
	*out = (struct span){ start, (size_t)(p - start) };
	const char *comma = memchr(p, ',', (size_t)(end - p));
	return comma ? comma : end;
}

static void split_fields(struct csv *csv, const char *line, size_t len)
{
	const char *p = line, *end = line + len;
	csv->fields.len = 0;
	for (;;) {
		struct span f;
		p = next_field(p, end, &f);
		array_push(&csv->fields, f);
		if (p == end)
			break;
		p++;
	}
}

static void csv_release(struct csv *csv)
{
	for (size_t i = 0; i < csv->names.len; i++)
		free(csv->names.data[i]);
	array_free(&csv->names);
	array_free(&csv->roles);
	array_free(&csv->fields);
	strbuf_release(&csv->path);
}

/* The index of the column named like column i before it, or -1. */
static long named_before(const struct csv *csv, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(csv->names.data[j], csv->names.data[i]))
			return (long)j;
	return -1;
}

/* Whether the header's columns can be used: each named (but for a trailing
 * comma's empty last one, ignored), and named once. */
static bool header_names_ok(struct reader *rd, struct csv *csv, int lineno)
{
	for (size_t i = 0; i < csv->names.len; i++) {
		long j = named_before(csv, i);
		if (!*csv->names.data[i] && i && i + 1 == csv->names.len) {
			csv->roles.data[i] = COL_IGNORED;
		} else if (!*csv->names.data[i]) {
			reader_error(rd, lineno, 0, "CSV header: column %zu has no name; the rows "
				     "under it are skipped", i + 1);
			return false;
		} else if (j >= 0) {
			reader_error(rd, lineno, 0, "CSV header: columns %ld and %zu are both "
				     "\"%s\"; the rows under it are skipped", j + 1, i + 1,
				     csv->names.data[i]);
			return false;
		}
	}
	return true;
}

/* A header line.  A bad one (a column without a name or named twice, or the
 * key columns missing) is an error, and the rows under it are skipped. */
static void take_header(struct reader *rd, struct csv *csv, int lineno)
{
	for (size_t i = 0; i < csv->names.len; i++)
		free(csv->names.data[i]);
	csv->names.len = csv->roles.len = 0;
	csv->header_line = lineno;
	bool need[COL_STAGE_NS + 1] = { 0 };
	for (size_t i = 0; i < csv->fields.len; i++) {
		struct span f = csv->fields.data[i];
		char *name = xstrndup(f.p, f.len);
		array_push(&csv->names, name);
		array_push(&csv->roles, role_of(name));
		need[csv->roles.data[i]] = true;
	}
	csv->header_bad = !header_names_ok(rd, csv, lineno);
	if (!csv->header_bad && (!need[COL_PIPELINE_HASH] || !need[COL_EXECUTABLE])) {
		reader_error(rd, lineno, 0, "CSV header without \"Pipeline hash\" and "
			     "\"Executable name\" columns; the rows under it are skipped");
		csv->header_bad = true;
	}
}

static void stat_cell(struct reader *rd, struct csv *csv, size_t i, struct span f, int lineno)
{
	double v;
	if (!f.len)
		return;
	if (span_eq(f, "true") || span_eq(f, "false"))
		v = span_eq(f, "true");
	else if (!parse_number(f.p, f.len, &v)) {
		reader_warning(rd, lineno, 0, "\"%s\" is \"%.*s\", not a number; ignored",
			       csv->names.data[i], (int)f.len, f.p);
		return;
	}
	const char *name = csv->names.data[i];
	array_push(&rd->pairs, (struct stat_pair){ { name, strlen(name) }, v });
}

/* The fixed columns of one row. */
static void fixed_cell(struct reader *rd, enum column_role role, struct span f, struct record *r,
		       struct span *db, struct span *hash)
{
	double ns;
	if (role == COL_DATABASE)
		*db = f;
	else if (role == COL_PIPELINE_HASH)
		*hash = f;
	else if (role == COL_EXECUTABLE)
		r->stage = f;
	else if (role == COL_STAGE_NS && parse_number(f.p, f.len, &ns)) {
		r->time_us = ns / 1000.0;
		rd->cpu_seconds += ns / 1e9;
	}
}

static void take_row(struct reader *rd, struct csv *csv, int lineno)
{
	size_t n = csv->fields.len;
	if (n == csv->roles.len + 1 && !csv->fields.data[n - 1].len)
		n--;	/* a trailing comma */
	if (n != csv->roles.len) {
		reader_error(rd, lineno, 0, "row of %zu fields under a header of %zu (line %d)", n,
			     csv->roles.len, csv->header_line);
		return;
	}
	struct record r = { .stage = SPAN_LIT(""), .target = SPAN_LIT(""), .time_us = NAN,
			    .line = lineno };
	struct span db = SPAN_LIT(""), hash = SPAN_LIT("");
	rd->pairs.len = 0;
	for (size_t i = 0; i < n; i++) {
		if (csv->roles.data[i] == COL_STAT)
			stat_cell(rd, csv, i, csv->fields.data[i], lineno);
		else
			fixed_cell(rd, csv->roles.data[i], csv->fields.data[i], &r, &db, &hash);
	}
	strbuf_reset(&csv->path);
	strbuf_addf(&csv->path, "%.*s/%.*s", (int)db.len, db.p, (int)hash.len, hash.p);
	r.path = (struct span){ csv->path.buf, csv->path.len };
	r.stats = rd->pairs.data;
	r.nstats = rd->pairs.len;
	rd->emit(rd->ctx, &r);
	rd->records++;
}

void read_fossil_csv(struct reader *rd, struct line_reader *lr)
{
	struct csv csv = { .path = STRBUF_INIT };
	size_t len;
	for (char *line; (line = line_reader_next(lr, &len));) {
		if (!len)
			continue;
		split_fields(&csv, line, len);
		if (span_eq(csv.fields.data[0], "Database"))
			take_header(rd, &csv, lr->lineno);
		else if (!csv.header_line)
			reader_error(rd, lr->lineno, 0, "a CSV row before any header line");
		else if (csv.header_bad)
			continue;
		else if (lr->unterminated)
			reader_error(rd, lr->lineno, 0, "truncated row: the file ends inside it");
		else
			take_row(rd, &csv, lr->lineno);
	}
	csv_release(&csv);
}
