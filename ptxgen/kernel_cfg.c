/* Canonical text form of tcj_kernel_cfg and its static checks. The text is the memo key and
 * (with the arch and compiler identity) the cache key, so it must name every field. */
#include "kernel_cfg.h"

#include <stdio.h>
#include <string.h>

static const struct { const char *name; int size; } elem_info[] = {
#define PTX_ELEM_INFO(e, name, size) {name, size},
  PTX_ELEM_LIST(PTX_ELEM_INFO)
#undef PTX_ELEM_INFO
};

const char *ptx_elem_name(ptx_elem e) { return (unsigned)e < PTX_E_COUNT ? elem_info[e].name : "?"; }
int ptx_elem_size(ptx_elem e) { return (unsigned)e < PTX_E_COUNT ? elem_info[e].size : 0; }

static int elem_from_name(const char *s, ptx_elem *out) {
  for (int i = 0; i < PTX_E_COUNT; i++)
    if (strcmp(s, elem_info[i].name) == 0) { *out = (ptx_elem)i; return 0; }
  return -1;
}

int tcj_cfg_format(const tcj_kernel_cfg *c, char *buf, size_t size) {
  char suffix[2] = {(char)c->arch_suffix, 0};
  int n = snprintf(buf, size,
                   "recipe=sm80 arch=sm_%d%s ab=%s c=%s op=%c%c n=%lld k=%lld tile=%dx%dx%d "
                   "warps=%dx%d stages=%d align=%d,%d,%d",
                   c->sm, suffix, ptx_elem_name(c->ab), ptx_elem_name(c->c), c->op_a_t ? 'T' : 'N',
                   c->op_b_t ? 'T' : 'N', (long long)c->n, (long long)c->k, c->bm, c->bn, c->bk,
                   c->warps_m, c->warps_n, c->stages, c->align_a, c->align_b, c->vec_c ? 2 : 1);
  if (n >= 0 && (size_t)n < size && c->split_k >= 2) /* absent when unsplit: keys stay as they were */
    n += snprintf(buf + n, size - (size_t)n, " split=%d", c->split_k);
  return (n < 0 || (size_t)n >= size) ? -1 : n;
}

int tcj_cfg_parse(const char *text, tcj_kernel_cfg *out) {
  tcj_kernel_cfg c;
  memset(&c, 0, sizeof c);
  char arch[16], ab[8], cc[8], opa, opb;
  long long n, k;
  int vec, used = 0;
  int got = sscanf(text,
                   "recipe=sm80 arch=%15s ab=%7s c=%7s op=%c%c n=%lld k=%lld tile=%dx%dx%d "
                   "warps=%dx%d stages=%d align=%d,%d,%d%n",
                   arch, ab, cc, &opa, &opb, &n, &k, &c.bm, &c.bn, &c.bk, &c.warps_m, &c.warps_n,
                   &c.stages, &c.align_a, &c.align_b, &vec, &used);
  if (got != 16) return -1;
  if (text[used] != '\0') {
    int more = 0;
    if (sscanf(text + used, " split=%d%n", &c.split_k, &more) != 1 || text[used + more] != '\0') return -1;
  }
  char suffix = 0;
  int arch_len = 0;
  if (sscanf(arch, "sm_%d%n", &c.sm, &arch_len) != 1) return -1;
  if (arch[arch_len] == 'a') suffix = arch[arch_len++];
  if (arch[arch_len] != '\0') return -1;
  c.arch_suffix = suffix;
  if (elem_from_name(ab, &c.ab) || elem_from_name(cc, &c.c)) return -1;
  if ((opa != 'N' && opa != 'T') || (opb != 'N' && opb != 'T')) return -1;
  if (vec != 1 && vec != 2) return -1;
  c.recipe = PTX_RECIPE_SM80;
  c.op_a_t = opa == 'T';
  c.op_b_t = opb == 'T';
  c.n = n;
  c.k = k;
  c.vec_c = vec == 2;
  /* Only the canonical spelling is accepted ("sm_090a", "n=+5" are not), so one config has
   * exactly one text and one cache key. */
  char canon[256];
  if (tcj_cfg_format(&c, canon, sizeof canon) < 0 || strcmp(canon, text) != 0) return -1;
  *out = c;
  return 0;
}

int tcj_cfg_smem_bytes(const tcj_kernel_cfg *c) {
  return c->stages * (c->bm + c->bn) * c->bk * ptx_elem_size(c->ab);
}

static int is_pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

const char *tcj_cfg_check(const tcj_kernel_cfg *c) {
  int es = ptx_elem_size(c->ab);
  if (c->recipe != PTX_RECIPE_SM80) return "unknown recipe";
  if (c->sm < 80) return "the sm80 recipe needs sm_80 or newer";
  switch (c->ab) {
  case PTX_E_F16: case PTX_E_BF16:
    if (c->c != PTX_E_F16 && c->c != PTX_E_BF16 && c->c != PTX_E_F32) return "16-bit operands need c f16, bf16 or f32";
    break;
  case PTX_E_TF32:
    if (c->c != PTX_E_F32) return "tf32 operands need c f32";
    break;
  case PTX_E_S8:
    if (c->c != PTX_E_S32) return "s8 operands need c s32";
    break;
  default: return "unsupported operand type";
  }
  if (c->n < 0 || c->k < 0 || c->k > INT32_MAX || c->n > INT32_MAX) return "n or k out of range";
  /* One K tile is 64 or 128 bytes: a multiple of the 32 bytes one mma consumes per row. */
  if (c->bk * es != 64 && c->bk * es != 128) return "bk must span 64 or 128 bytes";
  if (!is_pow2(c->warps_m) || !is_pow2(c->warps_n) || c->warps_m * c->warps_n > 8) return "bad warp grid";
  if (c->bm % (16 * c->warps_m) || c->bn % (16 * c->warps_n)) return "warp tile must be a multiple of 16x16";
  if (!is_pow2(c->bm) || !is_pow2(c->bn) || c->bm < 32 || c->bn < 32 || c->bm > 256 || c->bn > 256) return "bad tile";
  if (c->stages < 2 || c->stages > 8) return "stages must be 2..8";
  if (c->split_k == 1 || c->split_k < 0 || c->split_k > 64) return "split_k must be 0 (none) or 2..64";
  if (c->split_k && c->ab == PTX_E_S8) return "split-K sums fp32 partials: not for s8";
  if (c->split_k && tcj_cfg_slice_tiles(c) * (c->split_k - 1) * c->bk >= c->k)
    return "split_k leaves a slice without K";
  if ((c->align_a != 4 && c->align_a != 8 && c->align_a != 16) || (c->align_b != 4 && c->align_b != 8 && c->align_b != 16)) return "copy alignment must be 4, 8 or 16";
  if (c->align_a < es || c->align_b < es) return "copy narrower than an element";
  /* MN-major tf32 and s8 fragments are gathered element by element (ldmatrix.trans moves
   * 16-bit elements only): with a 64x64 warp tile the address arithmetic exhausts the
   * registers and spills (seen on sm_89 with 4-byte copies). */
  int wm = c->bm / c->warps_m, wn = c->bn / c->warps_n;
  if (wm * wn > 64 * 64) return "warp tile larger than 64x64 (accumulators exceed the registers)";
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
  return NULL;
}
