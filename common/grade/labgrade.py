"""Grading one lab of one submission: its workers built, its suites (the visible tests and
the hidden ones) run on every build that judges them, and one verdict per test.

The builds (Runs) of a grading: on the CPU backend, the plain build (AddressSanitizer and
UBSan, the strict mode) and the race checker's; on a GPU, the GPU's build first, then those
two, so that a GPU grade catches what only the CPU backend sees (a race that gives the right
answer, a barrier in a branch, a mask naming absent lanes, unzeroed shared memory). A test
passes only where every build that has it passes it; the feedback names the build that
failed it and why, with the race checker's lines where it found the cause.
"""
import collections
import fnmatch
import os
import shutil
import time

import wall

import perf
from groups import run_suite
from points import points_for, read_points
from report import Lab
from run import (Worker, backends, build_dir, compiler_message, judge_path, make, race_lines,
                 racechecked)
from sources import exercise_names, test_sources
from prepare import GraderFault

Run = collections.namedtuple("Run", "kind backend race label")
PLACES = {"cuda": "on the GPU", "cpu": "on the CPU backend (strict mode, ASan and UBSan)",
          "race": "under the race checker (the CPU backend's RACECHECK=1)"}


def runs_of(args):
    """The builds that judge each test, in the order of their verdicts' weight."""
    runs = [Run(b, b, False, PLACES[b]) for b in backends(args)]
    if racechecked(args):
        runs.append(Run("race", "cpu", True, PLACES["race"]))
    return runs


def worker_targets(args, lab, labdir):
    """{run kind: the worker's make target} for each run of a grading."""
    return {r.kind: os.path.join(build_dir(args, labdir, r.race, backend=r.backend),
                                 "worker_" + lab) for r in runs_of(args)}


def build_workers(args, ctx, lab, submission_note):
    """The student's code for the judges to call, one worker per run, built as the
    submission's build uid. Returns ({run kind: Worker}, why there is none): a build that
    fails costs the tests it judges; the first build's failure costs the lab."""
    if submission_note and submission_note.startswith("not submitted"):
        return {}, submission_note
    workers = {}
    for i, (run, target) in enumerate(zip(runs_of(args), worker_targets(args, lab.lab,
                                                                        lab.dir).values())):
        ok, log = make(args, ctx.tree, [target], os.path.join(ctx.work, "build-%s-%s.txt" % (
            lab.lab, run.kind)), race=run.race, ids=ctx.ids, uid=ctx.ids.build,
            backend=run.backend)
        if ok:
            workers[run.kind] = Worker(os.path.join(ctx.tree, target), run.backend, run.race)
            continue
        skeleton_builds(args, ctx, lab, run, target)
        if i == 0:
            why = "did not compile (or link), so it scores 0:\n" + compiler_message(log)
            lab.notes.append(why)
            return {}, why
        else:
            lab.notes.append("it did not build %s, so no test passes there:\n%s" % (
                run.label, compiler_message(log)))
    return workers, ""


def skeleton_builds(args, ctx, lab, run, target):
    """Where a submission did not build: whether the lab's skeleton builds there, the same
    way (the same uid, jail and tree). If it does not, the fault is this machine's (a jail
    that hides a compiler's folder, a package missing), not the student's: GraderFault."""
    tree = os.path.join(ctx.scratch, "skeleton-" + lab.lab + "-" + run.kind)
    shutil.copytree(ctx.tree, tree, symlinks=True)
    for name in exercise_names(args.root, lab.dir) or []:
        shutil.copy2(os.path.join(args.root, "labs", lab.dir, name),
                     os.path.join(tree, "labs", lab.dir, name))
        os.utime(os.path.join(tree, "labs", lab.dir, name))  # newer than its objects
    wall.own_tree(tree, ctx.ids.build, ctx.ids.group)
    try:
        ok, log = make(args, tree, [target], os.path.join(ctx.work, "build-%s-%s-skeleton.txt" % (
            lab.lab, run.kind)), race=run.race, ids=ctx.ids, uid=ctx.ids.build,
            backend=run.backend)
    finally:
        shutil.rmtree(tree, ignore_errors=True)
    if not ok:
        raise GraderFault("the grader cannot build even %s's skeleton %s on this machine, so "
                          "the fault is the machine's; nothing was graded:\n%s" % (
                              lab.lab, run.label, compiler_message(log)))


def grade_lab(args, ctx, num, labdir, submission_note):
    lab = Lab(num, labdir)
    if submission_note:
        lab.notes.append(submission_note)
    points = read_points(os.path.join(args.root, "tests", "points", lab.lab + ".txt"))
    hidden_points = read_points(os.path.join(args.root, "tests", "hidden", lab.lab + ".txt"))
    lab.notes += points["warnings"] + hidden_points["warnings"]
    deadline = time.monotonic() + args.lab_timeout  # the lab's tests; builds have their own
    suites = [("tests", False, points["tests"], "visible")]
    if args.hidden and test_sources(ctx.judges, lab.lab, hidden=True):
        suites.append(("hidden", True, hidden_points["tests"], "hidden"))
    workers, why = build_workers(args, ctx, lab, submission_note)
    runs = runs_of(args)
    for suite, hidden, table, default_vis in suites:
        # The judges' own lists: the same whatever the student's code does. (That every
        # points line names a test, on either backend, make test checks: check_points.py.)
        on = {r.kind: ctx.names.get((lab.lab, hidden, r.backend), []) for r in runs}
        names = ordered_union(on[r.kind] for r in runs)
        chosen = [n for n in names
                  if not args.tests or any(fnmatch.fnmatchcase(n, p) for p in args.tests)]
        results = {}
        for run in runs:
            mine = [n for n in chosen if n in on[run.kind]]
            if run.kind in workers and mine:
                judge = os.path.join(ctx.judges, judge_path(args, labdir, lab.lab, hidden,
                                                            run.backend))
                key = "%s-%s" % (suite, run.kind)
                results[run.kind] = run_suite(args, ctx, judge, workers[run.kind], mine, deadline,
                                              key, ctx.times.limit_of(lab.lab, key))
                if args.solution:  # the solution's times: the tests' limits from now on
                    ctx.times.record(lab.lab, key, results[run.kind])
        for name in chosen:
            pts, vis = points_for(table, name)
            result = one_verdict(name, runs, on, results, why or "not built")
            lab.add(name, pts, vis or default_vis, result, hidden=hidden, suite=suite)
    perf.grade_perf(args, ctx, lab, points, workers.get("cuda"), why, deadline)
    return lab


def ordered_union(lists):
    out = []
    for names in lists:
        out += [n for n in names if n not in out]
    return out


def one_verdict(name, runs, on, results, why):
    """A test's result from each run that has it: the first that does not pass, named with
    its run (where more than one run judges it), with the race checker's lines where it
    found the cause of a wrong answer; else the first pass."""
    mine = [r for r in runs if name in on[r.kind]]
    got = [(r, results.get(r.kind, {}).get(name) or
            {"status": "failed", "why": "not run: " + why.splitlines()[0] if why else "not run",
             "output": "", "secs": 0.0}) for r in mine]
    failing = [(r, res) for r, res in got if res["status"] != "passed"]
    if not failing:
        return got[0][1]
    run, result = failing[0]
    result = dict(result)
    if len({res["why"] for _, res in got}) == 1:  # not built, not submitted: one reason
        return result
    if len(mine) > 1:
        result["why"] = "%s, %s" % (run.label, result["why"])
    raced = [res for r, res in got if r.race and r is not run]
    if raced and result["status"] == "failed" and race_lines(raced[0]["output"]):
        result["why"] += ("\nThe race checker (RACECHECK=1) found why:\n" +
                          "\n".join(race_lines(raced[0]["output"])))
    others = [(r, res) for r, res in failing[1:] if not r.race]
    if others:  # the GPU's wrong answer, and the CPU backend's report at its line
        result["why"] += "\n%s too: %s" % (others[0][0].label,
                                           others[0][1]["why"].split("\n")[0][:300])
    return result
