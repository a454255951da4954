/* SPDX-License-Identifier: Apache-2.0 */
/* Where the calls ran, said once at exit when asked (report 1 in tcjblas.conf, TCJBLAS_REPORT=1):
 * how many went to the GPU, the CPU BLAS and the built-in reference, and how many kernels tcj
 * compiled in the caller's thread, the cost a BLAS program pays for the JIT. A program cannot
 * ask the BLAS ABI any of this, and a test driver (Netlib's xblat3*) needs it to show that its
 * calls reached the GPU at all. */
#include "blas/tcjblas_internal.h"

#include <inttypes.h>

static atomic_uint_fast64_t ran[TB_RAN_KINDS];

void tb_report_ran(tb_ran where) { atomic_fetch_add_explicit(&ran[where], 1, memory_order_relaxed); }

uint64_t tb_report_count(tb_ran where) { return atomic_load(&ran[where]); }

void tb_report_line(char *out, size_t size) {
  uint64_t gpu = tb_report_count(TB_RAN_GPU), cpu = tb_report_count(TB_RAN_CPU_BLAS);
  uint64_t own = tb_report_count(TB_RAN_BUILT_IN), copies = tb_report_count(TB_RAN_HOST_COPIES);
  uint64_t staged = tb_report_count(TB_RAN_STAGED);
  int n = snprintf(out, size,
                   "%" PRIu64 " calls ran on the GPU (%" PRIu64 " of them staged through pinned "
                   "buffers in tiles), %" PRIu64 " on the CPU BLAS, %" PRIu64
                   " on libtcjblas's own host code; %" PRIu64 " on device arrays went through host "
                   "copies", gpu, staged, cpu, own, copies);
  tb_gpu_compiles jit;
  if (n > 0 && (size_t)n < size && tb_gpu_compile_counts(&jit) == 0)
    snprintf(out + n, size - (size_t)n,
             "; tcj compiled %" PRIu64 " kernels in the caller's thread (%.0f ms) and %" PRIu64
             " in the background, loaded %" PRIu64 " from its disk cache",
             jit.caller, jit.ms, jit.background, jit.disk_hits);
}

/* A destructor rather than atexit: it runs whichever way the program ends normally (a Fortran
 * STOP included), after the program's own handlers, while libtcj (a dependency, finalized
 * after us) still stands. */
__attribute__((destructor)) static void report_at_exit(void) {
  if (!tb_config_get()->report) return;
  char line[512];
  tb_report_line(line, sizeof line);
  tb_msg("%s", line);
}
