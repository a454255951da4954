/* SPDX-License-Identifier: Apache-2.0 */
/* PTX -> cubin. nvJitLink (dlopen'ed) when present: works without a GPU, so offline builds and
 * CI compile real cubins. Otherwise the driver's cuLink* API (needs a context). */
#ifndef TCJ_ENG_JIT_H
#define TCJ_ENG_JIT_H

#include <stddef.h>

#include "tcj.h"

typedef struct eng_cubin {
  void *data; /* malloc'ed cubin image */
  size_t size;
  char *info_log; /* malloc'ed compiler info log (ptxas resource report), may be NULL */
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

/* Compiles ptx through the driver's cuLink* API for the device of the current context (the
 * caller makes the engine's context current). Used when nvJitLink is missing, when
 * tcj_options.force_driver_jit is set, or when an nvJitLink cubin does not load. */
tcj_status eng_jit_compile_driver(const char *ptx, size_t len, eng_cubin *out, char *err,
                                  size_t err_size);

/* Spill bytes (stores + loads) reported in an info log, or -1 if the log has no report.
 * *registers gets the register count when non-NULL. */
int eng_info_log_spills(const char *info_log, int *registers);

#endif
