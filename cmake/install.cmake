# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# install.cmake: what `cmake --install` puts where (included from the
# top-level CMakeLists.txt), and the `uninstall` target.
#
#   quill.so                      the modules directory, chosen at install
#                                 time (below, cmake/install_time.cmake)
#   quill-speed, quill-info       <prefix>/bin (quill_portable.so: never)
#   README.md, CHANGELOG.md, openssl.cnf.example, LICENSE
#                                 <prefix>/share/doc/quill (the .deb names
#                                 LICENSE "copyright", as Debian does)
#
# quill.so's directory, first match:
#   1. in the .deb (cpack -G DEB): /usr/lib/<multiarch>/ossl-modules
#      (cmake/package.cmake tells the install through
#      CPACK_CUSTOM_INSTALL_VARIABLES);
#   2. QUILL_MODULESDIR, when given at configure time (a relative path is
#      taken under the install prefix);
#   3. with an install prefix P given at install time (`cmake --install
#      build --prefix P`): OpenSSL's modules directory if that lies under P
#      (P = /usr on Debian: /usr/lib/x86_64-linux-gnu/ossl-modules), else
#      P/lib/ossl-modules;
#   4. otherwise (`cmake --install build`, `make install`, whatever
#      CMAKE_INSTALL_PREFIX was configured): OpenSSL's modules directory,
#      `pkg-config --variable=modulesdir libcrypto` at configure time (e.g.
#      /usr/lib/x86_64-linux-gnu/ossl-modules); without pkg-config,
#      <prefix>/lib/ossl-modules.
# "Given at install time" (3) means: CMAKE_INSTALL_PREFIX arrives in the
# install script as a cache entry, which is how `cmake --install --prefix P`
# and `cmake -DCMAKE_INSTALL_PREFIX=P -P cmake_install.cmake` pass it (so
# even P equal to the configured prefix counts), or it differs from the
# configured one.  $DESTDIR, if set, is put in front of every path as usual.
# The decision is made when the install runs because --prefix is only known
# then; the directory used is printed ("-- Installing: ...").

include(GNUInstallDirs)

execute_process(COMMAND pkg-config --variable=modulesdir libcrypto
                OUTPUT_VARIABLE QUILL_SYSTEM_MODULESDIR OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE _quill_pc ERROR_QUIET)
if(NOT _quill_pc EQUAL 0)
  set(QUILL_SYSTEM_MODULESDIR "")
endif()

# Build trees configured before this file existed cached the automatic
# value under the same name; that one must not count as given.
get_property(_quill_help CACHE QUILL_MODULESDIR PROPERTY HELPSTRING)
if(_quill_help STREQUAL "Where cmake --install puts quill.so"
   AND "${QUILL_MODULESDIR}" STREQUAL "${QUILL_SYSTEM_MODULESDIR}")
  unset(QUILL_MODULESDIR CACHE)
endif()
set(QUILL_MODULESDIR "" CACHE STRING
    "Directory for quill.so (empty: chosen at install time, see cmake/install.cmake)")

# The module: its directory is decided by cmake/install_time.cmake, which
# runs inside the install with these configure-time facts.
install(CODE "set(QUILL_INSTALL_MODULE_FILE \"$<TARGET_FILE:quill>\")
set(QUILL_INSTALL_CONFIGURED_PREFIX \"${CMAKE_INSTALL_PREFIX}\")
set(QUILL_INSTALL_MODULESDIR \"${QUILL_MODULESDIR}\")
set(QUILL_INSTALL_SYSTEM_MODULESDIR \"${QUILL_SYSTEM_MODULESDIR}\")
set(QUILL_INSTALL_DOCDIR \"${CMAKE_INSTALL_DOCDIR}\")
set(QUILL_INSTALL_LICENSE \"${PROJECT_SOURCE_DIR}/LICENSE\")
set(QUILL_INSTALL_STRIP \"${CMAKE_STRIP}\")")
install(SCRIPT ${CMAKE_CURRENT_LIST_DIR}/install_time.cmake)

install(FILES README.md openssl.cnf.example DESTINATION ${CMAKE_INSTALL_DOCDIR})
if(EXISTS ${PROJECT_SOURCE_DIR}/CHANGELOG.md)
  install(FILES CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
endif()

# The programs, once every directory has been added (deferred to the end of
# the top-level CMakeLists.txt, so that the order of add_subdirectory calls
# does not matter): quill-speed (bench/) and quill-info (info/), where built.
function(quill_install_programs)
  foreach(program quill-speed quill-info)
    if(TARGET ${program})
      install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    endif()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL quill_install_programs)

# uninstall: removes the files the last install from this build tree listed
# in install_manifest.txt (cmake/uninstall.cmake).
add_custom_target(uninstall
  COMMAND ${CMAKE_COMMAND} -DQUILL_MANIFEST=${CMAKE_BINARY_DIR}/install_manifest.txt
          -P ${CMAKE_CURRENT_LIST_DIR}/uninstall.cmake
  COMMENT "Removing the files listed in install_manifest.txt" VERBATIM)
