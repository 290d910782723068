/*
 * libFuzzer harness: the GCN interpreter (hw/hsagpu/gcn/hsagpu-gcn-*.c) as
 * the attack surface it is. A guest hands the device a kernel
 * descriptor, code, kernel arguments and a dispatch geometry, and the
 * interpreter runs that code on the host, inside QEMU: every field of
 * every instruction is attacker-controlled. Here all of it is fuzzer
 * data (layout: fuzz-input.h), run on a small sparse address space whose
 * unmapped addresses fail (fuzz-mem.h), with a bounded instruction budget
 * in slices that pause in the middle of a workgroup, workgroups saved
 * and loaded at every pause (migration), memory with and without
 * atomics, and the device's own descriptor and code-object checks
 * (hsagpu_gcn_kd_parse, hsagpu_gcn_object) on the same bytes.
 *
 * Besides ASan and UBSan, the harness checks what the device relies on:
 * the two checks agree, a slice never runs past its budget, a paused
 * workgroup saves and loads to the same bytes.
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
#include "fuzz-mem.h"
#include "fuzz-gcnmem.h"
#include "fuzz-input.h"

static FuzzMem fm;

/* The queue processor's view of the same memory, for hsagpu_gcn_object */
static unsigned fg_qread(void *o, unsigned client, uint64_t addr, void *buf,
                         uint64_t len)
{
    return fuzz_mem_read(o, addr, buf, len) ? HSAGPU_QERR_ADDRESS : 0;
}

static const HsaGpuQueueOps fg_qops = { .read = fg_qread };

/*
 * Make a descriptor the parser refused into one it takes, changing as
 * little as possible, so that the other fields (rsrc1, rsrc2, props:
 * register counts, user SGPRs, work-item ids) keep their fuzzed values.
 */
static void fg_repair(uint8_t *kd)
{
    uint32_t group = fuzz_le32(kd), priv = fuzz_le32(kd + 4);
    uint32_t rsrc1 = fuzz_le32(kd + 48), props = fuzz_le16(kd + 56);
    int64_t entry;

    memcpy(&entry, kd + 16, sizeof(entry));
    group %= HSAGPU_GCN_LDS_MAX + 1;
    priv %= HSAGPU_GCN_PRIVATE_MAX + 1;
    props &= ~HSAGPU_GCN_KCP_WAVE32;
    rsrc1 &= ~(0xfU << 12);
    for (unsigned s = 16; s <= 18; s += 2) {
        unsigned mode = (rsrc1 >> s) & 3;

        if (mode == 1 || mode == 2) {
            rsrc1 |= 3U << s;
        }
    }
    entry &= ~(int64_t)3;
    if (entry >= 0 && entry < HSAGPU_GCN_KD_SIZE) {
        entry += FG_CODE_OFF;
    }
    fuzz_put32(kd, group);
    fuzz_put32(kd + 4, priv);
    fuzz_put32(kd + 48, rsrc1);
    kd[56] = props;
    kd[57] = props >> 8;
    memcpy(kd + 16, &entry, sizeof(entry));
}

/*
 * The dispatch geometry: 1-3 dimensions, at most FG_WG_SMALL items a
 * workgroup (HSAGPU_GCN_WG_MAX with FG_F_BIG), at most FG_NWG
 * workgroups per dimension, the last ones partial.
 */
static void fg_geometry(const uint8_t *h,
                        struct hsagpu_kernel_dispatch_packet *k)
{
    unsigned dims = 1 + h[FG_H_DIMS] % 3;
    uint32_t cap = (h[FG_H_FLAGS] & FG_F_BIG) ? HSAGPU_GCN_WG_MAX
                                               : FG_WG_SMALL;
    uint32_t wg[3] = { 1, 1, 1 }, grid[3] = { 1, 1, 1 };

    for (unsigned k = 0; k < dims; k++) {
        wg[k] = 1 + fuzz_le16(h + FG_H_WG + 2 * k) % HSAGPU_GCN_WG_MAX;
    }
    while (wg[0] * wg[1] * wg[2] > cap) {
        unsigned big = wg[1] > wg[0] ? 1 : 0;

        big = wg[2] > wg[big] ? 2 : big;
        wg[big] = (wg[big] + 1) / 2;
    }
    for (unsigned k = 0; k < dims; k++) {
        grid[k] = 1 + fuzz_le16(h + FG_H_GRID + 2 * k) % (FG_NWG * wg[k]);
    }
    memset(k, 0, sizeof(*k));
    k->header = HSAGPU_PKT_TYPE_KERNEL_DISPATCH;
    k->setup = dims;
    k->workgroup_size_x = wg[0];
    k->workgroup_size_y = wg[1];
    k->workgroup_size_z = wg[2];
    k->grid_size_x = grid[0];
    k->grid_size_y = grid[1];
    k->grid_size_z = grid[2];
    k->kernel_object = FG_KD;
    k->kernarg_address = FG_KARG;
}

/*
 * Save @r, load the bytes, and the copy must save to the same bytes; it
 * takes over @r's pages in the device's budget @pb.
 */
static HsaGpuGcnRun *fg_roundtrip(HsaGpuGcnRun *r, HsaGpuGcnPrivBudget *pb)
{
    uint8_t *a = NULL, *b = NULL;
    size_t la = hsagpu_gcn_run_save(r, &a), lb;
    HsaGpuGcnRun *copy = hsagpu_gcn_run_load(a, la);
    uint32_t id[3], cid[3];

    FUZZ_CHECK(copy && hsagpu_gcn_run_active(copy));
    lb = hsagpu_gcn_run_save(copy, &b);
    FUZZ_CHECK(la == lb && !memcmp(a, b, la));
    hsagpu_gcn_run_id(r, id);
    hsagpu_gcn_run_id(copy, cid);
    FUZZ_CHECK(!memcmp(id, cid, sizeof(id)));
    free(a);
    free(b);
    hsagpu_gcn_run_free(r);
    hsagpu_gcn_run_set_budget(copy, pb);
    return copy;
}

/* Run workgroups of @d in slices, within FG_BUDGET instructions in all */
static void fg_run(const uint8_t *h, const HsaGpuGcnMem *mem,
                   const HsaGpuGcnDispatch *d, const uint64_t nwg[3],
                   uint64_t total)
{
    uint8_t flags = h[FG_H_FLAGS];
    uint64_t used = 0, max_insns = 1 + (uint64_t)fuzz_le16(h + FG_H_MAXI);
    unsigned nrun = (flags & FG_F_TWO) ? 2 : 1;
    HsaGpuGcnRun *r = hsagpu_gcn_run_new();
    /* a device budget of 64 private pages: the limit is reached */
    HsaGpuGcnPrivBudget pb = { .limit = 64 * 4096 };
    HsaGpuGcnStatus st;

    hsagpu_gcn_run_set_budget(r, &pb);

    for (unsigned i = 0; i < nrun && used < FG_BUDGET; i++) {
        uint64_t flat = i ? h[FG_H_PICK] % total : 0;
        uint32_t id[3] = { flat % nwg[0], flat / nwg[0] % nwg[1],
                           flat / (nwg[0] * nwg[1]) };
        uint64_t slice = 1 + h[FG_H_PAUSE];
        unsigned err;

        FUZZ_CHECK(id[2] < nwg[2]);
        if (hsagpu_gcn_run_start(r, d, id[0], id[1], id[2], &st)) {
            FUZZ_CHECK(!hsagpu_gcn_run_active(r));
            continue;
        }
        FUZZ_CHECK(hsagpu_gcn_run_active(r));
        /* set-up costs instructions: the registers and memory it cleared */
        used += MIN(st.work, FG_BUDGET - used);
        for (;;) {
            uint64_t b = MIN(slice, FG_BUDGET - used);

            if (!b) {
                hsagpu_gcn_run_stop(r);
                break;
            }
            err = hsagpu_gcn_run_resume(r, mem, d, b, max_insns, &st);
            /* a slice stays within its budget, and a pause made progress */
            FUZZ_CHECK(st.insns <= b);
            FUZZ_CHECK(err != HSAGPU_GCN_PAUSED || st.insns);
            used += st.insns;
            if (err == HSAGPU_GCN_GWS_WAIT) {
                /* its waves wait for other workgroups: none will come */
                FUZZ_CHECK(hsagpu_gcn_run_active(r) && d->gws);
                hsagpu_gcn_run_stop(r);
                break;
            }
            if (err != HSAGPU_GCN_PAUSED) {
                FUZZ_CHECK(!hsagpu_gcn_run_active(r));
                break;
            }
            FUZZ_CHECK(hsagpu_gcn_run_active(r));
            if (flags & FG_F_SAVE) {
                r = fg_roundtrip(r, &pb);
            }
            slice = slice * 2 + 1;
        }
    }
    hsagpu_gcn_run_free(r);
    /* every private page given back to the device */
    FUZZ_CHECK(pb.used == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzIn in = { data, size };
    uint8_t h[FG_HEAD_SIZE], kdraw[HSAGPU_GCN_KD_SIZE], *co;
    const uint8_t *code, *karg, *dat;
    size_t code_len, karg_len, data_len;
    struct hsagpu_kernel_dispatch_packet k;
    const HsaGpuProc proc = { &fg_qops, &fm, NULL, NULL };
    HsaGpuGcnMem mem = fuzz_gcn_mem(&fm);
    HsaGpuGcnDispatch d;
    HsaGpuGcnGws gws;
    HsaGpuGcnKd kd, kd2;
    uint64_t nwg[3], total;
    unsigned err;
    bool ok;

    fuzz_take(&in, h, sizeof(h));
    fuzz_take(&in, kdraw, sizeof(kdraw));
    /* u16 lengths: code and data fit their regions whatever they say */
    _Static_assert(UINT16_MAX <= FG_CODE_MAX && UINT16_MAX <= FG_DATA_SIZE,
                   "u16 lengths");
    code = fuzz_take_ptr(&in, fuzz_le16(h + FG_H_CODE_LEN), &code_len);
    karg = fuzz_take_ptr(&in, MIN(fuzz_le16(h + FG_H_KARG_LEN), FG_KARG_SIZE),
                         &karg_len);
    dat = fuzz_take_ptr(&in, fuzz_le16(h + FG_H_DATA_LEN), &data_len);
    if (h[FG_H_FLAGS] & FG_F_NO_ATOMIC) {
        mem.atomic = NULL;
    }

    memset(&kd, 0, sizeof(kd));
    err = hsagpu_gcn_kd_parse(kdraw, &kd);
    if (err && (h[FG_H_FLAGS] & FG_F_REPAIR)) {
        fg_repair(kdraw);
        memset(&kd, 0, sizeof(kd));
        err = hsagpu_gcn_kd_parse(kdraw, &kd);
    }

    /* The address space: code object, packet, queue, arguments, data */
    co = fuzz_mem_map(&fm, FG_KD, FG_CODE_OFF + code_len, NULL, 0,
                      h[FG_H_FLAGS] & FG_F_RO_CODE);
    memcpy(co, kdraw, sizeof(kdraw));
    if (code_len) {
        memcpy(co + FG_CODE_OFF, code, code_len);
    }
    fg_geometry(h, &k);
    fuzz_mem_map(&fm, FG_PKT, sizeof(k), (const uint8_t *)&k, sizeof(k),
                 false);
    fuzz_mem_map(&fm, FG_QUEUE, FG_QUEUE_SIZE, NULL, 0, false);
    fuzz_mem_map(&fm, FG_KARG, FG_KARG_SIZE, karg, karg_len, false);
    fuzz_mem_map(&fm, FG_DATA, FG_DATA_SIZE, dat, data_len, false);

    /* The queue's check of a kernel_object: the parser's verdict */
    if (h[FG_H_FLAGS] & FG_F_KOBJ) {
        k.kernel_object += h[FG_H_KOBJ] % 64;
    }
    memset(&kd2, 0, sizeof(kd2));
    ok = hsagpu_gcn_object(&proc, &k, &kd2);
    FUZZ_CHECK(ok == (!err && k.kernel_object == FG_KD));
    if (!ok || err) {
        goto out;
    }
    FUZZ_CHECK(kd.group_segment_size == kd2.group_segment_size &&
               kd.private_segment_size == kd2.private_segment_size &&
               kd.kernarg_size == kd2.kernarg_size &&
               kd.entry_offset == kd2.entry_offset &&
               kd.rsrc1 == kd2.rsrc1 && kd.rsrc2 == kd2.rsrc2 &&
               kd.rsrc3 == kd2.rsrc3 && kd.props == kd2.props);

    FUZZ_CHECK(!hsagpu_kernel_check_geometry(&k));
    total = hsagpu_kernel_workgroups(&k, nwg);
    FUZZ_CHECK(total >= 1 && total <= FG_NWG * FG_NWG * FG_NWG);
    memset(&d, 0, sizeof(d));
    d.kd = kd;
    d.code = FG_KD + kd.entry_offset;
    d.dispatch_ptr = FG_PKT;
    d.queue_ptr = FG_QUEUE;
    d.kernarg = FG_KARG;
    d.dispatch_id = h[FG_H_ID];
    d.grid[0] = k.grid_size_x;
    d.grid[1] = k.grid_size_y;
    d.grid[2] = k.grid_size_z;
    d.wg[0] = k.workgroup_size_x;
    d.wg[1] = k.workgroup_size_y;
    d.wg[2] = k.workgroup_size_z;
    /* the queue's global wave sync, fresh: ds_gws_* run or are refused */
    memset(&gws, 0, sizeof(gws));
    gws.num = h[FG_H_GWS] ? h[FG_H_GWS] % (HSAGPU_GCN_GWS_MAX + 1)
                          : HSAGPU_GCN_GWS_MAX;
    d.gws = gws.num ? &gws : NULL;
    if (h[FG_H_FLAGS] & FG_F_SCRATCH) {
        /* a PM4 dispatch's scratch: 1 KiB a lane, where the code says */
        d.scratch_va = true;
        d.scratch_waves = h[FG_H_SCRATCH];
        d.private_segment_size = 1024;
    }
    fg_run(h, &mem, &d, nwg, total);
out:
    fuzz_mem_free(&fm);
    return 0;
}
