/* Layout algebra of the sm80 recipe: mma.sync fragment maps, ldmatrix lane addresses and the
 * shared-memory swizzle, as plain functions. The recipe emits PTX that computes the same
 * functions, and the unit tests pin them against the PTX ISA formulas
 * ("Matrix fragments for mma.m16n8k16 / m16n8k8 / m16n8k32", PTX ISA 9.7.13.4). */
#ifndef TCJ_PTX_LAYOUT_H
#define TCJ_PTX_LAYOUT_H

#include "kernel_cfg.h"

/* Hardware facts. */
enum {
  PTX_WARP = 32,
  PTX_MMA_M = 16,          /* mma.sync m16n8kK: rows of A and C per instruction */
  PTX_MMA_N = 8,           /* columns of B and C per instruction */
  PTX_MMA_K_BYTES = 32,    /* K of one mma is 32 bytes of operand: k16 f16/bf16, k8 tf32, k32 s8 */
  PTX_SWIZZLE_LINE = 128,  /* shared memory: 32 banks x 4 bytes */
  PTX_SWIZZLE_ATOM = 1024, /* 8 lines: the period of the XOR swizzle */
  PTX_CHUNK = 16,          /* bytes per ldmatrix row and per widest cp.async */
};

/* (row, col) of one element of an mma fragment, in elements of the operand's own type.
 * For A: row in m (0..15), col in k. For B: row in k, col in n (0..7). For C: row m, col n. */
typedef struct ptx_coord { int row, col; } ptx_coord;

/* Elements per 32-bit fragment register: 2 for 16-bit, 1 for tf32, 4 for s8. */
int ptx_frag_elems_per_reg(ptx_elem ab);
/* reg: fragment register (A: 0..3, B: 0..1, C: 0..3); elem: element within it. */
ptx_coord ptx_mma_a_coord(ptx_elem ab, int lane, int reg, int elem);
ptx_coord ptx_mma_b_coord(ptx_elem ab, int lane, int reg, int elem);
ptx_coord ptx_mma_c_coord(int lane, int reg);

/* Shared-memory tile: `rows` rows of `row_bytes` bytes, stored as panels at most 128 bytes wide
 * (so a swizzle period never spans two rows' worth of unrelated data), 128-byte XOR swizzle:
 * 16-byte chunk bits [4,7) of the offset are XORed with line bits [7,10). Tile base must be
 * 1024-byte aligned. Returns the physical byte offset of logical (row, byte_col). */
int ptx_panel_bytes(int row_bytes);
unsigned ptx_swizzled_offset(unsigned row, unsigned byte_col, unsigned rows, unsigned row_bytes);

/* ldmatrix.x4 lane addresses for one 16x32-byte operand block. `k_major`: the operand is stored
 * with K contiguous (ldmatrix without .trans); otherwise MN-major 16-bit data (.trans).
 * Returns the (mn, k_byte) within the block whose row address lane `lane` supplies; for
 * MN-major blocks the address is of a K row, so the result is (mn start, k row). `is_b` selects
 * the B ordering (two n8 fragments, each b0 then b1) instead of A's (a0..a3). */
typedef struct ptx_lane_addr { int mn, k; } ptx_lane_addr;
ptx_lane_addr ptx_ldmatrix_lane(int is_b, int k_major, int lane);

#endif
