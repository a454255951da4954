/* SPDX-License-Identifier: Apache-2.0 */
/* Canonical text form of tcj_kernel_cfg and the static checks every recipe shares (each
 * recipe's own are in its row: recipe.h). The text is the memo key and (with the arch and
 * compiler identity) the cache key, so it must name every field. */
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

/* The spellings only (recipe_list.h): the rows (recipe.h) sit above this file. */
const char *tcj_recipe_name(ptx_recipe r) { return ptx_recipe_spelling(r); }

/* The text is made on every call (the loaded-kernel memo's key), so it is appended by hand:
 * snprintf's format parsing was half of a memo-hit tcj_gemm_ex's own host time (perf, 0.78 us
 * per call on a 2-core x86 machine). len counts what would be written, as snprintf's result. */
typedef struct text_out {
  char *buf;
  size_t size, len;
} text_out;

static void put_char(text_out *o, char ch) {
  if (o->len + 1 < o->size) o->buf[o->len] = ch;
  o->len++;
}

static void put_str(text_out *o, const char *s) {
  for (; *s; s++) put_char(o, *s);
}

static void put_int(text_out *o, long long v) {
  char digits[24];
  int n = 0;
  unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
  do {
    digits[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0) put_char(o, '-');
  while (n) put_char(o, digits[--n]);
}

/* " name=" and the number. */
static void put_field(text_out *o, const char *name, long long v) {
  put_char(o, ' ');
  put_str(o, name);
  put_char(o, '=');
  put_int(o, v);
}

static void put_hex16(text_out *o, unsigned long long v) {
  for (int shift = 60; shift >= 0; shift -= 4) put_char(o, "0123456789abcdef"[(v >> shift) & 15]);
}

int tcj_cfg_format(const tcj_kernel_cfg *c, char *buf, size_t size) {
  text_out o = {buf, size, 0};
  put_str(&o, "recipe=");
  put_str(&o, tcj_recipe_name(c->recipe));
  put_str(&o, " arch=sm_");
  put_int(&o, c->sm);
  if (c->arch_suffix) put_char(&o, (char)c->arch_suffix);
  put_str(&o, " ab=");
  put_str(&o, ptx_elem_name(c->ab));
  put_str(&o, " c=");
  put_str(&o, ptx_elem_name(c->c));
  put_str(&o, " op=");
  put_char(&o, c->op_a_t ? 'T' : 'N');
  put_char(&o, c->op_b_t ? 'T' : 'N');
  put_field(&o, "n", (long long)c->n);
  put_field(&o, "k", (long long)c->k);
  put_field(&o, "tile", c->bm);
  put_char(&o, 'x');
  put_int(&o, c->bn);
  put_char(&o, 'x');
  put_int(&o, c->bk);
  put_field(&o, "warps", c->warps_m);
  put_char(&o, 'x');
  put_int(&o, c->warps_n);
  put_field(&o, "stages", c->stages);
  put_field(&o, "align", c->align_a);
  put_char(&o, ',');
  put_int(&o, c->align_b);
  put_char(&o, ',');
  put_int(&o, c->vec_c);
  /* Optional fields are absent at their defaults, so older keys stay as they were. */
  if (c->split_k >= 2) put_field(&o, "split", c->split_k);
  if (c->split_cluster) put_str(&o, " reduce=cluster");
  if (c->cluster_m >= 2) put_field(&o, "cluster", c->cluster_m);
  if (c->cluster_n >= 2) put_field(&o, "cluster_n", c->cluster_n);
  if (c->pingpong) put_field(&o, "pingpong", c->pingpong);
  if (c->epi_whole) put_str(&o, " epi=whole");
  /* The epilogue, each field only where it differs from a plain tcj_gemm's. */
  if (c->d != c->c) {
    put_str(&o, " d=");
    put_str(&o, ptx_elem_name(c->d));
  }
  if (c->bias != PTX_BIAS_NONE) {
    put_str(&o, c->bias == PTX_BIAS_COL ? " bias=col:" : c->bias == PTX_BIAS_ROW ? " bias=row:" : " bias=?:");
    put_str(&o, ptx_elem_name(c->bias_t));
  }
  if (c->act != PTX_ACT_NONE) {
    put_str(&o, " act=");
    put_str(&o, ptx_act_name(c->act));
  }
  if (c->batched) put_field(&o, "batch", c->batched);
  if (c->user) {
    put_str(&o, " user=");
    put_hex16(&o, (unsigned long long)c->user);
  }
  if (c->user_t) put_field(&o, "user_t", c->user_t);
  /* fp8: B's type where it is the other one, and the accumulation and scale modes. */
  if (c->b_other) {
    put_str(&o, " b=");
    put_str(&o, ptx_elem_name(tcj_cfg_b_type(c)));
  }
  if (c->fast_accum) put_field(&o, "fast", c->fast_accum);
  if (c->block_scale) put_str(&o, " scale=block");
  if (c->tf32x3) put_field(&o, "x3", c->tf32x3);
  if (c->generic) put_field(&o, "generic", c->generic);
  if (c->grouped) put_field(&o, "group", c->grouped);
  if (c->scale_row) put_str(&o, " scale=row");
  if (c->row_scale) put_str(&o, " rowscale");
  if (c->b_ptrs) put_str(&o, " bptrs");
  if (c->gather) put_str(&o, " gather");
  if (c->scatter == PTX_SCATTER_ADD) put_str(&o, " scatter=add");
  else if (c->scatter == PTX_SCATTER_STORE) put_str(&o, " scatter=store");
  else if (c->scatter) put_field(&o, "scatter", c->scatter); /* a bad value as it is (tcj_cfg_check names it) */
  if (size) buf[o.len < size ? o.len : size - 1] = 0;
  return o.len < size ? (int)o.len : -1;
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
  int r = ptx_recipe_by_spelling(recipe);
  if (r < 0) return -1;
  c.recipe = (ptx_recipe)r;
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
  if (strncmp(rest, " epi=whole", 10) == 0) {
    c.epi_whole = 1;
    rest += 10;
  }
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
  more = 0;
  if (sscanf(rest, " group=%d%n", &c.grouped, &more) == 1) rest += more;
  if (strncmp(rest, " scale=row", 10) == 0) {
    c.scale_row = 1;
    rest += 10;
  }
  if (strncmp(rest, " rowscale", 9) == 0) {
    c.row_scale = 1;
    rest += 9;
  }
  if (strncmp(rest, " bptrs", 6) == 0) {
    c.b_ptrs = 1;
    rest += 6;
  }
  if (strncmp(rest, " gather", 7) == 0) {
    c.gather = 1;
    rest += 7;
  }
  if (strncmp(rest, " scatter=add", 12) == 0) {
    c.scatter = PTX_SCATTER_ADD;
    rest += 12;
  } else if (strncmp(rest, " scatter=store", 14) == 0) {
    c.scatter = PTX_SCATTER_STORE;
    rest += 14;
  }
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

/* The budgets kernel_cfg.h describes. */
enum { SM90_CTA_REGS = 65536, SM90_ENTRY_REGS = 168, SM90_PRODUCER_REGS = 40, SM90_CONSUMER_REGS = 232,
       SM90_GATHER_PRODUCER_REGS = 56, SM90_GATHER_CONSUMER_REGS = 224 };

tcj_sm90_regs tcj_cfg_sm90_regs(const tcj_kernel_cfg *c) {
  tcj_sm90_regs r;
  int threads = tcj_cfg_sm90_threads(c), consumers = threads / 128 - 1;
  r.entry = SM90_CTA_REGS / threads / 8 * 8;
  if (r.entry > SM90_ENTRY_REGS) r.entry = SM90_ENTRY_REGS;
  r.producer = c->gather ? SM90_GATHER_PRODUCER_REGS : SM90_PRODUCER_REGS;
  r.consumer = (threads * r.entry - 128 * r.producer) / (128 * (consumers > 0 ? consumers : 1)) / 8 * 8;
  int most = c->gather ? SM90_GATHER_CONSUMER_REGS : SM90_CONSUMER_REGS;
  if (r.consumer > most) r.consumer = most;
  return r;
}

/* C's types per operand type: the element table's rule (elem.c). */
const char *tcj_cfg_check_c_type(ptx_elem ab, ptx_elem c) { return ptx_elem_check_c(ab, c); }

/* The operand type's epilogue rule (elem.c: s8 takes a bias and ReLU, f64 a plain epilogue):
 * NULL, or the row's reason. */
const char *tcj_cfg_check_epilogue_type(const tcj_kernel_cfg *c) {
  if (ptx_elem_check_epilogue(c->ab, c->bias != PTX_BIAS_NONE, (int)c->act, c->user != 0) == PTX_EPI_OK) return NULL;
  const ptx_elem_row *r = ptx_elem_row_of(c->ab);
  return r && r->epi_rule ? r->epi_rule : "unsupported operand type";
}

/* The epilogue's fields, common to every recipe. D takes the types C may have. */
/* SwiGLU pairs a tile's gate and up accumulators in registers (tcj_cfg_tile_cols): every
 * accumulator must be a whole product of the tile (no K slices), C is never read (the vector
 * checks see D only), and its bias runs along the 2n columns. */
static const char *check_swiglu(const tcj_kernel_cfg *c) {
  if (c->ab != PTX_E_F16 && c->ab != PTX_E_BF16) return "swiglu takes f16 or bf16 operands";
  if (c->bias == PTX_BIAS_ROW) return "swiglu takes a column bias only (2n values)";
  if (c->user || c->user_t) return "swiglu takes no user epilogue";
  if (c->row_scale || c->scale_row) return "swiglu takes no row scales";
  if (ptx_group_k(c->grouped)) return "swiglu takes no K groups";
  if (c->split_k || c->split_cluster) return "swiglu kernels do not split K (the halves pair whole sums)";
  if (c->generic) return "swiglu kernels are not generic (n is baked: the up half starts at column n)";
  if (c->cluster_m || c->cluster_n) return "swiglu kernels run no clusters";
  if (c->bn % 32) return "swiglu needs bn a multiple of 32 (n8 blocks of gate and up in pairs)";
  if (c->n < 1 || 2 * c->n > INT32_MAX) return "swiglu needs 1 <= 2n < 2^31";
  return NULL;
}

const char *tcj_cfg_check_epilogue(const tcj_kernel_cfg *c, int promotion) {
  ptx_elem d = c->d;
  /* The operands' D types (elem.c): fp8 operands may write fp8 D (saturated, after the D scale),
   * their C stays a float type; the recipe checks have taken C already. */
  if ((unsigned)d >= PTX_E_COUNT || !(ptx_elem_row_of(c->ab)->d_types & PTX_ELEM_BIT(d)))
    return "d type does not fit the operands";
  if (ptx_elem_is_fp8(d) && c->sm < 89) return "fp8 conversion needs sm_89";
  if ((unsigned)c->bias > PTX_BIAS_ROW) return "bias must be none, col or row";
  if (c->user_t != 0 && (c->user_t != 1 || !c->user)) return "user_t is 1 with a user epilogue, else 0";
  if (c->bias && ((unsigned)c->bias_t >= PTX_E_COUNT || !ptx_elem_row_of(c->bias_t)->bias))
    return "a bias is f16, bf16 or f32";
  if ((unsigned)c->act >= PTX_ACT_COUNT) return "unknown activation";
  const char *type_why = tcj_cfg_check_epilogue_type(c);
  if (type_why) return type_why;
  if (tcj_cfg_swiglu(c) && (type_why = check_swiglu(c)) != NULL) return type_why;
  int fp8 = ptx_elem_is_fp8(c->ab);
  if (c->b_other && !fp8) return "b differs from a only between the two fp8 types";
  if ((c->fast_accum || c->block_scale) && !fp8) return "fast accumulation and block scales are fp8 options";
  if ((unsigned)c->fast_accum > 1 || (unsigned)c->block_scale > 1) return "fast and scale=block are flags";
  if ((unsigned)c->scale_row > 1) return "scale=row is a flag";
  if (c->scale_row && (!fp8 || c->block_scale)) return "row scales (scale=row) are an fp8 scale mode, not with scale=block";
  if ((unsigned)c->row_scale > 1) return "rowscale is a flag";
  /* Row scales are epilogue work as a bias is (in f32; f64 for exact s8): the types that take one. */
  if (c->row_scale && ptx_elem_check_epilogue(c->ab, 1, PTX_ACT_NONE, 0) != PTX_EPI_OK)
    return "rowscale is a fused epilogue, which the operand type does not take";
  if ((unsigned)c->tf32x3 > 1) return "x3 is a flag";
  if (c->tf32x3 && (c->ab != PTX_E_TF32 || c->op_a_t || !c->op_b_t))
    return "3xTF32 parts are tf32, K-major (A op N, B op T): the split pass writes them so";
  if (c->block_scale && (c->fast_accum || !promotion || c->batched))
    return "block scales are applied at promotion: sm90, not fast, not batched";
  if (c->batched != 0 && c->batched != 1) return "batch must be 0 or 1";
  if (c->batched && c->split_k) return "batched kernels do not split K";
  int ves = ptx_elem_size(d) > ptx_elem_size(c->c) ? ptx_elem_size(d) : ptx_elem_size(c->c);
  if (c->vec_c * ves > 16) return "C/D vector wider than 16 bytes";
  return NULL;
}

/* A generic kernel reads n and k at run time; what a kernel bakes from them it cannot have. */
const char *tcj_cfg_check_generic(const tcj_kernel_cfg *c) {
  if (c->generic != 0 && c->generic != 1) return "generic must be 0 or 1";
  if (!c->generic) return NULL;
  if (c->n != 0 || c->k != 0) return "a generic config has n = k = 0 (they are run-time arguments)";
  if (c->split_cluster) return "generic kernels split K through the workspace only (a cluster split bakes its K range)";
  if (c->cluster_n) return "generic kernels have no cluster along N (its unit columns are baked from n)";
  if (c->block_scale) return "generic kernels have no block scales (their row pitch is baked from k)";
  return NULL;
}


/* A grouped kernel (tcj_kernel_cfg.grouped) finds its group's rows on the device: what takes the
 * rows, the batch or the K range apart some other way it cannot have (this slice of grouped
 * GEMM: 16-bit and fp8 operands, row-major D, a column bias; the recipe rows refuse it where they do
 * not run it). */
const char *tcj_cfg_check_grouped(const tcj_kernel_cfg *c) {
  if ((unsigned)c->grouped > PTX_GROUP_K_ENDS64)
    return "group must be 0 (none), 1 (ends32), 2 (ends64), 3 (masked), 4 (K ends32) or 5 (K ends64)";
  if ((unsigned)c->b_ptrs > 1 || (unsigned)c->gather > 1) return "bptrs and gather are flags";
  /* B by pointers: one B per M group (K groups read one B); gathered rows: one A whose rows the
   * contiguous groups read through the indices, K-major (A op N) so that a row is a copy's row. */
  if (c->b_ptrs && (!c->grouped || ptx_group_k(c->grouped))) return "bptrs needs M groups (group 1, 2 or 3)";
  if (c->gather && ((c->grouped != PTX_GROUP_ENDS32 && c->grouped != PTX_GROUP_ENDS64) || c->op_a_t))
    return "gather needs contiguous groups (group 1 or 2) and A op N";
  /* fp8 row and block scales on A are per row of A's own order: not through a gather. */
  if (c->gather && (c->scale_row || c->block_scale)) return "gather takes no fp8 row or block scales";
  /* Scattered rows go to D's rows through indices (contiguous groups' rows only); adds are f32
   * atomics (tcj.h, scatter_mode). */
  if ((unsigned)c->scatter > PTX_SCATTER_STORE) return "scatter must be add or store";
  if (c->scatter && c->grouped != PTX_GROUP_ENDS32 && c->grouped != PTX_GROUP_ENDS64)
    return "scatter needs contiguous groups (group 1 or 2)";
  if (c->scatter && c->user_t) return "scatter writes row-major D";
  if (c->scatter == PTX_SCATTER_ADD && c->d != PTX_E_F32) return "scatter=add adds into f32 D (f32 atomics)";
  if (!c->grouped) return NULL;
  if (c->batched) return "a grouped kernel is not batched (its groups are its entries)";
  if (c->split_k || c->split_cluster) return "grouped kernels do not split K";
  if (c->generic) return "grouped kernels are not generic (n and k are baked)";
  if (c->tf32x3) return "grouped kernels have no 3xTF32";
  if (c->ab != PTX_E_F16 && c->ab != PTX_E_BF16 && !ptx_elem_is_fp8(c->ab))
    return "grouped kernels take f16, bf16, e4m3 or e5m2 operands";
  if (c->bias == PTX_BIAS_ROW) return "grouped kernels take a column bias only (bias=col)";
  if (c->user_t) return "grouped kernels write row-major D (user_t 0)";
  if (c->n < 1) return "a grouped kernel has n >= 1 (its tile columns divide the units)";
  /* K groups start at any K index: only where K is the stored row of both operands (A stored
   * k x m, B k x n) is every group's first copy as aligned as the matrix. */
  if (ptx_group_k(c->grouped) && (!c->op_a_t || c->op_b_t)) return "K groups need A op T and B op N (K is their row)";
  return NULL;
}
