/* SPDX-License-Identifier: Apache-2.0 */
/* CHECK for the libFuzzer harnesses: a broken invariant prints what failed and aborts, which
 * libFuzzer reports as a crash and saves the input for (it stays on in release builds). */
#ifndef TCJ_FUZZ_CHECK_H
#define TCJ_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                          \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      fprintf(stderr, "%s:%d: invariant does not hold: %s\n", __FILE__, __LINE__, #cond);    \
      abort();                                                                               \
    }                                                                                        \
  } while (0)

#endif
