/*
 * The readers: JSONL (fast path and jansson path agree), Mesa shader-db logs,
 * fossilize CSVs, kind detection, the messages bad input gets, and the run
 * table they fill.  Each input is written to a temporary file; every record
 * read is rendered as one text line and compared.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "compiler/util/file.h"
#include "stats/input.h"
#include "stats/run.h"
#include "tap.h"

struct capture {
	struct strbuf text;
};

/* "path|stage|target|status|message|time: name=value ..." */
static void capture_record(void *ctx, const struct record *r)
{
	struct strbuf *sb = &((struct capture *)ctx)->text;
	strbuf_addf(sb, "%.*s|%.*s|%.*s|%s|%.*s|", (int)r->path.len, r->path.p, (int)r->stage.len,
		    r->stage.p, (int)r->target.len, r->target.p, status_name(r->status),
		    (int)r->message.len, r->message.p);
	if (!isnan(r->time_us))
		strbuf_addf(sb, "%g", r->time_us);
	strbuf_addch(sb, ':');
	for (size_t i = 0; i < r->nstats; i++)
		strbuf_addf(sb, " %.*s=%g", (int)r->stats[i].name.len, r->stats[i].name.p,
			    r->stats[i].value);
	strbuf_addch(sb, '\n');
}

struct scratch {
	char dir[64];
	char path[128];
};

static const char *write_input(struct scratch *s, const char *name, const char *content)
{
	snprintf(s->path, sizeof(s->path), "%s/%s", s->dir, name);
	if (write_file_atomic(s->path, content, strlen(content), NULL) < 0)
		BUG("cannot write %s", s->path);
	return s->path;
}

/* Read `content` (as a file called `name`); the records in `out`, messages in `msgs`. */
static enum source_kind read_text(struct scratch *s, const char *name, const char *content,
				 struct strbuf *out, struct strbuf *msgs)
{
	struct capture cap = { STRBUF_INIT };
	struct diag diag = DIAG_INIT;
	struct reader rd = READER_INIT(&diag, capture_record, &cap);
	const char *path = write_input(s, name, content);
	read_input(&rd, path, SOURCE_AUTO);
	strbuf_reset(out);
	strbuf_addstr(out, cap.text.buf);
	strbuf_reset(msgs);
	/* messages without the scratch directory */
	for (const char *p = diag.text.buf; *p;) {
		const char *at = strstr(p, s->dir);
		if (!at) {
			strbuf_addstr(msgs, p);
			break;
		}
		strbuf_add(msgs, p, (size_t)(at - p));
		p = at + strlen(s->dir) + 1;
	}
	enum source_kind kind = rd.kind;
	reader_release(&rd);
	diag_release(&diag);
	strbuf_release(&cap.text);
	return kind;
}

static void jsonl(struct scratch *s)
{
	struct strbuf out = STRBUF_INIT, msgs = STRBUF_INIT, slow = STRBUF_INIT;
	const char *fast =
		"{\"path\":\"a/x.frag\",\"stage\":\"fragment\",\"target\":\"a630\",\"status\":\"ok\","
		"\"stats\":{\"inst\":12,\"waves\":16,\"x\":-3,\"f\":2.5,\"e\":1e3,\"b\":true},"
		"\"time_us\":514}\n"
		"  { \"stage\" : \"compute\", \"path\" : \"b/y.comp\", \"status\" : \"error\", "
		"\"message\" : \"y.comp:1:2: error: no\", \"extra\" : null, \"stats\" : {} }\r\n"
		"\n";
	is_int(read_text(s, "r", fast, &out, &msgs), SOURCE_JSONL, "records are detected as JSONL");
	is_str(out.buf,
	       "a/x.frag|fragment|a630|ok||514: inst=12 waves=16 x=-3 f=2.5 e=1000 b=1\n"
	       "b/y.comp|compute||error|y.comp:1:2: error: no|:\n",
	       "records are read, in any key order, with spaces and CRLF");
	is_str(msgs.buf, "", "and give no message");

	/* the same records through jansson: an escape or a nested value sends a line there */
	const char *via_jansson =
		"{\"path\":\"a/x.fr\\u0061g\",\"stage\":\"fragment\",\"target\":\"a630\",\"status\":\"ok\","
		"\"stats\":{\"inst\":12,\"waves\":16,\"x\":-3,\"f\":2.5,\"e\":1e3,\"b\":true},"
		"\"time_us\":514}\n"
		"{\"stage\":\"compute\",\"path\":\"b/y.comp\",\"status\":\"error\","
		"\"message\":\"y.comp:1:2: error: no\",\"extra\":[1,{}],\"stats\":{}}\n";
	read_text(s, "r.jsonl", via_jansson, &slow, &msgs);
	is_str(slow.buf, out.buf, "jansson reads the same records as the fast path");

	const char *bad =
		"{\"path\":\"a\",\"stage\":\"vertex\",\"stats\":{\"inst\":1}}\n"
		"{\"path\":\"b\",\"stage\":\"vertex\",\"stats\":{\"inst\":1}\n"
		"[1,2]\n"
		"{\"stage\":\"vertex\"}\n"
		"{\"path\":\"c\",\"stage\":\"vertex\",\"status\":\"exploded\"}\n"
		"{\"path\":\"d\",\"stage\":\"vertex\",\"stats\":[1]}\n"
		"{\"path\":\"e\",\"stage\":\"vertex\",\"stats\":{\"inst\":\"many\",\"nops\":2}}\n"
		"{\"path\":\"f\",\"stage\":\"vertex\",\"stats\":{\"inst\":0";
	read_text(s, "bad.jsonl", bad, &out, &msgs);
	is_str(out.buf, "a|vertex||ok||: inst=1\ne|vertex||ok||: nops=2\n",
	       "good records survive among bad ones");
	is_str(msgs.buf,
	       "bad.jsonl:2:47: error: malformed JSON: '}' expected near end of file\n"
	       "bad.jsonl:3: error: a record is a JSON object, not an array\n"
	       "bad.jsonl:4: error: record without \"path\"\n"
	       "bad.jsonl:5: error: unknown status \"exploded\" (ok, error, crash, timeout, skipped)\n"
	       "bad.jsonl:6: error: \"stats\" is an array, not an object\n"
	       "bad.jsonl:7: warning: statistic \"inst\" is a string, not a number; ignored\n"
	       "bad.jsonl:8: error: truncated record: the file ends inside it\n",
	       "each bad line gets a located message");

	strbuf_release(&out);
	strbuf_release(&msgs);
	strbuf_release(&slow);
}

static void mesa_log(struct scratch *s)
{
	struct strbuf out = STRBUF_INIT, msgs = STRBUF_INIT;
	const char *log =
		"some noise - not ours\n"
		"shaders/a/1.shader_test - VERT shader: 40 inst, 10 nops, 30 non-nops, 2 (ss), 16 waves, 0 loops\n"
		"shaders/a/1.shader_test - FRAG shader: 7 maxwaves, 12 code size, 3 preamble inst\n"
		"shaders/y/4.shader_test - FS SIMD8 shader: 300 inst, 0 loops, 400 cycles, 4:6 spills:fills, "
		"4 sends, scheduled with mode top-down, Promoted 0 constants, compacted 800 to 600 bytes.\n"
		"Thread 0 took 1.50 seconds and compiled 3 shaders (not including SIMD16) with 1 GL context switches\n"
		"shaders/v/2.shader_test - FRAG shader: 9 inst, 4 threads, 0 loops, 3 uniforms, 5 max-temps, "
		"0:0 spills:fills, 1 sfu-stalls, 10 inst-and-stalls, 2 nops\n"
		"shaders/n/5.shader_test - type: 1, local: 0, shared: 0, gpr: 4, inst: 7, bytes: 56\n"
		"Thread 1 took 0.25 seconds and compiled 1 shaders\n"
		"shaders/e/1.shader_test - CL shader: 5 instructions, 2 temps, 8 immediates, 0 loops";
	struct capture cap = { STRBUF_INIT };
	struct diag diag = DIAG_INIT;
	struct reader rd = READER_INIT(&diag, capture_record, &cap);
	read_input(&rd, write_input(s, "log", log), SOURCE_AUTO);
	is_int(rd.kind, SOURCE_MESA_LOG, "a shader-db log is detected");
	is_str(cap.text.buf,
	       "shaders/a/1.shader_test|VERT||ok||: inst=40 nops=10 non-nops=30 (ss)=2 waves=16 loops=0\n"
	       "shaders/a/1.shader_test|FRAG||ok||: maxwaves=7 code size=12 preamble inst=3\n"
	       "shaders/y/4.shader_test|FS SIMD8||ok||: inst=300 loops=0 cycles=400 spills=4 fills=6 sends=4\n"
	       "shaders/v/2.shader_test|FRAG||ok||: inst=9 threads=4 loops=0 uniforms=3 max-temps=5 "
	       "spills=0 fills=0 sfu-stalls=1 inst-and-stalls=10 nops=2\n"
	       "shaders/n/5.shader_test|FS||ok||: local=0 shared=0 gpr=4 inst=7 bytes=56\n"
	       "shaders/e/1.shader_test|CL||ok||: instructions=5 temps=2 immediates=8 loops=0\n",
	       "ir3, Intel, v3d, nouveau and etnaviv lines, names with spaces kept");
	ok(rd.cpu_seconds == 1.75, "Thread lines sum to the CPU time");
	ok(strstr(diag.text.buf, "/log:9: warning: the file ends without a newline; is it truncated?\n") &&
	   diag.warnings == 1 && !diag.errors, "a last line without newline is the one warning");
	reader_release(&rd);
	diag_release(&diag);
	strbuf_release(&cap.text);
	strbuf_release(&out);
	strbuf_release(&msgs);
}

static void fossil_csv(struct scratch *s)
{
	struct strbuf out = STRBUF_INIT, msgs = STRBUF_INIT;
	const char *csv =
		"Database,Pipeline type,Pipeline hash,PSO wall duration (ns),PSO duration (ns),"
		"Stage duration (ns),Executable name,Subgroup size,Max Waves Per Core,Instruction Count,"
		"Early preamble,Driver pipeline hash\n"
		"fossils/app1/app1.foz,GRAPHICS,0123456789abcdef,1200000,1100000,500000,VS,128,16,40,false,0x12\n"
		"\"fossils/a,b.foz\",COMPUTE,aaaa,1,1,2000,Mesh Shader,32,,7,true,0x1\n"
		"Database,Pipeline hash,Executable name,VGPRs\n"
		"db2,bbbb,Compute Shader,24\n"
		"db2,cccc,Compute Shader\n";
	is_int(read_text(s, "stats.csv", csv, &out, &msgs), SOURCE_FOSSIL_CSV, "a CSV is detected");
	is_str(out.buf,
	       "fossils/app1/app1.foz/0123456789abcdef|VS||ok||500: Max Waves Per Core=16 "
	       "Instruction Count=40 Early preamble=0\n"
	       "fossils/a,b.foz/aaaa|Mesh Shader||ok||2: Instruction Count=7 Early preamble=1\n"
	       "db2/bbbb|Compute Shader||ok||: VGPRs=24\n",
	       "any driver's columns, any stage name, a repeated header with other columns");
	is_str(msgs.buf, "stats.csv:6: error: row of 3 fields under a header of 4 (line 4)\n",
	       "a short row is a located error");
	read_text(s, "x.csv", "a,b\n", &out, &msgs);
	is_str(msgs.buf, "x.csv:1: error: a CSV row before any header line\n",
	       "a row before the header is an error");
	strbuf_release(&out);
	strbuf_release(&msgs);
}

static void detection(struct scratch *s)
{
	struct strbuf out = STRBUF_INIT, msgs = STRBUF_INIT;
	is_int(read_text(s, "empty", "", &out, &msgs), SOURCE_JSONL, "an empty file is an empty run");
	is_int(read_text(s, "e.csv", "", &out, &msgs), SOURCE_FOSSIL_CSV,
	       "an empty file's extension breaks the tie");
	is_int(read_text(s, "what", "hello\nworld\n", &out, &msgs), SOURCE_AUTO,
	       "text that is none of ours is refused");
	ok(strstr(msgs.buf, "cannot tell what") != NULL, "with a message: %s", msgs.buf);
	is_int(read_text(s, "bom.jsonl", "\xef\xbb\xbf{\"path\":\"p\",\"stage\":\"s\"}\n", &out, &msgs),
	       SOURCE_JSONL, "a byte-order mark is skipped");
	is_str(out.buf, "p|s||ok||:\n", "and the record after it read");
	struct strbuf err = STRBUF_INIT;
	is_int(source_detect("/nonexistent/x", &err), SOURCE_AUTO, "a missing file");
	ok(strstr(err.buf, "No such file") != NULL, "says so: %s", err.buf);
	strbuf_release(&err);
	strbuf_release(&out);
	strbuf_release(&msgs);
}

static void run_table(struct scratch *s)
{
	const char *jsonl =
		"{\"path\":\"a\",\"stage\":\"vertex\",\"target\":\"t\",\"stats\":{\"inst\":3,\"dwords\":8}}\n"
		"{\"path\":\"b\",\"stage\":\"vertex\",\"target\":\"t\",\"stats\":{\"inst\":4,\"code size\":9,\"half\":1.5}}\n"
		"{\"path\":\"a\",\"stage\":\"vertex\",\"target\":\"t\",\"status\":\"error\",\"message\":\"m\"}\n"
		"{\"path\":\"c\",\"stage\":\"fragment\",\"target\":\"u\",\"stats\":{\"inst\":2147483648}}\n";
	struct run run;
	struct diag diag = DIAG_INIT;
	run_init(&run);
	run_load(&run, write_input(s, "t.jsonl", jsonl), NULL, &diag);
	is_int(run.rows.len, 3, "three distinct records");
	is_int(run.duplicates, 1, "one duplicate");
	ok(strstr(diag.text.buf, "t.jsonl:3: warning: duplicate record for a vertex t (first at line 1)") != NULL,
	   "a duplicate is a located warning");
	is_int(run.status_count[STATUS_OK], 2, "the duplicate's status replaced the first's");
	is_int(run.status_count[STATUS_ERROR], 1, "counted once");
	is_str(run_message(&run, 0), "m", "with its message");
	struct column *inst = run_column(&run, "inst"), *dw = run_column(&run, "dwords");
	double v;
	ok(inst && !column_get(inst, 0, &v), "the duplicate's missing values replaced the first's");
	ok(column_get(inst, 2, &v) && v == 2147483648.0 && inst->wide,
	   "a value beyond int32 widens its column");
	ok(dw && column_get(dw, 1, &v) && v == 9, "\"code size\" joins the dwords column");
	struct column *half = run_column(&run, "half");
	ok(half && half->wide && column_get(half, 1, &v) && v == 1.5 && !column_get(half, 0, &v),
	   "a fraction is kept; a row without the statistic has none");
	is_int(run.cols.len, 3, "three columns");
	is_str(run_path(&run, 2), "c", "row paths");
	is_str(run_target(&run, 2), "u", "row targets");
	run_release(&run);
	diag_release(&diag);

	static const char *const only[] = { "fragment" };
	struct record_filter f = { .stages = only, .nstages = 1 };
	run_init(&run);
	run_load(&run, s->path, &f, &diag);
	is_int(run.rows.len, 1, "a stage filter keeps only that stage");
	is_int(run.filtered, 3, "and counts the others");
	run_release(&run);
	diag_release(&diag);
}

int main(void)
{
	struct scratch s;
	snprintf(s.dir, sizeof(s.dir), "%s/shdb-readers.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(s.dir))
		return skip_all("cannot make a temporary directory");
	jsonl(&s);
	mesa_log(&s);
	fossil_csv(&s);
	detection(&s);
	run_table(&s);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s.dir);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", s.dir);
	return done_testing();
}
