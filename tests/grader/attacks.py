"""Attacks on the grader (issue 13): lab01 submissions that cheat, snoop or sabotage, made at
run time from the skeleton or the solution (ATTACKS), graded as one class next to the pristine
skeleton and solution (honest_skeleton, honest_solution) by a copy of this tree that holds
canaries: a line in the hidden tests, in the hidden points, in the solution, and a variable in
the grader's environment, in a tree that others may enter (as an instructor's checkout). Each
attack must score what the honest code under it scores (no more, where the grader refuses it
a file; less only where a limit stopped it, which its feedback names), leak no canary (nor
/etc/shadow) into its results.json or lab01.xml, leave no process of its own behind, spare the
honest solution graded beside it, and leave a results.json of at most 1 MB; the class must be
graded within TIME_LIMIT. Against the grader before the judge (issue 13), the verdict attacks
scored 23.5 of 23.5 on the skeleton (1 honestly), the canaries and /etc/shadow leaked, the
symlink got the solution's marks, daemons outlived the grading, the killer cost its neighbour
8.5 points and copied its file, and the FIFO hung the grader.

The attack code is C++ appended to vector_add.cu after attacks_prelude.PRELUDE (the CPU
backend compiles it with g++, and nvcc checks it), one module a kind of attack: the verdict
(attacks_verdict.py), reads of secrets (attacks_reads.py), processes (attacks_processes.py),
resources (attacks_resources.py) and traps (attacks_traps.py). They use constructors, a
destructor, runtime patches of the test binary, children that rename themselves atk-* (the
markers looked for in /proc afterwards). Every attack is bounded: 2000 forks, 8 GiB of
memory, 1 GiB of files (atk-fill-* in /tmp and /dev/shm), 20 minutes of sleep. Needs root, as
the grader runs in CI and on Gradescope: the grader's user separation is what is under test.
"""
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attacks_prelude import PRELUDE  # noqa: E402
from attacks_processes import PROCESSES  # noqa: E402
from attacks_reads import READS  # noqa: E402
from attacks_resources import RESOURCES  # noqa: E402
from attacks_traps import TRAPS  # noqa: E402
from attacks_verdict import VERDICT  # noqa: E402
from helpers import (BASES, CPU_BACKEND, FILE, JSON_LIMIT, LAB, LIMIT_FLAGS, ROOT,  # noqa: E402
                     clean_env, copy_tree, plant_canaries, read, read_regular, write)

TIME_LIMIT = 600  # seconds for the class run: about 3 minutes on 2 cores (2026-11-23)

# The attacks: NAME: (BASE, EXPECT, MARKERS, CODE). BASE: the file the code is appended to;
# EXPECT: "same" (each test scores what BASE's does), "at most" (no test scores more than
# in BASE: a build that the grader stops reading its files may fail) or "limited" (at most,
# and every test that scores less names the limit that stopped it); MARKERS: the names of
# the processes it starts. A CODE of None: the exercise file is a symlink to the solution.
ATTACKS = {**VERDICT, **READS, **PROCESSES, **RESOURCES, **TRAPS}

HONEST = {"honest_skeleton": "skeleton", "honest_solution": "solution"}


def make_class(where, root):
    """The class folder: a folder per attack and per honest base, each with vector_add.cu."""
    texts = {base: read(os.path.join(ROOT, rel)) for base, rel in BASES.items()}
    for name, base in HONEST.items():
        write(os.path.join(where, name, FILE), texts[base])
    for name, (base, _, _, code) in ATTACKS.items():
        path = os.path.join(where, name, FILE)
        if code is None:
            os.makedirs(os.path.dirname(path))
            os.symlink(os.path.join(root, BASES["solution"]), path)
            continue
        attack = (PRELUDE + code).replace("@ROOT@", root).replace("LAB_DIR", '"%s"' % LAB)
        write(path, texts[base] + attack)


def marked_processes():
    """{pid: comm} of the processes whose name is an attack's marker (atk-*)."""
    found = {}
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/comm" % pid, encoding="utf-8", errors="replace") as f:
                comm = f.read().strip()
        except OSError:
            continue
        if comm.startswith("atk-"):
            found[int(pid)] = comm
    return found


def attack_files():
    return glob.glob("/tmp/atk-*") + glob.glob("/dev/shm/atk-*")


def grader_has_flag(root, flag):
    p = subprocess.run([sys.executable, os.path.join(root, "common", "grade", "grade.py"),
                        "--help"], stdout=subprocess.PIPE, universal_newlines=True)
    return flag in p.stdout


def grader_has_limits(root):
    return all(grader_has_flag(root, flag) for flag in LIMIT_FLAGS[::2])


def run_class(root, class_dir, out, env, log):
    """grade.py on the class, from root, in a session of its own: killed, all of it, at
    TIME_LIMIT. Returns (seconds, timed out)."""
    cmd = [sys.executable, os.path.join(root, "common", "grade", "grade.py"), "--class",
           class_dir, "--lab", "01", "--class-jobs", "2", "--out", out, "--backend", "cpu"]
    if grader_has_limits(root):
        cmd += LIMIT_FLAGS
    if grader_has_flag(root, "--no-solution-times"):  # the class's own time is what counts
        cmd.append("--no-solution-times")
    start = time.monotonic()
    with open(log, "wb") as f:
        p = subprocess.Popen(cmd, cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=f,
                             stderr=subprocess.STDOUT, start_new_session=True)
        try:
            p.wait(timeout=TIME_LIMIT)
            return time.monotonic() - start, False
        except subprocess.TimeoutExpired:
            for sig, grace in ((signal.SIGTERM, 20), (signal.SIGKILL, None)):
                try:
                    os.killpg(p.pid, sig)
                    p.wait(timeout=grace)
                    break
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    pass
            p.wait()
            return time.monotonic() - start, True


class Attacks(unittest.TestCase):
    """ATTACKS and the honest skeleton and solution graded as one class by a copy of this tree
    that holds canaries (see the module's doc)."""

    @classmethod
    def setUpClass(cls):
        if not CPU_BACKEND:
            raise unittest.SkipTest("needs the CPU backend (common/cpu/cpu.mk)")
        if os.geteuid() != 0:
            raise unittest.SkipTest("needs root: the grader's user separation")
        cls.tmp = tempfile.mkdtemp(prefix="test-grader-attacks-")
        os.chmod(cls.tmp, 0o755)  # as an instructor's checkout: others may enter
        root, class_dir = os.path.join(cls.tmp, "root"), os.path.join(cls.tmp, "class")
        cls.out, cls.log = os.path.join(cls.tmp, "out"), os.path.join(cls.tmp, "grade.log")
        copy_tree(root)
        cls.root = root
        cls.canaries = plant_canaries(root)
        make_class(class_dir, root)
        scratch = os.path.join(cls.tmp, "scratch")  # the grader's temporary folders
        os.makedirs(scratch)
        env = clean_env()
        env.update(GRADER_SECRET=cls.canaries["ENV"], TMPDIR=scratch)
        try:
            with open("/etc/shadow", encoding="utf-8", errors="replace") as f:
                cls.shadow = f.readline().strip()
        except OSError:
            cls.shadow = None
        cls.secs, cls.timed_out = run_class(root, class_dir, cls.out, env, cls.log)
        cls.left = marked_processes()  # before a test may look
        cls.loot = [read_regular(p, 1 << 20) for p in glob.glob("/tmp/atk-loot-*")]

    @classmethod
    def tearDownClass(cls):
        for pid in marked_processes():  # those still there, found again
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for path in attack_files():
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.remove(path)
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def results(self, student):
        data = read_regular(os.path.join(self.out, student, "results.json"), JSON_LIMIT)
        return json.loads(data) if data is not None else None

    def scores(self, student):
        return {t["name"]: t["score"] for t in (self.results(student) or {"tests": []})["tests"]}

    def test_scores_what_the_honest_code_scores(self):
        for name, (base, expect, _, _) in ATTACKS.items():
            with self.subTest(attack=name):
                got, want = self.scores(name), self.scores("honest_" + base)
                self.assertTrue(want, "honest_%s has no results" % base)
                if expect == "same":
                    wrong = {t: (got.get(t), s) for t, s in want.items() if got.get(t) != s}
                else:
                    wrong = {t: (s, want.get(t, 0)) for t, s in got.items() if s > want.get(t, 0)}
                if expect == "limited":
                    outputs = {t["name"]: t["output"] for t in self.results(name)["tests"]}
                    wrong.update({t: (s, want.get(t), "no limit named") for t, s in got.items()
                                  if s < want.get(t, 0) and "limit" not in outputs[t]})
                self.assertEqual(wrong, {}, "%s: {test: (score, honest %s's)}" % (name, base))

    def test_attacks_built(self):
        """Each attack compiled, so that its score says what the grader did with it; those
        that embed a file the grader hides must not, and say why."""
        for name, (_, _, _, code) in ATTACKS.items():
            output = (self.results(name) or {}).get("output", "")
            if name in ("root_incbin", "root_include"):
                with self.subTest(attack=name):
                    self.assertRegex(output, "(?s)did not compile.*(not found|No such file|"
                                     "Permission denied)")
                continue
            if code is None:
                continue
            with self.subTest(attack=name):
                self.assertNotIn("did not compile", output)

    def test_kept_builds_are_the_graders_alone(self):
        """What the grading keeps for the next one (base.py: the judges, the skeletons' built
        tree) no student's uid may change: a file changed there would grade the next student."""
        kept = []
        for name in ("grade-base", "grade-judges"):
            for folder, dirs, files in os.walk(os.path.join(self.root, "build", name)):
                kept += [os.path.join(folder, f) for f in dirs + files]
        self.assertTrue(kept, "the class run kept no build")
        for path in kept:
            st = os.lstat(path)
            self.assertEqual(st.st_uid, os.geteuid(), path)
            self.assertFalse(st.st_mode & 0o002 or (st.st_mode & 0o020 and st.st_gid != 0),
                             "%s: mode %o" % (path, st.st_mode))

    def test_leaks_nothing(self):
        secret = list(self.canaries.values()) + ([self.shadow] if self.shadow else [])
        for name in ATTACKS:
            with self.subTest(attack=name):
                for report in ("results.json", "lab01.xml"):
                    data = read_regular(os.path.join(self.out, name, report), 64 << 20) or b""
                    text = data.decode("utf-8", errors="replace")
                    self.assertEqual([s for s in secret if s in text], [], report)

    def test_leaves_no_process(self):
        for name, (_, _, markers, _) in ATTACKS.items():
            with self.subTest(attack=name):
                left = sorted(pid for pid, comm in self.left.items() if comm in markers)
                self.assertEqual(left, [], "%s: processes left running" % name)

    def test_results_json_written(self):
        for name in list(HONEST) + list(ATTACKS):
            with self.subTest(student=name):
                path = os.path.join(self.out, name, "results.json")
                self.assertIsNotNone(read_regular(path, JSON_LIMIT),
                                     "%s: no regular file of at most 1 MB" % path)
                self.assertIn("tests", self.results(name))

    def test_neighbour_unharmed(self):
        """honest_solution, graded beside kill_neighbours: full marks, and its file not copied."""
        with self.subTest(check="full marks"):
            results = self.results("honest_solution") or {"score": None, "max_score": 0}
            self.assertEqual(results["score"], results["max_score"])
        with self.subTest(check="not copied"):
            solution = read(os.path.join(ROOT, BASES["solution"])).encode()
            self.assertFalse(solution in self.loot,
                             "honest_solution's vector_add.cu copied to /tmp/atk-loot-*")

    def test_within_time_limit(self):
        self.assertFalse(self.timed_out, "the class run was stopped at %d s" % TIME_LIMIT)
        self.assertLess(self.secs, TIME_LIMIT)


if __name__ == "__main__":
    unittest.main()
