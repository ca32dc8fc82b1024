# lab07's library row is cuBLAS's transpose (library.cu, CUDA builds only).
lab07_LIBS := -lcublas
