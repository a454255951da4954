/* SPDX-License-Identifier: Apache-2.0 */
/* tcj: a runtime JIT GEMM engine for NVIDIA tensor cores.
 * The one public header. Row-major GEMM (column-major too: tcj_gemm_desc.order) through PTX
 * that tcj writes, compiles and caches at the first call for each problem class. See README.md
 * for a worked example. */
#ifndef TCJ_H
#define TCJ_H

#include <stddef.h>
#include <stdint.h>
#include <cuda.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TCJ_API __attribute__((visibility("default")))
#else
#define TCJ_API
#endif

/* Version of this header; tcj_version() gives the library's, which may be newer. The shared
 * library's SOVERSION is the major version: see README.md, "Versions and ABI". */
#define TCJ_VERSION_MAJOR 1
#define TCJ_VERSION_MINOR 0
#define TCJ_VERSION_PATCH 0
#define TCJ_VERSION (TCJ_VERSION_MAJOR * 10000 + TCJ_VERSION_MINOR * 100 + TCJ_VERSION_PATCH)

typedef struct tcj_engine tcj_engine;

/* X-macro: the status enum, tcj_status_string() and the messages come from one list. */
#define TCJ_STATUS_LIST(X)                                                        \
  X(TCJ_SUCCESS, "success")                                                       \
  X(TCJ_ERROR_INVALID_VALUE, "invalid value")                                     \
  X(TCJ_ERROR_NOT_SUPPORTED, "not supported")                                     \
  X(TCJ_ERROR_NO_DEVICE, "no CUDA driver or device")                              \
  X(TCJ_ERROR_CUDA, "CUDA driver error")                                          \
  X(TCJ_ERROR_COMPILE, "kernel compilation failed")                               \
  X(TCJ_ERROR_OUT_OF_MEMORY, "out of memory")                                     \
  X(TCJ_ERROR_CACHE, "kernel cache error")                                        \
  X(TCJ_ERROR_INTERNAL, "internal error")

typedef enum tcj_status {
#define TCJ_STATUS_ENUM(name, msg) name,
  TCJ_STATUS_LIST(TCJ_STATUS_ENUM)
#undef TCJ_STATUS_ENUM
} tcj_status;

typedef enum tcj_dtype { TCJ_F16, TCJ_BF16, TCJ_F32, TCJ_TF32, TCJ_E4M3, TCJ_E5M2, TCJ_S8, TCJ_S32, TCJ_F64 } tcj_dtype;
typedef enum tcj_op { TCJ_OP_N, TCJ_OP_T } tcj_op;

/* Scratch memory. Some calls need device scratch: a packed copy of an operand the kernels
 * cannot read as it lies (rows not 16-byte aligned), fp32 partial sums of split-K, or the
 * tensor maps a grouped call's kernel rewrites per group (B pointer arrays and K groups on
 * sm_90a). Each such call gets one region. By default:
 *   - the calls of one stream (the first stream that needs scratch, while it is not capturing a
 *     CUDA graph) share a region the engine keeps: up to 32 MiB from cuMemAlloc, grown when a
 *     call needs more, freed by tcj_destroy. The stream-ordered pool's first allocation in a
 *     process costs about 10 ms, which a warm start would otherwise pay;
 *   - other calls (other streams, captured calls, more than 32 MiB) take it from the device's
 *     default stream-ordered pool (cuMemAllocAsync on the call's stream, freed with
 *     cuMemFreeAsync after its kernels): allocation nodes when the call is captured.
 * Either is memory a caller's own allocator cannot see. Two ways to own it instead:
 *   - tcj_options.alloc / .free: tcj asks the caller's allocator, with the call's stream, and
 *     frees the region on the same stream right after enqueuing its kernels (stream order keeps
 *     it alive until they ran), as PyTorch's caching allocator expects;
 *   - tcj_set_workspace: one region the caller owns; tcj never allocates, and a call that needs
 *     more returns TCJ_ERROR_OUT_OF_MEMORY with the size it needs, having launched nothing.
 * tcj_gemm_workspace_size says what a call needs (0 for most). */
typedef int (*tcj_alloc_fn)(void *ctx, size_t bytes, CUstream stream, CUdeviceptr *ptr); /* 0: success */
typedef void (*tcj_free_fn)(void *ctx, CUdeviceptr ptr, size_t bytes, CUstream stream);

/* Engine options. Start from TCJ_OPTIONS_INIT or tcj_options_init() (or zero the struct and set
 * struct_size), then set what you need; tcj_create(&e, NULL) uses defaults. Later versions add
 * fields only at the end. */
typedef struct tcj_options {
  /* sizeof(tcj_options) as the caller was compiled: the library reads no field past it, and
   * refuses nonzero fields it does not know. 0 (a zeroed struct whose size was never set) and
   * sizes below the first layout's are refused (TCJ_ERROR_INVALID_VALUE): since 1.0, 0 no longer
   * means the 0.1 layout, which silently dropped the fields set after the memset. */
  size_t struct_size;
  /* Compile for this arch ("sm_80", "sm_90a", ...) instead of the device's own. NULL: device. */
  const char *arch;
  /* Nonzero: never use nvJitLink (nor NVRTC's whole-program compile of sm90 kernels): compile
   * through the driver's cuLink* API. */
  int force_driver_jit;
  /* Nonzero: never pack unaligned operands into scratch; use narrow copies or fail. */
  int disable_packing;
  /* Writable kernel cache directory. NULL: $TCJ_CACHE_DIR, else $XDG_CACHE_HOME/tcj, else
   * ~/.cache/tcj. Read-only roots come from $TCJ_CACHE_PATH (dir1:dir2). */
  const char *cache_dir;
  /* Nonzero: no disk cache at all (as with $TCJ_CACHE_DISABLE); kernels live in memory only. */
  int disable_disk_cache;
  /* Since 0.2. The caller's allocator for scratch (see above), both or neither; ctx is passed
   * back. NULL: the stream-ordered pool. */
  tcj_alloc_fn alloc;
  tcj_free_fn free;
  void *alloc_ctx;
  /* Since 0.4. Which kernels calls run (tcj_jit_mode); 0 (TCJ_JIT_DEFAULT): $TCJ_JIT, else
   * async (sync where $TCJ_RECIPE or $TCJ_TILE forces a kernel, or $TCJ_TUNE=1). */
  int jit_mode;
} tcj_options;
#define TCJ_OPTIONS_INIT {.struct_size = sizeof(tcj_options)} /* C; in C++ value-initialise and set it */

/* tcj_options.jit_mode (or $TCJ_JIT: "sync", "generic", "async"). Every kernel tcj runs is
 * compiled for a class of problems:
 *   TCJ_JIT_SYNC     specialised kernels: n and k (and more of the problem) are baked into the
 *                    kernel, which is the fastest; a call of a new class compiles its kernel in
 *                    the caller's thread (tens to hundreds of milliseconds, once per class and
 *                    disk cache). Every call of a class runs the same kernel, so the same
 *                    operands give bitwise the same result.
 *   TCJ_JIT_GENERIC  generic kernels only (grouped calls excepted, which have none: see
 *                    tcj_gemm_desc.group_mode): n, k and the leading dimensions are run-time
 *                    arguments, so a few kernels per type pair (f64 included), op pair and
 *                    alignment class serve every shape (`tcj-warmup --generic` compiles them
 *                    ahead). Slower on
 *                    some shapes (docs/perf.md, "Generic kernels"); never compiles for a new
 *                    shape once its class's generic kernels are cached. Deterministic as sync
 *                    is, but a generic kernel's result may differ from the specialised one's in
 *                    the last bits (another tile, another summation order).
 *   TCJ_JIT_ASYNC    the default. Never waits for the compiler where a generic kernel is cached:
 *                    a call whose specialised kernel is neither loaded nor in the disk cache
 *                    (looked up at the class's first call) runs the generic kernel at once, and a
 *                    background thread (one per engine, started at its first job) builds the
 *                    specialised kernel of a class once it is hot (8 calls) or big (2mnk of 2^33
 *                    or more), publishes it to the disk cache and makes later calls use it. So
 *                    the first calls of a class may differ from later ones in the last bits.
 *                    While the stream is being captured into a CUDA graph, tcj captures the
 *                    specialised kernel, compiling it in the caller's thread if it is not ready
 *                    (a graph replays what it captured for its whole life). tcj_destroy waits
 *                    for the compile in progress (never a torn cache entry; never for another
 *                    process's compile lock) and drops the queued ones; exit() does the same before the compiler's static destructors
 *                    run (with force_driver_jit, call tcj_destroy before exiting: the driver's
 *                    JIT library registers its destructors when it first compiles). */
typedef enum tcj_jit_mode { TCJ_JIT_DEFAULT = 0, TCJ_JIT_SYNC = 1, TCJ_JIT_GENERIC = 2, TCJ_JIT_ASYNC = 3 } tcj_jit_mode;

/* Kernel cache counters of one engine since tcj_create. Later versions add fields only at the
 * end: set struct_size (TCJ_STATS_INIT, tcj_stats_init()) before tcj_get_stats, which refuses 0
 * (TCJ_ERROR_INVALID_VALUE; before 1.0 it filled the 0.1 counters only, leaving the rest 0). */
typedef struct tcj_stats {
  size_t struct_size;      /* sizeof(tcj_stats) as the caller was compiled */
  uint64_t memory_hits;    /* calls served by an already loaded kernel */
  uint64_t disk_hits;      /* kernels loaded from the disk cache */
  uint64_t disk_misses;    /* disk lookups that found no usable entry */
  uint64_t bad_entries;    /* entries found but rejected (corrupt, torn, other key, refused by the driver) */
  uint64_t compiles;       /* kernels generated and compiled */
  uint64_t compile_ns;     /* time spent generating, compiling and loading them */
  uint64_t bytes_written;  /* bytes of cache entries published */
  uint64_t evictions;      /* entries removed by the size cap */
  uint64_t write_failures; /* publishes that failed (unwritable or full disk, ...) */
  /* Since 0.4 (tcj_jit_mode). */
  uint64_t compiles_background; /* of compiles, those the background worker made (TCJ_JIT_ASYNC);
                                   the others ran in a caller's thread */
  uint64_t generic_launches;    /* calls that ran a generic kernel */
  uint64_t swaps;               /* specialised kernels the background worker made ready (compiled
                                   or loaded from the disk cache): their classes' later calls run them */
} tcj_stats;
#define TCJ_STATS_INIT {.struct_size = sizeof(tcj_stats)}

/* The library's version as TCJ_VERSION spells it (major * 10000 + minor * 100 + patch). */
TCJ_API int tcj_version(void);

TCJ_API tcj_status tcj_create(tcj_engine **engine, const tcj_options *opts); /* opts NULL: defaults */
TCJ_API void tcj_destroy(tcj_engine *engine);                                /* NULL is a no-op */
TCJ_API const char *tcj_status_string(tcj_status s);
/* The dtype's name as manifests, tools and messages spell it ("f16", "bf16", "e4m3", ...);
   "unknown dtype" for a value outside the enum. Since 1.0. */
TCJ_API const char *tcj_dtype_name(tcj_dtype t);
TCJ_API const char *tcj_last_error(const tcj_engine *engine); /* message of this thread's last failure */
/* Fills the counters up to stats->struct_size (see tcj_stats); the size field is left as is. */
TCJ_API tcj_status tcj_get_stats(const tcj_engine *engine, tcj_stats *stats);

/* A workspace the caller owns, used for every call's scratch from now on (bytes == 0: back to
 * allocating). Calls that need scratch use it from its start, so calls on different streams
 * must not overlap in time while they share it (as with cublasSetWorkspace): give concurrent
 * streams their own engines, or use tcj_options.alloc. ptr must be 256-byte aligned.
 * Safe while other threads' calls are in flight: a call reads the workspace once, when it
 * takes its scratch, and uses that region (or its own allocation) to its end. Calls already
 * in flight keep the old region, and their kernels read it when their streams get to them:
 * keep it alive and unused until those streams are done, as with cublasSetWorkspace. */
TCJ_API tcj_status tcj_set_workspace(tcj_engine *engine, CUdeviceptr ptr, size_t bytes);

/* The scratch bytes tcj_gemm with these arguments needs (pointers matter: their alignment
 * decides what is packed). Validates like tcj_gemm; compiles and launches nothing. */
TCJ_API tcj_status tcj_gemm_workspace_size(tcj_engine *engine, tcj_op op_a, tcj_op op_b, int64_t m, int64_t n,
                                           int64_t k, const void *a, tcj_dtype a_type, int64_t lda, const void *b,
                                           tcj_dtype b_type, int64_t ldb, const void *c, tcj_dtype c_type,
                                           int64_t ldc, size_t *bytes);

/* Row-major. D = C: C[m,n] = alpha * op(A)[m,k] * op(B)[k,n] + beta * C[m,n].
   A is m x k (lda >= k) when op_a == N, k x m (lda >= m) when T; B is k x n (ldb >= n) when N,
   n x k (ldb >= k) when T; C is m x n (ldc >= n). Pointers are device pointers. Accumulation is
   fp32 for floating types, s32 for s8. beta == 0: C is not read. alpha == 0 (the value, or the
   one behind tcj_gemm_desc.alpha_ptr): the products are not used, as BLAS does not reference A
   and B then (NaNs and infinities there do not reach C). m, n or k == 0 is valid (k == 0
   scales C by beta). Asynchronous on `stream`, like cuBLAS.
   Supported (a = b type -> c type): f16 or bf16 -> f16|bf16|f32, f32 -> f32, tf32 (f32 data)
   -> f32, f64 -> f64 (fp64 products and sums, DMMA), s8 -> s32, and fp8 (A and B each e4m3
   or e5m2, sm_89 and newer) -> f16|bf16|f32.
   TCJ_F32 operands are computed to fp32 accuracy (3xTF32 on tensor cores: an error like
   cublasSgemm's); TCJ_TF32 ones (either operand) in tf32, faster, with about 1e-3 relative
   error. tcj_gemm_ex's compute field chooses explicitly (tcj_compute). 0.3 computed TCJ_F32
   operands in tf32; fp32 accuracy needs 4x the scratch (tcj_gemm_workspace_size), hence the
   major version 1 (CHANGELOG.md).
   Aliasing: C must not share memory with A or B. Their spans (first to last element, as m, n,
   k and the leading dimensions reach) are compared when m, n and k are all > 0, and an overlap
   is refused with TCJ_ERROR_INVALID_VALUE. A and B may overlap each other (both only read).
   The same as tcj_gemm_ex (below) with D = C and nothing else set. */
TCJ_API tcj_status tcj_gemm(tcj_engine *engine, tcj_op op_a, tcj_op op_b,
                    int64_t m, int64_t n, int64_t k, float alpha,
                    const void *a, tcj_dtype a_type, int64_t lda,
                    const void *b, tcj_dtype b_type, int64_t ldb,
                    float beta, void *c, tcj_dtype c_type, int64_t ldc, CUstream stream);

/* ---- tcj_gemm_ex: one GEMM, or a strided batch of them, with a fused epilogue ------------

   For every batch entry z (0 <= z < batch_count), row i < m and column j < n:

     v = alpha * sum_k op(A_z)[i,k] * op(B_z)[k,j] + beta * C_z[i,j]  (C not read when beta == 0)
     v = v + bias_z[j] (TCJ_BIAS_COL) or bias_z[i] (TCJ_BIAS_ROW)
     v = activation(v)
     v = tcj_epilogue(v, C_z[i,j] (0 when C is not read), i, j, z, epilogue_params) (user epilogue;
         called once for each element of D and for no other (i, j, z))
     D_z[i,j] = v, converted to d_type (rounded to nearest; s32 saturates)

   where X_z starts stride_x elements after X_{z-1}; a stride of 0 gives every entry the same
   X (one weight for many inputs, one bias for every entry). D's entries must not overlap.
   Arithmetic is fp32 (s8: s32 accumulation, the epilogue in fp64, so integer results are
   exact). Everything of tcj_gemm holds: row-major (unless order says column-major: the
   storage order section below), asynchronous on the stream, scratch as
   described above, and no operand may overlap D (A, B, bias; C may be exactly D: same
   pointer, ld, stride and dtype, the in-place update of tcj_gemm). */

typedef enum tcj_bias_kind {
  TCJ_BIAS_NONE = 0,
  TCJ_BIAS_COL = 1, /* n elements, bias[j] added to column j: nn.Linear's bias */
  TCJ_BIAS_ROW = 2, /* m elements, bias[i] added to row i */
} tcj_bias_kind;

typedef enum tcj_activation {
  TCJ_ACT_NONE = 0,
  TCJ_ACT_RELU = 1,      /* max(v, 0); NaN stays NaN */
  TCJ_ACT_GELU = 2,      /* v * Phi(v), the erf form (PyTorch's default); |error| <= 2e-7 * |v| */
  TCJ_ACT_GELU_TANH = 3, /* 0.5 v (1 + tanh(sqrt(2/pi) (v + 0.044715 v^3))) */
  TCJ_ACT_SILU = 4,      /* v / (1 + e^-v) */
  /* Gated: D has n columns and op(B) 2n, gate first: columns [0, n) of op(A) op(B) are the gate
   * g, columns [n, 2n) the up projection u, and D[i, j] = silu(g[i, j]) * u[i, j] (with alpha
   * and a bias of 2n values applied to both halves first). The MoE and Llama MLP up-projection
   * (vLLM's w13 layout: [2n, k] gate rows then up rows). Details at tcj_gemm_desc.activation. */
  TCJ_ACT_SWIGLU = 5,
} tcj_activation;

/* How the fp8 scales of tcj_gemm_desc are given. */
typedef enum tcj_scale_mode {
  TCJ_SCALE_TENSOR = 0, /* one scale per operand (or none) */
  TCJ_SCALE_BLOCK = 1,  /* A per row and 128 K; B per 128 x 128 block (DeepSeek-V3) */
  TCJ_SCALE_ROW = 2,    /* A per row, B per column (torch._scaled_mm's rowwise scales) */
} tcj_scale_mode;

/* How the products of fp32 data are formed: cuBLAS's compute types (cublasComputeType_t), and
 * 3xTF32, which CUTLASS calls fast accurate fp32. Accumulation is fp32 in every mode. */
typedef enum tcj_compute {
  /* By the operand types: two TCJ_F32 operands TCJ_COMPUTE_32F, a TCJ_TF32 one
   * TCJ_COMPUTE_32F_FAST_TF32; other types as their own rows of tcj_gemm say. */
  TCJ_COMPUTE_DEFAULT = 0,
  /* fp32 accuracy: an error against exact arithmetic of the size cublasSgemm's has (within 2x,
   * for any K and for data spanning fp32's exponent range). tcj chooses how; today that is
   * 3xTF32 on the tensor cores. Also valid for f16, bf16 and fp8 operands, whose products and
   * sums are fp32 anyway. */
  TCJ_COMPUTE_32F = 1,
  /* Each fp32 operand split into two tf32 parts, x = big + small (big = x rounded to tf32,
   * small = the rest, rounded to tf32), and three tensor-core products summed in fp32: A_big
   * B_big + A_big B_small + A_small B_big, with the tensor cores' partial sums added into fp32
   * registers every few K (their own addition truncates). Costs three tf32 GEMMs and a pass
   * that writes the parts into scratch (2 or 3 x (m + n) x k fp32 elements, k rounded up to 32).
   * Limits: an infinite element can give NaN where fp32 gives infinity (infinity x a zero
   * small part); parts below 2^-126 (elements under about 2^-115) lose their small part. f32
   * or tf32 operands only. */
  TCJ_COMPUTE_32F_3XTF32 = 2,
  /* tf32 products (10 mantissa bits: each element rounded so), fp32 accumulation: about 1e-3
   * relative error, at the tensor cores' tf32 rate. f32 or tf32 operands only. */
  TCJ_COMPUTE_32F_FAST_TF32 = 3,
} tcj_compute;

/* The source of a user epilogue must define exactly this function (CUDA C++, compiled by
 * NVRTC; `params` is tcj_gemm_desc.epilogue_params). It must be self-contained: its kernel is
 * keyed by its text, so a source that reads a file (#include, #embed, __has_include) is
 * refused with TCJ_ERROR_NOT_SUPPORTED naming the line; NVRTC has no built-in headers. */
#define TCJ_EPILOGUE_SIGNATURE                                                                \
  "extern \"C\" __device__ float tcj_epilogue(float v, float c, long long row, long long col, " \
  "long long batch, const void *params)"

/* Storage order of a tcj_gemm_desc's matrices (tcj_gemm_desc.order). */
typedef enum tcj_order {
  TCJ_ORDER_ROW_MAJOR = 0, /* row i of a matrix is contiguous, rows ld elements apart (tcj_gemm) */
  TCJ_ORDER_COL_MAJOR = 1, /* column j is contiguous, columns ld apart: cuBLAS, Fortran BLAS */
} tcj_order;

/* Grouped GEMM (tcj_gemm_desc.group_mode): the groups of a Mixture-of-Experts layer in one call. */
typedef enum tcj_group_mode {
  TCJ_GROUP_NONE = 0,         /* one GEMM, or a strided batch */
  TCJ_GROUP_M_CONTIGUOUS = 1, /* groups of rows one after another in A, C and D */
  TCJ_GROUP_M_MASKED = 2,     /* group g: the first counts[g] rows of entry g of a strided batch */
  TCJ_GROUP_K_CONTIGUOUS = 3, /* groups of K one after another (weight gradients); one D each */
} tcj_group_mode;

/* What a grouped call does with row r of its result when rows are scattered into D
 * (tcj_gemm_desc.scatter_d): the MoE combine's two forms. */
typedef enum tcj_scatter_mode {
  TCJ_SCATTER_STORE = 0, /* written to row scatter_d[r] (a permutation: token-major rows, summed after) */
  TCJ_SCATTER_ADD = 1,   /* added into row scatter_d[r] by f32 atomics (rows of a token repeat) */
} tcj_scatter_mode;

/* Start from TCJ_GEMM_DESC_INIT or tcj_gemm_desc_init() (alpha and alpha_f64 1, everything else
 * 0), set what you need. Later versions add fields only at the end; struct_size says which
 * fields the caller knows. */
typedef struct tcj_gemm_desc {
  size_t struct_size; /* sizeof(tcj_gemm_desc) as the caller was compiled */
  tcj_op op_a, op_b;
  int64_t m, n, k;
  const void *a;
  tcj_dtype a_type;
  int64_t lda;
  const void *b;
  tcj_dtype b_type;
  int64_t ldb;
  const void *c; /* may be NULL when beta == 0 and beta_ptr is NULL */
  tcj_dtype c_type;
  int64_t ldc;
  void *d; /* the output; NULL: D is C (d_type, ldd and stride_d are then ignored) */
  tcj_dtype d_type;
  int64_t ldd;
  float alpha, beta;
  /* Device pointers to one float each: when set, the kernel reads alpha (beta) there at run
   * time instead of the value above, so a captured CUDA graph picks up new values at every
   * replay. With beta_ptr, C must be given (a zero there skips reading it). */
  const float *alpha_ptr, *beta_ptr;
  const void *bias; /* device pointer, bias_type elements; NULL with TCJ_BIAS_NONE */
  tcj_dtype bias_type; /* TCJ_BF16, TCJ_F16 or TCJ_F32 */
  tcj_bias_kind bias_kind;
  /* TCJ_ACT_SWIGLU (gated; the MoE and Llama MLP up-projection): D has n columns and op(B) 2n.
     op_b T: B is stored 2n x k (ldb >= k), rows [0, n) the gate weights, rows [n, 2n) the up
     weights (vLLM's w13 [2I, H]); op_b N: B is stored k x 2n (ldb >= 2n), columns [0, n) gate,
     [n, 2n) up. With g = alpha * (A B)[i, j] + bias[j] and u = alpha * (A B)[i, n + j] +
     bias[n + j] (TCJ_BIAS_COL only, and then the bias holds 2n values: gate then up),
     D[i, j] = silu(g) * u, silu(x) = x / (1 + e^-x). A batch's or a group's stride_b counts
     the whole 2n-column B, stride_bias the whole 2n values (group g's bias at bias + g *
     stride_bias). Grouped (both M modes) and ungrouped (one GEMM or a strided batch) calls, on
     every recipe that runs f16 and bf16 (C and D f16, bf16 or f32). Refused
     (TCJ_ERROR_NOT_SUPPORTED, naming the field): reading C (beta != 0 or beta_ptr set), a user
     epilogue, TCJ_BIAS_ROW, TCJ_ORDER_COL_MAJOR, operands other than f16 and bf16 (fp8, tf32,
     f32; s8 and f64 take no activation), 2n past 2^31 - 1. SwiGLU kernels never split K, have
     no generic kernel and pack nothing (as grouped calls: in every tcj_jit_mode the first call
     of a class compiles its kernel in the caller's thread, unless the disk cache has it; TCJ_TUNE
     does not tune them): rows of A and B must be 4-byte aligned, and with op_b N so must n
     elements (the up half's start), else TCJ_ERROR_NOT_SUPPORTED. */
  tcj_activation activation;
  /* Strided batch: 0 or 1 is one GEMM. Strides in elements, >= 0; 0 broadcasts. */
  int64_t batch_count;
  int64_t stride_a, stride_b, stride_c, stride_d, stride_bias;
  /* A user epilogue: NUL-terminated source defining TCJ_EPILOGUE_SIGNATURE, or NULL. Compiled
   * once per kernel with NVRTC and cached on disk with the kernel, keyed by a hash of the source
   * and, where NVRTC is installed, its version (a new NVRTC builds new kernels). A process
   * without NVRTC is served the kernel any NVRTC compiled from the same source for the same
   * problem class and GPU (a cache tcj-warmup filled elsewhere); a kernel not cached then
   * fails with TCJ_ERROR_NOT_SUPPORTED. Compile errors come back as TCJ_ERROR_COMPILE with
   * NVRTC's log in tcj_last_error. */
  const char *epilogue_source;
  const void *epilogue_params; /* passed to tcj_epilogue as is (a device pointer, usually) */

  /* ---- fp8 operands (TCJ_E4M3, TCJ_E5M2; since 0.3) ---------------------------------------
     The scales of cuBLASLt's fp8 GEMMs: the line that computes v in the formula above becomes
       v = alpha * scale_a * scale_b * sum_k op(A)[i,k] * op(B)[k,j] + beta * C[i,j]
     and, after the bias, activation and user function, D = saturate(scale_d * v) when D is fp8
     (e4m3 saturates at +-448, e5m2 at +-57344; NaN stays NaN). amax_d receives max |v| over
     every element of D (before scale_d; NaN elements are left out, as fmaxf does), the value
     an fp8 layer chain needs for its next scale. amax_d must not overlap any operand, scale or
     scalar of the call (it is zeroed before they are read). Only fp8 operands take these fields; zeros (TCJ_GEMM_DESC_INIT) mean no scaling. */
  tcj_scale_mode scale_mode;
  /* TCJ_SCALE_TENSOR: device pointers to one float each, read at run time (NULL: 1). A host
     scale needs no field: multiply it into alpha, which is the same thing.
     TCJ_SCALE_BLOCK: DeepSeek-V3's fine-grained scales, device arrays of floats, both
     required. scale_a: m x ceil(k / 128), row-major: scale_a[i * ceil(k / 128) + kb] scales
     op(A)[i, 128 kb .. 128 kb + 127]. scale_b: ceil(n / 128) x ceil(k / 128), row-major, one
     per 128 x 128 block of op(B): scale_b[(j / 128) * ceil(k / 128) + kb]. Each 128-long
     partial sum is multiplied by its two scales in fp32. Block scales run on sm_90a only, one
     GEMM (or a grouped call) per call, no batch; operands other than op_a N / op_b T are first
     transposed into scratch, so they need packing (not tcj_options.disable_packing; grouped
     calls, which pack nothing, need op_a N and op_b T). Grouped: scale_a is indexed by D's row
     as above with m the total rows (TCJ_GROUP_M_MASKED: G entries of m rows, entry g's at
     scale_a + g * m * ceil(k / 128)); group g's B blocks are at scale_b + g * stride_scale_b.
     TCJ_SCALE_ROW (torch._scaled_mm's rowwise scales): device arrays, NULL meaning all 1:
     scale_a one float per row of D (m values; TCJ_GROUP_M_MASKED: G entries of m, row i of
     group g at g * m + i), scale_b one per column (n values; group g's at scale_b + g *
     stride_scale_b), and v = alpha * scale_a[i] * scale_b[j] * sum_k ... + beta * C[i,j]. One
     GEMM or a grouped call (a batch: TCJ_ERROR_NOT_SUPPORTED); every arch fp8 runs on. A
     column-major call's scale_a still scales the caller's rows of D and scale_b its columns.
     Every scale array must not overlap D (TCJ_ERROR_INVALID_VALUE). */
  const float *scale_a, *scale_b;
  const float *scale_d; /* device pointer to one float (NULL: 1); only with an fp8 D */
  float *amax_d;        /* device pointer to one float, or NULL; written by the call */
  /* 0 (default): the tensor cores' partial sums are added into fp32 registers every 128
     elements of K, which keeps fp32 accuracy at any K (Hopper's fp8 tensor cores accumulate
     with fewer mantissa bits than fp32). 1: accumulate in the tensor cores throughout, like
     cuBLASLt's FAST_ACCUM: faster, with an error that grows with K. Not with block scales. */
  int fast_accum;

  /* ---- compute mode (since 0.4) -----------------------------------------------------------
     How fp32 products are formed (tcj_compute); 0, TCJ_COMPUTE_DEFAULT, picks by the operand
     types. A mode that does not fit the operands (3xTF32 of f16 data, say) is
     TCJ_ERROR_INVALID_VALUE. */
  tcj_compute compute;

  /* ---- fp64 operands (TCJ_F64; since 0.4) -------------------------------------------------
     A, B, C and D all TCJ_F64: products and sums in fp64 on the tensor cores (DMMA), and the
     scalars in double: alpha_f64 and beta_f64 take the place of alpha and beta, and alpha_ptr
     and beta_ptr, when set, point to one double each. tcj_gemm's float scalars convert
     exactly. f64 takes no bias, activation or user epilogue.
     The pair of the other precision is not read and must stay at TCJ_GEMM_DESC_INIT's values
     (since 1.0): with f64 operands alpha == 1 and beta == 0, with any other operands
     alpha_f64 == 1 and beta_f64 == 0; anything else is refused (TCJ_ERROR_INVALID_VALUE, naming
     the field) as a likely mistake. So a descriptor zeroed and filled field by field, not
     started from TCJ_GEMM_DESC_INIT or tcj_gemm_desc_init(), is refused for the 0 there instead
     of running with an alpha of 0 nobody set. */
  double alpha_f64, beta_f64;

  /* ---- storage order (since 1.0) ----------------------------------------------------------
     TCJ_ORDER_COL_MAJOR: A, B, C and D (and the bias, a vector either way) are column-major, as
     cuBLAS and Fortran BLAS take them, with their conventions exactly: A is m x k (lda >= m)
     when op_a == N, k x m (lda >= k) when T; B is k x n (ldb >= k) when N, n x k (ldb >= n) when
     T; C and D are m x n (ldc, ldd >= m); a batch entry starts stride_x elements after the
     previous one. Everything else reads as above with (i, j) the caller's row and column:
     TCJ_BIAS_COL adds bias[j] to column j (n values), TCJ_BIAS_ROW bias[i] to row i (m values),
     and a user epilogue gets row = i and col = j. Messages name the caller's fields. tcj runs
     the row-major problem D^T = op(B)^T op(A)^T + ..., which is the same memory: no data moves
     and the same kernels serve (a column-major call is as fast as its swapped row-major one).
     Not with TCJ_SCALE_BLOCK (TCJ_ERROR_NOT_SUPPORTED: its scales are per row of A and per block
     of B, which the swap does not preserve). */
  tcj_order order;

  /* ---- grouped GEMM (since 1.0) -----------------------------------------------------------
     One launch runs G = group_count GEMMs that share n, k, the types, the layouts and the
     epilogue, each with its own rows, its own B and its own bias. The group sizes are read
     from device memory by the kernel, so the call never waits for the host, is capturable in a
     CUDA graph, and a graph replay picks up the offsets or counts the router wrote since. The
     kernel does not depend on the sizes: one compile serves every routing.
     TCJ_GROUP_M_CONTIGUOUS (torch._grouped_mm's `offs`): m is the total rows of A (op_a N:
       m x k; op_a T: k x m), C and D (m x n). Group g is rows [end[g-1], end[g]) (end[-1] = 0)
       and computes, for those rows,
         D_g = act(alpha * op(A_g) op(B_g) + beta * C_g + bias_g)  (and the user function)
       with B_g = b + g * stride_b and bias_g = bias + g * stride_bias (elements). Any group
       size from 0, no alignment or padding of the offsets. Rows of D past end[G-1] are not
       written. stride_a, stride_c and stride_d must be 0.
     TCJ_GROUP_M_MASKED (decode after expert-parallel dispatch): A, C and D are strided batches
       of G entries of m rows each (entry g starts g * stride_a, stride_c, stride_d elements
       in); group g is the first counts[g] rows of its entry, and only those are computed and
       written. B and the bias as above.
     TCJ_GROUP_K_CONTIGUOUS (weight gradients, dW_g = dY_g^T X_g): k is the total of the groups'
       depths (tokens); A is stored k x m (op_a T, lda >= m: dY [tokens, m]) and B k x n (op_b N,
       ldb >= n: X [tokens, n]), other ops are refused (TCJ_ERROR_NOT_SUPPORTED naming op_a or
       op_b). Group g is K range [end[g-1], end[g]) of both, and
         D_g = act(alpha * sum over the group's K of A^T B + beta * C_g + bias_g)
       with C and D strided batches of G entries of m x n (stride_c, stride_d; stride_c may be 0)
       and bias_g as above. An empty group still writes its D_g (beta * C_g + bias_g through the
       epilogue). stride_a and stride_b must be 0 (TCJ_ERROR_INVALID_VALUE); group_b_ptrs is not
       taken (TCJ_ERROR_NOT_SUPPORTED). Ends clamp to k as M's ends clamp to m. Kernels: below.
     nn.Linear weights [G, N, K] are op_b T with ldb = k, stride_b = n * k; [G, K, N] are
     op_b N with ldb = n, stride_b = k * n; stride_b 0 gives every group the same B.
     A user epilogue gets batch = the group index, row = the row of D (CONTIGUOUS: the global
     row; MASKED and K_CONTIGUOUS: the row within the entry) and col the column.
     Device values cannot be checked on the host, so the kernel clamps them: a bad array never
     makes it read or write outside the operands. end[g] is taken as min(max(end[g], end[g-1]),
     m) (an end below its predecessor makes an empty group), counts[g] as min(max(counts[g], 0),
     m). The arrays must hold G values when the kernel runs (stream order).
     Every mode: batch_count 0 or 1; f16 or bf16 operands with C and D f16, bf16 or f32, or
     (M modes) the fp8 pairs (e4m3/e5m2, C and D as ungrouped fp8 calls take them) with every
     scale mode (scale_mode, stride_scale_b; fp8 needs sm_89); host or device alpha and beta, a
     TCJ_BIAS_COL bias, any activation, TCJ_ACT_SWIGLU (M modes), a user epilogue, row_scale.
     Group fields set with TCJ_GROUP_NONE, a mode without its array or with another mode's, are
     refused (TCJ_ERROR_INVALID_VALUE, naming the field). Not supported yet
     (TCJ_ERROR_NOT_SUPPORTED, naming it): other operand types (s8, tf32, f32, f64),
     TCJ_BIAS_ROW, TCJ_ORDER_COL_MAJOR, operands whose rows are not 4-byte aligned (they would
     need packing, which grouped calls do not do), more than 2^31 - 1 tiles.
     Kernels: on sm_90a, M groups of 64 rows or more (group_rows_hint) whose A and B rows TMA
     can read (16-byte aligned; fp8 K-major) run on the sm90 recipe's persistent wgmma kernel,
     as do K groups of 64 expected rows of K or more; smaller groups (decode) and every group
     on other GPUs run on the sm80 recipe (mma.sync). On the sm90 kernel gathered rows of A (gather_a, k
     below 2^30) are copied by its producer with cp.async, and B by an array of pointers and K
     groups are read through tensor maps the producer rewrites for each group in device
     scratch: such calls take (stages + 1) x 128 bytes (twice that for K groups) per SM of
     scratch ("Scratch memory" above; tcj_gemm_ex_workspace_size says how much, 0 for every
     other grouped call).
     Grouped calls never split K and have no generic kernel: in every tcj_jit_mode
     (TCJ_JIT_GENERIC and TCJ_JIT_ASYNC too) a grouped class's first call compiles its kernel in
     the caller's thread, unless the disk cache has it; later calls find it loaded. TCJ_TUNE does
     not tune them. */
  tcj_group_mode group_mode;
  /* G. 0: no group, nothing to do (TCJ_SUCCESS, as m == 0); at most 2^31 - 1. */
  int64_t group_count;
  /* TCJ_GROUP_M_CONTIGUOUS: exactly one of these, device arrays of G ascending end rows
     (TCJ_GROUP_K_CONTIGUOUS: ascending end K indices). */
  const int32_t *group_ends32;
  const int64_t *group_ends64;
  /* TCJ_GROUP_M_MASKED: a device array of G row counts, each 0..m. */
  const int32_t *group_counts;
  /* Host: the rows a group is expected to have, for kernel selection only (the real sizes stay
     on the device); >= 0. 0: m / G (CONTIGUOUS), m (MASKED). TCJ_GROUP_K_CONTIGUOUS: the K a
     group is expected to have (0: k / G). */
  int64_t group_rows_hint;

  /* ---- Mixture-of-Experts extras (since 1.0) ----------------------------------------------
     Each is 0 (NULL) in TCJ_GEMM_DESC_INIT, which leaves it out. */
  /* Grouped calls with fp8 scales: elements from group g's scale_b to group g + 1's (0: one
     scale_b for every group); >= 0. TCJ_SCALE_TENSOR: group g's B scale is scale_b[g * stride]
     (a per-expert weight scale is stride 1); TCJ_SCALE_ROW: group g's n column scales start at
     scale_b + g * stride; TCJ_SCALE_BLOCK: group g's ceil(n / 128) x ceil(k / 128) blocks start
     there (a nonzero stride is at least that many). Set on a call that is not grouped or not
     fp8: TCJ_ERROR_INVALID_VALUE. */
  int64_t stride_scale_b;
  /* Grouped calls (TCJ_GROUP_M_CONTIGUOUS and TCJ_GROUP_M_MASKED): a device array of G device
     pointers, group g's B (laid out as b would be: op_b, ldb; with TCJ_ACT_SWIGLU its whole
     2n-column B), instead of b + g * stride_b; b must then be NULL and stride_b 0, and the array
     8-byte aligned and apart from D (TCJ_ERROR_INVALID_VALUE naming the field). Each pointer
     must be aligned as b would be: to 16 bytes, or to the largest power of two dividing ldb
     times the element size where that is less (16 bytes serves every layout). The pointers
     are device values: the kernel cannot check them and validation checks no extent of B (ldb
     is checked). fp8 scales index B's as without the array (stride_scale_b); not with
     TCJ_SCALE_BLOCK nor TCJ_GROUP_K_CONTIGUOUS (TCJ_ERROR_NOT_SUPPORTED). The array must hold
     G pointers when the kernel runs (stream order); each group's pointer is read once per
     tile. A pointer less aligned than asked is undefined behaviour: the kernel copies B in units
     of that alignment (compute-sanitizer reports the read past B's end). Kernels as for any
     grouped call (group_mode): on the sm90 kernel each CTA rewrites B's tensor map for each
     group it runs, in scratch. */
  const void *const *group_b_ptrs;
  /* TCJ_GROUP_M_CONTIGUOUS with op_a N only (TCJ_ERROR_NOT_SUPPORTED naming gather_a
     otherwise): a device array of m int32 row indices, 4-byte aligned and apart from D; row r
     of the problem reads row gather_a[r] of A (tokens sorted by expert without a permute copy).
     A then has gather_a_rows rows (a host value >= 1), lda elements apart, and its extent is
     checked with that many rows; an index outside [0, gather_a_rows) reads a row of zeros (so
     D's row is beta * C + bias through the epilogue). Indices may repeat. C, D, row_scale and
     every other per-row value stay in the problem's row order. gather_a without gather_a_rows
     or the reverse: TCJ_ERROR_INVALID_VALUE. fp8 operands take it with TCJ_SCALE_TENSOR only
     (TCJ_SCALE_ROW and TCJ_SCALE_BLOCK: TCJ_ERROR_NOT_SUPPORTED). */
  const int32_t *gather_a;
  int64_t gather_a_rows;
  /* A device array of floats that scales D's rows after the epilogue: D[i, j] = row_scale[i] *
     (the value after the bias, activation and user function), before scale_d and amax_d (amax_d
     sees the scaled value): the router weights of a MoE down-projection. m values (the row of D;
     contiguous groups: all m rows); TCJ_GROUP_M_MASKED and TCJ_GROUP_K_CONTIGUOUS: G entries
     of m (row i of group g at g * m + i); a strided batch: batch_count entries of m likewise. 4-byte aligned, apart from
     D (TCJ_ERROR_INVALID_VALUE). Every operand type that takes a fused epilogue (not f64:
     TCJ_ERROR_NOT_SUPPORTED), not with TCJ_ORDER_COL_MAJOR (TCJ_ERROR_NOT_SUPPORTED: the
     caller's rows are the columns of the D^T tcj runs). */
  const float *row_scale;
  /* The MoE combine: TCJ_GROUP_M_CONTIGUOUS only (TCJ_ERROR_NOT_SUPPORTED naming scatter_d
     otherwise), a device array of m int32 row indices, 4-byte aligned and apart from D; row r
     of the problem goes to row scatter_d[r] of D, which has scatter_d_rows rows (a host value
     >= 1), ldd elements apart, and is checked with that many rows. An index outside
     [0, scatter_d_rows) writes nothing. C is not read (beta 0, no beta_ptr), not with
     TCJ_ORDER_COL_MAJOR (each TCJ_ERROR_NOT_SUPPORTED); row_scale, the user epilogue's row and
     every other per-row value stay in the problem's row order. scatter_d without
     scatter_d_rows or the reverse: TCJ_ERROR_INVALID_VALUE. scatter_mode:
       TCJ_SCATTER_STORE: D[scatter_d[r], j] = the value, as any D is written (any D type, amax_d
         included). The indices should differ (e.g. the expert sort's permutation, which puts a
         token's top-k rows side by side for a sum afterwards: deterministic); of rows that share
         one, which row's values land is unspecified.
       TCJ_SCATTER_ADD: D[scatter_d[r], j] += the value, by f32 atomic adds (f32 atomics round to
         nearest and flush subnormals to zero), so indices may repeat (a token's top-k rows all
         land on its row) and the order of the additions, like torch's index_add_ on a GPU, is
         unspecified (the sums may differ in their last bits from run to run). D is f32
         (d_type TCJ_F32) and holds the values to add to: zero it first, or pass a residual or a
         shared expert's output; no amax_d (TCJ_ERROR_NOT_SUPPORTED). */
  const int32_t *scatter_d;
  int64_t scatter_d_rows;
  tcj_scatter_mode scatter_mode;
} tcj_gemm_desc;
#define TCJ_GEMM_DESC_INIT {.struct_size = sizeof(tcj_gemm_desc), .alpha = 1.0f, .alpha_f64 = 1.0} /* C; in C++ value-initialise and set alpha, alpha_f64 */

/* What TCJ_GEMM_DESC_INIT, TCJ_OPTIONS_INIT and TCJ_STATS_INIT do, for callers that cannot use
 * a C macro (FFI bindings, other languages): zero struct_size bytes at the pointer, set
 * struct_size to it and the defaults the macro sets (alpha = alpha_f64 = 1). struct_size is the
 * size of the struct as the caller declares it (sizeof, or the binding's layout): the library
 * never writes past it, so a library newer than the caller's header is safe. Returns
 * TCJ_ERROR_INVALID_VALUE for a NULL pointer or a size below the struct's first layout. */
TCJ_API tcj_status tcj_gemm_desc_init(tcj_gemm_desc *desc, size_t struct_size);
TCJ_API tcj_status tcj_options_init(tcj_options *opts, size_t struct_size);
TCJ_API tcj_status tcj_stats_init(tcj_stats *stats, size_t struct_size);

/* Runs desc on stream. Validates everything first: a bad descriptor returns
   TCJ_ERROR_INVALID_VALUE (or NOT_SUPPORTED) with a message naming the field, having launched
   and written nothing. Supported types as for tcj_gemm, with D of any C type the operands
   allow (f16|bf16 operands: C and D each f16, bf16 or f32). s8 (s32 out) takes a bias and ReLU
   but no other activation and no user epilogue. fp8 operands take D in f16, bf16, f32, e4m3
   or e5m2 and the scales above; their C (when read) is f16, bf16 or f32. */
TCJ_API tcj_status tcj_gemm_ex(tcj_engine *engine, const tcj_gemm_desc *desc, CUstream stream);
/* The scratch bytes tcj_gemm_ex(desc) needs; validates like it, launches nothing. */
TCJ_API tcj_status tcj_gemm_ex_workspace_size(tcj_engine *engine, const tcj_gemm_desc *desc, size_t *bytes);

#ifdef __cplusplus
}
#endif
#endif /* TCJ_H */
