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

typedef enum ptx_recipe { PTX_RECIPE_SM80 = 0 } ptx_recipe;

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
  int warps_m, warps_n;
  int stages;
  int align_a, align_b; /* bytes per cp.async of each operand: 16, 8 or 4 */
  int vec_c;            /* 1: C rows may be stored two elements at a time */
  /* Split-K: 0 = none; S >= 2: S CTAs share each tile's K range, write fp32 partial sums to a
   * workspace, and a second kernel (PTX_REDUCE_ENTRY) adds them and applies alpha/beta. */
  int split_k;
} tcj_kernel_cfg;

/* Canonical text. Returns the length written (excluding NUL) or -1 if it did not fit. */
int tcj_cfg_format(const tcj_kernel_cfg *cfg, char *buf, size_t size);
/* Parses text produced by tcj_cfg_format. Returns 0 on success, -1 on malformed text. */
int tcj_cfg_parse(const char *text, tcj_kernel_cfg *cfg);
/* Static checks of a config that ptxgen relies on; returns NULL if fine, else a reason. */
const char *tcj_cfg_check(const tcj_kernel_cfg *cfg);

/* Derived facts. */
static inline int tcj_cfg_threads(const tcj_kernel_cfg *c) { return 32 * c->warps_m * c->warps_n; }
static inline int tcj_cfg_slices(const tcj_kernel_cfg *c) { return c->split_k >= 2 ? c->split_k : 1; }
/* K tiles each slice runs: ceil(ceil(k / bk) / slices). */
static inline int64_t tcj_cfg_slice_tiles(const tcj_kernel_cfg *c) {
  int64_t kt = (c->k + c->bk - 1) / c->bk, s = tcj_cfg_slices(c);
  return (kt + s - 1) / s;
}
int tcj_cfg_smem_bytes(const tcj_kernel_cfg *cfg); /* dynamic shared memory of the kernel */

#endif
