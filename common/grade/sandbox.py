"""The namespaces around the student's code, where the kernel allows them (bubblewrap).

Run as root, the grader runs each build and each worker of a student's code inside a jail
of its own: a mount namespace that holds only /usr (with /bin, /lib...), /etc and the CUDA
toolkit, read-only, the submission's scratch tree (read-only for a worker, writable for its
build) and private tmpfs mounts for /tmp (with /var/tmp and /run/lock) and /dev/shm, of a
fixed size; its own IPC, PID, network and UTS namespaces; no new privileges; the uid,
group and rlimits that wall.py gives it (setpriv drops root inside the jail). So a test
reaches nothing of the machine but its scratch: no other checkout, no grader output, no
other student, no note left for a later test (its tmpfs, its System V objects and its
processes end with it), and a file deleted but held open still counts against its tmpfs.

bubblewrap is a Debian and Ubuntu package, no daemon: it makes the namespaces and exits
with its child. Where it is missing or the kernel refuses namespaces (a container without
CAP_SYS_ADMIN, say), available() says why and the grader falls back to uids, limits and
cleaning up after each test (wall.py), and says so in the grade.
"""
import glob
import os
import shutil
import subprocess

SETPRIV = "/usr/bin/setpriv"  # util-linux: drops root inside the jail
_probe = {}


def refuse(why):
    """No jails in this grading (grade.py --no-jail: the fallback, as its tests try it)."""
    _probe["answer"] = (False, why)


def available():
    """(True, "") when jails can be made here, else (False, why not); probed once."""
    if "answer" not in _probe:
        _probe["answer"] = probe()
    return _probe["answer"]


def probe():
    if os.geteuid() != 0:
        return False, "not root"
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return False, "bubblewrap is not installed (apt-get install bubblewrap)"
    if not os.access(SETPRIV, os.X_OK):
        return False, "%s is missing (util-linux)" % SETPRIV
    cmd = Jail(tmp_bytes=1 << 20).argv(None, "/") + ["/bin/true"]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30,
                           universal_newlines=True)
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, "bwrap failed: %s" % e
    if p.returncode != 0:
        return False, "the kernel refused the namespaces: %s" % p.stdout.strip()[:200]
    return True, ""


def toolkit_roots():
    """What the compilers and the loader use outside /usr, for the jail to see it too: the
    CUDA toolkit's folder (/opt/cuda, say), the folders of CPATH, LIBRARY_PATH and
    LD_LIBRARY_PATH (the environment the grader passes on), and those that the loader's
    configuration names (/etc/ld.so.conf.d: packages unpacked under /opt, say)."""
    found = []
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if os.path.exists(nvcc):
        found.append(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))))
    for var in ("CPATH", "LIBRARY_PATH", "LD_LIBRARY_PATH"):
        found += os.environ.get(var, "").split(os.pathsep)
    for conf in sorted(glob.glob("/etc/ld.so.conf.d/*.conf")):
        try:
            with open(conf, encoding="utf-8", errors="replace") as f:
                found += [line.strip() for line in f if line.startswith("/")]
        except OSError:
            pass
    out = []
    for path in found:
        path = os.path.realpath(path) if path else ""
        if (os.path.isdir(path) and not path.startswith(("/usr/", "/etc/")) and
                path not in ("/", "/usr", "/etc", "/tmp") and path not in out):
            out.append(path)
    return out


class Jail:
    """What a jail holds besides the system: ro and rw folders (bound at their own paths),
    the size of its tmpfs mounts, and whether it reaches the GPU (/dev/nvidia*, /sys)."""

    def __init__(self, ro=(), rw=(), tmp_bytes=1 << 30, gpu=False):
        self.ro, self.rw, self.tmp_bytes, self.gpu = list(ro), list(rw), tmp_bytes, gpu

    def argv(self, who, cwd):
        """bwrap's command line that runs a command as who (uid, gid; None: root) in cwd."""
        a = ["bwrap", "--die-with-parent", "--new-session", "--unshare-ipc", "--unshare-pid",
             "--unshare-net", "--unshare-uts", "--unshare-cgroup-try", "--ro-bind", "/usr", "/usr"]
        for top in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
            path = "/" + top
            if os.path.islink(path):
                a += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                a += ["--ro-bind", path, path]
        a += ["--ro-bind", "/etc", "/etc", "--proc", "/proc", "--dev", "/dev"]
        for root in toolkit_roots():
            a += parents(root) + ["--ro-bind", root, root]
        if self.gpu:
            a += ["--ro-bind", "/sys", "/sys"]
            for name in sorted(os.listdir("/dev")):
                if name.startswith("nvidia"):
                    a += ["--dev-bind", "/dev/" + name, "/dev/" + name]
        for path in ("/tmp", "/dev/shm"):
            a += ["--size", str(self.tmp_bytes), "--perms", "01777", "--tmpfs", path]
        a += ["--dir", "/var", "--symlink", "../tmp", "/var/tmp",
              "--dir", "/run", "--symlink", "../tmp", "/run/lock"]
        for path in self.ro + self.rw:
            a += parents(path)
        for path in self.ro:
            a += ["--ro-bind", path, path]
        for path in self.rw:
            a += ["--bind", path, path]
        a += ["--chdir", cwd, "--"]
        if who:
            a += [SETPRIV, "--reuid=%d" % who[0], "--regid=%d" % who[1], "--clear-groups",
                  "--no-new-privs", "--"]
        return a


def parents(path):
    """bwrap's arguments that make the folders above path, which it would make 0700 (so no
    uid but root could pass), enterable by all."""
    out, up = [], os.path.dirname(path)
    while up not in ("/", "/tmp", ""):
        out = ["--perms", "0755", "--dir", up] + out
        up = os.path.dirname(up)
    return out


def tmp_used(pid):
    """Bytes used in the tmpfs mounts of the jail that process pid is in (files deleted but
    held open included), seen from outside through /proc/PID/root; 0 when it is gone."""
    total = 0
    for path in ("tmp", "dev/shm"):
        try:
            st = os.statvfs("/proc/%d/root/%s" % (pid, path))
        except OSError:
            continue
        total += (st.f_blocks - st.f_bfree) * st.f_frsize
    return total
