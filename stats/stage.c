/*
 * The stage names of records (stats/stage.h), one row per stage.
 */
#include "stats/stage.h"

#include <string.h>

static const struct {
	const char *name, *ext, *mesa;
} stages[STAGE_COUNT] = {
	[STAGE_VERTEX] = { "vertex", "vert", "VERT" },
	[STAGE_TESS_CTRL] = { "tess_ctrl", "tesc", "TCS" },
	[STAGE_TESS_EVAL] = { "tess_eval", "tese", "TES" },
	[STAGE_GEOMETRY] = { "geometry", "geom", "GEOM" },
	[STAGE_FRAGMENT] = { "fragment", "frag", "FRAG" },
	[STAGE_COMPUTE] = { "compute", "comp", "CL" },
	[STAGE_TASK] = { "task", "task", "TASK" },
	[STAGE_MESH] = { "mesh", "mesh", "MESH" },
	[STAGE_RAYGEN] = { "raygen", "rgen", "RAYGEN" },
	[STAGE_ANY_HIT] = { "any_hit", "rahit", "ANYHIT" },
	[STAGE_CLOSEST_HIT] = { "closest_hit", "rchit", "CLOSESTHIT" },
	[STAGE_MISS] = { "miss", "rmiss", "MISS" },
	[STAGE_INTERSECTION] = { "intersection", "rint", "INTERSECTION" },
	[STAGE_CALLABLE] = { "callable", "rcall", "CALLABLE" },
};

const char *stage_name(enum shader_stage s)
{
	return s >= 0 && s < STAGE_COUNT ? stages[s].name : "none";
}

const char *stage_mesa_name(enum shader_stage s)
{
	return s >= 0 && s < STAGE_COUNT ? stages[s].mesa : "NONE";
}

/* The executable names of fossilize-replay's statistics (turnip's, RADV's),
 * so a run meets a CSV of the same database (reference/shaderdb-tools.md §3.6);
 * turnip's "Binning VS" is a second vertex executable and meets nothing. */
static const struct {
	const char *name;
	enum shader_stage stage;
} executables[] = {
	{ "VS", STAGE_VERTEX }, { "FS", STAGE_FRAGMENT }, { "GS", STAGE_GEOMETRY },
	{ "CS", STAGE_COMPUTE }, { "Vertex Shader", STAGE_VERTEX },
	{ "Tessellation Control Shader", STAGE_TESS_CTRL },
	{ "Tessellation Evaluation Shader", STAGE_TESS_EVAL },
	{ "Geometry Shader", STAGE_GEOMETRY }, { "Fragment Shader", STAGE_FRAGMENT },
	{ "Compute Shader", STAGE_COMPUTE }, { "Task Shader", STAGE_TASK },
	{ "Mesh Shader", STAGE_MESH },
};

enum shader_stage stage_from_name(const char *name)
{
	for (int s = 0; s < STAGE_COUNT; s++)
		if (!strcmp(name, stages[s].name) || !strcmp(name, stages[s].ext) ||
		    !strcmp(name, stages[s].mesa))
			return (enum shader_stage)s;
	for (size_t i = 0; i < sizeof(executables) / sizeof(executables[0]); i++)
		if (!strcmp(name, executables[i].name))
			return executables[i].stage;
	return STAGE_NONE;
}

enum shader_stage stage_from_extension(const char *ext)
{
	for (int s = 0; s < STAGE_COUNT; s++)
		if (!strcmp(ext, stages[s].ext))
			return (enum shader_stage)s;
	/* the tessellation extensions of g-truc's OpenGL samples */
	if (!strcmp(ext, "cont"))
		return STAGE_TESS_CTRL;
	if (!strcmp(ext, "eval"))
		return STAGE_TESS_EVAL;
	return STAGE_NONE;
}
