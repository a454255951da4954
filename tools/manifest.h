/* SPDX-License-Identifier: Apache-2.0 */
/* Problem manifests (the format of bench/suite.yaml), shared by tcj-warmup and the profiler:
 * a YAML file of GEMM problems whose sizes may be lists or grids, expanded here into a flat
 * array. Every error names FILE:LINE:COL (1-based) and the offending key or value.
 * `dtype:` is the operands' type: f16, bf16, f32 (TCJ_F32: fp32 accuracy), tf32 (TCJ_TF32: the
 * fast tf32 path), f64, e4m3, e5m2 or s8; C defaults to the operands' type for f16 and f64, f32
 * for f32 and tf32, s32 for s8 and bf16 otherwise.
 * Beyond tcj_gemm, a problem may ask for what tcj_gemm_ex does: `epilogue:` (a per-column bias
 * and an activation), `batch:` (a strided batch, `broadcast_b: true` for one B), `d_dtype:` (a
 * D apart from C, which is then not read; e4m3 or e5m2 for fp8 operands), `epilogue_source:` (a
 * user epilogue's .cu file, relative to the manifest's directory), and for fp8 operands
 * `b_dtype:` (B of the other fp8 type), `fast_accum: true` and `scale: block` or `scale: row`
 * (block or row scales). The MoE extras: `epilogue: swiglu` / `bias_swiglu`, `row_scale: true`,
 * and for grouped problems `b_ptrs: true`, `gather: true`, `scatter: store|add` and `group: {mode:
 * k, ...}`.
 * `group:` makes a grouped GEMM (a Mixture-of-Experts layer, tcj_gemm_desc.group_mode): see
 * manifest_group. */
#ifndef TCJ_TOOLS_MANIFEST_H
#define TCJ_TOOLS_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

#include "tcj.h"

#define MANIFEST_MAX_SIZE 2147483647LL  /* m, n, k: the engine passes M as a 32-bit value */
#define MANIFEST_MAX_PROBLEMS (1u << 20) /* after expansion: a typo in a grid must not eat RAM */
#define MANIFEST_MAX_BATCH 2147483647LL   /* batch_count is at most 2^31 - 1 */
#define MANIFEST_MAX_SOURCE (1u << 20)    /* bytes of an epilogue_source file */

/* `epilogue:` values: a per-column bias (TCJ_BIAS_COL, n values of D's type, f32 when D is s32,
 * C's type when D is fp8: nn.Linear's bias) and an activation. name, enum, bias, activation.
 * swiglu (TCJ_ACT_SWIGLU): n is D's columns; B holds 2n (gate rows then up rows with op_b T, as
 * vLLM's w13), the bias 2n values. */
#define MANIFEST_EPILOGUE_LIST(X)                                                 \
  X("none", MANIFEST_EPI_NONE, TCJ_BIAS_NONE, TCJ_ACT_NONE)                       \
  X("bias", MANIFEST_EPI_BIAS, TCJ_BIAS_COL, TCJ_ACT_NONE)                        \
  X("bias_relu", MANIFEST_EPI_BIAS_RELU, TCJ_BIAS_COL, TCJ_ACT_RELU)              \
  X("bias_gelu", MANIFEST_EPI_BIAS_GELU, TCJ_BIAS_COL, TCJ_ACT_GELU)              \
  X("bias_gelu_tanh", MANIFEST_EPI_BIAS_GELU_TANH, TCJ_BIAS_COL, TCJ_ACT_GELU_TANH) \
  X("bias_silu", MANIFEST_EPI_BIAS_SILU, TCJ_BIAS_COL, TCJ_ACT_SILU)                \
  X("swiglu", MANIFEST_EPI_SWIGLU, TCJ_BIAS_NONE, TCJ_ACT_SWIGLU)                   \
  X("bias_swiglu", MANIFEST_EPI_BIAS_SWIGLU, TCJ_BIAS_COL, TCJ_ACT_SWIGLU)

typedef enum manifest_epilogue {
#define MANIFEST_EPI_ENUM(name, e, bias, act) e,
  MANIFEST_EPILOGUE_LIST(MANIFEST_EPI_ENUM)
#undef MANIFEST_EPI_ENUM
  MANIFEST_EPI_COUNT
} manifest_epilogue;

/* A reference number given with a problem (`cublas_h200: 23.6`), kept for tools that report
 * against it. */
typedef struct manifest_ref {
  char *key;
  double value;
} manifest_ref;

/* One `problems:` item as written. */
typedef struct manifest_entry {
  char *name;     /* `name:`, else "#<1-based position in problems:>" */
  int line, col;  /* of the item, 1-based */
  manifest_ref *refs;
  size_t nrefs;
  /* `epilogue_source:` as resolved (relative to the manifest's directory) and the file's text,
   * read when the manifest is; both NULL without one. */
  char *epilogue_path, *epilogue_text;
} manifest_entry;

/* `scale:` values: how fp8 operands are scaled (tcj_gemm_desc.scale_mode). */
#define MANIFEST_SCALE_LIST "tensor block row"

/* `group:` values: how a grouped problem's rows are routed to its groups (experts). */
typedef enum manifest_skew {
  MANIFEST_SKEW_UNIFORM, /* each routed row picks a group uniformly at random (seeded) */
  MANIFEST_SKEW_ZIPF,    /* ... with weight 1 / (rank + 1)^exponent, ranks a seeded permutation */
  MANIFEST_SKEW_EVEN,    /* no randomness: every group R / G rows, the first R % G one more */
} manifest_skew;
#define MANIFEST_SKEW_LIST "uniform zipf even"
#define MANIFEST_ZIPF_EXPONENT 1.0      /* zipf's default exponent */
#define MANIFEST_MAX_EXPERTS 65536      /* experts: (and so G) */
#define MANIFEST_MAX_ROUTED (1ll << 26) /* routed rows R: each is one draw */

/* A grouped problem (`group: {mode: contiguous, experts: 256, ep: 8, tokens: 4096, topk: 8,
 * skew: zipf, exponent: 1.2, seed: 1, ends: int64}`, or `{mode: masked, experts: 32, max_rows:
 * 128, tokens: 128, topk: 8}`): a Mixture-of-Experts layer of `experts` experts of which this GPU
 * holds G = experts / ep (expert parallelism; ep defaults to 1), `tokens` tokens each routed to
 * `topk` experts: R = tokens * topk / ep routed rows reach this GPU, each drawn to one of the G
 * groups by `skew` with `seed` (manifest_group_sizes; any group may get 0 rows). CONTIGUOUS: the
 * problem's m is R (A, C, D hold the groups one after another), the ends int32 (`ends: int32`,
 * the default) or int64. MASKED: m is `max_rows`, the rows of each of the G entries; a group drawn
 * more than max_rows rows keeps max_rows (a dispatch with that capacity drops the rest). n and k
 * as for any problem; B holds G weights (nn.Linear's [G, N, K]: op_b T is a grouped problem's
 * default), the bias G vectors. A grouped problem takes no m:, batch: or broadcast_b:.
 * `mode: k` (TCJ_GROUP_K_CONTIGUOUS, weight gradients dW_g = dY_g^T X_g): the R routed rows are
 * the problem's k, split into G groups along K the same way (`ends:` as contiguous); m: and n:
 * are given, k: is not; op_a T and op_b N are the defaults; D holds G entries of m x n. */
typedef struct manifest_group {
  tcj_group_mode mode; /* TCJ_GROUP_NONE (0): not grouped; M_CONTIGUOUS, M_MASKED, K_CONTIGUOUS */
  int64_t experts, ep, count; /* count: G = experts / ep */
  int64_t tokens, topk, rows; /* rows: R = tokens * topk / ep */
  int64_t max_rows;           /* MASKED: m */
  manifest_skew skew;
  double exponent;            /* zipf's; 0 for the others */
  uint64_t seed;              /* default 1 */
  int ends64;                 /* CONTIGUOUS and K: int64 ends (tcj_gemm_desc.group_ends64) */
} manifest_group;

/* The G group sizes of g (rows of each group: CONTIGUOUS summing to R, MASKED each at most
 * max_rows), deterministic for its seed. sizes holds g->count values. */
void manifest_group_sizes(const manifest_group *g, int64_t *sizes);

/* One problem after expansion of list- or grid-valued m, n, k (m outermost, k innermost). */
typedef struct manifest_problem {
  const char *name; /* the entry's name */
  size_t entry;     /* index into manifest.entries */
  int64_t m, n, k;
  tcj_dtype ab, c;  /* ab: F16 BF16 F32 TF32 F64 E4M3 E5M2 S8; c: F16 BF16 F32 F64 S32 */
  int has_b;        /* `b_dtype:` given (fp8 operands): B of type b; else B is of type ab */
  tcj_dtype b;      /* B's type: b_dtype, else ab */
  tcj_op op_a, op_b;
  manifest_epilogue epilogue;
  int64_t batch;     /* >= 1; every operand packed per entry */
  int broadcast_b;   /* one B (and one bias) for every entry: stride 0; only with batch >= 2 */
  int has_d;         /* `d_dtype:` given: D apart from C, of type d; C is not read (beta 0) */
  tcj_dtype d;       /* D's type: d_dtype (also E4M3 E5M2 for fp8 operands), else c */
  int fast_accum;    /* `fast_accum: true` (fp8 operands): tcj_gemm_desc.fast_accum = 1 */
  tcj_scale_mode scale; /* `scale:` (fp8 operands): TCJ_SCALE_TENSOR (default), BLOCK or ROW */
  int row_scale;     /* `row_scale: true`: tcj_gemm_desc.row_scale (the router weights), any problem */
  int b_ptrs;        /* `b_ptrs: true`: grouped (M modes): B through tcj_gemm_desc.group_b_ptrs */
  int gather;        /* `gather: true`: contiguous groups, op_a N: A's rows through gather_a: A holds
                        group: tokens rows, routed row r reads a seeded shuffle of them */
  int scatter;       /* `scatter: store|add`: 1 + tcj_scatter_mode (0: none); contiguous groups: D's
                        rows through scatter_d, D apart from C (c_dtype's type unless d_dtype) */
  const char *epilogue_path, *epilogue_source; /* the entry's, or NULL */
  manifest_group group; /* `group:`; mode TCJ_GROUP_NONE without one */
} manifest_problem;

typedef struct manifest {
  char *suite; /* `suite:`, or NULL */
  manifest_entry *entries;
  size_t nentries;
  manifest_problem *problems;
  size_t nproblems;
  char **targets; /* `targets:` archs ("sm_80", "sm_90a"), each known to eng_caps_for_arch */
  int *target_sm_counts; /* per target: its `sm_count:` ({arch: sm_90a, sm_count: 114}), 0 if none */
  size_t ntargets;
} manifest;

/* Parses the manifest at path. Returns 0, or -1 with "FILE:LINE:COL: message" (or "FILE:
 * message" when it cannot be read) in err; *out is then empty and needs no manifest_free. */
int manifest_load(const char *path, manifest *out, char *err, size_t err_size);

/* The same from memory; file names the text in messages. */
int manifest_parse(const char *text, size_t len, const char *file, manifest *out, char *err,
                   size_t err_size);

void manifest_free(manifest *m); /* NULL or an empty manifest: no-op */

/* "none", "bias_gelu", ...; "?" out of range. The bias kind and activation of an epilogue. */
const char *manifest_epilogue_name(manifest_epilogue e);
tcj_bias_kind manifest_epilogue_bias(manifest_epilogue e);
tcj_activation manifest_epilogue_act(manifest_epilogue e);

#endif
