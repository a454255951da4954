/* SPDX-License-Identifier: Apache-2.0 */
/* The host reference of tcj-prof's and tcj-bench's checks: sampled elements of a tools problem's
 * D computed from the operands the GPU read, in float64 (compensated for f64 operands, so that
 * the reference is better than any fp64 GEMM), and the errors of an output against it: the
 * accuracy figure max |got - ref| / (|A||B|)_ij and the relative Frobenius error. Pure C, no
 * CUDA: unit-tested on the CPU. */
#ifndef TCJ_TOOLS_GEMM_REF_H
#define TCJ_TOOLS_GEMM_REF_H

#include <stddef.h>
#include <stdint.h>

#include "tools/gemm_problem.h"

/* The sample: rows of D (over every batch entry, spread evenly, the first and the last among
 * them) times columns (every one, or every s-th and the last), as many as GEMM_REF_MACS
 * multiply-adds allow, at most GEMM_REF_MAX_ROWS x GEMM_REF_MAX_COLS, at least one element. Rows
 * and columns are read as whole vectors (B once per batch entry), so that the host streams
 * memory instead of striding through it: 2^28 multiply-adds take 0.3 s (compensated: 0.8 s) on a
 * 2026 server core. Deterministic: the same problem samples the same elements. */
#define GEMM_REF_MACS (1ll << 28)
#define GEMM_REF_MAX_ROWS 64
#define GEMM_REF_MAX_COLS 16384

/* Host copies of the inputs, laid out as gemm_problem packs them (every batch entry; B and the
 * bias once when broadcast); bias NULL without one. scale multiplies the products' sum (fp8's
 * scale_a * scale_b; 1 otherwise). */
typedef struct gemm_ref_inputs {
  const void *a, *b, *bias;
  double scale;
  /* The MoE extras, NULL where the problem has none (gemm_ref_compute_grouped's semantics):
   * scale_a (TCJ_SCALE_ROW) and row_scale one float per row of D over its entries (CONTIGUOUS:
   * the problem's row; else entry * m + i); scale_b group g's at g * gemm_stride_scale_b(p) (ROW:
   * one per column of op(B), SwiGLU's 2n included; grouped TENSOR: one); gather one A row per
   * problem row (CONTIGUOUS, gather_rows rows in A; out of range reads zeros); b_slot the B entry
   * each group's pointer (group_b_ptrs) points at; scatter the row of D each problem row is
   * stored at or added into (CONTIGUOUS, indices inside D; each row of D named once, so an added
   * row holds D's start, zero, plus its one value). */
  const float *scale_a, *scale_b, *row_scale;
  const int32_t *gather, *scatter;
  const int64_t *b_slot;
} gemm_ref_inputs;

typedef struct gemm_ref {
  size_t count;    /* sampled elements */
  int64_t *index;  /* their positions in D over the batch: (z * m + i) * n + j */
  double *value;   /* D's value there: scale * op(A) op(B), then the bias and the activation */
  double *unit;    /* its error unit: |scale| (|A||B|)_ij + |bias_j|, or 1 where that is 0 */
} gemm_ref;

/* The value of element i of a host array of type t, as a double (s32 exactly). */
double gemm_ref_get(tcj_dtype t, const void *buf, size_t i);

/* Samples p's D and computes the reference there. Returns 0, or -1 when out of host memory
 * (out is then empty). An empty D (m, n or batch 0) samples nothing. */
int gemm_ref_compute(const gemm_problem *p, const gemm_ref_inputs *in, gemm_ref *out);
void gemm_ref_free(gemm_ref *r); /* an empty one: no-op */

/* Grouped problems (p->group_mode with p->group_sizes, the rows of each group; K mode: the K of
 * each): in every non-empty group its first and last row and up to GEMM_REF_GROUP_ROWS in all,
 * spread between (K mode: rows spread over m, in every group, an empty one too: its D is the
 * epilogue of 0), times columns spread over n (the last included), as many as GEMM_REF_MACS allow
 * over all groups but at least GEMM_REF_GROUP_MIN_COLS (or n); B and the bias of group g at
 * g * k * gemm_b_cols and g * gemm_b_cols. Indices are positions in D as the problem lays it out:
 * CONTIGUOUS (start_g + i) * n + j, MASKED and K (g * m + i) * n + j. Plain double sums (f16,
 * bf16 and fp8 products are exact in double). The MoE semantics (tcj.h): SwiGLU D = silu(g) * u
 * from op(B)'s columns j and n + j, each scaled and biased; row scales scale_a[row] *
 * scale_b[col]; row_scale[row] times the activation's value; rows read through gather.
 * Ungrouped problems with a MoE field (gemm_ref_is_moe) take this path too, as G = batch entries
 * of m rows. Returns 0, or -1 when out of host memory or p has no sizes (out is then empty). */
#define GEMM_REF_GROUP_ROWS 4
#define GEMM_REF_GROUP_MIN_COLS 8
int gemm_ref_compute_grouped(const gemm_problem *p, const gemm_ref_inputs *in, gemm_ref *out);
/* Whether an ungrouped p uses a MoE field (SwiGLU, row scales, row_scale): gemm_ref_compute then
 * samples it as gemm_ref_compute_grouped does. */
int gemm_ref_is_moe(const gemm_problem *p);

/* The largest |got - ref| / unit over the samples of d (a host copy of the whole output, of
 * type out); a NaN or infinite element counts as an infinite error. 0 without samples. */
double gemm_ref_max_error(const gemm_ref *r, tcj_dtype out, const void *d);

/* sqrt(sum (got - ref)^2 / sum ref^2) over the samples (NaN elements infinite), *diff: how many
 * differ at all, *ref_norm: sqrt(sum ref^2). */
double gemm_ref_frobenius(const gemm_ref *r, tcj_dtype out, const void *d, int64_t *diff, double *ref_norm);

/* Whether the accuracy figure means something for p: floating-point operands and output, no
 * bias, activation or user epilogue (those move D away from the products' sum it measures). */
int gemm_ref_accuracy_applies(const gemm_problem *p);

/* Whether p is checked element by element against the reference with gemm_ref_bound instead of
 * against its cuBLAS baseline: f32 (fp32 accuracy) and f64 operands, without an epilogue. */
int gemm_ref_checks_accuracy(const gemm_problem *p);

/* The largest accuracy figure accepted for p, for tcj and for its baseline alike: the worst case
 * of a fp32-accurate GEMM, (k + 2) 2^-23 + 2^-20 (the products' sum in any order, the output's
 * rounding and a margin), for f32; (k + 2) 2^-52 for f64; 0 (no such check) for other types. */
double gemm_ref_bound(const gemm_problem *p);

#endif
