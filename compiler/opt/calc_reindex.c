/*
 * calc_reindex: renumber SSA values densely in program order (%0, %1, …),
 * so a shader that passes have edited prints with compact names.  Changes
 * no instruction; every metadata kind but liveness (indexed by value)
 * survives.
 */
#include "compiler/opt/opt.h"

bool calc_reindex(struct shader *s)
{
	bool progress = shader_reindex(s);
	return shader_progress(s, progress, META_ALL & ~META_LIVENESS);
}
