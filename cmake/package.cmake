# Installing and packaging the desktop program: `cmake --build build --target package` makes a .deb
# a lecturer installs without a compiler (scripts/package.sh builds it with the web zip). Laid out
# under the prefix as a Debian package expects; the program finds its assets from its own file
# (app::assetsDir: <prefix>/bin/crowdlab -> <prefix>/share/crowdlab/assets), so it runs from /usr.
include(GNUInstallDirs)
install(TARGETS crowdlab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The whole folder: presets (also embedded in the binary), lessons and whatever else assets gain.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/crowdlab/assets)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/crowdlab.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/crowdlab.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME crowdlab)
set(CPACK_PACKAGE_VENDOR "crowdlab")
set(CPACK_PACKAGE_CONTACT "crowdlab maintainers <crowdlab@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Interactive crowd-simulation scenes for teaching")
set(CPACK_PACKAGE_DESCRIPTION
    "Seven crowd-simulation scenes (murmuration, boids, spatial hash, ORCA corridor, steering, a big finale, GPU instancing and compute) in one program, with experiment buttons that test what an article claims, lessons driven by a presenter's clicker, sweeps and tuning.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY crowdlab)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)   # crowdlab_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The shared libraries the binary links (SDL2, oneTBB, the C++ library ...) become Depends through
# dpkg-shlibdeps, added to the list below, so the list follows the build; without dpkg-shlibdeps the
# list names them itself. The UI font is read from its Debian path (ui_style.cpp) and OpenGL is loaded
# at run time through SDL, so neither is linked: both are named here.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core, libgl1")
find_program(CROWDLAB_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(CROWDLAB_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libsdl2-2.0-0, libtbb12, libstdc++6, libc6")
endif()
# Recording frames as an MP4 uses ffmpeg when it is on the PATH; the window tests' helpers are not needed.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "ffmpeg")
include(CPack)
