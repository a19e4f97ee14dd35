/* Copyright quill authors.
 *
 * x86-64 MULX/ADCX/ADOX P-256 Montgomery products
 * (asm/x86_64/p256_fe_adx.S), internal to core/ec.  Each has a portable
 * twin that stays the oracle: quill_p256_fe_mul_inline / _sqr_inline
 * (p256_fe_inline.h) and quill_p256_scalar_mul_c (p256_scalar.c).
 *
 * Limb arrays are four 64-bit words, little-endian.  Bounds and results are
 * those of the C twins: inputs fully reduced, outputs fully reduced, out
 * may alias an input.  Constant time (values may be secret).  None can
 * fail.  Call only when quill_p256_adx_capable() is true.
 *
 * Only the scalar product is dispatched to (quill_p256_scalar_mul and the
 * constant-time scalar inversion): it is about 1.6x faster than its C twin.
 * The field products are not, gcc 12's inlined C being as fast on Zen 4
 * (measurements in p256_fe.c). */
#ifndef QUILL_EC_P256_ADX_H
#define QUILL_EC_P256_ADX_H

#include <stdint.h>

#include "common/cpu.h"

#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
#define QUILL_P256_HAVE_ADX 1

/* quill_p256_fe_mul_adx sets out = a b R^-1 mod p.  In: a, b < p. */
void quill_p256_fe_mul_adx(uint64_t out[4], const uint64_t a[4], const uint64_t b[4]);

/* quill_p256_fe_sqr_adx sets out = a^2 R^-1 mod p.  In: a < p. */
void quill_p256_fe_sqr_adx(uint64_t out[4], const uint64_t a[4]);

/* quill_p256_scalar_mul_adx sets out = a b R^-1 mod n.  In: a, b < n. */
void quill_p256_scalar_mul_adx(uint64_t out[4], const uint64_t a[4], const uint64_t b[4]);

/* quill_p256_adx_capable returns nonzero when the CPU has BMI2 and ADX and
 * QUILL_CPU_MASK does not clear them. */
static inline int quill_p256_adx_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_BMI2 | QUILL_CPU_X86_ADX);
}
#else
static inline int quill_p256_adx_capable(void) {
    return 0;
}
#endif

#endif
