/* SPDX-License-Identifier: Apache-2.0 */
/* The generic set of an arch: the generic kernels (tcj_kernel_cfg.generic) that serve every
 * plain GEMM of the common type pairs there, for `tcj-warmup --generic`. Pure (no CUDA). */
#ifndef TCJ_ENG_GENERIC_SET_H
#define TCJ_ENG_GENERIC_SET_H

#include "engine/select.h"

/* The type pairs (A and B, C) of the set: f16 and bf16 into themselves and f32, tf32, f32 at
 * fp32 accuracy (ab PTX_E_F32: the 3xTF32 parts' kernels, eng_problem_split3), s8, on sm_89
 * and newer e4m3 and e5m2 into bf16, and f64 (the dmma recipe). */
#define ENG_GENERIC_PAIRS_MAX 10
int eng_generic_pairs(const eng_device_caps *caps, ptx_elem ab[ENG_GENERIC_PAIRS_MAX],
                      ptx_elem c[ENG_GENERIC_PAIRS_MAX]);

/* The distinct generic configs eng_select_generic picks on caps for a fixed sample of shapes
 * (m, n, k from 1 to 16384, log-uniform; n odd and even) of every op pair of the type pair
 * (ab, c), operands with 16-byte rows (others are packed into such rows: the same kernels), in
 * the order first picked. Returns how many (at most max are written), or -1 when out of room. */
int eng_generic_set(const eng_device_caps *caps, ptx_elem ab, ptx_elem c, tcj_kernel_cfg *out, int max);

#endif
