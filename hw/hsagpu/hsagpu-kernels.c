/*
 * hsa-gpu: built-in kernels. Each runs over the dispatch's real geometry:
 * workgroup by workgroup, one row (a run of consecutive x) at a time, so
 * partial workgroups at the grid's edges are clipped exactly as a GPU
 * masks off work-items outside the grid. Dispatches run in slices of
 * whole workgroups (HSAGPU_KERNEL_SLICE_*), resumed from the queue's
 * kernel cursor, so a huge grid never holds up the device for long.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-queue-core.h"

typedef struct HsaGpuGeom {
    uint32_t grid[3];
    uint32_t wg[3];
    uint64_t nwg[3];            /* workgroups per dimension */
} HsaGpuGeom;

/* A row: @n work-items with consecutive flat ids from @flat. */
typedef struct HsaGpuRow {
    uint64_t flat;
    uint32_t n;
    uint64_t wg_flat;           /* flat workgroup id */
    uint32_t local_flat;        /* flat id of the first item in its group */
} HsaGpuRow;

typedef unsigned (*HsaGpuRowFn)(const HsaGpuProc *p, const void *args,
                                const HsaGpuRow *row);
/* Called after the last row of each workgroup, or NULL. */
typedef unsigned (*HsaGpuWgEndFn)(const HsaGpuProc *p, const void *args);

/* A row never exceeds a workgroup. */
#define ROW_MAX HSAGPU_WORKGROUP_MAX

unsigned hsagpu_kernel_check_geometry(
    const struct hsagpu_kernel_dispatch_packet *k)
{
    unsigned dims = k->setup & HSAGPU_DISPATCH_DIMS_MASK;
    const uint32_t grid[3] = { k->grid_size_x, k->grid_size_y,
                               k->grid_size_z };
    const uint32_t wg[3] = { k->workgroup_size_x, k->workgroup_size_y,
                             k->workgroup_size_z };
    uint64_t items = 1, wg_items = 1;

    if (dims < 1 || dims > 3) {
        return HSAGPU_QERR_DIMENSIONS;
    }
    for (unsigned d = 0; d < 3; d++) {
        if (!grid[d] || !wg[d] || (d >= dims && (grid[d] != 1 || wg[d] != 1))) {
            return HSAGPU_QERR_DIMENSIONS;
        }
        items *= grid[d];
        wg_items *= wg[d];
        if (items > HSAGPU_GRID_MAX) {
            return HSAGPU_QERR_DIMENSIONS;
        }
    }
    if (wg_items > HSAGPU_WORKGROUP_MAX) {
        return HSAGPU_QERR_DIMENSIONS;
    }
    return 0;
}

bool hsagpu_kernel_builtin(uint64_t kernel_object)
{
    return (kernel_object & ~0xffffULL) == HSAGPU_KERNEL_OBJECT_MAGIC &&
           (kernel_object & 0xffff) >= 1 &&
           (kernel_object & 0xffff) <= HSAGPU_KERNEL_COUNT;
}

unsigned hsagpu_kernel_check(const struct hsagpu_kernel_dispatch_packet *k)
{
    unsigned err = hsagpu_kernel_check_geometry(k);

    if (err) {
        return err;
    }
    if (!hsagpu_kernel_builtin(k->kernel_object)) {
        return HSAGPU_QERR_KERNEL_OBJECT;
    }
    if (k->kernarg_address & (HSAGPU_KERNARG_ALIGN - 1)) {
        return HSAGPU_QERR_ALIGNMENT;
    }
    if (!k->kernarg_address) {
        return HSAGPU_QERR_ADDRESS;
    }
    return 0;
}

uint64_t hsagpu_kernel_workgroups(const struct hsagpu_kernel_dispatch_packet *k,
                                  uint64_t nwg[3])
{
    const uint32_t grid[3] = { k->grid_size_x, k->grid_size_y,
                               k->grid_size_z };
    const uint32_t wg[3] = { k->workgroup_size_x, k->workgroup_size_y,
                             k->workgroup_size_z };

    /* 64-bit: grid + wg - 1 overflows 32 bits for grids near 2^32. */
    for (unsigned d = 0; d < 3; d++) {
        nwg[d] = ((uint64_t)grid[d] + wg[d] - 1) / wg[d];
    }
    return nwg[0] * nwg[1] * nwg[2];
}

/*
 * Walk the rows of the workgroups from *@cursor on, a slice at a time:
 * 0 when all are done, HSAGPU_KERNEL_MORE with *@cursor at the next one.
 */
static unsigned hsagpu_for_rows(const HsaGpuProc *p, const HsaGpuGeom *g,
                                HsaGpuRowFn fn, HsaGpuWgEndFn wg_end,
                                const void *args, uint64_t *cursor)
{
    uint64_t total = g->nwg[0] * g->nwg[1] * g->nwg[2];
    uint64_t rows = 0, items = 0;

    for (uint64_t wg_flat = *cursor; wg_flat < total; wg_flat++) {
        uint64_t wx = wg_flat % g->nwg[0];
        uint64_t wy = wg_flat / g->nwg[0] % g->nwg[1];
        uint64_t wz = wg_flat / g->nwg[0] / g->nwg[1];
        uint64_t x0 = wx * g->wg[0];
        uint32_t nx = MIN(g->wg[0], g->grid[0] - x0);
        unsigned err;

        if (rows >= HSAGPU_KERNEL_SLICE_ROWS ||
            items >= HSAGPU_KERNEL_SLICE_ITEMS) {
            *cursor = wg_flat;
            return HSAGPU_KERNEL_MORE;
        }
        for (uint32_t lz = 0; lz < g->wg[2]; lz++) {
            uint64_t z = wz * g->wg[2] + lz;

            if (z >= g->grid[2]) {
                break;
            }
            for (uint32_t ly = 0; ly < g->wg[1]; ly++) {
                uint64_t y = wy * g->wg[1] + ly;
                HsaGpuRow row;

                if (y >= g->grid[1]) {
                    break;
                }
                row.flat = x0 + y * g->grid[0] +
                           z * g->grid[0] * g->grid[1];
                row.n = nx;
                row.wg_flat = wg_flat;
                row.local_flat = (lz * g->wg[1] + ly) * g->wg[0];
                err = fn(p, args, &row);
                if (err) {
                    return err;
                }
                rows++;
                items += nx;
            }
        }
        if (wg_end) {
            err = wg_end(p, args);
            if (err) {
                return err;
            }
        }
    }
    *cursor = total;
    return 0;
}

/* A buffer read: 0 or the queue error (ADDRESS, POISON). */
static unsigned hsagpu_krd(const HsaGpuProc *p, uint64_t base,
                           const HsaGpuRow *r, void *buf)
{
    return hsagpu_read_data(p, HSAGPU_VM_CLIENT_KERNEL, base + 4 * r->flat,
                            buf, 4ULL * r->n);
}

static unsigned hsagpu_kwr(const HsaGpuProc *p, uint64_t base,
                           const HsaGpuRow *r, const void *buf)
{
    return p->ops->write(p->opaque, HSAGPU_VM_CLIENT_KERNEL,
                         base + 4 * r->flat, buf, 4ULL * r->n);
}

static unsigned k_fill(const HsaGpuProc *p, const void *args,
                       const HsaGpuRow *r)
{
    const struct hsagpu_kargs_fill *a = args;
    uint32_t buf[ROW_MAX];

    for (uint32_t i = 0; i < r->n; i++) {
        buf[i] = a->value;
    }
    return hsagpu_kwr(p, a->dst, r, buf);
}

static unsigned k_copy(const HsaGpuProc *p, const void *args,
                       const HsaGpuRow *r)
{
    const struct hsagpu_kargs_copy *a = args;
    uint32_t buf[ROW_MAX];
    unsigned err = hsagpu_krd(p, a->src, r, buf);

    if (err) {
        return err;
    }
    return hsagpu_kwr(p, a->dst, r, buf);
}

static unsigned k_vadd(const HsaGpuProc *p, const void *args,
                       const HsaGpuRow *r)
{
    const struct hsagpu_kargs_vadd *a = args;
    float x[ROW_MAX], y[ROW_MAX];
    unsigned err = hsagpu_krd(p, a->a, r, x);

    if (!err) {
        err = hsagpu_krd(p, a->b, r, y);
    }
    if (err) {
        return err;
    }
    for (uint32_t i = 0; i < r->n; i++) {
        x[i] += y[i];
    }
    return hsagpu_kwr(p, a->c, r, x);
}

static unsigned k_saxpy(const HsaGpuProc *p, const void *args,
                        const HsaGpuRow *r)
{
    const struct hsagpu_kargs_saxpy *a = args;
    float x[ROW_MAX], y[ROW_MAX];
    unsigned err = hsagpu_krd(p, a->x, r, x);

    if (!err) {
        err = hsagpu_krd(p, a->y, r, y);
    }
    if (err) {
        return err;
    }
    for (uint32_t i = 0; i < r->n; i++) {
        y[i] = a->a * x[i] + y[i];
    }
    return hsagpu_kwr(p, a->y, r, y);
}

static unsigned k_ids(const HsaGpuProc *p, const void *args,
                      const HsaGpuRow *r)
{
    const struct hsagpu_kargs_ids *a = args;
    uint32_t buf[ROW_MAX];

    for (uint32_t i = 0; i < r->n; i++) {
        buf[i] = (uint32_t)(r->wg_flat << 16) | (r->local_flat + i);
    }
    return hsagpu_kwr(p, a->dst, r, buf);
}

/* The rows of one workgroup are summed, then one FetchAdd at its end. */
typedef struct HsaGpuIncState {
    uint64_t counter;
    uint64_t pending;
} HsaGpuIncState;

static unsigned k_inc_flush(const HsaGpuProc *p, const void *args)
{
    HsaGpuIncState *st = (HsaGpuIncState *)args;
    uint64_t old;
    unsigned ret;

    if (!st->pending) {
        return 0;
    }
    ret = p->ops->fetch_add64(p->opaque, HSAGPU_VM_CLIENT_KERNEL, st->counter,
                              st->pending, &old);
    st->pending = 0;
    return hsagpu_atomic_qerr(ret);
}

static unsigned k_atomic_inc(const HsaGpuProc *p, const void *args,
                             const HsaGpuRow *r)
{
    HsaGpuIncState *st = (HsaGpuIncState *)args;

    st->pending += r->n;
    return 0;
}

unsigned hsagpu_kernel_exec(HsaGpuQueue *q,
                            const struct hsagpu_kernel_dispatch_packet *k,
                            const HsaGpuProc *p, uint64_t *busy_ns)
{
    union {
        struct hsagpu_kargs_fill fill;
        struct hsagpu_kargs_copy copy;
        struct hsagpu_kargs_vadd vadd;
        struct hsagpu_kargs_saxpy saxpy;
        struct hsagpu_kargs_atomic_inc inc;
        struct hsagpu_kargs_busy busy;
        struct hsagpu_kargs_ids ids;
    } a;
    /* Indexed by the kernel number: HSAGPU_KERNEL_OBJECT(n) is [n - 1]. */
#define HSAGPU_KIDX(object) [((object) & 0xffff) - 1]
    static const struct {
        size_t argsize;
        HsaGpuRowFn fn;
        uint32_t align;         /* of every pointer argument */
    } kernels[HSAGPU_KERNEL_COUNT] = {
        HSAGPU_KIDX(HSAGPU_KERNEL_FILL) = { sizeof(a.fill), k_fill, 4 },
        HSAGPU_KIDX(HSAGPU_KERNEL_COPY) = { sizeof(a.copy), k_copy, 4 },
        HSAGPU_KIDX(HSAGPU_KERNEL_VADD) = { sizeof(a.vadd), k_vadd, 4 },
        HSAGPU_KIDX(HSAGPU_KERNEL_SAXPY) = { sizeof(a.saxpy), k_saxpy, 4 },
        HSAGPU_KIDX(HSAGPU_KERNEL_ATOMIC_INC) = {
            sizeof(a.inc), k_atomic_inc, 8,
        },
        HSAGPU_KIDX(HSAGPU_KERNEL_BUSY) = { sizeof(a.busy), NULL, 1 },
        HSAGPU_KIDX(HSAGPU_KERNEL_IDS) = { sizeof(a.ids), k_ids, 4 },
    };
#undef HSAGPU_KIDX
    unsigned idx = (k->kernel_object & 0xffff) - 1;
    HsaGpuIncState inc;
    HsaGpuWgEndFn wg_end = NULL;
    HsaGpuGeom g = {
        .grid = { k->grid_size_x, k->grid_size_y, k->grid_size_z },
        .wg = { k->workgroup_size_x, k->workgroup_size_y,
                k->workgroup_size_z },
    };
    const void *args = &a;
    uint64_t ptrs[3] = { 0 };
    unsigned err;

    *busy_ns = 0;
    /*
     * Every slice checks the packet and reads the kernarg again, as the
     * DMA engine re-reads its packet: nothing but the cursor is kept.
     */
    err = hsagpu_kernel_check(k);
    if (err) {
        goto out;
    }
    memset(&a, 0, sizeof(a));
    err = p->ops->read(p->opaque, HSAGPU_VM_CLIENT_KERNEL, k->kernarg_address,
                       &a, kernels[idx].argsize);
    if (err) {
        goto out;
    }
    switch (k->kernel_object) {
    case HSAGPU_KERNEL_FILL:
    case HSAGPU_KERNEL_IDS:
        ptrs[0] = a.fill.dst;   /* dst is the first member of both */
        break;
    case HSAGPU_KERNEL_COPY:
        ptrs[0] = a.copy.dst;
        ptrs[1] = a.copy.src;
        break;
    case HSAGPU_KERNEL_VADD:
        ptrs[0] = a.vadd.a;
        ptrs[1] = a.vadd.b;
        ptrs[2] = a.vadd.c;
        break;
    case HSAGPU_KERNEL_SAXPY:
        ptrs[0] = a.saxpy.x;
        ptrs[1] = a.saxpy.y;
        break;
    case HSAGPU_KERNEL_ATOMIC_INC:
        ptrs[0] = a.inc.counter;
        inc.counter = a.inc.counter;
        inc.pending = 0;
        args = &inc;
        wg_end = k_inc_flush;
        break;
    case HSAGPU_KERNEL_BUSY:
        *busy_ns = a.busy.ns;
        goto out;
    }
    for (unsigned i = 0; i < 3; i++) {
        if (ptrs[i] & (kernels[idx].align - 1)) {
            err = HSAGPU_QERR_ALIGNMENT;
            goto out;
        }
    }
    if (!q->kern_active) {
        q->kern_active = 1;
        q->kern_wg = 0;
        q->kern_start_ns = p->ops->now_ns(p->opaque);
    }
    hsagpu_kernel_workgroups(k, g.nwg);
    err = hsagpu_for_rows(p, &g, kernels[idx].fn, wg_end, args, &q->kern_wg);
    if (err == HSAGPU_KERNEL_MORE) {
        return err;
    }
out:
    q->kern_active = 0;
    return err;
}
