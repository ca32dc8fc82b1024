# lab02's main.c writes PNGs (common/png_write.c, libpng) and has a CPU row on every core
# (OpenMP): its own flags, sources and libraries, for main.c alone (the tests, reference.c
# and the judge stay plain).
lab02_MAIN_CFLAGS := -fopenmp
lab02_MAIN_C := common/png_write.c
lab02_MAIN_LIBS := -lpng -lgomp
lab02_NEEDS := libpng
# Its tests count the work of the shortcut variants on the CPU backend (*_saves_work).
lab02_COUNT_WORK := 1
