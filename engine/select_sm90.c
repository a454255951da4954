/* SPDX-License-Identifier: Apache-2.0 */
/* The sm90 recipe's plans (sm_90a: wgmma + TMA, persistent, warp-specialised): its tile menu,
 * clusters and ping-pong, the time model that ranks its candidates, and the best of them. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/nvrtc.h" /* eng_whole_program_expected */
#include "engine/select_recipes.h"
#include "ptxgen/ptx_ops.h"
#include "ptxgen/ptxgen.h"

/* A bias, an activation or a user function: work in the epilogue beyond alpha and beta. */
static int fused(const eng_problem *p) { return p->bias != PTX_BIAS_NONE || p->act != PTX_ACT_NONE || p->user; }

/* fp8 and 3xTF32, whose wgmma partial sums are promoted into fp32 (tcj_cfg_promotes). */
static int promoted(const eng_problem *p) { return (ptx_elem_is_fp8(p->ab) && !p->fast_accum) || p->tf32x3; }

/* Tile menu: bm x bn, consumer warpgroups along M, the tile's throughput per SM relative to
 * the largest (a larger tile reuses each loaded byte for more wgmma work), and the problems it
 * is offered to. */
enum { OFFER_ALL, OFFER_FUSED, OFFER_PROMOTED, OFFER_UNPROMOTED, OFFER_DENSE_16BIT };
static const struct tile90 { int bm, bn, warps_m; double rate; int pingpong, offer; } tiles90[] = {
  {128, 256, 2, 1.0, 0, OFFER_UNPROMOTED}, {256, 128, 2, 1.0, 0, OFFER_ALL}, {128, 128, 2, 0.8, 0, OFFER_ALL},
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
  /* Promoted 128x256: its consumers need the registers setmaxnreg gives them, which the engine's
   * whole-program compile honours (engine/ptx_cuda.h), so it is offered only where NVRTC is.
   * Rate from an H200 (tcj-prof --repeat 20, e4m3 8192^3, promoted, 2-CTA clusters, same
   * process): 1339 TFLOP/s against 1287 at 128x192, so 0.84 x 1.04. */
  {128, 256, 2, 0.875, 0, OFFER_PROMOTED},
  /* Three consumers, 64 rows each: 192-row tiles fill waves that 128- and 256-row tiles leave
   * part full. Rate from an H100 (tcj-prof --repeat 20, bf16, same run, 2026-12-07): 8192^3
   * 1499 us in 21 waves against 1426 in 16 on 128x256 (0.937 of its rate); 2304x4096x4096 107.7
   * us against 136.1 on 128x256 (0.95 by the waves). Measured against the selected tile
   * (192x128 / selected, us): 2304x4096x4096 107.7 / 136.1, 1280x14336x4096 NT 211.7 / 224.7,
   * 1536x4096x4096 72.1 / 73.3, 1280x4096x4096 70.4 / 71.5, 768x8192x4096 NT 72.5 / 73.0,
   * 384x14336x4096 NT 74.7 / 74.8, 512x10240x8192 NT 137.2 / 137.3, where this rate selects it;
   * and 2560x4096x4096 143.8 / 134.8, 4096^3 220.2 / 180.9, 4095^3 338.1 / 306.1, where it does
   * not. Offered to dense 16-bit GEMMs (the ones measured) whose B rows are whole lines: where
   * they split lines, 1500x1500x9000 ran 135.5 us in pairs against 131.6 on 128x256 pairs. */
  {192, 128, 3, 0.93, 0, OFFER_DENSE_16BIT},
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
  int ces = select_cd_elem_size(p);
  for (int v = 8; v > 1; v /= 2)
    if (v * ces <= 16 && p->align_c >= v * ces && p->n % v == 0) return v;
  return 1;
}

/* The most stages (SM90_MAX_STAGES down to min_stages) that shared memory holds. */
static void fit_stages_down_to(tcj_kernel_cfg *c, const eng_device_caps *caps, int min_stages) {
  for (c->stages = SM90_MAX_STAGES; c->stages > min_stages; c->stages--)
    if (tcj_cfg_smem_bytes(c) <= caps->max_smem_optin) break;
}

static void fit_stages(tcj_kernel_cfg *c, const eng_device_caps *caps) { fit_stages_down_to(c, caps, SM90_MIN_STAGES); }

/* b_pitch_split: B's row pitch is not a multiple of SM90_LINE_BYTES; b_sector_split: nor of
 * SM90_SECTOR_BYTES. */
static void fill_sm90(const eng_problem *p, const eng_device_caps *caps, const struct tile90 *t, int b_pitch_split,
                      int b_sector_split, tcj_kernel_cfg *c) {
  select_fill_problem(p, caps, &ptx_recipe_sm90, c);
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
  if (ptx_elem_is_fp8(p->ab) && select_ceil_div(p->m, t->bm) >= SM90_FP8_CLUSTER_MIN_ROWS) c->cluster_m = 2;
  if (b_pitch_split && t->bm >= 128 && t->bn >= 128 && select_ceil_div(p->m, t->bm) >= SM90_PITCH_CLUSTER_MIN_ROWS &&
      (select_ceil_div(p->k, c->bk) > SM90_PINGPONG_MAX_KT || select_ceil_div(p->m, t->bm) >= SM90_PITCH_CLUSTER_MANY_ROWS))
    c->cluster_m = 2;
  /* Fours and clusters along N were measured and GPU-tested with 16-bit operands only. */
  int rows = (int)select_ceil_div(p->m, t->bm), cols = (int)select_ceil_div(eng_problem_b_cols(p), t->bn), sixteen_bit = ptx_elem_size(p->ab) == 2;
  if (sixteen_bit && c->cluster_m == 2 && b_sector_split && t->bn == 256 && rows >= SM90_PITCH_FOURS_MIN_ROWS) c->cluster_m = 4;
  c->cluster_n = 0;
  /* ...not where half of the tile's rows would be padding: 64 rows run 64-row tiles (64x5000x4096:
   * 64x64 alone 20.4 us, 128x64 in pairs along N 38.0). */
  if (sixteen_bit && b_pitch_split && !c->cluster_m && t->bm == 128 && !t->pingpong && cols >= 2 && 2 * p->m > t->bm &&
      (t->bn == 64 || (t->bn == 128 && rows <= SM90_PITCH_SHARE_A_MAX_ROWS)))
    c->cluster_n = rows <= SM90_PITCH_SHARE_A_MAX_ROWS && cols >= 4 ? 4 : 2;
  fit_stages(c, caps);
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
         select_ceil_div(p->m, c->bm) >= 2 && !b_pitch_split;
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
/* A grouped problem is scored as its G groups of the expected rows (select_plan_sm90_grouped
 * passes m = group_rows): together they fill the GPU, as a batch's entries do. */
static int64_t entries_of(const eng_problem *p) {
  return select_batch_of(p) * (p->grouped && p->groups > 1 ? p->groups : 1);
}

/* The busiest SM's mainloop time, and the floor of reading A and B and writing C once. */
static void sm90_times(const eng_problem *p, const eng_device_caps *caps, const struct tile90 *t, int b_pitch_split,
                       const tcj_kernel_cfg *c, double *compute_us, double *floor_us) {
  int64_t sms = caps->sm_count > 0 ? caps->sm_count : 1;
  int64_t waves = select_ceil_div(ptx_sm90_tiles(c, p->m) * tcj_cfg_slices(c) * entries_of(p), sms);
  /* wgmma's rate per byte of K is the same for every type: half of bf16's MACs for tf32, twice
   * for s8 (H100 peaks: 495, 989, 1979 dense TFLOP/TOP/s). */
  double macs_per_us = SM90_MACS_PER_US * 2.0 / ptx_elem_size(p->ab);
  double us = (double)waves * (double)tcj_cfg_slice_tiles(c) * (double)t->bm * (double)t->bn * (double)c->bk /
              (t->rate * macs_per_us);
  /* Fours along N that share A run as unclustered tiles do on a whole-line B (0.60-0.85 of pairs). */
  if (b_pitch_split && (!c->cluster_m || c->split_k) && c->cluster_n != 4) us *= SM90_PITCH_SPLIT_COST;
  *compute_us = us;
  /* No tile beats reading A and B and writing C once. */
  *floor_us = ((double)(p->m + eng_problem_b_cols(p)) * (double)p->k * ptx_elem_size(p->ab) +
               (double)p->m * (double)p->n * ptx_elem_size(p->d)) * (double)entries_of(p) / SM90_BYTES_PER_US;
}

static double sm90_score(const eng_problem *p, const eng_device_caps *caps, const struct tile90 *t,
                         int b_pitch_split, const tcj_kernel_cfg *c) {
  double compute_us, floor_us;
  sm90_times(p, caps, t, b_pitch_split, c, &compute_us, &floor_us);
  double us = compute_us;
  /* At the floor, the tile that computes less padding wins the tie. */
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

/* Dense 16-bit plans on cooperative 128x256 tiles that store D through TMA, with several tiles a
 * CTA, stage each consumer's whole tile for its stores and leave them in flight into the next
 * tile's mainloop (epi_whole; three stages beside the staging instead of four). H100, tcj-prof
 * --repeat 20, same run (2026-12-07, TCJ_TILE=128x256x128/2x1/3/ew against .../4, us): 4096^3
 * 178.0 / 182.3, 8192^3 1396.8 / 1437.4, 4096x6144x4096 266.9 / 273.5, 4096x28672x4096 1242.7 /
 * 1277.4, 4096x4096x14336 604.0 / 616.2 (2-3% everywhere). With one tile a CTA there is no next
 * mainloop to hide the stores under, only a stage lost: hence SM90_WHOLE_EPI_MIN_WAVES. The
 * grouped kernel's tiles gained nothing (Qwen3-30B-A3B's down-projection at 8192 tokens 387.8 /
 * 387.1, its stored rows 478.1 / 474.0, up-projection 701.3 / 694.0), nor ping-pong 128x128. */
#define SM90_WHOLE_EPI_MIN_WAVES 2
/* A fused bias or activation takes the whole tile too where ENG_SM90_FUSED_WHOLE_TILE says so
 * (the TMA path applies it from the accumulators) and the engine compiles the kernel whole
 * (recipe_sm90.c: at the entry count's 168 registers it spills). tcj_cfg_check refuses the whole
 * tile where D does not store through TMA (a user function, scattered rows, f32 D past the shared
 * memory). */
static void whole_tile_epilogue(const eng_problem *p, const eng_device_caps *caps, tcj_kernel_cfg *c) {
  if (p->grouped || c->bm != 128 || c->bn != 256 || c->pingpong || c->cluster_m || c->cluster_n ||
      ptx_elem_size(p->ab) != 2 || ptx_elem_size(c->d) != 2 || (fused(p) && !ENG_SM90_FUSED_WHOLE_TILE))
    return;
  int64_t tiles = select_ceil_div(p->m, c->bm) * select_ceil_div(p->n, c->bn) * select_batch_of(p);
  if (tiles < (int64_t)SM90_WHOLE_EPI_MIN_WAVES * caps->sm_count) return;
  tcj_kernel_cfg whole = *c;
  whole.epi_whole = 1; /* below SM90_MIN_STAGES: the stores' overlap is what repays the stage */
  fit_stages_down_to(&whole, caps, 3);
  if (tcj_cfg_check(&whole) || tcj_cfg_smem_bytes(&whole) > caps->max_smem_optin) return;
  if (tcj_cfg_needs_whole_program(&whole) && !eng_whole_program_expected()) return;
  *c = whole;
}

/* Whether whole_tile_epilogue would give c the whole tile. */
static int takes_whole_tile(const eng_problem *p, const eng_device_caps *caps, const tcj_kernel_cfg *c) {
  tcj_kernel_cfg whole = *c;
  whole_tile_epilogue(p, caps, &whole);
  return whole.epi_whole;
}

void select_sm90_tile_epilogue(const eng_device_caps *caps, tcj_kernel_cfg *c) {
  if (!c->epi_whole) return;
  c->epi_whole = 0;
  fit_stages(c, caps);
}

/* The sm90 recipe's plans for a problem, best first by the time model (eng_sm90_candidates), or
 * TCJ_ERROR_NOT_SUPPORTED with why it cannot run the problem. TMA reads whole 16-byte aligned
 * rows: an operand aligned below that is packed, or (packing disabled) the recipe does not
 * apply. */
tcj_status select_sm90_candidates(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
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
    int too_deep = select_ceil_div(p->k, PTX_TRANSPOSE_TILE) > 65535;
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
  if (p->m > eng_problem_b_cols(p) && !b_pitch_split) { order[0] = 1; order[1] = 0; }
  eng_candidate all[ENG_MAX_CANDIDATES];
  int n = 0;
  tcj_kernel_cfg c;
  const char *reason = "no tile";
  for (int i = 0; i < N_TILES90; i++) {
    const struct tile90 *t = &tiles90[order[i]];
    if ((t->offer == OFFER_FUSED && !fused(p)) || (t->offer == OFFER_PROMOTED && !promoted(p)) ||
        (t->offer == OFFER_UNPROMOTED && promoted(p)) ||
        (t->offer == OFFER_DENSE_16BIT && (ptx_elem_size(p->ab) != 2 || p->grouped || b_pitch_split)))
      continue;
    fill_sm90(p, caps, t, b_pitch_split, b_sector_split, &c);
    if ((reason = tcj_cfg_check(&c)) != NULL) continue;
    /* Promoted 128x256 spills unless compiled whole (engine/ptx_cuda.h): offered where NVRTC is,
     * and only where the MMAs, not the bytes, bound the time: at one tile row of e4m3
     * 128x28672x4096 (HBM-bound) it ran 53.0 us against 51.0 on 128x128 (H100, tcj-prof). */
    if (tcj_cfg_needs_whole_program(&c)) {
      if (!eng_whole_program_expected()) {
        reason = "the tile needs the whole-program compile, and NVRTC is not there";
        continue;
      }
      double compute_us, floor_us;
      sm90_times(p, caps, t, b_pitch_split, &c, &compute_us, &floor_us);
      if (compute_us < floor_us) continue;
    }
    if (tcj_cfg_smem_bytes(&c) > caps->max_smem_optin) {
      reason = "shared memory holds fewer than 4 stages";
      continue;
    }
    all[n].plan = base;
    all[n].plan.cfg = c;
    all[n++].est_us = -sm90_score(p, caps, t, b_pitch_split, &c);
    /* Few tiles and deep K: K slices may fill the idle SMs (select_pick_split's rule, as for sm80);
     * the model decides whether that beats the unsplit tile. */
    tcj_kernel_cfg split = c;
    split.cluster_m = 0;
    split.split_k = select_pick_split(p, caps, &split);
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
    /* (Promoted fp8 is never made ping-pong: the config check refuses it, recipe_sm90.c.) */
    /* Nor grouped problems: the grouped kernel runs ping-pong consumers for M groups (forced by
     * TCJ_TILE), but they were slower wherever this rule would pick them. H100, tcj-prof
     * --repeat 20, two runs each, against cooperative 128x256 pairs (2026-12-07, docs/perf.md):
     * Qwen3-30B-A3B at 2048 tokens, up-projection 397-411 us against 353, gathered 383-390
     * against 331-339, with SwiGLU 384-386 against 330-359, down-projection 216-228 against 205,
     * with router weights 234 against 220, its rows added into f32 310-317 against 300;
     * DeepSeek-V3's EP8 down-projection 468-565 against 400. Only the stored combine gained
     * (253-258 against 274). Half-height tiles read each group's B twice as often, which the
     * overlapped epilogue does not repay at these depths. (Short-K groups of few rows take
     * 128-row ping-pong tiles instead: pingpong_short_k_groups.) */
    /* A fused epilogue stays on the cooperative tile where that stages its whole tile
     * (whole_tile_epilogue, below; ENG_SM90_FUSED_WHOLE_TILE): ping-pong 64x256 hides the
     * epilogue under the other consumer's mainloop but reads each B tile twice, and ran the
     * fused rows at its own rate (H100, tcj-prof, 2026-12-07: 8192^3 with a column bias 1487.6
     * us, 4096^3 with bias and GELU 199.0) where the plain whole tile ran 1396.8 and 178.0. The
     * whole tile pays its bias and activation with the tensor cores idle, so whether it wins
     * is to be measured. */
    if (cfg->bm == 128 && cfg->bn == 256 && !cfg->split_k && !p->grouped &&
        ((select_ceil_div(p->k, cfg->bk) <= SM90_PINGPONG_MAX_KT && !b_pitch_split) ||
         (fused(p) && !takes_whole_tile(p, caps, cfg)))) {
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
    whole_tile_epilogue(p, caps, cfg);
    if (transpose_a) all[i].plan.pack_a = ENG_PACK_TRANSPOSE;
    if (transpose_b) all[i].plan.pack_b = ENG_PACK_TRANSPOSE;
    out[(*count)++] = all[i];
  }
  return TCJ_SUCCESS;
}

/* The sm90 recipe's plan: its best candidate. */
tcj_status select_plan_sm90(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                            eng_plan *plan, const char **why) {
  eng_candidate all[ENG_MAX_CANDIDATES];
  int n = 0;
  memset(plan, 0, sizeof *plan);
  tcj_status st = select_sm90_candidates(p, caps, allow_packing, all, &n, why);
  if (st != TCJ_SUCCESS) return st;
  *plan = all[0].plan;
  return st;
}

/* 16-bit groups on 128x256 tiles run in pairs of tile rows (B's tile multicast to both) where
 * the grouped kernel takes pairs and a group's B is too large to stay in L2 between its tile
 * rows. H100, tcj-prof --repeat 20, same run (2026-12-06): the DeepSeek-V3 EP8 up-projection
 * (32 groups of 11 to 1320 rows, 128 expected) 726 us in pairs against 840 without, Mixtral's
 * up-projection 2788 against 2883; 256x128 tiles in pairs were slower (1319 and 3061 us), so
 * they are left alone. Against single CTAs of the same tile (H100, 2026-12-07, pairs / single,
 * us), by the bytes of one group's B: 234 MB (Mixtral up) 2750 / 3161, 117 MB (Mixtral down)
 * 1376 / 1466, 58 MB (DeepGEMM's shape) 2467 / 2765, (DeepSeek-V3 up) 704 / 775; but 29 MB
 * (DeepSeek-V3 down) 395 / 388, and Qwen3-30B-A3B's 3 MB down-projection 204 / 192, with
 * router weights 218 / 206, rows stored 242 / 204 (8192 tokens: 502 / 470), added 300 / 281
 * (8192 tokens: 750 / 767), its 6 MB up-projection 349 / 348: where L2 holds a group's B, its
 * tile rows read it from there anyway, and the pair's second CTA often computes rows past its
 * group's end. Hence the floor below, between 29 and 58 MB (the L2 of an H100 or H200 holds
 * 50 MB). */
#define SM90_PAIR_MIN_GROUP_B_BYTES (32ll << 20)
static void pair_16bit_128x256_groups(const eng_problem *p, tcj_kernel_cfg *c) {
  if (c->cluster_m || c->bm != 128 || tcj_cfg_tile_cols(c) != 256 || ptx_elem_size(p->ab) != 2) return;
  if (p->n * p->k * 2 < SM90_PAIR_MIN_GROUP_B_BYTES) return;
  tcj_kernel_cfg pair = *c;
  pair.cluster_m = 2;
  if (!tcj_cfg_check(&pair)) *c = pair;
}

/* m-grouped plans take 128x256 tiles before 256x128 ones where both are candidates (the time
 * model rates them alike). H100, tcj-prof --repeat 20, same run (2026-12-06): DeepGEMM's bf16
 * contiguous shape (4 x 8192 rows, n 4096, k 7168) 2499 us on 128x256 pairs against 2538 on
 * 256x128, and its fp8 row-scaled form with fast accumulation 1401-1404 us on 128x256 (paired
 * or not) against 1498 on the 256x128 pairs the model chose; with this rule, a later run: 2492
 * us (772 TFLOP/s) and 1415 us, both checked against the reference. */
static void prefer_128x256_for_m_groups(eng_candidate *all, int n) {
  if (n < 2 || all[0].plan.cfg.bm != 256) return;
  for (int j = 1; j < n; j++) {
    const tcj_kernel_cfg *c = &all[j].plan.cfg;
    if (c->bm != 128 || tcj_cfg_tile_cols(c) != 256 || c->split_k != all[0].plan.cfg.split_k) continue;
    eng_candidate wide = all[j];
    memmove(all + 1, all, (size_t)j * sizeof *all);
    all[0] = wide;
    return;
  }
}

/* Short-K 16-bit groups of few rows run 128x128 tiles on ping-pong consumers, one tile each:
 * with a dozen K tiles per tile the cooperative epilogue (which the tensor cores wait for) is a
 * large share of each tile, and ping-pong hides it under the other consumer's mainloop, while
 * 128 rows (not the 64 of the 64x256 ping-pong tile, which lost on these groups) keep B's
 * reuse. H100, tcj-prof --repeat 20, same run, 2026-12-07 (TCJ_TILE=128x128x128/2x1/6/pp against
 * the selected cooperative 128x256, us), Qwen3-30B-A3B's down-projection (k 768, 12 K tiles)
 * at 2048 tokens (128 rows a group): plain 177.2 / 193.6, router weights 184.9 / 204.2, rows
 * stored 182.9 / 204.8, rows added into f32 273.7 / 278.1; at 8192 tokens (512 rows a group)
 * plain 424.7 / 389.6, stored 469.4 / 468.9: so up to SM90_PP128_MAX_GROUP_ROWS rows. Its
 * up-projection (k 2048) lost at 2048 tokens (352.5 / 347.7, gathered 341.8 / 325.0, SwiGLU
 * 339.5 / 333.8): so up to SM90_PP128_MAX_KT K tiles. */
#define SM90_PP128_MAX_GROUP_ROWS 128
#define SM90_PP128_MAX_KT 12
static void pingpong_short_k_groups(const eng_problem *p, const eng_device_caps *caps, tcj_kernel_cfg *c) {
  if (c->bm != 128 || c->bn != 256 || c->pingpong || c->cluster_m || c->split_k || ptx_elem_size(p->ab) != 2 ||
      ptx_group_k(p->grouped) || p->group_rows > SM90_PP128_MAX_GROUP_ROWS || select_ceil_div(p->k, c->bk) > SM90_PP128_MAX_KT)
    return;
  tcj_kernel_cfg pp = *c;
  pp.bn = 128;
  pp.pingpong = 1;
  fit_stages(&pp, caps);
  if (!tcj_cfg_check(&pp) && tcj_cfg_smem_bytes(&pp) <= caps->max_smem_optin) *c = pp;
}

tcj_status select_plan_sm90_grouped(const eng_problem *p, const eng_device_caps *caps, eng_plan *plan,
                                    const char **why) {
  memset(plan, 0, sizeof *plan);
  /* B by pointers: the producer rewrites B's map per group (sm90_group_maps.c), in the call's
   * scratch. Gathered rows of A are copied without TMA (sm90_gather.c), with 32-bit byte
   * offsets within a row. */
  if (p->gather && p->k > INT32_MAX / 2)
    return sm90_no(why, "gather_a with k of 2^30 or more runs on the sm80 recipe");
  /* TMA reads 16-byte aligned rows, and grouped calls pack nothing (their groups' rows are
   * known on the device only). */
  if (p->align_a < 16 || p->align_b < 16)
    return sm90_no(why, "grouped GEMM on the sm90 recipe needs 16-byte aligned A and B (TMA; no packing in this release)");
  /* The tile of one group of the expected rows, as the sm80 grouped plan chooses (K groups: all m
   * rows and the expected depth; the kernel reads each group's K range on the device, so its
   * config keeps k = 0); tcj_cfg_check sees the grouped config, so clusters, ping-pong and K
   * splits fall away there. */
  int by_k = ptx_group_k(p->grouped);
  eng_problem one = *p;
  if (by_k) one.k = p->group_rows;
  else one.m = p->group_rows;
  eng_candidate all[ENG_MAX_CANDIDATES];
  int n = 0;
  tcj_status st = select_sm90_candidates(&one, caps, 0, all, &n, why);
  if (st != TCJ_SUCCESS) return st;
  if (!by_k) prefer_128x256_for_m_groups(all, n);
  for (int i = 0; i < n; i++) {
    /* A candidate's pair of tile rows (cluster along M, B's tile multicast; the time model asks
     * for them on fp8 groups of many tile rows: DeepGEMM's block-scaled shape 1584 us against
     * 1619 unpaired on an H100) stays where the grouped kernel takes pairs (m-grouped without
     * gathers, B pointers or K groups: tcj_cfg_check); elsewhere the candidate runs as one CTA
     * per tile. 16-bit 128x256 plans get a pair below. */
    if (all[i].plan.cfg.cluster_m && tcj_cfg_check(&all[i].plan.cfg)) {
      all[i].plan.cfg.cluster_m = 0;
      if (tcj_cfg_check(&all[i].plan.cfg)) continue;
    }
    pair_16bit_128x256_groups(p, &all[i].plan.cfg);
    pingpong_short_k_groups(p, caps, &all[i].plan.cfg);
    if (by_k) all[i].plan.cfg.k = 0;
    /* The maps the launch encodes: A over all m rows (masked: G entries), B over G entries; K
     * groups' over all of K (the kernel narrows them to a group's range). */
    const tcj_kernel_cfg run = tcj_cfg_for_problem(&all[i].plan.cfg, p->n, p->k), *c = &run;
    ptx_tmap_desc d;
    ptx_tmap_batch ba = {p->groups, p->stride_a}, bb = {p->groups, p->stride_b};
    int64_t a_rows = p->gather ? p->gather_rows : p->m; /* gathered: A's own rows (a map no copy reads) */
    if (ptx_sm90_tmap(c, 0, a_rows, p->lda, ba, &d) != 0 || ptx_sm90_tmap(c, 1, p->m, p->ldb, bb, &d) != 0)
      return sm90_no(why, "TMA cannot address an operand of every group (a dimension past 2^32, a stride past 2^40 "
                     "bytes, or a group stride that is not a multiple of 16 bytes)");
    if (eng_grouped_units(p, c) > GRID_MAX) continue;
    *plan = all[i].plan;
    return TCJ_SUCCESS;
  }
  return sm90_no(why, "grouped GEMM: ceil(n / bn) * (ceil(m / bm) + group_count) tiles (masked: ceil(n / bn) * "
                 "group_count * ceil(m / bm)) exceed the 2^31 - 1 units of a launch");
}

int eng_sm90_candidates(const eng_problem *p, const eng_device_caps *caps, int allow_packing, eng_candidate *out,
                        int max, const char **why) {
  eng_candidate all[ENG_MAX_CANDIDATES];
  int n = 0;
  if (select_sm90_candidates(p, caps, allow_packing, all, &n, why) != TCJ_SUCCESS) return -1;
  if (n > max) n = max;
  memcpy(out, all, (size_t)n * sizeof *out);
  return n;
}
