#!/usr/bin/env python3
"""`make dist`: what leaves the instructor's tree.

dist/cuda-labs-student.tar.gz  the student copy (and GitHub Classroom's template): the
    committed tree without solutions/, tests/hidden/, tests/grader/, the Gradescope files,
    CI and build or grade outputs, and with its own README (common/student/README.md).
    `make labNN test` works in it as it is. The points files ship: a student should know
    what each test is worth, and they hold nothing secret (hidden tests keep their points
    in tests/hidden/).
dist/gradescope-autograder[-labNN].zip  Gradescope's autograder: setup.sh and
    run_autograder at the top, our tree with the hidden tests, no solutions; the list of
    files a student writes goes in common/grade/exercises.txt instead.
Both carry common/grade/times.json, the solutions' times on this machine (recorded by `make
grade SOLUTION=1`), from which their graders set each test's time limit.

Only the last commit ships (git archive HEAD), so work in progress stays home.
"""
import argparse
import gzip
import io
import os
import re
import subprocess
import sys
import tarfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import times  # noqa: E402  (the solutions' times, shipped for the tests' limits)
ROOT = os.path.dirname(os.path.dirname(HERE))
ALWAYS_OUT = ("solutions/", "build/", "grade/", "dist/", "plots/data/", ".ci/", ".deps/",
              "tests/grader/")
STUDENT_OUT = ALWAYS_OUT + ("tests/hidden/", "common/grade/gradescope/", "common/student/",
                            "docs/instructors.md")
GRADESCOPE_OUT = ALWAYS_OUT + (".github/", ".devcontainer/", "slides/", "common/grade/gradescope/")
DATE = 1767225600  # 2026-01-01: the same files give the same archives


def committed_files(root):
    """{path: (mode, bytes)} of the commit HEAD (git archive), or of the tree as it is when
    it is no git checkout."""
    files = {}
    if os.path.isdir(os.path.join(root, ".git")):
        data = subprocess.run(["git", "archive", "--format=tar", "HEAD"], cwd=root, check=True,
                              stdout=subprocess.PIPE).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            for m in tar.getmembers():
                if m.isfile():
                    files[m.name] = (0o755 if m.mode & 0o100 else 0o644,
                                     tar.extractfile(m).read())
        return files
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for f in filenames:
            path = os.path.join(dirpath, f)
            with open(path, "rb") as data:
                files[os.path.relpath(path, root)] = (os.stat(path).st_mode & 0o777, data.read())
    return files


def uncommitted(root):
    if not os.path.isdir(os.path.join(root, ".git")):
        return ""
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                          stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()


def leaks(files):
    """Skeleton files that still hold a solution: a release must never carry one."""
    return [f for f, (_, data) in files.items() if f.startswith("labs/") and
            (b"SOLUTION BEGIN" in data or b"GIVEN BEGIN" in data)]


def exercises(root):
    """lab01-vector-add vector_add.cu ...: one line per lab, the files a student writes."""
    sol = os.path.join(root, "solutions")
    lines = []
    for lab in sorted(os.listdir(sol)):
        names = sorted(f for f in os.listdir(os.path.join(sol, lab)) if f.endswith(".cu"))
        if re.match(r"lab\d\d-", lab) and names:
            lines.append(" ".join([lab] + names))
    return "# lab and the files a student writes (from solutions/, by make dist)\n" + \
        "\n".join(lines) + "\n"


def student_readme(files):
    """common/student/README.md with the table of labs of our README: the student copy's
    README, which says how to work and hand in, and nothing of solutions or grading."""
    ours = files["README.md"][1].decode()
    labs = re.search(r"<!-- labs -->\n(.*?)<!-- end labs -->\n", ours, re.S).group(1)
    mode, theirs = files["common/student/README.md"]
    return mode, theirs.decode().replace("<!-- labs -->\n", labs).encode()


def student_tarball(files, path, top="cuda-labs"):
    with open(path, "wb") as out, gzip.GzipFile(fileobj=out, mode="wb", mtime=DATE) as gz, \
            tarfile.open(fileobj=gz, mode="w") as tar:
        for f, (mode, data) in sorted(files.items()):
            info = tarfile.TarInfo(top + "/" + f)
            info.size, info.mode, info.mtime = len(data), mode, DATE
            tar.addfile(info, io.BytesIO(data))


def add_bytes(z, name, data, mode=0o644):
    info = zipfile.ZipInfo(name, date_time=time.gmtime(DATE)[:6])
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    z.writestr(info, data)


def gradescope_zip(root, files, path, lab):
    with zipfile.ZipFile(path, "w") as z:
        for name in ("setup.sh", "run_autograder"):
            mode, data = files["common/grade/gradescope/" + name]
            add_bytes(z, name, data, 0o755)
        add_bytes(z, "gradescope.conf",
                  ("# read by run_autograder: the lab this autograder grades (empty: all)\n"
                   "LAB=%s\n" % (lab or "")).encode())
        add_bytes(z, "common/grade/exercises.txt", exercises(root).encode())
        for f, (mode, data) in sorted(files.items()):
            if not f.startswith(GRADESCOPE_OUT):
                add_bytes(z, f, data, mode)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "dist"))
    ap.add_argument("--lab", help="NN: a Gradescope autograder for this lab alone")
    args = ap.parse_args(argv)
    if not os.path.isdir(os.path.join(ROOT, "solutions")):
        print("make dist: no solutions/ here: this is already a student copy", file=sys.stderr)
        return 1
    check = subprocess.run(["make", "--no-print-directory", "check-skeletons"], cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True,
                           env={k: v for k, v in os.environ.items() if k != "MAKEFLAGS"})
    if check.returncode != 0:
        print("make dist: %s" % check.stdout.strip(), file=sys.stderr)
        return 1
    files = committed_files(ROOT)
    shipped = times.merged(ROOT)  # the solutions' times: the tests' limits there
    if shipped:
        files[times.SHIPPED] = (0o644, shipped)
    else:
        print("make dist: no times of the solutions on this machine (make grade SOLUTION=1 "
              "records them), so the graders of the copies use --test-timeout for every test")
    student = {f: v for f, v in files.items() if not f.startswith(STUDENT_OUT)}
    student["README.md"] = student_readme(files)
    bad = leaks(student)
    if bad:
        print("make dist: solutions in the student copy: %s" % " ".join(bad), file=sys.stderr)
        return 1
    if uncommitted(ROOT):
        print("make dist: from the last commit; not in it: the uncommitted changes to\n  " +
              uncommitted(ROOT).replace("\n", "\n  "))
    os.makedirs(args.out, exist_ok=True)
    lab = re.sub(r"^lab", "", args.lab) if args.lab else ""
    tarball = os.path.join(args.out, "cuda-labs-student.tar.gz")
    autograder = os.path.join(args.out, "gradescope-autograder%s.zip" % (
        "-lab" + lab if lab else ""))
    student_tarball(student, tarball)
    gradescope_zip(ROOT, files, autograder, lab)
    for path in (tarball, autograder):
        print("%s (%d kB)" % (os.path.relpath(path), (os.path.getsize(path) + 1023) // 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
