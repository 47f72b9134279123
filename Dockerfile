# cartrender's container image: Debian 12 (bookworm-slim) with a released cartrender package
# and what it Depends on and Recommends (Cairo, Pango, librsvg, FFmpeg's libraries, the Inter
# and Noto fonts). The release workflow builds it from the packages it has just built
# (cartrender_VERSION_ARCH.deb in the build context; TARGETARCH is amd64 or arm64), runs it
# (Scripts/image-check.sh) and pushes it; use it as a job's `container:` or as
#   docker run --rm -v "$PWD:/work" -u "$(id -u):$(id -g)" IMAGE verify scenes/a.json --baseline Snapshots/a
FROM debian:bookworm-slim
ARG VERSION
ARG TARGETARCH
COPY cartrender_${VERSION}_${TARGETARCH}.deb /tmp/
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y "/tmp/cartrender_${VERSION}_${TARGETARCH}.deb" \
    && rm -rf /var/lib/apt/lists/* /tmp/cartrender_*.deb
WORKDIR /work
ENTRYPOINT ["cartrender"]
