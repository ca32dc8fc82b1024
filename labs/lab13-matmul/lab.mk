# lab13's library rows call cuBLAS (library.cu, built on a GPU only).
lab13_LIBS := -lcublas
