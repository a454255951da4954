#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2015  # `A && B || fail`: fail when any check does not hold
# tcj-prof on a GPU: a two-problem suite (bf16 with odd sizes, f16 NT) with --out: exit 0, both
# rows ok in results.csv, results.json valid, results.txt the same table as stdout with a
# geomean line per dtype, a progress line per problem; then tcj alone with --cold and given
# peaks; then tcj_gemm_ex rows (prof_fused.yaml) against their cuBLASLt, cuBLASLt + activation
# kernel and strided-batched baselines: each checked and timed, labelled with its epilogue, batch
# and baseline, averaged apart; then fp8 rows against cuBLASLt's fp8 GEMM in both accumulation
# modes (NT), and without a baseline where cuBLASLt has none (NN, e5m2 x e5m2), with an s8 row
# whose peak runs NT; then f32 (fp32 accuracy) against cublasSgemm and f64 against cublasDgemm,
# with both libraries' accuracy figures beside tf32 and bf16 rows (f64 unsupported, cuBLAS timed
# alone, until the engine has f64 kernels). Exit 77 (skipped) without a GPU.
# Usage: prof_two_problems.sh TCJ_PROF DATA_DIR SCRATCH_DIR
set -euo pipefail
prof=$1 data=$2 dir=$3
unset TCJ_TILE TCJ_RECIPE
rm -rf "$dir"
mkdir -p "$dir"
suite=$data/prof_two.yaml
# shellcheck source=tests/tools/harness.sh
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
run() { capture "$prof" "$@"; }

if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIP: no GPU (nvidia-smi finds none)"
  exit 77
fi
run --suite "$suite" --out "$dir/res"
if [ $rc -eq 1 ] && grep -q '^tcj-prof: no GPU: ' "$dir/err"; then
  "$prof" --dry-run --suite "$suite" >/dev/null || fail "--dry-run fails without a GPU"
  echo "SKIP: no GPU ($(head -n 1 "$dir/err"))"
  exit 77
fi
show
[ $rc -eq 0 ] || fail "tcj-prof exited $rc"
for f in results.txt results.csv results.json; do [ -s "$dir/res/$f" ] || fail "no $f"; done
cmp -s "$dir/out" "$dir/res/results.txt" || fail "results.txt differs from the table on stdout"
grep -q '^geomean tcj/cuBLAS bf16: [0-9.]* over 1 problem$' "$dir/res/results.txt" || fail "no bf16 geomean line"
grep -q '^geomean tcj/cuBLAS f16: [0-9.]* over 1 problem$' "$dir/res/results.txt" || fail "no f16 geomean line"
grep -q '^device: *NVIDIA ' "$dir/res/results.txt" || fail "no device line"
grep -q '^tcj-prof: 1/2 bf16_odd ' "$dir/err" && grep -q '^tcj-prof: 2/2 f16_nt ' "$dir/err" ||
  fail "no progress line per problem on a non-terminal stderr"
python3 -m json.tool "$dir/res/results.json" >/dev/null || fail "results.json does not parse"
python3 - "$dir/res/results.csv" "$dir/res/results.json" <<'PY' || fail "results.csv or .json rows"
import csv, json, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
assert [r["name"] for r in rows] == ["bf16_odd", "f16_nt"], rows
for r in rows:
    assert r["status"] == "ok", r
    assert float(r["tcj_us"]) > 0 and float(r["cublas_us"]) > 0 and float(r["ratio"]) > 0, r
    assert float(r["floor_us"]) > 0 and int(r["runs"]) >= 20, r
    assert r["cfg"].startswith("recipe="), r
res = json.load(open(sys.argv[2]))
assert [r["status"] for r in res["rows"]] == ["ok", "ok"], res["rows"]
d = res["device"]
assert d["sm_count"] > 0 and d["bandwidth_gbs"] > 0 and d["date"], d
assert d["peak_tflops"].get("bf16", 0) > 0 and d["peak_tflops"].get("f16", 0) > 0, d
PY
if python3 -c "import matplotlib" 2>/dev/null; then
  [ -s "$dir/res/results.png" ] || fail "matplotlib is there but no results.png"
else
  grep -q "the plot failed" "$dir/err" || fail "no plot and no message saying so"
fi

# tcj alone, cold, with given peaks: no check, no cuBLAS time, a cold time.
run --suite "$suite" --filter f16_nt --no-cublas --cold --peak-tflops 900 --bandwidth-gbs 4000 --repeat 25 --out "$dir/cold"
[ $rc -eq 0 ] || { show; fail "--no-cublas --cold exited $rc"; }
python3 - "$dir/cold/results.csv" <<'PY' || { show; fail "--no-cublas --cold row"; }
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
assert len(rows) == 1 and rows[0]["name"] == "f16_nt" and rows[0]["status"] == "ok", rows
r = rows[0]
assert float(r["tcj_us"]) > 0 and r["cublas_us"] == "" and r["ratio"] == "", r
assert float(r["cold_ms"]) > 0 and int(r["runs"]) == 25, r
PY
grep -q '^# peak_tflops_f16: 900$' "$dir/cold/results.csv" && grep -q '^# bandwidth_gbs: 4000$' "$dir/cold/results.csv" ||
  fail "the given peaks are not in results.csv"

# tcj_gemm_ex rows: every baseline kind, checked (rel_err) and timed.
run --suite "$data/prof_fused.yaml" --out "$dir/fused"
show
[ $rc -eq 0 ] || fail "the fused suite exited $rc"
grep -q '^geomean tcj/cuBLAS bf16 fused: [0-9.]* over 3 problems$' "$dir/fused/results.txt" || fail "no bf16 fused geomean line"
grep -q '^geomean tcj/cuBLAS f16 fused: [0-9.]* over 1 problem$' "$dir/fused/results.txt" || fail "no f16 fused geomean line"
grep -q 'activation kernels of the cuBLASLt+bias baselines compiled with NVRTC' "$dir/err" || fail "no activation kernels"
python3 - "$dir/fused/results.csv" "$dir/fused/results.json" <<'PY' || fail "fused results.csv or .json rows"
import csv, json, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
want = [("gelu", "bf16", "bias_gelu", "1", "0", "cublasLt+gelu_bias"),
        ("silu_d32", "f32", "bias_silu", "1", "0", "cublasLt+bias+silu_kernel"),
        ("bcast", "bf16", "none", "6", "1", "cublasStridedBatched"),
        ("relu_batch", "f16", "bias_relu", "5", "0", "cublasLt+relu_bias")]
assert [(r["name"], r["d"], r["epilogue"], r["batch"], r["broadcast_b"], r["baseline"]) for r in rows] == want, rows
for r in rows:
    assert r["status"] == "ok", r
    assert float(r["tcj_us"]) > 0 and float(r["cublas_us"]) > 0 and float(r["rel_err"]) >= 0, r
    assert r["cfg"].startswith("recipe="), r
res = json.load(open(sys.argv[2]))
assert res["geomean"]["bf16 fused"]["count"] == 3 and res["geomean"]["f16 fused"]["count"] == 1, res["geomean"]
PY
# fp8: a row per accumulation mode against cuBLASLt's (which the fp64 reference checks too). tcj
# itself may have no fp8 kernel on this GPU (status unsupported; cuBLASLt is still timed).
printf 'dtype: e4m3\nproblems:\n  - {name: f8_nt, m: 256, n: 512, k: 1024, op_b: T}\n'\
'  - {name: f8_nn, m: 256, n: 512, k: 1024}\n  - {name: e5_nt, dtype: e5m2, m: 256, n: 512, k: 1024, op_b: T}\n'\
'  - {name: s8_nt, dtype: s8, m: 256, n: 512, k: 1024, op_b: T}\n' >"$dir/fp8.yaml"
run --suite "$dir/fp8.yaml" --out "$dir/fp8"
show
[ $rc -eq 0 ] || fail "the fp8 suite exited $rc"
grep -qE '^tcj-prof: peak s8: cublasGemmEx s8>s32 NT 8192\^3 [0-9.]+ TFLOP/s$' "$dir/err" || fail "no NT s8 peak"
grep -qE '^tcj-prof: peak e4m3: cublasLt\+fast_accum e4m3>bf16 NT 8192\^3 [0-9.]+ TFLOP/s$' "$dir/err" ||
  fail "no fp8 peak with FAST_ACCUM"
grep -qE '^tcj-prof: peak e5m2: cublasLt e4m3>bf16 NT 8192\^3 [0-9.]+ TFLOP/s$' "$dir/err" || fail "no e5m2 peak"
python3 - "$dir/fp8/results.csv" "$dir/fp8/results.json" <<'PY' || fail "fp8 results.csv or .json rows"
import csv, json, sys
rows = {r["name"]: r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))}
assert list(rows) == ["f8_nt", "f8_nt+fastacc", "f8_nn", "f8_nn+fastacc", "e5_nt", "e5_nt+fastacc", "s8_nt"], rows
for name, base in (("f8_nt", "cublasLt"), ("f8_nt+fastacc", "cublasLt+fast_accum")):
    r = rows[name]
    assert r["baseline"] == base and float(r["cublas_us"]) > 0, r
    assert r["status"] in ("ok", "unsupported"), r
    if r["status"] == "ok":
        assert float(r["tcj_us"]) > 0 and 0 <= float(r["rel_err"]) <= 1e-2, r
for name in ("f8_nn", "f8_nn+fastacc", "e5_nt", "e5_nt+fastacc"):
    r = rows[name]
    assert r["baseline"] == "-" and r["cublas_us"] == "", r
    assert r["status"] in ("no-baseline", "unsupported"), r
    if r["status"] == "no-baseline":
        assert float(r["tcj_us"]) > 0 and "cuBLASLt" in r["note"], r
r = rows["s8_nt"]
assert r["status"] == "ok" and 0 < float(r["pct_floor_cublas"]) <= 150, r
res = json.load(open(sys.argv[2]))
assert "e4m3" in res["geomean"] and "s8" in res["geomean"], res["geomean"]
assert res["device"]["peak_tflops"].get("e4m3", 0) > 0 and res["device"]["peak_tflops"].get("e5m2", 0) > 0, res["device"]
PY
# f32 and f64: cublasSgemm (fp32 products: no tf32) and cublasDgemm baselines, both sides held
# to the float64 reference, the accuracy figures side by side (err tcj, err cuBLAS): fp32-sized
# for f32 on both sides, tf32-sized for tf32 (the figures tell the two apart), fp64-sized for
# f64; present for bf16 too, absent ("-") for an epilogue row.
printf 'problems:\n  - {name: f32_odd, dtype: f32, m: 300, n: 500, k: 4000}\n'\
'  - {name: f32_tn, dtype: f32, m: 256, n: 384, k: 2048, op_a: T}\n  - {name: tf32_sq, dtype: tf32, m: 256, n: 256, k: 4096}\n'\
'  - {name: f64_sq, dtype: f64, m: 256, n: 256, k: 1024}\n  - {name: f64_odd, dtype: f64, m: 255, n: 257, k: 999, op_b: T}\n'\
'  - {name: bf16_sq, dtype: bf16, m: 256, n: 256, k: 1024}\n'\
'  - {name: f32_relu, dtype: f32, m: 256, n: 256, k: 1024, epilogue: bias_relu}\n' >"$dir/wide.yaml"
run --suite "$dir/wide.yaml" --out "$dir/wide"
show
[ $rc -eq 0 ] || fail "the f32/f64 suite exited $rc"
grep -qE '^name .* err tcj +err cuBLAS ' "$dir/wide/results.txt" || fail "no accuracy columns in the table"
grep -qE '^tcj-prof: peak f32: cublasSgemm f32>f32 NN 8192\^3 [0-9.]+ TFLOP/s$' "$dir/err" || fail "no cublasSgemm peak"
grep -qE '^tcj-prof: peak f64: cublasDgemm f64>f64 NN 8192\^3 [0-9.]+ TFLOP/s$' "$dir/err" || fail "no cublasDgemm peak"
python3 - "$dir/wide/results.csv" "$dir/wide/results.json" <<'PY' || fail "f32/f64 results.csv or .json rows"
import csv, json, sys
rows = {r["name"]: r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))}
assert list(rows) == ["f32_odd", "f32_tn", "tf32_sq", "f64_sq", "f64_odd", "bf16_sq", "f32_relu"], rows
for name in ("f32_odd", "f32_tn"):
    r = rows[name]
    assert r["status"] == "ok" and r["baseline"] == "cublasSgemm" and float(r["tcj_us"]) > 0, r
    k = int(r["k"])
    # fp32-sized on both sides (about 1e-7 here; tf32 would be about 1e-5), within the check's bound
    assert 0 <= float(r["err_tcj"]) < 2e-6 and 0 <= float(r["err_cublas"]) < 2e-6, r
    assert float(r["err_tcj"]) <= (k + 2) * 2**-23 + 2**-20, r
    assert "x3=1" in r["cfg"], r
r = rows["tf32_sq"]
assert r["status"] == "ok" and r["baseline"] == "cublasGemmEx", r
assert float(r["err_tcj"]) > 2e-6 and float(r["err_cublas"]) > 2e-6, r  # tf32 products
for name in ("f64_sq", "f64_odd"):
    r = rows[name]
    assert r["baseline"] == "cublasDgemm" and float(r["cublas_us"]) > 0, r
    assert r["status"] in ("ok", "unsupported"), r
    if r["status"] == "ok":
        assert 0 <= float(r["err_tcj"]) < 1e-14 and 0 <= float(r["err_cublas"]) < 1e-14, r
    else:
        assert "not supported" in r["note"] and r["err_tcj"] == "" and r["tcj_us"] == "", r
r = rows["bf16_sq"]
assert r["status"] == "ok" and 0 < float(r["err_tcj"]) < 1e-2 and 0 < float(r["err_cublas"]) < 1e-2, r
r = rows["f32_relu"]
assert r["status"] == "ok" and r["err_tcj"] == "" and r["err_cublas"] == "", r
res = json.load(open(sys.argv[2]))
j = {r["name"]: r for r in res["rows"]}
assert j["f32_odd"]["err_tcj"] == float(rows["f32_odd"]["err_tcj"]), j["f32_odd"]
assert j["f32_relu"]["err_tcj"] is None and j["f32_relu"]["err_cublas"] is None, j["f32_relu"]
assert res["device"]["peak_tflops"].get("f32", 0) > 0 and res["device"]["peak_tflops"].get("f64", 0) > 0, res["device"]
PY
echo "tcj-prof: two problems profiled against cuBLAS; tcj alone with --cold; tcj_gemm_ex rows against their baselines;"\
  "fp8 rows against cuBLASLt in both accumulation modes; f32 and f64 against cublasSgemm and cublasDgemm with accuracy"
