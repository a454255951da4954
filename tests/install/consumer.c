/* SPDX-License-Identifier: Apache-2.0 */
/* Uses the installed public header and library; needs no GPU. */
#include <stdio.h>
#include <string.h>
#include <tcj.h>

int main(void) {
  if (strcmp(tcj_status_string(TCJ_SUCCESS), "success") != 0) return 1;
  /* Validation runs before any device work, so a NULL engine is rejected anywhere. */
  if (tcj_gemm(NULL, TCJ_OP_N, TCJ_OP_N, 1, 1, 1, 1.f, NULL, TCJ_BF16, 1, NULL, TCJ_BF16, 1, 0.f,
               NULL, TCJ_BF16, 1, NULL) != TCJ_ERROR_INVALID_VALUE)
    return 1;
  printf("consumer: linked tcj, last error \"%s\"\n", tcj_last_error(NULL));
  return 0;
}
