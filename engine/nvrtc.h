/* SPDX-License-Identifier: Apache-2.0 */
/* CUDA C -> PTX for user epilogues (tcj_gemm_desc.epilogue_source), through NVRTC opened with
 * dlopen as nvJitLink is (jit.h): libtcj runs without it, and a warm cache serves user
 * epilogues without it. The
 * PTX that comes back is joined into tcj's own module by ptxgen/user_epilogue.h. */
#ifndef TCJ_ENG_NVRTC_H
#define TCJ_ENG_NVRTC_H

#include <stddef.h>
#include <stdint.h>

#include "engine/jit.h" /* eng_cubin */
#include "tcj.h"

/* 1 if NVRTC could be opened; *version gets "NVRTC 13.0" or similar. The first call loads
 * it (about 5 ms, measured with NVRTC 13.0 on a warm page cache). */
int eng_nvrtc_available(char *version, size_t size);

/* Tests only: hidden != 0 makes NVRTC unavailable from now on (eng_nvrtc_available answers 0,
 * compiles fail as without it), as in an image that does not ship it; 0 shows it again. */
void eng_nvrtc_hide(int hidden);

/* Compiles a user epilogue (source defining TCJ_EPILOGUE_SIGNATURE) for arch ("sm_80",
 * "sm_90a", "sm_100a", ...): PTX for the virtual arch compute_XX[a], relocatable so that
 * tcj_epilogue is emitted on its own. NVRTC's messages name the user's lines as
 * "epilogue.cu(LINE)". On success *ptx is malloc'ed, NUL-terminated PTX of *len bytes (caller
 * frees), checked to define tcj_epilogue and to join a tcj module (ptx_user_epilogue_body).
 * Errors: TCJ_ERROR_INVALID_VALUE (NULL source, bad arch), TCJ_ERROR_NOT_SUPPORTED (no NVRTC,
 * or one too old for arch), TCJ_ERROR_COMPILE (NVRTC's log, or no tcj_epilogue defined),
 * TCJ_ERROR_OUT_OF_MEMORY. Thread-safe. */
tcj_status eng_nvrtc_compile_epilogue(const char *source, const char *arch, char **ptx, size_t *len, char *err,
                                      size_t err_size);

/* 0 when TCJ_WHOLE_PROGRAM=0 asks that every kernel be compiled by nvJitLink, as before the
 * whole-program route existed (to measure the difference, or to step around an NVRTC
 * problem); read at each selection and compile. */
int eng_whole_program_wanted(void);

/* 1 if an NVRTC library file is there, found without loading it (libfile.h): what selection
 * asks before it offers a config that needs the whole-program compile
 * (tcj_cfg_needs_whole_program), so that a process served from the cache pays no dlopen. An
 * NVRTC older than 12.4 passes this and then compiles nothing whole: such a config is then
 * compiled by nvJitLink, correct but spilling. */
int eng_whole_program_expected(void); /* and eng_whole_program_wanted() */

/* 1 if NVRTC can compile tcj's modules whole (engine/ptx_cuda.h): 12.4 or newer (for
 * __maxnreg__), with nvrtcGetCUBIN. Loads NVRTC on the first call. */
int eng_nvrtc_whole_program_available(void);

/* Compiles CUDA C++ source (eng_ptx_as_cuda's) for arch ("sm_90a") into a cubin, as one whole
 * program, with the ptxas resource report in out->info_log. TCJ_ERROR_NOT_SUPPORTED without a
 * usable NVRTC (or one too old for arch), TCJ_ERROR_COMPILE with NVRTC's log in err. Thread-safe
 * (one program per call). */
tcj_status eng_nvrtc_compile_cubin(const char *source, const char *arch, eng_cubin *out, char *err, size_t err_size);

/* The key of a user epilogue: XXH3-64 of its source, never 0 (0 means "no user epilogue" in
 * tcj_kernel_cfg.user); NULL hashes as "". The source alone: that text is all NVRTC reads
 * (eng_nvrtc_compile_epilogue refuses a source that reads a file: epilogue_source.h), and the
 * NVRTC that compiles it is named by the disk cache's key (eng_cache_key), so that a process
 * without NVRTC computes the same key and finds the kernel compiled elsewhere. */
uint64_t eng_epilogue_hash(const char *source);

#endif
