/* SPDX-License-Identifier: Apache-2.0 */
/* The sm80 recipe's generator, split by concern (gemm_sm80.c: indices and the kernel's order;
 * sm80_operands.c: operand layout, global addresses and cp.async copies; sm80_mainloop.c:
 * fragments and mma.sync; sm80_epilogue.c: the cluster split's sum and the epilogue): the state
 * they share, the kernel being generated. */
#ifndef TCJ_PTX_SM80_KERNEL_H
#define TCJ_PTX_SM80_KERNEL_H

#include "kernel_cfg.h"
#include "ptx_builder.h"

enum {
  MAX_CHUNKS = 32,    /* cp.async per thread per operand per tile */
  MAX_FRAG_BLOCKS = 8, /* 16-row fragment blocks per warp and operand */
  MAX_N_FRAGS = 16,   /* n8 fragments per warp */
  GROUP_M = 8,        /* CTA raster: GROUP_M tile rows walk N together, for L2 reuse */
};

/* One operand (A or B) of the kernel: its shared-memory tile and how threads fill it. */
typedef struct operand {
  int is_b;
  int k_major;       /* K contiguous in global memory: A with op N, B with op T */
  int mn_tile;       /* bm or bn */
  int rows, row_bytes; /* shared tile: K-major rows = mn_tile; MN-major rows = bk */
  int width, cpr, chunks; /* cp.async bytes, chunks per row, chunks per thread */
  int smem_off;      /* offset of the tile inside a stage */
  int check_row, check_col; /* edge predication on rows / on columns of the stored tile */
  /* SwiGLU's B (tcj_cfg_swiglu): tile column block 2t (8 columns) holds gate columns n0 + 8t..
   * and block 2t + 1 up columns n + n0 + 8t..; mn_t is then the column within its half, and a
   * copy's offset along MN in the tile is half as far in its half of B. */
  int interleave;
  int warp_span;     /* rows of this operand one warp covers (WM or WN) */
  int blocks;        /* 16-row fragment blocks per warp: warp_span / 16 */
  ptx_reg base, ld_bytes, step, gptr, mn_t, k_t, mn_limit, warp_base;
  ptx_val n_limit;   /* B's limit (n): baked, or p_n in a generic kernel; A's (m) is mn_limit */
  ptx_reg dst[MAX_CHUNKS];
  ptx_reg frag_off[MAX_FRAG_BLOCKS];
  int kk_offsets;    /* MN-major: frag_off per (block, K step) rather than per block */
  /* Gathered A (tcj_kernel_cfg.gather): gptr is the tile's column in row 0 of A, and copy i
   * adds row_off[i], the bytes to A's row p_gather[r] of its problem row r, and copies at most
   * row_cap[i] bytes: the copy width where r lies in the group and the index in A, else 0
   * (zeros). Copies of one row share both. */
  int gather;
  ptx_reg row_off[MAX_CHUNKS], row_cap[MAX_CHUNKS];
} operand;

typedef struct kernel {
  ptx_builder *b;
  const tcj_kernel_cfg *cfg;
  int es, threads, kk_count, stage_bytes, wm, wn, ni;
  int slices;      /* a cluster split's slices (baked; 1: none); kt_count is then the tiles of one */
  int split;       /* a workspace split: p_slices slices (a launch value), kt_count a register */
  int split_at_launch; /* generic: p_slices may be 1, and then the epilogue stores D */
  /* K tiles (of a slice), n and k: baked, or registers from p_n and p_k in a generic kernel. */
  ptx_val kt_count, n, k;
  ptx_reg tid, lane, gid, tig, m, smem, m0, n0, kbase, slice;
  ptx_reg p_m; /* p_m; m is the row guard, a grouped tile's end of rows (emit_group_indices) */
  ptx_reg rank; /* cluster split: this CTA's rank in the tile's cluster */
  ptx_reg slices_reg; /* workspace split: p_slices */
  ptx_reg z; /* batch entry (batched configs) */
  ptx_reg kstart, kdepth; /* K groups: the group's first K index and its depth */
  operand op[2];
  ptx_reg acc[MAX_FRAG_BLOCKS][MAX_N_FRAGS][4];
  /* 3xTF32: the chunk's partial sums and this K tile's place in its chunk (emit_mma_step). */
  ptx_reg part[MAX_FRAG_BLOCKS][MAX_N_FRAGS][4], chunk_pos;
} kernel;

static inline int log2i(int x) {
  int l = 0;
  while ((1 << l) < x) l++;
  return l;
}

static inline ptx_reg reg32(kernel *k) { return ptx_new(k->b, PTX_B32); }
static inline ptx_reg reg64(kernel *k) { return ptx_new(k->b, PTX_B64); }

/* sm80_operands.c */
/* Physical shared offset of (row, byte_col) of a tile: the PTX twin of ptx_swizzled_offset. */
ptx_reg sm80_swizzle(kernel *k, ptx_reg row, ptx_reg byte_col, int rows, int row_bytes);
/* The operand's tile facts (widths, copies per thread, fragment blocks) from the config. */
void sm80_operand_layout(kernel *k, operand *o, int is_b);
/* Its base, this thread's first copy's global address and step, the copies' swizzled shared
 * destinations and the ldmatrix lane offsets (warp_idx: the warp's row or column of the grid). */
void sm80_operand_setup(kernel *k, operand *o, const char *ptr_param, const char *ld_param, const char *stride_param,
                        ptx_reg warp_idx);
/* The cp.async copies of one K tile of both operands into the stage at byte offset stage
 * (guard: a predicate, or {0} for none). */
void sm80_load_tile(kernel *k, ptx_reg stage, ptx_reg guard);

/* sm80_mainloop.c: the accumulators, the prologue's stages and the K loop. */
void sm80_mainloop(kernel *k);

/* sm80_epilogue.c */
/* A cluster split: the slices' sums added through distributed shared memory. */
void sm80_cluster_sum(kernel *k);
/* D (or a split's fp32 partial sums) from the accumulators, through the epilogue module. */
void sm80_epilogue(kernel *k, ptx_reg warp_m, ptx_reg warp_n, int split);

#endif
