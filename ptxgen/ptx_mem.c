/* SPDX-License-Identifier: Apache-2.0 */
/* Vector loads and stores of n elements and the TMA tensor copies, spelled from tables; see
 * ptx_mem.h. A width or direction without a row is an error, never silent output. */
#include "ptx_mem.h"

#include <stdlib.h>
#include <string.h>

/* Vector widths, widest first: an access of n elements takes the first row that fits. */
static const struct { int n; const char *suffix; } vec_widths[] = {
  {4, ".v4"},
  {2, ".v2"},
  {1, ""},
};

const char *ptx_vec_suffix(int n, int es) {
  for (size_t i = 0; i < sizeof vec_widths / sizeof *vec_widths; i++)
    if (vec_widths[i].n == n) return n * es <= PTX_VEC_MAX_BYTES ? vec_widths[i].suffix : NULL;
  return NULL;
}

/* The widest width for `left` elements of es bytes, or 0. */
static int widest(int left, int es) {
  for (size_t i = 0; i < sizeof vec_widths / sizeof *vec_widths; i++)
    if (vec_widths[i].n <= left && vec_widths[i].n * es <= PTX_VEC_MAX_BYTES) return vec_widths[i].n;
  return 0;
}

/* Bytes of an element spelled "b8", "f16", "u32", "f64", ...: its bit count over 8, or 0. */
static int type_bytes(const char *type) {
  const char *d = type;
  while (*d && (*d < '0' || *d > '9')) d++;
  if (d == type || !*d) return 0;
  char *end;
  long bits = strtol(d, &end, 10);
  if (*end || bits % 8 || bits < 8 || bits > 64) return 0;
  return (int)(bits / 8);
}

/* {%R, %R, ...}: a vector operand. */
static void reg_vector(ptx_builder *b, const ptx_reg *r, int n) {
  ptx_text(b, "{");
  for (int i = 0; i < n; i++) ptx_text(b, i ? ", %R" : "%R", r[i]);
  ptx_text(b, "}");
}

/* A scalar access names its register bare. */
static void reg_operand(ptx_builder *b, const ptx_reg *r, int n) {
  if (n == 1) ptx_text(b, "%R", r[0]);
  else reg_vector(b, r, n);
}

static void addr_operand(ptx_builder *b, ptx_addr a, int off) {
  if (a.bare && off == 0) ptx_text(b, "[%R]", a.reg);
  else ptx_text(b, "[%R+%d]", a.reg, a.imm + off);
}

static void guard_prefix(ptx_builder *b, ptx_reg guard) {
  if (guard.id) ptx_text(b, "\t@%R ", guard);
  else ptx_text(b, "\t");
}

void ptx_vec_mem(ptx_builder *b, ptx_reg guard, const char *op, const char *type, int n, const ptx_reg *regs,
                 ptx_addr addr) {
  /* Stores and reductions name the address first, loads the registers. */
  int es = type_bytes(type), store = strncmp(op, "st.", 3) == 0 || strncmp(op, "red.", 4) == 0;
  if (!store && strncmp(op, "ld.", 3) != 0) { ptx_fail(b, "\"%s\" is neither a load nor a store", op); return; }
  if (!es) { ptx_fail(b, "no element size for type \"%s\"", type); return; }
  if (n < 1) { ptx_fail(b, "%s of %d elements", op, n); return; }
  for (int i = 0; i < n;) {
    int w = widest(n - i, es);
    if (!w) { ptx_fail(b, "no vector width for %s.%s", op, type); return; }
    guard_prefix(b, guard);
    ptx_text(b, "%s%s.%s ", op, ptx_vec_suffix(w, es), type);
    if (store) {
      addr_operand(b, addr, es * i);
      ptx_text(b, ", ");
      reg_operand(b, regs + i, w);
    } else {
      reg_operand(b, regs + i, w);
      ptx_text(b, ", ");
      addr_operand(b, addr, es * i);
    }
    ptx_text(b, ";\n");
    i += w;
  }
}

/* The directions of cp.async.bulk.tensor: state spaces (destination first) and completion
 * mechanism. A copy into shared memory completes on an mbarrier, so it names one. */
static const struct { const char *spaces, *completion; int to_shared; } tma_dirs[] = {
  [PTX_TMA_LOAD] = {"shared::cluster.global", "mbarrier::complete_tx::bytes", 1},
  [PTX_TMA_STORE] = {"global.shared::cta", "bulk_group", 0},
};

/* Tensor maps have 1 to 5 dimensions (cuTensorMapEncodeTiled; PTX: .1d ... .5d). */
enum { TMA_RANK_MAX = 5 };

void ptx_tma(ptx_builder *b, ptx_reg guard, ptx_tma_dir dir, ptx_reg tmap, int rank, const ptx_reg *coord, ptx_addr smem,
             ptx_reg bar, ptx_reg mask) {
  if ((unsigned)dir >= sizeof tma_dirs / sizeof *tma_dirs) { ptx_fail(b, "no TMA direction %d", (int)dir); return; }
  if (rank < 1 || rank > TMA_RANK_MAX) { ptx_fail(b, "no TMA copy of rank %d", rank); return; }
  int to_shared = tma_dirs[dir].to_shared;
  if (mask.id && !to_shared) { ptx_fail(b, "a TMA store has no multicast"); return; }
  guard_prefix(b, guard);
  ptx_text(b, "cp.async.bulk.tensor.%dd.%s.%s%s ", rank, tma_dirs[dir].spaces, tma_dirs[dir].completion,
           mask.id ? ".multicast::cluster" : "");
  if (to_shared) {
    addr_operand(b, smem, 0);
    ptx_text(b, ", ");
  }
  ptx_text(b, "[%R, ", tmap);
  reg_vector(b, coord, rank);
  ptx_text(b, "]");
  if (to_shared) {
    ptx_text(b, ", [%R]", bar);
    if (mask.id) ptx_text(b, ", %R", mask);
  } else {
    ptx_text(b, ", ");
    addr_operand(b, smem, 0);
  }
  ptx_text(b, ";\n");
}
