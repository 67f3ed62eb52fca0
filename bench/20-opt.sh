#!/bin/bash
# The optimisation passes: each pass alone on a large generated shader, the
# default pipeline per shader against glslang's parse, and the default
# pipeline on the IR files of tests/ (bench/opt_passes.c).
#
#	make bench
#	SHDB_BUILD=build bash bench/20-opt.sh
cd "$(dirname "$0")/.." && SHDB_SRCDIR=. exec "$SHDB_BUILD/benchbin/opt_passes"
