/*
 * hsa-gpu: BAR5 register file semantics, independent of QEMU.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-core.h"

static const struct {
    uint32_t offset;
    const char *name;
    int writable;
} hsagpu_regs[] = {
    { HSAGPU_REG_MAGIC, "MAGIC", 0 },
    { HSAGPU_REG_ABI_VERSION, "ABI_VERSION", 0 },
    { HSAGPU_REG_CAPS, "CAPS", 0 },
    { HSAGPU_REG_DEVICE_ID, "DEVICE_ID", 0 },
    { HSAGPU_REG_VRAM_SIZE_LO, "VRAM_SIZE_LO", 0 },
    { HSAGPU_REG_VRAM_SIZE_HI, "VRAM_SIZE_HI", 0 },
    { HSAGPU_REG_DOORBELL_COUNT, "DOORBELL_COUNT", 0 },
    { HSAGPU_REG_DOORBELL_STRIDE, "DOORBELL_STRIDE", 0 },
    { HSAGPU_REG_NUM_QUEUES, "NUM_QUEUES", 0 },
    { HSAGPU_REG_MSIX_VECTORS, "MSIX_VECTORS", 0 },
    { HSAGPU_REG_ROM_SIZE, "ROM_SIZE", 0 },
    { HSAGPU_REG_REVISION, "REVISION", 0 },
    { HSAGPU_REG_COMPUTE_UNITS, "COMPUTE_UNITS", 0 },
    { HSAGPU_REG_SCRATCH0, "SCRATCH0", 1 },
    { HSAGPU_REG_SCRATCH1, "SCRATCH1", 1 },
    { HSAGPU_REG_STATUS, "STATUS", 0 },
    { HSAGPU_REG_ERROR_STATUS, "ERROR_STATUS", 1 },
    { HSAGPU_REG_BAD_ACCESS_COUNT, "BAD_ACCESS_COUNT", 0 },
    { HSAGPU_REG_BAD_ACCESS_ADDR, "BAD_ACCESS_ADDR", 0 },
    { HSAGPU_REG_BAD_ACCESS_INFO, "BAD_ACCESS_INFO", 0 },
    { HSAGPU_REG_ERROR_INT_ENABLE, "ERROR_INT_ENABLE", 1 },
    { HSAGPU_REG_TIMESTAMP_LO, "TIMESTAMP_LO", 0 },
    { HSAGPU_REG_TIMESTAMP_HI, "TIMESTAMP_HI", 0 },
    { HSAGPU_REG_ATOMIC_ADDR_LO, "ATOMIC_ADDR_LO", 1 },
    { HSAGPU_REG_ATOMIC_ADDR_HI, "ATOMIC_ADDR_HI", 1 },
    { HSAGPU_REG_ATOMIC_CTRL, "ATOMIC_CTRL", 1 },
    { HSAGPU_REG_ATOMIC_STATUS, "ATOMIC_STATUS", 0 },
    { HSAGPU_REG_ATOMIC_REPEAT, "ATOMIC_REPEAT", 1 },
    { HSAGPU_REG_ATOMIC_VMID, "ATOMIC_VMID", 1 },
    { HSAGPU_REG_QUEUE_ERROR_FIRST, "QUEUE_ERROR_FIRST", 0 },
    { HSAGPU_REG_LINK_MPS, "LINK_MPS", 0 },
    { HSAGPU_REG_LINK_MRRS, "LINK_MRRS", 0 },
    { HSAGPU_REG_P2P_ADDR_BITS, "P2P_ADDR_BITS", 0 },
    { HSAGPU_REG_P2P_STATUS, "P2P_STATUS", 0 },
    { HSAGPU_REG_DMA_PACKETS, "DMA_PACKETS", 0 },
    { HSAGPU_REG_SDMA_PACKETS, "SDMA_PACKETS", 0 },
    { HSAGPU_REG_GCN_INSNS_LO, "GCN_INSNS_LO", 0 },
    { HSAGPU_REG_GCN_INSNS_HI, "GCN_INSNS_HI", 0 },
    { HSAGPU_REG_GCN_LANE_OPS_LO, "GCN_LANE_OPS_LO", 0 },
    { HSAGPU_REG_GCN_LANE_OPS_HI, "GCN_LANE_OPS_HI", 0 },
    { HSAGPU_REG_GCN_WAVES, "GCN_WAVES", 0 },
    { HSAGPU_REG_DMA_BAD_ADDR_LO, "DMA_BAD_ADDR_LO", 0 },
    { HSAGPU_REG_DMA_BAD_ADDR_HI, "DMA_BAD_ADDR_HI", 0 },
};

/* Register arrays, by name */
typedef enum HsaGpuRegArray {
    HSAGPU_REG_ARRAY_ATOMIC_SRC0,
    HSAGPU_REG_ARRAY_ATOMIC_SRC1,
    HSAGPU_REG_ARRAY_ATOMIC_RESULT,
    HSAGPU_REG_ARRAY_ATOMIC_CNT_OP,
    HSAGPU_REG_ARRAY_ATOMIC_CNT_ST,
    HSAGPU_REG_ARRAY_PKT_CNT,
    HSAGPU_REG_ARRAY_DMA_CNT,
    HSAGPU_REG_ARRAY_COUNT
} HsaGpuRegArray;

/* Base, number of dwords, name, writable; indexed by HsaGpuRegArray */
static const struct {
    uint32_t base;
    uint32_t count;
    const char *name;
    int writable;
} hsagpu_reg_arrays[HSAGPU_REG_ARRAY_COUNT] = {
    [HSAGPU_REG_ARRAY_ATOMIC_SRC0] = {
        HSAGPU_REG_ATOMIC_SRC0, 4, "ATOMIC_SRC0", 1 },
    [HSAGPU_REG_ARRAY_ATOMIC_SRC1] = {
        HSAGPU_REG_ATOMIC_SRC1, 4, "ATOMIC_SRC1", 1 },
    [HSAGPU_REG_ARRAY_ATOMIC_RESULT] = {
        HSAGPU_REG_ATOMIC_RESULT, 4, "ATOMIC_RESULT", 0 },
    [HSAGPU_REG_ARRAY_ATOMIC_CNT_OP] = {
        HSAGPU_REG_ATOMIC_CNT_OP(0), 3, "ATOMIC_CNT_OP", 0 },
    [HSAGPU_REG_ARRAY_ATOMIC_CNT_ST] = {
        HSAGPU_REG_ATOMIC_CNT_ST(0), HSAGPU_ATOMIC_ST_COUNT,
        "ATOMIC_CNT_ST", 0 },
    [HSAGPU_REG_ARRAY_PKT_CNT] = {
        HSAGPU_REG_PKT_PROCESSED, HSAGPU_PKT_CNT_COUNT, "PKT_COUNTERS", 0 },
    [HSAGPU_REG_ARRAY_DMA_CNT] = {
        HSAGPU_REG_DMA_CNT(0, 0), 2 * 4 * HSAGPU_DMA_CLASS_COUNT,
        "DMA_CNT", 0 },
};

/* Array register at @offset: its HsaGpuRegArray and dword index, or -1. */
static int hsagpu_reg_array(uint32_t offset, uint32_t *idx)
{
    for (size_t i = 0; i < ARRAY_SIZE(hsagpu_reg_arrays); i++) {
        uint32_t base = hsagpu_reg_arrays[i].base;

        if (offset >= base && offset < base + 4 * hsagpu_reg_arrays[i].count) {
            *idx = (offset - base) / 4;
            return (int)i;
        }
    }
    return -1;
}

static int hsagpu_reg_index(uint32_t offset)
{
    for (size_t i = 0; i < ARRAY_SIZE(hsagpu_regs); i++) {
        if (hsagpu_regs[i].offset == offset) {
            return (int)i;
        }
    }
    return -1;
}

const char *hsagpu_reg_name(uint32_t offset)
{
    uint32_t idx;
    int i = hsagpu_reg_index(offset);

    if (i >= 0) {
        return hsagpu_regs[i].name;
    }
    i = hsagpu_reg_array(offset, &idx);
    return i < 0 ? "?" : hsagpu_reg_arrays[i].name;
}

/* -1: no register at @offset; 0: read-only; 1: writable */
static int hsagpu_reg_kind(uint32_t offset)
{
    uint32_t idx;
    int i = hsagpu_reg_index(offset);

    if (i >= 0) {
        return hsagpu_regs[i].writable;
    }
    i = hsagpu_reg_array(offset, &idx);
    return i < 0 ? -1 : hsagpu_reg_arrays[i].writable;
}

/* Read one defined 32-bit register; the offset has been validated. */
static uint32_t hsagpu_reg_read32(HsaGpuRegFile *rf, const HsaGpuIdent *id,
                                  const HsaGpuRegEnv *env, uint32_t offset)
{
    uint32_t idx;

    switch (hsagpu_reg_array(offset, &idx)) {
    case HSAGPU_REG_ARRAY_ATOMIC_SRC0:
        return rf->atomic_src0[idx];
    case HSAGPU_REG_ARRAY_ATOMIC_SRC1:
        return rf->atomic_src1[idx];
    case HSAGPU_REG_ARRAY_ATOMIC_RESULT:
        return rf->atomic_result[idx];
    case HSAGPU_REG_ARRAY_ATOMIC_CNT_OP:
        return rf->atomic_cnt_op[idx];
    case HSAGPU_REG_ARRAY_ATOMIC_CNT_ST:
        return rf->atomic_cnt_st[idx];
    case HSAGPU_REG_ARRAY_PKT_CNT:
        return rf->pkt_cnt[idx];
    case HSAGPU_REG_ARRAY_DMA_CNT: {
        uint64_t v = __atomic_load_n(&rf->dma_cnt[idx / 2], __ATOMIC_RELAXED);

        return (uint32_t)(v >> (32 * (idx & 1)));
    }
    }

    switch (offset) {
    case HSAGPU_REG_MAGIC:
        return HSAGPU_MAGIC_VALUE;
    case HSAGPU_REG_ABI_VERSION:
        return HSAGPU_ABI_VERSION;
    case HSAGPU_REG_CAPS:
        return id->caps;
    case HSAGPU_REG_DEVICE_ID:
        return ((uint32_t)id->device_id << 16) | id->vendor_id;
    case HSAGPU_REG_VRAM_SIZE_LO:
        return (uint32_t)id->vram_size;
    case HSAGPU_REG_VRAM_SIZE_HI:
        return (uint32_t)(id->vram_size >> 32);
    case HSAGPU_REG_DOORBELL_COUNT:
        return HSAGPU_DOORBELL_COUNT;
    case HSAGPU_REG_DOORBELL_STRIDE:
        return HSAGPU_DOORBELL_STRIDE;
    case HSAGPU_REG_NUM_QUEUES:
        return id->num_queues;
    case HSAGPU_REG_MSIX_VECTORS:
        return id->msix_vectors;
    case HSAGPU_REG_ROM_SIZE:
        return HSAGPU_ROM_SIZE;
    case HSAGPU_REG_REVISION:
        return id->revision;
    case HSAGPU_REG_COMPUTE_UNITS:
        return id->compute_units;
    case HSAGPU_REG_SCRATCH0:
        return rf->scratch[0];
    case HSAGPU_REG_SCRATCH1:
        return rf->scratch[1];
    case HSAGPU_REG_STATUS:
        return env->status;
    case HSAGPU_REG_ERROR_STATUS:
        return rf->error_status;
    case HSAGPU_REG_BAD_ACCESS_COUNT:
        return rf->bad_access_count;
    case HSAGPU_REG_BAD_ACCESS_ADDR:
        return rf->bad_access_addr;
    case HSAGPU_REG_BAD_ACCESS_INFO:
        return rf->bad_access_info;
    case HSAGPU_REG_ERROR_INT_ENABLE:
        return rf->error_int_enable;
    case HSAGPU_REG_TIMESTAMP_LO:
        /* Latch the high half so LO-then-HI reads are consistent. */
        rf->timestamp_hi_latch = (uint32_t)(env->now_ns >> 32);
        return (uint32_t)env->now_ns;
    case HSAGPU_REG_TIMESTAMP_HI:
        return rf->timestamp_hi_latch;
    case HSAGPU_REG_ATOMIC_ADDR_LO:
        return rf->atomic_addr[0];
    case HSAGPU_REG_ATOMIC_ADDR_HI:
        return rf->atomic_addr[1];
    case HSAGPU_REG_ATOMIC_CTRL:
        return rf->atomic_ctrl;
    case HSAGPU_REG_ATOMIC_STATUS:
        return rf->atomic_status;
    case HSAGPU_REG_ATOMIC_REPEAT:
        return rf->atomic_repeat;
    case HSAGPU_REG_ATOMIC_VMID:
        return rf->atomic_vmid;
    case HSAGPU_REG_QUEUE_ERROR_FIRST:
        return env->queue_error_first;
    case HSAGPU_REG_LINK_MPS:
        return env->link_mps;
    case HSAGPU_REG_LINK_MRRS:
        return env->link_mrrs;
    case HSAGPU_REG_P2P_ADDR_BITS:
        return id->p2p_addr_bits;
    case HSAGPU_REG_P2P_STATUS:
        return env->p2p_status;
    case HSAGPU_REG_DMA_PACKETS:
        return __atomic_load_n(&rf->dma_packets, __ATOMIC_RELAXED);
    case HSAGPU_REG_SDMA_PACKETS:
        return __atomic_load_n(&rf->sdma_packets, __ATOMIC_RELAXED);
    case HSAGPU_REG_GCN_INSNS_LO:
    case HSAGPU_REG_GCN_INSNS_HI:
        return __atomic_load_n(&rf->gcn_insns, __ATOMIC_RELAXED) >>
               (offset == HSAGPU_REG_GCN_INSNS_HI ? 32 : 0);
    case HSAGPU_REG_GCN_LANE_OPS_LO:
    case HSAGPU_REG_GCN_LANE_OPS_HI:
        return __atomic_load_n(&rf->gcn_lane_ops, __ATOMIC_RELAXED) >>
               (offset == HSAGPU_REG_GCN_LANE_OPS_HI ? 32 : 0);
    case HSAGPU_REG_GCN_WAVES:
        return __atomic_load_n(&rf->gcn_waves, __ATOMIC_RELAXED);
    case HSAGPU_REG_DMA_BAD_ADDR_LO:
        return (uint32_t)__atomic_load_n(&rf->dma_bad_addr, __ATOMIC_RELAXED);
    case HSAGPU_REG_DMA_BAD_ADDR_HI:
        return __atomic_load_n(&rf->dma_bad_addr, __ATOMIC_RELAXED) >> 32;
    }
    return 0;
}

static unsigned hsagpu_check(uint32_t offset, unsigned size, int write)
{
    unsigned n = size / 4;

    if (size != 4 && size != 8) {
        return HSAGPU_BAD_REASON_SIZE;
    }
    if (offset & (size - 1)) {
        return HSAGPU_BAD_REASON_ALIGN;
    }
    for (unsigned i = 0; i < n; i++) {
        int kind = hsagpu_reg_kind(offset + 4 * i);

        if (kind < 0) {
            return HSAGPU_BAD_REASON_UNMAPPED;
        }
        if (write && !kind) {
            return HSAGPU_BAD_REASON_READONLY;
        }
    }
    return 0;
}

unsigned hsagpu_regs_read(HsaGpuRegFile *rf, const HsaGpuIdent *id,
                          const HsaGpuRegEnv *env, uint32_t offset,
                          unsigned size, uint64_t *val)
{
    unsigned bad = hsagpu_check(offset, size, 0);

    *val = 0;
    if (bad) {
        return bad;
    }
    if (size == 8 && offset >= HSAGPU_REG_DMA_CNT(0, 0) &&
        offset < HSAGPU_REG_DMA_CNT(HSAGPU_DMA_CLASS_COUNT, 0)) {
        /* The processor thread updates them: read both halves at once. */
        *val = __atomic_load_n(&rf->dma_cnt[(offset -
                                             HSAGPU_REG_DMA_CNT(0, 0)) / 8],
                               __ATOMIC_RELAXED);
        return 0;
    }
    *val = hsagpu_reg_read32(rf, id, env, offset);
    if (size == 8) {
        *val |= (uint64_t)hsagpu_reg_read32(rf, id, env, offset + 4) << 32;
    }
    return 0;
}

static void hsagpu_reg_write32(HsaGpuRegFile *rf, uint32_t offset,
                               uint32_t val)
{
    uint32_t idx;

    switch (hsagpu_reg_array(offset, &idx)) {
    case HSAGPU_REG_ARRAY_ATOMIC_SRC0:
        rf->atomic_src0[idx] = val;
        return;
    case HSAGPU_REG_ARRAY_ATOMIC_SRC1:
        rf->atomic_src1[idx] = val;
        return;
    }

    switch (offset) {
    case HSAGPU_REG_SCRATCH0:
        rf->scratch[0] = val;
        break;
    case HSAGPU_REG_SCRATCH1:
        rf->scratch[1] = val;
        break;
    case HSAGPU_REG_ERROR_STATUS:
        rf->error_status &= ~val;
        break;
    case HSAGPU_REG_ERROR_INT_ENABLE:
        rf->error_int_enable = val & HSAGPU_ERR_ALL;
        break;
    case HSAGPU_REG_ATOMIC_ADDR_LO:
        rf->atomic_addr[0] = val;
        break;
    case HSAGPU_REG_ATOMIC_ADDR_HI:
        rf->atomic_addr[1] = val;
        break;
    case HSAGPU_REG_ATOMIC_CTRL:
        rf->atomic_ctrl = val;
        break;
    case HSAGPU_REG_ATOMIC_REPEAT:
        rf->atomic_repeat = val;
        break;
    case HSAGPU_REG_ATOMIC_VMID:
        rf->atomic_vmid = val & (HSAGPU_VM_NUM_VMIDS - 1);
        break;
    }
}

unsigned hsagpu_regs_write(HsaGpuRegFile *rf, uint32_t offset,
                           unsigned size, uint64_t val)
{
    unsigned bad = hsagpu_check(offset, size, 1);

    if (bad) {
        return bad;
    }
    hsagpu_reg_write32(rf, offset, (uint32_t)val);
    if (size == 8) {
        hsagpu_reg_write32(rf, offset + 4, (uint32_t)(val >> 32));
    }
    return 0;
}

int hsagpu_regs_raise_error(HsaGpuRegFile *rf, uint32_t bit)
{
    /* Interrupt on the rising edge of an enabled status bit only. */
    int irq = !(rf->error_status & bit) && (rf->error_int_enable & bit);

    rf->error_status |= bit;
    return irq;
}

int hsagpu_regs_note_bad(HsaGpuRegFile *rf, unsigned bar, uint32_t offset,
                         unsigned size, int is_write, unsigned reason)
{
    int irq = hsagpu_regs_raise_error(rf, bar == HSAGPU_BAR_DOORBELL ?
                                      HSAGPU_ERR_BAD_DOORBELL :
                                      HSAGPU_ERR_BAD_MMIO);
    if (rf->bad_access_count != UINT32_MAX) {
        rf->bad_access_count++;
    }
    rf->bad_access_addr = ((uint32_t)bar << 28) | (offset & 0x0fffffff);
    rf->bad_access_info = (is_write ? HSAGPU_BAD_ACCESS_WRITE : 0) |
                          (size & HSAGPU_BAD_ACCESS_SIZE_MASK) |
                          (reason << HSAGPU_BAD_ACCESS_REASON_SHIFT);
    return irq;
}

void hsagpu_regs_reset(HsaGpuRegFile *rf)
{
    memset(rf, 0, sizeof(*rf));
}

unsigned hsagpu_doorbell_check(uint64_t offset, unsigned size)
{
    if (size != 4 && size != 8) {
        return HSAGPU_BAD_REASON_SIZE;
    }
    if (offset & (size - 1)) {
        return HSAGPU_BAD_REASON_ALIGN;
    }
    if (offset + size > HSAGPU_DOORBELL_BAR_SIZE) {
        return HSAGPU_BAD_REASON_UNMAPPED;
    }
    return 0;
}
