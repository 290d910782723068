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
# ... and for Debian's security archive (bookworm-security): installing
# from the private configuration without it could not match packages the
# system already has from there (libc6-dev wants libc6's exact version).
apt_security_uris() {
    {
        cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
            awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }' || true
        cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
            awk '/^deb / { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }' || true
    } | grep -- '-security' | sort -u || true
}

# A private apt configuration (its own sources and lists) that adds the
# suites we need without touching the system's package sources: bookworm's
# updates and backports, trixie's sources (QEMU), and bookworm's
# non-free-firmware component (firmware-amd-graphics, for Debian's stock
# amdgpu driver in the --amdgpu boots: hsagpu_amd_firmware below).
HSAGPU_APT_DIR=$HSAGPU_CACHE/apt
hsagpu_apt_setup() {
    local uris suris
    uris=$(apt_debian_uris | tr '\n' ' ')
    suris=$(apt_security_uris | tr '\n' ' ')
    [ -n "$uris" ] || die "no Debian archive URI found in /etc/apt; cannot fetch packages"
    mkdir -p "$HSAGPU_APT_DIR/sources.list.d" "$HSAGPU_APT_DIR/lists/partial"
    # written aside and moved in (only when it changed): another apt of
    # ours may be reading it
    local f=$HSAGPU_APT_DIR/sources.list.d/hsagpu.sources
    {
    cat <<SRC
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

Types: deb
URIs: $uris
Suites: bookworm
Components: non-free-firmware
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    if [ -n "$suris" ]; then
        cat <<SRC

Types: deb
URIs: $suris
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    fi
    } > "$HSAGPU_APT_DIR/sources.tmp.$BASHPID"
    if cmp -s "$HSAGPU_APT_DIR/sources.tmp.$BASHPID" "$f"; then rm -f "$HSAGPU_APT_DIR/sources.tmp.$BASHPID"
    else mv "$HSAGPU_APT_DIR/sources.tmp.$BASHPID" "$f"; fi
    [ -f "$HSAGPU_APT_DIR/sources.list" ] || : > "$HSAGPU_APT_DIR/sources.list"
}

# Options that point apt at the private configuration.
hsagpu_apt_opts() {
    printf '%s\n' -o "Dir::Etc::SourceList=$HSAGPU_APT_DIR/sources.list" \
        -o "Dir::Etc::SourceParts=$HSAGPU_APT_DIR/sources.list.d" \
        -o "Dir::State::Lists=$HSAGPU_APT_DIR/lists" \
        -o APT::Sandbox::User=root -o Acquire::Languages=none
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
    local stamp=$HSAGPU_APT_DIR/updated key
    hsagpu_apt_setup
    key=$(sha256sum < "$HSAGPU_APT_DIR/sources.list.d/hsagpu.sources" | cut -c1-16)
    # Refresh at most daily (lists are only needed to resolve names), and
    # when the sources changed.
    if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440)" ] ||
       [ "$(cat "$stamp")" != "$key" ]; then
        log "refreshing apt's package lists (private: $HSAGPU_APT_DIR)"
        hsagpu_apt apt-get -qq update || die "apt-get update failed"
        echo "$key" > "$stamp"
    fi
}

# hsagpu_qemu_source: the path of the .dsc of Debian's QEMU source
# package (patches/QEMU_VERSION's suite) in $HSAGPU_CACHE/qemu-dl,
# downloaded when absent. The download goes to a directory of its own
# first, so that an interrupted one leaves no .dsc without its tarballs.
hsagpu_qemu_source() {
    local dl=$HSAGPU_CACHE/qemu-dl suite dsc tmp
    dsc=$(ls "$dl"/qemu_*.dsc 2>/dev/null | head -n1 || true)
    if [ -z "$dsc" ]; then
        suite=$(sed -n 's/^suite=//p' "$QEMU_DEB_VERSION_FILE")
        hsagpu_apt_update
        log "downloading QEMU's source package ($suite, about 30 MB)"
        tmp=$dl.tmp.$BASHPID
        rm -rf "$tmp" && mkdir -p "$tmp"
        (cd "$tmp" && hsagpu_apt apt-get -qq source --download-only "qemu/$suite") >/dev/null ||
            { rm -rf "$tmp"; die "apt-get source qemu/$suite failed"; }
        # another run may have finished first: keep one
        if ls "$dl"/qemu_*.dsc >/dev/null 2>&1; then rm -rf "$tmp"; else rm -rf "$dl" && mv "$tmp" "$dl"; fi
        dsc=$(ls "$dl"/qemu_*.dsc | head -n1)
    fi
    echo "$dsc"
}

# The firmware of Debian's stock amdgpu driver for a Vega10 (scripts/test-boot
# --amdgpu): the amdgpu/vega10_* files of bookworm's firmware-amd-graphics
# (component non-free-firmware), in $HSAGPU_CACHE/firmware-amd/VERSION/
# (amdgpu/vega10_*.bin as below /lib/firmware, and PACKAGE: "NAME
# VERSION"); firmware-amd/version names the one boots use, the .deb stays
# beside it. The boot prints the version: firmware changes the paths the
# driver takes.
HSAGPU_AMD_FW_PKG=firmware-amd-graphics
HSAGPU_AMD_FW_SUITE=bookworm
hsagpu_amd_firmware_dir() {  # the directory boots use, or nothing
    local top=$HSAGPU_CACHE/firmware-amd ver
    ver=$(cat "$top/version" 2>/dev/null || true)
    if [ -n "$ver" ] && [ -f "$top/$ver/PACKAGE" ]; then echo "$top/$ver"; fi
}
# hsagpu_amd_firmware: that directory, downloaded and extracted when absent
hsagpu_amd_firmware() {
    local top=$HSAGPU_CACHE/firmware-amd dir tmp deb ver
    dir=$(hsagpu_amd_firmware_dir)
    if [ -n "$dir" ]; then echo "$dir"; return 0; fi
    hsagpu_apt_update
    log "downloading $HSAGPU_AMD_FW_PKG ($HSAGPU_AMD_FW_SUITE, non-free-firmware) for the Vega10 firmware"
    tmp=$top/tmp.$BASHPID
    rm -rf "$tmp" && mkdir -p "$tmp/x"
    (cd "$tmp" && hsagpu_apt apt-get -qq download "$HSAGPU_AMD_FW_PKG/$HSAGPU_AMD_FW_SUITE") >/dev/null ||
        { rm -rf "$tmp"; die "apt-get download $HSAGPU_AMD_FW_PKG/$HSAGPU_AMD_FW_SUITE failed"; }
    deb=$(ls "$tmp"/*.deb)
    ver=$(dpkg-deb -f "$deb" Version)
    # only the Vega10 files (/lib/firmware in bookworm's, /usr/lib/firmware
    # in later packages)
    dpkg-deb --fsys-tarfile "$deb" |
        tar -x -C "$tmp/x" --wildcards '*lib/firmware/amdgpu/vega10_*' ||
        { rm -rf "$tmp"; die "$deb has no amdgpu/vega10_* files"; }
    rm -rf "${top:?}/$ver"
    mkdir -p "$top/$ver"
    mv "$(dirname "$(find "$tmp/x" -name 'vega10_*' | head -n1)")" "$top/$ver/amdgpu"
    echo "$HSAGPU_AMD_FW_PKG $ver" > "$top/$ver/PACKAGE"
    mv "$deb" "$top/"
    echo "$ver" > "$top/version"
    rm -rf "$tmp"
    log "$HSAGPU_AMD_FW_PKG $ver: $(find "$top/$ver/amdgpu" -type f | wc -l) vega10 files in $top/$ver"
    echo "$top/$ver"
}

# The amdgpu register headers of Debian's kernel source packages, which
# scripts/vega10-regs checks include/hsagpu/vega10_regs.h against: only
# drivers/gpu/drm/amd/include of each (and gmc_v9_0.c, whose client-ID
# tables it reads; 25 MB of a 140 MB package), in
# $HSAGPU_CACHE/amd-regs/linux-source-VER/ (a tree the script takes).
HSAGPU_AMD_REGS_PKGS=("linux-source-6.1/bookworm" "linux-source-6.12/bookworm-backports")
# Vega10's IP versions (GC 9.0, MMHUB 1.0, OSSSYS 4.0, NBIO 6.1, ...)
HSAGPU_AMD_REGS_HEADERS=(gc/gc_9_0_\* mmhub/mmhub_1_0_\* oss/osssys_4_0_\*
    nbio/nbio_6_1_\* nbif/nbif_6_1_\* hdp/hdp_4_0_\* sdma0/sdma0_4_0_\*
    sdma1/sdma1_4_0_\* athub/athub_1_0_\* mp/mp_9_0_\* smuio/smuio_9_0_\*
    df/df_1_7_\* thm/thm_9_0_\*)
hsagpu_amd_regs_dirs() {  # the trees present, one per line
    local d
    for d in "$HSAGPU_CACHE"/amd-regs/linux-source-*/; do
        [ -f "$d/PACKAGE" ] && echo "${d%/}"
    done
    return 0
}
hsagpu_amd_regs() {
    local top=$HSAGPU_CACHE/amd-regs spec pkg tmp deb ver inner
    [ "$(hsagpu_amd_regs_dirs | wc -l)" -ge "${#HSAGPU_AMD_REGS_PKGS[@]}" ] && return 0
    hsagpu_apt_update
    for spec in "${HSAGPU_AMD_REGS_PKGS[@]}"; do
        pkg=${spec%/*}
        [ -f "$top/$pkg/PACKAGE" ] && continue
        log "downloading $spec for amdgpu's register headers (scripts/vega10-regs)"
        tmp=$top/tmp.$BASHPID
        rm -rf "$tmp" && mkdir -p "$tmp/x"
        (cd "$tmp" && hsagpu_apt apt-get -qq download "$spec") >/dev/null ||
            { rm -rf "$tmp"; die "apt-get download $spec failed"; }
        deb=$(ls "$tmp"/*.deb)
        ver=$(dpkg-deb -f "$deb" Version)
        dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" --wildcards '*usr/src/linux-source-*.tar.xz' ||
            { rm -rf "$tmp"; die "$deb has no source tarball"; }
        inner=$(ls "$tmp"/usr/src/linux-source-*.tar.xz)
        tar -xJf "$inner" -C "$tmp/x" --wildcards \
            '*/amd/include/vega10_ip_offset.h' '*/amd/include/v9_structs.h' '*/amd/include/vega10_enum.h' \
            '*/amd/include/soc15_ih_clientid.h' '*/amd/include/ivsrcid/*' '*/amd/amdgpu/gmc_v9_0.c' \
            "${HSAGPU_AMD_REGS_HEADERS[@]/#/*/amd/include/asic_reg/}" ||
            { rm -rf "$tmp"; die "$inner has no drivers/gpu/drm/amd/include"; }
        rm -rf "${top:?}/$pkg"
        mv "$tmp/x/$(ls "$tmp/x")" "$top/$pkg"
        echo "$pkg $ver" > "$top/$pkg/PACKAGE"
        rm -rf "$tmp"
    done
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
