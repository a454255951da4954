/* SPDX-License-Identifier: Apache-2.0 */
/* Layout algebra of the sm80 recipe: mma.sync fragment maps, ldmatrix lane addresses and the
 * shared-memory swizzle, as plain functions. The recipe emits PTX that computes the same
 * functions, and the unit tests pin them against the PTX ISA formulas
 * ("Matrix fragments for mma.m16n8k16 / m16n8k8 / m16n8k32", PTX ISA 9.7.13.4). */
#ifndef TCJ_PTX_LAYOUT_H
#define TCJ_PTX_LAYOUT_H

#include <stdint.h>

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

/* ---- dmma: fp64 mma.sync (PTX ISA 9.7.14.5.2, "m8n8k4 with .f64", and 9.7.14.5.x,
 * "m16n8k4 / m16n8k8 / m16n8k16 with floating point type", .f64 rows) ---- */

/* An f64 mma shape: m8n8k4 (sm_80) or m16n8k{4,8,16} (sm_90). Each register holds one element:
 * A has m k / 32 of them, B k / 4, C m / 4. */
typedef struct ptx_dmma_shape { int m, k, min_sm; } ptx_dmma_shape;
/* With g = lane / 4 and t = lane % 4:
 *   a_i = (g + 8 (i % (m / 8)), 4 (i / (m / 8)) + t)     row in m, col in k
 *   b_i = (4 i + t, g)                                   row in k, col in n
 *   c_i = (g + 8 (i / 2), 2 t + i % 2)                   row in m, col in n */
ptx_coord ptx_dmma_a_coord(ptx_dmma_shape s, int lane, int i);
ptx_coord ptx_dmma_b_coord(ptx_dmma_shape s, int lane, int i);
ptx_coord ptx_dmma_c_coord(ptx_dmma_shape s, int lane, int i);

/* ---- sm90 (wgmma), PTX ISA "Asynchronous Warpgroup Level Matrix Multiply-Accumulate" ---- */

/* Shared-memory matrix descriptor of wgmma: start address, leading and stride dimension byte
 * offsets (all >> 4, 14 bits each, at bits 0, 16 and 32), base offset 0 (tiles are 1024-byte
 * aligned) and the swizzle mode at bits 62-63 (1 = 128-byte). */
enum { PTX_WGMMA_SWIZZLE_NONE = 0, PTX_WGMMA_SWIZZLE_128B = 1, PTX_WGMMA_SWIZZLE_64B = 2, PTX_WGMMA_SWIZZLE_32B = 3 };
uint64_t ptx_wgmma_desc(unsigned smem_addr, unsigned lbo_bytes, unsigned sbo_bytes, int swizzle);

/* The tcj sm90 tiles use the 128-byte swizzle with 64-element (128-byte) lines:
 *  - K-major operand: row r (an M or N index) is line r; 8-line groups 1024 bytes apart (SBO);
 *    LBO unused (the k16 step stays inside one line); a k16 step advances the address 32 bytes.
 *  - MN-major operand: K row r is line r of a 64-wide MN box; boxes (64 MN each) are
 *    box_bytes apart (LBO); 8-K-row groups 1024 apart (SBO); a k16 step advances 2048 bytes.
 * Offsets from the operand tile's start for (mn block of 64 rows, k16 step). */
unsigned ptx_sm90_desc_offset(int k_major, int mn64_block, int k16_step, int box_bytes);
unsigned ptx_sm90_desc_lbo(int k_major, int box_bytes);
#define PTX_SM90_SBO 1024

/* wgmma m64nNk16 accumulator D (fp32): (row, col) of register reg (0 .. N/2 - 1) of thread
 * tid (0..127) of the warpgroup. */
ptx_coord ptx_wgmma_d_coord(int tid, int reg);

#endif
