/* The runner's small pieces: manifest rows, shard assignment, canonical path
 * order, the tally behind the summary table. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/util/file.h"
#include "runner/inputs.h"
#include "runner/manifest.h"
#include "runner/tally.h"
#include "tap.h"

static void test_manifest(void)
{
	char dir[] = "/tmp/shdb-manifest-XXXXXX";
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	char path[256];
	snprintf(path, sizeof(path), "%s/manifest.tsv", dir);
	static const char tsv[] =
		"repo\tcommit\tpath\tkind\tstages\tglsl_version\tunits\tunits_compiled\tglslang_mode\tlicense\tnote\n"
		"o/r\tabc\tshaders/a.frag\thlsl\tfrag\t\t1\t1\thlsl-vk11\tMIT\t\n"
		"o/r\tabc\tshaders/b.cont\tglsl\ttesc\t400\t1\t1\tincext+vkrelaxed\tMIT\t\n"
		"o/r\tabc\tshaders/inc.glsl\tinclude/other\t\t\t0\t0\t\tMIT\t\n"
		"o/r\tabc\tshaders/c.vert\tglsl\tvert\t450\t1\t1\tvk13\tMIT\t\n";
	struct strbuf err = STRBUF_INIT;
	struct manifest m;
	ok(write_file_atomic(path, tsv, strlen(tsv), &err) == 0, "write a manifest");
	ok(manifest_load(&m, path, &err) == 0, "load it: %s", err.buf);

	const struct manifest_entry *a = manifest_find(&m, "o-r/shaders/a.frag");
	ok(a && a->kind == INPUT_HLSL, "repo o/r lives in folder o-r; kind hlsl");
	ok(a && a->stage == STAGE_FRAGMENT && a->entry && !strcmp(a->entry, "main"),
	   "hlsl-vk11: stage from the stages column, entry main");
	const struct manifest_entry *b = manifest_find(&m, "o-r/shaders/b.cont");
	ok(b && b->kind == INPUT_GLSL && b->stage == STAGE_TESS_CTRL, ".cont is GLSL tesc");
	ok(b && b->include_own_dir && b->glsl_mode == GLSL_MODE_RELAXED, "incext+vkrelaxed");
	const struct manifest_entry *inc = manifest_find(&m, "o-r/shaders/inc.glsl");
	ok(inc && inc->not_shader, "include/other is not a shader");
	const struct manifest_entry *c = manifest_find(&m, "o-r/shaders/c.vert");
	ok(c && c->glsl_mode == GLSL_MODE_VULKAN, "vk13 is strict Vulkan GLSL");
	ok(!manifest_find(&m, "shaders/c.vert"), "without the repo folder: no row");
	manifest_release(&m);

	static const char bad[] = "path\tkind\nx.frag\tglsl\textra\n";
	strbuf_reset(&err);
	write_file_atomic(path, bad, strlen(bad), NULL);
	int bad_ret = manifest_load(&m, path, &err);
	ok(bad_ret < 0 && strstr(err.buf, ":2:"),
	   "a row with the wrong number of fields is located: %s", err.buf);
	manifest_release(&m);
	static const char nopath[] = "file\tkind\nx.frag\tglsl\n";
	strbuf_reset(&err);
	write_file_atomic(path, nopath, strlen(nopath), NULL);
	bad_ret = manifest_load(&m, path, &err);
	ok(bad_ret < 0 && strstr(err.buf, "'path'"), "a path column is required: %s", err.buf);
	manifest_release(&m);
	unlink(path);
	rmdir(dir);
	strbuf_release(&err);
}

static void test_shards(void)
{
	/* FNV-1a 64 is part of the format: shards made by different builds merge */
	is_int(shard_of("", 7), 0xf52a15e9a9b5e89bull % 7, "the empty path");
	is_int(shard_of("a", 7), 0x2c0bdbf481420f8ull % 7, "\"a\"");
	is_int(shard_of("shaders/pbr.frag", 7), 6, "a path");
	unsigned count[4] = { 0 };
	char name[32];
	for (int i = 0; i < 4000; i++) {
		snprintf(name, sizeof(name), "dir/shader%d.frag", i);
		count[shard_of(name, 4)]++;
	}
	ok(count[0] > 900 && count[1] > 900 && count[2] > 900 && count[3] > 900,
	   "4000 paths spread over 4 shards: %u %u %u %u", count[0], count[1], count[2], count[3]);
	ok(path_cmp("a-b.frag", "a/b.frag") < 0 && path_cmp("a/b.frag", "a0.frag") < 0,
	   "paths sort as bytes (LC_ALL=C sort)");
}

static void test_tally(void)
{
	struct tally t;
	tally_init(&t);
	static const char *const recs[] = {
		"{\"path\":\"a\",\"stage\":\"vertex\",\"target\":\"a630\",\"status\":\"ok\",\"stats\":{\"inst\":10,\"nops\":2}}",
		"{\"path\":\"a\",\"stage\":\"vertex\",\"target\":\"a750\",\"status\":\"ok\",\"stats\":{\"inst\":8,\"nops\":1}}",
		"{\"path\":\"b\",\"stage\":\"vertex\",\"target\":\"a630\",\"status\":\"ok\",\"stats\":{\"inst\":5,\"full\":3}}",
		"{\"path\":\"c\",\"stage\":\"vertex\",\"target\":\"a630\",\"status\":\"crash\",\"stats\":{\"inst\":99}}",
		"{\"path\":\"d\",\"stage\":\"none\",\"target\":null,\"status\":\"skipped\",\"stats\":{}}",
	};
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		json_t *j = json_loads(recs[i], 0, NULL);
		tally_add(&t, j);
		json_decref(j);
	}
	json_t *bad = json_loads("{\"status\":\"fine\"}", 0, NULL);
	is_int(tally_add(&t, bad), -1, "an unknown status is not a record");
	json_decref(bad);
	is_int(t.records, 5, "five records");
	is_int(t.rows.len, 3, "three targets, a record without one included");
	is_str(t.rows.data[2].target, "-", "no target is '-'");
	is_int(t.keys.len, 3, "keys inst nops full");
	is_str(t.keys.data[2], "full", "in the order they first appear");
	ok(t.rows.data[0].sums.data[0] == 15, "a630 inst: 10 + 5, the crash left out");
	is_int(t.count[RESULT_CRASH], 1, "one crash");
	tally_release(&t);
}

int main(void)
{
	test_manifest();
	test_shards();
	test_tally();
	return done_testing();
}
