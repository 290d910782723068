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
 * the unit tests (test-vendor.c, test-sdma.c) and ROCr use. Layouts:
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
 * fuzz-gcn-load seeds: the first workgroup of the current seed (cut to
 * one wave, to keep the saved bytes small) run @budget instructions and
 * saved; nothing when it ends before.
 */
static void load_seeds(const char *name)
{
    static const unsigned budgets[] = { 40, 400 };
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
    for (unsigned i = 0; i < 2; i++) {
        HsaGpuGcnRun *r = hsagpu_gcn_run_new();
        uint8_t *blob = NULL;
        size_t len, n = 0;
        char sname[128];

        if (!hsagpu_gcn_run_start(r, &d, 0, 0, 0, &st) &&
            hsagpu_gcn_run_resume(r, &mem, &d, budgets[i], 1 << 20, &st) ==
            HSAGPU_GCN_PAUSED) {
            len = hsagpu_gcn_run_save(r, &blob);
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
    printf("fuzz-seeds: %u seeds (%u instructions, %u snippets) in %s\n",
           written, ninsns, nsnips, outdir);
    return 0;
}
