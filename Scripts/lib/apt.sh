# shellcheck shell=bash
# Sourced by the action's scripts that install Debian packages (Scripts/action-install.sh,
# Scripts/pr-comment.sh): apt-get as root, or through sudo, with the package lists updated once.
#   APT_GET  the apt-get command (default apt-get, with sudo when not root); the tests point it at
#            a stand-in that installs nothing system-wide
apt_get=${APT_GET:-apt-get}
apt_sudo=()
[ -n "${APT_GET:-}" ] || [ "$(id -u)" = 0 ] || apt_sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
apt_updated=
# Updates the package lists, once per script.
apt_update() { [ -n "$apt_updated" ] || { "${apt_sudo[@]}" "$apt_get" update -qq && apt_updated=1; }; }
# apt_install ARG...: `apt-get install -y -qq ARG...` (packages or .deb files), after apt_update.
apt_install() { apt_update && "${apt_sudo[@]}" "$apt_get" install -y -qq "$@"; }
# apt_install_missing TOOL...: installs each TOOL that is not on PATH (the package of that name,
# with ca-certificates for the tools that speak HTTPS), without recommends, quietly.
apt_install_missing() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || apt_install --no-install-recommends "$tool" ca-certificates >/dev/null || return
    done
}
