/* SPDX-License-Identifier: Apache-2.0 */
/* Counting a string's occurrences in generated text (PTX, messages): the PTX tests' check that
 * an instruction is emitted a given number of times. */
#ifndef TCJ_TESTS_TEXT_COUNT_H
#define TCJ_TESTS_TEXT_COUNT_H

#include <string.h>

/* Occurrences of what in text, overlapping ones included. */
static inline int count_of(const char *text, const char *what) {
  int n = 0;
  for (const char *p = strstr(text, what); p; p = strstr(p + 1, what)) n++;
  return n;
}

#endif
