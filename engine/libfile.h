/* SPDX-License-Identifier: Apache-2.0 */
/* Finding a shared library's file without loading it, for the compilers tcj dlopens
 * (nvJitLink, NVRTC): nvJitLink's identity is recorded in cache entries, and a process that
 * only hits the cache should not pay the 10-200 ms a dlopen of a compiler costs. */
#ifndef TCJ_ENG_LIBFILE_H
#define TCJ_ENG_LIBFILE_H

#include <stddef.h>

typedef struct eng_libfile {
  int found;
  char path[4096];    /* the file to dlopen, so that identity and loaded library agree */
  const char *soname; /* the entry of sonames that matched */
  long long bytes;    /* its size: the cheap part of the identity that tells builds apart */
} eng_libfile;

/* Looks for sonames[0], then sonames[1], ... in the loader's order as far as it is cheaply
 * known: $LD_LIBRARY_PATH, $CUDA_HOME/lib64, $CUDA_PATH/lib64, the toolkit's and the system's
 * directories; failing those, asks the loader itself (one dlopen). */
void eng_libfile_find(const char *const *sonames, size_t count, eng_libfile *out);

#endif
