/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas's staged, tiled path for host arrays (blas/pipeline.c) on the GPU: GEMMs through
 * the BLAS ABI whose sizes make it cut operands into many chunks (whole columns, and pieces of
 * columns longer than a staging buffer) and C into several tiles along m and along n, every
 * element checked against a long double reference (tests/unit/blas_test.h), C's padding
 * unchanged. The staging is shrunk to 64 KiB (8 KiB buffers) so that modest sizes, whose
 * reference is quick, still take hundreds of chunks.
 *
 * The calls run in a child process whose stderr is kept: libtcjblas's report at exit must say
 * that every call ran on the GPU through the staging, so that a path that quietly fell back to
 * the CPU, or to whole copies, fails here. Exit 77 (skipped) without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "unit/blas_test.h"

static const bt_case cases[] = {
  /* C in 3 column tiles, whole-column chunks of A (first, whole), B and C. */
  {BT_F77, 0, 'd', 'N', 'N', 300, 1100, 150, 3, {1.25, 0}, {0.5, 0}},
  /* A the larger: C in 3 row tiles, op(A)'s rows = A's columns ('C' of a real matrix is 'T'). */
  {BT_F77, 0, 'd', 'T', 'C', 1100, 200, 150, 1, {-1.5, 0}, {0, 0}},
  {BT_F77, 0, 's', 'N', 'T', 257, 1030, 129, 0, {1, 0}, {-1, 0}},
  /* Columns of A and C longer than a buffer: pieces of one column each; 8 row tiles. */
  {BT_F77_64, 0, 'd', 'N', 'N', 5000, 20, 10, 7, {0.75, 0}, {1, 0}},
  /* Complex: the real form's Ahat on the device, B's real view staged; a beta with an
   * imaginary part puts the product in a device buffer (device C in the pipeline). */
  {BT_F77, 0, 'z', 'N', 'N', 200, 600, 100, 2, {0.5, -1}, {0.5, 0.25}},
  {BT_CBLAS, 0, 'z', 'T', 'C', 150, 700, 80, 0, {1, 0.5}, {1, 0}},
  {BT_F77, 0, 'c', 'C', 'N', 300, 550, 60, 5, {-1, 0.25}, {0, 0}},
  /* Row-major through CBLAS: the column-major GEMM of the transposes. */
  {BT_CBLAS_64, 1, 'd', 'N', 'T', 600, 300, 100, 4, {1, 0}, {2, 0}},
};
enum { NCASES = sizeof cases / sizeof *cases };

static int child(void) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("SKIP: no GPU: none of the staged GEMMs ran\n");
    return 77;
  }
  int bad = 0;
  for (int i = 0; i < NCASES; i++) {
    int wrong = bt_check(&cases[i]);
    const bt_case *cs = &cases[i];
    printf("%s %c%c%c m=%d n=%d k=%d: %d wrong elements\n", wrong ? "FAIL" : "ok  ", cs->type, cs->ta,
           cs->tb, cs->m, cs->n, cs->k, wrong);
    bad += wrong != 0;
  }
  fflush(stdout);
  return bad ? 1 : 0;
}

int main(void) {
  FILE *err = tmpfile();
  if (!err) return 1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    /* Settings before libtcjblas's first call reads them; the report comes at exit. */
    setenv("TCJBLAS_GPU_THRESHOLD", "0", 1);
    setenv("TCJBLAS_GPU_MIN_INTENSITY", "0", 1);
    setenv("TCJBLAS_PINNED_MB", "0.0625", 1);
    setenv("TCJBLAS_REPORT", "1", 1);
    setenv("TCJBLAS_CONFIG", "", 1);
    dup2(fileno(err), 2);
    exit(child());
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
    printf("FAIL: the child did not exit normally\n");
    return 1;
  }
  char text[65536];
  rewind(err);
  size_t len = fread(text, 1, sizeof text - 1, err);
  text[len] = 0;
  fputs(text, stdout);
  if (WEXITSTATUS(status) != 0) return WEXITSTATUS(status);
  unsigned long gpu = 0, staged = 0;
  const char *line = strstr(text, "tcjblas: ");
  while (line && sscanf(line, "tcjblas: %lu calls ran on the GPU (%lu of them staged", &gpu, &staged) != 2)
    line = strstr(line + 1, "tcjblas: ");
  if (!line || gpu != NCASES || staged != NCASES) {
    printf("FAIL: the report says %lu calls on the GPU, %lu staged; %d expected for both\n", gpu, staged,
           NCASES);
    return 1;
  }
  printf("all %d GEMMs ran staged on the GPU and match the reference\n", NCASES);
  return 0;
}
