# What there is, where it runs and how it is compiled. Included by the top Makefile.

LABS := $(patsubst labs/%,%,$(wildcard labs/lab[0-9][0-9]-*))
NUMS := $(foreach l,$(LABS),$(firstword $(subst -, ,$(l))))
lab_dir = $(filter $(1)-%,$(LABS))
# `make lab07 plot`: the lab goals name the labs, the other goals say what to do with them.
LAB_GOALS := $(filter $(NUMS),$(MAKECMDGOALS))
ACTION_GOALS := $(filter-out $(NUMS),$(MAKECMDGOALS))
UNKNOWN_LABS := $(filter-out $(NUMS),$(shell printf '%s\n' $(MAKECMDGOALS) | grep -xE 'lab[0-9]{2}'))
ifneq ($(UNKNOWN_LABS),)
$(error no $(firstword $(UNKNOWN_LABS)) here: the labs are $(NUMS))
endif

# cuda when a usable NVIDIA GPU answers, else the CPU backend.
BACKEND := $(or $(BACKEND),$(shell nvidia-smi -L >/dev/null 2>&1 && echo cuda || echo cpu))
ifeq ($(filter cuda cpu,$(BACKEND)),)
$(error BACKEND=$(BACKEND): use BACKEND=cuda (a GPU) or BACKEND=cpu (the CPU backend))
endif
TREE := $(if $(SOLUTION),solutions,labs)
BUILD := build
# On the CPU backend, AddressSanitizer and UBSan by default: a memory bug in a kernel is
# reported at its line, not as a glibc abort somewhere later. SANITIZE=0 turns them off.
SANITIZE := $(or $(SANITIZE),$(if $(filter cpu,$(BACKEND)),1,0))
# RACECHECK=1: the CPU backend's race checker (ThreadSanitizer, which excludes ASan).
ifeq ($(RACECHECK),1)
override SANITIZE := 0
endif
B := $(BUILD)/$(BACKEND)$(if $(filter 1,$(RACECHECK)),-tsan,$(if $(filter 1,$(SANITIZE)),-asan))
# Quiet: a line per lab and step; V=1 shows every command and all that the tests print.
Q := $(if $(V),,@)
# Seconds a test may take in `make labNN test` (T=NAME runs that test alone), as in grading.
TEST_TIMEOUT := 120

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
INCLUDES := -I common -I common/judge $(addprefix -I labs/,$(LABS))
WARN := -Wall -Wextra
WERROR := $(CI)
# Every object also writes its dependencies (build/.../x.d): a header's change rebuilds
# what includes it.
DEPFLAGS = -MMD -MP -MF $(@:.o=.d)
CFLAGS_BASE := -std=c11 -O2 -g $(WARN) $(if $(WERROR),-Werror) -D_POSIX_C_SOURCE=200809L
CFLAGS := $(CFLAGS_BASE) \
          $(if $(filter 1,$(SANITIZE)),-fsanitize=address$(comma)undefined -fno-omit-frame-pointer) \
          $(if $(filter 1,$(RACECHECK)),-fsanitize=thread)
# The grader's judge (lab.mk): no sanitizer (it runs no student code), hardened instead.
JUDGE_CFLAGS := $(CFLAGS_BASE) -fstack-protector-strong -D_FORTIFY_SOURCE=2
CUFLAGS_COMMON := -std=c++17 -O3 -g -Xcompiler $(subst $() ,$(comma),$(WARN))
# The exercises a student writes (labs/.skeletons, made by make skeletons, lists them, in
# the student's copy too): while their TODOs are open, unused variables, parameters and given
# helpers, and arrays read before the TODO fills them, are expected, so nvcc's and g++'s
# warnings of those kinds are off there; every other file builds without warnings, and
# WERROR=1 makes them errors.
EXERCISES := $(shell awk '{ print $$2 }' labs/.skeletons)
CUWERROR = $(if $(filter $(EXERCISES),$<),$(EXERCISE_QUIET),$(if $(WERROR),-Werror all-warnings))
EXERCISE_QUIET := -diag-suppress 177,549,550 \
  -Xcompiler -Wno-unused-variable,-Wno-unused-parameter,-Wno-unused-but-set-variable,-Wno-unused-function,-Wno-uninitialized,-Wno-maybe-uninitialized
LDLIBS := -lcmocka -lm

# The CPU backend (common/cpu/) provides $(CUCC), a drop-in for nvcc.
include common/cpu/cpu.mk
$(CUCC_DEPS): | $(BUILD)/.need-boost-context
ifeq ($(RACECHECK),1)
$(CUCC_DEPS): | $(BUILD)/.need-racecheck-gcc
endif
ifeq ($(BACKEND),cpu)
CC := $(CPU_CC)
CUC = $(CUCC) $(CUFLAGS_COMMON)
LINK = $(CUCC)
DEFINES := -DBACKEND_CPU
BACKEND_DEPS := $(CUCC_DEPS)
else
CUC = $(NVCC) $(CUFLAGS_COMMON) -lineinfo $(ARCH_FLAGS)
LINK = $(NVCC) $(ARCH_FLAGS)
DEFINES := -DBACKEND_CUDA
BACKEND_DEPS :=
endif

# DEFS="-DNAME=VALUE ...": definitions for every C and CUDA file of the build, such as a lab's
# tuning knobs (lab11's SCAN_LB_THREADS). make does not rebuild what flags alone change: give
# each such build a folder of its own (BUILD=build/NAME).
DEFINES += $(DEFS)

ifeq ($(MAKELEVEL),0)
$(info backend: $(BACKEND)$(if $(filter cpu,$(BACKEND)), (kernels run on the CPU; BACKEND=cuda on a GPU machine)))
endif

# Packages (common/mk/packages.txt): a target that needs one depends on $(BUILD)/.need-NAME.
$(BUILD)/.need-%:
	@common/need.sh $*
	@mkdir -p $(@D) && touch $@
.PRECIOUS: $(BUILD)/.need-%
