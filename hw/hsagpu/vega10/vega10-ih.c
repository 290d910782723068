/*
 * hsa-gpu, Vega10 personality: the IH's ring 0, independent of QEMU
 * (vega10-ih.h says what it is for).
 *
 * The ring: IH_RB_BASE/_HI hold its address >> 8 (48 bits), RB_SIZE its
 * size as log2 dwords. The pointers are byte offsets in [17:2], so a
 * ring is at most 256 KiB: a larger RB_SIZE counts as 16. MC_SPACE 1 is
 * a bus address (what amdgpu programs, use_bus_addr); any other value a
 * GPU address in MC_VMID's space: the write callback is told which.
 * Every entry is 32 bytes at a 32-byte aligned offset of a ring of at
 * least 64 bytes, so it never wraps; the write-back slot is the dword at
 * IH_RB_WPTR_ADDR_HI:LO, in the ring's address space. MC_SNOOP, MC_RO,
 * MC_SWAP (entries are little-endian), IH_CNTL's write-back timer and
 * RB_FULL_DRAIN are stored and have no effect: every write is coherent
 * and immediate.
 *
 * Overflow: the ring is full when an entry would bring the write
 * pointer onto the read pointer (it holds size / 32 - 1 entries). A full
 * ring drops the new entry, never one the driver has not read; with
 * WPTR_OVERFLOW_ENABLE it sets IH_RB_WPTR.RB_OVERFLOW and writes the
 * write-back with it. vega10_ih_get_wptr then reads IH_RB_WPTR and, if
 * RB_OVERFLOW is still set, restarts at wptr + 32 and writes
 * WPTR_OVERFLOW_CLEAR. RB_OVERFLOW is set only while the ring is full:
 * any rptr or wptr write and any write of IH_RB_CNTL that leave room
 * clear it, as does WPTR_OVERFLOW_CLEAR. So when the driver sees it,
 * wptr + 32 is the read pointer: it reads every entry in the ring again
 * from the oldest unread one, none twice, and loses only those dropped.
 * WPTR_OVERFLOW_CLEAR is an action and reads 0 (amdgpu's read-modify-
 * writes of IH_RB_CNTL must not keep clearing).
 *
 * The MSI (RB_ENABLE and ENABLE_INTR set). Without RPTR_REARM, every
 * entry written asks for one. With it (amdgpu sets it when it has MSI),
 * one MSI per batch: an entry asks for the MSI unless one is
 * outstanding, i.e. raised with no rptr write since; an rptr write ends
 * it, and asks for a new one at once if entries are still unread
 * (rptr != wptr). Turning interrupts on with unread entries asks too.
 * No entry goes unannounced: an entry written while an MSI is
 * outstanding is in the ring before the driver's rptr write that ends
 * it; that write either passes the entry (the driver has it) or leaves
 * rptr != wptr, which asks for a new MSI, raised after the entry and its
 * write-back are in memory. amdgpu's handler always ends with an rptr
 * write (amdgpu_ih_process, vega10_ih_set_rptr), also when it stops at
 * AMDGPU_IH_MAX_NUM_IVS; the cost is at most one extra MSI per write
 * that leaves entries behind.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "vega10.h"

void hsagpu_v10_ih_reset(HsaGpuV10 *v)
{
    memset(&v->ih, 0, sizeof(v->ih));
}

/* The ring's size in bytes (a power of 2, 4 to 256 KiB) */
static uint32_t v10_ih_size(uint32_t cntl)
{
    uint32_t log2 = V10_IH_RB_CNTL_RB_SIZE(cntl);

    if (log2 > V10_IH_RB_SIZE_MAX) {
        log2 = V10_IH_RB_SIZE_MAX;
    }
    return 4u << log2;
}

/* The write pointer: entry-aligned, inside the ring */
static uint32_t v10_ih_wptr(HsaGpuV10 *v, uint32_t size)
{
    return v->reg[V10_IH_RB_WPTR] & V10_IH_RB_PTR_OFFSET_MASK &
           (size - 1) & ~(uint32_t)(V10_IV_BYTES - 1);
}

static uint32_t v10_ih_rptr(HsaGpuV10 *v, uint32_t size)
{
    return v->reg[V10_IH_RB_RPTR] & V10_IH_RB_PTR_OFFSET_MASK & (size - 1);
}

/* Whether the next entry would reach (or overlap) unread bytes */
static bool v10_ih_full(HsaGpuV10 *v)
{
    uint32_t size = v10_ih_size(v->reg[V10_IH_RB_CNTL]);
    uint32_t room = (v10_ih_rptr(v, size) - v10_ih_wptr(v, size)) &
                    (size - 1);

    if (!room) {
        room = size;            /* empty */
    }
    return room <= V10_IV_BYTES;
}

static bool v10_ih_empty(HsaGpuV10 *v)
{
    uint32_t size = v10_ih_size(v->reg[V10_IH_RB_CNTL]);

    return v10_ih_rptr(v, size) == v10_ih_wptr(v, size);
}

static bool v10_ih_intr_on(uint32_t cntl)
{
    return (cntl & V10_IH_RB_CNTL_RB_ENABLE) &&
           (cntl & V10_IH_RB_CNTL_ENABLE_INTR);
}

/* RB_OVERFLOW stays set only while the ring is full */
static void v10_ih_settle_overflow(HsaGpuV10 *v)
{
    if (!v10_ih_full(v)) {
        v->reg[V10_IH_RB_WPTR] &= ~V10_IH_RB_WPTR_RB_OVERFLOW;
    }
}

static void v10_put_le32(uint8_t *p, uint32_t x)
{
    p[0] = x;
    p[1] = x >> 8;
    p[2] = x >> 16;
    p[3] = x >> 24;
}

static void v10_ih_write_back(HsaGpuV10 *v, HsaGpuV10IhWrite write,
                              void *opaque)
{
    uint32_t cntl = v->reg[V10_IH_RB_CNTL];
    uint32_t wptr = v->reg[V10_IH_RB_WPTR];
    uint64_t addr = (uint64_t)(v->reg[V10_IH_RB_WPTR_ADDR_HI] &
                               V10_IH_RB_WPTR_ADDR_HI_MASK) << 32 |
                    (v->reg[V10_IH_RB_WPTR_ADDR_LO] &
                     V10_IH_RB_WPTR_ADDR_LO_MASK);
    uint8_t buf[4];

    if (!(cntl & V10_IH_RB_CNTL_WPTR_WRITEBACK_ENABLE)) {
        return;
    }
    v10_put_le32(buf, wptr);
    if (!write(opaque, addr,
               V10_IH_RB_CNTL_MC_SPACE(cntl) == V10_IH_MC_SPACE_BUS,
               V10_IH_RB_CNTL_MC_VMID(cntl), buf, sizeof(buf))) {
        v->ih.write_errors++;
    }
}

/* An MSI is asked for: with RPTR_REARM, none until the next rptr write */
static bool v10_ih_msi(HsaGpuV10 *v)
{
    v->ih.msi_outstanding =
        !!(v->reg[V10_IH_RB_CNTL] & V10_IH_RB_CNTL_RPTR_REARM);
    v->ih.msis++;
    return true;
}

bool hsagpu_v10_ih_push(HsaGpuV10 *v, const HsaGpuV10Iv *iv,
                        uint64_t now_ticks, HsaGpuV10IhWrite write,
                        void *opaque)
{
    uint32_t cntl = v->reg[V10_IH_RB_CNTL];
    uint32_t size = v10_ih_size(cntl);
    uint32_t wptr = v10_ih_wptr(v, size);
    uint64_t addr = (uint64_t)(v->reg[V10_IH_RB_BASE_HI] &
                               V10_IH_RB_BASE_HI_MASK) << 40 |
                    (uint64_t)v->reg[V10_IH_RB_BASE] << 8;
    HsaGpuV10Iv e = *iv;
    uint8_t buf[V10_IV_BYTES];

    if (!(cntl & V10_IH_RB_CNTL_RB_ENABLE)) {
        v->ih.discarded++;
        return false;
    }
    if (v10_ih_full(v)) {
        v->ih.overflows++;
        if ((cntl & V10_IH_RB_CNTL_WPTR_OVERFLOW_ENABLE) &&
            !(v->reg[V10_IH_RB_WPTR] & V10_IH_RB_WPTR_RB_OVERFLOW)) {
            v->reg[V10_IH_RB_WPTR] |= V10_IH_RB_WPTR_RB_OVERFLOW;
            v10_ih_write_back(v, write, opaque);
        }
        /*
         * Unread entries fill the ring, so their MSI is outstanding;
         * unless the state was lost (reset, migration): ask again.
         */
        return v10_ih_intr_on(cntl) && !v->ih.msi_outstanding &&
               v10_ih_msi(v);
    }

    /* the PASID the driver mapped to the VMID (set_pasid_vmid_mapping) */
    if (!e.pasid && (e.vmid & 0xf)) {
        uint32_t lut = e.vmid_src == V10_IV_VMID_SRC_MMHUB ?
                       V10_IH_VMID_0_LUT_MM : V10_IH_VMID_0_LUT;

        e.pasid = v->reg[lut + (e.vmid & 0xf)] & 0xffff;
    }
    e.timestamp = now_ticks;   /* encoded: its 48 bits */
    hsagpu_v10_iv_encode(&e, buf);
    if (!write(opaque, addr + wptr,
               V10_IH_RB_CNTL_MC_SPACE(cntl) == V10_IH_MC_SPACE_BUS,
               V10_IH_RB_CNTL_MC_VMID(cntl), buf, sizeof(buf))) {
        /* no entry there: the pointer stays */
        v->ih.write_errors++;
        return false;
    }
    v->ih.entries++;
    /* room was left, so RB_OVERFLOW (ring full) no longer holds */
    v->reg[V10_IH_RB_WPTR] = (wptr + V10_IV_BYTES) & (size - 1);
    v10_ih_write_back(v, write, opaque);

    if (!v10_ih_intr_on(cntl) || v->ih.msi_outstanding) {
        return false;
    }
    return v10_ih_msi(v);
}

/* The driver has read up to @val (register or doorbell) */
static bool v10_ih_set_rptr(HsaGpuV10 *v, uint32_t val)
{
    uint32_t cntl = v->reg[V10_IH_RB_CNTL];

    v->reg[V10_IH_RB_RPTR] = val & V10_IH_RB_PTR_OFFSET_MASK;
    v10_ih_settle_overflow(v);
    v->ih.msi_outstanding = false;
    if (v10_ih_intr_on(cntl) && (cntl & V10_IH_RB_CNTL_RPTR_REARM) &&
        !v10_ih_empty(v)) {
        return v10_ih_msi(v);
    }
    return false;
}

static bool v10_ih_set_cntl(HsaGpuV10 *v, uint32_t val)
{
    uint32_t old = v->reg[V10_IH_RB_CNTL];

    v->reg[V10_IH_RB_CNTL] = val & ~V10_IH_RB_CNTL_WPTR_OVERFLOW_CLEAR;
    if (val & V10_IH_RB_CNTL_WPTR_OVERFLOW_CLEAR) {
        v->reg[V10_IH_RB_WPTR] &= ~V10_IH_RB_WPTR_RB_OVERFLOW;
    }
    /* a new RB_SIZE may leave room */
    v10_ih_settle_overflow(v);
    if (!v10_ih_intr_on(val)) {
        v->ih.msi_outstanding = false;
        return false;
    }
    if (!v10_ih_intr_on(old) && !v10_ih_empty(v)) {
        return v10_ih_msi(v);
    }
    return false;
}

bool hsagpu_v10_ih_write(HsaGpuV10 *v, uint32_t dw, uint32_t val)
{
    switch (dw) {
    case V10_IH_RB_CNTL:
        return v10_ih_set_cntl(v, val);
    case V10_IH_RB_RPTR:
        return v10_ih_set_rptr(v, val);
    case V10_IH_RB_WPTR:
        /* the driver resets the ring (0): on an entry, no overflow */
        v->reg[dw] = val & V10_IH_RB_PTR_OFFSET_MASK &
                     ~(uint32_t)(V10_IV_BYTES - 1);
        return false;
    }
    if (dw < V10_NREGS) {
        v->reg[dw] = val;
    }
    return false;
}

uint32_t hsagpu_v10_ih_read(HsaGpuV10 *v, uint32_t dw)
{
    /* what the rules above keep in the registers is what reads back */
    return dw < V10_NREGS ? v->reg[dw] : 0;
}

bool hsagpu_v10_ih_doorbell(HsaGpuV10 *v, uint32_t index, uint32_t val,
                            bool *msi)
{
    static const uint32_t doorbell[3] = {
        V10_IH_DOORBELL_RPTR, V10_IH_DOORBELL_RPTR_RING1,
        V10_IH_DOORBELL_RPTR_RING2,
    };
    static const uint32_t rptr[3] = {
        V10_IH_RB_RPTR, V10_IH_RB_RPTR_RING1, V10_IH_RB_RPTR_RING2,
    };
    unsigned i;

    *msi = false;
    for (i = 0; i < 3; i++) {
        uint32_t db = v->reg[doorbell[i]];

        if (!(db & V10_IH_DOORBELL_RPTR_ENABLE) ||
            V10_IH_DOORBELL_RPTR_OFFSET(db) != index) {
            continue;
        }
        if (i == 0) {
            *msi = v10_ih_set_rptr(v, val);
        } else {
            /* rings 1 and 2 carry nothing: the rptr is only stored */
            v->reg[rptr[i]] = val & V10_IH_RB_PTR_OFFSET_MASK;
        }
        return true;
    }
    return false;
}

void hsagpu_v10_iv_encode(const HsaGpuV10Iv *iv, uint8_t out[V10_IV_BYTES])
{
    uint32_t dw[8];
    unsigned i;

    dw[0] = iv->client_id | (uint32_t)iv->src_id << 8 |
            (uint32_t)iv->ring_id << 16 | (uint32_t)(iv->vmid & 0xf) << 24 |
            (uint32_t)(iv->vmid_src & 1) << 31;
    dw[1] = (uint32_t)iv->timestamp;
    dw[2] = (uint32_t)(iv->timestamp >> 32) & 0xffff;
    dw[2] |= (uint32_t)(iv->timestamp_src & 1) << 31;
    dw[3] = iv->pasid | (uint32_t)iv->node_id << 16;
    for (i = 0; i < 4; i++) {
        dw[4 + i] = iv->src_data[i];
    }
    for (i = 0; i < 8; i++) {
        v10_put_le32(out + 4 * i, dw[i]);
    }
}

void hsagpu_v10_iv_cp(HsaGpuV10Iv *iv, unsigned src_id, unsigned me,
                      unsigned pipe, unsigned queue, unsigned vmid,
                      uint32_t context_id)
{
    memset(iv, 0, sizeof(*iv));
    iv->client_id = V10_IV_CLIENT_GRBM_CP;
    iv->src_id = src_id;
    /* gfx_v9_0_eop_irq and _fault: queue [6:4], me [3:2], pipe [1:0] */
    iv->ring_id = (queue & 7) << 4 | (me & 3) << 2 | (pipe & 3);
    iv->vmid = vmid & 0xf;
    iv->vmid_src = V10_IV_VMID_SRC_GFXHUB;
    iv->src_data[0] = context_id;
}

void hsagpu_v10_iv_cp_eop(HsaGpuV10Iv *iv, unsigned me, unsigned pipe,
                          unsigned queue, unsigned vmid, uint32_t context_id)
{
    hsagpu_v10_iv_cp(iv, V10_IV_SRC_CP_EOP, me, pipe, queue, vmid,
                     context_id);
}

void hsagpu_v10_iv_sdma_trap(HsaGpuV10Iv *iv, unsigned engine,
                             unsigned ring_id, unsigned vmid,
                             uint32_t context)
{
    memset(iv, 0, sizeof(*iv));
    iv->client_id = engine & 1 ? V10_IV_CLIENT_SDMA1 : V10_IV_CLIENT_SDMA0;
    iv->src_id = V10_IV_SRC_SDMA_TRAP;
    iv->ring_id = ring_id;
    iv->vmid = vmid & 0xf;
    /* SDMA's VMIDs are the MMHUB's */
    iv->vmid_src = V10_IV_VMID_SRC_MMHUB;
    /* the TRAP packet's INT_CONTEXT field */
    iv->src_data[0] = context & 0x0fffffff;
}

void hsagpu_v10_iv_vm_fault(HsaGpuV10Iv *iv, bool mmhub, unsigned vmid,
                            uint64_t addr, unsigned flags)
{
    memset(iv, 0, sizeof(*iv));
    iv->client_id = mmhub ? V10_IV_CLIENT_VMC : V10_IV_CLIENT_UTCL2;
    iv->src_id = V10_IV_SRC_VM_FAULT;
    iv->vmid = vmid & 0xf;
    iv->vmid_src = mmhub ? V10_IV_VMID_SRC_MMHUB : V10_IV_VMID_SRC_GFXHUB;
    /* KFD's protection bits (kfd_int_process_v9) */
    iv->ring_id = (flags & V10_IV_FAULT_NOT_PRESENT ? 0x08 : 0) |
                  (flags & V10_IV_FAULT_READ_DENIED ? 0x10 : 0) |
                  (flags & V10_IV_FAULT_WRITE_DENIED ? 0x20 : 0);
    /* the page: [43:12] in src_data[0], [47:44] in src_data[1][3:0] */
    iv->src_data[0] = (uint32_t)(addr >> 12);
    iv->src_data[1] = (uint32_t)(addr >> 44) & 0xf;
    if (flags & V10_IV_FAULT_WRITE) {
        iv->src_data[1] |= 0x20;
    }
    if (flags & V10_IV_FAULT_RETRY) {
        iv->src_data[1] |= 0x80;
    }
}

void hsagpu_v10_iv_sq_msg(HsaGpuV10Iv *iv, unsigned se, unsigned vmid,
                          uint32_t data)
{
    memset(iv, 0, sizeof(*iv));
    iv->client_id = V10_IV_CLIENT_SE0SH + (se & 3);
    iv->src_id = V10_IV_SRC_SQ_INTERRUPT;
    iv->vmid = vmid & 0xf;
    iv->vmid_src = V10_IV_VMID_SRC_GFXHUB;
    /*
     * SQ_INTERRUPT_WORD_WAVE_CTXID with ENCODING 1 (an instruction's):
     * the data's [11:0] in [11:0], [15:12] in [31:28], [23:16] in
     * context id 1's [7:0]; wave, SIMD, CU, SH and PRIV left 0.
     */
    iv->src_data[0] = (data & 0xfff) | ((data >> 12) & 0xf) << 28 |
                      1u << 26 | (se & 3) << 24;
    iv->src_data[1] = (data >> 16) & 0xff;
}
