/* SPDX-License-Identifier: Apache-2.0 */
/* The epilogue both recipes call: D = user(act(alpha * acc + beta * C + bias)), per group of
 * adjacent elements of one row, with C loads and D stores of any width. The recipes only decide
 * where each thread's accumulators sit (fragment maps, staging); everything done to a value on
 * its way to D is here, once. The split-K reduction entry lives here too. */
#ifndef TCJ_PTX_EPILOGUE_H
#define TCJ_PTX_EPILOGUE_H

#include "kernel_cfg.h"
#include "ptx_builder.h"
#include "ptxgen.h"

/* A thread's epilogue state for one tile (one batch entry), from ptx_epi_begin. */
typedef struct ptx_epi {
  const tcj_kernel_cfg *cfg;
  int exact;              /* s8: s32 accumulators, arithmetic in f64 (integers stay exact) */
  ptx_reg m;              /* rows (u32) */
  ptx_val n;              /* columns: baked, or p_n (u32) in a generic kernel */
  ptx_reg alpha, beta;    /* f32 (f64 when exact) */
  ptx_reg has_beta;       /* pred: beta != 0, C is read */
  ptx_reg alpha_zero;     /* pred: alpha == 0, the products are not used (not for exact configs) */
  int products_dropped;   /* the recipe zeroed its accumulators where alpha == 0 (ptx_epi_drop_products) */
  ptx_reg c_base, d_base; /* u64 global: this batch entry's C and D */
  ptx_reg ldc_bytes, ldd_bytes;
  ptx_reg bias;           /* u64 global: this entry's bias (bias configs) */
  ptx_reg batch;          /* u64: the entry, for tcj_epilogue */
  ptx_reg params;         /* u64: p_user_params */
  ptx_reg scale_d;        /* f32: fp8 D's scale (invalid unless D is fp8) */
  ptx_reg scale_rows;     /* u64 global or 0: fp8 row scales' A array, this entry's (scale_row configs) */
  ptx_reg scale_cols;     /* u64 global or 0: their B array, this group's */
  ptx_reg row_scale;      /* u64 global or 0: row_scale's array, this entry's (row_scale configs) */
  ptx_reg amax;           /* f32: the running max |D| of fp8 kernels (ptx_epi_amax_begin), or invalid */
  ptx_reg scatter;        /* u64 global: the D row of each problem row (scatter configs), or invalid */
  ptx_reg scatter_rows;   /* u32: D's rows (scatter configs) */
} ptx_epi;

/* Reads the epilogue's parameters: alpha and beta (from their device pointers when given),
 * C, D and bias of batch entry z (a u32 register; invalid register: entry 0). A grouped
 * kernel's z is its group: the bias's entry, its fp8 B scales' (p_stride_scale_b) and the user
 * epilogue's `batch`, and C's, D's and the per-row scales' entry for masked groups only
 * (contiguous groups' rows are rows of the whole C and D). m: the row guard (per-row values are
 * read below it only). */
void ptx_epi_begin(ptx_builder *b, const tcj_kernel_cfg *cfg, ptx_epi *e, ptx_reg m, ptx_reg z);

/* A predicate: beta (the parameter, or the value behind beta_ptr) is not 0, so C is read.
 * Uniform across the CTA: a branch on it diverges no warp. */
ptx_reg ptx_epi_beta_nonzero(ptx_builder *b);

/* count (1, 2, 4 or 8) adjacent elements of type t at [addr + imm] into new registers (f32, or
 * .b32 for s32), zeros where guard is false. Every register is written on every path: a
 * register read before any write would be live from the kernel's entry. */
void ptx_epi_load(ptx_builder *b, ptx_elem t, ptx_reg addr, int imm, ptx_reg guard, int count, ptx_reg *out);
/* Stores count adjacent f32 (s32) values as type t at [addr + imm] where guard is true (fp8:
 * saturated to the largest finite value). */
void ptx_epi_store(ptx_builder *b, ptx_elem t, ptx_reg addr, int imm, ptx_reg guard, int count, const ptx_reg *v);
/* Stores epilogue results into D: folds |v| of the stored elements into e->amax, multiplies by
 * the D scale (fp8 D; v is overwritten) and stores as D's type; PTX_SCATTER_ADD configs add them
 * into f32 D by atomics instead (addr names the row ptx_epi_d_row gave). */
void ptx_epi_store_d(ptx_builder *b, const ptx_epi *e, ptx_reg addr, int imm, ptx_reg guard, int count, ptx_reg *v);
/* The row of D that problem row `row` (u32, below m where *guard holds) goes to: row itself,
 * or for scatter configs p_scatter[row] (read where *guard holds), *guard then also requiring
 * it to lie in [0, p_scatter_rows). A u32 register. */
ptx_reg ptx_epi_d_row(ptx_builder *b, const ptx_epi *e, ptx_reg row, ptx_reg *guard);
/* The PTX ISA version the epilogue's instructions need on cfg's target (0: any): sm_90's
 * vector reductions (red.global.add.v2/.v4.f32, PTX_SCATTER_ADD) came with 8.1. */
int ptx_epi_isa_x10(const tcj_kernel_cfg *cfg);
/* amax of D (fp8 operands; invalid register otherwise): a per-thread running maximum, started
 * at 0 before the first tile, and flushed once at the end where the warp is converged: a warp
 * maximum and one red.global.max to p_amax (when it is not 0). */
ptx_reg ptx_epi_amax_begin(ptx_builder *b, const tcj_kernel_cfg *cfg);
void ptx_epi_amax_flush(ptx_builder *b, ptx_reg amax);

/* alpha == 0 once per tile instead of a select per element: a uniform branch on alpha != 0
 * around zeroing the accumulators acc[r * stride + i] (r < rows, i < count). Emitted before
 * ptx_epi_begin, reading alpha itself, so that nothing else is live across it; then set the
 * epilogue's products_dropped to the result, and ptx_epi_apply selects nothing. For a recipe
 * whose epilogue has every accumulator live: the select's predicate, live through the sm90
 * epilogue beside 128 accumulators, spilled at 168 registers. Returns 0 (emits nothing) for
 * exact (s32) configs, whose accumulators hold no NaN. */
int ptx_epi_drop_products(ptx_builder *b, const tcj_kernel_cfg *cfg, ptx_reg *acc, int rows, int stride, int count);

/* The element-wise epilogue of count adjacent accumulators v (row, columns col..col+count-1;
 * u32 registers), in place: fp8 row scales, alpha and beta (with the C values cin; NULL when
 * beta is known to be 0), bias, activation, user function, row_scale. Configs with per-row or
 * per-column scales need row and col. alpha == 0 gives beta * C whatever the accumulators
 * hold (BLAS: A and B are not referenced, so their NaNs and infinities must not show). Exact
 * configs leave s32 in v. Out-of-range rows and columns compute garbage but read no bias
 * outside the vector and never call the user function: the caller does not store them. */
void ptx_epi_apply(ptx_builder *b, const ptx_epi *e, ptx_reg *v, const ptx_reg *cin, int count, ptx_reg row,
                   ptx_reg col);
/* The same with the bias values of the count elements given (f32 registers the caller read,
 * e.g. from shared memory; row and col are then not read unless a user function takes them);
 * NULL: read from global memory as ptx_epi_apply does. row_scale likewise: the elements' row
 * scale (tcj_kernel_cfg.row_scale, one row) as an f32 register the caller read, or invalid to
 * read it by row. */
void ptx_epi_apply_bias(ptx_builder *b, const ptx_epi *e, ptx_reg *v, const ptx_reg *cin, int count, ptx_reg row,
                        ptx_reg col, const ptx_reg *bias, ptx_reg row_scale);
/* row_scale[row] as f32 (1 at and past row m), for callers that stage the values. */
ptx_reg ptx_epi_row_scale_at(ptx_builder *b, const ptx_epi *e, ptx_reg row);
/* SwiGLU (tcj_cfg_swiglu), the rule both recipes call: gate[i] = silu(alpha gate[i] +
 * bias[col + i]) * (alpha up[i] + bias[n + col + i]) for count gate accumulators (columns
 * col + i of op(A) op(B)) and their up accumulators (columns n + col + i), in place in gate.
 * alpha == 0 gives silu(bias) * bias (A and B not referenced). bias_g / bias_u: the count bias
 * values of each half as f32 registers (ptx_epi_swiglu_bias), or NULL without a bias. The
 * values are then final: ptx_epi_apply of a SwiGLU config only stores them (no alpha, C, bias
 * or activation a second time). */
void ptx_epi_swiglu(ptx_builder *b, const ptx_epi *e, ptx_reg *gate, const ptx_reg *up, int count,
                    const ptx_reg *bias_g, const ptx_reg *bias_u);
/* The bias values of count gate columns col.. and of their up columns (n + col..), 0 past
 * column n of each half; nothing when the config has no bias. */
void ptx_epi_swiglu_bias(ptx_builder *b, const ptx_epi *e, ptx_reg col, int count, ptx_reg *bias_g, ptx_reg *bias_u);
/* bias[index] as f32, 0 where index >= limit (limit_reg, or the immediate limit when limit_reg
 * is invalid). Not for exact (s32) epilogues. */
ptx_reg ptx_epi_bias_at(ptx_builder *b, const ptx_epi *e, ptx_reg index, ptx_val limit);

/* n * es in a new u64 register: the bytes of a dense row of n elements (baked or run-time n). */
ptx_reg ptx_epi_row_bytes(ptx_builder *b, ptx_val n, int es);
/* The split-K reduction entry (PTX_REDUCE_ENTRY, ABI in ptxgen.h): sums the fp32 slices of the
 * workspace and applies the epilogue once per element of D. */
void ptx_emit_reduce_entry(ptx_builder *b, const tcj_kernel_cfg *cfg);
/* The start of every module: the version and target (at least isa_x10 and the user code's ISA), tcj's
 * shared memory, and for user-epilogue configs the definition of tcj_epilogue (user) or, without
 * it, its .extern declaration. */
void ptx_epi_module_prelude(ptx_builder *b, const tcj_kernel_cfg *cfg, const ptx_user_code *user, int isa_x10);

#endif
