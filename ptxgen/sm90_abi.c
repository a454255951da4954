/* SPDX-License-Identifier: Apache-2.0 */
/* Host-side facts of the sm90 kernel ABI (ptxgen.h): the tensor maps the kernel expects and the
 * persistent grid. Kept apart from the generator so the engine and the tests can use them
 * without generating PTX; gemm_sm90.c issues its TMA copies with exactly these boxes. */
#include "ptxgen.h"

#include "group_schedule.h"
#include "ptx_layout.h"
#include "ptx_ops.h"

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Rank 3 for an operand by entry (by_entry: batched configs; a grouped config's B, and a masked
 * group's A): dims[2] entries batch.stride elements apart, or one entry for a broadcast operand.
 * cuTensorMapEncodeTiled wants that stride a multiple of 16 below 2^40. */
static int add_batch(int by_entry, ptx_tmap_batch batch, int es, ptx_tmap_desc *out) {
  out->rank = 2;
  out->dims[2] = 1;
  out->box[2] = 1;
  out->batch_stride_bytes = 0;
  if (!by_entry) return 0;
  out->rank = 3;
  if (batch.stride == 0) {
    out->batch_stride_bytes = out->stride_bytes * out->dims[1]; /* unused: one entry */
    if (out->batch_stride_bytes >= (1ull << 40)) out->batch_stride_bytes = out->stride_bytes;
    return 0;
  }
  out->dims[2] = (uint64_t)(batch.count > 0 ? batch.count : 1);
  out->batch_stride_bytes = (uint64_t)batch.stride * (uint64_t)es;
  if (out->dims[2] > (1ull << 32) || out->batch_stride_bytes % 16 || out->batch_stride_bytes >= (1ull << 40)) return -1;
  return 0;
}

int ptx_sm90_tmap(const tcj_kernel_cfg *c, int is_b, int64_t m, int64_t ld, ptx_tmap_batch batch, ptx_tmap_desc *out) {
  int es = ptx_elem_size(c->ab);
  /* K-major: A with op N (m x k), B with op T (n x k). Otherwise the operand is MN-major. */
  int k_major = is_b ? c->op_b_t : !c->op_a_t;
  int64_t mn = is_b ? tcj_cfg_b_cols(c) : m;
  /* SwiGLU loads B's tile as a gate half and an up half (sm90_producer.c). */
  int mn_tile = is_b ? (tcj_cfg_swiglu(c) ? c->bn / 2 : c->bn) : c->bm;
  /* Each CTA of a cluster loads its part of the operand the cluster shares: B along M, A along N. */
  int parts = is_b ? c->cluster_m : c->cluster_n;
  if (k_major && parts >= 2) mn_tile /= parts;
  out->elem = c->ab;
  /* 3xTF32 parts: two per chunk of K on this recipe, read three times (sm90_x3_coords). */
  int64_t kdim = c->tf32x3 ? c->k / 3 * 2 : c->k;
  out->dims[0] = (uint64_t)(k_major ? kdim : mn);
  out->dims[1] = (uint64_t)(k_major ? mn : kdim);
  out->stride_bytes = (uint64_t)ld * (uint64_t)es;
  /* One box row is one 128-byte swizzle line: 64 K elements (K-major) or 64 MN elements. */
  out->box[0] = (uint32_t)(PTX_SWIZZLE_LINE / es);
  out->box[1] = (uint32_t)(k_major ? mn_tile : c->bk);
  /* cuTensorMapEncodeTiled: dims in [1, 2^32], strides multiples of 16 below 2^40, and the
   * stride at least one row of dims[0]. */
  if (mn < 1 || c->k < 1 || out->dims[0] > (1ull << 32) || out->dims[1] > (1ull << 32)) return -1;
  if (out->stride_bytes % 16 || out->stride_bytes >= (1ull << 40) ||
      out->stride_bytes < out->dims[0] * (uint64_t)es)
    return -1;
  return add_batch(is_b ? ptx_cols_by_entry(c) : ptx_rows_by_entry(c), batch, es, out);
}

int ptx_sm90_tma_store(const tcj_kernel_cfg *c) {
  /* A split writes partial sums (a generic kernel's split is chosen at launch: it keeps both). */
  if (c->vec_c * ptx_elem_size(c->d) != 16 || (tcj_cfg_slices(c) > 1 && !tcj_cfg_splits_at_launch(c))) return 0;
  /* The TMA path converts straight from the accumulator registers, all of them live. Spills
   * there (ptxas 13.0) decide who may take it: a user function (a call) always spills; a bias or
   * an activation in cooperative kernels spills (48 bytes at 128x256 with a column bias and
   * GELU, the bias already in shared memory), not in ping-pong ones; a batch's extra addresses
   * spill beside 128 cooperative accumulators (176 bytes at 128x256), not beside 96 or fewer,
   * nor in ping-pong consumers. The staged path works on a few staged values at a time.
   * Those counts are under nvJitLink, which ignores setmaxnreg. A cooperative tile with a fused
   * bias or activation takes the TMA path when it stages its whole tile (epi_whole), which the
   * engine compiles as a whole program (tcj_cfg_needs_whole_program): there 128x256 compiled
   * without spills with every bias kind and type and every activation (ptxas 13.0, all four op
   * pairs, f16 and bf16) but one, a row bias beside erf GELU (108 bytes), which stays staged;
   * through nvJitLink a column bias with GELU spilled 48 bytes. */
  int acc = tcj_cfg_sm90_accumulators(c);
  /* A row scale alone (row_scale: the MoE router weights) is two values per 64-row block from
   * shared memory, as a row bias's; without a bias or an activation beside it, no spills at
   * 128x256 (the compile matrix's epilogue and grouped tests). Measured on an H100 (tcj-prof,
   * Qwen3-30B-A3B's down-projection with router weights, G 128): staged 245 us, through TMA
   * 222, the same GEMM without the scale 207. */
  /* SwiGLU pairs its accumulators, bias included, before the store path takes them
   * (sm90_epilogue.c): nothing of it is left for the TMA path to apply. Its tile has bn / 2
   * columns of D, and a TMA store writes whole 128-byte boxes: with bn 64 or 192 the last box
   * would overrun the tile into its neighbour's columns (GPU-checked: those tiles left D
   * unwritten past the whole boxes), so they stay staged. */
  int swiglu = tcj_cfg_swiglu(c);
  if (swiglu && tcj_cfg_tile_cols(c) * ptx_elem_size(c->d) % PTX_SWIZZLE_LINE) return 0;
  int fused = !swiglu && (c->bias != PTX_BIAS_NONE || c->act != PTX_ACT_NONE || c->user || c->scale_row);
  /* s8's exact epilogue works in f64 (and reads its bias itself): beside 128 accumulators it
   * spills too (48 bytes at 128x256). */
  if (c->ab == PTX_E_S8 && (fused || acc > 96)) return 0;
  /* fp8's D scale, saturation and amax are written once, in the staged path. */
  if (ptx_elem_is_fp8(c->ab)) return 0;
  /* A grouped tile's rows past its group's end are the next group's, and a TMA store clips at m
   * only: contiguous groups store their tiles that end inside the group through TMA and the
   * tile that crosses the group's end staged, with the row guard (sm90_epilogue.c). Masked
   * groups' entries would need a rank-3 map for the same; they stay staged. */
  if (c->grouped == PTX_GROUP_MASKED) return 0;
  /* K groups' D is a strided batch of entries, likewise. */
  if (ptx_group_k(c->grouped)) return 0;
  /* Scattered rows are added one row at a time, wherever their indices point. */
  if (c->scatter) return 0;
  int whole_fused = c->epi_whole && !(c->bias == PTX_BIAS_ROW && c->act == PTX_ACT_GELU);
  return !c->user && (!fused || c->pingpong || whole_fused) && (!c->batched || acc <= 96 || c->pingpong);
}

int ptx_sm90_bulk_rows(const tcj_kernel_cfg *c) {
  int es = ptx_elem_size(c->d);
  /* The stored combine only. Measured on an H100 (tcj-prof --repeat 20, Qwen3-30B-A3B's
   * down-projection with router weights, 2026-12-07): stored rows 274.8 -> 242.1 us at 2048
   * tokens and 574 -> 511 at 8192 against the staged stores; the adding combine by bulk f32
   * reductions (cp.reduce.async.bulk .add.f32) lost to the staged path's vector reductions
   * (red.global.add.v4.f32), 301 -> 311 and 755 -> 792 us, so adds stay staged.
   * A row's chunk is one bulk copy of 16-byte multiples at a 16-byte aligned address: D's rows,
   * and n, in 16-byte vectors. The values are converted in registers as the TMA path's
   * (emit_epilogue_tma), which leaves the fused epilogues' extra values to the staged path. */
  if (c->scatter != PTX_SCATTER_STORE || c->vec_c * es != 16 || (es != 2 && es != 4) || tcj_cfg_slices(c) > 1)
    return 0;
  if (c->ab == PTX_E_S8 || ptx_elem_is_fp8(c->ab) || ptx_elem_is_fp8(c->d)) return 0;
  return !c->user && c->bias == PTX_BIAS_NONE && c->act == PTX_ACT_NONE && !c->scale_row;
}

enum { EPI_TAIL_BYTES = 2048 };

int ptx_sm90_epi_boxes(const tcj_kernel_cfg *c) {
  int rows = c->pingpong ? c->bm : c->bm / (c->warps_m > 0 ? c->warps_m : 1);
  return rows / TCJ_SM90_EPI_ROWS * (tcj_cfg_tile_cols(c) * ptx_elem_size(c->d) / PTX_SWIZZLE_LINE);
}

int ptx_sm90_epi_box_bytes(const tcj_kernel_cfg *c) {
  return TCJ_SM90_EPI_ROWS * (ptx_sm90_bulk_rows(c) ? TCJ_SM90_ROWS_PITCH : PTX_SWIZZLE_LINE);
}

int ptx_sm90_epi_bytes(const tcj_kernel_cfg *c) {
  if (!c->epi_whole) return TCJ_SM90_EPI_BYTES;
  int whole = ptx_sm90_epi_boxes(c) * ptx_sm90_epi_box_bytes(c) + EPI_TAIL_BYTES;
  return whole > TCJ_SM90_EPI_BYTES ? whole : TCJ_SM90_EPI_BYTES;
}

int ptx_sm90_tmap_d(const tcj_kernel_cfg *c, int64_t m, int64_t ldd, ptx_tmap_batch batch, ptx_tmap_desc *out) {
  int ces = ptx_elem_size(c->d);
  if (!ptx_sm90_tma_store(c)) return 1;
  out->elem = c->d;
  out->dims[0] = (uint64_t)c->n;
  out->dims[1] = (uint64_t)m;
  out->stride_bytes = (uint64_t)ldd * (uint64_t)ces;
  out->box[0] = (uint32_t)(PTX_SWIZZLE_LINE / ces);
  out->box[1] = TCJ_SM90_EPI_ROWS;
  if (m < 1 || c->n < 1 || out->dims[0] > (1ull << 32) || out->dims[1] > (1ull << 32)) return -1;
  if (out->stride_bytes % 16 || out->stride_bytes >= (1ull << 40) ||
      out->stride_bytes < out->dims[0] * (uint64_t)ces)
    return -1;
  return add_batch(c->batched, batch, ces, out);
}

int64_t ptx_sm90_tiles(const tcj_kernel_cfg *c, int64_t m) {
  return ceil_div(m, c->bm) * ceil_div(c->n, tcj_cfg_tile_cols(c));
}

int64_t ptx_sm90_grid(const tcj_kernel_cfg *c, int64_t m, int64_t batch, int sm_count) {
  if (c->grouped) { /* batch: the groups; persistent clusters (or CTAs) over the spec's units */
    int cluster = tcj_cfg_cluster_ctas(c);
    int64_t units = ptx_group_units(c->grouped, m, c->n, tcj_cfg_group_unit_rows(c), tcj_cfg_tile_cols(c), batch);
    int64_t slots = sm_count / cluster > 0 ? sm_count / cluster : 1;
    return (units < 1 ? 1 : units < slots ? units : slots) * cluster;
  }
  int cluster = tcj_cfg_cluster_ctas(c), along_m = c->cluster_m >= 2 ? cluster : 1, along_n = c->cluster_n >= 2 ? cluster : 1;
  /* Work units: single tiles, or a cluster's tiles along M or N, of every entry. */
  int64_t units = ceil_div(ceil_div(m, c->bm), along_m) * ceil_div(ceil_div(c->n, tcj_cfg_tile_cols(c)), along_n) * tcj_cfg_slices(c) *
                  (batch > 1 ? batch : 1);
  int64_t slots = sm_count / cluster;
  if (slots < 1) slots = 1;
  int64_t grid = units < slots ? units : slots;
  if (grid < 1) grid = 1;
  return grid * cluster;
}

int ptx_sm90_has_transpose(const tcj_kernel_cfg *c) {
  const ptx_wgmma_type *w = ptx_wgmma_type_of(c->ab);
  return w && !w->mn_major && !c->batched && !c->tf32x3; /* the split pass transposes */
}
