# cartrender — one command to set everything up and render, one to set everything up and test.
#   make frames   installs the Debian packages, builds, renders the demo into frames/
#   make test     installs the Debian packages and the test tools, builds and runs the test suite
#   make install  builds and copies cartrender to /usr/local/bin (PREFIX=…)
#   make peers    installs the peers of Benchmarks/peers.sh (for that benchmark only) and runs it

SWIFT ?= swift
# Debian packages: C libraries (headers + pkg-config files), fonts and icons.
DEBIAN_PACKAGES = pkg-config \
	libcairo2-dev libpango1.0-dev libfontconfig-dev librsvg2-dev libgdk-pixbuf-2.0-dev \
	libpng-dev zlib1g-dev libgif-dev libimagequant-dev libwebp-dev \
	libavformat-dev libavcodec-dev libswscale-dev libavutil-dev \
	fonts-inter fonts-noto-core fonts-noto-color-emoji fonts-noto-cjk bootstrap-icons
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The tests check the scene schema with a real JSON Schema validator: PyPI's jsonschema, in a
# virtual environment (Debian 12's Python refuses `pip install` outside one, PEP 668), and
# junit.xml with xmllint (libxml2-utils).
DEBIAN_PACKAGES += python3 python3-venv libxml2-utils
PYTHON ?= python3
JSONSCHEMA_VERSION = 4.26.0
JSONSCHEMA_VENV = .build/jsonschema

PREFIX ?= /usr/local

.PHONY: deps build frames install test jsonschema peers clean

deps:
	@if dpkg -s $(DEBIAN_PACKAGES) >/dev/null 2>&1; then \
		echo "Debian packages: all installed"; \
	else \
		$(SUDO) apt-get update && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $(DEBIAN_PACKAGES); \
	fi

build: deps
	$(SWIFT) build -c release

# Puts cartrender on PATH: $(PREFIX)/bin/cartrender (make install PREFIX=$$HOME/.local for ~/.local/bin).
install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 .build/release/cartrender $(DESTDIR)$(PREFIX)/bin/cartrender

frames: build
	.build/release/cartrender --out frames/

test: deps jsonschema
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# .build/jsonschema/bin/python3 with jsonschema installed (SceneSchemaTests runs it).
jsonschema: $(JSONSCHEMA_VENV)/.jsonschema-$(JSONSCHEMA_VERSION)
$(JSONSCHEMA_VENV)/.jsonschema-$(JSONSCHEMA_VERSION): | deps
	$(PYTHON) -m venv $(JSONSCHEMA_VENV)
	$(JSONSCHEMA_VENV)/bin/python3 -m pip install --quiet --disable-pip-version-check jsonschema==$(JSONSCHEMA_VERSION)
	touch $@

# Benchmarks/peers.sh with its peers: Debian's ffmpeg, webp (img2webp), imagemagick (compare) and
# chromium; Playwright (driving Debian's chromium) and Manim CE in .build/peers. Manim needs to build
# pycairo and ManimPango; when that fails the benchmark says so and skips it. Not part of `make test`.
PEERS_DEBIAN_PACKAGES = ffmpeg webp imagemagick chromium
PEERS_VENV = .build/peers
peers: deps
	@dpkg -s $(PEERS_DEBIAN_PACKAGES) >/dev/null 2>&1 || { $(SUDO) apt-get update && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $(PEERS_DEBIAN_PACKAGES); }
	[ -x $(PEERS_VENV)/bin/python3 ] || $(PYTHON) -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/python3 -c "import playwright" 2>/dev/null || \
		$(PEERS_VENV)/bin/python3 -m pip install --quiet --disable-pip-version-check playwright
	[ -x $(PEERS_VENV)/bin/manim ] || $(PEERS_VENV)/bin/python3 -m pip install --quiet --disable-pip-version-check manim || \
		echo "peers: manim did not install; Benchmarks/peers.sh skips it"
	Benchmarks/peers.sh

clean:
	rm -rf .build frames
