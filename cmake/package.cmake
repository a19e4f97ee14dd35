# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# package.cmake: the Debian package, made by CPack from the install rules
# (cmake/install.cmake).  Included from the top-level CMakeLists.txt.
#
#   cpack -G DEB --config build/CPackConfig.cmake    (or: cd build && cpack)
#
# gives quill_<version>_<arch>.deb (e.g. quill_0.1.0_amd64.deb), version from
# project(VERSION), architecture from dpkg --print-architecture, holding
#   /usr/lib/<multiarch>/ossl-modules/quill.so   Debian's OpenSSL modules
#                                                directory (QUILL_DEB_MULTIARCH)
#   /usr/bin/quill-speed, /usr/bin/quill-info     (what the build has)
#   /usr/share/doc/quill/{README.md,CHANGELOG.md,openssl.cnf.example,copyright}
# everything stripped, depending on libssl3 (>= 3.0) and libc6 (below).
# cpack leaves the build tree's install_manifest.txt (what `uninstall`
# removes) alone: see the component install below.

# Debian's multiarch triplet (x86_64-linux-gnu): dpkg-architecture (dpkg-dev)
# if present, else the one in OpenSSL's modules directory, else CMake's.
set(_quill_multiarch "")
find_program(QUILL_DPKG_ARCHITECTURE dpkg-architecture)
if(QUILL_DPKG_ARCHITECTURE)
  execute_process(COMMAND ${QUILL_DPKG_ARCHITECTURE} -qDEB_HOST_MULTIARCH
                  OUTPUT_VARIABLE _quill_multiarch OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
endif()
if(NOT _quill_multiarch AND QUILL_SYSTEM_MODULESDIR MATCHES "^/usr/lib/([^/]+)/ossl-modules$")
  set(_quill_multiarch ${CMAKE_MATCH_1})
endif()
if(NOT _quill_multiarch)
  set(_quill_multiarch "${CMAKE_LIBRARY_ARCHITECTURE}")
endif()
set(QUILL_DEB_MULTIARCH "${_quill_multiarch}" CACHE STRING
    "Debian multiarch triplet of the .deb's modules directory /usr/lib/<triplet>/ossl-modules")
if(QUILL_DEB_MULTIARCH)
  set(QUILL_DEB_MODULESDIR lib/${QUILL_DEB_MULTIARCH}/ossl-modules)
else()
  set(QUILL_DEB_MODULESDIR lib/ossl-modules)
endif()

set(QUILL_PACKAGE_MAINTAINER "quill authors <quill-maintainers@invalid>" CACHE STRING
    "Maintainer field of the .deb (Name <address>)")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME quill)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "quill authors")
set(CPACK_PACKAGE_CONTACT "${QUILL_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "OpenSSL 3 provider: constant-time RSA, ECDSA P-256 and ML-DSA signatures")
# One line per line of the control file's extended description.
string(JOIN "\n" CPACK_PACKAGE_DESCRIPTION
  "quill is an OpenSSL 3 provider module (quill.so) that stock OpenSSL 3.0+"
  "applications load through openssl.cnf; their RSA, ECDSA P-256 and ML-DSA"
  "(FIPS 204) signatures then run on quill's own constant-time code, with"
  "native x86-64 backends chosen at run time.  Everything else stays with"
  "OpenSSL's default provider."
  ""
  "Activate it with /usr/share/doc/quill/openssl.cnf.example.  quill-speed"
  "measures it against the default provider.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_CUSTOM_INSTALL_VARIABLES "QUILL_PACKAGE_MODULESDIR=${QUILL_DEB_MODULESDIR}")

# One package made by a component install of everything: cpack then writes
# its file list to install_manifest_Unspecified.txt, leaving the
# install_manifest.txt of a real install (what `uninstall` removes) alone.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_COMPONENTS_ALL Unspecified)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${QUILL_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends: dpkg-shlibdeps (dpkg-dev) computes it from the libraries linked,
# e.g. "libc6 (>= 2.34), libssl3 (>= 3.0.3)" on Debian 12; without it,
# the same by hand.
find_program(QUILL_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(QUILL_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6, libssl3 (>= 3.0)")
endif()
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build[^/]*/")
include(CPack)
