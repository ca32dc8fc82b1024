# lab09's command line (rows.c) writes PNGs (common/png_write.c, libpng).
lab09_MAIN_C := common/png_write.c
lab09_MAIN_LIBS := -lpng
lab09_NEEDS := libpng
# Its library row calls NPP (library.cu, built on a GPU only), whose header and libraries
# come with the CUDA toolkit on the GPU machines but not everywhere: where the header is
# missing, library.cu builds without it (LAB09_NPP undefined) and the bench says so.
# The header next to nvcc's toolkit (through a symlink too), or in /usr/local/cuda.
LAB09_NPP_HEADER := $(firstword $(wildcard \
  $(dir $(realpath $(shell command -v $(NVCC) 2>/dev/null)))../include/nppi_filtering_functions.h \
  /usr/local/cuda/include/nppi_filtering_functions.h))
ifneq ($(LAB09_NPP_HEADER),)
lab09_CUFLAGS := -DLAB09_NPP
lab09_LIBS := -lnppif -lnppc
endif
