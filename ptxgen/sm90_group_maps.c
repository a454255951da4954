/* SPDX-License-Identifier: Apache-2.0 */
/* The sm90 recipe's tensor maps rewritten per group on the device, where no map over one base
 * reaches every group's operand:
 *   - B by an array of pointers (tcj_kernel_cfg.b_ptrs): B's map takes group g's pointer;
 *   - K groups (weight gradients): A's and B's maps take the group's first K row as their base
 *     and its depth as their K extent, so TMA fills zeros past the group's end, as it does past
 *     a tensor's (the next group's rows are never read). An empty group's maps span the
 *     operands' first K row and its copies start past it: all zeros, so its tile writes
 *     beta * C + bias.
 * The host encodes each map once (every other field: the groups share m, n, the leading
 * dimensions and the layout); the producer's warp 0 keeps copies in shared memory and, where a
 * tile's group differs from the last tile's, writes the group's fields into them
 * (tensormap.replace), copies them into global slots of the CTA's own with a release fence for
 * the tensormap proxy (tensormap.cp_fenceproxy) and acquires them there (fence.proxy.tensormap)
 * before its TMA loads name them (PTX ISA 8.3, sm_90a).
 *
 * Slots: a ring of stages + 1 per CTA (each as many maps as the config rewrites, 128 bytes
 * apiece) in p_work (the engine's scratch: the recipe's cta_scratch_bytes). A TMA load reads its
 * map asynchronously, and a slot is written again only after the loads that named it have
 * completed: each group change issues at least one load (every tile runs one K stage or more),
 * so between a slot's last load and its next rewrite the producer issues `stages` loads, the
 * last of them into the same ring stage as that last load, after waiting for the consumers to
 * free that stage, which they do only after its bytes landed. */
#include "ptx_ops.h"
#include "sm90_kernel.h"

enum { MAP_BYTES = TCJ_SM90_MAP_BYTES, MAP_WORDS = MAP_BYTES / 8 };

int tcj_cfg_sm90_group_maps(const tcj_kernel_cfg *c) { return ptx_group_k(c->grouped) ? 2 : c->b_ptrs ? 1 : 0; }

int tcj_cfg_sm90_map_ring(const tcj_kernel_cfg *c) { return tcj_cfg_sm90_group_maps(c) ? c->stages + 1 : 0; }

/* Map i of the rewritten ones: A (K groups only) before B. */
static int map_is_a(const sm90_group_maps *gm, int i) { return gm->maps == 2 && i == 0; }

/* Once, by the producer's warp 0 (lane 0 copies the maps into shared memory). */
void sm90_group_maps_setup(sm90 *k, sm90_group_maps *gm) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  gm->maps = tcj_cfg_sm90_group_maps(c);
  gm->ring = tcj_cfg_sm90_map_ring(c);
  gm->lane0 = pred(k);
  ptx_ins(b, "setp.eq.u32 %R, %R, 0", gm->lane0, k->tid);
  ptx_reg word = r64(k);
  for (int i = 0; i < gm->maps; i++)
    for (int w = 0; w < MAP_WORDS; w++) {
      ptx_ins_if(b, gm->lane0, 0, "ld.param.u64 %R, [%s+%d]", word, map_is_a(gm, i) ? "p_tmap_a" : "p_tmap_b", 8 * w);
      ptx_ins_if(b, gm->lane0, 0, "st.shared.u64 [%R+%d], %R", k->map_stage, i * MAP_BYTES + 8 * w, word);
    }
  /* This CTA's slots: p_work + ctaid * ring * maps * 128 (the engine sizes p_work for the grid).
   * TMA names a map by its generic address, and a device pointer is one; the copy and the
   * fence take the same value (a global address is its own generic address). */
  ptx_reg cta = r32(k);
  gm->slots = r64(k);
  ptx_ins(b, "ld.param.u64 %R, [p_work]", gm->slots);
  ptx_ins(b, "mov.u32 %R, %%ctaid.x", cta);
  ptx_ins(b, "mad.wide.u32 %R, %R, %d, %R", gm->slots, cta, gm->ring * gm->maps * MAP_BYTES, gm->slots);
  /* The operands' bases: B's pointer array (b_ptrs), or A and B with the bytes of one K row of
   * each (K groups: K is their stored row). */
  for (int i = 0; i < gm->maps; i++) {
    ptx_reg raw = r64(k);
    gm->base[i] = r64(k);
    ptx_ins(b, "ld.param.u64 %R, [%s]", raw, map_is_a(gm, i) ? "p_a" : "p_b");
    ptx_ins(b, "cvta.to.global.u64 %R, %R", gm->base[i], raw);
    if (!ptx_group_k(c->grouped)) continue;
    gm->row_bytes[i] = r64(k);
    ptx_ins(b, "ld.param.u64 %R, [%s]", gm->row_bytes[i], map_is_a(gm, i) ? "p_lda" : "p_ldb");
    ptx_ins(b, "mul.lo.u64 %R, %R, %d", gm->row_bytes[i], gm->row_bytes[i], ptx_elem_size(c->ab));
  }
  gm->group = r32(k);
  ptx_ins(b, "mov.u32 %R, -1", gm->group); /* no group yet: groups are below 2^31 */
  gm->slot = r32(k);
  ptx_ins(b, "mov.u32 %R, 0", gm->slot);
  ptx_ins(b, "bar.warp.sync -1");
}

/* Lane 0's rewrite of the shared copies for group k->z: B's pointer, or the K range's base and
 * extent of A and B (at least one row: an empty group's copies start past it, k->kskip). */
static void rewrite_copies(sm90 *k, sm90_group_maps *gm) {
  ptx_builder *b = k->b;
  ptx_reg addr = r64(k);
  if (!ptx_group_k(k->cfg->grouped)) {
    ptx_reg at = r64(k);
    ptx_ins(b, "mul.wide.u32 %R, %R, 8", at, k->z);
    ptx_ins(b, "add.u64 %R, %R, %R", at, gm->base[0], at);
    ptx_ins(b, "ld.global.nc.u64 %R, [%R]", addr, at);
    ptx_ins_if(b, gm->lane0, 0, "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%R], %R", k->map_stage,
               addr);
    return;
  }
  /* An empty group's maps span row 0 of the operands, inside them: its one K tile starts past
   * that row (k->kskip), so TMA fills zeros and reads nothing. Its own start can be K, one row
   * past the operand's end, and a map based there faulted on an H100 (the GPU table's case with
   * an empty last group) although none of its boxes is in bounds. */
  ptx_reg rows = r32(k), start = r32(k), k0 = r64(k), empty = pred(k);
  ptx_ins(b, "max.u32 %R, %R, 1", rows, k->kdepth);
  ptx_ins(b, "setp.eq.u32 %R, %R, 0", empty, k->kdepth);
  ptx_ins(b, "selp.u32 %R, 0, %R, %R", start, k->kstart, empty);
  ptx_ins(b, "cvt.u64.u32 %R, %R", k0, start);
  for (int i = 0; i < gm->maps; i++) {
    ptx_ins(b, "mad.lo.u64 %R, %R, %R, %R", addr, k0, gm->row_bytes[i], gm->base[i]);
    ptx_ins_if(b, gm->lane0, 0, "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%R+%d], %R",
               k->map_stage, i * MAP_BYTES, addr);
    /* MN-major operands: dimension 1 is K (sm90_abi.c). */
    ptx_ins_if(b, gm->lane0, 0, "tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%R+%d], 1, %R", k->map_stage,
               i * MAP_BYTES, rows);
  }
}

/* Per tile, by the whole of warp 0 (tensormap.cp_fenceproxy is .sync.aligned), after the tile's
 * group is in k->z: where it changed, k->tmap_b (and k->tmap_a for K groups) name slots that
 * hold the group's maps. */
void sm90_group_maps_tile(sm90 *k, sm90_group_maps *gm) {
  ptx_builder *b = k->b;
  ptx_reg same = pred(k), slot = r64(k), wrap = pred(k);
  int skip = ptx_new_label(b);
  ptx_ins(b, "setp.eq.u32 %R, %R, %R", same, k->z, gm->group);
  ptx_ins_if(b, same, 0, "bra.uni %L", skip);
  ptx_ins(b, "mov.u32 %R, %R", gm->group, k->z);
  rewrite_copies(k, gm);
  /* The rewrites must be complete before the copies read them: CUTLASS waits on a bulk
   * async-group here too, and the warp's barrier makes lane 0's writes visible to every lane. */
  ptx_ins_if(b, gm->lane0, 0, "cp.async.bulk.commit_group");
  ptx_ins_if(b, gm->lane0, 0, "cp.async.bulk.wait_group.read 0");
  ptx_ins(b, "bar.warp.sync -1");
  ptx_ins(b, "mad.wide.u32 %R, %R, %d, %R", slot, gm->slot, gm->maps * MAP_BYTES, gm->slots);
  for (int i = 0; i < gm->maps; i++) {
    ptx_reg map = map_is_a(gm, i) ? k->tmap_a : k->tmap_b;
    ptx_ins(b, "add.u64 %R, %R, %d", map, slot, i * MAP_BYTES);
    ptx_ins(b, "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%R], [%R+%d], %d",
            map, k->map_stage, i * MAP_BYTES, MAP_BYTES);
    ptx_ins(b, "fence.proxy.tensormap::generic.acquire.gpu [%R], %d", map, MAP_BYTES);
  }
  ptx_ins(b, "add.u32 %R, %R, 1", gm->slot, gm->slot);
  ptx_ins(b, "setp.eq.u32 %R, %R, %d", wrap, gm->slot, gm->ring);
  ptx_ins_if(b, wrap, 0, "mov.u32 %R, 0", gm->slot);
  ptx_label(b, skip);
}
