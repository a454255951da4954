/* SPDX-License-Identifier: Apache-2.0 */
/* User epilogues, CUDA C -> PTX through NVRTC, opened with dlopen as nvJitLink is (jit.c):
 * libtcj starts without it, and a cached kernel is served without it. The PTX is
 * checked here to join tcj's module (ptxgen/user_epilogue.h), so a bad source fails early. */
#include "engine/nvrtc.h"

#include "engine/epilogue_source.h"
#include "engine/libfile.h"
#include "ptxgen/user_epilogue.h"

#include <dlfcn.h>
#include <nvrtc.h> /* types only: every function is dlsym'ed */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

typedef nvrtcResult (*nvrtc_version_fn)(int *, int *);
typedef const char *(*nvrtc_error_string_fn)(nvrtcResult);
typedef nvrtcResult (*nvrtc_create_fn)(nvrtcProgram *, const char *, const char *, int, const char *const *,
                                       const char *const *);
typedef nvrtcResult (*nvrtc_destroy_fn)(nvrtcProgram *);
typedef nvrtcResult (*nvrtc_compile_fn)(nvrtcProgram, int, const char *const *);
typedef nvrtcResult (*nvrtc_size_fn)(nvrtcProgram, size_t *);
typedef nvrtcResult (*nvrtc_text_fn)(nvrtcProgram, char *);

/* name, field, type */
#define NVRTC_LIST(X)                                               \
  X("nvrtcVersion", version, nvrtc_version_fn)                      \
  X("nvrtcGetErrorString", error_string, nvrtc_error_string_fn)     \
  X("nvrtcCreateProgram", create, nvrtc_create_fn)                  \
  X("nvrtcDestroyProgram", destroy, nvrtc_destroy_fn)               \
  X("nvrtcCompileProgram", compile, nvrtc_compile_fn)               \
  X("nvrtcGetPTXSize", ptx_size, nvrtc_size_fn)                     \
  X("nvrtcGetPTX", ptx, nvrtc_text_fn)                              \
  X("nvrtcGetProgramLogSize", log_size, nvrtc_size_fn)              \
  X("nvrtcGetProgramLog", log, nvrtc_text_fn)

static struct {
#define NVRTC_FIELD(name, field, type) type field;
  NVRTC_LIST(NVRTC_FIELD)
#undef NVRTC_FIELD
  /* nvrtcGetCUBIN and its size (NVRTC 11.1 on): optional, for the whole-program route only. */
  nvrtc_size_fn cubin_size;
  nvrtc_text_fn cubin;
  int ok;
  int major, minor;
} nvrtc;
static pthread_once_t nvrtc_once = PTHREAD_ONCE_INIT;

static const char *const nvrtc_sonames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
#define NVRTC_SONAMES_TEXT "libnvrtc.so.13, libnvrtc.so.12, libnvrtc.so"

static eng_libfile nvrtc_file; /* found as nvJitLink's is (libfile.h) */
static pthread_once_t nvrtc_file_once = PTHREAD_ONCE_INIT;

static void nvrtc_find(void) { eng_libfile_find(nvrtc_sonames, sizeof nvrtc_sonames / sizeof *nvrtc_sonames, &nvrtc_file); }

static void nvrtc_load(void) {
  pthread_once(&nvrtc_file_once, nvrtc_find);
  if (!nvrtc_file.found) return;
  void *lib = dlopen(nvrtc_file.path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) return;
#define NVRTC_SYM(name, field, type)            \
  *(void **)(&nvrtc.field) = dlsym(lib, name);  \
  if (!nvrtc.field) { dlclose(lib); return; }
  NVRTC_LIST(NVRTC_SYM)
#undef NVRTC_SYM
  if (nvrtc.version(&nvrtc.major, &nvrtc.minor) != NVRTC_SUCCESS) nvrtc.major = nvrtc.minor = 0;
  *(void **)(&nvrtc.cubin_size) = dlsym(lib, "nvrtcGetCUBINSize");
  *(void **)(&nvrtc.cubin) = dlsym(lib, "nvrtcGetCUBIN");
  nvrtc.ok = 1;
}

static int nvrtc_hidden; /* eng_nvrtc_hide */

void eng_nvrtc_hide(int hidden) { __atomic_store_n(&nvrtc_hidden, hidden != 0, __ATOMIC_RELAXED); }

int eng_nvrtc_available(char *version, size_t size) {
  if (__atomic_load_n(&nvrtc_hidden, __ATOMIC_RELAXED)) return 0;
  pthread_once(&nvrtc_once, nvrtc_load);
  if (nvrtc.ok && version && size) snprintf(version, size, "NVRTC %d.%d", nvrtc.major, nvrtc.minor);
  return nvrtc.ok;
}

/* The declaration of TCJ_EPILOGUE_SIGNATURE before the user's text, so that a definition of
 * another signature is an error of NVRTC's, then a #line so that NVRTC counts the user's lines
 * as "epilogue.cu(LINE)" (the program's name too). The declaration has a file name of its own,
 * so that a note about it is not taken for the user's line 1. */
#define EPILOGUE_FILE "epilogue.cu"
/* The program's name, which NVRTC searches a quoted #include in (a bare name: the working
 * directory, even with --no-source-include; measured with NVRTC 13.0). Under /dev/null, which is
 * no directory, there is none to search: a relative include that eng_epilogue_source_check
 * missed fails to open rather than reading a file the key does not cover. Messages name
 * EPILOGUE_FILE (the #line of the prelude), not this. */
#define PROGRAM_NAME "/dev/null/" EPILOGUE_FILE
static const char prelude[] = "#line 1 \"tcj_epilogue_signature\"\n" TCJ_EPILOGUE_SIGNATURE ";\n"
                              "#line 1 \"" EPILOGUE_FILE "\"\n";

/* "sm_90a" -> "--gpu-architecture=compute_90a": PTX for the virtual arch, which the join then
 * assembles for the real one. 0, or -1 when arch is not sm_<digits>[a|f]. */
static int virtual_arch_option(const char *arch, char *out, size_t size) {
  if (!arch || strncmp(arch, "sm_", 3) != 0) return -1;
  size_t digits = strspn(arch + 3, "0123456789");
  const char *suffix = arch + 3 + digits;
  if (digits < 2 || digits > 3 || (*suffix && strcmp(suffix, "a") != 0 && strcmp(suffix, "f") != 0)) return -1;
  int n = snprintf(out, size, "--gpu-architecture=compute_%s", arch + 3);
  return n > 0 && (size_t)n < size ? 0 : -1;
}

/* NVRTC's log, malloc'ed, or NULL; the program named EPILOGUE_FILE, as the user's lines are. */
static char *program_log(nvrtcProgram prog) {
  size_t n = 0;
  if (nvrtc.log_size(prog, &n) != NVRTC_SUCCESS || n == 0) return NULL;
  char *s = malloc(n + 1);
  if (!s) return NULL;
  if (nvrtc.log(prog, s) != NVRTC_SUCCESS) {
    free(s);
    return NULL;
  }
  s[n] = '\0';
  const size_t dir = strlen(PROGRAM_NAME) - strlen(EPILOGUE_FILE);
  for (char *at; (at = strstr(s, PROGRAM_NAME));) memmove(at, at + dir, strlen(at + dir) + 1);
  return s;
}

/* Multiple threads may use NVRTC at once as long as each has its own program (NVRTC User
 * Guide, "Thread Safety"), so compiles are not serialised: warmup compiles in parallel. */
tcj_status eng_nvrtc_compile_epilogue(const char *source, const char *arch, char **ptx, size_t *len, char *err,
                                      size_t err_size) {
  if (ptx) *ptx = NULL;
  if (len) *len = 0;
  if (!source || !ptx || !len) {
    snprintf(err, err_size, "user epilogue: no source");
    return TCJ_ERROR_INVALID_VALUE;
  }
  char why[512];
  if (eng_epilogue_source_check(source, why, sizeof why) != 0) {
    snprintf(err, err_size, "user epilogue: %s", why);
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  char arch_opt[64];
  if (virtual_arch_option(arch, arch_opt, sizeof arch_opt) != 0) {
    snprintf(err, err_size, "user epilogue: arch '%s' is not a target like sm_80 or sm_90a", arch ? arch : "(null)");
    return TCJ_ERROR_INVALID_VALUE;
  }
  if (!eng_nvrtc_available(NULL, 0)) {
    snprintf(err, err_size,
             "user epilogues need NVRTC, the CUDA runtime compiler, and none could be opened (tried "
             NVRTC_SONAMES_TEXT " on LD_LIBRARY_PATH, $CUDA_HOME/lib64, /usr/local/cuda/lib64 and the system's "
             "library directories)");
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  size_t src_len = strlen(source);
  char *full = malloc(sizeof prelude + src_len);
  if (!full) {
    snprintf(err, err_size, "out of host memory for a %zu-byte user epilogue", src_len);
    return TCJ_ERROR_OUT_OF_MEMORY;
  }
  memcpy(full, prelude, sizeof prelude - 1);
  memcpy(full + sizeof prelude - 1, source, src_len + 1);

  /* -rdc=true: tcj_epilogue is called by no kernel of this program, and only relocatable
   * device code emits such a function. No -default-device: the user's source says
   * __device__ where it means it. */
  const char *opts[] = {arch_opt, "-rdc=true", "--std=c++17"};
  nvrtcProgram prog = NULL;
  char *log = NULL;
  tcj_status st = TCJ_ERROR_COMPILE;
  nvrtcResult r = nvrtc.create(&prog, full, PROGRAM_NAME, 0, NULL, NULL);
  free(full);
  if (r != NVRTC_SUCCESS) {
    snprintf(err, err_size, "nvrtcCreateProgram: %s", nvrtc.error_string(r));
    return r == NVRTC_ERROR_OUT_OF_MEMORY ? TCJ_ERROR_OUT_OF_MEMORY : TCJ_ERROR_COMPILE;
  }
  r = nvrtc.compile(prog, (int)(sizeof opts / sizeof *opts), opts);
  if (r != NVRTC_SUCCESS) {
    log = program_log(prog);
    if (r == NVRTC_ERROR_INVALID_OPTION) {
      /* An NVRTC older than arch (compute_100a needs NVRTC 12.8). */
      snprintf(err, err_size, "NVRTC %d.%d cannot compile user epilogues for %s (%s): %s", nvrtc.major,
               nvrtc.minor, arch, nvrtc.error_string(r), log && *log ? log : "no log");
      st = TCJ_ERROR_NOT_SUPPORTED;
    } else if (r == NVRTC_ERROR_COMPILATION) {
      /* The hint when NVRTC complains about tcj_epilogue itself: a wrong signature. */
      snprintf(err, err_size, "user epilogue does not compile:\n%s%s", log ? log : "(no log)\n",
               log && strstr(log, PTX_USER_EPILOGUE_NAME) ? "the source must define " TCJ_EPILOGUE_SIGNATURE : "");
    } else {
      snprintf(err, err_size, "nvrtcCompileProgram: %s%s%s", nvrtc.error_string(r), log ? "\n" : "", log ? log : "");
      if (r == NVRTC_ERROR_OUT_OF_MEMORY) st = TCJ_ERROR_OUT_OF_MEMORY;
    }
    goto fail;
  }
  size_t n = 0;
  if ((r = nvrtc.ptx_size(prog, &n)) != NVRTC_SUCCESS || n == 0) {
    snprintf(err, err_size, "nvrtcGetPTXSize: %s", nvrtc.error_string(r));
    goto fail;
  }
  char *text = malloc(n + 1);
  if (!text) {
    snprintf(err, err_size, "out of host memory for %zu bytes of PTX", n);
    st = TCJ_ERROR_OUT_OF_MEMORY;
    goto fail;
  }
  if ((r = nvrtc.ptx(prog, text)) != NVRTC_SUCCESS) {
    free(text);
    snprintf(err, err_size, "nvrtcGetPTX: %s", nvrtc.error_string(r));
    goto fail;
  }
  text[n] = '\0'; /* the size counts NVRTC's own terminator */
  int version;
  char *body;
  size_t body_len;
  if (ptx_user_epilogue_body(text, &version, &body, &body_len, why, sizeof why) != 0) {
    free(text);
    snprintf(err, err_size, "%s; the source must define " TCJ_EPILOGUE_SIGNATURE, why);
    goto fail;
  }
  free(body);
  *ptx = text;
  *len = strlen(text);
  nvrtc.destroy(&prog);
  free(log);
  return TCJ_SUCCESS;
fail:
  nvrtc.destroy(&prog);
  free(log);
  return st;
}

int eng_whole_program_wanted(void) {
  const char *v = getenv("TCJ_WHOLE_PROGRAM");
  return !(v && strcmp(v, "0") == 0);
}

int eng_whole_program_expected(void) {
  if (__atomic_load_n(&nvrtc_hidden, __ATOMIC_RELAXED) || !eng_whole_program_wanted()) return 0;
  pthread_once(&nvrtc_file_once, nvrtc_find);
  return nvrtc_file.found;
}

int eng_nvrtc_whole_program_available(void) {
  if (!eng_nvrtc_available(NULL, 0)) return 0;
  /* __maxnreg__, which carries a kernel's .maxnreg, came with NVRTC 12.4. */
  return nvrtc.cubin_size && nvrtc.cubin && (nvrtc.major > 12 || (nvrtc.major == 12 && nvrtc.minor >= 4));
}

tcj_status eng_nvrtc_compile_cubin(const char *source, const char *arch, eng_cubin *out, char *err, size_t err_size) {
  memset(out, 0, sizeof *out);
  if (!eng_nvrtc_whole_program_available()) {
    snprintf(err, err_size, "no NVRTC 12.4 or newer with nvrtcGetCUBIN could be opened");
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  char arch_opt[64];
  if (!arch || strncmp(arch, "sm_", 3) != 0 || (size_t)snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=%s", arch) >= sizeof arch_opt) {
    snprintf(err, err_size, "arch '%s' is not a target like sm_90a", arch ? arch : "(null)");
    return TCJ_ERROR_INVALID_VALUE;
  }
  /* -Xptxas=-v: the resource report (registers, spills) in the log, as nvJitLink's -verbose. */
  const char *opts[] = {arch_opt, "--ptxas-options=-v", "--std=c++17"};
  nvrtcProgram prog = NULL;
  nvrtcResult r = nvrtc.create(&prog, source, "tcj_module.cu", 0, NULL, NULL);
  if (r != NVRTC_SUCCESS) {
    snprintf(err, err_size, "nvrtcCreateProgram: %s", nvrtc.error_string(r));
    return r == NVRTC_ERROR_OUT_OF_MEMORY ? TCJ_ERROR_OUT_OF_MEMORY : TCJ_ERROR_COMPILE;
  }
  tcj_status st = TCJ_ERROR_COMPILE;
  r = nvrtc.compile(prog, (int)(sizeof opts / sizeof *opts), opts);
  out->info_log = program_log(prog);
  if (r != NVRTC_SUCCESS) {
    snprintf(err, err_size, "NVRTC %d.%d, whole-program compile for %s: %s%s%s", nvrtc.major, nvrtc.minor, arch,
             nvrtc.error_string(r), out->info_log ? "\n" : "", out->info_log ? out->info_log : "");
    if (r == NVRTC_ERROR_OUT_OF_MEMORY) st = TCJ_ERROR_OUT_OF_MEMORY;
    if (r == NVRTC_ERROR_INVALID_OPTION) st = TCJ_ERROR_NOT_SUPPORTED; /* an NVRTC older than arch */
    goto fail;
  }
  if ((r = nvrtc.cubin_size(prog, &out->size)) != NVRTC_SUCCESS || out->size == 0) {
    snprintf(err, err_size, "nvrtcGetCUBINSize: %s", nvrtc.error_string(r));
    goto fail;
  }
  if (!(out->data = malloc(out->size))) {
    snprintf(err, err_size, "out of host memory for a %zu-byte cubin", out->size);
    st = TCJ_ERROR_OUT_OF_MEMORY;
    goto fail;
  }
  if ((r = nvrtc.cubin(prog, out->data)) != NVRTC_SUCCESS) {
    snprintf(err, err_size, "nvrtcGetCUBIN: %s", nvrtc.error_string(r));
    goto fail;
  }
  nvrtc.destroy(&prog);
  return TCJ_SUCCESS;
fail:
  nvrtc.destroy(&prog);
  free(out->data); /* not eng_cubin_free: jit.c calls this file, and calls go one way */
  free(out->info_log);
  memset(out, 0, sizeof *out);
  return st;
}

uint64_t eng_epilogue_hash(const char *source) {
  if (!source) source = "";
  uint64_t v = XXH3_64bits(source, strlen(source));
  return v ? v : 1;
}
