# shellcheck shell=bash
# Mirror sources into a build's own tree, rewriting a file only when its
# content changed: a fresh clone's new timestamps then rebuild nothing
# (scripts/qemu-tree, scripts/build-fuzz-host).
sync_file() {  # src dst
    if ! cmp -s "$1" "$2"; then
        mkdir -p "$(dirname "$2")"
        cp "$1" "$2"
    fi
}
sync_dir() {  # srcdir dstdir: mirror files and folders, drop stale ones
    local f
    mkdir -p "$2"
    for f in "$1"/*; do
        if [ -d "$f" ]; then
            sync_dir "$f" "$2/$(basename "$f")"
        else
            sync_file "$f" "$2/$(basename "$f")"
        fi
    done
    for f in "$2"/*; do [ -e "$1/$(basename "$f")" ] || rm -rf "$f"; done
}
