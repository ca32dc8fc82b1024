"""Attacks on the grading machine's resources (attacks.py grades them): memory and disk
taken until a limit stops them. Each entry is NAME: (BASE, EXPECT, MARKERS, CODE), as
attacks.py's ATTACKS says; the code is C++ appended to BASE after attacks_prelude.PRELUDE.
"""

RESOURCES = {
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
}
