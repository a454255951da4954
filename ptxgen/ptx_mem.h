/* SPDX-License-Identifier: Apache-2.0 */
/* Memory instructions whose shape is data: n adjacent elements moved by the fewest vector
 * ld/st (a table of vector widths), and the TMA tensor copies (a table of directions; rank and
 * multicast are arguments). The recipes say what moves where; the spelling is here, once. */
#ifndef TCJ_PTX_MEM_H
#define TCJ_PTX_MEM_H

#include "ptx_builder.h"

/* An address operand: [reg+imm], or [reg] where the recipe writes no offset. */
typedef struct ptx_addr {
  ptx_reg reg;
  int imm;
  int bare; /* print [reg] (imm is 0) */
} ptx_addr;
static inline ptx_addr ptx_at(ptx_reg r) { ptx_addr a = {r, 0, 1}; return a; }
static inline ptx_addr ptx_at_plus(ptx_reg r, int imm) { ptx_addr a = {r, imm, 0}; return a; }

/* Vector accesses move at most 16 bytes (PTX ISA, ld and st: .v2 and .v4 of up to 32-bit
 * elements, .v2 of 64-bit ones). */
enum { PTX_VEC_MAX_BYTES = 16 };

/* The vector suffix of one access of n elements of es bytes ("" for 1, ".v2", ".v4"), or
 * NULL where the table has no such width or it moves more than PTX_VEC_MAX_BYTES. */
const char *ptx_vec_suffix(int n, int es);

/* n elements between regs[0..n) and memory at addr: op is the instruction up to the vector
 * suffix ("ld.global", "ld.global.nc", "st.shared", "ld.shared::cluster", "red.global.add";
 * "ld." loads, "st." stores, "red." reduces into memory), type the element's spelling ("b8" ... "f64": its bit count is its size). The
 * elements go as accesses in order, each the widest the table has for the elements left, at
 * byte offsets addr + es * i (a bare address gains "+offset" from its second access on).
 * guard: a predicate, or the invalid register for an unguarded access. */
void ptx_vec_mem(ptx_builder *b, ptx_reg guard, const char *op, const char *type, int n, const ptx_reg *regs,
                 ptx_addr addr);

/* TMA, cp.async.bulk.tensor (PTX ISA): a box of a tensor map between global and shared memory,
 * destination first. A load lands in shared memory at smem and completes its bytes on the
 * mbarrier bar; with a multicast mask (a valid register) it lands at the same offset in every
 * CTA of the cluster whose bit is set. A store reads smem and completes in a bulk group
 * (cp.async.bulk.commit_group, wait_group). coord: rank (1..5) u32 coordinates, innermost
 * first. */
typedef enum ptx_tma_dir { PTX_TMA_LOAD, PTX_TMA_STORE } ptx_tma_dir;
void ptx_tma(ptx_builder *b, ptx_reg guard, ptx_tma_dir dir, ptx_reg tmap, int rank, const ptx_reg *coord, ptx_addr smem,
             ptx_reg bar, ptx_reg mask);

#endif
