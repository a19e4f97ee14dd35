/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * RSA's key arithmetic on top of bn.h: lcm(p-1, q-1), e^-1 mod lambda, and
 * the name under which RSA makes Montgomery contexts of secret moduli.  All
 * constant time in the values; see internal.h for the contracts. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/zeroize.h"
#include "rsa/internal.h"

int quill_rsa_lambda_consttime(quill_limb *lambda, size_t out_n, const quill_limb *p, size_t pl,
                               const quill_limb *q, size_t ql) {
    size_t n = pl > ql ? pl : ql;
    quill_limb *buf = quill_calloc(7 * n, sizeof(quill_limb));
    if (buf == NULL)
        return 0;
    quill_limb *x = buf, *y = buf + n, *g = buf + 2 * n, *yq = buf + 3 * n, *rem = buf + 4 * n;
    quill_limb *prod = buf + 5 * n; /* 2n limbs */
    memcpy(x, p, pl * sizeof(quill_limb));
    memcpy(y, q, ql * sizeof(quill_limb));
    x[0] &= ~(quill_limb)1; /* p odd: p - 1 */
    y[0] &= ~(quill_limb)1;
    /* lcm(x, y) = x * (y / gcd(x, y)). */
    quill_bn_gcd_consttime(g, x, y, n);
    int ok = quill_bn_divmod_consttime(yq, rem, y, n, g, n);
    if (ok) {
        quill_bn_mul(prod, x, n, yq, n);
        memset(lambda, 0, out_n * sizeof(quill_limb));
        memcpy(lambda, prod, (out_n < 2 * n ? out_n : 2 * n) * sizeof(quill_limb));
    }
    quill_zeroize(buf, 7 * n * sizeof(quill_limb));
    quill_free(buf);
    return ok;
}

quill_word quill_rsa_inv_e_consttime(quill_limb *d, const quill_limb *lambda, size_t nd,
                                     const quill_limb *e, size_t el) {
    size_t nt = nd + el;
    quill_limb *buf = quill_calloc(3 * el + 2 * nt, sizeof(quill_limb));
    if (buf == NULL) {
        memset(d, 0, nd * sizeof(quill_limb));
        return 0;
    }
    quill_limb *lm = buf, *u = buf + el, *rem = buf + 2 * el, *t = buf + 3 * el, *quot = t + nt;
    quill_word ok = 0;
    /* k = -lambda^-1 mod e makes 1 + k * lambda divisible by e; the
     * quotient d satisfies d * e = 1 + k * lambda == 1 mod lambda and
     * d < lambda because k < e. */
    if (quill_bn_divmod_consttime(NULL, lm, lambda, nd, e, el)) {
        ok = quill_bn_inv_mod_odd_consttime(u, lm, e, el);
        (void)quill_bn_sub(u, e, u, el); /* k = e - u, in [1, e) when ok */
        quill_bn_mul(t, u, el, lambda, nd);
        (void)quill_bn_add_word_consttime(t, nt, 1); /* < e * lambda: no carry out */
        if (quill_bn_divmod_consttime(quot, rem, t, nt, e, el))
            ok &= quill_bn_is_zero_mask(rem, el);
        else
            ok = 0;
    }
    for (size_t i = 0; i < nd; i++)
        d[i] = ok & quot[i];
    quill_zeroize(buf, (3 * el + 2 * nt) * sizeof(quill_limb));
    quill_free(buf);
    return ok;
}

quill_mont *quill_rsa_mont_new_secret(const quill_limb *m, size_t n) {
    /* quill_mont_new computes its checks as masks and declassifies only the
     * verdict: nothing to declassify here any more. */
    return quill_mont_new(m, n);
}
