#!/usr/bin/env bash
# build-deps.sh OUT [--core] - the libraries hexbattle needs, cross-built for Windows
# x86-64 with mingw-w64 from Debian's own source packages, installed in
# OUT/prefix (bin/ DLLs, lib/ import and static libraries, lib/pkgconfig).
# Each library is built once: OUT/prefix/.stamps/NAME holds a checksum of
# the toolchain file, the source package and the build options, and a later
# run with the same ones skips it (so a stopped run resumes where it was, and
# a changed option rebuilds that library alone). With --core, only those of a
# build without the windows (HB_GUI=OFF: cJSON, expat, zstd; make test's quick
# comparison), about a minute; a later full run adds the rest. Needs gcc-mingw-w64-x86-64,
# g++-mingw-w64-x86-64-win32 (SDL2's build wants a C++ compiler),
# libz-mingw-w64-dev (zlib), dpkg-dev (dpkg-source), cmake and network
# access to the Debian mirror the system's apt uses (once: the source
# packages are kept in OUT/src).
#
# Sources: the deb-src twins of the system's deb entries, in a private apt
# state under OUT/apt, so the system's apt setup is left as it is.
# Versions (Debian 12; the release's own when the mirror lacks a security
# upload): libsdl2 2.26.5, libsdl2-ttf 2.20.1, libsdl2-image
# 2.6.3, freetype 2.12.1, harfbuzz 6.0.0, cjson 1.7.15, expat 2.5.0,
# libzstd 1.5.4, cmocka 1.1.5, libmicrohttpd 0.9.75, qrencode 4.1.1.
set -euo pipefail
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
CORE_ONLY=0
[ "${2:-}" = --core ] && CORE_ONLY=1
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLCHAIN="$HERE/mingw-w64-x86_64.cmake"
PREFIX="$OUT/prefix"
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
mkdir -p "$PREFIX/.stamps" "$OUT/src" "$OUT/build"
log() { echo "windows deps: $*"; }

# ---- sources
APT="$OUT/apt"
mkdir -p "$APT/sources.list.d" "$APT/lists/partial" "$APT/cache/archives/partial"
APT_OPTS=(-o "Dir::Etc::SourceParts=$APT/sources.list.d" -o "Dir::Etc::SourceList=/dev/null"
    -o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT/cache" -o "APT::Sandbox::User=root")
: >"$APT/sources.list.d/src.sources"
for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    sed -e 's/^Types:.*/Types: deb-src/' "$f" >>"$APT/sources.list.d/src.sources"
    echo >>"$APT/sources.list.d/src.sources"
done
if [ -f /etc/apt/sources.list ]; then
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >"$APT/sources.list.d/src.list"
fi
# A mirror may lack a source package's Debian part (seen: qrencode's
# 4.1.1-1.debian.tar.xz answered 404, its .dsc and upstream tarball did not):
# then the upstream tarball alone is built (unpack) and the licence comes
# from the system's copy of the package's copyright file. qrencode's Debian
# patches touch only its configure output and the qrencode tool, not the library.
have_orig() { ls "$OUT/src/${1}_"*.dsc "$OUT/src/${1}_"*.orig.tar.* >/dev/null 2>&1; }
# Are all the files the .dsc names there (not always: have_orig)?
dsc_complete() {
    local f
    for f in $(sed -n '/^Files:/,/^[^ ]/s/^ [0-9a-f]* [0-9]* //p' "$(ls "$OUT/src/${1}_"*.dsc | head -1)"); do
        [ -f "$OUT/src/$f" ] || return 1
    done
}
PKGS=(libsdl2 libsdl2-ttf libsdl2-image freetype harfbuzz cjson expat libzstd cmocka libmicrohttpd
    qrencode)
[ "$CORE_ONLY" = 1 ] && PKGS=(cjson expat libzstd)
wanted() { [[ " ${PKGS[*]} " == *" $1 "* ]]; } # is source package $1 built this run?
have_all=1
for p in "${PKGS[@]}"; do ls "$OUT/src/${p}_"*.dsc >/dev/null 2>&1 || have_all=0; done
if [ "$have_all" = 0 ]; then
    log "fetching Debian sources: ${PKGS[*]}"
    apt-get "${APT_OPTS[@]}" -qq update
    # One at a time: a mirror may lack the newest (security) upload of one;
    # then the release's own version is taken.
    for p in "${PKGS[@]}"; do
        ls "$OUT/src/${p}_"*.dsc >/dev/null 2>&1 && continue
        (cd "$OUT/src" && { apt-get "${APT_OPTS[@]}" -qq source --download-only "$p" ||
            apt-get "${APT_OPTS[@]}" -qq source --download-only "$p/bookworm" ||
            have_orig "$p"; }) >/dev/null
        dsc_complete "$p" || log "$p: the mirror lacks part of it (above): its upstream tarball is built"
    done
fi
dsc_of() { ls "$OUT/src/${1}_"*.dsc | head -1; }
# Unpacked afresh for each build: a half-built tree from a stopped run is no cache.
unpack() { # unpack PKG: prints the unpacked folder
    local dir="$OUT/build/src-$1"
    rm -rf "$dir"
    if dsc_complete "$1"; then
        dpkg-source --no-check -x "$(dsc_of "$1")" "$dir" >/dev/null
    else # the upstream tarball alone (have_orig)
        mkdir -p "$dir"
        tar -xf "$(ls "$OUT/src/${1}_"*.orig.tar.* | grep -v '\.asc$' | head -1)" -C "$dir" --strip-components=1
    fi
    echo "$dir"
}
# cmake_build NAME PKG SUBDIR [cmake args...]: build the source package PKG
# (its folder SUBDIR, "." for the top) unless NAME's stamp says it is done.
cmake_build() {
    local name="$1" pkg="$2" sub="$3" stamp src
    shift 3
    wanted "$pkg" || return 0 # not this run (--core)
    stamp=$({ cat "$TOOLCHAIN"; basename "$(dsc_of "$pkg")"; echo "$sub $*"; } | sha256sum | cut -c1-16)
    if [ "$(cat "$PREFIX/.stamps/$name" 2>/dev/null)" = "$stamp" ]; then
        log "$name: up to date"
        return 0
    fi
    rm -f "$PREFIX/.stamps/$name"
    src=$(unpack "$pkg")/$sub
    log "building $name"
    rm -rf "$OUT/build/$name"
    cmake -S "$src" -B "$OUT/build/$name" -G "Unix Makefiles" -DCMAKE_TOOLCHAIN_FILE="$TOOLCHAIN" \
        -DHB_WIN_PREFIX="$PREFIX" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$PREFIX" \
        "$@" >"$OUT/build/$name.log" 2>&1 || { tail -40 "$OUT/build/$name.log"; exit 1; }
    cmake --build "$OUT/build/$name" -j "$JOBS" >>"$OUT/build/$name.log" 2>&1 &&
        cmake --install "$OUT/build/$name" >>"$OUT/build/$name.log" 2>&1 ||
        { tail -40 "$OUT/build/$name.log"; exit 1; }
    rm -rf "$OUT/build/$name" "$OUT/build/src-$pkg"
    echo "$stamp" >"$PREFIX/.stamps/$name"
}
export HB_WIN_PREFIX="$PREFIX"

# ---- zlib: Debian's libz-mingw-w64-dev, with a pkg-config file of our own.
mkdir -p "$PREFIX/lib/pkgconfig" "$PREFIX/include"
ZLIB=/usr/x86_64-w64-mingw32
test -f "$ZLIB/include/zlib.h" || { echo "windows deps: install libz-mingw-w64-dev" >&2; exit 1; }
cat >"$PREFIX/lib/pkgconfig/zlib.pc" <<PC
prefix=$ZLIB
Name: zlib
Description: zlib compression library (Debian's libz-mingw-w64-dev)
Version: 1.2
Libs: -L\${prefix}/lib -l:libz.a
Cflags: -I\${prefix}/include
PC

cmake_build SDL2 libsdl2 . -DSDL_TEST=OFF -DSDL_STATIC=OFF
cmake_build freetype freetype . -DBUILD_SHARED_LIBS=OFF -DFT_DISABLE_ZLIB=ON \
    -DFT_DISABLE_BZIP2=ON -DFT_DISABLE_PNG=ON -DFT_DISABLE_HARFBUZZ=ON -DFT_DISABLE_BROTLI=ON
# HarfBuzz, as Debian's SDL_ttf has it: text shaped with the font's kerning
# (GPOS), or the labels' letters sit a pixel away from the Linux build's.
# Static, with hb-ft (SDL_ttf's way in), no subsetter, glib, ICU or
# graphite (DejaVu has no Graphite tables); -O2 like Debian's build (the
# one big harfbuzz.cc is most of the time); Threads off so its locks are
# Win32 critical sections, not winpthreads (one DLL less to ship). The
# STAMP_* values, unused by CMake, rebuild it when what it links changes.
cmake_build harfbuzz harfbuzz . -DHB_HAVE_FREETYPE=ON -DHB_BUILD_SUBSET=OFF \
    -DHB_HAVE_GLIB=OFF -DHB_HAVE_ICU=OFF -DHB_HAVE_GRAPHITE2=OFF -DHB_BUILD_UTILS=OFF \
    -DBUILD_SHARED_LIBS=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Threads=ON \
    -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DSTAMP_FREETYPE="$(cat "$PREFIX/.stamps/freetype" 2>/dev/null)"
# HarfBuzz (no RTTI, no exceptions) asks nothing of the C++ runtime, so
# SDL2_ttf.dll imports only SDL2.dll and Windows' own DLLs (zip_check.sh
# checks); should a later one need libstdc++ or libgcc, it goes inside.
cmake_build SDL2_ttf libsdl2-ttf . -DSDL2TTF_VENDORED=OFF -DSDL2TTF_HARFBUZZ=ON \
    -DSDL2TTF_SAMPLES=OFF -DBUILD_SHARED_LIBS=ON \
    -DCMAKE_SHARED_LINKER_FLAGS="-static-libgcc -static-libstdc++" \
    -DSTAMP_HARFBUZZ="$(cat "$PREFIX/.stamps/harfbuzz" 2>/dev/null)"
cmake_build SDL2_image libsdl2-image . -DSDL2IMAGE_BACKEND_STB=ON -DSDL2IMAGE_VENDORED=OFF \
    -DSDL2IMAGE_SAMPLES=OFF -DSDL2IMAGE_TESTS=OFF -DSDL2IMAGE_AVIF=OFF -DSDL2IMAGE_JXL=OFF \
    -DSDL2IMAGE_TIF=OFF -DSDL2IMAGE_WEBP=OFF -DBUILD_SHARED_LIBS=ON
cmake_build cJSON cjson . -DENABLE_CUSTOM_COMPILER_FLAGS=OFF -DBUILD_SHARED_LIBS=OFF \
    -DENABLE_CJSON_TEST=OFF -DENABLE_CJSON_UTILS=OFF
# DTD off: Debian's security patches test "#if XML_DTD == 1", which the
# CMake build's empty XML_DTD breaks; Tiled maps have no DTD to read.
cmake_build expat expat expat -DEXPAT_BUILD_TOOLS=OFF -DEXPAT_BUILD_EXAMPLES=OFF \
    -DEXPAT_BUILD_TESTS=OFF -DEXPAT_BUILD_DOCS=OFF -DEXPAT_SHARED_LIBS=OFF -DEXPAT_DTD=OFF
cmake_build zstd libzstd build/cmake -DZSTD_BUILD_PROGRAMS=OFF -DZSTD_BUILD_SHARED=OFF \
    -DZSTD_BUILD_TESTS=OFF -DZSTD_BUILD_STATIC=ON
cmake_build cmocka cmocka . -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF

# autotools_build NAME PKG [configure args...]: as cmake_build, for a source
# package built with its own configure script.
autotools_build() {
    local name="$1" pkg="$2" stamp src
    shift 2
    wanted "$pkg" || return 0 # not this run (--core)
    stamp=$({ cat "$TOOLCHAIN"; basename "$(dsc_of "$pkg")"; echo "autotools $*"; } | sha256sum | cut -c1-16)
    if [ "$(cat "$PREFIX/.stamps/$name" 2>/dev/null)" = "$stamp" ]; then
        log "$name: up to date"
        return 0
    fi
    rm -f "$PREFIX/.stamps/$name"
    src=$(unpack "$pkg")
    log "building $name"
    (cd "$src" && ./configure --host=x86_64-w64-mingw32 --prefix="$PREFIX" "$@" &&
        make -j "$JOBS" && make install) >"$OUT/build/$name.log" 2>&1 ||
        { tail -40 "$OUT/build/$name.log"; exit 1; }
    rm -rf "$OUT/build/src-$pkg"
    echo "$stamp" >"$PREFIX/.stamps/$name"
}
# The players' server: libmicrohttpd (plain HTTP: no GnuTLS, as hexbattle
# serves no HTTPS) and libqrencode (the join address's QR code). Both are
# LGPL-2.1+, so both are DLLs beside the .exe, which a user may replace, not
# linked into it; -static-libgcc keeps them off libgcc's DLL. libmicrohttpd's
# configure takes its own Win32 threads and sockets (ws2_32) with "auto".
autotools_build libmicrohttpd libmicrohttpd --enable-shared --disable-static --disable-https \
    --disable-doc --disable-examples --disable-curl --disable-nls --with-threads=auto \
    LDFLAGS=-static-libgcc
# qrencode without its pthread lock (hexbattle encodes from one thread): no
# libwinpthread DLL. Its CMake installs the DLL in lib/: a copy joins the others.
cmake_build qrencode qrencode . -DWITH_TOOLS=OFF -DWITH_TESTS=OFF -DWITHOUT_PNG=ON \
    -DBUILD_SHARED_LIBS=ON -DCMAKE_SHARED_LINKER_FLAGS=-static-libgcc \
    -DCMAKE_DISABLE_FIND_PACKAGE_Threads=ON
if wanted qrencode; then cp "$PREFIX/lib/libqrencode.dll" "$PREFIX/bin/"; fi

# The licences of everything that ends up in the zip: each source package's
# debian/copyright, and the mingw-w64 runtime linked into the .exe.
mkdir -p "$PREFIX/licenses"
for p in libsdl2 libsdl2-ttf libsdl2-image freetype harfbuzz cjson expat libzstd libmicrohttpd; do
    wanted "$p" || continue
    tar -xOf "$(ls "$OUT/src/${p}_"*.debian.tar.* | head -1)" debian/copyright \
        >"$PREFIX/licenses/$p.copyright"
done
# qrencode: its Debian part when the mirror gave it (have_orig), else the
# installed Linux library's copy of it, else upstream's COPYING.
if ! wanted qrencode; then
    :
elif ls "$OUT/src/qrencode_"*.debian.tar.* >/dev/null 2>&1; then
    tar -xOf "$(ls "$OUT/src/qrencode_"*.debian.tar.* | head -1)" debian/copyright \
        >"$PREFIX/licenses/qrencode.copyright"
elif [ -f /usr/share/doc/libqrencode4/copyright ]; then
    cp /usr/share/doc/libqrencode4/copyright "$PREFIX/licenses/qrencode.copyright"
else
    tar -xOf "$(ls "$OUT/src/qrencode_"*.orig.tar.* | grep -v '\.asc$' | head -1)" --wildcards '*/COPYING' \
        >"$PREFIX/licenses/qrencode.copyright"
fi
cp /usr/share/doc/libz-mingw-w64-dev/copyright "$PREFIX/licenses/zlib.copyright"
cp /usr/share/doc/mingw-w64-common/copyright "$PREFIX/licenses/mingw-w64.copyright"
cp /usr/share/doc/gcc-mingw-w64-base/copyright "$PREFIX/licenses/gcc-mingw-w64.copyright"
log "done: $PREFIX"
