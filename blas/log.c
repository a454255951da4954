/* SPDX-License-Identifier: Apache-2.0 */
/* libtcjblas's messages: one line on stderr each, prefixed "tcjblas: ". BLAS calls have no
 * status to return, so a fallback or a missing CPU BLAS can only be said here, once. */
#include "blas/tcjblas_internal.h"

#include <stdarg.h>

static void vmsg(const char *fmt, va_list ap) {
  char line[1024];
  vsnprintf(line, sizeof line, fmt, ap);
  fprintf(stderr, "tcjblas: %s\n", line); /* one write per line, so threads do not interleave */
}

void tb_msg(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg(fmt, ap);
  va_end(ap);
}

void tb_msg_once(atomic_int *flag, const char *fmt, ...) {
  if (atomic_exchange(flag, 1)) return;
  va_list ap;
  va_start(ap, fmt);
  vmsg(fmt, ap);
  va_end(ap);
}
