/* SPDX-License-Identifier: Apache-2.0 */
/* Canonical text form of tcj_kernel_cfg and its static checks. The text is the memo key and
 * (with the arch and compiler identity) the cache key, so it must name every field. */
#include "kernel_cfg.h"

#include <stdio.h>
#include <string.h>

/* elem.c keeps activations as bits of these numbers. */
_Static_assert(PTX_ACT_NONE == 0 && PTX_ACT_RELU == 1, "elem.c's activation bits");

static const char *const act_names[] = {
#define PTX_ACT_NAME(e, name) name,
  PTX_ACT_LIST(PTX_ACT_NAME)
#undef PTX_ACT_NAME
};

const char *ptx_act_name(ptx_act a) { return (unsigned)a < PTX_ACT_COUNT ? act_names[a] : "?"; }

const char *tcj_recipe_name(ptx_recipe r) {
  return r == PTX_RECIPE_SM80 ? "sm80" : r == PTX_RECIPE_SM90 ? "sm90" : r == PTX_RECIPE_DMMA ? "dmma" : "?";
}

int tcj_cfg_format(const tcj_kernel_cfg *c, char *buf, size_t size) {
  char suffix[2] = {(char)c->arch_suffix, 0};
  int n = snprintf(buf, size,
                   "recipe=%s arch=sm_%d%s ab=%s c=%s op=%c%c n=%lld k=%lld tile=%dx%dx%d "
                   "warps=%dx%d stages=%d align=%d,%d,%d",
                   tcj_recipe_name(c->recipe), c->sm, suffix, ptx_elem_name(c->ab), ptx_elem_name(c->c),
                   c->op_a_t ? 'T' : 'N', c->op_b_t ? 'T' : 'N', (long long)c->n, (long long)c->k, c->bm,
                   c->bn, c->bk, c->warps_m, c->warps_n, c->stages, c->align_a, c->align_b, c->vec_c);
  /* Optional fields are absent at their defaults, so older keys stay as they were. */
  if (n >= 0 && (size_t)n < size && c->split_k >= 2)
    n += snprintf(buf + n, size - (size_t)n, " split=%d", c->split_k);
  if (n >= 0 && (size_t)n < size && c->split_cluster)
    n += snprintf(buf + n, size - (size_t)n, " reduce=cluster");
  if (n >= 0 && (size_t)n < size && c->cluster_m >= 2)
    n += snprintf(buf + n, size - (size_t)n, " cluster=%d", c->cluster_m);
  if (n >= 0 && (size_t)n < size && c->cluster_n >= 2)
    n += snprintf(buf + n, size - (size_t)n, " cluster_n=%d", c->cluster_n);
  if (n >= 0 && (size_t)n < size && c->pingpong)
    n += snprintf(buf + n, size - (size_t)n, " pingpong=%d", c->pingpong);
  /* The epilogue, each field only where it differs from a plain tcj_gemm's. */
  if (n >= 0 && (size_t)n < size && c->d != c->c)
    n += snprintf(buf + n, size - (size_t)n, " d=%s", ptx_elem_name(c->d));
  if (n >= 0 && (size_t)n < size && c->bias != PTX_BIAS_NONE)
    n += snprintf(buf + n, size - (size_t)n, " bias=%s:%s", c->bias == PTX_BIAS_COL ? "col" : c->bias == PTX_BIAS_ROW ? "row" : "?",
                  ptx_elem_name(c->bias_t));
  if (n >= 0 && (size_t)n < size && c->act != PTX_ACT_NONE)
    n += snprintf(buf + n, size - (size_t)n, " act=%s", ptx_act_name(c->act));
  if (n >= 0 && (size_t)n < size && c->batched)
    n += snprintf(buf + n, size - (size_t)n, " batch=%d", c->batched);
  if (n >= 0 && (size_t)n < size && c->user)
    n += snprintf(buf + n, size - (size_t)n, " user=%016llx", (unsigned long long)c->user);
  if (n >= 0 && (size_t)n < size && c->user_t)
    n += snprintf(buf + n, size - (size_t)n, " user_t=%d", c->user_t);
  /* fp8: B's type where it is the other one, and the accumulation and scale modes. */
  if (n >= 0 && (size_t)n < size && c->b_other)
    n += snprintf(buf + n, size - (size_t)n, " b=%s", ptx_elem_name(tcj_cfg_b_type(c)));
  if (n >= 0 && (size_t)n < size && c->fast_accum)
    n += snprintf(buf + n, size - (size_t)n, " fast=%d", c->fast_accum);
  if (n >= 0 && (size_t)n < size && c->block_scale)
    n += snprintf(buf + n, size - (size_t)n, " scale=block");
  if (n >= 0 && (size_t)n < size && c->tf32x3)
    n += snprintf(buf + n, size - (size_t)n, " x3=%d", c->tf32x3);
  if (n >= 0 && (size_t)n < size && c->generic)
    n += snprintf(buf + n, size - (size_t)n, " generic=%d", c->generic);
  return (n < 0 || (size_t)n >= size) ? -1 : n;
}

int tcj_cfg_parse(const char *text, tcj_kernel_cfg *out) {
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  char recipe[8], arch[16], ab[8], cc[8], opa, opb;
  long long n, k;
  int used = 0;
  int got = sscanf(text,
                   "recipe=%7s arch=%15s ab=%7s c=%7s op=%c%c n=%lld k=%lld tile=%dx%dx%d "
                   "warps=%dx%d stages=%d align=%d,%d,%d%n",
                   recipe, arch, ab, cc, &opa, &opb, &n, &k, &c.bm, &c.bn, &c.bk, &c.warps_m,
                   &c.warps_n, &c.stages, &c.align_a, &c.align_b, &c.vec_c, &used);
  if (got != 17) return -1;
  if (strcmp(recipe, "sm80") == 0) c.recipe = PTX_RECIPE_SM80;
  else if (strcmp(recipe, "sm90") == 0) c.recipe = PTX_RECIPE_SM90;
  else if (strcmp(recipe, "dmma") == 0) c.recipe = PTX_RECIPE_DMMA;
  else return -1;
  /* Optional fields, in format order; the canonical comparison below rejects any other. */
  const char *rest = text + used;
  int more = 0;
  if (sscanf(rest, " split=%d%n", &c.split_k, &more) == 1) rest += more;
  if (strncmp(rest, " reduce=cluster", 15) == 0) {
    c.split_cluster = 1;
    rest += 15;
  }
  more = 0;
  if (sscanf(rest, " cluster=%d%n", &c.cluster_m, &more) == 1) rest += more;
  more = 0;
  if (sscanf(rest, " cluster_n=%d%n", &c.cluster_n, &more) == 1) rest += more;
  more = 0;
  if (sscanf(rest, " pingpong=%d%n", &c.pingpong, &more) == 1) rest += more;
  char dname[8] = "", bias_where[8] = "", bias_t[8] = "", act[16] = "";
  unsigned long long user = 0;
  more = 0;
  if (sscanf(rest, " d=%7[a-z0-9]%n", dname, &more) == 1) rest += more;
  more = 0;
  if (sscanf(rest, " bias=%3[a-z]:%7[a-z0-9]%n", bias_where, bias_t, &more) == 2) rest += more;
  more = 0;
  if (sscanf(rest, " act=%15[a-z_]%n", act, &more) == 1) rest += more;
  more = 0;
  if (sscanf(rest, " batch=%d%n", &c.batched, &more) == 1) rest += more;
  more = 0;
  if (sscanf(rest, " user=%16llx%n", &user, &more) == 1) rest += more;
  more = 0;
  if (sscanf(rest, " user_t=%d%n", &c.user_t, &more) == 1) rest += more;
  char bname[8] = "";
  more = 0;
  if (sscanf(rest, " b=%7[a-z0-9]%n", bname, &more) == 1) rest += more;
  more = 0;
  if (sscanf(rest, " fast=%d%n", &c.fast_accum, &more) == 1) rest += more;
  if (strncmp(rest, " scale=block", 12) == 0) {
    c.block_scale = 1;
    rest += 12;
  }
  more = 0;
  if (sscanf(rest, " x3=%d%n", &c.tf32x3, &more) == 1) rest += more;
  more = 0;
  if (sscanf(rest, " generic=%d%n", &c.generic, &more) == 1) rest += more;
  if (*rest != '\0') return -1;
  char suffix = 0;
  int arch_len = 0;
  if (sscanf(arch, "sm_%d%n", &c.sm, &arch_len) != 1) return -1;
  if (arch[arch_len] == 'a') suffix = arch[arch_len++];
  if (arch[arch_len] != '\0') return -1;
  c.arch_suffix = suffix;
  if (ptx_elem_from_name(ab, &c.ab) || ptx_elem_from_name(cc, &c.c)) return -1;
  if (bname[0]) { /* only the other fp8 type; the canonical comparison rejects b=<ab> */
    ptx_elem bt;
    if (ptx_elem_from_name(bname, &bt) || !ptx_elem_is_fp8(bt) || !ptx_elem_is_fp8(c.ab)) return -1;
    c.b_other = bt != c.ab;
  }
  c.d = c.c;
  c.bias_t = PTX_E_F32;
  if (dname[0] && ptx_elem_from_name(dname, &c.d)) return -1;
  if (bias_where[0]) {
    if (strcmp(bias_where, "col") == 0) c.bias = PTX_BIAS_COL;
    else if (strcmp(bias_where, "row") == 0) c.bias = PTX_BIAS_ROW;
    else return -1;
    if (ptx_elem_from_name(bias_t, &c.bias_t)) return -1;
  }
  if (act[0]) {
    int found = 0;
    for (int i = 0; i < PTX_ACT_COUNT; i++)
      if (strcmp(act, act_names[i]) == 0) { c.act = (ptx_act)i; found = 1; }
    if (!found) return -1;
  }
  c.user = user;
  if ((opa != 'N' && opa != 'T') || (opb != 'N' && opb != 'T')) return -1;
  if (c.vec_c != 1 && c.vec_c != 2 && c.vec_c != 4 && c.vec_c != 8) return -1;
  c.op_a_t = opa == 'T';
  c.op_b_t = opb == 'T';
  c.n = n;
  c.k = k;
  /* Only the canonical spelling is accepted ("sm_090a", "n=+5" are not), so one config has
   * exactly one text and one cache key. */
  char canon[256];
  if (tcj_cfg_format(&c, canon, sizeof canon) < 0 || strcmp(canon, text) != 0) return -1;
  *out = c;
  return 0;
}

int tcj_cfg_smem_bytes(const tcj_kernel_cfg *c) {
  if (c->recipe == PTX_RECIPE_DMMA) { /* gemm_dmma.c: rows of the stored layout, padded */
    int a_rows = c->op_a_t ? c->bk : c->bm, a_row = (c->op_a_t ? c->bm : c->bk) * 8;
    int b_rows = c->op_b_t ? c->bn : c->bk, b_row = (c->op_b_t ? c->bk : c->bn) * 8;
    return c->stages * (a_rows * (a_row + TCJ_DMMA_ROW_PAD) + b_rows * (b_row + TCJ_DMMA_ROW_PAD));
  }
  int ring = c->stages * (c->bm + c->bn) * c->bk * ptx_elem_size(c->ab);
  /* A cluster split reuses the ring for the tile's fp32 partial sums. */
  if (c->recipe != PTX_RECIPE_SM90) return c->split_cluster && c->bm * c->bn * 4 > ring ? c->bm * c->bn * 4 : ring;
  /* Ping-pong adds a turn barrier per consumer. */
  return TCJ_SM90_ALIGN + ring + c->warps_m * c->warps_n * TCJ_SM90_EPI_BYTES + 2 * c->stages * 8 +
         (c->pingpong ? 16 : 0);
}

static int is_pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

/* The sm90 recipe: see gemm_sm90.c for why each limit exists. */
static const char *check_sm90(const tcj_kernel_cfg *c) {
  if (c->sm != 90 || c->arch_suffix != 'a') return "the sm90 recipe needs sm_90a (wgmma)";
  const ptx_wgmma_type *w = ptx_wgmma_type_of(c->ab);
  if (!w) return "the sm90 recipe takes f16, bf16, tf32, s8, e4m3 or e5m2 operands";
  const char *c_why = ptx_elem_check_c(c->ab, c->c);
  if (c_why) return c_why;
  /* wgmma reads all but 16-bit types K-major only (PTX ISA: no imm-trans for them). */
  if (!w->mn_major && (c->op_a_t || !c->op_b_t)) return "sm90 tf32, s8 and fp8 read both operands K-major (A op N, B op T)";
  if (!c->generic && (c->n < 0 || c->k < 1 || c->k > INT32_MAX || c->n > INT32_MAX))
    return "n or k out of range (sm90 needs k >= 1)";
  /* Compared by division: bk comes from config text, and bk * size could overflow. */
  if (c->bk != 128 / ptx_elem_size(c->ab)) return "sm90 K tiles are one 128-byte swizzle line";
  if (c->warps_n != 1 || (c->warps_m != 1 && c->warps_m != 2)) return "sm90 runs 1 or 2 consumer warpgroups along M";
  if (c->pingpong != 0 && c->pingpong != 1) return "pingpong must be 0 or 1";
  if (c->pingpong && c->warps_m != 2) return "ping-pong needs two consumer warpgroups";
  /* Cooperative consumers split the tile's rows; ping-pong consumers each own a whole tile. */
  int rows = c->pingpong ? c->bm : c->bm / c->warps_m;
  if (c->bm % c->warps_m || (rows != 64 && rows != 128)) return "each sm90 consumer owns 64 or 128 rows";
  if (c->bn < 64 || c->bn > 256 || c->bn % 64) return "sm90 bn must be 64, 128, 192 or 256";
  int acc = tcj_cfg_sm90_accumulators(c);
  if (acc > 128) return "accumulators exceed 128 registers per thread";
  /* A user function is a call, with every live accumulator around it, and a batched kernel
   * keeps its entry's base addresses: past 96 accumulators per thread (128x192) those spill
   * (48 bytes at 128x256 batched with a row bias and GELU, ptxas 13.0). */
  if ((c->user || (tcj_cfg_fused(c) && (c->batched || c->ab == PTX_E_S8))) && acc > 96)
    return "a user epilogue, or a fused one in a batch or in f64 (s8), needs tiles of at most 96 accumulators per thread (128x192)";
  /* Promotion keeps the wgmma partial sums in registers beside the accumulators: a whole
   * second set up to 128 columns, half a set past that (two column chunks, sm90_consumer.c).
   * 64 + 64 and 96 + 48 fit in the kernel's 168 registers; 96 + 96 spilled 904 bytes at
   * 128x192 (ptxas 13.0). */
  /* 3xTF32 promotes a chunk's three K tiles at once, in one column chunk (sm90_consumer.c). */
  if (c->tf32x3 && c->bn > 128) return "3xTF32 on the sm90 recipe needs bn 64 or 128 (one promotion chunk)";
  if (tcj_cfg_promotes(c) && acc + (c->bn > 128 ? acc / 2 : acc) > 144)
    return "fp8 with promotion needs its accumulators and partial sums in 144 registers per thread (128x128, 128x192)";
  /* One B scale per 128 columns and K tile: a tile's columns lie in one block, or (bn 192, which
   * starts at a multiple of 64) in two. */
  if (c->block_scale && 128 % c->bn && c->bn != 192) return "block-scaled fp8 needs bn 64, 128 or 192";
  /* A user epilogue's call keeps every accumulator live: with a 192-column tile's two B scales
   * as well, 64 bytes spilled (ptxas 13.0). */
  if (c->block_scale && c->user && c->bn > 128) return "block-scaled fp8 with a user epilogue needs bn 64 or 128";
  if (c->stages < 2 || c->stages > 8) return "stages must be 2..8";
  if (c->align_a != 16 || c->align_b != 16) return "TMA needs 16-byte aligned operands";
  int ces = ptx_elem_size(c->c);
  if ((c->vec_c != 1 && c->vec_c != 2 && c->vec_c != 4 && c->vec_c != 8) || c->vec_c * ces > 16 ||
      c->n % c->vec_c)
    return "C vector must be 1, 2, 4 or 8 elements, at most 16 bytes, dividing n";
  if (c->split_k == 1 || c->split_k < 0 || c->split_k > TCJ_SPLIT_MAX) return "split_k must be 0 (none) or 2..64";
  if (c->split_k && !c->generic && tcj_cfg_slice_tiles(c) * (c->split_k - 1) * c->bk >= c->k)
    return "split_k leaves a slice without K";
  /* Ping-pong consumers step through the ring in whole tiles of kt stages. Cluster pairs may
   * split: both CTAs of a pair run the same (tile pair, slice) units over the same K range. */
  if (c->split_k && c->pingpong) return "sm90 split-K runs cooperative consumers, not ping-pong";
  if (c->split_cluster) return "the sm90 recipe reduces its slices through the workspace";
  if (c->split_k && c->ab == PTX_E_S8) return "sm90 split-K sums fp32 partials: not for s8";
  if (c->cluster_m != 0 && c->cluster_m != 2 && c->cluster_m != 4) return "cluster must be 0 (none), 2 or 4";
  /* Each CTA of a cluster along M loads its part of B: K-major, bn / cluster_m rows of whole
   * 1024-byte swizzle atoms (128x192 fp8 pairs run so, measured on an H100); MN-major, whole
   * 64-column boxes. Half of a 64-column B is too little to be worth a multicast. */
  if (c->cluster_m && (c->bn < 128 || c->bn % (c->op_b_t ? 8 * c->cluster_m : 64 * c->cluster_m)))
    return "a cluster along M splits B in parts: bn 128 or more, whole 8-row swizzle atoms (K-major) or 64-column "
           "boxes (MN-major) each";
  /* Along N each CTA loads its part of A: K-major, bm / cluster_n rows of whole 1024-byte
   * swizzle atoms; MN-major, whole 64-column boxes. */
  if (c->cluster_n != 0 && c->cluster_n != 2 && c->cluster_n != 4) return "cluster_n must be 0 (none), 2 or 4";
  if (c->cluster_n && c->cluster_m) return "a cluster runs along M or along N, not both";
  if (c->cluster_n && c->bm % (c->op_a_t ? 64 * c->cluster_n : 8 * c->cluster_n))
    return "a cluster along N splits A in parts: whole 8-row swizzle atoms (K-major) or 64-column boxes "
           "(MN-major) each";
  return NULL;
}

/* The operand type's epilogue rule (elem.c: s8 takes a bias and ReLU, f64 a plain epilogue):
 * NULL, or the row's reason. */
static const char *epilogue_type_rule(const tcj_kernel_cfg *c) {
  if (ptx_elem_check_epilogue(c->ab, c->bias != PTX_BIAS_NONE, (int)c->act, c->user != 0) == PTX_EPI_OK) return NULL;
  const ptx_elem_row *r = ptx_elem_row_of(c->ab);
  return r && r->epi_rule ? r->epi_rule : "unsupported operand type";
}

/* The epilogue's fields, common to both recipes. D takes the types C may have. */
static const char *check_epilogue(const tcj_kernel_cfg *c) {
  ptx_elem d = c->d;
  /* The operands' D types (elem.c): fp8 operands may write fp8 D (saturated, after the D scale),
   * their C stays a float type; the recipe checks have taken C already. */
  if ((unsigned)d >= PTX_E_COUNT || !(ptx_elem_row_of(c->ab)->d_types & PTX_ELEM_BIT(d)))
    return "d type does not fit the operands";
  if (ptx_elem_is_fp8(d) && c->recipe == PTX_RECIPE_SM80 && c->sm < 89) return "fp8 conversion needs sm_89";
  if ((unsigned)c->bias > PTX_BIAS_ROW) return "bias must be none, col or row";
  if (c->user_t != 0 && (c->user_t != 1 || !c->user)) return "user_t is 1 with a user epilogue, else 0";
  if (c->bias && ((unsigned)c->bias_t >= PTX_E_COUNT || !ptx_elem_row_of(c->bias_t)->bias))
    return "a bias is f16, bf16 or f32";
  if ((unsigned)c->act >= PTX_ACT_COUNT) return "unknown activation";
  const char *type_why = epilogue_type_rule(c);
  if (type_why) return type_why;
  int fp8 = ptx_elem_is_fp8(c->ab);
  if (c->b_other && !fp8) return "b differs from a only between the two fp8 types";
  if ((c->fast_accum || c->block_scale) && !fp8) return "fast accumulation and block scales are fp8 options";
  if ((unsigned)c->fast_accum > 1 || (unsigned)c->block_scale > 1) return "fast and scale=block are flags";
  if ((unsigned)c->tf32x3 > 1) return "x3 is a flag";
  if (c->tf32x3 && (c->ab != PTX_E_TF32 || c->op_a_t || !c->op_b_t))
    return "3xTF32 parts are tf32, K-major (A op N, B op T): the split pass writes them so";
  if (c->block_scale && (c->fast_accum || c->recipe != PTX_RECIPE_SM90 || c->batched))
    return "block scales are applied at promotion: sm90, not fast, not batched";
  if (c->batched != 0 && c->batched != 1) return "batch must be 0 or 1";
  if (c->batched && c->split_k) return "batched kernels do not split K";
  int ves = ptx_elem_size(d) > ptx_elem_size(c->c) ? ptx_elem_size(d) : ptx_elem_size(c->c);
  if (c->vec_c * ves > 16) return "C/D vector wider than 16 bytes";
  return NULL;
}

static const char *check_recipe(const tcj_kernel_cfg *c);

/* A generic kernel reads n and k at run time; what a kernel bakes from them it cannot have. */
static const char *check_generic(const tcj_kernel_cfg *c) {
  if (c->generic != 0 && c->generic != 1) return "generic must be 0 or 1";
  if (!c->generic) return NULL;
  if (c->n != 0 || c->k != 0) return "a generic config has n = k = 0 (they are run-time arguments)";
  if (c->split_cluster) return "generic kernels split K through the workspace only (a cluster split bakes its K range)";
  if (c->cluster_n) return "generic kernels have no cluster along N (its unit columns are baked from n)";
  if (c->block_scale) return "generic kernels have no block scales (their row pitch is baked from k)";
  return NULL;
}

/* The recipe's own rules first (operand types, tiles), then the epilogue's. */
const char *tcj_cfg_check(const tcj_kernel_cfg *c) {
  const char *why = check_generic(c);
  if (!why) why = check_recipe(c);
  return why ? why : check_epilogue(c);
}

/* The dmma recipe (gemm_dmma.c): f64 in and out, plain epilogue, one K range per tile; generic
 * or specialised. */
static const char *check_dmma(const tcj_kernel_cfg *c) {
  if (c->ab != PTX_E_F64 || c->c != PTX_E_F64 || c->d != PTX_E_F64) return "the dmma recipe takes f64 A, B, C and D";
  if (c->sm < 80) return "f64 mma needs sm_80 or newer";
  const char *type_why = epilogue_type_rule(c);
  if (type_why) return type_why;
  if (c->split_k || c->split_cluster || c->cluster_m || c->cluster_n || c->pingpong)
    return "the dmma recipe has no K split, clusters or ping-pong";
  if (c->fast_accum || c->block_scale || c->b_other || c->tf32x3) return "fp8 and 3xTF32 fields are not for f64";
  if (c->n < 0 || c->k < 0 || c->k > INT32_MAX || c->n > INT32_MAX) return "n or k out of range";
  if (c->bk != 16) return "dmma K tiles are 16 elements (128 bytes)";
  if ((c->bm != 64 && c->bm != 128) || (c->bn != 64 && c->bn != 128)) return "dmma tiles are 64 or 128 each way";
  if (!is_pow2(c->warps_m) || !is_pow2(c->warps_n) || c->warps_m * c->warps_n > 8 ||
      c->bm / c->warps_m < 16 || c->bn / c->warps_n < 8 || c->bm / c->warps_m > 64 || c->bn / c->warps_n > 64)
    return "dmma warp tiles are 16..64 rows and 8..64 columns, at most 8 warps";
  /* fp64 accumulators: 64 x 32 per warp is 64 registers pairs per thread. */
  if ((c->bm / c->warps_m) * (c->bn / c->warps_n) > 64 * 32) return "dmma warp tile larger than 64x32";
  if (c->stages < 2 || c->stages > 6) return "stages must be 2..6";
  if ((c->align_a != 8 && c->align_a != 16) || (c->align_b != 8 && c->align_b != 16)) return "f64 copies are 8 or 16 bytes";
  if (c->vec_c != 1 && c->vec_c != 2) return "f64 D is stored 1 or 2 elements at a time";
  if (c->vec_c == 2 && c->n % 2) return "pairs of D need an even n";
  int threads = tcj_cfg_threads(c);
  int a_bytes = c->bm * c->bk * 8, b_bytes = c->bn * c->bk * 8;
  if ((a_bytes / c->align_a) % threads || (b_bytes / c->align_b) % threads) return "tile does not divide among threads";
  return NULL;
}

static const char *check_recipe(const tcj_kernel_cfg *c) {
  int es = ptx_elem_size(c->ab);
  if (c->recipe == PTX_RECIPE_SM90) return check_sm90(c);
  if (c->recipe == PTX_RECIPE_DMMA) return check_dmma(c);
  if (c->ab == PTX_E_F64) return "f64 runs on the dmma recipe";
  if (c->recipe != PTX_RECIPE_SM80) return "unknown recipe";
  if (c->cluster_m || c->cluster_n || c->pingpong) return "the sm80 recipe has no clusters or ping-pong";
  if (c->vec_c != 1 && c->vec_c != 2) return "sm80 stores 1 or 2 elements of C at a time";
  if (c->sm < 80) return "the sm80 recipe needs sm_80 or newer";
  const char *c_why = ptx_elem_check_c(c->ab, c->c);
  if (c_why) return c_why;
  /* mma.sync m16n8k32 takes e4m3/e5m2 from sm_89 (PTX ISA 9.7.13.4); it adds every product
   * into the fp32 accumulators itself, so there is nothing to promote. */
  if (ptx_elem_is_fp8(c->ab) && c->sm < 89) return "fp8 mma needs sm_89 or newer";
  if (c->fast_accum) return "the sm80 recipe has no fast accumulation (fp8 mma.sync accumulates in fp32)";
  if (c->n < 0 || c->k < 0 || c->k > INT32_MAX || c->n > INT32_MAX) return "n or k out of range";
  /* One K tile is 64 or 128 bytes: a multiple of the 32 bytes one mma consumes per row.
   * These two rules divide rather than multiply: bk and the warp grid may come from text (a
   * config line, TCJ_TILE) with any int, and a product could overflow into an accepted value. */
  if (c->bk != 64 / es && c->bk != 128 / es) return "bk must span 64 or 128 bytes";
  if (!is_pow2(c->warps_m) || !is_pow2(c->warps_n) || c->warps_n > 8 / c->warps_m) return "bad warp grid";
  if (c->bm % (16 * c->warps_m) || c->bn % (16 * c->warps_n)) return "warp tile must be a multiple of 16x16";
  /* bm 16 is one warp row of 16-row fragments (decode: m <= 16). */
  if (!is_pow2(c->bm) || !is_pow2(c->bn) || c->bm < 16 || c->bn < 32 || c->bm > 256 || c->bn > 256) return "bad tile";
  if (c->stages < 2 || c->stages > 8) return "stages must be 2..8";
  if (c->split_k == 1 || c->split_k < 0 || c->split_k > TCJ_SPLIT_MAX) return "split_k must be 0 (none) or 2..64";
  if (c->split_k && c->ab == PTX_E_S8) return "split-K sums fp32 partials: not for s8";
  /* Clusters need sm_90; the slices of a tile share one cluster along the grid's y. */
  if (c->split_cluster != 0 && c->split_cluster != 1) return "reduce=cluster is a flag";
  if (c->split_cluster && (c->sm < 90 || c->split_k < 2 || c->split_k > TCJ_CLUSTER_MAX))
    return "a cluster split needs sm_90 or newer and 2..8 slices";
  if (c->split_k && !c->generic && tcj_cfg_slice_tiles(c) * (c->split_k - 1) * c->bk >= c->k)
    return "split_k leaves a slice without K";
  if ((c->align_a != 4 && c->align_a != 8 && c->align_a != 16) || (c->align_b != 4 && c->align_b != 8 && c->align_b != 16)) return "copy alignment must be 4, 8 or 16";
  if (c->align_a < es || c->align_b < es) return "copy narrower than an element";
  /* MN-major tf32 and s8 fragments are gathered element by element (ldmatrix.trans moves
   * 16-bit elements only): with a 64x64 warp tile the address arithmetic exhausts the
   * registers and spills (seen on sm_89 with 4-byte copies). */
  int wm = c->bm / c->warps_m, wn = c->bn / c->warps_n;
  if (wm * wn > 64 * 64) return "warp tile larger than 64x64 (accumulators exceed the registers)";
  /* 3xTF32 keeps each mma's four partial sums beside the accumulators: 16 bytes spilled at a
   * 64x64 warp tile on sm_80 and sm_89 (ptxas 13.0). */
  if (c->tf32x3 && wm * wn > 64 * 32) return "3xTF32 needs a warp tile of at most 64x32";
  if (es != 2 && (c->op_a_t || !c->op_b_t) && wm * wn > 64 * 32)
    return "tf32 or s8 with an MN-major operand needs a warp tile of at most 64x32";
  /* Narrow copies keep one swizzled destination register per copy: with 64x64 warp tiles
   * those registers spill (seen with 4-byte copies of 128x128 and 128x256 tiles). */
  if ((c->align_a < 16 || c->align_b < 16) && wm * wn > 64 * 32)
    return "copies narrower than 16 bytes need a warp tile of at most 64x32";
  /* Elements each thread gathers per mma k step and operand: past 32 their hoisted addresses
   * spill (seen with s8, A MN-major, 64x32 warp tiles). */
  int per_reg = 4 / es;
  if (es != 2 && ((c->op_a_t && wm / 16 * 4 * per_reg > 32) || (!c->op_b_t && wn / 8 * 2 * per_reg > 32)))
    return "MN-major s8 fragments of this warp tile need more than 32 gathered bytes per thread";
  /* Each thread copies whole chunks: the tile must divide evenly among the threads. */
  int threads = tcj_cfg_threads(c);
  if ((c->bm * c->bk * es / c->align_a) % threads || (c->bn * c->bk * es / c->align_b) % threads) return "tile does not divide among threads";
  /* The recipe keeps each thread's copy destinations of an operand in 32 registers (MAX_CHUNKS). */
  if (c->bm * c->bk * es / c->align_a > 32 * threads || c->bn * c->bk * es / c->align_b > 32 * threads)
    return "more than 32 copies per thread and operand (narrow copies of a deep tile)";
  return NULL;
}
