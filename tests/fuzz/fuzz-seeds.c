/*
 * Seeds for the host fuzzers (scripts/fuzz --host), one file per seed:
 *
 *   fuzz-seeds OUTDIR CO_DIR INSNS_ENC SNIPPETS_ENC
 *
 * OUTDIR/gcn: the project's compiled corpus (CO_DIR/<program>.co, built
 * by meson from tests/gcn/<program>.cl: each kernel's descriptor, code
 * and the arguments and geometry tests/gcn/gcn-corpus.h gives it), one
 * instruction (and four in a row) of llvm-mc's encodings of
 * tests/gcn/insns.s each after a prologue that gives the sources values,
 * and the snippets of tests/fuzz/gcn-snippets.s (memory, LDS, private,
 * lane and hostile accesses). OUTDIR/gcn-load: workgroups of those,
 * stopped part-way and saved. OUTDIR/pm4 and OUTDIR/sdma: the packets
 * the unit tests (test-vendor.c, test-sdma.c) and ROCr use.
 * OUTDIR/pm4-ring: the PM4 rings amdgpu's gfx_v9_0.c fills (ring and
 * IB tests, fences, a compute frame, the KIQ's packets). OUTDIR/vega10:
 * amdgpu's register sequences (tests/unit/test-vega10*.c): the GFX
 * ring, the KIQ mapping a compute queue, the GART and a VMID's tables,
 * the IH, the SDMA queues, the registers with a behaviour. Layouts:
 * fuzz-input.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hw/hsagpu/cp/hsagpu-cp.h"
#include "hw/hsagpu/gcn/hsagpu-gcn.h"
#include "hw/hsagpu/vega10/vega10.h"
#include "hsagpu/hsagpu_ctx.h"
#include "gcn-elf.h"
#include "gcn-corpus.h"
#include "fuzz-mem.h"
#include "fuzz-input.h"

static const char *outdir;
static unsigned written;

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

static void put64(uint8_t *p, uint64_t v)
{
    fuzz_put32(p, (uint32_t)v);
    fuzz_put32(p + 4, (uint32_t)(v >> 32));
}

static void seed_write(const char *target, const char *name,
                       const uint8_t *buf, size_t len)
{
    char path[512];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", outdir, target);
    if (mkdir(path, 0755) && errno != EEXIST) {
        perror(path);
        exit(1);
    }
    snprintf(path, sizeof(path), "%s/%s/%s", outdir, target, name);
    f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
        perror(path);
        exit(1);
    }
    written++;
}

/* ------------------------------------------------------------------ */
/* llvm-mc's encodings                                                 */
/* ------------------------------------------------------------------ */

#define SNIP_MAX        64
#define INSN_MAX        512

typedef struct Code {
    char name[64];
    uint8_t b[4096];
    size_t len;
} Code;

static Code snips[SNIP_MAX], insns[INSN_MAX];
static unsigned nsnips, ninsns;

/* The bytes of "; encoding: [0x..,0x..]" on @line: count, or 0 */
static size_t enc_parse(const char *line, uint8_t *out, size_t max)
{
    const char *p = strstr(line, "encoding: [");
    size_t n = 0;

    if (!p) {
        return 0;
    }
    p += strlen("encoding: [");
    while (*p && *p != ']' && n < max) {
        char *end;
        unsigned long v = strtoul(p, &end, 16);

        if (end == p) {
            break;
        }
        out[n++] = v;
        p = end;
        while (*p == ',' || *p == ' ') {
            p++;
        }
    }
    return n;
}

/*
 * An llvm-mc -show-encoding listing: with @labels each "name:" starts a
 * snippet of the instructions that follow, else each instruction is one.
 */
static unsigned enc_read(const char *path, bool labels, Code *codes,
                         unsigned max)
{
    char line[1024];
    unsigned n = 0;
    FILE *f = fopen(path, "r");

    if (!f) {
        perror(path);
        exit(1);
    }
    while (fgets(line, sizeof(line), f)) {
        uint8_t b[16];
        size_t len;
        char *colon;

        if (labels && line[0] != '\t' && line[0] != ' ' &&
            (colon = strchr(line, ':')) && n < max) {
            *colon = 0;
            snprintf(codes[n].name, sizeof(codes[n].name), "%s", line);
            codes[n++].len = 0;
            continue;
        }
        len = enc_parse(line, b, sizeof(b));
        if (!len) {
            continue;
        }
        if (!labels) {
            if (n >= max) {
                break;
            }
            codes[n].len = 0;
            snprintf(codes[n].name, sizeof(codes[n].name), "%03u", n);
            n++;
        }
        if (n && codes[n - 1].len + len <= sizeof(codes[n - 1].b)) {
            memcpy(codes[n - 1].b + codes[n - 1].len, b, len);
            codes[n - 1].len += len;
        }
    }
    fclose(f);
    return n;
}

static const Code *snip(const char *name)
{
    for (unsigned i = 0; i < nsnips; i++) {
        if (!strcmp(snips[i].name, name)) {
            return &snips[i];
        }
    }
    return NULL;
}

/* ------------------------------------------------------------------ */
/* fuzz-gcn and fuzz-gcn-load                                          */
/* ------------------------------------------------------------------ */

typedef struct GcnSeed {
    uint8_t h[FG_HEAD_SIZE];
    uint8_t kd[HSAGPU_GCN_KD_SIZE];
    uint8_t code[FG_CODE_MAX];
    size_t code_len;
    uint8_t karg[FG_KARG_SIZE];
    size_t karg_len;
    uint8_t data[1024];
    size_t data_len;
} GcnSeed;

static GcnSeed gs;
static uint8_t out[1 << 20];

#define S_ENDPGM        0xbf810000U
#define RSRC1_DEFAULT   0x00af0007U     /* 32 VGPRs, IEEE, denormals kept */

/* Descriptor templates: what the snippets' names start with */
enum { T_KERN, T_LDS, T_PRIV };

static void gs_kd(uint32_t group, uint32_t priv, uint32_t karg,
                  int64_t entry, uint32_t rsrc1, uint32_t rsrc2,
                  uint16_t props)
{
    memset(gs.kd, 0, sizeof(gs.kd));
    fuzz_put32(gs.kd, group);
    fuzz_put32(gs.kd + 4, priv);
    fuzz_put32(gs.kd + 8, karg);
    memcpy(gs.kd + 16, &entry, sizeof(entry));
    fuzz_put32(gs.kd + 48, rsrc1);
    fuzz_put32(gs.kd + 52, rsrc2);
    put16(gs.kd + 56, props);
}

static void gs_template(unsigned t)
{
    switch (t) {
    case T_PRIV:
        /* s[0:3] private buffer, s[4:5] kernarg, s6 group, s7 offset */
        gs_kd(0, 256, 64, FG_CODE_OFF, RSRC1_DEFAULT,
              (6 << HSAGPU_GCN_RSRC2_USER_SGPR_SHIFT) |
              HSAGPU_GCN_RSRC2_WORKGROUP_ID_X |
              HSAGPU_GCN_RSRC2_PRIVATE_SEGMENT,
              HSAGPU_GCN_KCP_PRIVATE_SEGMENT_BUFFER |
              HSAGPU_GCN_KCP_KERNARG_SEGMENT_PTR);
        break;
    default:
        /* s[0:1] kernarg, s2 group id; LDS for T_LDS */
        gs_kd(t == T_LDS ? 4096 : 0, 0, 64, FG_CODE_OFF, RSRC1_DEFAULT,
              (2 << HSAGPU_GCN_RSRC2_USER_SGPR_SHIFT) |
              HSAGPU_GCN_RSRC2_WORKGROUP_ID_X |
              (1 << HSAGPU_GCN_RSRC2_VGPR_WORKITEM_SHIFT),
              HSAGPU_GCN_KCP_KERNARG_SEGMENT_PTR);
        break;
    }
}

static void gs_geom(unsigned dims, const uint16_t wg[3],
                    const uint32_t grid[3])
{
    gs.h[FG_H_DIMS] = dims - 1;
    for (unsigned k = 0; k < 3; k++) {
        uint32_t g = MIN(grid[k], FG_NWG * wg[k]);

        put16(gs.h + FG_H_WG + 2 * k, wg[k] - 1);
        put16(gs.h + FG_H_GRID + 2 * k, g ? g - 1 : 0);
    }
}

/* A fresh seed: head defaults, kernarg pointing at the data buffers */
static void gs_new(uint8_t flags)
{
    static const uint16_t wg[3] = { 64, 1, 1 };
    static const uint32_t grid[3] = { 64, 1, 1 };

    memset(&gs, 0, sizeof(gs));
    gs.h[FG_H_FLAGS] = flags;
    gs.h[FG_H_PAUSE] = 255;
    put16(gs.h + FG_H_MAXI, 0xffff);
    gs_geom(1, wg, grid);
    for (unsigned i = 0; i < FG_DATA_BUFS; i++) {
        put64(gs.karg + 8 * i, FG_DATA + i * FG_DATA_BUF);
    }
    put64(gs.karg + 8 * FG_DATA_BUFS, 64);
    gs.karg_len = 8 * FG_DATA_BUFS + 8;
    for (unsigned i = 0; i < 64; i++) {
        fuzz_put32(gs.data + 4 * i, i * 0x01010101U + 3);
    }
    gs.data_len = 256;
}

static void gs_code(const uint8_t *b, size_t len)
{
    if (gs.code_len + len <= sizeof(gs.code)) {
        memcpy(gs.code + gs.code_len, b, len);
        gs.code_len += len;
    }
}

static void gs_endpgm(void)
{
    uint8_t e[4];

    fuzz_put32(e, S_ENDPGM);
    gs_code(e, 4);
}

static size_t gs_bytes(void)
{
    size_t n = 0;

    put16(gs.h + FG_H_CODE_LEN, gs.code_len);
    put16(gs.h + FG_H_KARG_LEN, gs.karg_len);
    put16(gs.h + FG_H_DATA_LEN, gs.data_len);
    memcpy(out + n, gs.h, sizeof(gs.h));
    n += sizeof(gs.h);
    memcpy(out + n, gs.kd, sizeof(gs.kd));
    n += sizeof(gs.kd);
    memcpy(out + n, gs.code, gs.code_len);
    n += gs.code_len;
    memcpy(out + n, gs.karg, gs.karg_len);
    n += gs.karg_len;
    memcpy(out + n, gs.data, gs.data_len);
    n += gs.data_len;
    return n;
}

/* The guest memory of the seed as fuzz-gcn builds it, for a test run */
static FuzzMem gm;

static unsigned gm_read(void *o, uint64_t a, void *b, uint32_t n)
{
    return fuzz_mem_read(o, a, b, n);
}

static unsigned gm_write(void *o, uint64_t a, const void *b, uint32_t n)
{
    return fuzz_mem_write(o, a, b, n);
}

/*
 * A fuzz-gcn-load seed of the same workgroup in a preempted queue's
 * context save record (FL_F_CTX), part-way through a dispatch of four
 * workgroups, with GWS counters: @head (the seed's head and code, @n
 * bytes in out[]) then the record
 */
static void ctx_seed(const char *name, uint8_t *head, size_t n,
                     const uint8_t *blob, size_t len)
{
    struct hsagpu_ctx_record cr;
    char sname[128];

    memset(&cr, 0, sizeof(cr));
    cr.magic = HSAGPU_CTX_MAGIC;
    cr.version = HSAGPU_CTX_VERSION;
    cr.flags = HSAGPU_CTX_DISPATCH | HSAGPU_CTX_GWS;
    cr.read_index = 7;
    cr.kern_wg = 2;
    cr.packet[0] = HSAGPU_PKT_TYPE_KERNEL_DISPATCH;
    cr.gws_num = 4;
    cr.gws_counter[0] = 3;
    cr.state_len = len;
    cr.length = sizeof(cr) + len;
    if (n + sizeof(cr) + len > sizeof(out)) {
        return;
    }
    head[FL_H_FLAGS] = FL_F_CTX;
    memcpy(head + n, &cr, sizeof(cr));
    memcpy(head + n + sizeof(cr), blob, len);
    snprintf(sname, sizeof(sname), "%s-ctx", name);
    seed_write("gcn-load", sname, head, n + sizeof(cr) + len);
}

/*
 * fuzz-gcn-load seeds: the first workgroup of the current seed (cut to
 * one wave, to keep the saved bytes small) run @budget instructions and
 * saved; nothing when it ends before.
 */
static void load_seeds(const char *name)
{
    static const unsigned budgets[] = { 40, 400, 41, 42 };
    HsaGpuGcnMem mem = { gm_read, gm_write, NULL, &gm };
    HsaGpuGcnDispatch d;
    HsaGpuGcnStatus st;
    uint8_t *co;

    memset(&d, 0, sizeof(d));
    if (hsagpu_gcn_kd_parse(gs.kd, &d.kd)) {
        return;
    }
    co = fuzz_mem_map(&gm, FG_KD, FG_CODE_OFF + gs.code_len, gs.kd,
                      sizeof(gs.kd), false);
    memcpy(co + FG_CODE_OFF, gs.code, gs.code_len);
    fuzz_mem_map(&gm, FG_PKT, HSAGPU_AQL_PACKET_SIZE, NULL, 0, false);
    fuzz_mem_map(&gm, FG_QUEUE, FG_QUEUE_SIZE, NULL, 0, false);
    fuzz_mem_map(&gm, FG_KARG, FG_KARG_SIZE, gs.karg, gs.karg_len, false);
    fuzz_mem_map(&gm, FG_DATA, FG_DATA_SIZE, gs.data, gs.data_len, false);
    d.code = FG_KD + d.kd.entry_offset;
    d.dispatch_ptr = FG_PKT;
    d.queue_ptr = FG_QUEUE;
    d.kernarg = FG_KARG;
    d.grid[0] = 64;
    d.grid[1] = d.grid[2] = 1;
    d.wg[0] = 64;
    d.wg[1] = d.wg[2] = 1;
    for (unsigned i = 0; i < 4; i++) {
        HsaGpuGcnRun *r = hsagpu_gcn_run_new();
        uint8_t *blob = NULL;
        size_t len, n = 0;
        char sname[128];

        if (!hsagpu_gcn_run_start(r, &d, 0, 0, 0, &st) &&
            hsagpu_gcn_run_resume(r, &mem, &d, budgets[i], 1 << 20, &st) ==
            HSAGPU_GCN_PAUSED) {
            len = hsagpu_gcn_run_save(r, &blob);
            if (i >= 2) {
                /*
                 * a GWS dispatch's: this one in flight, itself waiting;
                 * a pool's: two in flight at once
                 */
                uint32_t head[4] = { HSAGPU_GCN_WAIT_MAGIC, 2, 0, 1 };
                uint32_t l = len, hl = i == 2 ? sizeof(head) : 8;
                uint8_t *two = malloc(hl + 2 * (4 + len));

                if (i == 3) {
                    head[0] = HSAGPU_GCN_MULTI_MAGIC;
                    head[1] = 2;
                }
                memcpy(two, head, hl);
                for (unsigned k = 0; k < 2; k++) {
                    memcpy(two + hl + k * (4 + len), &l, 4);
                    memcpy(two + hl + k * (4 + len) + 4, blob, len);
                }
                free(blob);
                blob = two;
                len = hl + 2 * (4 + len);
            }
            memset(out, 0, FL_HEAD_SIZE);
            out[FL_H_FLAGS] = i ? FL_F_QUEUE : 0;
            out[FL_H_BUDGET] = 255;
            put16(out + FL_H_MAXI, 0xffff);
            put16(out + FL_H_CODE_LEN, gs.code_len);
            fuzz_put32(out + FL_H_RSRC1, d.kd.rsrc1);
            n = FL_HEAD_SIZE;
            memcpy(out + n, gs.code, gs.code_len);
            n += gs.code_len;
            if (n + len <= sizeof(out)) {
                memcpy(out + n, blob, len);
                n += len;
                snprintf(sname, sizeof(sname), "%s-%u", name, budgets[i]);
                seed_write("gcn-load", sname, out, n);
            }
            if (i == 1) {
                ctx_seed(name, out, FL_HEAD_SIZE + gs.code_len, blob, len);
            }
            free(blob);
        }
        hsagpu_gcn_run_free(r);
    }
    fuzz_mem_free(&gm);
}

static void gcn_seed(const char *name, bool load)
{
    seed_write("gcn", name, out, gs_bytes());
    if (load) {
        load_seeds(name);
    }
}

/* One instruction, or four, after the prologue */
static void insn_seeds(void)
{
    const Code *pro = snip("prologue");

    for (unsigned i = 0; i < ninsns; i++) {
        char name[64];

        gs_new(0);
        gs_template(T_KERN);
        if (pro) {
            gs_code(pro->b, pro->len);
        }
        gs_code(insns[i].b, insns[i].len);
        gs_endpgm();
        snprintf(name, sizeof(name), "insn-%s", insns[i].name);
        gcn_seed(name, false);
        if (i % 4 == 0 && i + 3 < ninsns) {
            gs_new(FG_F_SAVE);
            gs_template(T_KERN);
            gs.h[FG_H_PAUSE] = 3;
            if (pro) {
                gs_code(pro->b, pro->len);
            }
            for (unsigned k = 0; k < 4; k++) {
                gs_code(insns[i + k].b, insns[i + k].len);
            }
            gs_endpgm();
            snprintf(name, sizeof(name), "insns4-%s", insns[i].name);
            gcn_seed(name, false);
        }
    }
}

/* The snippets: memory, LDS, private, lanes, hostile fields */
static void snippet_seeds(void)
{
    static const uint16_t wg256[3] = { 256, 1, 1 };
    static const uint32_t grid[3] = { 700, 1, 1 };

    for (unsigned i = 0; i < nsnips; i++) {
        const char *n = snips[i].name;
        unsigned t = !strncmp(n, "lds_", 4) ? T_LDS :
                     !strncmp(n, "priv_", 5) ? T_PRIV : T_KERN;
        char name[96];

        if (!strcmp(n, "prologue")) {
            continue;
        }
        gs_new(0);
        gs_template(t);
        if (!strcmp(n, "kern_scratch")) {
            gs.h[FG_H_FLAGS] = FG_F_SCRATCH;
            gs.h[FG_H_SCRATCH] = 3;
        }
        gs_code(snips[i].b, snips[i].len);
        gs_endpgm();
        snprintf(name, sizeof(name), "snip-%s", n);
        gcn_seed(name, t != T_KERN);
        /* four waves, two partial workgroups, paused and migrated */
        gs.h[FG_H_FLAGS] = FG_F_TWO | FG_F_SAVE;
        gs.h[FG_H_PAUSE] = 7;
        gs.h[FG_H_PICK] = 2;
        gs_geom(1, wg256, grid);
        snprintf(name, sizeof(name), "snip-%s-wg256", n);
        gcn_seed(name, false);
    }
}

/* ELF symbols of a code object ending in ".kd" (trusted: built here) */
static unsigned elf_kds(const uint8_t *f, char names[][64], unsigned max)
{
    Elf64_Ehdr eh;
    unsigned n = 0;

    memcpy(&eh, f, sizeof(eh));
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh, strs;

        memcpy(&sh, f + eh.e_shoff + i * eh.e_shentsize, sizeof(sh));
        if (sh.sh_type != SHT_SYMTAB) {
            continue;
        }
        memcpy(&strs, f + eh.e_shoff + sh.sh_link * eh.e_shentsize,
               sizeof(strs));
        for (uint64_t k = 0; k < sh.sh_size / sizeof(Elf64_Sym); k++) {
            Elf64_Sym s;
            const char *nm;
            size_t l;

            memcpy(&s, f + sh.sh_offset + k * sizeof(s), sizeof(s));
            nm = (const char *)f + strs.sh_offset + s.st_name;
            l = strlen(nm);
            if (l > 3 && l < 64 && !strcmp(nm + l - 3, ".kd") && n < max) {
                memcpy(names[n], nm, l - 3);
                names[n++][l - 3] = 0;
            }
        }
    }
    return n;
}

static uint8_t *file_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *b;
    long n;

    if (!f) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    b = malloc(n > 0 ? n : 1);
    if (n <= 0 || fread(b, 1, n, f) != (size_t)n) {
        free(b);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = n;
    return b;
}

/* The corpus program and step that run kernel @k, if any */
static const struct gcn_step *corpus_step(const char *k)
{
    for (size_t p = 0; p < sizeof(gcn_corpus) / sizeof(gcn_corpus[0]); p++) {
        for (unsigned s = 0; s < GCN_CORPUS_STEPS; s++) {
            const struct gcn_step *st = &gcn_corpus[p].step[s];

            if (st->kernel && !strcmp(st->kernel, k)) {
                return st;
            }
        }
    }
    return NULL;
}

/*
 * Kernel @k of code object @f: the descriptor with the entry moved to
 * FG_CODE, the executable segment as the code (functions it calls
 * included), the corpus's arguments and geometry; written as seeds if
 * @write, else only left in gs.
 */
static void corpus_kernel(const char *file, const uint8_t *f, const char *k,
                          bool write)
{
    static uint8_t img[1 << 20];
    uint64_t span = gcn_elf_span(f), kd, entry = 0, lo = 0, hi = 0;
    const struct gcn_step *st = corpus_step(k);
    uint64_t bufs[GCN_CORPUS_BUFS];
    char sym[80], name[160];
    int64_t off;
    uint32_t karg;

    snprintf(sym, sizeof(sym), "%s.kd", k);
    kd = gcn_elf_symbol(f, sym);
    if (!kd || span > sizeof(img)) {
        return;
    }
    gcn_elf_load(f, img);
    memcpy(&off, img + kd + 16, sizeof(off));
    entry = kd + off;
    for (unsigned i = 0; i < gcn_elf_phnum(f); i++) {
        Elf64_Phdr ph = gcn_elf_phdr(f, i);

        if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) &&
            entry >= ph.p_vaddr && entry < ph.p_vaddr + ph.p_memsz) {
            lo = ph.p_vaddr;
            hi = ph.p_vaddr + ph.p_memsz;
        }
    }
    if (!hi || hi - lo > FG_CODE_MAX) {
        fprintf(stderr, "fuzz-seeds: %s: no code segment for %s\n", file, k);
        return;
    }
    gs_new(0);
    memcpy(gs.kd, img + kd, sizeof(gs.kd));
    off = FG_CODE_OFF + (entry - lo);
    memcpy(gs.kd + 16, &off, sizeof(off));
    gs_code(img + lo, hi - lo);
    karg = MIN(fuzz_le32(gs.kd + 8), FG_KARG_SIZE);
    for (unsigned i = 0; i < GCN_CORPUS_BUFS; i++) {
        bufs[i] = FG_DATA + (uint64_t)(i % FG_DATA_BUFS) * FG_DATA_BUF;
    }
    if (st) {
        unsigned dims = st->grid[2] > 1 ? 3 : st->grid[1] > 1 ? 2 : 1;

        memset(gs.karg, 0, sizeof(gs.karg));
        st->args(gs.karg, bufs);
        gs_geom(dims, st->wg, st->grid);
    } else if (!strcmp(k, "saxpy")) {
        float a = 2.5f;

        memcpy(gs.karg, &a, 4);
        put64(gs.karg + 8, bufs[0]);
        put64(gs.karg + 16, bufs[1]);
        fuzz_put32(gs.karg + 24, 200);
    } else if (!strcmp(k, "bench_alu")) {
        put64(gs.karg, bufs[0]);
        put64(gs.karg + 8, 3);
    }
    gs.karg_len = MAX(karg, gs.karg_len);
    if (!write) {
        return;
    }
    snprintf(name, sizeof(name), "co-%s-%s", file, k);
    gcn_seed(name, true);
    /* the same, paused every few instructions and migrated each time */
    gs.h[FG_H_FLAGS] = FG_F_SAVE | FG_F_TWO;
    gs.h[FG_H_PAUSE] = 10;
    gs.h[FG_H_PICK] = 1;
    snprintf(name, sizeof(name), "co-%s-%s-save", file, k);
    gcn_seed(name, false);
    /* memory that does atomics with reads and writes */
    gs.h[FG_H_FLAGS] = FG_F_NO_ATOMIC | FG_F_BIG;
    snprintf(name, sizeof(name), "co-%s-%s-noatomic", file, k);
    gcn_seed(name, false);
}

static void corpus_seeds(const char *codir)
{
    static const char *const files[] = {
        "vadd", "saxpy", "lds_sum", "matmul", "histogram", "scan",
        "divergent", "grid3d", "numeric", "packed", "private", "generic",
        "bench_alu", "bench_mem", "hsagpu-store42",
    };
    unsigned found = 0;

    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char path[512], kds[16][64];
        size_t len;
        uint8_t *f;
        unsigned n;

        snprintf(path, sizeof(path), "%s/%s.co", codir, files[i]);
        f = file_read(path, &len);
        if (!f) {
            continue;
        }
        found++;
        n = elf_kds(f, kds, 16);
        for (unsigned k = 0; k < n; k++) {
            corpus_kernel(files[i], f, kds[k], true);
        }
        free(f);
    }
    if (!found) {
        fprintf(stderr, "fuzz-seeds: no code objects in %s\n", codir);
    }
}

/* ------------------------------------------------------------------ */
/* fuzz-pm4: AQL packets                                               */
/* ------------------------------------------------------------------ */

/* Offsets in the data region (FQ_DATA) */
#define QD_SIG0         0x000   /* signal, value 1 */
#define QD_SIG_INACT    0x040   /* amd_queue_t's inactive signal */
#define QD_SIG2         0x080   /* signal, value 0 */
#define QD_IB           0x100   /* ROCr's ACQUIRE_MEM */
#define QD_IB2          0x200   /* NOPs and two ACQUIRE_MEMs */
#define QD_KARG         0x400
#define QD_DESC         0x800   /* DMA descriptor lists */
#define QD_BUF_A        0x1000
#define QD_BUF_B        0x2000
#define QD_KARG_CO      0x3000
#define QD_KD           0x4000  /* a code object's descriptor */

typedef struct QSeed {
    uint8_t h[FQ_HEAD_SIZE];
    uint8_t pk[64][HSAGPU_AQL_PACKET_SIZE];
    unsigned npkts;
    uint8_t data[FQ_DATA_SIZE];
    size_t data_len;
} QSeed;

static QSeed qs;
static uint8_t vadd_co[FG_CODE_MAX];
static size_t vadd_co_len;
static uint8_t vadd_kd[HSAGPU_GCN_KD_SIZE];

static const uint32_t rocr_acquire_mem[7] = {
    HSAGPU_PM4_HDR(HSAGPU_PM4_OP_ACQUIRE_MEM, 7),
    (1U << 29) | (1U << 27) | (1U << 23) | (1U << 18),
    0xffffffffU, 0xff, 0, 0, 0,
};

static void qd_signal(unsigned off, int64_t value)
{
    struct hsagpu_signal s;

    memset(&s, 0, sizeof(s));
    s.kind = HSAGPU_SIGNAL_KIND_USER;
    s.value = value;
    memcpy(qs.data + off, &s, sizeof(s));
}

static void qs_new(uint8_t flags)
{
    uint32_t ib2[19];

    memset(&qs, 0, sizeof(qs));
    qs.h[FQ_H_FLAGS] = flags;
    qs.h[FQ_H_RING] = 2;                /* 16 packets */
    qs.h[FQ_H_RUNS] = 3;
    qs.h[FQ_H_QUANTUM] = 15;
    qs.h[FQ_H_CLOCK] = 16;
    qd_signal(QD_SIG0, 1);
    qd_signal(QD_SIG_INACT, 1);
    qd_signal(QD_SIG2, 0);
    memcpy(qs.data + QD_IB, rocr_acquire_mem, sizeof(rocr_acquire_mem));
    memset(ib2, 0, sizeof(ib2));
    ib2[0] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_NOP, 3);
    memcpy(&ib2[3], rocr_acquire_mem, sizeof(rocr_acquire_mem));
    memcpy(&ib2[10], rocr_acquire_mem, sizeof(rocr_acquire_mem));
    ib2[17] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_NOP, 2);
    memcpy(qs.data + QD_IB2, ib2, sizeof(ib2));
    for (unsigned i = 0; i < 1024; i++) {
        fuzz_put32(qs.data + QD_BUF_A + 4 * i, i * 3 + 1);
    }
    qs.data_len = QD_KARG_CO;
}

static uint16_t qhdr(unsigned type, bool barrier)
{
    return type | (barrier ? HSAGPU_PKT_HDR_BARRIER : 0) |
           HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_ACQUIRE_SHIFT |
           HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_RELEASE_SHIFT;
}

static void qs_add(const void *pkt)
{
    if (qs.npkts < 64) {
        memcpy(qs.pk[qs.npkts++], pkt, HSAGPU_AQL_PACKET_SIZE);
    }
}

static void qs_pm4(uint64_t ib, uint32_t ndw, uint64_t sig)
{
    struct hsagpu_pm4_ib_packet p;

    memset(&p, 0, sizeof(p));
    p.header = HSAGPU_PKT_TYPE_VENDOR_SPECIFIC;
    p.format = HSAGPU_VENDOR_FORMAT_PM4_IB;
    p.ib_jump_cmd[0] = HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4);
    p.ib_jump_cmd[1] = (uint32_t)ib & ~3U;
    p.ib_jump_cmd[2] = (uint32_t)(ib >> 32) & 0xffff;
    p.ib_jump_cmd[3] = ndw | HSAGPU_PM4_IB_VALID;
    p.dw_cnt_remain = 0xa;
    p.completion_signal = sig;
    qs_add(&p);
}

static void qs_barrier_value(uint64_t sig, int64_t value, uint32_t cond,
                             uint64_t done)
{
    struct hsagpu_barrier_value_packet b;

    memset(&b, 0, sizeof(b));
    b.header = qhdr(HSAGPU_PKT_TYPE_VENDOR_SPECIFIC, false);
    b.format = HSAGPU_VENDOR_FORMAT_BARRIER_VALUE;
    b.signal = sig;
    b.value = value;
    b.mask = -1;
    b.cond = cond;
    b.completion_signal = done;
    qs_add(&b);
}

static void qs_barrier(unsigned type, uint64_t dep, uint64_t done)
{
    struct hsagpu_barrier_packet b;

    memset(&b, 0, sizeof(b));
    b.header = qhdr(type, true);
    b.dep_signal[0] = dep;
    b.completion_signal = done;
    qs_add(&b);
}

static void qs_agent(unsigned type, uint64_t ret, uint64_t arg0,
                     uint64_t done)
{
    struct hsagpu_agent_dispatch_packet a;

    memset(&a, 0, sizeof(a));
    a.header = qhdr(HSAGPU_PKT_TYPE_AGENT_DISPATCH, false);
    a.type = type;
    a.return_address = ret;
    a.arg[0] = arg0;
    a.completion_signal = done;
    qs_add(&a);
}

static void qs_dma(unsigned op, uint64_t src, uint64_t dst, uint64_t size,
                   uint32_t pattern, uint64_t done)
{
    struct hsagpu_dma_packet d;

    memset(&d, 0, sizeof(d));
    d.header = qhdr(HSAGPU_PKT_TYPE_VENDOR_SPECIFIC, false);
    d.format = HSAGPU_VENDOR_FORMAT_DMA;
    d.op = op;
    d.src = src;
    d.dst = dst;
    d.size = size;
    d.pattern = pattern;
    d.completion_signal = done;
    qs_add(&d);
}

static void qs_kernel(uint64_t kobj, uint64_t karg, uint32_t grid,
                      uint16_t wg, uint64_t done)
{
    struct hsagpu_kernel_dispatch_packet k;

    memset(&k, 0, sizeof(k));
    k.header = qhdr(HSAGPU_PKT_TYPE_KERNEL_DISPATCH, false);
    k.setup = 1;
    k.workgroup_size_x = wg;
    k.workgroup_size_y = k.workgroup_size_z = 1;
    k.grid_size_x = grid;
    k.grid_size_y = k.grid_size_z = 1;
    k.kernel_object = kobj;
    k.kernarg_address = karg;
    k.completion_signal = done;
    qs_add(&k);
}

static void qs_write(const char *name)
{
    size_t n = 0;

    qs.h[FQ_H_NPKTS] = qs.npkts;
    put16(qs.h + FQ_H_DATA_LEN, qs.data_len);
    memcpy(out + n, qs.h, sizeof(qs.h));
    n += sizeof(qs.h);
    memcpy(out + n, qs.pk, (size_t)qs.npkts * HSAGPU_AQL_PACKET_SIZE);
    n += (size_t)qs.npkts * HSAGPU_AQL_PACKET_SIZE;
    memcpy(out + n, qs.data, qs.data_len);
    n += qs.data_len;
    seed_write("pm4", name, out, n);
}

/* The built-in kernels' arguments at QD_KARG */
static void qd_kargs(unsigned k)
{
    uint8_t *a = qs.data + QD_KARG;
    uint64_t bufa = FQ_DATA + QD_BUF_A, bufb = FQ_DATA + QD_BUF_B;
    float two = 2.0f;

    memset(a, 0, 64);
    switch (k) {
    case 1:                                     /* fill */
        put64(a, bufb);
        fuzz_put32(a + 8, 0x5a5a5a5a);
        break;
    case 2:                                     /* copy */
        put64(a, bufb);
        put64(a + 8, bufa);
        break;
    case 3:                                     /* vadd */
        put64(a, bufa);
        put64(a + 8, bufa);
        put64(a + 16, bufb);
        break;
    case 4:                                     /* saxpy */
        memcpy(a, &two, 4);
        put64(a + 8, bufa);
        put64(a + 16, bufb);
        break;
    case 5:                                     /* atomic_inc */
        put64(a, FQ_DATA + QD_SIG2 + 8);
        break;
    case 6:                                     /* busy */
        put64(a, 5000);
        break;
    default:                                    /* ids */
        put64(a, bufb);
        break;
    }
}

/* vadd.co at QD_KD (entry moved to QD_KD + 0x1000), if it was built */
static bool qd_code_object(void)
{
    uint8_t *a = qs.data + QD_KARG_CO;

    if (!vadd_co_len || QD_KD + FG_CODE_OFF + vadd_co_len > FQ_DATA_SIZE) {
        return false;
    }
    memcpy(qs.data + QD_KD, vadd_kd, sizeof(vadd_kd));
    memcpy(qs.data + QD_KD + FG_CODE_OFF, vadd_co, vadd_co_len);
    put64(a, FQ_DATA + QD_BUF_A);
    put64(a + 8, FQ_DATA + QD_BUF_A);
    put64(a + 16, FQ_DATA + QD_BUF_B);
    qs.data_len = QD_KD + FG_CODE_OFF + vadd_co_len;
    return true;
}

static void pm4_seeds(void)
{
    const uint64_t D = FQ_DATA;
    char name[64];

    qs_new(0);
    qs_pm4(D + QD_IB, 7, 0);
    qs_write("pm4-acquire");
    qs_new(FQ_F_READ_DATA);
    qs_pm4(D + QD_IB2, 19, D + QD_SIG0);
    qs_write("pm4-nops-signal");
    qs_new(FQ_F_AMD | FQ_F_PROFILE);
    qs_pm4(D + QD_IB, 7, D + QD_SIG0);
    qs_pm4(D + QD_IB2, 19, 0);
    qs_barrier_value(D + QD_SIG0, 0, HSAGPU_SIGNAL_COND_EQ, 0);
    qs_write("pm4-amd-profile");
    qs_new(0);
    qs_barrier_value(D + QD_SIG0, 1, HSAGPU_SIGNAL_COND_EQ, D + QD_SIG2);
    qs_barrier_value(D + QD_SIG2, 0, HSAGPU_SIGNAL_COND_LT, 0);
    qs_write("barrier-value");
    qs_new(0);
    qs_barrier(HSAGPU_PKT_TYPE_BARRIER_AND, D + QD_SIG2, D + QD_SIG0);
    qs_barrier(HSAGPU_PKT_TYPE_BARRIER_OR, D + QD_SIG0, 0);
    qs_write("barriers");
    qs_new(0);
    qs_agent(HSAGPU_AGENT_NOP, 0, 0, D + QD_SIG0);
    qs_agent(HSAGPU_AGENT_TIMESTAMP, D + QD_BUF_B, 0, 0);
    qs_agent(HSAGPU_AGENT_WRITE_VALUE, D + QD_BUF_B + 8, 0x1122, 0);
    qs_agent(HSAGPU_AGENT_COPY_INFO, D + QD_BUF_B + 64, 0, 0);
    qs_write("agent");
    qs_new(0);
    qs_dma(HSAGPU_DMA_OP_COPY, D + QD_BUF_A, D + QD_BUF_B, 0x1000, 0,
           D + QD_SIG0);
    qs_dma(HSAGPU_DMA_OP_FILL, 0, D + QD_BUF_B, 0x300, 0xa5a55a5a, 0);
    qs_write("dma");
    qs_new(FQ_F_READ_DATA);
    put64(qs.data + QD_DESC, D + QD_BUF_A);
    put64(qs.data + QD_DESC + 8, D + QD_BUF_B);
    put64(qs.data + QD_DESC + 16, 0x80);
    put64(qs.data + QD_DESC + 32, 0x11223344);
    put64(qs.data + QD_DESC + 40, D + QD_BUF_B + 0x100);
    put64(qs.data + QD_DESC + 48, 0x40);
    qs_dma(HSAGPU_DMA_OP_COPY_SG, D + QD_DESC, 0, 1, 0, 0);
    qs_dma(HSAGPU_DMA_OP_FILL_SG, D + QD_DESC + 32, 0, 1, 0, D + QD_SIG0);
    qs_write("dma-sg");
    for (unsigned k = 1; k <= HSAGPU_KERNEL_COUNT; k++) {
        qs_new(k % 2 ? FQ_F_MAP : FQ_F_ATOMIC);
        qd_kargs(k);
        qs_kernel(HSAGPU_KERNEL_OBJECT(k), D + QD_KARG, 1000, 64,
                  k % 3 ? D + QD_SIG0 : 0);
        snprintf(name, sizeof(name), "kernel-%u", k);
        qs_write(name);
    }
    qs_new(FQ_F_ATOMIC);
    if (qd_code_object()) {
        qs_kernel(D + QD_KD, D + QD_KARG_CO, 256, 64, D + QD_SIG0);
        qs_write("code-object");
        qs.h[FQ_H_FLAGS] = FQ_F_MIGRATE | FQ_F_BUDGET;
        qs_write("code-object-migrate");
    }
    /* a mixed ring, served by budgeted passes, migrated between them */
    qs_new(FQ_F_MIGRATE | FQ_F_BUDGET | FQ_F_AMD);
    qd_kargs(1);
    qs_pm4(D + QD_IB, 7, 0);
    qs_kernel(HSAGPU_KERNEL_OBJECT(1), D + QD_KARG, 4096, 256, 0);
    qs_dma(HSAGPU_DMA_OP_COPY, D + QD_BUF_A, D + QD_BUF_B, 0x800, 0, 0);
    qs_barrier(HSAGPU_PKT_TYPE_BARRIER_AND, D + QD_SIG2, 0);
    qs_barrier_value(D + QD_SIG0, 1, HSAGPU_SIGNAL_COND_GTE, D + QD_SIG0);
    qs_pm4(D + QD_IB2, 19, D + QD_SIG0);
    qs_write("mixed");
}

/* ------------------------------------------------------------------ */
/* fuzz-sdma                                                           */
/* ------------------------------------------------------------------ */

#define SD_POLL         0x000   /* poll word, value 1 */
#define SD_ATOMIC       0x040
#define SD_FENCE        0x080
#define SD_TS           0x0c0
#define SD_WB           0x100   /* amdgpu's write-back slots */
#define SD_PT           0x400   /* a page table */
#define SD_IB           0x800   /* an indirect buffer (sib) */
#define SD_SRC          0x1000
#define SD_DST          0x2000

static uint8_t sring[4096];
static size_t sring_len;
static uint32_t sib[(SD_SRC - SD_IB) / 4];
static size_t sib_len;

static void sd(unsigned n, ...)
{
    va_list ap;

    va_start(ap, n);
    for (unsigned i = 0; i < n; i++) {
        uint32_t v = va_arg(ap, uint32_t);

        if (sring_len + 4 <= sizeof(sring)) {
            fuzz_put32(sring + sring_len, v);
            sring_len += 4;
        }
    }
    va_end(ap);
}

/* dwords of the IB at SD_IB */
static void si(unsigned n, ...)
{
    va_list ap;

    va_start(ap, n);
    for (unsigned i = 0; i < n; i++) {
        uint32_t v = va_arg(ap, uint32_t);

        if (sib_len < sizeof(sib) / 4) {
            sib[sib_len++] = v;
        }
    }
    va_end(ap);
}

static void sdma_write(const char *name, uint8_t flags, unsigned ring)
{
    static uint8_t data[0x3000];
    size_t n = 0;

    memset(data, 0, sizeof(data));
    fuzz_put32(data + SD_POLL, 1);
    for (unsigned i = 0; i < 1024; i++) {
        fuzz_put32(data + SD_SRC + 4 * i, i * 7 + 1);
    }
    for (size_t i = 0; i < sib_len; i++) {
        fuzz_put32(data + SD_IB + 4 * i, sib[i]);
    }
    memset(out, 0, FS_HEAD_SIZE);
    out[FS_H_FLAGS] = flags;
    out[FS_H_RING] = ring;
    out[FS_H_RUNS] = 3;
    out[FS_H_QUANTUM] = 31;
    out[FS_H_CLOCK] = 16;
    put16(out + FS_H_RING_LEN, sring_len);
    fuzz_put32(out + FS_H_START, 0x3f0);
    n = FS_HEAD_SIZE;
    memcpy(out + n, sring, sring_len);
    n += sring_len;
    memcpy(out + n, data, sizeof(data));
    n += sizeof(data);
    seed_write("sdma", name, out, n);
    sring_len = 0;
    sib_len = 0;
}

static void sdma_seeds(void)
{
    const uint32_t D = (uint32_t)FS_DATA;
    const uint32_t poll = 8 | HSAGPU_SDMA_FUNC_EQ << 28 | HSAGPU_SDMA_POLL_MEM;

    sd(7, HSAGPU_SDMA_HDR(1, 0), 0xfff, 0, D + SD_SRC, 0, D + SD_DST, 0);
    sdma_write("copy", 0, 0);
    sd(5, 11 | HSAGPU_SDMA_FILL_DWORD << 30, D + SD_DST, 0, 0xa5a55a5a, 0x3fc);
    sd(4, 5, D + SD_FENCE, 0, 77);
    sd(2, 6, 77);
    sdma_write("fill-fence-trap", FS_F_READ_DATA, 1);
    sd(8, 10 | HSAGPU_SDMA_ATOMIC_ADD64 << 25, D + SD_ATOMIC, 0, 1, 0, 0, 0,
       0);
    sd(3, HSAGPU_SDMA_HDR(13, 2), D + SD_TS, 0);
    sdma_write("atomic-timestamp", 0, 2);
    sd(6, poll, D + SD_POLL, 0, 1, 0xffffffff, 0x0fff0004);
    sd(6, 8 | HSAGPU_SDMA_POLL_HDP_FLUSH | HSAGPU_SDMA_FUNC_EQ << 28, 0, 0, 0,
       0, 0x0fff000a);
    sd(6, poll, D + SD_POLL, 0, 2, 0xffffffff, 0x0fff0004);
    sdma_write("poll", FS_F_BUMP, 0);
    /* a 16 x 2 x 3 box of 4-byte elements */
    sd(13, 1 | 4 << 8 | 2 << 29, D + SD_SRC, 0, 1 | 2 << 16, 16 << 13, 63,
       D + SD_DST, 0, 0, 8 << 13, 63, 3 | 3 << 16, 1);
    sd(1, 0);
    sd(3, 0 | 1 << 16, 0, 0);
    sdma_write("rect", FS_F_BUDGET | FS_F_MIGRATE, 1);
    /* ROCr's submission: padding NOPs to the ring's end, wrapping */
    sd(1, 0 | 62 << 16);
    for (unsigned i = 0; i < 62; i++) {
        sd(1, 0);
    }
    sd(7, HSAGPU_SDMA_HDR(1, 0), 0x7f, 0, D + SD_SRC, 0, D + SD_DST, 0);
    sd(4, 5, D + SD_FENCE, 0, 1);
    sdma_write("nops-wrap", FS_F_START, 0);

    /*
     * amdgpu's kernel rings (test-sdma-amdgpu.c): the ring test and its
     * padding (a burst NOP); the IB test through an INDIRECT, fence and
     * trap; a frame with the HDP flush, a VM flush's register writes and
     * waits, an IB of page table updates, copies and fills; an IB whose
     * poll waits.
     */
    sd(5, 2, D + SD_WB, 0, 0, 0xdeadbeef);
    sd(1, 250U << 16);
    sdma_write("amdgpu-ring-test", FS_F_KERNEL | FS_F_TRAP, 0);
    si(8, 2, D + SD_WB + 4, 0, 0, 0xdeadbeef, 0, 0, 0);
    sd(2, 1U << 16, 0);
    sd(6, 4, D + SD_IB, 0, 8, 0, 0);
    sd(4, 5, D + SD_FENCE, 0, 1);
    sd(2, 6, 0);
    sdma_write("amdgpu-ib-test", FS_F_KERNEL | FS_F_TRAP, 1);
    sd(6, 8 | 1U << 26 | 3U << 28, 0xe27 << 2, 0xe26 << 2, 0x400, 0x400,
       0x0fff000a);
    sd(6, 8 | 3U << 28, 0x1a6d2 << 2, 0, 0, 1, 0x0fff000a);
    sd(3, 14 | 0xfU << 28, 0x1a731, 0xf400a001);
    sd(3, 14 | 0xfU << 28, 0x1a732, 0);
    sd(3, 14 | 0xfU << 28, 0x1a6e4, 0x007c0008);
    sd(6, 8 | 3U << 28, 0x1a6e5 << 2, 0, 8, 8, 0x0fff000a);
    sd(3, 14 | 0x3U << 28, 0x10b3, 0x8003);
    si(10, 12, D + SD_PT, 0, 0x73, 0x400000, 0x12345000, 0xf4, 0x1000, 0,
       15);
    si(8, 2, D + SD_PT + 0x100, 0, 3, 0x1073, 0, 0x2073, 0);
    si(7, 1, 0x3f, 0, D + SD_SRC, 0, D + SD_PT + 0x200, 0);
    si(5, 11, D + SD_DST, 0, 0xd0bed0be, 0xfff);
    si(2, 1U << 16, 0);
    sd(6, 4 | 3U << 16, D + SD_IB, 0, 32, 0, 0);
    sd(3, 14 | 0xfU << 28, 0xff1, 1);
    sd(4, 5, D + SD_FENCE, 0, 2);
    sd(4, 5, D + SD_FENCE + 4, 0, 0);
    sd(2, 6, 0);
    sdma_write("amdgpu-frame", FS_F_KERNEL | FS_F_MIGRATE | FS_F_BUDGET, 2);
    si(5, 2, D + SD_WB, 0, 0, 1);
    si(6, 8 | 3U << 28 | 1U << 31, D + SD_POLL, 0, 2, 0xffffffff,
       0x0fff0004);
    si(5, 2, D + SD_WB + 4, 0, 0, 2);
    sd(2, 1U << 16, 0);
    sd(6, 4, D + SD_IB, 0, 16, 0, 0);
    sd(4, 5, D + SD_FENCE, 0, 3);
    sdma_write("amdgpu-ib-poll", FS_F_KERNEL | FS_F_MIGRATE | FS_F_BUMP, 0);
}

/* ------------------------------------------------------------------ */
/* fuzz-pm4-ring: PM4 rings as amdgpu's gfx_v9_0.c fills them          */
/* ------------------------------------------------------------------ */

/* Offsets in the data region (FR_DATA) */
#define RD_FENCE        0x000   /* fences, RELEASE_MEM's and QUERY_STATUS' */
#define RD_COND         0x040   /* COND_EXEC's word, 1 */
#define RD_WAIT         0x080   /* WAIT_REG_MEM's memory word, 1 */
#define RD_IB           0x100   /* an indirect buffer */
#define RD_MQD          0x1000  /* a compute queue's MQD */

static uint32_t rring[2048], rib[256];
static size_t rring_len, rib_len;

/* dwords of the ring (w: 0) or of the IB at RD_IB (w: 1) */
static void rp(int w, unsigned n, ...)
{
    va_list ap;

    va_start(ap, n);
    for (unsigned i = 0; i < n; i++) {
        uint32_t v = va_arg(ap, uint32_t);

        if (!w && rring_len < sizeof(rring) / 4) {
            rring[rring_len++] = v;
        } else if (w && rib_len < sizeof(rib) / 4) {
            rib[rib_len++] = v;
        }
    }
    va_end(ap);
}

/* RELEASE_MEM of @seq to @addr, with an interrupt (amdgpu's fence) */
static void rp_fence(int w, uint64_t addr, uint32_t seq)
{
    rp(w, 8, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RELEASE_MEM, 8), 0x14 | 5 << 8,
       HSAGPU_PM4_DATA_32 << 29 | HSAGPU_PM4_INT_CONFIRMED << 24,
       (uint32_t)addr, (uint32_t)(addr >> 32), seq, 0, seq);
}

/* @flags, a ring of 2^@log2 dwords starting at @rptr, @vmid */
static void ring_write(const char *name, uint8_t flags, unsigned log2,
                       uint32_t rptr, unsigned vmid, uint16_t grow)
{
    static uint8_t data[0x1400];
    size_t n;

    memset(data, 0, sizeof(data));
    fuzz_put32(data + RD_COND, 1);
    fuzz_put32(data + RD_WAIT, 1);
    for (size_t i = 0; i < rib_len; i++) {
        fuzz_put32(data + RD_IB + 4 * i, rib[i]);
    }
    /* an MQD's HQD block: a 1024-dword ring, as gfx_v9_0_mqd_init */
    fuzz_put32(data + RD_MQD + 4 * (V10_MQD_HQD_DW + V10_CP_HQD_PQ_CONTROL -
                                    V10_HQD_FIRST), 9);
    memset(out, 0, FR_HEAD_SIZE);
    out[FR_H_FLAGS] = flags;
    out[FR_H_RING] = log2;
    out[FR_H_RUNS] = 3;
    out[FR_H_BUDGET] = 63;
    out[FR_H_VMID] = vmid;
    put16(out + FR_H_RING_LEN, rring_len * 4);
    fuzz_put32(out + FR_H_RPTR, rptr);
    put16(out + FR_H_GROW, grow);
    n = FR_HEAD_SIZE;
    for (size_t i = 0; i < rring_len; i++, n += 4) {
        fuzz_put32(out + n, rring[i]);
    }
    memcpy(out + n, data, sizeof(data));
    n += sizeof(data);
    seed_write("pm4-ring", name, out, n);
    rring_len = rib_len = 0;
}

static void pm4_ring_seeds(void)
{
    const uint64_t D = FR_DATA;
    const uint32_t scratch = V10_SCRATCH_REG0 - HSAGPU_PM4_UCONFIG_REG_START;

    /* gfx_v9_0_ring_test_ring, then a fence (gfx_v9_0_ring_emit_fence) */
    rp(0, 3, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3), scratch,
       0xdeadbeef);
    rp_fence(0, D + RD_FENCE, 1);
    rp(0, 2, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_NOP, 2), 0);
    ring_write("gfx-ring-test", FR_F_REGS | FR_F_EOP | FR_F_GFX_ME, 10, 0, 0,
               0);
    /*
     * gfx_v9_0_ring_test_ib on the graphics ME (no VALID bit): an IB
     * with a WRITE_DATA, the frame around it (CONTEXT_CONTROL, the CE's
     * IB, SWITCH_BUFFER, a NOP filler run) and its fence
     */
    rp(1, 5, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5), 5 << 8 | 1 << 20,
       (uint32_t)(D + RD_FENCE + 8), 0, 0xdeadbeef);
    rp(0, 3, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_CONTEXT_CONTROL, 3), 0x80000000,
       0x80000000);
    rp(0, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER_CONST, 4),
       (uint32_t)(D + RD_IB), 0, 5);
    rp(0, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4),
       (uint32_t)(D + RD_IB), 0, 5);
    rp(0, 2, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SWITCH_BUFFER, 2), 0);
    rp_fence(0, D + RD_FENCE, 2);
    for (unsigned i = 0; i < 6; i++) {
        rp(0, 1, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_NOP, HSAGPU_PM4_NOP_FILLER + 2));
    }
    ring_write("gfx-ib-test", FR_F_REGS | FR_F_EOP | FR_F_GFX_ME, 8, 250, 0,
               0);
    /*
     * 6.12's frame of a process's job on the graphics ME: the CE and DE
     * payloads to the preemption meta memory (WRITE_DATA, DST_SEL 8),
     * written in the VMID of the IB that follows (3)
     */
    rp(1, 5, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5), 5 << 8 | 1 << 20,
       (uint32_t)(D + RD_FENCE + 8), 0, 0x600d);
    rp(0, 7, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 7),
       2u << 30 | HSAGPU_PM4_SEL_PREEMPT_META << 8 | 1 << 20,
       (uint32_t)(D + RD_FENCE + 16), 0, 0, 0, 0);
    rp(0, 3, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_CONTEXT_CONTROL, 3), 0x80000000, 0);
    rp(0, 6, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 6),
       1u << 30 | HSAGPU_PM4_SEL_PREEMPT_META << 8 | 1 << 20,
       (uint32_t)(D + RD_FENCE + 32), 0, 1, 2);
    rp(0, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4),
       (uint32_t)(D + RD_IB), 0, rib_len | 3 << 24);
    rp_fence(0, D + RD_FENCE, 3);
    ring_write("gfx-user-frame", FR_F_REGS | FR_F_EOP | FR_F_GFX_ME, 8, 0, 0,
               0);
    /*
     * A compute ring's frame: the IB (VALID, its VMID) with COPY_DATA,
     * WAIT_REG_MEM on memory, a COND_EXEC that skips, ACQUIRE_MEM, the
     * TLB flush's write-then-wait (gmc_v9_0_emit_flush_gpu_tlb: request
     * written, the acknowledgement waited for), a fence with a 64-bit
     * value and a clock
     */
    rp(1, 6, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_COPY_DATA, 6),
       HSAGPU_PM4_SEL_IMM | HSAGPU_PM4_SEL_MEM << 8 | HSAGPU_PM4_CD_64,
       0x11223344, 0x55667788, (uint32_t)(D + RD_FENCE + 16), 0);
    rp(1, 6, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_COPY_DATA, 6),
       HSAGPU_PM4_SEL_GPU_CLOCK | HSAGPU_PM4_SEL_REG << 8 | HSAGPU_PM4_CD_64,
       0, 0, V10_SCRATCH_REG0, 0);
    rp(1, 7, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WAIT_REG_MEM, 7),
       HSAGPU_PM4_FUNC_EQ | HSAGPU_PM4_WAIT_MEM, (uint32_t)(D + RD_WAIT), 0,
       1, 0xffffffff, 4);
    rp(1, 5, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_COND_EXEC, 5),
       (uint32_t)(D + RD_FENCE + 24), 0, 0, 3);
    rp(1, 3, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_SH_REG, 3), 0x200, 1);
    rp(1, 7, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_ACQUIRE_MEM, 7), 0x28c00000,
       0xffffffff, 0xff, 0, 0, 0xa);
    rp(0, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4),
       (uint32_t)(D + RD_IB), 0, rib_len | HSAGPU_PM4_IB_VALID | 3 << 24);
    rp(0, 7, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WAIT_REG_MEM, 7),
       HSAGPU_PM4_FUNC_EQ | HSAGPU_PM4_WAIT_WRITE_FIRST,
       V10_GFXHUB_INV_ENG0_SEM + V10_HUB_INV_REQ + 17,
       V10_GFXHUB_INV_ENG0_SEM + V10_HUB_INV_REQ + 17, 1 << 3, 1 << 3, 0x20);
    rp(0, 8, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RELEASE_MEM, 8), 0x14 | 5 << 8,
       HSAGPU_PM4_DATA_64 << 29 | HSAGPU_PM4_INT_ONLY << 24,
       (uint32_t)(D + RD_FENCE + 32), 0, 0x1234, 0x5678, 3);
    rp(0, 8, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RELEASE_MEM, 8), 0x14 | 5 << 8,
       HSAGPU_PM4_DATA_GPU_CLOCK << 29, (uint32_t)(D + RD_FENCE + 40), 0, 0,
       0, 0);
    rp(0, 5, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_COND_EXEC, 5),
       (uint32_t)(D + RD_COND), 0, 0, 2);
    rp(0, 2, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_EVENT_WRITE, 2), 0x516);
    ring_write("compute-frame", FR_F_REGS | FR_F_EOP, 9, 0x1f0, 3, 0);
    /*
     * The KIQ (gfx_v9_0_kiq_kcq_enable, the KFD's HIQ map, the TLB
     * flush through the KIQ, a preemption and the queues' unmap)
     */
    rp(0, 8, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_RESOURCES, 8), 0, 0xff, 0,
       0, 0, 0, 0);
    rp(0, 7, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7), 1u << 29,
       0x6 << 2, (uint32_t)(D + RD_MQD), 0, (uint32_t)(D + RD_FENCE + 48), 0);
    rp(0, 7, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_QUERY_STATUS, 7), 0, 0,
       (uint32_t)(D + RD_FENCE + 56), 0, 5, 0);
    rp(0, 2, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INVALIDATE_TLBS, 2),
       1 | 0x8000 << 5 | 1 << 4);
    rp(0, 6, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_UNMAP_QUEUES, 6), 3 | 1u << 29,
       0x6 << 2, (uint32_t)(D + RD_FENCE), 0, 9);
    rp(0, 6, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_UNMAP_QUEUES, 6), 1u << 29,
       0x6 << 2, 0, 0, 0);
    ring_write("kiq", FR_F_REGS | FR_F_QUEUE, 10, 0, 0, 0);
    /* the same packets on a ring that is not a KIQ: refused */
    rp(0, 8, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_RESOURCES, 8), 0, 0xff, 0,
       0, 0, 0, 0);
    ring_write("not-kiq", FR_F_REGS, 10, 0, 0, 0);
    /*
     * Packets split across the write pointer (the rest comes later) and
     * wrapping around the ring's end: SET_CONFIG/CONTEXT_REG runs,
     * PM4 type-2 fillers, the clear state, a preamble
     */
    rp(0, 6, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_CONFIG_REG, 6),
       0x100, 1, 2, 3, 4);
    rp(0, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_CONTEXT_REG, 4), 0x10, 1, 2);
    rp(0, 2, 0x80000000, 0x80000000);
    rp(0, 2, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_CLEAR_STATE, 2), 0);
    rp(0, 2, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_PREAMBLE_CNTL, 2), 0x10000000);
    rp(0, 2, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_PFP_SYNC_ME, 2), 0);
    rp(0, 2, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_FRAME_CONTROL, 2), 0);
    rp(0, 3, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_BASE, 3), 0, 0);
    rp(0, 3, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3), scratch, 1);
    ring_write("wrap-partial", FR_F_REGS | FR_F_WPTR | FR_F_GFX_ME, 5, 25, 0,
               4);
    /* the same on a ring whose memory faults now and then */
    rp(1, 5, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5), 5 << 8,
       (uint32_t)(D + RD_FENCE + 8), 0, 1);
    rp(0, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4),
       (uint32_t)(D + RD_IB), 0, rib_len | HSAGPU_PM4_IB_VALID);
    rp_fence(0, D + RD_FENCE, 3);
    ring_write("faults", FR_F_REGS | FR_F_EOP | FR_F_MEM_FAIL |
               FR_F_VMID_ONLY, 6, 0, 0, 0);
}

/* ------------------------------------------------------------------ */
/* fuzz-vega10: register sequences of amdgpu (tests/unit/test-vega10*) */
/* ------------------------------------------------------------------ */

/*
 * System memory (bus addresses, identity below 256 KiB at reset): rings
 * of 256 dwords (CP) and 1 KiB (SDMA, IH), small to keep seeds small
 */
#define VS_GFX_RPTR     0x000
#define VS_KIQ_RPTR     0x010
#define VS_KCQ_RPTR     0x020
#define VS_KCQ_WPTR     0x030
#define VS_FENCE        0x100
#define VS_SDMA_RPTR    0x200
#define VS_SDMA_WPTR    0x208
#define VS_SDMA_WB      0x210
#define VS_IH_WB        0x300
#define VS_GFX_RING     0x400
#define VS_KIQ_RING     0x800
#define VS_KCQ_RING     0xc00
#define VS_KCQ_MQD      0x1000
#define VS_IB           0x1400
#define VS_SDMA_RING    0x1800
#define VS_IH_RING      0x1c00
#define VS_SYS_LEN      0x2000
/* past the seed's bytes: zeros in the system aperture (FV_SYS_SIZE) */
#define VS_CTX_AREA     0x8000
#define VS_CTX_SIZE     0x8000
#define VS_RING_CNTL    7       /* CP rings: 2^(7 + 1) dwords */
#define VS_RB_SIZE      8       /* SDMA and IH rings: 2^8 dwords */
/*
 * VRAM offsets: a flat GART table (its page 2 maps VRAM's first page),
 * VMID 8's four levels (tables of which only entries 0 and 1 are used,
 * so 64 bytes apart), a ring
 */
#define VS_GART         0x000
#define VS_PT_ROOT      0x100
#define VS_VRAM_RING    0x400
#define VS_VRAM_LEN     0x800
/* amdgpu's placement on this board (gmc_v9_0_vram_gtt_location) */
#define VS_FB_START     0xf400000000ULL
#define VS_AGP_START    0xf800000000ULL
#define VS_GART_END     ((512ULL << 20) - 1)
#define VS_PTE_SYS      (HSAGPU_PTE_VALID | HSAGPU_PTE_SYSTEM | \
                         HSAGPU_PTE_SNOOPED | HSAGPU_PTE_READABLE | \
                         HSAGPU_PTE_WRITEABLE | HSAGPU_PTE_EXECUTABLE)

static struct {
    uint8_t flags;
    uint8_t ops[0x4000];
    size_t ops_len;
    uint8_t sys[VS_SYS_LEN];
    uint8_t vram[VS_VRAM_LEN];
} vs;

static void vs_new(uint8_t flags)
{
    memset(&vs, 0, sizeof(vs));
    vs.flags = flags;
}

static void vs_op(unsigned op, uint8_t a, uint16_t b, uint32_t val)
{
    uint8_t *p = vs.ops + vs.ops_len;

    if (vs.ops_len + FV_OP_SIZE > sizeof(vs.ops)) {
        fprintf(stderr, "fuzz-seeds: vega10 seed too long\n");
        exit(1);
    }
    p[0] = op;
    p[1] = a;
    put16(p + 2, b);
    fuzz_put32(p + 4, val);
    vs.ops_len += FV_OP_SIZE;
}

/* (a, b) naming register @dw: its block's, else the raw number */
static void vs_reg(unsigned op, uint32_t dw, uint32_t val)
{
    for (unsigned i = 0; i < FV_NBLOCKS; i++) {
        if (dw >= fv_blocks[i].base &&
            dw - fv_blocks[i].base < fv_blocks[i].span) {
            vs_op(op, i, dw - fv_blocks[i].base, val);
            return;
        }
    }
    vs_op(op, FV_NBLOCKS + (dw >> 16), dw & 0xffff, val);
}

#define VW(dw, val)     vs_reg(FV_OP_WRITE, (dw), (val))
#define VR(dw)          vs_reg(FV_OP_READ, (dw), 0)

static void vs_sys32(uint64_t addr, uint32_t val)
{
    fuzz_put32(vs.sys + addr, val);
}

static void vs_vram64(uint64_t off, uint64_t val)
{
    put64(vs.vram + off, val);
}

/* Register @dw of the HQD block of the MQD at VS_KCQ_MQD */
static void vs_mqd(uint32_t dw, uint32_t val)
{
    vs_sys32(VS_KCQ_MQD + 4 * (V10_MQD_HQD_DW + dw - V10_HQD_FIRST), val);
}

/* Dwords at @addr (system memory) from *@w on */
static void vs_ring(uint64_t addr, uint32_t *w, unsigned n, ...)
{
    va_list ap;

    va_start(ap, n);
    for (unsigned i = 0; i < n; i++) {
        vs_sys32(addr + 4 * (*w)++, va_arg(ap, uint32_t));
    }
    va_end(ap);
}

/* A runlist's MAP_PROCESS (pm_map_process_v9) of @pasid with @nq queues */
static void vs_map_process(uint32_t *i, uint32_t pasid, uint32_t nq)
{
    vs_ring(VS_IB, i, 16, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_PROCESS, 16),
            pasid | 10u << 25, 0, 0, 0x20001, 0x1000, 0, 0, 0, 0, 0, 0, 0,
            nq << 22, 0, 0);
}

/* ... and a MAP_QUEUES of one @engine queue: its MQD and write pointer */
static void vs_map_queue(uint32_t *i, uint32_t engine, uint32_t doorbell,
                         uint64_t mqd, uint32_t wptr)
{
    vs_ring(VS_IB, i, 7, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7),
            1 << 4 | engine << 26 | 1u << 29, doorbell << 2, (uint32_t)mqd,
            (uint32_t)(mqd >> 32), wptr, 0);
}

static void vs_write(const char *name)
{
    size_t n = FV_HEAD_SIZE;

    memset(out, 0, FV_HEAD_SIZE);
    out[FV_H_FLAGS] = vs.flags;
    put16(out + FV_H_OPS_LEN, vs.ops_len);
    put16(out + FV_H_SYS_LEN, VS_SYS_LEN);
    memcpy(out + n, vs.ops, vs.ops_len);
    n += vs.ops_len;
    memcpy(out + n, vs.sys, VS_SYS_LEN);
    n += VS_SYS_LEN;
    memcpy(out + n, vs.vram, VS_VRAM_LEN);
    n += VS_VRAM_LEN;
    seed_write("vega10", name, out, n);
}

static uint32_t vs_grbm(unsigned me, unsigned pipe, unsigned queue,
                        unsigned vmid)
{
    return pipe | me << 2 | vmid << 4 | queue << 8;
}

/*
 * vega10_ih_irq_init with use_bus_addr and MSI: ring 0 of 4 KiB at
 * VS_IH_RING, write-back, the rptr doorbell, interrupts on
 */
static void vs_ih_init(void)
{
    uint32_t cntl = 1u << 28 | V10_IH_RB_CNTL_WPTR_OVERFLOW_CLEAR |
                    V10_IH_RB_CNTL_WPTR_OVERFLOW_ENABLE | VS_RB_SIZE << 1 |
                    V10_IH_RB_CNTL_WPTR_WRITEBACK_ENABLE |
                    V10_IH_RB_CNTL_MC_SNOOP | V10_IH_RB_CNTL_RPTR_REARM;

    VW(V10_IH_RB_BASE, VS_IH_RING >> 8);
    VW(V10_IH_RB_BASE_HI, 0);
    VW(V10_IH_RB_CNTL, cntl);
    VW(V10_IH_RB_WPTR_ADDR_LO, VS_IH_WB);
    VW(V10_IH_RB_WPTR_ADDR_HI, 0);
    VW(V10_IH_RB_WPTR, 0);
    VW(V10_IH_RB_RPTR, 0);
    VW(V10_IH_DOORBELL_RPTR, 0x30 | V10_IH_DOORBELL_RPTR_ENABLE);
    VW(V10_IH_VMID_0_LUT + 8, 0x8001);
    VW(V10_IH_RB_CNTL, (cntl & ~V10_IH_RB_CNTL_WPTR_OVERFLOW_CLEAR) |
       V10_IH_RB_CNTL_RB_ENABLE | V10_IH_RB_CNTL_ENABLE_INTR);
}

/* gfx_v9_0_cp_gfx_resume: the GFX ring at GPU address @ring */
static void vs_gfx_start(uint64_t ring, uint64_t rptr)
{
    VW(V10_CP_ME_CNTL, V10_CP_ME_HALTS);
    VW(V10_CP_RB0_CNTL, VS_RING_CNTL);
    VW(V10_CP_RB0_WPTR, 0);
    VW(V10_CP_RB0_WPTR_HI, 0);
    VW(V10_CP_RB0_RPTR_ADDR, (uint32_t)rptr);
    VW(V10_CP_RB0_RPTR_ADDR_HI, rptr >> 32);
    VW(V10_CP_RB0_BASE, (uint32_t)(ring >> 8));
    VW(V10_CP_RB0_BASE_HI, (uint32_t)(ring >> 40));
    VW(V10_CP_RB_DOORBELL_CONTROL, 0x116 << 2 | V10_DOORBELL_EN);
    VW(V10_CP_INT_CNTL_RING0, V10_CP_TIME_STAMP_INT_ENABLE);
    VW(V10_CP_ME_CNTL, 0);
}

/* The ring test, the IB test and fences on the GFX ring at @ring */
static uint32_t vs_gfx_packets(uint64_t ring_sys, uint64_t fence)
{
    uint32_t w = 0, i = 0;

    vs_ring(VS_IB, &i, 5, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WRITE_DATA, 5),
            5 << 8 | 1 << 20, (uint32_t)fence + 8, (uint32_t)(fence >> 32),
            0xdeadbeef);
    vs_ring(ring_sys, &w, 3, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3),
            V10_SCRATCH_REG0 - HSAGPU_PM4_UCONFIG_REG_START, 0xdeadbeef);
    vs_ring(ring_sys, &w, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INDIRECT_BUFFER, 4),
            VS_IB, 0, i);
    vs_ring(ring_sys, &w, 8, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RELEASE_MEM, 8),
            0x14 | 5 << 8,
            HSAGPU_PM4_DATA_32 << 29 | HSAGPU_PM4_INT_CONFIRMED << 24,
            (uint32_t)fence, (uint32_t)(fence >> 32), 7, 0, 7);
    return w;
}

/* An HQD programmed by MMIO (gfx_v9_0_kiq_init_register) */
static void vs_hqd(unsigned me, unsigned pipe, unsigned queue, uint64_t ring,
                   uint64_t rptr, uint32_t doorbell)
{
    VW(V10_GRBM_GFX_CNTL, vs_grbm(me, pipe, queue, 0));
    VW(V10_CP_HQD_PQ_BASE, ring >> 8);
    VW(V10_CP_HQD_PQ_CONTROL, VS_RING_CNTL);
    VW(V10_CP_HQD_PQ_RPTR_REPORT_ADDR, rptr);
    VW(V10_CP_HQD_PQ_DOORBELL_CONTROL, doorbell << 2 | V10_DOORBELL_EN);
    VW(V10_CP_HQD_PQ_WPTR_LO, 0);
    /* kgd_gfx_v9_hqd_load's one-shot write pointer read */
    VW(V10_CP_PQ_WPTR_POLL_CNTL1, 1u << (pipe * 8 + queue));
    VW(V10_CP_HQD_ACTIVE, 1);
    VW(V10_GRBM_GFX_CNTL, 0);
}

/*
 * gfxhub_v1_0_gart_enable / mmhub_v1_0_gart_enable on this board (6.1's
 * AGP aperture): a flat GART in VRAM, VMIDs 1-15 four levels deep, the
 * fault defaults and interrupts
 */
static void vs_gart(unsigned hub)
{
    uint32_t mc = hub ? V10_MMHUB_MC_DIST : 0, vm = hub ? V10_MMHUB_VM_DIST
                                                         : 0;
    uint32_t all = 0;

    VW(vm + V10_GFXHUB_CONTEXT0_BASE_LO32, VS_GART | HSAGPU_PTE_VALID);
    VW(vm + V10_GFXHUB_CONTEXT0_BASE_HI32, 0);
    VW(vm + V10_GFXHUB_CONTEXT0_START_LO32, 0);
    VW(vm + V10_GFXHUB_CONTEXT0_START_HI32, 0);
    VW(vm + V10_GFXHUB_CONTEXT0_END_LO32, VS_GART_END >> 12);
    VW(vm + V10_GFXHUB_CONTEXT0_END_HI32, 0);
    VW(mc + V10_GFXHUB_AGP_BASE, 0);
    VW(mc + V10_GFXHUB_AGP_BOT, VS_AGP_START >> 24);
    VW(mc + V10_GFXHUB_AGP_TOP, 0xffffff);
    VW(mc + V10_GFXHUB_SYSTEM_APERTURE_LOW, VS_FB_START >> 18);
    VW(mc + V10_GFXHUB_SYSTEM_APERTURE_HIGH, 0xffffffffffffULL >> 18);
    VW(mc + V10_GFXHUB_SYSTEM_DEFAULT_LSB, 7);
    VW(vm + V10_GFXHUB_FAULT_DEFAULT_LO32, 3);
    VW(vm + V10_GFXHUB_CONTEXT0_CNTL, (V10_CTX_CNTL_RESET &
       ~V10_CTX_CNTL_RETRY_PERM_INVALID) | V10_CTX_CNTL_ENABLE);
    for (unsigned c = V10_FAULT_CLASS_RANGE; c <= V10_FAULT_CLASS_EXECUTE;
         c++) {
        all |= V10_CTX_CNTL_DEFAULT(c) | V10_CTX_CNTL_INT(c);
    }
    for (unsigned n = 1; n < 16; n++) {
        VW(vm + V10_GFXHUB_CONTEXT0_CNTL + n, V10_CTX_CNTL_ENABLE |
           3 << V10_CTX_CNTL_DEPTH_SHIFT | all);
        VW(vm + V10_GFXHUB_CONTEXT0_START_LO32 + 2 * n, 0);
        VW(vm + V10_GFXHUB_CONTEXT0_END_LO32 + 2 * n, 0xffffffff);
        VW(vm + V10_GFXHUB_CONTEXT0_END_HI32 + 2 * n, 0xf);
    }
    VW(vm + V10_GFXHUB_FAULT_CNTL, V10_FAULT_CNTL_RESET);
}

/*
 * The GART's entries: pages 0 and 1 map the system memory image one to
 * one (GPU addresses are bus addresses there), page 2 VRAM's first
 * page; the others are invalid
 */
static void vs_gart_ptes(void)
{
    vs_vram64(VS_GART, 0 | VS_PTE_SYS);
    vs_vram64(VS_GART + 8, 0x1000 | VS_PTE_SYS);
    vs_vram64(VS_GART + 16, 0 | HSAGPU_PTE_VALID | HSAGPU_PTE_READABLE |
              HSAGPU_PTE_WRITEABLE);
}

static void vega10_seeds(void)
{
    uint32_t w, k;
    const uint32_t sdma = hsagpu_v10_sdma_reg(0, 0, 0);

    /* The GFX ring, with the IH taking its fences' interrupts */
    vs_new(0);
    vs_ih_init();
    vs_gfx_start(VS_GFX_RING, VS_GFX_RPTR);
    VW(V10_SCRATCH_REG0, 0xcafedead);
    w = vs_gfx_packets(VS_GFX_RING, VS_FENCE);
    vs_op(FV_OP_DOORBELL, 0, 0x116, w);
    vs_op(FV_OP_PASS, 0, 63, 0);
    VR(V10_SCRATCH_REG0);
    VR(V10_CP_RB0_RPTR);
    vs_op(FV_OP_DOORBELL, 0, 0x30, 0x20);
    vs_op(FV_OP_DOORBELL, 0, 0x116, w + 3);
    vs_op(FV_OP_PASS, 0, 63, 0);
    VW(V10_CP_ME_CNTL, V10_CP_ME_HALTS);
    vs_write("gfx-ring");

    /*
     * The KIQ (RLC_CP_SCHEDULERS, its HQD by MMIO), a KCQ mapped from
     * its MQD, the KCQ's ring test and fence, then its unmap, a TLB
     * flush and a query through the KIQ, a dequeue
     */
    vs_new(0);
    vs_ih_init();
    VW(V10_RLC_CP_SCHEDULERS, 2 << 5 | 1 << 3 | 7 | 0x80);
    vs_hqd(2, 1, 7, VS_KIQ_RING, VS_KIQ_RPTR, 0);
    vs_mqd(V10_CP_HQD_ACTIVE, 1);
    vs_mqd(V10_CP_HQD_PQ_BASE, VS_KCQ_RING >> 8);
    vs_mqd(V10_CP_HQD_PQ_CONTROL, VS_RING_CNTL);
    vs_mqd(V10_CP_HQD_PQ_RPTR_REPORT_ADDR, VS_KCQ_RPTR);
    w = k = 0;
    vs_ring(VS_KIQ_RING, &w, 8,
            HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_RESOURCES, 8), 0, 0xff, 0, 0,
            0, 0, 0);
    vs_ring(VS_KIQ_RING, &w, 7, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7),
            1u << 29, 0x6 << 2, VS_KCQ_MQD, 0, VS_KCQ_WPTR, 0);
    vs_op(FV_OP_DOORBELL, 0, 0, w);
    vs_op(FV_OP_PASS, 0, 63, 0);
    VW(V10_CP_ME1_PIPE0_INT_CNTL, V10_CP_TIME_STAMP_INT_ENABLE);
    vs_ring(VS_KCQ_RING, &k, 3,
            HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_UCONFIG_REG, 3),
            V10_SCRATCH_REG0 + 1 - HSAGPU_PM4_UCONFIG_REG_START, 0x600d);
    /*
     * gmc_v9_0_emit_flush_gpu_tlb on a compute ring: the request written,
     * its acknowledgement waited for; a register copied to memory, the
     * GPU clock in a fence
     */
    vs_ring(VS_KCQ_RING, &k, 7, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_WAIT_REG_MEM, 7),
            HSAGPU_PM4_FUNC_EQ | HSAGPU_PM4_WAIT_WRITE_FIRST,
            V10_GFXHUB_INV_ENG0_SEM + V10_HUB_INV_REQ + 17,
            V10_GFXHUB_INV_ENG0_SEM + V10_HUB_INV_ACK + 17, 1 << 8, 1 << 8,
            0x20);
    vs_ring(VS_KCQ_RING, &k, 6, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_COPY_DATA, 6),
            HSAGPU_PM4_SEL_REG | HSAGPU_PM4_SEL_MEM << 8,
            V10_SCRATCH_REG0 + 1, 0, VS_FENCE + 0x20, 0);
    vs_ring(VS_KCQ_RING, &k, 8, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RELEASE_MEM, 8),
            0x14 | 5 << 8, HSAGPU_PM4_DATA_GPU_CLOCK << 29, VS_FENCE + 0x28,
            0, 0, 0, 0);
    vs_ring(VS_KCQ_RING, &k, 8, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RELEASE_MEM, 8),
            0x14 | 5 << 8,
            HSAGPU_PM4_DATA_32 << 29 | HSAGPU_PM4_INT_CONFIRMED << 24,
            VS_FENCE, 0, 9, 0, 9);
    vs_op(FV_OP_DOORBELL, 0, 6, k);
    vs_op(FV_OP_PASS, 0, 63, 0);
    vs_ring(VS_KIQ_RING, &w, 7,
            HSAGPU_PM4_HDR(HSAGPU_PM4_OP_QUERY_STATUS, 7), 0, 0,
            VS_FENCE + 0x10, 0, 5, 0);
    vs_ring(VS_KIQ_RING, &w, 2,
            HSAGPU_PM4_HDR(HSAGPU_PM4_OP_INVALIDATE_TLBS, 2),
            1 | 0x8001 << 5 | 1 << 4);
    vs_ring(VS_KIQ_RING, &w, 6,
            HSAGPU_PM4_HDR(HSAGPU_PM4_OP_UNMAP_QUEUES, 6), 1u << 29,
            6 << 2, 0, 0, 0);
    vs_op(FV_OP_DOORBELL, 0, 0, w);
    vs_op(FV_OP_PASS, 0, 63, 0);
    VW(V10_GRBM_GFX_CNTL, vs_grbm(1, 0, 0, 0));
    VR(V10_CP_HQD_ACTIVE);
    VR(V10_CP_HQD_PQ_RPTR);
    VW(V10_CP_HQD_ACTIVE, 1);
    VW(V10_CP_HQD_DEQUEUE_REQUEST, 1);
    VW(V10_GRBM_GFX_CNTL, 0);
    vs_write("kiq-map");

    /*
     * amdkfd's hardware scheduler: the KIQ maps the HIQ (engine 1) from
     * its MQD; on the HIQ, SET_RESOURCES, a runlist of one process with
     * an AQL queue and an SDMA queue, a query, the process preempted by
     * PASID, the runlist again, everything reset (vega10-hws.c)
     */
    vs_new(0);
    vs_ih_init();
    VW(V10_RLC_CP_SCHEDULERS, 2 << 5 | 1 << 3 | 7 | 0x80);
    vs_hqd(2, 1, 7, VS_KIQ_RING, VS_KIQ_RPTR, 0);
    vs_mqd(V10_CP_HQD_PQ_BASE, VS_KCQ_RING >> 8);
    vs_mqd(V10_CP_HQD_PQ_CONTROL, VS_RING_CNTL);
    vs_mqd(V10_CP_HQD_PQ_RPTR_REPORT_ADDR, VS_KCQ_RPTR);
    w = k = 0;
    vs_ring(VS_KIQ_RING, &w, 7, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_MAP_QUEUES, 7),
            2 << 13 | HSAGPU_PM4_ENGINE_HIQ << 26 | 1u << 29, 0x6 << 2,
            VS_KCQ_MQD, 0, 0, 0);
    vs_op(FV_OP_DOORBELL, 0, 0, w);
    vs_op(FV_OP_PASS, 0, 63, 0);
    /* the process's AQL queue (MQD at VS_SDMA_RING), its SDMA queue's */
    vs_sys32(VS_SDMA_RING + 4 * (V10_MQD_HQD_DW + V10_CP_HQD_PQ_BASE -
                                 V10_HQD_FIRST), VS_GFX_RING >> 8);
    vs_sys32(VS_SDMA_RING + 4 * (V10_MQD_HQD_DW + V10_CP_HQD_PQ_CONTROL -
                                 V10_HQD_FIRST), VS_RING_CNTL);
    vs_sys32(VS_SDMA_RING + 4 * (V10_MQD_HQD_DW +
                                 V10_CP_HQD_PQ_RPTR_REPORT_ADDR -
                                 V10_HQD_FIRST), 0x40);
    vs_sys32(VS_SDMA_RING + 4 * (V10_MQD_HQD_DW + V10_CP_HQD_AQL_CONTROL -
                                 V10_HQD_FIRST), 1);
    vs_sys32(VS_IH_RING + 4 * V10_SDMA_MQD_RB_CNTL, VS_RB_SIZE << 1);
    vs_sys32(VS_IH_RING + 4 * V10_SDMA_MQD_RB_BASE, VS_GFX_RING >> 8);
    vs_sys32(VS_IH_RING + 4 * V10_SDMA_MQD_RB_RPTR_ADDR_LO, 0x60);
    {
        uint32_t i = 0;

        vs_map_process(&i, 0x8001, 2);
        vs_map_queue(&i, HSAGPU_PM4_ENGINE_COMPUTE, 0x400, VS_SDMA_RING, 0x48);
        vs_map_queue(&i, HSAGPU_PM4_ENGINE_SDMA1, 0x402, VS_IH_RING, 0x68);
        vs_ring(VS_KCQ_RING, &k, 8,
                HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_RESOURCES, 8),
                0xff00 | 1u << 29, 0xffffff7b, 0, 0, 0, 0, 0);
        vs_ring(VS_KCQ_RING, &k, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RUN_LIST, 4),
                VS_IB, 0, i | HSAGPU_PM4_RL_VALID | 1 << 24);
        vs_ring(VS_KCQ_RING, &k, 7,
                HSAGPU_PM4_HDR(HSAGPU_PM4_OP_QUERY_STATUS, 7), 2u << 30, 0,
                VS_FENCE, 0, 1, 0);
        vs_op(FV_OP_DOORBELL, 0, 6, k);
        vs_op(FV_OP_PASS, 0, 63, 0);
        vs_op(FV_OP_DOORBELL, 0, 0x400, 1);
        vs_op(FV_OP_PASS, 0, 63, 0);
        vs_ring(VS_KCQ_RING, &k, 6,
                HSAGPU_PM4_HDR(HSAGPU_PM4_OP_UNMAP_QUEUES, 6),
                HSAGPU_PM4_UQ_BY_PASID << 4 | 1u << 29, 0x8001, 0, 0, 0);
        vs_ring(VS_KCQ_RING, &k, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RUN_LIST, 4),
                VS_IB, 0, i | HSAGPU_PM4_RL_VALID | 1 << 24);
        vs_ring(VS_KCQ_RING, &k, 6,
                HSAGPU_PM4_HDR(HSAGPU_PM4_OP_UNMAP_QUEUES, 6),
                HSAGPU_PM4_UQ_RESET | HSAGPU_PM4_UQ_ALL << 4 | 1u << 29, 0,
                0, 0, 0);
        vs_ring(VS_KCQ_RING, &k, 7,
                HSAGPU_PM4_HDR(HSAGPU_PM4_OP_QUERY_STATUS, 7), 2u << 30, 0,
                VS_FENCE, 0, 2, 0);
        vs_op(FV_OP_DOORBELL, 0, 6, k);
        vs_op(FV_OP_PASS, 0, 63, 0);
        /*
         * oversubscribed: one VMID, two processes (at VS_IB + 0x200) of
         * one AQL queue each; the quantum ends twice (FV_OP_PASS a = 1)
         */
        i = 0x80;
        vs_map_process(&i, 0x8001, 1);
        vs_map_queue(&i, HSAGPU_PM4_ENGINE_COMPUTE, 0x400, VS_SDMA_RING, 0x48);
        vs_map_process(&i, 0x8002, 1);
        vs_map_queue(&i, HSAGPU_PM4_ENGINE_COMPUTE, 0x404, VS_SDMA_RING, 0x58);
        vs_ring(VS_KCQ_RING, &k, 8,
                HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_RESOURCES, 8),
                0x0100 | 1u << 29, 0xffffff7b, 0, 0, 0, 0, 0);
        vs_ring(VS_KCQ_RING, &k, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_RUN_LIST, 4),
                VS_IB + 0x200, 0, (i - 0x80) | HSAGPU_PM4_RL_VALID | 1 << 24);
        vs_op(FV_OP_DOORBELL, 0, 6, k);
        vs_op(FV_OP_PASS, 0, 63, 0);
        vs_op(FV_OP_PASS, 1, 63, 0);
        vs_op(FV_OP_PASS, 1, 63, 0);
    }
    vs_write("hws-runlist");

    /*
     * A compute queue's DISPATCH_DIRECT (vega10-dispatch.c): SET_SH_REG
     * of the program (at VS_IB: each work-item stores its global id at
     * s[0:1] + 4 x id), its resources and grid, 2 workgroups of 64
     */
    vs_new(FV_F_BUS);
    vs_ih_init();
    /* a process's queue (VMID 3; the CP's addresses are the bus's) */
    VW(V10_GRBM_GFX_CNTL, vs_grbm(1, 0, 0, 0));
    VW(V10_CP_HQD_VMID, 3);
    VW(V10_GRBM_GFX_CNTL, 0);
    vs_hqd(1, 0, 0, VS_KCQ_RING, VS_KCQ_RPTR, 6);
    {
        static const uint32_t code[] = {
            0x8e038602, 0x68020003, 0x24040282, 0x7e060201, 0x32040400,
            0xd11c6a03, 0x01a90103, 0xdc700000, 0x00000102, 0xbf8c0070,
            0xbf810000,
        };

        for (unsigned i = 0; i < sizeof(code) / 4; i++) {
            vs_sys32(VS_IB + 4 * i, code[i]);
        }
    }
    k = 0;
    vs_ring(VS_KCQ_RING, &k, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_SH_REG, 4),
            V10_COMPUTE_PGM_LO - HSAGPU_PM4_SH_REG_START, VS_IB >> 8, 0);
    vs_ring(VS_KCQ_RING, &k, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_SH_REG, 4),
            V10_COMPUTE_PGM_RSRC1 - HSAGPU_PM4_SH_REG_START, 0x000f0000,
            2 << 1 | 1 << 7);
    vs_ring(VS_KCQ_RING, &k, 5, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_SH_REG, 5),
            V10_COMPUTE_NUM_THREAD_X - HSAGPU_PM4_SH_REG_START, 64, 1, 1);
    vs_ring(VS_KCQ_RING, &k, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_SH_REG, 4),
            V10_COMPUTE_USER_DATA_0 - HSAGPU_PM4_SH_REG_START, VS_FENCE, 0);
    vs_ring(VS_KCQ_RING, &k, 5,
            HSAGPU_PM4_HDR(HSAGPU_PM4_OP_DISPATCH_DIRECT, 5), 2, 1, 1,
            HSAGPU_PM4_DI_ENABLE);
    vs_op(FV_OP_DOORBELL, 0, 6, k);
    vs_op(FV_OP_PASS, 0, 63, 0);
    vs_op(FV_OP_PASS, 0, 63, 0);
    /*
     * ... then 3,000 workgroups of 1,024 work-items (40 s_nops each),
     * preempted part-done with a context save area and loaded again as kgd_gfx_v9_hqd_destroy/_load do
     * (vega10-ctx.c): the record is written, read back and checked
     */
    VW(V10_GRBM_GFX_CNTL, vs_grbm(1, 0, 0, 0));
    VW(V10_CP_MQD_BASE_ADDR, VS_KCQ_MQD);
    VW(V10_CP_HQD_CTX_SAVE_BASE_ADDR, VS_CTX_AREA);
    VW(V10_CP_HQD_CNTL_STACK_SIZE, 0x100);
    VW(V10_CP_HQD_WG_STATE_OFFSET, 0x100);
    VW(V10_CP_HQD_CTX_SAVE_SIZE, VS_CTX_SIZE);
    VW(V10_GRBM_GFX_CNTL, 0);
    for (unsigned i = 0; i < 40; i++) {
        vs_sys32(VS_IB + 0x100 + 4 * i, 0xbf800000);   /* s_nop 0 */
    }
    vs_sys32(VS_IB + 0x100 + 4 * 40, 0xbf810000);      /* s_endpgm */
    vs_ring(VS_KCQ_RING, &k, 4, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_SH_REG, 4),
            V10_COMPUTE_PGM_LO - HSAGPU_PM4_SH_REG_START,
            (VS_IB + 0x100) >> 8, 0);
    vs_ring(VS_KCQ_RING, &k, 5, HSAGPU_PM4_HDR(HSAGPU_PM4_OP_SET_SH_REG, 5),
            V10_COMPUTE_NUM_THREAD_X - HSAGPU_PM4_SH_REG_START, 1024, 1, 1);
    vs_ring(VS_KCQ_RING, &k, 5,
            HSAGPU_PM4_HDR(HSAGPU_PM4_OP_DISPATCH_DIRECT, 5), 3000, 1, 1,
            HSAGPU_PM4_DI_ENABLE);
    vs_op(FV_OP_DOORBELL, 0, 6, k);
    vs_op(FV_OP_PASS, 0, 4, 0);
    VW(V10_GRBM_GFX_CNTL, vs_grbm(1, 0, 0, 0));
    VW(V10_CP_HQD_DEQUEUE_REQUEST, 1);
    VW(V10_CP_HQD_ACTIVE, 1);
    VW(V10_GRBM_GFX_CNTL, 0);
    vs_op(FV_OP_PASS, 0, 63, 0);
    vs_write("pm4-dispatch");

    /*
     * The GART: both hubs as amdgpu sets them up, a flat table in VRAM
     * (vs_gart_ptes), VMID 8's four levels; translations through the FB
     * and AGP apertures, the GART, VMID 8 and faults (page 0 of the
     * GART, VMID 8's missing pages); the GFX ring then runs from its
     * GART address
     */
    vs_new(0);
    vs_ih_init();
    vs_gart(V10_GFXHUB);
    vs_gart(V10_MMHUB);
    vs_gart_ptes();
    vs_vram64(VS_PT_ROOT, (VS_PT_ROOT + 0x40) | HSAGPU_PTE_VALID);
    vs_vram64(VS_PT_ROOT + 0x40, (VS_PT_ROOT + 0x80) | HSAGPU_PTE_VALID);
    vs_vram64(VS_PT_ROOT + 0x80, (VS_PT_ROOT + 0xc0) | HSAGPU_PTE_VALID);
    vs_vram64(VS_PT_ROOT + 0xc0, 0 | VS_PTE_SYS);
    vs_vram64(VS_PT_ROOT + 0xc8, 0x1000 | HSAGPU_PTE_VALID |
              HSAGPU_PTE_SYSTEM | HSAGPU_PTE_READABLE);
    VW(V10_GFXHUB_CONTEXT0_BASE_LO32 + 16, VS_PT_ROOT | HSAGPU_PTE_VALID);
    vs_op(FV_OP_XLAT, V10_GFXHUB | 0 << 1, 0, 0x10);
    vs_op(FV_OP_XLAT, V10_GFXHUB | 0 << 1, 0, 0x1008);
    vs_op(FV_OP_XLAT, V10_GFXHUB | 0 << 1 | 1 << 6, 0, 0x2010);
    vs_op(FV_OP_XLAT, V10_GFXHUB | 0 << 1, 0, 0x5000);
    vs_op(FV_OP_XLAT, V10_GFXHUB | 0 << 1, 0, 0x20000000);
    vs_op(FV_OP_XLAT, V10_MMHUB | 0 << 1, VS_FB_START >> 32, 0x1000);
    vs_op(FV_OP_XLAT, V10_MMHUB | 0 << 1, VS_AGP_START >> 32, 0x1000);
    vs_op(FV_OP_XLAT, V10_GFXHUB | 8 << 1, 0, 0x1000);
    vs_op(FV_OP_XLAT, V10_GFXHUB | 8 << 1 | 1 << 6, 0, 0x1000);
    vs_op(FV_OP_XLAT, V10_GFXHUB | 8 << 1 | 3u << 6, 0, 0x2000);
    vs_op(FV_OP_XLAT, V10_MMHUB | 8 << 1, 0, 0x1000);
    VR(V10_GFXHUB_FAULT_STATUS);
    VR(V10_GFXHUB_FAULT_ADDR_LO32);
    VW(V10_GFXHUB_FAULT_CNTL, V10_FAULT_CNTL_RESET | V10_FAULT_CNTL_CLEAR);
    VR(V10_GFXHUB_INV_ENG0_SEM + 17);
    VW(V10_GFXHUB_INV_ENG0_SEM + V10_HUB_INV_REQ + 17, 1 << 8 | 0x7c0000 |
       V10_HUB_INV_REQ_CLEAR_FAULT);
    VR(V10_GFXHUB_INV_ENG0_SEM + V10_HUB_INV_ACK + 17);
    VW(V10_GFXHUB_INV_ENG0_SEM + 17, 0);
    vs_gfx_start(VS_GFX_RING, VS_GFX_RPTR);
    w = vs_gfx_packets(VS_GFX_RING, VS_FENCE);
    vs_op(FV_OP_DOORBELL, 0, 0x116, w);
    vs_op(FV_OP_PASS, 0, 63, 0);
    vs_write("gart");

    /* The GFX ring in VRAM, through the FB aperture */
    vs_new(0);
    vs_gart(V10_GFXHUB);
    vs_gart_ptes();
    w = vs_gfx_packets(VS_GFX_RING, VS_FENCE);
    memcpy(vs.vram + VS_VRAM_RING, vs.sys + VS_GFX_RING, 4 * w);
    vs_gfx_start(VS_FB_START + VS_VRAM_RING, VS_FB_START + 0x300);
    vs_op(FV_OP_DOORBELL, 0, 0x116, w);
    vs_op(FV_OP_PASS, 0, 63, 0);
    vs_write("gfx-ring-vram");

    /*
     * The IH: entries until the ring overflows, the driver's rptr
     * doorbell and OVERFLOW_CLEAR, then the ring as a GPU address
     * (MC_SPACE 0) through the MMHUB
     */
    vs_new(0);
    vs_ih_init();
    for (unsigned i = 0; i < 34; i++) {
        vs_op(FV_OP_IH_PUSH, V10_IV_CLIENT_GRBM_CP,
              V10_IV_SRC_CP_EOP | (i & 7) << 8, i << 8 | (i % 16));
    }
    VR(V10_IH_RB_WPTR);
    vs_op(FV_OP_DOORBELL, 0, 0x30, 0x200);
    VW(V10_IH_RB_CNTL, 1u << 28 | V10_IH_RB_CNTL_WPTR_OVERFLOW_CLEAR |
       V10_IH_RB_CNTL_WPTR_OVERFLOW_ENABLE | VS_RB_SIZE << 1 |
       V10_IH_RB_CNTL_WPTR_WRITEBACK_ENABLE | V10_IH_RB_CNTL_RPTR_REARM |
       V10_IH_RB_CNTL_RB_ENABLE | V10_IH_RB_CNTL_ENABLE_INTR);
    VW(V10_IH_RB_RPTR, 0x3e0);
    vs_op(FV_OP_IH_PUSH, V10_IV_CLIENT_SDMA0, V10_IV_SRC_SDMA_TRAP, 0x18);
    VW(V10_IH_RB_CNTL, 0 << 28 | 3 << 24 | VS_RB_SIZE << 1 |
       V10_IH_RB_CNTL_WPTR_WRITEBACK_ENABLE | V10_IH_RB_CNTL_RB_ENABLE |
       V10_IH_RB_CNTL_ENABLE_INTR);
    vs_op(FV_OP_IH_PUSH, V10_IV_CLIENT_VMC, 0, 0x1);
    VW(V10_IH_DOORBELL_RPTR_RING1, 0x32 | V10_IH_DOORBELL_RPTR_ENABLE);
    vs_op(FV_OP_DOORBELL, 0, 0x32, 0x40);
    vs_write("ih");

    /*
     * SDMA0's GFX queue as sdma_v4_0_gfx_resume starts it: the ring test
     * (WRITE), a fence, a trap into the IH, an SRBM_WRITE and a register
     * poll, published through the write pointer in memory and the
     * doorbell; SDMA1's PAGE queue started and stopped
     */
    vs_new(0);
    vs_ih_init();
    VW(sdma + V10_SDMA_RB_CNTL, VS_RB_SIZE << 1);
    VW(sdma + V10_SDMA_RB_RPTR, 0);
    VW(sdma + V10_SDMA_RB_RPTR_ADDR_HI, 0);
    VW(sdma + V10_SDMA_RB_RPTR_ADDR_LO, VS_SDMA_RPTR);
    VW(sdma + V10_SDMA_RB_BASE, VS_SDMA_RING >> 8);
    VW(sdma + V10_SDMA_RB_BASE + 1, 0);
    VW(sdma + V10_SDMA_DOORBELL_OFFSET, 0x1e0 << 2);
    VW(sdma + V10_SDMA_DOORBELL, V10_SDMA_DOORBELL_ENABLE);
    VW(sdma + V10_SDMA_RB_WPTR_POLL_ADDR_LO, VS_SDMA_WPTR);
    VW(sdma + V10_SDMA_RB_CNTL, VS_RB_SIZE << 1 | 1);
    VW(V10_SDMA0_F32_CNTL, 0);
    w = 0;
    vs_ring(VS_SDMA_RING, &w, 5, HSAGPU_SDMA_OP_WRITE, VS_SDMA_WB, 0, 0,
            0xdeadbeef);
    vs_ring(VS_SDMA_RING, &w, 4, HSAGPU_SDMA_OP_FENCE, VS_FENCE, 0, 1);
    vs_ring(VS_SDMA_RING, &w, 2, HSAGPU_SDMA_OP_TRAP, 0);
    vs_ring(VS_SDMA_RING, &w, 3, HSAGPU_SDMA_OP_SRBM_WRITE | 0xfu << 28,
            V10_SCRATCH_REG0, 1);
    vs_ring(VS_SDMA_RING, &w, 6, HSAGPU_SDMA_OP_POLL_REGMEM | 3u << 28,
            V10_SCRATCH_REG0 << 2, 0, 1, 1, 0x0fff000a);
    vs_ring(VS_SDMA_RING, &w, 3, HSAGPU_SDMA_OP_SRBM_WRITE | 0xfu << 28,
            V10_CP_ME_CNTL, V10_CP_ME_HALTS);
    vs_sys32(VS_SDMA_WPTR, 4 * w);
    vs_op(FV_OP_DOORBELL, 0, 0x1e0, 4 * w);
    vs_op(FV_OP_SDMA, 0, 31, 0);
    vs_op(FV_OP_SDMA, 0, 31, 0);
    VR(sdma + V10_SDMA_RB_RPTR);
    VR(V10_SDMA0_STATUS_REG);
    VW(hsagpu_v10_sdma_reg(1, 1, V10_SDMA_RB_CNTL), VS_RB_SIZE << 1);
    VW(hsagpu_v10_sdma_reg(1, 1, V10_SDMA_RB_RPTR_ADDR_LO), VS_SDMA_RPTR + 16);
    VW(hsagpu_v10_sdma_reg(1, 1, V10_SDMA_RB_BASE), VS_SDMA_RING >> 8);
    VW(hsagpu_v10_sdma_reg(1, 1, V10_SDMA_DOORBELL_OFFSET), 0x1e4 << 2);
    VW(hsagpu_v10_sdma_reg(1, 1, V10_SDMA_DOORBELL),
       V10_SDMA_DOORBELL_ENABLE);
    VW(hsagpu_v10_sdma_reg(1, 1, V10_SDMA_RB_WPTR_POLL_ADDR_LO),
       VS_SDMA_WPTR + 16);
    VW(hsagpu_v10_sdma_reg(1, 1, V10_SDMA_RB_CNTL), VS_RB_SIZE << 1 | 1);
    vs_op(FV_OP_SDMA, 5, 31, 0);
    VW(V10_SDMA0_F32_CNTL + V10_SDMA_ENGINE_STRIDE, 1);
    vs_op(FV_OP_RESET, 0, 0, 0);
    vs_write("sdma");

    /*
     * amdkfd's SDMA queues without the scheduler: SDMA0's RLC0 loaded as
     * kgd_hqd_sdma_load does (no write pointer in memory: the doorbell's
     * 64-bit value is it), a fence and a trap run; RB_RPTR and
     * CONTEXT_STATUS as it runs, the write pointer held by
     * MINOR_PTR_UPDATE; destroyed as kgd_hqd_sdma_destroy does and
     * loaded again from where it stopped; then a doorbell value it
     * refuses, a 4-byte doorbell, a ring size past the largest, SDMA1's
     * RLC1 with a doorbell outside BAR2, a reset
     */
    vs_new(0);
    vs_ih_init();
    {
        const uint32_t rlc = hsagpu_v10_sdma_reg(0, V10_SDMA_QUEUE_RLC0, 0);
        const uint32_t rlc1 = hsagpu_v10_sdma_reg(1, V10_SDMA_QUEUE_RLC0 + 1,
                                                  0);
        const unsigned qi = V10_SDMA_QUEUE_RLC0;

        VW(V10_SDMA0_F32_CNTL, 0);
        VW(rlc + V10_SDMA_RB_CNTL, VS_RB_SIZE << 1 | 1 << 12 | 6 << 16);
        VR(rlc + V10_SDMA_CONTEXT_STATUS);
        VW(rlc + V10_SDMA_DOORBELL_OFFSET, 0x1804 << 2);
        VW(rlc + V10_SDMA_DOORBELL, V10_SDMA_DOORBELL_ENABLE);
        VW(rlc + V10_SDMA_RB_RPTR, 0);
        VW(rlc + V10_SDMA_RB_RPTR + 1, 0);
        VW(rlc + V10_SDMA_MINOR_PTR_UPDATE, 1);
        VW(rlc + V10_SDMA_RB_WPTR, 0);
        VW(rlc + V10_SDMA_RB_WPTR + 1, 0);
        VW(rlc + V10_SDMA_MINOR_PTR_UPDATE, 0);
        VW(rlc + V10_SDMA_RB_BASE, VS_SDMA_RING >> 8);
        VW(rlc + V10_SDMA_RB_BASE + 1, 0);
        VW(rlc + V10_SDMA_RB_RPTR_ADDR_LO, VS_SDMA_RPTR);
        VW(rlc + V10_SDMA_RB_RPTR_ADDR_HI, 0);
        VW(rlc + V10_SDMA_RB_CNTL, VS_RB_SIZE << 1 | 1 << 12 | 6 << 16 | 1);
        w = 0;
        vs_ring(VS_SDMA_RING, &w, 4, HSAGPU_SDMA_OP_FENCE, VS_FENCE, 0, 1);
        vs_ring(VS_SDMA_RING, &w, 2, HSAGPU_SDMA_OP_TRAP, 7);
        vs_ring(VS_SDMA_RING, &w, 4, HSAGPU_SDMA_OP_FENCE, VS_FENCE, 0, 2);
        vs_op(FV_OP_DOORBELL, 0, 0x1804, 4 * 6);
        vs_op(FV_OP_SDMA, qi, 31, 0);
        VR(rlc + V10_SDMA_RB_RPTR);
        VR(rlc + V10_SDMA_RB_RPTR + 1);
        VR(rlc + V10_SDMA_CONTEXT_STATUS);
        VW(rlc + V10_SDMA_MINOR_PTR_UPDATE, 1);
        VW(rlc + V10_SDMA_RB_WPTR, 4 * w);
        VW(rlc + V10_SDMA_MINOR_PTR_UPDATE, 0);
        vs_op(FV_OP_SDMA, qi, 31, 0);
        /* destroyed, and loaded again from RB_RPTR */
        VW(rlc + V10_SDMA_RB_CNTL, VS_RB_SIZE << 1 | 1 << 12 | 6 << 16);
        VR(rlc + V10_SDMA_CONTEXT_STATUS);
        VW(rlc + V10_SDMA_DOORBELL, 0);
        VW(rlc + V10_SDMA_RB_CNTL, VS_RB_SIZE << 1 | 1 << 12 | 6 << 16 | 1);
        VR(rlc + V10_SDMA_RB_RPTR);
        vs_op(FV_OP_DOORBELL, 0, 0x1804, 4 * w);
        VW(rlc + V10_SDMA_RB_CNTL, VS_RB_SIZE << 1 | 1 << 12 | 6 << 16);
        VW(rlc + V10_SDMA_DOORBELL, V10_SDMA_DOORBELL_ENABLE);
        VW(rlc + V10_SDMA_RB_CNTL, VS_RB_SIZE << 1 | 1 << 12 | 6 << 16 | 1);
        vs_ring(VS_SDMA_RING, &w, 4, HSAGPU_SDMA_OP_FENCE, VS_FENCE, 0, 3);
        vs_op(FV_OP_DOORBELL, 0, 0x1804, 4 * w);
        vs_op(FV_OP_SDMA, qi, 31, 0);
        /* what the queue cannot take */
        vs_op(FV_OP_DOORBELL, 0, 0x1804, 4 * w + 2);
        vs_op(FV_OP_SDMA, qi, 31, 0);
        vs_op(FV_OP_DOORBELL, 0x20, 0x1804, 4 * w);
        VW(rlc + V10_SDMA_RB_CNTL, 40 << 1 | 1);
        VW(V10_SDMA0_F32_CNTL + V10_SDMA_ENGINE_STRIDE, 0);
        VW(rlc1 + V10_SDMA_RB_RPTR_ADDR_LO, VS_SDMA_RPTR + 16);
        VW(rlc1 + V10_SDMA_RB_BASE, VS_SDMA_RING >> 8);
        VW(rlc1 + V10_SDMA_DOORBELL_OFFSET, 0x90000 << 2);
        VW(rlc1 + V10_SDMA_DOORBELL, V10_SDMA_DOORBELL_ENABLE);
        VW(rlc1 + V10_SDMA_RB_CNTL, VS_RB_SIZE << 1 | 1);
        VW(rlc1 + V10_SDMA_DOORBELL_OFFSET, 0x1806 << 2);
        vs_op(FV_OP_DOORBELL, 0, 0x1806, 16);
        vs_op(FV_OP_SDMA, 7, 31, 0);
        vs_op(FV_OP_RESET, 0, 0, 0);
        vs_op(FV_OP_DOORBELL, 0, 0x1806, 16);
    }
    vs_write("sdma-rlc");

    /*
     * Registers with a behaviour: the VRAM and register windows, the HDP
     * flush and its remap page, the RLC's handshakes and clock capture,
     * both hubs' invalidation engines, the banks, read-only registers
     */
    vs_new(0);
    VW(V10_MM_INDEX, 0x80000000u | 0x100);
    VW(V10_MM_INDEX_HI, 0);
    VW(V10_MM_DATA, 0x11223344);
    VR(V10_MM_DATA);
    VW(V10_MM_INDEX, V10_SCRATCH_REG0 * 4 + 4);
    VW(V10_MM_DATA, 0xabcd);
    VR(V10_MM_DATA);
    VW(V10_MM_INDEX, V10_MM_DATA * 4);
    VR(V10_MM_DATA);
    VW(V10_PCIE_INDEX2, 0x11180);
    VR(V10_PCIE_DATA2);
    VW(V10_GPU_HDP_FLUSH_REQ, 1 << 5);
    VR(V10_GPU_HDP_FLUSH_DONE);
    VW(V10_MMIO_REMAP_OFFSET / 4, 0);
    VW(V10_RLC_SAFE_MODE, 3);
    VR(V10_RLC_SAFE_MODE);
    vs_op(FV_OP_CLOCK, 0, 0, 123456);
    VW(V10_RLC_CAPTURE_GPU_CLOCK_COUNT, 1);
    VR(V10_RLC_GPU_CLOCK_COUNT_LSB);
    VR(V10_RLC_GPU_CLOCK_COUNT_MSB);
    for (unsigned hub = 0; hub < V10_NUM_HUBS; hub++) {
        uint32_t sem = hub ? V10_MMHUB_INV_ENG0_SEM : V10_GFXHUB_INV_ENG0_SEM;

        VR(sem + 3);
        VW(sem + V10_HUB_INV_REQ + 3, 0xffff | 0x7c0000);
        VR(sem + V10_HUB_INV_ACK + 3);
        VW(sem + 3, 0);
    }
    for (unsigned i = 0; i < 8; i++) {
        VW(V10_GRBM_GFX_CNTL, vs_grbm(1 + i % 2, i % 4, i, i * 2));
        VW(V10_SH_MEM_CONFIG, i);
        VW(V10_CP_HQD_PQ_BASE, i);
        VR(V10_SH_MEM_BASES);
    }
    VW(V10_GRBM_STATUS, 0xffffffff);
    VR(V10_GRBM_STATUS);
    VR(V10_SDMA0_STATUS_REG + V10_SDMA_ENGINE_STRIDE);
    vs_op(FV_OP_RESET, 0, 0, 0);
    VR(V10_RCC_CONFIG_MEMSIZE);
    vs_write("regs");
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: fuzz-seeds OUTDIR CO_DIR INSNS_ENC "
                "SNIPPETS_ENC\n");
        return 2;
    }
    outdir = argv[1];
    if (mkdir(outdir, 0755) && errno != EEXIST) {
        perror(outdir);
        return 1;
    }
    ninsns = enc_read(argv[3], false, insns, INSN_MAX);
    nsnips = enc_read(argv[4], true, snips, SNIP_MAX);
    insn_seeds();
    snippet_seeds();
    corpus_seeds(argv[2]);
    /* vadd for the queue: the descriptor and code corpus_kernel made */
    {
        char path[512];
        size_t len;
        uint8_t *f;

        snprintf(path, sizeof(path), "%s/vadd.co", argv[2]);
        f = file_read(path, &len);
        if (f) {
            corpus_kernel("vadd", f, "vadd", false);
            memcpy(vadd_kd, gs.kd, sizeof(vadd_kd));
            memcpy(vadd_co, gs.code, gs.code_len);
            vadd_co_len = gs.code_len;
            free(f);
        }
    }
    pm4_seeds();
    sdma_seeds();
    pm4_ring_seeds();
    vega10_seeds();
    printf("fuzz-seeds: %u seeds (%u instructions, %u snippets) in %s\n",
           written, ninsns, nsnips, outdir);
    return 0;
}
