/* SPDX-License-Identifier: Apache-2.0 */
/* PTX -> cubin. nvJitLink (dlopen'ed) when present: works without a GPU, so offline builds and
 * CI compile real cubins. Otherwise the driver's cuLink* API (needs a context). */
#ifndef TCJ_ENG_JIT_H
#define TCJ_ENG_JIT_H

#include <stddef.h>

#include "ptxgen/kernel_cfg.h"
#include "tcj.h"

typedef struct eng_cubin {
  void *data; /* malloc'ed cubin image */
  size_t size;
  char *info_log; /* malloc'ed compiler info log (ptxas resource report), may be NULL */
  /* 1: compiled as one whole program through NVRTC (eng_jit_compile), setmaxnreg in effect. */
  int whole_program;
} eng_cubin;

void eng_cubin_free(eng_cubin *c);

/* 1 if nvJitLink's library file was found (without loading it); *out gets its identity for
 * cache keys: "nvJitLink libnvJitLink.so.13 bytes=98806736". */
int eng_nvjitlink_identity(char *out, size_t size);

/* 1 if nvJitLink could be opened; *version gets "nvJitLink 13.0" or similar. */
int eng_nvjitlink_available(char *version, size_t size);

/* Compiles ptx for arch ("sm_80", "sm_90a", ...) through nvJitLink with -verbose, so the info
 * log carries the ptxas resource report. Returns TCJ_ERROR_NOT_SUPPORTED if nvJitLink is
 * missing, TCJ_ERROR_COMPILE with the error log in err on failure. Thread-safe. */
tcj_status eng_jit_compile_nvjitlink(const char *ptx, size_t len, const char *arch, eng_cubin *out,
                                     char *err, size_t err_size);

/* The engine's compile: a module that moves registers between warpgroups (setmaxnreg) is
 * compiled whole through NVRTC (engine/ptx_cuda.h says why) when NVRTC 12.4 or newer is there;
 * every other module, and one NVRTC cannot take, through nvJitLink. A failed whole-program
 * compile falls back to nvJitLink, so a kernel is never lost to it, and out->info_log then
 * begins with NVRTC's reason. Errors as eng_jit_compile_nvjitlink's. Thread-safe. */
tcj_status eng_jit_compile(const char *ptx, size_t len, const char *arch, eng_cubin *out, char *err, size_t err_size);
/* The first words of the info log of a module eng_jit_compile meant to compile whole and did not. */
#define ENG_JIT_NOT_WHOLE "tcj: not compiled whole"

/* Who compiled bin, for a cache entry's record: "NVRTC 13.0 whole-program" for a whole-program
 * cubin, else linker (the nvJitLink or driver identity the caller has). Returns out. */
const char *eng_cubin_compiler(const eng_cubin *bin, const char *linker, char *out, size_t size);

/* 1 if cfg's kernel will be compiled whole through NVRTC (as far as can be told without loading
 * NVRTC: eng_whole_program_expected): its recipe moves registers with setmaxnreg and it has no
 * user epilogue. */
int eng_cfg_compiles_whole(const tcj_kernel_cfg *cfg);

/* 1 if ptx[0..len) uses setmaxnreg: the modules eng_jit_compile compiles whole when it can. The
 * word anywhere counts, comments too: a module taken whole needlessly is still compiled right. */
int eng_ptx_rebalances_registers(const char *ptx, size_t len);

/* Compiles ptx through the driver's cuLink* API for the device of the current context (the
 * caller makes the engine's context current). Used when nvJitLink is missing, when
 * tcj_options.force_driver_jit is set, or when an nvJitLink cubin does not load. */
tcj_status eng_jit_compile_driver(const char *ptx, size_t len, eng_cubin *out, char *err,
                                  size_t err_size);

/* Spill bytes (stores + loads) reported in an info log, or -1 if the log has no report.
 * *registers gets the register count when non-NULL. */
int eng_info_log_spills(const char *info_log, int *registers);

#endif
