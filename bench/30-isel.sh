#!/bin/bash
# Compile time of the ir3 path per shader and target, in microseconds:
# median and p90 of the whole pipeline and of the backend alone (ir3
# lowering, selection and the machine pipeline), over the golden inputs of
# tests/isel and tests/ir plus generated shaders (VS of N matrix products,
# FS of N dependent texture fetches).  The corpus joins when the SPIR-V
# reader lands.
set -eu
cd "$(dirname "$0")/.."
exec "$SHDB_BUILD/benchbin/isel" "${ISEL_BENCH_RUNS:-30}" tests/isel/*.ir tests/ir/*.ir
