# Each target sets up what it needs on a fresh machine: the package and its
# dev extra are installed (editable) when they are missing or pyproject.toml
# changed. The stamp names the Python environment (its prefix), so a second
# virtual environment in the same clone gets its own install.
PYTHON ?= python3
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
	rm -rf .make build dist *.egg-info .pytest_cache .hypothesis fuzz-failures
