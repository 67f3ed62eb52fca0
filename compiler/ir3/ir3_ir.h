/*
 * The machine IR beside the IR (compiler/ir/ir.h), for the files that read
 * both: selection (ir3_isel.h), the simulator (sim/sim_priv.h), the
 * disassembly's declarations (ir3_disasm.c: ir3_iface.h names the IR's
 * declarations).
 *
 * ir.h and ir3.h both name the iteration macros foreach_block,
 * foreach_instr, foreach_instr_safe and the types TYPE_F16 … TYPE_U8.  Here
 * the unprefixed names are ir3's; the IR's macros are ir_foreach_*, and the
 * IR's alu_type names are not used.
 */
#ifndef SHDB_IR3_IR_H
#define SHDB_IR3_IR_H

#include "compiler/ir/ir.h"

#define ir_foreach_block(b, fn) \
	for (struct block *b = function_start_block(fn); b; b = function_next_block((fn), b))
#define ir_foreach_instr(i, b) list_for_each_entry(struct instr, i, &(b)->instrs, link)
#undef foreach_block
#undef foreach_instr
#undef foreach_instr_safe
#define TYPE_F16 IR3_TYPE_F16
#define TYPE_F32 IR3_TYPE_F32
#define TYPE_U16 IR3_TYPE_U16
#define TYPE_U32 IR3_TYPE_U32
#define TYPE_U8 IR3_TYPE_U8
#include "compiler/ir3/ir3.h"

#endif
