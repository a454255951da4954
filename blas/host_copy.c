/* SPDX-License-Identifier: Apache-2.0 */
/* Copies between host matrices on several threads: staging a caller's pageable array into a
 * pinned buffer is a memcpy, and one core's memcpy (about 10 GB/s) is slower than the bus it
 * feeds, so a large copy is cut into column ranges (or row ranges of one column), one thread
 * each. Threads are started per copy: a copy worth splitting takes milliseconds, a thread's
 * start tens of microseconds. */
#include "blas/tcjblas_internal.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

typedef struct part {
  char *dst;
  const char *src;
  int64_t dld, sld, rows, cols; /* lds in bytes here, rows in bytes */
} part;

static void copy_part(const part *p) {
  if (p->rows == p->dld && p->rows == p->sld) { /* both packed: one memcpy */
    memcpy(p->dst, p->src, (size_t)(p->rows * p->cols));
    return;
  }
  for (int64_t j = 0; j < p->cols; j++) memcpy(p->dst + j * p->dld, p->src + j * p->sld, (size_t)p->rows);
}

static void *copy_main(void *arg) {
  copy_part(arg);
  return NULL;
}

enum { MAX_COPY_THREADS = 64 };
/* Below this a second thread is not worth its start. */
#define SPLIT_BYTES ((int64_t)4 << 20)

int tb_copy_threads_default(void) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  long t = cpus / 2; /* leave the caller's program half the cores */
  return t < 1 ? 1 : t > 8 ? 8 : (int)t;
}

void tb_host_copy(void *dst, int64_t dld, const void *src, int64_t sld, int64_t rows, int64_t cols,
                  size_t es, int threads) {
  if (rows <= 0 || cols <= 0) return;
  int64_t bytes = rows * cols * (int64_t)es;
  int64_t n = threads < 1 ? 1 : threads > MAX_COPY_THREADS ? MAX_COPY_THREADS : threads;
  if (bytes / SPLIT_BYTES < n) n = bytes / SPLIT_BYTES < 1 ? 1 : bytes / SPLIT_BYTES;
  /* Split the columns; a single column (or fewer columns than threads) splits its rows. */
  int by_rows = cols < n;
  int64_t span = by_rows ? rows : cols;
  if (span < n) n = span;
  part parts[MAX_COPY_THREADS];
  pthread_t tid[MAX_COPY_THREADS];
  int started[MAX_COPY_THREADS] = {0};
  for (int64_t i = 0; i < n; i++) {
    int64_t lo = span * i / n, hi = span * (i + 1) / n;
    part *p = &parts[i];
    p->dld = dld * (int64_t)es;
    p->sld = sld * (int64_t)es;
    if (by_rows) {
      p->dst = (char *)dst + lo * (int64_t)es;
      p->src = (const char *)src + lo * (int64_t)es;
      p->rows = (hi - lo) * (int64_t)es;
      p->cols = cols;
    } else {
      p->dst = (char *)dst + lo * p->dld;
      p->src = (const char *)src + lo * p->sld;
      p->rows = rows * (int64_t)es;
      p->cols = hi - lo;
    }
    /* Part 0 is the caller's; a thread that cannot start leaves its part to the caller too. */
    if (i > 0) started[i] = pthread_create(&tid[i], NULL, copy_main, p) == 0;
  }
  for (int64_t i = 0; i < n; i++)
    if (!started[i]) copy_part(&parts[i]);
  for (int64_t i = 1; i < n; i++)
    if (started[i]) pthread_join(tid[i], NULL);
}
