/*
 * hsa-gpu: GCN (gfx9) interpreter, dispatch and scalar side: the kernel
 * descriptor, the initial wave state the AMDHSA ABI defines, the run
 * loop (waves of a workgroup interleaved at barriers), scalar ALU,
 * compares, branches and scalar memory. Encodings: the "Vega"
 * instruction set architecture reference; checked against llvm-mc.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifdef HSAGPU_HOST_TEST
#include <stdlib.h>
#include <string.h>
#define g_new0(t, n) ((t *)calloc((n), sizeof(t)))
#define g_free free
#else
#include "qemu/osdep.h"
#endif
#include "hsagpu-gcn-int.h"

unsigned hsagpu_gcn_kd_parse(const uint8_t raw[HSAGPU_GCN_KD_SIZE],
                             HsaGpuGcnKd *kd)
{
    uint32_t w[HSAGPU_GCN_KD_SIZE / 4];

    memcpy(w, raw, sizeof(w));
    kd->group_segment_size = w[0];
    kd->private_segment_size = w[1];
    kd->kernarg_size = w[2];
    memcpy(&kd->entry_offset, raw + 16, 8);
    kd->rsrc3 = w[11];
    kd->rsrc1 = w[12];
    kd->rsrc2 = w[13];
    kd->props = (uint16_t)w[14];
    /*
     * What this interpreter runs: wave64, LDS and private segment within
     * the limits, entry dword-aligned and not on top of the descriptor,
     * rounding to nearest even, denormals either flushed both ways or
     * kept (rsrc1 modes 0 and 3).
     */
    if ((kd->props & HSAGPU_GCN_KCP_WAVE32) ||
        ((kd->rsrc1 >> 12) & 0xf) ||
        ((kd->rsrc1 >> 16) & 3) == 1 || ((kd->rsrc1 >> 16) & 3) == 2 ||
        ((kd->rsrc1 >> 18) & 3) == 1 || ((kd->rsrc1 >> 18) & 3) == 2 ||
        kd->group_segment_size > HSAGPU_GCN_LDS_MAX ||
        kd->private_segment_size > HSAGPU_GCN_PRIVATE_MAX ||
        (kd->entry_offset & 3) ||
        (kd->entry_offset >= 0 && kd->entry_offset < HSAGPU_GCN_KD_SIZE)) {
        return HSAGPU_GCN_BAD_KD;
    }
    return HSAGPU_GCN_OK;
}

unsigned hsagpu_gcn_fail(HsaGpuGcnGroup *g, HsaGpuGcnWave *w, unsigned code,
                         const uint32_t *insn, const char *what)
{
    if (g->st->code == HSAGPU_GCN_OK) {
        g->st->code = code;
        g->st->pc = w->pc;
        g->st->insn[0] = insn ? insn[0] : 0;
        g->st->insn[1] = insn ? insn[1] : 0;
        g->st->what = what;
    }
    return 0;
}

/* Inline constants: integers 0..64, -1..-16, and eight floats. */
static bool hsagpu_gcn_inline(unsigned src, bool is64, uint64_t *val)
{
    static const uint32_t f32[] = {
        0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000,
        0x40000000, 0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983,
    };
    static const uint64_t f64[] = {
        0x3fe0000000000000ULL, 0xbfe0000000000000ULL, 0x3ff0000000000000ULL,
        0xbff0000000000000ULL, 0x4000000000000000ULL, 0xc000000000000000ULL,
        0x4010000000000000ULL, 0xc010000000000000ULL, 0x3fc45f306dc9c882ULL,
    };

    if (src >= 128 && src <= 192) {
        *val = src - 128;
    } else if (src >= 193 && src <= 208) {
        *val = (uint64_t)-(int64_t)(src - 192);
        *val = is64 ? *val : (uint32_t)*val;
    } else if (src >= 240 && src <= 248) {
        *val = is64 ? f64[src - 240] : f32[src - 240];
    } else {
        return false;
    }
    return true;
}

bool hsagpu_gcn_sread(HsaGpuGcnWave *w, unsigned src, uint32_t lit,
                      bool is64, uint64_t *val)
{
    if (src < HSAGPU_GCN_SGPRS) {
        const uint32_t *r = hsagpu_gcn_sregs(w, src, is64 ? 2 : 1);

        if (!r || (is64 && (src & 1))) {
            return false;               /* a pair: even-aligned */
        }
        *val = r[0] | (is64 ? (uint64_t)r[1] << 32 : 0);
        return true;
    }
    switch (src) {
    case 102:
    case 103:
        *val = is64 ? w->flat_scratch[0] | (uint64_t)w->flat_scratch[1] << 32
                    : w->flat_scratch[src - 102];
        return !is64 || src == 102;
    case GCN_SRC_VCC_LO:
        *val = is64 ? w->vcc : (uint32_t)w->vcc;
        return true;
    case GCN_SRC_VCC_HI:
        *val = w->vcc >> 32;
        return !is64;
    case GCN_SRC_M0:
        *val = w->m0;
        return !is64;
    case GCN_SRC_EXEC_LO:
        *val = is64 ? w->exec : (uint32_t)w->exec;
        return true;
    case GCN_SRC_EXEC_HI:
        *val = w->exec >> 32;
        return !is64;
    case 251:                   /* VCCZ */
        *val = !w->vcc;
        return true;
    case 252:                   /* EXECZ */
        *val = !w->exec;
        return true;
    case 253:                   /* SCC */
        *val = w->scc;
        return true;
    case GCN_SRC_LITERAL:
        *val = lit;             /* 64-bit operands: zero-extended */
        return true;
    default:
        return hsagpu_gcn_inline(src, is64, val);
    }
}

bool hsagpu_gcn_swrite(HsaGpuGcnWave *w, unsigned dst, bool is64,
                       uint64_t val)
{
    if (dst < HSAGPU_GCN_SGPRS) {
        uint32_t *r = hsagpu_gcn_sregs(w, dst, is64 ? 2 : 1);

        if (!r || (is64 && (dst & 1))) {
            return false;
        }
        r[0] = (uint32_t)val;
        if (is64) {
            r[1] = val >> 32;
        }
        return true;
    }
    switch (dst) {
    case 102:
    case 103:
        if (is64) {
            w->flat_scratch[0] = (uint32_t)val;
            w->flat_scratch[1] = val >> 32;
            return dst == 102;
        }
        w->flat_scratch[dst - 102] = (uint32_t)val;
        return true;
    case GCN_SRC_VCC_LO:
        w->vcc = is64 ? val : (w->vcc & ~0xffffffffULL) | (uint32_t)val;
        return true;
    case GCN_SRC_VCC_HI:
        w->vcc = (w->vcc & 0xffffffffULL) | (uint64_t)(uint32_t)val << 32;
        return !is64;
    case GCN_SRC_M0:
        w->m0 = (uint32_t)val;
        return !is64;
    case GCN_SRC_EXEC_LO:
        w->exec = is64 ? val : (w->exec & ~0xffffffffULL) | (uint32_t)val;
        return true;
    case GCN_SRC_EXEC_HI:
        w->exec = (w->exec & 0xffffffffULL) | (uint64_t)(uint32_t)val << 32;
        return !is64;
    case 125:                   /* NULL */
        return true;
    default:
        return false;
    }
}

static uint64_t hsagpu_gcn_mask(unsigned bits)
{
    return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}

/* SOP2: D = S0 op S1 */
static bool hsagpu_gcn_sop2(HsaGpuGcnWave *w, unsigned op, uint64_t a,
                            uint64_t b, uint64_t *d, bool *is64)
{
    uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
    uint64_t t;

    *is64 = false;
    switch (op) {
    case 0:                     /* s_add_u32 */
        t = (uint64_t)a32 + b32;
        w->scc = t >> 32;
        *d = (uint32_t)t;
        return true;
    case 1:                     /* s_sub_u32 */
        w->scc = b32 > a32;
        *d = a32 - b32;
        return true;
    case 2:                     /* s_add_i32 */
        *d = a32 + b32;
        w->scc = ((a32 ^ ~b32) & (a32 ^ (uint32_t)*d)) >> 31;
        return true;
    case 3:                     /* s_sub_i32 */
        *d = a32 - b32;
        w->scc = ((a32 ^ b32) & (a32 ^ (uint32_t)*d)) >> 31;
        return true;
    case 4:                     /* s_addc_u32 */
        t = (uint64_t)a32 + b32 + w->scc;
        w->scc = t >> 32;
        *d = (uint32_t)t;
        return true;
    case 5:                     /* s_subb_u32 */
        t = (uint64_t)a32 - b32 - w->scc;
        w->scc = (t >> 32) != 0;
        *d = (uint32_t)t;
        return true;
    case 6:                     /* s_min_i32 */
        w->scc = (int32_t)a32 < (int32_t)b32;
        *d = w->scc ? a32 : b32;
        return true;
    case 7:                     /* s_min_u32 */
        w->scc = a32 < b32;
        *d = w->scc ? a32 : b32;
        return true;
    case 8:                     /* s_max_i32 */
        w->scc = (int32_t)a32 > (int32_t)b32;
        *d = w->scc ? a32 : b32;
        return true;
    case 9:                     /* s_max_u32 */
        w->scc = a32 > b32;
        *d = w->scc ? a32 : b32;
        return true;
    case 10:                    /* s_cselect_b32 */
        *d = w->scc ? a32 : b32;
        return true;
    case 11:                    /* s_cselect_b64 */
        *is64 = true;
        *d = w->scc ? a : b;
        return true;
    case 12: case 13: case 14: case 15: case 16: case 17: case 18: case 19:
    case 20: case 21: case 22: case 23: case 24: case 25: case 26: case 27: {
        /* and, or, xor, andn2, orn2, nand, nor, xnor; even b32, odd b64 */
        unsigned k = (op - 12) / 2;

        *is64 = op & 1;
        t = k == 0 ? a & b : k == 1 ? a | b : k == 2 ? a ^ b :
            k == 3 ? a & ~b : k == 4 ? a | ~b : k == 5 ? ~(a & b) :
            k == 6 ? ~(a | b) : ~(a ^ b);
        *d = *is64 ? t : (uint32_t)t;
        w->scc = *d != 0;
        return true;
    }
    case 28:                    /* s_lshl_b32 */
        *d = a32 << (b32 & 31);
        w->scc = *d != 0;
        return true;
    case 29:                    /* s_lshl_b64 */
        *is64 = true;
        *d = a << (b32 & 63);
        w->scc = *d != 0;
        return true;
    case 30:                    /* s_lshr_b32 */
        *d = a32 >> (b32 & 31);
        w->scc = *d != 0;
        return true;
    case 31:                    /* s_lshr_b64 */
        *is64 = true;
        *d = a >> (b32 & 63);
        w->scc = *d != 0;
        return true;
    case 32:                    /* s_ashr_i32 */
        *d = (uint32_t)((int32_t)a32 >> (b32 & 31));
        w->scc = *d != 0;
        return true;
    case 33:                    /* s_ashr_i64 */
        *is64 = true;
        *d = (uint64_t)((int64_t)a >> (b32 & 63));
        w->scc = *d != 0;
        return true;
    case 34:                    /* s_bfm_b32 */
        *d = (uint32_t)(hsagpu_gcn_mask(a32 & 31) << (b32 & 31));
        return true;
    case 35:                    /* s_bfm_b64 */
        *is64 = true;
        *d = hsagpu_gcn_mask(a32 & 63) << (b32 & 63);
        return true;
    case 36:                    /* s_mul_i32 */
        *d = (uint32_t)((int64_t)(int32_t)a32 * (int32_t)b32);
        return true;
    case 37:                    /* s_bfe_u32 */
    case 38: {                  /* s_bfe_i32 */
        unsigned off = b32 & 31, width = (b32 >> 16) & 0x7f;
        /* S0.i >> offset for the signed one: arithmetic */
        uint32_t sh = op == 38 ? (uint32_t)((int32_t)a32 >> off) : a32 >> off;
        uint32_t v = width ? sh & (uint32_t)hsagpu_gcn_mask(width) : 0;

        if (op == 38 && width && width < 32 && (v >> (width - 1)) & 1) {
            v |= ~(uint32_t)hsagpu_gcn_mask(width);
        }
        *d = v;
        w->scc = v != 0;
        return true;
    }
    case 42:                    /* s_absdiff_i32 */
        t = (uint64_t)((int64_t)(int32_t)a32 - (int32_t)b32);
        *d = (uint32_t)((int64_t)t < 0 ? -(int64_t)t : (int64_t)t);
        w->scc = *d != 0;
        return true;
    case 44:                    /* s_mul_hi_u32 */
        *d = ((uint64_t)a32 * b32) >> 32;
        return true;
    case 45:                    /* s_mul_hi_i32 */
        *d = (uint32_t)(((int64_t)(int32_t)a32 * (int32_t)b32) >> 32);
        return true;
    case 46: case 47: case 48: case 49:   /* s_lshlN_add_u32 */
        t = ((uint64_t)a32 << (op - 45)) + b32;
        w->scc = (t >> 32) != 0;
        *d = (uint32_t)t;
        return true;
    default:
        return false;
    }
}

static unsigned hsagpu_gcn_popcount(uint64_t v)
{
    return __builtin_popcountll(v);
}

/* SOP1: D = op S0; saveexec forms also set EXEC. */
static bool hsagpu_gcn_sop1(HsaGpuGcnWave *w, unsigned op, uint64_t a,
                            uint64_t *d, bool *is64, bool *write)
{
    uint64_t e = w->exec;

    *write = true;
    *is64 = op & 1;
    switch (op) {
    case 0:                     /* s_mov_b32 */
    case 1:                     /* s_mov_b64 */
        *d = a;
        return true;
    case 2:                     /* s_cmov_b32 */
    case 3:
        *d = a;
        *write = w->scc;
        return true;
    case 4:                     /* s_not_b32 */
    case 5:
        *d = *is64 ? ~a : (uint32_t)~a;
        w->scc = *d != 0;
        return true;
    case 12:                    /* s_bcnt1_i32_b32 */
    case 13:
        *d = hsagpu_gcn_popcount(*is64 ? a : (uint32_t)a);
        *is64 = false;
        w->scc = *d != 0;
        return true;
    case 16:                    /* s_ff1_i32_b32 */
    case 17:
        a = *is64 ? a : (uint32_t)a;
        *d = a ? (uint32_t)__builtin_ctzll(a) : 0xffffffffU;
        *is64 = false;
        return true;
    case 32: case 33: case 34: case 35: case 36: case 37: case 38: case 39:
        /* s_{and,or,xor,andn2,orn2,nand,nor,xnor}_saveexec_b64 */
        *is64 = true;
        *d = e;
        switch (op) {
        case 32:
            w->exec = a & e;
            break;
        case 33:
            w->exec = a | e;
            break;
        case 34:
            w->exec = a ^ e;
            break;
        case 35:
            w->exec = a & ~e;
            break;
        case 36:
            w->exec = a | ~e;
            break;
        case 37:
            w->exec = ~(a & e);
            break;
        case 38:
            w->exec = ~(a | e);
            break;
        default:
            w->exec = ~(a ^ e);
            break;
        }
        w->scc = w->exec != 0;
        return true;
    case 48:                    /* s_abs_i32 */
        *is64 = false;
        *d = (uint32_t)((int32_t)a < 0 ? -(int64_t)(int32_t)a : (int32_t)a);
        w->scc = *d != 0;
        return true;
    default:
        return false;
    }
}

/* SOPC and SOPK compares: SCC = S0 op S1 */
static bool hsagpu_gcn_cmp(unsigned k, bool is_signed, uint64_t a, uint64_t b)
{
    int64_t sa = (int32_t)a, sb = (int32_t)b;

    a = (uint32_t)a;
    b = (uint32_t)b;
    switch (k) {
    case 0:
        return a == b;
    case 1:
        return a != b;
    case 2:
        return is_signed ? sa > sb : a > b;
    case 3:
        return is_signed ? sa >= sb : a >= b;
    case 4:
        return is_signed ? sa < sb : a < b;
    default:
        return is_signed ? sa <= sb : a <= b;
    }
}

static bool hsagpu_gcn_sopc(HsaGpuGcnWave *w, unsigned op, unsigned s0,
                            unsigned s1, uint32_t lit)
{
    bool is64 = op == 14 || op == 15 || op == 18 || op == 19;
    uint64_t a, b;

    if (!hsagpu_gcn_sread(w, s0, lit, is64, &a) ||
        !hsagpu_gcn_sread(w, s1, lit, op == 18 || op == 19, &b)) {
        return false;
    }
    if (op < 12) {
        w->scc = hsagpu_gcn_cmp(op % 6, op < 6, a, b);
    } else if (op <= 15) {      /* s_bitcmp0/1_b32/b64 */
        w->scc = ((a >> (b & (is64 ? 63 : 31))) & 1) == (op & 1);
    } else if (op == 18 || op == 19) {
        w->scc = (a == b) == (op == 18);
    } else {
        return false;
    }
    return true;
}

static bool hsagpu_gcn_sopk(HsaGpuGcnWave *w, unsigned op, unsigned sdst,
                            uint16_t imm)
{
    uint64_t cur = 0;
    int32_t simm = (int16_t)imm;

    if (op != 0 && !hsagpu_gcn_sread(w, sdst, 0, false, &cur)) {
        return false;
    }
    switch (op) {
    case 0:                     /* s_movk_i32 */
        return hsagpu_gcn_swrite(w, sdst, false, (uint32_t)simm);
    case 1:                     /* s_cmovk_i32 */
        return !w->scc || hsagpu_gcn_swrite(w, sdst, false, (uint32_t)simm);
    case 2: case 3: case 4: case 5: case 6:
        w->scc = hsagpu_gcn_cmp(op - 2, true, cur, (uint32_t)simm);
        return true;
    case 8: case 9: case 10: case 11: case 12:
        w->scc = hsagpu_gcn_cmp(op - 8, false, cur, imm);
        return true;
    case 14: {                  /* s_addk_i32 */
        uint32_t r = (uint32_t)cur + (uint32_t)simm;

        w->scc = (((uint32_t)cur ^ ~(uint32_t)simm) &
                  ((uint32_t)cur ^ r)) >> 31;
        return hsagpu_gcn_swrite(w, sdst, false, r);
    }
    case 15:                    /* s_mulk_i32 */
        return hsagpu_gcn_swrite(w, sdst, false,
                                 (uint32_t)cur * (uint32_t)simm);
    default:
        return false;
    }
}

/* Scalar memory: s_load_dword{,x2,x4,x8,x16}; cache hints are no-ops. */
static unsigned hsagpu_gcn_smem(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                                const uint32_t *insn)
{
    unsigned op = (insn[0] >> 18) & 0xff, sdata = (insn[0] >> 6) & 0x7f;
    unsigned sbase = (insn[0] & 0x3f) * 2, n, err;
    bool imm = (insn[0] >> 17) & 1;
    uint64_t base, off, addr;
    uint32_t buf[16], *dst;

    if (op == 32 || op == 33) {         /* s_dcache_inv, s_dcache_wb */
        return 2;
    }
    if (op > 4) {
        return hsagpu_gcn_refuse(g, w, insn, "smem");
    }
    n = 1u << op;                       /* dwords: 1..16 */
    dst = hsagpu_gcn_sregs(w, sdata, n);
    if (!dst || !hsagpu_gcn_sread(w, sbase, 0, true, &base)) {
        return hsagpu_gcn_refuse(g, w, insn, "smem");
    }
    if (imm) {
        off = insn[1] & 0xfffff;
    } else if (!hsagpu_gcn_sread(w, insn[1] & 0x7f, 0, false, &off)) {
        return hsagpu_gcn_refuse(g, w, insn, "smem");
    }
    addr = (base + off) & ~3ULL;
    err = g->mem->read(g->mem->opaque, addr, buf, n * 4);
    if (err) {
        g->st->mem_err = err;
        g->st->addr = addr;
        return hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, insn, "s_load");
    }
    memcpy(dst, buf, n * 4);
    return 2;
}

/* SOPP: program control. Returns dwords, 0 to stop this wave for now. */
static unsigned hsagpu_gcn_sopp(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                                const uint32_t *insn)
{
    unsigned op = (insn[0] >> 16) & 0x7f;
    int16_t simm = (int16_t)insn[0];
    bool take;

    switch (op) {
    case 0:                     /* s_nop */
    case 3:                     /* s_wakeup */
    case 12:                    /* s_waitcnt: memory is synchronous here */
    case 14:                    /* s_sleep */
    case 15:                    /* s_setprio */
    case 19:                    /* s_icache_inv */
    case 20:                    /* s_incperflevel, s_decperflevel */
    case 21:
        return 1;
    case 1:                     /* s_endpgm */
        w->done = true;
        return 0;
    case 10:                    /* s_barrier */
        w->at_barrier = true;
        w->pc += 4;
        return 0;
    case 18:                    /* s_trap */
        return hsagpu_gcn_fail(g, w, HSAGPU_GCN_TRAP, insn, "s_trap");
    case 2: case 4: case 5: case 6: case 7: case 8: case 9:
        take = op == 2 ? true : op == 4 ? !w->scc : op == 5 ? w->scc :
               op == 6 ? !w->vcc : op == 7 ? w->vcc != 0 :
               op == 8 ? !w->exec : w->exec != 0;
        w->pc += 4 + (take ? (int64_t)simm * 4 : 0);
        return UINT32_MAX;      /* pc set */
    default:
        return hsagpu_gcn_refuse(g, w, insn, "sopp");
    }
}

/*
 * s_getreg_b32 of the hardware registers compiled code reads: MODE (the
 * rounding and denormal modes, DX10 clamp and IEEE bits of rsrc1) and
 * SH_MEM_BASES (the flat apertures' top 16 bits: private in [15:0],
 * shared in [31:16]). simm16: id [5:0], offset [10:6], size - 1 [15:11].
 */
static unsigned hsagpu_gcn_getreg(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                                  const uint32_t *insn)
{
    unsigned id = insn[0] & 0x3f, off = (insn[0] >> 6) & 31;
    unsigned size = ((insn[0] >> 11) & 31) + 1;
    uint32_t r1 = g->d->kd.rsrc1, v;

    switch (id) {
    case 1:                                         /* HW_REG_MODE */
        v = ((r1 >> 12) & 0xff) | ((r1 >> 21) & 1) << 8 |
            ((r1 >> 23) & 1) << 9;
        break;
    case 15:                                        /* HW_REG_SH_MEM_BASES */
        v = HSAGPU_GCN_APERTURE_SHARED << 16 | HSAGPU_GCN_APERTURE_PRIVATE;
        break;
    default:
        return hsagpu_gcn_refuse(g, w, insn,
                               "s_getreg");
    }
    v = (uint32_t)((uint64_t)v >> off) & (size >= 32 ? ~0u : (1u << size) - 1);
    return hsagpu_gcn_swrite(w, (insn[0] >> 16) & 0x7f, false, v) ? 1 :
           hsagpu_gcn_refuse(g, w, insn, "s_getreg");
}

/* A scalar ALU instruction (SOP1, SOP2, SOPK, SOPC). */
static unsigned hsagpu_gcn_scalar(HsaGpuGcnGroup *g, HsaGpuGcnWave *w,
                                  const uint32_t *insn)
{
    uint32_t i = insn[0], lit = insn[1];
    uint64_t a, b, d;
    bool is64, write, ok;
    unsigned len = 1;

    if ((i >> 23) == 0x17d) {           /* SOP1 */
        unsigned op = (i >> 8) & 0xff, sdst = (i >> 16) & 0x7f;

        len += (i & 0xff) == GCN_SRC_LITERAL;
        if (op == 28) {                 /* s_getpc_b64 */
            return hsagpu_gcn_swrite(w, sdst, true, w->pc + 4) ? 1 :
                   hsagpu_gcn_refuse(g, w, insn,
                                   "sop1");
        }
        if (op == 29 || op == 30) {     /* s_setpc_b64, s_swappc_b64 */
            if (!hsagpu_gcn_sread(w, i & 0xff, lit, true, &a) ||
                (op == 30 && !hsagpu_gcn_swrite(w, sdst, true, w->pc + 4))) {
                return hsagpu_gcn_refuse(g, w, insn,
                                       "sop1");
            }
            w->pc = a;
            return UINT32_MAX;
        }
        ok = hsagpu_gcn_sread(w, i & 0xff, lit,
                              (op <= 31 && (op & 1)) ||
                              (op >= 32 && op <= 39), &a) &&
             hsagpu_gcn_sop1(w, op, a, &d, &is64, &write) &&
             (!write || hsagpu_gcn_swrite(w, sdst, is64, d));
        return ok ? len : hsagpu_gcn_refuse(g, w, insn,
                                          "sop1");
    }
    if ((i >> 23) == 0x17e) {           /* SOPC */
        len += (i & 0xff) == GCN_SRC_LITERAL ||
               ((i >> 8) & 0xff) == GCN_SRC_LITERAL;
        return hsagpu_gcn_sopc(w, (i >> 16) & 0x7f, i & 0xff, (i >> 8) & 0xff,
                               lit) ? len :
               hsagpu_gcn_refuse(g, w, insn, "sopc");
    }
    if ((i >> 28) == 0xb && ((i >> 23) & 0x1f) == 17) {
        return hsagpu_gcn_getreg(g, w, insn);
    }
    if ((i >> 28) == 0xb) {             /* SOPK */
        return hsagpu_gcn_sopk(w, (i >> 23) & 0x1f, (i >> 16) & 0x7f,
                               (uint16_t)i) ? 1 :
               hsagpu_gcn_refuse(g, w, insn, "sopk");
    }
    /* SOP2 */
    {
        unsigned op = (i >> 23) & 0x7f, sdst = (i >> 16) & 0x7f;
        bool wide = op == 11 || (op >= 13 && op <= 27 && (op & 1)) ||
                    op == 29 || op == 31 || op == 33;

        len += (i & 0xff) == GCN_SRC_LITERAL ||
               ((i >> 8) & 0xff) == GCN_SRC_LITERAL;
        ok = hsagpu_gcn_sread(w, i & 0xff, lit, wide, &a) &&
             hsagpu_gcn_sread(w, (i >> 8) & 0xff, lit,
                              wide && op != 29 && op != 31 && op != 33, &b) &&
             hsagpu_gcn_sop2(w, op, a, b, &d, &is64) &&
             hsagpu_gcn_swrite(w, sdst, is64, d);
        return ok ? len : hsagpu_gcn_refuse(g, w, insn,
                                          "sop2");
    }
}

/* Fetch and run one instruction of @w. False: the wave stops here. */
bool hsagpu_gcn_step(HsaGpuGcnGroup *g, HsaGpuGcnWave *w)
{
    uint32_t insn[2] = { 0, 0 };
    unsigned len, err;

    /* The second dword may lie past the end of the code: then without */
    err = g->mem->read(g->mem->opaque, w->pc, insn, 8);
    if (err) {
        err = g->mem->read(g->mem->opaque, w->pc, insn, 4);
    }
    if (err) {
        g->st->mem_err = err;
        g->st->addr = w->pc;
        return hsagpu_gcn_fail(g, w, HSAGPU_GCN_MEM_FAULT, NULL, "fetch");
    }
    w->insns++;
    if ((insn[0] >> 23) == 0x17f) {                 /* SOPP */
        len = hsagpu_gcn_sopp(g, w, insn);
    } else if ((insn[0] >> 26) == 0x30) {           /* SMEM */
        len = hsagpu_gcn_smem(g, w, insn);
    } else if ((insn[0] >> 30) == 2) {              /* SOP1/2/C/K */
        len = hsagpu_gcn_scalar(g, w, insn);
    } else {
        len = hsagpu_gcn_vector(g, w, insn);
    }
    if (len == UINT32_MAX) {
        return true;            /* a branch set the pc */
    }
    if (!len) {
        return false;
    }
    w->pc += 4 * len;
    return true;
}

