#!/bin/bash
# The front end per shader over ../shared/corpus: glslang (GLSL/HLSL → SPIR-V),
# source preparation, SPIR-V assembly and disassembly (bench/front.c).
exec "$SHDB_BUILD/benchbin/front" "$SHDB_SHARED/corpus"
