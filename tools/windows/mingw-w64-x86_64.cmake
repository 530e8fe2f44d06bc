# CMake toolchain for a Windows x86-64 build with Debian's mingw-w64
# (gcc-mingw-w64-x86-64). HB_WIN_PREFIX: where tools/windows/build-deps.sh
# installed SDL2, SDL2_ttf, SDL2_image, cJSON, expat, zstd and cmocka
# (default: build-windows-deps/prefix beside this repository's top).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(HB_MINGW x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${HB_MINGW}-gcc)
set(CMAKE_CXX_COMPILER ${HB_MINGW}-g++)
set(CMAKE_RC_COMPILER ${HB_MINGW}-windres)
if(NOT HB_WIN_PREFIX)
  if(DEFINED ENV{HB_WIN_PREFIX})
    set(HB_WIN_PREFIX $ENV{HB_WIN_PREFIX})
  else()
    get_filename_component(HB_WIN_PREFIX ${CMAKE_CURRENT_LIST_DIR}/../../build-windows-deps/prefix
      ABSOLUTE)
  endif()
endif()
set(CMAKE_FIND_ROOT_PATH ${HB_WIN_PREFIX} /usr/${HB_MINGW})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config must see only the cross-built libraries (sdl2-config would drop
# the -L path: tools/windows/build-deps.sh).
set(ENV{PKG_CONFIG_LIBDIR} ${HB_WIN_PREFIX}/lib/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "")
# Under ctest, programs run through Wine (tools/windows/wine_ctest.sh puts
# /usr/lib/wine, where Debian's wine64 keeps it, on the PATH and starts the server).
set(CMAKE_CROSSCOMPILING_EMULATOR wine64)
