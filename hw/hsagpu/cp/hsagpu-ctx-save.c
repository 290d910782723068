/*
 * hsa-gpu: a queue's context save and restore (include/hsagpu/hsagpu_ctx.h),
 * independent of QEMU. A personality that preempts a queue with a dispatch
 * part-done (amdkfd's evictions and the scheduler's runlist changes on
 * hsa-gpu-vega10) saves it here into a record for the queue's context
 * save area, and loads it back when the queue runs again: the dispatch
 * goes on where it stopped, as gfx9's CWSR makes it, instead of running
 * its finished workgroups a second time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#define g_free free
#define g_malloc malloc
#define g_malloc0(n) calloc(1, (n))
#define g_new0(t, n) ((t *)calloc((n), sizeof(t)))
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-cp.h"
#include "hsagpu/hsagpu_ctx.h"
#include "hw/hsagpu/gcn/hsagpu-gcn.h"

_Static_assert(HSAGPU_CTX_GWS_MAX == HSAGPU_GCN_GWS_MAX,
               "the record holds every GWS resource");

size_t hsagpu_ctx_record_make(struct hsagpu_ctx_record *h,
                              const HsaGpuGcnGrid *grid,
                              const HsaGpuGcnGws *gws, uint8_t **rec)
{
    uint8_t *state = NULL;
    size_t len;

    h->magic = HSAGPU_CTX_MAGIC;
    h->version = HSAGPU_CTX_VERSION;
    h->state_len = 0;
    if ((h->flags & HSAGPU_CTX_DISPATCH) && grid) {
        /* the interpreter's workgroups, in migration's form */
        h->state_len = hsagpu_gcn_grid_save(grid, &state);
    }
    if (gws) {
        h->flags |= HSAGPU_CTX_GWS;
        h->gws_num = gws->num;
        memcpy(h->gws_counter, gws->counter, sizeof(h->gws_counter));
        memcpy(h->gws_gen, gws->gen, sizeof(h->gws_gen));
        memcpy(h->gws_waiting, gws->waiting, sizeof(h->gws_waiting));
    }
    len = sizeof(*h) + h->state_len;
    h->length = len;
    *rec = g_malloc(len);
    memcpy(*rec, h, sizeof(*h));
    if (h->state_len) {
        memcpy(*rec + sizeof(*h), state, h->state_len);
    }
    g_free(state);
    return len;
}

const char *hsagpu_ctx_record_parse(const uint8_t *rec, size_t len,
                                    struct hsagpu_ctx_record *h)
{
    if (len < sizeof(*h)) {
        return "shorter than its header";
    }
    memcpy(h, rec, sizeof(*h));
    if (h->magic != HSAGPU_CTX_MAGIC || h->version != HSAGPU_CTX_VERSION) {
        return "not a record of this device";
    }
    if (h->flags & ~(HSAGPU_CTX_DISPATCH | HSAGPU_CTX_GWS) ||
        h->state_len > HSAGPU_CTX_MAX_BYTES ||
        h->length != sizeof(*h) + (uint64_t)h->state_len ||
        h->length > len || h->gws_num > HSAGPU_CTX_GWS_MAX ||
        (h->state_len && !(h->flags & HSAGPU_CTX_DISPATCH))) {
        return "its header is inconsistent";
    }
    return NULL;
}

void hsagpu_ctx_record_gws(const struct hsagpu_ctx_record *h,
                           HsaGpuGcnGws *gws)
{
    gws->num = h->gws_num;
    memcpy(gws->counter, h->gws_counter, sizeof(h->gws_counter));
    memcpy(gws->gen, h->gws_gen, sizeof(h->gws_gen));
    memcpy(gws->waiting, h->gws_waiting, sizeof(h->gws_waiting));
}

size_t hsagpu_queue_ctx_save(HsaGpuQueue *q, const void *packet,
                             uint8_t **rec)
{
    struct hsagpu_ctx_record h = { 0 };

    *rec = NULL;
    if (!q->kern_active && !q->gws) {
        return 0;
    }
    if (q->kern_active) {
        h.flags |= HSAGPU_CTX_DISPATCH;
        h.read_index = q->read_index;
        h.kern_wg = q->kern_wg;
        h.blit_off = q->blit_off;
        h.kern_start_ns = q->kern_start_ns;
        memcpy(h.packet, packet, sizeof(h.packet));
    }
    return hsagpu_ctx_record_make(&h, &q->grid, q->gws, rec);
}

const char *hsagpu_queue_ctx_load(HsaGpuQueue *q, const uint8_t *rec,
                                  size_t len, const void *packet)
{
    struct hsagpu_ctx_record h;
    const char *why = hsagpu_ctx_record_parse(rec, len, &h);

    if (why) {
        return why;
    }
    if (q->kern_active) {
        return "the queue has a dispatch of its own";
    }
    if (h.flags & HSAGPU_CTX_DISPATCH) {
        /* the same packet at the same place, or the record is stale */
        if (h.read_index != q->read_index) {
            return "saved at another read index";
        }
        if (memcmp(h.packet, packet, sizeof(h.packet))) {
            return "its packet was rewritten";
        }
        if (h.state_len &&
            !hsagpu_gcn_grid_load(&q->grid, rec + sizeof(h), h.state_len)) {
            return "its workgroups are not the interpreter's";
        }
        q->kern_active = 1;
        q->kern_wg = h.kern_wg;
        q->blit_off = h.blit_off;
        q->kern_start_ns = h.kern_start_ns;
    }
    /* a queue given no GWS now keeps none of it */
    if ((h.flags & HSAGPU_CTX_GWS) && q->num_gws) {
        if (!q->gws) {
            q->gws = g_new0(HsaGpuGcnGws, 1);
        }
        hsagpu_ctx_record_gws(&h, q->gws);
    }
    return NULL;
}
