# The instructor's tools: skeletons, measured tables, formatting, a new lab, the reference
# plots and slides.
# Included by the top Makefile.

.PHONY: skeletons tables check-tables format check-format new-lab slides plots-reference \
  check-plots clean

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
             labs/*/*.[ch] labs/*/*.cu tests/*.[ch] tests/*.cu tests/*.cuh tests/hidden/*.c)) \
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

# The reference plots, committed so that a reader sees them on GitHub without installing
# anything: every lab's plots of plots/reference/labNN.tsv as plots/reference/*.png, and in
# plots/reference/SHA256SUMS the files they were drawn from (plots/stamp.sh). make test
# checks that they are current (check-plots); make plot, for every lab, redraws them too.
PLOT_SOURCES := plots/draw.sh $(wildcard plots/*.gp plots/*.awk)
REFERENCE_TSVS := $(wildcard plots/reference/lab[0-9][0-9].tsv)
# lab12's timeline (`lab12 run --timeline` on a GPU): plots/timeline.gp draws it
TIMELINE_TSVS := $(wildcard plots/reference/lab[0-9][0-9]-timeline.tsv)
# lab14's survival curve (`lab14 run --survival --survival-tsv`, exact on any backend):
# plots/survival.gp draws it
SURVIVAL_TSVS := $(wildcard plots/reference/lab[0-9][0-9]-survival.tsv)
# lab13's roofline (make lab13 roofline on a GPU: the bench's times, Nsight Compute's bytes):
# plots/roofline.gp draws it
ROOFLINE_TSVS := $(wildcard plots/reference/lab[0-9][0-9]-roofline.tsv)
# lab07's occupancy experiment (make lab07 occupancy on a GPU): plots/occupancy.gp draws it
OCCUPANCY_TSVS := $(wildcard plots/reference/lab[0-9][0-9]-occupancy.tsv)
# the figures of the literature that a lab's own drawing puts beside its rows (lab11-blocks.gp)
PUBLISHED_TSVS := $(wildcard plots/reference/lab[0-9][0-9]-published.tsv)
plots-reference: | $(BUILD)/.need-gnuplot
	@rm -f plots/reference/*.png
	@for tsv in $(REFERENCE_TSVS); do PLOT_TERMS=png plots/draw.sh $$(basename $$tsv .tsv) \
	  $$tsv "" plots/reference > /dev/null || exit 1; done
	@for tsv in $(TIMELINE_TSVS); do gnuplot -e "tsv='$$tsv'; out='$${tsv%.tsv}.png'; \
	  term='png'; title='$$(basename $$tsv .tsv) on the H100 (reference measurement)'" \
	  plots/timeline.gp || exit 1; done
	@for tsv in $(SURVIVAL_TSVS); do gnuplot -e "tsv='$$tsv'; out='$${tsv%.tsv}.png'; \
	  term='png'; title='$$(basename $$tsv -survival.tsv): the windows alive after each stage'" \
	  plots/survival.gp || exit 1; done
	@for tsv in $(ROOFLINE_TSVS); do gnuplot -e "tsv='$$tsv'; out='$${tsv%.tsv}.png'; \
	  term='png'; title='$$(basename $$tsv -roofline.tsv) roofline'" plots/roofline.gp || exit 1; done
	@for tsv in $(OCCUPANCY_TSVS); do gnuplot -e "tsv='$$tsv'; out='$${tsv%.tsv}.png'; \
	  term='png'; title='$$(basename $$tsv -occupancy.tsv): tiled_padded against its occupancy (reference measurement)'" \
	  plots/occupancy.gp || exit 1; done
	@plots/stamp.sh write plots/reference/SHA256SUMS $(PLOT_SOURCES) $(REFERENCE_TSVS) \
	  $(TIMELINE_TSVS) $(SURVIVAL_TSVS) $(ROOFLINE_TSVS) $(OCCUPANCY_TSVS) $(PUBLISHED_TSVS) \
	  plots/reference/*.png
	@echo "plots-reference: $$(ls plots/reference/*.png | wc -l) PNGs in plots/reference/, from $(words $(REFERENCE_TSVS)) TSVs"

# One deck per lab, Markdown to PDF through pandoc's beamer writer, with its lab's plots
# drawn from plots/reference/ at the slide size (larger text; slides/beamer.yaml: what every
# deck shares), built in $(BUILD)/slides/, then copied to slides/pdf/ (committed, with
# slides/pdf/SHA256SUMS, which check-plots checks). A fixed date, so that the same sources
# give the same PDF.
SLIDES := $(patsubst slides/%.md,$(BUILD)/slides/%.pdf,$(wildcard slides/*.md))
SLIDE_IMAGES := $(wildcard labs/*/images/*.png)
SLIDE_SOURCES := $(wildcard slides/*.md) slides/beamer.yaml $(PLOT_SOURCES) $(REFERENCE_TSVS) \
  $(PUBLISHED_TSVS) $(SLIDE_IMAGES)
slides: $(SLIDES)
	@rm -rf slides/pdf && mkdir -p slides/pdf && cp $(SLIDES) slides/pdf/
	@plots/stamp.sh write slides/pdf/SHA256SUMS $(SLIDE_SOURCES) slides/pdf/*.pdf
	@echo "slides: slides/pdf/*.pdf, $$(du -cb slides/pdf/*.pdf | tail -1 | cut -f1) bytes (built in $(BUILD)/slides/)"
$(BUILD)/slides/%.pdf: slides/%.md slides/beamer.yaml $(PLOT_SOURCES) $(REFERENCE_TSVS) \
    $(PUBLISHED_TSVS) $(SLIDE_IMAGES) \
    | $(BUILD)/.need-pandoc $(BUILD)/.need-beamer $(BUILD)/.need-gnuplot
	@mkdir -p $(@D)
	@lab=$(firstword $(subst -, ,$*)); if [ -f plots/reference/$$lab.tsv ]; then \
	  PLOT_TERMS=png PLOT_SIZE=slide plots/draw.sh $$lab plots/reference/$$lab.tsv "" $(@D) > /dev/null; fi
	$(Q)SOURCE_DATE_EPOCH=1767225600 FORCE_SOURCE_DATE=1 \
	  pandoc -t beamer --metadata-file=slides/beamer.yaml --resource-path=$(@D):. -o $@ $<

# make test: the committed drawings are those of their sources now (plots/stamp.sh); both
# manifests are checked, so that one run names every goal to run.
check-plots:
	@ok=1; plots/stamp.sh check plots/reference/SHA256SUMS plots-reference \
	  $(PLOT_SOURCES) $(REFERENCE_TSVS) $(TIMELINE_TSVS) $(SURVIVAL_TSVS) $(ROOFLINE_TSVS) \
	  $(OCCUPANCY_TSVS) $(PUBLISHED_TSVS) $(wildcard plots/reference/*.png) || ok=; \
	plots/stamp.sh check slides/pdf/SHA256SUMS slides $(SLIDE_SOURCES) $(wildcard slides/pdf/*.pdf) || ok=; \
	[ -n "$$ok" ]

clean:
	rm -rf $(BUILD) plots/data
