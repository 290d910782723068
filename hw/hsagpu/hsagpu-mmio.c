/*
 * hsa-gpu: BAR5 register file and the optional legacy I/O BAR: the
 * front end that decodes an access and hands it to the register file
 * (hsagpu-regfile.c), the queue registers (hsagpu-queue.c) or the
 * AtomicOp engine (hsagpu-atomic.c). Errors go to hsagpu-irq.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/timer.h"
#include "hsagpu.h"
#include "trace.h"

/*
 * A queue failure the processor noted goes into ERROR_STATUS before the
 * access; its interrupt goes out after it, from irq_bh: a message may
 * reset or unplug the device, which the access must not see midway.
 */
static void hsagpu_reg_fold_errors(HsaGpuState *s)
{
    if (hsagpu_queue_fold_errors_later(s)) {
        hsagpu_queues_deliver_later(s);
    }
}

static uint64_t hsagpu_reg_access_read(HsaGpuState *s, unsigned bar,
                                       hwaddr addr, unsigned size)
{
    HsaGpuRegEnv env = {
        .now_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL),
        .status = hsagpu_status(s),
        .link_mps = hsagpu_link_mps(s),
        .link_mrrs = hsagpu_link_mrrs(s),
        .p2p_status = hsagpu_p2p_status(s),
    };
    uint64_t val;
    unsigned bad;

    if (hsagpu_queue_mmio(s, addr)) {
        bad = hsagpu_queue_mmio_read(s, addr, size, &val);
    } else if (hsagpu_vm_mmio(addr)) {
        hsagpu_reg_fold_errors(s);
        bad = hsagpu_vm_mmio_read(s, addr, size, &val);
    } else if (hsagpu_vram_dir_mmio(addr)) {
        bad = hsagpu_vram_dir_mmio_read(s, addr, size, &val);
    } else {
        hsagpu_reg_fold_errors(s);
        if (addr == HSAGPU_REG_QUEUE_ERROR_FIRST) {
            env.queue_error_first = hsagpu_queue_error_first(s);
        }
        bad = hsagpu_regs_read(&s->regs, &s->ident, &env, addr, size, &val);
    }

    if (bad) {
        hsagpu_bad_access(s, bar, addr, size, false, bad);
    }
    trace_hsagpu_reg_read(hsagpu_reg_name(addr), addr, size, val);
    return val;
}

static void hsagpu_reg_access_write(HsaGpuState *s, unsigned bar,
                                    hwaddr addr, uint64_t val, unsigned size)
{
    unsigned bad;

    trace_hsagpu_reg_write(hsagpu_reg_name(addr), addr, size, val);
    if (hsagpu_queue_mmio(s, addr)) {
        bad = hsagpu_queue_mmio_write(s, addr, size, val);
        if (bad) {
            hsagpu_bad_access(s, bar, addr, size, true, bad);
        }
        return;
    }
    hsagpu_reg_fold_errors(s);
    if (hsagpu_vm_mmio(addr)) {
        bad = hsagpu_vm_mmio_write(s, addr, size, val);
        if (bad) {
            hsagpu_bad_access(s, bar, addr, size, true, bad);
        }
        return;
    }
    if (hsagpu_vram_dir_mmio(addr)) {
        bad = hsagpu_vram_dir_mmio_write(s, addr, size, val);
        if (bad) {
            hsagpu_bad_access(s, bar, addr, size, true, bad);
        }
        return;
    }
    bad = hsagpu_regs_write(&s->regs, addr, size, val);
    if (bad) {
        hsagpu_bad_access(s, bar, addr, size, true, bad);
        return;
    }
    if (s->regs.atomic_ctrl & HSAGPU_ATOMIC_GO) {
        hsagpu_atomic_run(s);
        /* A VM fault of the AtomicOp shows in ERROR_STATUS at once. */
        hsagpu_reg_fold_errors(s);
    }
}

static uint64_t hsagpu_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    return hsagpu_reg_access_read(opaque, HSAGPU_BAR_MMIO, addr, size);
}

static void hsagpu_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                              unsigned size)
{
    hsagpu_reg_access_write(opaque, HSAGPU_BAR_MMIO, addr, val, size);
}

/*
 * Every access size reaches our handlers so that byte and word accesses
 * are reported as guest errors instead of being silently split.
 */
static const MemoryRegionOps hsagpu_mmio_ops = {
    .read = hsagpu_mmio_read,
    .write = hsagpu_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

/* Legacy I/O BAR: INDEX selects a register, DATA accesses it (32-bit). */
static uint64_t hsagpu_io_read(void *opaque, hwaddr addr, unsigned size)
{
    HsaGpuState *s = opaque;

    if (size != 4 || (addr != HSAGPU_IO_INDEX && addr != HSAGPU_IO_DATA)) {
        hsagpu_bad_access(s, HSAGPU_BAR_IO, addr, size, false,
                          size != 4 ? HSAGPU_BAD_REASON_SIZE
                                    : HSAGPU_BAD_REASON_UNMAPPED);
        return 0;
    }
    if (addr == HSAGPU_IO_INDEX) {
        return s->regs.io_index;
    }
    return hsagpu_reg_access_read(s, HSAGPU_BAR_IO, s->regs.io_index, 4);
}

static void hsagpu_io_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    HsaGpuState *s = opaque;

    if (size != 4 || (addr != HSAGPU_IO_INDEX && addr != HSAGPU_IO_DATA)) {
        hsagpu_bad_access(s, HSAGPU_BAR_IO, addr, size, true,
                          size != 4 ? HSAGPU_BAD_REASON_SIZE
                                    : HSAGPU_BAD_REASON_UNMAPPED);
        return;
    }
    if (addr == HSAGPU_IO_INDEX) {
        s->regs.io_index = val;
        return;
    }
    hsagpu_reg_access_write(s, HSAGPU_BAR_IO, s->regs.io_index, val, 4);
}

static const MemoryRegionOps hsagpu_io_ops = {
    .read = hsagpu_io_read,
    .write = hsagpu_io_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

void hsagpu_mmio_init(HsaGpuState *s)
{
    memory_region_init_io(&s->mmio, OBJECT(s), &hsagpu_mmio_ops, s,
                          "hsa-gpu-mmio", HSAGPU_MMIO_BAR_SIZE);
    if (s->params.io_bar) {
        memory_region_init_io(&s->io, OBJECT(s), &hsagpu_io_ops, s,
                              "hsa-gpu-io", HSAGPU_IO_BAR_SIZE);
    }
}
