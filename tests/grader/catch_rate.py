#!/usr/bin/env python3
"""The grader's catch rate: every submission of the catalogue (tests/grader/catalogue/) graded
as `make grade` grades it, on the tests of the variant it touches. A wrong one is caught when it
loses one of them (and its feedback names the bug's line where a tool can see it); a right one
is accepted when it loses none. Prints per lab "caught N/N wrong, accepted M/M right", and fails
below 100 %.

A wrong entry is graded without the race checker's run unless it says the race checker is what
catches it (race=True): the cost of the run where it can matter only. With --backend cuda the
tests run on the GPU and, as the grader does there, on the CPU backend's strict and race-checked
builds. Each lab's entries are graded as one class (`grade.py --class --plan`): what they share
is built once, and each entry's tests and race checker are the plan's. Two labs are graded at
once, the cores shared between them, the largest first: a lab's shared build and its last
entries leave cores idle that the other lab's entries use."""

import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import catalogue  # noqa: E402


def lab_folder(lab):
    found = [d for d in os.listdir(os.path.join(ROOT, "solutions")) if d.startswith("lab" + lab)]
    return found[0]


def write_entry(entry, where):
    """The entry as a submission in where/: labs/labNN-name/ with the lab's exercise files, the
    solution's but for the entry's FILE, which has its edits. Returns the folder."""
    folder = os.path.join(where, "%s_%s" % (entry.kind, entry.name))
    solution, texts = os.path.join(ROOT, "solutions", lab_folder(entry.lab)), {}
    for name in sorted(f for f in os.listdir(solution) if f.endswith(".cu")):
        with open(os.path.join(solution, name), encoding="utf-8") as f:
            texts[name] = f.read()
    texts[entry.file] = catalogue.apply(entry, texts[entry.file])
    os.makedirs(os.path.join(folder, "labs", lab_folder(entry.lab)))
    for name, text in texts.items():
        with open(os.path.join(folder, "labs", lab_folder(entry.lab), name), "w",
                  encoding="utf-8") as f:
            f.write(text)
    return folder


def line_of(text, mark):
    return text[:text.index(mark) + len(mark)].count("\n") + 1


def judge(entry, results, text, args):
    """None when the grade is what the entry wants, else why not. The bug's line is asked of
    the CPU backend's feedback only: on a GPU a test the GPU fails is not run again under the
    race checker, whose report names the line."""
    tests = [t for t in results.get("tests", []) if t["max_score"] > 0]
    if not tests:
        return "no test graded (%s match none of lab%s's tests?):\n%s" % (
            entry.tests, entry.lab, results.get("output", ""))
    lost = [t for t in tests if t["score"] < t["max_score"]]
    if entry.kind == "right":
        if lost:
            return "lost %s:\n%s" % (", ".join(t["name"] for t in lost), lost[0]["output"])
        return None
    if not lost:
        return "full marks in %s" % ", ".join(t["name"] for t in tests)
    if entry.line and args.backend == "cpu":
        where = "%s:%d" % (entry.file, line_of(text, entry.line))
        if not [t for t in lost if where in t["output"]]:
            return "no feedback names %s:\n%s" % (where, lost[0]["output"])
    return None


def grade_lab(lab, todo, args, scratch, report, jobs):
    """Grades one lab's entries as one class (`grade.py --class --plan`) of jobs at a time:
    what they share is built once, each entry rebuilds its own file alone; its tests and race
    checker as the plan says. Calls report(entry, why, secs) for each, in name order."""
    start = time.monotonic()
    where, out = os.path.join(scratch, "lab" + lab), os.path.join(scratch, "lab%s-out" % lab)
    plan, ready = {}, []
    for entry in todo:
        try:
            folder = write_entry(entry, where)
        except ValueError as e:
            report(entry, str(e), 0)
            continue
        name = os.path.basename(folder)
        plan[name] = {"tests": catalogue.patterns(entry.tests),
                      "racecheck": entry.kind == "right" or entry.race}
        ready.append((name, entry))
    if not ready:
        return
    with open(os.path.join(scratch, "plan%s.json" % lab), "w", encoding="utf-8") as f:
        json.dump(plan, f)
    cmd = [sys.executable, os.path.join(ROOT, "common", "grade", "grade.py"), "--class", where,
           "--plan", f.name, "--lab", lab, "--backend", args.backend, "--out", out,
           "--class-jobs", str(jobs), "--test-timeout", str(args.test_timeout),
           "--lab-timeout", str(args.lab_timeout)]
    if args.backend == "cpu":  # the CPU backend reports a deadlock: no hang to cut short
        cmd.append("--no-solution-times")
    if not any(p["racecheck"] for p in plan.values()):
        cmd.append("--no-racecheck")  # no entry needs it: its runtime's builds not made
    for v in args.make_var:
        cmd += ["--make-var", v]
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    p = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True)
    tail = collections.deque(maxlen=40)
    pending = dict(ready)
    for line in p.stdout:
        tail.append(line)
        name = line[4:].strip() if line.startswith("--- ") else None
        if name in pending:  # its report follows: its results.json is written
            done_one(name, pending.pop(name), out, args, report, start)
    p.wait()
    for name, entry in sorted(pending.items()):
        done_one(name, entry, out, args, report, start, "".join(tail))


def done_one(name, entry, out, args, report, start, said=""):
    """Judges a graded entry from its results.json."""
    secs = time.monotonic() - start
    try:
        with open(os.path.join(out, name, "results.json"), encoding="utf-8") as f:
            results = json.load(f)
    except (OSError, ValueError):
        report(entry, "the grader wrote no results:\n" + said[-2000:], secs)
        return
    path = os.path.join(os.path.dirname(out), "lab" + entry.lab, name, "labs",
                        lab_folder(entry.lab), entry.file)
    with open(path, encoding="utf-8") as f:
        report(entry, judge(entry, results, f.read(), args), secs,
               results.get("execution_time"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default="cpu", choices=("cpu", "cuda"))
    ap.add_argument("--lab", action="append", help="NN; repeatable (default: every lab)")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="only these entries")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--make-var", action="append", default=[], metavar="VAR=VALUE")
    ap.add_argument("--test-timeout", type=int, default=60, help="grade.py's (default: 60 s: a "
                    "wrong one that hangs must not cost minutes, and on a GPU the race checker's "
                    "run of lab08's hidden tests took past 30 s beside 13 other gradings)")
    ap.add_argument("--lab-timeout", type=int, default=300, help="grade.py's (default: 300 s)")
    ap.add_argument("--write", metavar="DIR", help="write the entries into DIR, a folder each "
                    "(to grade them with make grade CLASS=DIR on any machine), and stop")
    args = ap.parse_args()
    if args.backend == "cuda" and not [v for v in args.make_var if v.startswith("ARCH=")]:
        args.make_var.append("ARCH=native")  # one architecture, not the fat binary
    # No entry's own build through nvcc (lab.mk's check of what g++ takes and nvcc refuses, a
    # second of each build): every entry is the solution, which make test builds with nvcc,
    # with a few lines changed; an entry must be caught by the tests, not by that build.
    args.make_var.append("NVCC_CHECKS=")
    labs = [l[-2:] for l in args.lab] if args.lab else None
    todo = [e for e in catalogue.entries(labs) if not args.only or e.name in args.only]
    if not todo:
        print("catch-rate: no entry in the catalogue matches")
        return 2
    if args.write:
        for e in todo:
            write_entry(e, args.write)
        print("catch-rate: %d submissions written into %s" % (len(todo), args.write))
        return 0
    start = time.monotonic()
    for extra in ([], ["RACECHECK=1"]):
        # the CPU backend's runtimes, which every grading copies: built once here, not by
        # many gradings at once in the same folder
        if subprocess.run(["make", "--no-print-directory", "-s", "BACKEND=cpu", "cpu-runtime"] +
                          extra, cwd=ROOT, stdout=subprocess.DEVNULL).returncode:
            print("catch-rate: the CPU backend's runtime does not build (make BACKEND=cpu "
                  "cpu-runtime says why)")
            return 2
    scratch = tempfile.mkdtemp(prefix="catch-rate-")
    print("catch-rate: %d submissions of %d labs, %d at a time, backend %s" % (
        len(todo), len({e.lab for e in todo}), args.jobs, args.backend), flush=True)
    left = collections.Counter(e.lab for e in todo)
    done = collections.defaultdict(list)
    failures = []
    said = [time.monotonic()]  # when a line was last printed: one at least every 30 s
    lock = threading.Lock()  # two labs report at once

    def report(entry, why, secs, took=None):
        with lock:
            done[entry.lab].append((entry, why, took))
            if why:
                print("  lab%s %s %s: %s" % (entry.lab, entry.kind, entry.name,
                                             "\n    ".join(why.splitlines()[:12])), flush=True)
                failures.append("lab%s %s %s (%.0f s): %s" % (entry.lab, entry.kind, entry.name,
                                                               secs, why))
            left[entry.lab] -= 1
            if not left[entry.lab]:
                print(summary(entry.lab, done[entry.lab], secs, time.monotonic() - start),
                      flush=True)
                said[0] = time.monotonic()

    stop = threading.Event()

    def heartbeat():
        while not stop.wait(5):
            if time.monotonic() - said[0] > 30:
                print("catch-rate: %d of %d graded (%.0f s)" % (
                    sum(len(d) for d in done.values()), len(todo), time.monotonic() - start),
                    flush=True)
                said[0] = time.monotonic()

    threading.Thread(target=heartbeat, daemon=True).start()
    labs = sorted({e.lab for e in todo}, key=lambda l: -left[l])  # the largest first
    streams = min(2, len(labs), args.jobs)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=streams) as pool:
            for f in [pool.submit(grade_lab, lab, [e for e in todo if e.lab == lab], args,
                                  scratch, report, max(1, args.jobs // streams)) for lab in labs]:
                f.result()
    finally:
        stop.set()
        shutil.rmtree(scratch, ignore_errors=True)
    for f in failures:
        print("\n" + f)
    print("catch-rate: %s (%.0f s)" % ("all caught, all accepted" if not failures else
                                       "%d of %d judged wrongly" % (len(failures), len(todo)),
                                       time.monotonic() - start))
    return 1 if failures else 0


def summary(lab, results, secs, since_start):
    """The lab's line, with its seconds, its slowest entry (what to look at when the catch
    rate grows slow) and the seconds since the catch rate began."""
    def count(kind):
        mine = [why for e, why, _ in results if e.kind == kind]
        return len([w for w in mine if not w]), len(mine)
    took, name = max((t or 0, e.name) for e, _, t in results)
    return ("lab%s: caught %d/%d wrong, accepted %d/%d right (%.0f s; slowest %s, %d s; "
            "%.0f s in)" % ((lab,) + count("wrong") + count("right") +
                            (secs, name, took, since_start)))


if __name__ == "__main__":
    sys.exit(main())
