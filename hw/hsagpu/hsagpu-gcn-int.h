/*
 * hsa-gpu: the GCN interpreter's wave state, shared by its files
 * (hsagpu-gcn-core.c: dispatch, scalar and control flow, scalar memory;
 * hsagpu-gcn-valu.c: vector ALU, vector memory, LDS).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HSAGPU_GCN_INT_H
#define HSAGPU_GCN_INT_H

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
    unsigned nvgpr;
    HsaGpuGcnVreg *v;                   /* nvgpr registers */
    bool done, at_barrier;
    uint64_t insns;
} HsaGpuGcnWave;

typedef struct HsaGpuGcnGroup {
    const HsaGpuGcnMem *mem;
    const HsaGpuGcnDispatch *d;
    uint8_t *lds;
    uint32_t lds_size;
    bool ftz32;                 /* flush f32 denormals (rsrc1) */
    HsaGpuGcnStatus *st;
} HsaGpuGcnGroup;

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

#endif
