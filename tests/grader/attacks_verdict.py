"""Attacks on the verdict (attacks.py grades them): a submission that makes its tests look
passed without passing them, by the JUnit XML, by cmocka's or the test kit's own functions, or
against the judge. Each entry is NAME: (BASE, EXPECT, MARKERS, CODE), as attacks.py's ATTACKS
says; the code is C++ appended to BASE after attacks_prelude.PRELUDE.
"""

VERDICT = {
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
}
