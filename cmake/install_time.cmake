# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# install_time.cmake: runs inside `cmake --install` (and cpack), after
# cmake/install.cmake has set QUILL_INSTALL_* from the configure step.
# Installs quill.so into the directory chosen by the rules documented in
# cmake/install.cmake (stripped by install/strip, `cmake --install
# --strip` and cpack), and LICENSE into the documentation directory, as
# "copyright" in the .deb.  In the .deb, cpack sets QUILL_PACKAGE_MODULESDIR
# (cmake/package.cmake).

if(QUILL_PACKAGE_MODULESDIR)
  set(_dir "${CMAKE_INSTALL_PREFIX}/${QUILL_PACKAGE_MODULESDIR}")
elseif(QUILL_INSTALL_MODULESDIR)
  cmake_path(ABSOLUTE_PATH QUILL_INSTALL_MODULESDIR BASE_DIRECTORY "${CMAKE_INSTALL_PREFIX}"
             OUTPUT_VARIABLE _dir)
else()
  set(_prefix_given FALSE)
  if(DEFINED CACHE{CMAKE_INSTALL_PREFIX})
    set(_prefix_given TRUE)
  else()
    cmake_path(COMPARE "${CMAKE_INSTALL_PREFIX}" NOT_EQUAL "${QUILL_INSTALL_CONFIGURED_PREFIX}"
               _prefix_given)
  endif()
  set(_system_under_prefix FALSE)
  if(QUILL_INSTALL_SYSTEM_MODULESDIR)
    cmake_path(IS_PREFIX CMAKE_INSTALL_PREFIX "${QUILL_INSTALL_SYSTEM_MODULESDIR}" NORMALIZE
               _system_under_prefix)
  endif()
  if(QUILL_INSTALL_SYSTEM_MODULESDIR AND (NOT _prefix_given OR _system_under_prefix))
    set(_dir "${QUILL_INSTALL_SYSTEM_MODULESDIR}")
  else()
    set(_dir "${CMAKE_INSTALL_PREFIX}/lib/ossl-modules")
  endif()
endif()
cmake_path(NORMAL_PATH _dir)
string(REGEX REPLACE "(.)/$" "\\1" _dir "${_dir}")

file(INSTALL DESTINATION "${_dir}" TYPE MODULE FILES "${QUILL_INSTALL_MODULE_FILE}")
get_filename_component(_name "${QUILL_INSTALL_MODULE_FILE}" NAME)
if(CMAKE_INSTALL_DO_STRIP)
  if(NOT QUILL_INSTALL_STRIP)
    message(FATAL_ERROR "quill: a stripped install was asked for but no strip program was found")
  endif()
  execute_process(COMMAND "${QUILL_INSTALL_STRIP}" "$ENV{DESTDIR}${_dir}/${_name}"
                  RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "quill: ${QUILL_INSTALL_STRIP} failed on $ENV{DESTDIR}${_dir}/${_name}")
  endif()
endif()

if(QUILL_PACKAGE_MODULESDIR)
  set(_license copyright)
else()
  set(_license LICENSE)
endif()
cmake_path(ABSOLUTE_PATH QUILL_INSTALL_DOCDIR BASE_DIRECTORY "${CMAKE_INSTALL_PREFIX}"
           OUTPUT_VARIABLE _docdir)
file(INSTALL DESTINATION "${_docdir}" TYPE FILE
     RENAME ${_license} FILES "${QUILL_INSTALL_LICENSE}")
