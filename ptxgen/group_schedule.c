/* SPDX-License-Identifier: Apache-2.0 */
/* Grouped GEMM's tile scheduler (group_schedule.h): the unit -> (group, tile) map of the sm80
 * and sm90 recipes' grouped kernels, in PTX and as the C model the unit tests check against the spec. */
#include "group_schedule.h"

#include "ptx_builder.h"

static int log2i(int x) {
  int l = 0;
  while ((1 << l) < x) l++;
  return l;
}

int64_t ptx_group_units(int grouped, int64_t m, int64_t n, int bm, int bn, int64_t groups) {
  if (grouped < PTX_GROUP_ENDS32 || grouped > PTX_GROUP_K_ENDS64 || m < 0 || n < 0 || bm < 1 || bn < 1 || groups < 0)
    return -1;
  int64_t tiles_n = (n + bn - 1) / bn, tiles_m = (m + bm - 1) / bm;
  if (grouped == PTX_GROUP_MASKED || ptx_group_k(grouped)) return tiles_n * groups * tiles_m;
  return tiles_n * (tiles_m + groups);
}

/* Group i's end (contiguous, K groups) or count (masked), clamped to [0, m] (K groups: [0, k]):
 * the running maximum of these is the spec's end[g] = min(max(end[g], end[g-1]), m), as
 * min(., m) commutes with max. */
static uint32_t clamped(int grouped, const void *groups, uint32_t i, uint32_t m) {
  int64_t v = ptx_group_wide(grouped) ? ((const int64_t *)groups)[i] : ((const int32_t *)groups)[i];
  if (v < 0) v = 0;
  return v > (int64_t)m ? m : (uint32_t)v;
}

/* The PTX below computes this, round for round: lane l of a round of 32 is group base + l, the
 * max scan gives the ends, the sum scan the tiles up to and including each group, and the
 * first lane whose sum passes r holds the unit's group. */
/* Tile l of a group of tiles_m x tiles_n tiles, in bands of PTX_GROUP_BAND columns: a band's
 * tiles go row by row (W columns each), bands left to right, the last band as wide as the
 * columns left. So the CTAs in flight share a band's B tiles across the group's tile rows. */
static void band_tile(uint32_t l, uint32_t tiles_m, uint32_t tiles_n, uint32_t *tm, uint32_t *tn) {
  uint32_t w = PTX_GROUP_BAND, full = tiles_n / w, band_units = tiles_m * w;
  if (l < full * band_units) {
    uint32_t band = l / band_units, rem = l - band * band_units;
    *tm = rem / w;
    *tn = band * w + rem % w;
    return;
  }
  uint32_t rem = l - full * band_units, tail = tiles_n - full * w;
  *tm = rem / tail;
  *tn = full * w + rem % tail;
}

/* The PTX below computes this, round for round: lane l of a round of 32 is group base + l, the
 * max scan gives the ends, the sum scan the units up to and including each group, and the
 * first lane whose sum passes the unit holds the unit's group. */
ptx_group_tile ptx_group_unit_model(int grouped, const void *groups, uint32_t group_count, uint32_t m, uint32_t k,
                                    int bm, uint32_t tiles_n, uint32_t unit) {
  ptx_group_scan_pos from_start = {0, 0, 0};
  return ptx_group_unit_model_from(grouped, groups, group_count, m, k, bm, tiles_n, unit, &from_start);
}

ptx_group_tile ptx_group_unit_model_from(int grouped, const void *groups, uint32_t group_count, uint32_t m, uint32_t k,
                                         int bm, uint32_t tiles_n, uint32_t unit, ptx_group_scan_pos *pos) {
  ptx_group_tile t = {0, 0, 0, 0, 0, 0, 1};
  if (tiles_n == 0 || bm < 1) return t;
  uint32_t ubm = (uint32_t)bm;
  if (ptx_group_k(grouped)) { /* the PTX reads the ends up to g in rounds of 32; the maxima are these */
    if (m == 0) return t;
    uint32_t tiles_m = (m + ubm - 1) / ubm, group_units = tiles_m * tiles_n;
    t.g = unit / group_units;
    if (t.g >= group_count) return t;
    band_tile(unit % group_units, tiles_m, tiles_n, &t.tm, &t.tn);
    uint32_t start = 0, end = 0;
    for (uint32_t i = 0; i <= t.g; i++) {
      uint32_t v = clamped(grouped, groups, i, k);
      if (i < t.g && v > start) start = v;
      if (v > end) end = v;
    }
    t.row0 = start;
    t.rows = end - start;
    t.runs = 1;
    t.done = 0;
    return t;
  }
  /* Contiguous and masked: the groups' tiles one after another (a masked group's rows are its
   * count, from row 0 of its entry). */
  int masked = grouped == PTX_GROUP_MASKED;
  uint32_t carry_end = pos->carry_end, carry_units = pos->carry_units;
  for (uint32_t base = pos->base; base < group_count; base += PTX_GROUP_ROUND) {
    pos->base = base;
    pos->carry_end = carry_end;
    pos->carry_units = carry_units;
    uint32_t end = carry_end, sum = carry_units;
    for (uint32_t lane = 0; lane < PTX_GROUP_ROUND; lane++) {
      uint32_t idx = base + lane, prev = end;
      uint32_t v = idx < group_count ? clamped(grouped, groups, idx, m) : 0;
      if (v > end) end = v;
      uint32_t rows = masked ? v : end - prev;
      uint32_t tiles_m = (rows + ubm - 1) / ubm;
      sum += tiles_m * tiles_n;
      if (unit < sum) {
        t.runs = 1;
        t.done = 0;
        t.g = idx;
        band_tile(unit - (sum - tiles_m * tiles_n), tiles_m, tiles_n, &t.tm, &t.tn);
        t.row0 = masked ? 0 : prev;
        t.rows = rows;
        return t;
      }
    }
    carry_end = end;
    carry_units = sum;
  }
  return t;
}

/* One step of an inclusive warp scan of x (op: "max.u32" or "add.u32"): lanes d and more take
 * lane - d's value (shfl.sync.up: the predicate says the source lane exists). */
static void emit_scan(ptx_builder *b, const char *op, ptx_reg x) {
  ptx_reg t = ptx_new(b, PTX_B32), in = ptx_new(b, PTX_PRED);
  for (int d = 1; d < PTX_GROUP_ROUND; d *= 2) {
    ptx_ins(b, "shfl.sync.up.b32 %R|%R, %R, %d, 0, -1", t, in, x, d);
    ptx_ins_if(b, in, 0, "%s %R, %R, %R", op, x, x, t);
  }
}

/* v = group idx's end or count clamped to [0, m] where `in`, else 0 (clamped() above). */
static void emit_clamped(ptx_builder *b, int grouped, ptx_reg v, ptx_reg groups, ptx_reg idx, ptx_reg in,
                         ptx_reg m) {
  int wide = ptx_group_wide(grouped);
  ptx_reg addr = ptx_new(b, PTX_B64);
  ptx_ins(b, "mul.wide.u32 %R, %R, %d", addr, idx, wide ? 8 : 4);
  ptx_ins(b, "add.u64 %R, %R, %R", addr, addr, groups);
  if (wide) {
    ptx_reg v64 = ptx_new(b, PTX_B64), m64 = ptx_new(b, PTX_B64);
    ptx_ins(b, "mov.b64 %R, 0", v64);
    if (in.id) ptx_ins_if(b, in, 0, "ld.global.s64 %R, [%R]", v64, addr);
    else ptx_ins(b, "ld.global.s64 %R, [%R]", v64, addr);
    ptx_ins(b, "cvt.u64.u32 %R, %R", m64, m);
    ptx_ins(b, "max.s64 %R, %R, 0", v64, v64);
    ptx_ins(b, "min.u64 %R, %R, %R", v64, v64, m64);
    ptx_ins(b, "cvt.u32.u64 %R, %R", v, v64);
    return;
  }
  ptx_ins(b, "mov.b32 %R, 0", v);
  if (in.id) ptx_ins_if(b, in, 0, "ld.global.s32 %R, [%R]", v, addr);
  else ptx_ins(b, "ld.global.s32 %R, [%R]", v, addr);
  ptx_ins(b, "max.s32 %R, %R, 0", v, v);
  ptx_ins(b, "min.u32 %R, %R, %R", v, v, m); /* non-negative now: unsigned compare */
}

/* Leaves where unit has no tile: "ret" (a grid of one unit per CTA), or a branch to the
 * caller's label (a persistent loop): done where no later unit has one either, skip where only
 * this one has none. */
static void emit_leave(ptx_builder *b, ptx_reg p, int label) {
  if (label < 0) ptx_ins_if(b, p, 0, "ret");
  else ptx_ins_if(b, p, 0, "bra.uni %L", label);
}

/* band_tile() above in PTX: (tm, tn) of tile l of a group of tiles_m (a register) by the
 * kernel's baked tiles_n tiles. tiles_m >= 1 wherever l is a real tile. The band is l / (tiles_m
 * W) for the last, narrower band too (its tiles are fewer than tiles_m W), so only the width
 * differs: one form, no branch. */
static void emit_band_tile(ptx_builder *b, ptx_group_sched *s, ptx_reg l, ptx_reg tiles_m, int64_t tiles_n) {
  int w = PTX_GROUP_BAND, shift = log2i(w);
  int64_t full = tiles_n / w, tail = tiles_n - full * w;
  if (full == 0) {
    ptx_ins(b, "div.u32 %R, %R, %lld", s->tm, l, (long long)tail);
    ptx_ins(b, "rem.u32 %R, %R, %lld", s->tn, l, (long long)tail);
    return;
  }
  ptx_reg band_units = ptx_new(b, PTX_B32), band = ptx_new(b, PTX_B32), rem = ptx_new(b, PTX_B32);
  ptx_ins(b, "shl.b32 %R, %R, %d", band_units, tiles_m, shift);
  ptx_ins(b, "div.u32 %R, %R, %R", band, l, band_units);
  ptx_ins(b, "mul.lo.u32 %R, %R, %R", rem, band, band_units);
  ptx_ins(b, "sub.u32 %R, %R, %R", rem, l, rem);
  if (tail == 0) { /* every band W wide */
    ptx_ins(b, "shr.u32 %R, %R, %d", s->tm, rem, shift);
    ptx_ins(b, "and.b32 %R, %R, %d", rem, rem, w - 1);
  } else {
    ptx_reg width = ptx_new(b, PTX_B32), last = ptx_new(b, PTX_PRED);
    ptx_ins(b, "setp.ge.u32 %R, %R, %lld", last, band, (long long)full);
    ptx_ins(b, "selp.u32 %R, %lld, %d, %R", width, (long long)tail, w, last);
    ptx_ins(b, "div.u32 %R, %R, %R", s->tm, rem, width);
    ptx_ins(b, "mul.lo.u32 %R, %R, %R", width, s->tm, width);
    ptx_ins(b, "sub.u32 %R, %R, %R", rem, rem, width);
  }
  ptx_ins(b, "mad.lo.u32 %R, %R, %d, %R", s->tn, band, w, rem);
}

/* dst = ceil(rows / unit rows): a group's tile rows, or pairs of them for a cluster along M
 * (tcj_cfg_group_unit_rows): a shift where that is a power of two, else a division (192-row
 * tiles of three sm90 consumers). */
static void emit_tile_rows(ptx_builder *b, const tcj_kernel_cfg *c, ptx_reg dst, ptx_reg rows) {
  int unit_rows = tcj_cfg_group_unit_rows(c);
  ptx_ins(b, "add.u32 %R, %R, %d", dst, rows, unit_rows - 1);
  if (unit_rows & (unit_rows - 1)) ptx_ins(b, "div.u32 %R, %R, %d", dst, dst, unit_rows);
  else ptx_ins(b, "shr.u32 %R, %R, %d", dst, dst, log2i(unit_rows));
}

/* K groups: every group owns ceil(m / bm) x tiles_n units, so the unit's group is a
 * division (s->g) and its tile within the group the band of the remainder (s->tm, s->tn). m == 0
 * has no tiles (and must not divide by 0); past the last group no unit runs (done). The
 * caller's registers, in order: tiles_m, group_units, the remainder and a predicate. */
static void emit_entry_unit(ptx_builder *b, const tcj_kernel_cfg *c, ptx_group_sched *s, ptx_reg unit, ptx_reg m,
                            ptx_reg count, int64_t tiles_n, int done, const ptx_reg r[4]) {
  ptx_reg tiles_m = r[0], group_units = r[1], l = r[2], out = r[3];
  ptx_ins(b, "setp.eq.u32 %R, %R, 0", out, m);
  emit_leave(b, out, done);
  emit_tile_rows(b, c, tiles_m, m);
  ptx_ins(b, "mul.lo.u32 %R, %R, %lld", group_units, tiles_m, (long long)tiles_n);
  ptx_ins(b, "div.u32 %R, %R, %R", s->g, unit, group_units);
  ptx_ins(b, "setp.ge.u32 %R, %R, %R", out, s->g, count);
  emit_leave(b, out, done);
  ptx_ins(b, "rem.u32 %R, %R, %R", l, unit, group_units);
  emit_band_tile(b, s, l, tiles_m, tiles_n);
}

/* Contiguous and masked groups: rounds of 32 groups per warp, O(G / 32) of them: each lane
 * loads its group's end or count (clamped); contiguous ends take a max scan (ascending ends) and
 * the difference from the lane before (the group's rows), a masked count is its group's rows; a
 * sum scan adds up the groups' units (tile rows x tiles_n) from the rounds before (carry), and a
 * ballot finds the first lane whose sum passes the unit. Every value is the same in every warp,
 * so every branch is uniform across the CTA. A unit past every group's tiles is past them for
 * every later unit too: done. The scan starts at the round and carry in scan (a persistent
 * loop's units ascend, so a unit's group is never in a round before the last unit's) and leaves
 * there the round where it found this unit. */
static void emit_scan_groups(ptx_builder *b, const tcj_kernel_cfg *c, ptx_group_sched *s, ptx_reg unit, ptx_reg m,
                             ptx_reg groups, ptx_reg count, ptx_reg lane, int64_t tiles_n, int done,
                             const ptx_group_scan *scan) {
  int masked = c->grouped == PTX_GROUP_MASKED;
  ptx_reg base = scan->base, carry_end = scan->carry_end, carry_units = scan->carry_units;
  ptx_reg idx = ptx_new(b, PTX_B32), end = ptx_new(b, PTX_B32), prev = ptx_new(b, PTX_B32);
  ptx_reg rows = ptx_new(b, PTX_B32), tiles = ptx_new(b, PTX_B32), sum = ptx_new(b, PTX_B32);
  ptx_reg mask = ptx_new(b, PTX_B32), src = ptx_new(b, PTX_B32), in = ptx_new(b, PTX_PRED), p = ptx_new(b, PTX_PRED);
  int loop = ptx_new_label(b), found = ptx_new_label(b);
  ptx_label(b, loop);
  ptx_ins(b, "setp.ge.u32 %R, %R, %R", p, base, count); /* every group read, unit not reached */
  emit_leave(b, p, done);
  ptx_ins(b, "add.u32 %R, %R, %R", idx, base, lane);
  ptx_ins(b, "setp.lt.u32 %R, %R, %R", in, idx, count);
  emit_clamped(b, c->grouped, end, groups, idx, in, m);
  if (masked) {
    ptx_ins(b, "mov.u32 %R, %R", rows, end);
  } else {
    ptx_ins(b, "max.u32 %R, %R, %R", end, end, carry_end);
    emit_scan(b, "max.u32", end);
    ptx_ins(b, "shfl.sync.up.b32 %R|%R, %R, 1, 0, -1", prev, p, end);
    ptx_ins_if(b, p, 1, "mov.u32 %R, %R", prev, carry_end);
    ptx_ins(b, "sub.u32 %R, %R, %R", rows, end, prev);
  }
  emit_tile_rows(b, c, tiles, rows);
  ptx_ins(b, "mul.lo.u32 %R, %R, %lld", sum, tiles, (long long)tiles_n);
  emit_scan(b, "add.u32", sum);
  ptx_ins(b, "add.u32 %R, %R, %R", sum, sum, carry_units);
  ptx_ins(b, "setp.lt.u32 %R, %R, %R", p, unit, sum);
  ptx_ins(b, "vote.sync.ballot.b32 %R, %R, -1", mask, p);
  ptx_ins(b, "setp.ne.u32 %R, %R, 0", p, mask);
  ptx_ins_if(b, p, 0, "bra.uni %L", found);
  if (!masked) ptx_ins(b, "shfl.sync.idx.b32 %R, %R, %d, 31, -1", carry_end, end, PTX_GROUP_ROUND - 1);
  ptx_ins(b, "shfl.sync.idx.b32 %R, %R, %d, 31, -1", carry_units, sum, PTX_GROUP_ROUND - 1);
  ptx_ins(b, "add.u32 %R, %R, %d", base, base, PTX_GROUP_ROUND);
  ptx_ins(b, "bra.uni %L", loop);
  ptx_label(b, found);
  /* The lowest set lane: bit-reverse, then the shift that brings the top bit to bit 31. */
  ptx_ins(b, "brev.b32 %R, %R", src, mask);
  ptx_ins(b, "bfind.shiftamt.u32 %R, %R", src, src);
  ptx_ins(b, "add.u32 %R, %R, %R", s->g, base, src);
  if (masked) ptx_ins(b, "mov.u32 %R, 0", s->row0);
  else ptx_ins(b, "shfl.sync.idx.b32 %R, %R, %R, 31, -1", s->row0, prev, src);
  ptx_ins(b, "shfl.sync.idx.b32 %R, %R, %R, 31, -1", s->rows, rows, src);
  ptx_ins(b, "shfl.sync.idx.b32 %R, %R, %R, 31, -1", sum, sum, src);
  ptx_ins(b, "shfl.sync.idx.b32 %R, %R, %R, 31, -1", tiles, tiles, src);
  ptx_reg group_units = ptx_new(b, PTX_B32);
  ptx_ins(b, "mul.lo.u32 %R, %R, %lld", group_units, tiles, (long long)tiles_n);
  ptx_ins(b, "sub.u32 %R, %R, %R", sum, sum, group_units); /* the group's first unit */
  ptx_ins(b, "sub.u32 %R, %R, %R", sum, unit, sum);
  emit_band_tile(b, s, sum, tiles, tiles_n);
}

/* K groups: the entry's unit (emit_entry_unit); then the group's K range, the maxima of the clamped ends before g (its start) and up to g (its end), read 32
 * per round (lane l: end base + l), each lane keeping its own maxima, one butterfly reduction
 * after. g is the warp's, so the loop is uniform. Every unit below G groups' tiles runs: an
 * empty group writes D. */
static void emit_k_groups(ptx_builder *b, const tcj_kernel_cfg *c, ptx_group_sched *s, ptx_reg unit, ptx_reg m,
                          ptx_reg groups, ptx_reg count, ptx_reg lane, int64_t tiles_n, int done) {
  ptx_reg tiles_m = ptx_new(b, PTX_B32), group_units = ptx_new(b, PTX_B32), l = ptx_new(b, PTX_B32);
  ptx_reg k = ptx_new(b, PTX_B32), base = ptx_new(b, PTX_B32);
  ptx_reg idx = ptx_new(b, PTX_B32), v = ptx_new(b, PTX_B32), before = ptx_new(b, PTX_B32);
  ptx_reg start = ptx_new(b, PTX_B32), end = ptx_new(b, PTX_B32), t = ptx_new(b, PTX_B32);
  ptx_reg out = ptx_new(b, PTX_PRED), in = ptx_new(b, PTX_PRED);
  int loop = ptx_new_label(b);
  emit_entry_unit(b, c, s, unit, m, count, tiles_n, done, (ptx_reg[]){tiles_m, group_units, l, out});
  ptx_ins(b, "ld.param.u32 %R, [p_k]", k);
  ptx_ins(b, "mov.u32 %R, 0", base);
  ptx_ins(b, "mov.u32 %R, 0", start);
  ptx_ins(b, "mov.u32 %R, 0", end);
  ptx_label(b, loop);
  ptx_ins(b, "add.u32 %R, %R, %R", idx, base, lane);
  ptx_ins(b, "setp.le.u32 %R, %R, %R", in, idx, s->g); /* g < count: idx <= g is in the array */
  emit_clamped(b, c->grouped, v, groups, idx, in, k);
  ptx_ins(b, "setp.lt.u32 %R, %R, %R", in, idx, s->g);
  ptx_ins(b, "selp.b32 %R, %R, 0, %R", before, v, in);
  ptx_ins(b, "max.u32 %R, %R, %R", start, start, before);
  ptx_ins(b, "max.u32 %R, %R, %R", end, end, v);
  ptx_ins(b, "add.u32 %R, %R, %d", base, base, PTX_GROUP_ROUND);
  ptx_ins(b, "setp.le.u32 %R, %R, %R", in, base, s->g);
  ptx_ins_if(b, in, 0, "bra.uni %L", loop);
  for (int d = PTX_GROUP_ROUND / 2; d >= 1; d /= 2) {
    ptx_ins(b, "shfl.sync.bfly.b32 %R, %R, %d, 31, -1", t, start, d);
    ptx_ins(b, "max.u32 %R, %R, %R", start, start, t);
    ptx_ins(b, "shfl.sync.bfly.b32 %R, %R, %d, 31, -1", t, end, d);
    ptx_ins(b, "max.u32 %R, %R, %R", end, end, t);
  }
  ptx_ins(b, "mov.u32 %R, %R", s->row0, start);
  ptx_ins(b, "sub.u32 %R, %R, %R", s->rows, end, start);
}

ptx_group_scan ptx_group_scan_start(ptx_builder *b) {
  ptx_group_scan scan = {ptx_new(b, PTX_B32), ptx_new(b, PTX_B32), ptx_new(b, PTX_B32)};
  ptx_ins(b, "mov.u32 %R, 0", scan.base);
  ptx_ins(b, "mov.u32 %R, 0", scan.carry_end);
  ptx_ins(b, "mov.u32 %R, 0", scan.carry_units);
  return scan;
}

ptx_group_sched ptx_emit_group_schedule(ptx_builder *b, const tcj_kernel_cfg *c, ptx_reg unit, ptx_reg m,
                                        int64_t tiles_n, ptx_reg lane, int done, const ptx_group_scan *scan) {
  ptx_group_sched s;
  s.g = ptx_new(b, PTX_B32);
  s.tm = ptx_new(b, PTX_B32);
  s.tn = ptx_new(b, PTX_B32);
  s.row0 = ptx_new(b, PTX_B32);
  s.rows = ptx_new(b, PTX_B32);
  ptx_reg groups = ptx_new(b, PTX_B64), count = ptx_new(b, PTX_B32);
  ptx_ins(b, "ld.param.u64 %R, [p_groups]", groups);
  ptx_ins(b, "cvta.to.global.u64 %R, %R", groups, groups);
  ptx_ins(b, "ld.param.u32 %R, [p_group_count]", count);
  if (ptx_group_k(c->grouped)) {
    emit_k_groups(b, c, &s, unit, m, groups, count, lane, tiles_n, done);
  } else if (c->grouped == PTX_GROUP_MASKED || c->grouped == PTX_GROUP_ENDS32 || c->grouped == PTX_GROUP_ENDS64) {
    ptx_group_scan fresh;
    if (!scan) fresh = ptx_group_scan_start(b);
    emit_scan_groups(b, c, &s, unit, m, groups, count, lane, tiles_n, done, scan ? scan : &fresh);
  } else {
    ptx_fail(b, "no scheduler for group mode %d", c->grouped);
  }
  return s;
}
