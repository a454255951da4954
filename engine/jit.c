/* SPDX-License-Identifier: Apache-2.0 */
/* PTX -> cubin through nvJitLink, opened with dlopen so that libtcj runs where the toolkit is
 * absent. nvJitLink needs no GPU, so warmup and CI build the same cubins a device would. */
#define NVJITLINK_NO_INLINE /* the header's inline wrappers call versioned symbols we dlsym */
#include "engine/jit.h"
#include "engine/libfile.h"
#include "engine/nvrtc.h"
#include "engine/ptx_cuda.h"

#include <dlfcn.h>
#include <nvJitLink.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef nvJitLinkResult (*nvjl_create_fn)(nvJitLinkHandle *, uint32_t, const char **);
typedef nvJitLinkResult (*nvjl_destroy_fn)(nvJitLinkHandle *);
typedef nvJitLinkResult (*nvjl_add_data_fn)(nvJitLinkHandle, nvJitLinkInputType, const void *,
                                            size_t, const char *);
typedef nvJitLinkResult (*nvjl_complete_fn)(nvJitLinkHandle);
typedef nvJitLinkResult (*nvjl_size_fn)(nvJitLinkHandle, size_t *);
typedef nvJitLinkResult (*nvjl_bytes_fn)(nvJitLinkHandle, void *);
typedef nvJitLinkResult (*nvjl_log_fn)(nvJitLinkHandle, char *);
typedef nvJitLinkResult (*nvjl_version_fn)(unsigned *, unsigned *);

/* name, field, type */
#define NVJL_LIST(X)                                          \
  X("nvJitLinkCreate", create, nvjl_create_fn)                \
  X("nvJitLinkDestroy", destroy, nvjl_destroy_fn)             \
  X("nvJitLinkAddData", add_data, nvjl_add_data_fn)           \
  X("nvJitLinkComplete", complete, nvjl_complete_fn)          \
  X("nvJitLinkGetLinkedCubinSize", cubin_size, nvjl_size_fn)  \
  X("nvJitLinkGetLinkedCubin", cubin, nvjl_bytes_fn)          \
  X("nvJitLinkGetErrorLogSize", error_log_size, nvjl_size_fn) \
  X("nvJitLinkGetErrorLog", error_log, nvjl_log_fn)           \
  X("nvJitLinkGetInfoLogSize", info_log_size, nvjl_size_fn)   \
  X("nvJitLinkGetInfoLog", info_log, nvjl_log_fn)             \
  X("nvJitLinkVersion", version, nvjl_version_fn)

static struct {
#define NVJL_FIELD(name, field, type) type field;
  NVJL_LIST(NVJL_FIELD)
#undef NVJL_FIELD
  int ok;
  unsigned major, minor;
} nvjl;
static pthread_once_t nvjl_once = PTHREAD_ONCE_INIT;

/* Versioned aliases, for libraries that export only __nvJitLinkX_<major>_<minor>. */
static void *nvjl_sym(void *lib, const char *name) {
  static const char *const suffixes[] = {"_13_0", "_12_0"};
  void *p = dlsym(lib, name);
  for (size_t i = 0; !p && i < sizeof suffixes / sizeof *suffixes; i++) {
    char versioned[96];
    snprintf(versioned, sizeof versioned, "__%s%s", name, suffixes[i]);
    p = dlsym(lib, versioned);
  }
  return p;
}

static const char *const nvjl_sonames[] = {"libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so"};

/* The nvJitLink library file, found without loading it (libfile.h says why). The same file is
 * the one nvjl_load opens, so identity and compiler agree. */
static eng_libfile nvjl_file;
static pthread_once_t nvjl_file_once = PTHREAD_ONCE_INIT;

static void nvjl_find(void) {
  eng_libfile_find(nvjl_sonames, sizeof nvjl_sonames / sizeof *nvjl_sonames, &nvjl_file);
}

int eng_nvjitlink_identity(char *out, size_t size) {
  pthread_once(&nvjl_file_once, nvjl_find);
  if (!nvjl_file.found) return 0;
  snprintf(out, size, "nvJitLink %s bytes=%lld", nvjl_file.soname, nvjl_file.bytes);
  return 1;
}

static void nvjl_load(void) {
  pthread_once(&nvjl_file_once, nvjl_find);
  if (!nvjl_file.found) return;
  void *lib = dlopen(nvjl_file.path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) return;
#define NVJL_SYM(name, field, type)                         \
  *(void **)(&nvjl.field) = nvjl_sym(lib, name);            \
  if (!nvjl.field) { dlclose(lib); return; }
  NVJL_LIST(NVJL_SYM)
#undef NVJL_SYM
  if (nvjl.version(&nvjl.major, &nvjl.minor) != NVJITLINK_SUCCESS) nvjl.major = nvjl.minor = 0;
  nvjl.ok = 1;
}

int eng_nvjitlink_available(char *version, size_t size) {
  pthread_once(&nvjl_once, nvjl_load);
  if (nvjl.ok && version && size) snprintf(version, size, "nvJitLink %u.%u", nvjl.major, nvjl.minor);
  return nvjl.ok;
}

void eng_cubin_free(eng_cubin *c) {
  if (!c) return;
  free(c->data);
  free(c->info_log);
  c->data = NULL;
  c->info_log = NULL;
  c->size = 0;
}

/* A malloc'ed log from one of the size/get pairs, or NULL. */
static char *nvjl_log(nvJitLinkHandle h, nvjl_size_fn size_fn, nvjl_log_fn log_fn) {
  size_t n = 0;
  if (size_fn(h, &n) != NVJITLINK_SUCCESS || n == 0) return NULL;
  char *s = malloc(n + 1);
  if (!s) return NULL;
  if (log_fn(h, s) != NVJITLINK_SUCCESS) { free(s); return NULL; }
  s[n] = '\0';
  return s;
}

tcj_status eng_jit_compile_nvjitlink(const char *ptx, size_t len, const char *arch, eng_cubin *out,
                                     char *err, size_t err_size) {
  memset(out, 0, sizeof *out);
  if (!eng_nvjitlink_available(NULL, 0)) {
    snprintf(err, err_size, "nvJitLink is not available");
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  char arch_opt[32];
  snprintf(arch_opt, sizeof arch_opt, "-arch=%s", arch);
  /* -verbose puts the ptxas resource report (registers, spills) in the info log. */
  const char *opts[] = {arch_opt, "-verbose"};
  nvJitLinkHandle h = NULL;
  nvJitLinkResult r = nvjl.create(&h, 2, opts);
  if (r != NVJITLINK_SUCCESS) {
    /* An -arch this nvJitLink does not know (a toolkit older than the GPU) fails here: name both,
     * so the fix (a newer toolkit) is plain. */
    snprintf(err, err_size, "nvJitLink %u.%u cannot target %s (nvJitLinkCreate(%s): error %d): a CUDA toolkit that "
             "knows %s is needed for it", nvjl.major, nvjl.minor, arch, arch_opt, (int)r, arch);
    return TCJ_ERROR_COMPILE;
  }
  tcj_status st = TCJ_ERROR_COMPILE;
  const char *step = "nvJitLinkAddData";
  r = nvjl.add_data(h, NVJITLINK_INPUT_PTX, ptx, len, "tcj.ptx");
  if (r == NVJITLINK_SUCCESS) { step = "nvJitLinkComplete"; r = nvjl.complete(h); }
  out->info_log = nvjl_log(h, nvjl.info_log_size, nvjl.info_log);
  if (r != NVJITLINK_SUCCESS) {
    char *elog = nvjl_log(h, nvjl.error_log_size, nvjl.error_log);
    snprintf(err, err_size, "%s (%s): error %d: %s", step, arch, (int)r, elog ? elog : "(no log)");
    free(elog);
    goto fail;
  }
  if (nvjl.cubin_size(h, &out->size) != NVJITLINK_SUCCESS || out->size == 0) {
    snprintf(err, err_size, "nvJitLinkGetLinkedCubinSize failed");
    goto fail;
  }
  if (!(out->data = malloc(out->size))) {
    snprintf(err, err_size, "out of host memory for a %zu-byte cubin", out->size);
    st = TCJ_ERROR_OUT_OF_MEMORY;
    goto fail;
  }
  if (nvjl.cubin(h, out->data) != NVJITLINK_SUCCESS) {
    snprintf(err, err_size, "nvJitLinkGetLinkedCubin failed");
    goto fail;
  }
  nvjl.destroy(&h);
  return TCJ_SUCCESS;
fail:
  nvjl.destroy(&h);
  eng_cubin_free(out);
  return st;
}

int eng_cfg_compiles_whole(const tcj_kernel_cfg *cfg) {
  return !cfg->user && tcj_cfg_rebalances_registers(cfg) && eng_whole_program_expected();
}

int eng_ptx_rebalances_registers(const char *ptx, size_t len) {
  static const char word[] = "setmaxnreg";
  return ptx && memmem(ptx, len, word, sizeof word - 1) != NULL;
}

const char *eng_cubin_compiler(const eng_cubin *bin, const char *linker, char *out, size_t size) {
  char version[64] = "NVRTC";
  if (bin && bin->whole_program) {
    eng_nvrtc_available(version, sizeof version);
    snprintf(out, size, "%s whole-program", version);
  } else {
    snprintf(out, size, "%s", linker ? linker : "");
  }
  return out;
}

/* "why" then the old log, as the new info log (the old one is freed). */
static void prepend_log(eng_cubin *c, const char *why) {
  size_t a = strlen(why), b = c->info_log ? strlen(c->info_log) : 0;
  char *s = malloc(a + b + 2);
  if (!s) return;
  memcpy(s, why, a);
  s[a] = '\n';
  if (b) memcpy(s + a + 1, c->info_log, b);
  s[a + 1 + b] = '\0';
  free(c->info_log);
  c->info_log = s;
}

tcj_status eng_jit_compile(const char *ptx, size_t len, const char *arch, eng_cubin *out, char *err, size_t err_size) {
  memset(out, 0, sizeof *out);
  char why[2048] = "";
  if (eng_ptx_rebalances_registers(ptx, len) && eng_whole_program_wanted() && eng_nvrtc_whole_program_available()) {
    char *source = NULL;
    if (eng_ptx_as_cuda(ptx, len, &source, why, sizeof why) == 0) {
      tcj_status st = eng_nvrtc_compile_cubin(source, arch, out, why, sizeof why);
      free(source);
      if (st == TCJ_SUCCESS) {
        out->whole_program = 1;
        return st;
      }
      if (st == TCJ_ERROR_OUT_OF_MEMORY) {
        snprintf(err, err_size, "%s", why);
        return st;
      }
    }
  }
  tcj_status st = eng_jit_compile_nvjitlink(ptx, len, arch, out, err, err_size);
  if (st == TCJ_SUCCESS && why[0]) {
    char note[2200];
    snprintf(note, sizeof note, ENG_JIT_NOT_WHOLE " (setmaxnreg ignored): %s", why);
    prepend_log(out, note);
  }
  return st;
}

/* The integer that ends just before `at` in a log line, or -1. */
static int number_before(const char *start, const char *at) {
  const char *p = at;
  while (p > start && (p[-1] == ' ' || p[-1] == '\t')) p--;
  const char *end = p;
  while (p > start && p[-1] >= '0' && p[-1] <= '9') p--;
  return p == end ? -1 : atoi(p);
}

/* ptxas -v lines, as printed by nvJitLink 13.0 with -verbose:
 *   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 8 registers, used 0 barriers
 * Every function's report is summed; the register count is the largest one. */
int eng_info_log_spills(const char *log, int *registers) {
  if (registers) *registers = -1;
  if (!log) return -1;
  int spills = -1;
  for (const char *p = log; (p = strstr(p, "bytes spill stores")) != NULL; p++) {
    int st = number_before(log, p);
    const char *l = strstr(p, "bytes spill loads");
    const char *eol = strchr(p, '\n');
    int ld = (l && (!eol || l < eol)) ? number_before(p, l) : -1;
    if (st < 0 || ld < 0) continue;
    spills = (spills < 0 ? 0 : spills) + st + ld;
  }
  if (registers)
    for (const char *p = log; (p = strstr(p, "Used ")) != NULL; p++) {
      int n;
      if (sscanf(p, "Used %d registers", &n) == 1 && n > *registers) *registers = n;
    }
  return spills;
}
