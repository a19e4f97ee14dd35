/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Full TLS 1.3 handshakes in one process (speed_tls in speed.h): a client
 * and a server SSL object, made fresh for every handshake from two SSL_CTXs
 * of one library context, talk over a memory BIO pair; each side's
 * SSL_do_handshake is called in turn until both are done.  Key exchange
 * X25519, no resumption, no tickets, no client certificate.  The client
 * verifies the server's chain against its CA and the name "localhost" as
 * a real client does; the server signs its CertificateVerify with its key.
 *
 * Where the time goes.  SPEED_PH_CLIENT and SPEED_PH_SERVER are the time
 * spent inside each side's SSL_do_handshake calls.  The rest is read off
 * the clock in the message callback, which libssl calls when it has written
 * a handshake message, and when it has read one, just before processing it:
 *
 *   client key exchange   from the first call to the ClientHello written
 *                         (the X25519 key generation, the random and the
 *                         extensions), plus from the ServerHello read to
 *                         the EncryptedExtensions read (X25519 derivation,
 *                         the handshake key schedule, one record decrypted);
 *   client certificate    from the Certificate read to the CertificateVerify
 *                         read: parsing the certificate (its public key
 *                         decoded) and verifying the chain, the latter
 *                         also timed alone (SPEED_PH_C_CHAIN) around
 *                         X509_verify_cert in the certificate verification
 *                         callback (which then is what libssl calls);
 *   client CertificateVerify  from the CertificateVerify read to the
 *                         Finished read: the transcript hash and the
 *                         server's signature checked with the public key
 *                         decoded from the certificate of this handshake
 *                         (a key used once);
 *   server key exchange   from the ClientHello read to the
 *                         EncryptedExtensions written (X25519 key
 *                         generation and derivation, the key schedule);
 *   server signing        from the Certificate written to the
 *                         CertificateVerify written.
 *
 * The intervals contain some neighbouring work (record decryption,
 * transcript hashing: microseconds at most); the "rest" of each side is its
 * total minus its intervals.  Two clock reads per message cost well under a
 * microsecond per handshake, on both contexts alike. */
#include "speed.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

/* Handshake message types (RFC 8446, section 4). */
enum {
    MT_CLIENT_HELLO = 1,
    MT_SERVER_HELLO = 2,
    MT_ENCRYPTED_EXTENSIONS = 8,
    MT_CERTIFICATE = 11,
    MT_CERTIFICATE_VERIFY = 15,
    MT_FINISHED = 20,
    MT_COUNT = 24
};

/* One side's clock readings in one handshake (0: not seen). */
typedef struct marks {
    uint64_t first; /* the start of its first SSL_do_handshake call */
    uint64_t sent[MT_COUNT], recv[MT_COUNT];
} marks;

struct speed_tls {
    OSSL_LIB_CTX *libctx; /* not owned */
    SSL_CTX *server, *client;
    uint64_t chain_ns; /* X509_verify_cert in the current handshake */
    int chain_calls;
};

static void on_msg(int write_p, int version, int content_type, const void *buf, size_t len,
                   SSL *ssl, void *arg) {
    (void)version;
    (void)ssl;
    if (content_type != SSL3_RT_HANDSHAKE || len < 1 || arg == NULL)
        return;
    marks *m = arg;
    unsigned type = ((const unsigned char *)buf)[0];
    if (type < MT_COUNT)
        (write_p ? m->sent : m->recv)[type] = speed_now_ns();
}

/* The certificate verification callback: what libssl would call, timed. */
static int on_verify(X509_STORE_CTX *ctx, void *arg) {
    speed_tls *t = arg;
    uint64_t t0 = speed_now_ns();
    int ok = X509_verify_cert(ctx);
    t->chain_ns += speed_now_ns() - t0;
    t->chain_calls++;
    return ok;
}

static X509 *cert_from_pem(OSSL_LIB_CTX *libctx, const char *pem) {
    BIO *bio = BIO_new_mem_buf(pem, -1);
    X509 *x = X509_new_ex(libctx, NULL);
    /* Decoded into the object made for |libctx|: its public key too. */
    if (bio == NULL || x == NULL || PEM_read_bio_X509(bio, &x, NULL, NULL) == NULL) {
        X509_free(x);
        x = NULL;
    }
    BIO_free(bio);
    return x;
}

static EVP_PKEY *key_from_pem(OSSL_LIB_CTX *libctx, const char *pem) {
    BIO *bio = BIO_new_mem_buf(pem, -1);
    EVP_PKEY *key = bio != NULL ? PEM_read_bio_PrivateKey_ex(bio, NULL, NULL, NULL, libctx, NULL)
                                : NULL;
    BIO_free(bio);
    return key;
}

/* What both sides share: TLS 1.3 only, X25519 only, no session cache. */
static SSL_CTX *ctx_new(OSSL_LIB_CTX *libctx, int server) {
    SSL_CTX *c = SSL_CTX_new_ex(libctx, NULL, server ? TLS_server_method() : TLS_client_method());
    if (c == NULL)
        return NULL;
    SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_msg_callback(c, on_msg);
    if (SSL_CTX_set_min_proto_version(c, TLS1_3_VERSION) != 1 ||
        SSL_CTX_set_max_proto_version(c, TLS1_3_VERSION) != 1 ||
        SSL_CTX_set1_groups_list(c, "X25519") != 1 ||
        (server && SSL_CTX_set_num_tickets(c, 0) != 1)) {
        SSL_CTX_free(c);
        return NULL;
    }
    return c;
}

/* A client that verifies the server (and trusts |ca| if not NULL). */
static SSL_CTX *client_new(speed_tls *t, X509 *ca) {
    SSL_CTX *c = ctx_new(t->libctx, 0);
    if (c == NULL)
        return NULL;
    SSL_CTX_set_verify(c, SSL_VERIFY_PEER, NULL);
    SSL_CTX_set_cert_verify_callback(c, on_verify, t);
    if ((ca != NULL && X509_STORE_add_cert(SSL_CTX_get_cert_store(c), ca) != 1) ||
        X509_VERIFY_PARAM_set1_host(SSL_CTX_get0_param(c), SPEED_PKI_HOST, 0) != 1) {
        SSL_CTX_free(c);
        return NULL;
    }
    return c;
}

speed_tls *speed_tls_new(OSSL_LIB_CTX *libctx, const speed_pki *pki) {
    speed_tls *t = calloc(1, sizeof(*t));
    X509 *leaf = cert_from_pem(libctx, pki->leaf_cert);
    X509 *ca = cert_from_pem(libctx, pki->ca_cert);
    EVP_PKEY *key = key_from_pem(libctx, pki->leaf_key);
    int ok = t != NULL && leaf != NULL && ca != NULL && key != NULL;
    if (ok) {
        t->libctx = libctx;
        t->server = ctx_new(libctx, 1);
        t->client = client_new(t, ca);
        ok = t->server != NULL && t->client != NULL &&
             SSL_CTX_use_certificate(t->server, leaf) == 1 &&
             SSL_CTX_use_PrivateKey(t->server, key) == 1 &&
             SSL_CTX_check_private_key(t->server) == 1;
    }
    X509_free(leaf);
    X509_free(ca);
    EVP_PKEY_free(key);
    if (!ok) {
        fprintf(stderr, "quill-speed: cannot set up the TLS contexts\n");
        ERR_print_errors_fp(stderr);
        speed_tls_free(t);
        return NULL;
    }
    return t;
}

void speed_tls_free(speed_tls *t) {
    if (t == NULL)
        return;
    SSL_CTX_free(t->server);
    SSL_CTX_free(t->client);
    free(t);
}

/* A connection: fresh SSL objects over a new BIO pair. */
typedef struct conn {
    SSL *c, *s;
    marks mc, ms;
} conn;

static int conn_open(conn *k, SSL_CTX *client, SSL_CTX *server) {
    memset(k, 0, sizeof(*k));
    BIO *bc = NULL, *bs = NULL;
    k->c = SSL_new(client);
    k->s = SSL_new(server);
    if (k->c == NULL || k->s == NULL || BIO_new_bio_pair(&bc, 0, &bs, 0) != 1)
        return 0;
    SSL_set_bio(k->c, bc, bc);
    SSL_set_bio(k->s, bs, bs);
    SSL_set_connect_state(k->c);
    SSL_set_accept_state(k->s);
    SSL_set_msg_callback_arg(k->c, &k->mc);
    SSL_set_msg_callback_arg(k->s, &k->ms);
    return SSL_set_tlsext_host_name(k->c, SPEED_PKI_HOST) == 1;
}

static void conn_close(conn *k) {
    SSL_free(k->c);
    SSL_free(k->s);
}

/* Each side's SSL_do_handshake in a function of its own, so that a profile
 * can tell them apart (callgrind_annotate --inclusive=yes: hs_client,
 * hs_server); the empty asm keeps them from becoming tail calls. */
__attribute__((noinline)) static int hs_client(SSL *ssl) {
    int r = SSL_do_handshake(ssl);
    __asm__ volatile("" ::: "memory");
    return r;
}

__attribute__((noinline)) static int hs_server(SSL *ssl) {
    int r = SSL_do_handshake(ssl);
    __asm__ volatile("" ::: "memory");
    return r;
}

/* One SSL_do_handshake call (through |hs|), timed into *ns; 0 on a hard
 * error. */
static int step(SSL *ssl, int (*hs)(SSL *), marks *m, int *done, uint64_t *ns) {
    uint64_t t0 = speed_now_ns();
    if (m->first == 0)
        m->first = t0;
    int r = hs(ssl);
    *ns += speed_now_ns() - t0;
    if (r == 1) {
        *done = 1;
        return 1;
    }
    int e = SSL_get_error(ssl, r);
    return e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE;
}

/* b - a for two readings taken in that order; 0 if one is missing. */
static uint64_t span(uint64_t a, uint64_t b) {
    return a != 0 && b >= a ? b - a : 0;
}

/* Runs the handshake of |k| and writes its phases to *ph; 0 if it failed
 * or did not go through the expected messages. */
static int handshake(speed_tls *t, conn *k, speed_phases *ph) {
    memset(ph, 0, sizeof(*ph));
    t->chain_ns = 0;
    t->chain_calls = 0;
    int cdone = 0, sdone = 0;
    /* A TLS 1.3 handshake takes two calls on each side. */
    for (int i = 0; i < 8 && !(cdone && sdone); i++) {
        if (!cdone && !step(k->c, hs_client, &k->mc, &cdone, &ph->ns[SPEED_PH_CLIENT]))
            return 0;
        if (!sdone && !step(k->s, hs_server, &k->ms, &sdone, &ph->ns[SPEED_PH_SERVER]))
            return 0;
    }
    const marks *c = &k->mc, *s = &k->ms;
    if (!cdone || !sdone || c->sent[MT_CLIENT_HELLO] == 0 || c->recv[MT_SERVER_HELLO] == 0 ||
        c->recv[MT_ENCRYPTED_EXTENSIONS] == 0 || c->recv[MT_CERTIFICATE] == 0 ||
        c->recv[MT_CERTIFICATE_VERIFY] == 0 || c->recv[MT_FINISHED] == 0 ||
        s->recv[MT_CLIENT_HELLO] == 0 || s->sent[MT_ENCRYPTED_EXTENSIONS] == 0 ||
        s->sent[MT_CERTIFICATE] == 0 || s->sent[MT_CERTIFICATE_VERIFY] == 0)
        return 0;
    ph->ns[SPEED_PH_C_KX] = span(c->first, c->sent[MT_CLIENT_HELLO]) +
                            span(c->recv[MT_SERVER_HELLO], c->recv[MT_ENCRYPTED_EXTENSIONS]);
    ph->ns[SPEED_PH_C_CERT] = span(c->recv[MT_CERTIFICATE], c->recv[MT_CERTIFICATE_VERIFY]);
    ph->ns[SPEED_PH_C_CHAIN] = t->chain_ns;
    ph->ns[SPEED_PH_C_CV] = span(c->recv[MT_CERTIFICATE_VERIFY], c->recv[MT_FINISHED]);
    ph->ns[SPEED_PH_S_KX] = span(s->recv[MT_CLIENT_HELLO], s->sent[MT_ENCRYPTED_EXTENSIONS]);
    ph->ns[SPEED_PH_S_SIGN] = span(s->sent[MT_CERTIFICATE], s->sent[MT_CERTIFICATE_VERIFY]);
    return t->chain_calls == 1 && SSL_get_verify_result(k->c) == X509_V_OK;
}

int speed_tls_handshake(speed_tls *t, speed_phases *acc) {
    conn k;
    speed_phases ph;
    int ok = conn_open(&k, t->client, t->server) && handshake(t, &k, &ph);
    conn_close(&k);
    if (!ok)
        return 0;
    for (size_t i = 0; i < SPEED_PH_COUNT; i++)
        acc->ns[i] += ph.ns[i];
    return 1;
}

/* A handshake that the client must refuse with verification error |want|:
 * |client| lacks the CA, or |host| is not the certificate's name. */
static int refused(speed_tls *t, SSL_CTX *client, const char *host, long want) {
    conn k;
    speed_phases ph;
    int ok = conn_open(&k, client, t->server) &&
             (host == NULL || SSL_set1_host(k.c, host) == 1) && !handshake(t, &k, &ph) &&
             SSL_get_verify_result(k.c) == want;
    conn_close(&k);
    ERR_clear_error();
    return ok;
}

int speed_tls_check(speed_tls *t, const speed_alg *alg, int negative) {
    conn k;
    speed_phases ph;
    int sig_type = 0, sig_md = 0;
    int rsa = strcmp(alg->keytype, "RSA") == 0;
    int ok = conn_open(&k, t->client, t->server) && handshake(t, &k, &ph) &&
             SSL_version(k.c) == TLS1_3_VERSION && SSL_version(k.s) == TLS1_3_VERSION &&
             !SSL_session_reused(k.c) && SSL_get_negotiated_group(k.c) == NID_X25519 &&
             SSL_get_peer_signature_type_nid(k.c, &sig_type) == 1 &&
             sig_type == (rsa ? NID_rsassaPss : NID_X9_62_id_ecPublicKey) &&
             SSL_get_peer_signature_nid(k.c, &sig_md) == 1 && sig_md == NID_sha256 &&
             SSL_get0_peer_certificate(k.c) != NULL;
    conn_close(&k);
    if (!ok) {
        fprintf(stderr, "quill-speed: the %s handshake did not go as expected (TLS 1.3, X25519, "
                        "%s with SHA-256, chain verified)\n",
                alg->label, rsa ? "RSA-PSS" : "ECDSA");
        ERR_print_errors_fp(stderr);
        return 0;
    }
    if (negative) {
        SSL_CTX *untrusting = client_new(t, NULL);
        ok = untrusting != NULL &&
             refused(t, untrusting, NULL, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY) &&
             refused(t, t->client, "wrong.example", X509_V_ERR_HOSTNAME_MISMATCH);
        SSL_CTX_free(untrusting);
        if (!ok)
            fprintf(stderr, "quill-speed: a %s client accepted a server it must refuse (no CA, "
                            "or another name)\n",
                    alg->label);
    }
    return ok;
}
