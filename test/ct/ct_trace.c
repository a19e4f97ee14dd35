/* Copyright quill authors.
 *
 * ct_trace: control-flow equivalence of the AVX-512 backends, which
 * valgrind's memcheck cannot run (valgrind 3.19 has no AVX-512 and hides it
 * from CPUID, so test/ct never reaches this code; see test/ct.cmake).
 *
 * A child process runs each kernel on several sets of random secret inputs
 * (moduli, bases, exponents; polynomials; Keccak states), each call between
 * a breakpoint (INT3) and an empty marker function.  The parent
 * single-steps it from the one to the other with ptrace and hashes the
 * address of every instruction executed inside this executable's text,
 * which holds quill's statically linked core.  Calls into the C library
 * (memset, the allocator, whose paths depend on the heap's history and not
 * on the inputs) are run over at full speed and left out.  Every input set
 * of a kernel must give the same instruction count and the same hash: a
 * branch on a secret, or a loop whose trip count depends on one, changes
 * the trace.  Addresses of memory accesses are not compared; the kernels
 * index memory by public counters only (each file says so).
 *
 * Covered: the two-way IFMA exponentiation of the RSA CRT halves with a
 * one-limb exponent (its driver, window table, gathers, conversions and
 * kernels), its squaring and almost-Montgomery product at every supported
 * size, the AVX-512VL NTT, inverse NTT, pointwise and dot products of
 * ML-DSA, and the AVX-512VL Keccak permutations.  A negative control, a
 * loop as long as its secret, must give different traces: it shows that
 * the harness sees such a leak.
 *
 * Exits 77 (skipped) on a CPU without AVX-512 IFMA, under a QUILL_CPU_MASK
 * that clears it, or where ptrace is not permitted. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bn/bn.h"
#include "bn/exp_ifma.h"
#include "common/cpu.h"
#include "mldsa/ntt.h"
#include "sha3/keccak.h"
#include "test_util.h"

#define RUNS 3 /* input sets per kernel */
#define MAXN 32
#define Q 8380417

extern char __executable_start, etext;

/* ---- The kernels, as the child runs them ---- */

static uint64_t rnd(void) {
    return qt_rng_u64();
}

/* A random odd modulus of n limbs with its top bit set, and a base below
 * it (top limb halved). */
static void make_modulus(quill_limb *m, quill_limb *a, size_t n) {
    for (size_t i = 0; i < n; i++) {
        m[i] = rnd();
        a[i] = rnd();
    }
    m[0] |= 1;
    m[n - 1] |= (quill_limb)1 << 63;
    a[n - 1] = m[n - 1] >> 1;
}

typedef struct {
    quill_limb m[2][MAXN], a[2][MAXN + 1], e[2][1], r[2][MAXN + 1], s[2][MAXN + 1];
    quill_mont *mont[2];
    int32_t pa[7][QUILL_MLDSA_N], pb[7][QUILL_MLDSA_N], acc[QUILL_MLDSA_N];
    uint64_t keccak[100];
    unsigned run; /* which input set (the control's secret) */
} inputs;

/* The negative control: a deliberate leak, as long as its secret s (the
 * loop cannot become a closed form: acc goes through memory). */
__attribute__((noinline)) static void leaky(volatile uint64_t *acc, unsigned s) {
    for (unsigned i = 0; i <= s; i++)
        *acc += i;
}

static void ifma_setup(inputs *in, size_t n) {
    for (int l = 0; l < 2; l++) {
        make_modulus(in->m[l], in->a[l], n);
        in->a[l][n] = 0;
        in->e[l][0] = rnd();
        in->mont[l] = quill_mont_new(in->m[l], n);
        if (in->mont[l] == NULL)
            abort();
    }
}

static void ifma_teardown(inputs *in) {
    quill_mont_free(in->mont[0]);
    quill_mont_free(in->mont[1]);
}

static void poly_fill(int32_t *p, int32_t bound) {
    for (int i = 0; i < QUILL_MLDSA_N; i++)
        p[i] = (int32_t)(rnd() % (uint64_t)(2 * bound - 1)) - (bound - 1);
}

typedef enum {
    K_EXP8,
    K_SQR8,
    K_SQR16,
    K_SQR24,
    K_SQR32,
    K_NTT,
    K_INVNTT,
    K_INVNTT_FREEZE,
    K_POINTWISE,
    K_DOT,
    K_KECCAK_X4,
    K_KECCAK_X1,
    K_CONTROL,
    K_COUNT
} kernel;

static const char *const kernel_names[K_COUNT] = {
    "IFMA exponentiation, 2 x 512-bit moduli, 64-bit exponents",
    "IFMA squaring and product, 512-bit",
    "IFMA squaring and product, 1024-bit",
    "IFMA squaring and product, 1536-bit",
    "IFMA squaring and product, 2048-bit",
    "ML-DSA NTT (AVX-512VL)",
    "ML-DSA inverse NTT (AVX-512VL)",
    "ML-DSA inverse NTT, frozen (AVX-512VL)",
    "ML-DSA pointwise product (AVX-512VL)",
    "ML-DSA dot product of 7 (AVX-512VL)",
    "Keccak-f[1600] four-way (AVX-512VL)",
    "Keccak-f[1600] single (AVX-512VL)",
    "negative control: a loop as long as a secret (must differ)",
};

static const size_t sqr_limbs[K_COUNT] = {[K_SQR8] = 8, [K_SQR16] = 16, [K_SQR24] = 24,
                                          [K_SQR32] = 32};

static void setup(inputs *in, kernel k) {
    switch (k) {
    case K_EXP8:
        ifma_setup(in, 8);
        break;
    case K_SQR8:
    case K_SQR16:
    case K_SQR24:
    case K_SQR32:
        ifma_setup(in, sqr_limbs[k]);
        break;
    case K_NTT:
    case K_INVNTT:
    case K_INVNTT_FREEZE:
        poly_fill(in->pb[0], Q);
        break;
    case K_POINTWISE:
    case K_DOT:
        for (int j = 0; j < 7; j++) {
            for (int i = 0; i < QUILL_MLDSA_N; i++)
                in->pa[j][i] = (int32_t)(rnd() % Q); /* A-hat: [0, q) */
            poly_fill(in->pb[j], 9 * Q);              /* NTT outputs: (-9q, 9q) */
        }
        break;
    case K_KECCAK_X4:
    case K_KECCAK_X1:
        qt_rng_bytes(in->keccak, sizeof(in->keccak));
        break;
    case K_CONTROL:
    case K_COUNT:
        break;
    }
}

/* The traced part: between the two stops, nothing but the kernel. */
static int run(inputs *in, kernel k) {
    switch (k) {
    case K_EXP8:
        return quill_mont_exp_consttime_x2_ifma(in->r[0], in->a[0], in->e[0], in->mont[0], in->r[1],
                                                in->a[1], in->e[1], in->mont[1], 1);
    case K_SQR8:
    case K_SQR16:
    case K_SQR24:
    case K_SQR32:
        return quill_mont_sqr_x2_ifma_for_testing(in->r[0], in->s[0], in->a[0], in->mont[0],
                                                  in->r[1], in->s[1], in->a[1], in->mont[1]);
    case K_NTT:
        quill_mldsa_ntt_avx512vl(in->pb[0]);
        return 1;
    case K_INVNTT:
        quill_mldsa_invntt_tomont_avx512vl(in->pb[0]);
        return 1;
    case K_INVNTT_FREEZE:
        quill_mldsa_invntt_tomont_freeze_avx512vl(in->pb[0]);
        return 1;
    case K_POINTWISE:
        quill_mldsa_pointwise_mont_avx512vl(in->acc, in->pa[0], in->pb[0]);
        return 1;
    case K_DOT:
        quill_mldsa_dot_mont_avx512vl(in->acc, in->pa[0], in->pb[0], 7);
        return 1;
    case K_KECCAK_X4:
        quill_keccak_f1600_x4_avx512vl(in->keccak);
        return 1;
    case K_KECCAK_X1:
        quill_keccak_f1600_avx512vl(in->keccak);
        return 1;
    case K_CONTROL:
        leaky(&in->keccak[0], in->run);
        return 1;
    case K_COUNT:
        break;
    }
    return 0;
}

static void teardown(inputs *in, kernel k) {
    if (k <= K_SQR32)
        ifma_teardown(in);
}

static int ifma_usable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX512VL | QUILL_CPU_X86_AVX512IFMA) &&
           quill_mldsa_avx512vl_capable() && quill_keccak_f1600_x4_avx512vl_capable() &&
           quill_keccak_f1600_avx512vl_capable();
}

/* The end marker: the parent stops tracing when the child reaches it. */
__attribute__((noinline)) static void trace_end(void) {
    __asm__ __volatile__("" ::: "memory");
}

/* The child: each kernel RUNS times between a breakpoint (INT3, the start)
 * and trace_end. */
static void child(void) {
    if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
        _exit(77);
    static inputs in;
    qt_rng_seed(20261204);
    /* Warm-up outside the traces: the CPU probe, lazy binding, first-use
     * paths. */
    for (int k = 0; k < K_COUNT; k++) {
        setup(&in, (kernel)k);
        if (!run(&in, (kernel)k))
            _exit(2);
        teardown(&in, (kernel)k);
    }
    raise(SIGSTOP); /* the parent is ready */
    for (int k = 0; k < K_COUNT; k++) {
        for (int r = 0; r < RUNS; r++) {
            setup(&in, (kernel)k);
            in.run = (unsigned)r;
            __asm__ __volatile__("int3" ::: "memory");
            int ok = run(&in, (kernel)k);
            trace_end();
            if (!ok)
                _exit(2);
            teardown(&in, (kernel)k);
        }
    }
    _exit(0);
}

/* ---- The parent: tracing ---- */

typedef struct {
    unsigned long steps; /* instructions inside the executable */
    uint64_t hash;       /* FNV-1a over their addresses */
} trace;

/* Waits for the child's next stop; returns the signal, or -1 if it ended
 * (its exit status in *status). */
static int wait_stop(pid_t pid, int *status) {
    if (waitpid(pid, status, 0) != pid || !WIFSTOPPED(*status))
        return -1;
    return WSTOPSIG(*status);
}

static int in_text(uintptr_t a) {
    return a >= (uintptr_t)&__executable_start && a < (uintptr_t)&etext;
}

/* Runs the child over a call into code outside this executable (the C
 * library: memset, the allocator), which it entered by a call or a tail
 * call from inside, so that the return address is on top of the stack: a
 * breakpoint there, PTRACE_CONT, and the original byte back.  Single-stepping
 * through it instead would count every iteration of a REP STOSB. */
static int skip_outside(pid_t pid, struct user_regs_struct *regs) {
    errno = 0;
    const uintptr_t ret = (uintptr_t)ptrace(PTRACE_PEEKDATA, pid, (void *)regs->rsp, NULL);
    if (errno != 0 || !in_text(ret))
        return 0;
    const long word = ptrace(PTRACE_PEEKTEXT, pid, (void *)ret, NULL);
    if (errno != 0)
        return 0;
    const long trap = (long)(((unsigned long)word & ~0xfful) | 0xcc);
    if (ptrace(PTRACE_POKETEXT, pid, (void *)ret, (void *)trap) != 0)
        return 0;
    int status, ok = ptrace(PTRACE_CONT, pid, NULL, NULL) == 0 && wait_stop(pid, &status) == SIGTRAP;
    ok = ok && ptrace(PTRACE_GETREGS, pid, NULL, regs) == 0 && regs->rip == ret + 1;
    ok = ok && ptrace(PTRACE_POKETEXT, pid, (void *)ret, (void *)word) == 0;
    regs->rip = ret;
    return ok && ptrace(PTRACE_SETREGS, pid, NULL, regs) == 0;
}

/* From the start breakpoint, single-steps to trace_end. */
static int trace_call(pid_t pid, trace *t) {
    t->steps = 0;
    t->hash = 0xcbf29ce484222325u;
    for (;;) {
        int status;
        struct user_regs_struct regs;
        if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) != 0 || wait_stop(pid, &status) != SIGTRAP ||
            ptrace(PTRACE_GETREGS, pid, NULL, &regs) != 0)
            return 0;
        if (!in_text(regs.rip) && !skip_outside(pid, &regs))
            return 0;
        if (regs.rip == (uintptr_t)&trace_end)
            return 1;
        t->steps++;
        t->hash = (t->hash ^ (uint64_t)regs.rip) * 0x100000001b3u;
    }
}

int main(void) {
    if (!ifma_usable()) {
        printf("ct_trace: skipped (no AVX-512 IFMA/VL, or masked)\n");
        return 77;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0)
        child();

    int status, sig = wait_stop(pid, &status);
    if (sig != SIGSTOP) { /* the child could not be traced */
        if (sig < 0 && WIFEXITED(status) && WEXITSTATUS(status) == 77) {
            printf("ct_trace: skipped (ptrace not permitted)\n");
            return 77;
        }
        fprintf(stderr, "ct_trace: the child ended or stopped before tracing\n");
        return 1;
    }
    for (int k = 0; k < K_COUNT; k++) {
        trace t[RUNS];
        int traced = 1;
        for (int r = 0; r < RUNS && traced; r++) {
            /* on to the next start breakpoint, then step */
            traced = ptrace(PTRACE_CONT, pid, NULL, NULL) == 0 &&
                     wait_stop(pid, &status) == SIGTRAP && trace_call(pid, &t[r]);
        }
        QT_CHECK(traced);
        if (!traced) {
            fprintf(stderr, "ct_trace: lost the child at %s\n", kernel_names[k]);
            break;
        }
        int same = 1;
        for (int r = 1; r < RUNS; r++)
            same &= t[r].steps == t[0].steps && t[r].hash == t[0].hash;
        QT_CHECK(t[0].steps > 0);
        if (k == K_CONTROL)
            QT_CHECK(!same); /* the harness sees a leak */
        else
            QT_CHECK(same);
        printf("  %-58s %8lu", kernel_names[k], t[0].steps);
        for (int r = 1; r < RUNS; r++)
            printf(" %s %lu", t[r].hash == t[0].hash ? "=" : "DIFFERENT", t[r].steps);
        printf(" instructions\n");
    }
    ptrace(PTRACE_CONT, pid, NULL, NULL);
    waitpid(pid, &status, 0);
    QT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0); /* the child finished cleanly */
    return qt_finish("ct_trace");
}
