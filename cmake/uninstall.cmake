# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# uninstall.cmake: the `uninstall` target (cmake/install.cmake).
#   cmake -DQUILL_MANIFEST=<build>/install_manifest.txt -P uninstall.cmake
# Removes every file that QUILL_MANIFEST lists (the last `cmake --install`
# or `make install` from that build tree wrote it; cpack writes its own,
# install_manifest_Unspecified.txt; $DESTDIR, if set, goes in front of
# each path, as at install), says which it removed
# and which were already gone, removes quill's own documentation directory
# if that is left empty, then the manifest itself.  With no manifest it says
# that nothing was installed from this build tree and succeeds.  A file it
# cannot remove (permissions) is an error, and the manifest is kept.

if(NOT QUILL_MANIFEST)
  message(FATAL_ERROR "usage: cmake -DQUILL_MANIFEST=<build>/install_manifest.txt -P uninstall.cmake")
endif()
if(NOT EXISTS "${QUILL_MANIFEST}")
  message(STATUS "quill uninstall: nothing to uninstall: ${QUILL_MANIFEST} does not exist "
                 "(nothing was installed from this build tree, or it was uninstalled already)")
  return()
endif()

file(STRINGS "${QUILL_MANIFEST}" _files)
set(_removed 0)
set(_absent 0)
set(_dirs "")
foreach(_f IN LISTS _files)
  set(_path "$ENV{DESTDIR}${_f}")
  if(EXISTS "${_path}" OR IS_SYMLINK "${_path}")
    file(REMOVE "${_path}")
    if(EXISTS "${_path}" OR IS_SYMLINK "${_path}")
      message(FATAL_ERROR "quill uninstall: cannot remove ${_path} "
                          "(uninstall as the user who installed it; manifest kept)")
    endif()
    message(STATUS "removed ${_path}")
    math(EXPR _removed "${_removed} + 1")
    get_filename_component(_dir "${_path}" DIRECTORY)
    list(APPEND _dirs "${_dir}")
  else()
    message(STATUS "already absent: ${_path}")
    math(EXPR _absent "${_absent} + 1")
  endif()
endforeach()

# quill's documentation directory (share/doc/quill) is its own: remove it
# once empty.  Shared directories (bin, ossl-modules) stay.
list(REMOVE_DUPLICATES _dirs)
foreach(_dir IN LISTS _dirs)
  get_filename_component(_name "${_dir}" NAME)
  file(GLOB _left "${_dir}/*" "${_dir}/.*")
  if(_name STREQUAL "quill" AND NOT _left)
    file(REMOVE_RECURSE "${_dir}")
    message(STATUS "removed empty directory ${_dir}")
  endif()
endforeach()

file(REMOVE "${QUILL_MANIFEST}")
list(LENGTH _files _total)
message(STATUS "quill uninstall: removed ${_removed} of the ${_total} files listed in "
               "${QUILL_MANIFEST} (${_absent} already absent); manifest removed")
