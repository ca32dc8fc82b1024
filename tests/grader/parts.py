"""The grader's parts, each tested on its own (test_grader.py gathers them): points files,
JUnit reading, output caps and kill on timeout, the memory limit, bounded reads, submission
staging and layouts, reports, the perf path against the H100 reference TSV, the GPU's turns,
a results.json even when the grader itself fails; a skipped test scores nothing.
"""
import argparse
import base64
import csv
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import helpers  # noqa: E402  (first: it puts common/grade on the path)
import grade  # noqa: E402  (the module under test)
from helpers import ROOT, clean_env, judge_names, read, run_grader  # noqa: E402


def read_proc(pid, name):
    try:
        with open("/proc/%d/%s" % (pid, name), "rb") as f:
            return f.read().decode(errors="replace")
    except OSError:
        return ""


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

    def test_our_perf_lines_pass_on_the_h100_reference(self):
        """Every perf line scores its lab's reference row (plots/reference/labNN.tsv, the H100),
        as the grader scores a bench row: a threshold the H100 did not reach cannot land."""
        import perf
        folder = os.path.join(ROOT, "tests", "points")
        for f in sorted(os.listdir(folder)):
            p = grade.read_points(os.path.join(folder, f))
            if not p["perf"]:
                continue
            with open(os.path.join(ROOT, "plots", "reference", f[:5] + ".tsv"),
                      encoding="utf-8") as t:
                rows = {r["variant"]: r for r in csv.DictReader(t, delimiter="\t")
                        if r["series"] == "main"}
            for line in p["perf"]:
                with self.subTest(lab=f[:5], variant=line["variant"]):
                    self.assertIn(line["variant"], rows)
                    self.assertGreaterEqual(perf.perf_value(rows[line["variant"]], line["unit"]),
                                            line["threshold"])


class Parts(unittest.TestCase):
    def test_dist_refuses_a_skeleton_that_keeps_a_solution_block(self):
        """make dist: a labs/ file with a SOLUTION or GIVEN block left in (the fix of a
        find-the-bug step beside its planted bug) is a leak; solutions/ may hold both."""
        import dist
        files = {"labs/lab04-dot/dot.cu": (0, b"x;\n/* GIVEN BEGIN: a bug */\ny;\n"),
                 "labs/lab01-vector-add/vector_add.cu": (0, b"/* SOLUTION BEGIN */ z;\n"),
                 "labs/lab06-reduction/reduction.cu": (0, b"/* TODO: fold */\n"),
                 "solutions/lab04-dot/dot.cu": (0, b"/* GIVEN BEGIN: a bug */\n")}
        self.assertEqual(sorted(dist.leaks(files)),
                         ["labs/lab01-vector-add/vector_add.cu", "labs/lab04-dot/dot.cu"])

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

    def test_limits_from_the_solutions_times(self):
        import times  # common/grade/times.py
        root = os.path.join(self.tmp, "root")
        self.write("root/tests/test_lab01_x.c", "tests")
        args = argparse.Namespace(root=root, test_timeout=120.0)
        t = times.Times(args, {}, {"01": "lab01-x"})
        self.assertEqual(t.unknown(), ["01"])  # a class here times the solution first
        self.assertEqual(t.limit_of("lab01", "public-cpu")("fast"), 120.0)
        t.record("lab01", "public-cpu", {"fast": {"status": "passed", "secs": 0.1},
                                         "slow": {"status": "passed", "secs": 20.0},
                                         "bad": {"status": "failed", "secs": 1.0}})
        t.save()
        t = times.Times(args, {}, {"01": "lab01-x"})
        self.assertEqual(t.unknown(), [])
        limit = t.limit_of("lab01", "public-cpu")
        self.assertEqual((limit("fast"), limit("slow"), limit("bad")),
                         (times.FLOOR, 100.0, 120.0))
        self.write("root/tests/test_lab01_x.c", "other tests")  # measured again
        self.assertEqual(times.Times(args, {}, {"01": "lab01-x"}).unknown(), ["01"])

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
        if helpers.BACKEND != "cpu" or gpu or not shutil.which("nvcc"):
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


if __name__ == "__main__":
    unittest.main()
