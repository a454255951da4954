/* ptx_layout pinned against the PTX ISA: fragment tables of mma.m16n8k16 (f16/bf16), m16n8k8
 * (tf32) and m16n8k32 (s8) written out here from the ISA text, the swizzle's bijection and bank
 * behaviour for the recipe's ldmatrix and cp.async patterns, and a simulated ldmatrix that must
 * deliver exactly the fragments the mma coordinate functions describe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptxgen/ptx_layout.h"

/* Fails with context: prints where, then lets cmocka print both values. */
#define EXPECT_EQ(a, b, ...)                        \
  do {                                              \
    long long a_ = (long long)(a), b_ = (long long)(b); \
    if (a_ != b_) print_error(__VA_ARGS__);         \
    assert_int_equal(a_, b_);                       \
  } while (0)

static const ptx_elem mma_types[] = {PTX_E_F16, PTX_E_BF16, PTX_E_TF32, PTX_E_S8};
#define N_MMA_TYPES (int)(sizeof mma_types / sizeof mma_types[0])

/* ---- The ISA tables, element by element (ai, bi, ci as the ISA numbers them). ---- */

typedef struct isa_shape {
  int k;          /* K of the instruction in elements */
  int a_elems;    /* a0..a(n-1) per thread */
  int b_elems;
} isa_shape;

static isa_shape shape_of(ptx_elem ab) {
  switch (ab) {
  case PTX_E_TF32: return (isa_shape){8, 4, 2};   /* mma.m16n8k8 .tf32 */
  case PTX_E_S8: return (isa_shape){32, 16, 8};   /* mma.m16n8k32 .s8 */
  default: return (isa_shape){16, 8, 4};          /* mma.m16n8k16 .f16/.bf16 */
  }
}

static ptx_coord isa_a(ptx_elem ab, int lane, int i) {
  int g = lane >> 2, t = lane % 4;
  ptx_coord c;
  if (ab == PTX_E_TF32) {
    c.row = (i == 0 || i == 2) ? g : g + 8;
    c.col = (i == 0 || i == 1) ? t : t + 4;
  } else if (ab == PTX_E_S8) {
    c.row = ((i >= 0 && i <= 3) || (i >= 8 && i <= 11)) ? g : g + 8;
    c.col = t * 4 + (i & 3) + (i >= 8 ? 16 : 0);
  } else {
    c.row = (i == 0 || i == 1 || i == 4 || i == 5) ? g : g + 8;
    c.col = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
  }
  return c;
}

static ptx_coord isa_b(ptx_elem ab, int lane, int i) {
  int g = lane >> 2, t = lane % 4;
  ptx_coord c;
  c.col = g;
  if (ab == PTX_E_TF32)
    c.row = i == 0 ? t : t + 4;
  else if (ab == PTX_E_S8)
    c.row = t * 4 + (i & 3) + (i >= 4 ? 16 : 0);
  else
    c.row = t * 2 + (i & 1) + (i >= 2 ? 8 : 0);
  return c;
}

static ptx_coord isa_c(int lane, int i) {
  int g = lane >> 2, t = lane % 4;
  ptx_coord c = {i < 2 ? g : g + 8, t * 2 + (i & 1)};
  return c;
}

/* Elements per 32-bit register in the ISA's packing: .f16x2/.bf16x2, one .tf32, four .s8. */
static int isa_per_reg(ptx_elem ab) { return ab == PTX_E_TF32 ? 1 : ab == PTX_E_S8 ? 4 : 2; }

static void frag_elems_per_reg_matches_isa_packing(void **state) {
  (void)state;
  for (int t = 0; t < N_MMA_TYPES; t++)
    EXPECT_EQ(ptx_frag_elems_per_reg(mma_types[t]), isa_per_reg(mma_types[t]), "type %s",
              ptx_elem_name(mma_types[t]));
}

static void a_fragment_matches_isa_table(void **state) {
  (void)state;
  for (int t = 0; t < N_MMA_TYPES; t++) {
    ptx_elem ab = mma_types[t];
    int per = isa_per_reg(ab);
    for (int lane = 0; lane < PTX_WARP; lane++)
      for (int i = 0; i < shape_of(ab).a_elems; i++) {
        ptx_coord got = ptx_mma_a_coord(ab, lane, i / per, i % per), want = isa_a(ab, lane, i);
        EXPECT_EQ(got.row, want.row, "%s A lane %d a%d row", ptx_elem_name(ab), lane, i);
        EXPECT_EQ(got.col, want.col, "%s A lane %d a%d col", ptx_elem_name(ab), lane, i);
      }
  }
}

static void b_fragment_matches_isa_table(void **state) {
  (void)state;
  for (int t = 0; t < N_MMA_TYPES; t++) {
    ptx_elem ab = mma_types[t];
    int per = isa_per_reg(ab);
    for (int lane = 0; lane < PTX_WARP; lane++)
      for (int i = 0; i < shape_of(ab).b_elems; i++) {
        ptx_coord got = ptx_mma_b_coord(ab, lane, i / per, i % per), want = isa_b(ab, lane, i);
        EXPECT_EQ(got.row, want.row, "%s B lane %d b%d row", ptx_elem_name(ab), lane, i);
        EXPECT_EQ(got.col, want.col, "%s B lane %d b%d col", ptx_elem_name(ab), lane, i);
      }
  }
}

static void c_fragment_matches_isa_table(void **state) {
  (void)state;
  for (int lane = 0; lane < PTX_WARP; lane++)
    for (int i = 0; i < 4; i++) {
      ptx_coord got = ptx_mma_c_coord(lane, i), want = isa_c(lane, i);
      EXPECT_EQ(got.row, want.row, "C lane %d c%d row", lane, i);
      EXPECT_EQ(got.col, want.col, "C lane %d c%d col", lane, i);
    }
}

/* Across the warp a fragment names every element of its tile exactly once. */
static void fragments_cover_their_tiles_exactly_once(void **state) {
  (void)state;
  int seen[32][32];
  for (int t = 0; t < N_MMA_TYPES; t++) {
    ptx_elem ab = mma_types[t];
    isa_shape s = shape_of(ab);
    int per = ptx_frag_elems_per_reg(ab);

    memset(seen, 0, sizeof seen); /* A: 16 x k */
    for (int lane = 0; lane < PTX_WARP; lane++)
      for (int r = 0; r < s.a_elems / per; r++)
        for (int e = 0; e < per; e++) {
          ptx_coord c = ptx_mma_a_coord(ab, lane, r, e);
          assert_in_range(c.row, 0, PTX_MMA_M - 1);
          assert_in_range(c.col, 0, s.k - 1);
          seen[c.row][c.col]++;
        }
    for (int i = 0; i < PTX_MMA_M; i++)
      for (int j = 0; j < s.k; j++) EXPECT_EQ(seen[i][j], 1, "%s A (%d,%d)", ptx_elem_name(ab), i, j);

    memset(seen, 0, sizeof seen); /* B: k x 8 */
    for (int lane = 0; lane < PTX_WARP; lane++)
      for (int r = 0; r < s.b_elems / per; r++)
        for (int e = 0; e < per; e++) {
          ptx_coord c = ptx_mma_b_coord(ab, lane, r, e);
          assert_in_range(c.row, 0, s.k - 1);
          assert_in_range(c.col, 0, PTX_MMA_N - 1);
          seen[c.row][c.col]++;
        }
    for (int i = 0; i < s.k; i++)
      for (int j = 0; j < PTX_MMA_N; j++) EXPECT_EQ(seen[i][j], 1, "%s B (%d,%d)", ptx_elem_name(ab), i, j);
    /* One mma consumes 32 bytes of K whatever the type. */
    EXPECT_EQ(s.k * ptx_elem_size(ab), PTX_MMA_K_BYTES, "%s k bytes", ptx_elem_name(ab));
  }

  memset(seen, 0, sizeof seen); /* C: 16 x 8 */
  for (int lane = 0; lane < PTX_WARP; lane++)
    for (int r = 0; r < 4; r++) {
      ptx_coord c = ptx_mma_c_coord(lane, r);
      assert_in_range(c.row, 0, PTX_MMA_M - 1);
      assert_in_range(c.col, 0, PTX_MMA_N - 1);
      seen[c.row][c.col]++;
    }
  for (int i = 0; i < PTX_MMA_M; i++)
    for (int j = 0; j < PTX_MMA_N; j++) EXPECT_EQ(seen[i][j], 1, "C (%d,%d)", i, j);
}

/* ---- Swizzle ---- */

static void panel_is_at_most_one_swizzle_line(void **state) {
  (void)state;
  EXPECT_EQ(ptx_panel_bytes(64), 64, "64");
  EXPECT_EQ(ptx_panel_bytes(128), 128, "128");
  EXPECT_EQ(ptx_panel_bytes(256), 128, "256");
  EXPECT_EQ(ptx_panel_bytes(512), 128, "512");
}

static void swizzle_is_a_bijection_that_keeps_16_byte_chunks_whole(void **state) {
  (void)state;
  static const unsigned row_bytes[] = {64, 128, 256, 512};
  static const unsigned rows[] = {16, 32, 64, 128, 256};
  for (size_t a = 0; a < sizeof row_bytes / sizeof *row_bytes; a++)
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
      unsigned rb = row_bytes[a], nr = rows[r], size = rb * nr;
      unsigned char *seen = calloc(size, 1);
      assert_non_null(seen);
      for (unsigned row = 0; row < nr; row++)
        for (unsigned bc = 0; bc < rb; bc++) {
          unsigned off = ptx_swizzled_offset(row, bc, nr, rb);
          if (off >= size) print_error("rows %u row_bytes %u (%u,%u) -> %u\n", nr, rb, row, bc, off);
          assert_true(off < size);
          EXPECT_EQ(seen[off], 0, "rows %u row_bytes %u (%u,%u) -> %u twice\n", nr, rb, row, bc, off);
          seen[off] = 1;
          EXPECT_EQ(off % PTX_CHUNK, bc % PTX_CHUNK, "rows %u row_bytes %u (%u,%u)\n", nr, rb, row, bc);
          EXPECT_EQ(off, ptx_swizzled_offset(row, bc - bc % PTX_CHUNK, nr, rb) + bc % PTX_CHUNK,
                    "chunk split: rows %u row_bytes %u (%u,%u)\n", nr, rb, row, bc);
        }
      free(seen);
    }
}

/* Shared memory serves a 16-byte-per-lane request in phases of 8 lanes; a phase is
 * conflict-free iff its 8 chunks lie in 8 distinct 16-byte bank groups of a 128-byte line. */
static int bank_group(unsigned off) { return (int)((off / PTX_CHUNK) % (PTX_SWIZZLE_LINE / PTX_CHUNK)); }

static int phase_conflicts(const unsigned off[8]) {
  int used = 0;
  for (int i = 0; i < 8; i++) {
    int bit = 1 << bank_group(off[i]);
    if (used & bit) return 1;
    used |= bit;
  }
  return 0;
}

/* Row-start offsets the 32 lanes give ldmatrix.x4 for one 16x32-byte block at (base_mn, kk). */
static void lane_offsets(int is_b, int k_major, unsigned base_mn, unsigned kk, unsigned rows,
                         unsigned row_bytes, unsigned es, unsigned off[PTX_WARP]) {
  for (int lane = 0; lane < PTX_WARP; lane++) {
    ptx_lane_addr a = ptx_ldmatrix_lane(is_b, k_major, lane);
    unsigned row, bc;
    if (k_major) {
      row = base_mn + (unsigned)a.mn;
      bc = kk * PTX_MMA_K_BYTES + (unsigned)a.k;
    } else {
      row = kk * 16 + (unsigned)a.k;
      bc = (base_mn + (unsigned)a.mn) * es;
    }
    assert_true(row < rows);
    assert_true(bc + PTX_CHUNK <= row_bytes);
    off[lane] = ptx_swizzled_offset(row, bc, rows, row_bytes);
  }
}

static void check_phases(const unsigned off[PTX_WARP], const char *what, int is_b, unsigned rows,
                         unsigned row_bytes, unsigned base_mn, unsigned kk) {
  for (int p = 0; p < PTX_WARP / 8; p++) {
    if (phase_conflicts(off + 8 * p)) {
      print_error("%s %s: rows %u row_bytes %u base_mn %u kk %u phase %d offsets", what,
                  is_b ? "B" : "A", rows, row_bytes, base_mn, kk, p);
      for (int i = 0; i < 8; i++) print_error(" %u(g%d)", off[8 * p + i], bank_group(off[8 * p + i]));
      print_error("\n");
    }
    EXPECT_EQ(phase_conflicts(off + 8 * p), 0, "bank conflict\n");
  }
}

static void ldmatrix_k_major_is_bank_conflict_free(void **state) {
  (void)state;
  static const unsigned mns[] = {32, 64, 128, 256};
  static const unsigned row_bytes[] = {64, 128};
  unsigned off[PTX_WARP];
  for (int is_b = 0; is_b < 2; is_b++)
    for (size_t m = 0; m < 4; m++)
      for (size_t r = 0; r < 2; r++)
        for (unsigned base = 0; base < mns[m]; base += 16)
          for (unsigned kk = 0; kk < row_bytes[r] / PTX_MMA_K_BYTES; kk++) {
            lane_offsets(is_b, 1, base, kk, mns[m], row_bytes[r], 2, off);
            check_phases(off, "k-major", is_b, mns[m], row_bytes[r], base, kk);
          }
}

static void ldmatrix_mn_major_is_bank_conflict_free(void **state) {
  (void)state;
  static const unsigned bmns[] = {32, 64, 128, 256};
  static const unsigned k_rows[] = {32, 64}; /* bk of a 64- or 128-byte K tile of 16-bit data */
  unsigned off[PTX_WARP];
  for (int is_b = 0; is_b < 2; is_b++)
    for (size_t m = 0; m < 4; m++)
      for (size_t r = 0; r < 2; r++)
        for (unsigned base = 0; base < bmns[m]; base += 16)
          for (unsigned kk = 0; kk < k_rows[r] / 16; kk++) {
            lane_offsets(is_b, 0, base, kk, k_rows[r], bmns[m] * 2, 2, off);
            check_phases(off, "mn-major", is_b, k_rows[r], bmns[m] * 2, base, kk);
          }
}

/* cp.async with 16-byte copies: thread i copies chunk i of a row-major walk of the tile, so each
 * phase of 8 lanes stores 8 consecutive chunks. */
static void cp_async_chunk_stores_are_bank_conflict_free(void **state) {
  (void)state;
  static const struct { unsigned rows, row_bytes; } tiles[] = {
    /* K-major tiles: MN rows of a 64- or 128-byte K tile. */
    {32, 64}, {64, 64}, {128, 64}, {256, 64}, {32, 128}, {64, 128}, {128, 128}, {256, 128},
    /* MN-major tiles: K rows of BMN elements of 16-bit data. */
    {32, 64}, {32, 128}, {32, 256}, {32, 512}, {64, 64}, {64, 128}, {64, 256}, {64, 512},
  };
  for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++) {
    unsigned rows = tiles[t].rows, rb = tiles[t].row_bytes, per_row = rb / PTX_CHUNK;
    unsigned chunks = rows * per_row, off[8];
    for (unsigned first = 0; first < chunks; first += 8) {
      for (unsigned i = 0; i < 8; i++) {
        unsigned c = first + i;
        off[i] = ptx_swizzled_offset(c / per_row, (c % per_row) * PTX_CHUNK, rows, rb);
      }
      if (phase_conflicts(off))
        print_error("rows %u row_bytes %u chunks %u..%u\n", rows, rb, first, first + 7);
      EXPECT_EQ(phase_conflicts(off), 0, "cp.async bank conflict\n");
    }
  }
}

/* ---- ldmatrix simulation ----
 * Shared memory holds, at each physical byte, the logical byte it stores (row * row_bytes +
 * byte_col), so every byte of the tile is distinct. ldmatrix returns these tags per lane,
 * register and byte, which are compared with the bytes the mma fragment should hold. */

#define POISON 0xffffffffu

static uint32_t *store_tile(unsigned rows, unsigned row_bytes) {
  unsigned size = rows * row_bytes;
  uint32_t *mem = malloc(size * sizeof *mem);
  assert_non_null(mem);
  for (unsigned i = 0; i < size; i++) mem[i] = POISON;
  for (unsigned r = 0; r < rows; r++)
    for (unsigned bc = 0; bc < row_bytes; bc++) {
      unsigned off = ptx_swizzled_offset(r, bc, rows, row_bytes);
      assert_true(off < size);
      EXPECT_EQ(mem[off], POISON, "byte stored twice\n");
      mem[off] = r * row_bytes + bc;
    }
  return mem;
}

/* ldmatrix.sync.aligned.m8n8.x4.shared.b16 [.trans]: lanes 8j..8j+7 address the 8 rows of
 * matrix j (16 bytes each); matrix j lands in register j. Without .trans lane l gets bytes
 * 4*(l%4)..+3 of row l/4; with .trans it gets the 16-bit elements (2*(l%4), l/4) and
 * (2*(l%4)+1, l/4). */
static void ldmatrix_x4(const uint32_t *mem, const unsigned off[PTX_WARP], int trans,
                        uint32_t out[PTX_WARP][4][4]) {
  for (int lane = 0; lane < PTX_WARP; lane++) assert_int_equal(off[lane] % PTX_CHUNK, 0);
  for (int l = 0; l < PTX_WARP; l++)
    for (int j = 0; j < 4; j++)
      for (int b = 0; b < 4; b++) {
        unsigned src;
        if (!trans)
          src = off[8 * j + l / 4] + 4 * (l % 4) + b;
        else
          src = off[8 * j + 2 * (l % 4) + b / 2] + 2 * (l / 4) + b % 2;
        out[l][j][b] = mem[src];
      }
}

/* Logical byte that byte `byte` of fragment register `reg` of `lane` must hold. Register j of
 * an A block is a_j; of a B block it is b_(j&1) of the n8 fragment j>>1. */
static uint32_t want_tag(ptx_elem ab, int is_b, int k_major, unsigned base_mn, unsigned kk,
                         unsigned row_bytes, int lane, int reg, int byte) {
  int es = ptx_elem_size(ab), e = byte / es;
  unsigned mn, kel; /* element coordinates within the operand */
  if (!is_b) {
    ptx_coord c = ptx_mma_a_coord(ab, lane, reg, e);
    mn = base_mn + (unsigned)c.row;
    kel = (unsigned)c.col;
  } else {
    ptx_coord c = ptx_mma_b_coord(ab, lane, reg & 1, e);
    mn = base_mn + 8u * (unsigned)(reg >> 1) + (unsigned)c.col;
    kel = (unsigned)c.row;
  }
  if (k_major) return mn * row_bytes + kk * PTX_MMA_K_BYTES + kel * (unsigned)es + (unsigned)(byte % es);
  return (kk * 16 + kel) * row_bytes + mn * (unsigned)es + (unsigned)(byte % es);
}

static void check_ldmatrix(ptx_elem ab, int is_b, int k_major, unsigned rows, unsigned row_bytes) {
  uint32_t *mem = store_tile(rows, row_bytes);
  unsigned es = (unsigned)ptx_elem_size(ab), off[PTX_WARP];
  unsigned mn_extent = k_major ? rows : row_bytes / es, k_blocks = k_major ? row_bytes / PTX_MMA_K_BYTES : rows / 16;
  static uint32_t got[PTX_WARP][4][4];
  for (unsigned base = 0; base < mn_extent; base += 16)
    for (unsigned kk = 0; kk < k_blocks; kk++) {
      lane_offsets(is_b, k_major, base, kk, rows, row_bytes, es, off);
      ldmatrix_x4(mem, off, !k_major, got);
      for (int l = 0; l < PTX_WARP; l++)
        for (int j = 0; j < 4; j++)
          for (int b = 0; b < 4; b++) {
            uint32_t want = want_tag(ab, is_b, k_major, base, kk, row_bytes, l, j, b);
            if (got[l][j][b] != want)
              print_error("%s %s %s rows %u row_bytes %u base_mn %u kk %u lane %d reg %d byte %d: "
                          "got (%u,%u) want (%u,%u)\n",
                          ptx_elem_name(ab), is_b ? "B" : "A", k_major ? "k-major" : "mn-major", rows,
                          row_bytes, base, kk, l, j, b, got[l][j][b] / row_bytes,
                          got[l][j][b] % row_bytes, want / row_bytes, want % row_bytes);
            assert_int_equal(got[l][j][b], want);
          }
    }
  free(mem);
}

static void ldmatrix_k_major_delivers_the_mma_fragments(void **state) {
  (void)state;
  static const unsigned mns[] = {32, 64, 128, 256};
  static const unsigned row_bytes[] = {64, 128};
  for (int t = 0; t < N_MMA_TYPES; t++)
    for (int is_b = 0; is_b < 2; is_b++)
      for (size_t m = 0; m < 4; m++)
        for (size_t r = 0; r < 2; r++) check_ldmatrix(mma_types[t], is_b, 1, mns[m], row_bytes[r]);
}

static void ldmatrix_trans_mn_major_delivers_the_mma_fragments(void **state) {
  (void)state;
  static const ptx_elem types16[] = {PTX_E_F16, PTX_E_BF16};
  static const unsigned bmns[] = {32, 64, 128, 256};
  static const unsigned k_rows[] = {32, 64};
  for (int t = 0; t < 2; t++)
    for (int is_b = 0; is_b < 2; is_b++)
      for (size_t m = 0; m < 4; m++)
        for (size_t r = 0; r < 2; r++) check_ldmatrix(types16[t], is_b, 0, k_rows[r], bmns[m] * 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(frag_elems_per_reg_matches_isa_packing),
    cmocka_unit_test(a_fragment_matches_isa_table),
    cmocka_unit_test(b_fragment_matches_isa_table),
    cmocka_unit_test(c_fragment_matches_isa_table),
    cmocka_unit_test(fragments_cover_their_tiles_exactly_once),
    cmocka_unit_test(panel_is_at_most_one_swizzle_line),
    cmocka_unit_test(swizzle_is_a_bijection_that_keeps_16_byte_chunks_whole),
    cmocka_unit_test(ldmatrix_k_major_is_bank_conflict_free),
    cmocka_unit_test(ldmatrix_mn_major_is_bank_conflict_free),
    cmocka_unit_test(cp_async_chunk_stores_are_bank_conflict_free),
    cmocka_unit_test(ldmatrix_k_major_delivers_the_mma_fragments),
    cmocka_unit_test(ldmatrix_trans_mn_major_delivers_the_mma_fragments),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
