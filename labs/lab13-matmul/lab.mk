# lab13's library rows call cuBLAS (library.cu, built on a GPU only).
lab13_LIBS := -lcublas
# make lab13 roofline: every GPU row on the roofline (common/roofline.sh): the bench's flops
# and median times at the main size (ARGS: another), Nsight Compute's DRAM and L2 bytes of one
# run of each row, into plots/data/lab13-roofline.tsv, drawn by plots/roofline.gp into
# plots/data/lab13-roofline.png. Without a GPU, plots/reference/lab13-roofline.png is the H100's.
.PHONY: roofline lab13-roofline
roofline: $(if $(filter lab13,$(LAB_GOALS)),lab13-roofline)
ifeq ($(BACKEND),cuda)
lab13-roofline: $(BUILD)/.need-python3 $(BUILD)/.need-gnuplot
	@$(MAKE) -s --no-print-directory $(lab13_BIN)
	@mkdir -p plots/data
	@common/roofline.sh $(lab13_BIN) plots/data/lab13-roofline.tsv $(ARGS)
	@gnuplot -e "tsv='plots/data/lab13-roofline.tsv'; out='plots/data/lab13-roofline.png'; \
	  term='png'; title='lab13 roofline'" plots/roofline.gp
	@echo "lab13 roofline: plots/data/lab13-roofline.png, from plots/data/lab13-roofline.tsv"
else
lab13-roofline:
	@echo "lab13 roofline: Nsight Compute needs a GPU (BACKEND=cuda). The CPU backend has no" \
	  "timing model: plots/reference/lab13-roofline.png is the reference roofline, and the" \
	  "handout quotes Nsight Compute for each step"
endif
