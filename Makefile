# Each target sets up what it needs on a fresh machine: the package and its
# dev extra are installed (editable) when they are missing or pyproject.toml
# changed. The stamp names the Python environment (its prefix), so a second
# virtual environment in the same clone gets its own install.
# A Python that refuses `pip install` into itself (PEP 668's EXTERNALLY-MANAGED:
# Debian's and Homebrew's system Pythons) gets a virtual environment in .venv,
# made here once; `make test PYTHON=...` chooses another.
SYSTEM_PYTHON ?= python3
MANAGED ?= $(shell $(SYSTEM_PYTHON) -c 'import os, sys, sysconfig; print(int(sys.prefix == sys.base_prefix and os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))))')
ifeq ($(MANAGED),1)
PYTHON ?= .venv/bin/python
ifeq ($(origin PYTHON),file)
$(if $(wildcard .venv/bin/python),,$(info $(SYSTEM_PYTHON) is externally managed (PEP 668): making a virtual environment in .venv)$(shell $(SYSTEM_PYTHON) -m venv .venv))
endif
else
PYTHON ?= $(SYSTEM_PYTHON)
endif
STAMP := .make/installed-$(shell $(PYTHON) -c 'import sys, hashlib; print("%d.%d-%s" % (*sys.version_info[:2], hashlib.sha1(sys.prefix.encode()).hexdigest()[:10]))')
N ?= 200
SEED ?= 0

.PHONY: install demo test lint bench fuzz fuzz-gpu clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@mkdir -p .make && touch $@

demo: $(STAMP)
	$(PYTHON) -m tiler check benchmarks/nbody.fut
	$(PYTHON) -m tiler run benchmarks/nbody.fut
	$(PYTHON) -m tiler run benchmarks/nbody3d.fut --chunk 128
	$(PYTHON) -m tiler explain benchmarks/mm.fut
	$(PYTHON) -m tiler explain benchmarks/lavamd.fut --show-transformed
	$(PYTHON) -m tiler compile benchmarks/mm.fut -o /tmp/tiler-demo-mm.cu
	@if $(PYTHON) -c 'from tiler.runtime import gpu_unavailable as u; raise SystemExit(u() is not None)'; \
	  then $(PYTHON) -m tiler bench --quick nbody mm; \
	  else echo "(no GPU here: tiler bench skipped)"; fi

test: $(STAMP)
	$(PYTHON) -m ruff check tiler tests
	$(PYTHON) -m pytest -q

lint: $(STAMP)
	$(PYTHON) -m ruff check tiler tests

bench: $(STAMP)
	$(PYTHON) -m tiler bench all

fuzz: $(STAMP)
	$(PYTHON) -m tiler fuzz $(N) --seed $(SEED)

fuzz-gpu: $(STAMP)
	$(PYTHON) -m tiler fuzz $(N) --seed $(SEED) --gpu

clean:
	rm -rf .make build dist *.egg-info .pytest_cache .hypothesis fuzz-failures .venv
