/*
 * hsa-gpu: the GCN interpreter's wave state, shared by its files
 * (hsagpu-gcn-core.c: dispatch, scalar and control flow, scalar memory;
 * hsagpu-gcn-valu.c: vector ALU, vector memory, LDS).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HSAGPU_GCN_INT_H
#define HSAGPU_GCN_INT_H

#include <string.h>
#include "hsagpu-gcn-core.h"

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
/* 32/64-bit scalar operand: false when the encoding is not one we know. */
bool hsagpu_gcn_sread(HsaGpuGcnWave *w, unsigned src, uint32_t lit,
                      bool is64, uint64_t *val);
bool hsagpu_gcn_swrite(HsaGpuGcnWave *w, unsigned dst, bool is64,
                       uint64_t val);
/* A vector instruction (VOP*, FLAT, DS): its dwords; 0: the wave stops */
unsigned hsagpu_gcn_vector(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                           const uint32_t *insn);
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
