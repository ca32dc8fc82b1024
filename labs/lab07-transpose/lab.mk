# lab07's library row is cuBLAS's transpose (library.cu, CUDA builds only).
lab07_LIBS := -lcublas
# make lab07 occupancy: tiled_padded with unused dynamic shared memory a block, from none to
# the most a block can have (`lab07 run --occupancy`, ARGS as for the run): a line per
# occupancy into plots/data/lab07-occupancy.tsv, drawn by plots/occupancy.gp into
# plots/data/lab07-occupancy.png. On the CPU backend the blocks are its model's and the times
# the CPU's, on 512 x 512 unless ARGS says otherwise.
.PHONY: occupancy lab07-occupancy
occupancy: $(if $(filter lab07,$(LAB_GOALS)),lab07-occupancy)
lab07-occupancy: $(BUILD)/.need-gnuplot
	@$(MAKE) -s --no-print-directory $(lab07_BIN)
	@mkdir -p plots/data
	@$(lab07_BIN) run --occupancy --occupancy-tsv plots/data/lab07-occupancy.tsv \
	  --variant tiled_padded $(if $(filter cpu,$(BACKEND)),--width 512 --height 512) $(ARGS)
	@gnuplot -e "tsv='plots/data/lab07-occupancy.tsv'; out='plots/data/lab07-occupancy.png'; \
	  term='png'; title='lab07: tiled_padded against its occupancy'" plots/occupancy.gp
	@echo "lab07 occupancy: plots/data/lab07-occupancy.png, from plots/data/lab07-occupancy.tsv"
