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
#include "hsagpu-gcn.h"
#include "hsagpu-gcn-opcodes.h"

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
    uint8_t *priv;                      /* 64 lanes' private segments */
    bool done, at_barrier;
    uint64_t insns;
} HsaGpuGcnWave;

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
    uint8_t *priv;                      /* nwaves x 64 x priv_size */
    size_t vcap, ldscap, pcap;
};

typedef struct HsaGpuGcnGroup {
    const HsaGpuGcnMem *mem;
    const HsaGpuGcnDispatch *d;
    uint8_t *lds;
    uint32_t lds_size;
    uint32_t priv_size;         /* private bytes per lane (waves' priv) */
    bool ftz32;                 /* flush f32 denormals (rsrc1) */
    bool ftz64;                 /* flush f64 and f16 denormals */
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
/* 32/64-bit scalar operand: false when the encoding is not one we know. */
bool hsagpu_gcn_sread(HsaGpuGcnWave *w, unsigned src, uint32_t lit,
                      bool is64, uint64_t *val);
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
    unsigned opsel;             /* VOP3's op_sel: source halves, dst half */
} HsaGpuGcnExt;


/*
 * hsagpu-gcn-decode.c. A source operand @src (9-bit encoding; a pair
 * when @is64): false when it is not one the wave has.
 */
bool hsagpu_gcn_op(HsaGpuGcnWave *w, unsigned src, uint32_t lit, bool is64,
                   HsaGpuGcnOp *o);

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
 * A VALU operation of VOP1/VOP2/VOPC (e32) or VOP3, op in VOP3 numbering,
 * over the lanes: @nsrc sources as encoded (@x: SDWA/DPP's prepared
 * ones), the VGPR destination @vdst (or SGPR pair @sdst for compares,
 * carries and v_div_scale), @carry_in an SGPR pair or -1, the VOP3
 * modifiers; @len dwords. Returns @len, or 0 with the failure.
 */
unsigned hsagpu_gcn_valu(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                         const uint32_t *insn, unsigned op, unsigned nsrc,
                         const unsigned src[3], uint32_t lit, unsigned vdst,
                         int sdst, int carry_in, unsigned abs, unsigned neg,
                         unsigned omod, bool clamp, unsigned len,
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
/* Fetch and run one instruction of @w (tests step single instructions) */
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
