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
import base64
import concurrent.futures
import contextlib
import csv
import fnmatch
import glob
import io
import json
import os
import re
import secrets
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import run_tests  # noqa: E402  (common/run_tests.py: how `make labNN test` explains a failure)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wall  # noqa: E402  (common/grade/wall.py: uids, limits, bounded reads)

VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
UNITS = ("%peak", "%copy", "GB/s", "%fp32")
OUTPUT_LIMIT = 4000           # characters of a test's output kept in the report
TOTAL_OUTPUT_LIMIT = 400000   # characters of all the tests' outputs in one results.json
FILE_LIMIT = 64 << 20         # a test's code may write files up to this size (its log too)
BUILD_FILE_LIMIT = 512 << 20  # a build's (objects, binaries)
XML_LIMIT = 1 << 20           # the judge's cmocka XML, read at most this far
TSV_LIMIT = 1 << 20           # a bench's TSV
CEILING_SLACK = 115.0         # %copy past which a bench time is not believed, and %fp32
                              # (for perf lines in %fp32: variants that do all their work)
SUBMISSION_FILE_LIMIT = 1 << 20  # a submitted exercise file
# What the scratch tree takes from build/cpu/: the CPU backend's runtimes and rewriter, built
# from common/cpu/ alone (no student code), which every grading would otherwise rebuild.
RUNTIME_BUILDS = ("runtime", "runtime-asan", "runtime-tsan", "cucc-rewrite")


# ---------------------------------------------------------------- the points files

class PointsError(ValueError):
    pass


def parse_points(text, source="points"):
    """Reads a points file. Lines (# starts a comment):
         NAME POINTS [VISIBILITY]                 a test and what it is worth (NAME may
                                                  be a pattern: twice_gives_input.*)
         perf VARIANT >= VALUE UNIT POINTS [VIS]  a bench threshold, graded on a GPU only
         bench ARGS...                            arguments of the bench run for perf lines
       Returns {"tests": {name: (points, visibility)}, "perf": [...], "bench": [...],
       "warnings": [...]}; a bad line is a warning and is ignored, never fatal."""
    out = {"tests": {}, "perf": [], "bench": None, "warnings": []}
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        where = "%s:%d" % (source, number)
        try:
            if words[0] == "bench":
                out["bench"] = words[1:]
            elif words[0] == "perf":
                out["perf"].append(parse_perf(words[1:], where))
            else:
                if len(words) not in (2, 3):
                    raise PointsError("want NAME POINTS [VISIBILITY]")
                out["tests"][words[0]] = (parse_number(words[1]),  # visibility None: the
                                          parse_visibility(words[2:], None))  # suite's default
        except PointsError as e:
            out["warnings"].append("%s: %s (line ignored): %s" % (where, e, raw.strip()))
    return out


def parse_perf(words, where):
    if len(words) not in (5, 6) or words[1] != ">=" or words[3] not in UNITS:
        raise PointsError("want perf VARIANT >= VALUE %s POINTS [VISIBILITY]" % "|".join(UNITS))
    return {"variant": words[0], "threshold": parse_number(words[2]), "unit": words[3],
            "points": parse_number(words[4]), "visibility": parse_visibility(words[5:], "visible"),
            "where": where}


def parse_number(word):
    try:
        value = float(word)
    except ValueError:
        raise PointsError("%r is not a number" % word)
    if value < 0:
        raise PointsError("negative points")
    return value


def parse_visibility(words, default):
    if not words:
        return default
    if words[0] not in VISIBILITIES:
        raise PointsError("visibility must be one of %s" % ", ".join(VISIBILITIES))
    return words[0]


def points_for(table, name):
    """(points, visibility) of a test: its own line, else the first pattern that matches it
    (`twice_gives_input.* 0.5`: every variant's), else 1 point."""
    if name in table:
        return table[name]
    for pattern, value in table.items():
        if fnmatch.fnmatchcase(name, pattern):
            return value
    return 1.0, None


def read_points(path):
    if not os.path.exists(path):
        return parse_points("")
    with open(path, encoding="utf-8") as f:
        return parse_points(f.read(), os.path.relpath(path))


# ---------------------------------------------------------------- the tree

def find_labs(root):
    """{"01": "lab01-vector-add", ...}: the labs of this tree that have tests."""
    labs = {}
    for d in sorted(os.listdir(os.path.join(root, "labs"))):
        m = re.match(r"lab(\d\d)-", d)
        if m and test_sources(root, "lab" + m.group(1)):
            labs[m.group(1)] = d
    return labs


def test_sources(root, lab, hidden=False):
    where = os.path.join(root, "tests", "hidden") if hidden else os.path.join(root, "tests")
    if not os.path.isdir(where):
        return []
    return sorted(os.path.join(where, f) for f in os.listdir(where)
                  if f.startswith("test_%s_" % lab) and f.endswith(".c"))


def names_in_sources(paths, backend="cpu", given_only=False):
    """Test names from the test files' lists, as `--list` prints them, whether or not the
    student's code builds (so a lab's maximum score is the same when it does not):
    TESTKIT_HOST/GIVEN/TEST(name), for TESTKIT_VARIANTS(f) one test per variant of the lab's
    table (the X(ID, "name", ...) rows of the headers the file includes, found beside it in
    labs/*/ or common/), for TESTKIT_EACH(f) one named f.VARIANT per variant, and for
    TESTKIT_EACH_EXCEPT(f, ID, ...) the same but for the variants ID, ...; entries under
    #ifdef BACKEND_CUDA (or BACKEND_CPU) count on that backend only. given_only: those that
    may pass in a skeleton (HOST and GIVEN), as `--list-given` prints them."""
    names = []
    kinds = "HOST|GIVEN" if given_only else "HOST|GIVEN|TEST|VARIANTS|EACH|EACH_EXCEPT"
    for p in paths:
        with open(p, encoding="utf-8", errors="replace") as f:
            text = backend_lines(f.read(), backend)
        for kind, name, rest in re.findall(r"TESTKIT_(%s)\(\s*(\w+)\s*(?:,([^)]*))?\)" % kinds,
                                           text):
            if kind == "VARIANTS":
                found = variant_names(p, text)
            elif kind.startswith("EACH"):
                out = re.findall(r"\w+", rest)
                found = ["%s.%s" % (name, v) for ident, v in variant_table(p, text)
                         if ident not in out]
            else:
                found = [name]
            names += [n for n in found if n not in names]
    return names


def backend_lines(text, backend):
    """text without the lines that #ifdef BACKEND_CUDA / BACKEND_CPU (and #ifndef, #else)
    leave out on this backend; other conditionals are kept whole."""
    defined = {"BACKEND_CUDA": backend == "cuda", "BACKEND_CPU": backend == "cpu"}
    stack, kept = [], []  # per open #if: whether its lines are kept (None: not ours)
    for line in text.splitlines():
        m = re.match(r"\s*#\s*(ifdef|ifndef|if|else|elif|endif)\b\s*(\w*)", line)
        if m and m.group(1) in ("ifdef", "ifndef"):
            mine = m.group(2) in defined
            stack.append(None if not mine else defined[m.group(2)] == (m.group(1) == "ifdef"))
        elif m and m.group(1) == "if":
            stack.append(None)
        elif m and m.group(1) in ("else", "elif") and stack and stack[-1] is not None:
            stack[-1] = not stack[-1]
        elif m and m.group(1) == "endif" and stack:
            stack.pop()
        elif all(k is not False for k in stack):
            kept.append(line)
    return "\n".join(kept)


def variant_table(test_path, text):
    """The variant table in the headers that a test file includes: (ID, name) a row."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(test_path)))
    if os.path.basename(root) == "tests":  # tests/hidden/
        root = os.path.dirname(root)
    rows = []
    for header in re.findall(r'#include\s+"([\w.]+\.h)"', text):
        for path in glob.glob(os.path.join(root, "labs", "*", header)):
            with open(path, encoding="utf-8", errors="replace") as f:
                rows += re.findall(r'\bX\(\s*(\w+)\s*,\s*"(\w+)"', f.read())
    return rows


def variant_names(test_path, text):
    """The names of the variant table in the headers that a test file includes."""
    return [name for _, name in variant_table(test_path, text)]


def exercise_names(root, labdir):
    """The files a student writes: those of solutions/LAB/, or of the manifest that
    `make dist` puts in the Gradescope autograder (which carries no solutions)."""
    sol = os.path.join(root, "solutions", labdir)
    if os.path.isdir(sol):
        return sorted(f for f in os.listdir(sol) if f.endswith(".cu"))
    manifest = os.path.join(root, "common", "grade", "exercises.txt")
    if os.path.exists(manifest):
        with open(manifest, encoding="utf-8") as f:
            for line in f:
                words = line.split()
                if words and words[0] == labdir:
                    return words[1:]
    return None


def find_in_submission(student, labdir, name):
    """A student's file: labs/LAB/NAME, LAB/NAME or NAME in the submission, else the one
    file of that name anywhere in it (students upload trees of all shapes). Folders that
    are symbolic links are not entered; the path found may be a link or not a regular
    file, which read_submission() refuses."""
    found = []
    for dirpath, dirnames, filenames in os.walk(student):
        dirnames[:] = [d for d in dirnames if d not in (".git", "build")]
        if name in filenames:
            found.append(os.path.join(dirpath, name))
    for rel in (("labs", labdir, name), (labdir, name), (name,)):
        if os.path.join(student, *rel) in found:
            return os.path.join(student, *rel)
    return found[0] if len(found) == 1 else None


def judge_tree(root, where):
    """A copy of our tree to build the judges in (the tests, hidden ones too, with the
    common code and the labs' given files): no solutions, grade outputs or build/. No
    student file ever enters it; the student's code can neither read nor reach it."""
    def ignore(d, names):
        rel = os.path.relpath(d, root)
        if rel == ".":
            return {".git", "solutions", "grade", "dist", "build"} & set(names)
        return {"grader"} & set(names) if rel == "tests" else set()
    tree = os.path.join(where, "tree")
    shutil.copytree(root, tree, ignore=ignore, symlinks=True)
    return tree


def student_tree(root, where):
    """A copy of what the student's code builds with: the Makefile, common/, labs/ and
    the worker's half of each lab's calls (tests/remote_*.c), with the CPU backend's
    runtimes (RUNTIME_BUILDS: ours, from common/cpu/ alone, which every grading would
    otherwise rebuild). No test, hidden test, points file or solution: nothing secret."""
    tree = os.path.join(where, "tree")
    os.makedirs(os.path.join(tree, "tests"))
    shutil.copy2(os.path.join(root, "Makefile"), tree)
    for name in ("common", "labs"):
        shutil.copytree(os.path.join(root, name), os.path.join(tree, name), symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    for path in glob.glob(os.path.join(root, "tests", "remote_*.c")):
        shutil.copy2(path, os.path.join(tree, "tests"))
    for name in RUNTIME_BUILDS:  # make rebuilds them if stale
        src = os.path.join(root, "build", "cpu", name)
        dst = os.path.join(tree, "build", "cpu", name)
        if os.path.isdir(src):
            shutil.copytree(src, dst, symlinks=True)
        elif os.path.isfile(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
    return tree


def lock_secrets(root):
    """Root grading: the student's uids must not read our solutions, hidden tests and
    history through a tree that others may enter. Returns what it closed (mode 700)."""
    closed = []
    for rel in ("solutions", os.path.join("tests", "hidden"), ".git"):
        path = os.path.join(root, rel)
        if os.path.isdir(path) and not os.path.islink(path) and os.stat(path).st_mode & 0o077:
            os.chmod(path, 0o700)
            closed.append(rel)
    return closed


PASSED_ON = ("PATH", "LANG", "LC_ALL", "LD_LIBRARY_PATH", "CPATH", "LIBRARY_PATH", "CUDA_HOME",
             "CUDA_PATH", "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "TERM")


def plain_env(home, extra=None):
    """The environment of builds, judges and workers: the few variables that find the
    compilers, libraries and GPU, nothing else of the grader's (its secrets, a parent
    make's flags), HOME and TMPDIR as given."""
    env = {k: os.environ[k] for k in PASSED_ON if k in os.environ}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.update(HOME=home, TMPDIR=home)
    env.update(extra or {})
    return env


# ---------------------------------------------------------------- running things

STOP = threading.Event()  # set by SIGTERM: start no more tests, write what there is


class GpuTurns:
    """On a GPU, the tests of the submissions graded at once share the device, but a bench
    has it alone: a time measured beside another submission's tests would be theirs too.
    Tests take it shared, benches alone; a waiting bench goes before new tests."""

    def __init__(self):
        self.cond = threading.Condition()
        self.sharing, self.alone, self.waiting = 0, False, 0

    @contextlib.contextmanager
    def shared(self):
        with self.cond:
            self.cond.wait_for(lambda: not self.alone and not self.waiting)
            self.sharing += 1
        try:
            yield
        finally:
            with self.cond:
                self.sharing -= 1
                self.cond.notify_all()

    @contextlib.contextmanager
    def exclusive(self):
        with self.cond:
            self.waiting += 1
            self.cond.wait_for(lambda: not self.alone and not self.sharing)
            self.waiting -= 1
            self.alone = True
        try:
            yield
        finally:
            with self.cond:
                self.alone = False
                self.cond.notify_all()


GPU = GpuTurns()


class Stopped(Exception):
    pass


def stop(signum, frame):
    STOP.set()
    raise Stopped()


class Context:
    """Where one submission is graded: tree (its scratch tree, which its build uid owns and
    its group may enter), work (the grader's alone: logs), runs (a folder per test run, the
    worker's working folder), judges (the judges' tree, built once) and judge_runs (a folder
    per test for the judge's XML), and its ids."""

    def __init__(self, scratch, tree, judges, ids):
        self.tree, self.judges, self.ids = tree, judges, ids
        self.work = os.path.join(scratch, "work")
        self.runs = os.path.join(scratch, "runs")
        self.judge_runs = tempfile.mkdtemp(prefix="runs-", dir=os.path.dirname(judges))
        os.makedirs(self.work)
        os.makedirs(self.runs)
        wall.own(self.runs, None, ids.group, 0o750)
        wall.own(self.judge_runs, wall.judge_id(), wall.judge_id(), 0o700)


def limits(args, secs, file_bytes=None, procs=None):
    return wall.limits_for(secs * max(os.cpu_count() or 1, 1) + 5, file_bytes or FILE_LIMIT,
                           procs or args.procs)


def run_limited(args, cmd, cwd, env, timeout, log_path, ids=None, uid=None, file_bytes=None,
                procs=None, places=()):
    """Runs cmd as uid of ids (a submission's build uid or test slot; None: the grader's
    user) with the limits of student code, output into log_path; places: folders of its own
    whose files count towards the disk limit. Returns (returncode, timed_out, secs,
    exceeded): exceeded names the memory or disk limit it went past, else "". Afterwards
    nothing of uid runs."""
    start = time.monotonic()
    with wall.create_log(log_path) as log:
        p = wall.spawn(cmd, cwd, env, log, ids.who(uid) if ids else None,
                       limits(args, timeout, file_bytes, procs))
    watch = wall.Watch(uid, {p.pid}, args.memory_limit << 20, args.disk_limit << 20, places)
    watch.start()
    rc, timed_out = wall.finish(p, timeout)
    watch.stop()
    wall.sweep(uid)
    return rc, timed_out, time.monotonic() - start, watch.exceeded


def tail(path, limit=OUTPUT_LIMIT):
    """The end of a log (never more than limit bytes read, no link followed)."""
    data, size = wall.read_bounded(path, limit)
    text = re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", "?",  # what XML cannot hold
                  data.decode("utf-8", errors="replace"))
    return ("[... %d bytes before this ...]\n" % (size - limit) if size > limit else "") + text


def clip(text, limit=OUTPUT_LIMIT):
    """The end of text, at most limit characters, saying what was left out."""
    if len(text) <= limit:
        return text
    return "[... %d characters before this ...]\n" % (len(text) - limit) + text[-limit:]


def signal_name(rc):
    try:
        return "%s (signal %d)" % (signal.Signals(-rc).name, -rc)
    except ValueError:
        return "signal %d" % -rc


def read_junit(path, name):
    """(status, message) for test `name` from the judge's cmocka XML, or None when it
    wrote none."""
    data, size = wall.read_bounded(path, XML_LIMIT, tail=False)
    if not data or size > XML_LIMIT:
        return None
    try:
        tree = ET.fromstring(data)
    except ET.ParseError:
        return None
    for case in tree.iter("testcase"):
        if case.get("name") != name:
            continue
        for kind in ("failure", "error", "skipped"):
            el = case.find(kind)
            if el is not None:
                message = "\n".join(t for t in (el.get("message"), el.text) if t and t.strip())
                return ("skipped" if kind == "skipped" else "failed"), message.strip()
        return "passed", ""
    return None


def run_test(args, ctx, judge, worker, name, timeout, tag):
    """One test: the judge (our tests, no student code, as the judge's uid) and the worker
    (the student's code, as a test slot's uid, with the limits) side by side, joined by two
    pipes. The judge's XML alone says pass or fail; the worker's fate explains a failure.
    On a GPU, a test that ran out of device memory beside others runs again with it alone.
    Returns a dict: status (passed, failed, skipped, crashed, timeout), why (a line or a
    few), output (the judge's and the worker's, cut), secs."""
    uid = ctx.ids.borrow()
    try:
        result = judge_and_worker(args, ctx, judge, worker, name, timeout, tag, uid)
        if args.backend == "cuda" and result["status"] != "passed" and \
                "cudaErrorMemoryAllocation" in result["output"]:
            # the device's memory went to the tests beside it: once more, the device alone
            result = judge_and_worker(args, ctx, judge, worker, name, timeout, tag + "-alone",
                                      uid, alone=True)
        return result
    finally:
        ctx.ids.give_back(uid)


def judge_and_worker(args, ctx, judge, worker, name, timeout, tag, uid, alone=False):
    run = pair(args, ctx, [judge, name], worker, timeout, tag, uid,
               lambda jdir: read_junit(os.path.join(jdir, "cmocka.xml"), name), alone)
    result = verdict(args, None if run["timed_out"] else run["found"], run["timed_out"],
                     run["exceeded"], run["wrc"], run["judged"], run["printed"], timeout,
                     run["secs"])
    if result["status"] != "passed" and uid is not None and run["tasks"] >= args.procs - 2:
        result["why"] += ("\n(its code reached the limit of %d processes and threads, which may "
                          "be why)" % args.procs)
    return result


def pair(args, ctx, judge_argv, worker, timeout, tag, uid, read_back, alone=False):
    """A judge (judge_argv, as the judge's uid, in a folder of its own) and the worker (as
    uid, with the limits) joined by two pipes, until the judge ends; on a GPU, with the
    device alone (a bench) or shared (GpuTurns). Returns a dict: found (what read_back(the
    judge's folder) gave), timed_out, exceeded, wrc and jrc (how the worker and the judge
    ended), judged and printed (their output), secs, tasks (the most processes and threads
    the worker's uid had)."""
    turn = contextlib.nullcontext() if args.backend != "cuda" else (
        GPU.exclusive() if alone else GPU.shared())
    with turn:
        return pair_now(args, ctx, judge_argv, worker, timeout, tag, uid, read_back)


def pair_now(args, ctx, judge_argv, worker, timeout, tag, uid, read_back):
    logs = os.path.join(ctx.work, tag)
    jdir, wdir = os.path.join(ctx.judge_runs, tag), os.path.join(ctx.runs, tag)
    for d in (logs, jdir, wdir):
        os.makedirs(d)
    wall.own(jdir, wall.judge_id(), wall.judge_id(), 0o700)
    wall.own(wdir, uid, ctx.ids.group, 0o700)
    from_judge, to_worker = os.pipe()  # each a pipe's read end, then its write end
    from_worker, to_judge = os.pipe()
    start = time.monotonic()
    worker_env = plain_env(wdir, {"CUDA_CPU_STRICT": "1"} if args.backend == "cpu" else {})
    judge_env = plain_env(jdir, {  # the seed: the judge's alone, printed in its output
        "CMOCKA_MESSAGE_OUTPUT": "xml", "CMOCKA_XML_FILE": os.path.join(jdir, "cmocka.xml"),
        "TESTKIT_CASES": "1", "TEST_SEED": str(secrets.randbits(63)),
        "TESTKIT_REMOTE": "%d,%d" % (from_worker, to_worker)})
    try:
        with wall.create_log(os.path.join(logs, "worker.txt")) as wlog, \
                wall.create_log(os.path.join(logs, "judge.txt")) as jlog:
            wp = wall.spawn([worker, str(from_judge), str(to_judge)], wdir, worker_env, wlog,
                            ctx.ids.who(uid), limits(args, timeout), (from_judge, to_judge))
            jwho = (wall.judge_id(), wall.judge_id()) if wall.ISOLATED else None
            jp = wall.spawn(judge_argv, jdir, judge_env, jlog, jwho, (),
                            (from_worker, to_worker))
    finally:
        for fd in (to_worker, from_judge, from_worker, to_judge):
            os.close(fd)
    watch = wall.Watch(uid, {wp.pid}, args.memory_limit << 20, args.disk_limit << 20, [wdir])
    watch.start()
    jrc, timed_out = wall.finish(jp, timeout)
    wrc, _ = wall.finish(wp, 2.0)  # it ends when the judge's end of the pipe closes
    watch.stop()
    wall.sweep(uid)
    if uid is not None:
        wall.remove_owned(uid, wall.SHARED_TMP)
    shutil.rmtree(wdir, ignore_errors=True)
    found = None if timed_out else read_back(jdir)
    shutil.rmtree(jdir, ignore_errors=True)
    return {"found": found, "timed_out": timed_out, "exceeded": watch.exceeded, "wrc": wrc,
            "jrc": jrc, "secs": time.monotonic() - start, "tasks": watch.tasks,
            "judged": tail(os.path.join(logs, "judge.txt"), 1 << 20).replace(ctx.tree + os.sep, ""),
            "printed": tail(os.path.join(logs, "worker.txt"), 1 << 20).replace(ctx.tree + os.sep, "")}


def verdict(args, found, timed_out, exceeded, wrc, judged, printed, timeout, secs):
    """A test's status from the judge's verdict (found) and the worker's end (wrc)."""
    report = sanitizer_report(printed + "\n" + judged)
    shown = judged.rstrip()
    if printed.strip():
        shown += "\n--- what the code under test printed ---\n" + (
            trim_report(printed) if report else printed).rstrip()
    output = clip(shown)
    both = judged + "\n" + printed
    if timed_out:
        status, why = "timeout", ("did not finish within its time limit of %.0f s (a hang: "
                                  "an endless loop, or threads waiting on each other?)" % timeout)
    elif exceeded:
        status, why = "crashed", "stopped: it went past the limit on " + exceeded
    elif found is None:
        status, why = "crashed", ("the judge gave no verdict (a fault of the grader's: tell the "
                                  "instructor)")
    elif found[0] == "passed":
        status, why = "passed", "passed"
    elif found[0] == "skipped":
        status, why = "skipped", ("skipped, which scores nothing: " +
                                  (skip_reason(judged) or "the test could not run here"))
    elif report:
        status, why = "crashed", "crashed: " + report
    elif wrc is not None and wrc < 0 and wrc != -signal.SIGKILL:
        status, why = "crashed", "crashed: %s" % signal_name(wrc)
    elif "stopped answering" in judged:
        status, why = "crashed", ("the code under test ended during the test (exit status %s): "
                                  "exit() or abort in it?" % wrc)
    else:
        status, why = "failed", "failed: " + failure_text(both, found[1])
    return {"status": status, "why": why, "output": output, "secs": secs}


def failure_text(output, message):
    """Why a test failed, in a few lines: the backend's reports and the test's messages
    (cmocka prints them, its XML keeps only "file:line: error: Failure!"), then where."""
    shown = [line for line in run_tests.explain("failed", output.splitlines(), 0)
             if line != "failed"]
    where = re.search(r"(\S+:\d+): error", message or "")
    if where:
        shown.append("(the test's check at %s)" % where.group(1))
    return clip("\n".join(shown) or message or "see the output", OUTPUT_LIMIT // 2)


def race_lines(output, limit=6):
    """The race checker's and the strict mode's reports in a test's output (the CPU
    backend's "cuda-cpu: race ..." lines, which name the kernel and its lines)."""
    return [line[:300] for line in output.splitlines() if line.startswith("cuda-cpu: ")][:limit]


def sanitizer_report(output):
    """An AddressSanitizer or UBSan report in a few lines (the kind, the lab's lines it went
    through, where the memory came from, the case the test was at), or ""."""
    lines = output.splitlines()
    found = run_tests.sanitizer_summary(lines)
    if not found:
        return ""
    cases = [line[len("case: "):] for line in lines if line.startswith("case: ")]
    return clip("\n".join(found + (["the test was at: " + cases[-1]] if cases else [])),
                OUTPUT_LIMIT // 2)


def trim_report(output):
    """The output without the sanitizer's dump (runtime frames, shadow bytes), which the
    report's summary replaces; the lines before it (seed, cases, messages) stay."""
    start = re.search(r"^(=+\n)?==\d+==ERROR: |^\S+:\d+:\d+: runtime error: ", output, re.M)
    return output[:start.start()].rstrip() + "\n[the sanitizer's report, in short, is above]" \
        if start else output


def skip_reason(output):
    for line in output.splitlines():
        if "skip" in line.lower() and "SKIPPED" not in line:
            return line.strip()[:300]
    return ""


def sanitized(args):
    """Whether the builds use the CPU backend's AddressSanitizer and UBSan: yes on the CPU
    backend (a memory bug fails its test with the kernel's line), unless SANITIZE=0."""
    return "SANITIZE=1" in args.make_var or (args.backend == "cpu" and
                                             "SANITIZE=0" not in args.make_var)


def racechecked(args):
    """Whether each test that passes runs again in the race checker's build (the CPU
    backend's RACECHECK=1): a race that the plain build's answer hides (a lost update on a
    total, a missing fence, blocks that overwrite each other's input) then costs the test."""
    return args.backend == "cpu" and args.racecheck


def build_dir(args, labdir, race=False, tree="labs"):
    """Where the Makefile puts a lab's binaries (common/mk/config.mk's $(B))."""
    flavour = "-tsan" if race else "-asan" if sanitized(args) else ""
    return os.path.join("build", args.backend + flavour, tree, labdir)


def judge_path(args, labdir, lab, hidden=False):
    """Where the Makefile puts a lab's judge (common/mk/lab.mk's $(JB))."""
    return os.path.join("build", "judge-" + args.backend, "labs", labdir,
                        ("judge_hidden_" if hidden else "judge_") + lab)


def bench_judge_path(args, labdir, lab):
    """Where the Makefile puts a lab's bench judge (on a GPU only)."""
    return os.path.join("build", "judge-" + args.backend, "labs", labdir, "bench_" + lab)


def make(args, tree, targets, log_path, race=False, ids=None, uid=None):
    """Builds targets of a tree through the Makefile, as uid of ids (the submission's build
    uid, for a tree with student code in it). Returns (ok, log)."""
    cmd = (["make", "--no-print-directory", "-j%d" % args.jobs, "BACKEND=" + args.backend,
            "SOLUTION=", "SANITIZE=%d" % sanitized(args)] + args.make_var +
           (["RACECHECK=1"] if race else []) + list(targets))
    rc, timed_out, _, exceeded = run_limited(
        args, cmd, tree, plain_env(tree), args.build_timeout, log_path, ids, uid,
        file_bytes=BUILD_FILE_LIMIT, procs=max(args.procs, 4 * args.jobs + 64))
    if uid is not None:
        wall.remove_owned(uid, wall.SHARED_TMP)
    log = tail(log_path, 12000).replace(tree + os.sep, "")
    if timed_out:
        return False, log + "\n(the build did not finish within %.0f s)" % args.build_timeout
    if exceeded:
        return False, log + "\n(the build went past the limit on %s)" % exceeded
    return rc == 0, log


def compiler_message(log):
    """The lines of a failed build worth reading: the diagnostics, not make's echo."""
    keep = [line for line in log.splitlines()
            if re.search(r"error|warning|note:|undefined reference|\^|^\s+\d+ \|", line, re.I)
            and not line.startswith(("nvcc ", "gcc ", "g++ ", "make", "common/cpu/cucc "))]
    text = "\n".join(keep) if keep else log
    return text[-OUTPUT_LIMIT:]


# ---------------------------------------------------------------- grading a lab

def fmt(x):
    return ("%d" % x) if float(x).is_integer() else ("%g" % x)


class Lab:
    """One lab's results: a list of test records in the order they are reported."""

    def __init__(self, num, labdir):
        self.num, self.dir, self.lab = num, labdir, "lab" + num
        self.tests = []
        self.notes = []

    def add(self, name, points, visibility, result, hidden=False, suite="tests"):
        passed = result["status"] == "passed"
        self.tests.append({"name": name, "hidden": hidden, "suite": suite,
                           "max_score": points, "score": points if passed else 0,
                           "visibility": visibility, **result})

    def score(self):
        return sum(t["score"] for t in self.tests), sum(t["max_score"] for t in self.tests)

    def passed(self):
        counted = [t for t in self.tests if t["suite"] != "perf" or t["max_score"] > 0]
        return sum(t["status"] == "passed" for t in counted), len(counted)


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
            race = os.path.join(ctx.tree, target)
        else:
            lab.notes.append("the race checker's build failed, so the tests were not checked "
                             "for races:\n" + compiler_message(log))
    return os.path.join(ctx.tree, build_dir(args, lab.dir), name), race, ""


def run_suite(args, ctx, judge, worker, names, deadline, suite):
    """Runs the tests side by side (each a judge and a worker of its own), each within the
    per-test limit and all within what is left of the lab's."""
    def one(i, name):
        left = deadline - time.monotonic()
        if STOP.is_set():
            return name, {"status": "timeout", "output": "", "secs": 0.0,
                          "why": "not run: the grading was stopped"}
        if left <= 0:
            return name, {"status": "timeout", "output": "", "secs": 0.0,
                          "why": "not run: the lab's time limit of %.0f s ran out"
                                 % args.lab_timeout}
        tag = "%s-%s-%02d-%s" % (os.path.basename(worker), suite, i, name)
        result = run_test(args, ctx, judge, worker, name, min(args.test_timeout, left), tag)
        if result["status"] == "timeout" and left < args.test_timeout:
            result["why"] = ("stopped: the lab's time limit of %.0f s ran out while it ran"
                             % args.lab_timeout)
        return name, result
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        return dict(pool.map(lambda item: one(*item), enumerate(names)))


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
        run = pair(args, ctx, [judge, "bench", "--tsv", "bench.tsv"] + bench_args, worker,
                   min(args.test_timeout * 3, max(deadline - time.monotonic(), 1)),
                   name + "-bench", uid,
                   lambda jdir: wall.read_bounded(os.path.join(jdir, "bench.tsv"), TSV_LIMIT,
                                                  tail=False)[0], alone=True)
    finally:
        ctx.ids.give_back(uid)
    if run["timed_out"] or run["jrc"] != 0 or run["exceeded"] or not run["found"]:
        why = ("timed out" if run["timed_out"] else run["exceeded"] or
               "failed (status %s)" % run["jrc"])
        return {}, "the bench %s:\n%s" % (why, clip(run["judged"] + "\n" + run["printed"], 1500))
    return read_bench(run["found"].decode("utf-8", errors="replace")), ""


def read_bench(text):
    """{variant: row} for the rows of series main (columns: common/bench.h)."""
    rows = {}
    for row in csv.DictReader(io.StringIO(text), delimiter="\t"):
        if row.get("series") == "main" and row.get("variant"):
            rows[row["variant"]] = row
    return rows


# ---------------------------------------------------------------- reports

def test_output(t):
    text = t["why"]
    if t["status"] != "passed" and t["output"].strip():
        text += "\n\n--- the test's output ---\n" + t["output"].strip()
    return text


def results_json(labs, secs, notes):
    tests, score, max_score = [], 0.0, 0.0
    for lab in labs:
        for i, t in enumerate(lab.tests, 1):
            entry = {"name": "%s %s%s" % (lab.lab, "hidden/" if t["hidden"] else "", t["name"]),
                     "number": "%d.%d" % (int(lab.num), i),
                     "score": t["score"], "max_score": t["max_score"],
                     "status": "passed" if t["status"] == "passed" else "failed",
                     "output": test_output(t), "visibility": t["visibility"]}
            if t["status"] == "skipped" and t["max_score"] == 0:
                del entry["status"]  # 0 of 0, a note (perf without a GPU): neither verdict
            tests.append(entry)
        s, m = lab.score()
        score, max_score = score + s, max_score + m
    if sum(len(t["output"]) for t in tests) > TOTAL_OUTPUT_LIMIT:  # a bound on the JSON
        for t in tests:
            t["output"] = clip(t["output"], TOTAL_OUTPUT_LIMIT // len(tests))
    return {"score": score, "max_score": max_score, "execution_time": round(secs),
            "output": clip(summary(labs, notes, hidden=False), 4 * OUTPUT_LIMIT),
            "visibility": "visible",
            "stdout_visibility": "hidden", "tests": tests}


def points_of(tests):
    return "%s/%s" % (fmt(sum(t["score"] for t in tests)), fmt(sum(t["max_score"] for t in tests)))


def summary(labs, notes, hidden=True):
    """The table (lab, passed/total, points) and what went wrong per lab. With hidden=False
    (what a student sees) hidden tests are left out of the counts."""
    lines = ["%-26s %9s %15s" % ("lab", "passed", "points")]
    for lab in labs:
        shown = [t for t in lab.tests if hidden or not t["hidden"]]
        counted = [t for t in shown if t["suite"] != "perf" or t["max_score"] > 0]
        lines.append("%-26s %9s %15s" % (
            lab.dir, "%d/%d" % (sum(t["status"] == "passed" for t in counted), len(counted)),
            points_of(shown)))
    total = [t for lab in labs for t in lab.tests if hidden or not t["hidden"]]
    lines.append("%-26s %9s %15s" % ("total", "", points_of(total)))
    if len(total) < sum(len(lab.tests) for lab in labs):
        lines.append("(the tests shown here; the score counts tests shown later too)")
    for lab in labs:
        for note in lab.notes:
            lines.append("\n%s: %s" % (lab.lab, note))
    lines += ["\n" + n for n in notes]
    return "\n".join(lines)


def junit(lab, path):
    """The lab's tests as one JUnit XML suite (cmocka's verdicts plus ours: crashes, hangs,
    builds that failed)."""
    suite = ET.Element("testsuite", name=lab.lab, tests=str(len(lab.tests)),
                       failures=str(sum(t["status"] == "failed" for t in lab.tests)),
                       errors=str(sum(t["status"] in ("crashed", "timeout") for t in lab.tests)),
                       skipped=str(sum(t["status"] == "skipped" for t in lab.tests)),
                       time="%.3f" % sum(t["secs"] for t in lab.tests))
    for t in lab.tests:
        case = ET.SubElement(suite, "testcase", name=t["name"], classname="%s.%s" % (
            lab.lab, t["suite"]), time="%.3f" % t["secs"])
        if t["status"] in ("failed", "crashed", "timeout"):
            el = ET.SubElement(case, "failure" if t["status"] == "failed" else "error",
                               message=t["why"].splitlines()[0][:200] if t["why"] else t["status"],
                               type=t["status"])
            el.text = t["why"]
        elif t["status"] == "skipped":
            ET.SubElement(case, "skipped", message=t["why"][:200])
        if t["output"]:
            ET.SubElement(case, "system-out").text = t["output"]
    root = ET.Element("testsuites")
    root.append(suite)
    if hasattr(ET, "indent"):  # Python 3.9 on
        ET.indent(root)
    ET.ElementTree(root).write(path, encoding="UTF-8", xml_declaration=True)


def classroom_payload(results):
    """What GitHub Classroom's autograding-grading-reporter reads from a runner step's
    `result` output: base64 of {version, status, max_score, tests[name, status, score,
    message]}; it adds up the tests' scores. Hidden tests never reach a student's checkout."""
    tests = [{"name": t["name"], "status": "pass" if t.get("status") == "passed" else "fail",
              "score": t["score"], "max_score": t["max_score"], "message": t["output"][:1000],
              "test_code": "", "filename": "", "line_no": 0, "duration": 0}
             for t in results["tests"] if "status" in t]  # 0-of-0 notes: no pass, no fail
    payload = {"version": 1, "max_score": results["max_score"], "tests": tests,
               "status": "pass" if 0 < results["max_score"] <= results["score"] else "fail"}
    return base64.b64encode(json.dumps(payload).encode()).decode()


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
    ap.add_argument("--keep", action="store_true",
                    help="keep the scratch trees (their paths are printed)")
    ap.add_argument("--classroom", metavar="RESULTS_JSON",
                    help="print GitHub Classroom's reporter payload for a results.json, and stop")
    args = ap.parse_args(argv)
    args.root = os.path.abspath(args.root)
    args.labs = [re.sub(r"^lab", "", x) for arg in args.lab for x in arg.replace(",", " ").split()]
    return args


def read_submission(path):
    """(bytes, "") of a submitted file, or (None, why not): a symbolic link is not
    followed, and only a regular file of at most SUBMISSION_FILE_LIMIT bytes is taken."""
    if os.path.islink(path):
        return None, "is a symbolic link, which the grader does not follow"
    data, size = wall.read_bounded(path, SUBMISSION_FILE_LIMIT + 1, tail=False)
    if size == 0 and not os.path.isfile(path):
        return None, "is not a regular file"
    if size > SUBMISSION_FILE_LIMIT:
        return None, "is larger than %d KiB" % (SUBMISSION_FILE_LIMIT >> 10)
    return data, ""


def overlay(args, student, tree, labs):
    """Puts the graded exercise files into the scratch tree. Returns {num: note}; a note
    starting 'not submitted' means the lab has nothing to grade."""
    notes = {}
    if not student and not args.solution:
        return notes  # the tree grades itself: its labs/ were copied as they are
    source = (os.path.join(args.root, "solutions") if args.solution
              else os.path.abspath(student))
    for num, labdir in labs.items():
        names = exercise_names(args.root, labdir)
        if names is None:
            notes[num] = ("not submitted: this tree has neither solutions/ nor "
                          "common/grade/exercises.txt to say which files a student writes")
            continue
        taken, problems = {}, []
        for name in names:
            path = find_in_submission(source, labdir, name)
            data, why = read_submission(path) if path else (None, "")
            if why:
                problems.append("%s %s" % (os.path.relpath(path, source), why))
            if data is not None:
                taken[name] = data
        if not taken:
            notes[num] = "not submitted: no %s in the submission%s" % (
                " or ".join(names), "".join("; " + p for p in problems))
            continue
        for name, data in taken.items():
            with open(os.path.join(tree, "labs", labdir, name), "wb") as f:
                f.write(data)  # a fresh mtime: make rebuilds it
        missing = [n for n in names if n not in taken]
        if missing or problems:
            notes[num] = "; ".join(problems + (["%s not in the submission: the skeleton was "
                                                "graded" % ", ".join(missing)] if missing else []))
    return notes


def chosen_labs(args, notes):
    labs = find_labs(args.root)
    unknown = [n for n in args.labs if n not in labs]
    if unknown:
        notes.append("no lab with tests numbered %s (labs: %s)" % (
            ", ".join(unknown), " ".join(labs)))
    return {n: d for n, d in labs.items() if not args.labs or n in args.labs}


def prepare_judges(args, labs, where):
    """Builds every chosen lab's judges (the tests without any student code) in a private
    copy of our tree under where, from our files alone, then hands them to the judge uid.
    Returns (the judges' tree, a problem or "")."""
    tree = judge_tree(args.root, where)
    targets = [judge_path(args, d, "lab" + n, hidden)
               for n, d in labs.items() for hidden in (False, True)
               if test_sources(tree, "lab" + n, hidden)]
    if args.backend == "cuda" and args.perf:
        targets += [bench_judge_path(args, d, "lab" + n) for n, d in labs.items()]
    ok, log = make(args, tree, targets, os.path.join(where, "build-judges.txt"))
    wall.own_tree(where, wall.judge_id(), wall.judge_id())
    wall.own(where, wall.judge_id(), wall.judge_id(), 0o700)
    return tree, "" if ok else ("the judges did not build, a fault of the grader's: tell "
                                "the instructor:\n" + compiler_message(log))


def isolation_note():
    if wall.ISOLATED:
        return ""
    return ("not graded as root, so without the grader's wall: the student's code ran as the "
            "grader's own user, and could read what the grader reads; grade as root (as the "
            "Gradescope autograder does) for the guarantees that README.md gives")


def grade_one(args, student, out, shared=None, say=None):
    """Grades one submission into out/. shared: (judges' tree, problem, a scratch tree
    already built) from grade_class, whose tree is copied with its mtimes so that make
    rebuilds only the student's files. say: where its lines go (default: printed as they
    come). Returns (results, stopped)."""
    say = say or (lambda line: print(line, flush=True))
    start = time.monotonic()
    os.makedirs(out, exist_ok=True)
    labs_done, notes, stopped = [], [], False
    scratch = tempfile.mkdtemp(prefix="grade-", dir=wall.scratch_base())
    judges_dir = None if shared else tempfile.mkdtemp(prefix="grade-judges-",
                                                      dir=wall.scratch_base())
    ids = wall.Ids(args.jobs)
    try:
        labs = chosen_labs(args, notes)
        what = "solutions/" if args.solution else student or "this checkout"
        say("grading %s: %s, backend %s, %.0f s per test, %.0f s per lab" % (
            what, " ".join("lab" + n for n in labs), args.backend, args.test_timeout,
            args.lab_timeout))
        if isolation_note():
            notes.append(isolation_note())
        judges, problem, base = shared or prepare_judges(args, labs, judges_dir) + (None,)
        if problem:
            raise GraderFault(problem)
        wall.own(scratch, None, ids.group, 0o750)
        if base:
            tree = os.path.join(scratch, "tree")
            shutil.copytree(base, tree, symlinks=True)
        else:
            tree = student_tree(args.root, scratch)
        submission = overlay(args, student, tree, labs)
        wall.own_tree(tree, ids.build, ids.group)
        ctx = Context(scratch, tree, judges, ids)
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
    except GraderFault as e:
        notes.append(str(e))
    except Exception:  # the grader's own fault: still a results.json, saying so
        notes.append("the grader failed, so this grade is incomplete; tell the instructor:\n" +
                     traceback.format_exc())
    finally:
        results = results_json(labs_done, time.monotonic() - start, notes)
        with open(os.path.join(out, "results.json"), "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
        for uid in [ids.build] + ids.slots:
            wall.sweep(uid)
        if args.keep:
            say("scratch trees kept: " + " ".join(d for d in (scratch, judges_dir) if d))
        else:
            for d in (scratch, judges_dir):
                if d:
                    shutil.rmtree(d, ignore_errors=True)
    say("\n" + summary(labs_done, notes))
    say("\n%s/results.json written (%s of %s points)\n" % (
        out.rstrip("/"), fmt(results["score"]), fmt(results["max_score"])))
    results["graded"] = bool(labs_done) or not notes
    return results, stopped


class GraderFault(Exception):
    pass


def grade_class(args):
    """Every folder of --class is a submission: OUT/NAME/ gets its results.json and
    JUnit XML, OUT/class.csv a row per student (points per lab, hidden tests included).
    What the labs share (the judges, the CPU backend, common code) is built once; then
    --class-jobs submissions are graded side by side, each in its own scratch tree with
    uids of its own, the cores shared out between them. Each one's report is printed whole,
    in name order."""
    students = sorted(d for d in os.listdir(args.class_dir)
                      if os.path.isdir(os.path.join(args.class_dir, d)) and d[0] != ".")
    labs = chosen_labs(args, [])
    base_dir = tempfile.mkdtemp(prefix="grade-base-", dir=wall.scratch_base())
    judges_dir = tempfile.mkdtemp(prefix="grade-judges-", dir=wall.scratch_base())
    rows = []
    jobs = args.class_jobs or (1 if args.backend == "cuda" else os.cpu_count() or 1)
    workers = max(1, min(jobs, len(students)))
    try:
        print("class of %d: building what the labs share" % len(students), flush=True)
        judges, problem = prepare_judges(args, labs, judges_dir)
        base = student_tree(args.root, base_dir)
        targets = []
        for num, labdir in labs.items():  # the skeletons' workers: fine if they do not link
            targets.append(os.path.join(build_dir(args, labdir), "worker_lab" + num))
        make(args, base, targets, os.path.join(base_dir, "build.txt"))
        if racechecked(args):
            make(args, base, [t.replace(build_dir(args, ""), build_dir(args, "", race=True))
                              for t in targets], os.path.join(base_dir, "build-race.txt"),
                 race=True)
        args.jobs = max(1, args.jobs // workers)
        print("grading %d at a time, %d jobs each" % (workers, args.jobs), flush=True)

        def one(name):
            lines = []
            results, stopped = grade_one(args, os.path.join(args.class_dir, name),
                                         os.path.join(args.out, name), (judges, problem, base),
                                         lines.append)
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
        for d in (base_dir, judges_dir):
            shutil.rmtree(d, ignore_errors=True)
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "class.csv"), "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["student"] + ["lab" + n for n in labs] + ["score", "max_score"])
            w.writerows(rows)
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
    if wall.ISOLATED:
        closed = lock_secrets(args.root)
        if closed:
            print("made %s private (mode 700): the student's code must not read them"
                  % ", ".join(closed), flush=True)
    if args.class_dir:
        return grade_class(args)
    results, _ = grade_one(args, args.student, args.out)
    return 0 if results.pop("graded") else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
