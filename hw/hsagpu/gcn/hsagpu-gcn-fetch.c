/*
 * hsa-gpu: GCN (gfx9) interpreter, the instruction stream: fetch through
 * the workgroup's instruction cache, each instruction decoded once into
 * a host thread's cache of decoded instructions, and handed to the part
 * of the interpreter that runs it (hsagpu-gcn-scalar.c, -decode.c,
 * -valu.c). A decoded instruction is found by its address and the two
 * dwords it was decoded from: what the memory holds decides, so code
 * rewritten at an address it had already run from is decoded anew, and
 * the cache is the same across workgroups, dispatches and queues.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdlib.h>
#include <string.h>
#define g_free free
#define g_new(t, n) ((t *)malloc((n) * sizeof(t)))
#else
#include "qemu/osdep.h"
#endif
#include <pthread.h>
#include "hsagpu-gcn-int.h"

bool hsagpu_gcn_general;

/*
 * The two dwords at @pc (an instruction and what may be its literal)
 * from the workgroup's instruction cache: false when they are not both
 * in one line that reads whole (then the caller reads them itself)
 */
static bool gcn_icache_fetch(HsaGpuGcnGroup *g, uint64_t pc, uint32_t *insn)
{
    HsaGpuGcnIcache *ic = g->icache;
    uint64_t line = pc & ~(uint64_t)(HSAGPU_GCN_ICACHE_LINE - 1);
    unsigned off = (pc - line) / 4, i;

    if (!ic || (pc & 3) || off + 1 >= HSAGPU_GCN_ICACHE_LINE / 4) {
        return false;
    }
    i = (line / HSAGPU_GCN_ICACHE_LINE) % HSAGPU_GCN_ICACHE_LINES;
    if (ic->tag[i] != (line | 1)) {
        ic->tag[i] = 0;
        if (hsagpu_gcn_read(g, line, ic->dw[i],
                         HSAGPU_GCN_ICACHE_LINE)) {
            return false;
        }
        ic->tag[i] = line | 1;
    }
    insn[0] = ic->dw[i][off];
    insn[1] = ic->dw[i][off + 1];
    return true;
}

/*
 * A host thread's decoded instructions, by address (direct-mapped: a
 * loop of up to 4 KiB of code never evicts itself), allocated when the
 * thread first runs code and freed when it ends
 */
#define GCN_DCACHE_BITS 10
#define GCN_DCACHE      (1u << GCN_DCACHE_BITS)
static __thread HsaGpuGcnDec *gcn_dcache;
static pthread_key_t gcn_dcache_key;
static pthread_once_t gcn_dcache_once = PTHREAD_ONCE_INIT;

static void gcn_dcache_free(void *p)
{
    g_free(p);
}

static void gcn_dcache_key_init(void)
{
    pthread_key_create(&gcn_dcache_key, gcn_dcache_free);
}

static HsaGpuGcnDec *gcn_dcache_get(void)
{
    if (!gcn_dcache) {
        HsaGpuGcnDec *c = g_new(HsaGpuGcnDec, GCN_DCACHE);

        if (!c) {
            return NULL;
        }
        for (unsigned k = 0; k < GCN_DCACHE; k++) {
            c[k].pc = UINT64_MAX;
        }
        pthread_once(&gcn_dcache_once, gcn_dcache_key_init);
        pthread_setspecific(gcn_dcache_key, c);
        gcn_dcache = c;
    }
    return gcn_dcache;
}

/* Decode @insn, the instruction at @pc, into @d */
static void gcn_predecode(HsaGpuGcnDec *d, uint64_t pc, const uint32_t *insn)
{
    d->pc = pc;
    d->raw[0] = insn[0];
    d->raw[1] = insn[1];
    d->fast = 0;
    if (GCN_ENC_SOPP(insn[0])) {
        d->path = GCN_PATH_SOPP;
    } else if (GCN_ENC_SMEM(insn[0])) {
        d->path = GCN_PATH_SMEM;
    } else if (GCN_ENC_SOP2(insn[0])) {             /* or SOP1, SOPC, SOPK */
        d->path = GCN_PATH_SCALAR;
    } else if (hsagpu_gcn_general) {
        d->path = GCN_PATH_VECTOR;
    } else {
        switch (hsagpu_gcn_vop_decode(insn, &d->v)) {
        case GCN_VOP_PLAIN:
            d->path = hsagpu_gcn_valu_predecode(d) ? GCN_PATH_FAST
                                                   : GCN_PATH_VALU;
            break;
        case GCN_VOP_NOP:
            d->path = GCN_PATH_NOP;
            break;
        default:
            d->path = GCN_PATH_VECTOR;
            break;
        }
    }
}

/* The decoded @insn at @pc: the cache's, or @own filled */
static const HsaGpuGcnDec *gcn_decoded(HsaGpuGcnGroup *g, uint64_t pc,
                                       const uint32_t *insn,
                                       HsaGpuGcnDec *own)
{
    HsaGpuGcnDec *c = hsagpu_gcn_general ? NULL : gcn_dcache_get();
    HsaGpuGcnDec *d = c ? &c[(pc >> 2) & (GCN_DCACHE - 1)] : own;

    if (d->pc != pc || d->raw[0] != insn[0] || d->raw[1] != insn[1] || !c) {
        gcn_predecode(d, pc, insn);
        g->st->decoded++;
    }
    return d;
}

/* Fetch and run one instruction of @w. False: the wave stops here. */
bool hsagpu_gcn_step(HsaGpuGcnGroup *g, HsaGpuGcnWave *w)
{
    uint32_t insn[2] = { 0, 0 };
    unsigned len, err = 0;
    const HsaGpuGcnDec *d;
    HSAGPU_GCN_SCRATCH HsaGpuGcnDec own;     /* no cache: decoded here */

    /* The second dword may lie past the end of the code: then without */
    if (!gcn_icache_fetch(g, w->pc, insn)) {
        err = hsagpu_gcn_read(g, w->pc, insn, 8);
        if (err) {
            err = hsagpu_gcn_read(g, w->pc, insn, 4);
        }
    }
    if (err) {
        g->st->mem_err = err;
        g->st->addr = w->pc;
        return hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, NULL, "fetch");
    }
    w->insns++;
    d = gcn_decoded(g, w->pc, insn, &own);
    if (d->path >= GCN_PATH_VALU) {
        /* (hsagpu_gcn_vector counts the others itself) */
        g->st->lane_ops += hsagpu_gcn_lanes_on(w);
    }
    switch (d->path) {
    case GCN_PATH_SOPP:
        len = hsagpu_gcn_sopp(g, w, insn);
        break;
    case GCN_PATH_SMEM:
        len = hsagpu_gcn_smem(g, w, insn);
        break;
    case GCN_PATH_SCALAR:
        len = hsagpu_gcn_scalar(g, w, insn);
        break;
    case GCN_PATH_FAST:
        len = hsagpu_gcn_valu_fast(g, w, d);
        break;
    case GCN_PATH_VALU:
        len = hsagpu_gcn_valu(g, w, insn, &d->v, NULL);
        break;
    case GCN_PATH_NOP:
        len = 1;
        break;
    default:
        len = hsagpu_gcn_vector(g, w, insn);
        break;
    }
    if (__builtin_expect(w->oor != 0, 0)) {
        g->st->vgpr_oor++;
        w->oor = 0;
    }
    if (len == UINT32_MAX) {
        return true;            /* a branch set the pc */
    }
    if (!len) {
        return false;
    }
    w->pc += 4 * len;
    return true;
}
