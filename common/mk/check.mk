# `make test`, the README's test command, `make check`, and the checks they run. Included by the top
# Makefile.

# A step of make test or make check: its own lines, then the seconds it took.
STEP = @common/step.sh

.PHONY: test check-skeletons skeletons-fail nvcc-check test-new-lab test-new-lab-catalogue test-cli
ifneq ($(LAB_GOALS),)
test: $(LAB_GOALS:=-test)
else ifeq ($(wildcard solutions),)
# A student's copy (make dist leaves solutions/ out): every lab's tests on the student's code.
test: $(NUMS:=-test)
else
# The instructor's tree: skeletons current and failing, tables and formatting current, the
# committed plots and slides drawn from their sources as they are now, nvcc
# builds everything, the CPU backend's own tests, every solution's tests (on the CPU backend
# under AddressSanitizer and UBSan, as every `make labNN test` there), every points line
# scoring a test of the judges of either backend (common/grade/check_points.py).
# Each step prints its own lines, then the seconds it took (common/step.sh).
# nvcc-check compiles every .cu alone: a job per core (the tests stay one lab at a time, so
# that their time limits hold)
CORES := $(shell nproc 2>/dev/null || echo 1)
test:
	$(STEP) checks $(MAKE) --no-print-directory check-skeletons check-tables check-format
	$(STEP) check-plots $(MAKE) --no-print-directory check-plots
	$(STEP) nvcc-check $(MAKE) --no-print-directory -j$(CORES) nvcc-check
	$(STEP) test-new-lab $(MAKE) --no-print-directory test-new-lab
	$(STEP) test-cpu-backend $(MAKE) --no-print-directory test-cpu-backend
	$(STEP) "the solutions' tests" $(MAKE) --no-print-directory SOLUTION=1 $(NUMS:=-test)
	$(STEP) test-cli $(MAKE) --no-print-directory SOLUTION=1 test-cli
	$(STEP) check-points sh -c '$(MAKE) -s --no-print-directory BACKEND=cpu judges && \
	  $(MAKE) -s --no-print-directory BACKEND=cuda judges && \
	  python3 common/grade/check_points.py $(B) $(BACKEND) $(BUILD)'
	$(STEP) skeletons-fail $(MAKE) --no-print-directory skeletons-fail
	@echo "make test: all passed"
endif

# The labs' own command-line options (tests/test_labNN_cli.sh LABNN, the lab's binary): a bad
# value refused with one line and exit status 2, a good one taken. Only the parsing runs, so
# a skeleton's binary does as well as a solution's; make test takes the solutions', whose
# kernels its tests have just built.
CLI_LABS := $(patsubst tests/test_%_cli.sh,%,$(wildcard tests/test_lab*_cli.sh))
test-cli: $(foreach l,$(CLI_LABS),$($(l)_BIN))
	@$(foreach l,$(CLI_LABS),tests/test_$(l)_cli.sh $($(l)_BIN) &&) :

# make check: what is slow and rarely broken, after make test in CI: the grader's own tests
# and its catch rate, the Colab notebook, and on the CPU backend the same tests again under
# the race checker, as the grader runs them.
.PHONY: check
check: $(BUILD)/.need-python3
	$(STEP) test-grader python3 tests/grader/test_grader.py --backend $(BACKEND)
	$(STEP) catch-rate python3 tests/grader/catch_rate.py --backend $(BACKEND) $(foreach l,$(LAB),--lab $(l))
	$(STEP) test-notebook $(MAKE) --no-print-directory test-notebook
ifeq ($(BACKEND),cpu)
	$(STEP) test-new-lab-catalogue $(MAKE) --no-print-directory test-new-lab-catalogue
	$(STEP) "test-cpu-backend, race-checked" $(MAKE) --no-print-directory RACECHECK=1 test-cpu-backend
	$(STEP) "the solutions' tests, race-checked" $(MAKE) --no-print-directory RACECHECK=1 SOLUTION=1 $(NUMS:=-test)
endif
	@echo "make check: all passed"

# notebooks/colab.ipynb (a lab's tests, bench and plot on Colab's T4), run here as a student
# runs it there, but in this checkout (no clone) and on the CPU backend: every cell passes and
# the plot shows (notebooks/run.py).
.PHONY: test-notebook
test-notebook: $(BUILD)/.need-python3 $(BUILD)/.need-notebook
	@python3 notebooks/run.py

skeletons-fail: $(NUMS:=-skeleton)

# labs/ is generated from solutions/: the instructor edits one file.
SOLUTION_FILES := $(wildcard solutions/*/*.cu)
check-skeletons:
	@common/skeletons.sh check

# Every .cu (common, skeletons, solutions) through the real nvcc, whatever the backend.
NVCC_CHECK := $(patsubst %.cu,$(BUILD)/nvcc/%.o,$(COMMON_CU) $(wildcard labs/*/*.cu solutions/*/*.cu))
ifneq ($(shell command -v $(NVCC)),)
nvcc-check: $(NVCC_CHECK)
	@echo "nvcc-check: the bench judges"
	@$(MAKE) --no-print-directory BACKEND=cuda bench-judges
	@echo "nvcc-check: $(words $(NVCC_CHECK)) .cu files and the bench judges build with nvcc"
else
nvcc-check:
	@echo "nvcc-check: no $(NVCC) on the PATH, so the .cu files were not built with nvcc"
endif
# A lab's library.cu (the CUB, cuBLAS and NPP rows) for one architecture only: its kernels are
# NVIDIA's, and CUB's for all seven took a minute of CI's two cores.
$(BUILD)/nvcc/%.o: %.cu
	@mkdir -p $(@D)
	@echo "nvcc-check: $<"
	$(Q)$(NVCC) $(CUFLAGS_COMMON) $(if $(filter %/library.cu,$<),-arch=sm_90,$(ARCH_FLAGS)) \
	  $(CUWERROR) $(DEPFLAGS) -DBACKEND_CUDA $(INCLUDES) -c $< -o $@

# make new-lab, tried in a copy of the tree: its lab builds, passes with its solution, fails
# as a skeleton, its handout's table waits for a measurement, the grader (its judge and
# worker) gives its solution full marks with the hidden tests, its row is in README.md's
# table of labs, and a line of its host API for the grader's wall that differs from its
# header does not compile.
NEW_LAB := $(BUILD)/new-lab
# The CPU backend's runtimes built here, into the copy at $(1) (the same sources: current
# there too): a minute of 2 cores each copy would spend building them again.
SEED_RUNTIMES = for r in runtime runtime-asan runtime-tsan cucc-rewrite; do \
	  [ ! -e $(BUILD)/cpu/$$r ] || { mkdir -p $(1)/build/cpu && cp -a $(BUILD)/cpu/$$r $(1)/build/cpu/; }; done
test-new-lab: $(if $(filter cpu,$(BACKEND)),$(CUCC_DEPS))
	@echo "test-new-lab: make new-lab NN=99 in a copy of the tree, then its tests and grade (a minute or two)"
	@rm -rf $(NEW_LAB) && mkdir -p $(NEW_LAB)
	@tar -cf - --exclude=./build --exclude=./.git --exclude=./.deps --exclude=./grade \
	  --exclude=./dist . | tar -xf - -C $(NEW_LAB)
	@$(call SEED_RUNTIMES,$(NEW_LAB))
	@cd $(NEW_LAB) && common/new-lab.sh 99 template-check > log.txt && \
	  $(MAKE) --no-print-directory BACKEND=$(BACKEND) SOLUTION=1 lab99-test lab99-skeleton \
	  check-tables >> log.txt 2>&1 && \
	  python3 common/grade/grade.py --solution --lab 99 --backend $(BACKEND) --no-racecheck \
	  --out grade >> log.txt 2>&1 && python3 -c 'import json, sys; r = json.load(open("grade/results.json")); \
	  sys.exit(not 0 < r["score"] == r["max_score"])' && \
	  grep -q '^| lab99-template-check | ' README.md && \
	  sed 's/VAL(size_t, n)/VAL(unsigned, n)/' tests/remote_lab99_template_check.c > bad.c && \
	  ! $(CC) -std=c11 -DREMOTE_JUDGE $(DEFINES) $(INCLUDES) -I labs/lab99-template-check \
	  -c bad.c -o bad.o >> log.txt 2>&1 \
	  || { tail -40 log.txt; echo "test-new-lab: failed (or a host API line unlike the header compiled)"; exit 1; }
	@$(TREE_ID) > $(NEW_LAB)/.tree
	@echo "test-new-lab: make new-lab NN=99 makes a lab that passes, grades (hidden tests too), and whose skeleton fails"

# (make check) the new lab's catalogue: its wrong entries caught, its right one accepted; in
# the copy make test left, where the tree has not changed since (CI: a minute saved), else
# in a new one (always where there is no git to say so).
TREE_ID = { git rev-parse HEAD && git status --porcelain || echo "no git here: $$$$"; } 2>/dev/null | cksum
test-new-lab-catalogue:
	@[ -f $(NEW_LAB)/.tree ] && [ "$$($(TREE_ID))" = "$$(cat $(NEW_LAB)/.tree)" ] || \
	  $(MAKE) --no-print-directory test-new-lab
	@$(call SEED_RUNTIMES,$(NEW_LAB))
	@cd $(NEW_LAB) && python3 tests/grader/catch_rate.py --lab 99 > catalogue.txt 2>&1 \
	  || { tail -20 catalogue.txt; exit 1; }
	@echo "test-new-lab-catalogue: $$(grep '^lab99:' $(NEW_LAB)/catalogue.txt)"
