"""Traps for the grader's own reads (attacks.py grades them): the files it reads after a
test made endless or blocking. Each entry is NAME: (BASE, EXPECT, MARKERS, CODE), as
attacks.py's ATTACKS says; the code is C++ appended to BASE after attacks_prelude.PRELUDE.
"""

TRAPS = {
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
