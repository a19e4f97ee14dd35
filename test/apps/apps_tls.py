# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
"""A TLS server and client on Python's ssl module, for test/apps/apps_python.sh.

    apps_tls.py serve CERT KEY PORTFILE COUNT
        listens on 127.0.0.1 (a port the kernel picks, written to PORTFILE
        once listening), serves COUNT connections one after another, then
        exits 0; exits 1 on any failure or after 20 s.
    apps_tls.py connect CAFILE PORT VERSION SUITE COUNT
        makes COUNT connections with TLS VERSION (1.2 or 1.3) only,
        verifying the server's chain against CAFILE and its name
        (127.0.0.1); with TLS 1.2 offers SUITE alone.  Exits 0 if each
        handshake gave that version (and suite) and the server echoed it.

Each connection: the client sends "ping", the server answers
"pong VERSION CIPHER" as it saw them.  No session resumption (no tickets,
a fresh session each time), so every connection is a full handshake with
a server signature.  Every socket operation has a timeout.
"""
import os
import socket
import ssl
import sys
import time

TLS12_SUITES = "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256"
TIMEOUT = 10.0
DEADLINE = 20.0


def serve(cert, key, portfile, count):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    ctx.maximum_version = ssl.TLSVersion.TLSv1_3
    ctx.set_ciphers(TLS12_SUITES)
    ctx.options |= ssl.OP_NO_TICKET
    ctx.load_cert_chain(cert, key)
    end = time.monotonic() + DEADLINE
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as lsock:
        lsock.bind(("127.0.0.1", 0))
        lsock.listen(8)
        tmp = portfile + ".tmp"
        with open(tmp, "w", encoding="ascii") as f:
            f.write("%d\n" % lsock.getsockname()[1])
        os.rename(tmp, portfile)
        for _ in range(count):
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("server deadline passed")
            lsock.settimeout(min(left, TIMEOUT))
            conn, _addr = lsock.accept()
            conn.settimeout(TIMEOUT)
            with ctx.wrap_socket(conn, server_side=True) as tls:
                if tls.recv(16) != b"ping":
                    raise ValueError("server: bad request")
                reply = "pong %s %s" % (tls.version(), tls.cipher()[0])
                tls.sendall(reply.encode("ascii"))
    return 0


def connect(cafile, port, version, suite, count):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verifies chain and name
    ctx.load_verify_locations(cafile)
    v = {"1.2": ssl.TLSVersion.TLSv1_2, "1.3": ssl.TLSVersion.TLSv1_3}[version]
    ctx.minimum_version = v
    ctx.maximum_version = v
    if version == "1.2":
        ctx.set_ciphers(suite)
    want = "TLSv" + version
    failures = 0
    for i in range(count):
        with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
            with ctx.wrap_socket(sock, server_hostname="127.0.0.1") as tls:
                tls.sendall(b"ping")
                reply = b""
                while len(reply) < 200:
                    chunk = tls.recv(200)
                    if not chunk:
                        break
                    reply += chunk
                got = (tls.version(), tls.cipher()[0])
        words = reply.decode("ascii", "replace").split()
        good = (got[0] == want and words == ["pong", got[0], got[1]]
                and (version == "1.3" or got[1] == suite))
        print("connection %d: %s %s, server saw %s: %s"
              % (i + 1, got[0], got[1], " ".join(words[1:]), "ok" if good else "WRONG"))
        failures += not good
    return 1 if failures else 0


def main(argv):
    if len(argv) == 6 and argv[1] == "serve":
        return serve(argv[2], argv[3], argv[4], int(argv[5]))
    if len(argv) == 7 and argv[1] == "connect":
        return connect(argv[2], int(argv[3]), argv[4], argv[5], int(argv[6]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (OSError, ssl.SSLError, ValueError) as e:
        print("%s: %s: %s" % (sys.argv[1] if len(sys.argv) > 1 else "apps_tls",
                              type(e).__name__, e), file=sys.stderr)
        sys.exit(1)
