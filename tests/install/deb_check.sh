#!/usr/bin/env bash
# The Debian package (issue 35): lintian finds no error in it; dpkg -i
# installs it; the installed program, run as a user who is not root, plays,
# draws and converts the bundled maps; dpkg -r then leaves nothing behind.
# Needs root (or sudo). Refuses to run when hexbattle is installed already,
# so that it never removes someone's own copy.
# Usage: deb_check.sh PATH/hexbattle_VERSION_ARCH.deb
set -u
DEB="$1"
FAILS=0
PASSES=0
check() {
    local name="$1"
    shift
    if "$@"; then
        PASSES=$((PASSES + 1))
    else
        FAILS=$((FAILS + 1))
        printf 'FAIL %s\n  check: %s\n' "$name" "$*"
    fi
}
if [ "$(id -u)" -eq 0 ]; then SUDO=(); else SUDO=(sudo); fi
if dpkg-query -W -f='${Status}' hexbattle 2>/dev/null | grep -q installed; then
    echo "deb_check: hexbattle is installed on this machine already; not touching it" >&2
    exit 1
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# lintian: errors fail, warnings are shown.
lintian --fail-on error --tag-display-limit 0 "$DEB" >"$WORK/lintian" 2>&1
check lintian_no_error test $? -eq 0
cat "$WORK/lintian"
check lintian_ran test -n "$(lintian --version)"
# The dependencies come from the libraries the program links (dpkg-shlibdeps).
deps=$(dpkg-deb -f "$DEB" Depends)
echo "Depends: $deps"
for lib in libsdl2-2.0-0 libsdl2-ttf-2.0-0 libsdl2-image-2.0-0 libcjson1 libexpat1 libzstd1 libc6; do
    check "depends_$lib" grep -q "$lib" <<<"$deps"
done

# Everything outside the home folders, before and after (caches the system's
# triggers rebuild are left out: they are not the package's files).
snapshot() {
    find /usr /etc /opt /var/lib/dpkg/info -xdev 2>/dev/null |
        grep -Ev '/(mimeinfo|icon-theme)\.cache$|^/var/lib/dpkg/info/(format|triggers)' | sort
}
snapshot >"$WORK/before"
"${SUDO[@]}" dpkg -i "$DEB" >"$WORK/dpkg-i" 2>&1
check dpkg_install test $? -eq 0 || cat "$WORK/dpkg-i"
check installed_binary test -x /usr/bin/hexbattle
check installed_maps test -s /usr/share/hexbattle/maps/ridge_ambush.json

# As a user: nobody (when root), else whoever runs this.
RUN=(env)
if [ "$(id -u)" -eq 0 ]; then RUN=(setpriv --reuid=nobody --regid=nogroup --clear-groups env); fi
USERDIR="$WORK/user"
mkdir -p "$USERDIR"
chmod 0777 "$WORK" "$USERDIR"
as_user() { (cd "$USERDIR" && "${RUN[@]}" -i PATH=/usr/bin:/bin HOME="$USERDIR" \
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy "$@"); }
check user_not_root test "$(as_user id -u)" != 0
check user_version as_user hexbattle --version >/dev/null
for map in /usr/share/hexbattle/maps/*.json /usr/share/hexbattle/maps/*.tmx; do
    m=$(basename "$map")
    as_user hexbattle simulate "$map" --seed 3 >"$WORK/sim" 2>&1
    check "user_simulate_$m" grep -q '"event":"end"' "$WORK/sim"
    check "user_render_$m" as_user hexbattle render "$map" --out "$USERDIR/${m%.*}.png" --size 320x200
    check "user_odds_$m" as_user hexbattle odds "$map" --runs 10 --seed 3 >/dev/null
done
check user_convert as_user hexbattle convert /usr/share/hexbattle/maps/ridge_ambush.json "$USERDIR/r.tmj"
check man_page bash -c 'man -w hexbattle | grep -q /usr/share/man/man1/hexbattle.1.gz'

"${SUDO[@]}" dpkg -r hexbattle >"$WORK/dpkg-r" 2>&1
check dpkg_remove test $? -eq 0 || cat "$WORK/dpkg-r"
check forgotten bash -c '! dpkg-query -W -f="\${Status}" hexbattle 2>/dev/null | grep -q installed'
snapshot >"$WORK/after"
check nothing_left diff "$WORK/before" "$WORK/after"

echo "deb check: $PASSES passed, $FAILS failed"
[ "$FAILS" -eq 0 ]
