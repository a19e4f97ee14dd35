# SPDX-License-Identifier: Apache-2.0
# Live statistics (test/stats/): the statistics directory (provider setting
# `stats`, QUILL_STATS=DIR) and quill-info --stats (info/info_stats.c).
#   stats_live   workers signing through a test openssl.cnf; their files
#                read live, after SIGKILL, across fork; sums, corrupt files,
#                unusable directories, QUILL_STATS=FILE beside a directory.
#   stats_bench  N ECDSA P-256 signatures through EVP on quill, for
#                callgrind (stats directory on against off; not a test).

add_library(quill_info_stats STATIC ${PROJECT_SOURCE_DIR}/info/info_stats.c
            ${PROJECT_SOURCE_DIR}/provider/stats_proc.c)
target_include_directories(quill_info_stats PUBLIC ${PROJECT_SOURCE_DIR}/info
                           ${PROJECT_SOURCE_DIR}/provider)

# stats_live re-executes itself (/proc/self/exe) as its workers: under
# qemu-aarch64 without binfmt_misc that exec fails and the test hangs until
# its timeout (seen in the cross build), so a cross build only compiles it.
if(CMAKE_CROSSCOMPILING)
  add_executable(stats_live stats/stats_live.c)
  target_link_libraries(stats_live PRIVATE quill_testutil quill_info_stats)
else()
  quill_add_test(stats_live stats/stats_live.c LIBS quill_info_stats LABELS stats TIMEOUT 300)
endif()

add_executable(stats_bench stats/stats_bench.c)
target_link_libraries(stats_bench PRIVATE quill_testutil)
add_dependencies(stats_bench quill)
