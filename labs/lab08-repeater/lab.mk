# lab08's command line (rows.c) writes the PNG of a case-2 target (common/png_write.c,
# libpng): its own sources and libraries, for the command line's files alone (the tests,
# reference.c and the judge stay plain).
lab08_MAIN_C := common/png_write.c
lab08_MAIN_LIBS := -lpng
lab08_NEEDS := libpng
