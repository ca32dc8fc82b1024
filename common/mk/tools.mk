# The instructor's tools: skeletons, measured tables, formatting, a new lab, slides.
# Included by the top Makefile.

.PHONY: skeletons tables check-tables format check-format new-lab slides clean

# labs/*/X.cu from solutions/*/X.cu (common/skeleton.awk): the instructor edits one file.
# An exercise someone has edited since is left alone, unless FORCE=1.
skeletons:
	@common/skeletons.sh write $(FORCE)

# The measured tables of the READMEs, handouts and slides, from plots/reference/*.tsv
# (between <!-- table ... --> markers): numbers have one source.
tables: $(BUILD)/.need-python3
	@python3 common/tables.py --write
check-tables: $(BUILD)/.need-python3
	@python3 common/tables.py --check

# One .clang-format for C, CUDA and C++; the generated skeletons follow their solutions.
FORMATTED := $(filter-out $(EXERCISES), \
  $(wildcard common/*.[ch] common/*.cu common/judge/*.[ch] common/judge/*.cu common/cpu/*.cpp common/cpu/*.h common/cpu/*.cu common/cpu/include/*.h \
             common/cpu/include/*/*.h \
             labs/*/*.[ch] labs/*/*.cu tests/*.c tests/*.cu tests/*.cuh tests/hidden/*.c)) \
  $(SOLUTION_FILES)
format: $(BUILD)/.need-clang-format
	@clang-format -i $(FORMATTED)
	@echo "format: $(words $(FORMATTED)) files"
	@common/skeletons.sh write
check-format: $(BUILD)/.need-clang-format
	@common/check-format.sh $(FORMATTED)

# make new-lab NN=02 NAME=mandelbrot: a working lab of the frame's shape to start from.
new-lab:
	@common/new-lab.sh "$(NN)" "$(NAME)"

# One deck per lab, Markdown to PDF through pandoc's beamer writer, with its lab's plots
# drawn from plots/reference/ (slides/beamer.yaml: what every deck shares).
SLIDES := $(patsubst slides/%.md,$(BUILD)/slides/%.pdf,$(wildcard slides/*.md))
slides: $(SLIDES)
	@echo "slides: $(SLIDES)"
$(BUILD)/slides/%.pdf: slides/%.md slides/beamer.yaml plots/lab.gp plots/sweep.gp \
    plots/compute.gp plots/param.gp \
    | $(BUILD)/.need-pandoc $(BUILD)/.need-beamer $(BUILD)/.need-gnuplot
	@mkdir -p $(@D)
	@lab=$(firstword $(subst -, ,$*)); if [ -f plots/reference/$$lab.tsv ]; then \
	  plots/draw.sh $$lab plots/reference/$$lab.tsv "" $(@D) > /dev/null; fi
	$(Q)pandoc -t beamer --metadata-file=slides/beamer.yaml --resource-path=$(@D):. -o $@ $<

clean:
	rm -rf $(BUILD) plots/data
