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
# make lab12 profile on a GPU: where Nsight Systems is installed, its report of one run of
# every variant too (the copy engines' and the kernels' own timeline, beside the events').
ifeq ($(BACKEND),cuda)
.PHONY: lab12-nsys
lab12-profile: lab12-nsys
lab12-nsys:
	@$(MAKE) -s --no-print-directory $(lab12_BIN)
	@if command -v nsys >/dev/null; then \
	  nsys profile --force-overwrite true -o $(dir $(lab12_BIN))lab12 $(lab12_BIN) run $(ARGS) \
	    > /dev/null && echo "lab12 profile: Nsight Systems' report in $(dir $(lab12_BIN))lab12.nsys-rep"; \
	else echo "lab12 profile: no nsys on the PATH (Nsight Systems): make lab12 timeline draws the overlap from events"; fi
endif
