# lab08's main.c writes the PNG of a case-2 target (common/png_write.c, libpng): its own
# sources and libraries, for main.c alone (the tests, reference.c and the judge stay plain).
lab08_MAIN_C := common/png_write.c
lab08_MAIN_LIBS := -lpng
lab08_NEEDS := libpng
