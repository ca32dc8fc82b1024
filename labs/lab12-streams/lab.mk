# make lab12 timeline: every variant once with its events (`lab12 run --timeline`, with ARGS),
# drawn by plots/timeline.gp into plots/data/lab12-timeline.png: a row per stream of each
# variant, the copies in, kernels and copies out as bars along time.
.PHONY: timeline lab12-timeline
timeline: $(if $(filter lab12,$(LAB_GOALS)),lab12-timeline)
lab12-timeline: $(BUILD)/.need-gnuplot
	@mkdir -p plots/data
	@$(MAKE) --no-print-directory lab12-run ARGS="--timeline $(ARGS)" | grep '	' \
	  > plots/data/lab12-timeline.tsv
	@gnuplot -e "tsv='plots/data/lab12-timeline.tsv'; out='plots/data/lab12-timeline.png'; \
	  term='png'; title='lab12 timeline'" plots/timeline.gp
	@echo "lab12 timeline: plots/data/lab12-timeline.png"
# The bench's answer is computed on every core (OpenMP, in rows.c): flags and library for the
# command line's files alone.
lab12_MAIN_CFLAGS := -fopenmp
lab12_MAIN_LIBS := -lgomp
