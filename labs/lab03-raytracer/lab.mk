# lab03's main.c writes PNGs (common/png_write.c, libpng): its own source and library, for
# main.c alone (the tests, reference.c and the judge stay plain).
lab03_MAIN_C := common/png_write.c
lab03_MAIN_LIBS := -lpng
lab03_NEEDS := libpng
