/* SPDX-License-Identifier: Apache-2.0 */
/* A tcj PTX module written as CUDA C++, so that NVRTC compiles it as one whole program.
 *
 * Why: the sm90 kernels move registers between warpgroups with setmaxnreg (the producer gives
 * up most of its registers, the consumers take them). ptxas honours setmaxnreg only when it
 * compiles a whole program; nvJitLink (and ptxas -c) compile PTX as relocatable code and
 * ignore it ("C7504: 'setmaxnreg' ignored to maintain compatibility across compilation
 * units", ptxas 13.0), so every consumer keeps the entry count of 168 registers. NVRTC compiles
 * a CUDA C++ program whole and returns its cubin (nvrtcGetCUBIN); a kernel whose body is one
 * inline-asm block holding tcj's PTX body gets the same code, with setmaxnreg in effect. The
 * measurement that motivated it: an e4m3 128x256 promoted tile spilled 764 bytes through
 * nvJitLink and none through the whole-program compile (ptxas 13.0).
 *
 * The translation, per .entry of the module:
 *   - parameters: .u32/.s32/.u64/.s64/.f32/.f64 as the C types of the same size; an
 *     ".align A .b8 NAME[N]" array (a TMA tensor map) as a const __grid_constant__ struct of
 *     N bytes aligned to A, so the parameter keeps its bytes and alignment in param space. The
 *     PTX NVRTC writes names them FUNC_param_I, so the body's references are renamed;
 *   - .maxnreg R as __maxnreg__(R) (NVRTC 12.4 and newer); otherwise .maxntid T as
 *     __launch_bounds__(T) (the two cannot be combined: NVRTC refuses it);
 *     .reqnctapercluster X, Y, Z as __cluster_dims__(X, Y, Z);
 *   - the body, braces included, as the text of one asm volatile statement with no operands
 *     (so '%' and '$' pass through as written); its .reg declarations are scoped by the braces.
 * The module's ".extern .shared .align A .b8 NAME[]" becomes an extern __shared__ array of that
 * alignment; each kernel names it once through an operand so that NVRTC keeps the declaration.
 *
 * Only the shapes tcj writes are translated: anything else (a .func, as a user epilogue's
 * module holds, or a directive not listed above) is refused with a reason, and the caller
 * compiles the PTX through nvJitLink instead. */
#ifndef TCJ_ENG_PTX_CUDA_H
#define TCJ_ENG_PTX_CUDA_H

#include <stddef.h>

/* Writes the CUDA C++ form of the module ptx[0..len) into *source (malloc'ed, NUL-terminated;
 * the caller frees). 0 on success; -1 with why (and *source NULL) when the module holds
 * something the translation does not cover, or on a failed allocation. */
int eng_ptx_as_cuda(const char *ptx, size_t len, char **source, char *why, size_t why_size);

#endif
