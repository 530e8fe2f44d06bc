# install.cmake - what `cmake --install BUILD --prefix P` puts where.
# The program in P/bin; its data, assets and the bundled maps in
# P/share/hexbattle, where it looks for them relative to itself
# (src/io/fileio.c, hb_data_dir); the docs in P/share/doc/hexbattle; a
# desktop entry, an icon, AppStream metainfo and the man page hexbattle.1 in
# their usual places. On Windows everything sits beside the .exe, the docs
# in docs/ (the DLLs and the licences: tools/windows/windows.cmake).
include(GNUInstallDirs)
set(HB_APP_ID org.hexbattle.hexbattle)
set(HB_SHARE_DIR ${CMAKE_INSTALL_DATADIR}/hexbattle)
set(VERSION ${PROJECT_VERSION})
set(HB_PKG ${CMAKE_CURRENT_LIST_DIR})
if(WIN32)
  install(TARGETS hexbattle RUNTIME DESTINATION .)
  install(DIRECTORY data assets maps DESTINATION .)
  install(FILES README.md DESTINATION docs)
  install(DIRECTORY docs/ DESTINATION docs)
  install(FILES ${HB_PKG}/copyright DESTINATION licenses RENAME hexbattle.copyright)
  return()
endif()

install(TARGETS hexbattle RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY data assets DESTINATION ${HB_SHARE_DIR})
install(DIRECTORY maps/ DESTINATION ${HB_SHARE_DIR}/maps)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The man page, compressed as Debian wants it (-n: no time stamp inside).
configure_file(${HB_PKG}/hexbattle.1 ${CMAKE_BINARY_DIR}/hexbattle.1 @ONLY)
find_program(HB_GZIP gzip)
if(HB_GZIP)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/hexbattle.1.gz
    COMMAND ${HB_GZIP} -9nc ${CMAKE_BINARY_DIR}/hexbattle.1 > ${CMAKE_BINARY_DIR}/hexbattle.1.gz
    DEPENDS ${CMAKE_BINARY_DIR}/hexbattle.1)
  add_custom_target(hb_manpage ALL DEPENDS ${CMAKE_BINARY_DIR}/hexbattle.1.gz)
  install(FILES ${CMAKE_BINARY_DIR}/hexbattle.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  install(FILES ${CMAKE_BINARY_DIR}/hexbattle.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

install(FILES ${HB_PKG}/${HB_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${HB_PKG}/${HB_APP_ID}.svg
  DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
configure_file(${HB_PKG}/${HB_APP_ID}.metainfo.xml ${CMAKE_BINARY_DIR}/${HB_APP_ID}.metainfo.xml
  @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/${HB_APP_ID}.metainfo.xml
  DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
