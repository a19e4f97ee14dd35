/* Copyright quill authors.
 *
 * ct_trace: constant-time check of the AVX-512 backends, which valgrind's
 * memcheck cannot run (valgrind 3.19 has no AVX-512 and hides it from
 * CPUID, so test/ct never reaches this code; see test/ct.cmake).
 *
 * A child process runs each kernel on several sets of random secret inputs
 * (moduli, bases, exponents; polynomials; Keccak states), each call between
 * a breakpoint (INT3) and an empty marker function.  The parent
 * single-steps it from the one to the other with ptrace and, for every
 * instruction executed inside this executable's text (which holds quill's
 * statically linked core), hashes its address and, where it has a memory
 * operand addressed by registers, the address it accesses (read off
 * `objdump -d` of this executable: disp(base, index, scale) evaluated on
 * the registers at that step; LEA and NOPs are not accesses).  Calls into
 * the C library (memset, the allocator) are run over at full speed and left
 * out; an address inside a block allocated during the call is hashed as
 * (block number, offset), where the allocator puts a block being no secret.
 * Every input set of a kernel must give the same instructions and the same
 * accesses: a branch on a secret, a loop whose trip count depends on one,
 * or a memory index derived from one changes the trace.  This is a check on
 * a few random inputs, not memcheck's taint tracking: it finds what those
 * inputs exercise.
 *
 * Covered: the two-way IFMA exponentiation of the RSA CRT halves with a
 * one-limb exponent (its driver, window table, gathers, conversions and
 * kernels), its squaring and almost-Montgomery product at every supported
 * size, the AVX-512VL NTT, inverse NTT, pointwise and dot products of
 * ML-DSA, and the AVX-512VL Keccak permutations.  Two negative controls, a
 * loop as long as its secret and a table read at a secret index, must give
 * different traces: they show that the harness sees either leak.
 *
 * Exits 77 (skipped) on a CPU without AVX-512 IFMA, under a QUILL_CPU_MASK
 * that clears it, where ptrace is not permitted or without objdump. */
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

/* The other: a table read at a secret index (same instructions). */
__attribute__((noinline)) static void leaky_index(volatile uint64_t *acc, const uint64_t *table,
                                                  unsigned s) {
    *acc += table[s];
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

/* Freed in the reverse order of their allocation, so that the allocator
 * hands the next set the same blocks: their addresses are part of the
 * trace. */
static void ifma_teardown(inputs *in) {
    quill_mont_free(in->mont[1]);
    quill_mont_free(in->mont[0]);
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
    K_CONTROL_INDEX,
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
    "negative control: a table read at a secret index (must differ)",
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
    case K_CONTROL_INDEX:
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
    case K_CONTROL_INDEX:
        leaky_index(&in->keccak[0], &in->keccak[1], in->run);
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

#define MAX_ALLOCS 16

typedef struct {
    unsigned long steps;    /* instructions inside the executable */
    unsigned long accesses; /* of them, those with a register-addressed memory operand */
    uint64_t hash;          /* FNV-1a over their addresses */
    uint64_t addr_hash;     /* FNV-1a over the addresses they access */
    /* Blocks allocated during the call: an address inside one is hashed as
     * (its number, the offset), the allocator's choice of place being no
     * secret. */
    struct {
        uint64_t base, size;
    } allocs[MAX_ALLOCS];
    unsigned n_allocs;
} trace;

/* An accessed address as it enters the hash. */
static uint64_t canonical_address(const trace *t, uint64_t a) {
    for (unsigned i = 0; i < t->n_allocs; i++)
        if (a - t->allocs[i].base < t->allocs[i].size)
            return ((uint64_t)(i + 1) << 56) ^ (a - t->allocs[i].base);
    return a;
}

#define FNV_INIT 0xcbf29ce484222325u
static uint64_t fnv(uint64_t h, uint64_t v) {
    return (h ^ v) * 0x100000001b3u;
}

/* ---- Memory operands, from the executable's disassembly ---- */

/* A memory operand disp(base, index, scale) of the instruction at text
 * offset off (registers as indexes into user_regs_struct, -1 for none). */
typedef struct {
    uintptr_t off;
    long long disp;
    int base, index, scale;
} mem_operand;

static mem_operand *operands;
static size_t n_operands;

static int reg_index(const char *name, size_t len) {
    static const char *const names[] = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
                                        "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
    for (int i = 0; i < (int)QT_ARRAY_LEN(names); i++)
        if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
            return i;
    return -2; /* not a 64-bit general register */
}

static uint64_t reg_value(const struct user_regs_struct *r, int i) {
    const unsigned long long v[16] = {r->rax, r->rbx, r->rcx, r->rdx, r->rsi, r->rdi,
                                      r->rbp, r->rsp, r->r8,  r->r9,  r->r10, r->r11,
                                      r->r12, r->r13, r->r14, r->r15};
    return i < 0 ? 0 : (uint64_t)v[i];
}

/* Parses "disp(%base,%index,scale)" in an AT&T operand list; returns 1 with
 * *m filled, 0 if there is no register-addressed memory operand (none, or
 * RIP-relative or absolute: constant addresses), -1 if it cannot be read
 * (a register that is not a 64-bit general one, e.g. a vector index). */
static int parse_operand(const char *ops, mem_operand *m) {
    const char *open = strchr(ops, '(');
    if (open == NULL)
        return 0;
    const char *close = strchr(open, ')');
    if (close == NULL)
        return -1;
    if (strncmp(open, "(%rip)", 6) == 0)
        return 0;
    const char *d = open;
    while (d > ops && d[-1] != ',' && d[-1] != ' ' && d[-1] != ':')
        d--;
    m->disp = d == open ? 0 : strtoll(d, NULL, 0);
    m->base = m->index = -1;
    m->scale = 1;
    const char *p = open + 1;
    for (int field = 0; p < close; field++) {
        const char *end = memchr(p, ',', (size_t)(close - p));
        if (end == NULL)
            end = close;
        if (field < 2 && end > p) {
            if (*p != '%')
                return -1;
            int r = reg_index(p + 1, (size_t)(end - p - 1));
            if (r < 0)
                return -1;
            *(field == 0 ? &m->base : &m->index) = r;
        } else if (field == 2) {
            m->scale = (int)strtol(p, NULL, 10);
        }
        p = end + 1;
    }
    return 1;
}

static int cmp_operand(const void *a, const void *b) {
    const mem_operand *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Reads `objdump -d` of this executable into operands (sorted by offset
 * from __executable_start).  Instructions whose operand is not an access
 * (LEA, NOPs, prefetches) are left out. */
static int load_operands(void) {
    char cmd[64];
    snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn /proc/%d/exe", (int)getpid());
    FILE *f = popen(cmd, "r");
    if (f == NULL)
        return 0;
    char line[512];
    size_t cap = 0;
    long long anchor_link = -1; /* where the disassembly puts trace_end */
    while (fgets(line, sizeof(line), f) != NULL) {
        unsigned long long addr;
        char sym[128];
        if (sscanf(line, "%llx <%127[^>]>:", &addr, sym) == 2) {
            if (strcmp(sym, "trace_end") == 0)
                anchor_link = (long long)addr;
            continue;
        }
        char *tab = strchr(line, '\t');
        if (tab == NULL || sscanf(line, " %llx:", &addr) != 1)
            continue;
        char mnem[32];
        int used = 0;
        if (sscanf(tab + 1, "%31s %n", mnem, &used) != 1)
            continue;
        if (strncmp(mnem, "lea", 3) == 0 || strncmp(mnem, "nop", 3) == 0 ||
            strncmp(mnem, "prefetch", 8) == 0)
            continue;
        mem_operand m;
        int r = parse_operand(tab + 1 + used, &m);
        if (r == 0)
            continue;
        if (r < 0) /* unreadable: tracing through it is an error */
            m.base = -2;
        if (n_operands == cap) {
            cap = cap ? 2 * cap : 4096;
            mem_operand *grown = realloc(operands, cap * sizeof(*operands));
            if (grown == NULL)
                break;
            operands = grown;
        }
        m.off = (uintptr_t)addr;
        operands[n_operands++] = m;
    }
    if (pclose(f) != 0 || anchor_link < 0 || n_operands == 0)
        return 0;
    /* link-time addresses to offsets from __executable_start */
    const uintptr_t link_start = (uintptr_t)&trace_end - (uintptr_t)&__executable_start;
    for (size_t i = 0; i < n_operands; i++)
        operands[i].off = operands[i].off - (uintptr_t)anchor_link + link_start;
    qsort(operands, n_operands, sizeof(*operands), cmp_operand);
    return 1;
}

static const mem_operand *find_operand(uintptr_t off) {
    size_t lo = 0, hi = n_operands;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (operands[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n_operands && operands[lo].off == off ? &operands[lo] : NULL;
}

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
static int skip_outside(pid_t pid, struct user_regs_struct *regs, trace *t) {
    /* the size asked of an allocation function, 0 for other calls */
    uint64_t size = 0;
    if (regs->rip == (uintptr_t)&malloc)
        size = regs->rdi;
    else if (regs->rip == (uintptr_t)&aligned_alloc)
        size = regs->rsi;
    else if (regs->rip == (uintptr_t)&calloc)
        size = regs->rdi * regs->rsi;
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
    if (ok && size != 0 && regs->rax != 0) {
        if (t->n_allocs == MAX_ALLOCS)
            return 0;
        t->allocs[t->n_allocs].base = regs->rax;
        t->allocs[t->n_allocs++].size = size;
    }
    regs->rip = ret;
    return ok && ptrace(PTRACE_SETREGS, pid, NULL, regs) == 0;
}

/* From the start breakpoint, single-steps to trace_end. */
static int trace_call(pid_t pid, trace *t) {
    t->steps = t->accesses = 0;
    t->hash = t->addr_hash = FNV_INIT;
    t->n_allocs = 0;
    for (;;) {
        int status;
        struct user_regs_struct regs;
        if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) != 0 || wait_stop(pid, &status) != SIGTRAP ||
            ptrace(PTRACE_GETREGS, pid, NULL, &regs) != 0)
            return 0;
        if (!in_text(regs.rip) && !skip_outside(pid, &regs, t))
            return 0;
        if (regs.rip == (uintptr_t)&trace_end)
            return 1;
        t->steps++;
        t->hash = fnv(t->hash, (uint64_t)regs.rip);
        const mem_operand *m = find_operand((uintptr_t)regs.rip - (uintptr_t)&__executable_start);
        if (m != NULL) {
            if (m->base == -2) {
                fprintf(stderr, "ct_trace: unreadable memory operand at text offset %#lx\n",
                        (unsigned long)m->off);
                return 0;
            }
            t->accesses++;
            const uint64_t a = (uint64_t)m->disp + reg_value(&regs, m->base) +
                               reg_value(&regs, m->index) * (uint64_t)m->scale;
            t->addr_hash = fnv(t->addr_hash, canonical_address(t, a));
        }
    }
}

int main(void) {
    if (!ifma_usable()) {
        printf("ct_trace: skipped (no AVX-512 IFMA/VL, or masked)\n");
        return 77;
    }
    if (!load_operands()) {
        printf("ct_trace: skipped (no objdump to read the memory operands)\n");
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
            same &= t[r].steps == t[0].steps && t[r].hash == t[0].hash &&
                    t[r].accesses == t[0].accesses && t[r].addr_hash == t[0].addr_hash;
        QT_CHECK(t[0].steps > 0 && t[0].accesses > 0);
        if (k == K_CONTROL || k == K_CONTROL_INDEX)
            QT_CHECK(!same); /* the harness sees a leak */
        else
            QT_CHECK(same);
        printf("  %-62s %6lu instructions, %5lu accesses:", kernel_names[k], t[0].steps,
               t[0].accesses);
        for (int r = 1; r < RUNS; r++)
            printf(" %s", t[r].steps == t[0].steps && t[r].hash == t[0].hash
                              ? (t[r].addr_hash == t[0].addr_hash ? "same" : "ADDRESSES DIFFER")
                              : "FLOW DIFFERS");
        printf("\n");
    }
    ptrace(PTRACE_CONT, pid, NULL, NULL);
    waitpid(pid, &status, 0);
    QT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0); /* the child finished cleanly */
    return qt_finish("ct_trace");
}
