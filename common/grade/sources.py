"""The grader's view of the trees: which labs and test files there are (the tests in them
the judges list: prepare.list_tests), which files a student writes, and the copies that
judges and workers are built in.
"""
import errno
import glob
import os
import re
import shutil
import stat

# What the scratch tree takes from build/cpu/: the CPU backend's runtimes and rewriter, built
# from common/cpu/ alone (no student code), which every grading would otherwise rebuild.
RUNTIME_BUILDS = ("runtime", "runtime-asan", "runtime-tsan", "cucc-rewrite")



def read_up_to(fd, limit):
    """At most limit bytes from fd, from where it stands: a file that grows while it is read
    costs no more."""
    chunks, left = [], limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)

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
    file of that name anywhere in it (students upload trees of all shapes). The grader
    looks in its staged copy (stage_submission), which holds regular files only."""
    found = []
    for dirpath, dirnames, filenames in os.walk(student):
        dirnames[:] = [d for d in dirnames if d not in (".git", "build")]
        if name in filenames:
            found.append(os.path.join(dirpath, name))
    for rel in (("labs", labdir, name), (labdir, name), (name,)):
        if os.path.join(student, *rel) in found:
            return os.path.join(student, *rel)
    return found[0] if len(found) == 1 else None


STAGE_FILE_LIMIT = 1 << 20  # a submitted exercise file
STAGE_ENTRIES = 100000      # entries of a submission walked, at most
STAGE_DEPTH = 32            # folders deep


def stage_submission(src, dest, names):
    """Copies the files of a submission that a student may have written (named in names)
    into dest, the grader's own folder, before any student code runs, so that nothing
    grades what a student's code could change afterwards (a folder swapped for a link
    between a check and an open). No link is followed anywhere below src: each folder is
    opened relative to its parent's descriptor with O_NOFOLLOW, each file the same way,
    regular files of at most STAGE_FILE_LIMIT bytes only; .git and build/ are not entered.
    Returns {relative path: why it was refused} for files of those names not copied."""
    refused, budget = {}, [STAGE_ENTRIES]
    top = os.open(src, os.O_RDONLY | os.O_DIRECTORY)
    try:
        stage_folder(top, "", dest, set(names), refused, budget, 0)
    finally:
        os.close(top)
    return refused


def stage_folder(fd, rel, dest, names, refused, budget, depth):
    for entry in os.scandir(fd):
        budget[0] -= 1
        if budget[0] < 0 or depth > STAGE_DEPTH:
            return
        path = os.path.join(rel, entry.name)
        if entry.is_dir(follow_symlinks=False):
            if entry.name in (".git", "build"):
                continue
            try:
                sub = os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except OSError:
                continue
            try:
                stage_folder(sub, path, dest, names, refused, budget, depth + 1)
            finally:
                os.close(sub)
        elif entry.name in names:
            data, why = stage_file(fd, entry.name)
            if why:
                refused[path] = why
                continue
            os.makedirs(os.path.join(dest, rel), exist_ok=True)
            with open(os.path.join(dest, path), "wb") as f:
                f.write(data)


def stage_file(dir_fd, name):
    """(bytes, "") of a file in a folder open as dir_fd, or (None, why not)."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
    except OSError as e:
        if e.errno == errno.ELOOP:
            return None, "is a symbolic link, which the grader does not follow"
        return None, "could not be read (%s)" % e.strerror
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, "is not a regular file"
        if st.st_size > STAGE_FILE_LIMIT:
            return None, "is larger than %d KiB" % (STAGE_FILE_LIMIT >> 10)
        data = read_up_to(fd, STAGE_FILE_LIMIT + 1)
        if len(data) > STAGE_FILE_LIMIT:
            return None, "is larger than %d KiB" % (STAGE_FILE_LIMIT >> 10)
        return data, ""
    finally:
        os.close(fd)


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
    copy_runtimes(root, tree)
    return tree


def student_tree(root, where):
    """A copy of what the student's code builds with: the Makefile, common/, labs/ and
    the worker's half of each lab's calls (tests/remote_*.c), with the CPU backend's
    runtimes. No test, hidden test, points file or solution: nothing secret."""
    tree = os.path.join(where, "tree")
    os.makedirs(os.path.join(tree, "tests"))
    shutil.copy2(os.path.join(root, "Makefile"), tree)
    for name in ("common", "labs"):
        shutil.copytree(os.path.join(root, name), os.path.join(tree, name), symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
    for path in glob.glob(os.path.join(root, "tests", "remote_*.c")):
        shutil.copy2(path, os.path.join(tree, "tests"))
    copy_runtimes(root, tree)
    return tree


def copy_runtimes(root, tree):
    """The CPU backend's runtimes and rewriter (RUNTIME_BUILDS), built in our tree from
    common/cpu/ alone, into a copy of it: every grading would otherwise rebuild them. make
    rebuilds them there if they are stale."""
    for name in RUNTIME_BUILDS:
        src = os.path.join(root, "build", "cpu", name)
        dst = os.path.join(tree, "build", "cpu", name)
        if os.path.isdir(src):
            shutil.copytree(src, dst, symlinks=True)
        elif os.path.isfile(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)


PASSED_ON = ("PATH", "LANG", "LC_ALL", "LD_LIBRARY_PATH", "CPATH", "LIBRARY_PATH", "CUDA_HOME",
             "CUDA_PATH", "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "TERM",
             "CUCC_GCC", "CUCC_RACE_GCC")


def plain_env(home, extra=None):
    """The environment of builds, judges and workers: the few variables that find the
    compilers, libraries and GPU, nothing else of the grader's (its secrets, a parent
    make's flags), HOME and TMPDIR as given."""
    env = {k: os.environ[k] for k in PASSED_ON if k in os.environ}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    env.update(HOME=home, TMPDIR=home)
    env.update(extra or {})
    return env
