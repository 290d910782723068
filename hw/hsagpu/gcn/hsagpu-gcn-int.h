/*
 * hsa-gpu: the GCN interpreter's wave state and what its files share
 * (hsagpu-gcn-scalar.c: fetch, scalar side; -decode.c: vector encodings
 * and operands; -valu.c: vector ALU; -fpu.c: floating point; -vmem.c:
 * vector memory and LDS; -run.c: the descriptor, a workgroup in flight;
 * hsagpu-gcn-opcodes.h: the opcodes by name).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HSAGPU_GCN_INT_H
#define HSAGPU_GCN_INT_H

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "hsagpu-gcn.h"
#include "hsagpu-gcn-opcodes.h"

/*
 * A local array the code writes before it reads it (a wave's lanes: a
 * kilobyte or so): left alone by -ftrivial-auto-var-init=zero, which
 * QEMU builds with and which would clear it at every instruction
 */
#if defined(__has_attribute)
#if __has_attribute(uninitialized)
#define HSAGPU_GCN_SCRATCH __attribute__((uninitialized))
#endif
#endif
#ifndef HSAGPU_GCN_SCRATCH
#define HSAGPU_GCN_SCRATCH
#endif

/* One VGPR: a dword per lane */
typedef uint32_t HsaGpuGcnVreg[HSAGPU_GCN_WAVE];

typedef struct HsaGpuGcnWave {
    uint32_t s[HSAGPU_GCN_SGPRS];
    uint32_t flat_scratch[2];
    uint64_t vcc, exec;
    uint32_t m0;
    bool scc;
    uint64_t pc;
    /*
     * nvgpr registers, the descriptor's allocation. Indexed only through
     * hsagpu_gcn_vregs(): an index comes from guest code.
     */
    unsigned nvgpr;
    HsaGpuGcnVreg *vfile;
    unsigned id;                        /* in the workgroup: its scratch */
    bool done, at_barrier;
    /* VGPRs past the allocation met by the current instruction */
    uint32_t oor;
    /*
     * Waiting on GWS resource gws_rid (HsaGpuGcnGws): at a barrier until
     * its gen passes gws_gen, or in a semaphore's P until its count is
     * above 0
     */
    uint8_t gws_wait, gws_rid;
    uint32_t gws_gen;
    uint64_t insns;
    /*
     * MODE's FP_DENORM field [7:4] (fp32 in [1:0], fp64/fp16 in [3:2];
     * 0 flush, 3 keep): from rsrc1, changed by s_setreg
     */
    uint8_t denorm;
} HsaGpuGcnWave;

/*
 * The private memory (scratch) of a workgroup's waves: wave n's is
 * 64 x the private segment size at n x that, swizzled as the hardware's
 * (lane l's byte o at (o / 4) x 256 + 4 l + o % 4, so a stack's top is
 * the same few pages for all lanes), in pages allocated when first
 * written (never written: zeros), at most HSAGPU_GCN_PRIVATE_RESIDENT
 * bytes of them (hsagpu_gcn_priv_rw).
 */
#define HSAGPU_GCN_PRIV_PAGE    4096u
typedef struct HsaGpuGcnPriv {
    uint8_t **page;                     /* npages; NULL: zeros */
    size_t npages;                      /* the workgroup's, rounded up */
    size_t cap;                         /* page's length */
    size_t resident;                    /* pages allocated */
    uint64_t wave_bytes;                /* 64 x private bytes per lane */
    HsaGpuGcnPrivBudget *budget;        /* the device's, or NULL */
} HsaGpuGcnPriv;

/*
 * Take (@n > 0) or give back (@n < 0) @n private pages: false when
 * taking them would pass the workgroup's HSAGPU_GCN_PRIVATE_RESIDENT or
 * the device's budget (hsagpu-gcn-run.c)
 */
bool hsagpu_gcn_priv_charge(HsaGpuGcnPriv *pv, long n);

/*
 * A wave's turn: instructions it runs before the next wave of its
 * workgroup does (hsagpu_gcn_run_resume). Long enough that switching
 * costs nothing, short enough that a wave spinning on another's flag
 * lets it run soon.
 */
#define HSAGPU_GCN_TURN         256

enum { GCN_GWS_NONE, GCN_GWS_BARRIER, GCN_GWS_SEMA };

/*
 * Whether @w, waiting on GWS, may go on now (a semaphore's P then takes
 * its count): clears its wait when so
 */
bool hsagpu_gcn_gws_ready(const HsaGpuGcnDispatch *d, HsaGpuGcnWave *w);

/*
 * A workgroup's instruction cache: lines of code read once, as the SQ's
 * instruction cache holds them, instead of one read of the address space
 * (a translation in the device) per instruction. It starts empty with
 * each workgroup, so a dispatch always runs the code memory holds when it
 * starts, and s_icache_inv empties it, as on gfx9: code rewritten under a
 * running workgroup is seen after s_icache_inv, not before. A line that
 * does not read whole (the end of the code's mapping) is not kept: the
 * instruction is then read alone.
 */
#define HSAGPU_GCN_ICACHE_LINE  256u            /* bytes */
#define HSAGPU_GCN_ICACHE_LINES 32u
typedef struct HsaGpuGcnIcache {
    uint64_t tag[HSAGPU_GCN_ICACHE_LINES];      /* line address | 1: kept */
    uint32_t dw[HSAGPU_GCN_ICACHE_LINES][HSAGPU_GCN_ICACHE_LINE / 4];
} HsaGpuGcnIcache;

/* A workgroup in flight (hsagpu-gcn-run.c) */
struct HsaGpuGcnRun {
    bool active;
    uint32_t id[3];
    unsigned nwaves, nvgpr, cur;        /* cur: the wave to go on with */
    bool ftz32, ftz64;
    uint32_t lds_size;
    uint32_t priv_size;                 /* private bytes per lane */
    uint64_t insns;
    HsaGpuGcnWave waves[HSAGPU_GCN_WG_MAX / HSAGPU_GCN_WAVE];
    HsaGpuGcnVreg *vregs;               /* nwaves x nvgpr, kept */
    uint8_t *lds;
    HsaGpuGcnPriv priv;
    size_t vcap, ldscap;
    HsaGpuGcnIcache icache;             /* not saved: refilled */
};

typedef struct HsaGpuGcnGroup {
    const HsaGpuGcnMem *mem;
    const HsaGpuGcnDispatch *d;
    uint8_t *lds;
    uint32_t lds_size;
    uint32_t priv_size;         /* private bytes per lane */
    HsaGpuGcnPriv *priv;        /* the waves' private memory (NULL: none) */
    HsaGpuGcnIcache *icache;    /* the workgroup's (NULL: none) */
    HsaGpuGcnTlb *tlb;                  /* the caller's views */
    bool ftz32;                 /* flush f32 denormals (rsrc1) */
    bool ftz64;                 /* flush f64 and f16 denormals (rsrc1) */
    HsaGpuGcnStatus *st;
} HsaGpuGcnGroup;

/*
 * Every register index an instruction carries is guest input (GPU code
 * runs on the host here). It is checked by one of these, once per
 * instruction and before the instruction changes any state; the paths
 * that execute use only what they return.
 *
 * VGPRs @reg .. @reg + @n - 1 of @w: true with *@p the first, or false
 * when any lies past the registers the descriptor allocated. @n 0 (the
 * instruction has no such operand): true whatever @reg, *@p NULL.
 */
static inline bool hsagpu_gcn_vregs(HsaGpuGcnWave *w, unsigned reg,
                                    unsigned n, HsaGpuGcnVreg **p)
{
    *p = NULL;
    if (!n) {
        return true;
    }
    if (reg >= w->nvgpr || n > w->nvgpr - reg) {
        return false;
    }
    *p = w->vfile + reg;
    return true;
}

/*
 * Registers past the allocation, as gfx9 treats them (Vega ISA, out-of-
 * range behaviour): a source VGPR past it reads VGPR0 (a run of @n: v0
 * on), a destination past it makes the whole instruction a NOP, memory
 * access included. Code that allocates fewer VGPRs than it names (AMD's
 * kfdtest's hand-written shaders) so runs as on the hardware; the index
 * still never leaves the wave's registers.
 */
static inline bool hsagpu_gcn_vsrc(HsaGpuGcnWave *w, unsigned reg,
                                   unsigned n, HsaGpuGcnVreg **p)
{
    if (hsagpu_gcn_vregs(w, reg, n, p)) {
        return true;
    }
    w->oor++;
    return hsagpu_gcn_vregs(w, 0, n, p);
}

/* A destination past the allocation: the instruction (@len dwords) is a NOP */
static inline unsigned hsagpu_gcn_vdst_nop(HsaGpuGcnWave *w, unsigned len)
{
    w->oor++;
    return len;
}

/* SGPRs @reg .. @reg + @n - 1 (s0..s101 only): NULL past them */
static inline uint32_t *hsagpu_gcn_sregs(HsaGpuGcnWave *w, unsigned reg,
                                         unsigned n)
{
    return reg < HSAGPU_GCN_SGPRS && n <= HSAGPU_GCN_SGPRS - reg ?
           &w->s[reg] : NULL;
}

/*
 * @n bytes at offset @off of a buffer of @size bytes at @base: NULL when
 * any byte lies outside (no overflow whatever @off). The LDS and the
 * private segments are reached through this.
 */
static inline uint8_t *hsagpu_gcn_window(uint8_t *base, uint64_t size,
                                         uint64_t off, uint64_t n)
{
    return base && off <= size && n <= size - off ? base + off : NULL;
}

/*
 * Loads and stores of the address space: through a host view when the
 * memory gives one (hsagpu-gcn-vmem.c), else its read()/write(). 0, or
 * the callback's error.
 */
uint8_t *hsagpu_gcn_tlb_fill(HsaGpuGcnGroup *g, uint64_t addr, uint32_t len,
                             bool write);

/*
 * The TLB slot of @addr's span: hashed (Fibonacci), so that buffers a
 * power of two apart (a copy's source and destination) do not take the
 * same one
 */
static inline unsigned hsagpu_gcn_tlb_slot(uint64_t addr)
{
    return ((addr / HSAGPU_GCN_TLB_SPAN) * 0x9e3779b97f4a7c15ULL) >>
           (64 - HSAGPU_GCN_TLB_BITS);
}

/* The slot of a view shorter than its span: by its page */
static inline unsigned hsagpu_gcn_tlb_page_slot(uint64_t addr)
{
    return HSAGPU_GCN_TLB +
           (((addr / HSAGPU_GCN_TLB_PAGE) * 0x9e3779b97f4a7c15ULL) >>
            (64 - HSAGPU_GCN_TLB_BITS));
}

/* Does @t serve @len bytes at @addr (@write: for writing)? */
static inline uint8_t *hsagpu_gcn_tlb_hit(HsaGpuGcnTlb *t, uint64_t addr,
                                          uint32_t len, bool write)
{
    uint64_t off = addr - t->va;

    if (off < t->len && len <= t->len - off && (t->write || !write)) {
        if (write) {
            t->dirty_lo = off < t->dirty_lo ? off : t->dirty_lo;
            t->dirty_hi = off + len > t->dirty_hi ? off + len : t->dirty_hi;
        }
        return t->host + off;
    }
    return NULL;
}

static inline uint8_t *hsagpu_gcn_tlb(HsaGpuGcnGroup *g, uint64_t addr,
                                      uint32_t len, bool write)
{
    uint8_t *h;

    if (!g->tlb) {
        return NULL;                    /* no views kept: the callbacks */
    }
    h = hsagpu_gcn_tlb_hit(&g->tlb[hsagpu_gcn_tlb_slot(addr)], addr, len,
                           write);
    if (!h) {
        h = hsagpu_gcn_tlb_hit(&g->tlb[hsagpu_gcn_tlb_page_slot(addr)], addr,
                               len, write);
    }
    if (h) {
        return h;
    }
    return g->mem->host ? hsagpu_gcn_tlb_fill(g, addr, len, write) : NULL;
}

/*
 * An aligned 8- or 16-byte access of memory @m in one host move, as the
 * hardware moves an aligned dwordx2 or dwordx4 whole: code publishes a
 * value and its flag together that way (rocPRIM's decoupled look-back),
 * and another host thread must never see half of it. Aligned 16-byte
 * SSE moves are atomic on x86 CPUs with AVX (Intel SDM vol. 3, 9.1.1;
 * AMD APM vol. 2, 7.3.2). Any other access is a plain copy.
 */
static inline void hsagpu_gcn_put_whole(uint8_t *m, const void *v,
                                        unsigned len)
{
    if (len == 8 && !((uintptr_t)m & 7)) {
        uint64_t x;

        memcpy(&x, v, 8);
        __atomic_store_n((uint64_t *)m, x, __ATOMIC_RELAXED);
        return;
    }
#ifdef __SSE2__
    if (len == 16 && !((uintptr_t)m & 15)) {
        _mm_store_si128((__m128i *)m, _mm_loadu_si128((const __m128i *)v));
        return;
    }
#endif
    memcpy(m, v, len);
}

static inline void hsagpu_gcn_get_whole(void *v, const uint8_t *m,
                                        unsigned len)
{
    if (len == 8 && !((uintptr_t)m & 7)) {
        uint64_t x = __atomic_load_n((const uint64_t *)m, __ATOMIC_RELAXED);

        memcpy(v, &x, 8);
        return;
    }
#ifdef __SSE2__
    if (len == 16 && !((uintptr_t)m & 15)) {
        _mm_storeu_si128((__m128i *)v, _mm_load_si128((const __m128i *)m));
        return;
    }
#endif
    memcpy(v, m, len);
}

static inline unsigned hsagpu_gcn_read(HsaGpuGcnGroup *g, uint64_t addr,
                                       void *buf, uint32_t len)
{
    uint8_t *h = hsagpu_gcn_tlb(g, addr, len, false);

    if (h) {
        hsagpu_gcn_get_whole(buf, h, len);
        return 0;
    }
    return g->mem->read(g->mem->opaque, addr, buf, len);
}

static inline unsigned hsagpu_gcn_write(HsaGpuGcnGroup *g, uint64_t addr,
                                        const void *buf, uint32_t len)
{
    uint8_t *h = hsagpu_gcn_tlb(g, addr, len, true);

    if (h) {
        hsagpu_gcn_put_whole(h, buf, len);
        return 0;
    }
    return g->mem->write(g->mem->opaque, addr, buf, len);
}

/*
 * Lane loops compiled for the host's vector units as well as for the
 * baseline, the best picked when the program loads (GCC's function
 * multiversioning: AVX-512, AVX2 with FMA), where the compiler and the
 * host have them. With FMA in reach the compiler would fuse a multiply
 * and an add into one rounding: those clones keep them apart, as the
 * baseline does (the instruction says which rounding it wants).
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_ADDRESS__)
#define HSAGPU_GCN_SIMD \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", \
                                 "default"), \
                   optimize("fp-contract=off", "no-math-errno")))
#else
#define HSAGPU_GCN_SIMD
#endif

/*
 * A host memory fence (sequentially consistent) at the points where the
 * HSA memory model implies an acquire or release (s_waitcnt, the cache
 * invalidations and write-backs; docs/isa.md): memory is reached through
 * the callbacks one access at a time and nothing is cached, so a fence
 * orders this thread's accesses with the CPU's and other devices'.
 */
static inline void hsagpu_gcn_fence(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* The FPU's denormal modes from a MODE FP_DENORM field (@g's) */
static inline void hsagpu_gcn_set_denorm(HsaGpuGcnGroup *g, unsigned denorm)
{
    g->ftz32 = (denorm & 3) == 0;
    g->ftz64 = ((denorm >> 2) & 3) == 0;
}

/*
 * @n bytes of lane @l of @w's private memory from its byte @o, the
 * wave's scratch address of byte o being @a + (o / 4) x 256 + 4 l + o % 4
 * (the hardware's swizzle; @a: what MUBUF's descriptor and soffset add,
 * 0 for flat), into or from @buf. False with g->st's failure when a
 * byte lies outside the wave's private memory or would take a page past
 * HSAGPU_GCN_PRIVATE_RESIDENT (hsagpu-gcn-vmem.c).
 */
bool hsagpu_gcn_priv_rw(HsaGpuGcnGroup *g, HsaGpuGcnWave *w, unsigned l,
                        uint64_t a, uint64_t o, void *buf, unsigned n,
                        bool write, const uint32_t *insn);

/* fp32 from its bits and back, denormals flushed to signed zeros if @ftz */
static inline float hsagpu_gcn_f32(uint32_t v, bool ftz)
{
    float f;

    if (ftz && !(v & 0x7f800000)) {
        v &= 0x80000000;
    }
    memcpy(&f, &v, 4);
    return f;
}

static inline uint32_t hsagpu_gcn_u32f(float f, bool ftz)
{
    uint32_t v;

    memcpy(&v, &f, 4);
    if (ftz && !(v & 0x7f800000)) {
        v &= 0x80000000;
    }
    return v;
}

/*
 * A half's bits (the low 16 of @h), a denormal flushed to its signed zero
 * if @ftz: gfx9's MODE.FP_DENORM[3:2] (rsrc1's fp16/fp64 mode) governs
 * fp16 as well as fp64, inputs and results alike
 */
static inline uint16_t hsagpu_gcn_hftz(uint32_t h, bool ftz)
{
    h &= 0xffff;
    return ftz && !(h & 0x7c00) ? h & 0x8000 : h;
}

/* The lanes EXEC enables (a vector instruction's lane operations) */
static inline unsigned hsagpu_gcn_lanes_on(const HsaGpuGcnWave *w)
{
    /* most waves run whole: the baseline has no POPCNT instruction */
    return w->exec == UINT64_MAX ? HSAGPU_GCN_WAVE :
           (unsigned)__builtin_popcountll(w->exec);
}

/* Operand encodings (9-bit vector source, 8-bit scalar) */
#define GCN_SRC_VCC_LO          106
#define GCN_SRC_VCC_HI          107
#define GCN_SRC_M0              124
#define GCN_SRC_EXEC_LO         126
#define GCN_SRC_EXEC_HI         127
#define GCN_SRC_LITERAL         255
#define GCN_SRC_VGPR            256

/* Stop the dispatch: @code with the instruction at @w's pc. */
unsigned hsagpu_gcn_fail(HsaGpuGcnGroup *g, HsaGpuGcnWave *w, unsigned code,
                         const uint32_t *insn, const char *what);
/* ... with an instruction the interpreter does not run (queue error 26) */
static inline unsigned hsagpu_gcn_refuse(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                                         const uint32_t *insn,
                                         const char *what)
{
    return hsagpu_gcn_fail(g, w, HSAGPU_GCN_UNIMPLEMENTED, insn, what);
}
/*
 * An operand's type: what its inline constants (and literal) are. The
 * integer constants are the integer, sign-extended to 32 or 64 bits, for
 * every type; the float ones (240-248: +-0.5, +-1, +-2, +-4, 1/(2 pi))
 * the type's encoding of the value: f16's zero-extended, f32's, f64's;
 * 32-bit integer (and 16-bit integer) operands take the f32 bit pattern,
 * 64-bit ones the f64's. Packed f16 operands (VOP3P) get the half in the
 * low 16 bits, 0 above (op_sel_hi 0 reads it for the high result too).
 * A literal is zero-extended, except for f64 operands: the double's high
 * 32 bits. false (0) and true (1) are B32 and B64.
 */
enum {
    GCN_OT_B32,
    GCN_OT_B64,
    GCN_OT_F16,
    GCN_OT_F32,
    GCN_OT_F64,
    GCN_OT_PK_F16,
};

/* 32/64-bit scalar operand: false when the encoding is not one we know. */
bool hsagpu_gcn_sread(HsaGpuGcnWave *w, unsigned src, uint32_t lit,
                      bool is64, uint64_t *val);
/* ... of type @type (GCN_OT_*, 64 bits for B64 and F64) */
bool hsagpu_gcn_sread_as(HsaGpuGcnWave *w, unsigned src, uint32_t lit,
                         unsigned type, uint64_t *val);
bool hsagpu_gcn_swrite(HsaGpuGcnWave *w, unsigned dst, bool is64,
                       uint64_t val);
/*
 * hsagpu-gcn-decode.c: a vector instruction (VOP*, FLAT, DS, MUBUF): its
 * dwords; 0: the wave stops
 */
unsigned hsagpu_gcn_vector(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                           const uint32_t *insn);

/* A source operand resolved once per instruction. */
typedef struct HsaGpuGcnOp {
    bool vgpr;
    unsigned reg;               /* VGPR index */
    uint64_t val;               /* scalar value (uniform) */
    /* per lane: the VGPR (hi: the pair's upper one), or SDWA/DPP's values */
    const uint32_t *lanes, *hi;
} HsaGpuGcnOp;

/*
 * What an SDWA or DPP operand form changes (hsagpu_gcn_vector decodes
 * them): sources 0 and 1 replaced by prepared lanes, the result merged
 * into the destination's selected byte or word (SDWA), the lanes written
 * (DPP); or VOP3's op_sel (the 16-bit halves of the sources read and of
 * the destination written, for the instructions that have it).
 */
typedef struct HsaGpuGcnExt {
    const uint32_t *src[2];     /* NULL: the operand as encoded */
    bool sdwa;
    unsigned dst_sel, dst_unused;
    uint64_t wmask;             /* DPP: lanes that write their result */
} HsaGpuGcnExt;

/*
 * A VALU instruction of VOP1, VOP2, VOPC (e32) or VOP3 as its fields say
 * (hsagpu_gcn_vop_decode): the operation in VOP3 numbering, @nsrc
 * sources as encoded (9-bit operand numbers) and the literal, the VGPR
 * destination, the SGPR pair a compare, carry or v_div_scale writes
 * (sdst; -1: VCC) and the one a carry is read from (carry_in; -1: none),
 * VOP3's modifiers and op_sel (the 16-bit halves of the sources read and
 * of the destination written, for the instructions that have it), its
 * length in dwords. Nothing in it is checked yet: register numbers are
 * checked where they are used.
 */
typedef struct HsaGpuGcnVop {
    unsigned op, nsrc, len;
    unsigned src[3];
    uint32_t lit;
    unsigned vdst;
    int sdst, carry_in;
    unsigned abs, neg, omod, opsel;
    bool clamp;
} HsaGpuGcnVop;

/* What hsagpu_gcn_vop_decode found */
enum {
    GCN_VOP_PLAIN,              /* a VALU operation, all in the fields */
    GCN_VOP_NOP,                /* v_nop, v_clrexcp: nothing to do */
    GCN_VOP_OTHER,              /* SDWA, DPP, VOP3P, memory, unknown */
};
unsigned hsagpu_gcn_vop_decode(const uint32_t *insn, HsaGpuGcnVop *v);

/*
 * An instruction decoded once (hsagpu-gcn-fetch.c): by its address and
 * the two dwords it was decoded from, so that code rewritten at the same
 * address is decoded anew. @path says which part of the interpreter runs
 * it; @v: a VALU instruction's fields (GCN_PATH_VALU, GCN_PATH_FAST).
 * GCN_PATH_FAST: one of the operations hsagpu-gcn-valu.c runs over all
 * lanes at once, with operands it can take without a check but one (all
 * VGPRs below @vneed, SGPR sources below s102, constants in @cval).
 */
enum {
    GCN_PATH_SOPP,
    GCN_PATH_SMEM,
    GCN_PATH_SCALAR,            /* SOP1, SOP2, SOPC, SOPK */
    GCN_PATH_VECTOR,            /* hsagpu_gcn_vector: decodes it itself */
    /* vector instructions the step counts the lanes of: from here on */
    GCN_PATH_VALU,              /* hsagpu_gcn_valu on @v */
    GCN_PATH_NOP,               /* a vector NOP */
    GCN_PATH_FAST,              /* hsagpu_gcn_valu_fast on @v */
};
typedef struct HsaGpuGcnDec {
    uint64_t pc;                /* its address; UINT64_MAX: empty */
    uint32_t raw[2];
    uint8_t path;
    uint8_t fast;               /* GCN_FAST_* (hsagpu-gcn-valu.c) */
    uint16_t vneed;             /* GCN_PATH_FAST: the VGPRs it reaches */
    uint32_t cval[3];           /* constant sources' values (GCN_PATH_FAST) */
    HsaGpuGcnVop v;
} HsaGpuGcnDec;

/*
 * Tests: every instruction through the general paths, none decoded once
 * (the fast paths must give the same state, tests/unit/test-gcn-insn.c)
 */
extern bool hsagpu_gcn_general;

/*
 * hsagpu-gcn-valu.c: may @d (GCN_PATH_VALU) run on a fast path? Sets
 * d->fast, d->vneed and d->cval and returns true when so.
 */
bool hsagpu_gcn_valu_predecode(HsaGpuGcnDec *d);
/* Run @d (GCN_PATH_FAST): its length, or 0: take the general path */
unsigned hsagpu_gcn_valu_fast(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                              const HsaGpuGcnDec *d);
/* An inline constant or the literal as an operand of type @type: false: not one */
bool hsagpu_gcn_const(unsigned src, uint32_t lit, unsigned type,
                      uint64_t *val);
/* hsagpu-gcn-scalar.c: the scalar encodings, each as its handler takes it */
unsigned hsagpu_gcn_sopp(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                         const uint32_t *insn);
unsigned hsagpu_gcn_smem(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                         const uint32_t *insn);
unsigned hsagpu_gcn_scalar(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                           const uint32_t *insn);

/*
 * hsagpu-gcn-decode.c. A source operand @src (9-bit encoding) of type
 * @type (GCN_OT_*; a pair for B64 and F64): false when it is not one the
 * wave has.
 */
bool hsagpu_gcn_op(HsaGpuGcnWave *w, unsigned src, uint32_t lit,
                   unsigned type, HsaGpuGcnOp *o);
/* hsagpu-gcn-valu.c: the type (GCN_OT_*) of source @k of VOP3 op @op */
unsigned hsagpu_gcn_optype(unsigned op, unsigned k);

/* Lane @l of an operand */
static inline uint64_t hsagpu_gcn_lane(HsaGpuGcnWave *w,
                                       const HsaGpuGcnOp *o, unsigned l,
                                       bool is64)
{
    if (!o->lanes) {
        return o->val;
    }
    return o->lanes[l] | (is64 && o->hi ? (uint64_t)o->hi[l] << 32 : 0);
}

/*
 * A VALU operation @v over the lanes (@x: SDWA/DPP's prepared sources
 * and what they change). Returns v->len, or 0 with the failure.
 */
unsigned hsagpu_gcn_valu(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                         const uint32_t *insn, const HsaGpuGcnVop *v,
                         const HsaGpuGcnExt *x);
/*
 * A packed 16-bit (VOP3P) operation @op over the lanes: sources @src as
 * encoded, the halves op_sel (low result) and op_sel_hi (high) pick,
 * f16 negations; its two dwords @insn for a failure.
 */
unsigned hsagpu_gcn_vop3p(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                          const uint32_t *insn, unsigned op,
                          const unsigned src[3], unsigned vdst,
                          unsigned opsel, unsigned opsel_hi, unsigned neg_lo,
                          unsigned neg_hi, bool clamp);
/*
 * Fetch and run one instruction of @w (tests step single instructions).
 * false: the wave's turn ends there: it ended (s_endpgm), failed
 * (g->st->code), waits at s_barrier or slept (s_sleep).
 */
bool hsagpu_gcn_step(HsaGpuGcnGroup *g, HsaGpuGcnWave *w);

/* hsagpu-gcn-vmem.c: FLAT/GLOBAL, MUBUF and DS instructions, as above */
unsigned hsagpu_gcn_flat(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                         const uint32_t *insn);
unsigned hsagpu_gcn_mubuf(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                          const uint32_t *insn);
unsigned hsagpu_gcn_ds(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                       const uint32_t *insn);

/* Relation k (0..7) of a VOPC encoding from <, =, > and unordered */
bool hsagpu_gcn_rel(unsigned k, bool lt, bool eq, bool gt, bool un);

/* hsagpu-gcn-fpu.c */
float hsagpu_gcn_h2f(uint16_t h);
uint16_t hsagpu_gcn_f2h(double v, bool rtz);
/* Float type (0 integer, 16, 32, 64) of source @k (0..2) or result (3) */
unsigned hsagpu_gcn_ftype(unsigned op, unsigned k);
/*
 * One lane of float op @op (VOP3 numbering), modifiers applied to the
 * sources; @t: hsagpu_gcn_ftype() of its sources and result (found once
 * per instruction); @old: the destination's value (v_mac). *flag: VCC's
 * bit in (v_div_fmas), the bit v_div_scale sets out. False: not
 * implemented.
 */
bool hsagpu_gcn_falu(const HsaGpuGcnGroup *g, const uint8_t t[4],
                     unsigned op, uint64_t sa, uint64_t sb, uint64_t sc,
                     uint64_t old, bool *flag, uint64_t *d);
uint64_t hsagpu_gcn_omod(const HsaGpuGcnGroup *g, unsigned t, uint64_t v,
                         unsigned omod, bool clamp);
/* A float compare or class test of one lane (VOPC numbering) */
bool hsagpu_gcn_fcmp(const HsaGpuGcnGroup *g, unsigned op, uint64_t a,
                     uint64_t b, bool *r);

#endif
