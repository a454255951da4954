/* SPDX-License-Identifier: Apache-2.0 */
/* Locates a shared library file by soname without loading it (see libfile.h): a stat per
 * candidate directory, and a dlopen only when the library lives where only the loader knows. */
#include "engine/libfile.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int try_file(eng_libfile *f, const char *dir, size_t dir_len, const char *soname) {
  struct stat st;
  if (dir_len == 0 ||
      (size_t)snprintf(f->path, sizeof f->path, "%.*s/%s", (int)dir_len, dir, soname) >= sizeof f->path)
    return 0;
  if (stat(f->path, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  f->found = 1;
  f->soname = soname;
  f->bytes = (long long)st.st_size;
  return 1;
}

void eng_libfile_find(const char *const *sonames, size_t count, eng_libfile *f) {
  memset(f, 0, sizeof *f);
  const char *env_dirs = getenv("LD_LIBRARY_PATH");
  char cuda_home[4096] = "", cuda_path[4096] = "";
  const char *ch = getenv("CUDA_HOME"), *cp = getenv("CUDA_PATH");
  /* A variable too long for the buffer is ignored rather than searched truncated. */
  if (ch && *ch && snprintf(cuda_home, sizeof cuda_home, "%s/lib64", ch) >= (int)sizeof cuda_home) cuda_home[0] = 0;
  if (cp && *cp && snprintf(cuda_path, sizeof cuda_path, "%s/lib64", cp) >= (int)sizeof cuda_path) cuda_path[0] = 0;
  const char *fixed[] = {cuda_home, cuda_path, "/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib",
                         "/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib/x86_64-linux-gnu"};
  for (size_t n = 0; n < count; n++) {
    for (const char *p = env_dirs; p && *p;) {
      const char *end = strchr(p, ':');
      size_t len = end ? (size_t)(end - p) : strlen(p);
      if (try_file(f, p, len, sonames[n])) return;
      p = end ? end + 1 : NULL;
    }
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
      if (try_file(f, fixed[i], strlen(fixed[i]), sonames[n])) return;
  }
  /* Elsewhere (ld.so.conf, an rpath): let the loader find it, once, and ask where it is. */
  for (size_t n = 0; n < count; n++) {
    void *lib = dlopen(sonames[n], RTLD_LAZY | RTLD_LOCAL);
    struct link_map *map = NULL;
    if (lib && dlinfo(lib, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) {
      const char *slash = strrchr(map->l_name, '/');
      if (slash && try_file(f, map->l_name, (size_t)(slash - map->l_name), sonames[n])) return; /* lib stays loaded */
    }
    if (lib) dlclose(lib);
  }
  f->path[0] = 0;
}
