#!/bin/bash
# SPIR-V -> IR (the reader, its output validated) and the optimisation loop
# (lower_vars_to_ssa, then opt_default) per shader over ../shared/corpus:
# median, p90 and p99 (bench/spirv.c).
exec "$SHDB_BUILD/benchbin/spirv" "$SHDB_SHARED/corpus"
