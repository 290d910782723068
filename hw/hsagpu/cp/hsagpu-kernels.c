/*
 * hsa-gpu: built-in kernels. Each runs over the dispatch's real geometry:
 * workgroup by workgroup, one row (a run of consecutive x) at a time, so
 * partial workgroups at the grid's edges are clipped exactly as a GPU
 * masks off work-items outside the grid. Dispatches run in slices of
 * whole workgroups (HSAGPU_KERNEL_SLICE_*), resumed from the queue's
 * kernel cursor, so a huge grid never holds up the device for long.
 *
 * The streaming kernels (fill, copy, vector add, saxpy) compute each
 * work-item from its flat id alone: rows of consecutive ids merge into
 * runs, computed in place on host views of whole pages when the caller
 * can map memory (HsaGpuQueueOps.map), else row by row through buffers.
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
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "hsagpu-cp.h"

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

/*
 * Streaming kernels on mapped memory. A run is cut where any of its
 * buffers' mappings ends (a page, or a region); each piece maps the
 * reads first, then the write, the order in which the row functions
 * access them, so the first access that fails is the same one.
 */
typedef void (*HsaGpuStreamFn)(void *const *h, uint64_t n, const void *args,
                               bool nt);

typedef struct HsaGpuStream {
    HsaGpuStreamFn fn;
    HsaGpuRowFn row;            /* for an item split across two mappings */
    const void *args;
    unsigned nbuf;
    uint64_t base[HSAGPU_MAP_SLOTS];
    bool write[HSAGPU_MAP_SLOTS];
} HsaGpuStream;

/* Runs of at least this many bytes per buffer bypass the caches. */
#define HSAGPU_STREAM_NT_MIN    (1ULL << 20)

/* Do [a, a + len) and [b, b + len) overlap, other than exactly? */
static bool hsagpu_overlap_partly(const void *a, const void *b, uint64_t len)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;

    return x != y && x < y + len && y < x + len;
}

typedef float HsaGpuF4 __attribute__((vector_size(16)));

/*
 * @c[i] = @a[i] + @b[i] (vector add), or @k * @a[i] + @b[i] (saxpy,
 * @mul): the same expressions as the row functions. A guest may pass
 * buffers that overlap: an exact alias computes each item from its own
 * inputs, as any order would; a partial overlap makes items depend on
 * earlier outputs, so it runs strictly in order. @nt: a stream larger
 * than the caches, stored around them. Inlined with @mul constant.
 */
static inline __attribute__((always_inline))
void hsagpu_axpy(float *c, const float *a, const float *b, bool mul, float k,
                 uint64_t n, bool nt)
{
    uint64_t i = 0;

    if (hsagpu_overlap_partly(c, a, 4 * n) ||
        hsagpu_overlap_partly(c, b, 4 * n)) {
        goto tail;
    }
#ifdef __SSE2__
    if (nt) {
        __m128 kk = _mm_set1_ps(k);

        for (; i < n && ((uintptr_t)(c + i) & 15); i++) {
            c[i] = mul ? k * a[i] + b[i] : a[i] + b[i];
        }
        for (; i + 4 <= n; i += 4) {
            __m128 x = _mm_loadu_ps(a + i), y = _mm_loadu_ps(b + i);

            _mm_stream_ps(c + i, mul ? _mm_add_ps(_mm_mul_ps(kk, x), y)
                                     : _mm_add_ps(x, y));
        }
        /* Ordered before the completion signal's store. */
        _mm_sfence();
    }
#endif
    for (; i + 4 <= n; i += 4) {
        HsaGpuF4 x, y;

        memcpy(&x, a + i, sizeof(x));
        memcpy(&y, b + i, sizeof(y));
        x = mul ? k * x + y : x + y;
        memcpy(c + i, &x, sizeof(x));
    }
tail:
    for (; i < n; i++) {
        c[i] = mul ? k * a[i] + b[i] : a[i] + b[i];
    }
}

/* @n 32-bit items of @v at @dst. */
static void hsagpu_fill32(uint32_t *dst, uint64_t n, uint32_t v, bool nt)
{
    uint64_t i = 0;

#ifdef __SSE2__
    if (nt) {
        __m128i vv = _mm_set1_epi32((int)v);

        for (; i < n && ((uintptr_t)(dst + i) & 15); i++) {
            dst[i] = v;
        }
        for (; i + 4 <= n; i += 4) {
            _mm_stream_si128((__m128i *)(dst + i), vv);
        }
        _mm_sfence();
    }
#endif
    hsagpu_dma_fill_host(dst + i, 4 * (n - i), v, 0);
}

static void s_fill(void *const *h, uint64_t n, const void *args, bool nt)
{
    const struct hsagpu_kargs_fill *a = args;

    hsagpu_fill32(h[0], n, a->value, nt);
}

static void s_copy(void *const *h, uint64_t n, const void *args, bool nt)
{
    /* h[0]: src, h[1]: dst; an overlap as memmove() defines it */
    memmove(h[1], h[0], 4 * n);
}

static void s_vadd(void *const *h, uint64_t n, const void *args, bool nt)
{
    hsagpu_axpy(h[2], h[0], h[1], false, 0, n, nt);
}

static void s_saxpy(void *const *h, uint64_t n, const void *args, bool nt)
{
    const struct hsagpu_kargs_saxpy *a = args;

    /* h[0]: x, h[1]: y read, h[2]: y written (the same bytes) */
    hsagpu_axpy(h[2], h[0], h[1], true, a->a, n, nt);
}

/* Items [flat, flat + n) of stream @st: 0 or the queue error. */
static unsigned hsagpu_stream_run(const HsaGpuProc *p, const HsaGpuStream *st,
                                  uint64_t flat, uint64_t n)
{
    bool nt = 4 * n >= HSAGPU_STREAM_NT_MIN;

    while (n) {
        void *h[HSAGPU_MAP_SLOTS];
        uint64_t items = n, mapped;
        unsigned k, err = 0;

        for (k = 0; k < st->nbuf && items; k++) {
            err = p->ops->map(p->opaque, k, HSAGPU_VM_CLIENT_KERNEL,
                              st->base[k] + 4 * flat, 4 * items,
                              st->write[k], &h[k], &mapped);
            if (err) {
                break;
            }
            items = MIN(items, mapped / 4);
        }
        if (!err && items) {
            st->fn(h, items, st->args, nt);
        }
        for (unsigned j = 0; j < k; j++) {
            p->ops->unmap(p->opaque, j, err ? 0 : 4 * items);
        }
        if (err) {
            return err;
        }
        if (!items) {
            /* A mapping ends inside the item: through buffers. */
            HsaGpuRow row = { .flat = flat, .n = 1 };

            err = st->row(p, st->args, &row);
            if (err) {
                return err;
            }
            items = 1;
        }
        flat += items;
        n -= items;
    }
    return 0;
}

/*
 * hsagpu_for_rows() for a stream: rows of consecutive flat ids merge
 * into one run (in a 1-D grid, every workgroup of the slice), and a
 * slice is bounded by runs and bytes instead of rows and items.
 */
static unsigned hsagpu_for_runs(const HsaGpuProc *p, const HsaGpuGeom *g,
                                const HsaGpuStream *st, uint64_t *cursor)
{
    uint64_t total = g->nwg[0] * g->nwg[1] * g->nwg[2];
    uint64_t max_items = HSAGPU_KERNEL_SLICE_BYTES / (4 * st->nbuf);
    uint64_t runs = 0, items = 0, run_flat = 0, run_n = 0;
    bool flat_grid = g->grid[1] == 1 && g->grid[2] == 1;
    uint64_t wg_flat = *cursor;
    unsigned err;

    while (wg_flat < total) {
        uint64_t wx = wg_flat % g->nwg[0];
        uint64_t wy = wg_flat / g->nwg[0] % g->nwg[1];
        uint64_t wz = wg_flat / g->nwg[0] / g->nwg[1];
        uint64_t x0 = wx * g->wg[0];
        uint32_t nx = MIN(g->wg[0], g->grid[0] - x0);

        if (runs >= HSAGPU_KERNEL_SLICE_ROWS || items >= max_items) {
            break;
        }
        if (flat_grid) {
            /* One row per workgroup, all consecutive: up to the limit. */
            uint64_t nwg = MIN(total - wg_flat,
                               (max_items - items + g->wg[0] - 1) / g->wg[0]);
            uint64_t end = MIN((wg_flat + nwg) * g->wg[0], g->grid[0]);

            if (!run_n) {
                run_flat = x0;
            }
            run_n += end - x0;
            items += end - x0;
            runs = MAX(runs, 1);
            wg_flat += nwg;
            continue;
        }
        for (uint32_t lz = 0; lz < g->wg[2]; lz++) {
            uint64_t z = wz * g->wg[2] + lz;

            if (z >= g->grid[2]) {
                break;
            }
            for (uint32_t ly = 0; ly < g->wg[1]; ly++) {
                uint64_t y = wy * g->wg[1] + ly;
                uint64_t flat = x0 + y * g->grid[0] +
                                z * g->grid[0] * g->grid[1];

                if (y >= g->grid[1]) {
                    break;
                }
                if (run_n && flat != run_flat + run_n) {
                    err = hsagpu_stream_run(p, st, run_flat, run_n);
                    if (err) {
                        return err;
                    }
                    run_n = 0;
                }
                if (!run_n) {
                    run_flat = flat;
                    runs++;
                }
                run_n += nx;
                items += nx;
            }
        }
        wg_flat++;
    }
    if (run_n) {
        err = hsagpu_stream_run(p, st, run_flat, run_n);
        if (err) {
            return err;
        }
    }
    *cursor = wg_flat;
    return wg_flat < total ? HSAGPU_KERNEL_MORE : 0;
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
        HsaGpuStreamFn stream;  /* a streaming kernel: on mapped memory */
    } kernels[HSAGPU_KERNEL_COUNT] = {
        HSAGPU_KIDX(HSAGPU_KERNEL_FILL) = {
            sizeof(a.fill), k_fill, 4, s_fill,
        },
        HSAGPU_KIDX(HSAGPU_KERNEL_COPY) = {
            sizeof(a.copy), k_copy, 4, s_copy,
        },
        HSAGPU_KIDX(HSAGPU_KERNEL_VADD) = {
            sizeof(a.vadd), k_vadd, 4, s_vadd,
        },
        HSAGPU_KIDX(HSAGPU_KERNEL_SAXPY) = {
            sizeof(a.saxpy), k_saxpy, 4, s_saxpy,
        },
        HSAGPU_KIDX(HSAGPU_KERNEL_ATOMIC_INC) = {
            sizeof(a.inc), k_atomic_inc, 8, NULL,
        },
        HSAGPU_KIDX(HSAGPU_KERNEL_BUSY) = { sizeof(a.busy), NULL, 1, NULL },
        HSAGPU_KIDX(HSAGPU_KERNEL_IDS) = { sizeof(a.ids), k_ids, 4, NULL },
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
    hsagpu_dispatch_begin(q, p);
    hsagpu_kernel_workgroups(k, g.nwg);
    if (kernels[idx].stream && p->ops->map && p->ops->unmap) {
        HsaGpuStream st = {
            .fn = kernels[idx].stream, .row = kernels[idx].fn, .args = &a,
        };

        /* The buffers in the order the row function accesses them */
        switch (k->kernel_object) {
        case HSAGPU_KERNEL_FILL:
            st.nbuf = 1;
            st.base[0] = a.fill.dst;
            st.write[0] = true;
            break;
        case HSAGPU_KERNEL_COPY:
            st.nbuf = 2;
            st.base[0] = a.copy.src;
            st.base[1] = a.copy.dst;
            st.write[1] = true;
            break;
        case HSAGPU_KERNEL_VADD:
            st.nbuf = 3;
            st.base[0] = a.vadd.a;
            st.base[1] = a.vadd.b;
            st.base[2] = a.vadd.c;
            st.write[2] = true;
            break;
        default:
            st.nbuf = 3;
            st.base[0] = a.saxpy.x;
            st.base[1] = a.saxpy.y;
            st.base[2] = a.saxpy.y;
            st.write[2] = true;
            break;
        }
        err = hsagpu_for_runs(p, &g, &st, &q->kern_wg);
    } else {
        err = hsagpu_for_rows(p, &g, kernels[idx].fn, wg_end, args,
                              &q->kern_wg);
    }
    if (err == HSAGPU_KERNEL_MORE) {
        return err;
    }
out:
    hsagpu_dispatch_end(q);
    return err;
}
