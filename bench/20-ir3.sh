#!/bin/bash
# The ir3 backend alone on generated machine IR: median and p90 per shader,
# per target and size.  (Whole-pipeline numbers come once selection exists.)
set -eu
exec "$SHDB_BUILD/benchbin/ir3_backend" "${IR3_BENCH_SHADERS:-40}"
