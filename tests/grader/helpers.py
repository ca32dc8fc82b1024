"""What the grader's own tests share: the tree's paths, files read and written, the environment
the grader runs in, grade.py run as `make grade` runs it (with the settings that test_grader.py's
main was given), and a copy of this tree with canaries (for the attacks, attacks.py and
attacks_wall.py, and the faults of the machine, faults.py).
"""
import argparse
import json
import os
import secrets
import shutil
import stat
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "common", "grade"))
sys.dont_write_bytecode = True  # no __pycache__ left in common/grade/ or here
import grade  # noqa: E402  (the module under test, found through the path above)

# How test_grader.py was asked to run (its main sets them).
BACKEND = "cpu"
MAKE_VARS = []  # on a GPU: --make-var ARCH=native, one architecture, not the fat binary
KERNELS_RUN = True  # set in main: whether this machine can run kernels at all
SKIP_WHY = "skipped: needs the CPU backend (common/cpu/cpu.mk)"

# The attacks' lab, and what they need: the CPU backend, the limits the class is graded with.
LAB = "lab01-vector-add"
FILE = "vector_add.cu"
BASES = {"skeleton": os.path.join("labs", LAB, FILE),
         "solution": os.path.join("solutions", LAB, FILE)}
JSON_LIMIT = 1 << 20
LIMIT_FLAGS = ["--memory-limit", "2048", "--disk-limit", "256", "--procs", "256"]
CPU_BACKEND = os.path.exists(os.path.join(ROOT, "common", "cpu", "cpu.mk"))


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def read_regular(path, limit):
    """The bytes of a regular file of at most limit bytes; None for anything else (a FIFO, a
    link, a file too large: read none of those, they are traps)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
        return None
    with open(path, "rb") as f:
        return f.read(limit + 1)


def clean_env():
    return {k: v for k, v in os.environ.items()
            if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}


def work_tests(*variants):
    """lab01's work_in_proportion tests of these variants, which the CPU backend alone has."""
    return {"lab01 work_in_proportion." + v for v in variants} if BACKEND == "cpu" else set()


def cpu_only_tests(*names):
    """lab01's tests of these names that the CPU backend alone has (timed_launch_errors: a GPU
    has no knob to make it refuse a launch)."""
    return {"lab01 " + n for n in names} if BACKEND == "cpu" else set()


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


def judge_names(lab, labdir, hidden, backend, given=False):
    """A lab's tests as its judge for backend lists them (built here: a judge is plain C,
    the tests without the kernels, which needs no GPU and no nvcc); given: those that may
    pass on a skeleton (--list-given)."""
    judge = grade.judge_path(argparse.Namespace(backend=backend), labdir, lab, hidden)
    subprocess.run(["make", "--no-print-directory", "-s", "BACKEND=" + backend, judge], cwd=ROOT,
                   env=clean_env(), check=True, stdout=subprocess.DEVNULL)
    return subprocess.run([os.path.join(ROOT, judge), "--list-given" if given else "--list"],
                          check=True, stdout=subprocess.PIPE, universal_newlines=True).stdout.split()


def copy_tree(where):
    """This tree without .git and outputs, with the CPU backend's prebuilt runtimes."""
    skip = {".git", "build", "grade", "dist"}
    shutil.copytree(ROOT, where, symlinks=True,
                    ignore=lambda d, names: skip & set(names) if d == ROOT else set())
    copy_runtimes(where)


def copy_runtimes(where):
    """This tree's CPU backend runtimes (and cucc's rewriter), built, into the tree at where:
    the same sources, so make finds them current there (each is a minute of 2 cores)."""
    for name in ("runtime", "runtime-asan", "runtime-tsan", "cucc-rewrite"):
        src = os.path.join(ROOT, "build", "cpu", name)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(where, "build", "cpu", name), symlinks=True)
        elif os.path.isfile(src):
            os.makedirs(os.path.join(where, "build", "cpu"), exist_ok=True)
            shutil.copy2(src, os.path.join(where, "build", "cpu", name))


def plant_canaries(root):
    """A random canary in each secret of root: {what: canary}."""
    canaries = {what: "CANARY-%s-%s" % (what, secrets.token_hex(8))
                for what in ("HIDDEN", "POINTS", "SOLUTION", "ENV")}
    for rel, line in ((os.path.join("tests", "hidden", "test_lab01_hidden.c"), "/* %s */"),
                      (os.path.join("tests", "hidden", "lab01.txt"), "# %s"),
                      (BASES["solution"], "/* %s */")):
        what = {"test_lab01_hidden.c": "HIDDEN", "lab01.txt": "POINTS"}.get(
            os.path.basename(rel), "SOLUTION")
        with open(os.path.join(root, rel), "a", encoding="utf-8") as f:
            f.write("\n" + line % canaries[what] + "\n")
    return canaries
