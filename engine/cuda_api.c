/* SPDX-License-Identifier: Apache-2.0 */
/* dlopen/dlsym of the CUDA driver, once per process. A missing library or symbol is not an
 * error here: the caller reports TCJ_ERROR_NO_DEVICE with the reason. */
#include "engine/cuda_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static eng_cuda_api api;
static const eng_cuda_api *api_ok;
static char api_why[256];
static pthread_once_t api_once = PTHREAD_ONCE_INIT;

#define ENG_STR_(x) #x
#define ENG_STR(x) ENG_STR_(x) /* expands cuda.h's renames before stringising */

static void load_once(void) {
  /* RTLD_LOCAL: the driver's symbols must not satisfy anything else in the process. */
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(api_why, sizeof api_why, "cannot open libcuda.so.1 (no CUDA driver): %s", dlerror());
    return;
  }
#define ENG_CUDA_SYM(fn)                                                                  \
  *(void **)(&api.fn) = dlsym(lib, ENG_STR(fn));                                          \
  if (!api.fn) {                                                                          \
    snprintf(api_why, sizeof api_why, "libcuda.so.1 lacks %s (driver too old)", ENG_STR(fn)); \
    return;                                                                               \
  }
  ENG_CUDA_API_LIST(ENG_CUDA_SYM)
#undef ENG_CUDA_SYM
#define ENG_CUDA_OPTIONAL_SYM(fn) *(void **)(&api.fn) = dlsym(lib, ENG_STR(fn));
  ENG_CUDA_API_OPTIONAL_LIST(ENG_CUDA_OPTIONAL_SYM)
#undef ENG_CUDA_OPTIONAL_SYM
  CUresult r = api.cuInit(0);
  if (r != CUDA_SUCCESS) {
    const char *name = NULL;
    if (api.cuGetErrorName(r, &name) != CUDA_SUCCESS || !name) name = "unknown error";
    snprintf(api_why, sizeof api_why, "cuInit: %s", name);
    return;
  }
  if (api.cuDriverGetVersion(&api.driver_version) != CUDA_SUCCESS) api.driver_version = 0;
  api_ok = &api; /* the library stays open for the life of the process */
}

static const eng_cuda_api *fake;

void eng_cuda_use_fake(const eng_cuda_api *api_for_tests) { fake = api_for_tests; }

const eng_cuda_api *eng_cuda_load(const char **why) {
  if (fake) return fake;
  pthread_once(&api_once, load_once);
  if (!api_ok && why) *why = api_why;
  return api_ok;
}

const char *eng_cuda_error_name(CUresult r) {
  static _Thread_local char buf[32];
  const char *name = NULL;
  const eng_cuda_api *cu = fake ? fake : api_ok;
  if (cu && cu->cuGetErrorName(r, &name) == CUDA_SUCCESS && name) return name;
  snprintf(buf, sizeof buf, "CUDA error %d", (int)r);
  return buf;
}
