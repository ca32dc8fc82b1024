"""The C++ that every attack on the grader starts with (attacks.py, attacks_wall.py): its
helpers, appended to the exercise file before the attack's own code.
"""

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
