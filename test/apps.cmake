# SPDX-License-Identifier: Apache-2.0
# Real applications on loopback with quill active (test/apps/, label apps):
#   apps_nginx   Debian's nginx (master and two workers, own prefix and
#                config in a temporary directory) serving TLS 1.3 and 1.2
#                with RSA-2048 and P-256 certificates to curl
#                (test/apps/apps_nginx.sh)
#   apps_python  Python's ssl module as server and client
#                (test/apps/apps_python.sh, test/apps/apps_tls.py)
# Each asserts from quill's live counters (a statistics directory set in a
# copy of openssl.cnf.example, read with quill-info --stats; all of it in
# test/apps/apps_lib.sh) that quill signed in the server and
# verified in the client, exactly once per handshake, and that a control run
# without quill's configuration leaves no counts.  Skipped (77) without
# nginx, curl or python3.  Ports: nginx takes random ones and retries when
# they are taken, the Python server lets the kernel pick, so the tests run
# in parallel with each other and with themselves.  About 2 s each here
# (release build, ctest -L apps -j2: 2.3 s in all).
# With QUILL_SANITIZE=ON the scripts preload the sanitizer runtimes of the
# compiler named by QUILL_CC into the applications, as test/cli does; curl
# hangs at start with them (Debian 12), so there it runs without quill and
# apps_nginx checks nginx's side only, saying so (4.4 s, 3 s of it the probe).
# Not in a cross build: the host's nginx, curl and python3 cannot load the
# target's quill.so.

if(CMAKE_CROSSCOMPILING)
  return()
endif()
foreach(app nginx python)
  add_test(NAME apps_${app} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/apps/apps_${app}.sh)
  set_tests_properties(apps_${app} PROPERTIES ENVIRONMENT "${QUILL_PRELOAD_TEST_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS apps)
endforeach()
