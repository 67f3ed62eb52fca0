/*
 * asm.pack: entries written and read back, the last of a key wins, a torn
 * tail is cut where --resume cuts it.
 */
#include <stdlib.h>
#include <unistd.h>

#include "stats/asm_pack.h"
#include "tap.h"

static void entry(struct strbuf *out, const char *path, const char *stage, const char *target,
		  const char *text)
{
	struct strbuf z = STRBUF_INIT;
	asm_pack_compress(text, strlen(text), &z);
	asm_pack_entry(out, path, stage, target, strlen(text), z.buf, z.len);
	strbuf_release(&z);
}

static void write_bytes(const char *file, const char *data, size_t len)
{
	FILE *f = fopen(file, "wb");
	fwrite(data, 1, len, f);
	fclose(f);
}

int main(void)
{
	char dir[] = "/tmp/shdb-asm-pack.XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	char file[64];
	snprintf(file, sizeof(file), "%s/asm.pack", dir);

	struct strbuf pack = STRBUF_INIT, text = STRBUF_INIT, err = STRBUF_INIT;
	strbuf_addstr(&pack, ASM_PACK_MAGIC);
	entry(&pack, "a/x.frag", "fragment", "a630", "mov.f32f32 r0.x, c0.x\nend\n");
	entry(&pack, "we\"ird <script>\n.frag", "fragment", NULL, "nop\n");
	entry(&pack, "a/x.frag", "fragment", "a630", "(sy)mov.f32f32 r0.x, c0.x\nend\n");
	entry(&pack, "a/x.frag", "fragment", "a740", "");
	size_t whole = pack.len;
	write_bytes(file, pack.buf, pack.len);

	struct asm_pack p;
	struct diag diag = DIAG_INIT;
	is_int(asm_pack_open(&p, file, &diag), 0, "a pack opens");
	is_int(p.entries.len, 4, "every entry indexed");
	ok(asm_pack_get(&p, "a/x.frag", "fragment", "a630", &text), "an entry is found");
	is_str(text.buf, "(sy)mov.f32f32 r0.x, c0.x\nend\n", "the last entry of a key wins");
	ok(asm_pack_get(&p, "we\"ird <script>\n.frag", "fragment", "", &text) &&
	   !strcmp(text.buf, "nop\n"), "any path; no target is \"\"");
	ok(asm_pack_get(&p, "a/x.frag", "fragment", "a740", &text) && text.len == 0,
	   "an empty listing");
	ok(!asm_pack_get(&p, "a/x.frag", "vertex", "a630", &text), "a missing key");
	is_int(diag.warnings + diag.errors, 0, "no messages");
	asm_pack_close(&p);
	is_int(asm_pack_valid_length(file, &err), (long long)whole, "a whole pack is valid");

	/* a torn last entry: the pack ends before it */
	size_t before_last = whole;
	entry(&pack, "b/y.vert", "vertex", "a630", "a longer listing that the crash cuts short\n");
	write_bytes(file, pack.buf, pack.len - 5);
	is_int(asm_pack_valid_length(file, &err), (long long)before_last, "a torn entry is cut");
	is_int(asm_pack_open(&p, file, &diag), 0, "a torn pack still opens");
	is_int(p.entries.len, 4, "with the whole entries");
	ok(strstr(diag.text.buf, "warning: a torn entry after 4 entries") != NULL, "and a warning: %s",
	   diag.text.buf);
	asm_pack_close(&p);

	write_bytes(file, "not a pack\n", 11);
	is_int(asm_pack_open(&p, file, &diag), -1, "another file is refused");
	ok(asm_pack_valid_length(file, &err) < 0 && strstr(err.buf, "is not a shdb asm.pack"),
	   "by --resume too");
	unlink(file);
	is_int(asm_pack_open(&p, file, &diag), 1, "no pack: the run kept no disassembly");

	rmdir(dir);
	diag_release(&diag);
	strbuf_release(&pack);
	strbuf_release(&text);
	strbuf_release(&err);
	return done_testing();
}
