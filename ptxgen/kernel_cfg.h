/* tcj_kernel_cfg: the contract between engine/select, ptxgen and the cache. A plain struct
 * with a canonical one-line text form (cache key, logs, tcj-ptx); parse(format(c)) == c. */
#ifndef TCJ_KERNEL_CFG_H
#define TCJ_KERNEL_CFG_H

#include <stddef.h>
#include <stdint.h>

/* Element types the recipes know, independent of the public enum (ptxgen needs no tcj.h). */
#define PTX_ELEM_LIST(X) \
  X(PTX_E_F16, "f16", 2)  \
  X(PTX_E_BF16, "bf16", 2) \
  X(PTX_E_TF32, "tf32", 4) \
  X(PTX_E_F32, "f32", 4)  \
  X(PTX_E_S8, "s8", 1)    \
  X(PTX_E_S32, "s32", 4)

typedef enum ptx_elem {
#define PTX_ELEM_ENUM(e, name, size) e,
  PTX_ELEM_LIST(PTX_ELEM_ENUM)
#undef PTX_ELEM_ENUM
  PTX_E_COUNT
} ptx_elem;

const char *ptx_elem_name(ptx_elem e);
int ptx_elem_size(ptx_elem e);

/* sm80: mma.sync, every arch from sm_80 on. sm90: wgmma + TMA, sm_90a only. */
typedef enum ptx_recipe { PTX_RECIPE_SM80 = 0, PTX_RECIPE_SM90 = 1 } ptx_recipe;

typedef struct tcj_kernel_cfg {
  ptx_recipe recipe;
  int sm;          /* target arch number: 80, 86, 89, 90, ... */
  int arch_suffix; /* 'a' for sm_90a-style targets, 0 otherwise */
  ptx_elem ab;     /* operand type (A and B are the same) */
  ptx_elem c;      /* C/D type */
  int op_a_t;      /* 1: op(A) = A^T, A stored k x m (M contiguous) */
  int op_b_t;      /* 1: op(B) = B^T, B stored n x k (K contiguous) */
  int64_t n, k;    /* baked; M is a runtime argument */
  int bm, bn, bk;  /* CTA tile in elements */
  /* sm80: the warp grid of the CTA. sm90: the grid of consumer warpgroups (each 128 threads;
   * one producer warpgroup comes on top). */
  int warps_m, warps_n;
  int stages;
  int align_a, align_b; /* bytes per cp.async of each operand: 16, 8 or 4 (sm90: 16, TMA) */
  /* Elements of C per store (and per load when beta != 0): sm80 1 or 2; sm90 1, 2, 4 or 8, at
   * most 16 bytes and dividing n. */
  int vec_c;
  /* Split-K: 0 = none; S >= 2: S CTAs share each tile's K range, write fp32 partial sums to a
   * workspace, and a second kernel (PTX_REDUCE_ENTRY) adds them and applies alpha/beta. */
  int split_k;
  /* sm90 only: 0 = no cluster; 2 = clusters of two CTAs along M that share each B tile through
   * TMA multicast (each loads half of it for both). */
  int cluster_m;
  /* sm90 only: 0 = cooperative (the consumer warpgroups split each tile's rows); 1 = ping-pong
   * (two consumers take alternate tiles, each the whole tile, and take turns at the tensor
   * cores, so one's epilogue runs under the other's mainloop). */
  int pingpong;
} tcj_kernel_cfg;

/* Canonical text. Returns the length written (excluding NUL) or -1 if it did not fit. */
int tcj_cfg_format(const tcj_kernel_cfg *cfg, char *buf, size_t size);
/* Parses text produced by tcj_cfg_format. Returns 0 on success, -1 on malformed text. */
int tcj_cfg_parse(const char *text, tcj_kernel_cfg *cfg);
/* Static checks of a config that ptxgen relies on; returns NULL if fine, else a reason. */
const char *tcj_cfg_check(const tcj_kernel_cfg *cfg);
const char *tcj_recipe_name(ptx_recipe r); /* "sm80", "sm90" */

/* Derived facts. */
static inline int tcj_cfg_threads(const tcj_kernel_cfg *c) {
  return c->recipe == PTX_RECIPE_SM90 ? 128 * (1 + c->warps_m * c->warps_n) : 32 * c->warps_m * c->warps_n;
}
static inline int tcj_cfg_slices(const tcj_kernel_cfg *c) { return c->split_k >= 2 ? c->split_k : 1; }
/* K tiles each slice runs: ceil(ceil(k / bk) / slices). */
static inline int64_t tcj_cfg_slice_tiles(const tcj_kernel_cfg *c) {
  int64_t kt = (c->k + c->bk - 1) / c->bk, s = tcj_cfg_slices(c);
  return (kt + s - 1) / s;
}
int tcj_cfg_smem_bytes(const tcj_kernel_cfg *cfg); /* dynamic shared memory of the kernel */

/* sm90 shared memory: [slack to align to 1024][stages x (A tile, B tile)][epilogue staging of
 * each consumer][full and empty mbarriers]. The 128-byte swizzle atom is 1024 bytes, so tiles
 * start 1024-aligned. Staging holds 64 rows x 32 fp32 accumulators at a 160-byte pitch (the
 * 32-byte pad keeps the fragment writes free of bank conflicts). */
#define TCJ_SM90_ALIGN 1024
#define TCJ_SM90_EPI_ROWS 64
#define TCJ_SM90_EPI_COLS 32
#define TCJ_SM90_EPI_PITCH 160
#define TCJ_SM90_EPI_BYTES (TCJ_SM90_EPI_ROWS * TCJ_SM90_EPI_PITCH)

#endif
