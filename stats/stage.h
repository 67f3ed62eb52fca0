/*
 * Shader stages as records name them: the stage vocabulary the compiler
 * writes and every reader, cmp and report understand, in any of its
 * spellings ("fragment", "frag", Mesa's "FRAG").  Like the statistics table
 * (stat.h) it sits below the compiler and the tools and includes nothing
 * of shdb.
 */
#ifndef SHDB_STATS_STAGE_H
#define SHDB_STATS_STAGE_H

enum shader_stage {
	STAGE_NONE = -1,
	STAGE_VERTEX,
	STAGE_TESS_CTRL,
	STAGE_TESS_EVAL,
	STAGE_GEOMETRY,
	STAGE_FRAGMENT,
	STAGE_COMPUTE,
	STAGE_TASK,
	STAGE_MESH,
	STAGE_RAYGEN,
	STAGE_ANY_HIT,
	STAGE_CLOSEST_HIT,
	STAGE_MISS,
	STAGE_INTERSECTION,
	STAGE_CALLABLE,
	STAGE_COUNT
};

/* "vertex", "tess_ctrl", …: the names records and options use. */
const char *stage_name(enum shader_stage s);
/* Mesa's shader-db line tag: VERT, TCS, TES, GEOM, FRAG, CL, … */
const char *stage_mesa_name(enum shader_stage s);
/* Parse a stage from its name ("fragment"), short name ("frag"), Mesa tag
 * ("FRAG") or fossilize-replay executable name ("FS", "Fragment Shader"). */
enum shader_stage stage_from_name(const char *name);
/* The stage a GLSL-style extension names ("frag" → fragment), or STAGE_NONE. */
enum shader_stage stage_from_extension(const char *ext);

#endif
