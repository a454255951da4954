/* SPDX-License-Identifier: Apache-2.0 */
/* The activation kernels of the "cuBLASLt bias + activation kernel" baselines (gemm_runner.h):
 * CUDA C compiled by NVRTC (opened with dlopen, so the tools start without it) at start, loaded
 * and launched through the driver API. */
#include <dlfcn.h>
#include <nvrtc.h> /* types only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/tools_api.h"
#include "tools/gemm_runner_int.h"


/* What a cuBLAS user writes after a cuBLASLt GEMM with the BIAS epilogue to apply an activation
 * cuBLASLt does not fuse: one pass over D in place, 16 bytes per thread (8 halves or 4 floats),
 * fp32 math with the accurate expf and tanhf. No headers (NVRTC has no toolkit include path
 * here): the 16-bit conversions are the PTX cvt instructions cuda_bf16.h and cuda_fp16.h use. */
static const char act_source[] =
  "struct alignas(16) vec4 { unsigned w[4]; };\n"
  "__device__ __forceinline__ float silu(float v) { return v / (1.0f + expf(-v)); }\n"
  "__device__ __forceinline__ float gelu_tanh(float v) {\n"
  "  return 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));\n"
  "}\n"
  "__device__ __forceinline__ float ld_bf16(unsigned short h) { return __uint_as_float((unsigned)h << 16); }\n"
  "__device__ __forceinline__ unsigned short st_bf16(float f) {\n"
  "  unsigned short h; asm(\"cvt.rn.bf16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h;\n"
  "}\n"
  "__device__ __forceinline__ float ld_f16(unsigned short h) {\n"
  "  float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h)); return f;\n"
  "}\n"
  "__device__ __forceinline__ unsigned short st_f16(float f) {\n"
  "  unsigned short h; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h;\n"
  "}\n"
  "#define HALF_KERNEL(name, act, ld, st)                                                   \\\n"
  "  extern \"C\" __global__ void name(unsigned short *d, unsigned long long n) {           \\\n"
  "    unsigned long long i = (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) * 8; \\\n"
  "    if (i + 8 <= n) {                                                                    \\\n"
  "      vec4 v = *(const vec4 *)(d + i);                                                   \\\n"
  "      for (int j = 0; j < 4; j++) {                                                      \\\n"
  "        unsigned lo = st(act(ld((unsigned short)(v.w[j] & 0xffffu))));                   \\\n"
  "        unsigned hi = st(act(ld((unsigned short)(v.w[j] >> 16))));                       \\\n"
  "        v.w[j] = lo | hi << 16;                                                          \\\n"
  "      }                                                                                  \\\n"
  "      *(vec4 *)(d + i) = v;                                                              \\\n"
  "    } else {                                                                             \\\n"
  "      for (; i < n; i++) d[i] = st(act(ld(d[i])));                                       \\\n"
  "    }                                                                                    \\\n"
  "  }\n"
  "#define F32_KERNEL(name, act)                                                            \\\n"
  "  extern \"C\" __global__ void name(float *d, unsigned long long n) {                    \\\n"
  "    unsigned long long i = (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) * 4; \\\n"
  "    if (i + 4 <= n) {                                                                    \\\n"
  "      vec4 v = *(const vec4 *)(d + i);                                                   \\\n"
  "      for (int j = 0; j < 4; j++) v.w[j] = __float_as_uint(act(__uint_as_float(v.w[j]))); \\\n"
  "      *(vec4 *)(d + i) = v;                                                              \\\n"
  "    } else {                                                                             \\\n"
  "      for (; i < n; i++) d[i] = act(d[i]);                                               \\\n"
  "    }                                                                                    \\\n"
  "  }\n"
  "HALF_KERNEL(silu_f16, silu, ld_f16, st_f16)\n"
  "HALF_KERNEL(silu_bf16, silu, ld_bf16, st_bf16)\n"
  "F32_KERNEL(silu_f32, silu)\n"
  "HALF_KERNEL(gelu_tanh_f16, gelu_tanh, ld_f16, st_f16)\n"
  "HALF_KERNEL(gelu_tanh_bf16, gelu_tanh, ld_bf16, st_bf16)\n"
  "F32_KERNEL(gelu_tanh_f32, gelu_tanh)\n";

static const char *const act_names[GR_ACT_COUNT][GR_OUT_COUNT] = {
  {"silu_f16", "silu_bf16", "silu_f32"}, {"gelu_tanh_f16", "gelu_tanh_bf16", "gelu_tanh_f32"}};
#define ACT_BLOCK 256

int gr_act_index(tcj_activation a) {
  return a == TCJ_ACT_SILU ? GR_ACT_SILU : a == TCJ_ACT_GELU_TANH ? GR_ACT_GELU_TANH : -1;
}
int gr_out_index(tcj_dtype t) {
  return t == TCJ_F16 ? GR_OUT_F16 : t == TCJ_BF16 ? GR_OUT_BF16 : t == TCJ_F32 ? GR_OUT_F32 : -1;
}

typedef nvrtcResult (*nvrtc_create_fn)(nvrtcProgram *, const char *, const char *, int, const char *const *,
                                       const char *const *);
typedef nvrtcResult (*nvrtc_destroy_fn)(nvrtcProgram *);
typedef nvrtcResult (*nvrtc_compile_fn)(nvrtcProgram, int, const char *const *);
typedef nvrtcResult (*nvrtc_size_fn)(nvrtcProgram, size_t *);
typedef nvrtcResult (*nvrtc_text_fn)(nvrtcProgram, char *);

/* CUDA C -> PTX for compute_XY through NVRTC, malloc'ed; NULL with the cause in err. */
static char *nvrtc_ptx(const char *source, int major, int minor, char *err, size_t err_size) {
  static const char *const sonames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
  eng_libfile file;
  eng_libfile_find(sonames, sizeof sonames / sizeof *sonames, &file);
  void *lib = file.found ? dlopen(file.path, RTLD_NOW | RTLD_LOCAL) : NULL;
  if (!lib) {
    snprintf(err, err_size, "NVRTC (libnvrtc.so.13 or .12) not found: the activation kernel of the "
             "bias+silu and bias+gelu_tanh baselines cannot be compiled");
    return NULL;
  }
  nvrtc_create_fn create;
  nvrtc_destroy_fn destroy;
  nvrtc_compile_fn compile;
  nvrtc_size_fn ptx_size, log_size;
  nvrtc_text_fn get_ptx, get_log;
  *(void **)&create = dlsym(lib, "nvrtcCreateProgram");
  *(void **)&destroy = dlsym(lib, "nvrtcDestroyProgram");
  *(void **)&compile = dlsym(lib, "nvrtcCompileProgram");
  *(void **)&ptx_size = dlsym(lib, "nvrtcGetPTXSize");
  *(void **)&get_ptx = dlsym(lib, "nvrtcGetPTX");
  *(void **)&log_size = dlsym(lib, "nvrtcGetProgramLogSize");
  *(void **)&get_log = dlsym(lib, "nvrtcGetProgramLog");
  char *ptx = NULL;
  if (!create || !destroy || !compile || !ptx_size || !get_ptx || !log_size || !get_log) {
    snprintf(err, err_size, "%s lacks an NVRTC function", file.path);
    goto done;
  }
  char arch[64];
  snprintf(arch, sizeof arch, "--gpu-architecture=compute_%d%d", major, minor);
  const char *opts[] = {arch, "--std=c++17"};
  nvrtcProgram prog;
  if (create(&prog, source, "gr_activation.cu", 0, NULL, NULL) != NVRTC_SUCCESS) {
    snprintf(err, err_size, "nvrtcCreateProgram failed");
    goto done;
  }
  size_t n = 0;
  if (compile(prog, 2, opts) != NVRTC_SUCCESS) {
    char log[1024] = "";
    if (log_size(prog, &n) == NVRTC_SUCCESS && n > 0 && n <= sizeof log) get_log(prog, log);
    snprintf(err, err_size, "NVRTC could not compile the activation kernel for %s: %s", arch + 21, log);
  } else if (ptx_size(prog, &n) == NVRTC_SUCCESS && (ptx = malloc(n + 1)) != NULL) {
    if (get_ptx(prog, ptx) != NVRTC_SUCCESS) {
      free(ptx);
      ptx = NULL;
      snprintf(err, err_size, "nvrtcGetPTX failed");
    } else {
      ptx[n] = '\0';
    }
  } else {
    snprintf(err, err_size, "nvrtcGetPTX: out of memory");
  }
  destroy(&prog);
done:
  dlclose(lib); /* the PTX is ours: NVRTC is not needed again */
  return ptx;
}

int gr_act_compile(gr_gpu *g, char *err, size_t err_size) {
  if (g->act_module) return 0;
  int dev = 0, major = 0, minor = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess) {
    snprintf(err, err_size, "the device's compute capability is unknown");
    return -1;
  }
  const char *why = NULL;
  const eng_cuda_api *cu = eng_cuda_load(&why);
  if (!cu) {
    snprintf(err, err_size, "the CUDA driver API: %s", why ? why : "not available");
    return -1;
  }
  char *ptx = nvrtc_ptx(act_source, major, minor, err, err_size);
  if (!ptx) return -1;
  CUresult r = cu->cuModuleLoadData(&g->act_module, ptx);
  free(ptx);
  if (r != CUDA_SUCCESS) {
    g->act_module = NULL;
    snprintf(err, err_size, "cuModuleLoadData (activation kernels): %s", eng_cuda_error_name(r));
    return -1;
  }
  for (int a = 0; a < GR_ACT_COUNT; a++)
    for (int t = 0; t < GR_OUT_COUNT; t++)
      if ((r = cu->cuModuleGetFunction(&g->act[a][t], g->act_module, act_names[a][t])) != CUDA_SUCCESS) {
        snprintf(err, err_size, "cuModuleGetFunction %s: %s", act_names[a][t], eng_cuda_error_name(r));
        cu->cuModuleUnload(g->act_module);
        g->act_module = NULL;
        memset(g->act, 0, sizeof g->act);
        return -1;
      }
  return 0;
}

int gr_act_launch(const gr_gpu *g, CUfunction fn, tcj_dtype out, void *d, uint64_t count, char *note,
                      size_t note_size) {
  const char *why = NULL;
  const eng_cuda_api *cu = eng_cuda_load(&why);
  if (!cu) {
    snprintf(note, note_size, "the CUDA driver API: %s", why ? why : "not available");
    return -1;
  }
  uint64_t per_thread = out == TCJ_F32 ? 4 : 8, threads = (count + per_thread - 1) / per_thread;
  unsigned blocks = (unsigned)((threads + ACT_BLOCK - 1) / ACT_BLOCK);
  CUdeviceptr ptr = (CUdeviceptr)(uintptr_t)d;
  unsigned long long n = count;
  void *args[] = {&ptr, &n};
  CUresult r = cu->cuLaunchKernel(fn, blocks ? blocks : 1, 1, 1, ACT_BLOCK, 1, 1, 0, (CUstream)g->stream, args, NULL);
  if (r != CUDA_SUCCESS) {
    snprintf(note, note_size, "activation kernel launch: %s", eng_cuda_error_name(r));
    return -1;
  }
  return 0;
}

