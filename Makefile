# Each target sets up what it needs on a fresh machine: the package and its
# dev extra are installed (editable) when they are missing or pyproject.toml
# changed.
PYTHON ?= python3
STAMP := .make/installed-$(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
N ?= 200
SEED ?= 0

.PHONY: install demo test lint bench clean

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

test: $(STAMP)
	$(PYTHON) -m ruff check tiler tests
	$(PYTHON) -m pytest -q

lint: $(STAMP)
	$(PYTHON) -m ruff check tiler tests

bench: $(STAMP)
	@echo "tiler bench arrives with the GPU runtime (issue 5); see README.md" && exit 1

clean:
	rm -rf .make build dist *.egg-info .pytest_cache .hypothesis
