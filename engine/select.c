/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel selection: problem + device caps -> plan (cfg + packing). Deterministic and free of
 * CUDA so that tcj-ptx and the warmup tool select exactly what a device would. */
#include "engine/select.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptxgen/ptx_ops.h"
#include "ptxgen/ptxgen.h"

/* Built-in caps for GPU-less selection. SM counts are the flagship part of each arch;
 * shared memory is cudaDevAttrMaxSharedMemoryPerBlockOptin. */
static const struct arch_caps {
  int sm, sm_count, max_smem_optin, has_a; /* has_a: an sm_NNa target exists */
} arch_table[] = {
  {80, 108, 166912, 0},  /* A100 */
  {86, 84, 101376, 0},   /* RTX 3090 / A40 */
  {87, 16, 166912, 0},   /* Jetson AGX Orin */
  {89, 128, 101376, 0},  /* RTX 4090 / L40 */
  {90, 132, 232448, 1},  /* H100 / H200 */
  {100, 148, 232448, 1}, /* B200 */
  {120, 170, 101376, 1}, /* RTX 5090 */
};

int eng_caps_for_arch(const char *arch, eng_device_caps *caps) {
  /* Canonical names only: "sm_", digits without sign, space or leading zero, an optional "a".
   * sscanf's %d would take "sm_+80" and "sm_ 80", which then compare unequal to "sm_80". */
  if (!arch || strncmp(arch, "sm_", 3) != 0 || arch[3] < '1' || arch[3] > '9') return -1;
  int sm = 0, used = 3;
  while (arch[used] >= '0' && arch[used] <= '9' && used < 6) sm = sm * 10 + (arch[used++] - '0');
  int suffix = 0;
  if (arch[used] == 'a' && arch[used + 1] == '\0') suffix = 'a';
  else if (arch[used] != '\0') return -1;
  for (size_t i = 0; i < sizeof arch_table / sizeof *arch_table; i++) {
    const struct arch_caps *t = &arch_table[i];
    if (t->sm != sm) continue;
    if (suffix && !t->has_a) return -1;
    caps->sm = sm;
    caps->arch_suffix = suffix;
    caps->sm_count = t->sm_count;
    caps->max_smem_optin = t->max_smem_optin;
    return 0;
  }
  return -1;
}

/* The tile menu, largest first. Warp tiles: 64x64 (large, medium), 64x32 (medium_8w), 32x32
 * (small, skinny). Measured on an H200 (tcj-bench, bf16 4096^3): 128x256 with 8 warps at one
 * CTA per SM reaches 0.65x cuBLAS, 128x128 with 4 warps at two CTAs per SM 0.54x. */
enum { TILE_LARGE, TILE_MEDIUM, TILE_MEDIUM_8W, TILE_SMALL, TILE_SKINNY, TILE_DECODE, TILE_DECODE_NARROW, TILE_COUNT };
static const struct tile {
  int bm, bn, warps_m, warps_n;
  int bk_bytes; /* K bytes per stage; 0: 64 */
} tiles[TILE_COUNT] = {
  [TILE_LARGE] = {128, 256, 2, 4, 0},
  [TILE_MEDIUM] = {128, 128, 2, 2, 0},
  /* The fallback for layouts whose fragments need more address registers (MN-major tf32 and
   * s8, see tcj_cfg_check); never a first choice. */
  [TILE_MEDIUM_8W] = {128, 128, 2, 4, 0},
  [TILE_SMALL] = {64, 64, 2, 2, 0},
  [TILE_SKINNY] = {32, 128, 1, 4, 0},
  /* m <= 16 (decode): one 16-row fragment block, and 128 bytes of K per stage so that a
   * K-major weight (nn.Linear's) is read in whole 128-byte lines. 64 columns where the weight
   * is split along K anyway: twice the CTAs over N, fewer slices. Measured on an H100
   * (tcj-prof, bf16, cluster splits): 16x64 with 4 slices against 16x128 with 5 or 8,
   * 1x6144x4096 NT 24.1 us against 24.5 and 27.0, 16x4096x14336 NT 47.2 against 49.7 and 49.6.
   * Without a split 16x128 ran 1x28672x4096 NN in 80.9 us, 16x64 in 91-92 (with 3-8 slices). */
  [TILE_DECODE] = {16, 128, 1, 4, 128},
  [TILE_DECODE_NARROW] = {16, 64, 1, 2, 128},
};

#define MAX_STAGES 4 /* past four stages the sm80 mainloop gains nothing measurable */
#define GRID_MAX 2147483647LL /* gridDim.x limit */
#define PACK_MIN_ELEMS (1LL << 20) /* below this a narrow copy costs less than a packing pass */

/* Elements of a rows x cols operand, saturated (m * k may reach 2^63). */
static int64_t elems(int64_t rows, int64_t cols) {
  return cols == 0 ? 0 : rows > INT64_MAX / cols ? INT64_MAX : rows * cols;
}
static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t tile_count(const eng_problem *p, int t) {
  return ceil_div(p->m, tiles[t].bm) * ceil_div(p->n, tiles[t].bn);
}

/* Shape heuristic: the biggest tile that still gives every SM work. Large tiles need a full
 * wave (tiles >= SMs); medium tiles accept half a wave because two CTAs fit per SM; m <= 32
 * (decode-like) takes the skinny tile; everything else the small tile. */
static int pick_tile(const eng_problem *p, const eng_device_caps *caps) {
  if (p->m <= 16) return ceil_div(p->n, 128) >= caps->sm_count ? TILE_DECODE : TILE_DECODE_NARROW;
  if (p->m <= 32) return TILE_SKINNY;
  if (p->m >= 128 && p->n >= 256 && tile_count(p, TILE_LARGE) >= caps->sm_count) return TILE_LARGE;
  if (p->m > 64 && tile_count(p, TILE_MEDIUM) >= caps->sm_count / 2) return TILE_MEDIUM;
  return TILE_SMALL;
}

/* The fields every config takes from the problem and the target, the rest zero. */
static void fill_problem(const eng_problem *p, const eng_device_caps *caps, ptx_recipe recipe,
                         tcj_kernel_cfg *c) {
  memset(c, 0, sizeof *c);
  c->recipe = recipe;
  c->sm = caps->sm;
  c->arch_suffix = caps->arch_suffix;
  c->ab = p->ab;
  c->c = p->c;
  c->op_a_t = p->op_a_t;
  c->op_b_t = p->op_b_t;
  c->n = p->n;
  c->k = p->k;
  c->d = p->d;
  c->bias = p->bias;
  c->bias_t = p->bias ? p->bias_t : PTX_E_F32;
  c->act = p->act;
  c->batched = p->batch > 1;
  c->user = p->user;
  c->user_t = p->user ? p->user_t : 0;
  c->b_other = p->b_other;
  /* fp8 mma.sync accumulates in fp32 as it goes: the sm80 recipe has one accumulation mode. */
  c->fast_accum = recipe == PTX_RECIPE_SM90 ? p->fast_accum : 0;
  c->block_scale = p->block_scale;
  c->tf32x3 = p->tf32x3;
}

/* A bias, an activation or a user function: work in the epilogue beyond alpha and beta. */
static int fused(const eng_problem *p) { return p->bias != PTX_BIAS_NONE || p->act != PTX_ACT_NONE || p->user; }

/* fp8 and 3xTF32, whose wgmma partial sums are promoted into fp32 (tcj_cfg_promotes). */
static int promoted(const eng_problem *p) { return (ptx_elem_is_fp8(p->ab) && !p->fast_accum) || p->tf32x3; }

/* Batch entries: at least 1 (a problem built field by field may leave the count 0). */
static int64_t batch_of(const eng_problem *p) { return p->batch > 1 ? p->batch : 1; }

/* Bytes of the wider of C (when read) and D: vectors of C and D have as many elements. */
static int cd_elem_size(const eng_problem *p) {
  int cs = ptx_elem_size(p->c), ds = ptx_elem_size(p->d);
  return cs > ds ? cs : ds;
}

static void fill_cfg(const eng_problem *p, const eng_device_caps *caps, int t, int align_a,
                     int align_b, tcj_kernel_cfg *c) {
  int es = ptx_elem_size(p->ab);
  fill_problem(p, caps, PTX_RECIPE_SM80, c);
  c->bm = tiles[t].bm;
  c->bn = tiles[t].bn;
  c->bk = (tiles[t].bk_bytes ? tiles[t].bk_bytes : 64) / es; /* 64 bytes: two 32-byte mma k-steps */
  /* 3xTF32 adds its partial sums into the accumulators once per K tile: 128-byte tiles halve
   * those roundings (emit_mma_step, gemm_sm80.c). */
  if (p->tf32x3) c->bk = 128 / es;
  c->warps_m = tiles[t].warps_m;
  c->warps_n = tiles[t].warps_n;
  c->align_a = align_a;
  c->align_b = align_b;
  c->vec_c = p->align_c >= 2 * cd_elem_size(p) ? 2 : 1;
  c->stages = 2;
  for (int s = MAX_STAGES; s > 2; s--) {
    c->stages = s;
    if (tcj_cfg_smem_bytes(c) <= caps->max_smem_optin) break;
    c->stages = 2;
  }
}

/* Split-K: when a problem's tiles leave SMs idle (less than one wave) and K is long, slices
 * of K run on separate CTAs, about two per SM in all, each at least MIN_SLICE_BYTES of K
 * long, with an fp32 workspace of at most SPLIT_WORKSPACE_MAX bytes. s8 is never split (its
 * s32 sums would round through fp32). Returns the slice count, or 0. */
#define MAX_SPLIT 16
#define MIN_SLICE_BYTES 256 /* of K per row: four 64-byte K tiles */
/* Below this much K per row (64 K tiles of 64 bytes) a CTA's whole K takes a few
 * microseconds, less than the split's workspace allocation and second launch cost (measured on
 * an H200: bf16 512^3 went from 6.8 to 10.5 us split four ways). */
#define MIN_SPLIT_K_BYTES 4096
#define SPLIT_WORKSPACE_MAX (256ll << 20)
static int pick_split(const eng_problem *p, const eng_device_caps *caps, const tcj_kernel_cfg *c) {
  /* Batches fill the GPU with their entries; batched kernels do not split. */
  if (p->ab == PTX_E_S8 || p->m == 0 || p->n == 0 || p->batch > 1) return 0;
  int64_t tiles = ceil_div(p->m, c->bm) * ceil_div(p->n, c->bn), kt = ceil_div(p->k, c->bk);
  int64_t tile_bytes = (int64_t)c->bk * ptx_elem_size(p->ab);
  if (tiles >= caps->sm_count || kt * tile_bytes < MIN_SPLIT_K_BYTES) return 0;
  int64_t s = 2 * caps->sm_count / tiles;
  if (s > kt * tile_bytes / MIN_SLICE_BYTES) s = kt * tile_bytes / MIN_SLICE_BYTES;
  if (s > MAX_SPLIT) s = MAX_SPLIT;
  while (s >= 2 && s * p->m * p->n * 4 > SPLIT_WORKSPACE_MAX) s--;
  if (s < 2) return 0;
  int64_t per = ceil_div(kt, s); /* equal slices; none left empty */
  s = ceil_div(kt, per);
  return s >= 2 ? (int)s : 0;
}

/* On sm_90 and newer the slices of a split tile reduce in a cluster instead (one launch, no
 * workspace, no second kernel): about two CTAs per SM, at most TCJ_CLUSTER_MAX slices. Measured
 * on an H100 (tcj-prof, bf16 16x64 decode tiles, 3/4/6/8 slices): 1x6144x4096 NT 23.9, 24.0,
 * 24.6, 25.4 us; 16x4096x14336 NT 49.0, 47.1, 48.2, 48.9. Even where eight slices leave SMs
 * idle this beat the workspace: 8x1024x4096 NT ran in 9.5-10.5 us in clusters of 4 or 8
 * slices against 12.5 us with 16 slices through the workspace. */
static void prefer_cluster_split(const eng_problem *p, const eng_device_caps *caps, tcj_kernel_cfg *c) {
  if (caps->sm < 90 || c->split_k < 2) return;
  tcj_kernel_cfg t = *c;
  int64_t tiles = ceil_div(p->m, c->bm) * ceil_div(p->n, c->bn), kt = ceil_div(p->k, c->bk);
  int64_t s = (2 * (int64_t)caps->sm_count + tiles / 2) / tiles; /* rounded */
  int64_t most = kt * c->bk * ptx_elem_size(p->ab) / MIN_SLICE_BYTES;
  if (s > most) s = most;
  if (s > TCJ_CLUSTER_MAX) s = TCJ_CLUSTER_MAX;
  if (s < 2) return;
  s = ceil_div(kt, ceil_div(kt, s)); /* equal slices; none left empty */
  t.split_k = (int)s;
  t.split_cluster = 1;
  if (s >= 2 && !tcj_cfg_check(&t) && tcj_cfg_smem_bytes(&t) <= caps->max_smem_optin) *c = t;
}

/* Operand copy width and whether it must be packed first. An operand aligned below 4 bytes
 * cannot use cp.async at all; a large one below 16 bytes pays more for narrow copies on every
 * tile than for one packing pass. */
static tcj_status plan_operand(const char *name, int align, int64_t elems, int allow_packing,
                               int *copy, int *pack, const char **why) {
  *pack = 0;
  *copy = align >= 16 ? 16 : align < 4 ? 4 : align;
  if (elems == 0) { *copy = 16; return TCJ_SUCCESS; } /* nothing is read */
  int narrow = align < 4, big = align < 16 && elems > PACK_MIN_ELEMS;
  if ((narrow || big) && allow_packing) {
    *pack = 1;
    *copy = 16;
  } else if (narrow) {
    static _Thread_local char msg[160];
    snprintf(msg, sizeof msg,
             "operand %s is only %d-byte aligned (pointer or leading dimension) and packing is "
             "disabled; the sm80 recipe copies at least 4 bytes at a time", name, align);
    *why = msg;
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  return TCJ_SUCCESS;
}

/* The sm80 recipe's plan: every arch from sm_80 on, every operand type. */
static tcj_status plan_sm80(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                            eng_plan *plan, const char **why) {
  memset(plan, 0, sizeof *plan);
  if (caps->sm < 80) {
    *why = "the sm80 recipe needs sm_80 or newer";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  if (ptx_elem_is_fp8(p->ab) && caps->sm < 89) {
    *why = "fp8 operands need sm_89 or newer (mma.sync e4m3/e5m2)";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  if (p->block_scale) {
    *why = "block scales run on the sm90 recipe only (sm_90a; other layouts than op_a N, op_b T are transposed "
           "first, which needs packing)";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  int align_a, align_b;
  tcj_status st = plan_operand("A", p->align_a, elems(p->m, p->k), allow_packing, &align_a, &plan->pack_a, why);
  if (st == TCJ_SUCCESS)
    st = plan_operand("B", p->align_b, elems(p->k, p->n), allow_packing, &align_b, &plan->pack_b, why);
  if (st != TCJ_SUCCESS) return st;

  /* Preferred tile first, then the others in menu order, so a narrow copy width that does not
   * divide among a tile's threads falls back to a tile where it does. */
  int first = pick_tile(p, caps);
  const char *reason = NULL;
  for (int attempt = 0; attempt < 2; attempt++) {
    for (int i = -1; i < TILE_COUNT; i++) {
      int t = i < 0 ? first : i;
      if (i == first) continue;
      fill_cfg(p, caps, t, align_a, align_b, &plan->cfg);
      if ((reason = tcj_cfg_check(&plan->cfg)) != NULL) continue;
      if (tcj_cfg_smem_bytes(&plan->cfg) > caps->max_smem_optin) { reason = "shared memory"; continue; }
      if (tile_count(p, t) > GRID_MAX / batch_of(p)) {
        *why = "m * n * batch_count needs more CTAs than a grid holds (2^31 - 1)";
        return TCJ_ERROR_NOT_SUPPORTED;
      }
      plan->cfg.split_k = pick_split(p, caps, &plan->cfg);
      if (plan->cfg.split_k && tcj_cfg_check(&plan->cfg)) plan->cfg.split_k = 0;
      prefer_cluster_split(p, caps, &plan->cfg);
      return TCJ_SUCCESS;
    }
    /* No tile takes the narrow copies: pack the narrow operands and try again. */
    if (!allow_packing || (align_a == 16 && align_b == 16)) break;
    if (align_a < 16 && elems(p->m, p->k) > 0) { plan->pack_a = 1; align_a = 16; }
    if (align_b < 16 && elems(p->k, p->n) > 0) { plan->pack_b = 1; align_b = 16; }
  }
  static _Thread_local char msg[160];
  snprintf(msg, sizeof msg, "no sm80 config fits this problem: %s", reason ? reason : "?");
  *why = msg;
  return TCJ_ERROR_INTERNAL;
}

/* ---- the sm90 recipe (sm_90a: wgmma + TMA, persistent, warp-specialised) ------------------ */

/* Tile menu: bm x bn, consumer warpgroups along M, the tile's throughput per SM relative to
 * the largest (a larger tile reuses each loaded byte for more wgmma work), and the problems it
 * is offered to. */
enum { OFFER_ALL, OFFER_FUSED, OFFER_PROMOTED };
static const struct tile90 { int bm, bn, warps_m; double rate; int pingpong, offer; } tiles90[] = {
  {128, 256, 2, 1.0, 0, OFFER_ALL}, {256, 128, 2, 1.0, 0, OFFER_ALL}, {128, 128, 2, 0.8, 0, OFFER_ALL},
  {128, 64, 2, 0.6, 0, OFFER_ALL},  {64, 128, 1, 0.6, 0, OFFER_ALL},  {64, 64, 1, 0.4, 0, OFFER_ALL},
  /* The largest tile a user epilogue allows (tcj_cfg_check refuses the two largest); offered to
   * fused epilogues only, so plain GEMMs choose as they always did. Rate: between 128x128 and
   * 128x256, by bytes loaded per MAC. */
  {128, 192, 2, 0.9, 0, OFFER_FUSED},
  /* The largest tile promoted fp8 allows (its partial sums in two column chunks). Rate from an
   * H100 (tcj-prof, e4m3 8192^3, promoted): 1294-1308 TFLOP/s against 1237 at 128x128, so
   * 0.8 x 1.05; at 4096^3 (e5m2) the tile's 6 waves lost to 128x128's 8 (1044 vs 1130), which
   * this rate also predicts. */
  {128, 192, 2, 0.84, 0, OFFER_PROMOTED},
};
#define N_TILES90 (int)(sizeof tiles90 / sizeof *tiles90)
/* Each tile, and its K split, is one candidate. */
_Static_assert(2 * sizeof tiles90 / sizeof *tiles90 <= ENG_MAX_CANDIDATES, "ENG_MAX_CANDIDATES");

/* 2: CTA pairs along M share each B tile by TMA multicast (where the tile allows it); 0: none.
 * Off: measured on an H200 (tcj-prof, bf16, 128x256 tiles) clusters tie with single CTAs:
 * 4096^3 184.5 vs 184.4 us, 8192^3 1421 vs 1434, 16384^3 13017 vs 13075, 8192x8192x1024 223.7
 * vs 224.1. L2 traffic is not what limits these kernels. */
#define SM90_CLUSTER_M 0
#define SM90_FP8_CLUSTER_MIN_ROWS 8
/* A B whose row pitch is not a multiple of 128 bytes (16-byte aligned, as TMA needs) costs L2
 * far more: each box row straddles two lines. Measured on an H100 (tcj-prof, bf16, us, 128x256
 * tiles alone and in CTA pairs that multicast B; cuBLAS in the same run):
 *   7000^3                 1759 -> 1207  (cuBLAS 988)
 *   2500x3000x5000         191 -> 138    (113)
 *   3000x5000x3000 NT      230 -> 163    (139)
 *   1500x1500x9000         155 -> 132    (224)
 *   4000^3                 187 -> 179    (178)
 *   6000x6000x1000         154 -> 135    (110)
 * and a tie or a small loss where K is short or the tile rows few: 9000x1504x1504 76.1 -> 76.0,
 * 2000^3 28.6 -> 29.9, 1000^3 17.3 -> 18.8, 128x5000x5000 56.3 -> 56.1 (one tile row). 4096^3,
 * whose pitch is aligned, 182.4 -> 181.9. So pairs multicast such a B past
 * SM90_PINGPONG_MAX_KT K tiles and from this many tile rows, on the tiles measured so (128 x
 * 128 and larger: 128x128 pairs gained as much, 256x128 pairs a little less). */
#define SM90_PITCH_CLUSTER_MIN_ROWS 4
/* ...and at any K from this many tile rows: 6000x6000x1000 (47 rows of 128, 16 K tiles) ran in
 * 135.0 us in pairs against 153.9, 9000x1504x1504 (71 rows, 24 K tiles) 76.0 against 76.1;
 * with fewer rows short K lost (2000^3, 16 rows: 29.9 against 28.6; 1000^3, 8 rows: 18.8
 * against 17.3). */
#define SM90_PITCH_CLUSTER_MANY_ROWS 32
/* Where no pair along M takes such a B, pairs along N share A instead (cluster_n), on 128-row
 * tiles whose A is at least half of a stage: 128x64 always, 128x128 on at most this many tile
 * rows. Measured on an H100 (tcj-prof --repeat 50, bf16, us, alone -> pairs along N, cuBLAS):
 *   128x5000x5000    128x64 45.3 -> 34.5   128x128 38.5 -> 34.3   (24.7)
 *   256x5000x5000    128x64 89.8 -> 59.8   128x128 56.7 -> 48.3   (28.9)
 *   128x3000x5000    128x64 31.8 -> 28.4   128x128 38.4 -> 32.6   (19.7)
 *   128x4096x5000 NT 128x64 39.6 -> 31.0                          (27.1)
 *   1000^3           128x64 15.8 -> 14.0   128x128 13.3 -> 15.3   (11.5)
 *   1000x1000x4000   128x64 35.1 -> 31.3   128x128 30.6 -> 32.9   (23.8)
 * and losses on 64-row tiles (64x5000x4096: 64x64 20.0 -> 22.2), on 128x256 (2000^3 28.7 ->
 * 33.5) and wherever B's pitch is aligned (256x4096x4096 128x64 20.2 -> 24.7; nn.Linear weights
 * at m = 64 and 128 lost 3-20%). The time model charges such pairs as it charges the tile alone
 * (SM90_PITCH_SPLIT_COST): a lower charge (1.12) changed no selection among the measured
 * problems (tests/data/measured_h100.txt). Fours (below) are not charged at all: charged like
 * pairs, 128x4096x5000 NT stayed on 64x64 at 1.50x its fastest config and 128x3000x5000 on a
 * K split at 1.10x. */
#define SM90_PITCH_SHARE_A_MAX_ROWS 2
/* Clusters of four share an operand twice as far. Measured on an H100 (tcj-prof --repeat 50,
 * bf16, us, pairs -> fours, cuBLAS in the same run):
 *   along N, at most SM90_PITCH_SHARE_A_MAX_ROWS tile rows:
 *     128x5000x5000    128x64 34.4 -> 27.9   (24.7)
 *     256x5000x5000    128x128 48.1 -> 39.1  (28.6)
 *     128x3000x5000    128x64 27.6 -> 23.5   (20.3)
 *     128x4096x5000 NT 128x64 31.0 -> 26.3   (26.9)
 *   but with 8 tile rows 1000^3 14.1 -> 16.1 and 1000x1000x4000 31.4 -> 38.1 (128x64);
 *   along M, 128x256 tiles:
 *     2500x3000x5000    137.9 -> 113.8 (113.4)    3000x5000x3000 NT 161.8 -> 136.5 (139.2)
 *     6000x6000x1000    133.3 -> 127.5 (108.2)    9000x1504x1504     74.6 -> 73.6   (61.5)
 *     1500x1500x9000    130.5 -> 133.1 (221.4)    4000^3            175.2 -> 212.6 (176.8)
 * (and 7000^3: 1204 -> 1076, cuBLAS 1064). Along M the fours won big where B's pitch also
 * splits 32-byte sectors (6000, 10000 and 14000 bytes: each 128-byte box row touches five
 * sectors, not four); where only lines are split (8000, 12000, 3008 bytes: 4000^3, 6000x6000x1000,
 * 9000x1504x1504, 1500x1500x9000 with B packed to 3008) they won little or lost. A cluster takes
 * four tile rows: from 16 of them the last cluster's idle CTAs are a small share. */
#define SM90_SECTOR_BYTES 32
#define SM90_PITCH_FOURS_MIN_ROWS 16
#define SM90_LINE_BYTES 128
/* Ping-pong for short K: with few K tiles per output tile the cooperative epilogue (which the
 * tensor cores wait for) weighs more; ping-pong consumers hide it under each other's mainloop.
 * Measured on an H200 (tcj-prof, bf16): 8192x8192x1024 224.1 us cooperative 128x256, 201.4 us
 * ping-pong 64x256; 2048^3 29.3 vs 29.1; but 4096^3 184.4 vs 186.1 and 4096x4096x14336 610 vs
 * 634, so only at or below this many K tiles. */
#define SM90_PINGPONG_MAX_KT 32
/* A fused epilogue (bias, activation) costs the cooperative kernel its whole time, with the
 * tensor cores idle; ping-pong hides it under the other consumer's mainloop at any K. */
/* The ring must hide TMA latency behind wgmma: fewer than 4 stages starve the consumers, and
 * past 8 the mbarrier phases gain nothing. */
#define SM90_MIN_STAGES 4
#define SM90_MAX_STAGES 8
#define SM90_K_BYTES 128 /* a K tile is one 128-byte swizzle line: 64 16-bit, 32 tf32, 128 s8 elements */

/* Largest C vector (8, 4, 2 or 1 elements) of at most 16 bytes that C's row alignment allows
 * and that divides n. */
static int sm90_vec_c(const eng_problem *p) {
  int ces = cd_elem_size(p);
  for (int v = 8; v > 1; v /= 2)
    if (v * ces <= 16 && p->align_c >= v * ces && p->n % v == 0) return v;
  return 1;
}

/* b_pitch_split: B's row pitch is not a multiple of SM90_LINE_BYTES; b_sector_split: nor of
 * SM90_SECTOR_BYTES. */
static void fill_sm90(const eng_problem *p, const eng_device_caps *caps, const struct tile90 *t, int b_pitch_split,
                      int b_sector_split, tcj_kernel_cfg *c) {
  fill_problem(p, caps, PTX_RECIPE_SM90, c);
  c->bm = t->bm;
  c->bn = t->bn;
  c->bk = SM90_K_BYTES / ptx_elem_size(p->ab);
  c->warps_m = t->warps_m;
  c->warps_n = 1;
  c->align_a = c->align_b = 16;
  c->vec_c = sm90_vec_c(p);
  c->pingpong = t->pingpong;
  c->cluster_m = SM90_CLUSTER_M;
  /* fp8 at twice bf16's MAC rate asks twice the L2 bandwidth per tile: there multicasting B
   * pays. Measured on an H100 (tcj-prof, e4m3 8192^3): promoted 128x128 1110 -> 1274 TFLOP/s,
   * fast 128x256 1434 -> 1467. With a single tile row the pair's second CTA has no work
   * (128x28672x4096: 580 -> 421), so only where the tile rows are many. */
  if (ptx_elem_is_fp8(p->ab) && ceil_div(p->m, t->bm) >= SM90_FP8_CLUSTER_MIN_ROWS) c->cluster_m = 2;
  if (b_pitch_split && t->bm >= 128 && t->bn >= 128 && ceil_div(p->m, t->bm) >= SM90_PITCH_CLUSTER_MIN_ROWS &&
      (ceil_div(p->k, c->bk) > SM90_PINGPONG_MAX_KT || ceil_div(p->m, t->bm) >= SM90_PITCH_CLUSTER_MANY_ROWS))
    c->cluster_m = 2;
  /* Fours and clusters along N were measured and GPU-tested with 16-bit operands only. */
  int rows = (int)ceil_div(p->m, t->bm), cols = (int)ceil_div(p->n, t->bn), sixteen_bit = ptx_elem_size(p->ab) == 2;
  if (sixteen_bit && c->cluster_m == 2 && b_sector_split && t->bn == 256 && rows >= SM90_PITCH_FOURS_MIN_ROWS) c->cluster_m = 4;
  c->cluster_n = 0;
  /* ...not where half of the tile's rows would be padding: 64 rows run 64-row tiles (64x5000x4096:
   * 64x64 alone 20.4 us, 128x64 in pairs along N 38.0). */
  if (sixteen_bit && b_pitch_split && !c->cluster_m && t->bm == 128 && !t->pingpong && cols >= 2 && 2 * p->m > t->bm &&
      (t->bn == 64 || (t->bn == 128 && rows <= SM90_PITCH_SHARE_A_MAX_ROWS)))
    c->cluster_n = rows <= SM90_PITCH_SHARE_A_MAX_ROWS && cols >= 4 ? 4 : 2;
  for (c->stages = SM90_MAX_STAGES; c->stages > SM90_MIN_STAGES; c->stages--)
    if (tcj_cfg_smem_bytes(c) <= caps->max_smem_optin) break;
  /* Checked once the config is whole (stages included), else every cluster would be dropped. */
  if (c->cluster_m && tcj_cfg_check(c)) c->cluster_m = 0; /* e.g. bn = 64 cannot split B */
  if (c->cluster_n && tcj_cfg_check(c)) c->cluster_n = 0;
}

/* A 16-bit K split runs its slices as CTA pairs along M that share each B tile by TMA
 * multicast, wherever the tile rows pair up: few tiles over deep K run from L2 (ncu on an H200, 512x512x
 * 65536 split 16 ways: L2 throughput 89%, DRAM 47%), and the pair halves B's reads. Measured on
 * an H200 (tcj-prof, bf16, us, alone -> in pairs, reduction included):
 *   512x512x65536    128x256 s16 70.2 -> 61.0   256x128 s16 69.9 -> 62.2
 *   1024x1024x32768  128x256 s8 117.5 -> 112.8  256x128 s8 -> 116.0
 *   2048x512x32768   256x128 s8 151.6 -> 137.5  128x256 s8 -> 118.5
 * A pair shares B, so the tile with more of B per CTA gains most: 128x256 before 256x128 (the
 * tie-break in sm90_score). Not where B's pitch splits lines, whose splits were measured alone,
 * nor for tf32 and fp8, whose splits in pairs are neither measured nor run on a GPU yet. */
static int split_in_pairs(const eng_problem *p, const tcj_kernel_cfg *c, int b_pitch_split) {
  return (p->ab == PTX_E_BF16 || p->ab == PTX_E_F16) && c->bm >= 128 && c->bn >= 128 &&
         ceil_div(p->m, c->bm) >= 2 && !b_pitch_split;
}

/* Time model, in microseconds: the persistent grid runs ceil(units / SMs) units on its busiest
 * SM, each its K tiles at a tile's relative throughput of the SM's wgmma peak; a unit is a tile,
 * or a (tile, K slice) pair when split, which adds writing and reading back the fp32 workspace
 * plus the reduction's launch. Unlike a wave-efficiency score this weighs padding: a 33x33
 * problem takes a 64x64 tile, not 128x256 (measured on an H200: m=1, n=4096, k=1024 ran 12.4 us
 * on 128x64, 9.1 us on 64x64). Returns the negated estimate (higher is better). */
#define SM90_MACS_PER_US 3.7e6  /* one SM: 2048 bf16 MACs per clock at ~1.8 GHz */
#define SM90_BYTES_PER_US 3.0e6 /* HBM, as a GEMM's epilogue and a reduction see it */
#define SM90_LAUNCH_US 3.0      /* one more kernel in the stream */
/* A B whose pitch splits lines, read without multicast: the mainloop's time over the
 * multicasting pair's, 1.04 to 1.46 in the measurements above SM90_PITCH_CLUSTER_MIN_ROWS. Lets a
 * pair without a K split beat a split tile, which cannot multicast (1500x1500x9000: 132 us
 * against 155 split three ways). */
#define SM90_PITCH_SPLIT_COST 1.35
static double sm90_score(const eng_problem *p, const eng_device_caps *caps, const struct tile90 *t,
                         int b_pitch_split, const tcj_kernel_cfg *c) {
  int64_t sms = caps->sm_count > 0 ? caps->sm_count : 1;
  int64_t waves = ceil_div(ptx_sm90_tiles(c, p->m) * tcj_cfg_slices(c) * batch_of(p), sms);
  /* wgmma's rate per byte of K is the same for every type: half of bf16's MACs for tf32, twice
   * for s8 (H100 peaks: 495, 989, 1979 dense TFLOP/TOP/s). */
  double macs_per_us = SM90_MACS_PER_US * 2.0 / ptx_elem_size(p->ab);
  double us = (double)waves * (double)tcj_cfg_slice_tiles(c) * (double)t->bm * (double)t->bn * (double)c->bk /
              (t->rate * macs_per_us);
  /* Fours along N that share A run as unclustered tiles do on a whole-line B (0.60-0.85 of pairs). */
  if (b_pitch_split && (!c->cluster_m || c->split_k) && c->cluster_n != 4) us *= SM90_PITCH_SPLIT_COST;
  /* No tile beats reading A and B and writing C once. */
  double floor_us = ((double)(p->m + p->n) * (double)p->k * ptx_elem_size(p->ab) +
                     (double)p->m * (double)p->n * ptx_elem_size(p->d)) * (double)batch_of(p) / SM90_BYTES_PER_US;
  /* At the floor, the tile that computes less padding wins the tie. */
  double compute_us = us;
  if (us < floor_us) us = floor_us + 1e-3 * compute_us;
  if (c->split_k)
    us += 2.0 * (double)c->split_k * (double)p->m * (double)p->n * 4.0 / SM90_BYTES_PER_US + SM90_LAUNCH_US;
  /* Splits of one area tie; the one that reads least from L2 per CTA (A's rows and B's, or its
   * half of B's in a pair) leads (measured above split_in_pairs). */
  if (c->split_k)
    us += 1e-3 * (double)(t->bm + t->bn / (c->cluster_m ? 2 : 1)) / (double)(t->bm + t->bn);
  return -us;
}

static tcj_status sm90_no(const char **why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static tcj_status sm90_no(const char **why, const char *fmt, ...) {
  static _Thread_local char msg[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  *why = msg;
  return TCJ_ERROR_NOT_SUPPORTED;
}

/* The sm90 recipe's plans for a problem, best first by the time model (eng_sm90_candidates), or
 * TCJ_ERROR_NOT_SUPPORTED with why it cannot run the problem. TMA reads whole 16-byte aligned
 * rows: an operand aligned below that is packed, or (packing disabled) the recipe does not
 * apply. */
static tcj_status sm90_candidates(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                                  eng_candidate *out, int *count, const char **why) {
  *count = 0;
  eng_plan base;
  memset(&base, 0, sizeof base);
  eng_plan *plan = &base; /* the packing every candidate shares */
  if (caps->sm != 90 || caps->arch_suffix != 'a')
    return sm90_no(why, "the sm90 recipe needs sm_90a (wgmma); the target is sm_%d%s", caps->sm,
                   caps->arch_suffix ? "a" : "");
  const ptx_wgmma_type *w = ptx_wgmma_type_of(p->ab);
  if (!w) return sm90_no(why, "the sm90 recipe takes f16, bf16, tf32, s8 or fp8 operands, not %s", ptx_elem_name(p->ab));
  if (p->m < 1 || p->n < 1 || p->k < 1) return sm90_no(why, "the sm90 recipe needs m, n and k >= 1");
  int es = ptx_elem_size(p->ab);
  /* wgmma reads tf32, s8 and fp8 K-major only: an MN-major operand is transposed into K-major
   * scratch first (PTX_TRANSPOSE_ENTRY), and the kernel is the one of the K-major problem. */
  eng_problem kmajor;
  int transpose_a = 0, transpose_b = 0;
  if (!w->mn_major && (p->op_a_t || !p->op_b_t)) {
    /* The pack's grid has a row of CTAs per 32 stored rows (k of them) in y, which stops at 65535. */
    int too_deep = ceil_div(p->k, PTX_TRANSPOSE_TILE) > 65535;
    if (!allow_packing || p->batch > 1 || too_deep)
      return sm90_no(why, "the sm90 recipe reads %s K-major only (A op N, B op T); this problem is op %c%c and "
                     "its transposing pack %s", ptx_elem_name(p->ab), p->op_a_t ? 'T' : 'N', p->op_b_t ? 'T' : 'N',
                     !allow_packing ? "is disabled" : p->batch > 1 ? "takes one GEMM, not a batch"
                                                     : "takes k up to 2097120");
    kmajor = *p;
    if (p->op_a_t) {
      kmajor.op_a_t = 0;
      kmajor.lda = eng_packed_ld(p->k, es);
      kmajor.align_a = 16;
      transpose_a = 1;
    }
    if (!p->op_b_t) {
      kmajor.op_b_t = 1;
      kmajor.ldb = eng_packed_ld(p->k, es);
      kmajor.align_b = 16;
      transpose_b = 1;
    }
    p = &kmajor;
  }
  int64_t ld_a = p->lda, ld_b = p->ldb;
  plan->pack_a = p->align_a < 16;
  plan->pack_b = p->align_b < 16;
  if ((plan->pack_a || plan->pack_b) && !allow_packing)
    return sm90_no(why, "operand %s is only %d-byte aligned (pointer or leading dimension), TMA needs "
                   "16, and packing is disabled", plan->pack_a ? "A" : "B",
                   plan->pack_a ? p->align_a : p->align_b);
  /* Stored shapes: A is m x k (N) or k x m (T); B is k x n (N) or n x k (T). */
  if (plan->pack_a) ld_a = eng_packed_ld(p->op_a_t ? p->m : p->k, es);
  if (plan->pack_b) ld_b = eng_packed_ld(p->op_b_t ? p->k : p->n, es);

  int b_pitch_split = (ld_b * es) % SM90_LINE_BYTES != 0, b_sector_split = (ld_b * es) % SM90_SECTOR_BYTES != 0;
  /* The two largest tiles lead, the one whose long side lies along the longer of m and n
   * first (128x256 when n >= m), so that it wins a tie; 128x256 always where B's pitch splits
   * lines, as its B box rows are the longer (measured on an H100, tcj-prof, bf16: 9000x1504x1504
   * 76.1 us against 81.1 on 256x128, 4000^3 187 against 200, 2500x3000x5000 191 against 197). */
  int order[N_TILES90];
  for (int i = 0; i < N_TILES90; i++) order[i] = i;
  if (p->m > p->n && !b_pitch_split) { order[0] = 1; order[1] = 0; }
  eng_candidate all[ENG_MAX_CANDIDATES];
  int n = 0;
  tcj_kernel_cfg c;
  const char *reason = "no tile";
  for (int i = 0; i < N_TILES90; i++) {
    const struct tile90 *t = &tiles90[order[i]];
    if ((t->offer == OFFER_FUSED && !fused(p)) || (t->offer == OFFER_PROMOTED && !promoted(p))) continue;
    fill_sm90(p, caps, t, b_pitch_split, b_sector_split, &c);
    if ((reason = tcj_cfg_check(&c)) != NULL) continue;
    if (tcj_cfg_smem_bytes(&c) > caps->max_smem_optin) {
      reason = "shared memory holds fewer than 4 stages";
      continue;
    }
    all[n].plan = base;
    all[n].plan.cfg = c;
    all[n++].est_us = -sm90_score(p, caps, t, b_pitch_split, &c);
    /* Few tiles and deep K: K slices may fill the idle SMs (pick_split's rule, as for sm80);
     * the model decides whether that beats the unsplit tile. */
    tcj_kernel_cfg split = c;
    split.cluster_m = 0;
    split.split_k = pick_split(p, caps, &split);
    if (split.split_k && split_in_pairs(p, &split, b_pitch_split)) {
      split.cluster_m = 2;
      if (tcj_cfg_check(&split)) split.cluster_m = 0;
    }
    if (split.split_k && !tcj_cfg_check(&split)) {
      all[n].plan = base;
      all[n].plan.cfg = split;
      all[n++].est_us = -sm90_score(p, caps, t, b_pitch_split, &split);
    }
  }
  if (n == 0) return sm90_no(why, "no sm90 tile fits: %s", reason);
  /* Best first; on a tie the earlier tile of the order above (a stable insertion sort). */
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && all[j].est_us < all[j - 1].est_us; j--) {
      eng_candidate tmp = all[j];
      all[j] = all[j - 1];
      all[j - 1] = tmp;
    }
  for (int i = 0; i < n; i++) {
    tcj_kernel_cfg *cfg = &all[i].plan.cfg;
    /* Not where B's pitch splits lines, unless an epilogue is fused: measured on an H100
     * (tcj-prof, bf16) ping-pong 64x256 ran 2000^3 in 46.2 us against 28.6 cooperative 128x256,
     * 6000x6000x1000 in 230.6 against 153.9. */
    if (cfg->bm == 128 && cfg->bn == 256 && !cfg->split_k &&
        ((ceil_div(p->k, cfg->bk) <= SM90_PINGPONG_MAX_KT && !b_pitch_split) || fused(p))) {
      /* The same CTA area as two 64x256 tiles, one per consumer. */
      static const struct tile90 pp = {64, 256, 2, 1.0, 1, OFFER_ALL};
      fill_sm90(p, caps, &pp, b_pitch_split, b_sector_split, &c);
      if (!tcj_cfg_check(&c) && tcj_cfg_smem_bytes(&c) <= caps->max_smem_optin) *cfg = c;
    }
    ptx_tmap_desc d;
    ptx_tmap_batch ba = {p->batch, base.pack_a ? eng_packed_stride(p, 0) : p->stride_a};
    ptx_tmap_batch bb = {p->batch, base.pack_b ? eng_packed_stride(p, 1) : p->stride_b};
    if (ptx_sm90_tmap(cfg, 0, p->m, ld_a, ba, &d) != 0 || ptx_sm90_tmap(cfg, 1, p->m, ld_b, bb, &d) != 0) {
      if (*count > 0) continue; /* the best candidate decides, as the tile barely matters here */
      return sm90_no(why, "TMA cannot address an operand (a dimension past 2^32, a stride past 2^40 bytes, or a "
                     "batch stride that is not a multiple of 16 bytes)");
    }
    /* D through TMA too, where the kernel would store it so (a leading dimension past 2^40
     * bytes, say): else narrower vectors, which take the staged stores that need no tensor map. */
    ptx_tmap_batch bd = {p->batch, p->stride_d};
    while (ptx_sm90_tma_store(cfg) && ptx_sm90_tmap_d(cfg, p->m, p->ldd, bd, &d) < 0 && cfg->vec_c > 1)
      cfg->vec_c /= 2;
    if (transpose_a) all[i].plan.pack_a = ENG_PACK_TRANSPOSE;
    if (transpose_b) all[i].plan.pack_b = ENG_PACK_TRANSPOSE;
    out[(*count)++] = all[i];
  }
  return TCJ_SUCCESS;
}

/* The sm90 recipe's plan: its best candidate. */
static tcj_status plan_sm90(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                            eng_plan *plan, const char **why) {
  eng_candidate all[ENG_MAX_CANDIDATES];
  int n = 0;
  memset(plan, 0, sizeof *plan);
  tcj_status st = sm90_candidates(p, caps, allow_packing, all, &n, why);
  if (st == TCJ_SUCCESS) *plan = all[0].plan;
  return st;
}

int eng_sm90_candidates(const eng_problem *p, const eng_device_caps *caps, int allow_packing, eng_candidate *out,
                        int max, const char **why) {
  eng_candidate all[ENG_MAX_CANDIDATES];
  int n = 0;
  if (sm90_candidates(p, caps, allow_packing, all, &n, why) != TCJ_SUCCESS) return -1;
  if (n > max) n = max;
  memcpy(out, all, (size_t)n * sizeof *out);
  return n;
}

void eng_problem_split3(eng_problem *p) {
  p->src = (struct eng_split_src){p->op_a_t, p->op_b_t, p->k, p->lda, p->ldb, p->stride_a, p->stride_b};
  int64_t kp = eng_split3_kp(p->k);
  p->tf32x3 = 1;
  p->ab = PTX_E_TF32;
  p->op_a_t = 0;
  p->op_b_t = 1;
  p->k = 3 * kp;
  p->lda = p->ldb = 3 * kp;
  p->align_a = p->align_b = 16;
  p->stride_a = p->src.stride_a ? p->m * p->lda : 0;
  p->stride_b = p->src.stride_b ? p->n * p->ldb : 0;
}

int64_t eng_packed_stride(const eng_problem *p, int is_b) {
  int t = is_b ? p->op_b_t : p->op_a_t;
  int64_t rows = is_b ? (t ? p->n : p->k) : (t ? p->k : p->m);
  int64_t cols = is_b ? (t ? p->k : p->n) : (t ? p->m : p->k);
  int64_t stride = is_b ? p->stride_b : p->stride_a;
  if (p->batch <= 1 || stride == 0) return 0;
  return eng_packed_ld(cols, ptx_elem_size(p->ab)) * rows;
}

tcj_status eng_select(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                      eng_plan *plan, const char **why) {
  return eng_select_tuned(p, caps, allow_packing, NULL, plan, why);
}

/* Recipe choice: sm_90a takes the sm90 plan when the problem allows one, except decode shapes
 * (m <= SKINNY_M, one 16-row fragment block) that the sm80 plan splits along K: few rows and
 * deep K leave most SMs idle without a split. Measured on an H200 (tcj-prof, bf16): split sm80
 * wins 1x6144x4096 (20.5 us vs 35.2 us sm90) and 1x4096x14336 (34.8 vs 99.0); sm90 wins
 * 128x4096x14336 (41.4 vs 75.7 split sm80); they tie on 512x512x65536 (148 vs 143). Past 16
 * rows the sm80 tiles hold 32 or 64 rows of warps that mostly idle on the weight's stream: on an
 * H100 (nn.Linear layout, us, sm80 split in a cluster vs sm90) 64x4096x4096 ran 29.3 vs 18.8,
 * 64x4096x14336 78.7 vs 50.0, 64x6144x4096 28.1 vs 23.8, 32x6144x4096 26.7 vs 24.8. */
#define SKINNY_M 16
/* Small problems stay on the sm80 recipe too: the persistent kernel's fixed costs (barrier
 * setup, three tensor maps encoded per call, packing both unaligned operands) outweigh wgmma
 * below about 645^3. Measured on an H200 (tcj-prof, bf16, us sm80 vs sm90): 512^3 6.7 vs 8.2,
 * 511^3 (odd ld, both packed) 21.1 vs 23.3, 255^3 16.9 vs 23.7; 1024^3 14.0 vs 9.3 and 1000^3
 * (odd ld) 17.3 vs 14.1 go the other way. */
#define SMALL_MNK (1ll << 28)
/* ...unless it streams a large K-major weight (nn.Linear's layout) without a K split: there the
 * sm90 kernel's TMA reads beat the 16-row sm80 tiles. Measured on an H100 (tcj-prof, us, sm90
 * against sm80): bf16 1x28672x4096 NT 82.6 vs 87.0, 1x16384x8192 NT 94.1 vs 97.9, e4m3
 * 1x28672x4096 NT 46.3 vs 47.4 (117 MB); with B N-major sm80 keeps the lead (1x28672x4096 NN
 * 81.3 vs 84.6). */
#define SM90_DECODE_MIN_WEIGHT_BYTES (100ll << 20)
static int streams_a_large_k_major_weight(const eng_problem *p) {
  double bytes = (double)p->n * (double)p->k * ptx_elem_size(p->ab) * batch_of(p);
  return p->m <= SKINNY_M && p->op_b_t && bytes >= (double)SM90_DECODE_MIN_WEIGHT_BYTES;
}
/* f64: the dmma recipe (gemm_dmma.c), whatever TCJ_RECIPE says (it names the other types'
 * recipes). 128x128 tiles of 8 warps (64x32 each) where they make half a wave, else 64x64 of
 * 4; K tiles of 16; as many stages (up to 4) as shared memory holds. */
static tcj_status plan_operand(const char *name, int align, int64_t elems, int allow_packing, int *copy, int *pack,
                               const char **why);

static tcj_status plan_dmma(const eng_problem *p, const eng_device_caps *caps, int allow_packing, eng_plan *plan,
                            const char **why) {
  memset(plan, 0, sizeof *plan);
  tcj_kernel_cfg *c = &plan->cfg;
  fill_problem(p, caps, PTX_RECIPE_DMMA, c);
  int big = ceil_div(p->m, 128) * ceil_div(p->n, 128) * batch_of(p) >= caps->sm_count / 2;
  c->bm = c->bn = big ? 128 : 64;
  c->warps_m = 2;
  c->warps_n = big ? 4 : 2;
  c->bk = 16;
  /* 8-byte rows copy 8 bytes at a time; a large operand is packed into 16-byte rows first, as
   * for the sm80 recipe: f64 4095^3 ran at 38.6 TFLOP/s on 8-byte copies against 49 at 4096^3
   * (H100). */
  tcj_status st = plan_operand("A", p->align_a, elems(p->m, p->k), allow_packing, &c->align_a, &plan->pack_a, why);
  if (st == TCJ_SUCCESS)
    st = plan_operand("B", p->align_b, elems(p->k, p->n), allow_packing, &c->align_b, &plan->pack_b, why);
  if (st != TCJ_SUCCESS) return st;
  c->vec_c = p->align_c >= 16 && p->n % 2 == 0 ? 2 : 1;
  for (c->stages = 4; c->stages > 2 && tcj_cfg_smem_bytes(c) > caps->max_smem_optin; c->stages--) {
  }
  *why = tcj_cfg_check(c);
  return *why ? TCJ_ERROR_NOT_SUPPORTED : TCJ_SUCCESS;
}

static tcj_status select_recipe(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                                eng_recipe_choice recipe, eng_plan *plan, const char **why) {
  static const char *ok = "";
  *why = ok;
  if (p->ab == PTX_E_F64) return plan_dmma(p, caps, allow_packing, plan, why);
  /* k == 0 has no mainloop for a recipe to run: the sm80 recipe's plain kernel scales C (the
   * sm90 recipe needs k >= 1), so a forced recipe still runs alpha == 0 and k == 0 calls. */
  if (recipe == ENG_RECIPE_SM90 && p->k > 0) {
    tcj_status st = plan_sm90(p, caps, allow_packing, plan, why);
    if (st != TCJ_SUCCESS) {
      static _Thread_local char msg[256];
      snprintf(msg, sizeof msg, "TCJ_RECIPE=sm90: %s", *why);
      *why = msg;
    }
    return st;
  }
  /* Block scales exist on the sm90 recipe only. */
  if (p->block_scale && recipe == ENG_RECIPE_AUTO && caps->sm == 90 && caps->arch_suffix == 'a')
    return plan_sm90(p, caps, allow_packing, plan, why);
  tcj_status st = plan_sm80(p, caps, allow_packing, plan, why);
  if (st != TCJ_SUCCESS || recipe == ENG_RECIPE_SM80 || (plan->cfg.split_k && p->m <= SKINNY_M)) return st;
  if (p->m * p->n <= SMALL_MNK / (p->k > 0 ? p->k : 1) / batch_of(p) && !streams_a_large_k_major_weight(p)) return st;
  eng_plan sm90;
  const char *no = NULL;
  if (plan_sm90(p, caps, allow_packing, &sm90, &no) == TCJ_SUCCESS) *plan = sm90;
  return TCJ_SUCCESS;
}

/* The specialised plan under a forced recipe and tile (either may be absent). */
static tcj_status select_forced(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                                const eng_tuning *tuning, eng_plan *plan, const char **why) {
  tcj_status st = select_recipe(p, caps, allow_packing, tuning ? tuning->recipe : ENG_RECIPE_AUTO, plan, why);
  /* TCJ_TILE: not f64's, and no tile of a k == 0 call (no mainloop; a host alpha of 0) */
  if (st != TCJ_SUCCESS || !tuning || plan->cfg.recipe == PTX_RECIPE_DMMA || p->k == 0) return st;
  const char *bad = eng_tile_override_apply(&tuning->tile, caps, plan);
  if (bad) {
    static _Thread_local char msg[256];
    snprintf(msg, sizeof msg, "TCJ_TILE: %s (selected recipe %s%s)", bad, tcj_recipe_name(plan->cfg.recipe),
             tuning->recipe == ENG_RECIPE_AUTO ? "; TCJ_RECIPE forces the other" : "");
    *why = msg;
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  return TCJ_SUCCESS;
}

tcj_status eng_select_tuned(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                            const eng_tuning *tuning, eng_plan *plan, const char **why) {
  if (tuning && tuning->generic) return eng_select_generic(p, caps, allow_packing, tuning, plan, why);
  return select_forced(p, caps, allow_packing, tuning, plan, why);
}

/* ---- generic kernels -------------------------------------------------------------------- */

/* A generic kernel serves a class of problems: recipe, types, op pair, epilogue, batch or not,
 * tile, and an alignment class that is kept coarse so that each class needs few kernels:
 * operands with 16-byte rows (others are packed, where packing is allowed) and D in 16-byte
 * vectors or single elements. The tiles are few too, so that `tcj-warmup --generic` compiles
 * at most 3 tiles x 4 op pairs x 2 D classes = 24 kernels per type pair and arch:
 *   f64, every arch: the dmma recipe's two tiles, 128x128 and 64x64, by the specialised rule;
 *   sm_90a, types the sm90 recipe takes: its 128x256, 128x128 and 64x128 tiles (128x192 where
 *     an epilogue refuses 128x256), by its time model, split along K where it splits (the count a
 *     launch value: no kernel of its own), without clusters or ping-pong,
 *     for every size (small and decode problems too: the sm80 tiles would double the set);
 *   elsewhere the sm80 recipe: 128x128, 64x64 and the 16-row decode tile, by the same rule as
 *     the specialised choice (pick_tile) without its larger and narrower tiles. */
static int sm90_generic_tile(const tcj_kernel_cfg *c) {
  return (c->bm == 128 && (c->bn == 256 || c->bn == 192 || c->bn == 128)) || (c->bm == 64 && c->bn == 128);
}

static int sm80_generic_tile(const eng_problem *p, const eng_device_caps *caps) {
  if (p->m <= 16) return TILE_DECODE_NARROW;
  if (p->m > 64 && tile_count(p, TILE_MEDIUM) >= caps->sm_count / 2) return TILE_MEDIUM;
  return TILE_SMALL;
}

/* What a generic kernel cannot bake (n, k and what derives from them), and the choices that are
 * worth a kernel only for one shape (clusters, ping-pong), removed. A workspace split stays: its
 * count is a launch value (tcj_cfg_splits_at_launch). */
static void generalise(tcj_kernel_cfg *c) {
  c->n = c->k = 0;
  c->generic = 1;
  if (c->split_cluster) c->split_k = c->split_cluster = 0;
  c->cluster_m = c->cluster_n = 0;
  c->pingpong = 0;
}

/* The D class: 16-byte vectors (sm90's TMA stores) or pairs (the sm80 recipe's), else one
 * element. A specialised sm80 kernel stores pairs only where its baked n is even; a generic
 * one cannot know, so pairs are a class of their own: n even (and C's rows aligned to pairs). */
static void coarse_d_vectors(const eng_problem *p, tcj_kernel_cfg *c) {
  int ves = ptx_elem_size(c->d) > ptx_elem_size(c->c) ? ptx_elem_size(c->d) : ptx_elem_size(c->c);
  if (c->recipe == PTX_RECIPE_SM90 && c->vec_c * ves != 16) c->vec_c = 1;
  if (p->n % c->vec_c) c->vec_c = 1;
}

/* The sm90 generic plan: the time model's best generic tile, or -1. Past SKINNY_M rows it
 * splits K only where the model's best plan of any tile does (the specialised choice): a split
 * on a generic tile's estimate alone misled there, 128x4096x14336 taking 62.2 us on 64x128
 * split 4 against 49.5 unsplit where the best plan, 64x64, does not split. For decode rows
 * (the specialised choice is the sm80 recipe's cluster split) the model's generic choice is
 * kept: forcing a split there lost, qkv_m16 29.1 us against 25.9 unsplit, while down_m1 splits
 * by the model, 48.5 against 66.5 (H100, tcj-prof, TCJ_JIT=generic). */
static int generic_sm90(const eng_problem *p, const eng_device_caps *caps, int allow_packing, eng_plan *plan) {
  eng_candidate all[ENG_MAX_CANDIDATES];
  int n = 0;
  const char *no = NULL;
  if (caps->sm != 90 || caps->arch_suffix != 'a' || p->k == 0 ||
      sm90_candidates(p, caps, allow_packing, all, &n, &no) != TCJ_SUCCESS)
    return -1;
  int split = all[0].plan.cfg.split_k >= 2;
  for (int pass = p->m <= SKINNY_M; pass < 2; pass++) /* the choice's split (or none) first, then any */
    for (int i = 0; i < n; i++)
      if (!all[i].plan.cfg.pingpong && sm90_generic_tile(&all[i].plan.cfg) &&
          (pass || (all[i].plan.cfg.split_k >= 2) == split)) {
        *plan = all[i].plan;
        return 0;
      }
  return -1;
}

/* The sm80 generic plan: operands narrower than 16-byte rows packed (unless packing is off:
 * then their own copy width, a class of its own), the generic tile, or the 8-warp 128x128
 * where a layout refuses 4 warps' 64x64 warp tiles. */
static tcj_status generic_sm80(const eng_problem *p, const eng_device_caps *caps, int allow_packing, eng_plan *plan,
                               const char **why) {
  tcj_status st = plan_sm80(p, caps, allow_packing, plan, why); /* the recipe's own refusals, worded */
  if (st != TCJ_SUCCESS) return st;
  int align_a = plan->cfg.align_a, align_b = plan->cfg.align_b;
  if (allow_packing && align_a < 16 && elems(p->m, p->k) > 0) { plan->pack_a = ENG_PACK_COPY; align_a = 16; }
  if (allow_packing && align_b < 16 && elems(p->k, p->n) > 0) { plan->pack_b = ENG_PACK_COPY; align_b = 16; }
  int t = sm80_generic_tile(p, caps);
  fill_cfg(p, caps, t, align_a, align_b, &plan->cfg);
  if (t == TILE_MEDIUM && tcj_cfg_check(&plan->cfg)) fill_cfg(p, caps, (t = TILE_MEDIUM_8W), align_a, align_b, &plan->cfg);
  if (tcj_cfg_check(&plan->cfg)) fill_cfg(p, caps, (t = TILE_SMALL), align_a, align_b, &plan->cfg);
  if (tile_count(p, t) > GRID_MAX / batch_of(p)) {
    *why = "m * n * batch_count needs more CTAs than a grid holds (2^31 - 1)";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  /* K split through the workspace as the specialised choice would (never in a cluster: its
   * count is baked). */
  plan->cfg.split_k = pick_split(p, caps, &plan->cfg); /* a launch value for the generic kernel */
  if (plan->cfg.split_k && tcj_cfg_check(&plan->cfg)) plan->cfg.split_k = 0;
  return TCJ_SUCCESS;
}

/* The dmma generic plan (f64): the specialised choice's tile and stages, operands in 8-byte rows
 * packed into 16-byte rows as generic_sm80 packs (unless packing is off: then 8-byte copies, a
 * class of its own). No K split: the dmma recipe has none. */
static tcj_status generic_dmma(const eng_problem *p, const eng_device_caps *caps, int allow_packing, eng_plan *plan,
                               const char **why) {
  tcj_status st = plan_dmma(p, caps, allow_packing, plan, why);
  if (st != TCJ_SUCCESS) return st;
  tcj_kernel_cfg *c = &plan->cfg;
  if (allow_packing && c->align_a < 16 && elems(p->m, p->k) > 0) { plan->pack_a = ENG_PACK_COPY; c->align_a = 16; }
  if (allow_packing && c->align_b < 16 && elems(p->k, p->n) > 0) { plan->pack_b = ENG_PACK_COPY; c->align_b = 16; }
  if (ceil_div(p->m, c->bm) * ceil_div(p->n, c->bn) > GRID_MAX / batch_of(p)) {
    *why = "m * n * batch_count needs more CTAs than a grid holds (2^31 - 1)";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  return TCJ_SUCCESS;
}

tcj_status eng_select_generic(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                              const eng_tuning *tuning, eng_plan *plan, const char **why) {
  static _Thread_local char msg[256];
  if (p->block_scale) {
    *why = "block-scaled fp8 has no generic kernel (its scale rows are baked from k)";
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  tcj_status st = TCJ_SUCCESS;
  if (p->ab == PTX_E_F64) { /* TCJ_RECIPE and TCJ_TILE name the other types' recipes */
    st = generic_dmma(p, caps, allow_packing, plan, why);
  } else if (tuning && (tuning->recipe != ENG_RECIPE_AUTO || tuning->tile.valid)) {
    /* Forced (a measurement): the forced plan, generalised. */
    st = select_forced(p, caps, allow_packing, tuning, plan, why);
  } else if (generic_sm90(p, caps, allow_packing, plan) != 0) {
    st = generic_sm80(p, caps, allow_packing, plan, why);
  }
  if (st != TCJ_SUCCESS) return st;
  generalise(&plan->cfg);
  coarse_d_vectors(p, &plan->cfg);
  const char *bad = tcj_cfg_check(&plan->cfg);
  if (!bad && tcj_cfg_smem_bytes(&plan->cfg) > caps->max_smem_optin) bad = "shared memory";
  if (bad) {
    snprintf(msg, sizeof msg, "no generic kernel for this problem: %s", bad);
    *why = msg;
    return TCJ_ERROR_NOT_SUPPORTED;
  }
  return TCJ_SUCCESS;
}

int eng_recipe_parse(const char *text, eng_recipe_choice *out) {
  if (strcmp(text, "auto") == 0) *out = ENG_RECIPE_AUTO;
  else if (strcmp(text, "sm80") == 0) *out = ENG_RECIPE_SM80;
  else if (strcmp(text, "sm90") == 0) *out = ENG_RECIPE_SM90;
  else return -1;
  return 0;
}

const char *eng_recipe_check(eng_recipe_choice recipe, const eng_device_caps *caps) {
  if (recipe == ENG_RECIPE_SM90 && (caps->sm != 90 || caps->arch_suffix != 'a'))
    return "the sm90 recipe needs sm_90a (wgmma)";
  return NULL;
}

int eng_tile_override_parse(const char *text, eng_tile_override *out) {
  eng_tile_override o;
  memset(&o, 0, sizeof o);
  int used = 0;
  if (sscanf(text, "%dx%dx%d/%dx%d/%d%n", &o.bm, &o.bn, &o.bk_bytes, &o.warps_m, &o.warps_n,
             &o.stages, &used) != 6)
    return -1;
  /* Optional suffixes, in this order: /c2, /c4, /cn2 or /cn4 (clusters along M or N), /pp (ping-pong
   * consumers), /sN or /scN (K slices). */
  const char *rest = text + used;
  if (strncmp(rest, "/c2", 3) == 0) { o.cluster_m = 2; rest += 3; }
  else if (strncmp(rest, "/c4", 3) == 0) { o.cluster_m = 4; rest += 3; }
  else if (strncmp(rest, "/cn2", 4) == 0) { o.cluster_n = 2; rest += 4; }
  else if (strncmp(rest, "/cn4", 4) == 0) { o.cluster_n = 4; rest += 4; }
  if (strncmp(rest, "/pp", 3) == 0) { o.pingpong = 1; rest += 3; }
  if (strncmp(rest, "/s", 2) == 0) {
    rest += 2;
    if (*rest == 'c') { o.split_cluster = 1; rest++; }
    if (*rest < '0' || *rest > '9' || sscanf(rest, "%2d%n", &o.split_k, &used) != 1) return -1;
    rest += used;
    o.split_set = 1;
    if (o.split_k < 2) o.split_k = o.split_cluster = 0;
  }
  if (*rest != '\0') return -1;
  o.valid = 1;
  *out = o;
  return 0;
}

int eng_tile_override_format(const tcj_kernel_cfg *c, char *buf, size_t size) {
  const char *split = c->split_k >= 2 ? (c->split_cluster ? "/sc" : "/s") : "/s";
  char cluster[16] = "";
  if (c->cluster_m >= 2 || c->cluster_n >= 2)
    snprintf(cluster, sizeof cluster, "/c%s%d", c->cluster_n >= 2 ? "n" : "", tcj_cfg_cluster_ctas(c));
  int n = snprintf(buf, size, "%dx%dx%d/%dx%d/%d%s%s%s%d", c->bm, c->bn, c->bk * ptx_elem_size(c->ab), c->warps_m,
                   c->warps_n, c->stages, cluster, c->pingpong ? "/pp" : "", split, c->split_k >= 2 ? c->split_k : 0);
  return n >= 0 && (size_t)n < size ? n : -1;
}

const char *eng_tile_override_apply(const eng_tile_override *ov, const eng_device_caps *caps,
                                    eng_plan *plan) {
  if (!ov->valid) return NULL;
  tcj_kernel_cfg *c = &plan->cfg;
  c->bm = ov->bm;
  c->bn = ov->bn;
  c->bk = ov->bk_bytes / ptx_elem_size(c->ab);
  c->warps_m = ov->warps_m;
  c->warps_n = ov->warps_n;
  c->stages = ov->stages;
  c->cluster_m = ov->cluster_m;
  c->cluster_n = ov->cluster_n;
  c->pingpong = ov->pingpong;
  if (ov->split_set) {
    c->split_k = ov->split_k;
    c->split_cluster = ov->split_cluster;
    return tcj_cfg_check(c) ? tcj_cfg_check(c)
           : tcj_cfg_smem_bytes(c) > caps->max_smem_optin ? "needs more shared memory than the device has" : NULL;
  }
  const char *why = tcj_cfg_check(c);
  /* A K split chosen for the selected tile stays where the forced tile can take it; ping-pong or
   * another K tile may not (sm90 splits run cooperative consumers, alone or in pairs). */
  if (why && c->split_k) {
    c->split_k = c->split_cluster = 0;
    why = tcj_cfg_check(c);
  }
  if (!why && tcj_cfg_smem_bytes(c) > caps->max_smem_optin) why = "needs more shared memory than the device has";
  return why;
}

int eng_jit_mode_parse(const char *text) {
  if (!text || !*text) return TCJ_JIT_DEFAULT;
  if (strcmp(text, "sync") == 0) return TCJ_JIT_SYNC;
  if (strcmp(text, "generic") == 0) return TCJ_JIT_GENERIC;
  if (strcmp(text, "async") == 0) return TCJ_JIT_ASYNC;
  return -1;
}

const char *eng_tuning_from_env(eng_tuning *out) {
  static _Thread_local char msg[200];
  memset(out, 0, sizeof *out);
  const char *recipe = getenv("TCJ_RECIPE"), *tile = getenv("TCJ_TILE");
  if (recipe && *recipe && eng_recipe_parse(recipe, &out->recipe) != 0) {
    snprintf(msg, sizeof msg, "TCJ_RECIPE=\"%.64s\" is not sm80, sm90 or auto", recipe);
    return msg;
  }
  if (tile && *tile && eng_tile_override_parse(tile, &out->tile) != 0) {
    snprintf(msg, sizeof msg, "TCJ_TILE=\"%.64s\" is not BMxBNxBK_BYTES/WMxWN/STAGES[/c2|/c4|/cn2|/cn4][/pp][/sN|/scN]", tile);
    return msg;
  }
  const char *jit = getenv("TCJ_JIT");
  int mode = eng_jit_mode_parse(jit);
  if (mode < 0) {
    snprintf(msg, sizeof msg, "TCJ_JIT=\"%.64s\" is not sync, generic or async", jit);
    return msg;
  }
  out->generic = mode == TCJ_JIT_GENERIC;
  return NULL;
}
