/*
 * hsa-gpu: ROCr's blit kernels, independent of QEMU.
 *
 * ROCr copies between device buffers (>= 1 MiB), fills memory and
 * uploads code objects with three precompiled GCN kernels (CopyAligned,
 * CopyMisaligned, Fill; amd_blit_kernel.cpp, the gfx8 binaries also run
 * on gfx9) dispatched like any kernel: kernel_object is the address of
 * an amd_kernel_code_t followed by the code. This device has no shader
 * core, so it recognises the three by a fingerprint of their code (read
 * through the queue's VM at kernel_object + kernel_code_entry_byte_offset,
 * length and FNV-1a 64 of the machine code as Debian's ROCr 5.2.3 ships
 * it) and does what their kernel arguments describe with the DMA
 * engine, in slices; the dispatch cursor's byte count (blit_off, not
 * the workgroup id code objects use) says how far it got. Any other
 * code is not a kernel this device can run.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-cp.h"

/* amd_kernel_code_t.kernel_code_entry_byte_offset (ROCr: 256) */
#define HSAGPU_BLIT_ENTRY_FIELD     16
#define HSAGPU_BLIT_ENTRY_MAX       (1U << 20)
#define HSAGPU_BLIT_ENTRY_ALIGN     256U

static const struct {
    uint32_t len;               /* bytes of code */
    uint64_t fnv;               /* FNV-1a 64 of them */
    unsigned kind;
} hsagpu_blit_prints[] = {
    /* kCodeFill8, kCodeCopyMisaligned8, kCodeCopyAligned8 (gfx8/gfx9) */
    { 188, 0xc3fd25e8e46c95f0ULL, HSAGPU_BLIT_FILL },
    { 412, 0x7625bfdd9a90794dULL, HSAGPU_BLIT_COPY_MISALIGNED },
    { 496, 0xc9ed7ddde0f282c7ULL, HSAGPU_BLIT_COPY_ALIGNED },
};

#define HSAGPU_BLIT_CODE_MAX 496U

uint64_t hsagpu_fnv1a64(const void *buf, size_t len)
{
    const uint8_t *b = buf;
    uint64_t h = 0xcbf29ce484222325ULL;

    while (len--) {
        h ^= *b++;
        h *= 0x100000001b3ULL;
    }
    return h;
}

unsigned hsagpu_blit_identify(const HsaGpuProc *p, uint64_t kernel_object)
{
    uint8_t code[HSAGPU_BLIT_CODE_MAX];
    uint64_t entry, addr;

    /* Anything the device cannot read is no kernel of its own either. */
    if (!kernel_object || (kernel_object & (HSAGPU_BLIT_ENTRY_ALIGN - 1)) ||
        hsagpu_read_data(p, HSAGPU_VM_CLIENT_KERNEL,
                         kernel_object + HSAGPU_BLIT_ENTRY_FIELD, &entry,
                         sizeof(entry)) ||
        entry > HSAGPU_BLIT_ENTRY_MAX ||
        (entry & (HSAGPU_BLIT_ENTRY_ALIGN - 1))) {
        return HSAGPU_BLIT_NONE;
    }
    addr = kernel_object + entry;
    if (addr < kernel_object) {
        return HSAGPU_BLIT_NONE;
    }
    /* Shortest first: a short code buffer may end before the longest. */
    for (unsigned i = 0; i < ARRAY_SIZE(hsagpu_blit_prints); i++) {
        uint32_t len = hsagpu_blit_prints[i].len;

        if (hsagpu_read_data(p, HSAGPU_VM_CLIENT_KERNEL, addr, code, len)) {
            return HSAGPU_BLIT_NONE;
        }
        if (hsagpu_fnv1a64(code, len) == hsagpu_blit_prints[i].fnv) {
            return hsagpu_blit_prints[i].kind;
        }
    }
    return HSAGPU_BLIT_NONE;
}

/* Ranges the kernel's phases cover, in order: @n of them. */
typedef struct HsaGpuBlitPhase {
    uint64_t src, dst, len;
} HsaGpuBlitPhase;

static unsigned hsagpu_blit_phases(const HsaGpuProc *p, unsigned kind,
                                   uint64_t kernarg, HsaGpuBlitPhase *ph,
                                   unsigned *n, uint32_t *value)
{
    /*
     * CopyAligned: phase i (1..4) src, dst pairs, then phase 4's src and
     * dst end. CopyMisaligned: two pairs, then the ends. Fill: phase 1
     * dst, phase 2 dst, phase 2 dst end, the value. A phase runs from
     * its start to the next phase's start (the last to the end), as the
     * kernels compare the address they advance against it.
     */
    uint64_t a[10];
    unsigned npairs, err;

    switch (kind) {
    case HSAGPU_BLIT_COPY_ALIGNED:
        npairs = 4;
        break;
    case HSAGPU_BLIT_COPY_MISALIGNED:
        npairs = 2;
        break;
    default: {
        uint32_t f[8];

        err = p->ops->read(p->opaque, HSAGPU_VM_CLIENT_KERNEL, kernarg, f,
                           sizeof(f));
        if (err) {
            return err;
        }
        memcpy(a, f, 24);
        *value = f[6];
        *n = 2;
        for (unsigned i = 0; i < 2; i++) {
            ph[i].src = 0;
            ph[i].dst = a[i];
            ph[i].len = a[i + 1] > a[i] ? a[i + 1] - a[i] : 0;
        }
        return 0;
    }
    }
    err = p->ops->read(p->opaque, HSAGPU_VM_CLIENT_KERNEL, kernarg, a,
                       (2 * npairs + 2) * sizeof(uint64_t));
    if (err) {
        return err;
    }
    *n = npairs;
    for (unsigned i = 0; i < npairs; i++) {
        uint64_t end = i + 1 < npairs ? a[2 * (i + 1)] : a[2 * npairs];

        ph[i].src = a[2 * i];
        ph[i].dst = a[2 * i + 1];
        ph[i].len = end > ph[i].src ? end - ph[i].src : 0;
    }
    return 0;
}

static bool hsagpu_blit_overlap(uint64_t a, uint64_t b, uint64_t len)
{
    return a < b + len && b < a + len;
}

unsigned hsagpu_blit_exec(HsaGpuQueue *q,
                          const struct hsagpu_kernel_dispatch_packet *k,
                          unsigned kind, const HsaGpuProc *p,
                          uint64_t *bad_addr)
{
    HsaGpuBlitPhase ph[4];
    uint64_t budget = HSAGPU_DMA_SLICE_BYTES, base = 0;
    uint32_t value = 0;
    unsigned n = 0, err;

    *bad_addr = 0;
    /* Every slice re-reads the kernarg, as built-in kernels do. */
    err = hsagpu_kernel_check_geometry(k);
    if (!err && (k->kernarg_address & (HSAGPU_KERNARG_ALIGN - 1))) {
        err = HSAGPU_QERR_ALIGNMENT;
    }
    if (!err && !k->kernarg_address) {
        err = HSAGPU_QERR_ADDRESS;
    }
    if (!err) {
        err = hsagpu_blit_phases(p, kind, k->kernarg_address, ph, &n, &value);
    }
    for (unsigned i = 0; !err && i < n; i++) {
        if (ph[i].len > HSAGPU_DMA_SIZE_MAX) {
            err = HSAGPU_QERR_DMA_SIZE;
        } else if (ph[i].dst + ph[i].len < ph[i].dst ||
                   ph[i].src + ph[i].len < ph[i].src) {
            *bad_addr = ph[i].dst + ph[i].len < ph[i].dst ? ph[i].dst
                                                          : ph[i].src;
            err = HSAGPU_QERR_ADDRESS;
        } else if (kind != HSAGPU_BLIT_FILL && ph[i].len &&
                   hsagpu_blit_overlap(ph[i].src, ph[i].dst, ph[i].len)) {
            *bad_addr = ph[i].dst;
            err = HSAGPU_QERR_DMA_OVERLAP;
        }
    }
    if (err) {
        hsagpu_dispatch_end(q);
        return err;
    }
    hsagpu_dispatch_begin(q, p);
    for (unsigned i = 0; i < n; base += ph[i].len, i++) {
        uint64_t off, len;

        if (q->blit_off >= base + ph[i].len) {
            continue;
        }
        if (!budget) {
            return HSAGPU_KERNEL_MORE;
        }
        off = q->blit_off - base;
        len = MIN(ph[i].len - off, budget);
        if (kind == HSAGPU_BLIT_FILL) {
            /* Rotate so that byte 0 of this piece is byte off % 4. */
            unsigned sh = 8 * (off % 4);
            uint32_t pat = sh ? value >> sh | value << (32 - sh) : value;

            err = p->ops->dma(p->opaque, ph[i].dst + off, 0, len, &pat,
                              bad_addr);
        } else {
            err = p->ops->dma(p->opaque, ph[i].dst + off, ph[i].src + off,
                              len, NULL, bad_addr);
        }
        if (err) {
            goto out;
        }
        q->blit_off += len;
        budget -= len;
    }
    if (q->blit_off < base) {
        return HSAGPU_KERNEL_MORE;
    }
out:
    hsagpu_dispatch_end(q);
    p->ops->dma_done(p->opaque, err, *bad_addr);
    return err;
}
