# lab14's command line reads a picture (--image) and writes PNGs (common/png_read.c and
# png_write.c, libpng) and has a CPU row on every core (OpenMP, in rows.c): its own flags,
# sources and libraries, for the command line's files alone (main.c, rows.c; the tests,
# reference.c and the judge stay plain).
lab14_MAIN_CFLAGS := -fopenmp
lab14_MAIN_C := common/png_read.c common/png_write.c
lab14_MAIN_LIBS := -lpng -lgomp
lab14_NEEDS := libpng
# make lab14 plot draws the survival curve too (plots/survival.gp): the windows alive after
# each stage, into plots/lab14-survival.png beside the bars. On a GPU from a run of the
# bench's frame (`lab14 run --survival --survival-tsv`, into plots/data/; ARGS as for the
# run, --stages among them), elsewhere from plots/reference/lab14-survival.tsv, as the bars
# are. The curve is exact, the same on every backend: the reference was computed on the CPU
# backend (make lab14-survival BACKEND=cuda would write the same numbers).
.PHONY: lab14-survival
lab14-plot: lab14-survival
ifeq ($(BACKEND),cuda)
lab14-survival: $(BUILD)/.need-gnuplot
	@$(MAKE) -s --no-print-directory $(lab14_BIN)
	@mkdir -p plots/data
	@$(lab14_BIN) run --survival --survival-tsv plots/data/lab14-survival.tsv \
	  --variant 'cpu (one core)' $(ARGS) > /dev/null
	@gnuplot -e "tsv='plots/data/lab14-survival.tsv'; out='plots/lab14-survival.png'; \
	  term='png'; title='lab14: the windows alive after each stage'" plots/survival.gp
	@echo "lab14 plot: plots/lab14-survival.png, from plots/data/lab14-survival.tsv"
else
lab14-survival: $(BUILD)/.need-gnuplot
	@gnuplot -e "tsv='plots/reference/lab14-survival.tsv'; out='plots/lab14-survival.png'; \
	  term='png'; title='lab14: the windows alive after each stage'" plots/survival.gp
	@echo "lab14 plot: plots/lab14-survival.png, from plots/reference/lab14-survival.tsv"
endif
