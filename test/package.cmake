# SPDX-License-Identifier: Apache-2.0
# Install and package tests (test/package/), label package:
#   package_deb      cpack -G DEB into a scratch directory of the build tree;
#                    the .deb's name, control fields and file list (dpkg-deb
#                    -I/-c); unpacked with dpkg-deb -x into a temporary root
#                    (the system is not touched), the module loaded from
#                    there, RSA signatures on it, programs stripped
#   package_install  cmake --install --prefix <tmp>, --prefix /usr and the
#                    stripped plain install under DESTDIR, the uninstall
#                    target
# Both install from this build tree as it is (they build nothing: build
# first).  package_install rewrites its install_manifest.txt while it runs
# and puts the user's back; package_deb checks that cpack leaves it alone
# (and removes cpack's own); hence the lock between them.  Skipped
# (77) without dpkg-deb or cpack (package_deb), readelf, openssl, or in the
# sanitizer build (the module needs the sanitizer runtime in openssl).  Not
# in a cross build: the host's openssl cannot load the target's quill.so, and
# cpack would label the package with the host's architecture.

if(CMAKE_CROSSCOMPILING)
  return()
endif()

set(QUILL_PACKAGE_ENV
  "QUILL_BUILD_DIR=${CMAKE_BINARY_DIR}"
  "QUILL_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
  "QUILL_VERSION=${PROJECT_VERSION}"
  "QUILL_CMAKE=${CMAKE_COMMAND}"
  "QUILL_CPACK=${CMAKE_CPACK_COMMAND}"
  "QUILL_CONFIGURED_PREFIX=${CMAKE_INSTALL_PREFIX}"
  "QUILL_MODULESDIR=${QUILL_MODULESDIR}"
  "QUILL_SYSTEM_MODULESDIR=${QUILL_SYSTEM_MODULESDIR}"
  "QUILL_DEB_MODULESDIR=${QUILL_DEB_MODULESDIR}"
  "QUILL_SANITIZE=${QUILL_SANITIZE}")
# The programs the build installs (cmake/install.cmake), known at generate
# time whichever directory defines them.
set(QUILL_PACKAGE_PROGRAMS
    "$<$<TARGET_EXISTS:quill-speed>:quill-speed>" "$<$<TARGET_EXISTS:quill-info>:quill-info>")
foreach(t deb install)
  add_test(NAME package_${t}
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/package/package_${t}.sh
                   ${QUILL_PACKAGE_PROGRAMS})
  set_tests_properties(package_${t} PROPERTIES ENVIRONMENT "${QUILL_PACKAGE_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS package
                       RESOURCE_LOCK quill_install_manifest)
endforeach()
