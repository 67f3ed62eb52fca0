#!/bin/bash
# The optimisation passes: each pass alone on a large generated shader, and
# the default pipeline per shader against glslang's parse (bench/opt_passes.c).
#
#	make bench
#	SHDB_BUILD=build bash bench/20-opt.sh
exec "$SHDB_BUILD/benchbin/opt_passes"
