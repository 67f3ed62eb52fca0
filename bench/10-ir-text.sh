#!/bin/bash
# The IR's infrastructure on a large generated shader: parse, validate,
# print, clone, analyses (bench/ir_text.c).
exec "$SHDB_BUILD/benchbin/ir_text"
