#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# make bench's report: RESULTS_DIR/bench.log (the guests' "bench-run",
# "bench-res" and "bench-result" lines, every column's runs interleaved)
# to table.txt (the 2013 cover letter's shape: one block per workload,
# one row per metric, one column per kernel, the first the baseline of
# the percentages), table.md, results.json (every run and the medians,
# minima and maxima), claims.md (a verdict per claim of the --claims
# table whose two columns ran: see judge()) and, when gnuplot is there,
# residency-WORKLOAD.png, effects-WORKLOAD.png and claim-NAME.png (the
# claim's metric and mechanism counters, every run, on and off).
#
# The table's intervals describe; they are not the verdicts' tests.
#
# Usage: bench-report.py [--undecided] [--claims FILE] RESULTS_DIR COLUMN...
# (--undecided: print only how many claims are neither held nor refuted)

import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchstat  # noqa: E402

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


# Keys computed from a run's own, for claims whose raw count would
# depend on how long the steady window lasted.
DERIVED = {
    "steady_mig_per_s": lambda r: (r["steady_migrated"] / (r["seconds"] - r["steady_s"])
                                   if r.get("steady_migrated", -1) >= 0 and 0 <= r["steady_s"] < r["seconds"]
                                   else -1),
}


def derive(r):
    for key, f in DERIVED.items():
        try:
            r[key] = f(r)
        except KeyError:
            pass


def parse(path):
    """{column: {workload: {"runs": [result dicts], "series": [[(t, pct)...]...]}}}"""
    out = {}
    cur = None
    for line in open(path, errors="replace"):
        words = line.split()
        if not words or words[0] not in ("bench-run", "bench-result", "bench-res"):
            continue
        kv = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        if words[0] == "bench-run":
            col = out.setdefault(kv["column"], {})
            cur = col.setdefault(kv["workload"], {"runs": [], "series": []})
            cur["series"].append([])
            cur["run"] = {"run": float(kv.get("run", 0)), "seed": float(kv.get("seed", 0))}
        elif cur is None:
            continue
        elif words[0] == "bench-res":
            cur["series"][-1].append((int(kv["t"]), float(kv["residency"])))
        else:
            r = dict(cur["run"])
            r.update({k: float(v) for k, v in kv.items() if k != "workload"})
            derive(r)
            cur["runs"].append(r)
    for col in out.values():
        for w in col.values():
            w["series"] = [s for s in w["series"] if s]
            w.pop("run", None)
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


# The verdicts. A claim (configs/claims.tsv) compares its "on" column
# with its "off" column on its workload, one metric, one test:
# converged_pct (a share of runs) by Fisher's exact test, any other
# metric by the exact Wilcoxon rank sum test, one-sided in the claimed
# direction, its effect the Hodges-Lehmann shift on - off with its 95%
# interval. The p-values are Holm-adjusted over the claims judged
# together. A claim
#   not measurable here  when the metric is missing, or when none of its
#                        mechanism counters differs on and off (two-sided
#                        rank sum, Bonferroni over the claim's counters,
#                        p < ALPHA): the option did not act, so a
#                        difference or none would say nothing of it;
#   holds                when it acted and its adjusted p < ALPHA;
#   is refuted           when it acted and the other direction's adjusted
#                        p < ALPHA, or (per-run metrics) the effect's
#                        interval excludes a change of MIN_EFFECT of the
#                        off median in the claimed direction;
# A run's -1 (not reached in that run, no such counter) is left out.
#   no difference measured  otherwise: the option acted, the runs could
#                        not tell.
# "equal:M" claims: equivalent (TOST: the 90% interval of the shift
# within +-M) or not shown equivalent.
ALPHA = 0.05
MIN_EFFECT = 0.10


def read_claims(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        if f[0] == "claim":
            continue
        if len(f) != 10:
            sys.exit("bench-report: %s: a claim has 10 tab-separated fields: %r" % (path, line))
        rows.append(dict(zip(["claim", "on", "off", "workload", "secs", "scan", "metric",
                              "better", "mechanism", "text"], f)))
    return rows


def values(runs, key):
    """The runs' values of key, without the runs that had none (-1: not
    reached in that run, or no such counter); None when no run had one."""
    v = [r[key] for r in runs if r.get(key, -1) >= 0]
    return v or None


def judge(c, data):
    on = data.get(c["on"], {}).get(c["workload"], {}).get("runs", [])
    off = data.get(c["off"], {}).get(c["workload"], {}).get("runs", [])
    if not on or not off:
        return None
    out = {"claim": c, "n_on": len(on), "n_off": len(off), "mech": [],
           "seeds": sorted({int(r.get("seed", 0)) for r in on + off})}
    for key in c["mechanism"].split(","):
        a, b = values(on, key), values(off, key)
        if a is None or b is None:
            out["mech"].append((key, a and statistics.median(a), b and statistics.median(b), None))
            continue
        p = min(1.0, 2 * min(benchstat.rank_sum_greater(a, b), benchstat.rank_sum_greater(b, a)))
        out["mech"].append((key, statistics.median(a), statistics.median(b), p))
    # Acted: a counter differs, Bonferroni over the claim's counters.
    ps = [m[3] for m in out["mech"] if m[3] is not None]
    out["acted"] = bool(ps) and min(ps) * len(ps) < ALPHA
    key = c["metric"]
    if key == "converged_pct":
        k_on = sum(1 for r in on if r.get("converge_s", -1) >= 0)
        k_off = sum(1 for r in off if r.get("converge_s", -1) >= 0)
        out.update(test="Fisher exact", on="%d/%d" % (k_on, len(on)), off="%d/%d" % (k_off, len(off)),
                   effect="%+.0f points" % (100.0 * (k_on / len(on) - k_off / len(off))))
        up, down = (benchstat.fisher_greater(k_on, len(on), k_off, len(off)),
                    benchstat.fisher_greater(k_off, len(off), k_on, len(on)))
        out["small"] = False
    else:
        a, b = values(on, key), values(off, key)
        if a is None or b is None:
            out.update(verdict="not measurable here: no %s in this kernel" % key, p=None, p_other=None)
            return out
        ma, mb = statistics.median(a), statistics.median(b)
        shift, lo, hi = benchstat.hodges_lehmann(a, b)
        out.update(on=fmt(ma), off=fmt(mb), test="Wilcoxon rank sum",
                   effect=interval(shift, lo, hi))
        if c["better"].startswith("equal:"):
            m = float(c["better"][6:])
            eq, shift, lo, hi = benchstat.tost(a, b, m)
            out.update(test="TOST, margin %g" % m, effect=interval(shift, lo, hi) + " (90%)",
                       verdict="holds: equivalent within %g" % m if eq else
                       "not shown equivalent within %g" % m, p=None, p_other=None)
            return out
        up, down = benchstat.rank_sum_greater(a, b), benchstat.rank_sum_greater(b, a)
        # Whether the interval rules out a change of MIN_EFFECT the claimed way.
        bound = MIN_EFFECT * abs(mb)
        out["small"] = (hi < bound) if c["better"] == "higher" else (lo > -bound)
    out["p"], out["p_other"] = (up, down) if c["better"] == "higher" else (down, up)
    return out


def interval(shift, lo, hi):
    if math.isinf(lo) or math.isinf(hi):
        return "%s [too few runs for an interval]" % fmt(shift)
    return "%s [%s, %s]" % (fmt(shift), fmt(lo), fmt(hi))


def verdicts(claims, data):
    """judge() every claim whose columns ran; Holm over those with a test."""
    judged = [j for j in (judge(c, data) for c in claims) if j]
    tested = [j for j in judged if j.get("p") is not None]
    for key in ("p", "p_other"):
        for j, q in zip(tested, benchstat.holm([j[key] for j in tested])):
            j[key + "_holm"] = q
    for j in tested:
        v = benchstat.verdict(j["p_holm"], j["p_other_holm"], ALPHA)
        if not j["acted"]:
            j["verdict"] = "not measurable here: %s the same on and off (the option did not act)%s" % (
                ", ".join(m[0] for m in j["mech"]),
                "; the metric moved all the same" if v != "no difference measured" else "")
        elif v == "holds":
            j["verdict"] = v
        elif v == "refuted":
            j["verdict"] = "refuted: the other way"
        elif j["small"]:
            j["verdict"] = "refuted: it acted, and no change of %d%% or more" % (100 * MIN_EFFECT)
        else:
            j["verdict"] = "no difference measured (it acted)"
    return judged


def claims_md(judged):
    out = ["### What each option buys: the claims' verdicts", "",
           "| option | claim | workload, metric (test) | on | off | effect on - off [95%] "
           "| p (Holm) | mechanism: on / off (p) | runs | verdict |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for j in judged:
        c = j["claim"]
        mech = "; ".join("%s %s / %s (%s)" % (k, fmt(a), fmt(b), "%.2g" % p) if p is not None
                         else "%s: none" % k for k, a, b, p in j["mech"])
        p = "%.2g (%.2g)" % (j["p"], j["p_holm"]) if j.get("p") is not None else "-"
        out.append("| %s | %s | %s, %s (%s) | %s | %s | %s | %s | %s | %d+%d | %s |" % (
            c["claim"], c["text"], c["workload"], c["metric"], j.get("test", "-"),
            j.get("on", "-"), j.get("off", "-"), j.get("effect", "-"), p, mech,
            j["n_on"], j["n_off"], j["verdict"]))
    out += ["", "on: %s; off: the claim's off column. Seeds: %s." % (
        ", ".join(sorted({j["claim"]["on"] for j in judged})),
        ", ".join(str(s) for s in sorted({s for j in judged for s in j["seeds"]})))]
    return out


def claim_plot(res, j, data):
    """claim-NAME.png: the claim's metric and each mechanism counter, every
    run as a point, on against off."""
    c = j["claim"]
    keys = [c["metric"] if c["metric"] != "converged_pct" else "converge_s"] + \
        [m[0] for m in j["mech"] if m[3] is not None]
    panels = []
    for key in keys:
        dat = os.path.join(res, "claim-%s-%s.dat" % (c["claim"].replace("=", "_"), key))
        with open(dat, "w") as f:
            for x, col in enumerate((c["on"], c["off"])):
                for i, r in enumerate(data[col][c["workload"]]["runs"]):
                    if key in r:
                        f.write("%g %g\n" % (x + 0.04 * (i % 7 - 3), r[key]))
        panels.append("set title '%s'\nplot '%s' using 1:2 with points pt 7 notitle\n" % (key, dat))
    script = ("set terminal png size %d,360 noenhanced\nset output '%s'\n"
              "set multiplot layout 1,%d title '%s: %s (on) against %s (off), every run'\n"
              "set xrange [-0.5:1.5]\nset xtics ('on' 0, 'off' 1)\n%sunset multiplot\n"
              % (300 * len(panels), os.path.join(res, "claim-%s.png" % c["claim"].replace("=", "_")),
                 len(panels), c["claim"], c["on"], c["off"], "".join(panels)))
    subprocess.run(["gnuplot"], input=script, text=True, check=True)



def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    if v == float("inf"):
        return "never"
    return "%.1f" % v if abs(v) < 100 and v != int(v) else "%d" % round(v)


def main():
    args = sys.argv[1:]
    claims, undecided = [], args[:1] == ["--undecided"]
    args = args[undecided:]
    if args[:1] == ["--claims"]:
        claims, args = read_claims(args[1]), args[2:]
    res, cols = args[0], args[1:]
    parsed = parse(os.path.join(res, "bench.log"))
    data = {c: parsed.get(c, {}) for c in cols}
    if undecided:
        # bench.sh's sequential mode: how many claims are still open.
        print(sum(1 for j in verdicts(claims, data)
                  if j["verdict"].startswith(("no difference", "not shown"))
                  or "(the option did not act)" in j["verdict"]))
        return
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
    judged = verdicts(claims, data)
    if judged:
        cm = claims_md(judged)
        open(os.path.join(res, "claims.md"), "w").write("\n".join(cm) + "\n")
        md.append("")
        md.extend(cm)
        txt.append("")
        txt.extend(cm)

    open(os.path.join(res, "table.txt"), "w").write("\n".join(txt) + "\n")
    open(os.path.join(res, "table.md"), "w").write("\n".join(md) + "\n")
    json.dump({"columns": cols, "summary": summary, "claims": judged,
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
    for j in judged:
        if j.get("test"):
            claim_plot(res, j, data)


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
