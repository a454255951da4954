/* SPDX-License-Identifier: Apache-2.0 */
/* Instruction families of the tensor-core recipes: one function, one PTX instruction.
 * Spellings (shapes, type suffixes, copy widths) come from tables in ptx_ops.c. */
#ifndef TCJ_PTX_OPS_H
#define TCJ_PTX_OPS_H

#include "kernel_cfg.h"
#include "ptx_builder.h"
#include "ptx_layout.h"

/* mma.sync m16n8kK for operand types at x bt (the same, or two fp8 types), the shape and
 * accumulator from at's row (elem.h):
 * d[4] = a[4] x b[2] + c[4]. */
void ptx_mma_sync(ptx_builder *b, ptx_elem at, ptx_elem bt, const ptx_reg d[4], const ptx_reg a[4],
                  const ptx_reg bb[2], const ptx_reg c[4]);
/* The accumulator register class of mma for ab (f32 or s32 as .b32). */
ptx_reg_class ptx_mma_acc_class(ptx_elem ab);

/* wgmma.mma_async m64nNkK from shared-memory descriptors (PTX ISA 9.7.15.5.2), from the
 * operand type's row (elem.h, ptx_wgmma_type_of): every K step reads 32 bytes of K, as one
 * swizzle line holds four of them. */
/* acc[0 .. n/2) (+)= A x B for the m64nNk tile at descriptors da, db (operand types at, bt);
 * scale_d false overwrites. a_mn, b_mn: the operand is MN-major (only where the row allows it). */
void ptx_wgmma(ptx_builder *b, ptx_elem at, ptx_elem bt, int n, const ptx_reg *acc, ptx_reg da, ptx_reg db, ptx_reg scale_d,
               int a_mn, int b_mn);

/* fp64 mma.sync: d (+)= a x b + c for the shape ptx_dmma_shape_for(sm) gives; registers .f64,
 * as many as ptx_layout.h says. */
ptx_dmma_shape ptx_dmma_shape_for(int sm);
void ptx_dmma(ptx_builder *b, ptx_dmma_shape s, const ptx_reg *d, const ptx_reg *a, const ptx_reg *bb, const ptx_reg *c);

/* ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16 {r0..r3}, [addr + imm]. */
void ptx_ldmatrix_x4(ptx_builder *b, int trans, const ptx_reg r[4], ptx_reg addr, int imm);

/* cp.async of `width` bytes (4, 8 or 16) from global src to shared dst (+ dst_imm). When
 * src_bytes is a valid register, only that many bytes are read and the rest zero-filled.
 * When guard is a valid predicate register, the copy is issued only where it is true. */
void ptx_cp_async(ptx_builder *b, ptx_reg guard, int width, ptx_reg dst, int dst_imm, ptx_reg src,
                  ptx_reg src_bytes);
void ptx_cp_async_commit(ptx_builder *b);
void ptx_cp_async_wait(ptx_builder *b, int pending);
void ptx_bar_sync(ptx_builder *b);

/* Scalar memory access of element type e: ld.{global,shared} / st.global into a register of
 * the class ptx_mem_class(e) (.b16, .b32 or .b64; s8 loads zero-extend into .b32). */
typedef enum ptx_space { PTX_GLOBAL, PTX_SHARED } ptx_space;
void ptx_ld(ptx_builder *b, ptx_space sp, int bytes, ptx_reg dst, ptx_reg addr, int imm);
void ptx_st(ptx_builder *b, ptx_space sp, int bytes, ptx_reg addr, int imm, ptx_reg src);

/* Conversions between f32 and the storage type e of C (f16, bf16, f32). */
void ptx_cvt_to_f32(ptx_builder *b, ptx_elem e, ptx_reg dst_f32, ptx_reg src);
void ptx_cvt_from_f32(ptx_builder *b, ptx_elem e, ptx_reg dst, ptx_reg src_f32);

#endif
