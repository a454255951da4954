/* SPDX-License-Identifier: Apache-2.0 */
/* The element table and the type rules read from it; see elem.h. */
#include "elem.h"

#include <string.h>

/* Output types of operands that accumulate in fp32: any float C. */
#define FLOAT_OUT (PTX_ELEM_BIT(PTX_E_F16) | PTX_ELEM_BIT(PTX_E_BF16) | PTX_ELEM_BIT(PTX_E_F32))
#define FP8_OUT (PTX_ELEM_BIT(PTX_E_E4M3) | PTX_ELEM_BIT(PTX_E_E5M2))
/* Activations as bits of their ptx_act numbers (kernel_cfg.h, numbered as tcj_activation:
 * none 0, relu 1; kernel_cfg.c asserts it). */
#define ACTS_NONE (1u << 0)
#define ACTS_RELU (ACTS_NONE | (1u << 1))
#define ACTS_ALL (~0u)

/* mma.sync shapes (PTX ISA 9.7.13.4) and wgmma rows (9.7.15.5.1): every instruction reads 32
 * bytes of K; only 16-bit types may be MN-major in wgmma (imm-trans); floating types take
 * imm-scale-a/b (s8 does not). e4m3 and e5m2 mix freely (mma.sync from sm_89). Conversions of
 * 8-bit floats are pairs only (cvt.rn.satfinite.e4m3x2.f32), of s8 and f64 none. tf32 operands
 * are f32 in memory; TMA copies their bits as FLOAT32 (the TFLOAT32 map type would round them on
 * load, where wgmma reads their top 19 bits as mma.sync does); s8 and fp8 as bytes (UINT8). */
static const ptx_elem_row rows[PTX_E_COUNT] = {
  [PTX_E_F16] = {.name = "f16", .size = 2, .dtype = PTX_DT_F16, .operand = PTX_E_F16,
                 .ptx = "f16", .mem = "b16", .cvt = "f16", .reg = PTX_F32, .conv = PTX_CONV_CVT,
                 .acc = PTX_E_F32, .mma = "m16n8k16", .wgmma = {16, 1, 1}, .tmap = PTX_TMAP_FLOAT16,
                 .c_types = FLOAT_OUT, .d_types = FLOAT_OUT, .c_rule = "16-bit operands need c f16, bf16 or f32",
                 .fused = 1, .acts = ACTS_ALL, .user = 1, .bias = 1},
  [PTX_E_BF16] = {.name = "bf16", .size = 2, .dtype = PTX_DT_BF16, .operand = PTX_E_BF16,
                  .ptx = "bf16", .mem = "b16", .cvt = "bf16", .reg = PTX_F32, .conv = PTX_CONV_HIGH_HALF,
                  .acc = PTX_E_F32, .mma = "m16n8k16", .wgmma = {16, 1, 1}, .tmap = PTX_TMAP_BFLOAT16,
                  .c_types = FLOAT_OUT, .d_types = FLOAT_OUT, .c_rule = "16-bit operands need c f16, bf16 or f32",
                  .fused = 1, .acts = ACTS_ALL, .user = 1, .bias = 1},
  [PTX_E_TF32] = {.name = "tf32", .size = 4, .dtype = PTX_DT_TF32, .operand = PTX_E_TF32,
                  .ptx = "tf32", .mem = "f32", .cvt = "tf32", .reg = PTX_F32, .conv = PTX_CONV_NONE,
                  .acc = PTX_E_F32, .mma = "m16n8k8", .wgmma = {8, 1, 0}, .tmap = PTX_TMAP_FLOAT32,
                  .c_types = PTX_ELEM_BIT(PTX_E_F32), .d_types = PTX_ELEM_BIT(PTX_E_F32),
                  .c_rule = "tf32 operands need c f32", .fused = 1, .acts = ACTS_ALL, .user = 1},
  /* f32 data multiplies as tf32 (its row is the operand's); f32 is a C, D and bias type. */
  [PTX_E_F32] = {.name = "f32", .size = 4, .dtype = PTX_DT_F32, .operand = PTX_E_TF32,
                 .ptx = "f32", .mem = "f32", .cvt = "f32", .reg = PTX_F32, .conv = PTX_CONV_SAME,
                 .acc = PTX_E_COUNT, .tmap = PTX_TMAP_FLOAT32, .acts = ACTS_NONE, .bias = 1},
  [PTX_E_S8] = {.name = "s8", .size = 1, .dtype = PTX_DT_S8, .operand = PTX_E_S8,
                .ptx = "s8", .mem = "b8", .cvt = "s8", .reg = PTX_B32, .conv = PTX_CONV_NONE,
                .acc = PTX_E_S32, .mma = "m16n8k32", .wgmma = {32, 0, 0}, .tmap = PTX_TMAP_UINT8,
                .c_types = PTX_ELEM_BIT(PTX_E_S32), .d_types = PTX_ELEM_BIT(PTX_E_S32),
                .c_rule = "s8 operands need c s32",
                /* exact integers: a bias and ReLU keep them exact, a user function's f32 would not */
                .fused = 1, .acts = ACTS_RELU, .user = 0, .epi_rule = "s32 output takes a bias and ReLU only"},
  [PTX_E_S32] = {.name = "s32", .size = 4, .dtype = PTX_DT_S32, .operand = PTX_E_COUNT,
                 .ptx = "s32", .mem = "b32", .cvt = "s32", .reg = PTX_B32, .conv = PTX_CONV_NONE,
                 .acc = PTX_E_COUNT, .tmap = PTX_TMAP_INT32, .acts = ACTS_NONE},
  [PTX_E_E4M3] = {.name = "e4m3", .size = 1, .fp8 = 1, .dtype = PTX_DT_E4M3, .operand = PTX_E_E4M3,
                  .ptx = "e4m3", .mem = "b8", .cvt = "e4m3", .reg = PTX_F32, .conv = PTX_CONV_NONE,
                  .acc = PTX_E_F32, .mma = "m16n8k32", .wgmma = {32, 1, 0}, .tmap = PTX_TMAP_UINT8, /* as e5m2 */
                  .c_types = FLOAT_OUT, .d_types = FLOAT_OUT | FP8_OUT,
                  .c_rule = "fp8 operands need c f16, bf16 or f32", .fused = 1, .acts = ACTS_ALL, .user = 1},
  [PTX_E_E5M2] = {.name = "e5m2", .size = 1, .fp8 = 1, .dtype = PTX_DT_E5M2, .operand = PTX_E_E5M2,
                  .ptx = "e5m2", .mem = "b8", .cvt = "e5m2", .reg = PTX_F32, .conv = PTX_CONV_NONE,
                  .acc = PTX_E_F32, .mma = "m16n8k32", .wgmma = {32, 1, 0}, .tmap = PTX_TMAP_UINT8,
                  .c_types = FLOAT_OUT, .d_types = FLOAT_OUT | FP8_OUT,
                  .c_rule = "fp8 operands need c f16, bf16 or f32", .fused = 1, .acts = ACTS_ALL, .user = 1},
  /* The dmma recipe: f64 in and out, its own mma shapes, no TMA, a plain epilogue only. */
  [PTX_E_F64] = {.name = "f64", .size = 8, .dtype = PTX_DT_F64, .operand = PTX_E_F64,
                 .ptx = "f64", .mem = "f64", .cvt = "f64", .reg = PTX_F64, .conv = PTX_CONV_NONE,
                 .acc = PTX_E_F64, .tmap = PTX_TMAP_NONE,
                 .c_types = PTX_ELEM_BIT(PTX_E_F64), .d_types = PTX_ELEM_BIT(PTX_E_F64),
                 .c_rule = "f64 operands need c f64", .fused = 0, .acts = ACTS_NONE,
                 .epi_rule = "f64 takes no bias, activation or user epilogue"},
};

const ptx_elem_row *ptx_elem_row_of(ptx_elem e) { return (unsigned)e < PTX_E_COUNT ? &rows[e] : NULL; }
const char *ptx_elem_name(ptx_elem e) { return (unsigned)e < PTX_E_COUNT ? rows[e].name : "?"; }
int ptx_elem_size(ptx_elem e) { return (unsigned)e < PTX_E_COUNT ? rows[e].size : 0; }

int ptx_elem_from_name(const char *name, ptx_elem *out) {
  for (int i = 0; i < PTX_E_COUNT; i++)
    if (strcmp(name, rows[i].name) == 0) {
      *out = (ptx_elem)i;
      return 0;
    }
  return -1;
}

ptx_elem ptx_elem_of_dtype(int dtype) {
  for (int i = 0; i < PTX_E_COUNT; i++)
    if ((int)rows[i].dtype == dtype) return (ptx_elem)i;
  return PTX_E_COUNT;
}

const ptx_wgmma_type *ptx_wgmma_type_of(ptx_elem ab) {
  return (unsigned)ab < PTX_E_COUNT && rows[ab].wgmma.k ? &rows[ab].wgmma : NULL;
}

int ptx_elem_combination(ptx_elem a, ptx_elem b, ptx_elem out, int separate_d, ptx_elem *ab, int *b_other) {
  *b_other = 0;
  if ((unsigned)a >= PTX_E_COUNT || (unsigned)b >= PTX_E_COUNT || (unsigned)out >= PTX_E_COUNT) return 0;
  ptx_elem ra = rows[a].operand, rb = rows[b].operand;
  if (ra == PTX_E_COUNT || rb == PTX_E_COUNT) return 0;
  /* The same operand type, or two fp8 types (B the other one). */
  if (ra != rb && !(rows[ra].fp8 && rows[rb].fp8)) return 0;
  *ab = ra;
  *b_other = ra != rb;
  return ((separate_d ? rows[ra].d_types : rows[ra].c_types) & PTX_ELEM_BIT(out)) != 0;
}

const char *ptx_elem_check_c(ptx_elem ab, ptx_elem c) {
  const ptx_elem_row *r = ptx_elem_row_of(ab);
  if (!r || !r->c_rule) return "unsupported operand type";
  return (unsigned)c < PTX_E_COUNT && (r->c_types & PTX_ELEM_BIT(c)) ? NULL : r->c_rule;
}

ptx_epi_refusal ptx_elem_check_epilogue(ptx_elem ab, int bias, int act, int user) {
  const ptx_elem_row *r = ptx_elem_row_of(ab);
  if (!r) return PTX_EPI_FUSED;
  if (!r->fused && (bias || act || user)) return PTX_EPI_FUSED;
  if ((unsigned)act >= 32 || !(r->acts & (1u << act))) return PTX_EPI_ACT;
  if (user && !r->user) return PTX_EPI_USER;
  return PTX_EPI_OK;
}
