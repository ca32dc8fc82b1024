# lab01's tests count the work of its kernels on the CPU backend (work_in_proportion.*).
lab01_COUNT_WORK := 1
