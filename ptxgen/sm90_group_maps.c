/* SPDX-License-Identifier: Apache-2.0 */
/* The sm90 recipe's tensor maps rewritten per group on the device: B by an array of pointers
 * (tcj_kernel_cfg.b_ptrs) gives each group its own base address, which no map over one base
 * reaches. The host encodes B's map once (every field but the address: the groups share n, k,
 * ldb and the layout); the producer's warp 0 keeps a copy in shared memory and, where a tile's
 * group differs from the last tile's, writes the group's pointer into it
 * (tensormap.replace), copies it into a global slot of the CTA's own with a release fence for
 * the tensormap proxy (tensormap.cp_fenceproxy) and acquires it there
 * (fence.proxy.tensormap) before its TMA loads name it (PTX ISA 8.3, sm_90a).
 *
 * Slots: a ring of stages + 1 per CTA, 128 bytes each, in p_work (the engine's scratch:
 * tcj_cfg_sm90_map_ring). A TMA load reads its map asynchronously, and a slot is written again
 * only after the loads that named it have completed: each group change issues at least one
 * load (every tile runs one K stage or more), so between a slot's last load and its next
 * rewrite the producer issues `stages` loads, the last of them into the same ring stage as
 * that last load, after waiting for the consumers to free that stage, which they do only
 * after its bytes landed. */
#include "sm90_kernel.h"

enum { MAP_BYTES = TCJ_SM90_MAP_BYTES, MAP_WORDS = MAP_BYTES / 8 };

int tcj_cfg_sm90_map_ring(const tcj_kernel_cfg *c) { return c->b_ptrs ? c->stages + 1 : 0; }

/* Once, by the producer's warp 0 (lane 0 copies B's map into shared memory). */
void sm90_group_maps_setup(sm90 *k, sm90_group_maps *gm) {
  ptx_builder *b = k->b;
  const tcj_kernel_cfg *c = k->cfg;
  gm->ring = tcj_cfg_sm90_map_ring(c);
  gm->lane0 = pred(k);
  ptx_ins(b, "setp.eq.u32 %R, %R, 0", gm->lane0, k->tid);
  ptx_reg word = r64(k);
  for (int i = 0; i < MAP_WORDS; i++) {
    ptx_ins_if(b, gm->lane0, 0, "ld.param.u64 %R, [p_tmap_b+%d]", word, 8 * i);
    ptx_ins_if(b, gm->lane0, 0, "st.shared.u64 [%R+%d], %R", k->map_stage, 8 * i, word);
  }
  /* This CTA's slots: p_work + ctaid * ring * 128 (the engine sizes p_work for the grid). TMA
   * names a map by its generic address, and a device pointer is one; the copy and the fence
   * take the same value (a global address is its own generic address). */
  ptx_reg raw = r64(k), cta = r32(k);
  gm->slots = r64(k);
  ptx_ins(b, "ld.param.u64 %R, [p_work]", gm->slots);
  ptx_ins(b, "mov.u32 %R, %%ctaid.x", cta);
  ptx_ins(b, "mad.wide.u32 %R, %R, %d, %R", gm->slots, cta, gm->ring * MAP_BYTES, gm->slots);
  gm->pointers = r64(k);
  ptx_ins(b, "ld.param.u64 %R, [p_b]", raw);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", gm->pointers, raw);
  gm->group = r32(k);
  ptx_ins(b, "mov.u32 %R, -1", gm->group); /* no group yet: groups are below 2^31 */
  gm->slot = r32(k);
  ptx_ins(b, "mov.u32 %R, 0", gm->slot);
  ptx_ins(b, "bar.warp.sync -1");
}

/* Per tile, by the whole of warp 0 (tensormap.cp_fenceproxy is .sync.aligned), after the tile's
 * group is in k->z: where it changed, k->tmap_b becomes a slot holding the group's map. */
void sm90_group_maps_tile(sm90 *k, sm90_group_maps *gm) {
  ptx_builder *b = k->b;
  ptx_reg same = pred(k), at = r64(k), base = r64(k), slot = r64(k), wrap = pred(k);
  int skip = ptx_new_label(b);
  ptx_ins(b, "setp.eq.u32 %R, %R, %R", same, k->z, gm->group);
  ptx_ins_if(b, same, 0, "bra.uni %L", skip);
  ptx_ins(b, "mov.u32 %R, %R", gm->group, k->z);
  ptx_ins(b, "mul.wide.u32 %R, %R, 8", at, k->z);
  ptx_ins(b, "add.u64 %R, %R, %R", at, gm->pointers, at);
  ptx_ins(b, "ld.global.nc.u64 %R, [%R]", base, at);
  ptx_ins_if(b, gm->lane0, 0, "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%R], %R", k->map_stage,
             base);
  /* The rewrite must be complete before the copy reads it: CUTLASS waits on a bulk async-group
   * here too, and the warp's barrier makes lane 0's write visible to every lane. */
  ptx_ins_if(b, gm->lane0, 0, "cp.async.bulk.commit_group");
  ptx_ins_if(b, gm->lane0, 0, "cp.async.bulk.wait_group.read 0");
  ptx_ins(b, "bar.warp.sync -1");
  ptx_ins(b, "mad.wide.u32 %R, %R, %d, %R", slot, gm->slot, MAP_BYTES, gm->slots);
  ptx_ins(b, "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%R], [%R], %d",
          slot, k->map_stage, MAP_BYTES);
  ptx_ins(b, "fence.proxy.tensormap::generic.acquire.gpu [%R], %d", slot, MAP_BYTES);
  ptx_ins(b, "mov.b64 %R, %R", k->tmap_b, slot);
  ptx_ins(b, "add.u32 %R, %R, 1", gm->slot, gm->slot);
  ptx_ins(b, "setp.eq.u32 %R, %R, %d", wrap, gm->slot, gm->ring);
  ptx_ins_if(b, wrap, 0, "mov.u32 %R, 0", gm->slot);
  ptx_label(b, skip);
}
