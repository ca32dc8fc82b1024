"""The grader's wall v3 (issue 28): five holes a dishonest student found in the wall of v2,
each an attack graded as one class by a copy of this tree, as attacks.py grades its own.

1. lie_race_checker: the worker answers the judge's "race_checker" with 1 (a thread between
   the judge and the worker's loop), so that the tests cap their sizes at 2^15, over a
   solution that is wrong past 40000 elements (honest_capped, the same without the lie).
   Before v3 it scored 23.5 of 23.5; now the judge asks the grader, and it scores what
   honest_capped scores.
2. zz_peek reads the `make dist` zip in the graded tree and a second checkout of the course
   elsewhere on the machine (tests/hidden in a folder that others may read);
3. leave_notes leaves a note in /run/lock, /tmp and /dev/shm and a System V segment, and
   zz_peek (graded after it, one submission at a time) looks for them; hide_disk fills
   a shared folder past the disk limit with a file it deleted but holds open;
4. zz_peek reads its classmates' code in the class folder and the results.json of those
   graded before it;
5. a folder of a submission swapped for a link to the solutions between a look and an open
   (SwapAfterCheck: the staging of submissions, under a thread that swaps all the time).

zz_peek prints ATK-LEAK:WHAT for each thing it could read, which the grade then shows (its
tests fail: it is the skeleton): no ATK-LEAK may reach any results.json. The class is graded
twice: with jails (bubblewrap), and with --no-jail (the fallback: uids, limits, cleaning),
where the second checkout stays readable, as the grade then says, and everything else must
hold. Needs root.
"""
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attacks_prelude import PRELUDE  # noqa: E402
from helpers import (BASES, CPU_BACKEND, FILE, JSON_LIMIT, LAB, LIMIT_FLAGS, ROOT,  # noqa: E402
                     clean_env, copy_tree, plant_canaries, read, read_regular, write)

import sandbox  # noqa: E402  (common/grade, on the path through helpers)
import sources  # noqa: E402

CAP = ("int vector_add_launch(enum vector_add_variant v, const float *a, const float *b, "
       "float *c, size_t n)\n{\n", "    if (n > 40000)\n        n = 40000;\n")
NOTE_KEY = 0x41544B31  # the System V key of leave_notes's segment ("ATK1")

LIE = r'''
#include <pthread.h>
/* Between the judge and the worker's loop: "race_checker" answered 1 here, the rest passed on. */
static int atk_judge_in = -1, atk_judge_out = -1, atk_loop_in = -1, atk_loop_out = -1;

ATK int atk_io(int fd, void *p, size_t n, int writing)
{
    char *c = (char *)p;
    while (n > 0) {
        ssize_t k = writing ? write(fd, c, n) : read(fd, c, n);
        if (k <= 0)
            return -1;
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

ATK int atk_pass(int from, int to, char **msg, uint64_t *len)
{
    if (atk_io(from, len, 8, 0) || !(*msg = (char *)malloc(*len + 1)) || atk_io(from, *msg, *len, 0))
        return -1;
    return to < 0 ? 0 : atk_io(to, len, 8, 1) || atk_io(to, *msg, *len, 1);
}

ATK void *atk_lie(void *)
{
    for (;;) {
        char *m = NULL, *a = NULL;
        uint64_t len, alen, name;
        if (atk_pass(atk_judge_in, -1, &m, &len))
            break;
        memcpy(&name, m, 8);
        if (len >= 20 && name == 12 && !memcmp(m + 8, "race_checker", 12)) {
            uint64_t answer[3] = {16, 1, UINT64_MAX}; /* 1, and no CUDA failure text */
            atk_io(atk_judge_out, answer, sizeof answer, 1);
        } else if (atk_io(atk_loop_out, &len, 8, 1) || atk_io(atk_loop_out, m, len, 1) ||
                   atk_pass(atk_loop_in, atk_judge_out, &a, &alen)) {
            break;
        }
        free(m);
        free(a);
    }
    close(atk_loop_out);
    return NULL;
}

__attribute__((constructor)) static void atk_lie_start(void)
{
    size_t n = 0;
    char *cmd = atk_read("/proc/self/cmdline", 4096, &n);
    int to_loop[2], from_loop[2];
    pthread_t t;
    if (!cmd || !atk_graded() || strlen(cmd) + 1 >= n)
        return;
    char *first = cmd + strlen(cmd) + 1, *second = first + strlen(first) + 1;
    if (second >= cmd + n || pipe(to_loop) || pipe(from_loop))
        return;
    int from_judge = atoi(first), to_judge = atoi(second);
    atk_judge_in = dup(from_judge);
    atk_judge_out = dup(to_judge);
    dup2(to_loop[0], from_judge);
    dup2(from_loop[1], to_judge);
    atk_loop_out = to_loop[1];
    atk_loop_in = from_loop[0];
    close(to_loop[0]);
    close(from_loop[1]);
    pthread_create(&t, NULL, atk_lie, NULL);
    pthread_detach(t);
}
'''

NOTES = r'''
#include <sys/ipc.h>
#include <sys/shm.h>
/* Notes for a later test: files that any uid may read, and a System V segment. */
__attribute__((constructor)) static void atk_leave_notes(void)
{
    static const char *const places[] = {"/run/lock/atk-note", "/tmp/atk-note", "/dev/shm/atk-note",
                                         "/var/tmp/atk-note"};
    if (!atk_graded())
        return;
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        int fd = open(places[i], O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd >= 0) {
            fchmod(fd, 0666);
            if (write(fd, "ATK-NOTE\n", 9) != 9)
                perror("write");
            close(fd);
        }
    }
    int id = shmget(@KEY@, 8 << 20, IPC_CREAT | 0666);
    char *p = id >= 0 ? (char *)shmat(id, NULL, 0) : (char *)-1;
    if (p != (char *)-1) {
        memset(p, 'N', 8 << 20);
        shmdt(p);
    }
}
'''

PEEK = r'''
#include <sys/ipc.h>
#include <sys/shm.h>
/* Reads what must stay out of reach; prints ATK-LEAK:WHAT for each it could read. */
ATK void atk_leak(const char *what, const char *path)
{
    char *text = atk_read(path, 1 << 16, NULL);
    if (text)
        fprintf(stderr, "ATK-LEAK:%s %s\n", what, path);
    free(text);
}

ATK void atk_dist(const char *path) { atk_leak("dist", path); }
ATK void atk_classmate(const char *path) { atk_leak("classmate", path); }
ATK void atk_results(const char *path) { atk_leak("results", path); }
ATK void atk_note(const char *path) { atk_leak("note", path); }

__attribute__((constructor)) static void atk_peek(void)
{
    if (!atk_graded())
        return;
    atk_glob(ATK_ROOT "/dist/*.zip", atk_dist);
    atk_leak("second-checkout", "@SECOND@/tests/hidden/lab01.txt");
    atk_glob("@CLASS@/*/vector_add.cu", atk_classmate);
    atk_glob("@OUT@/*/results.json", atk_results);
    atk_glob("/run/lock/atk-*", atk_note);
    atk_glob("/tmp/atk-*", atk_note);
    atk_glob("/var/tmp/atk-*", atk_note);
    atk_glob("/dev/shm/atk-*", atk_note);
    int id = shmget(@KEY@, 0, 0);
    char *p = id >= 0 ? (char *)shmat(id, NULL, SHM_RDONLY) : (char *)-1;
    if (p != (char *)-1) {
        fprintf(stderr, "ATK-LEAK:shm %c\n", p[0]);
        shmdt(p);
    }
}
'''

HIDE_DISK = r'''
/* 300 MiB in files of at most 60 (under the file size limit of 64 MiB) deleted but held open:
 * no folder shows them; the disk limit is 256 MiB. A folder that fills (a container's /dev/shm
 * may have 64 MiB) passes on to the next; ATK-NOROOM when all are full: nothing to stop. */
ATK int atk_hidden_file(const char *dir)
{
    char path[64];
    snprintf(path, sizeof path, "%s/atk-hidden", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    unlink(path);
    return fd;
}

__attribute__((constructor)) static void atk_hide_disk(void)
{
    static char block[1 << 20];
    static const char *const dirs[] = {"/dev/shm", "/tmp", "/var/tmp"};
    int d = 0, fd, in_file = 0;
    if (!atk_graded())
        return;
    memset(block, 'D', sizeof block);
    fd = atk_hidden_file(dirs[0]);
    for (int mib = 0; mib < 300;) {
        if (fd >= 0 && in_file < 60 && write(fd, block, sizeof block) == (ssize_t)sizeof block) {
            mib++, in_file++;
            continue;
        }
        if (fd < 0 || in_file < 60)
            d++; /* this folder is full: the next */
        if (d == 3) {
            fprintf(stderr, "ATK-NOROOM: every folder full after %d MiB\n", mib);
            return;
        }
        fd = atk_hidden_file(dirs[d]), in_file = 0;
    }
    sleep(3);
}
'''

# name: (base, code); every attack is graded with jails, those marked in FALLBACK without too.
WALL_ATTACKS = {"lie_race_checker": ("capped", LIE), "leave_notes": ("skeleton", NOTES),
                "zz_peek": ("skeleton", PEEK), "hide_disk": ("skeleton", HIDE_DISK)}
FALLBACK = ("honest_skeleton", "leave_notes", "zz_peek", "hide_disk")


def make_class(where, root, names, subst):
    """The class folder: honest bases and the attacks of names, each with vector_add.cu. The
    solution carries a canary of a classmate (CLASSMATE in subst)."""
    solution = read(os.path.join(ROOT, BASES["solution"]))
    texts = {"skeleton": read(os.path.join(ROOT, BASES["skeleton"])), "capped":
             solution.replace(CAP[0], CAP[0] + CAP[1], 1),
             "solution": solution + "\n/* %s */\n" % subst["CLASSMATE"]}
    assert CAP[1] in texts["capped"], "the solution changed: fix CAP"
    for name in names:
        if name.startswith("honest_"):
            write(os.path.join(where, name, FILE), texts[name[len("honest_"):]])
            continue
        base, code = WALL_ATTACKS[name]
        attack = PRELUDE + code
        for key, value in subst.items():
            attack = attack.replace("@%s@" % key, value)
        write(os.path.join(where, name, FILE), texts[base] + attack)


def grade_class(root, class_dir, out, log, jail):
    cmd = [sys.executable, os.path.join(root, "common", "grade", "grade.py"), "--class",
           class_dir, "--lab", "01", "--class-jobs", "1", "--out", out, "--backend", "cpu",
           "--no-racecheck", "--no-solution-times"] + LIMIT_FLAGS + (
               [] if jail else ["--no-jail"])
    with open(log, "wb") as f:
        subprocess.run(cmd, cwd=root, env=clean_env(), stdin=subprocess.DEVNULL, stdout=f,
                       stderr=subprocess.STDOUT, timeout=1200)


def shm_keys():
    with open("/proc/sysvipc/shm", encoding="utf-8") as f:
        header = f.readline().split()
        return {int(dict(zip(header, line.split()))["key"]) for line in f}


class WallBase(unittest.TestCase):
    jail = True

    @classmethod
    def setUpClass(cls):
        if not CPU_BACKEND or os.geteuid() != 0:
            raise unittest.SkipTest("needs the CPU backend and root: the grader's wall")
        if cls.jail and not sandbox.available()[0]:
            raise unittest.SkipTest("no jails here: " + sandbox.available()[1])
        cls.tmp = tempfile.mkdtemp(prefix="test-grader-wall-")
        os.chmod(cls.tmp, 0o755)  # as an instructor's checkout: others may enter
        root, class_dir = os.path.join(cls.tmp, "root"), os.path.join(cls.tmp, "class")
        second = os.path.join(cls.tmp, "second")
        cls.out, cls.log = os.path.join(cls.tmp, "out"), os.path.join(cls.tmp, "grade.log")
        copy_tree(root)
        shutil.copytree(os.path.join(root, "tests"), os.path.join(second, "tests"))
        made = subprocess.run(["make", "--no-print-directory", "dist", "LAB=01"], cwd=root,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)
        assert made.returncode == 0, made.stdout
        cls.canaries = plant_canaries(root)  # after make dist, which wants current skeletons
        subprocess.run(["chmod", "-R", "a+rX", root, second], check=True)  # others may read
        subst = {"ROOT": root, "SECOND": second, "CLASS": class_dir, "OUT": cls.out,
                 "KEY": hex(NOTE_KEY), "CLASSMATE": "CANARY-CLASSMATE-%x" % random.getrandbits(64)}
        cls.canaries["CLASSMATE"] = subst["CLASSMATE"]
        names = (["honest_skeleton", "honest_solution", "honest_capped"] + list(WALL_ATTACKS)
                 if cls.jail else list(FALLBACK))
        make_class(class_dir, root, names, subst)
        cls.names = names
        grade_class(root, class_dir, cls.out, cls.log, cls.jail)
        cls.left_files = [p for p in ("/run/lock/atk-note", "/tmp/atk-note", "/dev/shm/atk-note",
                                      "/var/tmp/atk-note") if os.path.lexists(p)]
        cls.left_shm = NOTE_KEY in shm_keys()

    @classmethod
    def tearDownClass(cls):
        for path in ("/run/lock/atk-note", "/tmp/atk-note", "/dev/shm/atk-note", "/var/tmp/atk-note"):
            if os.path.lexists(path):
                os.remove(path)
        subprocess.run(["ipcrm", "-M", hex(NOTE_KEY)], stderr=subprocess.DEVNULL)
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def results(self, student):
        data = read_regular(os.path.join(self.out, student, "results.json"), JSON_LIMIT)
        return json.loads(data) if data is not None else {"tests": [], "output": ""}

    def scores(self, student):
        return {t["name"]: t["score"] for t in self.results(student)["tests"]}

    def leaks(self, student):
        text = json.dumps(self.results(student))
        return sorted({line.split()[0] for line in text.replace("\\n", "\n").splitlines()
                       if line.startswith("ATK-LEAK:")})

    def test_no_note_outlives_its_test(self):
        self.assertEqual(self.left_files, [], "notes left after the grading")
        self.assertFalse(self.left_shm, "the System V segment outlived its test")
        self.assertNotIn("ATK-LEAK:note", self.leaks("zz_peek"))
        self.assertNotIn("ATK-LEAK:shm", self.leaks("zz_peek"))

    def test_no_secret_beside_the_wall(self):
        leaks = self.leaks("zz_peek")
        for what in ("dist", "classmate", "results"):
            self.assertNotIn("ATK-LEAK:" + what, leaks)
        for name in self.names:
            text = json.dumps(self.results(name))
            self.assertEqual([c for k, c in self.canaries.items() if c in text and
                              not (k == "CLASSMATE" and name == "honest_solution")], [], name)

    def test_hidden_disk_stopped(self):
        """Every test that the skeleton passes, hide_disk loses, stopped on the disk limit."""
        honest = self.scores("honest_skeleton")
        got = self.results("hide_disk")
        lost = [t for t in got["tests"] if honest.get(t["name"], 0) > t["score"]]
        kept = [t["name"] + ": " + t["output"][-600:] for t in got["tests"]
                if t["score"] and t["score"] >= honest.get(t["name"], 0)]
        self.assertNotIn("ATK-NOROOM", json.dumps(got), "the attack found no room to fill")
        self.assertEqual(len(lost), len([s for s in honest.values() if s > 0]),
                         "hide_disk kept:\n" + "\n".join(kept) + "\n" + got["output"][-1500:])
        for t in lost:
            self.assertIn("disk", t["output"], t["name"])

    def test_grade_says_which_wall(self):
        output = self.results("honest_skeleton")["output"]
        if self.jail:
            self.assertNotIn("without namespaces", output)
        else:
            self.assertIn("without namespaces (--no-jail)", output)


class WallJailed(WallBase):
    def test_the_judge_asks_the_grader_not_the_worker(self):
        lied, capped = self.scores("lie_race_checker"), self.scores("honest_capped")
        self.assertTrue(capped)
        self.assertLess(sum(capped.values()), sum(self.scores("honest_solution").values()))
        self.assertEqual(lied, capped)

    def test_no_other_checkout(self):
        self.assertNotIn("ATK-LEAK:second-checkout", self.leaks("zz_peek"))


class WallFallback(WallBase):
    jail = False

    def test_other_checkouts_readable_and_said(self):
        """Without namespaces a file that any user may read stays readable: the grade says so."""
        self.assertIn("ATK-LEAK:second-checkout", self.leaks("zz_peek"))


class SwapAfterCheck(unittest.TestCase):
    """A folder of a submission swapped, all the time, between a real folder (the skeleton)
    and a link to a folder holding a secret (as solutions/): staging never copies the
    secret, whatever the timing."""

    def test_staging_never_follows_the_swap(self):
        tmp = tempfile.mkdtemp(prefix="test-grader-swap-")
        try:
            sub, secret = os.path.join(tmp, "sub"), os.path.join(tmp, "secret")
            write(os.path.join(secret, FILE), "SECRET")
            real = os.path.join(tmp, "real")
            write(os.path.join(real, FILE), "SKELETON")
            lab = os.path.join(sub, "labs", LAB)
            os.makedirs(os.path.dirname(lab))
            stop = threading.Event()

            def swap():
                while not stop.is_set():
                    os.symlink(secret, lab + ".new")
                    swap_dir(lab + ".new", lab)
                    shutil.copytree(real, lab + ".new")
                    swap_dir(lab + ".new", lab)
            swapper = threading.Thread(target=swap)
            swapper.start()
            seen, deadline = [], time.monotonic() + 30
            try:  # until the real folder was staged 100 times: as many tries in between
                while seen.count("SKELETON") < 100 and time.monotonic() < deadline:
                    dest = os.path.join(tmp, "staged")
                    sources.stage_submission(sub, dest, {FILE})
                    for path in glob.glob(os.path.join(dest, "**", FILE), recursive=True):
                        seen.append(read(path))
                    shutil.rmtree(dest, ignore_errors=True)
            finally:
                stop.set()
                swapper.join()
            self.assertNotIn("SECRET", seen)
            self.assertGreaterEqual(seen.count("SKELETON"), 100)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def swap_dir(new, old):
    """old replaced by the folder new (a link or a folder may be there)."""
    if os.path.islink(old) or os.path.isfile(old):
        os.remove(old)
    elif os.path.isdir(old):
        shutil.rmtree(old)
    os.rename(new, old)


if __name__ == "__main__":
    unittest.main()
