/* SPDX-License-Identifier: Apache-2.0 */
/* What the selection files share, private to them (the rest of the engine includes
 * engine/select.h): small helpers every recipe's plan uses, the helpers of select_shared.c, each
 * recipe's plan entry (select_sm80.c, select_sm90.c, select_dmma.c), the sm80 tile menu that the
 * generic plans reuse (select_generic.c), and the recipe choice's rules (select_recipe.c). */
#ifndef TCJ_ENG_SELECT_RECIPES_H
#define TCJ_ENG_SELECT_RECIPES_H

#include <stdint.h>

#include "engine/select.h"

#define GRID_MAX 2147483647LL /* gridDim.x limit */

/* Elements of a rows x cols operand, saturated (m * k may reach 2^63). */
static inline int64_t select_elems(int64_t rows, int64_t cols) {
  return cols == 0 ? 0 : rows > INT64_MAX / cols ? INT64_MAX : rows * cols;
}
static inline int64_t select_ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Batch entries: at least 1 (a problem built field by field may leave the count 0). */
static inline int64_t select_batch_of(const eng_problem *p) { return p->batch > 1 ? p->batch : 1; }

/* Bytes of the wider of C (when read) and D: vectors of C and D have as many elements. */
static inline int select_cd_elem_size(const eng_problem *p) {
  int cs = ptx_elem_size(p->c), ds = ptx_elem_size(p->d);
  return cs > ds ? cs : ds;
}

/* ---- select_shared.c: what more than one recipe uses --------------------------------------- */

/* The fields every config takes from the problem and the target, the rest zero. */
void select_fill_problem(const eng_problem *p, const eng_device_caps *caps, const ptx_recipe_row *recipe,
                         tcj_kernel_cfg *c);
/* The K split through the workspace for config c (select_shared.c says when), or 0. */
#define MIN_SLICE_BYTES 256 /* of K per row: four 64-byte K tiles */
int select_pick_split(const eng_problem *p, const eng_device_caps *caps, const tcj_kernel_cfg *c);
/* Operand copy width and whether it must be packed first. */
tcj_status select_plan_operand(const char *name, int align, int64_t elems, int allow_packing,
                               int *copy, int *pack, const char **why);

/* ---- select_sm80.c: the sm80 recipe (mma.sync) -------------------------------------------- */

/* The tile menu, largest first (select_sm80.c's table). */
enum { TILE_LARGE, TILE_MEDIUM, TILE_MEDIUM_8W, TILE_SMALL, TILE_SKINNY, TILE_DECODE, TILE_DECODE_NARROW, TILE_COUNT };
/* Tiles of menu entry t over p's m x n. */
int64_t select_sm80_tile_count(const eng_problem *p, int t);
/* The config of menu tile t with operand copy widths align_a and align_b. */
void select_sm80_fill_cfg(const eng_problem *p, const eng_device_caps *caps, int t, int align_a,
                          int align_b, tcj_kernel_cfg *c);
/* The sm80 recipe's plan: every arch from sm_80 on, every operand type. */
tcj_status select_plan_sm80(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                            eng_plan *plan, const char **why);

/* A grouped problem's plan: the sm80 plan for group_rows rows, no K split, no packing. */
tcj_status select_plan_sm80_grouped(const eng_problem *p, const eng_device_caps *caps, eng_plan *plan,
                                    const char **why);

/* ---- select_sm90.c: the sm90 recipe (wgmma + TMA) ----------------------------------------- */

/* The sm90 recipe's plans, best first by its time model, *count of them (at most
 * ENG_MAX_CANDIDATES), or TCJ_ERROR_NOT_SUPPORTED with why. */
tcj_status select_sm90_candidates(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                                  eng_candidate *out, int *count, const char **why);
/* A candidate's config with its epilogue staged box by box (epi_whole off) and the stages that
 * then fit: what a generic kernel, which serves any count of tiles, runs of it. */
void select_sm90_tile_epilogue(const eng_device_caps *caps, tcj_kernel_cfg *c);
/* The sm90 recipe's plan: its best candidate. */
tcj_status select_plan_sm90(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                            eng_plan *plan, const char **why);
/* A grouped problem's sm90 plan: the best candidate for group_rows rows that addresses every
 * group (no packing, no K split, no clusters, cooperative consumers), or NOT_SUPPORTED. */
tcj_status select_plan_sm90_grouped(const eng_problem *p, const eng_device_caps *caps, eng_plan *plan,
                                    const char **why);

/* ---- select_dmma.c: the dmma recipe (f64) ------------------------------------------------- */

tcj_status select_plan_dmma(const eng_problem *p, const eng_device_caps *caps, int allow_packing, eng_plan *plan,
                            const char **why);

/* ---- select_recipe.c: the recipe choice ----------------------------------------------------- */


/* Recipe choice: sm_90a takes the sm90 plan when the problem allows one, except decode shapes
 * (m <= SKINNY_M, one 16-row fragment block) that the sm80 plan splits along K: few rows and
 * deep K leave most SMs idle without a split. Measured on an H200 (tcj-prof, bf16): split sm80
 * wins 1x6144x4096 (20.5 us vs 35.2 us sm90) and 1x4096x14336 (34.8 vs 99.0); sm90 wins
 * 128x4096x14336 (41.4 vs 75.7 split sm80); they tie on 512x512x65536 (148 vs 143). Past 16
 * rows the sm80 tiles hold 32 or 64 rows of warps that mostly idle on the weight's stream: on an
 * H100 (nn.Linear layout, us, sm80 split in a cluster vs sm90) 64x4096x4096 ran 29.3 vs 18.8,
 * 64x4096x14336 78.7 vs 50.0, 64x6144x4096 28.1 vs 23.8, 32x6144x4096 26.7 vs 24.8. */
#define SKINNY_M 16

/* The specialised plan under a forced recipe and tile (either may be absent). */
tcj_status select_forced(const eng_problem *p, const eng_device_caps *caps, int allow_packing,
                         const eng_tuning *tuning, eng_plan *plan, const char **why);

#endif
