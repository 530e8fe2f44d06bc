# package.cmake - `make deb` (Makefile): a Debian package through CPack, from
# the Release build, its dependencies worked out from the libraries the
# program links (dpkg-shlibdeps). Included by CMakeLists.txt after the
# install rules; `cpack -G DEB` in the build folder makes
# hexbattle_VERSION_ARCH.deb. lintian must find no error in it
# (tests/install/deb_check.sh).

# What Debian wants in every package's doc folder: the copyright file and a
# changelog, compressed (-n: no time stamp, so the bytes are reproducible).
if(HB_GZIP)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/changelog ${CMAKE_BINARY_DIR}/changelog @ONLY)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/changelog.gz
    COMMAND ${HB_GZIP} -9nc ${CMAKE_BINARY_DIR}/changelog > ${CMAKE_BINARY_DIR}/changelog.gz
    DEPENDS ${CMAKE_BINARY_DIR}/changelog)
  add_custom_target(hb_changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/changelog.gz)
  install(FILES ${CMAKE_BINARY_DIR}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
endif()
install(FILES ${CMAKE_CURRENT_LIST_DIR}/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME hexbattle)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "the hexbattle developers")
set(CPACK_PACKAGE_CONTACT "hexbattle developers <dev@hexbattle.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "hex-map battles for tabletop role-playing games")
# The extended description: CPack indents each line and turns the empty one
# into Debian's " ." paragraph break; the synopsis is the summary above.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "hexbattle is a battle map for the referee of a tabletop role-playing game.
It moves the combatants on a hex map, checks every move, attack and line of
sight by the rules of the battle's combat system, and shows the players on a
second screen or a projector only what their side may see.

Maps are drawn in its own editor or in Tiled; battles are saved, resumed,
replayed, and simulated to give each side's odds of winning.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Not "games": Debian keeps that section for programs in /usr/games.
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
include(CPack)
