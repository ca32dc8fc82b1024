# Grading and release. Included by the top Makefile.
#
# make grade [LAB=NN] [STUDENT=path | CLASS=dir [JOBS=n] | SOLUTION=1] [TEST_TIMEOUT=s]
#            [LAB_TIMEOUT=s] [GRADE_OUT=dir] [SANITIZE=0]
# Every test of every lab (or LAB) in a process of its own, scored from
# tests/points/labNN.txt: grade/results.json (Gradescope's format), grade/labNN.xml (JUnit)
# and a table on stdout. CLASS: every folder of dir is a submission, graded into
# GRADE_OUT/NAME/, with GRADE_OUT/class.csv, JOBS of them at a time (default: one per core;
# on a GPU their GPU tests take turns, a few submissions at a time within its memory, and a
# bench has the device alone).
# On the CPU backend the builds use ASan + UBSan (SANITIZE=0: not) and the tests the
# backend's strict mode; each test that passes runs again under the race checker.
# The verdicts come from judges that never link the student's code; as root, the student's
# code is built and run as uids of its own, with limits (common/grade/wall.py).
# make dist: dist/ gets the student tarball and the Gradescope autograder.
# make test-grader: the grader's own tests (skeletons, solutions, broken submissions).
GRADE_OUT := grade
GRADE_FLAGS = --backend $(BACKEND) --out "$(GRADE_OUT)" $(if $(STUDENT),--student "$(STUDENT)") \
  $(if $(CLASS),--class "$(CLASS)") $(if $(JOBS),--class-jobs $(JOBS)) \
  $(if $(SOLUTION),--solution) $(foreach l,$(or $(LAB),$(LAB_GOALS)),--lab $(l)) \
  $(if $(TEST_TIMEOUT),--test-timeout $(TEST_TIMEOUT)) \
  $(if $(LAB_TIMEOUT),--lab-timeout $(LAB_TIMEOUT)) \
  $(foreach v,ARCH WERROR SANITIZE,$(if $(filter command line,$(origin $(v))),--make-var "$(v)=$($(v))"))

# make grade-times: the solutions graded here, and their tests' times written to
# common/grade/times.json, which a grader that has not timed the solutions itself uses
# (counted twice; common/grade/times.py): a submission that hangs then costs a test seconds,
# not TEST_TIMEOUT. Run it on a 2-core machine like CI's after changing a lab's tests: a
# lab whose tests changed since is not wrong there, only left to TEST_TIMEOUT.
.PHONY: grade dist test-grader grade-times
# As root the grader jails the student's code with bubblewrap (common/grade/sandbox.py);
# without root there is no wall to build, and it needs nothing more.
grade: $(BUILD)/.need-cmocka $(BUILD)/.need-python3 $(BUILD)/.need-racecheck-gcc $(if $(filter 0,$(shell id -u)),$(BUILD)/.need-bubblewrap)
	@python3 common/grade/grade.py $(GRADE_FLAGS)
grade-times: $(BUILD)/.need-cmocka $(BUILD)/.need-python3 $(BUILD)/.need-racecheck-gcc $(if $(filter 0,$(shell id -u)),$(BUILD)/.need-bubblewrap)
	@python3 common/grade/grade.py --solution --backend cpu --out $(BUILD)/grade-times \
	  $(foreach l,$(or $(LAB),$(LAB_GOALS)),--lab $(l))
	@python3 common/grade/times.py --write
dist: $(BUILD)/.need-python3
	@python3 common/grade/dist.py $(if $(LAB),--lab $(LAB))
test-grader: $(BUILD)/.need-python3
	@python3 tests/grader/test_grader.py --backend $(BACKEND)
	@python3 tests/grader/catch_rate.py --backend $(BACKEND) $(foreach l,$(LAB),--lab $(l))
