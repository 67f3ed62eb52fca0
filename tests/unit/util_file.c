#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/util/file.h"
#include "tap.h"

int main(void)
{
	char dir[] = "/tmp/shdb-file-test-XXXXXX";
	if (!mkdtemp(dir))
		return skip_all("cannot make a temporary directory");
	char path[256], missing[256];
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	snprintf(missing, sizeof(missing), "%s/missing", dir);

	struct strbuf buf = STRBUF_INIT, err = STRBUF_INIT;
	ok(write_file_atomic(path, "one\0two", 7, &err) == 0, "atomic write");
	ok(read_file(path, &buf, &err) == 0, "read back");
	ok(buf.len == 7 && !memcmp(buf.buf, "one\0two", 7), "content with a NUL byte survives");

	ok(write_file_atomic(path, "new", 3, &err) == 0, "atomic replace");
	strbuf_reset(&buf);
	read_file(path, &buf, NULL);
	is_str(buf.buf, "new", "replaced content");

	ok(read_file(missing, &buf, &err) == -1, "a missing file fails");
	ok(strstr(err.buf, "cannot read") && strstr(err.buf, "No such file"), "with a clear message: %s", err.buf);

	strbuf_reset(&err);
	ok(read_file(dir, &buf, &err) == -1, "a directory fails");
	ok(strstr(err.buf, "Is a directory") != NULL, "with EISDIR: %s", err.buf);

	strbuf_reset(&err);
	snprintf(missing, sizeof(missing), "%s/no/such/dir/x", dir);
	ok(write_file_atomic(missing, "x", 1, &err) == -1, "writing into a missing directory fails");
	ok(err.len > 0, "with a message: %s", err.buf);

	char empty[256];
	snprintf(empty, sizeof(empty), "%s/empty", dir);
	write_file_atomic(empty, "", 0, NULL);
	strbuf_reset(&buf);
	ok(read_file(empty, &buf, NULL) == 0 && buf.len == 0, "an empty file reads as empty");

	is_str(path_extension("a/b.frag"), "frag", "extension");
	is_str(path_extension("a.b/c"), "", "no extension in the last component");
	is_str(path_extension(".hidden"), "", "a leading dot is not an extension");
	is_str(path_extension("x.asm.frag"), "frag", "last extension");
	is_str(path_basename("a/b/c.vert"), "c.vert", "basename");
	ok(is_directory(dir) && !is_directory(path), "is_directory");

	unlink(path);
	unlink(empty);
	rmdir(dir);
	strbuf_release(&buf);
	strbuf_release(&err);
	return done_testing();
}
