"""Performance points, on a GPU only: the lab's bench run by the bench's judge (the
worker's calls timed on the judge's clock, each row's answer checked, the copy measured by
the judge itself), each perf line of the points file against its variant's row.
"""
import csv
import io
import os
import time

import wall
from report import clip, fmt
from run import bench_judge_path, pair

TSV_LIMIT = 1 << 20           # a bench's TSV
CEILING_SLACK = 115.0         # %copy past which a bench time is not believed, and %fp32
                              # (for perf lines in %fp32: variants that do all their work)


def grade_perf(args, ctx, lab, points, worker, why, deadline):
    """Performance points: on a GPU, the lab's bench at a moderate size, run by the bench's
    judge (bench_labNN: the worker's calls timed on the judge's clock, each row's answer
    checked, the copy measured by the judge itself), each threshold against the variant's
    row; without a GPU, a 0-of-0 line that says so."""
    if not points["perf"] or not args.perf or (args.tests and "perf" not in args.tests):
        return
    rows, problem = {}, ""
    if args.backend != "cuda":
        problem = ("not graded here: performance needs a GPU (BACKEND=cuda); the CPU backend "
                   "checks correctness only, so this counts 0 of 0")
    elif not worker:
        problem = why
    else:
        judge = os.path.join(ctx.judges, bench_judge_path(args, lab.dir, lab.lab))
        rows, problem = run_bench(args, ctx, judge, worker,
                                  points["bench"] or ["--n", "16777216", "--reps", "10"],
                                  deadline, lab.lab)
    for p in points["perf"]:
        title = "%s >= %s %s" % (p["variant"], fmt(p["threshold"]), p["unit"])
        name = "perf " + title
        if args.backend != "cuda":
            lab.add(name, 0.0, "visible", {"status": "skipped", "why": title + ": " + problem,
                                           "output": "", "secs": 0.0}, suite="perf")
            continue
        # a row per input (lab05's best/uniform) is the variant's: its test is named best
        needed = [t for t in lab.tests if t["name"] == p["variant"].split("/")[0]]
        row = rows.get(p["variant"])
        if problem or row is None:
            status, why = "failed", "%s: %s" % (title, problem or "no bench row for it")
        elif needed and needed[0]["status"] != "passed":
            status = "failed"
            why = "%s: its correctness test fails, so speed scores nothing" % title
        elif perf_value(row, "%copy") > CEILING_SLACK:
            status = "failed"
            why = ("%s: measured %.0f %%copy, faster than the copy the judge timed beside it "
                   "can be: not a time the grader believes" % (title, perf_value(row, "%copy")))
        elif p["unit"] == "%fp32" and perf_value(row, "%fp32") > CEILING_SLACK:
            status = "failed"
            why = ("%s: measured %.0f %%fp32, faster than the FP32 ceiling allows: not a time "
                   "the grader believes" % (title, perf_value(row, "%fp32")))
        else:
            value = perf_value(row, p["unit"])
            status = "passed" if value >= p["threshold"] else "failed"
            why = "%s: measured %.1f %s on %s" % (title, value, p["unit"],
                                                  row.get("device", "?")[:80])
        lab.add(name, p["points"], p["visibility"],
                {"status": status, "why": why, "output": "", "secs": 0.0}, suite="perf")


def perf_value(row, unit):
    try:
        gbs = float(row["gbs"])
        if unit == "GB/s":
            return gbs
        if unit == "%peak":
            return float(row["pct_peak"])
        if unit == "%fp32":
            return float(row["pct_fp32"])
        if unit == "G/s":  # the bench's work a second (windows, flops), in G
            return float(row["work_per_s"]) / 1e9
        copy = float(row["copy_gbs"])
    except (KeyError, TypeError, ValueError):
        return 0.0
    return 100.0 * gbs / copy if copy > 0 else 0.0


def run_bench(args, ctx, judge, worker, bench_args, deadline, name):
    """The bench's judge beside the student's worker (pair), its TSV read back from the
    judge's folder with no link followed and at most TSV_LIMIT bytes. Returns (rows, a
    problem or "")."""
    uid = ctx.ids.borrow()
    try:
        bench = pair(args, ctx, [judge, "bench", "--tsv", "bench.tsv"] + bench_args, worker,
                   min(args.test_timeout * 3, max(deadline - time.monotonic(), 1)),
                   name + "-bench", uid,
                   lambda jdir: wall.read_bounded(os.path.join(jdir, "bench.tsv"), TSV_LIMIT,
                                                  tail=False)[0], alone=True)
    finally:
        ctx.ids.give_back(uid)
    if bench["timed_out"] or bench["jrc"] != 0 or bench["exceeded"] or not bench["found"]:
        why = ("timed out" if bench["timed_out"] else bench["exceeded"] or
               "failed (status %s)" % bench["jrc"])
        return {}, "the bench %s:\n%s" % (why, clip(bench["judged"] + "\n" + bench["printed"],
                                                     1500))
    return read_bench(bench["found"].decode("utf-8", errors="replace")), ""


def read_bench(text):
    """{variant: row} for the rows of series main (columns: common/bench.h)."""
    rows = {}
    for row in csv.DictReader(io.StringIO(text), delimiter="\t"):
        if row.get("series") == "main" and row.get("variant"):
            rows[row["variant"]] = row
    return rows
