#!/usr/bin/env python3
"""Grade lab submissions against the course's tests: `make grade` runs this.

The verdict comes from a judge that never links student code. For each lab the grader
builds, from its own files alone, the judges: the lab's tests (hidden ones in a second
judge) with the CPU reference, whose every call to the GPU or to the lab's host API goes
through a pipe (common/judge/remote.h) to a worker: the student's exercise files built with
our headers and common code into worker_labNN, in a scratch tree that holds no test, no
hidden test, no points and no solution. The judge draws the inputs from a seed the worker
never sees, checks the outputs, and writes cmocka's JUnit XML where the worker cannot
reach; it knows the device and the worker's build from the grader, never from the worker.
The tests run in groups (groups.py), each test within a time limit of its own, so that a
crash or a hang costs only the tests it touches. The grader scores each test from the lab's
points file, and the list of tests is the one its judges print (`--list`), so a lab's
maximum is the same whether or not the student's code builds.

The builds that judge each test (labgrade.py): on the CPU backend, AddressSanitizer and
UBSan with the strict mode (a barrier or a warp mask that leaves out threads is an error),
then the race checker (RACECHECK=1); on a GPU, the GPU's build and those two, so that a GPU
grade misses nothing that the CPU backend sees. A test passes where every build passes it.

Run as root, the student's code is built and run in jails (sandbox.py: namespaces, where
the kernel allows them) as uids of its own, with limits (wall.py); not root, the grade says
that it was not walled off. What a grading prepares before any student code runs
(prepare.py) is our own: a fault found there (a package missing, a race checker that does
not see its canary) writes no score. Output: DIR/results.json in Gradescope's format,
DIR/labNN.xml (JUnit) per lab and a table on stdout. The JSON is written whatever happens,
so a grading runner always gets one.

Python 3.9 or later, standard library only: graders run on bare Debian/Ubuntu images.
"""
import argparse
import concurrent.futures
import copy
import csv
import io
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wall  # noqa: E402  (uids, limits, bounded reads)
import sandbox  # noqa: E402
from base import base_tree  # noqa: E402
from labgrade import grade_lab  # noqa: E402
from prepare import (GraderFault, chosen_labs, close_secrets, ensure_runtimes,  # noqa: E402
                     overlay, prepare_judges, remove, stage)
from report import classroom_payload, clip, fmt, junit, results_json, summary  # noqa: E402
from run import Context, Stopped, gpu_owners, stop  # noqa: E402
from times import Times  # noqa: E402
# What the grader's own tests reach through this module.
import groups, perf, run, sources  # noqa: E402,F401
from points import parse_points, points_for, read_points  # noqa: E402,F401
from report import Lab  # noqa: E402,F401
from run import (GpuTurns, judge_path, read_junit, run_limited, run_test,  # noqa: E402,F401
                 sanitizer_report, trim_report)
from sources import find_in_submission, find_labs, plain_env, test_sources  # noqa: E402,F401



# ---------------------------------------------------------------- the points files















# ---------------------------------------------------------------- the tree

























# ---------------------------------------------------------------- running things



























































# ---------------------------------------------------------------- grading a lab





def parse_args(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(here)),
                    help="our tree: tests, points, headers, common code (default: this one)")
    ap.add_argument("--student", help="a submission (a checkout, its labs/ or loose files); "
                    "default: grade the exercise files of --root itself")
    ap.add_argument("--class", dest="class_dir", metavar="DIR",
                    help="a class: every folder in DIR is a submission, graded into OUT/NAME/, "
                    "with OUT/class.csv")
    ap.add_argument("--solution", action="store_true", help="grade solutions/ (full marks)")
    ap.add_argument("--lab", action="append", default=[], help="NN or labNN; repeatable")
    ap.add_argument("--tests", nargs="+",
                    help="grade only these tests (names or patterns: 'past_2_32.*'; 'perf')")
    ap.add_argument("--backend", default="cpu", choices=("cpu", "cuda"))
    ap.add_argument("--out", default="grade", help="where results.json and labNN.xml go")
    ap.add_argument("--test-timeout", type=float, default=120.0,
                    help="the most seconds a test may take; where `make grade SOLUTION=1` "
                    "measured the solution on this machine, a test's limit is 5 times its "
                    "time, at least 10 s (times.py)")
    ap.add_argument("--lab-timeout", type=float, default=1200.0,
                    help="seconds per lab, its tests together (builds not counted)")
    ap.add_argument("--build-timeout", type=float, default=600.0, help="seconds per build")
    ap.add_argument("--memory-limit", type=int, default=4096, metavar="MIB",
                    help="resident memory of a test's (or build's) processes together")
    ap.add_argument("--disk-limit", type=int, default=1024, metavar="MIB",
                    help="files a test's code may leave in /tmp, /var/tmp, /dev/shm and its "
                    "folder (root only)")
    ap.add_argument("--procs", type=int, default=512,
                    help="processes and threads of a test's code (root only)")
    ap.add_argument("--make-var", action="append", default=[], metavar="VAR=VALUE",
                    help="for the builds, e.g. ARCH=native; repeatable")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="tests run side by side (and make's -j)")
    ap.add_argument("--class-jobs", type=int,
                    help="with --class: submissions graded side by side (default: one per "
                    "core; on a GPU their builds and CPU runs side by side, their GPU tests "
                    "one submission at a time)")
    ap.add_argument("--no-hidden", dest="hidden", action="store_false",
                    help="leave out tests/hidden/")
    ap.add_argument("--no-racecheck", dest="racecheck", action="store_false",
                    help="on the CPU backend, skip the second run of the passing tests under "
                    "the race checker")
    ap.add_argument("--no-cpu-checks", dest="cpu_checks", action="store_false",
                    help="with --backend cuda, the tests on the GPU alone (by default the CPU "
                    "backend's strict mode and race checker judge them too)")
    ap.add_argument("--no-perf", dest="perf", action="store_false",
                    help="leave out the perf lines (a correctness-only grade on a GPU)")
    ap.add_argument("--no-jail", dest="jail", action="store_false",
                    help="no namespaces around the student's code even where the kernel allows "
                    "them: the fallback's wall (uids, limits, cleaning), as its tests try it")
    ap.add_argument("--plan", metavar="JSON",
                    help="with --class: per submission, the tests to grade and whether the race "
                    "checker runs ({NAME: {\"tests\": [...], \"racecheck\": false}}; the "
                    "catch rate's, which grades its catalogue as one class a lab)")
    ap.add_argument("--no-solution-times", dest="solution_times", action="store_false",
                    help="with --class: do not grade the solutions first on a machine that has "
                    "not timed them (each test's limit is then --test-timeout)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the scratch trees (their paths are printed)")
    ap.add_argument("--classroom", metavar="RESULTS_JSON",
                    help="print GitHub Classroom's reporter payload for a results.json, and stop")
    args = ap.parse_args(argv)
    args.root = os.path.abspath(args.root)
    args.labs = [re.sub(r"^lab", "", x) for arg in args.lab for x in arg.replace(",", " ").split()]
    return args


def isolation_note():
    if not wall.ISOLATED:
        return ("not graded as root, so without the grader's wall: the student's code ran as "
                "the grader's own user, and could read what the grader reads; grade as root (as "
                "the Gradescope autograder does) for the guarantees that docs/instructors.md gives")
    jails, why = sandbox.available()
    if jails:
        return ""
    return ("graded without namespaces (%s): the student's code ran as uids of its own with "
            "limits, and the grader cleaned up after each test, but it could read what any user "
            "of this machine may read (another checkout of the course, say); install "
            "bubblewrap, or allow namespaces, for the whole wall (docs/instructors.md)" % why)


class Shared:
    """What the submissions of one grading share, made before any student code runs: where
    it all lives (setup: the grader's, mode 700), the judges' tree and the device's line,
    and the tree each submission's build starts from, its common parts built (base.py)."""

    def __init__(self, labs):
        self.setup = tempfile.mkdtemp(prefix="grade-setup-", dir=wall.scratch_base())
        self.judges_dir = tempfile.mkdtemp(prefix="grade-judges-", dir=wall.scratch_base())
        self.base, self.device, self.judges, self.names = None, {}, None, {}
        self.labs = labs

    def build(self, args):
        ensure_runtimes(args)
        self.judges, self.device, self.names = prepare_judges(args, self.labs, self.judges_dir)
        self.times = Times(args, self.device, self.labs)
        run.GPU.owners = gpu_owners(self.device.get("cuda", ""))
        # the skeletons' workers: the common objects, built once for all the submissions
        # of this grading and those after it (base.py)
        self.base = base_tree(args, self.labs, self.setup)

    def remove(self):
        remove(self.setup, self.judges_dir)


def grade_one(args, staged, what, out, shared, say=None):
    """Grades one submission (staged: its files as prepare.stage() copied them, or None for
    this tree's own labs/) into out/ (mode 700). say: where its lines go (default: printed
    as they come). Returns (results, stopped)."""
    say = say or (lambda line: print(line, flush=True))
    start = time.monotonic()
    os.makedirs(out, mode=0o700, exist_ok=True)
    labs_done, notes, stopped, fault = [], [], False, False
    scratch = tempfile.mkdtemp(prefix="grade-", dir=wall.scratch_base())
    ids = wall.Ids(args.jobs)
    labs = shared.labs
    try:
        say("grading %s: %s, backend %s, %.0f s per test, %.0f s per lab" % (
            what, " ".join("lab" + n for n in labs), args.backend, args.test_timeout,
            args.lab_timeout))
        if isolation_note():
            notes.append(isolation_note())
        wall.own(scratch, None, ids.group, 0o750)
        tree = os.path.join(scratch, "tree")  # with its mtimes: make rebuilds the student's files
        shutil.copytree(shared.base, tree, symlinks=True)
        submission = overlay(args, staged, tree, labs)
        wall.own_tree(tree, ids.build, ids.group)
        ctx = Context(scratch, tree, shared.judges, ids, shared.device, shared.names)
        ctx.times = shared.times
        for num, labdir in labs.items():
            lab = grade_lab(args, ctx, num, labdir, submission.get(num))
            labs_done.append(lab)
            junit(lab, os.path.join(out, "lab%s.xml" % num))
            s, m = lab.score()
            say("  %s: %d/%d passed, %s/%s points" % ((lab.lab,) + lab.passed() + (fmt(s), fmt(m))))
    except Stopped:
        stopped = True
        notes.append("the grading was stopped (SIGTERM or Ctrl-C) before its end: the labs not "
                     "graded are missing from this grade")
    except GraderFault:
        fault = True
        raise
    except Exception:  # the grader's own fault: still a results.json, saying so
        notes.append("the grader failed, so this grade is incomplete; tell the instructor:\n" +
                     traceback.format_exc())
    finally:
        results = results_json(labs_done, time.monotonic() - start, notes)
        if not fault:  # else main writes one with no score
            write_private(os.path.join(out, "results.json"), json.dumps(results, indent=1))
        for uid in [ids.build] + ids.slots:
            wall.sweep(uid)
        if args.keep:
            say("scratch tree kept: " + scratch)
        else:
            remove(scratch)
    say("\n" + summary(labs_done, notes))
    say("\n%s/results.json written (%s of %s points)\n" % (
        out.rstrip("/"), fmt(results["score"]), fmt(results["max_score"])))
    results["graded"] = bool(labs_done) or not notes
    return results, stopped


def time_solutions(args, shared):
    """A class on a machine that has not timed the solutions of its labs: grades them first,
    once (build/grade-times.json keeps their times), so that each test's limit is a multiple
    of the solution's time here and a submission that hangs costs seconds a test, not
    --test-timeout (on a GPU, where no deadlock is detected, minutes)."""
    todo = shared.times.unknown()
    if not todo or not args.solution_times or not os.path.isdir(
            os.path.join(args.root, "solutions")):
        return
    print("class: timing the solutions of %s on this machine first (once; their tests' limits "
          "come from it)" % " ".join("lab" + n for n in todo), flush=True)
    mine = copy.copy(args)
    mine.solution, mine.tests, mine.perf = True, None, False  # solution: its times recorded
    staged = stage(mine, os.path.join(args.root, "solutions"), shared.labs,
                   os.path.join(shared.setup, "solutions"))
    out = tempfile.mkdtemp(prefix="grade-solutions-", dir=shared.setup)
    lines = []
    results, _ = grade_one(mine, staged, "solutions/", out, shared, lines.append)
    if results["score"] == results["max_score"]:
        shared.times.save()
    else:
        print("class: the solutions lost points here, so no test's limit rests on their times:\n"
              + "\n".join(lines[-12:]), flush=True)


def write_private(path, text):
    """A file of the grade's output, which no student's uid may read (mode 600)."""
    if os.path.lexists(path):
        os.unlink(path)
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600), "w",
              encoding="utf-8", newline="") as f:
        f.write(text)


def fault_json(out, why, secs):
    """A grading that a fault of the host stopped: results.json with the reason and no score
    (a score would charge the student with it), and the same on stdout."""
    os.makedirs(out, mode=0o700, exist_ok=True)
    write_private(os.path.join(out, "results.json"), json.dumps({
        "output": clip("The grader could not grade this submission, a fault of the grading "
                       "machine, not of the submission; tell the instructor:\n" + why, 4000),
        "execution_time": round(secs), "visibility": "visible", "tests": []}, indent=1))
    print("grade: %s\n%s/results.json written with no score" % (why, out.rstrip("/")))


def grade_class(args, shared):
    """Every folder of --class is a submission: OUT/NAME/ gets its results.json and
    JUnit XML, OUT/class.csv a row per student (points per lab, hidden tests included).
    Every submission is staged before any student's code runs; then --class-jobs of them
    are graded side by side, each in its own scratch tree with uids of its own, the cores
    shared out between them. Each one's report is printed whole, in name order."""
    students = sorted(d for d in os.listdir(args.class_dir)
                      if os.path.isdir(os.path.join(args.class_dir, d)) and d[0] != ".")
    labs = shared.labs
    rows = []
    jobs = args.class_jobs or os.cpu_count() or 1  # on a GPU too: GpuTurns takes turns
    workers = max(1, min(jobs, len(students)))
    try:
        staged = {name: stage(args, os.path.join(args.class_dir, name), labs,
                              os.path.join(shared.setup, "staged", name)) for name in students}
        args.jobs = max(1, args.jobs // workers)
        print("grading %d at a time, %d jobs each" % (workers, args.jobs), flush=True)

        plan = read_plan(args.plan)

        def one(name):
            lines = []
            results, stopped = grade_one(planned(args, plan.get(name, {})), staged[name], name,
                                         os.path.join(args.out, name), shared, lines.append)
            return "\n".join(lines), results, stopped
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            for name, (report, results, stopped) in zip(students, pool.map(one, students)):
                print("--- %s\n%s" % (name, report), flush=True)
                per_lab = {}
                for t in results["tests"]:
                    lab = t["name"].split()[0]
                    per_lab[lab] = per_lab.get(lab, 0) + t["score"]
                rows.append([name] + [fmt(per_lab.get("lab" + n, 0)) for n in labs] +
                            [fmt(results["score"]), fmt(results["max_score"])])
                if stopped:
                    break
    except Stopped:
        print("the grading was stopped (SIGTERM or Ctrl-C): class.csv has the students graded so far")
    finally:
        table = io.StringIO()
        w = csv.writer(table)
        w.writerow(["student"] + ["lab" + n for n in labs] + ["score", "max_score"])
        w.writerows(rows)
        write_private(os.path.join(args.out, "class.csv"), table.getvalue())
    print("%-24s %s" % ("student", " ".join("%8s" % ("lab" + n) for n in labs) + "    total"))
    for row in rows:
        print("%-24s %s %8s/%s" % (row[0], " ".join("%8s" % x for x in row[1:-2]), row[-2],
                                     row[-1]))
    print("\n%s written (%d students)" % (os.path.join(args.out, "class.csv"), len(rows)))
    return 0


def read_plan(path):
    """--plan's file (the grader's own input, never the student's): {} without one."""
    if not path:
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def planned(args, entry):
    """args for one submission of a planned class: its tests and race checker as the plan says."""
    if not entry:
        return args
    mine = copy.copy(args)
    mine.tests = entry.get("tests", args.tests)
    mine.racecheck = entry.get("racecheck", args.racecheck)
    return mine


def misused(args):
    """What is wrong with the command line, in one line that names the fix, or "". (A tree
    without labs is the grader's own fault, which a results.json reports: not asked here.)"""
    labs = find_labs(args.root) if os.path.isdir(os.path.join(args.root, "labs")) else {}
    unknown = [n for n in args.labs if n not in labs]
    if unknown and labs:
        return "no lab %s here: LAB= takes one of %s" % (", ".join(unknown), " ".join(labs))
    if args.plan and not args.class_dir:
        return "--plan grades a class: give --class DIR too"
    for flag, path in (("STUDENT", args.student), ("CLASS", args.class_dir)):
        if path and not os.path.isdir(path):
            return ("%s=%s: no such folder (%s= names a folder: %s)" % (
                flag, path, flag, "a checkout, its labs/ or the exercise files"
                if flag == "STUDENT" else "one folder per submission"))
    return ""


def main(argv):
    args = parse_args(argv)
    if args.classroom:
        with open(args.classroom, encoding="utf-8") as f:
            print(classroom_payload(json.load(f)))
        return 0
    misuse = misused(args)
    if misuse:  # before anything is built or written: no results for a grade not done
        print("grade: " + misuse, file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)  # Ctrl-C: the same, and whatever runs is killed
    wall.become_subreaper()
    start = time.monotonic()
    if not args.jail:
        sandbox.refuse("--no-jail")
    if wall.ISOLATED:
        closed = close_secrets(args)
        if closed:
            print("made %s private (mode 700): the student's code must not read them"
                  % ", ".join(closed), flush=True)
    shared = None
    try:
        shared = Shared(chosen_labs(args, []))
        if args.class_dir:
            print("class: building what the submissions share", flush=True)
        shared.build(args)
        if args.class_dir:
            time_solutions(args, shared)
            return grade_class(args, shared)
        if args.solution:
            staged, what = stage(args, os.path.join(args.root, "solutions"), shared.labs,
                                 os.path.join(shared.setup, "staged")), "solutions/"
        elif args.student:
            staged, what = stage(args, args.student, shared.labs,
                                 os.path.join(shared.setup, "staged")), args.student
        else:
            staged, what = None, "this checkout"
        results, _ = grade_one(args, staged, what, args.out, shared)
        if args.solution and results["score"] == results["max_score"]:
            shared.times.save()  # full marks: times that a test's limit may rest on
        return 0 if results.pop("graded") else 1
    except Stopped:  # before any submission was graded: nothing to write
        print("grade: the grading was stopped (SIGTERM or Ctrl-C) before it began")
        return 1
    except GraderFault as e:
        fault_json(args.out, str(e), time.monotonic() - start)
        return 1
    except Exception:  # the grader's own fault: a results.json that says so, and no score
        fault_json(args.out, "the grader failed:\n" + traceback.format_exc(),
                   time.monotonic() - start)
        return 1
    finally:
        if shared and not args.keep:
            shared.remove()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
