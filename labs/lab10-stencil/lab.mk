# lab10's command line (main.c, rows.c) reads a picture for its Sobel rows and writes their
# edges as PNGs (common/png_read.c and png_write.c, libpng).
lab10_MAIN_C := common/png_read.c common/png_write.c
lab10_MAIN_LIBS := -lpng
lab10_NEEDS := libpng
# Its library row calls NPP's Sobel (library.cu, built on a GPU only), whose header and
# libraries come with the CUDA toolkit on the GPU machines but not everywhere: where the
# header is missing, library.cu builds without it (LAB10_NPP undefined) and the bench says
# so. The header next to nvcc's toolkit (through a symlink too), or in /usr/local/cuda.
LAB10_NPP_HEADER := $(firstword $(wildcard \
  $(dir $(realpath $(shell command -v $(NVCC) 2>/dev/null)))../include/nppi_filtering_functions.h \
  /usr/local/cuda/include/nppi_filtering_functions.h))
ifneq ($(LAB10_NPP_HEADER),)
lab10_CUFLAGS := -DLAB10_NPP
lab10_LIBS := -lnppif -lnppc
endif
