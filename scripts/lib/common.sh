# Shared helpers for hsagpu's host scripts. Sourced, not executed.
# shellcheck shell=bash

HSAGPU_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HSAGPU_CACHE=${HSAGPU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hsagpu}
mkdir -p "$HSAGPU_CACHE"

# QEMU source we build against: Debian's source package from the suite that
# ships QEMU 10.0.x. The version and the .dsc checksum are pinned here.
QEMU_SUITE=trixie
QEMU_DEB_VERSION_FILE=$HSAGPU_ROOT/patches/QEMU_VERSION

log() { printf '[hsagpu] %s\n' "$*" >&2; }
die() { printf '[hsagpu] error: %s\n' "$*" >&2; exit 1; }

# Every URI this machine's apt already uses for Debian's main archive.
# Mirror host names are never written into the repository: they are read
# from the machine's own apt configuration.
apt_debian_uris() {
    {
        cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
            awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }' || true
        cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
            awk '/^deb / { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }' || true
    } | grep -v -- '-security' | sort -u || true
}

# A private apt configuration (its own sources and lists) that adds the
# suites we need without touching the system's package sources.
HSAGPU_APT_DIR=$HSAGPU_CACHE/apt
hsagpu_apt_setup() {
    local uris
    uris=$(apt_debian_uris | tr '\n' ' ')
    [ -n "$uris" ] || die "no Debian archive URI found in /etc/apt; cannot fetch packages"
    mkdir -p "$HSAGPU_APT_DIR/sources.list.d" "$HSAGPU_APT_DIR/lists/partial"
    cat > "$HSAGPU_APT_DIR/sources.list.d/hsagpu.sources" <<SRC
Types: deb
URIs: $uris
Suites: bookworm bookworm-updates bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: $uris
Suites: $QEMU_SUITE
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    : > "$HSAGPU_APT_DIR/sources.list"
}

# Options that point apt at the private configuration.
hsagpu_apt_opts() {
    printf '%s\n' -o "Dir::Etc::SourceList=$HSAGPU_APT_DIR/sources.list" \
        -o "Dir::Etc::SourceParts=$HSAGPU_APT_DIR/sources.list.d" \
        -o "Dir::State::Lists=$HSAGPU_APT_DIR/lists" \
        -o APT::Sandbox::User=root
}

# hsagpu_apt TOOL ARGS...: run apt-get or apt-cache with the private config.
hsagpu_apt() {
    local tool=$1 opts
    shift
    mapfile -t opts < <(hsagpu_apt_opts)
    "$tool" "${opts[@]}" "$@"
}

# hsagpu_apt_install ARGS...: apt-get install from the private config, as root.
hsagpu_apt_install() {
    local opts
    mapfile -t opts < <(hsagpu_apt_opts)
    as_root env DEBIAN_FRONTEND=noninteractive apt-get "${opts[@]}" -qq install "$@"
}

hsagpu_apt_update() {
    local stamp=$HSAGPU_APT_DIR/updated
    # Refresh at most daily: lists are only needed to resolve names.
    if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440)" ]; then
        hsagpu_apt_setup
        log "refreshing private apt lists"
        hsagpu_apt apt-get -qq update || die "apt-get update failed"
        touch "$stamp"
    fi
}

# need_root_or_sudo: apt needs root.
as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# hsagpu_fuzz_toolchain: Debian's clang with its compiler-rt (ASan, UBSan,
# libFuzzer) and llvm tools (llvm-symbolizer for ASan stacks,
# llvm-profdata/llvm-cov), installed when missing; dies when clang still
# cannot link a libFuzzer target. Used by build-fuzz and build-fuzz-host.
HSAGPU_FUZZ_PKGS=(clang llvm libclang-rt-dev)
hsagpu_fuzz_toolchain() {
    local p missing=()
    for p in "${HSAGPU_FUZZ_PKGS[@]}"; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
            missing+=("$p")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        log "installing fuzzing packages: ${missing[*]}"
        as_root apt-get -qq update
        as_root env DEBIAN_FRONTEND=noninteractive apt-get -qq install -y --no-install-recommends \
            "${missing[@]}" >/dev/null || die "apt-get install failed"
    fi
    echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return 0; }' |
        clang -x c -fsanitize=fuzzer,address,undefined -o /dev/null - 2>/dev/null ||
        die "clang cannot link -fsanitize=fuzzer,address,undefined (libclang-rt-dev missing?)"
}
