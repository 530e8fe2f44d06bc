# windows.cmake - the Windows cross-build (CMakeLists.txt includes this and
# stops when WIN32; toolchain: tools/windows/mingw-w64-x86_64.cmake).
#
# Until src/io and src/ui run on the platform layer alone (docs/porting.md
# lists what still calls POSIX directly), it builds the core, the rules, the
# platform layer and the cmocka suites that need nothing more, and ctest runs
# them under Wine (make test-windows).
find_package(PkgConfig REQUIRED)
pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)

file(GLOB HB_CORE_SRC CONFIGURE_DEPENDS src/core/*.c src/rules/*.c src/rules/*/*.c)
add_library(hbcore STATIC ${HB_CORE_SRC})
target_include_directories(hbcore PUBLIC src)
target_compile_options(hbcore PRIVATE $<$<CONFIG:RelWithDebInfo,Release>:-O3>)

file(GLOB HB_PLATFORM_SRC CONFIGURE_DEPENDS src/platform/*.c)
add_library(hbplatform STATIC ${HB_PLATFORM_SRC})
target_include_directories(hbplatform PUBLIC src)

# -static: libgcc and libwinpthread go inside each .exe (CMake's DLL copy
# misses libwinpthread-1.dll); -mconsole: standard output stays visible on
# real Windows (SDL's pkg-config would add -mwindows).
add_link_options(-static -mconsole)

enable_testing()
set(HB_WIN_TESTS test_area test_args test_dice test_fov test_geom test_hex test_path test_roll
  test_scale test_sight test_vision test_platform_portable)
foreach(name ${HB_WIN_TESTS})
  add_executable(${name} tests/${name}.c)
  target_link_libraries(${name} PRIVATE hbcore hbplatform PkgConfig::CMOCKA)
  target_compile_definitions(${name} PRIVATE HB_TEST_DATA="${CMAKE_SOURCE_DIR}/tests/data")
  add_test(NAME ${name} COMMAND ${name})
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
