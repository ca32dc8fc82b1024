# lab03's command line writes PNGs (common/png_write.c, libpng) and has a CPU row on every
# core (OpenMP, in rows.c): its own flags, sources and libraries, for the command line's
# files alone (main.c, rows.c, experiments.c; the tests, reference.c and the judge stay
# plain).
lab03_MAIN_CFLAGS := -fopenmp
lab03_MAIN_C := common/png_write.c
lab03_MAIN_LIBS := -lpng -lgomp
lab03_NEEDS := libpng
# Its kernels build with -fmad=false on a GPU: each multiply and add rounded on its own, as
# the CPU reference rounds them, so every variant's image matches it exactly. With nvcc's
# default contraction into FMAs, up to 2.9 % of the pixels of the H100's images differ (the handout's table).
lab03_CUFLAGS := -fmad=false
