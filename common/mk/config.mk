# What there is, where it runs and how it is compiled. Included by the top Makefile.

LABS := $(patsubst labs/%,%,$(wildcard labs/lab[0-9][0-9]-*))
NUMS := $(foreach l,$(LABS),$(firstword $(subst -, ,$(l))))
lab_dir = $(filter $(1)-%,$(LABS))
# `make lab07 plot`: the lab goals name the labs, the other goals say what to do with them.
LAB_GOALS := $(filter $(NUMS),$(MAKECMDGOALS))

# cuda when a usable NVIDIA GPU answers, else the CPU backend.
BACKEND := $(or $(BACKEND),$(shell nvidia-smi -L >/dev/null 2>&1 && echo cuda || echo cpu))
ifeq ($(filter cuda cpu,$(BACKEND)),)
$(error BACKEND=$(BACKEND): use BACKEND=cuda (a GPU) or BACKEND=cpu (the CPU backend))
endif
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
# Every object also writes its dependencies (build/.../x.d): a header's change rebuilds
# what includes it.
DEPFLAGS = -MMD -MP -MF $(@:.o=.d)
CFLAGS := -std=c11 -O2 -g $(WARN) $(if $(WERROR),-Werror) -D_POSIX_C_SOURCE=200809L \
          $(if $(filter 1,$(SANITIZE)),-fsanitize=address$(comma)undefined -fno-omit-frame-pointer)
CUFLAGS_COMMON := -std=c++17 -O3 -g -Xcompiler $(subst $() ,$(comma),$(WARN))
# Warnings block the solutions and common code under WERROR=1; a student's skeleton is
# allowed its unused variables while the TODOs are open.
CUWERROR = $(if $(and $(WERROR),$(filter-out labs/%,$<)),-Werror all-warnings)
LDLIBS := -lcmocka -lm

# The CPU backend (common/cpu/) provides $(CUCC), a drop-in for nvcc.
include common/cpu/cpu.mk
$(CUCC_DEPS): | $(BUILD)/.need-boost-context
ifeq ($(BACKEND),cpu)
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

ifeq ($(MAKELEVEL),0)
$(info backend: $(BACKEND)$(if $(filter cpu,$(BACKEND)), (kernels run on the CPU; BACKEND=cuda on a GPU machine)))
endif

# Packages (common/mk/packages.txt): a target that needs one depends on $(BUILD)/.need-NAME.
$(BUILD)/.need-%:
	@common/need.sh $*
	@mkdir -p $(@D) && touch $@
