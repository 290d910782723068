/*
 * hsa-gpu: PCIe AtomicOp requester engine.
 *
 * hsagpu_atomic_try() issues one AtomicOp: it asks the bus resolver
 * (hsagpu-bus.c) where the target is, like every other access, so the
 * p2p-addr-bits limit applies; checks the path against the PCIe rules
 * (requester enable, alignment, routing support of every switch port,
 * egress blocking, completer support for the operand size); and performs
 * the operation with host atomics on the target memory, so that it is
 * atomic with respect to guest vCPUs. hsagpu_atomic_report() reports a
 * failure through ERROR_STATUS, the error interrupt and AER.
 *
 * Two requesters use it: the register-programmed engine (ATOMIC_CTRL.GO,
 * hsagpu_atomic_run(), reports at once) and the queue processor's
 * FetchAdds for signals, the read index and ATOMIC_INC (hsagpu-ops.c,
 * reports after the pass). Without AtomicOp Requester Enable the
 * processor falls back to a read and a write through the bus resolver
 * instead (hsagpu-ops.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/rcu.h"
#include "exec/memory.h"
#include "hw/pci/pci_bus.h"
#include "hw/pci/pcie.h"
#include "hw/pci/pcie_aer.h"
#include "hsagpu.h"
#include "trace.h"

static uint16_t hsagpu_exp(PCIDevice *d)
{
    return pci_is_express(d) ? d->exp.exp_cap : 0;
}

static uint32_t hsagpu_devcap2(PCIDevice *d)
{
    uint16_t exp = hsagpu_exp(d);

    return exp ? pci_get_long(d->config + exp + PCI_EXP_DEVCAP2) : 0;
}

/*
 * A hop in the request's path. Going up, the request leaves a switch
 * through its upstream port; going down, through a downstream or root
 * port. Every port on the way routes it, except a root port on the way to
 * system memory, which completes it.
 */
static void hsagpu_hop(PCIDevice *port, bool down, bool to_memory,
                       HsaGpuPathHop *h)
{
    uint16_t exp = hsagpu_exp(port);

    h->type = exp ? pcie_cap_get_type(port) : 0;
    h->devcap2 = hsagpu_devcap2(port);
    h->devctl2 = exp ? pci_get_word(port->config + exp + PCI_EXP_DEVCTL2) : 0;
    h->egress = down ? h->type != HSAGPU_PCIE_TYPE_UPSTREAM
                     : h->type == HSAGPU_PCIE_TYPE_UPSTREAM;
    h->routes = !(to_memory && h->type == HSAGPU_PCIE_TYPE_ROOT_PORT);
}

/* Check the path to @peer (NULL: system memory); 0 or a status code. */
static unsigned hsagpu_atomic_path(PCIDevice *self, PCIDevice *peer,
                                   unsigned size)
{
    PCIDevice *up[HSAGPU_MAX_PORTS], *down[HSAGPU_MAX_PORTS];
    HsaGpuPathHop hops[2 * HSAGPU_MAX_PORTS];
    int nup = hsagpu_ports_above(self, up);
    int ndown = 0, n = 0;
    uint32_t completer;

    if (peer) {
        ndown = hsagpu_ports_above(peer, down);
        /* Drop the common ancestors: the request turns around below them. */
        while (nup && ndown && up[nup - 1] == down[ndown - 1]) {
            nup--;
            ndown--;
        }
        completer = hsagpu_devcap2(peer);
    } else {
        /*
         * The root port completes requests to system memory; a root-complex
         * integrated endpoint has none and its root complex is assumed to.
         */
        completer = nup ? hsagpu_devcap2(up[nup - 1])
                        : HSAGPU_DEVCAP2_ATOMIC_COMP32 |
                          HSAGPU_DEVCAP2_ATOMIC_COMP64 |
                          HSAGPU_DEVCAP2_ATOMIC_COMP128;
    }
    for (int i = 0; i < nup; i++) {
        hsagpu_hop(up[i], false, !peer, &hops[n++]);
    }
    for (int i = ndown - 1; i >= 0; i--) {
        hsagpu_hop(down[i], true, false, &hops[n++]);
    }
    return hsagpu_atomic_route(hops, n, completer, size);
}

/*
 * The path check for the requester @s, safe without the BQL: another
 * function's config space and topology are read only under the BQL or
 * while it is a registered peer (hsagpu-p2p.c); a peer that left the
 * registry has been unplugged and nothing answers (UR). Other functions
 * decoding the address are not memory (the caller answers CA); their
 * path is checked only with the BQL held (the register engine).
 */
static unsigned hsagpu_atomic_path_safe(HsaGpuState *s, PCIDevice *completer,
                                        unsigned size)
{
    HsaGpuState *peer;
    unsigned st;

    if (!completer || bql_locked()) {
        return hsagpu_atomic_path(PCI_DEVICE(s), completer, size);
    }
    peer = (HsaGpuState *)object_dynamic_cast(OBJECT(completer),
                                              TYPE_HSA_GPU);
    if (!peer) {
        return HSAGPU_ATOMIC_ST_OK;
    }
    if (!hsagpu_p2p_lock_registered(peer)) {
        return HSAGPU_ATOMIC_ST_UR;
    }
    st = hsagpu_atomic_path(PCI_DEVICE(s), completer, size);
    hsagpu_p2p_unlock();
    return st;
}

void hsagpu_atomic_report(HsaGpuState *s, unsigned st, uint64_t addr,
                          uint32_t ctrl)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    PCIEAERErr err = { .source_id = pci_requester_id(pdev) };
    uint32_t gen = s->gen;

    /*
     * The requester of a non-posted request that completed with UR or
     * CA records Received Master Abort or Received Target Abort.
     */
    switch (st) {
    case HSAGPU_ATOMIC_ST_UR:
        err.status = PCI_ERR_UNC_UNSUP;
        pci_word_test_and_set_mask(pdev->config + PCI_STATUS,
                                   PCI_STATUS_REC_MASTER_ABORT);
        break;
    case HSAGPU_ATOMIC_ST_CA:
        err.status = PCI_ERR_UNC_COMP_ABORT;
        pci_word_test_and_set_mask(pdev->config + PCI_STATUS,
                                   PCI_STATUS_REC_TARGET_ABORT);
        break;
    case HSAGPU_ATOMIC_ST_MALFORMED:
        /*
         * The device does not put a malformed TLP on the link (its
         * receiver would take the link down with a fatal error); it
         * records the error in its own AER status only.
         */
        if (pdev->exp.aer_cap) {
            pci_long_test_and_set_mask(pdev->config + pdev->exp.aer_cap +
                                       PCI_ERR_UNCOR_STATUS,
                                       PCI_ERR_UNC_MALF_TLP);
        }
        break;
    }
    if (err.status && pdev->exp.aer_cap) {
        pcie_aer_inject_error(pdev, &err);
    }
    qemu_log_mask(LOG_GUEST_ERROR, "hsa-gpu: AtomicOp ctrl 0x%x at 0x%" PRIx64
                  " failed with status %u\n", ctrl, addr, st);
    /* The root port's AER message may have reset or unplugged us. */
    if (s->gen == gen && hsagpu_regs_raise_error(&s->regs, HSAGPU_ERR_ATOMIC)) {
        hsagpu_error_irq(s);
    }
}

/*
 * Issue one AtomicOp (@count times) for the requester of @c: checks, then
 * the bus resolver says where @addr goes, then the path to the completer
 * is checked and the operation performed on the target's RAM with host
 * atomics. Returns an HSAGPU_ATOMIC_ST_* code; the caller reports
 * failures (hsagpu_atomic_report) when it holds the BQL.
 */
unsigned hsagpu_atomic_try(HsaGpuBusCtx *c, uint64_t addr, uint32_t ctrl,
                           const uint64_t src0[2], const uint64_t src1[2],
                           uint64_t result[2], uint32_t count, uint32_t *done)
{
    PCIDevice *pdev = PCI_DEVICE(c->s);
    uint16_t exp = pdev->exp.exp_cap;
    unsigned size = hsagpu_atomic_size(ctrl);
    HsaGpuBusTarget t = { 0 };
    HsaGpuBusRefusal r;
    bool mapped = false;
    unsigned st;

    RCU_READ_LOCK_GUARD();
    *done = 0;
    result[0] = result[1] = 0;
    if (!(pci_get_word(pdev->config + PCI_COMMAND) & PCI_COMMAND_MASTER)) {
        st = HSAGPU_ATOMIC_ST_NO_BUS_MASTER;
        goto out;
    }
    if (!(pci_get_word(pdev->config + exp + PCI_EXP_DEVCTL2) &
          PCI_EXP_DEVCTL2_ATOMIC_REQ)) {
        st = HSAGPU_ATOMIC_ST_NOT_ENABLED;
        goto out;
    }
    st = hsagpu_atomic_check(addr, ctrl);
    if (st) {
        goto out;
    }

    c->atomic = true;
    mapped = hsagpu_bus_map_get(c, addr, size, true, &t);
    r = mapped ? HSAGPU_BUS_OK : hsagpu_bus_resolve(c, addr, size, true, &t);
    c->atomic = false;
    if (r == HSAGPU_BUS_VM_FAULT) {
        /* Translation failed: no request at all. */
        st = HSAGPU_ATOMIC_ST_VM_FAULT;
        goto out;
    }
    if (r == HSAGPU_BUS_PEER_LIMIT || r == HSAGPU_BUS_ADDR_LIMIT) {
        /* The device cannot emit the request: nothing is sent. */
        st = hsagpu_bus_atomic_st(r, t.completer);
        goto out;
    }
    if (t.completer != pdev) {
        st = hsagpu_atomic_path_safe(c->s, t.completer, size);
        if (st) {
            goto out;
        }
    }
    st = hsagpu_fault_atomic(c->s, addr);
    if (st) {
        goto out;
    }
    if (r || t.len < size) {
        /*
         * Nothing answers at a hole in memory (UR); a peer BAR that is
         * not memory cannot perform the operation (CA).
         */
        st = hsagpu_bus_atomic_st(r ? r : HSAGPU_BUS_NOT_MEMORY, t.completer);
        goto out;
    }
    /*
     * t.host is VRAM or RAM the resolver found directly accessible
     * (memory_access_is_direct(), which refuses ram_device regions such
     * as VFIO BAR mmaps): host atomics never run on device memory.
     */
    for (; *done < count; (*done)++) {
        hsagpu_atomic_exec(t.host, ctrl, src0, src1, result);
    }
    st = HSAGPU_ATOMIC_ST_OK;
out:
    hsagpu_bus_release(c, &t, true, st == HSAGPU_ATOMIC_ST_OK ? size : 0);
    if (st == HSAGPU_ATOMIC_ST_OK && !mapped) {
        /* Signals and read indices take AtomicOps again and again. */
        c->atomic = true;
        hsagpu_bus_map_fill(c, addr, size, true);
        c->atomic = false;
    }
    trace_hsagpu_atomic(c->queue, addr, ctrl, count,
                        st == HSAGPU_ATOMIC_ST_OK ? result[0] : 0, st);
    return st;
}

/* ATOMIC_CTRL written with GO: run the register-programmed operation. */
void hsagpu_atomic_run(HsaGpuState *s)
{
    HsaGpuRegFile *rf = &s->regs;
    uint32_t ctrl = rf->atomic_ctrl & ~HSAGPU_ATOMIC_GO;
    uint64_t addr = hsagpu_reg64(rf->atomic_addr[0], rf->atomic_addr[1]);
    uint64_t src0[2], src1[2], result[2];
    uint32_t count = MIN(MAX(rf->atomic_repeat, 1), HSAGPU_ATOMIC_REPEAT_MAX);
    uint32_t done;
    unsigned st, op = ctrl & HSAGPU_ATOMIC_OP_MASK;
    HsaGpuBusCtx c;

    for (int i = 0; i < 2; i++) {
        src0[i] = rf->atomic_src0[2 * i] |
                  (uint64_t)rf->atomic_src0[2 * i + 1] << 32;
        src1[i] = rf->atomic_src1[2 * i] |
                  (uint64_t)rf->atomic_src1[2 * i + 1] << 32;
    }
    hsagpu_bus_ctx_init(&c, s, -1);
    c.vmid = rf->atomic_vmid;
    c.client = HSAGPU_VM_CLIENT_ATOMIC;
    st = hsagpu_atomic_try(&c, addr, ctrl, src0, src1, result, count, &done);
    hsagpu_bus_ctx_end(&c);
    for (int i = 0; i < 2; i++) {
        rf->atomic_result[2 * i] = result[i];
        rf->atomic_result[2 * i + 1] = result[i] >> 32;
    }
    rf->atomic_ctrl = ctrl;
    rf->atomic_status = st | HSAGPU_ATOMIC_DONE;
    if (op < ARRAY_SIZE(rf->atomic_cnt_op)) {
        rf->atomic_cnt_op[op] += st == HSAGPU_ATOMIC_ST_OK ? done : 1;
    }
    rf->atomic_cnt_st[st] += st == HSAGPU_ATOMIC_ST_OK ? done : 1;
    /* Last: its interrupt may reset or unplug the device. */
    if (st != HSAGPU_ATOMIC_ST_OK) {
        hsagpu_atomic_report(s, st, addr, ctrl);
    }
}
