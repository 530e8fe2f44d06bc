# hexbattle: `make run` opens the default battle, `make test` runs every test.
# Both first install any missing Debian packages (apt-get, as root or via sudo).
# `make fuzz` fuzzes every loader for FUZZ_SECONDS each (docs/hardening.md).

BUILD        ?= build
ASAN_BUILD   ?= build-asan
FUZZ_BUILD   ?= build-fuzz
# The Release builds `make test` compiles (warnings as errors) but does not run.
RELEASE_GCC_BUILD   ?= build-release-gcc
RELEASE_CLANG_BUILD ?= build-release-clang
# ON or OFF forces -Werror in the builds below; empty keeps what the build
# folder has (OFF in a new one). `make test` sets ON.
WERROR       ?=
VERSION      := $(shell sed -n '/^project/s/.*VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
DEB_ARCH     := $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DEB_FILE     := hexbattle_$(VERSION)_$(DEB_ARCH).deb
JOBS         ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 60
# Seconds of fuzzing per target inside `make test`, after one pass over the seeds.
FUZZ_SMOKE_SECONDS ?= 3
# clang + libclang-rt-dev give libFuzzer; valgrind checks the plain build for leaks;
# Xorg's dummy driver with xrandr/xwininfo gives tests/cli/two_displays.sh two displays;
# xdotool clicks and types in the real windows of tests/cli/signals.sh and faults.sh.
# expat, zlib and zstd read Tiled maps; tiled itself is for tests/cli/tiled_interop.sh.
# libmicrohttpd serves the battle to players' devices, libqrencode draws the join
# code; chromium with its driver and python3-selenium run tests/cli/share_browser.sh.
# desktop-file-utils, appstream, groff-base, lintian, dpkg-dev (dpkg-shlibdeps)
# and file check the installed copy and the .deb (tests/install/).
DEB_PKGS     := cmake make gcc pkg-config libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev \
                libcjson-dev libcmocka-dev xvfb xauth clang libclang-rt-dev valgrind \
                xserver-xorg-core xserver-xorg-video-dummy x11-xserver-utils x11-utils xdotool \
                libexpat1-dev zlib1g-dev libzstd-dev tiled openbox \
                libmicrohttpd-dev libqrencode-dev chromium chromium-driver python3-selenium \
                desktop-file-utils appstream lintian dpkg-dev file groff-base

# Only `make test-windows` needs these (the mingw-w64 cross compilers, zlib
# for mingw, Wine to run the result, dpkg-source): `make windows-deps` installs
# them, so `make run` does not wait for them.
WIN_DEB_PKGS := gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64-win32 libz-mingw-w64-dev wine64 \
                dpkg-dev cmake make pkg-config zip unzip
WIN_DEPS     ?= build-windows-deps
WIN_BUILD    ?= build-windows
# `make test`'s quick comparison: hexbattle.exe without the windows
# (HB_GUI=OFF), so only cJSON, expat and zstd are cross-built for it.
WIN_CORE_DEB_PKGS := gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64-win32 libz-mingw-w64-dev wine64 \
                dpkg-dev cmake make pkg-config
WIN_CORE_BUILD ?= build-windows-core

# `make monkey` runs the randomized UI test longer: MONKEY_EVENTS inputs per
# mode and map for each seed of MONKEY_SEEDS, in the sanitizer build.
MONKEY_EVENTS ?= 20000
MONKEY_SEEDS  ?= 1 2 3 4
# The sanitizer runs' ASan settings. SDL's software renderer allocates for each
# draw command; with ASan's default 256 MB quarantine, and freed pages handed
# back to the kernel every 5 s, those allocations keep faulting in fresh pages.
# A 64 MB quarantine whose pages stay mapped cut the CPU time of the UI monkey
# by about 38% (measured) and still catches a use after free within the last
# 64 MB freed.
ASAN_TEST_OPTIONS ?= detect_leaks=1:quarantine_size_mb=64:allocator_release_to_os_interval_ms=-1

.PHONY: all deps build asan release-check release-gcc release-clang install-check deb deb-package deb-check windows-deps windows-build windows test-windows windows-core-deps windows-core test-windows-core test-linux-rest run test fuzz fuzz-smoke monkey shots scars-audit xhalem-audit emcore-audit activation-audit surface-audit odds-check clean

all: build

deps:
	@if command -v dpkg >/dev/null 2>&1; then \
	  missing=""; \
	  for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	  if [ -n "$$missing" ]; then \
	    echo "hexbattle: installing Debian packages:$$missing"; \
	    if [ "$$(id -u)" -eq 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	    $$SUDO apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	  fi; \
	else \
	  echo "hexbattle: no dpkg here; install SDL2, SDL2_ttf, SDL2_image, cJSON and cmocka yourself"; \
	  echo "hexbattle: (clang with libFuzzer and valgrind are optional: their tests skip without them)"; \
	fi

$(BUILD)/Makefile: CMakeLists.txt
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: deps $(BUILD)/Makefile
	$(if $(WERROR),cmake -S . -B $(BUILD) -DHB_WERROR=$(WERROR) >/dev/null)
	cmake --build $(BUILD) -j $(JOBS)

asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DHB_SANITIZE=ON $(if $(WERROR),-DHB_WERROR=$(WERROR))
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# The Release configuration (-O3 shows warnings the other builds do not),
# with gcc and with clang, warnings as errors: compiled only. They leave the
# test programs out (HB_TESTS=OFF: about 40% of each build), which the plain
# and sanitizer builds compile with -Werror.
# The gcc one is also what `make deb` packages and `make install-check`
# installs: it does not fall back on the source tree for its data.
release-check: release-gcc release-clang

release-gcc: deps
	CC=gcc cmake -S . -B $(RELEASE_GCC_BUILD) -DCMAKE_BUILD_TYPE=Release -DHB_WERROR=ON \
	  -DHB_SOURCE_FALLBACK=OFF -DHB_TESTS=OFF >/dev/null
	cmake --build $(RELEASE_GCC_BUILD) -j $(JOBS)

release-clang: deps
	CC=clang cmake -S . -B $(RELEASE_CLANG_BUILD) -DCMAKE_BUILD_TYPE=Release -DHB_WERROR=ON \
	  -DHB_TESTS=OFF >/dev/null
	cmake --build $(RELEASE_CLANG_BUILD) -j $(JOBS)

# Install to a temporary prefix, move it, and play every bundled map from
# there with the source tree out of reach; validate the desktop entry and
# the AppStream metainfo (tests/install/install_check.sh).
install-check: release-gcc
	bash tests/install/install_check.sh $(RELEASE_GCC_BUILD) $(CURDIR)/$(RELEASE_GCC_BUILD)/install-check

# dist/hexbattle_VERSION_ARCH.deb from the Release build (packaging/package.cmake).
deb: deb-package
	mkdir -p dist
	cp $(RELEASE_GCC_BUILD)/package/$(DEB_FILE) dist/
	@echo "hexbattle: dist/$(DEB_FILE)"

deb-package: release-gcc
	rm -rf $(RELEASE_GCC_BUILD)/package
	cd $(RELEASE_GCC_BUILD) && cpack -G DEB >/dev/null

# lintian with no error, then install it, run it as a user, remove it: nothing
# may be left behind (tests/install/deb_check.sh; needs root or sudo). The
# package checked is the build folder's: make test writes nothing in dist/.
deb-check: deb-package
	bash tests/install/deb_check.sh $(RELEASE_GCC_BUILD)/package/$(DEB_FILE)

run: build
	./$(BUILD)/hexbattle

# The Windows cross-build (docs/porting.md): SDL2, SDL2_ttf (with FreeType
# and HarfBuzz), SDL2_image,
# cJSON, expat, zstd and cmocka built for mingw-w64 from Debian's source
# packages once (tools/windows/build-deps.sh, about 3 minutes on 2 idle
# cores, then cached in $(WIN_DEPS)); then hexbattle.exe and the cmocka
# suites of the core, the rules and io (tools/windows/windows.cmake), with
# sharing compiled out (HB_SHARE=OFF) and no source-tree fallback, as shipped.
# `make windows` zips dist/hexbattle-VERSION-win64.zip; `make test-windows`
# runs the suites under Wine, compares simulate, odds, render and saves with
# the Linux build (tools/windows/compare.sh) and checks the zip
# (tools/windows/zip_check.sh). Not part of `make test`: the dependencies
# alone take longer than its budget allows.
WIN_ZIP := hexbattle-$(VERSION)-win64
windows-deps:
	$(MAKE) --no-print-directory deps DEB_PKGS="$(WIN_DEB_PKGS)"
	bash tools/windows/build-deps.sh $(WIN_DEPS)

windows-build: windows-deps
	cmake -S . -B $(WIN_BUILD) -DCMAKE_TOOLCHAIN_FILE=tools/windows/mingw-w64-x86_64.cmake \
	  -DHB_WIN_PREFIX=$(CURDIR)/$(WIN_DEPS)/prefix -DCMAKE_BUILD_TYPE=Release -DHB_WERROR=ON \
	  -DHB_SOURCE_FALLBACK=OFF -DHB_SHARE=ON >/dev/null
	cmake --build $(WIN_BUILD) -j $(JOBS)

windows: windows-build
	rm -rf $(WIN_BUILD)/$(WIN_ZIP)
	cmake --install $(WIN_BUILD) --prefix $(CURDIR)/$(WIN_BUILD)/$(WIN_ZIP) >/dev/null
	mkdir -p dist
	rm -f dist/$(WIN_ZIP).zip
	cd $(WIN_BUILD) && zip -qrX $(CURDIR)/dist/$(WIN_ZIP).zip $(WIN_ZIP)
	@echo "hexbattle: dist/$(WIN_ZIP).zip"

# The part of the Windows check that fits in `make test`: simulate, odds and
# saves of every bundled map under Wine, byte for byte against the Linux
# build, from an .exe built without the windows (no SDL to cross-build).
windows-core-deps:
	$(MAKE) --no-print-directory deps DEB_PKGS="$(WIN_CORE_DEB_PKGS)"
	bash tools/windows/build-deps.sh $(WIN_DEPS) --core

windows-core: windows-core-deps
	cmake -S . -B $(WIN_CORE_BUILD) -DCMAKE_TOOLCHAIN_FILE=tools/windows/mingw-w64-x86_64.cmake \
	  -DHB_WIN_PREFIX=$(CURDIR)/$(WIN_DEPS)/prefix -DCMAKE_BUILD_TYPE=Release -DHB_WERROR=ON \
	  -DHB_SOURCE_FALLBACK=OFF -DHB_GUI=OFF -DHB_SHARE=OFF >/dev/null
	cmake --build $(WIN_CORE_BUILD) -j $(JOBS)

test-windows-core: windows-core build
	bash tools/windows/compare.sh $(BUILD) $(WIN_CORE_BUILD) --no-render

test-windows: windows build
	bash tools/windows/wine_ctest.sh $(WIN_BUILD) $(JOBS)
	bash tools/windows/compare.sh $(BUILD) $(WIN_BUILD)
	bash tools/windows/zip_check.sh dist/$(WIN_ZIP).zip $(BUILD) $(WIN_BUILD)
	bash tools/windows/session_end.sh $(WIN_BUILD)
	bash tools/windows/serve_check.sh $(WIN_BUILD)

# The plain build also runs valgrind (cli_valgrind); the sanitizer build skips it.
# Warnings are errors in every build `make test` makes.
test:
	$(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_PKGS) $(WIN_CORE_DEB_PKGS)"
	$(MAKE) --no-print-directory build asan release-check WERROR=ON
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=$(ASAN_TEST_OPTIONS) UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS)
	$(MAKE) --no-print-directory -j2 --output-sync=recurse test-linux-rest test-windows-core

# What make test does after the ctest runs, one after another; the Windows
# comparison runs beside it (its downloads, configure steps and Wine's start
# leave a core idle much of the time: about a minute saved of four).
test-linux-rest:
	$(MAKE) --no-print-directory -j1 fuzz-smoke
	$(MAKE) --no-print-directory -j1 install-check deb-check

# Every seed once, then a few seconds of fuzzing per target (skips without clang).
fuzz-smoke: deps
	bash tests/fuzz/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SMOKE_SECONDS) --smoke

fuzz: deps
	bash tests/fuzz/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# Screenshots of the play window on every bundled map at 1280x720 and
# 1920x1080 (overlays, card, ruler) under $(BUILD)/shots, to look at by eye.
shots: build
	mkdir -p $(BUILD)/shots
	SDL_VIDEODRIVER=dummy HEXBATTLE_DATA=$(CURDIR)/data ./$(BUILD)/ui_shots $(BUILD)/shots maps/*.json

monkey: asan
	for seed in $(MONKEY_SEEDS); do \
	  SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy HEXBATTLE_DATA=$(CURDIR)/data \
	  ASAN_OPTIONS=$(ASAN_TEST_OPTIONS) UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  HB_MONKEY_SEED=$$seed HB_MONKEY_EVENTS=$(MONKEY_EVENTS) \
	  ./$(ASAN_BUILD)/tests/test_ui_monkey || exit 1; \
	done

# The scars AI over AUDIT_SEEDS battles of the desert map: win rates and the
# checks of issue 22, as one line of JSON (docs/rules-scars.md).
AUDIT_SEEDS ?= 1000
scars-audit: build
	./$(BUILD)/scars_audit maps/salt_flats.json $(AUDIT_SEEDS)

# The xhalem AI over XH_AUDIT_SEEDS battles of every bundled xhalem map (JSON
# maps of the xhalem ruleset or of none, and Tiled maps that name it): how
# often each kind of command is used and the fair-play checks of issue 16, as
# the Markdown table of docs/rules-xhalem.md (also written to build/xhalem_audit.md).
XH_AUDIT_SEEDS ?= 200
XH_AUDIT_MAPS  ?= $(shell grep -L '"ruleset"' maps/*.json) $(shell grep -l '"ruleset": *"xhalem"' maps/*.json) \
                  $(shell grep -l 'name="ruleset" value="xhalem"' maps/*.tmx)
xhalem-audit: build
	./$(BUILD)/xhalem_audit --seeds $(XH_AUDIT_SEEDS) --markdown $(sort $(XH_AUDIT_MAPS)) \
	  | tee $(BUILD)/xhalem_audit.md

# The emcore AI over EM_AUDIT_SEEDS battles of the river crossing: how often it
# uses each part of its kit, and the win rates, as the table of docs/rules-emcore.md.
EM_AUDIT_SEEDS ?= 200
emcore-audit: build
	./$(BUILD)/emcore_audit --seeds $(EM_AUDIT_SEEDS) --markdown maps/river_crossing.json \
	  | tee $(BUILD)/emcore_audit.md

# The surface AI over SF_AUDIT_SEEDS battles of the relay outpost: how often it
# uses each part of its kit, the moves the text forbids (none), and the win
# rates, as the table of docs/rules-surface.md (also build/surface_audit.md).
SF_AUDIT_SEEDS ?= 200
surface-audit: build
	./$(BUILD)/surface_audit --seeds $(SF_AUDIT_SEEDS) --markdown maps/relay_outpost.json \
	  | tee $(BUILD)/surface_audit.md

# The activation AI over ACT_AUDIT_SEEDS battles of the sample map: how often
# it uses each action, as the Markdown table of docs/rules-activation.md (also
# written to build/activation_audit.md).
ACT_AUDIT_SEEDS ?= 200
activation-audit: build
	./$(BUILD)/activation_audit --seeds $(ACT_AUDIT_SEEDS) --markdown maps/shattered_lane.json \
	  | tee $(BUILD)/activation_audit.md

# The odds honesty check at full size (tests/cli/odds.sh; docs/odds.md): for
# every bundled map, `odds --runs 1000` against 1,000 simulate battles of the
# same seeds (exactly equal) and 1,000 of other seeds (equal within chance).
ODDS_CHECK_RUNS ?= 1000
ODDS_CHECK_MAPS ?= ridge_ambush foundry_breach salt_flats river_crossing relay_outpost shattered_lane
odds-check: build
	ODDS_CHECK_RUNS=$(ODDS_CHECK_RUNS) ODDS_CHECK_MAPS="$(ODDS_CHECK_MAPS)" \
	  bash tests/cli/odds.sh $(BUILD)/hexbattle $(CURDIR)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(RELEASE_GCC_BUILD) $(RELEASE_CLANG_BUILD) $(WIN_BUILD)
