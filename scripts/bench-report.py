#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# make bench's report: RESULTS_DIR/logs/COLUMN/output.log (the guest's
# "bench-result" and "bench-res" lines) to table.txt (the 2013 cover
# letter's shape: one block per workload, one row per metric, one column
# per kernel, the first the baseline of the percentages), table.md,
# results.json (every run and the medians, minima and maxima) and, when
# gnuplot is there, residency-WORKLOAD.png (median residency over time).
#
# Usage: bench-report.py RESULTS_DIR COLUMN...

import json
import os
import shutil
import statistics
import subprocess
import sys

# (key in bench-result, row label, higher is better?)
METRICS = [
    ("pte_updates", "NUMA PTE updates", None),
    ("hint_faults", "NUMA hint faults", None),
    ("hint_faults_local", "NUMA hint local faults", None),
    ("local_pct", "NUMA hint local percent", True),
    ("pages_migrated", "NUMA pages migrated", False),
    ("task_migrated", "NUMA task migrations", None),
    ("task_swapped", "NUMA task swaps", None),
    ("residency", "Residency % (end)", True),
    ("converge_s", "Converged after s", False),
    ("sys_pct", "System CPU %", False),
    ("sweeps_per_s", "Sweeps/s (overhead)", True),
]


def parse(path):
    """{workload: {"runs": [result dicts], "series": [[(t, pct)...]...]}}"""
    out = {}
    for line in open(path, errors="replace"):
        words = line.split()
        if not words or words[0] not in ("bench-result", "bench-res"):
            continue
        kv = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        w = out.setdefault(kv.get("workload", "?"), {"runs": [], "series": [[]]})
        if words[0] == "bench-res":
            w["series"][-1].append((int(kv["t"]), float(kv["residency"])))
        else:
            w["runs"].append({k: float(v) for k, v in kv.items()
                              if k not in ("workload",)})
            w["series"].append([])
    for w in out.values():
        w["series"] = [s for s in w["series"] if s]
    return out


def stats(runs, key):
    vals = [r[key] for r in runs if key in r]
    # -1: the kernel has no such counter; converge_s -1: never.
    if not vals:
        return None
    if key == "converge_s":
        never = sum(1 for v in vals if v < 0)
        real = sorted(v for v in vals if v >= 0)
        if never * 2 >= len(vals):
            return {"median": "never", "min": real[0] if real else "never",
                    "max": "never", "n": len(vals)}
        vals = real + [float("inf")] * never
    elif any(v < 0 for v in vals):
        return None
    med = statistics.median(vals)
    mx = max(vals)
    return {"median": med, "min": min(vals),
            "max": "never" if mx == float("inf") else mx, "n": len(vals)}


def overlap(a, b):
    """Whether two columns' [min, max] ranges meet: "yes", "no" or "-"."""
    if a is None or b is None:
        return "-"

    def num(v):
        return float("inf") if v == "never" else float(v)
    lo = max(num(a["min"]), num(b["min"]))
    hi = min(num(a["max"]), num(b["max"]))
    return "yes" if lo <= hi else "no"


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    if v == float("inf"):
        return "never"
    return "%.1f" % v if abs(v) < 100 and v != int(v) else "%d" % round(v)


def main():
    res, cols = sys.argv[1], sys.argv[2:]
    data = {c: parse(os.path.join(res, "logs", c, "output.log")) for c in cols}
    workloads = []
    for c in cols:
        for w in data[c]:
            if w not in workloads:
                workloads.append(w)

    summary = {}
    for w in workloads:
        summary[w] = {}
        for c in cols:
            runs = data[c].get(w, {}).get("runs", [])
            summary[w][c] = {k: stats(runs, k) for k, _, _ in METRICS}

    txt, md, rows = [], [], []
    for w in workloads:
        rows.append([w] + cols)
        md.append("### %s\n" % w)
        pair = len(cols) == 2
        md.append("| metric | " + " | ".join(cols) + (" | ranges overlap |" if pair else " |"))
        md.append("|---|" + "---|" * (len(cols) + pair))
        for key, label, _ in METRICS:
            cells, mcells = [], []
            base = summary[w][cols[0]][key]
            for c in cols:
                s = summary[w][c][key]
                if s is None:
                    cells.append("-")
                    mcells.append("-")
                    continue
                cell = fmt(s["median"])
                if (c != cols[0] and base and isinstance(base["median"], float)
                        and isinstance(s["median"], float) and base["median"]):
                    cell += " (%+.0f%%)" % (100.0 * (s["median"] - base["median"]) / base["median"])
                cells.append(cell)
                mcells.append("%s [%s, %s]" % (fmt(s["median"]), fmt(s["min"]), fmt(s["max"])))
            rows.append([label] + cells)
            if pair:
                mcells.append(overlap(summary[w][cols[0]][key], summary[w][cols[1]][key]))
            md.append("| %s | %s |" % (label, " | ".join(mcells)))
        rows.append(None)
        md.append("")
    width = max(len(r[i]) for r in rows if r for i in range(1, len(r))) + 2
    for r in rows:
        txt.append("" if r is None else
                   "%-26s" % r[0] + "".join(("%" + str(width) + "s") % x for x in r[1:]))
    runs = max((len(data[c].get(w, {}).get("runs", [])) for c in cols for w in workloads),
               default=0)
    txt.append("medians of %d runs; the percentages are against %s; "
               "'-': no such counter in that kernel" % (runs, cols[0]))
    md.append("Median [min, max] of %d runs." % runs)

    open(os.path.join(res, "table.txt"), "w").write("\n".join(txt) + "\n")
    open(os.path.join(res, "table.md"), "w").write("\n".join(md) + "\n")
    json.dump({"columns": cols, "summary": summary,
               "runs": {c: {w: d["runs"] for w, d in data[c].items()} for c in cols}},
              open(os.path.join(res, "results.json"), "w"), indent=1, default=str)
    print("\n".join(txt))

    if not shutil.which("gnuplot"):
        print("bench: gnuplot not found: no plots (install gnuplot-nox)", file=sys.stderr)
        return
    for w in workloads:
        plots = []
        for c in cols:
            series = data[c].get(w, {}).get("series", [])
            if not series:
                continue
            dat = os.path.join(res, "residency-%s-%s.dat" % (w, c.replace("+", "_")))
            by_t = {}
            for s in series:
                for t, pct in s:
                    if pct >= 0:
                        by_t.setdefault(t, []).append(pct)
            with open(dat, "w") as f:
                for t in sorted(by_t):
                    f.write("%d %.1f\n" % (t, statistics.median(by_t[t])))
            plots.append("'%s' using 1:2 with linespoints title '%s'" % (dat, c))
        if not plots:
            continue
        script = ("set terminal png size 800,480\nset output '%s'\n"
                  "set title 'residency over time: %s (median of runs)'\n"
                  "set xlabel 'guest seconds'\nset ylabel '%% of pages on the task''s node'\n"
                  "set yrange [0:100]\nset key bottom right\nplot %s\n"
                  % (os.path.join(res, "residency-%s.png" % w), w, ", ".join(plots)))
        subprocess.run(["gnuplot"], input=script, text=True, check=True)


if __name__ == "__main__":
    main()
