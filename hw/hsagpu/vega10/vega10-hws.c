/*
 * hsa-gpu, Vega10 personality: the hardware scheduler (HWS), as
 * amdkfd's packet manager (kfd_packet_manager_v9.c) drives it through
 * the HIQ by default (amdgpu.sched_policy=0), independent of QEMU.
 *
 * On a real gfx9 this is MEC firmware. amdkfd gives it VMIDs and queue
 * slots (SET_RESOURCES), then a runlist (RUN_LIST): an IB of one
 * MAP_PROCESS per process followed by a MAP_QUEUES per queue. The
 * scheduler puts each process on a VMID of its own (page directory,
 * SH_MEM, the PASID in the IH's and ATC's tables), loads each compute
 * queue's MQD into a free HQD and each SDMA queue's into a free RLC
 * queue. UNMAP_QUEUES takes queues off again, writing their state back
 * into their MQDs, so that the next runlist resumes them where they
 * stopped; QUERY_STATUS's fence tells amdkfd that all of it is done.
 *
 * Every packet completes before the next one runs, so a fence after an
 * unmap is always true. The runlist maps as many processes as there are
 * VMIDs and as many queues as there are free slots. When more were
 * asked (oversubscription), it time-slices as the firmware does: at each
 * turn (hsagpu_v10_hws_rotate(), which the device calls every
 * V10_HWS_QUANTUM_NS while oversubscribed) everything comes off, its
 * work in flight saved (CWSR), and the next processes go on, or, with
 * every process on a VMID, the next queues.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdio.h>
#include <string.h>
#define qemu_log_mask(mask, ...) ((void)0)
#else
#include "qemu/osdep.h"
#include "qemu/log.h"
#endif
#include "hsagpu/hsagpu_pm4.h"
#include "vega10.h"

#define V10_HQD(v, ri, reg)     ((v)->hqd[ri][(reg) - V10_HQD_FIRST])

void hsagpu_v10_hws_reset(HsaGpuV10 *v)
{
    memset(&v->hws, 0, sizeof(v->hws));
    v->hws.hiq_ring = V10_NUM_RINGS;
}

/* @vmid's process: page directory on both hubs, apertures, PASID tables */
static void v10_hws_vmid_set(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                             unsigned vmid, uint32_t pasid,
                             const uint32_t *mp)
{
    uint32_t atc = pasid ? pasid | V10_ATC_PASID_MAPPING_VALID : 0;

    for (unsigned hub = 0; hub < V10_NUM_HUBS; hub++) {
        uint32_t base = V10_GFXHUB_CONTEXT0_BASE_LO32 +
                        vmid * V10_HUB_CTX_ADDR_STRIDE +
                        (hub == V10_MMHUB ? V10_MMHUB_VM_DIST : 0);

        /* through the front end: the hub forgets the VMID's old walks */
        ops->reg_write(ops->opaque, base, mp ? mp[2] : 0);
        ops->reg_write(ops->opaque, base + 1, mp ? mp[3] : 0);
    }
    v->sh_mem_bases[vmid] = mp ? mp[4] : 0;
    v->sh_mem_config[vmid] = mp ? mp[5] : 0;
    v->reg[V10_IH_VMID_0_LUT + vmid] = pasid;
    v->reg[V10_IH_VMID_0_LUT_MM + vmid] = pasid;
    v->reg[V10_ATC_VMID0_PASID_MAPPING + vmid] = atc;
    v->reg[V10_ATC_VMID16_PASID_MAPPING + vmid] = atc;
    v->hws.pasid[vmid] = pasid;
    /* the device's cached translations go too */
    v->tlb_invalidations++;
}

/* The VMID of a mapped queue */
static unsigned v10_hws_hqd_vmid(HsaGpuV10 *v, unsigned ri)
{
    return V10_HQD(v, ri, V10_CP_HQD_VMID) & 0xf;
}

/*
 * Take the scheduler's queues of @pasid (0: any) off, but static ones
 * when @dynamic; with @doorbells, only those; @save: their state goes
 * back into their MQDs
 */
static unsigned v10_hws_unmap(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                              uint32_t pasid, bool dynamic,
                              const uint32_t *doorbells, unsigned ndb,
                              unsigned engines, bool save)
{
    unsigned err = 0;

    for (unsigned ri = 0; ri < V10_NUM_HQD && (engines & 1); ri++) {
        uint64_t mqd = v->hws.mqd[ri];
        unsigned vmid;
        bool hit = !doorbells;

        if (!mqd) {
            continue;
        }
        vmid = v10_hws_hqd_vmid(v, ri);
        for (unsigned i = 0; i < ndb; i++) {
            hit |= v->ring[ri].doorbell == V10_DOORBELL_OFFSET(doorbells[i]);
        }
        if (!hit || (pasid && v->hws.pasid[vmid] != pasid) ||
            (dynamic && (v->hws.static_mask >> ri & 1))) {
            continue;
        }
        /*
         * what the HQD holds goes back where it came from, its MQD, and
         * a PM4 queue's compute state (its SET_SH_REGs) with it
         */
        if (!hsagpu_v10_cp_hqd_stop(v, ri, save)) {
            err = HSAGPU_PM4_ERR_MEMORY;
        }
        v->hws.mqd[ri] = 0;
        v->hws.gws[ri] = 0;
        v->hws.static_mask &= ~(1ULL << ri);
        v->hws.unmaps++;
    }
    for (unsigned qi = 0; qi < V10_SDMA_RINGS; qi++) {
        unsigned e = qi / V10_SDMA_QUEUES, q = qi % V10_SDMA_QUEUES;
        uint32_t img[V10_SDMA_MQD_DW] = { 0 };
        uint64_t mqd = v->hws.sdma_mqd[qi];
        bool hit = !doorbells, back = save;

        if (!mqd || !(engines >> (HSAGPU_PM4_ENGINE_SDMA0 + e) & 1) ||
            (pasid && v->hws.sdma_pasid[qi] != pasid)) {
            continue;
        }
        for (unsigned i = 0; i < ndb; i++) {
            hit |= V10_DOORBELL_OFFSET(doorbells[i]) ==
                   V10_DOORBELL_OFFSET(v->reg[hsagpu_v10_sdma_reg(e, q,
                                              V10_SDMA_DOORBELL_OFFSET)]);
        }
        if (!hit) {
            continue;
        }
        /* the MQD's other fields stay as amdkfd wrote them */
        if (back && ops->read(ops->opaque, 0, mqd, img, sizeof(img))) {
            err = HSAGPU_PM4_ERR_MEMORY;
            back = false;
        }
        hsagpu_v10_sdma_mqd_save(v, e, q, img);
        if (back && ops->write(ops->opaque, 0, mqd, img, sizeof(img))) {
            err = HSAGPU_PM4_ERR_MEMORY;
        }
        v->hws.sdma_mqd[qi] = 0;
        v->hws.sdma_pasid[qi] = 0;
        v->hws.unmaps++;
    }
    /* a VMID whose process has no queue left is free again */
    for (unsigned vmid = 0; vmid < V10_NUM_VMIDS; vmid++) {
        bool used = false;

        if (!v->hws.pasid[vmid]) {
            continue;
        }
        for (unsigned ri = 0; ri < V10_NUM_HQD; ri++) {
            used |= v->hws.mqd[ri] && v10_hws_hqd_vmid(v, ri) == vmid;
        }
        for (unsigned qi = 0; qi < V10_SDMA_RINGS; qi++) {
            used |= v->hws.sdma_mqd[qi] &&
                    v->hws.sdma_pasid[qi] == v->hws.pasid[vmid];
        }
        if (!used) {
            v10_hws_vmid_set(v, ops, vmid, 0, NULL);
        }
    }
    return err;
}

/* A compute queue of the process on @vmid into a free HQD */
static unsigned v10_hws_map_compute(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                                    const uint32_t *pk, unsigned vmid,
                                    unsigned num_gws)
{
    uint64_t mqd = (uint64_t)pk[4] << 32 | pk[3];
    unsigned ri;

    for (ri = 0; ri < V10_NUM_HQD; ri++) {
        if ((v->hws.queue_mask >> ri & 1) && !v->ring[ri].active &&
            ri != v->kiq_ring && ri != v->hws.hiq_ring) {
            break;
        }
    }
    if (ri == V10_NUM_HQD) {
        return 0;                       /* its turn comes (time-slicing) */
    }
    if (!mqd || (mqd & 3) ||
        ops->read(ops->opaque, 0, mqd + V10_MQD_HQD_DW * 4, v->hqd[ri],
                  V10_HQD_NREGS * 4)) {
        return HSAGPU_PM4_ERR_MEMORY;
    }
    /* the packet's doorbell and write pointer, the scheduler's VMID */
    V10_HQD(v, ri, V10_CP_HQD_PQ_DOORBELL_CONTROL) =
        (pk[2] & 0x0ffffffc) | V10_DOORBELL_EN;
    V10_HQD(v, ri, V10_CP_HQD_PQ_WPTR_POLL_ADDR) = pk[5];
    V10_HQD(v, ri, V10_CP_HQD_PQ_WPTR_POLL_ADDR + 1) = pk[6];
    V10_HQD(v, ri, V10_CP_HQD_VMID) = vmid;
    V10_HQD(v, ri, V10_CP_HQD_ACTIVE) = 0;
    V10_HQD(v, ri, V10_CP_MQD_BASE_ADDR) = mqd;
    V10_HQD(v, ri, V10_CP_MQD_BASE_ADDR + 1) = mqd >> 32;
    v->hws.gws[ri] = pk[1] & HSAGPU_PM4_MQ_GWS_CONTROL ? num_gws : 0;
    /*
     * a PM4 queue's compute state, as it was when it was unmapped; its
     * write pointer, the process's (a doorbell rung while the queue was
     * off the hardware reached no HQD)
     */
    if (!hsagpu_v10_cp_hqd_start(v, ri, true)) {
        hsagpu_v10_cp_hqd_stop(v, ri, false);
        return HSAGPU_PM4_ERR_MEMORY;
    }
    hsagpu_v10_cp_fetch_wptr(v, ops, ri);
    v->hws.mqd[ri] = mqd;
    if (HSAGPU_PM4_MQ_QUEUE_TYPE(pk[1]) >= 2) {
        v->hws.static_mask |= 1ULL << ri;
    }
    v->hws.maps++;
    return 0;
}

/* An SDMA queue of the process on @vmid into a free RLC queue */
static unsigned v10_hws_map_sdma(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                                 const uint32_t *pk, unsigned vmid)
{
    unsigned e = HSAGPU_PM4_MQ_ENGINE(pk[1]) - HSAGPU_PM4_ENGINE_SDMA0;
    uint64_t mqd = (uint64_t)pk[4] << 32 | pk[3];
    uint64_t wptr_addr = (uint64_t)pk[6] << 32 | pk[5], wptr = 0;
    uint32_t img[V10_SDMA_MQD_DW];
    unsigned q;

    for (q = V10_SDMA_QUEUE_RLC0; q < V10_SDMA_QUEUES; q++) {
        if (!v->hws.sdma_mqd[e * V10_SDMA_QUEUES + q]) {
            break;
        }
    }
    if (q == V10_SDMA_QUEUES) {
        return 0;                       /* its turn comes (time-slicing) */
    }
    if (!mqd || (mqd & 3) || (wptr_addr & 7) ||
        ops->read(ops->opaque, 0, mqd, img, sizeof(img))) {
        return HSAGPU_PM4_ERR_MEMORY;
    }
    /* where the process has written up to, in its own space */
    if (wptr_addr && ops->read(ops->opaque, vmid, wptr_addr, &wptr, 8)) {
        wptr = 0;
    }
    hsagpu_v10_sdma_mqd_load(v, e, q, img, vmid, V10_DOORBELL_OFFSET(pk[2]),
                             wptr);
    v->hws.sdma_mqd[e * V10_SDMA_QUEUES + q] = mqd;
    v->hws.sdma_pasid[e * V10_SDMA_QUEUES + q] = v->hws.pasid[vmid];
    v->hws.maps++;
    return 0;
}

/* A mapped process of the runlist: its index there, VMID and GWS */
typedef struct V10RlProc {
    uint32_t pi;
    unsigned vmid, num_gws;
} V10RlProc;

/*
 * The runlist's IB (hws.rl_ib, rl_size dwords), a packet at a time, to
 * @visit: it holds only MAP_PROCESS and MAP_QUEUES (and, chained, a
 * RUN_LIST of itself at its end, which ends it). @visit gets each
 * packet with the index of the process it belongs to (MAP_PROCESS: its
 * own) and returns 0 or an error that ends the walk.
 */
static unsigned v10_hws_walk(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                             unsigned (*visit)(HsaGpuV10 *v,
                                               const HsaGpuV10CpOps *ops,
                                               uint32_t op, const uint32_t *p,
                                               uint32_t n, uint32_t pi,
                                               void *opaque),
                             void *opaque)
{
    uint64_t ib = v->hws.rl_ib;
    uint32_t size = v->hws.rl_size, pos = 0, pi = 0;
    uint32_t p[HSAGPU_PM4_MAP_PROCESS_DW];
    bool process = false;
    unsigned err = 0;

    while (pos < size && !err) {
        uint32_t op, n;

        if (ops->read(ops->opaque, 0, ib + pos * 4ULL, p, 4)) {
            return HSAGPU_PM4_ERR_MEMORY;
        }
        op = (p[0] >> HSAGPU_PM4_OPCODE_SHIFT) & HSAGPU_PM4_OPCODE_MASK;
        n = ((p[0] >> HSAGPU_PM4_COUNT_SHIFT) & HSAGPU_PM4_COUNT_MASK) + 2;
        if (p[0] >> HSAGPU_PM4_TYPE_SHIFT != HSAGPU_PM4_TYPE3 ||
            n > size - pos || n > HSAGPU_PM4_MAP_PROCESS_DW) {
            return HSAGPU_PM4_ERR_IB;
        }
        if (ops->read(ops->opaque, 0, ib + pos * 4ULL, p, n * 4)) {
            return HSAGPU_PM4_ERR_MEMORY;
        }
        pos += n;
        if (op == HSAGPU_PM4_OP_RUN_LIST) {
            break;
        }
        if (op == HSAGPU_PM4_OP_MAP_PROCESS &&
            n == HSAGPU_PM4_MAP_PROCESS_DW) {
            if (process) {
                pi++;
            }
            process = true;
        } else if (!(op == HSAGPU_PM4_OP_MAP_QUEUES &&
                     n == HSAGPU_PM4_MAP_QUEUES_DW && process &&
                     HSAGPU_PM4_MQ_NUM(p[1]) == 1 &&
                     HSAGPU_PM4_MQ_QUEUE_SEL(p[1]) == 1)) {
            return HSAGPU_PM4_ERR_IB;
        }
        err = visit(v, ops, op, p, n, pi, opaque);
    }
    return err;
}

/* What mapping a runlist found and did */
typedef struct V10RlMap {
    uint32_t first, qfirst;     /* the turn: first process, first queue */
    unsigned sweep;
    uint32_t nproc;             /* processes in the runlist */
    uint32_t used;              /* VMIDs given */
    V10RlProc res[V10_NUM_VMIDS];
    uint32_t resident;          /* processes mapped: res[] */
    uint32_t qi;                /* compute queues of resident processes */
    uint32_t mapped;            /* ... on an HQD */
    uint32_t refused;           /* queues of resident ones left off */
} V10RlMap;

/* The processes: each of this sweep's on the next free VMID */
static unsigned v10_rl_process(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                               uint32_t op, const uint32_t *p, uint32_t n,
                               uint32_t pi, void *opaque)
{
    V10RlMap *m = opaque;
    uint32_t free = v->hws.vmid_mask & ~m->used;
    unsigned vmid;

    if (op != HSAGPU_PM4_OP_MAP_PROCESS) {
        return 0;
    }
    m->nproc = pi + 1 > m->nproc ? pi + 1 : m->nproc;
    /* sweep 0: processes @first and on; sweep 1: those before it */
    if ((m->sweep ? pi >= m->first : pi < m->first) || !free) {
        return 0;                       /* its turn comes (time-slicing) */
    }
    vmid = __builtin_ctz(free);
    m->used |= 1u << vmid;
    m->res[m->resident++] = (V10RlProc) {
        pi, vmid, HSAGPU_PM4_MP_NUM_GWS(p[13]),
    };
    v10_hws_vmid_set(v, ops, vmid, HSAGPU_PM4_MP_PASID(p[1]), p);
    return 0;
}

/*
 * The queues of the resident processes: sweep 0 the compute queues from
 * the turn's @qfirst on (and every SDMA queue), sweep 1 those before it
 */
static unsigned v10_rl_queue(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                             uint32_t op, const uint32_t *p, uint32_t n,
                             uint32_t pi, void *opaque)
{
    V10RlMap *m = opaque;
    const V10RlProc *rp = NULL;
    unsigned eng = HSAGPU_PM4_MQ_ENGINE(p[1]);
    uint32_t maps = v->hws.maps;
    unsigned err;

    if (op != HSAGPU_PM4_OP_MAP_QUEUES) {
        return 0;
    }
    for (uint32_t i = 0; i < m->resident; i++) {
        if (m->res[i].pi == pi) {
            rp = &m->res[i];
        }
    }
    if (eng == HSAGPU_PM4_ENGINE_COMPUTE) {
        uint32_t qi = rp ? m->qi++ : 0;

        if (!rp || (m->sweep ? qi >= m->qfirst : qi < m->qfirst)) {
            return 0;
        }
        err = v10_hws_map_compute(v, ops, p, rp->vmid, rp->num_gws);
        m->mapped += !err && v->hws.maps != maps;
    } else if (eng == HSAGPU_PM4_ENGINE_SDMA0 ||
               eng == HSAGPU_PM4_ENGINE_SDMA1) {
        if (!rp || m->sweep) {
            return 0;
        }
        err = v10_hws_map_sdma(v, ops, p, rp->vmid);
    } else {
        return HSAGPU_PM4_ERR_IB;
    }
    m->refused += !err && v->hws.maps == maps;
    return err;
}

/*
 * The runlist onto the device, a turn of it: its processes from @m->first
 * on (wrapping round), each on the next free VMID while there is one;
 * their compute queues from the @m->qfirst-th on (wrapping round) on
 * free HQDs, while there are some.
 */
static unsigned v10_hws_map_runlist(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                                    V10RlMap *m)
{
    unsigned err = 0;

    for (m->sweep = 0; m->sweep < 2 && !err; m->sweep++) {
        err = v10_hws_walk(v, ops, v10_rl_process, m);
    }
    if (m->qfirst) {
        /* a turn of the queues: count them first, then wrap round */
        uint32_t q = m->qfirst;

        m->qfirst = 0;
        m->sweep = 2;
        err = err ? err : v10_hws_walk(v, ops, v10_rl_queue, m);
        m->qfirst = m->qi ? q % m->qi : 0;
        m->qi = 0;
    }
    for (m->sweep = 0; m->sweep < 2 && !err; m->sweep++) {
        m->qi = 0;
        err = v10_hws_walk(v, ops, v10_rl_queue, m);
    }
    return err;
}

/*
 * The runlist being served goes on the device again, from process
 * @first and compute queue @qfirst: everything mapped comes off first
 * (its work in flight saved, CWSR). With more processes than VMIDs, or
 * more queues than slots, the scheduler is oversubscribed (rl_over),
 * and hsagpu_v10_hws_rotate() gives the next ones their turn.
 */
static unsigned v10_hws_serve(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                              uint32_t first, uint32_t qfirst)
{
    V10RlMap m = { .first = first, .qfirst = qfirst };
    unsigned err;

    err = v10_hws_unmap(v, ops, 0, false, NULL, 0, ~0u, true);
    if (!err) {
        err = v10_hws_map_runlist(v, ops, &m);
    }
    if (err) {
        v->hws.rl_ib = 0;
        v->hws.rl_over = 0;
        return err;
    }
    v->hws.rl_first = m.nproc ? first % m.nproc : 0;
    v->hws.rl_qfirst = m.qfirst;
    v->hws.rl_nproc = m.nproc;
    v->hws.rl_resident = m.resident;
    v->hws.rl_queues = m.qi;
    v->hws.rl_mapped = m.mapped;
    v->hws.refused += (m.nproc - m.resident) + m.refused;
    v->hws.rl_over = m.nproc && (m.resident < m.nproc || m.refused);
    return 0;
}

/*
 * RUN_LIST: the runlist replaces what ran before, and is served until an
 * UNMAP_QUEUES or the next RUN_LIST (amdkfd sends one after every unmap
 * that is not a teardown, and rewrites the IB only in between).
 */
static unsigned v10_hws_run_list(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                                 const uint32_t *pk)
{
    if (!(pk[3] & HSAGPU_PM4_RL_VALID)) {
        return 0;
    }
    v->hws.runlists++;
    v->hws.rl_ib = (uint64_t)(pk[2] & 0xffff) << 32 | (pk[1] & ~3u);
    v->hws.rl_size = pk[3] & HSAGPU_PM4_IB_SIZE_MASK;
    return v10_hws_serve(v, ops, 0, 0);
}

unsigned hsagpu_v10_hws_rotate(HsaGpuV10 *v, const HsaGpuV10CpOps *ops)
{
    v->hws.rotate_due = false;
    if (!v->hws.rl_over || !v->hws.rl_ib || !v->hws.rl_nproc) {
        return 0;
    }
    v->hws.rotations++;
    /* the next processes after those that ran */
    if (v->hws.rl_resident < v->hws.rl_nproc) {
        return v10_hws_serve(v, ops, (v->hws.rl_first + v->hws.rl_resident) %
                                     v->hws.rl_nproc, 0);
    }
    /*
     * every process resident, more queues than slots: the next queues
     * after those that ran (a process's own too: kfdtest's
     * OverSubscribeCpQueues has one with 65)
     */
    return v10_hws_serve(v, ops, v->hws.rl_first,
                         v->hws.rl_qfirst + (v->hws.rl_mapped ?
                                             v->hws.rl_mapped : 1));
}

unsigned hsagpu_v10_hws_packet(HsaGpuV10 *v, const HsaGpuV10CpOps *ops,
                               const uint32_t *pk, uint32_t n)
{
    uint32_t op = (pk[0] >> HSAGPU_PM4_OPCODE_SHIFT) & HSAGPU_PM4_OPCODE_MASK;

    switch (op) {
    case HSAGPU_PM4_OP_SET_RESOURCES:
        if (n != HSAGPU_PM4_SET_RESOURCES_DW) {
            return HSAGPU_PM4_ERR_PACKET;
        }
        /* VMID 0 is the kernel's, never a process's */
        v->hws.vmid_mask = HSAGPU_PM4_SR_VMID_MASK(pk[1]) & 0xfffe;
        v->hws.queue_mask = (uint64_t)pk[3] << 32 | pk[2];
        return 0;
    case HSAGPU_PM4_OP_RUN_LIST:
        return n == HSAGPU_PM4_RUN_LIST_DW ? v10_hws_run_list(v, ops, pk)
                                          : HSAGPU_PM4_ERR_PACKET;
    case HSAGPU_PM4_OP_UNMAP_QUEUES: {
        unsigned sel = HSAGPU_PM4_UQ_QUEUE_SEL(pk[1]);
        unsigned eng = HSAGPU_PM4_UQ_ENGINE(pk[1]);
        unsigned nq = HSAGPU_PM4_UQ_NUM(pk[1]);
        /* the compute engine's unmaps are the process's SDMA queues' too */
        unsigned engines = eng == HSAGPU_PM4_ENGINE_COMPUTE ? ~0u :
                           eng == HSAGPU_PM4_ENGINE_SDMA0 ||
                           eng == HSAGPU_PM4_ENGINE_SDMA1 ? 1u << eng : 0;

        if (n != HSAGPU_PM4_UNMAP_QUEUES_DW || !engines ||
            (sel == HSAGPU_PM4_UQ_BY_DOORBELL && (nq < 1 || nq > 4)) ||
            (sel == HSAGPU_PM4_UQ_BY_PASID && !(pk[2] & 0xffff))) {
            return HSAGPU_PM4_ERR_PACKET;
        }
        /* no turns until the next runlist: amdkfd rewrites its IB now */
        v->hws.rl_ib = 0;
        v->hws.rl_over = 0;
        return v10_hws_unmap(v, ops,
                             sel == HSAGPU_PM4_UQ_BY_PASID ? pk[2] & 0xffff : 0,
                             sel == HSAGPU_PM4_UQ_ALL_DYNAMIC,
                             sel == HSAGPU_PM4_UQ_BY_DOORBELL ? pk + 2 : NULL,
                             sel == HSAGPU_PM4_UQ_BY_DOORBELL ? nq : 0,
                             engines,
                             HSAGPU_PM4_UQ_ACTION(pk[1]) !=
                             HSAGPU_PM4_UQ_RESET);
    }
    case HSAGPU_PM4_OP_QUERY_STATUS:
        return hsagpu_v10_query_status(ops, pk, n);
    }
    /* MAP_PROCESS and MAP_QUEUES come in a runlist, not on the ring */
    return HSAGPU_PM4_ERR_OPCODE;
}
