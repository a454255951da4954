/* Argument checks of tcj_gemm: public arguments -> eng_problem, or an error naming the bad
 * argument. No CUDA: validation runs (and is tested) before any device is needed. */
#ifndef TCJ_ENG_VALIDATE_H
#define TCJ_ENG_VALIDATE_H

#include "engine/select.h"
#include "tcj.h"

/* Checks the arguments of tcj_gemm (all but engine and stream). On success fills *out and
 * returns TCJ_SUCCESS; otherwise records a message (eng_set_error) and returns
 * TCJ_ERROR_INVALID_VALUE or TCJ_ERROR_NOT_SUPPORTED. */
tcj_status eng_validate(tcj_op op_a, tcj_op op_b, int64_t m, int64_t n, int64_t k,
                        const void *a, tcj_dtype a_type, int64_t lda,
                        const void *b, tcj_dtype b_type, int64_t ldb,
                        const void *c, tcj_dtype c_type, int64_t ldc, eng_problem *out);

/* Lower-case name of a public dtype ("bf16", "e4m3", ...), "?" when out of range. */
const char *eng_dtype_name(tcj_dtype t);

#endif
