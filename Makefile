# cartrender — one command to set everything up and render, one to set everything up and test.
#   make frames   installs the Debian packages, builds, renders the demo into frames/
#   make test     installs the Debian packages, builds and runs the test suite

SWIFT ?= swift
# Debian packages: C libraries (headers + pkg-config files), fonts and icons.
DEBIAN_PACKAGES = pkg-config \
	libcairo2-dev libpango1.0-dev libfontconfig-dev librsvg2-dev libgdk-pixbuf-2.0-dev \
	libpng-dev zlib1g-dev libgif-dev libimagequant-dev libwebp-dev \
	libavformat-dev libavcodec-dev libswscale-dev libavutil-dev \
	fonts-inter fonts-noto-core fonts-noto-color-emoji fonts-noto-cjk bootstrap-icons
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build frames test clean

deps:
	@if dpkg -s $(DEBIAN_PACKAGES) >/dev/null 2>&1; then \
		echo "Debian packages: all installed"; \
	else \
		$(SUDO) apt-get update && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $(DEBIAN_PACKAGES); \
	fi

build: deps
	$(SWIFT) build -c release

frames: build
	.build/release/cartrender --out frames/

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	rm -rf .build frames
