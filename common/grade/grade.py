#!/usr/bin/env python3
"""Grade lab submissions against the course's tests: `make grade` runs this.

The verdict comes from a judge that never links student code. For each lab the grader
builds, from its own files alone, the judges: the lab's tests (hidden ones in a second
judge) with the CPU reference, whose every call to the GPU or to the lab's host API goes
through a pipe (common/judge/remote.h) to a worker: the student's exercise files built with
our headers and common code into worker_labNN, in a scratch tree that holds no test, no
hidden test, no points and no solution. Each test is a judge and a worker of its own
under a time limit (a crash or a hang costs only the tests it touches); the judge draws
the inputs from a seed the worker never sees, checks the outputs, and writes cmocka's
JUnit XML where the worker cannot reach; the grader scores each test from the lab's points
file, and the list of tests comes from the test sources, so a lab's maximum is the same
whether or not the student's code builds. Run as root, the student's code is built and
run as uids of its own, with limits (wall.py); not root, the grade says that it was not
walled off. On the CPU backend the build has AddressSanitizer
and UBSan (a memory or alignment error fails the test with the kernel's line), the tests
run in strict mode (a barrier or a warp mask that leaves out threads is an error), and
each test runs again under the race checker (RACECHECK=1): a race costs a test that passed,
and explains one that failed. Output: DIR/results.json in Gradescope's format,
DIR/labNN.xml (JUnit) per lab and a table on stdout. The JSON is written whatever happens,
so a grading runner always gets one.

Python 3.9 or later, standard library only: graders run on bare Debian/Ubuntu images.
"""
import argparse
import concurrent.futures
import csv
import fnmatch
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
import run  # noqa: E402,F401  (tests and builds; the grader's tests patch its functions)
from points import PointsError, parse_points, points_for, read_points  # noqa: E402,F401
from report import Lab, classroom_payload, clip, fmt, junit, results_json, summary  # noqa: E402,F401
from run import (FILE_LIMIT, Context, GpuTurns, Stopped, Worker, bench_judge_path, build_dir,  # noqa: E402,F401
                 compiler_message, judge_and_worker, judge_path, make, pair, race_lines,
                 racechecked, read_junit, run_limited, run_suite, run_test, sanitizer_report,
                 stop, trim_report)
from sources import (find_in_submission, find_labs, names_in_sources,  # noqa: E402,F401
                     plain_env, student_tree, test_sources)
from prepare import (GraderFault, chosen_labs, close_secrets, ensure_runtimes,  # noqa: E402
                     overlay, prepare_judges, remove, stage)
import sandbox  # noqa: E402
import sources  # noqa: E402,F401  (the grader's tests reach its parts)

TSV_LIMIT = 1 << 20           # a bench's TSV
CEILING_SLACK = 115.0         # %copy past which a bench time is not believed, and %fp32
                              # (for perf lines in %fp32: variants that do all their work)
SUBMISSION_FILE_LIMIT = 1 << 20  # a submitted exercise file


# ---------------------------------------------------------------- the points files















# ---------------------------------------------------------------- the tree

























# ---------------------------------------------------------------- running things



























































# ---------------------------------------------------------------- grading a lab





def grade_lab(args, ctx, num, labdir, submission_note):
    lab = Lab(num, labdir)
    if submission_note:
        lab.notes.append(submission_note)
    points = read_points(os.path.join(args.root, "tests", "points", lab.lab + ".txt"))
    hidden_points = read_points(os.path.join(args.root, "tests", "hidden", lab.lab + ".txt"))
    lab.notes += points["warnings"] + hidden_points["warnings"]
    budget = args.lab_timeout  # for the lab's tests; builds have their own limit
    suites = [("tests", False, test_sources(ctx.judges, lab.lab), points["tests"], "visible")]
    hidden_sources = test_sources(ctx.judges, lab.lab, hidden=True) if args.hidden else []
    if hidden_sources:
        suites.append(("hidden", True, hidden_sources, hidden_points["tests"], "hidden"))
    worker, race_worker, why = build_workers(args, ctx, lab, submission_note)
    for suite, hidden, sources, table, default_vis in suites:
        names = names_in_sources(sources, args.backend)  # the same whatever builds
        judge = os.path.join(ctx.judges, judge_path(args, labdir, lab.lab, hidden))
        anywhere = names + names_in_sources(sources, "cuda" if args.backend == "cpu" else "cpu")
        unknown = sorted(p for p in table if not any(fnmatch.fnmatchcase(n, p) for n in anywhere))
        if unknown:
            lab.notes.append("points for tests that do not exist (typo?): " + ", ".join(unknown))
        chosen = [n for n in names
                  if not args.tests or any(fnmatch.fnmatchcase(n, p) for p in args.tests)]
        results = {}
        if worker:
            start = time.monotonic()
            results = run_suite(args, ctx, judge, worker, chosen, start + budget, suite)
            budget -= time.monotonic() - start
        if race_worker:  # a pass must hold there too; a wrong answer may find its cause there
            start = time.monotonic()
            again = [n for n in chosen if results.get(n, {}).get("status") in ("passed", "failed")]
            raced = run_suite(args, ctx, judge, race_worker, again, start + budget,
                              suite + "-race")
            budget -= time.monotonic() - start
            for name, result in raced.items():
                first = results[name]
                if first["status"] == "passed" and result["status"] != "passed":
                    result["why"] = ("under the race checker (the CPU backend's RACECHECK=1), " +
                                     result["why"])
                    results[name] = result
                elif first["status"] == "failed" and race_lines(result["output"]):
                    first["why"] += ("\nThe race checker (RACECHECK=1) found why:\n" +
                                     "\n".join(race_lines(result["output"])))
        for name in chosen:
            pts, vis = points_for(table, name)
            vis = vis or default_vis  # visible, or hidden for tests/hidden/
            result = results.get(name) or {"status": "failed", "why": why, "output": "",
                                           "secs": 0.0}
            lab.add(name, pts, vis, result, hidden=suite == "hidden", suite=suite)
    grade_perf(args, ctx, lab, points, worker, why, time.monotonic() + max(budget, 0))
    return lab


def build_workers(args, ctx, lab, submission_note):
    """The student's code for the judges to call: worker_labNN, and on the CPU backend the
    race checker's, built as the submission's build uid. Returns (worker, race_worker, why):
    absolute paths or None, and why there is no worker."""
    if submission_note and submission_note.startswith("not submitted"):
        return None, None, submission_note
    name = "worker_" + lab.lab
    ok, log = make(args, ctx.tree, [os.path.join(build_dir(args, lab.dir), name)],
                   os.path.join(ctx.work, "build-%s.txt" % lab.lab), ids=ctx.ids,
                   uid=ctx.ids.build)
    if not ok:
        why = "did not compile (or link), so it scores 0:\n" + compiler_message(log)
        lab.notes.append(why)
        return None, None, why
    race = None
    if racechecked(args):
        target = os.path.join(build_dir(args, lab.dir, race=True), name)
        race_ok, log = make(args, ctx.tree, [target],
                            os.path.join(ctx.work, "build-%s-race.txt" % lab.lab), race=True,
                            ids=ctx.ids, uid=ctx.ids.build)
        if race_ok:
            race = Worker(os.path.join(ctx.tree, target), args.backend, True)
        else:
            lab.notes.append("the race checker's build failed, so the tests were not checked "
                             "for races:\n" + compiler_message(log))
    return Worker(os.path.join(ctx.tree, build_dir(args, lab.dir), name), args.backend, False), \
        race, ""




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
        return {}, "the bench %s:\n%s" % (why, clip(bench["judged"] + "\n" + bench["printed"], 1500))
    return read_bench(bench["found"].decode("utf-8", errors="replace")), ""


def read_bench(text):
    """{variant: row} for the rows of series main (columns: common/bench.h)."""
    rows = {}
    for row in csv.DictReader(io.StringIO(text), delimiter="\t"):
        if row.get("series") == "main" and row.get("variant"):
            rows[row["variant"]] = row
    return rows


# ---------------------------------------------------------------- reports













# ---------------------------------------------------------------- main

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
    ap.add_argument("--test-timeout", type=float, default=120.0, help="seconds per test")
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
                    "core; on a GPU one, since the device is what they would share)")
    ap.add_argument("--no-hidden", dest="hidden", action="store_false",
                    help="leave out tests/hidden/")
    ap.add_argument("--no-racecheck", dest="racecheck", action="store_false",
                    help="on the CPU backend, skip the second run of the passing tests under "
                    "the race checker")
    ap.add_argument("--no-perf", dest="perf", action="store_false",
                    help="leave out the perf lines (a correctness-only grade on a GPU)")
    ap.add_argument("--no-jail", dest="jail", action="store_false",
                    help="no namespaces around the student's code even where the kernel allows "
                    "them: the fallback's wall (uids, limits, cleaning), as its tests try it")
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
                "the Gradescope autograder does) for the guarantees that README.md gives")
    jails, why = sandbox.available()
    if jails:
        return ""
    return ("graded without namespaces (%s): the student's code ran as uids of its own with "
            "limits, and the grader cleaned up after each test, but it could read what any user "
            "of this machine may read (another checkout of the course, say); install "
            "bubblewrap, or allow namespaces, for the whole wall (README.md)" % why)


class Shared:
    """What the submissions of one grading share, made before any student code runs: where
    it all lives (setup: the grader's, mode 700), the judges' tree and the device's line,
    and a scratch tree of the student's build (base) whose common parts are built."""

    def __init__(self, labs):
        self.setup = tempfile.mkdtemp(prefix="grade-setup-", dir=wall.scratch_base())
        self.judges_dir = tempfile.mkdtemp(prefix="grade-judges-", dir=wall.scratch_base())
        self.base, self.device, self.judges = None, "", None
        self.labs = labs

    def build(self, args, class_mode):
        ensure_runtimes(args)
        self.judges, self.device = prepare_judges(args, self.labs, self.judges_dir)
        if class_mode:  # the skeletons' workers: the common objects, built once for all
            self.base = student_tree(args.root, os.path.join(self.setup, "base"))
            targets = [os.path.join(build_dir(args, d), "worker_lab" + n)
                       for n, d in self.labs.items()]
            make(args, self.base, targets, os.path.join(self.setup, "build.txt"))
            if racechecked(args):
                make(args, self.base, [t.replace(build_dir(args, ""), build_dir(args, "", race=True))
                                       for t in targets],
                     os.path.join(self.setup, "build-race.txt"), race=True)

    def remove(self):
        remove(self.setup, self.judges_dir)


def grade_one(args, staged, what, out, shared, say=None):
    """Grades one submission (staged: its files as prepare.stage() copied them, or None for
    this tree's own labs/) into out/ (mode 700). say: where its lines go (default: printed
    as they come). Returns (results, stopped)."""
    say = say or (lambda line: print(line, flush=True))
    start = time.monotonic()
    os.makedirs(out, mode=0o700, exist_ok=True)
    labs_done, notes, stopped = [], [], False
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
        if shared.base:  # copied with its mtimes: make rebuilds only the student's files
            tree = os.path.join(scratch, "tree")
            shutil.copytree(shared.base, tree, symlinks=True)
        else:
            tree = student_tree(args.root, scratch)
        submission = overlay(args, staged, tree, labs)
        wall.own_tree(tree, ids.build, ids.group)
        ctx = Context(scratch, tree, shared.judges, ids, shared.device)
        for num, labdir in labs.items():
            lab = grade_lab(args, ctx, num, labdir, submission.get(num))
            labs_done.append(lab)
            junit(lab, os.path.join(out, "lab%s.xml" % num))
            s, m = lab.score()
            say("  %s: %d/%d passed, %s/%s points" % ((lab.lab,) + lab.passed() + (fmt(s), fmt(m))))
    except Stopped:
        stopped = True
        notes.append("the grading was stopped (SIGTERM) before its end: the labs not "
                     "graded are missing from this grade")
    except Exception:  # the grader's own fault: still a results.json, saying so
        notes.append("the grader failed, so this grade is incomplete; tell the instructor:\n" +
                     traceback.format_exc())
    finally:
        results = results_json(labs_done, time.monotonic() - start, notes)
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
    jobs = args.class_jobs or (1 if args.backend == "cuda" else os.cpu_count() or 1)
    workers = max(1, min(jobs, len(students)))
    try:
        staged = {name: stage(args, os.path.join(args.class_dir, name), labs,
                              os.path.join(shared.setup, "staged", name)) for name in students}
        args.jobs = max(1, args.jobs // workers)
        print("grading %d at a time, %d jobs each" % (workers, args.jobs), flush=True)

        def one(name):
            lines = []
            results, stopped = grade_one(args, staged[name], name, os.path.join(args.out, name),
                                         shared, lines.append)
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
        print("the grading was stopped (SIGTERM): class.csv has the students graded so far")
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


def main(argv):
    args = parse_args(argv)
    if args.classroom:
        with open(args.classroom, encoding="utf-8") as f:
            print(classroom_payload(json.load(f)))
        return 0
    signal.signal(signal.SIGTERM, stop)
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
        shared.build(args, bool(args.class_dir))
        if args.class_dir:
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
        return 0 if results.pop("graded") else 1
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
