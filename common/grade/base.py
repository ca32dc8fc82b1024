"""What gradings build from our files alone, kept for the next grading of the same tree: the
tree every submission's build starts from (our Makefile, common/ and the lab skeletons, with
all but the student's files built for each run: build/grade-base/KEY) and the judges
(prepare.py: build/grade-judges/KEY). KEY hashes all they were built from (the files, the CPU
backend's runtimes, the compilers, the make variables, the runs), so a change builds anew. No
student's code ever runs in them or writes to them: each grading copies them (mode 700, the
grader's), and the judges hold the hidden tests, as our tree does.
"""
import hashlib
import os
import shutil
import tempfile
import time

from run import make
from sources import PASSED_ON, RUNTIME_BUILDS, student_tree

UNUSED = 3600  # a base nobody copied for this many seconds may go (none in use is removed)
KEPT = 4       # bases kept beyond those used within UNUSED


def key(args, labs, paths, *more):
    """What a tree is built from, hashed: the files (paths under args.root), the CPU
    backend's runtimes, the compilers, the make variables, the grading's runs and `more`."""
    from labgrade import runs_of  # (labgrade imports prepare, which imports this)
    h = hashlib.sha256(repr((sorted(labs.items()), args.backend, args.make_var, more,
                             [tuple(r) for r in runs_of(args)],
                             sorted((k, os.environ.get(k)) for k in PASSED_ON),
                             [stamp(shutil.which(c)) for c in ("gcc", "g++", "nvcc")])).encode())
    root = args.root
    for path in paths:
        h.update(path[len(root):].encode() + b"\0")
        with open(path, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    for name in RUNTIME_BUILDS:  # built by make in our tree: their size and time suffice
        for folder, _, files in os.walk(os.path.join(root, "build", "cpu", name)):
            for f in sorted(files):
                h.update(repr((f, stamp(os.path.join(folder, f)))).encode())
        h.update(repr(stamp(os.path.join(root, "build", "cpu", name))).encode())
    return h.hexdigest()[:24]


def files_under(root, tops, skip=()):
    """The files under root/TOP for each of tops (a file or a folder), sorted, but those
    whose path relative to root is in skip."""
    paths = []
    for top in tops:
        start = os.path.join(root, top)
        if os.path.isfile(start):
            paths.append(start)
        for folder, dirs, files in os.walk(start):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" and
                             os.path.relpath(os.path.join(folder, d), root) not in skip)
            paths += [os.path.join(folder, f) for f in sorted(files)]
    return paths


def stamp(path):
    try:
        st = os.stat(path) if path else None
    except OSError:
        st = None
    return (path, st.st_size, st.st_mtime_ns) if st else (path,)


def cached(args, name, digest, build, scratch):
    """build/grade-NAME/DIGEST, made by build(folder) (which returns False when what it built
    is not to be kept) unless an earlier grading made it; else a folder in scratch. Returns
    the folder, which the grading copies and never changes."""
    cache = os.path.join(args.root, "build", "grade-" + name)
    try:
        os.makedirs(cache, mode=0o700, exist_ok=True)
    except OSError:  # a tree we may not write: this grading's own, not kept
        cache = scratch
    done = os.path.join(cache, digest)
    if os.path.isdir(done):
        os.utime(done)  # in use: not pruned
        return done
    new = tempfile.mkdtemp(prefix="new-", dir=cache)
    try:
        keep = build(new)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    if not keep:
        moved = os.path.join(scratch, name)
        shutil.move(new, moved)
        return moved
    try:
        os.rename(new, done)
    except OSError:  # another grading made it meanwhile: theirs
        shutil.rmtree(new, ignore_errors=True)
    prune(cache, done)
    return done


def base_tree(args, labs, scratch):
    """The tree each submission's build starts from, with its common parts built (in scratch,
    not kept, if that build fails: each submission's build then says why)."""
    paths = files_under(args.root, ["Makefile", "common", "labs"])
    tests = os.path.join(args.root, "tests")
    paths += sorted(os.path.join(tests, f) for f in os.listdir(tests) if f.startswith("remote_"))

    from labgrade import runs_of, worker_targets

    def build(folder):
        tree = student_tree(args.root, folder)
        ok = True
        for run in runs_of(args):
            targets = [worker_targets(args, "lab" + n, d)[run.kind] for n, d in labs.items()]
            ok = make(args, tree, targets, os.path.join(folder, "build-%s.txt" % run.kind),
                      run.race, backend=run.backend)[0] and ok
        return ok
    return os.path.join(cached(args, "base", key(args, labs, paths), build, scratch), "tree")


def prune(cache, keep):
    """Removes the bases that no grading has copied within UNUSED seconds beyond the KEPT
    latest of them, and unfinished ones as old."""
    now, old = time.time(), []
    for name in os.listdir(cache):
        path = os.path.join(cache, name)
        try:
            age = now - os.stat(path).st_mtime
        except OSError:
            continue
        if path != keep and age > UNUSED:
            old.append((name.startswith("new-"), age, path))
    old.sort()
    finished = [p for new, _, p in old if not new]
    for path in finished[KEPT:] + [p for new, _, p in old if new]:
        shutil.rmtree(path, ignore_errors=True)
