# cartrender — one command to set everything up and render, one to set everything up and test.
#   make frames   installs the Debian packages, builds, renders the demo into frames/
#   make test     installs the Debian packages and the test tools, builds and runs the test suite
#                 (the Swift tests, then the browser tests of Tests/Browser)
#   make install  builds and copies cartrender to /usr/local/bin (PREFIX=…)

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
# The browser tests (Tests/Browser) drive Debian's chromium headless with Playwright for Python
# (PyPI, pinned, in its own virtual environment) and run under pytest. Playwright launches
# /usr/bin/chromium (executable_path), so its own browser download is never needed.
DEBIAN_PACKAGES += chromium
PLAYWRIGHT_VERSION = 1.65.2
PYTEST_VERSION = 9.2.0
BROWSER_VENV = .build/browser

PREFIX ?= /usr/local

.PHONY: deps build frames install test jsonschema browser browser-test clean

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

test: deps jsonschema browser
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) browser-test

# The browser tests alone, against the debug binary that `swift build` made.
browser-test: browser
	PYTHONDONTWRITEBYTECODE=1 $(BROWSER_VENV)/bin/python3 -m pytest -q -p no:cacheprovider Tests/Browser

# .build/jsonschema/bin/python3 with jsonschema installed (SceneSchemaTests runs it).
jsonschema: $(JSONSCHEMA_VENV)/.jsonschema-$(JSONSCHEMA_VERSION)
$(JSONSCHEMA_VENV)/.jsonschema-$(JSONSCHEMA_VERSION): | deps
	$(PYTHON) -m venv $(JSONSCHEMA_VENV)
	$(JSONSCHEMA_VENV)/bin/python3 -m pip install --quiet --disable-pip-version-check jsonschema==$(JSONSCHEMA_VERSION)
	touch $@

# .build/browser/bin/python3 with Playwright and pytest (the browser tests run it).
browser: $(BROWSER_VENV)/.browser-$(PLAYWRIGHT_VERSION)-$(PYTEST_VERSION)
$(BROWSER_VENV)/.browser-$(PLAYWRIGHT_VERSION)-$(PYTEST_VERSION): | deps
	$(PYTHON) -m venv $(BROWSER_VENV)
	$(BROWSER_VENV)/bin/python3 -m pip install --quiet --disable-pip-version-check \
		playwright==$(PLAYWRIGHT_VERSION) pytest==$(PYTEST_VERSION)
	touch $@

clean:
	rm -rf .build frames
