/*
 * hsa-gpu: GCN (gfx9) interpreter, vector encodings: VOP1, VOP2, VOPC,
 * VOP3 (a and b), VOP3P, and the SDWA and DPP operand forms, decoded into
 * the operation hsagpu-gcn-valu.c runs over the lanes; FLAT, MUBUF and DS
 * handed to hsagpu-gcn-vmem.c. Operand indices are checked where they are
 * used (hsagpu_gcn_op, hsagpu_gcn_vregs), before anything changes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <string.h>
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-gcn-int.h"

/* An SDWA source: byte or word @sel (6: the dword), zero- or sign-extended */
static uint32_t gcn_sdwa_sel(uint32_t v, unsigned sel, bool sext)
{
    unsigned bits = sel < 4 ? 8 : sel < 6 ? 16 : 32;
    unsigned shift = sel < 4 ? 8 * sel : sel < 6 ? 16 * (sel - 4) : 0;

    if (bits == 32) {
        return v;
    }
    v = (v >> shift) & ((1u << bits) - 1);
    return sext && (v >> (bits - 1)) & 1 ? v | ~((1u << bits) - 1) : v;
}

/*
 * The result placed in the destination's byte or word @sel; the other
 * bits zero (UNUSED_PAD), the field's sign above it (UNUSED_SEXT) or
 * the old ones (UNUSED_PRESERVE).
 */
static uint32_t gcn_sdwa_dst(uint32_t old, uint32_t r, unsigned sel,
                             unsigned unused)
{
    unsigned bits = sel < 4 ? 8 : sel < 6 ? 16 : 32;
    unsigned shift = sel < 4 ? 8 * sel : sel < 6 ? 16 * (sel - 4) : 0;
    uint32_t field, mask;

    if (bits == 32) {
        return r;
    }
    mask = ((1u << bits) - 1) << shift;
    field = (r << shift) & mask;
    if (unused == 2) {
        return (old & ~mask) | field;
    }
    if (unused == 1 && (field >> (shift + bits - 1)) & 1) {
        /* the sign above the field: none for the top byte or word */
        return field | ~(uint32_t)((1ULL << (shift + bits)) - 1);
    }
    return field;
}

/* DPP: the lane whose src0 lane @l reads, or -1 (outside its row) */
static int gcn_dpp_src(unsigned ctrl, unsigned l)
{
    unsigned row = l & ~15u, in = l & 15;
    int n = ctrl & 15;

    if (ctrl <= 0xff) {                             /* quad_perm */
        return (l & ~3u) | ((ctrl >> (2 * (l & 3))) & 3);
    }
    if (ctrl >= 0x101 && ctrl <= 0x10f) {           /* row_shl */
        return in + n < 16 ? (int)(l + n) : -1;
    }
    if (ctrl >= 0x111 && ctrl <= 0x11f) {           /* row_shr */
        return (int)in - n >= 0 ? (int)(l - n) : -1;
    }
    if (ctrl >= 0x121 && ctrl <= 0x12f) {           /* row_ror */
        return row | ((in - n) & 15);
    }
    switch (ctrl) {
    case 0x130:                                     /* wave_shl1 */
        return l + 1 < HSAGPU_GCN_WAVE ? (int)l + 1 : -1;
    case 0x134:                                     /* wave_rol1 */
        return (l + 1) % HSAGPU_GCN_WAVE;
    case 0x138:                                     /* wave_shr1 */
        return l ? (int)l - 1 : -1;
    case 0x13c:                                     /* wave_ror1 */
        return (l + HSAGPU_GCN_WAVE - 1) % HSAGPU_GCN_WAVE;
    case 0x140:                                     /* row_mirror */
        return row | (15 - in);
    case 0x141:                                     /* row_half_mirror */
        return (l & ~7u) | (7 - (l & 7));
    case 0x142:                                     /* row_bcast15 */
        return row ? (int)row - 1 : -1;
    case 0x143:                                     /* row_bcast31 */
        return l >= 32 ? 31 : -1;
    default:
        return -2;                                  /* reserved */
    }
}

/*
 * SDWA (src0 field 0xf9) and DPP (0xfa) forms of VOP1, VOP2 and VOPC:
 * the extra dword's operand selection, modifiers and destination, then
 * the operation as usual. @kind: 1 VOP1, 2 VOP2, 3 VOPC.
 */
static unsigned gcn_vop_ext(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                            const uint32_t *insn, unsigned kind, unsigned op,
                            unsigned vdst, unsigned nsrc)
{
    uint32_t e = insn[1], s0[HSAGPU_GCN_WAVE], s1[HSAGPU_GCN_WAVE];
    uint32_t old[HSAGPU_GCN_WAVE];
    unsigned v1 = (insn[0] >> 9) & 0xff, src[3] = { 0, 0, 0 }, r;
    HsaGpuGcnExt x = { .src = { s0, NULL } };
    HsaGpuGcnVreg *dst = NULL;
    uint64_t exec = w->exec;
    int sdst = -1;
    /* the operation in VOP3 numbering; VOP2's carry-in ops read VCC */
    unsigned vop = kind == 1 ? 0x140 + op : kind == 2 ? 0x100 + op : op;
    int cin = kind == 2 && op >= 28 && op <= 30 ? GCN_SRC_VCC_LO : -1;

    if ((insn[0] & 0x1ff) == 0xf9) {                /* SDWA */
        bool s0s = (e >> 23) & 1, s1s = (e >> 31) & 1;
        HsaGpuGcnOp a, b;

        x.sdwa = kind != 3;
        x.dst_sel = (e >> 8) & 7;
        x.dst_unused = (e >> 11) & 3;
        /* selects 7 (and UNUSED 3) are reserved */
        if ((x.sdwa && (x.dst_sel > 6 || x.dst_unused > 2)) ||
            ((e >> 16) & 7) > 6 || (nsrc > 1 && ((e >> 24) & 7) > 6)) {
            return hsagpu_gcn_refuse(g, w, insn, "sdwa");
        }
        if (!hsagpu_gcn_op(w, (s0s ? 0 : GCN_SRC_VGPR) + (e & 0xff), 0,
                           false, &a) ||
            (nsrc > 1 && !hsagpu_gcn_op(w, (kind == 3 && s1s ? 0 :
                                            GCN_SRC_VGPR) + v1,
                                 0, false, &b))) {
            return hsagpu_gcn_refuse(g, w, insn, "sdwa operand");
        }
        if (x.sdwa && !hsagpu_gcn_vregs(w, vdst, 1, &dst)) {
            return hsagpu_gcn_refuse(g, w, insn,
                                     "VGPR destination past the allocation");
        }
        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
            s0[l] = gcn_sdwa_sel(hsagpu_gcn_lane(w, &a, l, false),
                                 (e >> 16) & 7, (e >> 19) & 1);
            if (nsrc > 1) {
                s1[l] = gcn_sdwa_sel(hsagpu_gcn_lane(w, &b, l, false),
                                     (e >> 24) & 7, (e >> 27) & 1);
            }
        }
        if (nsrc > 1) {
            x.src[1] = s1;
        }
        if (kind == 3 && (e >> 15) & 1) {
            sdst = (e >> 8) & 0x7f;                 /* SDST instead of VCC */
        }
        if (x.sdwa) {
            memcpy(old, dst[0], sizeof(old));
        }
        r = hsagpu_gcn_valu(g, w, insn, vop, nsrc, src, 0, vdst, sdst, cin,
                            ((e >> 21) & 1) | ((e >> 29) & 1) << 1,
                            ((e >> 20) & 1) | ((e >> 28) & 1) << 1,
                            kind == 3 ? 0 : (e >> 14) & 3,
                            kind != 3 && ((e >> 13) & 1), 2, &x);
        if (r && x.sdwa) {
            for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
                if ((exec >> l) & 1) {
                    dst[0][l] = gcn_sdwa_dst(old[l], dst[0][l],
                                                 x.dst_sel, x.dst_unused);
                }
            }
        }
        return r;
    }
    /* DPP: src0 from another lane of the row (or wave), per dpp_ctrl */
    {
        unsigned ctrl = (e >> 8) & 0x1ff;
        bool bound0 = (e >> 19) & 1;
        uint64_t wmask = 0;
        HsaGpuGcnOp a;

        if (!hsagpu_gcn_op(w, GCN_SRC_VGPR + (e & 0xff), 0, false, &a) ||
            gcn_dpp_src(ctrl, 0) == -2 ||
            (kind == 3 && ((op >= 0x20 && (op & 0x10)) ||
                           (op < 0x20 && (op & 1))))) {
            /* (v_cmpx: not here) */
            return hsagpu_gcn_refuse(g, w, insn, "dpp");
        }
        for (unsigned l = 0; l < HSAGPU_GCN_WAVE; l++) {
            int from = gcn_dpp_src(ctrl, l);     /* -1, or a lane */
            bool on = ((e >> 28) >> (l / 16)) & 1 &&
                      ((e >> 24) >> ((l & 15) / 4)) & 1;

            s0[l] = 0;
            if (!on) {
                continue;                           /* row or bank masked */
            }
            if (from < 0 || from >= HSAGPU_GCN_WAVE || !((exec >> from) & 1)) {
                if (bound0) {
                    wmask |= 1ULL << l;             /* reads 0 */
                }
                continue;
            }
            s0[l] = a.lanes[from];
            wmask |= 1ULL << l;
        }
        if (nsrc > 1) {
            src[1] = GCN_SRC_VGPR + v1;
        }
        w->exec = exec & wmask;
        r = hsagpu_gcn_valu(g, w, insn, vop, nsrc, src, 0, vdst, -1, cin,
                            ((e >> 21) & 1) | ((e >> 23) & 1) << 1,
                            ((e >> 20) & 1) | ((e >> 22) & 1) << 1, 0, false,
                            2, &x);
        w->exec = exec;
        return r;
    }
}

unsigned hsagpu_gcn_vector(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                           const uint32_t *insn)
{
    uint32_t i = insn[0];
    unsigned src[3];

    g->st->lane_ops += __builtin_popcountll(w->exec);
    if (!(i >> 31)) {
        bool ext = (i & 0x1ff) == 0xf9 || (i & 0x1ff) == 0xfa;

        if ((i >> 25) == 0x3f) {                    /* VOP1 */
            unsigned op = (i >> 9) & 0xff;

            src[0] = i & 0x1ff;
            if (op == 0) {
                return 1;                           /* v_nop */
            }
            if (op >= 0x80) {
                /* past VOP1's range of VOP3 numbers (0x140 + op) */
                return hsagpu_gcn_refuse(g, w, insn, "vop1");
            }
            if (ext) {
                return gcn_vop_ext(g, w, insn, 1, op, (i >> 17) & 0xff, 1);
            }
            return hsagpu_gcn_valu(g, w, insn, 0x140 + op, 1, src, insn[1],
                                   (i >> 17) & 0xff, -1, -1, 0, 0, 0, false,
                                   1 + (src[0] == GCN_SRC_LITERAL), NULL);
        }
        if ((i >> 25) == 0x3e) {                    /* VOPC */
            if (ext) {
                return gcn_vop_ext(g, w, insn, 3, (i >> 17) & 0xff, 0, 2);
            }
            src[0] = i & 0x1ff;
            src[1] = GCN_SRC_VGPR + ((i >> 9) & 0xff);
            return hsagpu_gcn_valu(g, w, insn, (i >> 17) & 0xff, 2, src,
                                   insn[1], 0, -1, -1, 0, 0, 0, false,
                                   1 + (src[0] == GCN_SRC_LITERAL), NULL);
        }
        {                                           /* VOP2 */
            unsigned op = (i >> 25) & 0x3f;
            /* v_madmk/madak_f32, _f16: a literal constant */
            bool k = op == 23 || op == 24 || op == 36 || op == 37;

            if (ext && !k) {
                return gcn_vop_ext(g, w, insn, 2, op, (i >> 17) & 0xff,
                                   2);
            }
            src[0] = i & 0x1ff;
            src[1] = GCN_SRC_VGPR + ((i >> 9) & 0xff);
            return hsagpu_gcn_valu(g, w, insn, 0x100 + op, 2, src, insn[1],
                                   (i >> 17) & 0xff, -1,
                                   op >= 28 && op <= 30 ? GCN_SRC_VCC_LO : -1,
                                   0, 0, 0, false,
                                   1 + (k || src[0] == GCN_SRC_LITERAL), NULL);
        }
    }
    if ((i >> 23) == 0x1a7) {                       /* VOP3P */
        return hsagpu_gcn_vop3p(g, w, insn);
    }
    switch (i >> 26) {
    case 0x34: {                                    /* VOP3 (a and b) */
        unsigned op = (i >> 16) & 0x3ff;
        /* VOP3b: an SGPR destination where VOP3a has abs and clamp */
        bool b = (op >= 0x119 && op <= 0x11e) || (op >= 0x1e0 && op <= 0x1e1) ||
                 op == 0x1e8 || op == 0x1e9;
        bool c_in = op >= 0x11c && op <= 0x11e;
        unsigned nsrc = op < 0x100 ? 2 : op < 0x140 ? (c_in ? 3 : 2) :
                        op < 0x1c0 ? 1 : op >= 0x280 ? 2 : 3;

        src[0] = insn[1] & 0x1ff;
        src[1] = (insn[1] >> 9) & 0x1ff;
        src[2] = (insn[1] >> 18) & 0x1ff;
        if (op == 0x100) {                          /* cndmask: mask in src2 */
            return hsagpu_gcn_valu(g, w, insn, op, 2, src, 0, i & 0xff, -1,
                                   src[2], (i >> 8) & 3, (insn[1] >> 29) & 3,
                                   0, false, 2, NULL);
        }
        return hsagpu_gcn_valu(g, w, insn, op, c_in ? 2 : nsrc, src, 0,
                               i & 0xff, op < 0x100 ? (int)(i & 0xff) :
                               b ? (int)((i >> 8) & 0x7f) : -1,
                               c_in ? (int)src[2] : -1,
                               b ? 0 : (i >> 8) & 7, insn[1] >> 29,
                               (insn[1] >> 27) & 3, (i >> 15) & 1, 2, NULL);
    }
    case 0x37:                                      /* FLAT, GLOBAL */
        return hsagpu_gcn_flat(g, w, insn);
    case 0x38:                                      /* MUBUF */
        return hsagpu_gcn_mubuf(g, w, insn);
    case 0x36:                                      /* DS */
        return hsagpu_gcn_ds(g, w, insn);
    default:
        return hsagpu_gcn_refuse(g, w, insn, "encoding");
    }
}
