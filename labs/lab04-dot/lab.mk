# lab04's library row calls cuBLAS (library.cu, built on a GPU only).
lab04_LIBS := -lcublas
