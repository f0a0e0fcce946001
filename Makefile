# Each target sets up what it needs on a fresh machine, in tiler's own virtual
# environment (.venv, made here once from SYSTEM_PYTHON, seeing that Python's
# packages but never installing into it): `make demo` installs tiler and what
# running it needs, `make test` the test tools too, each when missing or when
# pyproject.toml changed. The stamps name the environment (its prefix), so
# `make test PYTHON=...` (a Python of your choosing, installed into as it is)
# gets installs of its own.
SYSTEM_PYTHON ?= python3
VENV ?= .venv
PYTHON ?= $(VENV)/bin/python
ifeq ($(origin PYTHON),file)
$(if $(wildcard $(VENV)/bin/python),,$(info making tiler's virtual environment in $(VENV): the packages of $(SYSTEM_PYTHON) are left as they are)$(shell $(SYSTEM_PYTHON) -m venv --system-site-packages $(VENV)))
endif
ENVIRONMENT := $(shell $(PYTHON) -c 'import sys, hashlib; print("%d.%d-%s" % (*sys.version_info[:2], hashlib.sha1(sys.prefix.encode()).hexdigest()[:10]))')
RUN_STAMP := .make/run-$(ENVIRONMENT)
DEV_STAMP := .make/dev-$(ENVIRONMENT)
JOBS ?= auto
DEMO ?= build/demo
N ?= 200
SEED ?= 0

.PHONY: install demo test lint bench fuzz fuzz-gpu clean

install: $(RUN_STAMP)

$(RUN_STAMP): pyproject.toml
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -e .
	@mkdir -p .make && touch $@

$(DEV_STAMP): pyproject.toml
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@mkdir -p .make && touch $@ $(RUN_STAMP)

demo: $(RUN_STAMP)
	@echo "== tiler check: nbody.fut is a well-typed kernel program"
	$(PYTHON) -m tiler check benchmarks/nbody.fut
	@echo "== tiler run: the reference interpreter on random inputs at the program's own sizes"
	$(PYTHON) -m tiler run benchmarks/nbody.fut
	$(PYTHON) -m tiler run benchmarks/nbody3d.fut --chunk 128
	@echo "== tiler explain: the matrix product's dimensions, inputs, and what was tiled and why"
	$(PYTHON) -m tiler explain benchmarks/mm.fut
	@echo "== tiler explain --show-transformed: lavaMD's kernel before and after tiling"
	$(PYTHON) -m tiler explain benchmarks/lavamd.fut --show-transformed
	@echo "== tiler compile: the tiled CUDA and what a host needs to launch it, into $(DEMO)/"
	@mkdir -p $(DEMO)
	$(PYTHON) -m tiler compile benchmarks/mm.fut -o $(DEMO)/mm.cu
	@if $(PYTHON) -c 'from tiler.runtime import gpu_unavailable as u; raise SystemExit(u() is not None)'; \
	  then echo "== tiler bench: timed on this GPU against the untiled kernel and cuBLAS"; \
	  $(PYTHON) -m tiler bench --quick nbody mm; \
	  else echo "(no GPU here: tiler bench skipped; with one, pip install -e '.[gpu]' in $(VENV) first)"; fi
	@echo "== done: the kernel is $(DEMO)/mm.cu. Next: tiler explain <your program>.fut, tiler docs, and"
	@echo "   tiler bench all on a GPU (the tiler command is $(VENV)/bin/tiler, or: source $(VENV)/bin/activate)"

test: $(DEV_STAMP)
	$(PYTHON) -m ruff check tiler tests
	$(PYTHON) -m pytest -q -n $(JOBS)

lint: $(DEV_STAMP)
	$(PYTHON) -m ruff check tiler tests

bench: $(RUN_STAMP)
	$(PYTHON) -m tiler bench all

fuzz: $(DEV_STAMP)
	$(PYTHON) -m tiler fuzz $(N) --seed $(SEED)

fuzz-gpu: $(DEV_STAMP)
	$(PYTHON) -m tiler fuzz $(N) --seed $(SEED) --gpu

clean:
	rm -rf .make build dist *.egg-info .pytest_cache .hypothesis fuzz-failures .venv
