/* SPDX-License-Identifier: Apache-2.0 */
/* What more than one recipe's plan uses: the problem's fields every config takes, the K split
 * through the workspace (sm80 and sm90 recipes) and the operand copy width or packing (sm80 and
 * dmma recipes). */
#include <stdio.h>
#include <string.h>

#include "engine/select_recipes.h"

#define PACK_MIN_ELEMS (1LL << 20) /* below this a narrow copy costs less than a packing pass */

/* The fields every config takes from the problem and the target, the rest zero. */
void select_fill_problem(const eng_problem *p, const eng_device_caps *caps, const ptx_recipe_row *recipe,
                         tcj_kernel_cfg *c) {
  memset(c, 0, sizeof *c);
  c->recipe = (ptx_recipe)ptx_recipe_index(recipe);
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
  c->fast_accum = recipe->promotion ? p->fast_accum : 0;
  c->block_scale = p->block_scale;
  c->tf32x3 = p->tf32x3;
  c->grouped = p->grouped;
  c->scale_row = p->scale_row;
  c->row_scale = p->row_scale;
  c->b_ptrs = p->b_ptrs;
  c->gather = p->gather;
  c->scatter = p->scatter;
}

/* Split-K: when a problem's tiles leave SMs idle (less than one wave) and K is long, slices
 * of K run on separate CTAs, about two per SM in all, each at least MIN_SLICE_BYTES of K
 * long, with an fp32 workspace of at most SPLIT_WORKSPACE_MAX bytes. s8 is never split (its
 * s32 sums would round through fp32). Returns the slice count, or 0. */
#define MAX_SPLIT 16
/* Below this much K per row (64 K tiles of 64 bytes) a CTA's whole K takes a few
 * microseconds, less than the split's workspace allocation and second launch cost (measured on
 * an H200: bf16 512^3 went from 6.8 to 10.5 us split four ways). */
#define MIN_SPLIT_K_BYTES 4096
#define SPLIT_WORKSPACE_MAX (256ll << 20)
int select_pick_split(const eng_problem *p, const eng_device_caps *caps, const tcj_kernel_cfg *c) {
  /* Batches fill the GPU with their entries; batched kernels do not split. */
  if (p->ab == PTX_E_S8 || p->m == 0 || p->n == 0 || p->batch > 1) return 0;
  int64_t tiles = select_ceil_div(p->m, c->bm) * select_ceil_div(p->n, c->bn), kt = select_ceil_div(p->k, c->bk);
  int64_t tile_bytes = (int64_t)c->bk * ptx_elem_size(p->ab);
  if (tiles >= caps->sm_count || kt * tile_bytes < MIN_SPLIT_K_BYTES) return 0;
  int64_t s = 2 * caps->sm_count / tiles;
  if (s > kt * tile_bytes / MIN_SLICE_BYTES) s = kt * tile_bytes / MIN_SLICE_BYTES;
  if (s > MAX_SPLIT) s = MAX_SPLIT;
  while (s >= 2 && s * p->m * p->n * 4 > SPLIT_WORKSPACE_MAX) s--;
  if (s < 2) return 0;
  int64_t per = select_ceil_div(kt, s); /* equal slices; none left empty */
  s = select_ceil_div(kt, per);
  return s >= 2 ? (int)s : 0;
}

/* Operand copy width and whether it must be packed first. An operand aligned below 4 bytes
 * cannot use cp.async at all; a large one below 16 bytes pays more for narrow copies on every
 * tile than for one packing pass. */
tcj_status select_plan_operand(const char *name, int align, int64_t elems, int allow_packing,
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
