# The one entry point of the course labs. `make help` lists the targets.
#
#   make lab01 test      build lab01 from labs/ (your code) and run its tests
#   make lab07 plot      bench lab07 on the GPU and draw plots/lab07.png
#   make test            every lab's tests against its solution, plus the skeleton checks
#
# Variables: BACKEND=cuda|cpu, SOLUTION=1, ARCH="90" or ARCH=native, WERROR=1 (on under CI),
# SANITIZE=1.

# ---------------------------------------------------------------- what there is
LABS := $(patsubst labs/%,%,$(wildcard labs/lab[0-9][0-9]-*))
NUMS := $(foreach l,$(LABS),$(firstword $(subst -, ,$(l))))
lab_dir = $(filter $(1)-%,$(LABS))

# `make lab07 plot`: the lab goals name the labs, the other goals say what to do with them.
LAB_GOALS := $(filter $(NUMS),$(MAKECMDGOALS))

# ---------------------------------------------------------------- configuration
# cuda when a usable NVIDIA GPU answers, else the CPU backend.
BACKEND := $(or $(BACKEND),$(shell nvidia-smi -L >/dev/null 2>&1 && echo cuda || echo cpu))
TREE := $(if $(SOLUTION),solutions,labs)
BUILD := build
B := $(BUILD)/$(BACKEND)$(if $(filter 1,$(SANITIZE)),-asan)

# A fat binary for the architectures CUDA 13 supports (one per family) plus PTX for newer.
ARCH := 75 80 86 89 90 100 120
ifeq ($(ARCH),native)
ARCH_FLAGS := -arch=native
else
ARCH_FLAGS := $(foreach a,$(ARCH),-gencode arch=compute_$(a),code=sm_$(a)) \
              -gencode arch=compute_$(lastword $(ARCH)),code=compute_$(lastword $(ARCH))
endif

NVCC := nvcc
CC := gcc
comma := ,
INCLUDES := -I common $(addprefix -I labs/,$(LABS))
WARN := -Wall -Wextra
WERROR := $(CI)
CFLAGS := -std=c11 -O2 -g $(WARN) $(if $(WERROR),-Werror) -D_POSIX_C_SOURCE=200809L \
          $(if $(filter 1,$(SANITIZE)),-fsanitize=address$(comma)undefined -fno-omit-frame-pointer)
CUFLAGS_COMMON := -std=c++17 -O3 -g -Xcompiler $(subst $() ,$(comma),$(WARN))
# Warnings block the solutions and common code under WERROR=1; a student's skeleton is
# allowed its unused variables while the TODOs are open.
CUWERROR = $(if $(and $(WERROR),$(filter-out labs/%,$<)),-Werror all-warnings)
LDLIBS := -lcmocka -lm

# The CPU backend (common/cpu/) provides $(CUCC), a drop-in for nvcc.
-include common/cpu/cpu.mk
ifneq ($(CUCC_DEPS),)
$(CUCC_DEPS): | $(BUILD)/.need-boost
endif
ifeq ($(BACKEND)$(CUCC),cpu)
CUCC := $(NVCC)
endif
ifeq ($(BACKEND),cpu)
CUC = $(CUCC) $(CUFLAGS_COMMON)
LINK = $(CUCC)
DEFINES := -DBACKEND_CPU
else
CUC = $(NVCC) $(CUFLAGS_COMMON) -lineinfo $(ARCH_FLAGS)
LINK = $(NVCC) $(ARCH_FLAGS)
DEFINES := -DBACKEND_CUDA
endif

ifeq ($(MAKELEVEL),0)
$(info backend: $(BACKEND)$(if $(filter cpu,$(BACKEND)), (kernels run on the CPU; BACKEND=cuda on a GPU machine)))
endif

# ---------------------------------------------------------------- objects
COMMON_C := $(filter-out common/testkit.c,$(wildcard common/*.c))
COMMON_CU := $(wildcard common/*.cu)
COMMON_OBJS := $(COMMON_C:%.c=$(B)/%.o) $(COMMON_CU:%.cu=$(B)/%.o)
TESTKIT_OBJ := $(B)/common/testkit.o
NEEDS := $(BUILD)/.need-cmocka

$(B)/%.o: %.c $(NEEDS) | $(CUCC_DEPS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEFINES) $(INCLUDES) -c $< -o $@

$(B)/%.o: %.cu $(wildcard common/*.h) $(if $(CUCC_DEPS),$(wildcard common/cpu/include/*.h)) | $(CUCC_DEPS)
	@mkdir -p $(@D)
	$(CUC) $(CUWERROR) $(DEFINES) $(INCLUDES) -c $< -o $@

$(BUILD)/.need-cmocka:
	@common/need.sh cmocka libcmocka-dev sh -c \
	  "printf '#include <stdarg.h>\n#include <stddef.h>\n#include <setjmp.h>\n#include <cmocka.h>\n' | $(CC) -E -x c -"
	@mkdir -p $(@D) && touch $@

# Library rows (CUB, cuBLAS) exist only on a real GPU: a lab keeps them in library.cu,
# which the CPU backend leaves out (main.c guards its calls with #ifdef BACKEND_CUDA).
CUDA_ONLY := $(if $(filter cpu,$(BACKEND)),%/library.cu)
lab07_LIBS := $(if $(filter cuda,$(BACKEND)),-lcublas)

# ---------------------------------------------------------------- one lab
# For lab $(1) in directory $(2): the exercise .cu files come from $(TREE) (labs/ or
# solutions/), everything else from labs/. Binaries: the CLI $(1) and test_$(1).
define LAB_RULES
$(1)_EXERCISES := $$(notdir $$(wildcard solutions/$(2)/*.cu))
$(1)_CU := $$(addprefix $(TREE)/$(2)/,$$($(1)_EXERCISES)) \
           $$(filter-out $$(addprefix labs/$(2)/,$$($(1)_EXERCISES)) $(CUDA_ONLY),$$(wildcard labs/$(2)/*.cu))
$(1)_C := $$(filter-out labs/$(2)/main.c,$$(wildcard labs/$(2)/*.c))
$(1)_OBJS := $$($(1)_CU:%.cu=$(B)/%.o) $$($(1)_C:%.c=$(B)/%.o) $(COMMON_OBJS)
$(1)_BIN := $(B)/$(TREE)/$(2)/$(1)
$(1)_TEST := $(B)/$(TREE)/$(2)/test_$(1)

$$($(1)_BIN): $$($(1)_OBJS) $(B)/labs/$(2)/main.o $$(CUCC_DEPS)
	$$(LINK) -o $$@ $$(filter %.o,$$^) $$(LDLIBS) $$($(1)_LIBS)
$$($(1)_TEST): $$($(1)_OBJS) $$(patsubst %.c,$(B)/%.o,$$(wildcard tests/test_$(1)_*.c)) $(TESTKIT_OBJ) $$(CUCC_DEPS)
	$$(LINK) -o $$@ $$(filter %.o,$$^) $$(LDLIBS) $$($(1)_LIBS)

.PHONY: $(1) $(1)-test $(1)-run $(1)-bench $(1)-plot $(1)-skeleton
$(1): $$($(1)_BIN) $$($(1)_TEST)
$(1)-test: $$($(1)_TEST)
	$$<
$(1)-run: $$($(1)_BIN)
	$$< run $$(ARGS)
ifeq ($(BACKEND),cuda)
$(1)-bench: $$($(1)_BIN)
	@mkdir -p plots/data
	$$< bench --sweep --tsv plots/data/$(1).tsv $$(ARGS)
else
$(1)-bench:
	@echo "$(1) bench: timings are a GPU's business; this machine has none (BACKEND=cpu)." \
	  "make $(1) plot draws plots/reference/$(1).tsv, measured on a GPU"
endif
$(1)-skeleton:
	@$$(MAKE) --no-print-directory SOLUTION= $(B)/labs/$(2)/test_$(1)
	@common/expect-fail.sh $(B)/labs/$(2)/test_$(1)
ifeq ($(BACKEND),cuda)
$(1)-plot: $(1)-bench plots/lab.gp $(BUILD)/.need-gnuplot
	@plots/draw.sh $(1) plots/data/$(1).tsv ""
else
$(1)-plot: plots/lab.gp $(BUILD)/.need-gnuplot
	@plots/draw.sh $(1) plots/reference/$(1).tsv "reference measurement, no GPU here"
endif
endef
$(foreach l,$(LABS),$(eval $(call LAB_RULES,$(firstword $(subst -, ,$(l))),$(l))))

$(BUILD)/.need-boost:
	@common/need.sh Boost.Context libboost-context-dev sh -c \
	  "printf '#include <boost/context/detail/fcontext.hpp>\n' | g++ -E -x c++ -"
	@mkdir -p $(@D) && touch $@

$(BUILD)/.need-python3:
	@common/need.sh python3 python3 sh -c "command -v python3"
	@mkdir -p $(@D) && touch $@

$(BUILD)/.need-gnuplot:
	@common/need.sh gnuplot gnuplot-nox sh -c "command -v gnuplot"
	@mkdir -p $(@D) && touch $@

# ---------------------------------------------------------------- everything
.PHONY: all test run bench plot skeletons check-skeletons skeletons-fail nvcc-check slides help clean
all: $(NUMS)

ifneq ($(LAB_GOALS),)
test: $(LAB_GOALS:=-test)
run: $(LAB_GOALS:=-run)
bench: $(LAB_GOALS:=-bench)
plot: $(LAB_GOALS:=-plot)
else ifeq ($(wildcard solutions),)
# A student's copy (make dist leaves solutions/ out): every lab's tests on the student's code.
test: $(NUMS:=-test)
run: $(NUMS:=-run)
bench: $(NUMS:=-bench)
plot: $(NUMS:=-plot)
else
# The README's test command: solutions pass, skeletons are current and fail, nvcc builds it all.
# On the CPU backend the backend's tests and the solutions run under AddressSanitizer and
# UBSan: an out-of-bounds write in a kernel fails the run instead of landing in the poison.
TEST_SANITIZE := $(if $(filter cpu,$(BACKEND)),SANITIZE=1)
test: check-skeletons nvcc-check test-grader
	@$(MAKE) --no-print-directory $(TEST_SANITIZE) test-cpu-backend
	@$(MAKE) --no-print-directory SOLUTION=1 $(TEST_SANITIZE) $(NUMS:=-test)
	@$(MAKE) --no-print-directory skeletons-fail
run: $(NUMS:=-run)
bench: $(NUMS:=-bench)
plot: $(NUMS:=-plot)
endif

skeletons-fail: $(NUMS:=-skeleton)

# labs/ is generated from solutions/: the instructor edits one file.
SOLUTION_FILES := $(wildcard solutions/*/*.cu)
skeletons:
	@for f in $(SOLUTION_FILES); do \
	  awk -f common/skeleton.awk $$f > labs/$${f#solutions/}.tmp && \
	  mv labs/$${f#solutions/}.tmp labs/$${f#solutions/} || exit 1; done
	@echo "skeletons: labs/ regenerated from solutions/"

check-skeletons:
	@for f in $(SOLUTION_FILES); do \
	  awk -f common/skeleton.awk $$f | cmp -s - labs/$${f#solutions/} || \
	  { echo "labs/$${f#solutions/} is stale: run make skeletons"; exit 1; }; done
	@echo "check-skeletons: labs/ matches solutions/"

# Every .cu (common, skeletons, solutions) through the real nvcc, whatever the backend.
NVCC_CHECK := $(patsubst %.cu,$(BUILD)/nvcc/%.o,$(COMMON_CU) $(wildcard labs/*/*.cu solutions/*/*.cu))
ifneq ($(shell command -v $(NVCC)),)
nvcc-check: $(NVCC_CHECK)
else
nvcc-check:
	@echo "nvcc-check: no $(NVCC) on the PATH, so the .cu files were not built with nvcc"
endif
$(BUILD)/nvcc/%.o: %.cu $(wildcard common/*.h)
	@mkdir -p $(@D)
	$(NVCC) $(CUFLAGS_COMMON) $(ARCH_FLAGS) $(CUWERROR) -DBACKEND_CUDA $(INCLUDES) -c $< -o $@

# One deck per lab, Markdown to PDF through pandoc's beamer writer.
SLIDES := $(patsubst slides/%.md,$(BUILD)/slides/%.pdf,$(wildcard slides/*.md))
slides: $(SLIDES)
	@echo "slides: $(SLIDES)"
$(BUILD)/slides/%.pdf: slides/%.md $(BUILD)/.need-slides
	@mkdir -p $(@D)
	pandoc -t beamer -o $@ $<
$(BUILD)/.need-slides:
	@common/need.sh "pandoc and LaTeX beamer" "pandoc texlive-latex-recommended \
	  texlive-fonts-recommended texlive-pictures texlive-latex-extra lmodern" \
	  sh -c "command -v pandoc && kpsewhich beamer.cls pgfmath.sty"
	@mkdir -p $(@D) && touch $@

clean:
	rm -rf $(BUILD) plots/data

help:
	@echo "make labNN              build lab NN (labs: $(NUMS))"
	@echo "make labNN test|run|bench|plot"
	@echo "                        its tests; one checked run; timings + TSV; bench and plot"
	@echo "make test               every lab's tests on its solution, skeleton checks, nvcc build"
	@echo "make bench | plot       every lab"
	@echo "make skeletons          regenerate labs/*.cu from solutions/ (check-skeletons: verify)"
	@echo "make slides             slides/*.md to build/slides/*.pdf (pandoc, beamer)"
	@echo "make grade              score this checkout (or STUDENT=path; LAB=NN) into grade/"
	@echo "make dist | test-grader student tarball + Gradescope autograder | the grader's tests"
	@echo "make clean"
	@echo "variables: BACKEND=cuda|cpu (now $(BACKEND)), SOLUTION=1 (use solutions/),"
	@echo "           ARCH=\"90\" or ARCH=native (default: $(ARCH)), ARGS=\"--n 1000\" (run/bench),"
	@echo "           WERROR=1 (warnings are errors), SANITIZE=1 (CPU backend under ASan+UBSan)"

# ---------------------------------------------------------------- grading and release
# make grade [LAB=NN] [STUDENT=path | CLASS=dir | SOLUTION=1] [TEST_TIMEOUT=s]
#            [LAB_TIMEOUT=s] [RUN_AS=user] [GRADE_OUT=dir]
# Every test of every lab (or LAB) in a process of its own, scored from
# tests/points/labNN.txt: grade/results.json (Gradescope's format), grade/labNN.xml (JUnit)
# and a table on stdout. CLASS: every folder of dir is a submission, graded into
# GRADE_OUT/NAME/, with GRADE_OUT/class.csv. RUN_AS runs the student's code as that user.
# make dist: dist/ gets the student tarball and the Gradescope autograder.
# make test-grader: the grader's own tests (skeletons, solutions, broken submissions).
GRADE_OUT := grade
GRADE_FLAGS = --backend $(BACKEND) --out "$(GRADE_OUT)" $(if $(STUDENT),--student "$(STUDENT)") \
  $(if $(CLASS),--class "$(CLASS)") \
  $(if $(SOLUTION),--solution) $(foreach l,$(or $(LAB),$(LAB_GOALS)),--lab $(l)) \
  $(if $(TEST_TIMEOUT),--test-timeout $(TEST_TIMEOUT)) \
  $(if $(LAB_TIMEOUT),--lab-timeout $(LAB_TIMEOUT)) $(if $(RUN_AS),--run-as $(RUN_AS)) \
  $(foreach v,ARCH WERROR SANITIZE,$(if $(filter command line,$(origin $(v))),--make-var "$(v)=$($(v))"))

# tests/hidden/test_labNN_*.c: the instructor's extra tests, linked into hidden_labNN,
# which only the grader builds.
define HIDDEN_RULES
$(B)/$(TREE)/$(2)/hidden_$(1): $$($(1)_OBJS) $$(patsubst %.c,$(B)/%.o,$$(wildcard tests/hidden/test_$(1)_*.c)) $(TESTKIT_OBJ)
	$$(LINK) -o $$@ $$(filter %.o,$$^) $$(LDLIBS) $$($(1)_LIBS)
endef
$(foreach l,$(LABS),$(eval $(call HIDDEN_RULES,$(firstword $(subst -, ,$(l))),$(l))))

.PHONY: grade dist test-grader
grade: $(NEEDS) $(BUILD)/.need-python3
	@python3 common/grade/grade.py $(GRADE_FLAGS)
dist: $(BUILD)/.need-python3
	@python3 common/grade/dist.py $(if $(LAB),--lab $(LAB))
test-grader: $(BUILD)/.need-python3
	@python3 tests/grader/test_grader.py --backend $(BACKEND)
