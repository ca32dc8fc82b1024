# Each lab's rules: its two binaries and the goals `make labNN [test|run|bench|plot|
# sanitize|profile]`. Included by the top Makefile.

# common/png_write.c and png_read.c need libpng: only the labs that write or read PNGs link
# them (labNN_MAIN_C).
COMMON_C := $(filter-out common/testkit%.c common/png_write.c common/png_read.c,$(wildcard common/*.c))
COMMON_CU := $(wildcard common/*.cu)
COMMON_OBJS := $(COMMON_C:%.c=$(B)/%.o) $(COMMON_CU:%.cu=$(B)/%.o)
TESTKIT_OBJ := $(B)/common/testkit.o $(B)/common/testkit_here.o

# The grader's two halves (common/judge/remote.h): judge_labNN, the lab's tests and its CPU
# reference without its kernels, built from the grader's files alone, plain C, in $(JB);
# worker_labNN, the lab's code without the tests, which serves the judge's calls.
# On a GPU, bench_labNN is the bench's judge: the lab's command line and the driver, with the
# worker's calls timed on the judge's own clock (judge/clock.cu) against its own copy and
# device (device.cu); both are host code, which nvcc builds without kernels.
JB := $(BUILD)/judge-$(BACKEND)
JUDGE_CALLS := $(addprefix $(JB)/common/,lab.o rng.o ceilings.o judge/judge.o judge/remote.o)
JUDGE_OBJS := $(JUDGE_CALLS) $(addprefix $(JB)/common/,testkit.o judge/judge_device.o judge/gpu_info_text.o)
BENCH_JUDGE_OBJS := $(JUDGE_CALLS) \
  $(addprefix $(JB)/common/,driver.o bench.o cli.o timing.o device.o judge/clock.o)
WORKER_OBJS := $(B)/common/judge/worker.o $(B)/common/judge/remote.o $(B)/common/testkit_here.o
# The device as the grader sees it (common/judge/device_query.c), built with the backend's
# own tools from our files alone: the judges get its line, not the worker's word.
DEVICE_QUERY := $(B)/common/judge/device_query
$(DEVICE_QUERY): $(B)/common/judge/device_query.o $(B)/common/judge/gpu_info_text.o $(COMMON_OBJS) $(BACKEND_DEPS)
	$(Q)$(LINK) -o $@ $(filter %.o,$^) -lm
# The race checker's canary (common/judge/race_canary.cu), in the RACECHECK=1 build.
$(B)/common/judge/race_canary: $(B)/common/judge/race_canary.o $(BACKEND_DEPS)
	$(Q)$(LINK) -o $@ $(filter %.o,$^)
$(JB)/%.o: %.c | $(BUILD)/.need-cmocka
	@mkdir -p $(@D)
	$(Q)$(CC) $(JUDGE_CFLAGS) $(DEPFLAGS) -DREMOTE_JUDGE $(DEFINES) $(INCLUDES) -c $< -o $@
$(JB)/%.o: %.cu
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(CUFLAGS_COMMON) $(if $(WERROR),-Werror all-warnings) $(DEPFLAGS) \
	  -DREMOTE_JUDGE $(DEFINES) $(INCLUDES) -c $< -o $@

$(B)/%.o: %.c | $(BUILD)/.need-cmocka $(BACKEND_DEPS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(DEPFLAGS) $(DEFINES) $(INCLUDES) -c $< -o $@

# The CPU backend's headers are system headers to the compiler, so no .d names them.
$(B)/%.o: %.cu $(if $(filter cpu,$(BACKEND)),$(CPU_HEADERS) $(BUILD)/cpu/cucc-rewrite) | $(BACKEND_DEPS)
	@mkdir -p $(@D)
	$(Q)$(CUC) $(CUWERROR) $(CUWORK) $(CULAB) $(DEPFLAGS) $(DEFINES) $(INCLUDES) -c $< -o $@

# Where nvcc is on the PATH, a student's exercise also goes through it (one virtual
# architecture, PTX only: a second or two), for what g++ accepts and nvcc refuses, such as
# a host function called from a kernel.
NVCC_CHECKS := $(if $(filter cpu,$(BACKEND)),$(shell command -v $(NVCC)))
$(BUILD)/nvcc-check/%.ok: %.cu
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(CUFLAGS_COMMON) -gencode arch=compute_75,code=compute_75 $(CUWERROR) \
	  -MMD -MP -MT $@ -MF $(@:.ok=.d) -DBACKEND_CUDA $(INCLUDES) -c $< -o $(@:.ok=.o) && touch $@

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Library rows (CUB, cuBLAS) exist only on a real GPU: a lab keeps them in library.cu,
# which the CPU backend leaves out, and names the libraries it links in its lab.mk.
CUDA_ONLY := $(if $(filter cpu,$(BACKEND)),%/library.cu)
-include $(wildcard labs/*/lab.mk)

# For lab $(1) in directory $(2): the exercise .cu files come from $(TREE) (labs/ or
# solutions/), everything else from labs/. Binaries: the CLI $(1), test_$(1), and for the
# grader worker_$(1) and, in $(JB), judge_$(1) and judge_hidden_$(1) (tests/hidden/).
define LAB_RULES
$(1)_EXERCISES := $$(notdir $$(filter labs/$(2)/%,$(EXERCISES)))
$(1)_CU := $$(addprefix $(TREE)/$(2)/,$$($(1)_EXERCISES)) \
           $$(filter-out $$(addprefix labs/$(2)/,$$($(1)_EXERCISES)) $(CUDA_ONLY),$$(wildcard labs/$(2)/*.cu))
# The command line's files (main.c, and where the lab has them rows.c, its bench's job, and
# experiments.c, the handout's experiments) go only into the CLI and the bench's judge.
$(1)_HOST := $$(wildcard $$(addprefix labs/$(2)/,main.c rows.c experiments.c))
$(1)_C := $$(filter-out $$($(1)_HOST),$$(wildcard labs/$(2)/*.c))
$(1)_OBJS := $$($(1)_CU:%.cu=$(B)/%.o) $$($(1)_C:%.c=$(B)/%.o) $(COMMON_OBJS)
$(1)_LINK = $(Q)$$(LINK) -o $$@ $$(filter %.o,$$^) $$(LDLIBS) $$(if $$(filter cuda,$(BACKEND)),$$($(1)_LIBS))
$(1)_NVCC := $$(if $(NVCC_CHECKS),$$(patsubst %.cu,$(BUILD)/nvcc-check/$(TREE)/$(2)/%.ok,$$($(1)_EXERCISES)))
$(1)_BIN := $(B)/$(TREE)/$(2)/$(1)
$(1)_TEST := $(B)/$(TREE)/$(2)/test_$(1)
$(1)_WORKER := $(B)/$(TREE)/$(2)/worker_$(1)
$(1)_JUDGE := $(JB)/labs/$(2)/judge_$(1)
$(1)_JUDGE_HIDDEN := $(JB)/labs/$(2)/judge_hidden_$(1)
$(1)_REMOTE := $$(wildcard tests/remote_$(1)_*.c)
$(1)_JUDGE_OBJS := $$(patsubst %.c,$(JB)/%.o,$$($(1)_C) $$($(1)_REMOTE)) $(JUDGE_OBJS)
# A lab whose tests count its kernels' work (testkit_work) says labNN_COUNT_WORK := 1 in its
# lab.mk: on the CPU backend its .cu files build with cucc --count-work, a call at each basic
# block, which costs lab01's plain test run a quarter more time: not for every lab.
ifeq ($(BACKEND),cpu)
$$($(1)_CU:%.cu=$(B)/%.o): CUWORK = $$(if $$($(1)_COUNT_WORK),--count-work)
$$($(1)_CU:%.cu=$(B)/%.o): $(wildcard labs/$(2)/lab.mk)
endif
# A lab whose kernels need nvcc flags of their own on a GPU says labNN_CUFLAGS in its lab.mk
# (lab02 and lab03: -fmad=false, so that a GPU rounds every step as the CPU reference does;
# the CPU backend has no FMA to contract into).
ifeq ($(BACKEND),cuda)
$$($(1)_CU:%.cu=$(B)/%.o): CULAB = $$($(1)_CUFLAGS)
$$($(1)_CU:%.cu=$(B)/%.o): $(wildcard labs/$(2)/lab.mk)
endif

# A lab whose command line needs more than the driver says so in its lab.mk, on every
# backend: labNN_MAIN_CFLAGS for the compiler of main.c, rows.c and experiments.c,
# labNN_MAIN_LIBS for the links that hold them (the CLI, and on a GPU the bench's judge), labNN_MAIN_C for common sources that only they
# link (common/png_write.c), labNN_NEEDS for the packages of common/mk/packages.txt that
# they need (lab02: -fopenmp, common/png_write.c, -lpng -lgomp, libpng). The tests, the
# worker and the judge of the tests never see them.
$(1)_MAIN_OBJS := $$($(1)_HOST:%.c=$(B)/%.o) $$($(1)_MAIN_C:%.c=$(B)/%.o)
$(1)_MAIN_JOBJS := $$($(1)_HOST:%.c=$(JB)/%.o) $$($(1)_MAIN_C:%.c=$(JB)/%.o)
$$($(1)_HOST:%.c=$(B)/%.o): CFLAGS += $$($(1)_MAIN_CFLAGS)
$$($(1)_HOST:%.c=$(JB)/%.o): JUDGE_CFLAGS += $$($(1)_MAIN_CFLAGS)
$$($(1)_MAIN_OBJS) $$($(1)_MAIN_JOBJS): | $$(addprefix $(BUILD)/.need-,$$($(1)_NEEDS))

$$($(1)_BIN): $$($(1)_OBJS) $$($(1)_MAIN_OBJS) $$($(1)_NVCC) $(BACKEND_DEPS)
	$$($(1)_LINK) $$($(1)_MAIN_LIBS)
$$($(1)_TEST): $$($(1)_OBJS) $$(patsubst %.c,$(B)/%.o,$$(wildcard tests/test_$(1)_*.c)) $(TESTKIT_OBJ) $$($(1)_NVCC) $(BACKEND_DEPS)
	$$($(1)_LINK)
$$($(1)_WORKER): $$($(1)_OBJS) $$(patsubst %.c,$(B)/%.o,$$($(1)_REMOTE)) $(WORKER_OBJS) $$($(1)_NVCC) $(BACKEND_DEPS)
	$(Q)$$(LINK) -o $$@ $$(filter %.o,$$^) -lm $$(if $$(filter cuda,$(BACKEND)),$$($(1)_LIBS))
$$($(1)_JUDGE): $$($(1)_JUDGE_OBJS) $$(patsubst %.c,$(JB)/%.o,$$(wildcard tests/test_$(1)_*.c))
	$(Q)$(CC) -o $$@ $$^ $(LDLIBS)
$$($(1)_JUDGE_HIDDEN): $$($(1)_JUDGE_OBJS) $$(patsubst %.c,$(JB)/%.o,$$(wildcard tests/hidden/test_$(1)_*.c))
	$(Q)$(CC) -o $$@ $$^ $(LDLIBS)

# Every judge of the backend (check_points.py reads their --list).
judges: $$($(1)_JUDGE) $$(if $$(wildcard tests/hidden/test_$(1)_*.c),$$($(1)_JUDGE_HIDDEN))

.PHONY: $(1) $(1)-test $(1)-run $(1)-bench $(1)-plot $(1)-sanitize $(1)-profile $(1)-skeleton
$(1): $(if $(ACTION_GOALS),,$$($(1)_BIN) $$($(1)_TEST))
	@:
$(1)-test: $$($(1)_TEST) | $(BUILD)/.need-python3
	@python3 common/run_tests.py --label "$(1)$(RACE_LABEL)" --timeout $(TEST_TIMEOUT) --skip-fails \
	  $(if $(V),--verbose) $$< $$(T)
$(1)-run: $$($(1)_BIN)
	$$< run $$(ARGS)
$(1)-skeleton:
	@$$(MAKE) -s --no-print-directory SOLUTION= $(B)/labs/$(2)/test_$(1)
	@common/expect-fail.sh $(B)/labs/$(2)/test_$(1)
ifeq ($(BACKEND),cuda)
$(1)_BENCH_JUDGE := $(JB)/labs/$(2)/bench_$(1)
$$($(1)_BENCH_JUDGE): $$($(1)_MAIN_JOBJS) $$(patsubst %.c,$(JB)/%.o,$$($(1)_C) $$($(1)_REMOTE)) $(BENCH_JUDGE_OBJS)
	$(Q)$(NVCC) -o $$@ $$^ $(LDLIBS) $$($(1)_MAIN_LIBS)
bench-judges: $$($(1)_BENCH_JUDGE)
# bench: the main size, a line per row as it is timed; SWEEP=1 (and plot) the sweeps too
$(1)-bench: $$($(1)_BIN)
	@mkdir -p plots/data
	$$< bench $$(if $$(filter 1,$$(SWEEP)),--sweep) --tsv plots/data/$(1).tsv $$(ARGS)
$(1)-plot: SWEEP = 1
$(1)-plot: $(1)-bench $(BUILD)/.need-gnuplot
	@plots/draw.sh $(1) plots/data/$(1).tsv ""
$(1)-sanitize: $$($(1)_TEST)
	@common/sanitize.sh $$< $$(T)
$(1)-profile: $$($(1)_BIN)
	@common/profile.sh $$< $$(ARGS)
else
$(1)-bench:
	@echo "$(1) bench: timings are a GPU's business; this machine has none (BACKEND=cpu)." \
	  "make $(1) plot draws plots/reference/$(1).tsv, measured on a GPU"
$(1)-plot: $(BUILD)/.need-gnuplot
	@plots/draw.sh $(1) plots/reference/$(1).tsv "reference measurement, no GPU here"
$(1)-sanitize:
	@echo "$(1) sanitize: compute-sanitizer needs a GPU (BACKEND=cuda). Here, make $(1) test" \
	  "does the same kind of checking: the CPU backend runs the tests under AddressSanitizer" \
	  "and UBSan, on top of its own barrier and warp checks"
$(1)-profile:
	@echo "$(1) profile: Nsight Compute needs a GPU (BACKEND=cuda). The CPU backend has no" \
	  "timing model: make $(1) plot draws what a GPU measured (plots/reference/$(1).tsv)," \
	  "and the handout quotes Nsight Compute for each step"
endif
endef
$(foreach l,$(LABS),$(eval $(call LAB_RULES,$(firstword $(subst -, ,$(l))),$(l))))

# `make lab07 plot` and the like: the lab goals pick the labs, the action goals apply.
ifneq ($(LAB_GOALS),)
run: $(LAB_GOALS:=-run)
bench: $(LAB_GOALS:=-bench)
plot: $(LAB_GOALS:=-plot)
sanitize: $(LAB_GOALS:=-sanitize)
profile: $(LAB_GOALS:=-profile)
else
run: $(NUMS:=-run)
bench: $(NUMS:=-bench)
plot: $(NUMS:=-plot) plots-reference
sanitize: $(NUMS:=-sanitize)
profile: $(NUMS:=-profile)
endif
.PHONY: all run bench plot sanitize profile bench-judges judges
all: $(NUMS)
