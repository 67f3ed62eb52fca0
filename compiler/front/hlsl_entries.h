/*
 * The entry points of an HLSL file.  Sample collections keep several in one
 * file (VSMain and PSMain beside each other, a CSMain per pass); a function is
 * taken for one when its attributes say so or its name follows the usual
 * convention:
 *
 *	[numthreads(8, 8, 1)]            compute (with [outputtopology]: mesh)
 *	[maxvertexcount(3)]              geometry
 *	[domain("tri")] [outputcontrolpoints(3)] …   hull (tess_ctrl)
 *	[domain("tri")]                  domain (tess_eval)
 *	[shader("pixel")]                the stage it names
 *	VSMain, vs_main, MainVS, VS …    vertex; PS/FS pixel, GS, HS, DS, CS,
 *	                                 MS mesh, AS amplification (task)
 *
 * Only the file itself is read (not its includes), with the tokenizer of
 * glsl_lex.h; any bytes may be given.
 */
#ifndef SHDB_FRONT_HLSL_ENTRIES_H
#define SHDB_FRONT_HLSL_ENTRIES_H

#include <stddef.h>

#include "compiler/stage.h"
#include "compiler/util/array.h"

struct hlsl_entry {
	char *name;
	enum shader_stage stage;	/* STAGE_NONE: the name and attributes say nothing */
	int line;			/* of the function's name */
};

typedef ARRAY(struct hlsl_entry) hlsl_entry_array;

/* Append the entry points `src` defines, in file order, each once. */
void hlsl_find_entries(const char *src, size_t len, hlsl_entry_array *out);
void hlsl_entries_release(hlsl_entry_array *a);

/* The stage of a function `name` in `src`: its attributes', else its name's
 * (STAGE_NONE when neither says, or no such function). */
enum shader_stage hlsl_entry_stage(const char *src, size_t len, const char *name);

/* The stage a conventional entry point name implies, or STAGE_NONE. */
enum shader_stage hlsl_stage_from_name(const char *name);

#endif
