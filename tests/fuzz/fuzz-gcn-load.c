/*
 * libFuzzer harness: the GCN workgroup subsection of the migration
 * stream (hsagpu_gcn_run_load, and hsagpu_queue_gcn_load around it). A
 * migration stream comes from another QEMU, so a hostile or corrupt
 * source must not get past the load checks with a workgroup the
 * interpreter could not have made (register counts, wave numbers, LDS
 * and private sizes, the wave to go on with). Input (fuzz-input.h): a
 * head, code for the loaded waves to run (at the address the fuzz-gcn
 * harness and the seeds use), then the saved bytes, all the rest of the
 * input. When the bytes load, the workgroup resumes for a bounded number
 * of instructions on the sparse memory of fuzz-mem.h, and what it then
 * saves must load again. The same bytes also come as a preempted queue's
 * context save record (FL_F_CTX: hsagpu_queue_ctx_load, read from the
 * process's memory on hsa-gpu-vega10).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hsagpu/cp/hsagpu-cp.h"
#include "hw/hsagpu/gcn/hsagpu-gcn.h"
#include "hsagpu/hsagpu_ctx.h"
#include "fuzz-mem.h"
#include "fuzz-gcnmem.h"
#include "fuzz-input.h"

static FuzzMem fm;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzIn in = { data, size };
    uint8_t h[FL_HEAD_SIZE], *co, *buf = NULL;
    const uint8_t *code, *blob;
    size_t code_len, blob_len, len;
    HsaGpuGcnMem mem = fuzz_gcn_mem(&fm);
    HsaGpuGcnDispatch d;
    HsaGpuGcnStatus st;
    HsaGpuGcnRun *r, *again;
    uint64_t budget, max_insns;
    unsigned err;

    fuzz_take(&in, h, sizeof(h));
    _Static_assert(UINT16_MAX <= FG_CODE_MAX, "u16 code length");
    code = fuzz_take_ptr(&in, fuzz_le16(h + FL_H_CODE_LEN), &code_len);
    blob = fuzz_take_ptr(&in, in.n, &blob_len);
    if (h[FL_H_FLAGS] & FL_F_NO_ATOMIC) {
        mem.atomic = NULL;
    }

    if (h[FL_H_FLAGS] & FL_F_CTX) {
        /* As a queue mapped again reads its context save area */
        struct hsagpu_ctx_record cr;
        uint8_t pkt[64] = { 0 }, *rec = NULL;
        HsaGpuQueue q, q2;
        size_t rlen;

        memset(&q, 0, sizeof(q));
        q.num_gws = HSAGPU_CTX_GWS_MAX;
        if (blob_len >= sizeof(cr)) {
            memcpy(&cr, blob, sizeof(cr));
            q.read_index = cr.read_index;
            memcpy(pkt, cr.packet, sizeof(pkt));
        }
        if (hsagpu_queue_ctx_load(&q, blob, blob_len, pkt)) {
            FUZZ_CHECK(!q.gcn_blob);
            hsagpu_queue_gcn_free(&q);
            return 0;
        }
        FUZZ_CHECK(!q.gcn_blob);
        /* what it saves again loads again, into a fresh queue */
        rlen = hsagpu_queue_ctx_save(&q, pkt, &rec);
        FUZZ_CHECK(rlen && rec);
        memset(&q2, 0, sizeof(q2));
        q2.num_gws = q.num_gws;
        q2.read_index = q.read_index;
        FUZZ_CHECK(!hsagpu_queue_ctx_load(&q2, rec, rlen, pkt));
        FUZZ_CHECK(q2.kern_active == q.kern_active && q2.kern_wg == q.kern_wg);
        free(rec);
        hsagpu_queue_gcn_free(&q2);
        r = q.grid.run;
        q.grid.run = NULL;
        hsagpu_queue_gcn_free(&q);
    } else if (h[FL_H_FLAGS] & FL_F_QUEUE) {
        /* As the device's post_load does: the blob is the queue's */
        HsaGpuQueue q;

        memset(&q, 0, sizeof(q));
        q.gcn_blob = malloc(blob_len ? blob_len : 1);
        FUZZ_CHECK(q.gcn_blob);
        if (blob_len) {
            memcpy(q.gcn_blob, blob, blob_len);
        }
        q.gcn_blob_len = blob_len;
        FUZZ_CHECK(q.gcn_blob_len == blob_len);
        if (!hsagpu_queue_gcn_load(&q)) {
            FUZZ_CHECK(!q.gcn_blob);
            hsagpu_queue_gcn_free(&q);
            return 0;
        }
        FUZZ_CHECK(!q.gcn_blob);
        /* a GWS dispatch's waiting workgroups: loaded whole, checked */
        for (uint32_t i = 0; i < q.grid.nwait; i++) {
            FUZZ_CHECK(hsagpu_gcn_run_active(q.grid.wait[i]));
        }
        /* a pool's several in flight: the same, and never with GWS */
        for (uint32_t i = 0; i < q.grid.nmore; i++) {
            FUZZ_CHECK(hsagpu_gcn_run_active(q.grid.more[i]));
        }
        FUZZ_CHECK(!q.grid.nmore || !q.grid.nwait);
        r = q.grid.run;
        q.grid.run = NULL;
        hsagpu_gcn_grid_free(&q.grid);
    } else {
        r = hsagpu_gcn_run_load(blob, blob_len);
    }
    if (!r) {
        return 0;
    }
    FUZZ_CHECK(hsagpu_gcn_run_active(r));

    co = fuzz_mem_map(&fm, FG_KD, FG_CODE_OFF + code_len, NULL, 0, false);
    if (code_len) {
        memcpy(co + FG_CODE_OFF, code, code_len);
    }
    fuzz_mem_map(&fm, FG_PKT, HSAGPU_AQL_PACKET_SIZE, NULL, 0, false);
    fuzz_mem_map(&fm, FG_QUEUE, FG_QUEUE_SIZE, NULL, 0, false);
    fuzz_mem_map(&fm, FG_KARG, FG_KARG_SIZE, NULL, 0, false);
    fuzz_mem_map(&fm, FG_DATA, FG_DATA_SIZE, NULL, 0, false);

    /* The dispatch the workgroup belongs to: only rsrc1 is read again */
    memset(&d, 0, sizeof(d));
    d.kd.rsrc1 = fuzz_le32(h + FL_H_RSRC1);
    d.code = FG_CODE;
    d.dispatch_ptr = FG_PKT;
    d.queue_ptr = FG_QUEUE;
    d.kernarg = FG_KARG;
    budget = 16 * (1 + (uint64_t)h[FL_H_BUDGET]);
    max_insns = 1 + (uint64_t)fuzz_le16(h + FL_H_MAXI);
    err = hsagpu_gcn_run_resume(r, &mem, &d, budget, max_insns, &st);
    FUZZ_CHECK(st.insns <= budget);
    if (err == HSAGPU_GCN_PAUSED) {
        /* what it saves now loads again */
        len = hsagpu_gcn_run_save(r, &buf);
        again = hsagpu_gcn_run_load(buf, len);
        FUZZ_CHECK(again);
        hsagpu_gcn_run_free(again);
        free(buf);
    } else {
        FUZZ_CHECK(!hsagpu_gcn_run_active(r));
    }
    hsagpu_gcn_run_free(r);
    fuzz_mem_free(&fm);
    return 0;
}
