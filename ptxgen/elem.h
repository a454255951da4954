/* SPDX-License-Identifier: Apache-2.0 */
/* The element table: one row per element type with every fact a user of a type needs (size,
 * PTX spellings, registers, accumulator, tensor-map type, public dtype, the C and D types its
 * operands take and the epilogue they allow), and the type rules checked once, from the rows,
 * for both the public API (engine/validate.c) and kernel configs (kernel_cfg.c). A new dtype is
 * a row here (and, where a recipe multiplies it, that recipe's instruction). */
#ifndef TCJ_ELEM_H
#define TCJ_ELEM_H

#include "ptx_builder.h"

/* Element types the recipes know, independent of the public enum (ptxgen needs no tcj.h). */
typedef enum ptx_elem {
  PTX_E_F16,
  PTX_E_BF16,
  PTX_E_TF32,
  PTX_E_F32,
  PTX_E_S8,
  PTX_E_S32,
  PTX_E_E4M3,
  PTX_E_E5M2,
  PTX_E_F64,
  PTX_E_COUNT
} ptx_elem;

/* The public tcj_dtype, numbered as tcj.h's enum (engine/validate.c asserts it), as ptx_act is
 * numbered as tcj_activation: ptxgen includes no tcj.h. */
typedef enum ptx_dtype {
  PTX_DT_F16,
  PTX_DT_BF16,
  PTX_DT_F32,
  PTX_DT_TF32,
  PTX_DT_E4M3,
  PTX_DT_E5M2,
  PTX_DT_S8,
  PTX_DT_S32,
  PTX_DT_F64,
  PTX_DT_COUNT
} ptx_dtype;

/* wgmma.mma_async for an operand type (PTX ISA 9.7.15.5.1); k == 0: the type has none. */
typedef struct ptx_wgmma_type {
  int k;         /* K per instruction: 32 bytes of operand */
  int imm_scale; /* takes imm-scale-a, imm-scale-b (floating point types) */
  int mn_major;  /* takes imm-trans-a/b: MN-major operands read transposed (16-bit only) */
} ptx_wgmma_type;

/* How a value of the type becomes f32 in a register and back (ptx_cvt_to_f32/from_f32). */
typedef enum ptx_f32_conv {
  PTX_CONV_NONE,      /* no conversion through f32 */
  PTX_CONV_SAME,      /* it is f32: a move */
  PTX_CONV_CVT,       /* cvt.f32.<cvt> and cvt.rn.<cvt>.f32 */
  PTX_CONV_HIGH_HALF, /* bf16: the top half of an f32, widened by a shift (cvt.f32.bf16 needs sm_90) */
} ptx_f32_conv;

/* The tensor-map data type as a plain number, numbered as the driver's CUtensorMapDataType
 * (cuda.h; ptxgen may not include CUDA headers, engine/gemm.c passes the number on, and
 * tests/unit/test_elem.c compares the numbers with cuda.h's). */
enum {
  PTX_TMAP_NONE = -1,
  PTX_TMAP_UINT8 = 0,
  PTX_TMAP_INT32 = 3,
  PTX_TMAP_FLOAT16 = 6,
  PTX_TMAP_FLOAT32 = 7,
  PTX_TMAP_BFLOAT16 = 9,
};

/* A set of element types: bit (1 << e). */
#define PTX_ELEM_BIT(e) (1u << (e))

typedef struct ptx_elem_row {
  const char *name; /* config text, messages and tcj_dtype_name: "f16", "e4m3", ... */
  int size;         /* bytes in memory */
  int fp8;          /* an 8-bit float: e4m3 and e5m2 multiply in any pair */
  ptx_dtype dtype;  /* the public type of this element */
  /* What operands of this public type run as (f32 data as tf32: 3xTF32 or fast tf32, per
   * tcj_compute); PTX_E_COUNT: never an operand. */
  ptx_elem operand;
  /* PTX spellings. */
  const char *ptx;  /* the type of mma.sync and wgmma operands and accumulators */
  const char *mem;  /* the type one element is loaded and stored as, in the register `reg` */
  const char *cvt;  /* the type cvt converts f32 to and from ("f16", "e4m3": pairs add "x2") */
  ptx_reg_class reg; /* the register class of one value as the epilogue computes it */
  ptx_f32_conv conv;
  /* Tensor cores, for operands of this type. */
  ptx_elem acc;        /* the accumulator's type; PTX_E_COUNT: not an operand type */
  const char *mma;     /* mma.sync shape (PTX ISA 9.7.13.4), NULL: none (f64 has dmma's shapes) */
  ptx_wgmma_type wgmma;
  int tmap;            /* PTX_TMAP_*: how TMA copies it */
  /* The types the output of operands of this type may have: C, read and written, and a
   * separate D, only written (fp8 operands may write fp8 D, never a C that is read). */
  unsigned c_types, d_types;
  const char *c_rule; /* tcj_cfg_check's reason for any other C */
  /* The epilogue on operands of this type: whether it may be fused at all (bias, activation,
   * user function), the activations it takes (bits 1 << ptx_act) and whether a user function
   * (f32 arithmetic) may run. */
  int fused;
  unsigned acts;
  int user;
  const char *epi_rule; /* tcj_cfg_check's reason for an epilogue the rules refuse */
  int bias; /* a bias vector may have this type */
} ptx_elem_row;

/* The row of e, or NULL for a value outside ptx_elem. */
const ptx_elem_row *ptx_elem_row_of(ptx_elem e);
const char *ptx_elem_name(ptx_elem e); /* "?" outside ptx_elem */
int ptx_elem_size(ptx_elem e);         /* 0 outside ptx_elem */
static inline int ptx_elem_is_fp8(ptx_elem e) { return e == PTX_E_E4M3 || e == PTX_E_E5M2; }
/* The element with that name (config text), or -1. */
int ptx_elem_from_name(const char *name, ptx_elem *out);
/* The element of a public dtype, PTX_E_COUNT outside the enum; and back. */
ptx_elem ptx_elem_of_dtype(int dtype);
/* The wgmma row of an operand type, or NULL: that type has no wgmma. */
const ptx_wgmma_type *ptx_wgmma_type_of(ptx_elem ab);

/* The type rules, from the rows. */
/* Operands of types a and b (as stored; f32 data included) with output `out` (C, or with
 * separate_d a D apart from C): 1 and the kernel's operand type and B flag (b_other: B is the
 * other fp8 type) where the recipes implement it, else 0. */
int ptx_elem_combination(ptx_elem a, ptx_elem b, ptx_elem out, int separate_d, ptx_elem *ab, int *b_other);
/* A kernel's C type for operand type ab: NULL if it takes it, else the reason. */
const char *ptx_elem_check_c(ptx_elem ab, ptx_elem c);

/* Which rule of its operand type an epilogue breaks. */
typedef enum ptx_epi_refusal {
  PTX_EPI_OK,
  PTX_EPI_FUSED, /* the type takes no bias, activation or user function at all */
  PTX_EPI_ACT,   /* an activation the type does not take */
  PTX_EPI_USER,  /* a user function (it computes in f32) */
} ptx_epi_refusal;
/* act: a ptx_act. */
ptx_epi_refusal ptx_elem_check_epilogue(ptx_elem ab, int bias, int act, int user);

#endif
