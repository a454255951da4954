/* SPDX-License-Identifier: Apache-2.0 */
/* Problem helpers of select.h that every recipe's selection and the launch use: the 3xTF32
 * split problem (eng_problem_split3) and a packed operand's batch stride. They call nothing
 * else in the engine, so the selection files stay one-way (scripts/file-cycles.py). */
#include <stdint.h>

#include "engine/select.h"

void eng_problem_split3(eng_problem *p) {
  p->src = (struct eng_split_src){p->op_a_t, p->op_b_t, p->k, p->lda, p->ldb, p->stride_a, p->stride_b};
  int64_t kp = eng_split3_kp(p->k);
  p->tf32x3 = 1;
  p->ab = PTX_E_TF32;
  p->op_a_t = 0;
  p->op_b_t = 1;
  p->k = 3 * kp;
  p->lda = p->ldb = 3 * kp;
  p->align_a = p->align_b = 16;
  p->stride_a = p->src.stride_a ? p->m * p->lda : 0;
  p->stride_b = p->src.stride_b ? p->n * p->ldb : 0;
}

int64_t eng_grouped_units(const eng_problem *p, const tcj_kernel_cfg *c) {
  typedef unsigned __int128 u128;
  int64_t unit_rows = tcj_cfg_group_unit_rows(c), cols = tcj_cfg_tile_cols(c);
  u128 tiles_n = (u128)((p->n + cols - 1) / cols), tiles_m = (u128)((p->m + unit_rows - 1) / unit_rows);
  u128 g = (u128)(p->groups > 0 ? p->groups : 0);
  u128 units = tiles_n * (p->grouped == PTX_GROUP_MASKED || ptx_group_k(p->grouped) ? g * tiles_m : tiles_m + g);
  return units > (u128)INT64_MAX ? INT64_MAX : (int64_t)units;
}

int64_t eng_packed_stride(const eng_problem *p, int is_b) {
  int t = is_b ? p->op_b_t : p->op_a_t;
  int64_t rows = is_b ? (t ? p->n : p->k) : (t ? p->k : p->m);
  int64_t cols = is_b ? (t ? p->k : p->n) : (t ? p->m : p->k);
  int64_t stride = is_b ? p->stride_b : p->stride_a;
  if (p->batch <= 1 || stride == 0) return 0;
  return eng_packed_ld(cols, ptx_elem_size(p->ab)) * rows;
}
