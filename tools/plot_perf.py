#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Plots tcj-prof's JSON results: tcj vs cuBLAS TFLOP/s per problem, and tcj's speed relative
to cuBLAS below. Rows that are not OK are drawn hatched and labelled with their status.

usage: plot_perf.py RESULTS.json OUT.png   (exit 0 ok, 1 failure, 2 bad usage)
"""
import json
import sys

TCJ_COLOR, BLAS_COLOR = "#1f77b4", "#9a9a9a"


def num(v):
    """A figure from the JSON (null when missing) as a float, 0 when missing."""
    return float(v) if isinstance(v, (int, float)) and v == v else 0.0


def plot(res, out, plt):
    dev = res.get("device", {})
    rows = res.get("rows", [])
    if not rows:
        raise ValueError("no rows to plot")
    x = list(range(len(rows)))
    width = 0.4
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(max(8.0, 0.45 * len(rows) + 2.5), 8.0), sharex=True,
        gridspec_kw={"height_ratios": [3, 1.3]})

    tallest = max([num(r.get(k)) for r in rows for k in ("tcj_tflops", "cublas_tflops")] + [1.0])
    for i, r in enumerate(rows):
        ok = r.get("status") == "ok"
        for dx, key, color, label in ((-width / 2, "tcj_tflops", TCJ_COLOR, "tcj"),
                                      (width / 2, "cublas_tflops", BLAS_COLOR, "cuBLAS")):
            style = {"color": color, "label": label if i == 0 else None} if ok else \
                {"fill": False, "hatch": "//", "edgecolor": color}
            top.bar(i + dx, num(r.get(key)), width, **style)
        if not ok:
            top.text(i, max(num(r.get("tcj_tflops")), num(r.get("cublas_tflops"))) + 0.02 * tallest,
                     r.get("status", "?"), rotation=90, ha="center", va="bottom", fontsize=8,
                     color="#c0392b")
    top.set_ylabel("TFLOP/s")
    top.set_ylim(0, tallest * 1.25)
    top.grid(axis="y", alpha=0.3)
    top.legend(loc="upper left")

    top_ratio = max([num(r.get("ratio")) for r in rows] + [1.0])
    for i, r in enumerate(rows):
        ratio = num(r.get("ratio"))
        if not ratio:
            continue
        # Small problems are invisible on the TFLOP/s scale: the ratio carries them.
        bottom.text(i, ratio + 0.02 * top_ratio, "%.2f" % ratio, ha="center", va="bottom",
                    fontsize=7)
        color = "#2ca02c" if ratio >= 1 else "#d62728"
        if r.get("status") == "ok":
            bottom.bar(i, ratio, 0.6, color=color)
        else:
            bottom.bar(i, ratio, 0.6, fill=False, hatch="//", edgecolor=color)
    bottom.axhline(1.0, color="black", linewidth=0.8)
    bottom.set_ylim(0, top_ratio * 1.25)
    bottom.set_ylabel("tcj / cuBLAS speed")
    bottom.grid(axis="y", alpha=0.3)
    means = ["%s %.3f over %d" % (t, num(g.get("ratio")), g.get("count", 0))
             for t, g in res.get("geomean", {}).items() if g.get("count")]
    if means:
        bottom.set_title("geomean " + ", ".join(means), fontsize=9, loc="left")

    bottom.set_xticks(x)
    bottom.set_xticklabels([r.get("name", "?") for r in rows], rotation=60, ha="right", fontsize=8)
    fig.suptitle("tcj vs cuBLAS on %s (%d SMs), %s" % (
        dev.get("name") or "?", dev.get("sm_count", 0), dev.get("date") or "?"))
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main(argv):
    if len(argv) != 3:
        print("usage: plot_perf.py RESULTS.json OUT.png", file=sys.stderr)
        return 2
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_perf.py: matplotlib is not installed (pip install matplotlib)", file=sys.stderr)
        return 1
    try:
        with open(argv[1], encoding="utf-8") as f:
            res = json.load(f)
        plot(res, argv[2], plt)
    except (OSError, ValueError) as e:
        print("plot_perf.py: %s: %s" % (argv[1], e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
