/* SPDX-License-Identifier: Apache-2.0 */
/* The fused epilogue of both recipes; see epilogue.h. Activation spellings are rows of a table,
 * each one a short PTX sequence on an f32 register; an activation without a row is an error. */
#include "epilogue.h"

#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "group_schedule.h"
#include "ptx_mem.h"
#include "ptx_ops.h"
#include "ptxgen.h"
#include "recipe.h"
#include "user_epilogue.h"

static ptx_reg r32(ptx_builder *b) { return ptx_new(b, PTX_B32); }
static ptx_reg r64(ptx_builder *b) { return ptx_new(b, PTX_B64); }

/* ---- activations ---------------------------------------------------------------------------- */

/* ex2.approx computes 2^x, so e^x = 2^(x * log2(e)) (0f3FB8AA3B is log2(e), 0fBFB8AA3B its
 * negation). ex2.approx.ftz.f32 has a relative error of 2^-22 over the whole range (PTX ISA,
 * ex2) and reaches 0 and +inf at the ends, which the formulas below turn into the right limits. */

/* v = v / (1 + e^-arg): SiLU (arg = v), and GELU's tanh form, which is v * sigmoid(2u) with
 * u = sqrt(2/pi) (v + 0.044715 v^3). No cancellation at either end. */
static void emit_sigmoid_times(ptx_builder *b, ptx_reg v, ptx_reg arg) {
  ptx_reg t = ptx_new(b, PTX_F32);
  ptx_ins(b, "mul.f32 %R, %R, 0fBFB8AA3B", t, arg); /* -log2e */
  ptx_ins(b, "ex2.approx.ftz.f32 %R, %R", t, t);
  ptx_ins(b, "add.f32 %R, %R, 0f3F800000", t, t);
  ptx_ins(b, "div.full.f32 %R, %R, %R", v, v, t);
}

static void act_relu(ptx_builder *b, ptx_reg v) {
  ptx_ins(b, "max.NaN.f32 %R, %R, 0f00000000", v, v); /* NaN stays NaN, as torch.relu */
}

static void act_silu(ptx_builder *b, ptx_reg v) { emit_sigmoid_times(b, v, v); }

static void act_gelu_tanh(ptx_builder *b, ptx_reg v) {
  /* 2u = v * (2 sqrt(2/pi) + 2 sqrt(2/pi) 0.044715 v^2) = v * (1.5957691 + 0.0713548 v^2) */
  ptx_reg t = ptx_new(b, PTX_F32);
  ptx_ins(b, "mul.f32 %R, %R, %R", t, v, v);
  ptx_ins(b, "fma.rn.f32 %R, %R, 0f3D922279, 0f3FCC422A", t, t); /* 0.0713548162, 1.5957691216 */
  ptx_ins(b, "mul.f32 %R, %R, %R", t, t, v);
  emit_sigmoid_times(b, v, t);
}

/* GELU, erf form: v * Phi(v), Phi(v) = erfc(-v / sqrt2) / 2. erfc(x) for x >= 0 by Abramowitz
 * and Stegun 7.1.26: t P(t) e^(-x^2), t = 1 / (1 + 0.3275911 x), |error| <= 1.5e-7. With
 * h = erfc(|v| / sqrt2) / 2, Phi is h below 0 and 1 - h above, so neither tail cancels. */
static void act_gelu(ptx_builder *b, ptx_reg v) {
  ptx_reg x = ptx_new(b, PTX_F32), t = ptx_new(b, PTX_F32), p = ptx_new(b, PTX_F32), ex = ptx_new(b, PTX_F32);
  ptx_reg neg = ptx_new(b, PTX_PRED);
  ptx_ins(b, "abs.f32 %R, %R", x, v);
  ptx_ins(b, "mul.f32 %R, %R, 0f3F3504F3", x, x); /* |v| / sqrt2 */
  ptx_ins(b, "fma.rn.f32 %R, %R, 0f3EA7BA05, 0f3F800000", t, x); /* 1 + 0.3275911 x */
  ptx_ins(b, "rcp.approx.ftz.f32 %R, %R", t, t);
  ptx_ins(b, "fma.rn.f32 %R, %R, 0f3F87DC22, 0fBFBA00E3", p, t); /* a5 t + a4: 1.061405429, -1.453152027 */
  ptx_ins(b, "fma.rn.f32 %R, %R, %R, 0f3FB5F0E3", p, p, t);       /* + a3: 1.421413741 */
  ptx_ins(b, "fma.rn.f32 %R, %R, %R, 0fBE91A98E", p, p, t);       /* + a2: -0.284496736 */
  ptx_ins(b, "fma.rn.f32 %R, %R, %R, 0f3E827906", p, p, t);       /* + a1: 0.254829592 */
  ptx_ins(b, "mul.f32 %R, %R, %R", p, p, t);
  ptx_ins(b, "mul.f32 %R, %R, %R", ex, x, x);
  ptx_ins(b, "mul.f32 %R, %R, 0fBFB8AA3B", ex, ex); /* -x^2 log2e */
  ptx_ins(b, "ex2.approx.ftz.f32 %R, %R", ex, ex);
  ptx_ins(b, "mul.f32 %R, %R, %R", p, p, ex);
  ptx_ins(b, "mul.f32 %R, %R, 0f3F000000", p, p); /* h */
  ptx_ins(b, "setp.lt.f32 %R, %R, 0f00000000", neg, v);
  ptx_ins_if(b, neg, 1, "sub.f32 %R, 0f3F800000, %R", p, p); /* 1 - h where v >= 0 */
  ptx_ins(b, "mul.f32 %R, %R, %R", v, v, p);
}

static const struct {
  ptx_act act;
  void (*emit)(ptx_builder *b, ptx_reg v);
} act_table[] = {
  {PTX_ACT_RELU, act_relu},
  {PTX_ACT_GELU, act_gelu},
  {PTX_ACT_GELU_TANH, act_gelu_tanh},
  {PTX_ACT_SILU, act_silu},
};

static void emit_act(ptx_builder *b, ptx_act act, ptx_reg v) {
  if (act == PTX_ACT_NONE) return;
  for (size_t i = 0; i < sizeof act_table / sizeof *act_table; i++)
    if (act_table[i].act == act) {
      act_table[i].emit(b, v);
      return;
    }
  ptx_fail(b, "no PTX for activation %s", ptx_act_name(act));
}

/* ---- parameters ----------------------------------------------------------------------------- */

void ptx_emit_gemm_params(ptx_builder *b) {
  char name[32];
#define PTX_PARAM_DECL(pname, ptype, ctype)        \
  snprintf(name, sizeof name, "p_%s", #pname);     \
  ptx_entry_param(b, name, "." #ptype);
  PTX_GEMM_PARAMS(PTX_PARAM_DECL)
#undef PTX_PARAM_DECL
}

static ptx_val kernel_dim(ptx_builder *b, const tcj_kernel_cfg *c, const char *param, int64_t baked) {
  if (!c->generic) return ptx_imm(baked);
  ptx_reg r = ptx_new(b, PTX_B32);
  ptx_ins(b, "ld.param.u32 %R, [%s]", r, param);
  return ptx_in_reg(r);
}
ptx_val ptx_kernel_n(ptx_builder *b, const tcj_kernel_cfg *c) { return kernel_dim(b, c, "p_n", c->n); }
ptx_val ptx_kernel_k(ptx_builder *b, const tcj_kernel_cfg *c) { return kernel_dim(b, c, "p_k", c->k); }

ptx_reg ptx_epi_row_bytes(ptx_builder *b, ptx_val n, int es) {
  ptx_reg r = r64(b);
  if (n.reg.id) ptx_ins(b, "mul.wide.u32 %R, %V, %d", r, n, es);
  else ptx_ins(b, "mov.u64 %R, %lld", r, (long long)n.imm * es);
  return r;
}

/* base + z * stride * es for the u64 parameter p_<base> and p_<stride>. */
static ptx_reg emit_entry_base(ptx_builder *b, const char *base, const char *stride, int es, ptx_reg z64) {
  ptx_reg p = r64(b);
  ptx_text(b, "\tld.param.u64 %R, [%s];\n", p, base);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", p, p);
  if (z64.id) {
    ptx_reg s = r64(b);
    ptx_text(b, "\tld.param.u64 %R, [%s];\n", s, stride);
    ptx_ins(b, "mul.lo.u64 %R, %R, %R", s, s, z64);
    ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", p, s, es, p);
  }
  return p;
}

/* A scalar: the value behind its device pointer parameter when that is not 0, else the f32
 * parameter `value` (alpha, beta) or, when value is NULL, 1 (an fp8 scale). */
static ptx_reg emit_scalar(ptx_builder *b, const char *value, const char *ptr) {
  ptx_reg v = ptx_new(b, PTX_F32), p = r64(b), given = ptx_new(b, PTX_PRED);
  if (value) ptx_text(b, "\tld.param.f32 %R, [%s];\n", v, value);
  else ptx_ins(b, "mov.f32 %R, 0f3F800000", v);
  ptx_text(b, "\tld.param.u64 %R, [%s];\n", p, ptr);
  ptx_ins(b, "setp.ne.u64 %R, %R, 0", given, p);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", p, p);
  ptx_ins_if(b, given, 0, "ld.global.f32 %R, [%R]", v, p);
  return v;
}

/* A float array's base for entry z64 (invalid: entry 0) as a u64 global address, 0 where the
 * pointer parameter p_<ptr> is 0 (its values are then 1): p_<ptr> + z * stride floats, stride
 * the u64 parameter `stride`, or p_m (u32) when stride is NULL (one value per row of an entry). */
static ptx_reg emit_scale_base(ptx_builder *b, const char *ptr, const char *stride, ptx_reg z64) {
  ptx_reg p = r64(b), given = ptx_new(b, PTX_PRED);
  ptx_text(b, "\tld.param.u64 %R, [%s];\n", p, ptr);
  ptx_ins(b, "setp.ne.u64 %R, %R, 0", given, p);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", p, p);
  if (z64.id) {
    ptx_reg s = r64(b);
    if (stride) {
      ptx_text(b, "\tld.param.u64 %R, [%s];\n", s, stride);
    } else {
      ptx_reg m = r32(b);
      ptx_ins(b, "ld.param.u32 %R, [p_m]", m);
      ptx_ins(b, "cvt.u64.u32 %R, %R", s, m);
    }
    ptx_ins(b, "mul.lo.u64 %R, %R, %R", s, s, z64);
    ptx_ins(b, "mad.lo.u64 %R, %R, 4, %R", p, s, p);
  }
  ptx_ins(b, "selp.b64 %R, %R, 0, %R", p, p, given);
  return p;
}

/* base[index + offset] (f32), 1 where base is 0 or index + offset >= limit. */
static ptx_reg emit_scale_at(ptx_builder *b, ptx_reg base, ptx_reg index, int offset, ptx_val limit) {
  ptx_reg v = ptx_new(b, PTX_F32), i = r32(b), in = ptx_new(b, PTX_PRED), addr = r64(b);
  ptx_ins(b, "mov.f32 %R, 0f3F800000", v);
  ptx_ins(b, "add.u32 %R, %R, %d", i, index, offset);
  ptx_ins(b, "setp.lt.u32 %R, %R, %V", in, i, limit);
  ptx_ins(b, "setp.ne.and.u64 %R, %R, 0, %R", in, base, in);
  ptx_ins(b, "mul.wide.u32 %R, %R, 4", addr, i);
  ptx_ins(b, "add.u64 %R, %R, %R", addr, addr, base);
  ptx_ins_if(b, in, 0, "ld.global.nc.f32 %R, [%R]", v, addr);
  return v;
}

ptx_reg ptx_epi_beta_nonzero(ptx_builder *b) {
  ptx_reg beta = emit_scalar(b, "p_beta", "p_beta_ptr"), nz = ptx_new(b, PTX_PRED);
  ptx_ins(b, "setp.neu.f32 %R, %R, 0f00000000", nz, beta);
  return nz;
}

void ptx_epi_begin(ptx_builder *b, const tcj_kernel_cfg *cfg, ptx_epi *e, ptx_reg m, ptx_reg z) {
  e->cfg = cfg;
  e->exact = cfg->ab == PTX_E_S8;
  e->m = m;
  e->n = ptx_kernel_n(b, cfg);
  ptx_reg z64 = {0};
  if (ptx_cols_by_entry(cfg) && z.id) { /* a batch entry, or a group (its B, bias and `batch`) */
    z64 = r64(b);
    ptx_ins(b, "cvt.u64.u32 %R, %R", z64, z);
  }
  ptx_reg alpha = emit_scalar(b, "p_alpha", "p_alpha_ptr"), beta = emit_scalar(b, "p_beta", "p_beta_ptr");
  e->has_beta = ptx_new(b, PTX_PRED); /* beta == 0: C is never read (it may hold NaNs, or be absent) */
  ptx_ins(b, "setp.neu.f32 %R, %R, 0f00000000", e->has_beta, beta);
  /* The caller's alpha, before the fp8 scales: only alpha == 0 means "A and B not referenced". */
  e->alpha_zero = ptx_new(b, PTX_PRED);
  ptx_ins(b, "setp.eq.f32 %R, %R, 0f00000000", e->alpha_zero, alpha);
  e->products_dropped = 0;
  /* fp8 per-tensor scales multiply alpha (block scales were applied in the mainloop, row
   * scales are per element); a group's B scale is p_stride_scale_b floats after the previous
   * group's. */
  /* Rows of C, D and the per-row arrays: a contiguous group's are rows of the whole matrices
   * (the recipe's row coordinates); a masked group's and a K group's, of entry g. */
  ptx_reg rows_z64 = ptx_cd_by_entry(cfg) ? z64 : (ptx_reg){0};
  ptx_reg group_z64 = cfg->grouped ? z64 : (ptx_reg){0};
  e->scale_rows = e->scale_cols = e->row_scale = (ptx_reg){0};
  if (ptx_elem_is_fp8(cfg->ab) && !cfg->block_scale && !cfg->scale_row) {
    ptx_ins(b, "mul.f32 %R, %R, %R", alpha, alpha, emit_scalar(b, NULL, "p_scale_a"));
    if (group_z64.id) {
      ptx_reg base = emit_scale_base(b, "p_scale_b", "p_stride_scale_b", group_z64), zero = r32(b);
      ptx_ins(b, "mov.u32 %R, 0", zero);
      ptx_ins(b, "mul.f32 %R, %R, %R", alpha, alpha, emit_scale_at(b, base, zero, 0, ptx_imm(1)));
    } else {
      ptx_ins(b, "mul.f32 %R, %R, %R", alpha, alpha, emit_scalar(b, NULL, "p_scale_b"));
    }
  }
  if (cfg->scale_row) {
    e->scale_rows = emit_scale_base(b, "p_scale_a", NULL, rows_z64);
    e->scale_cols = emit_scale_base(b, "p_scale_b", "p_stride_scale_b", group_z64);
  }
  if (cfg->row_scale) e->row_scale = emit_scale_base(b, "p_row_scale", NULL, rows_z64);
  e->scale_d = ptx_elem_is_fp8(cfg->d) ? emit_scalar(b, NULL, "p_scale_d") : (ptx_reg){0};
  e->scatter = e->scatter_rows = (ptx_reg){0};
  if (cfg->scatter) {
    ptx_reg rows = r64(b);
    e->scatter = r64(b);
    e->scatter_rows = r32(b);
    ptx_ins(b, "ld.param.u64 %R, [p_scatter]", e->scatter);
    ptx_ins(b, "cvta.to.global.u64 %R, %R", e->scatter, e->scatter);
    ptx_ins(b, "ld.param.u64 %R, [p_scatter_rows]", rows);
    ptx_ins(b, "cvt.u32.u64 %R, %R", e->scatter_rows, rows); /* below 2^31 (validate.c) */
  }
  e->amax = (ptx_reg){0}; /* the recipe's, set after this call */
  e->alpha = alpha;
  e->beta = beta;
  if (e->exact) {
    e->alpha = ptx_new(b, PTX_F64);
    e->beta = ptx_new(b, PTX_F64);
    ptx_ins(b, "cvt.f64.f32 %R, %R", e->alpha, alpha);
    ptx_ins(b, "cvt.f64.f32 %R, %R", e->beta, beta);
  }
  /* A contiguous group's rows are rows of the whole C and D (the recipe's row coordinates). */
  e->c_base = emit_entry_base(b, "p_c", "p_stride_c", ptx_elem_size(cfg->c), rows_z64);
  e->d_base = emit_entry_base(b, "p_d", "p_stride_d", ptx_elem_size(cfg->d), rows_z64);
  e->ldc_bytes = r64(b);
  e->ldd_bytes = r64(b);
  ptx_ins(b, "ld.param.u64 %R, [p_ldc]", e->ldc_bytes);
  ptx_ins(b, "mul.lo.u64 %R, %R, %d", e->ldc_bytes, e->ldc_bytes, ptx_elem_size(cfg->c));
  ptx_ins(b, "ld.param.u64 %R, [p_ldd]", e->ldd_bytes);
  ptx_ins(b, "mul.lo.u64 %R, %R, %d", e->ldd_bytes, e->ldd_bytes, ptx_elem_size(cfg->d));
  e->bias = (ptx_reg){0};
  if (cfg->bias != PTX_BIAS_NONE) e->bias = emit_entry_base(b, "p_bias", "p_stride_bias", ptx_elem_size(cfg->bias_t), z64);
  e->batch = (ptx_reg){0};
  e->params = (ptx_reg){0};
  if (cfg->user) {
    e->batch = r64(b);
    if (z64.id) ptx_ins(b, "mov.u64 %R, %R", e->batch, z64);
    else ptx_ins(b, "mov.u64 %R, 0", e->batch);
    e->params = r64(b);
    ptx_ins(b, "ld.param.u64 %R, [p_user_params]", e->params);
  }
}

/* ---- C loads and D stores ------------------------------------------------------------------- */

static const char *word_type(ptx_elem t) { return ptx_elem_row_of(t)->mem; }

void ptx_epi_load(ptx_builder *b, ptx_elem t, ptx_reg addr, int imm, ptx_reg guard, int count, ptx_reg *out) {
  int es = ptx_elem_size(t);
  if (count != 1 && count != 2 && count != 4 && count != 8) {
    ptx_fail(b, "epilogue load of %d elements", count);
    return;
  }
  for (int i = 0; i < count; i++) {
    out[i] = ptx_new(b, ptx_elem_row_of(t)->reg);
    ptx_ins(b, t == PTX_E_S32 ? "mov.b32 %R, 0" : "mov.f32 %R, 0f00000000", out[i]);
  }
  if (es == 4) {
    ptx_vec_mem(b, guard, "ld.global", word_type(t), count, out, ptx_at_plus(addr, imm));
    return;
  }
  if (es != 2) {
    ptx_fail(b, "epilogue load of %s", ptx_elem_name(t));
    return;
  }
  if (count == 1) {
    ptx_reg h = ptx_new(b, PTX_B16);
    ptx_ins(b, "mov.b16 %R, 0", h);
    ptx_vec_mem(b, guard, "ld.global", "b16", 1, &h, ptx_at_plus(addr, imm));
    ptx_cvt_to_f32(b, t, out[0], h);
    return;
  }
  ptx_reg w[4];
  int words = count / 2;
  for (int i = 0; i < words; i++) {
    w[i] = r32(b);
    ptx_ins(b, "mov.b32 %R, 0", w[i]);
  }
  ptx_vec_mem(b, guard, "ld.global", "b32", words, w, ptx_at_plus(addr, imm));
  for (int i = 0; i < words; i++) {
    ptx_reg lo = ptx_new(b, PTX_B16), hi = ptx_new(b, PTX_B16);
    ptx_ins(b, "mov.b32 {%R, %R}, %R", lo, hi, w[i]);
    ptx_cvt_to_f32(b, t, out[2 * i], lo);
    ptx_cvt_to_f32(b, t, out[2 * i + 1], hi);
  }
}

/* fp8: pairs convert with saturation to the largest finite value, NaN staying NaN
 * (cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 d, hi, lo: the first source is the upper byte; sm_89+). */
static void store_fp8(ptx_builder *b, ptx_elem t, ptx_reg addr, int imm, ptx_reg guard, int count, const ptx_reg *v) {
  const char *ty = ptx_elem_row_of(t)->cvt;
  ptx_reg h[4];
  for (int i = 0; i < (count + 1) / 2; i++) {
    h[i] = ptx_new(b, PTX_B16);
    if (2 * i + 1 < count) ptx_ins(b, "cvt.rn.satfinite.%sx2.f32 %R, %R, %R", ty, h[i], v[2 * i + 1], v[2 * i]);
    else ptx_ins(b, "cvt.rn.satfinite.%sx2.f32 %R, 0f00000000, %R", ty, h[i], v[2 * i]);
  }
  if (count <= 2) { /* one or two bytes: a b8 or b16 store of the pair's register */
    ptx_vec_mem(b, guard, "st.global", count == 1 ? "b8" : "b16", 1, h, ptx_at_plus(addr, imm));
    return;
  }
  ptx_reg w[2];
  for (int i = 0; i < count / 4; i++) {
    w[i] = r32(b);
    ptx_ins(b, "mov.b32 %R, {%R, %R}", w[i], h[2 * i], h[2 * i + 1]);
  }
  ptx_vec_mem(b, guard, "st.global", "b32", count / 4, w, ptx_at_plus(addr, imm));
}

/* Widest red.global.add.f32 vector on cfg's target: sm_90 added .v2 and .v4 (PTX ISA 8.1). */
static int red_f32_width(const tcj_kernel_cfg *cfg) { return cfg->sm >= 90 ? 4 : 1; }

int ptx_epi_isa_x10(const tcj_kernel_cfg *cfg) {
  return cfg->scatter == PTX_SCATTER_ADD && red_f32_width(cfg) > 1 ? 81 : 0;
}

ptx_reg ptx_epi_d_row(ptx_builder *b, const ptx_epi *e, ptx_reg row, ptx_reg *guard) {
  if (!e->cfg->scatter) return row;
  ptx_reg d = r32(b), addr = r64(b), in = ptx_new(b, PTX_PRED);
  ptx_ins(b, "mov.u32 %R, -1", d); /* outside D where the row is not read */
  ptx_ins(b, "mul.wide.u32 %R, %R, 4", addr, row);
  ptx_ins(b, "add.u64 %R, %R, %R", addr, addr, e->scatter);
  ptx_ins_if(b, *guard, 0, "ld.global.nc.u32 %R, [%R]", d, addr);
  /* Unsigned: a negative index is past every row. */
  ptx_ins(b, "setp.lt.and.u32 %R, %R, %R, %R", in, d, e->scatter_rows, *guard);
  *guard = in;
  return d;
}

/* The MoE combine's adds (PTX_SCATTER_ADD): count f32 values added into D at
 * [addr + imm] by atomic reductions, since a token's rows come from several CTAs at once;
 * vectors where the target has them (the caller's count keeps D's alignment). */
static void add_f32(ptx_builder *b, const tcj_kernel_cfg *cfg, ptx_reg addr, int imm, ptx_reg guard, int count,
                    const ptx_reg *v) {
  int w = red_f32_width(cfg);
  for (int i = 0; i < count; i += w)
    ptx_vec_mem(b, guard, "red.global.add", "f32", count - i < w ? count - i : w, v + i, ptx_at_plus(addr, imm + 4 * i));
}

void ptx_epi_store_d(ptx_builder *b, const ptx_epi *e, ptx_reg addr, int imm, ptx_reg guard, int count, ptx_reg *v) {
  if (e->cfg->scatter == PTX_SCATTER_ADD) { /* f32 D, no amax, no D scale (tcj_cfg_check_grouped, validate.c) */
    add_f32(b, e->cfg, addr, imm, guard, count, v);
    return;
  }
  if (e->amax.id) { /* |v| of the elements stored, before the D scale */
    for (int i = 0; i < count; i++) {
      ptx_reg t = ptx_new(b, PTX_F32);
      ptx_ins(b, "abs.f32 %R, %R", t, v[i]);
      ptx_ins(b, "selp.f32 %R, %R, 0f00000000, %R", t, t, guard);
      ptx_ins(b, "max.f32 %R, %R, %R", e->amax, e->amax, t);
    }
  }
  if (e->scale_d.id)
    for (int i = 0; i < count; i++) ptx_ins(b, "mul.f32 %R, %R, %R", v[i], v[i], e->scale_d);
  ptx_epi_store(b, e->cfg->d, addr, imm, guard, count, v);
}

ptx_reg ptx_epi_amax_begin(ptx_builder *b, const tcj_kernel_cfg *cfg) {
  if (!ptx_elem_is_fp8(cfg->ab)) return (ptx_reg){0};
  ptx_reg a = ptx_new(b, PTX_F32);
  ptx_ins(b, "mov.f32 %R, 0f00000000", a);
  return a;
}

void ptx_epi_amax_flush(ptx_builder *b, ptx_reg amax) {
  if (!amax.id) return;
  /* The warp's maximum (butterfly), then one atomic per warp. Non-negative floats order as
   * their bit patterns, so red.max.u32 is a float max; the engine zeroes *amax first. */
  for (int lane_mask = 16; lane_mask >= 1; lane_mask /= 2) {
    ptx_reg t = ptx_new(b, PTX_F32);
    ptx_ins(b, "shfl.sync.bfly.b32 %R, %R, %d, 31, -1", t, amax, lane_mask);
    ptx_ins(b, "max.f32 %R, %R, %R", amax, amax, t);
  }
  ptx_reg p = r64(b), lane = r32(b), bits = r32(b), first = ptx_new(b, PTX_PRED);
  ptx_ins(b, "ld.param.u64 %R, [p_amax]", p);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", p, p);
  ptx_ins(b, "mov.u32 %R, %%laneid", lane);
  ptx_ins(b, "setp.eq.u32 %R, %R, 0", first, lane);
  ptx_ins(b, "setp.ne.and.u64 %R, %R, 0, %R", first, p, first);
  ptx_ins(b, "mov.b32 %R, %R", bits, amax);
  ptx_ins_if(b, first, 0, "red.global.max.u32 [%R], %R", p, bits);
}

void ptx_epi_store(ptx_builder *b, ptx_elem t, ptx_reg addr, int imm, ptx_reg guard, int count, const ptx_reg *v) {
  int es = ptx_elem_size(t);
  if (count != 1 && count != 2 && count != 4 && count != 8) {
    ptx_fail(b, "epilogue store of %d elements", count);
    return;
  }
  if (es == 4) {
    ptx_vec_mem(b, guard, "st.global", word_type(t), count, v, ptx_at_plus(addr, imm));
    return;
  }
  if (ptx_elem_is_fp8(t)) {
    store_fp8(b, t, addr, imm, guard, count, v);
    return;
  }
  if (es != 2) {
    ptx_fail(b, "epilogue store of %s", ptx_elem_name(t));
    return;
  }
  if (count == 1) {
    ptx_reg h = ptx_new(b, PTX_B16);
    ptx_cvt_from_f32(b, t, h, v[0]);
    ptx_vec_mem(b, guard, "st.global", "b16", 1, &h, ptx_at_plus(addr, imm));
    return;
  }
  ptx_reg w[4];
  int words = count / 2;
  const char *ty = ptx_elem_row_of(t)->cvt;
  for (int i = 0; i < words; i++) {
    w[i] = r32(b);
    /* cvt.rn.{bf16,f16}x2.f32 d, hi, lo: the first source goes to the upper half (sm_80+). */
    ptx_ins(b, "cvt.rn.%sx2.f32 %R, %R, %R", ty, w[i], v[2 * i + 1], v[2 * i]);
  }
  ptx_vec_mem(b, guard, "st.global", "b32", words, w, ptx_at_plus(addr, imm));
}

/* ---- the element-wise epilogue --------------------------------------------------------------- */

/* The address of bias[index] (u64), computed once per group of values. */
static ptx_reg emit_bias_addr(ptx_builder *b, const ptx_epi *e, ptx_reg index) {
  ptx_reg addr = r64(b);
  ptx_ins(b, "mul.wide.u32 %R, %R, %d", addr, index, ptx_elem_size(e->cfg->bias_t));
  ptx_ins(b, "add.u64 %R, %R, %R", addr, addr, e->bias);
  return addr;
}

/* bias[index + offset] at addr + offset elements, as f32 (f64 when exact); 0 where
 * index + offset >= limit (a register, or when limit_reg is invalid the immediate limit). */
static ptx_reg emit_bias_value(ptx_builder *b, const ptx_epi *e, ptx_reg addr, ptx_reg index, int offset,
                               ptx_val limit) {
  ptx_elem bt = e->cfg->bias_t;
  ptx_reg i = r32(b), in = ptx_new(b, PTX_PRED), v = ptx_new(b, PTX_F32);
  int imm = offset * ptx_elem_size(bt);
  ptx_ins(b, "add.u32 %R, %R, %d", i, index, offset);
  ptx_ins(b, "setp.lt.u32 %R, %R, %V", in, i, limit);
  ptx_ins(b, "mov.f32 %R, 0f00000000", v);
  if (bt == PTX_E_F32) {
    ptx_vec_mem(b, in, "ld.global.nc", "f32", 1, &v, ptx_at_plus(addr, imm));
  } else {
    ptx_reg h = ptx_new(b, PTX_B16);
    ptx_ins(b, "mov.b16 %R, 0", h);
    ptx_vec_mem(b, in, "ld.global.nc", "b16", 1, &h, ptx_at_plus(addr, imm));
    ptx_cvt_to_f32(b, bt, v, h);
  }
  if (!e->exact) return v;
  ptx_reg d = ptx_new(b, PTX_F64);
  ptx_ins(b, "cvt.f64.f32 %R, %R", d, v);
  return d;
}

void ptx_epi_module_prelude(ptx_builder *b, const tcj_kernel_cfg *cfg, const ptx_user_code *user, int isa_x10) {
  int min_x10 = user ? user->version_x10 : 0;
  if (min_x10 < isa_x10) min_x10 = isa_x10;
  ptx_module_header_min(b, cfg->sm, cfg->arch_suffix, min_x10);
  ptx_text(b, ".extern .shared .align 1024 .b8 tcj_smem[];\n\n");
  if (!cfg->user) return;
  if (user) {
    ptx_text(b, "%s\n\n", user->body);
    return;
  }
  /* The user's tcj_epilogue (TCJ_EPILOGUE_SIGNATURE in tcj.h), defined in another module: the
   * prototype of user_epilogue.c with .extern linkage. */
  ptx_text(b, ".extern %s\n\n", strstr(PTX_USER_EPILOGUE_PROTO, ".func"));
}

/* v = tcj_epilogue(v, c, row, col, batch, params) for an element of D only: tcj.h promises a
 * call per element, and a user function indexing its own m x n buffer by (row, col) would read
 * past it for the rows and columns a tile has beyond the problem. The call is branched around
 * (ptxas refuses a predicated ld.param of the return value), so it is divergent: `call`, not
 * `call.uni`. */
static void emit_user_call(ptx_builder *b, const ptx_epi *e, ptx_reg v, ptx_reg c, ptx_reg row, ptx_reg col) {
  ptx_reg in = ptx_new(b, PTX_PRED);
  int outside = ptx_new_label(b);
  ptx_ins(b, "setp.lt.u32 %R, %R, %R", in, row, e->m);
  ptx_ins(b, "setp.lt.and.u32 %R, %R, %V, %R", in, col, e->n, in);
  ptx_ins_if(b, in, 1, "bra %L", outside);
  ptx_reg r64v = r64(b), c64 = r64(b);
  ptx_ins(b, "cvt.u64.u32 %R, %R", r64v, row);
  ptx_ins(b, "cvt.u64.u32 %R, %R", c64, col);
  ptx_text(b, "\t{\n\t.param .b32 u_v;\n\t.param .b32 u_c;\n\t.param .b64 u_row;\n\t.param .b64 u_col;\n"
              "\t.param .b64 u_batch;\n\t.param .b64 u_params;\n\t.param .b32 u_ret;\n");
  ptx_ins(b, "st.param.f32 [u_v], %R", v);
  ptx_ins(b, "st.param.f32 [u_c], %R", c);
  int t = e->cfg->user_t; /* the kernel's D is the caller's D^T (a column-major call) */
  ptx_ins(b, "st.param.b64 [u_row], %R", t ? c64 : r64v);
  ptx_ins(b, "st.param.b64 [u_col], %R", t ? r64v : c64);
  ptx_ins(b, "st.param.b64 [u_batch], %R", e->batch);
  ptx_ins(b, "st.param.b64 [u_params], %R", e->params);
  ptx_ins(b, "call (u_ret), tcj_epilogue, (u_v, u_c, u_row, u_col, u_batch, u_params)");
  ptx_ins(b, "ld.param.f32 %R, [u_ret]", v);
  ptx_text(b, "\t}\n");
  ptx_label(b, outside);
}

int ptx_epi_drop_products(ptx_builder *b, const tcj_kernel_cfg *cfg, ptx_reg *acc, int rows, int stride, int count) {
  if (cfg->ab == PTX_E_S8) return 0;
  ptx_reg nonzero = ptx_new(b, PTX_PRED);
  int keep = ptx_new_label(b);
  ptx_ins(b, "setp.neu.f32 %R, %R, 0f00000000", nonzero, emit_scalar(b, "p_alpha", "p_alpha_ptr"));
  ptx_ins_if(b, nonzero, 0, "bra.uni %L", keep);
  for (int r = 0; r < rows; r++)
    for (int i = 0; i < count; i++) ptx_ins(b, "mov.f32 %R, 0f00000000", acc[r * stride + i]);
  ptx_label(b, keep);
  return 1;
}

ptx_reg ptx_epi_bias_at(ptx_builder *b, const ptx_epi *e, ptx_reg index, ptx_val limit) {
  if (e->exact) {
    ptx_fail(b, "ptx_epi_bias_at gives f32 values: not for exact (s32) epilogues");
    return index;
  }
  return emit_bias_value(b, e, emit_bias_addr(b, e, index), index, 0, limit);
}

void ptx_epi_swiglu_bias(ptx_builder *b, const ptx_epi *e, ptx_reg col, int count, ptx_reg *bias_g, ptx_reg *bias_u) {
  if (e->cfg->bias == PTX_BIAS_NONE) return;
  ptx_reg gate_addr = emit_bias_addr(b, e, col), up_addr = r64(b);
  ptx_ins(b, "add.u64 %R, %R, %R", up_addr, gate_addr, ptx_epi_row_bytes(b, e->n, ptx_elem_size(e->cfg->bias_t)));
  for (int i = 0; i < count; i++) {
    bias_g[i] = emit_bias_value(b, e, gate_addr, col, i, e->n);
    bias_u[i] = emit_bias_value(b, e, up_addr, col, i, e->n);
  }
}

void ptx_epi_swiglu(ptx_builder *b, const ptx_epi *e, ptx_reg *gate, const ptx_reg *up, int count,
                    const ptx_reg *bias_g, const ptx_reg *bias_u) {
  if (e->exact || !tcj_cfg_swiglu(e->cfg)) {
    ptx_fail(b, "swiglu on a config without act=swiglu or with s32 accumulators");
    return;
  }
  for (int i = 0; i < count; i++) {
    ptx_reg u = ptx_new(b, PTX_F32);
    ptx_ins(b, "mul.f32 %R, %R, %R", gate[i], gate[i], e->alpha);
    ptx_ins(b, "mul.f32 %R, %R, %R", u, up[i], e->alpha);
    if (!e->products_dropped) {
      ptx_ins(b, "selp.f32 %R, 0f00000000, %R, %R", gate[i], gate[i], e->alpha_zero);
      ptx_ins(b, "selp.f32 %R, 0f00000000, %R, %R", u, u, e->alpha_zero);
    }
    if (bias_g) {
      ptx_ins(b, "add.f32 %R, %R, %R", gate[i], gate[i], bias_g[i]);
      ptx_ins(b, "add.f32 %R, %R, %R", u, u, bias_u[i]);
    }
    act_silu(b, gate[i]);
    ptx_ins(b, "mul.f32 %R, %R, %R", gate[i], gate[i], u);
  }
}

void ptx_epi_apply(ptx_builder *b, const ptx_epi *e, ptx_reg *v, const ptx_reg *cin, int count, ptx_reg row,
                   ptx_reg col) {
  ptx_epi_apply_bias(b, e, v, cin, count, row, col, NULL, (ptx_reg){0});
}

ptx_reg ptx_epi_row_scale_at(ptx_builder *b, const ptx_epi *e, ptx_reg row) {
  return emit_scale_at(b, e->row_scale, row, 0, ptx_in_reg(e->m));
}

void ptx_epi_apply_bias(ptx_builder *b, const ptx_epi *e, ptx_reg *v, const ptx_reg *cin, int count, ptx_reg row,
                        ptx_reg col, const ptx_reg *given, ptx_reg given_row_scale) {
  const tcj_kernel_cfg *cfg = e->cfg;
  ptx_reg row_bias = {0}, col_addr = {0}, row_factor = {0}, row_after = {0};
  /* SwiGLU: ptx_epi_swiglu made the values final (tcj_cfg_check: no C, no user function, no
   * row scales). */
  if (tcj_cfg_swiglu(cfg)) return;
  if (given && e->exact) ptx_fail(b, "given bias values are f32: not for exact (s32) epilogues");
  if ((cfg->scale_row || (cfg->row_scale && !given_row_scale.id)) && (!row.id || !col.id))
    ptx_fail(b, "per-row and per-column scales need each value's row and column");
  if (cfg->scale_row) row_factor = emit_scale_at(b, e->scale_rows, row, 0, ptx_in_reg(e->m));
  if (cfg->row_scale) {
    row_after = given_row_scale.id ? given_row_scale : ptx_epi_row_scale_at(b, e, row);
    if (e->exact) {
      ptx_reg d = ptx_new(b, PTX_F64);
      ptx_ins(b, "cvt.f64.f32 %R, %R", d, row_after);
      row_after = d;
    }
  }
  if (!given && cfg->bias == PTX_BIAS_ROW) row_bias = emit_bias_value(b, e, emit_bias_addr(b, e, row), row, 0, ptx_in_reg(e->m));
  if (!given && cfg->bias == PTX_BIAS_COL) col_addr = emit_bias_addr(b, e, col);
  for (int i = 0; i < count; i++) {
    ptx_reg bias = row_bias;
    if (given && cfg->bias != PTX_BIAS_NONE) bias = given[i];
    else if (cfg->bias == PTX_BIAS_COL) bias = emit_bias_value(b, e, col_addr, col, i, e->n);
    if (e->exact) {
      ptx_reg x = ptx_new(b, PTX_F64);
      ptx_ins(b, "cvt.rn.f64.s32 %R, %R", x, v[i]);
      ptx_ins(b, "mul.f64 %R, %R, %R", x, x, e->alpha);
      if (cin) {
        ptx_reg y = ptx_new(b, PTX_F64);
        ptx_ins(b, "cvt.rn.f64.s32 %R, %R", y, cin[i]);
        ptx_ins(b, "fma.rn.f64 %R, %R, %R, %R", x, y, e->beta, x);
      }
      if (bias.id) ptx_ins(b, "add.f64 %R, %R, %R", x, x, bias);
      if (cfg->act == PTX_ACT_RELU) ptx_ins(b, "max.f64 %R, %R, 0d0000000000000000", x, x);
      else if (cfg->act != PTX_ACT_NONE) ptx_fail(b, "activation %s on s32 output", ptx_act_name(cfg->act));
      if (row_after.id) ptx_ins(b, "mul.f64 %R, %R, %R", x, x, row_after);
      ptx_ins(b, "cvt.rni.sat.s32.f64 %R, %R", v[i], x);
      continue;
    }
    if (cfg->scale_row) { /* fp8 row scales: scale_a[row] * scale_b[col], with alpha */
      ptx_reg f = emit_scale_at(b, e->scale_cols, col, i, e->n);
      ptx_ins(b, "mul.f32 %R, %R, %R", f, f, row_factor);
      ptx_ins(b, "mul.f32 %R, %R, %R", v[i], v[i], f);
    }
    ptx_ins(b, "mul.f32 %R, %R, %R", v[i], v[i], e->alpha);
    if (!e->products_dropped) ptx_ins(b, "selp.f32 %R, 0f00000000, %R, %R", v[i], v[i], e->alpha_zero);
    if (cin) ptx_ins_if(b, e->has_beta, 0, "fma.rn.f32 %R, %R, %R, %R", v[i], e->beta, cin[i], v[i]);
    if (bias.id) ptx_ins(b, "add.f32 %R, %R, %R", v[i], v[i], bias);
    emit_act(b, cfg->act, v[i]);
    if (cfg->user) {
      ptx_reg c = ptx_new(b, PTX_F32), cc = r32(b);
      if (cin) ptx_ins(b, "mov.f32 %R, %R", c, cin[i]);
      else ptx_ins(b, "mov.f32 %R, 0f00000000", c);
      ptx_ins(b, "add.u32 %R, %R, %d", cc, col, i);
      emit_user_call(b, e, v[i], c, row, cc);
    }
    if (row_after.id) ptx_ins(b, "mul.f32 %R, %R, %R", v[i], v[i], row_after);
  }
}

/* ---- split-K reduction: D = epilogue(sum of the slices' partial sums) ------------------------- */

int ptx_reduce_vec(const tcj_kernel_cfg *c) { return c->vec_c >= 4 ? 4 : c->vec_c >= 2 ? 2 : 1; }

/* Slices whose loads a thread of the reduction keeps in flight at once. */
#define REDUCE_GROUP 8

/* sum[0..count) (new f32 registers) = the count adjacent fp32 values at addr, addr + slice_bytes,
 * ... of each of the p_slices slices (a launch value), added in slice order from 0. The loop
 * takes REDUCE_GROUP slices a pass and issues their loads before the first add, so a thread
 * keeps them in flight; a load past the last slice is predicated off and adds +0, which leaves
 * the sum as it was (a sum from +0 is never -0). .cg reads at L2, where the slices were written. */
static void sum_slices(ptx_builder *b, ptx_reg addr, ptx_reg slice_bytes, int count, ptx_reg *sum) {
  if (count != 1 && count != 2 && count != 4) {
    ptx_fail(b, "sum of slices of %d values", count);
    return;
  }
  ptx_reg slices = r32(b), z = r32(b), t = r32(b), at = r64(b), ag = r64(b), step = r64(b);
  ptx_reg more = ptx_new(b, PTX_PRED), part[REDUCE_GROUP][4];
  int loop = ptx_new_label(b);
  for (int v = 0; v < count; v++) {
    sum[v] = ptx_new(b, PTX_F32);
    ptx_ins(b, "mov.f32 %R, 0f00000000", sum[v]);
  }
  ptx_ins(b, "ld.param.u32 %R, [p_slices]", slices);
  ptx_ins(b, "mov.u64 %R, %R", at, addr);
  ptx_ins(b, "mov.u32 %R, 0", z);
  ptx_ins(b, "mul.lo.u64 %R, %R, %d", step, slice_bytes, REDUCE_GROUP);
  ptx_label(b, loop);
  ptx_ins(b, "mov.u64 %R, %R", ag, at);
  for (int g = 0; g < REDUCE_GROUP; g++) {
    ptx_reg *p = part[g], here = ptx_new(b, PTX_PRED);
    for (int v = 0; v < count; v++) {
      p[v] = ptx_new(b, PTX_F32);
      ptx_ins(b, "mov.f32 %R, 0f00000000", p[v]);
    }
    ptx_ins(b, "add.u32 %R, %R, %d", t, z, g);
    ptx_ins(b, "setp.lt.u32 %R, %R, %R", here, t, slices);
    ptx_vec_mem(b, here, "ld.global.cg", "f32", count, p, ptx_at(ag));
    if (g + 1 < REDUCE_GROUP) ptx_ins(b, "add.u64 %R, %R, %R", ag, ag, slice_bytes);
  }
  for (int v = 0; v < count; v++)
    for (int g = 0; g < REDUCE_GROUP; g++) ptx_ins(b, "add.f32 %R, %R, %R", sum[v], sum[v], part[g][v]);
  ptx_ins(b, "add.u64 %R, %R, %R", at, at, step);
  ptx_ins(b, "add.u32 %R, %R, %d", z, z, REDUCE_GROUP);
  ptx_ins(b, "setp.lt.u32 %R, %R, %R", more, z, slices);
  ptx_ins_if(b, more, 0, "bra.uni %L", loop);
}

/* One thread per ptx_reduce_vec() adjacent elements of a row of D: the slices' partial sums sit
 * m * n apart, so each vector load of the loop over slices is coalesced across the warp. One
 * element per thread, with a 64-bit division each, took 10.2 us for 1000 x 1000 from two slices
 * (ncu, H100): three times its memory traffic's time. Indices fit 32 bits: the workspace of a
 * split holds at most 2^26 elements per slice (select_shared.c, SPLIT_WORKSPACE_MAX). Split configs
 * are never batched. */
void ptx_emit_reduce_entry(ptx_builder *b, const tcj_kernel_cfg *c) {
  int vec = ptx_reduce_vec(c);
  ptx_entry_begin(b, PTX_REDUCE_ENTRY);
  ptx_emit_gemm_params(b);
  ptx_entry_body(b, PTX_REDUCE_THREADS);
  /* Vectors per row: n / vec (vec divides n: a generic class's vec_c divides its n). */
  ptx_val n = ptx_kernel_n(b, c), nv = ptx_imm(n.imm / vec);
  if (n.reg.id) {
    nv = ptx_in_reg(r32(b));
    ptx_ins(b, "shr.u32 %V, %V, %d", nv, n, vec == 4 ? 2 : vec == 2 ? 1 : 0);
  }
  ptx_reg tid = r32(b), idx = r32(b), m = r32(b), total = r32(b), row = r32(b), col = r32(b);
  ptx_reg w = r64(b), addr = r64(b), slice_bytes = ptx_epi_row_bytes(b, n, 4), t64 = r64(b);
  ptx_reg done = ptx_new(b, PTX_PRED), always = ptx_new(b, PTX_PRED);
  int end = ptx_new_label(b);
  ptx_reg amax = ptx_epi_amax_begin(b, c); /* threads past the end add 0 */
  ptx_ins(b, "mov.u32 %R, %%tid.x", tid);
  ptx_ins(b, "mov.u32 %R, %%ctaid.x", idx);
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", idx, idx, PTX_REDUCE_THREADS, tid);
  ptx_ins(b, "ld.param.u32 %R, [p_m]", m);
  ptx_ins(b, "mul.lo.u32 %R, %R, %V", total, m, nv);
  ptx_ins(b, "setp.ge.u32 %R, %R, %R", done, idx, total);
  ptx_ins_if(b, done, 0, "bra %L", end); /* divergent: the tail warp reconverges at end */
  ptx_ins(b, "div.u32 %R, %R, %V", row, idx, nv);
  ptx_ins(b, "mul.lo.u32 %R, %R, %V", col, row, nv);
  ptx_ins(b, "sub.u32 %R, %R, %R", col, idx, col);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", col, col, vec);
  ptx_ins(b, "ld.param.u64 %R, [p_work]", w);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", w, w);
  ptx_ins(b, "mul.wide.u32 %R, %R, %lld", addr, idx, (long long)(4 * vec));
  ptx_ins(b, "add.u64 %R, %R, %R", addr, addr, w);
  ptx_ins(b, "cvt.u64.u32 %R, %R", t64, m);
  ptx_ins(b, "mul.lo.u64 %R, %R, %R", slice_bytes, slice_bytes, t64);
  ptx_reg sum[4];
  sum_slices(b, addr, slice_bytes, vec, sum);
  ptx_epi e;
  ptx_epi_begin(b, c, &e, m, (ptx_reg){0});
  e.amax = amax;
  ptx_reg caddr = r64(b), daddr = r64(b), cin[4];
  ptx_ins(b, "cvt.u64.u32 %R, %R", t64, row);
  ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", caddr, t64, e.ldc_bytes, e.c_base);
  ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", daddr, t64, e.ldd_bytes, e.d_base);
  ptx_ins(b, "cvt.u64.u32 %R, %R", t64, col);
  ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", caddr, t64, ptx_elem_size(c->c), caddr);
  ptx_ins(b, "mad.lo.u64 %R, %R, %d, %R", daddr, t64, ptx_elem_size(c->d), daddr);
  ptx_epi_load(b, c->c, caddr, 0, e.has_beta, vec, cin);
  ptx_epi_apply(b, &e, sum, cin, vec, row, col);
  ptx_ins(b, "setp.eq.u32 %R, %R, %R", always, tid, tid);
  ptx_epi_store_d(b, &e, daddr, 0, always, vec, sum);
  ptx_label(b, end);
  ptx_epi_amax_flush(b, amax);
  ptx_ins(b, "ret");
}

static int has_reduce(const tcj_kernel_cfg *c) { return ptx_has_reduce(c); }
const ptx_extra_entry ptx_extra_reduce = {PTX_EXTRA_REDUCE, PTX_REDUCE_ENTRY, has_reduce, ptx_emit_reduce_entry};
