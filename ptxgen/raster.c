/* SPDX-License-Identifier: Apache-2.0 */
/* The grouped tile raster both recipes use; see recipes.h. */
#include "recipes.h"

#include "ptx_builder.h"

void ptx_emit_grouped_raster(ptx_builder *b, ptx_reg unit, ptx_reg tiles_m, ptx_val tiles_n, int group,
                             ptx_reg tm, ptx_reg tn) {
  ptx_val width = ptx_imm(group * tiles_n.imm); /* tiles of one group of rows */
  if (tiles_n.reg.id) {
    width = ptx_in_reg(ptx_new(b, PTX_B32));
    ptx_ins(b, "mul.lo.u32 %V, %V, %d", width, tiles_n, group);
  }
  ptx_reg grp = ptx_new(b, PTX_B32), in_grp = ptx_new(b, PTX_B32), first = ptx_new(b, PTX_B32);
  ptx_reg size = ptx_new(b, PTX_B32);
  ptx_ins(b, "div.u32 %R, %R, %V", grp, unit, width);
  ptx_ins(b, "rem.u32 %R, %R, %V", in_grp, unit, width);
  ptx_ins(b, "mul.lo.u32 %R, %R, %d", first, grp, group);
  /* The last group may hold fewer rows. */
  ptx_ins(b, "sub.u32 %R, %R, %R", size, tiles_m, first);
  ptx_ins(b, "min.u32 %R, %R, %d", size, size, group);
  ptx_ins(b, "rem.u32 %R, %R, %R", tm, in_grp, size);
  ptx_ins(b, "add.u32 %R, %R, %R", tm, tm, first);
  ptx_ins(b, "div.u32 %R, %R, %R", tn, in_grp, size);
}
