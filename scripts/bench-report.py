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

import fnmatch
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys

BOOTSTRAP = 10000

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
    ("converged_pct", "Runs converged %", True),
    ("sys_pct", "System CPU %", False),
    ("sys_us_per_fault", "System CPU us/hint fault", False),
    ("sweeps_per_s", "Sweeps/s (overhead)", True),
    ("perf_converge_s", "perf: converged after s", False),
    ("perf_converged_pct", "perf: runs converged %", True),
    ("perf_gbs", "perf: GB/s (overhead)", True),
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


def binom_cdf(j, n):
    """P(X <= j) for X ~ Binomial(n, 1/2)."""
    return sum(math.comb(n, i) for i in range(j + 1)) / 2.0 ** n


def median_ci(vals):
    """A 95% interval for the median of vals (sorted), and how it was had.

    n >= 6: the distribution-free one from order statistics, [x(j+1),
    x(n-j)] for the largest j with 2 P(X <= j) <= 0.05, X ~ Bin(n, 1/2):
    it covers the median at least 95% of the time whatever the
    distribution. Fewer runs cannot give such an interval (for n = 5 even
    [min, max] covers only 94%): a percentile bootstrap then, seeded, so
    that a report is reproducible from its runs.
    """
    n = len(vals)
    if n >= 6:
        j = 0
        while 2 * binom_cdf(j + 1, n) <= 0.05:
            j += 1
        return vals[j], vals[n - 1 - j], "order statistics"
    if n == 1:
        return vals[0], vals[0], "one run"
    rng = random.Random(2013)
    meds = sorted(statistics.median(rng.choices(vals, k=n)) for _ in range(BOOTSTRAP))
    return meds[int(0.025 * BOOTSTRAP)], meds[int(0.975 * BOOTSTRAP) - 1], "bootstrap"


# Shares of runs: of the runs with a convergence time, the percentage
# that converged. Where the median time is "never" in half the runs, the
# share is what tells two kernels apart.
SHARES = {"converged_pct": "converge_s", "perf_converged_pct": "perf_converge_s"}


def wilson(k, n, z=1.959964):
    """The 95% Wilson score interval of a proportion k/n, in percent."""
    p = k / n
    mid = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    den = 1 + z * z / n
    return 100.0 * max(0.0, (mid - half) / den), 100.0 * min(1.0, (mid + half) / den)


def share(runs, key):
    vals = [r[key] for r in runs if key in r]
    if not vals:
        return None
    k, n = sum(1 for v in vals if v >= 0), len(vals)
    lo, hi = wilson(k, n)
    return {"median": 100.0 * k / n, "lo": lo, "hi": hi, "ci": "Wilson",
            "min": 100.0 * k / n, "max": 100.0 * k / n, "n": n}


def stats(runs, key):
    if key in SHARES:
        return share(runs, SHARES[key])
    vals = [r[key] for r in runs if key in r]
    # -1: the kernel has no such counter; converge_s -1: never.
    if not vals:
        return None
    if key in ("converge_s", "perf_converge_s"):
        vals = [float("inf") if v < 0 else v for v in vals]
    elif any(v < 0 for v in vals):
        return None
    vals.sort()
    lo, hi, how = median_ci(vals)
    return {"median": statistics.median(vals), "lo": lo, "hi": hi, "ci": how,
            "min": vals[0], "max": vals[-1], "n": len(vals)}


def compare(base, other):
    """other against base: "higher", "lower" when the 95% intervals of the
    medians do not overlap, "same" when they do (no difference measured),
    None when either has no value or comes from one run (no interval)."""
    if base is None or other is None or min(base["n"], other["n"]) < 2:
        return None
    if other["lo"] > base["hi"]:
        return "higher"
    if other["hi"] < base["lo"]:
        return "lower"
    return "same"


def overlap(a, b):
    """Whether two columns' 95% intervals meet: "yes", "no" or "-"."""
    c = compare(a, b)
    return "-" if c is None else "yes" if c == "same" else "no"


def effect(base, other):
    """The cell of a column against the baseline: the change of the median
    in percent when the intervals part, "~" (no difference measured) when
    they overlap."""
    c = compare(base, other)
    if c is None:
        return ""
    if c == "same":
        return " (~)"
    b, o = base["median"], other["median"]
    if math.isinf(b) or math.isinf(o) or not b:
        return " (%s)" % c
    return " (%+.0f%%)" % (100.0 * (o - b) / b)


# What each option is said to buy (the seeds' claims), the workload that
# tests it, the metric that shows it, and which way the option should move
# it. A column COLUMN+NO_NUMA_X next to COLUMN fills the option's row.
CLAIMS = [
    ("NO_NUMA_CPUPID", "shared data does not drag every thread: fewer pages migrated",
     "pingpong", "pages_migrated", "lower"),
    ("NO_NUMA_GROUPS", "tasks sharing memory end up together",
     "trade", "residency", "higher"),
    ("NO_NUMA_SWAP", "tasks reach their preferred node when it is busy",
     "trade", "residency", "higher"),
    ("NO_NUMA_FBQ", "the balancer stops undoing placement: higher locality",
     "multi", "local_pct", "higher"),
    ("defer=0", "fewer shared-page migrations", "pingpong", "pages_migrated", "lower"),
    ("NO_NUMA_GROUPS", "a process's threads gather on one node: more perf runs converge",
     "perf-*", "perf_converged_pct", "higher"),
    ("NO_NUMA_SWAP", "processes reach their busy preferred nodes: more perf runs converge",
     "perf-*", "perf_converged_pct", "higher"),
]


def claims_table(cols, summary):
    """Markdown rows: for each claim whose on and off columns both ran on
    its workload, the option's effect (on against off) and whether the
    claim holds here."""
    out = []
    for mod, claim, pattern, key, want in CLAIMS:
        for w, off in [(w, c) for w in summary if fnmatch.fnmatchcase(w, pattern) for c in cols]:
            if not off.endswith("+" + mod):
                continue
            on = off[:-len(mod) - 1]
            if on not in cols:
                continue
            a, b = summary[w][on][key], summary[w][off][key]
            c = compare(b, a)
            if c is None and a and b:
                c = "one run"
            elif c is None:
                continue
            verdict = ("holds" if c == want else
                       "no difference measured" if c == "same" else
                       "one run: no interval" if c == "one run" else
                       "does not hold: the other way")
            out.append("| %s | %s | %s, %s | %s [%s, %s] | %s [%s, %s] | %s |" % (
                mod.replace("NO_", "").replace("defer=0", "NUMA_MIGRATE_DEFER"),
                claim, w, key, fmt(a["median"]), fmt(a["lo"]), fmt(a["hi"]),
                fmt(b["median"]), fmt(b["lo"]), fmt(b["hi"]), verdict))
    if out:
        out = ["### What each option buys: on against off in one binary", "",
               "| option | claim | workload, metric | on | off | here |",
               "|---|---|---|---|---|---|"] + out
    return out


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
        md.append("| metric | " + " | ".join(cols) + (" | intervals overlap |" if pair else " |"))
        md.append("|---|" + "---|" * (len(cols) + pair))
        for key, label, _ in METRICS:
            if all(summary[w][c][key] is None for c in cols):
                continue
            cells, mcells = [], []
            base = summary[w][cols[0]][key]
            for c in cols:
                s = summary[w][c][key]
                if s is None:
                    cells.append("-")
                    mcells.append("-")
                    continue
                cell = fmt(s["median"])
                if c != cols[0]:
                    cell += effect(base, s)
                cells.append(cell)
                mcells.append("%s [%s, %s]%s" % (fmt(s["median"]), fmt(s["lo"]), fmt(s["hi"]),
                                                 effect(base, s) if c != cols[0] else ""))
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
    how = sorted({st["ci"] for w in workloads for c in cols
                  for st in summary[w][c].values() if st})
    txt.append("medians of %d runs (of 'runs converged %%': the share); (+N%%): change of the median against %s, "
               "where the 95%% intervals (%s) do not overlap; (~): they do, no "
               "difference measured; no mark: one run, no interval; '-': no such "
               "counter in that kernel"
               % (runs, cols[0], ", ".join(how)))
    md.append("Median [95%% interval of the median: %s] of %d runs (of 'runs converged %%': "
              "the share, its Wilson score interval); (+N%%) against "
              "%s where the intervals do not overlap, (~) where they do: no "
              "difference measured." % (", ".join(how), runs, cols[0]))
    claims = claims_table(cols, summary)
    if claims:
        md.append("")
        md.extend(claims)
        txt.append("")
        txt.extend(claims)

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
    for w in workloads:
        effects_plot(res, w, cols, summary[w])


# The metrics of the effects plot: one panel each, a bar per column.
EFFECT_METRICS = [("local_pct", "NUMA hint local %"), ("residency", "residency % (end)"),
                  ("pages_migrated", "pages migrated"), ("sys_us_per_fault", "system CPU us per hint fault"),
                  ("perf_converged_pct", "perf: runs converged % (Wilson interval)")]


def effects_plot(res, w, cols, summ):
    """effects-WORKLOAD.png: per metric, each column's median as a bar and
    its 95% interval as the whisker."""
    panels = []
    for key, label in EFFECT_METRICS:
        rows = [(i, c, summ[c][key]) for i, c in enumerate(cols)
                if summ[c][key] and not math.isinf(summ[c][key]["hi"])]
        if not rows:
            continue
        dat = os.path.join(res, "effects-%s-%s.dat" % (w, key))
        with open(dat, "w") as f:
            for i, c, st in rows:
                f.write('%d "%s" %g %g %g\n' % (i, c, st["median"], st["lo"], st["hi"]))
        panels.append("set title '%s'\nset yrange [0:*]\n"
                      "plot '%s' using 1:3:xtic(2) with boxes notitle, "
                      "'' using 1:3:4:5 with yerrorbars lc black pt 0 notitle\n"
                      % (label, dat))
    if not panels:
        return
    script = ("set terminal png size 1000,%d noenhanced\nset output '%s'\n"
              "set multiplot layout %d,1 title '%s: median and 95%% interval per column'\n"
              "set style fill solid 0.4\nset boxwidth 0.6\nset xtics rotate by -20 font ',8'\n"
              "set xrange [-0.5:%g]\n%sunset multiplot\n"
              % (260 * len(panels), os.path.join(res, "effects-%s.png" % w), len(panels),
                 w, len(cols) - 0.5, "".join(panels)))
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


if __name__ == "__main__":
    main()
