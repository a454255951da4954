/* SPDX-License-Identifier: Apache-2.0 */
/* The grouped kernels' tile scheduler (ptxgen/group_schedule.c): its C model, which the PTX
 * computes round for round, maps the units of the spec's grid to exactly the tiles a brute
 * force over the groups finds (ends clamped to [end[g-1], m], counts to [0, m]), for random,
 * unsorted, negative and past-m arrays, 1 to 1024 groups, empty groups and one group holding
 * every row; and the grid bound covers every tile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxgen/group_schedule.h"
#include "ptxgen/recipe.h"

enum { MAX_GROUPS = 1024 };

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t below) { /* xorshift64 */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return below ? (uint32_t)(rng_state % below) : 0;
}

/* The groups of one case: ends (as int64, stored as the mode's type) or counts. */
typedef struct gcase {
  int mode;
  uint32_t count, m, k, tiles_n; /* k: K groups' depth (their ends clamp to it) */
  int bm;
  int32_t v32[MAX_GROUPS];
  int64_t v64[MAX_GROUPS];
} gcase;

static int is_k(const gcase *c) { return c->mode == PTX_GROUP_K_ENDS32 || c->mode == PTX_GROUP_K_ENDS64; }
static int64_t value(const gcase *c, uint32_t g) { return c->mode == PTX_GROUP_ENDS64 || c->mode == PTX_GROUP_K_ENDS64 ? c->v64[g] : c->v32[g]; }
static const void *array(const gcase *c) { return c->mode == PTX_GROUP_ENDS64 || c->mode == PTX_GROUP_K_ENDS64 ? (const void *)c->v64 : (const void *)c->v32; }
static void set(gcase *c, uint32_t g, int64_t v) {
  c->v64[g] = v;
  c->v32[g] = (int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

/* The spec, literally: group g's first row and rows (K groups: first K index and depth), g
 * after g. */
static void spec_groups(const gcase *c, int64_t *row0, int64_t *rows) {
  int64_t prev = 0, limit = is_k(c) ? c->k : c->m;
  for (uint32_t g = 0; g < c->count; g++) {
    int64_t v = value(c, g);
    if (c->mode == PTX_GROUP_MASKED) {
      row0[g] = 0;
      rows[g] = v < 0 ? 0 : v > c->m ? c->m : v;
      continue;
    }
    int64_t end = v > prev ? v : prev; /* min(max(end[g], end[g-1]), m or k) */
    if (end > limit) end = limit;
    row0[g] = prev;
    rows[g] = end - prev;
    prev = end;
  }
}

/* Every unit of the spec's grid (and a few past it) against the brute force: the real tiles in
 * the spec's order (group by group; within a group, bands of PTX_GROUP_BAND tile columns left to
 * right, the last one narrower; within a band, tile rows, then its columns), each exactly once;
 * every other unit runs nothing. Returns the real tiles. */
static int64_t check_case(const gcase *c) {
  static int64_t row0[MAX_GROUPS], rows[MAX_GROUPS];
  spec_groups(c, row0, rows);
  int64_t units = ptx_group_units(c->mode, c->m, (int64_t)c->tiles_n * 8, c->bm, 8, c->count);
  assert_true(units >= 0);
  int64_t u = 0, tiles_m = ((int64_t)c->m + c->bm - 1) / c->bm;
  for (uint32_t g = 0; g < c->count; g++) {
    int64_t group_tiles = is_k(c) ? tiles_m : (rows[g] + c->bm - 1) / c->bm;
    for (uint32_t band = 0; band < c->tiles_n; band += PTX_GROUP_BAND)
      for (int64_t tm = 0; tm < group_tiles; tm++)
        for (uint32_t tn = band; tn < c->tiles_n && tn < band + PTX_GROUP_BAND; tn++, u++) {
        int real = is_k(c) || tm * c->bm < rows[g]; /* a K group's D is written, an empty one too */
        /* The grid covers the tile. */
        if (real && u >= units)
          fail_msg("mode %d, %u groups, m %u, bm %d: tile (g %u, tm %lld) at unit %lld, past the grid's %lld", c->mode,
                   c->count, c->m, c->bm, g, (long long)tm, (long long)u, (long long)units);
        if (u >= units) continue;
        ptx_group_tile t = ptx_group_unit_model(c->mode, array(c), c->count, c->m, c->k, c->bm, c->tiles_n, (uint32_t)u);
        if (t.runs != real || (real && (t.g != g || t.tm != tm || t.tn != tn || t.row0 != row0[g] || t.rows != rows[g])))
          fail_msg("mode %d, %u groups, m %u, bm %d, unit %lld: model runs %d g %u tm %u tn %u row0 %u rows %u; "
                   "want runs %d g %u tm %lld tn %u row0 %lld rows %lld",
                   c->mode, c->count, c->m, c->bm, (long long)u, t.runs, t.g, t.tm, t.tn, t.row0, t.rows, real, g,
                   (long long)tm, tn, (long long)row0[g], (long long)rows[g]);
      }
  }
  int64_t real_tiles = 0;
  for (uint32_t g = 0; g < c->count; g++)
    real_tiles += (is_k(c) ? tiles_m : (rows[g] + c->bm - 1) / c->bm) * c->tiles_n;
  /* Contiguous and masked: past the real tiles, every unit of the grid (and beyond) exits. */
  int64_t from = is_k(c) ? u : real_tiles;
  for (int64_t v = from; v < units + 3 * (int64_t)c->tiles_n; v++) {
    ptx_group_tile t = ptx_group_unit_model(c->mode, array(c), c->count, c->m, c->k, c->bm, c->tiles_n, (uint32_t)v);
    if (t.runs) fail_msg("mode %d, %u groups, m %u: unit %lld past the tiles runs group %u", c->mode, c->count, c->m,
                         (long long)v, t.g);
  }
  return real_tiles;
}

static const int bms[] = {16, 32, 64, 128, 256};

static void random_case(gcase *c, int mode, uint32_t count, int kind) {
  memset(c, 0, sizeof *c);
  c->mode = mode;
  c->count = count;
  c->m = rnd(4) == 0 ? rnd(40) : rnd(6000);
  c->k = rnd(4) == 0 ? rnd(40) : rnd(20000);
  c->bm = bms[rnd(5)];
  c->tiles_n = rnd(2) ? 1 + rnd(3) : 1 + rnd(3 * PTX_GROUP_BAND); /* one band, or several and a tail */
  uint32_t m = is_k(c) ? c->k : c->m; /* what the ends clamp to */
  for (uint32_t g = 0; g < count; g++) {
    int64_t v;
    if (mode == PTX_GROUP_MASKED) {
      v = kind == 0 ? rnd(m + 1) : kind == 1 ? (int64_t)rnd(2 * m + 3) - (int64_t)m : rnd(3) ? 0 : m;
    } else if (kind == 0) { /* sorted, some empty */
      v = rnd(m + 1);
    } else if (kind == 1) { /* anything: negative, past m, huge for int64 */
      int r = (int)rnd(6);
      v = r == 0 ? -(int64_t)rnd(1000) : r == 1 ? (int64_t)m + rnd(1000) : r == 2 ? ((int64_t)1 << 40) : r == 3 ? -((int64_t)1 << 40) : rnd(m + 1);
    } else { /* one group holds every row */
      v = g < count / 2 ? 0 : m;
    }
    set(c, g, v);
  }
  if (is_k(c) && count > 200) c->m = rnd(300); /* G x ceil(m / bm) units: keep the walk short */
  if (mode != PTX_GROUP_MASKED && kind == 0) { /* ascending ends */
    for (uint32_t i = 1; i < count; i++)
      for (uint32_t j = i; j > 0 && c->v64[j - 1] > c->v64[j]; j--) {
        int64_t t = c->v64[j];
        set(c, j, c->v64[j - 1]);
        set(c, j - 1, t);
      }
  }
}

static void model_matches_the_spec_for_random_groups(void **state) {
  (void)state;
  static gcase c;
  static const uint32_t counts[] = {1, 2, 3, 31, 32, 33, 63, 64, 65, 100, 255, 1000, 1023, 1024};
  int64_t tiles = 0;
  int cases = 0;
  for (int mode = PTX_GROUP_ENDS32; mode <= PTX_GROUP_K_ENDS64; mode++)
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
      for (int kind = 0; kind < 3; kind++)
        for (int rep = 0; rep < (counts[i] > 100 ? 1 : 3); rep++) {
          random_case(&c, mode, counts[i], kind);
          tiles += check_case(&c);
          cases++;
        }
  print_message("%d cases, %lld tiles\n", cases, (long long)tiles);
  assert_true(tiles > 10000);
}

/* Hand-made arrays whose answers are known without the brute force. */
static void model_handles_empty_unsorted_and_clamped_groups(void **state) {
  (void)state;
  /* m 100, bm 32: ends {-5, 40, 20, 40, 500, 7}: groups 0 (clamped to 0), 1 rows 0..40 (2 tiles),
   * 2 (20 < 40: empty), 3 (empty), 4 rows 40..100 (2 tiles), 5 (empty). */
  const int32_t ends[] = {-5, 40, 20, 40, 500, 7};
  struct { uint32_t g, tm, row0, rows; } want[] = {{1, 0, 0, 40}, {1, 1, 0, 40}, {4, 0, 40, 60}, {4, 1, 40, 60}};
  for (uint32_t u = 0; u < 4; u++) {
    ptx_group_tile t = ptx_group_unit_model(PTX_GROUP_ENDS32, ends, 6, 100, 0, 32, 1, u);
    assert_int_equal(t.runs, 1);
    assert_int_equal(t.g, want[u].g);
    assert_int_equal(t.tm, want[u].tm);
    assert_int_equal(t.row0, want[u].row0);
    assert_int_equal(t.rows, want[u].rows);
  }
  assert_int_equal(ptx_group_unit_model(PTX_GROUP_ENDS32, ends, 6, 100, 0, 32, 1, 4).runs, 0);
  /* The grid: ceil(100 / 32) + 6 = 10 units for one tile column. */
  assert_int_equal(ptx_group_units(PTX_GROUP_ENDS32, 100, 1, 32, 8, 6), 10);
  /* int64 ends past 2^32 clamp to m rather than wrap. */
  const int64_t ends64[] = {((int64_t)1 << 32) + 5, ((int64_t)1 << 33)};
  ptx_group_tile t = ptx_group_unit_model(PTX_GROUP_ENDS64, ends64, 2, 100, 0, 32, 1, 3);
  assert_int_equal(t.runs, 1);
  assert_int_equal(t.g, 0);
  assert_int_equal(t.rows, 100);
  assert_int_equal(ptx_group_unit_model(PTX_GROUP_ENDS64, ends64, 2, 100, 0, 32, 1, 4).runs, 0);
  /* Masked: counts {7, -3, 999} of m 64, bm 16: entry 0 one tile, entry 1 none, entry 2 four. */
  const int32_t counts[] = {7, -3, 999};
  int runs = 0;
  for (uint32_t u = 0; u < (uint32_t)ptx_group_units(PTX_GROUP_MASKED, 64, 1, 16, 8, 3); u++) {
    t = ptx_group_unit_model(PTX_GROUP_MASKED, counts, 3, 64, 0, 16, 1, u);
    runs += t.runs;
    if (t.runs) assert_int_equal(t.rows, t.g == 0 ? 7 : 64);
    if (t.runs) assert_true(t.g != 1);
  }
  assert_int_equal(runs, 5);
  /* m 0: nothing runs, and the masked grid is empty. */
  assert_int_equal(ptx_group_units(PTX_GROUP_MASKED, 0, 100, 16, 8, 3), 0);
  assert_int_equal(ptx_group_unit_model(PTX_GROUP_MASKED, counts, 3, 0, 0, 16, 1, 0).runs, 0);
  assert_int_equal(ptx_group_unit_model(PTX_GROUP_ENDS32, ends, 6, 0, 0, 16, 1, 0).runs, 0);
}

/* K groups: every group's D is written, an empty group's too, with the group's K range from
 * the ends clamped to [end[g-1], k]; m only counts the tile rows. */
static void k_groups_cover_every_group_and_clamp_to_k(void **state) {
  (void)state;
  /* k 100: ends {-5, 40, 20, 40, 500, 7}: K ranges [0,0) [0,40) [40,40) [40,40) [40,100) [100,100). */
  const int32_t ends[] = {-5, 40, 20, 40, 500, 7};
  const int64_t ends64[] = {-5, 40, 20, 40, ((int64_t)1 << 33), 7};
  const uint32_t start[] = {0, 0, 40, 40, 40, 100}, depth[] = {0, 40, 0, 0, 60, 0};
  /* m 50, bm 32: two tile rows; n 3 tiles: 6 units a group, 36 in all. */
  assert_int_equal(ptx_group_units(PTX_GROUP_K_ENDS32, 50, 24, 32, 8, 6), 36);
  for (int wide = 0; wide < 2; wide++)
    for (uint32_t u = 0; u < 40; u++) {
      ptx_group_tile t = ptx_group_unit_model(wide ? PTX_GROUP_K_ENDS64 : PTX_GROUP_K_ENDS32,
                                              wide ? (const void *)ends64 : (const void *)ends, 6, 50, 100, 32, 3, u);
      if (u >= 36) {
        assert_int_equal(t.runs, 0);
        assert_int_equal(t.done, 1);
        continue;
      }
      assert_int_equal(t.runs, 1);
      assert_int_equal(t.g, u / 6);
      assert_int_equal(t.tm, u / 3 % 2);
      assert_int_equal(t.tn, u % 3);
      assert_int_equal(t.row0, start[u / 6]);
      assert_int_equal(t.rows, depth[u / 6]);
    }
  /* m 0: no tile row, nothing runs. */
  assert_int_equal(ptx_group_units(PTX_GROUP_K_ENDS32, 0, 24, 32, 8, 6), 0);
  assert_int_equal(ptx_group_unit_model(PTX_GROUP_K_ENDS32, ends, 6, 0, 100, 32, 3, 0).runs, 0);
}

/* sum_g ceil(m_g / bm) <= ceil(m / bm) + G for any split of m rows: the contiguous grid bound,
 * at its tightest (every group bm + 1 rows, or one row each). */
static void contiguous_grid_covers_the_worst_split(void **state) {
  (void)state;
  static gcase c;
  for (int worst = 0; worst < 2; worst++) {
    memset(&c, 0, sizeof c);
    c.mode = PTX_GROUP_ENDS32;
    c.bm = 128;
    c.count = MAX_GROUPS;
    c.tiles_n = 2;
    uint32_t each = worst ? 1 : (uint32_t)c.bm + 1;
    c.m = each * c.count;
    for (uint32_t g = 0; g < c.count; g++) set(&c, g, (int64_t)each * (g + 1));
    int64_t tiles = check_case(&c);
    assert_int_equal(tiles, (worst ? 1 : 2) * (int64_t)c.count * c.tiles_n);
  }
  assert_int_equal(ptx_group_units(0, 10, 10, 16, 16, 1), -1);
  /* The sm80 row's grid for a grouped config: every unit where slots allow (batch: the groups), one slice. */
  tcj_kernel_cfg cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.recipe = PTX_RECIPE_SM80;
  cfg.n = 1000;
  cfg.bm = 128;
  cfg.bn = 64;
  for (int mode = PTX_GROUP_ENDS32; mode <= PTX_GROUP_K_ENDS64; mode++) {
    cfg.grouped = mode;
    ptx_grid grid = ptx_recipe_of(&cfg)->grid(&cfg, 5000, 8, 1 << 20);
    assert_int_equal(grid.x, ptx_group_units(mode, 5000, 1000, 128, 64, 8));
    assert_int_equal(grid.x, 16 * (mode >= PTX_GROUP_MASKED ? 8 * 40 : 40 + 8));
    assert_int_equal(grid.y, 1);
    /* Persistent: no more CTAs than fit at once (slots). */
    assert_int_equal(ptx_recipe_of(&cfg)->grid(&cfg, 5000, 8, 264).x, 264);
  }
  assert_int_equal(ptx_group_units(PTX_GROUP_MASKED, -1, 10, 16, 16, 1), -1);
}

/* The recipes' persistent loops: CTA c of P walks units c, c + P, ... below the grid's units,
 * carrying its scan's position from unit to unit (ptx_group_unit_model_from, as the PTX does),
 * and stops at the first unit without a tile, which the model marks done. Every real tile runs
 * exactly once across the CTAs, the carried scan answers as a fresh one, and done holds its
 * promise: no later unit runs. */
static void a_persistent_walk_that_stops_at_done_runs_every_tile_once(void **state) {
  (void)state;
  static gcase c;
  static uint8_t seen[1 << 20];
  static const uint32_t counts[] = {1, 3, 32, 33, 100, 1024};
  static const uint32_t ctas[] = {1, 7, 132};
  int walks = 0;
  for (int mode = PTX_GROUP_ENDS32; mode <= PTX_GROUP_K_ENDS64; mode++)
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
      for (int kind = 0; kind < 3; kind++) {
        random_case(&c, mode, counts[i], kind);
        int64_t units = ptx_group_units(c.mode, c.m, (int64_t)c.tiles_n * 8, c.bm, 8, c.count);
        if (units > (int64_t)sizeof seen) continue;
        int64_t first_done = -1, tiles = 0;
        for (int64_t u = 0; u < units; u++) {
          ptx_group_tile t = ptx_group_unit_model(c.mode, array(&c), c.count, c.m, c.k, c.bm, c.tiles_n, (uint32_t)u);
          assert_false(t.runs && t.done);
          if (t.done && first_done < 0) first_done = u;
          if (t.runs && first_done >= 0)
            fail_msg("mode %d, %u groups: unit %lld runs past done at unit %lld", mode, c.count, (long long)u,
                     (long long)first_done);
          tiles += t.runs;
        }
        for (size_t p = 0; p < sizeof ctas / sizeof *ctas; p++) {
          memset(seen, 0, (size_t)units);
          int64_t ran = 0;
          for (uint32_t cta = 0; cta < ctas[p]; cta++) {
            ptx_group_scan_pos pos = {0, 0, 0};
            for (int64_t u = cta; u < units; u += ctas[p]) {
              ptx_group_tile t = ptx_group_unit_model_from(c.mode, array(&c), c.count, c.m, c.k, c.bm, c.tiles_n,
                                                           (uint32_t)u, &pos);
              ptx_group_tile fresh = ptx_group_unit_model(c.mode, array(&c), c.count, c.m, c.k, c.bm, c.tiles_n, (uint32_t)u);
              if (memcmp(&t, &fresh, sizeof t))
                fail_msg("mode %d, %u groups, CTA %u of %u: unit %lld carried g %u tm %u tn %u, fresh g %u tm %u tn %u",
                         mode, c.count, cta, ctas[p], (long long)u, t.g, t.tm, t.tn, fresh.g, fresh.tm, fresh.tn);
              if (!t.runs) { /* no unit is passed over: the first without a tile ends the walk */
                assert_true(t.done);
                break;
              }
              assert_int_equal(seen[u], 0);
              seen[u] = 1;
              ran++;
            }
          }
          assert_int_equal(ran, tiles);
          walks++;
        }
      }
  print_message("%d walks\n", walks);
  assert_true(walks > 100);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(model_matches_the_spec_for_random_groups),
    cmocka_unit_test(model_handles_empty_unsorted_and_clamped_groups),
    cmocka_unit_test(k_groups_cover_every_group_and_clamp_to_k),
    cmocka_unit_test(contiguous_grid_covers_the_worst_split),
    cmocka_unit_test(a_persistent_walk_that_stops_at_done_runs_every_tile_once),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
