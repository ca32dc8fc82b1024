"""The wall between the grader and a student's code: whom that code runs as, with what
limits, and how the grader reads what it leaves without trusting it.

When the grader is root, each submission gets uids of its own, none with an account: one
that builds its code, and one per test slot that runs it (so that after each test every
process of that uid can be killed, whatever session it moved to, while other tests of the
same submission go on). They share a group of the submission's own, which alone may enter
its scratch tree; the judge, which holds the tests, runs as a uid of its own. Each test of
the student's code runs with limits: CPU time, processes, file size and open files as
rlimits; memory (resident) and disk (files its uid owns in the world-writable folders)
watched four times a second. Not root, none of this separates anything: the student's code
runs as the grader's user, which the grade says.

Everything the grader reads that the student's code could have touched goes through
read_bounded(): no symbolic link followed, regular files only, never more than a limit.
"""
import ctypes
import errno
import fcntl
import grp
import os
import pwd
import resource
import signal
import stat
import subprocess
import tempfile
import threading
import time

import sandbox
import sources

ISOLATED = os.geteuid() == 0  # root: the student's code runs as uids of its own
FIRST_ID = 200000             # where the uids and gids the grader takes begin
SHARED_TMP = ("/tmp", "/var/tmp", "/dev/shm")  # where any uid may write
# Where any uid may also leave a note for a later test (a lock file, a message queue): seen
# only without jails (sandbox.py), where the grader cleans them after each test.
SHARED_NOTES = ("/run/lock", "/var/lock", "/dev/mqueue")
POLL = 0.25                   # seconds between two looks of a watch

ID_LOCKS = "/run/lock/cuda-lab-grader" if os.path.isdir("/run/lock") else "/tmp/cuda-lab-grader"

_ids_lock = threading.Lock()
_ids_taken = set()
_id_fds = []  # the locks that make this process's ids its own
_procs = threading.RLock()  # a spawn and a sweep of orphans must not interleave; reentrant:
# the stop's signal handler (kill_started) may come while this thread holds it
_live = set()              # pids the grader started and has not waited for yet


def take_id():
    """A uid (and gid of the same number) that no account, no group and no other grader
    running on this machine uses."""
    with _ids_lock:
        n = FIRST_ID
        while True:
            n += 1
            if n in _ids_taken:
                continue
            try:
                pwd.getpwuid(n)
                continue
            except KeyError:
                pass
            try:
                grp.getgrgid(n)
                continue
            except KeyError:
                pass
            if not claim(n):
                continue
            _ids_taken.add(n)
            return n


def claim(n):
    """Whether this grader got id n: a lock on the file of its number in id_locks(), held
    until this process ends. Two graders at once (a class and CI's tests on one machine)
    would otherwise take the same ids, and each one's sweep kill the other's processes."""
    fd = os.open(os.path.join(id_locks(), str(n)), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return False
    _id_fds.append(fd)
    return True


def id_locks():
    """The folder of the ids' lock files: root's alone, or the grader stops."""
    os.makedirs(ID_LOCKS, mode=0o700, exist_ok=True)
    st = os.lstat(ID_LOCKS)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != 0 or st.st_mode & 0o022:
        raise SystemExit("grade: %s is not a folder that root alone may write: remove it"
                         % ID_LOCKS)
    return ID_LOCKS


class Ids:
    """A submission's ids: group (its scratch tree's), build (uid), slots (a uid per test
    run side by side). Not root: None everywhere, the grader's own user."""

    def __init__(self, slots):
        if not ISOLATED:
            self.group, self.build, self.slots = None, None, [None] * slots
        else:
            self.group, self.build = take_id(), take_id()
            self.slots = [take_id() for _ in range(slots)]
        self.free = list(self.slots)
        self.lock = threading.Condition()

    def who(self, uid):
        """(uid, gid) for subprocess, or None when not root."""
        return None if uid is None else (uid, self.group)

    def borrow(self):
        with self.lock:
            while not self.free:
                self.lock.wait()
            return self.free.pop()

    def give_back(self, uid):
        with self.lock:
            self.free.append(uid)
            self.lock.notify()


def judge_id():
    """The uid (and gid) the judges run as: one for the whole grading."""
    if not ISOLATED:
        return None
    if not hasattr(judge_id, "id"):
        judge_id.id = take_id()
    return judge_id.id


def scratch_base():
    """Where scratch folders go: the temporary folder, if the uids of student code can pass
    through every folder above it (a private TMPDIR would lock them out), else /tmp."""
    base = os.path.realpath(tempfile.gettempdir())
    if not ISOLATED:
        return base
    path = base
    while path != os.path.dirname(path):
        if not os.stat(path).st_mode & 0o001:
            return "/tmp"
        path = os.path.dirname(path)
    return base


def own(path, uid, gid, mode):
    """path (a folder the grader made) for uid and gid, with mode; nothing when not root."""
    if ISOLATED:
        os.chown(path, uid if uid is not None else 0, gid if gid is not None else 0)
    os.chmod(path, mode)


def own_tree(top, uid, gid):
    """Every file and folder under top for uid and gid (symbolic links left as they are)."""
    if not ISOLATED:
        return
    for dirpath, dirnames, filenames in os.walk(top):
        os.lchown(dirpath, uid, gid)
        for name in dirnames + filenames:
            os.lchown(os.path.join(dirpath, name), uid, gid)


def become_subreaper():
    """Orphans of the grader's children come to the grader (Linux), so that a process that
    left its session can still be found and killed when the grader is not root."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


# ---------------------------------------------------------------- processes

def limits_for(cpu_secs, file_bytes, procs):
    """The rlimits of a process running student code. RLIMIT_NPROC counts every process
    of the real uid, so it is set only where that uid is the test's alone (root)."""
    out = [(resource.RLIMIT_CPU, int(cpu_secs) + 1), (resource.RLIMIT_FSIZE, file_bytes),
           (resource.RLIMIT_NOFILE, 1024), (resource.RLIMIT_CORE, 0)]
    if ISOLATED:
        out.append((resource.RLIMIT_NPROC, procs))
    return out


def jailed(jail):
    """Whether a process given jail runs in one (sandbox.py): root, and the kernel allows."""
    return jail is not None and ISOLATED and sandbox.available()[0]


def spawn(cmd, cwd, env, log, who=None, limits=(), pass_fds=(), jail=None):
    """Starts cmd in a session of its own, stdin empty, stdout and stderr into the open
    file log, as who (uid, gid) with limits, in jail (a sandbox.Jail: its namespaces, where
    the kernel allows them). A write past the file size limit fails (SIGXFSZ ignored), so
    that a test still reports."""
    def prepare():
        for res, value in limits:
            resource.setrlimit(res, (value, value))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    options = {"start_new_session": True, "pass_fds": pass_fds, "preexec_fn": prepare}
    if jailed(jail):  # bwrap starts as root; setpriv drops to who inside
        cmd, cwd = jail.argv(who, cwd) + list(cmd), "/"
    elif who:
        options.update(user=who[0], group=who[1], extra_groups=[])
    with _procs:
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log,
                             stderr=subprocess.STDOUT, **options)
        _live.add(p.pid)
    return p


def finish(p, timeout=None, at_timeout=None):
    """Waits for p (up to timeout seconds; then at_timeout() if given), then kills its
    session. Returns (returncode, timed_out)."""
    timed_out = False
    try:
        p.wait(timeout=None if timeout is None else max(timeout, 0.1))
    except subprocess.TimeoutExpired:
        timed_out = True
        if at_timeout:
            at_timeout()
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        p.wait()
        with _procs:
            _live.discard(p.pid)
    return p.returncode, timed_out


def kill_started():
    """Kills the session of every process the grader started and still waits for (a grading
    stopped by SIGTERM or Ctrl-C): each thread's wait then ends at once."""
    with _procs:
        pids = list(_live)
    for pid in pids:
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def processes():
    """{pid: (uids, ppid)} of every process, from /proc."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/status" % name, encoding="utf-8", errors="replace") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
            out[int(name)] = ({int(u) for u in fields["Uid"].split()}, int(fields["PPid"]))
        except (OSError, KeyError, ValueError):
            pass
    return out


def sweep(uid=None):
    """Kills what student code left running: every process of uid (root), and the orphans
    that came to the grader (subreaper) and that it did not start itself; reaps them."""
    me = os.getpid()
    for _ in range(200):
        with _procs:
            found = {pid: (uids, ppid) for pid, (uids, ppid) in processes().items()
                     if (uid is not None and uid in uids) or (ppid == me and pid not in _live)}
            for pid in found:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            for pid, (_, ppid) in found.items():
                if ppid == me:
                    try:
                        os.waitpid(pid, 0)
                    except ChildProcessError:
                        pass
        if not found:
            return
        time.sleep(0.02)


def rss_bytes(pids):
    total = 0
    for pid in pids:
        try:
            with open("/proc/%d/statm" % pid) as f:
                total += int(f.read().split()[1]) * resource.getpagesize()
        except (OSError, ValueError, IndexError):
            pass
    return total


def tasks(pids):
    """Processes and threads of pids, as RLIMIT_NPROC counts them."""
    total = 0
    for pid in pids:
        try:
            with open("/proc/%d/status" % pid, encoding="utf-8", errors="replace") as f:
                total += int(next(line for line in f if line.startswith("Threads:")).split()[1])
        except (OSError, StopIteration, ValueError, IndexError):
            pass
    return total


def disk_bytes(uid, places):
    """Bytes in the files that uid owns in places (and the folders it owns below them)."""
    total = 0
    for top in places:
        try:
            entries = list(os.scandir(top))
        except OSError:
            continue
        while entries:
            e = entries.pop()
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue
            if st.st_uid != uid:
                continue
            total += st.st_blocks * 512
            if stat.S_ISDIR(st.st_mode):
                try:
                    entries += list(os.scandir(e.path))
                except OSError:
                    pass
    return total


def deleted_open_bytes(pids):
    """Bytes of the files that pids hold open after deleting them, which no folder shows."""
    seen, total = set(), 0
    for pid in pids:
        try:
            fds = os.listdir("/proc/%d/fd" % pid)
        except OSError:
            continue
        for fd in fds:
            path = "/proc/%d/fd/%s" % (pid, fd)
            try:
                if not os.readlink(path).endswith(" (deleted)"):
                    continue
                st = os.stat(path)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode) and (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
    return total


IPC_RMID = 0
IPC_TABLES = (("shm", "shmctl"), ("sem", "semctl"), ("msg", "msgctl"))


def remove_ipc(uid):
    """Deletes the System V shared memory, semaphores and message queues that uid owns or
    made (/proc/sysvipc lists them), which outlive their processes."""
    libc = ctypes.CDLL(None, use_errno=True)
    for table, call in IPC_TABLES:
        try:
            with open("/proc/sysvipc/" + table, encoding="utf-8") as f:
                header = f.readline().split()
                rows = [dict(zip(header, line.split())) for line in f]
        except OSError:
            continue
        for row in rows:
            try:
                if uid in (int(row["uid"]), int(row["cuid"])):
                    ident = int(row["shmid" if table == "shm" else
                                    "semid" if table == "sem" else "msqid"])
                    if table == "sem":
                        getattr(libc, call)(ident, 0, IPC_RMID)
                    else:
                        getattr(libc, call)(ident, IPC_RMID, None)
            except (KeyError, ValueError):
                pass


def clean_up(uid, jail=False):
    """After a process of uid that ran without a jail: its files in the folders that any
    uid may write, and its System V objects, so that no note reaches a later test (uids
    are reused). In a jail they ended with its namespaces."""
    if uid is None or jail:
        return
    remove_owned(uid, SHARED_TMP + SHARED_NOTES)
    remove_ipc(uid)


def remove_owned(uid, places):
    """Deletes what uid left in places: its files and folders at their top level."""
    for top in places:
        try:
            entries = list(os.scandir(top))
        except OSError:
            continue
        for e in entries:
            try:
                if e.stat(follow_symlinks=False).st_uid != uid:
                    continue
                if e.is_dir(follow_symlinks=False):
                    subprocess.run(["rm", "-rf", "--one-file-system", e.path],
                                   stderr=subprocess.DEVNULL)
                else:
                    os.unlink(e.path)
            except OSError:
                pass


class Watch(threading.Thread):
    """Watches the processes of a test while it runs: their resident memory (those of uid,
    or when not root the sessions of the given processes) and, root only, the disk that uid
    fills in the shared folders and in its own. Past a limit it kills them all and says
    which limit in .exceeded."""

    def __init__(self, uid, sessions, memory, disk, places, jail=False):
        super().__init__(daemon=True)
        self.uid, self.sessions, self.memory, self.disk = uid, sessions, memory, disk
        self.places = list(SHARED_TMP + SHARED_NOTES) + list(places)
        self.jail = jail  # its files are in its jail's tmpfs mounts (sandbox.tmp_used)
        self.exceeded = ""
        self.tasks = 0  # the most processes and threads seen at once (RLIMIT_NPROC's count)
        self.done = threading.Event()

    def pids(self):
        if self.uid is not None:
            return [pid for pid, (uids, _) in processes().items() if self.uid in uids]
        out = []
        for pid in processes():
            try:
                if os.getsid(pid) in self.sessions:
                    out.append(pid)
            except OSError:
                pass
        return out

    def run(self):
        while not self.done.wait(POLL):
            pids = self.pids()
            self.tasks = max(self.tasks, tasks(pids))
            if self.memory and rss_bytes(pids) > self.memory:
                self.exceeded = "memory: more than %d MiB resident" % (self.memory >> 20)
            elif self.disk and self.uid is not None and self.written(pids) > self.disk:
                self.exceeded = "disk: more than %d MiB of files written" % (self.disk >> 20)
            if self.exceeded:
                for pid in pids:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
                return

    def written(self, pids):
        if self.jail:
            return max([sandbox.tmp_used(pid) for pid in pids[:1]] + [0])
        return disk_bytes(self.uid, self.places) + deleted_open_bytes(pids)

    def stop(self):
        self.done.set()
        self.join()


# ---------------------------------------------------------------- reading what they left

def read_bounded(path, limit, tail=True):
    """The bytes of path, at most limit of them (its end, or its start with tail=False),
    and its size; b"" and 0 when it is missing, a symbolic link, or not a regular file (a
    FIFO, a device). Never blocks, never follows a link."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return b"", 0
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return b"", 0
        if tail and st.st_size > limit:
            os.lseek(fd, st.st_size - limit, os.SEEK_SET)
        return sources.read_up_to(fd, limit), st.st_size
    except OSError as e:
        if e.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
            return b"", 0
        raise
    finally:
        os.close(fd)


def create_log(path):
    """A new file that the grader owns, for a process's output (never an existing one)."""
    return open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600), "wb")
