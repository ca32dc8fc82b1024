# lab14's command line writes PNGs (common/png_write.c, libpng) and has a CPU row on every
# core (OpenMP, in rows.c): its own flags, sources and libraries, for the command line's
# files alone (main.c, rows.c; the tests, reference.c and the judge stay plain).
lab14_MAIN_CFLAGS := -fopenmp
lab14_MAIN_C := common/png_write.c
lab14_MAIN_LIBS := -lpng -lgomp
lab14_NEEDS := libpng
