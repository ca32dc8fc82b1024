# CPU backend: cucc (nvcc's command line over g++) and its runtime, its tests and its bench.
# Included by the top Makefile; also works alone: make -f common/cpu/cpu.mk test-cpu-backend
#
#   CUCC       the command that replaces nvcc when BACKEND=cpu
#   CUCC_DEPS  what must be built before $(CUCC) is used
#   SANITIZE=1 everything through cucc gets ASan + UBSan (and the runtime built for them)
#   RACECHECK=1 the race checker instead: ThreadSanitizer on the kernels

ifndef CUFLAGS_COMMON  # standalone use only: the top Makefile defines these
BUILD = build
BACKEND = cpu
NVCC = nvcc
ARCH_FLAGS = -arch=native
CUFLAGS_COMMON = -std=c++17 -O2 -g -Xcompiler -Wall,-Wextra
endif

CPU_DIR = common/cpu
CPU_SANFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
RACE_LABEL = $(if $(filter 1,$(RACECHECK)), (race checker))
ifeq ($(RACECHECK),1)
CUCC = $(CPU_DIR)/cucc --racecheck
CPU_RUNTIME = $(BUILD)/cpu/runtime-tsan
CPU_CFLAGS = -fsanitize=thread
CPU_CC = gcc$(TSAN_GCC)
else ifeq ($(SANITIZE),1)
CUCC = $(CPU_DIR)/cucc --sanitize
CPU_RUNTIME = $(BUILD)/cpu/runtime-asan
CPU_CFLAGS = $(CPU_SANFLAGS)
else
CUCC = $(CPU_DIR)/cucc
CPU_RUNTIME = $(BUILD)/cpu/runtime
CPU_CFLAGS =
endif
CPU_CC ?= gcc$(CUCC_GCC)
# The gcc of the race checker's build: its ThreadSanitizer must keep a block's threads apart
# (tsan-gcc says why; empty where gcc's own does, -12 where gcc-12's does)
TSAN_GCC = $(shell $(CPU_DIR)/tsan-gcc)
CUCC_DEPS = $(CPU_RUNTIME)/libcudacpu.a $(BUILD)/cpu/cucc-rewrite
CPU_HEADERS = $(wildcard $(CPU_DIR)/include/*.h $(CPU_DIR)/include/*/*.h)

# The runtime in each flavour: plain, for ASan + UBSan, and for the race checker (not
# instrumented itself: only the kernels' accesses count).
RUNTIME_FLAGS_runtime =
RUNTIME_CXX_runtime = g++$(CUCC_GCC)
RUNTIME_CXX_runtime-asan = g++$(CUCC_GCC)
RUNTIME_FLAGS_runtime-asan = $(CPU_SANFLAGS)
RUNTIME_FLAGS_runtime-tsan = -DCUDA_CPU_RACECHECK
RUNTIME_CXX_runtime-tsan = g++$(TSAN_GCC)
# One concern a file (runtime.h shares what they need of each other): launch.cpp checks launches
# and hands their blocks to the workers; scheduler.cpp runs blocks on fibers (barriers, warps);
# diagnose.cpp says what goes wrong in a block; memory.cpp allocates and copies; device.cpp is
# the virtual device; errors.cpp errors; streams.cpp streams and events, graphs.cpp graphs by
# stream capture (streams.h what they share); texture.cpp textures and CUDA
# arrays; racecheck.cpp the race checker's part (empty in the other flavours); window.cpp what
# tests past 2^32 elements need (CUDA_CPU_WINDOW, sparse memory). The core's objects are linked
# into one, runtime.o (ld -r), as when they were one file: a program that uses any of the core
# gets all of it, with what the process needs of it whatever it calls (ASan's options, the
# host's __assert_fail, the race checker's hooks).
CPU_RUNTIME_CORE = launch scheduler diagnose memory device errors streams graphs
CPU_RUNTIME_PARTS = texture racecheck window
CPU_RUNTIME_SRCS = $(patsubst %,$(CPU_DIR)/%.cpp,$(CPU_RUNTIME_CORE) $(CPU_RUNTIME_PARTS))
$(BUILD)/cpu/%/libcudacpu.a: $(CPU_RUNTIME_SRCS) $(CPU_DIR)/runtime.h $(CPU_DIR)/window.h $(CPU_DIR)/streams.h $(CPU_HEADERS)
	@mkdir -p $(@D)
	$(Q)for f in $(CPU_RUNTIME_SRCS); do \
	  $(RUNTIME_CXX_$*) -std=c++17 -O2 -g -Wall -Wextra $(RUNTIME_FLAGS_$*) -I $(CPU_DIR)/include -c $$f \
	    -o $(@D)/$$(basename $$f .cpp).o || exit 1; done
	$(Q)ld -r -o $(@D)/runtime.o $(patsubst %,$(@D)/%.o,$(CPU_RUNTIME_CORE))
	$(Q)rm -f $@ && ar rcs $@ $(patsubst %,$(@D)/%.o,runtime $(CPU_RUNTIME_PARTS))

$(BUILD)/cpu/cucc-rewrite: $(CPU_DIR)/rewrite.cpp $(CPU_DIR)/rewrite_lex.h
	@mkdir -p $(@D)
	$(Q)g++ -std=c++17 -O2 -Wall -Wextra $< -o $@

# The backend's own tests. With BACKEND=cuda they build with nvcc and run on the GPU: the
# tests whose results must equal the GPU's run there, the deliberately wrong kernels skip.
CPU_TEST_DIR = $(BUILD)/cpu/test-$(BACKEND)$(if $(filter 1,$(RACECHECK)),-tsan,$(if $(filter 1,$(SANITIZE)),-asan))
CPU_TEST = $(CPU_TEST_DIR)/test_cpu_backend
ifeq ($(BACKEND),cuda)
CPU_TEST_CU = $(NVCC) $(ARCH_FLAGS) $(CUFLAGS_COMMON)
CPU_TEST_LD = $(NVCC) $(ARCH_FLAGS)
CPU_TEST_DEPS =
CPU_TEST_CFLAGS =
else
CPU_TEST_CU = $(CUCC) $(CUFLAGS_COMMON) --count-work
CPU_TEST_LD = $(CUCC)
CPU_TEST_DEPS = $(CUCC_DEPS)
CPU_TEST_CFLAGS = $(CPU_CFLAGS)
endif

# Split by concern: the kernels (test_cpu_backend_kernels*.cu) and the tests
# (test_cpu_backend*.c, main's table in test_cpu_backend.c), an object each, one binary.
CPU_TEST_KERNELS = $(addprefix tests/test_cpu_backend_kernels,.cu _threads.cu _memory.cu \
  _textures.cu _features.cu)
CPU_TEST_SOURCES = $(addprefix tests/test_cpu_backend,.c _threads.c _memory.c _textures.c \
  _wrong.c _features.c)
CPU_TEST_OBJECTS = $(patsubst tests/%,$(CPU_TEST_DIR)/%.o,$(CPU_TEST_KERNELS) $(CPU_TEST_SOURCES))
$(patsubst tests/%,$(CPU_TEST_DIR)/%.o,$(CPU_TEST_KERNELS)): $(CPU_TEST_DIR)/%.o: tests/% \
    tests/test_cpu_backend_kernels_util.cuh $(CPU_TEST_DEPS)
	@mkdir -p $(@D)
	$(Q)$(CPU_TEST_CU) -c $< -o $@
$(CPU_TEST_DIR)/test_cpu_backend_kernels_threads.cu.o: tests/test_cpu_backend_kernels.cuh
$(patsubst tests/%,$(CPU_TEST_DIR)/%.o,$(CPU_TEST_SOURCES)): $(CPU_TEST_DIR)/%.o: tests/% \
    tests/test_cpu_backend.h
	@mkdir -p $(@D)
	$(Q)$(CPU_CC) -std=c11 -O2 -g -Wall -Wextra $(CPU_TEST_CFLAGS) -c $< -o $@
$(CPU_TEST): $(CPU_TEST_OBJECTS)
	$(Q)$(CPU_TEST_LD) -o $@ $^ -lcmocka

# Streams, events and graphs: one file, tests and kernels (C++, as cucc and nvcc compile it).
CPU_STREAMS_TEST = $(CPU_TEST_DIR)/test_cpu_streams
$(CPU_STREAMS_TEST): tests/test_cpu_streams.cu $(CPU_TEST_DEPS)
	@mkdir -p $(@D)
	$(Q)$(CPU_TEST_CU) -c $< -o $@.o
	$(Q)$(CPU_TEST_LD) -o $@ $@.o -lcmocka

test-cpu-backend: $(CPU_TEST) $(CPU_STREAMS_TEST)
	@python3 common/run_tests.py --label "test-cpu-backend$(RACE_LABEL)" --no-list $(if $(V),--verbose) $(CPU_TEST)
	@python3 common/run_tests.py --label "test-cpu-streams$(RACE_LABEL)" --no-list $(if $(V),--verbose) $(CPU_STREAMS_TEST)
ifeq ($(BACKEND)$(RACECHECK),cpu)
	@tests/test_cucc_flags.sh $(CPU_DIR)/cucc $(BUILD)/cpu
	@tests/test_cucc_rewrite.sh $(CPU_DIR)/cucc $(BUILD)/cpu/cucc-rewrite $(BUILD)/cpu
endif

# Switch, barrier and reduction costs, as recorded in common/cpu/README.md: the plain build
# (no sanitizer), whatever SANITIZE says.
$(BUILD)/cpu/bench: $(CPU_DIR)/bench.cu $(BUILD)/cpu/runtime/libcudacpu.a $(BUILD)/cpu/cucc-rewrite
	$(CPU_DIR)/cucc -O2 -o $@ $<
bench-cpu-backend: $(BUILD)/cpu/bench
	$(BUILD)/cpu/bench

cpu-runtime: $(CUCC_DEPS)

.PHONY: test-cpu-backend bench-cpu-backend cpu-runtime
