/*
 * hsa-gpu: doorbell aperture (BAR2/3). One 8-byte doorbell per stride;
 * 32-bit accesses to either half are accepted, as CPUs may split them.
 * An enabled queue's doorbell is an ioeventfd (see hsagpu-queue.c); the
 * values kept here are those of writes that reached this handler.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "hsagpu.h"
#include "trace.h"

static uint64_t hsagpu_doorbell_read(void *opaque, hwaddr addr, unsigned size)
{
    HsaGpuState *s = opaque;
    unsigned bad = hsagpu_doorbell_check(addr, size);
    uint64_t val;

    if (bad) {
        hsagpu_bad_access(s, HSAGPU_BAR_DOORBELL, addr, size, false, bad);
        return 0;
    }
    val = s->doorbells[addr / HSAGPU_DOORBELL_STRIDE];
    if (size == 4) {
        val = (uint32_t)(val >> ((addr & 4) * 8));
    }
    trace_hsagpu_doorbell_read(addr / HSAGPU_DOORBELL_STRIDE, size, val);
    return val;
}

static void hsagpu_doorbell_write(void *opaque, hwaddr addr, uint64_t val,
                                  unsigned size)
{
    HsaGpuState *s = opaque;
    unsigned bad = hsagpu_doorbell_check(addr, size);
    uint64_t *db;

    if (bad) {
        hsagpu_bad_access(s, HSAGPU_BAR_DOORBELL, addr, size, true, bad);
        return;
    }
    db = &s->doorbells[addr / HSAGPU_DOORBELL_STRIDE];
    if (size == 4) {
        unsigned shift = (addr & 4) * 8;

        val = (*db & ~(0xffffffffULL << shift)) | (val << shift);
    }
    *db = val;
    trace_hsagpu_doorbell_write(addr / HSAGPU_DOORBELL_STRIDE, size, val);
    /*
     * 8-byte writes to an enabled queue's doorbell never get here (they
     * only signal the ioeventfd); anything else still wakes the processor.
     */
    hsagpu_queues_kick(s);
}

static const MemoryRegionOps hsagpu_doorbell_ops = {
    .read = hsagpu_doorbell_read,
    .write = hsagpu_doorbell_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

void hsagpu_doorbell_init(HsaGpuState *s)
{
    memory_region_init_io(&s->doorbell, OBJECT(s), &hsagpu_doorbell_ops, s,
                          "hsa-gpu-doorbell", HSAGPU_DOORBELL_BAR_SIZE);
}

void hsagpu_doorbell_reset(HsaGpuState *s)
{
    memset(s->doorbells, 0, sizeof(s->doorbells));
}
