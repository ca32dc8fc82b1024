#!/usr/bin/env python3
"""Grade lab submissions against the course's tests: `make grade` runs this.

For each lab it builds the student's exercise files with our tests, headers and common code
(in a scratch copy of this tree, so a submission cannot change what it is graded by), runs
every test in a process of its own under a time limit (a crash or a hang costs only the
tests it touches), reads cmocka's JUnit XML, and scores each test from the lab's points
file; the list of tests comes from the test sources, so a lab's maximum is the same
whether or not the student's code builds. On the CPU backend the build has AddressSanitizer
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
import csv
import fnmatch
import glob
import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import run_tests  # noqa: E402  (common/run_tests.py: how `make labNN test` explains a failure)

VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
UNITS = ("%peak", "%copy", "GB/s")
OUTPUT_LIMIT = 4000           # characters of a test's output kept in the report
FILE_LIMIT = 64 << 20         # a test may write files up to this size (its log, its XML)
COPY_IGNORE = {".git", "solutions", "grade", "dist", "build"}
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
    labs/*/ or common/), and for TESTKIT_EACH(f) one named f.VARIANT per variant; entries
    under #ifdef BACKEND_CUDA (or BACKEND_CPU) count on that backend only. given_only: those
    that may pass in a skeleton (HOST and GIVEN), as `--list-given` prints them."""
    names = []
    kinds = "HOST|GIVEN" if given_only else "HOST|GIVEN|TEST|VARIANTS|EACH"
    for p in paths:
        with open(p, encoding="utf-8", errors="replace") as f:
            text = backend_lines(f.read(), backend)
        for kind, name in re.findall(r"TESTKIT_(%s)\(\s*(\w+)\s*\)" % kinds, text):
            if kind == "VARIANTS":
                found = variant_names(p, text)
            elif kind == "EACH":
                found = ["%s.%s" % (name, v) for v in variant_names(p, text)]
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


def variant_names(test_path, text):
    """The names of the variant table in the headers that a test file includes."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(test_path)))
    if os.path.basename(root) == "tests":  # tests/hidden/
        root = os.path.dirname(root)
    names = []
    for header in re.findall(r'#include\s+"([\w.]+\.h)"', text):
        for path in glob.glob(os.path.join(root, "labs", "*", header)):
            with open(path, encoding="utf-8", errors="replace") as f:
                names += re.findall(r'\bX\(\s*\w+\s*,\s*"(\w+)"', f.read())
    return names


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
    file of that name anywhere in it (students upload trees of all shapes)."""
    for rel in (("labs", labdir, name), (labdir, name), (name,)):
        p = os.path.join(student, *rel)
        if os.path.isfile(p):
            return p
    found = []
    for dirpath, dirnames, filenames in os.walk(student):
        dirnames[:] = [d for d in dirnames if d not in (".git", "build")]
        if name in filenames:
            found.append(os.path.join(dirpath, name))
    return found[0] if len(found) == 1 else None


def scratch_tree(root, where):
    """A copy of our tree to build in, without solutions, grade outputs or build/ (objects
    built by another compiler or from other sources must not slip into a grade), but with
    the CPU backend's runtimes (RUNTIME_BUILDS)."""
    def ignore(d, names):
        rel = os.path.relpath(d, root)
        if rel == ".":
            return COPY_IGNORE & set(names)
        if rel == os.path.join("tests", "hidden"):  # points are read from root
            return {n for n in names if n.endswith(".txt")}
        return {"grader"} & set(names) if rel == "tests" else set()
    tree = os.path.join(where, "tree")
    shutil.copytree(root, tree, ignore=ignore, symlinks=True)
    for name in RUNTIME_BUILDS:  # ours, from common/cpu/ alone: make rebuilds them if stale
        src = os.path.join(root, "build", "cpu", name)
        dst = os.path.join(tree, "build", "cpu", name)
        if os.path.isdir(src):
            shutil.copytree(src, dst, symlinks=True)
        elif os.path.isfile(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
    os.chmod(tree, 0o755)  # whatever root's mode: the --run-as user works in here
    return tree


def clean_env(extra=None):
    """The environment of builds and tests: a parent make's flags stay out (its SOLUTION=1
    or -j must not leak into the scratch build)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")
           and not k.startswith("CMOCKA_")}
    env.update(extra or {})
    return env


# ---------------------------------------------------------------- running things

RUN_AS = None  # (uid, gid) that the student's code runs as (--run-as), else None
STOP = threading.Event()  # set by SIGTERM: start no more tests, write what there is


class Stopped(Exception):
    pass


def stop(signum, frame):
    STOP.set()
    raise Stopped()


def writable(path):
    """A folder that the student's code (under --run-as) writes into."""
    os.makedirs(path, exist_ok=True)
    if RUN_AS:
        os.chown(path, *RUN_AS)
    return path


def run_limited(cmd, cwd, env, timeout, log_path, untrusted=True):
    """Runs cmd with stdout and stderr into log_path. Returns (returncode, timed_out, secs).
    In a session of its own, so that a timeout kills every process it started. The
    student's code (untrusted) gets a cap on the size of the files it writes, past which
    writes fail rather than kill (SIGXFSZ ignored) so the test still reports; with
    --run-as it runs as that user, who can touch neither the grader nor its results."""
    start = time.monotonic()
    options = {"start_new_session": True}
    if untrusted:
        cmd = ["/bin/sh", "-c", 'ulimit -f %d; trap "" XFSZ; exec "$@"' % (FILE_LIMIT // 512),
               "sh"] + cmd
        if RUN_AS:
            options.update(user=RUN_AS[0], group=RUN_AS[1], extra_groups=[])
    with open(log_path, "wb") as log:
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log,
                             stderr=subprocess.STDOUT, **options)
        timed_out = False
        try:
            p.wait(timeout=max(timeout, 0.1))
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            try:
                os.killpg(p.pid, signal.SIGKILL)  # its session, stragglers included
            except ProcessLookupError:
                pass
            p.wait()
    return p.returncode, timed_out, time.monotonic() - start


def tail(path, limit=OUTPUT_LIMIT):
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - limit))
            text = f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    text = re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", "?", text)  # what XML cannot hold
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
    """(status, message) for test `name` from cmocka's XML, or None when it wrote none."""
    try:
        tree = ET.parse(path)
    except (OSError, ET.ParseError):
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


def run_test(binary, name, tree, timeout, workdir, backend="cpu"):
    """One test in a process of its own. Returns a dict: status (passed, failed, skipped,
    crashed, timeout), why (one line), output (the process's own output), secs. On the CPU
    backend in strict mode: a barrier or a mask that leaves out threads is an error."""
    writable(workdir)
    xml_path = os.path.join(workdir, "cmocka.xml")  # fresh: cmocka will not overwrite one
    log_path = os.path.join(workdir, "output.txt")
    env = clean_env({"CMOCKA_MESSAGE_OUTPUT": "xml", "CMOCKA_XML_FILE": xml_path,
                     "TESTKIT_CASES": "1"})
    if backend == "cpu":
        env["CUDA_CPU_STRICT"] = "1"
    rc, timed_out, secs = run_limited([binary, name], tree, env, timeout, log_path)
    output = tail(log_path, 1 << 20).replace(tree + os.sep, "")
    found = None if timed_out else read_junit(xml_path, name)
    report = sanitizer_report(output)
    if report:  # what the sanitizer says, the kernel's line first, instead of its dump
        output = trim_report(output)
    output = clip(output)
    if timed_out:
        status, why = "timeout", ("did not finish within its time limit of %.0f s (a hang: "
                                  "an endless loop, or threads waiting on each other?)" % timeout)
    elif report and (found is None or found[0] != "passed"):
        status, why = "crashed", "crashed: " + report
    elif rc < 0:
        status, why = "crashed", "crashed: %s" % signal_name(rc)
    elif found is None:
        status, why = "crashed", ("the test process ended (exit status %d) before cmocka "
                                  "reported a result: exit() or abort in the code under test?" % rc)
    elif found[0] == "skipped":
        status, why = "skipped", ("skipped, which scores nothing: " +
                                  (skip_reason(output) or "the test could not run here"))
    elif found[0] == "failed" and "failed with exception" in found[1]:
        status, why = "crashed", "crashed: " + found[1]  # a signal that cmocka caught
    elif found[0] == "failed":
        status, why = "failed", "failed: " + failure_text(output, found[1])
    elif rc != 0:
        status, why = "crashed", "passed, but its process then exited with status %d" % rc
    else:
        status, why = "passed", "passed"
    return {"status": status, "why": why, "output": output, "secs": secs}


def failure_text(output, message):
    """Why a test failed, in a few lines: the backend's reports and the test's messages
    (cmocka prints them, its XML keeps only "file:line: error: Failure!"), then where."""
    shown = [line for line in run_tests.explain("failed", output.splitlines(), 0)
             if line != "failed"]
    where = re.search(r"(\S+:\d+): error", message or "")
    if where:
        shown.append("(the test's check at %s)" % where.group(1))
    return "\n".join(shown) or message or "see the output"


def race_lines(output, limit=6):
    """The race checker's and the strict mode's reports in a test's output (the CPU
    backend's "cuda-cpu: race ..." lines, which name the kernel and its lines)."""
    return [line for line in output.splitlines() if line.startswith("cuda-cpu: ")][:limit]


def sanitizer_report(output):
    """An AddressSanitizer or UBSan report in a few lines (the kind, the lab's lines it went
    through, where the memory came from, the case the test was at), or ""."""
    lines = output.splitlines()
    found = run_tests.sanitizer_summary(lines)
    if not found:
        return ""
    cases = [line[len("case: "):] for line in lines if line.startswith("case: ")]
    return "\n".join(found + (["the test was at: " + cases[-1]] if cases else []))


def trim_report(output):
    """The output without the sanitizer's dump (runtime frames, shadow bytes), which the
    report's summary replaces; the lines before it (seed, cases, messages) stay."""
    start = re.search(r"^(=+\n)?==\d+==ERROR: |^\S+:\d+:\d+: runtime error: ", output, re.M)
    return output[:start.start()].rstrip() + "\n[the sanitizer's report, in short, is above]" \
        if start else output


def skip_reason(output):
    for line in output.splitlines():
        if "skip" in line.lower() and "SKIPPED" not in line:
            return line.strip()
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


def build_dir(args, labdir, race=False):
    """Where the Makefile puts a lab's binaries (common/mk/config.mk's $(B))."""
    flavour = "-tsan" if race else "-asan" if sanitized(args) else ""
    return os.path.join("build", args.backend + flavour, "labs", labdir)


def make(args, tree, target, workdir, race=False):
    """Builds one target of the scratch tree through the Makefile. Returns (ok, log)."""
    log_path = os.path.join(workdir, "build-%s%s.txt" % (os.path.basename(target),
                                                         "-race" if race else ""))
    cmd = (["make", "--no-print-directory", "-j%d" % args.jobs, "BACKEND=" + args.backend,
            "SOLUTION=", "SANITIZE=%d" % sanitized(args)] + args.make_var +
           (["RACECHECK=1"] if race else []) + [target])
    timeout = args.build_timeout
    rc, timed_out, _ = run_limited(cmd, tree, clean_env(), timeout, log_path, untrusted=False)
    log = tail(log_path, 12000).replace(tree + os.sep, "")
    if timed_out:
        return False, log + "\n(the build did not finish within %.0f s)" % timeout
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


def grade_lab(args, tree, num, labdir, submission_note, workdir):
    lab = Lab(num, labdir)
    if submission_note:
        lab.notes.append(submission_note)
    points = read_points(os.path.join(args.root, "tests", "points", lab.lab + ".txt"))
    hidden_points = read_points(os.path.join(args.root, "tests", "hidden", lab.lab + ".txt"))
    lab.notes += points["warnings"] + hidden_points["warnings"]
    budget = args.lab_timeout  # for the lab's tests; builds have their own limit
    b = build_dir(args, labdir)
    suites = [("tests", os.path.join(b, "test_" + lab.lab), test_sources(tree, lab.lab),
               points["tests"], "visible")]
    hidden_sources = test_sources(tree, lab.lab, hidden=True) if args.hidden else []
    if hidden_sources:
        suites.append(("hidden", os.path.join(b, "hidden_" + lab.lab), hidden_sources,
                       hidden_points["tests"], "hidden"))
    broken = submission_note if submission_note and submission_note.startswith(
        "not submitted") else ""
    for suite, binary, sources, table, default_vis in suites:
        names = names_in_sources(sources, args.backend)  # not --list: the same whatever builds
        race_binary = os.path.join(build_dir(args, labdir, race=True), os.path.basename(binary))
        race_ok = False
        if broken:  # nothing to build, or the student's code already failed to
            ok, why = False, broken
        else:
            ok, log = make(args, tree, binary, workdir)
            why = "" if ok else ("did not compile (or link), so it scores 0:\n" +
                                 compiler_message(log))
            if ok and racechecked(args):
                race_ok, log = make(args, tree, race_binary, workdir, race=True)
                if not race_ok:
                    lab.notes.append("the race checker's build failed, so %s were not checked "
                                     "for races:\n%s" % (suite, compiler_message(log)))
            if suite == "hidden":  # built: its source need not wait where the student's code runs
                for source in sources:
                    os.remove(source)
        if not ok and not broken:
            lab.notes.append(why)
            broken = why
        unknown = sorted(p for p in table if not any(fnmatch.fnmatchcase(n, p) for n in names))
        if unknown:
            lab.notes.append("points for tests that do not exist (typo?): " + ", ".join(unknown))
        chosen = [n for n in names if not args.tests or n in args.tests]
        results = {}
        if ok:
            start = time.monotonic()
            results = run_suite(args, tree, os.path.join(tree, binary), chosen,
                                start + budget, os.path.join(workdir, suite))
            budget -= time.monotonic() - start
        if race_ok:  # a pass must hold there too; a wrong answer may find its cause there
            start = time.monotonic()
            again = [n for n in chosen if results.get(n, {}).get("status") in ("passed", "failed")]
            raced = run_suite(args, tree, os.path.join(tree, race_binary), again,
                              start + budget, os.path.join(workdir, suite + "-race"))
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
    grade_perf(args, tree, lab, points, b, time.monotonic() + max(budget, 0), workdir)
    return lab


def run_suite(args, tree, binary, names, deadline, workdir):
    """Runs the tests side by side (each in its own process), each within the per-test
    limit and all within what is left of the lab's."""
    def one(i, name):
        left = deadline - time.monotonic()
        if STOP.is_set():
            return name, {"status": "timeout", "output": "", "secs": 0.0,
                          "why": "not run: the grading was stopped"}
        if left <= 0:
            return name, {"status": "timeout", "output": "", "secs": 0.0,
                          "why": "not run: the lab's time limit of %.0f s ran out"
                                 % args.lab_timeout}
        result = run_test(binary, name, tree, min(args.test_timeout, left),
                          os.path.join(workdir, "%02d-%s" % (i, name)), args.backend)
        if result["status"] == "timeout" and left < args.test_timeout:
            result["why"] = ("stopped: the lab's time limit of %.0f s ran out while it ran"
                             % args.lab_timeout)
        return name, result
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        return dict(pool.map(lambda item: one(*item), enumerate(names)))


def grade_perf(args, tree, lab, points, b, deadline, workdir):
    """Performance points: on a GPU, the lab's bench at a moderate size, each threshold
    against the variant's row; without one, a 0-of-0 line that says so."""
    if not points["perf"] or not args.perf or (args.tests and "perf" not in args.tests):
        return
    rows, problem = {}, ""
    if args.backend != "cuda":
        problem = ("not graded here: performance needs a GPU (BACKEND=cuda); the CPU backend "
                   "checks correctness only, so this counts 0 of 0")
    else:
        ok, log = make(args, tree, os.path.join(b, lab.lab), workdir)
        if ok:
            rows, problem = run_bench(args, tree, os.path.join(tree, b, lab.lab),
                                      points["bench"] or ["--n", "16777216", "--reps", "10"],
                                      deadline, workdir)
        else:
            problem = "did not compile:\n" + compiler_message(log)
    for p in points["perf"]:
        title = "%s >= %s %s" % (p["variant"], fmt(p["threshold"]), p["unit"])
        name = "perf " + title
        if args.backend != "cuda":
            lab.add(name, 0.0, "visible", {"status": "skipped", "why": title + ": " + problem,
                                           "output": "", "secs": 0.0}, suite="perf")
            continue
        needed = [t for t in lab.tests if t["name"] == p["variant"]]
        row = rows.get(p["variant"])
        if problem or row is None:
            status, why = "failed", "%s: %s" % (title, problem or "no bench row for it")
        elif needed and needed[0]["status"] != "passed":
            status = "failed"
            why = "%s: its correctness test fails, so speed scores nothing" % title
        else:
            value = perf_value(row, p["unit"])
            status = "passed" if value >= p["threshold"] else "failed"
            why = "%s: measured %.1f %s on %s" % (title, value, p["unit"], row.get("device", "?"))
        lab.add(name, p["points"], p["visibility"],
                {"status": status, "why": why, "output": "", "secs": 0.0}, suite="perf")


def perf_value(row, unit):
    gbs = float(row["gbs"])
    if unit == "GB/s":
        return gbs
    if unit == "%peak":
        return float(row["pct_peak"])
    copy = float(row["copy_gbs"])
    return 100.0 * gbs / copy if copy > 0 else 0.0


def run_bench(args, tree, binary, bench_args, deadline, workdir):
    tsv = os.path.join(writable(os.path.join(workdir, "bench")), "bench.tsv")
    log = os.path.join(workdir, "bench.txt")
    rc, timed_out, _ = run_limited([binary, "bench", "--tsv", tsv] + bench_args, tree,
                                   clean_env(), min(args.test_timeout * 3,
                                                    max(deadline - time.monotonic(), 1)), log)
    if timed_out or rc != 0:
        return {}, "the bench %s:\n%s" % ("timed out" if timed_out else "failed (status %d)" % rc,
                                           tail(log, 1500))
    return read_bench(tsv), ""


def read_bench(path):
    """{variant: row} for the rows of series main (columns: common/bench.h)."""
    rows = {}
    with open(path, encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row.get("series") == "main":
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
    return {"score": score, "max_score": max_score, "execution_time": round(secs),
            "output": summary(labs, notes, hidden=False), "visibility": "visible",
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
    ap.add_argument("--tests", nargs="+", help="grade only these tests (names; 'perf')")
    ap.add_argument("--backend", default="cpu", choices=("cpu", "cuda"))
    ap.add_argument("--out", default="grade", help="where results.json and labNN.xml go")
    ap.add_argument("--test-timeout", type=float, default=120.0, help="seconds per test")
    ap.add_argument("--lab-timeout", type=float, default=1200.0,
                    help="seconds per lab, its tests together (builds not counted)")
    ap.add_argument("--build-timeout", type=float, default=600.0, help="seconds per build")
    ap.add_argument("--make-var", action="append", default=[], metavar="VAR=VALUE",
                    help="for the builds, e.g. ARCH=native; repeatable")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="tests run side by side (and make's -j)")
    ap.add_argument("--class-jobs", type=int, default=os.cpu_count() or 1,
                    help="with --class: submissions graded side by side")
    ap.add_argument("--no-hidden", dest="hidden", action="store_false",
                    help="leave out tests/hidden/")
    ap.add_argument("--no-racecheck", dest="racecheck", action="store_false",
                    help="on the CPU backend, skip the second run of the passing tests under "
                    "the race checker")
    ap.add_argument("--no-perf", dest="perf", action="store_false",
                    help="leave out the perf lines (a correctness-only grade on a GPU)")
    ap.add_argument("--run-as", metavar="USER",
                    help="run the tests (the student's code) as this user (the grader is root)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the scratch tree (its path is printed)")
    ap.add_argument("--classroom", metavar="RESULTS_JSON",
                    help="print GitHub Classroom's reporter payload for a results.json, and stop")
    args = ap.parse_args(argv)
    args.root = os.path.abspath(args.root)
    args.labs = [re.sub(r"^lab", "", x) for arg in args.lab for x in arg.replace(",", " ").split()]
    return args


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
        found = {n: find_in_submission(source, labdir, n) for n in names}
        missing = [n for n, p in found.items() if p is None]
        if len(missing) == len(names):
            notes[num] = "not submitted: no %s in the submission" % " or ".join(names)
            continue
        for name, path in found.items():
            if path:
                dst = os.path.join(tree, "labs", labdir, name)
                shutil.copyfile(path, dst)  # a fresh mtime: make rebuilds it
        if missing:
            notes[num] = "%s not in the submission: the skeleton was graded" % ", ".join(missing)
    return notes


def chosen_labs(args, notes):
    labs = find_labs(args.root)
    unknown = [n for n in args.labs if n not in labs]
    if unknown:
        notes.append("no lab with tests numbered %s (labs: %s)" % (
            ", ".join(unknown), " ".join(labs)))
    return {n: d for n, d in labs.items() if not args.labs or n in args.labs}


def grade_one(args, student, out, base=None, say=None):
    """Grades one submission into out/. base: a scratch tree already built (class
    grading), copied with its mtimes so that make rebuilds only the student's files. say:
    where its lines go (default: printed as they come). Returns (results, stopped)."""
    say = say or (lambda line: print(line, flush=True))
    start = time.monotonic()
    os.makedirs(out, exist_ok=True)
    labs_done, notes, stopped = [], [], False
    scratch = tempfile.mkdtemp(prefix="grade-")
    if RUN_AS:
        os.chmod(scratch, 0o755)  # mkdtemp's 0700 would keep that user out
    try:
        labs = chosen_labs(args, notes)
        what = "solutions/" if args.solution else student or "this checkout"
        say("grading %s: %s, backend %s, %.0f s per test, %.0f s per lab" % (
            what, " ".join("lab" + n for n in labs), args.backend, args.test_timeout,
            args.lab_timeout))
        if base:
            tree = os.path.join(scratch, "tree")
            shutil.copytree(base, tree, symlinks=True)
        else:
            tree = scratch_tree(args.root, scratch)
        submission = overlay(args, student, tree, labs)
        for num, labdir in labs.items():
            work = os.path.join(scratch, "work", "lab" + num)
            os.makedirs(work, exist_ok=True)
            lab = grade_lab(args, tree, num, labdir, submission.get(num), work)
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
        with open(os.path.join(out, "results.json"), "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
        if args.keep:
            say("scratch tree kept: " + scratch)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    say("\n" + summary(labs_done, notes))
    say("\n%s/results.json written (%s of %s points)\n" % (
        out.rstrip("/"), fmt(results["score"]), fmt(results["max_score"])))
    results["graded"] = bool(labs_done) or not notes
    return results, stopped


def grade_class(args):
    """Every folder of --class is a submission: OUT/NAME/ gets its results.json and
    JUnit XML, OUT/class.csv a row per student (points per lab, hidden tests included).
    What the labs share (the CPU backend, common code, tests) is built once; then
    --class-jobs submissions are graded side by side, each in its own scratch tree, the
    cores shared out between them. Each one's report is printed whole, in name order."""
    students = sorted(d for d in os.listdir(args.class_dir)
                      if os.path.isdir(os.path.join(args.class_dir, d)) and d[0] != ".")
    labs = chosen_labs(args, [])
    base_dir = tempfile.mkdtemp(prefix="grade-base-")
    rows = []
    workers = max(1, min(args.class_jobs, len(students)))
    try:
        base = scratch_tree(args.root, base_dir)
        print("class of %d: building what the labs share" % len(students), flush=True)
        for num, labdir in labs.items():
            b = build_dir(args, labdir)
            for binary in ("test_lab" + num, "hidden_lab" + num):  # skeletons: fine if not
                make(args, base, os.path.join(b, binary), base_dir)
                if racechecked(args):
                    make(args, base, os.path.join(build_dir(args, labdir, race=True), binary),
                         base_dir, race=True)
        args.jobs = max(1, args.jobs // workers)
        print("grading %d at a time, %d jobs each" % (workers, args.jobs), flush=True)

        def one(name):
            lines = []
            results, stopped = grade_one(args, os.path.join(args.class_dir, name),
                                         os.path.join(args.out, name), base, lines.append)
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
        shutil.rmtree(base_dir, ignore_errors=True)
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
    global RUN_AS
    args = parse_args(argv)
    if args.classroom:
        with open(args.classroom, encoding="utf-8") as f:
            print(classroom_payload(json.load(f)))
        return 0
    if args.run_as:
        user = pwd.getpwnam(args.run_as)
        RUN_AS = (user.pw_uid, user.pw_gid)
    signal.signal(signal.SIGTERM, stop)
    if args.class_dir:
        return grade_class(args)
    results, _ = grade_one(args, args.student, args.out)
    return 0 if results.pop("graded") else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
