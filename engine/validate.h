/* SPDX-License-Identifier: Apache-2.0 */
/* Argument checks of tcj_gemm: public arguments -> eng_problem, or an error naming the bad
 * argument. No CUDA: validation runs (and is tested) before any device is needed. */
#ifndef TCJ_ENG_VALIDATE_H
#define TCJ_ENG_VALIDATE_H

#include "engine/select.h"
#include <stddef.h>

#include "tcj.h"

/* Checks the arguments of tcj_gemm (all but engine and stream). On success fills *out and
 * returns TCJ_SUCCESS; otherwise records a message (eng_set_error) and returns
 * TCJ_ERROR_INVALID_VALUE or TCJ_ERROR_NOT_SUPPORTED. */
tcj_status eng_validate(tcj_op op_a, tcj_op op_b, int64_t m, int64_t n, int64_t k,
                        const void *a, tcj_dtype a_type, int64_t lda,
                        const void *b, tcj_dtype b_type, int64_t ldb,
                        const void *c, tcj_dtype c_type, int64_t ldc, eng_problem *out);

/* Checks a tcj_gemm_ex descriptor: its size, then eng_validate's rules for A, B and C (C may be
 * NULL when it is never read), then D, the scalars, the bias, the activation, the batch and the
 * overlaps of the batch entries. Same contract as eng_validate. The user epilogue's source is
 * only checked for presence here; its hash (out->user) is the engine's to compute. */
tcj_status eng_validate_desc(const tcj_gemm_desc *desc, eng_problem *out);

/* Whether the kernels take the descriptor's B as their A and its A as their B (with the fp8
 * scales scale_a and scale_b): a column-major call, which eng_validate_desc rewrote into the
 * row-major problem D^T = op(B)^T op(A)^T. The launch passes the pointers so. */
static inline int eng_desc_swaps_ab(const tcj_gemm_desc *g) { return g->order == TCJ_ORDER_COL_MAJOR; }

/* The struct_size of the first tcj_gemm_desc (0.2, up to epilogue_params): smaller descriptors
 * are refused. */
#define ENG_GEMM_DESC_V1_SIZE (offsetof(tcj_gemm_desc, epilogue_params) + sizeof(const void *))

/* The descriptor with every field this library knows: g itself, or a copy in buf with the
 * fields past the caller's struct_size zeroed (a caller built against an older header). */
const tcj_gemm_desc *eng_desc_view(const tcj_gemm_desc *g, tcj_gemm_desc *buf);

/* Whether two entries of a strided batch share an element: entry z (0 <= z < batch) holds the
 * elements z * stride + i * ld + j, 0 <= i < rows, 0 <= j < cols <= ld (stride >= 0). Exact, in
 * O(log ld) steps for any batch count (the proof is at the definition). */
int eng_batch_entries_overlap(int64_t rows, int64_t cols, int64_t ld, int64_t batch, int64_t stride);

/* Lower-case name of a public dtype ("bf16", "e4m3", ...), "?" when out of range. */
const char *eng_dtype_name(tcj_dtype t);

#endif
