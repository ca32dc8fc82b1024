#!/usr/bin/env python3
"""The grader's own tests (`make test-grader`).

Unit tests of its parts run everywhere (points files, JUnit reading, submission layouts,
reports, the perf path against the H100 reference TSV, output caps and kill on timeout,
a results.json even when the grader itself fails). The grading tests build and run lab01
for real, as `make grade` does: the pristine skeletons score 0 kernel points, the
solutions full marks, and the broken submissions made from the solution by FAULTS (one that does
not compile, one that crashes, one that hangs) lose exactly the tests they touch, within
the time limits (per test and per lab), with a results.json written every time; a class
folder is graded student by student; a skipped test scores nothing. They need a backend
that runs kernels: the CPU backend (common/cpu/cpu.mk) or BACKEND=cuda on a GPU. The dist
tests unpack `make dist`'s tarball and build, test and grade lab01 in it (the Classroom
flow), and run the Gradescope autograder as Gradescope does. Attacks (attacks.py) grades
submissions that cheat, snoop and sabotage, as root, against a copy of this tree with canaries.
The catalogue of realistic wrong and right submissions of every lab is catch_rate.py's, which
`make test-grader` runs after these.
"""
import argparse
import base64
import csv
import fnmatch
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import unittest
import xml.etree.ElementTree as ET
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = tempfile.mkdtemp(prefix="test-grader-fixtures-")  # filled by make_fixtures()

# The broken submissions: lab01's solution with one fault each, laid out as students hand
# them in (a loose file, a lab folder, a whole checkout). Made from the solution when the
# tests start, so they follow it; each (old, new) replaces the first occurrence of old.
FAULTS = {
    # a name it never declared: the file does not compile
    "compile_error/vector_add.cu": [
        ("        c[i] = a[i] + b[i];", "        c[idx] = a[i] + b[i];")],
    # a host function called from a kernel: g++ takes it, nvcc does not
    "host_call/vector_add.cu": [
        ('#include "check.h"\n', '#include "check.h"\n\nstatic float twice(float x)\n{\n'
         '    return 2 * x;\n}\n'),
        ("        c[i] = a[i] + b[i];", "        c[i] = twice(a[i]) - a[i] + b[i];")],
    # add_one_block steps by blockIdx.x, 0 in its one block: test one_block hangs
    "hang/lab01-vector-add/vector_add.cu": [
        ("i < n; i += blockDim.x)", "i < n; i += blockIdx.x)")],
    # the 2D launcher writes through a count used as an (aligned) address (SIGSEGV), the float4
    # launcher calls abort(): tests grid_2d and grid_stride_float4 crash
    "crash/labs/lab01-vector-add/vector_add.cu": [
        ("        dim3 grid2(1, 1);\n",
         "        dim3 grid2(1, 1);\n        *(int *)(size_t)(64 * blocks) = 0;\n"),
        ("    case ADD_GRID_STRIDE_FLOAT4:\n", "    case ADD_GRID_STRIDE_FLOAT4:\n        abort();\n")],
}


SOLUTIONS = {"vector_add.cu": "lab01-vector-add"}  # the solutions the faults start from


def make_fixtures():
    for path, edits in FAULTS.items():
        name = os.path.basename(path)
        with open(os.path.join(ROOT, "solutions", SOLUTIONS[name], name), encoding="utf-8") as f:
            text = f.read()
        for old, new in edits:
            if old not in text:
                raise SystemExit("test-grader: the solution changed, fix FAULTS: " + repr(old))
            text = text.replace(old, new, 1)
        os.makedirs(os.path.dirname(os.path.join(FIXTURES, path)), exist_ok=True)
        with open(os.path.join(FIXTURES, path), "w", encoding="utf-8") as f:
            f.write(text)
sys.path.insert(0, os.path.join(ROOT, "common", "grade"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ left in common/grade/ or here
import grade  # noqa: E402  (the module under test, found through the path above)
from attacks import Attacks  # noqa: E402,F401  (cheating submissions: unittest finds it here)
from attacks_wall import SwapAfterCheck, WallFallback, WallJailed  # noqa: E402,F401  (wall v3)
from faults import HostFaults  # noqa: E402,F401  (a fault of the machine is nobody's grade)
from parts_groups import GroupParts  # noqa: E402,F401  (the group runner's parts)
from usage import Usage  # noqa: E402,F401  (misuse is one line; Ctrl-C ends a grading)

BACKEND = "cpu"
MAKE_VARS = []  # on a GPU: --make-var ARCH=native, one architecture, not the fat binary
KERNELS_RUN = True  # set in main: whether this machine can run kernels at all
SKIP_WHY = "skipped: needs the CPU backend (common/cpu/cpu.mk)"


def work_tests(*variants):
    """lab01's work_in_proportion tests of these variants, which the CPU backend alone has."""
    return {"lab01 work_in_proportion." + v for v in variants} if BACKEND == "cpu" else set()


def clean_env():
    return {k: v for k, v in os.environ.items()
            if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}


def run_grader(out, *args):
    """grade.py as `make grade` runs it, into out/. Returns (results, stdout, seconds)."""
    start = time.monotonic()
    p = subprocess.run([sys.executable, os.path.join(ROOT, "common", "grade", "grade.py"),
                        "--backend", BACKEND, "--out", out] + MAKE_VARS + list(args),
                       cwd=ROOT, env=clean_env(), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True, timeout=600)
    secs = time.monotonic() - start
    with open(os.path.join(out, "results.json"), encoding="utf-8") as f:
        return json.load(f), p.stdout, secs


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def read_proc(pid, name):
    try:
        with open("/proc/%d/%s" % (pid, name), "rb") as f:
            return f.read().decode(errors="replace")
    except OSError:
        return ""


def by_name(results):
    return {t["name"]: t for t in results["tests"]}


def judge_names(lab, labdir, hidden, backend, given=False):
    """A lab's tests as its judge for backend lists them (built here: a judge is plain C,
    the tests without the kernels, which needs no GPU and no nvcc); given: those that may
    pass on a skeleton (--list-given)."""
    judge = grade.judge_path(argparse.Namespace(backend=backend), labdir, lab, hidden)
    subprocess.run(["make", "--no-print-directory", "-s", "BACKEND=" + backend, judge], cwd=ROOT,
                   env=clean_env(), check=True, stdout=subprocess.DEVNULL)
    return subprocess.run([os.path.join(ROOT, judge), "--list-given" if given else "--list"],
                          check=True, stdout=subprocess.PIPE, universal_newlines=True).stdout.split()


class PointsFile(unittest.TestCase):
    def test_tests_perf_bench_and_defaults(self):
        p = grade.parse_points("# comment\none 2\ntwo 0.5 hidden  # why\n"
                               "perf fast >= 80 %peak 3\nbench --n 100\n")
        self.assertEqual(p["tests"], {"one": (2.0, None), "two": (0.5, "hidden")})
        self.assertEqual(p["perf"][0]["variant"], "fast")
        self.assertEqual((p["perf"][0]["threshold"], p["perf"][0]["unit"], p["perf"][0]["points"]),
                         (80.0, "%peak", 3.0))
        self.assertEqual(p["bench"], ["--n", "100"])
        self.assertEqual(p["warnings"], [])

    def test_bad_lines_are_warnings_not_fatal(self):
        p = grade.parse_points("one two\nthree 1 sometimes\nperf x > 3 %peak 1\nfour -1\nok 1\n",
                               "lab99.txt")
        self.assertEqual(p["tests"], {"ok": (1.0, None)})
        self.assertEqual(len(p["warnings"]), 4)
        self.assertTrue(all(w.startswith("lab99.txt:") for w in p["warnings"]))

    def test_our_points_files_parse_and_name_real_tests(self):
        labs = grade.find_labs(ROOT)
        for where in ("points", "hidden"):
            folder = os.path.join(ROOT, "tests", where)
            for f in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
                if not f.endswith(".txt"):
                    continue
                with self.subTest(file=f):
                    p = grade.read_points(os.path.join(folder, f))
                    self.assertEqual(p["warnings"], [])
                    lab = f[:-len(".txt")]
                    self.assertIn(lab[3:], labs)
                    names = judge_names(lab, labs[lab[3:]], where == "hidden", "cpu") + \
                        judge_names(lab, labs[lab[3:]], where == "hidden", "cuda")
                    self.assertEqual([t for t in p["tests"]  # a line or pattern per real test
                                      if not fnmatch.filter(names, t)], [])
                    labdir = os.path.join(ROOT, "labs", labs[lab[3:]])
                    text = "".join(read(os.path.join(labdir, f)) for f in os.listdir(labdir)
                                   if f.endswith((".h", ".c")))
                    for perf in p["perf"]:  # a variant the lab's bench names (lab05's rows
                        # are VARIANT/INPUT, both names in its sources)
                        for name in perf["variant"].split("/"):
                            self.assertIn('"%s"' % name, text)


class Parts(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="test-grader-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write(self, rel, text=""):
        path = os.path.join(self.tmp, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_junit_from_cmocka(self):
        path = self.write("x.xml", '<?xml version="1.0"?><testsuites><testsuite name="g">'
                          '<testcase name="a"/><testcase name="b"><failure><![CDATA[f.c:3: '
                          'error]]></failure></testcase><testcase name="c"><skipped/>'
                          '</testcase></testsuite></testsuites>')
        self.assertEqual(grade.read_junit(path, "a"), ("passed", ""))
        self.assertEqual(grade.read_junit(path, "b"), ("failed", "f.c:3: error"))
        self.assertEqual(grade.read_junit(path, "c")[0], "skipped")
        self.assertIsNone(grade.read_junit(path, "d"))
        self.assertIsNone(grade.read_junit(os.path.join(self.tmp, "none.xml"), "a"))

    def test_output_capped_and_hangs_killed(self):
        log = os.path.join(self.tmp, "log")
        args = argparse.Namespace(memory_limit=4096, disk_limit=1024, procs=512)
        saved, grade.run.FILE_LIMIT = grade.run.FILE_LIMIT, 1 << 20
        try:
            rc, timed_out, _, _ = grade.run_limited(args, ["sh", "-c", "yes | head -c 5000000"],
                                                    self.tmp, grade.plain_env(self.tmp), 30, log)
        finally:
            grade.run.FILE_LIMIT = saved
        self.assertFalse(timed_out)
        self.assertLessEqual(os.path.getsize(log), 1 << 20)
        rc, timed_out, secs, _ = grade.run_limited(args, ["sh", "-c", "sleep 60 & sleep 60"],
                                                   self.tmp, grade.plain_env(self.tmp), 1,
                                                   log + "2")
        self.assertTrue(timed_out)
        self.assertLess(secs, 10)

    def test_what_escapes_its_session_is_killed(self):
        """A child that calls setsid() and outlives the command is found and killed."""
        args = argparse.Namespace(memory_limit=4096, disk_limit=1024, procs=512)
        marker = "atk-escape-%d" % os.getpid()
        script = "setsid bash -c 'exec -a %s sleep 120' & sleep 1" % marker
        grade.wall.become_subreaper()  # as grade.py's main() does
        grade.run_limited(args, ["bash", "-c", script], self.tmp, grade.plain_env(self.tmp), 10,
                          os.path.join(self.tmp, "log"))
        left = [pid for pid in grade.wall.processes()
                if marker in read_proc(pid, "cmdline")]
        self.assertEqual(left, [])

    def test_memory_limit(self):
        args = argparse.Namespace(memory_limit=64, disk_limit=1024, procs=512)
        rc, timed_out, _, exceeded = grade.run_limited(
            args, [sys.executable, "-c", "x = bytearray(512 << 20); import time; time.sleep(30)"],
            self.tmp, grade.plain_env(self.tmp), 20, os.path.join(self.tmp, "log"))
        self.assertIn("memory", exceeded)
        self.assertFalse(timed_out)

    def test_reads_bounded_no_links_no_fifos(self):
        os.mkfifo(os.path.join(self.tmp, "fifo"))
        os.symlink("/etc/passwd", os.path.join(self.tmp, "link"))
        os.symlink("/dev/zero", os.path.join(self.tmp, "zero"))
        for name in ("fifo", "link", "zero", "missing"):
            self.assertEqual(grade.wall.read_bounded(os.path.join(self.tmp, name), 100),
                             (b"", 0), name)
        self.write("big", "x" * 5000)
        data, size = grade.wall.read_bounded(os.path.join(self.tmp, "big"), 100)
        self.assertEqual((len(data), size), (100, 5000))
        self.assertIsNone(grade.read_junit(os.path.join(self.tmp, "fifo"), "a"))

    def test_staging_takes_regular_files_and_follows_no_link(self):
        self.write("sub/labs/lab01-x/k.cu", "ok")
        self.write("sub/other/notes.txt", "not an exercise")
        self.write("sub/big/k.cu", "x" * ((1 << 20) + 1))
        os.symlink("/etc/passwd", os.path.join(self.tmp, "sub", "k.cu"))
        os.mkfifo(os.path.join(self.tmp, "sub", "other", "k.cu"))
        os.makedirs(os.path.join(self.tmp, "elsewhere"))
        self.write("elsewhere/k.cu", "a secret beside it")
        os.symlink(os.path.join(self.tmp, "elsewhere"), os.path.join(self.tmp, "sub", "lab01-x"))
        dest = os.path.join(self.tmp, "staged")
        refused = grade.sources.stage_submission(os.path.join(self.tmp, "sub"), dest, {"k.cu"})
        found = sorted(os.path.relpath(os.path.join(d, f), dest)
                       for d, _, files in os.walk(dest) for f in files)
        self.assertEqual(found, ["labs/lab01-x/k.cu"])  # the link to a folder not entered
        self.assertIn("symbolic link", refused["k.cu"])
        self.assertIn("not a regular file", refused["other/k.cu"])
        self.assertIn("larger than", refused["big/k.cu"])

    def test_submission_layouts(self):
        for rel in ("labs/lab01-x/k.cu", "lab01-x/k.cu", "k.cu", "deep/er/k.cu"):
            with self.subTest(layout=rel):
                shutil.rmtree(self.tmp)
                want = self.write(rel)
                self.assertEqual(grade.find_in_submission(self.tmp, "lab01-x", "k.cu"), want)
        self.write("other/k.cu")  # two candidates and none where expected: ambiguous
        self.assertIsNone(grade.find_in_submission(self.tmp, "lab01-x", "k.cu"))

    def test_judges_list_backend_only_tests(self):
        """The grader takes a lab's tests from its judges' --list: each backend's judge lists
        the tests compiled for it (lab07's cuBLAS reference only on a GPU)."""
        labdir = grade.find_labs(ROOT)["07"]
        cpu, cuda = (judge_names("lab07", labdir, False, b) for b in ("cpu", "cuda"))
        self.assertNotIn("reference_cublas", cpu)
        self.assertIn("reference_cublas", cuda)
        self.assertEqual(set(cpu) - set(cuda), set())
        self.assertIn("args_rejected", judge_names("lab07", labdir, False, "cpu", given=True))

    def test_points_by_pattern(self):
        table = grade.parse_points("twice.fast 3\ntwice.* 0.5 hidden\n")["tests"]
        self.assertEqual(grade.points_for(table, "twice.fast"), (3.0, None))
        self.assertEqual(grade.points_for(table, "twice.slow"), (0.5, "hidden"))
        self.assertEqual(grade.points_for(table, "other"), (1.0, None))

    def test_sanitizer_report_trimmed(self):
        dump = ("random seed 7\ncase: one_block, n = 1, order forward\n"
                "=================================================================\n"
                "==123==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6 at pc 0x5\n"
                "WRITE of size 4 at 0x6 thread T0\n"
                "    #0 0x5 in add_one_block(float const*) labs/lab01-x/k.cu:20\n"
                "    #1 0x5 in operator()<float const*> labs/lab01-x/k.cu:115\n"
                "    #4 0x5 in fiber_main common/cpu/runtime.cpp:358\n"
                "allocated by thread T0 here:\n"
                "    #2 0x5 in gpu_alloc common/gpu.cu:10\n"
                "    #3 0x5 in sum_matches tests/test_lab01_x.c:27\n"
                "SUMMARY: AddressSanitizer: heap-buffer-overflow labs/lab01-x/k.cu:20 in k\n"
                "Shadow bytes around the buggy address:\n==123==ABORTING\n")
        report = grade.sanitizer_report(dump)
        self.assertEqual(report.splitlines(), [
            "AddressSanitizer: heap-buffer-overflow (WRITE of size 4)",
            "at labs/lab01-x/k.cu:20 in add_one_block", "launched at labs/lab01-x/k.cu:115",
            "the memory was allocated at tests/test_lab01_x.c:27",
            "the test was at: one_block, n = 1, order forward"])
        trimmed = grade.trim_report(dump)
        self.assertIn("case: one_block", trimmed)
        self.assertNotIn("runtime.cpp", trimmed)
        self.assertNotIn("Shadow", trimmed)

    def test_reports(self):
        lab = grade.Lab("01", "lab01-x")
        lab.add("a", 2.0, "visible", {"status": "passed", "why": "passed", "output": "",
                                      "secs": 0.1})
        lab.add("b", 1.0, "visible", {"status": "crashed", "why": "crashed: SIGSEGV",
                                      "output": "seed 1", "secs": 0.1})
        lab.add("h", 3.0, "after_due_date", {"status": "passed", "why": "passed", "output": "",
                                             "secs": 0.1}, hidden=True, suite="hidden")
        lab.add("perf_k", 0.0, "visible", {"status": "skipped", "why": "needs a GPU",
                                           "output": "", "secs": 0}, suite="perf")
        r = grade.results_json([lab], 3.2, [])
        self.assertEqual((r["score"], r["max_score"], r["execution_time"]), (5.0, 6.0, 3))
        self.assertEqual([t["number"] for t in r["tests"]], ["1.1", "1.2", "1.3", "1.4"])
        self.assertEqual(r["tests"][2]["name"], "lab01 hidden/h")
        self.assertEqual(r["tests"][2]["visibility"], "after_due_date")
        self.assertIn("seed 1", r["tests"][1]["output"])
        for t in r["tests"][:3]:
            self.assertEqual(set(t), {"name", "number", "score", "max_score", "status",
                                      "output", "visibility"})
        self.assertNotIn("status", r["tests"][3])  # 0 of 0: Gradescope calls it neither way
        self.assertIn("2/3", r["output"])  # what a student sees leaves hidden tests out
        self.assertIn("5/6", grade.summary([lab], []))
        grade.junit(lab, os.path.join(self.tmp, "lab01.xml"))
        suite = ET.parse(os.path.join(self.tmp, "lab01.xml")).getroot().find("testsuite")
        self.assertEqual((suite.get("tests"), suite.get("errors"), suite.get("skipped")),
                         ("4", "1", "1"))
        payload = json.loads(base64.b64decode(grade.classroom_payload(r)))
        self.assertEqual(payload["max_score"], 6.0)
        self.assertEqual(sum(t["score"] for t in payload["tests"]), 5.0)
        self.assertEqual([t["status"] for t in payload["tests"]], ["pass", "fail", "pass"])

    def test_perf_thresholds_on_a_gpu(self):
        """The perf path with the bench stubbed by rows as an H100 wrote them, and one faster
        than the copy measured beside it (a worker that answers before its kernels end)."""
        head = ("series\tlab\tvariant\tn\tbytes\tms_median\tms_min\tms_max\tgbs\tpct_peak"
                "\tpeak_gbs\tcopy_gbs\tdevice\tdate\n")
        row = "main\tlab01\t%s\t268435456\t3221225472\t1\t1\t1\t%s\t%s\t3352.3\t2992.7\tH100\t2026-11-22\n"
        self.write("bench.tsv", head + row % ("one_block", "30.2", "0.90")
                   + row % ("grid_2d", "2677.9", "79.88")
                   + row % ("grid_stride_float4", "2892.2", "86.27")
                   + row % ("grid_stride", "4500.0", "134.2"))
        rows = grade.perf.read_bench(read(os.path.join(self.tmp, "bench.tsv")))
        self.assertAlmostEqual(grade.perf.perf_value(rows["grid_stride_float4"], "%peak"), 86.27, 1)
        self.assertAlmostEqual(grade.perf.perf_value(rows["grid_stride_float4"], "%copy"), 96.64, 1)
        points = grade.parse_points("perf grid_stride_float4 >= 80 %peak 2\n"
                                    "perf grid_stride_float4 >= 95 %peak 1\n"
                                    "perf one_block >= 1 GB/s 1\nperf grid_2d >= 1 GB/s 1\n"
                                    "perf grid_stride >= 80 %copy 1\n")
        args = argparse.Namespace(backend="cuda", tests=None, perf=True, build_timeout=1, test_timeout=1,
                                  jobs=1, make_var=[])
        lab = grade.Lab("01", "lab01-vector-add")
        lab.add("grid_2d", 1.0, "visible", {"status": "failed", "why": "wrong", "output": "",
                                            "secs": 0})
        saved = grade.perf.run_bench
        grade.perf.run_bench = lambda *a, **k: (rows, "")
        ctx = argparse.Namespace(judges=self.tmp)
        try:
            grade.perf.grade_perf(args, ctx, lab, points, "worker_lab01", "",
                                  time.monotonic() + 60)
        finally:
            grade.perf.run_bench = saved
        perf = [(t["score"], t["max_score"]) for t in lab.tests if t["suite"] == "perf"]
        self.assertEqual(perf, [(2.0, 2.0), (0, 1.0), (1.0, 1.0), (0, 1.0), (0, 1.0)])
        self.assertIn("correctness test fails", lab.tests[-2]["why"])
        self.assertIn("not a time the grader believes", lab.tests[-1]["why"])

    def test_two_graders_take_different_ids(self):
        """Another grader running on this machine holds its ids: this one takes others."""
        if not grade.wall.ISOLATED:
            self.skipTest("the grader takes ids of its own as root only")
        code = ("import sys; sys.path.insert(0, %r); import wall; print(wall.take_id(), "
                "flush=True); sys.stdin.read()" % os.path.join(ROOT, "common", "grade"))
        other = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, universal_newlines=True)
        try:
            theirs = int(other.stdout.readline())
            ours = [grade.wall.take_id() for _ in range(3)]
        finally:
            other.stdin.close()
            other.wait()
        self.assertNotIn(theirs, ours)

    def test_a_bench_has_the_gpu_alone(self):
        """GpuTurns: tests share the device, a bench waits for them and has it alone, and
        tests that come while a bench waits go after it."""
        turns, log = grade.GpuTurns(), []

        def test(name, secs):
            with turns.shared():
                log.append(name + " in")
                time.sleep(secs)
                log.append(name + " out")

        def bench():
            with turns.exclusive():
                log.append("bench in")
                time.sleep(0.1)
                log.append("bench out")
        first = threading.Thread(target=test, args=("a", 0.3))
        first.start()
        time.sleep(0.05)
        waiting = threading.Thread(target=bench)
        waiting.start()
        time.sleep(0.05)
        late = threading.Thread(target=test, args=("b", 0))
        late.start()
        for t in (first, waiting, late):
            t.join()
        self.assertEqual(log, ["a in", "a out", "bench in", "bench out", "b in", "b out"])

    def test_out_of_device_memory_runs_again_alone(self):
        """On a GPU, a test that failed for want of device memory beside other tests runs
        once more with the device alone, and that run's result counts."""
        calls = []

        def stub(args, ctx, judge, worker, name, timeout, tag, uid, alone=False):
            calls.append(alone)
            return {"status": "passed" if alone else "crashed", "why": "", "secs": 0.0,
                    "output": "" if alone else "cudaMalloc: out of memory "
                                                "(cudaErrorMemoryAllocation)"}
        saved = grade.run.judge_and_worker
        grade.run.judge_and_worker = stub
        ctx = argparse.Namespace(ids=grade.wall.Ids(1))
        try:
            for backend in ("cuda", "cpu"):  # a GPU grading's CPU runs too: the worker's
                args = argparse.Namespace(backend="cuda")
                calls.clear()
                result = grade.run_test(args, ctx, "judge", grade.run.Worker("w", backend, False),
                                        "t", 1, "tag")
                self.assertEqual(calls, [False, True] if backend == "cuda" else [False])
                self.assertEqual(result["status"], "passed" if backend == "cuda" else "crashed")
        finally:
            grade.run.judge_and_worker = saved

    def test_json_written_when_the_grader_itself_fails(self):
        os.makedirs(os.path.join(self.tmp, "root"))  # a tree with no labs/: the grader fails
        out = os.path.join(self.tmp, "out")
        results, stdout, _ = run_grader(out, "--root", os.path.join(self.tmp, "root"))
        self.assertNotIn("score", results)  # nobody's score: the grader's own fault
        self.assertIn("the grader failed", results["output"])

    def test_not_submitted(self):
        out = os.path.join(self.tmp, "out")
        self.write("empty/README.md", "my lab01 is not done yet")
        results, stdout, _ = run_grader(out, "--student", os.path.join(self.tmp, "empty"),
                                        "--lab", "01")
        self.assertEqual(results["score"], 0)
        self.assertGreater(results["max_score"], 0)
        self.assertIn("not submitted", results["output"])
        self.assertTrue(all("not submitted" in t["output"] for t in results["tests"]
                            if t["max_score"] > 0))


class GradingBase(unittest.TestCase):
    """Grades one submission of a lab (lab01 unless said) once per class; the tests read its
    results. The race checker's second run only where a class is about it or about full
    marks: it costs a build and a run."""
    args = ()
    lab = "01"
    racecheck = False

    @classmethod
    def setUpClass(cls):
        if not KERNELS_RUN:
            raise unittest.SkipTest(SKIP_WHY)
        cls.out = tempfile.mkdtemp(prefix="test-grader-")
        cls.results, cls.stdout, cls.secs = run_grader(
            cls.out, "--lab", cls.lab, *(cls.args + (() if cls.racecheck else ("--no-racecheck",))))
        cls.tests = by_name(cls.results)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, ignore_errors=True)

    def kernel_tests(self):
        """The tests of the student's code: all but those the test files mark as checking
        given code (TESTKIT_HOST, TESTKIT_GIVEN)."""
        given = set()
        labdir = grade.find_labs(ROOT)["01"]
        for hidden in (False, True):
            given |= set(judge_names("lab01", labdir, hidden, BACKEND, given=True))
        return {n: t for n, t in self.tests.items() if t["max_score"] > 0
                and n.split()[-1].split("/")[-1] not in given}

    def assert_only_these_lose(self, losers, why):
        for name, t in self.tests.items():
            if t["max_score"] == 0:
                continue
            with self.subTest(test=name):
                if name in losers:
                    self.assertEqual(t["score"], 0)
                    self.assertIn(why, t["output"])
                else:
                    self.assertEqual(t["score"], t["max_score"], t["output"])


class Skeletons(GradingBase):
    """The pristine skeletons, graded through `make grade` as an instructor would."""

    @classmethod
    def setUpClass(cls):
        if not KERNELS_RUN:
            raise unittest.SkipTest(SKIP_WHY)
        cls.out = tempfile.mkdtemp(prefix="test-grader-")
        start = time.monotonic()
        p = subprocess.run(["make", "--no-print-directory", "grade", "LAB=01",
                            "BACKEND=" + BACKEND, "GRADE_OUT=" + cls.out] + MAKE_VARS[1:],
                           cwd=ROOT,
                           env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=600)
        cls.secs, cls.stdout = time.monotonic() - start, p.stdout
        with open(os.path.join(cls.out, "results.json"), encoding="utf-8") as f:
            cls.results = json.load(f)
        cls.tests = by_name(cls.results)

    def test_no_kernel_points(self):
        kernels = self.kernel_tests()
        self.assertGreater(len(kernels), 0)
        for name, t in kernels.items():
            with self.subTest(test=name):
                self.assertEqual(t["score"], 0)
                self.assertEqual(t["status"], "failed")

    def test_table_json_and_junit(self):
        self.assertIn("lab01-vector-add", self.stdout)
        self.assertIn("results.json written", self.stdout)
        suite = ET.parse(os.path.join(self.out, "lab01.xml")).getroot().find("testsuite")
        self.assertEqual(int(suite.get("tests")), len(self.results["tests"]))
        self.assertEqual(self.results["score"], sum(t["score"] for t in self.results["tests"]))


class Solutions(GradingBase):
    args = ("--solution",)
    racecheck = True

    def test_full_marks(self):
        self.assertGreater(self.results["max_score"], 0)
        self.assertEqual(self.results["score"], self.results["max_score"], self.stdout)

    def test_hidden_tests_graded_with_their_visibility(self):
        hidden = {n: t for n, t in self.tests.items() if "hidden/" in n}
        self.assertGreater(len(hidden), 0)
        for t in hidden.values():
            self.assertIn(t["visibility"], ("hidden", "after_due_date"))

    def test_perf_without_a_gpu_is_zero_of_zero(self):
        perf = [t for n, t in self.tests.items() if n.startswith("lab01 perf ")]
        if BACKEND == "cuda":
            self.skipTest("a GPU measures it")
        self.assertGreater(len(perf), 0)
        for t in perf:
            self.assertEqual((t["score"], t["max_score"], t["visibility"]), (0, 0, "visible"))
            self.assertIn("needs a GPU", t["output"])


class CompileError(GradingBase):
    args = ("--student", os.path.join(FIXTURES, "compile_error"))

    def test_lab_scores_zero_with_the_compilers_message(self):
        self.assertEqual(self.results["score"], 0)
        self.assertGreater(self.results["max_score"], 0)
        self.assertIn("did not compile", self.results["output"])
        self.assertIn("vector_add.cu", self.results["output"])
        self.assertIn("idx", self.results["output"])  # the undeclared name the compiler names
        for t in self.results["tests"]:
            if t["max_score"] > 0:
                self.assertIn("did not compile", t["output"])
        self.assertNotIn("grade-", self.results["output"])  # no scratch paths


class HostCall(GradingBase):
    """Where nvcc is installed, the grader builds the student's file with it too."""
    args = ("--student", os.path.join(FIXTURES, "host_call"), "--tests", "one_block")

    @classmethod
    def setUpClass(cls):
        if BACKEND != "cpu" or not shutil.which("nvcc"):
            raise unittest.SkipTest("needs the CPU backend and nvcc on the PATH")
        super().setUpClass()

    def test_what_nvcc_refuses_does_not_compile(self):
        self.assertEqual(self.results["score"], 0)
        self.assertIn("did not compile", self.results["output"])
        self.assertIn("calling a __host__ function", self.results["output"])


class Crash(GradingBase):
    args = ("--student", os.path.join(FIXTURES, "crash"), "--test-timeout", "30")

    def test_only_the_crashing_tests_lose(self):
        self.assert_only_these_lose({"lab01 grid_2d", "lab01 grid_stride_float4",
                                     "lab01 hidden/writes_exactly_n.grid_2d",
                                     "lab01 hidden/writes_exactly_n.grid_stride_float4",
                                     "lab01 hidden/float4_tails", "lab01 hidden/grid_2d_many_rows",
                                     "lab01 hidden/past_2_32.grid_2d",
                                     "lab01 hidden/past_2_32.grid_stride_float4"}
                                    | work_tests("grid_2d", "grid_stride_float4"), "crashed")

    def test_signals_named_with_the_line(self):
        """AddressSanitizer names the bad write's line; an abort is named as a signal."""
        crash = os.path.join(FIXTURES, "crash", "labs", "lab01-vector-add", "vector_add.cu")
        where = "vector_add.cu:%d" % line_of(crash, "*(int *)(size_t)(64 * blocks) = 0;")
        self.assertIn("SEGV", self.tests["lab01 grid_2d"]["output"])
        self.assertIn(where, self.tests["lab01 grid_2d"]["output"].splitlines()[1])
        self.assertIn("SIGABRT", self.tests["lab01 grid_stride_float4"]["output"])


def line_of(path, mark):
    """The line number of the last line of mark in the file at path."""
    text = read(path)
    return text[:text.index(mark) + len(mark)].count("\n") + 1


class Hang(GradingBase):
    args = ("--student", os.path.join(FIXTURES, "hang"), "--test-timeout", "10", "--no-hidden")

    def test_only_the_hanging_tests_lose(self):
        self.assert_only_these_lose({"lab01 one_block"} | work_tests("one_block"),
                                    "time limit of 10 s")

    def test_the_hang_named(self):
        """A hang says so, with the case the test was at and, on the CPU backend, the
        kernel that had not ended."""
        why = self.tests["lab01 one_block"]["output"]
        self.assertIn("a hang", why)
        self.assertIn("it was at one_block, n = ", why)
        if BACKEND == "cpu":
            self.assertIn("stopped in kernel add_one_block (launched at ", why)

    def test_within_the_limits(self):
        self.assertLess(self.secs, 120 if BACKEND == "cpu" else 300)


class LabTimeLimit(GradingBase):
    """A hang with a lab budget smaller than the test limit (below the 10 s floor of the limits
    that the solution's measured times give): the hang is stopped when the lab's time runs
    out and the test after it is not started, both reported."""
    args = ("--student", os.path.join(FIXTURES, "hang"), "--tests", "one_block", "grid_2d",
            "--no-hidden", "--jobs", "1", "--test-timeout", "300", "--lab-timeout", "8")

    def test_stopped_and_not_run(self):
        self.assertEqual(set(self.tests), {"lab01 one_block", "lab01 grid_2d"})
        self.assertIn("lab's time limit of 8 s ran out while it ran",
                      self.tests["lab01 one_block"]["output"])
        self.assertIn("not run", self.tests["lab01 grid_2d"]["output"])
        self.assertLess(self.secs, 60 if BACKEND == "cpu" else 300)


class SkippedIsNoPass(unittest.TestCase):
    """A skipped test scores nothing, and says why; a GPU grading on a machine without a GPU
    is the machine's fault: no score for anyone, and the fix named."""

    def test_skipped_scores_nothing(self):
        args = argparse.Namespace()
        result = grade.run.verdict(args, ("skipped", ""), False, "", 0,
                                   "skipped: needs 9.6 GB of device memory", "", 10, 0.1)
        self.assertEqual(result["status"], "skipped")
        self.assertIn("skipped, which scores nothing: skipped: needs 9.6 GB", result["why"])
        lab = grade.Lab("01", "lab01-x")
        lab.add("big", 2.0, "visible", result)
        self.assertEqual(lab.score(), (0, 2.0))

    def test_cuda_grading_without_gpu(self):
        gpu = subprocess.run(["nvidia-smi", "-L"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL).returncode == 0 \
            if shutil.which("nvidia-smi") else False
        if BACKEND != "cpu" or gpu or not shutil.which("nvcc"):
            self.skipTest("needs nvcc and no GPU")
        out = tempfile.mkdtemp(prefix="test-grader-")
        try:
            p = subprocess.run([sys.executable, os.path.join(ROOT, "common", "grade", "grade.py"),
                                "--backend", "cuda", "--solution", "--lab", "01", "--out", out,
                                "--make-var", "ARCH=90", "--tests", "args_rejected", "one_block"],
                               cwd=ROOT, env=clean_env(), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, universal_newlines=True, timeout=600)
            with open(os.path.join(out, "results.json"), encoding="utf-8") as f:
                results = json.load(f)
            self.assertNotEqual(p.returncode, 0)
            self.assertNotIn("score", results)
            self.assertIn("no CUDA device answers on this machine: grade with BACKEND=cpu",
                          results["output"])
        finally:
            shutil.rmtree(out, ignore_errors=True)


class Class(unittest.TestCase):
    """make grade CLASS=dir: a folder per student, the shared build made once; a student's
    file is rebuilt on top of it (the solution gets full marks, not the skeleton's)."""

    def test_class(self):
        if not KERNELS_RUN:
            self.skipTest(SKIP_WHY)
        tmp = tempfile.mkdtemp(prefix="test-grader-class-")
        try:
            subs = os.path.join(tmp, "subs")
            for name in ("alice", "bob", "carol"):
                os.makedirs(os.path.join(subs, name))
            shutil.copy(os.path.join(ROOT, "solutions", "lab01-vector-add", "vector_add.cu"),
                        os.path.join(subs, "alice"))
            shutil.copy(os.path.join(FIXTURES, "compile_error", "vector_add.cu"),
                        os.path.join(subs, "bob"))
            out = os.path.join(tmp, "out")
            p = subprocess.run(["make", "--no-print-directory", "grade", "CLASS=" + subs,
                                "LAB=01", "GRADE_OUT=" + out, "BACKEND=" + BACKEND]
                               + MAKE_VARS[1:], cwd=ROOT, env=clean_env(),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=600)
            with open(os.path.join(out, "class.csv"), encoding="utf-8") as f:
                rows = {r[0]: r for r in csv.reader(f)}
            self.assertEqual(rows["student"], ["student", "lab01", "score", "max_score"])
            self.assertEqual(rows["alice"][2], rows["alice"][3], p.stdout)
            self.assertEqual(rows["bob"][2], "0")
            self.assertEqual(rows["carol"][2], "0")
            for name in ("alice", "bob", "carol"):
                self.assertTrue(os.path.exists(os.path.join(out, name, "results.json")))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


class Dist(unittest.TestCase):
    """make dist: the student tarball holds no solutions, hidden tests, grader fixtures or
    outputs, and lab01's tests build and run in it; the Gradescope zip has its scripts at
    the top and the hidden tests, but no solutions."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="test-grader-dist-")
        p = subprocess.run([sys.executable, os.path.join(ROOT, "common", "grade", "dist.py"),
                            "--out", cls.tmp], cwd=ROOT, env=clean_env(),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=300)
        if p.returncode != 0:
            raise AssertionError("dist.py failed:\n" + p.stdout)
        cls.tarball = os.path.join(cls.tmp, "cuda-labs-student.tar.gz")
        cls.zipfile = os.path.join(cls.tmp, "gradescope-autograder.zip")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_tarball_leaves_out_what_students_must_not_have(self):
        with tarfile.open(self.tarball) as t:
            names = [n.split("/", 1)[1] for n in t.getnames() if "/" in n]
        for banned in ("solutions/", "tests/hidden/", "tests/grader/", "grade/", "build/",
                       "dist/", ".git/", "common/grade/gradescope/"):
            self.assertFalse([n for n in names if n.startswith(banned)], banned)
        for wanted in ("Makefile", "common/grade/grade.py", "tests/points/lab01.txt",
                       ".github/workflows/classroom.yml", "labs/lab01-vector-add/vector_add.cu"):
            self.assertIn(wanted, names)

    def test_gradescope_zip(self):
        with zipfile.ZipFile(self.zipfile) as z:
            names = z.namelist()
            self.assertIn("setup.sh", names)
            self.assertIn("run_autograder", names)
            self.assertIn("tests/hidden/test_lab01_hidden.c", names)
            self.assertIn("common/grade/exercises.txt", names)
            self.assertFalse([n for n in names if n.startswith("solutions/")])
            mode = z.getinfo("run_autograder").external_attr >> 16
            self.assertTrue(mode & 0o111, "run_autograder must be executable")

    def test_student_copy_builds_and_runs_lab01(self):
        if not KERNELS_RUN:
            self.skipTest(SKIP_WHY)
        where = os.path.join(self.tmp, "unpacked")
        with tarfile.open(self.tarball) as t:
            t.extractall(where)
        top = os.path.join(where, os.listdir(where)[0])
        p = subprocess.run(["make", "--no-print-directory", "lab01", "test", "BACKEND=" + BACKEND]
                           + MAKE_VARS[1:],
                           cwd=top, env=clean_env(), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True, timeout=300)
        failed = 6 + len(work_tests("one_block", "thread_per_element", "grid_stride", "grid_2d",
                                    "grid_stride_float4"))
        self.assertIn("lab01: 1 passed, %d failed" % failed, p.stdout)  # ran the skeleton
        self.assertNotIn("warning", p.stdout)  # its open TODOs warn of nothing
        with open(os.path.join(top, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        self.assertIn("lab01-vector-add", readme)  # the student's README, with the labs
        self.assertNotIn("solutions/", readme)

    def test_student_copy_grades_itself_for_classroom(self):
        """What the Classroom workflow runs: make grade in the student's repository, then
        the reporter's payload; no hidden test can be there."""
        if not KERNELS_RUN:
            self.skipTest(SKIP_WHY)
        where = os.path.join(self.tmp, "classroom")
        with tarfile.open(self.tarball) as t:
            t.extractall(where)
        top = os.path.join(where, os.listdir(where)[0])
        subprocess.run(["make", "--no-print-directory", "grade", "LAB=01", "BACKEND=" + BACKEND]
                       + MAKE_VARS[1:],
                       cwd=top, env=clean_env(), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=300)
        p = subprocess.run([sys.executable, "common/grade/grade.py", "--classroom",
                            "grade/results.json"], cwd=top, stdout=subprocess.PIPE, check=True)
        payload = json.loads(base64.b64decode(p.stdout))
        names = [t["name"] for t in payload["tests"]]
        self.assertIn("lab01 one_block", names)
        self.assertFalse([n for n in names if "hidden/" in n])
        self.assertEqual(payload["status"], "fail")
        self.assertGreater(payload["max_score"], 0)


class Gradescope(unittest.TestCase):
    """The autograder zip of `make dist LAB=01` run as Gradescope runs it, on a loose
    solution file uploaded by a student: full marks, hidden tests included, from the
    zip's list of exercise files (it carries no solutions/), into results/results.json."""

    def test_run_autograder(self):
        if not KERNELS_RUN:
            self.skipTest(SKIP_WHY)
        ag = tempfile.mkdtemp(prefix="test-grader-gradescope-")
        try:
            subprocess.run([sys.executable, os.path.join(ROOT, "common", "grade", "dist.py"),
                            "--out", ag, "--lab", "01"], cwd=ROOT, env=clean_env(), check=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            with zipfile.ZipFile(os.path.join(ag, "gradescope-autograder-lab01.zip")) as z:
                for info in z.infolist():  # as unzip does it: with the files' modes
                    path = z.extract(info, os.path.join(ag, "source"))
                    os.chmod(path, info.external_attr >> 16 & 0o777)
            os.makedirs(os.path.join(ag, "submission"))
            shutil.copy(os.path.join(ROOT, "solutions", "lab01-vector-add", "vector_add.cu"),
                        os.path.join(ag, "submission"))
            env = clean_env()
            env.update(AUTOGRADER=ag)
            p = subprocess.run([os.path.join(ag, "source", "run_autograder")], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=600)
            with open(os.path.join(ag, "results", "results.json"), encoding="utf-8") as f:
                results = json.load(f)
            self.assertEqual(results["score"], results["max_score"], p.stdout)
            self.assertTrue([t for t in results["tests"] if "hidden/" in t["name"]])
            self.assertEqual({t["name"].split()[0] for t in results["tests"]}, {"lab01"})
        finally:
            shutil.rmtree(ag, ignore_errors=True)


def main():
    global BACKEND, KERNELS_RUN
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default="cpu", choices=("cpu", "cuda"))
    ap.add_argument("-v", "--verbose", action="store_true")
    args, rest = ap.parse_known_args()
    BACKEND = args.backend
    if BACKEND == "cuda":
        MAKE_VARS[:] = ["--make-var", "ARCH=native"]
    KERNELS_RUN = BACKEND == "cuda" or os.path.exists(os.path.join(ROOT, "common", "cpu", "cpu.mk"))
    if not KERNELS_RUN:
        print(SKIP_WHY + ": the grading tests; the grader's unit tests run")
    start = time.monotonic()
    make_fixtures()
    report = sys.stderr if args.verbose else io.StringIO()  # quiet unless something fails
    try:
        program = unittest.main(argv=[sys.argv[0]] + rest, exit=False,
                                verbosity=2 if args.verbose else 1,
                                testRunner=unittest.TextTestRunner(stream=report))
    finally:
        shutil.rmtree(FIXTURES, ignore_errors=True)
    result = program.result
    if not result.wasSuccessful() and not args.verbose:
        print(report.getvalue())
    print("test-grader: %d tests, %s (%.0f s)" % (
        result.testsRun, "all passed" if result.wasSuccessful() else "%d failed" % (
            len(result.failures) + len(result.errors)), time.monotonic() - start))
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
