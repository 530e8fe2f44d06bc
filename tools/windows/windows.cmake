# windows.cmake - the rest of the Windows cross-build (CMakeLists.txt builds
# the libraries and hexbattle.exe, then includes this and stops when WIN32;
# toolchain: tools/windows/mingw-w64-x86_64.cmake, libraries:
# tools/windows/build-deps.sh).
#
# - hexbattle.exe linked -static (libgcc and libwinpthread inside) and
#   -mconsole (SDL's pkg-config asks for -mwindows, which hides standard
#   output on real Windows: Wine shows it either way, so no test would see);
#   SDL2.dll, SDL2_ttf.dll and SDL2_image.dll beside it in the build folder,
#   and the players' server's libmicrohttpd-12.dll and libqrencode.dll.
# - The cmocka suites of the core, the rules and io, run by ctest under Wine
#   (tools/windows/wine_ctest.sh).
# - `cmake --install` lays out the zip's folder: everything beside the .exe,
#   the DLLs and the licences of all that is bundled (make windows).

target_link_options(hexbattle PRIVATE -static -mconsole)
# A build without the windows (HB_GUI=OFF: make test's quick comparison,
# tools/windows/compare.sh) is the .exe alone.
if(NOT HB_GUI)
  return()
endif()

# -mwindows out of SDL's link options.
foreach(tgt PkgConfig::SDL2 PkgConfig::SDL2_TTF PkgConfig::SDL2_IMAGE)
  foreach(prop INTERFACE_LINK_OPTIONS INTERFACE_LINK_LIBRARIES)
    get_target_property(opts ${tgt} ${prop})
    if(opts)
      list(REMOVE_ITEM opts -mwindows)
      set_target_properties(${tgt} PROPERTIES ${prop} "${opts}")
    endif()
  endforeach()
endforeach()

# The DLLs the programs load, beside them in the build folder (Wine and
# Windows look there first) and in the zip.
set(HB_WIN_DLLS ${HB_WIN_PREFIX}/bin/SDL2.dll ${HB_WIN_PREFIX}/bin/SDL2_ttf.dll
  ${HB_WIN_PREFIX}/bin/SDL2_image.dll)
# The players' server's libraries (LGPL: DLLs, not linked into the .exe).
if(HB_SHARE)
  list(APPEND HB_WIN_DLLS ${HB_WIN_PREFIX}/bin/libmicrohttpd-12.dll
    ${HB_WIN_PREFIX}/bin/libqrencode.dll)
endif()
file(COPY ${HB_WIN_DLLS} DESTINATION ${CMAKE_BINARY_DIR})

include(packaging/install.cmake)
install(FILES ${HB_WIN_DLLS} DESTINATION .)
install(DIRECTORY ${HB_WIN_PREFIX}/licenses/ DESTINATION licenses)
if(NOT HB_TESTS)
  return()
endif()

# The cmocka suites that need the core, the rules and io only (no SDL, no
# server), as on Linux (tests/CMakeLists.txt), less those that test POSIX
# behaviour alone (HB_WIN_SKIP, with the reason). setenv, unsetenv and
# mkdtemp, which some suites use to set up their cases, come from
# test_compat.h.
find_package(PkgConfig REQUIRED)
pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)
add_link_options(-static -mconsole)
enable_testing()
file(GLOB HB_WIN_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/test_*.c)
list(FILTER HB_WIN_TESTS EXCLUDE REGEX "/test_(ui|share)[^/]*\\.c$")
# Every suite runs on both systems: the cases that test POSIX behaviour alone
# (fork and signals, setrlimit, modes and owners, XDG folders, the
# ../share/hexbattle layout) sit behind #ifndef _WIN32, with Windows cases
# for Windows' own (%APPDATA%, %LOCALAPPDATA%, data beside the .exe, a
# writer killed with TerminateProcess). HB_WIN_SKIP lists a suite that
# cannot run here at all, with the reason; none today.
set(HB_WIN_SKIP)
foreach(skip ${HB_WIN_SKIP})
  list(REMOVE_ITEM HB_WIN_TESTS ${CMAKE_SOURCE_DIR}/tests/${skip}.c)
endforeach()
foreach(src ${HB_WIN_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  # pthread: test_odds starts threads of its own (winpthreads, linked in).
  target_link_libraries(${name} PRIVATE hbio PkgConfig::CMOCKA pthread)
  target_compile_definitions(${name} PRIVATE HB_TEST_DATA="${CMAKE_SOURCE_DIR}/tests/data")
  target_compile_options(${name} PRIVATE -include ${CMAKE_CURRENT_LIST_DIR}/test_compat.h)
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_LIST_DIR}/compat)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "SDL_VIDEODRIVER=dummy;HEXBATTLE_DATA=${CMAKE_SOURCE_DIR}/data")
endforeach()
# cmocka.dll beside the test programs, with the libgcc DLL it was linked to.
foreach(dir ${CMOCKA_LIBRARY_DIRS})
  if(EXISTS ${dir}/../bin/cmocka.dll)
    file(COPY ${dir}/../bin/cmocka.dll DESTINATION ${CMAKE_BINARY_DIR})
  endif()
endforeach()
execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libgcc_s_seh-1.dll
  OUTPUT_VARIABLE HB_LIBGCC_DLL OUTPUT_STRIP_TRAILING_WHITESPACE)
if(EXISTS ${HB_LIBGCC_DLL})
  file(COPY ${HB_LIBGCC_DLL} DESTINATION ${CMAKE_BINARY_DIR})
endif()
# The players' server: its protocol (test_share_protocol), the pages'
# pictures (test_share_view) and sharing from the play window under SDL's
# dummy driver (test_ui_share: Ctrl+L, the QR code, a page's move, Ctrl+A),
# their pages on the platform layer's loopback sockets (tests/share_client.h).
if(HB_SHARE)
  foreach(name test_share_protocol test_share_view test_ui_share)
    add_executable(${name} ${CMAKE_SOURCE_DIR}/tests/${name}.c)
    if(name MATCHES "^test_ui")
      target_link_libraries(${name} PRIVATE hbui PkgConfig::CMOCKA)
    else()
      target_link_libraries(${name} PRIVATE hbshare PkgConfig::CMOCKA)
    endif()
    target_compile_definitions(${name} PRIVATE HB_TEST_DATA="${CMAKE_SOURCE_DIR}/tests/data")
    target_compile_options(${name} PRIVATE -include ${CMAKE_CURRENT_LIST_DIR}/test_compat.h)
    target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_LIST_DIR}/compat)
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES ENVIRONMENT
      "SDL_VIDEODRIVER=dummy;SDL_AUDIODRIVER=dummy;HEXBATTLE_DATA=${CMAKE_SOURCE_DIR}/data;HEXBATTLE_SHARE_BIND=loopback")
  endforeach()
endif()
