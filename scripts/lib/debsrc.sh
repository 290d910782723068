# Debian's source packages through apt, for host scripts. Sourced, after
# lib/common.sh, with DEBSRC_TOP set to the cache directory that keeps
# the private source indexes (apt/), the downloads (dl/) and the
# unpacked trees (src/).
# shellcheck shell=bash
: "${DEBSRC_TOP:?set DEBSRC_TOP before sourcing debsrc.sh}"

# A private apt configuration with Debian's source indexes: the source
# packages come from bookworm or a later suite.
srcapt=$DEBSRC_TOP/apt
src_apt() {
    local uris
    uris=$(apt_debian_uris | tr '\n' ' ')
    [ -n "$uris" ] || die "no Debian archive URI found in /etc/apt; cannot fetch sources"
    mkdir -p "$srcapt/sources.list.d" "$srcapt/lists/partial"
    : > "$srcapt/sources.list"
    cat > "$srcapt/sources.list.d/src.sources.new" <<SRC
Types: deb-src
URIs: $uris
Suites: bookworm trixie sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    if ! cmp -s "$srcapt/sources.list.d/src.sources.new" "$srcapt/sources.list.d/src.sources"; then
        mv "$srcapt/sources.list.d/src.sources.new" "$srcapt/sources.list.d/src.sources"
        rm -f "$srcapt/updated"
    else
        rm -f "$srcapt/sources.list.d/src.sources.new"
    fi
    if [ ! -f "$srcapt/updated" ] || [ -n "$(find "$srcapt/updated" -mmin +1440)" ]; then
        log "refreshing the source package indexes (private: $srcapt)"
        src_apt_get update -qq || die "apt-get update (sources) failed"
        touch "$srcapt/updated"
    fi
}
src_apt_get() {
    apt-get -o "Dir::Etc::SourceList=$srcapt/sources.list" \
        -o "Dir::Etc::SourceParts=$srcapt/sources.list.d" \
        -o "Dir::State::Lists=$srcapt/lists" \
        -o APT::Sandbox::User=root -o Acquire::Languages=none "$@"
}

# fetch PKG VERSION: the unpacked source; prints its directory. Debian's
# source package as dpkg-source unpacks it (Debian's patches applied:
# rocSPARSE's make its tests' downloaded matrices optional) when the
# archive serves all of it; its .orig and Debian tarballs with the patches
# applied in series order when it serves all but the .dsc; else the .orig
# tarball alone. Every file is hash-checked by apt against the signed
# index. The directory's .origin says which.
fetch() {
    local pkg=$1 ver=$2 dl=$DEBSRC_TOP/dl/$1_$2 dir=$DEBSRC_TOP/src/$1_$2 uri name hash got="" deb p
    if [ -f "$dir/.origin" ]; then echo "$dir"; return; fi
    src_apt
    rm -rf "$dl" "$dir" && mkdir -p "$dl"
    if (cd "$dl" && src_apt_get -qq source --download-only "$pkg=$ver") >/dev/null 2>&1 &&
       dpkg-source -x "$(ls "$dl"/*.dsc)" "$dir" >/dev/null 2>&1; then
        echo "Debian source package $pkg $ver (Debian's patches applied)" > "$dir/.origin"
        echo "$dir"
        return
    fi
    rm -rf "$dir"
    while read -r uri name _ hash; do
        uri=${uri//\'/}
        case $name in
        *.orig.tar.*|*.debian.tar.*) ;;
        *) continue ;;                  # the .dsc, other components
        esac
        [ -f "$dl/$name" ] && continue
        log "downloading $name"
        /usr/lib/apt/apt-helper -o APT::Sandbox::User=root download-file "$uri" "$dl/$name" "$hash" >/dev/null &&
            continue
        rm -f "$dl/$name"
        # without Debian's packaging: the upstream tarball alone
        case $name in
        *.debian.tar.*) log "$name: the archive does not serve it" ;;
        *) die "$name: the archive does not serve it (the caller pins $pkg $ver)" ;;
        esac
    done < <(cd "$dl" && src_apt_get --print-uris -qq source "$pkg=$ver") ||
        die "no source package $pkg $ver in Debian's indexes"
    got=$(find "$dl" -maxdepth 1 -name '*.orig.tar.*' | head -n1)
    [ -n "$got" ] || die "$pkg $ver: no .orig tarball"
    mkdir -p "$dir"
    tar -C "$dir" --strip-components=1 -xf "$got" || die "$got: cannot unpack"
    deb=$(find "$dl" -maxdepth 1 -name '*.debian.tar.*' | head -n1)
    if [ -n "$deb" ]; then
        # What dpkg-source -x does for a 3.0 (quilt) package, without the
        # .dsc the archive does not serve: the packaging, then its patches
        # in series order.
        tar -C "$dir" -xf "$deb" || die "$deb: cannot unpack"
        if [ -f "$dir/debian/patches/series" ]; then
            while read -r p _; do
                case $p in ''|\#*) continue ;; esac
                patch -d "$dir" -p1 -s --no-backup-if-mismatch < "$dir/debian/patches/$p" ||
                    die "$pkg $ver: Debian's patch $p does not apply"
            done < "$dir/debian/patches/series"
        fi
        echo "Debian's $pkg $ver: upstream tarball and Debian's patches (the archive does not serve its .dsc)" \
            > "$dir/.origin"
    else
        echo "upstream tarball of Debian's $pkg $ver (the archive does not serve its Debian packaging)" \
            > "$dir/.origin"
    fi
    echo "$dir"
}

