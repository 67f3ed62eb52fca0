#include "runner/tally.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/util/error.h"

#define STATS_PER_TABLE 8

void tally_init(struct tally *t)
{
	memset(t, 0, sizeof(*t));
}

void tally_release(struct tally *t)
{
	for (size_t i = 0; i < t->keys.len; i++)
		free(t->keys.data[i]);
	array_free(&t->keys);
	for (size_t i = 0; i < t->rows.len; i++) {
		free(t->rows.data[i].target);
		array_free(&t->rows.data[i].sums);
	}
	array_free(&t->rows);
	strmap_release(&t->key_index);
	strmap_release(&t->row_index);
	memset(t, 0, sizeof(*t));
}

int status_from_name(const char *s)
{
	for (int i = 0; i < TALLY_STATUSES; i++)
		if (!strcmp(s, result_status_name((enum result_status)i)))
			return i;
	return -1;
}

static struct tally_row *row_for(struct tally *t, const char *target)
{
	bool inserted;
	struct strmap_entry *e = strmap_put(&t->row_index, target, strlen(target), &inserted);
	if (inserted) {
		struct tally_row *r = array_push_zero(&t->rows);
		r->target = xstrdup(target);
		e->value = (void *)(uintptr_t)t->rows.len;
	}
	return &t->rows.data[(uintptr_t)e->value - 1];
}

static size_t key_for(struct tally *t, const char *key)
{
	bool inserted;
	struct strmap_entry *e = strmap_put(&t->key_index, key, strlen(key), &inserted);
	if (inserted) {
		array_push(&t->keys, xstrdup(key));
		e->value = (void *)(uintptr_t)t->keys.len;
	}
	return (uintptr_t)e->value - 1;
}

int tally_status_of(json_t *rec)
{
	const char *status = json_string_value(json_object_get(rec, "status"));
	return status ? status_from_name(status) : -1;
}

int tally_add(struct tally *t, json_t *rec)
{
	int s = tally_status_of(rec);
	if (s < 0)
		return -1;
	const char *target = json_string_value(json_object_get(rec, "target"));
	struct tally_row *row = row_for(t, target ? target : "-");
	row->count[s]++;
	t->count[s]++;
	t->records++;
	if (s != RESULT_OK)
		return s;

	const char *key;
	json_t *v;
	json_object_foreach(json_object_get(rec, "stats"), key, v) {
		if (!json_is_number(v))
			continue;
		size_t k = key_for(t, key);
		while (row->sums.len <= k)
			array_push(&row->sums, 0.0);
		row->sums.data[k] += json_number_value(v);
	}
	return s;
}

json_t *tally_counts_json(const struct tally *t)
{
	json_t *o = json_object();
	for (int i = 0; i < TALLY_STATUSES; i++)
		json_object_set_new(o, result_status_name((enum result_status)i),
				    json_integer((json_int_t)t->count[i]));
	return o;
}

static void print_number(FILE *f, int width, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, " %*.0f", width, v);
	else
		fprintf(f, " %*.6g", width, v);
}

static int target_width(const struct tally *t)
{
	int w = 6;
	for (size_t i = 0; i < t->rows.len; i++)
		if ((int)strlen(t->rows.data[i].target) > w)
			w = (int)strlen(t->rows.data[i].target);
	return w;
}

static void print_counts(const struct tally *t, FILE *f, int tw)
{
	fprintf(f, "%-*s %9s %9s %9s %9s %9s %9s\n", tw, "target", "records", "ok", "error",
		"crash", "timeout", "skipped");
	for (size_t i = 0; i < t->rows.len; i++) {
		const struct tally_row *r = &t->rows.data[i];
		size_t total = 0;
		for (int s = 0; s < TALLY_STATUSES; s++)
			total += r->count[s];
		fprintf(f, "%-*s %9zu", tw, r->target, total);
		for (int s = 0; s < TALLY_STATUSES; s++)
			fprintf(f, " %9zu", r->count[s]);
		fputc('\n', f);
	}
	if (t->rows.len > 1) {
		fprintf(f, "%-*s %9zu", tw, "all", t->records);
		for (int s = 0; s < TALLY_STATUSES; s++)
			fprintf(f, " %9zu", t->count[s]);
		fputc('\n', f);
	}
}

static void print_sums(const struct tally *t, FILE *f, int tw, size_t first, size_t n)
{
	int w[STATS_PER_TABLE];
	fprintf(f, "%-*s", tw, "target");
	for (size_t k = 0; k < n; k++) {
		w[k] = (int)strlen(t->keys.data[first + k]);
		w[k] = w[k] < 10 ? 10 : w[k];
		fprintf(f, " %*s", w[k], t->keys.data[first + k]);
	}
	fputc('\n', f);
	for (size_t i = 0; i < t->rows.len; i++) {
		const struct tally_row *r = &t->rows.data[i];
		if (!r->count[RESULT_OK])
			continue;
		fprintf(f, "%-*s", tw, r->target);
		for (size_t k = 0; k < n; k++)
			print_number(f, w[k], first + k < r->sums.len ? r->sums.data[first + k] : 0);
		fputc('\n', f);
	}
}

void tally_print(const struct tally *t, FILE *f)
{
	int tw = target_width(t);
	print_counts(t, f, tw);
	if (!t->keys.len) {
		fprintf(f, "\nno statistics: no ok record carries any\n");
		return;
	}
	fprintf(f, "\nstatistics, summed over the ok records:\n");
	for (size_t first = 0; first < t->keys.len; first += STATS_PER_TABLE) {
		size_t n = t->keys.len - first;
		print_sums(t, f, tw, first, n < STATS_PER_TABLE ? n : STATS_PER_TABLE);
		if (first + STATS_PER_TABLE < t->keys.len)
			fputc('\n', f);
	}
}
