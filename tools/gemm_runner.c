/* SPDX-License-Identifier: Apache-2.0 */
/* The GPU measuring core shared by tcj-bench and tcj-prof (see gemm_runner.h): buffers, the
 * two libraries' calls (cuBLAS, cuBLASLt and an NVRTC-compiled activation kernel on the
 * baseline side), timing and the correctness check (fp8: against a float64 reference). */
#include "tools/gemm_runner.h"

#include <dlfcn.h>
#include <ftw.h>
#include <math.h>
#include <nvrtc.h> /* types only: NVRTC is opened with dlopen, so the tools start without it */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/tools_api.h"
#include "tools/gemm_ref.h"
#include "tools/host_half.h"

double gr_now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int gr_open(gr_gpu *g, char *err, size_t err_size) {
  int dev = 0, l2 = 0;
  cudaError_t ce;
  g->blas = NULL;
  g->stream = NULL;
  if ((ce = cudaGetDevice(&dev)) != cudaSuccess ||
      (ce = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev)) != cudaSuccess) {
    snprintf(err, err_size, "device attributes: %s", cudaGetErrorName(ce));
    return -1;
  }
  g->l2_bytes = (size_t)l2;
  if (cublasCreate(&g->blas) != CUBLAS_STATUS_SUCCESS ||
      cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking) != cudaSuccess) {
    snprintf(err, err_size, "cuBLAS handle or stream creation failed");
    gr_close(g);
    return -1;
  }
  cublasSetStream(g->blas, g->stream);
  /* No tf32 behind CUBLAS_COMPUTE_32F: f32 rows are measured against SGEMM (tf32 rows ask for
   * CUBLAS_COMPUTE_32F_FAST_TF32 themselves; 16-bit and fp8 types run on tensor cores anyway). */
  cublasSetMathMode(g->blas, CUBLAS_DEFAULT_MATH);
  return 0;
}

void gr_close(gr_gpu *g) {
  if (g->blas) cublasDestroy(g->blas);
  if (g->lt) cublasLtDestroy(g->lt);
  if (g->lt_workspace) cudaFree(g->lt_workspace);
  if (g->stream) cudaStreamDestroy(g->stream);
  const char *why;
  const eng_cuda_api *cu = g->act_module ? eng_cuda_load(&why) : NULL;
  if (cu) cu->cuModuleUnload(g->act_module);
  g->blas = NULL;
  g->lt = NULL;
  g->lt_workspace = NULL;
  g->stream = NULL;
  g->act_module = NULL;
  memset(g->act, 0, sizeof g->act);
}

/* ---- the activation kernels of the baselines ------------------------------------------------ */

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

static int act_index(tcj_activation a) {
  return a == TCJ_ACT_SILU ? GR_ACT_SILU : a == TCJ_ACT_GELU_TANH ? GR_ACT_GELU_TANH : -1;
}
static int out_index(tcj_dtype t) {
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

static int act_launch(const gr_gpu *g, CUfunction fn, tcj_dtype out, void *d, uint64_t count, char *note,
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

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* An fp8 operand value: +-1/2, +-1, ..., +-4 from the low 4 random bits. Sums of their
 * products (multiples of 1/4) stay exact in fp32 far beyond any k the suite has. */
static float fp8_value(uint64_t r) {
  float v = (float)(r % 8 + 1) * 0.5f;
  return r & 8 ? -v : v;
}

void gr_fill_host(tcj_dtype t, void *buf, size_t n, uint64_t seed) {
  uint8_t fp8[16]; /* fp8_value's 16 values encoded once: a 16384^2 operand has 2^28 of them */
  for (unsigned v = 0; v < 16; v++) fp8[v] = t == TCJ_E5M2 ? f32_to_e5m2(fp8_value(v)) : f32_to_e4m3(fp8_value(v));
  for (size_t i = 0; i < n; i++) {
    uint64_t r = splitmix(&seed);
    float v = (float)((double)(r >> 11) * 0x1.0p-52 - 1.0);
    switch (t) {
    case TCJ_F16: ((uint16_t *)buf)[i] = f32_to_f16(v); break;
    case TCJ_BF16: ((uint16_t *)buf)[i] = f32_to_bf16(v); break;
    case TCJ_S8: ((int8_t *)buf)[i] = (int8_t)((int)(r % 17) - 8); break;
    case TCJ_E4M3: case TCJ_E5M2: ((uint8_t *)buf)[i] = fp8[r & 15]; break;
    case TCJ_F64: ((double *)buf)[i] = (double)(r >> 11) * 0x1.0p-52 - 1.0; break; /* every bit random */
    default: ((float *)buf)[i] = v; break;
    }
  }
}

/* cuBLAS's type of each dtype (tf32 operands are f32 data). */
static const cudaDataType cuda_types[TCJ_F64 + 1] = {
  [TCJ_F16] = CUDA_R_16F, [TCJ_BF16] = CUDA_R_16BF, [TCJ_F32] = CUDA_R_32F, [TCJ_TF32] = CUDA_R_32F,
  [TCJ_E4M3] = CUDA_R_8F_E4M3, [TCJ_E5M2] = CUDA_R_8F_E5M2, [TCJ_S8] = CUDA_R_8I, [TCJ_S32] = CUDA_R_32I,
  [TCJ_F64] = CUDA_R_64F,
};

static cudaDataType cuda_type(tcj_dtype t) { return (unsigned)t <= TCJ_F64 ? cuda_types[t] : CUDA_R_32F; }

int gr_buffers_alloc(const gr_gpu *g, const gemm_problem *p, uint64_t seed_a, uint64_t seed_b,
                     gr_buffers *buf, char *note, size_t note_size) {
  tcj_dtype out = gemm_out_dtype(p), bias_t = gemm_bias_dtype(p);
  size_t es = gemm_dtype_size(p->ab), esc = gemm_dtype_size(out), esb = gemm_dtype_size(bias_t);
  size_t batch = (size_t)gemm_entries(p), b_entries = (size_t)gemm_b_entries(p);
  size_t na = batch * (size_t)(p->m * p->k), nb = b_entries * (size_t)(p->k * p->n), nc = batch * (size_t)(p->m * p->n);
  size_t nbias = p->bias != TCJ_BIAS_NONE ? b_entries * (size_t)p->n : 0;
  size_t set_bytes = (na + nb) * es + nc * esc + nbias * esb;
  void *ha = malloc(na * es + 1), *hb = malloc(nb * es + 1), *hbias = malloc(nbias * esb + 1);
  cudaError_t ce = cudaSuccess;
  memset(buf, 0, sizeof *buf);
  if (!ha || !hb || !hbias) {
    snprintf(note, note_size, "host out of memory");
    goto fail;
  }
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  int sets = set_bytes ? (int)((3 * g->l2_bytes + set_bytes - 1) / set_bytes) : 1;
  if (sets < 1) sets = 1;
  if (sets > GR_MAX_SETS) sets = GR_MAX_SETS;
  while (sets > 1 && (size_t)sets * set_bytes + nc * esc > free_b / 10 * 8) sets--;
  buf->sets = sets;
  gr_fill_host(p->ab, ha, na, seed_a);
  gr_fill_host(p->ab, hb, nb, seed_b);
  /* The bias is scaled to the order of the products' sums (a power of two near sqrt(k) / 3, so
   * the scaling is exact), else a bias that is lost or misplaced would hide in the check's bound.
   * An s32 output's f32 bias holds integers, as s8 operands do. */
  gr_fill_host(out == TCJ_S32 ? TCJ_S8 : bias_t, hbias, nbias, seed_a ^ seed_b ^ 0xB1A5ull);
  float bias_scale = 1;
  while (bias_scale * 2 <= sqrt((double)p->k) / 3) bias_scale *= 2;
  for (size_t i = nbias; i-- > 0;) {
    float v = (float)gemm_ref_get(out == TCJ_S32 ? TCJ_S8 : bias_t, hbias, i) * bias_scale;
    if (bias_t == TCJ_BF16) ((uint16_t *)hbias)[i] = f32_to_bf16(v);
    else if (bias_t == TCJ_F16) ((uint16_t *)hbias)[i] = f32_to_f16(v);
    else if (bias_t == TCJ_F64) ((double *)hbias)[i] = gemm_ref_get(TCJ_F64, hbias, i) * bias_scale;
    else ((float *)hbias)[i] = v; /* backwards: an s8 source's bytes are read before they are overwritten */
  }
  for (int s = 0; s < sets && ce == cudaSuccess; s++) {
    if ((ce = cudaMalloc(&buf->a[s], na * es)) || (ce = cudaMalloc(&buf->b[s], nb * es)) ||
        (ce = cudaMalloc(&buf->c[s], nc * esc)) || (nbias && (ce = cudaMalloc(&buf->bias[s], nbias * esb))))
      break;
    if ((ce = cudaMemcpy(buf->a[s], ha, na * es, cudaMemcpyHostToDevice)) ||
        (ce = cudaMemcpy(buf->b[s], hb, nb * es, cudaMemcpyHostToDevice)) ||
        (ce = cudaMemset(buf->c[s], 0xff, nc * esc)) ||
        (nbias && (ce = cudaMemcpy(buf->bias[s], hbias, nbias * esb, cudaMemcpyHostToDevice))))
      break;
  }
  if (ce == cudaSuccess && gemm_dtype_is_fp8(p->ab) && p->scale == TCJ_SCALE_BLOCK) {
    /* Every block of A scaled by GR_SCALE_A, of B by GR_SCALE_B: the same products as the
     * per-tensor scales, so the same reference checks it, while the kernel reads and applies
     * every block's pair at each promotion, as with real block scales. */
    size_t na = (size_t)gemm_block_scales_a(p), nbs = (size_t)gemm_block_scales_b(p);
    float *h = malloc((na + nbs) * sizeof *h);
    ce = h ? cudaMalloc((void **)&buf->scales, (na + nbs) * sizeof *h) : cudaErrorMemoryAllocation;
    if (ce == cudaSuccess) {
      for (size_t i = 0; i < na + nbs; i++) h[i] = i < na ? GR_SCALE_A : GR_SCALE_B;
      ce = cudaMemcpy(buf->scales, h, (na + nbs) * sizeof *h, cudaMemcpyHostToDevice);
    }
    free(h);
  } else if (ce == cudaSuccess && gemm_dtype_is_fp8(p->ab)) {
    const float scales[GEMM_SCALE_B_AT + 1] = {[0] = GR_SCALE_A, [GEMM_SCALE_B_AT] = GR_SCALE_B};
    if ((ce = cudaMalloc((void **)&buf->scales, sizeof scales)) == cudaSuccess)
      ce = cudaMemcpy(buf->scales, scales, sizeof scales, cudaMemcpyHostToDevice);
  }
  if (ce == cudaSuccess && gemm_is_grouped(p)) {
    /* The ends (running sums of the sizes) or the counts, once for every set. */
    size_t G = (size_t)p->groups, es_g = p->group_mode == TCJ_GROUP_M_CONTIGUOUS && p->group_ends64 ? 8 : 4;
    void *h = malloc(G * es_g + 1);
    ce = !h || !p->group_sizes ? cudaErrorInvalidValue : cudaMalloc(&buf->groups, G * es_g);
    for (size_t i = 0, end = 0; ce == cudaSuccess && i < G; i++) {
      end += (size_t)p->group_sizes[i];
      int64_t v = p->group_mode == TCJ_GROUP_M_MASKED ? p->group_sizes[i] : (int64_t)end;
      if (es_g == 8) ((int64_t *)h)[i] = v;
      else ((int32_t *)h)[i] = (int32_t)v;
    }
    if (ce == cudaSuccess) ce = cudaMemcpy(buf->groups, h, G * es_g, cudaMemcpyHostToDevice);
    free(h);
  }
  if (ce == cudaSuccess) ce = cudaDeviceSynchronize();
  if (ce != cudaSuccess) {
    snprintf(note, note_size, "setup: %s", cudaGetErrorName(ce));
    goto fail;
  }
  free(ha);
  free(hb);
  free(hbias);
  return 0;
fail:
  gr_buffers_free(buf);
  free(ha);
  free(hb);
  free(hbias);
  return -1;
}

void gr_buffers_free(gr_buffers *buf) {
  for (int s = 0; s < GR_MAX_SETS; s++) {
    cudaFree(buf->a[s]);
    cudaFree(buf->b[s]);
    cudaFree(buf->c[s]);
    cudaFree(buf->bias[s]);
  }
  cudaFree(buf->scales);
  cudaFree(buf->groups);
  memset(buf, 0, sizeof *buf);
}

/* f32: CUBLAS_COMPUTE_32F on a CUBLAS_DEFAULT_MATH handle, which is SGEMM (fp32 products). */
static cublasComputeType_t compute_type(const gemm_problem *p) {
  return gemm_out_dtype(p) == TCJ_S32 ? CUBLAS_COMPUTE_32I
         : p->ab == TCJ_TF32          ? CUBLAS_COMPUTE_32F_FAST_TF32
         : p->ab == TCJ_F64           ? CUBLAS_COMPUTE_64F
                                      : CUBLAS_COMPUTE_32F;
}

/* alpha 1 and beta 0 in the scale type of p's compute type (and cuBLASLt's scale type). */
static cudaDataType scale_type(const gemm_problem *p) {
  return gemm_out_dtype(p) == TCJ_S32 ? CUDA_R_32I : p->ab == TCJ_F64 ? CUDA_R_64F : CUDA_R_32F;
}
static void unit_scalars(const gemm_problem *p, const void **alpha, const void **beta) {
  static const float f[2] = {1, 0};
  static const double d[2] = {1, 0};
  static const int32_t i[2] = {1, 0};
  cudaDataType t = scale_type(p);
  const void *pair = t == CUDA_R_32I ? (const void *)i : t == CUDA_R_64F ? (const void *)d : (const void *)f;
  size_t size = t == CUDA_R_32I ? sizeof *i : t == CUDA_R_64F ? sizeof *d : sizeof *f;
  *alpha = pair;
  *beta = (const char *)pair + size;
}

static cublasOperation_t blas_op(tcj_op op) { return op == TCJ_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T; }

cublasStatus_t gr_cublas(const gr_gpu *g, const gemm_problem *p, const void *a, const void *b, void *c) {
  const void *alpha, *beta;
  unit_scalars(p, &alpha, &beta);
  return cublasGemmEx(g->blas, blas_op(p->op_b), blas_op(p->op_a), (int)p->n, (int)p->m, (int)p->k, alpha, b,
                      cuda_type(p->ab), (int)gemm_ldb(p), a, cuda_type(p->ab), (int)gemm_lda(p), beta, c,
                      cuda_type(gemm_out_dtype(p)), (int)p->n, compute_type(p), CUBLAS_GEMM_DEFAULT);
}

tcj_status gr_tcj(const gr_gpu *g, const gemm_problem *p, const void *a, const void *b, void *c, const void *bias,
                  const float *scales) {
  if (!gemm_is_ex(p))
    return tcj_gemm(g->eng, p->op_a, p->op_b, p->m, p->n, p->k, 1.0f, a, p->ab, gemm_lda(p), b, gemm_b_dtype(p),
                    gemm_ldb(p), 0.0f, c, p->c, p->n, (CUstream)g->stream);
  tcj_gemm_desc desc;
  gemm_problem_desc(p, a, b, c, bias, scales, &desc);
  return tcj_gemm_ex(g->eng, &desc, (CUstream)g->stream);
}

cublasStatus_t gr_s8_probe_nn(const gr_gpu *g) {
  gemm_problem p = GEMM_PLAIN(TCJ_S8, TCJ_S32, TCJ_OP_N, TCJ_OP_N, 64, 64, 64);
  void *a = NULL, *b = NULL, *c = NULL;
  cublasStatus_t st = CUBLAS_STATUS_ALLOC_FAILED;
  if (cudaMalloc(&a, 4096) == cudaSuccess && cudaMalloc(&b, 4096) == cudaSuccess &&
      cudaMalloc(&c, 16384) == cudaSuccess && cudaMemset(a, 1, 4096) == cudaSuccess &&
      cudaMemset(b, 1, 4096) == cudaSuccess)
    st = gr_cublas(g, &p, a, b, c);
  cudaStreamSynchronize(g->stream);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return st;
}

/* ---- baselines ------------------------------------------------------------------------------ */

/* Why cuBLASLt has no fp8 GEMM for p, or NULL when it may have one (its heuristic decides). */
static const char *fp8_unavailable(const gemm_problem *p) {
  if (p->scale == TCJ_SCALE_BLOCK) return "cuBLASLt on Hopper has no block-scaled fp8 GEMM";
  if (p->ab == TCJ_E5M2)
    return "cuBLASLt has no e5m2 x e5m2 GEMM (only e4m3 x e4m3, e4m3 x e5m2 and e5m2 x e4m3)";
  if (p->op_a != TCJ_OP_N || p->op_b != TCJ_OP_T)
    return "cuBLASLt's fp8 GEMMs take only its TN layout (row-major op_a N, op_b T: both operands K-major)";
  return NULL;
}

/* Why cuBLAS has no grouped baseline for p, or NULL. */
static const char *grouped_unavailable(const gemm_problem *p) {
  if (p->bias != TCJ_BIAS_NONE || p->act != TCJ_ACT_NONE || p->epilogue_source)
    return "cuBLAS's grouped GEMMs have no epilogue";
  return NULL;
}

static gr_base_kind base_kind(const gemm_problem *p) {
  if (gemm_is_grouped(p)) return grouped_unavailable(p) ? GR_BASE_NONE : GR_BASE_GROUPED;
  if (gemm_dtype_is_fp8(p->ab) && fp8_unavailable(p)) return GR_BASE_NONE;
  if (p->act == TCJ_ACT_SILU || p->act == TCJ_ACT_GELU_TANH) return GR_BASE_LT_ACT;
  if (p->bias != TCJ_BIAS_NONE || p->act != TCJ_ACT_NONE || gemm_dtype_is_fp8(p->ab)) return GR_BASE_LT;
  return gemm_batch(p) > 1 ? GR_BASE_STRIDED : GR_BASE_GEMMEX;
}

/* cuBLASLt's epilogue for p's bias and activation (the BIAS epilogue before a kernel). */
static cublasLtEpilogue_t lt_epilogue(const gemm_problem *p) {
  if (p->bias == TCJ_BIAS_NONE && p->act == TCJ_ACT_NONE) return CUBLASLT_EPILOGUE_DEFAULT; /* fp8 */
  switch (p->act) {
  case TCJ_ACT_RELU: return CUBLASLT_EPILOGUE_RELU_BIAS;
  case TCJ_ACT_GELU: return CUBLASLT_EPILOGUE_GELU_BIAS;
  default: return CUBLASLT_EPILOGUE_BIAS;
  }
}

void gr_baseline_label(const gemm_problem *p, char *out, size_t size) {
  const char *s = "?";
  switch (p->epilogue_source ? GR_BASE_NONE : base_kind(p)) {
  case GR_BASE_NONE: s = "-"; break;
  case GR_BASE_GEMMEX: /* cublasGemmEx; f32 and f64 are what cublasSgemm and cublasDgemm compute */
    s = p->ab == TCJ_F32 ? "cublasSgemm" : p->ab == TCJ_F64 ? "cublasDgemm" : "cublasGemmEx";
    break;
  case GR_BASE_STRIDED: s = "cublasStridedBatched"; break;
  case GR_BASE_LT:
    s = p->act == TCJ_ACT_RELU     ? "cublasLt+relu_bias"
        : p->act == TCJ_ACT_GELU   ? "cublasLt+gelu_bias"
        : p->bias != TCJ_BIAS_NONE ? "cublasLt+bias"
                                   : "cublasLt"; /* fp8 without an epilogue */
    break;
  case GR_BASE_LT_ACT:
    s = p->act == TCJ_ACT_SILU ? "cublasLt+bias+silu_kernel" : "cublasLt+bias+gelu_tanh_kernel";
    break;
  case GR_BASE_GROUPED: s = "cublasGroupedBatched"; break;
  case GR_BASE_GROUP_LOOP: s = "cublasGemmEx_loop"; break;
  }
  int fast = gemm_dtype_is_fp8(p->ab) && p->fast_accum && strcmp(s, "-") != 0;
  snprintf(out, size, "%s%s", s, fast ? "+fast_accum" : "");
}

#define LT_TRY(call, what)                                                               \
  do {                                                                                   \
    cublasStatus_t st_ = (call);                                                         \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                  \
      snprintf(note, note_size, "cuBLASLt %s: %s", what, cublasGetStatusName(st_));      \
      return -1;                                                                         \
    }                                                                                    \
  } while (0)

/* A column-major layout of rows x cols (ld rows), batched when batch > 1. */
static int lt_layout(cublasLtMatrixLayout_t *l, tcj_dtype t, int64_t rows, int64_t cols, int64_t ld, int64_t batch,
                     int64_t stride, char *note, size_t note_size) {
  LT_TRY(cublasLtMatrixLayoutCreate(l, cuda_type(t), (uint64_t)rows, (uint64_t)cols, ld), "layout");
  if (batch > 1) {
    int32_t count = (int32_t)batch;
    LT_TRY(cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count),
           "batch count");
    LT_TRY(cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride),
           "batch stride");
  }
  return 0;
}

/* fp8's attributes: the scales (cuBLAS's A is our B: A_SCALE is scale_b) and the accumulation. */
static int lt_fp8(const gemm_problem *p, const gr_buffers *buf, gr_baseline *base, char *note, size_t note_size) {
  const float *scale_a = buf->scales, *scale_b = buf->scales + GEMM_SCALE_B_AT;
  int8_t fast = (int8_t)(p->fast_accum != 0);
  LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scale_b, sizeof scale_b),
         "A scale pointer");
  LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scale_a, sizeof scale_a),
         "B scale pointer");
  LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast), "fast accum");
  return 0;
}

/* The row-major problem as cuBLASLt's column-major D^T = op(B)^T op(A)^T (+ bias per row of
 * D^T, i.e. per column of D: TCJ_BIAS_COL), with the heuristic's first algorithm. Returns 0, -1
 * (note), or 1 where the heuristic finds no fp8 algorithm: cuBLASLt has none for it here. */
static int lt_open(gr_gpu *g, const gemm_problem *p, const gr_buffers *buf, gr_baseline *base, char *note,
                   size_t note_size) {
  if (!g->lt) LT_TRY(cublasLtCreate(&g->lt), "create");
  if (!g->lt_workspace && cudaMalloc(&g->lt_workspace, GR_LT_WORKSPACE) != cudaSuccess) {
    g->lt_workspace = NULL;
    snprintf(note, note_size, "cuBLASLt workspace: cudaMalloc of %u MiB failed", GR_LT_WORKSPACE >> 20);
    return -1;
  }
  tcj_dtype out = gemm_out_dtype(p);
  LT_TRY(cublasLtMatmulDescCreate(&base->desc, compute_type(p), scale_type(p)), "matmul descriptor");
  cublasOperation_t ta = blas_op(p->op_b), tb = blas_op(p->op_a);
  cublasLtEpilogue_t epi = lt_epilogue(p);
  cudaDataType bias_t = cuda_type(gemm_bias_dtype(p));
  const void *bias = buf->bias[0];
  LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), "transa");
  LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), "transb");
  LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi), "epilogue");
  if (p->bias != TCJ_BIAS_NONE) {
    LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_t, sizeof bias_t),
           "bias type");
    LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias),
           "bias pointer");
  }
  if (gemm_dtype_is_fp8(p->ab) && lt_fp8(p, buf, base, note, note_size) != 0) return -1;
  int64_t batch = gemm_batch(p);
  if (batch > 1 && p->bias != TCJ_BIAS_NONE) {
    int64_t stride = gemm_stride_bias(p);
    LT_TRY(cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, &stride, sizeof stride),
           "bias batch stride");
  }
  /* cuBLAS's A is our B (n x k after its op), its B our A (k x m); D^T is n x m. */
  if (lt_layout(&base->la, p->ab, ta == CUBLAS_OP_N ? p->n : p->k, ta == CUBLAS_OP_N ? p->k : p->n, gemm_ldb(p),
                batch, gemm_stride_b(p), note, note_size) ||
      lt_layout(&base->lb, p->ab, tb == CUBLAS_OP_N ? p->k : p->m, tb == CUBLAS_OP_N ? p->m : p->k, gemm_lda(p),
                batch, gemm_stride_a(p), note, note_size) ||
      lt_layout(&base->ld, out, p->n, p->m, p->n, batch, gemm_stride_d(p), note, note_size))
    return -1;
  cublasLtMatmulPreference_t pref = NULL;
  uint64_t ws = GR_LT_WORKSPACE;
  cublasLtMatmulHeuristicResult_t result;
  int found = 0;
  cublasStatus_t st = cublasLtMatmulPreferenceCreate(&pref);
  if (st == CUBLAS_STATUS_SUCCESS)
    st = cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
  if (st == CUBLAS_STATUS_SUCCESS)
    st = cublasLtMatmulAlgoGetHeuristic(g->lt, base->desc, base->la, base->lb, base->ld, base->ld, pref, 1, &result,
                                        &found);
  if (pref) cublasLtMatmulPreferenceDestroy(pref);
  if (st != CUBLAS_STATUS_SUCCESS || found == 0) {
    snprintf(note, note_size, "cuBLASLt has no algorithm for %s %s>%s with this epilogue%s%s: %s", base->label,
             tcj_dtype_name(p->ab), tcj_dtype_name(out), batch > 1 ? " and batch" : "",
             gemm_dtype_is_fp8(p->ab) ? " on this GPU" : "",
             st != CUBLAS_STATUS_SUCCESS ? cublasGetStatusName(st) : "the heuristic found none");
    return gemm_dtype_is_fp8(p->ab) ? 1 : -1; /* fp8: an sm_80 GPU, a k cuBLASLt cannot align, ... */
  }
  base->algo = result.algo;
  return 0;
}

/* ---- grouped baselines ---------------------------------------------------------------------- */

typedef cublasStatus_t (*grouped_fn)(cublasHandle_t, const cublasOperation_t[], const cublasOperation_t[],
                                     const int[], const int[], const int[], const void *, const void *const[],
                                     cudaDataType_t, const int[], const void *const[], cudaDataType_t, const int[],
                                     const void *, void *const[], cudaDataType_t, const int[], int, const int[],
                                     cublasComputeType_t);

/* The device pointer arrays of one operand set (A's, B's and C's of every cuBLAS group, in one
 * allocation): made at open for every buffer set, so that timing uploads nothing; one more slot
 * for any other output (the check's), uploaded when it is asked for. */
#define GR_GROUP_SLOTS (GR_MAX_SETS + 1)
struct gr_grouped_args {
  int count; /* cuBLAS groups: one per non-empty expert */
  grouped_fn fn;
  cublasOperation_t *ta, *tb;
  int *m, *n, *k, *lda, *ldb, *ldc, *size;
  float *alpha, *beta;
  int64_t *a_off, *b_off, *c_off; /* elements */
  struct { const void *a, *b; void *c; void **dev; } slot[GR_GROUP_SLOTS];
  int nslots;
};

/* Group g's first row (CONTIGUOUS: in A, C and D; MASKED: 0 of entry g) by element offsets of
 * its A, B and C/D. */
static void group_offsets(const gemm_problem *p, int64_t g, int64_t row0, int64_t *a, int64_t *b, int64_t *c) {
  if (p->group_mode == TCJ_GROUP_M_MASKED) {
    *a = g * p->m * p->k;
    *c = g * p->m * p->n;
  } else {
    *a = p->op_a == TCJ_OP_N ? row0 * gemm_lda(p) : row0;
    *c = row0 * p->n;
  }
  *b = g * p->k * p->n;
}

static void grouped_free(gr_grouped_args *ga) {
  if (!ga) return;
  for (int i = 0; i < ga->nslots; i++) cudaFree(ga->slot[i].dev);
  free(ga->a_off); /* the start of the one allocation that holds every host array */
  free(ga);
}

/* Slot i for (a, b, c): its pointer arrays uploaded on the stream. 0, or -1 with note. */
static int grouped_slot(const gr_gpu *g, const gemm_problem *p, gr_grouped_args *ga, int i, const void *a,
                        const void *b, void *c, char *note, size_t note_size) {
  size_t n = (size_t)ga->count, es = gemm_dtype_size(p->ab), esb = gemm_dtype_size(gemm_b_dtype(p)),
         esc = gemm_dtype_size(gemm_out_dtype(p));
  void **h = malloc(3 * n * sizeof *h);
  cudaError_t ce = h ? cudaSuccess : cudaErrorMemoryAllocation;
  if (ce == cudaSuccess && !ga->slot[i].dev) ce = cudaMalloc((void **)&ga->slot[i].dev, 3 * n * sizeof *h);
  for (size_t e = 0; ce == cudaSuccess && e < n; e++) {
    h[e] = (char *)(uintptr_t)b + ga->b_off[e] * (int64_t)esb; /* cuBLAS's A is our B */
    h[n + e] = (char *)(uintptr_t)a + ga->a_off[e] * (int64_t)es;
    h[2 * n + e] = (char *)c + ga->c_off[e] * (int64_t)esc;
  }
  if (ce == cudaSuccess) ce = cudaMemcpyAsync(ga->slot[i].dev, h, 3 * n * sizeof *h, cudaMemcpyHostToDevice, g->stream);
  if (ce == cudaSuccess) ce = cudaStreamSynchronize(g->stream);
  free(h);
  if (ce != cudaSuccess) {
    snprintf(note, note_size, "cublasGemmGroupedBatchedEx's pointer arrays: %s", cudaGetErrorName(ce));
    return -1;
  }
  ga->slot[i].a = a;
  ga->slot[i].b = b;
  ga->slot[i].c = c;
  return 0;
}

/* cuBLAS 12.5 (120500) brought cublasGemmGroupedBatchedEx: by the library's runtime version, and
 * its symbol in the process (the headers this was built with may be newer than the library). */
static grouped_fn grouped_symbol(const gr_gpu *g, char *note, size_t note_size) {
  int version = 0;
  if (cublasGetVersion(g->blas, &version) != CUBLAS_STATUS_SUCCESS || version < 120500) {
    snprintf(note, note_size, "no baseline: cuBLAS %d.%d.%d has no cublasGemmGroupedBatchedEx (12.5 or later)",
             version / 10000, version / 100 % 100, version % 100);
    return NULL;
  }
  grouped_fn fn;
  *(void **)&fn = dlsym(RTLD_DEFAULT, "cublasGemmGroupedBatchedEx");
  if (!fn) snprintf(note, note_size, "no baseline: cublasGemmGroupedBatchedEx not found in the cuBLAS library");
  return fn;
}

int gr_baseline_open_grouped(gr_gpu *g, const gemm_problem *p, const gr_buffers *buf, int loop, gr_baseline *base,
                             char *note, size_t note_size) {
  memset(base, 0, sizeof *base);
  const char *why = grouped_unavailable(p);
  base->kind = why ? GR_BASE_NONE : loop ? GR_BASE_GROUP_LOOP : GR_BASE_GROUPED;
  snprintf(base->label, sizeof base->label, "%s", why ? "-" : loop ? "cublasGemmEx_loop" : "cublasGroupedBatched");
  if (why) {
    snprintf(note, note_size, "no baseline: %s", why);
    return 1;
  }
  if (!p->group_sizes) {
    snprintf(note, note_size, "a grouped baseline needs the group sizes");
    return -1;
  }
  if (loop) return 0;
  grouped_fn fn = grouped_symbol(g, note, note_size);
  if (!fn) {
    base->kind = GR_BASE_NONE;
    snprintf(base->label, sizeof base->label, "-");
    return 1;
  }
  gr_grouped_args *ga = calloc(1, sizeof *ga);
  size_t G = (size_t)p->groups;
  /* Host arrays in one block: 2 op arrays, 7 int arrays, 2 float arrays, 3 offset arrays. */
  size_t bytes = 2 * G * sizeof(cublasOperation_t) + 7 * G * sizeof(int) + 2 * G * sizeof(float) + 3 * G * sizeof(int64_t);
  char *block = ga ? malloc(bytes + 64) : NULL;
  if (!block) {
    free(ga);
    snprintf(note, note_size, "host out of memory");
    return -1;
  }
  ga->fn = fn;
  ga->a_off = (int64_t *)(void *)block; /* the 8-byte arrays first, for their alignment */
  ga->b_off = ga->a_off + G;
  ga->c_off = ga->b_off + G;
  ga->ta = (cublasOperation_t *)(void *)(ga->c_off + G);
  ga->tb = ga->ta + G;
  ga->m = (int *)(void *)(ga->tb + G);
  ga->n = ga->m + G;
  ga->k = ga->n + G;
  ga->lda = ga->k + G;
  ga->ldb = ga->lda + G;
  ga->ldc = ga->ldb + G;
  ga->size = ga->ldc + G;
  ga->alpha = (float *)(void *)(ga->size + G);
  ga->beta = ga->alpha + G;
  int64_t row0 = 0;
  for (int64_t e = 0; e < p->groups; e++) {
    int64_t rows = p->group_sizes[e];
    if (rows > 0) {
      int i = ga->count++;
      group_offsets(p, e, row0, &ga->a_off[i], &ga->b_off[i], &ga->c_off[i]);
      ga->ta[i] = blas_op(p->op_b);
      ga->tb[i] = blas_op(p->op_a);
      ga->m[i] = (int)p->n;
      ga->n[i] = (int)rows;
      ga->k[i] = (int)p->k;
      ga->lda[i] = (int)gemm_ldb(p);
      ga->ldb[i] = (int)gemm_lda(p);
      ga->ldc[i] = (int)p->n;
      ga->size[i] = 1;
      ga->alpha[i] = 1;
      ga->beta[i] = 0;
    }
    if (p->group_mode == TCJ_GROUP_M_CONTIGUOUS) row0 += rows;
  }
  base->grouped = ga;
  for (int s = 0; s < buf->sets; s++) {
    if (grouped_slot(g, p, ga, ga->nslots, buf->a[s], buf->b[s], buf->c[s], note, note_size) != 0) return -1;
    ga->nslots++;
  }
  ga->nslots++; /* the spare slot, empty */
  ga->slot[ga->nslots - 1].dev = NULL;
  return 0;
}

/* One grouped baseline call on g->stream. */
static cublasStatus_t grouped_run(const gr_gpu *g, const gemm_problem *p, const gr_baseline *base, const void *a,
                                  const void *b, void *c, char *note, size_t note_size) {
  const void *alpha, *beta;
  unit_scalars(p, &alpha, &beta);
  tcj_dtype out = gemm_out_dtype(p);
  if (base->kind == GR_BASE_GROUP_LOOP) {
    size_t es = gemm_dtype_size(p->ab), esb = gemm_dtype_size(gemm_b_dtype(p)), esc = gemm_dtype_size(out);
    int64_t row0 = 0;
    for (int64_t e = 0; e < p->groups; e++) {
      int64_t rows = p->group_sizes[e], ao, bo, co;
      group_offsets(p, e, row0, &ao, &bo, &co);
      if (p->group_mode == TCJ_GROUP_M_CONTIGUOUS) row0 += rows;
      if (rows <= 0) continue;
      cublasStatus_t st = cublasGemmEx(g->blas, blas_op(p->op_b), blas_op(p->op_a), (int)p->n, (int)rows, (int)p->k,
                                       alpha, (const char *)b + bo * (int64_t)esb, cuda_type(gemm_b_dtype(p)),
                                       (int)gemm_ldb(p), (const char *)a + ao * (int64_t)es, cuda_type(p->ab),
                                       (int)gemm_lda(p), beta, (char *)c + co * (int64_t)esc, cuda_type(out), (int)p->n,
                                       compute_type(p), CUBLAS_GEMM_DEFAULT);
      if (st != CUBLAS_STATUS_SUCCESS) return st;
    }
    return CUBLAS_STATUS_SUCCESS;
  }
  gr_grouped_args *ga = base->grouped;
  int i = 0;
  while (i < ga->nslots && !(ga->slot[i].a == a && ga->slot[i].b == b && ga->slot[i].c == c)) i++;
  if (i == ga->nslots) { /* another output (the check's): the spare slot, uploaded now (untimed) */
    i = ga->nslots - 1;
    if (grouped_slot(g, p, ga, i, a, b, c, note, note_size) != 0) return CUBLAS_STATUS_EXECUTION_FAILED;
  }
  void **dev = ga->slot[i].dev;
  size_t n = (size_t)ga->count;
  return ga->fn(g->blas, ga->ta, ga->tb, ga->m, ga->n, ga->k, ga->alpha, (const void *const *)dev,
                cuda_type(gemm_b_dtype(p)), ga->lda, (const void *const *)(dev + n), cuda_type(p->ab), ga->ldb,
                ga->beta, dev + 2 * n, cuda_type(out), ga->ldc, ga->count, ga->size, compute_type(p));
}

int gr_baseline_open(gr_gpu *g, const gemm_problem *p, const gr_buffers *buf, gr_baseline *base, char *note,
                     size_t note_size) {
  if (gemm_is_grouped(p)) return gr_baseline_open_grouped(g, p, buf, 0, base, note, note_size);
  memset(base, 0, sizeof *base);
  base->kind = base_kind(p);
  gr_baseline_label(p, base->label, sizeof base->label);
  if (p->epilogue_source) {
    snprintf(note, note_size, "a user epilogue has no cuBLAS baseline");
    return -1;
  }
  if (base->kind == GR_BASE_NONE) {
    snprintf(note, note_size, "no baseline: %s", fp8_unavailable(p));
    return 1;
  }
  if (base->kind == GR_BASE_LT_ACT) {
    int a = act_index(p->act), t = out_index(gemm_out_dtype(p));
    if (a < 0 || t < 0) {
      snprintf(note, note_size, "no activation kernel for a %s output", tcj_dtype_name(gemm_out_dtype(p)));
      return -1;
    }
    if (!g->act_module) {
      snprintf(note, note_size, "the activation kernels were not compiled (see the message at start)");
      return -1;
    }
    base->act = g->act[a][t];
  }
  if (base->kind == GR_BASE_LT || base->kind == GR_BASE_LT_ACT) {
    int r = lt_open(g, p, buf, base, note, note_size);
    if (r == 1) {
      gr_baseline_close(base);
      base->kind = GR_BASE_NONE;
      snprintf(base->label, sizeof base->label, "-");
    }
    return r;
  }
  return 0;
}

void gr_baseline_close(gr_baseline *base) {
  if (base->la) cublasLtMatrixLayoutDestroy(base->la);
  if (base->lb) cublasLtMatrixLayoutDestroy(base->lb);
  if (base->ld) cublasLtMatrixLayoutDestroy(base->ld);
  if (base->desc) cublasLtMatmulDescDestroy(base->desc);
  base->la = base->lb = base->ld = NULL;
  base->desc = NULL;
  grouped_free(base->grouped);
  base->grouped = NULL;
}

int gr_baseline_run(const gr_gpu *g, const gemm_problem *p, const gr_baseline *base, const void *a, const void *b,
                    void *c, const void *bias, char *note, size_t note_size) {
  cublasStatus_t st;
  tcj_dtype out = gemm_out_dtype(p);
  const void *alpha, *beta;
  unit_scalars(p, &alpha, &beta);
  switch (base ? base->kind : GR_BASE_GEMMEX) {
  case GR_BASE_GEMMEX:
    st = gr_cublas(g, p, a, b, c);
    break;
  case GR_BASE_STRIDED:
    st = cublasGemmStridedBatchedEx(g->blas, blas_op(p->op_b), blas_op(p->op_a), (int)p->n, (int)p->m, (int)p->k,
                                    alpha, b, cuda_type(p->ab), (int)gemm_ldb(p), gemm_stride_b(p), a,
                                    cuda_type(p->ab), (int)gemm_lda(p), gemm_stride_a(p), beta, c, cuda_type(out),
                                    (int)p->n, gemm_stride_d(p), (int)gemm_batch(p), compute_type(p),
                                    CUBLAS_GEMM_DEFAULT);
    break;
  case GR_BASE_NONE:
    snprintf(note, note_size, "%s has no cuBLAS baseline", tcj_dtype_name(p->ab));
    return -1;
  case GR_BASE_GROUPED: case GR_BASE_GROUP_LOOP:
    st = grouped_run(g, p, base, a, b, c, note, note_size);
    break;
  default:
    /* The bias pointer is the descriptor's: each rotated set has its own bias. */
    st = p->bias == TCJ_BIAS_NONE ? CUBLAS_STATUS_SUCCESS
                                  : cublasLtMatmulDescSetAttribute(base->desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                                                                   &bias, sizeof bias);
    if (st == CUBLAS_STATUS_SUCCESS)
      st = cublasLtMatmul(g->lt, base->desc, alpha, b, base->la, a, base->lb, beta, c, base->ld, c, base->ld,
                          &base->algo, g->lt_workspace, GR_LT_WORKSPACE, g->stream);
    if (st == CUBLAS_STATUS_SUCCESS && base->kind == GR_BASE_LT_ACT)
      return act_launch(g, base->act, out, c, (uint64_t)gemm_batch(p) * (uint64_t)(p->m * p->n), note, note_size);
    break;
  }
  if (st != CUBLAS_STATUS_SUCCESS) {
    char label[48];
    if (base) snprintf(label, sizeof label, "%s", base->label);
    else gr_baseline_label(p, label, sizeof label);
    snprintf(note, note_size, "%s: %s", label, cublasGetStatusName(st));
    return -1;
  }
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

double gr_time(const gr_gpu *g, const gemm_problem *p, gr_lib lib, const gr_baseline *base, const gr_buffers *buf,
               int runs, char *note, size_t note_size) {
  cudaEvent_t *ev = calloc((size_t)(2 * runs), sizeof *ev);
  double *t = calloc((size_t)runs, sizeof *t), med = 0;
  int made = 0, fail = 0;
  if (!ev || !t) {
    snprintf(note, note_size, "host out of memory");
    goto done;
  }
  for (; made < 2 * runs; made++)
    if (cudaEventCreate(&ev[made]) != cudaSuccess) {
      snprintf(note, note_size, "cudaEventCreate failed");
      goto done;
    }
  for (int r = 0; r < runs && !fail; r++) {
    int s = r % buf->sets;
    cudaEventRecord(ev[2 * r], g->stream);
    if (lib == GR_TCJ) {
      tcj_status st = gr_tcj(g, p, buf->a[s], buf->b[s], buf->c[s], buf->bias[s], buf->scales);
      if (st != TCJ_SUCCESS) {
        snprintf(note, note_size, "%s (timed) %s: %s", gemm_is_ex(p) ? "tcj_gemm_ex" : "tcj_gemm",
                 tcj_status_string(st), tcj_last_error(g->eng));
        fail = 1;
      }
    } else {
      char why[256];
      if (gr_baseline_run(g, p, base, buf->a[s], buf->b[s], buf->c[s], buf->bias[s], why, sizeof why) != 0) {
        snprintf(note, note_size, "cuBLAS (timed): %s", why);
        fail = 1;
      }
    }
    cudaEventRecord(ev[2 * r + 1], g->stream);
  }
  cudaError_t ce = cudaStreamSynchronize(g->stream);
  if (ce != cudaSuccess) {
    snprintf(note, note_size, "%s run failed: %s", lib == GR_CUBLAS ? "cuBLAS" : "tcj", cudaGetErrorName(ce));
    fail = 1;
  }
  if (fail) goto done;
  for (int r = 0; r < runs; r++) {
    float ms = 0;
    cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]);
    t[r] = 1e3 * ms;
  }
  med = median(t, runs);
done:
  for (int i = 0; i < made; i++) cudaEventDestroy(ev[i]);
  free(ev);
  free(t);
  return med;
}

/* The output's rounding sets the bound; an activation multiplies it by 1.5: its slope reaches
 * 1.13 (GELU) and a baseline that rounds D before its activation kernel rounds twice. fp8's fast
 * accumulation adds the error of the tensor cores' narrower accumulator (about 14 mantissa bits
 * on Hopper, by DeepSeek-V3's report): at least 1e-3, which only an f32 output notices. */
double gr_bound(const gemm_problem *p) {
  tcj_dtype out = gemm_out_dtype(p);
  if (out == TCJ_S32) return 0; /* integer sums, an integer bias and ReLU are exact */
  double bound = p->ab == TCJ_TF32 ? 1e-2 : out == TCJ_F16 ? 2e-3 : out == TCJ_BF16 ? 1e-2 : 1e-4;
  if (gemm_dtype_is_fp8(p->ab) && p->fast_accum && bound < 1e-3) bound = 1e-3;
  return p->act != TCJ_ACT_NONE ? 1.5 * bound : bound;
}

/* |GELU_erf(x) - GELU_tanh(x)| <= 4.74e-4 for every x: what may part tcj's erf GELU from
 * cuBLASLt's GELU_BIAS, which computes the tanh form. */
#define GELU_FORMS_APART 5e-4

/* ---- the check ------------------------------------------------------------------------------ */

static int read_back(void *host, const void *dev, size_t bytes, cudaStream_t stream, char *note, size_t note_size) {
  cudaError_t ce;
  if (!bytes) return 0;
  if ((ce = cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, stream)) ||
      (ce = cudaStreamSynchronize(stream))) {
    snprintf(note, note_size, "read-back: %s", cudaGetErrorName(ce));
    return -1;
  }
  return 0;
}

/* What tcj's output is held to: the baseline's, element by element (16-bit, tf32 and s8 types,
 * epilogues); the float64 reference's relative Frobenius error at sampled elements (fp8, whose
 * operands make an exact reference); or its accuracy figure, as an fp32- or fp64-accurate GEMM
 * must meet it (f32, f64). The last two hold the baseline to the same. */
typedef enum check_kind { BY_BASELINE, BY_REF_FROBENIUS, BY_REF_ACCURACY } check_kind;

static check_kind check_kind_of(const gemm_problem *p) {
  if (gemm_is_grouped(p)) return BY_REF_FROBENIUS; /* every group's sampled rows */
  if (gemm_ref_checks_accuracy(p)) return BY_REF_ACCURACY;
  return gemm_dtype_is_fp8(p->ab) ? BY_REF_FROBENIUS : BY_BASELINE;
}

/* The float64 reference on host copies of set 0's inputs. Returns 0, or -1 with note. */
static int reference(const gr_gpu *g, const gemm_problem *p, const gr_buffers *buf, gemm_ref *ref, char *note,
                     size_t note_size) {
  size_t batch = (size_t)gemm_entries(p), b_entries = (size_t)gemm_b_entries(p);
  size_t na = batch * (size_t)(p->m * p->k) * gemm_dtype_size(p->ab);
  size_t nb = b_entries * (size_t)(p->k * p->n) * gemm_dtype_size(gemm_b_dtype(p));
  size_t nbias = p->bias != TCJ_BIAS_NONE ? b_entries * (size_t)p->n * gemm_dtype_size(gemm_bias_dtype(p)) : 0;
  void *a = malloc(na + 1), *b = malloc(nb + 1), *bias = malloc(nbias + 1);
  int rc = -1;
  if (!a || !b || !bias) {
    snprintf(note, note_size, "host out of memory (the reference's operands)");
  } else if (!read_back(a, buf->a[0], na, g->stream, note, note_size) &&
             !read_back(b, buf->b[0], nb, g->stream, note, note_size) &&
             !read_back(bias, buf->bias[0], nbias, g->stream, note, note_size)) {
    gemm_ref_inputs in = {a, b, nbias ? bias : NULL,
                          gemm_dtype_is_fp8(p->ab) ? (double)GR_SCALE_A * (double)GR_SCALE_B : 1.0};
    if ((gemm_is_grouped(p) ? gemm_ref_compute_grouped(p, &in, ref) : gemm_ref_compute(p, &in, ref)) == 0) rc = 0;
    else snprintf(note, note_size, "host out of memory (the reference)");
  }
  free(a);
  free(b);
  free(bias);
  return rc;
}

/* The output of every element apart from the baseline's: tcj's relative Frobenius error against
 * it, within gr_bound (an exact bound, 0, for integer outputs). */
static gr_check_result judge_by_baseline(const gemm_problem *p, const gr_baseline *base, const char *label,
                                         const void *hc, const void *hr, size_t nc, gr_figures *fig, char *note,
                                         size_t note_size) {
  tcj_dtype out = gemm_out_dtype(p);
  double e2 = 0, r2 = 0;
  int64_t diff = 0;
  for (size_t i = 0; i < nc; i++) {
    double x = gemm_ref_get(out, hc, i), y = gemm_ref_get(out, hr, i), d = x - y;
    if (isnan(d)) d = INFINITY;
    diff += d != 0;
    e2 += d * d;
    r2 += y * y;
  }
  fig->rel_err = r2 > 0 ? sqrt(e2 / r2) : sqrt(e2);
  double bound = gr_bound(p);
  if (bound > 0 && p->act == TCJ_ACT_GELU && base && base->kind == GR_BASE_LT)
    bound += GELU_FORMS_APART * sqrt((double)nc) / (r2 > 0 ? sqrt(r2) : 1);
  if (bound == 0 ? diff != 0 : !(fig->rel_err <= bound)) {
    snprintf(note, note_size, "check vs %s failed: rel Frobenius error %.3g (bound %.3g), %lld elements differ",
             label, fig->rel_err, bound, (long long)diff);
    return GR_CHECK_MISMATCH;
  }
  return GR_CHECK_PASS;
}

/* How far one output (who: "tcj" or the baseline's label) is from the reference, and whether that
 * is within p's bound: the accuracy figure (f32, f64) or the relative Frobenius error (fp8; the
 * bound grows by GELU_FORMS_APART per element where the output's GELU is the tanh form). */
static int within_ref(const gemm_problem *p, check_kind kind, const gemm_ref *ref, const void *host, int tanh_gelu,
                      const char *who, char *note, size_t note_size) {
  tcj_dtype out = gemm_out_dtype(p);
  int64_t diff;
  double norm, frob = gemm_ref_frobenius(ref, out, host, &diff, &norm);
  if (kind == BY_REF_ACCURACY) {
    double err = gemm_ref_max_error(ref, out, host), bound = gemm_ref_bound(p);
    if (err <= bound) return 1;
    snprintf(note, note_size, "%s differs from the float64 reference: max |got - ref| / (|A||B|)_ij %.3g (bound %.3g) "
             "over %zu sampled elements, %lld differ", who, err, bound, ref->count, (long long)diff);
    return 0;
  }
  double bound = gr_bound(p);
  if (tanh_gelu && p->act == TCJ_ACT_GELU) bound += GELU_FORMS_APART * sqrt((double)ref->count) / (norm > 0 ? norm : 1);
  if (frob <= bound) return 1;
  snprintf(note, note_size, "%s differs from the float64 reference: rel Frobenius error %.3g (bound %.3g) over %zu "
           "sampled elements, %lld differ", who, frob, bound, ref->count, (long long)diff);
  return 0;
}

/* The first row of D (over its entries) that a grouped call must leave alone but that does not
 * hold the poison (all ones bits) any more, or -1. */
static int64_t unwritten_row_written(const gemm_problem *p, const void *hc) {
  size_t row_bytes = (size_t)p->n * gemm_dtype_size(gemm_out_dtype(p));
  int64_t entries = gemm_entries(p), rows_total = 0;
  for (int64_t g = 0; g < p->groups; g++) rows_total += p->group_sizes[g];
  for (int64_t e = 0; e < entries; e++) {
    int64_t from = p->group_mode == TCJ_GROUP_M_MASKED ? p->group_sizes[e] : rows_total;
    for (int64_t i = from < 0 ? 0 : from; i < p->m; i++) {
      const unsigned char *row = (const unsigned char *)hc + (size_t)(e * p->m + i) * row_bytes;
      for (size_t b = 0; b < row_bytes; b++)
        if (row[b] != 0xff) return e * p->m + i;
    }
  }
  return -1;
}

gr_check_result gr_check(const gr_gpu *g, const gemm_problem *p, const gr_baseline *base, const gr_buffers *buf,
                         gr_figures *fig, char *note, size_t note_size) {
  tcj_dtype out = gemm_out_dtype(p);
  check_kind kind = check_kind_of(p);
  int accuracy = gemm_ref_accuracy_applies(p), has_base = !base || base->kind != GR_BASE_NONE;
  size_t esc = gemm_dtype_size(out), nc = (size_t)gemm_entries(p) * (size_t)(p->m * p->n);
  void *dref = NULL, *hc = malloc(nc * esc + 1), *hr = malloc(nc * esc + 1);
  gemm_ref ref;
  gr_check_result res = GR_CHECK_ERROR;
  char why[256] = "", label[48];
  int base_ran = 0;
  int64_t diff;
  double norm;
  cudaError_t ce;
  memset(&ref, 0, sizeof ref);
  if (base) snprintf(label, sizeof label, "%s", base->label);
  else gr_baseline_label(p, label, sizeof label);
  fig->rel_err = fig->err_tcj = fig->err_blas = -1;
  if (!hc || !hr) {
    snprintf(note, note_size, "host out of memory");
    goto done;
  }
  if (read_back(hc, buf->c[0], nc * esc, g->stream, note, note_size)) goto done;
  if (gemm_is_grouped(p)) { /* rows no group owns (MASKED: past counts[g]) must stay as poisoned */
    int64_t bad_row = unwritten_row_written(p, hc);
    if (bad_row >= 0) {
      snprintf(note, note_size, "tcj wrote row %lld of D, which no group owns (the rows past a masked group's count "
               "stay unwritten)", (long long)bad_row);
      res = GR_CHECK_MISMATCH;
      goto done;
    }
  }
  if ((kind != BY_BASELINE || accuracy) && reference(g, p, buf, &ref, note, note_size) != 0) goto done;
  if (accuracy) fig->err_tcj = gemm_ref_max_error(&ref, out, hc);
  /* The baseline on set 0's inputs into its own output, poisoned as tcj's was (on the stream:
   * cudaMemset's legacy stream does not order a non-blocking one). Its figures are kept even
   * when tcj's result fails: they tell which side is off. */
  if (has_base || kind == BY_BASELINE) {
    if ((ce = cudaMalloc(&dref, nc * esc)) || (ce = cudaMemsetAsync(dref, 0xff, nc * esc, g->stream))) {
      snprintf(note, note_size, "setup: %s", cudaGetErrorName(ce));
      goto done;
    }
    base_ran = gr_baseline_run(g, p, base, buf->a[0], buf->b[0], dref, buf->bias[0], why, sizeof why) == 0;
    if (base_ran && read_back(hr, dref, nc * esc, g->stream, note, note_size)) goto done;
    if (base_ran && accuracy) fig->err_blas = gemm_ref_max_error(&ref, out, hr);
  }
  if (kind == BY_BASELINE) {
    if (!base_ran) {
      snprintf(note, note_size, "cuBLAS: %s", why);
      res = GR_CHECK_BLAS_ERROR;
    } else {
      res = judge_by_baseline(p, base, label, hc, hr, nc, fig, note, note_size);
    }
    goto done;
  }
  fig->rel_err = gemm_ref_frobenius(&ref, out, hc, &diff, &norm);
  if (!within_ref(p, kind, &ref, hc, 0, "tcj", note, note_size)) {
    res = GR_CHECK_MISMATCH;
  } else if (has_base && !base_ran) {
    snprintf(note, note_size, "cuBLAS: %s", why);
    res = GR_CHECK_BLAS_ERROR;
  } else if (has_base && !within_ref(p, kind, &ref, hr, base && base->kind == GR_BASE_LT, label, note, note_size)) {
    /* A baseline off the reference (a wrong scale or layout) would skew every ratio. */
    size_t len = strlen(note);
    snprintf(note + len, note_size - len, ", not timed");
    res = GR_CHECK_BLAS_ERROR;
  } else {
    res = GR_CHECK_PASS;
  }
done:
  gemm_ref_free(&ref);
  cudaFree(dref);
  free(hc);
  free(hr);
  return res;
}

double gr_copy_gbs(const gr_gpu *g, size_t bytes, int runs, char *note, size_t note_size) {
  void *src = NULL, *dst = NULL;
  cudaEvent_t ev[2] = {0};
  double *t = calloc((size_t)runs, sizeof *t), gbs = 0;
  cudaError_t ce;
  if (!t) {
    snprintf(note, note_size, "host out of memory");
    goto done;
  }
  if ((ce = cudaMalloc(&src, bytes)) || (ce = cudaMalloc(&dst, bytes)) ||
      (ce = cudaMemset(src, 0x5a, bytes)) || (ce = cudaEventCreate(&ev[0])) ||
      (ce = cudaEventCreate(&ev[1])) ||
      (ce = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, g->stream)) || /* warm-up */
      (ce = cudaStreamSynchronize(g->stream))) {
    snprintf(note, note_size, "copy bandwidth setup (%zu MiB): %s", bytes >> 20, cudaGetErrorName(ce));
    goto done;
  }
  for (int r = 0; r < runs; r++) {
    float ms = 0;
    if ((ce = cudaEventRecord(ev[0], g->stream)) ||
        (ce = cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, g->stream)) ||
        (ce = cudaEventRecord(ev[1], g->stream)) || (ce = cudaEventSynchronize(ev[1])) ||
        (ce = cudaEventElapsedTime(&ms, ev[0], ev[1]))) {
      snprintf(note, note_size, "copy bandwidth: %s", cudaGetErrorName(ce));
      goto done;
    }
    t[r] = 1e-3 * ms;
  }
  double s = median(t, runs);
  gbs = s > 0 ? 2.0 * (double)bytes / s * 1e-9 : 0;
done:
  if (ev[0]) cudaEventDestroy(ev[0]);
  if (ev[1]) cudaEventDestroy(ev[1]);
  cudaFree(src);
  cudaFree(dst);
  free(t);
  return gbs;
}

int gr_fresh_cache_dir(char *templ) { return mkdtemp(templ) ? 0 : -1; }

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(path);
}

void gr_remove_tree(const char *dir) { nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }
