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

bool hsagpu_gcn_op(HsaGpuGcnWave *w, unsigned src, uint32_t lit,
                   unsigned type, HsaGpuGcnOp *o)
{
    bool is64 = type == GCN_OT_B64 || type == GCN_OT_F64;
    HsaGpuGcnVreg *r;

    o->lanes = o->hi = NULL;
    o->vgpr = src >= GCN_SRC_VGPR;
    if (o->vgpr) {
        o->reg = src - GCN_SRC_VGPR;
        if (!hsagpu_gcn_vsrc(w, o->reg, is64 ? 2 : 1, &r)) {
            return false;
        }
        o->lanes = r[0];
        o->hi = is64 ? r[1] : NULL;
        return true;
    }
    return hsagpu_gcn_sread_as(w, src, lit, type, &o->val);
}

/* Does VOP2 @op (VOP3 numbering) read a carry in (VCC, VOP3: an SGPR pair) */
static bool gcn_carry_in(unsigned op)
{
    return op == GCN_VOP3_V_ADDC_CO_U32 || op == GCN_VOP3_V_SUBB_CO_U32 ||
           op == GCN_VOP3_V_SUBBREV_CO_U32;
}

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

/*
 * DPP's dpp_ctrl values, by LLVM's names (checked with llvm-mc): the
 * row_* shifts and rotations take 1..15 (ROW_SHL0 + n and so on)
 */
enum {
    GCN_DPP_QUAD_PERM_LAST  = 0x0ff,    /* quad_perm: 0x00..0xff */
    GCN_DPP_ROW_SHL0        = 0x100,
    GCN_DPP_ROW_SHR0        = 0x110,
    GCN_DPP_ROW_ROR0        = 0x120,
    GCN_DPP_WAVE_SHL1       = 0x130,
    GCN_DPP_WAVE_ROL1       = 0x134,
    GCN_DPP_WAVE_SHR1       = 0x138,
    GCN_DPP_WAVE_ROR1       = 0x13c,
    GCN_DPP_ROW_MIRROR      = 0x140,
    GCN_DPP_ROW_HALF_MIRROR = 0x141,
    GCN_DPP_ROW_BCAST15     = 0x142,
    GCN_DPP_ROW_BCAST31     = 0x143,
};

/* DPP: the lane whose src0 lane @l reads, or -1 (outside its row) */
static int gcn_dpp_src(unsigned ctrl, unsigned l)
{
    unsigned row = l & ~15u, in = l & 15;
    int n = ctrl & 15;

    if (ctrl <= GCN_DPP_QUAD_PERM_LAST) {
        return (l & ~3u) | ((ctrl >> (2 * (l & 3))) & 3);
    }
    if (ctrl > GCN_DPP_ROW_SHL0 && ctrl < GCN_DPP_ROW_SHL0 + 16) {
        return in + n < 16 ? (int)(l + n) : -1;
    }
    if (ctrl > GCN_DPP_ROW_SHR0 && ctrl < GCN_DPP_ROW_SHR0 + 16) {
        return (int)in - n >= 0 ? (int)(l - n) : -1;
    }
    if (ctrl > GCN_DPP_ROW_ROR0 && ctrl < GCN_DPP_ROW_ROR0 + 16) {
        return row | ((in - n) & 15);
    }
    switch (ctrl) {
    case GCN_DPP_WAVE_SHL1:
        return l + 1 < HSAGPU_GCN_WAVE ? (int)l + 1 : -1;
    case GCN_DPP_WAVE_ROL1:
        return (l + 1) % HSAGPU_GCN_WAVE;
    case GCN_DPP_WAVE_SHR1:
        return l ? (int)l - 1 : -1;
    case GCN_DPP_WAVE_ROR1:
        return (l + HSAGPU_GCN_WAVE - 1) % HSAGPU_GCN_WAVE;
    case GCN_DPP_ROW_MIRROR:
        return row | (15 - in);
    case GCN_DPP_ROW_HALF_MIRROR:
        return (l & ~7u) | (7 - (l & 7));
    case GCN_DPP_ROW_BCAST15:
        return row ? (int)row - 1 : -1;
    case GCN_DPP_ROW_BCAST31:
        return l >= 32 ? 31 : -1;
    default:
        return -2;                                  /* reserved */
    }
}

/*
 * SDWA (src0 field 0xf9) and DPP (0xfa) forms of VOP1, VOP2 and VOPC:
 * the extra dword's operand selection, modifiers and destination, then
 * the operation @vop (VOP3 numbering) as usual. @kind: 1 VOP1, 2 VOP2,
 * 3 VOPC.
 */
static unsigned gcn_vop_ext(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                            const uint32_t *insn, unsigned kind, unsigned vop,
                            unsigned vdst, unsigned nsrc)
{
    uint32_t e = insn[1];
    HSAGPU_GCN_SCRATCH uint32_t s0[HSAGPU_GCN_WAVE], s1[HSAGPU_GCN_WAVE];
    HSAGPU_GCN_SCRATCH uint32_t old[HSAGPU_GCN_WAVE];
    unsigned v1 = (insn[0] >> 9) & 0xff, src[3] = { 0, 0, 0 }, r;
    HsaGpuGcnExt x = { .src = { s0, NULL } };
    HsaGpuGcnVreg *dst = NULL;
    uint64_t exec = w->exec;
    int sdst = -1;
    /* VOP2's carry-in ops read VCC */
    int cin = gcn_carry_in(vop) ? GCN_SRC_VCC_LO : -1;

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
        /*
         * S0/S1: an SGPR or an inline constant (of the operation's type)
         * instead of a VGPR, for VOP2's src1 as for VOPC's (gfx9 SDWA)
         */
        if (!hsagpu_gcn_op(w, (s0s ? 0 : GCN_SRC_VGPR) + (e & 0xff), 0,
                           hsagpu_gcn_optype(vop, 0), &a) ||
            (nsrc > 1 && !hsagpu_gcn_op(w, (s1s ? 0 : GCN_SRC_VGPR) + v1,
                                        0, hsagpu_gcn_optype(vop, 1), &b))) {
            return hsagpu_gcn_refuse(g, w, insn, "sdwa operand");
        }
        if (x.sdwa && !hsagpu_gcn_vregs(w, vdst, 1, &dst)) {
            return hsagpu_gcn_vdst_nop(w, 2);
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
        r = hsagpu_gcn_valu(g, w, insn, &(HsaGpuGcnVop) {
                                .op = vop, .nsrc = nsrc, .len = 2,
                                .vdst = vdst, .sdst = sdst, .carry_in = cin,
                                .abs = ((e >> 21) & 1) | ((e >> 29) & 1) << 1,
                                .neg = ((e >> 20) & 1) | ((e >> 28) & 1) << 1,
                                .omod = kind == 3 ? 0 : (e >> 14) & 3,
                                .clamp = kind != 3 && ((e >> 13) & 1),
                            }, &x);
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
            gcn_dpp_src(ctrl, 0) == -2) {
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
        r = hsagpu_gcn_valu(g, w, insn, &(HsaGpuGcnVop) {
                                .op = vop, .nsrc = nsrc, .len = 2,
                                .src = { src[0], src[1], src[2] },
                                .vdst = vdst, .sdst = -1, .carry_in = cin,
                                .abs = ((e >> 21) & 1) | ((e >> 23) & 1) << 1,
                                .neg = ((e >> 20) & 1) | ((e >> 22) & 1) << 1,
                            }, &x);
        /*
         * v_cmpx: EXEC becomes the compare's result (VCC's: lanes the
         * row and bank masks left out are 0 there, as inactive lanes are)
         */
        w->exec = r && kind == 3 && gcn_vopc_is_cmpx(vop) ? w->vcc : exec;
        return r;
    }
}

unsigned hsagpu_gcn_vop_decode(const uint32_t *insn, HsaGpuGcnVop *v)
{
    uint32_t i = insn[0];
    bool ext = (i & 0x1ff) == 0xf9 || (i & 0x1ff) == 0xfa;

    *v = (HsaGpuGcnVop) { .sdst = -1, .carry_in = -1, .lit = insn[1] };
    v->src[0] = i & 0x1ff;
    v->vdst = (i >> 17) & 0xff;
    if (GCN_ENC_VOP1(i)) {
        v->op = GCN_VOP3_FROM_VOP1((i >> 9) & 0xff);
        if (v->op == GCN_VOP3_V_NOP || v->op == GCN_VOP3_V_CLREXCP) {
            return GCN_VOP_NOP;         /* (no exceptions kept here) */
        }
        /* past VOP1's range of VOP3 numbers: refused by the caller */
        if (v->op >= GCN_VOP3_ONLY_FIRST || ext) {
            return GCN_VOP_OTHER;
        }
        v->nsrc = 1;
        v->len = 1 + (v->src[0] == GCN_SRC_LITERAL);
        return GCN_VOP_PLAIN;
    }
    if (GCN_ENC_VOPC(i)) {                          /* VOP3's numbers */
        v->op = (i >> 17) & 0xff;
        v->vdst = 0;
        v->nsrc = 2;
        v->src[1] = GCN_SRC_VGPR + ((i >> 9) & 0xff);
        v->len = 1 + (v->src[0] == GCN_SRC_LITERAL);
        return ext ? GCN_VOP_OTHER : GCN_VOP_PLAIN;
    }
    if (GCN_ENC_VOP2(i)) {
        /* a literal constant */
        bool k;

        v->op = GCN_VOP3_FROM_VOP2((i >> 25) & 0x3f);
        k = v->op == GCN_VOP3_V_MADMK_F32 || v->op == GCN_VOP3_V_MADAK_F32 ||
            v->op == GCN_VOP3_V_MADMK_F16 || v->op == GCN_VOP3_V_MADAK_F16;
        v->nsrc = 2;
        v->src[1] = GCN_SRC_VGPR + ((i >> 9) & 0xff);
        v->carry_in = gcn_carry_in(v->op) ? GCN_SRC_VCC_LO : -1;
        v->len = 1 + (k || v->src[0] == GCN_SRC_LITERAL);
        return ext && !k ? GCN_VOP_OTHER : GCN_VOP_PLAIN;
    }
    if (GCN_ENC_VOP3(i) && !GCN_ENC_VOP3P(i)) {     /* VOP3 (a and b) */
        unsigned op = (i >> 16) & 0x3ff;
        bool c_in = gcn_carry_in(op);
        /* VOP3b: an SGPR destination where VOP3a has abs and clamp */
        bool b = gcn_vop3_is_vop3b(op);

        v->op = op;
        v->len = 2;
        v->lit = 0;
        v->vdst = i & 0xff;
        v->src[0] = insn[1] & 0x1ff;
        v->src[1] = (insn[1] >> 9) & 0x1ff;
        v->src[2] = (insn[1] >> 18) & 0x1ff;
        v->neg = insn[1] >> 29;
        if (op == GCN_VOP3_V_CNDMASK_B32) {         /* the mask in src2 */
            v->nsrc = 2;
            v->carry_in = v->src[2];
            v->abs = (i >> 8) & 3;
            v->neg &= 3;
            return GCN_VOP_PLAIN;
        }
        /* by the part of VOP3's numbers @op lies in (a carry in: 2) */
        v->nsrc = op < GCN_VOP3_V_CNDMASK_B32 ? 2 :
                  op < GCN_VOP3_VOP1_FIRST ? 2 :
                  op < GCN_VOP3_ONLY_FIRST ? 1 :
                  op >= GCN_VOP3_2SRC_FIRST ? 2 : 3;
        v->sdst = GCN_VOP3_IS_VOPC(op) ? (int)(i & 0xff) :
                  b ? (int)((i >> 8) & 0x7f) : -1;
        v->carry_in = c_in ? (int)v->src[2] : -1;
        v->abs = b ? 0 : (i >> 8) & 7;
        v->omod = (insn[1] >> 27) & 3;
        v->clamp = (i >> 15) & 1;
        /* VOP3a's op_sel, [14:11] (the 16-bit instructions that have it) */
        v->opsel = b ? 0 : (i >> 11) & 0xf;
        return GCN_VOP_PLAIN;
    }
    return GCN_VOP_OTHER;
}

unsigned hsagpu_gcn_vector(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                           const uint32_t *insn)
{
    uint32_t i = insn[0];
    unsigned src[3];
    HsaGpuGcnVop v;

    g->st->lane_ops += hsagpu_gcn_lanes_on(w);
    switch (hsagpu_gcn_vop_decode(insn, &v)) {
    case GCN_VOP_PLAIN:
        return hsagpu_gcn_valu(g, w, insn, &v, NULL);
    case GCN_VOP_NOP:
        return 1;
    }
    if (GCN_ENC_VOP2(i)) {                  /* SDWA, DPP; VOP1 past range */
        if (GCN_ENC_VOP1(i)) {
            if (v.op >= GCN_VOP3_ONLY_FIRST) {
                return hsagpu_gcn_refuse(g, w, insn, "vop1");
            }
            return gcn_vop_ext(g, w, insn, 1, v.op, v.vdst, 1);
        }
        return gcn_vop_ext(g, w, insn, GCN_ENC_VOPC(i) ? 3 : 2, v.op,
                           v.vdst, 2);
    }
    if (GCN_ENC_VOP3P(i)) {
        /* op_sel_hi: bits 1-0 in the second dword, 2 in the first */
        for (unsigned k = 0; k < 3; k++) {
            src[k] = (insn[1] >> (9 * k)) & 0x1ff;
        }
        return hsagpu_gcn_vop3p(g, w, insn, (i >> 16) & 0x7f, src, i & 0xff,
                                (i >> 11) & 7,
                                ((insn[1] >> 27) & 3) | ((i >> 14) & 1) << 2,
                                insn[1] >> 29, (i >> 8) & 7, (i >> 15) & 1);
    }
    if (GCN_ENC_FLAT(i)) {                          /* and GLOBAL */
        return hsagpu_gcn_flat(g, w, insn);
    }
    if (GCN_ENC_MUBUF(i) || GCN_ENC_MTBUF(i)) {
        return hsagpu_gcn_mubuf(g, w, insn);
    }
    if (GCN_ENC_DS(i)) {
        return hsagpu_gcn_ds(g, w, insn);
    }
    return hsagpu_gcn_refuse(g, w, insn, "encoding");
}
