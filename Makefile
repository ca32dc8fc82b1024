# The course labs' one entry point. `make help` lists the targets.
#
#   make lab01 test      build lab01 from labs/ (your code) and run its tests
#   make lab01 run       check each variant once, at the handout's size
#   make lab07 plot      bench lab07 on the GPU and draw plots/lab07.png
#   make test            every lab's tests against its solution, and the project's checks
#
# Variables, given on the command line (make lab01 test BACKEND=cpu):
#   BACKEND=cuda|cpu   where kernels run; default: cuda when nvidia-smi finds a GPU, else
#                      the CPU backend (common/cpu/), which runs the same .cu files
#   SOLUTION=1         build the lab from solutions/ instead of labs/
#   ARCH=90, native    the GPU architectures to build for; default: one per family
#   ARGS="--n 1000"    options of run, bench and profile (labNN run --help lists them)
#   T=NAME             make labNN test (or sanitize): that test alone (T="A B": those)
#   SWEEP=1            make labNN bench: the size (or parameter) sweeps too, as plot runs
#   V=1                every command, and all that the tests print
#   SANITIZE=0         the CPU backend without AddressSanitizer and UBSan (on by default)
#   RACECHECK=1        the CPU backend's race checker (ThreadSanitizer) instead of ASan
#   WERROR=1           warnings are errors (on in CI)
#   DEFS="-DX=1"       definitions for every file (a lab's knobs); with BUILD=build/NAME, a
#                      build folder of their own, since make does not rebuild for flags
#
# The machinery is in common/mk/: config.mk (backend, compilers, flags), lab.mk (each lab's
# rules), check.mk (make test), tools.mk (skeletons, tables, format, new-lab, the reference
# plots, slides) and grade.mk; packages.txt there lists every package used.

include common/mk/config.mk
include common/mk/lab.mk
include common/mk/check.mk
include common/mk/tools.mk
include common/mk/grade.mk

.PHONY: help
help:
	@echo "make labNN              build lab NN from labs/ (labs: $(NUMS))"
	@echo "make labNN test         its tests"
	@echo "make labNN run          check each variant once (ARGS=\"--help\" for the options)"
	@echo "make labNN bench        time each variant at the main size, a line each, into"
	@echo "                        plots/data/labNN.tsv (a GPU); SWEEP=1: the sweeps too"
	@echo "make labNN plot         bench with the sweeps and draw plots/labNN.png (without a"
	@echo "                        GPU: the reference)"
	@echo "make labNN sanitize     compute-sanitizer's four tools on its tests (a GPU)"
	@echo "make labNN profile      Nsight Compute on each kernel, with a summary (a GPU)"
	@echo "make test               every solution's tests and the project's checks"
	@echo "make check              the slow ones: the grader's tests and catch rate, the"
	@echo "                        Colab notebook, the race checker on every solution's tests"
	@echo "                        (CI runs both)"
	@echo "make test-notebook      notebooks/colab.ipynb run here on the CPU backend"
	@echo "make run | bench | plot every lab"
	@echo "make skeletons          regenerate labs/*.cu from solutions/"
	@echo "make tables             the measured tables of the handouts from plots/reference/"
	@echo "make format             clang-format the C, CUDA and C++ sources"
	@echo "make new-lab NN=02 NAME=mandelbrot"
	@echo "                        a new lab of the same shape, ready to fill in"
	@echo "make slides             slides/*.md to slides/pdf/*.pdf (pandoc, beamer)"
	@echo "make plots-reference    every lab's plots of plots/reference/*.tsv as"
	@echo "                        plots/reference/*.png (make test checks them and the slides)"
	@echo "make grade              score this checkout (or STUDENT=path; LAB=NN) into grade/"
	@echo "make grade CLASS=dir    a folder per student, JOBS=n side by side, grade/class.csv"
	@echo "make dist | test-grader student tarball + Gradescope autograder | the grader's tests"
	@echo "make grade-times        the solutions' test times into common/grade/times.json"
	@echo "make clean"
	@echo "variables: BACKEND=cuda|cpu (now $(BACKEND)), SOLUTION=1, ARCH=90|native,"
	@echo "           ARGS=\"--n 1000\", T=NAME (one test), V=1 (verbose), SANITIZE=0,"
	@echo "           RACECHECK=1 (the CPU backend's race checker), WERROR=1,"
	@echo "           DEFS=\"-DSCAN_LB_ITEMS=16\" BUILD=build/NAME (a lab's knobs, own folder)"
