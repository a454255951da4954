/* SPDX-License-Identifier: Apache-2.0 */
/* Layout algebra of the recipes; see ptx_layout.h. All three mma shapes the recipe uses
 * consume 32 bytes of K per instruction, so their fragment maps are one formula in bytes. */
#include "ptx_layout.h"

int ptx_frag_elems_per_reg(ptx_elem ab) { return 4 / ptx_elem_size(ab); }

ptx_coord ptx_mma_a_coord(ptx_elem ab, int lane, int reg, int elem) {
  int es = ptx_elem_size(ab), gid = lane >> 2, tig = lane & 3;
  ptx_coord c = {gid + 8 * (reg & 1), (tig * 4 + elem * es + 16 * (reg >> 1)) / es};
  return c;
}

ptx_coord ptx_mma_b_coord(ptx_elem ab, int lane, int reg, int elem) {
  int es = ptx_elem_size(ab), gid = lane >> 2, tig = lane & 3;
  ptx_coord c = {(tig * 4 + elem * es + 16 * reg) / es, gid};
  return c;
}

ptx_coord ptx_mma_c_coord(int lane, int reg) {
  ptx_coord c = {(lane >> 2) + 8 * (reg >> 1), (lane & 3) * 2 + (reg & 1)};
  return c;
}

int ptx_panel_bytes(int row_bytes) { return row_bytes < PTX_SWIZZLE_LINE ? row_bytes : PTX_SWIZZLE_LINE; }

unsigned ptx_swizzled_offset(unsigned row, unsigned byte_col, unsigned rows, unsigned row_bytes) {
  unsigned pb = (unsigned)ptx_panel_bytes((int)row_bytes);
  unsigned off = (byte_col / pb) * rows * pb + row * pb + byte_col % pb;
  return off ^ (((off >> 7) & 7) << 4);
}

ptx_lane_addr ptx_ldmatrix_lane(int is_b, int k_major, int lane) {
  /* ldmatrix.x4: lanes 8j..8j+7 give the row addresses of matrix j, which lands in register j.
   * A wants a0..a3 = (m0-7,k0-7) (m8-15,k0-7) (m0-7,k8-15) (m8-15,k8-15); B wants, for two
   * n8 fragments, (n0-7: b0, b1) then (n8-15: b0, b1). K-major: each matrix row is 16 bytes
   * of K. MN-major (.trans): each matrix row is a K row of 8 MN elements. */
  int j = lane >> 3, r = lane & 7;
  int mn_hi = is_b ? (j >> 1) : (j & 1), k_hi = is_b ? (j & 1) : (j >> 1);
  ptx_lane_addr a;
  if (k_major) {
    a.mn = 8 * mn_hi + r;
    a.k = 16 * k_hi;
  } else {
    a.mn = 8 * mn_hi;
    a.k = 8 * k_hi + r;
  }
  return a;
}

uint64_t ptx_wgmma_desc(unsigned smem_addr, unsigned lbo_bytes, unsigned sbo_bytes, int swizzle) {
  return (uint64_t)((smem_addr >> 4) & 0x3FFF) | (uint64_t)((lbo_bytes >> 4) & 0x3FFF) << 16 |
         (uint64_t)((sbo_bytes >> 4) & 0x3FFF) << 32 | (uint64_t)(swizzle & 3) << 62;
}

unsigned ptx_sm90_desc_offset(int k_major, int mn64_block, int k16_step, int box_bytes) {
  /* K-major: 64 rows of 128 bytes per block, k16 = 32 bytes along the line. MN-major: one box
   * per 64 MN, k16 = 16 K rows of 128 bytes. */
  return k_major ? (unsigned)(mn64_block * 64 * PTX_SWIZZLE_LINE + k16_step * 32)
                 : (unsigned)(mn64_block * box_bytes + k16_step * 16 * PTX_SWIZZLE_LINE);
}

unsigned ptx_sm90_desc_lbo(int k_major, int box_bytes) { return k_major ? 16u : (unsigned)box_bytes; }

ptx_coord ptx_wgmma_d_coord(int tid, int reg) {
  int warp = tid >> 5, lane = tid & 31;
  ptx_coord c = {16 * warp + (lane >> 2) + 8 * ((reg >> 1) & 1), 8 * (reg >> 2) + 2 * (lane & 3) + (reg & 1)};
  return c;
}

ptx_coord ptx_dmma_a_coord(ptx_dmma_shape s, int lane, int i) {
  int g = lane >> 2, t = lane & 3, blocks = s.m / 8;
  return (ptx_coord){g + 8 * (i % blocks), 4 * (i / blocks) + t};
}

ptx_coord ptx_dmma_b_coord(ptx_dmma_shape s, int lane, int i) {
  (void)s;
  return (ptx_coord){4 * i + (lane & 3), lane >> 2};
}

ptx_coord ptx_dmma_c_coord(ptx_dmma_shape s, int lane, int i) {
  (void)s;
  return (ptx_coord){(lane >> 2) + 8 * (i / 2), 2 * (lane & 3) + i % 2};
}
