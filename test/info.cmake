# SPDX-License-Identifier: Apache-2.0
# quill-info (info/) against good and broken configurations, label info:
# one test per case of test/info/info.sh (see there): the example
# configuration (exit 0, quill active, this build's quill.so, every
# signature served and counted by quill), the portable backends, the build
# info that openssl list -providers -verbose prints, and one line on stderr
# with exit 1 for an empty or broken modules directory, a missing, quill-less,
# inactive or garbage configuration, and no default_properties; --load and
# quill-info --stats over the files of two runs; the options.
set(QUILL_INFO_CASES ok portable buildinfo modules_empty module_broken conf_missing
    conf_noquill conf_notactive conf_garbage diagnostics no_defaultprops load stats options)
# buildinfo runs the openssl CLI over this build's quill.so: not in a cross
# build (the host's openssl cannot load the target's module).
if(CMAKE_CROSSCOMPILING)
  list(REMOVE_ITEM QUILL_INFO_CASES buildinfo)
endif()
foreach(case ${QUILL_INFO_CASES})
  add_test(NAME info_${case}
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/info/info.sh ${case}
                   $<TARGET_FILE:quill-info> $<TARGET_FILE:quill> ${PROJECT_VERSION})
  set_tests_properties(info_${case} PROPERTIES ENVIRONMENT "${QUILL_PRELOAD_TEST_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS info)
endforeach()
