/*
 * hsa-gpu: a GCN (gfx9) wavefront interpreter, independent of QEMU
 * (docs/isa.md). It runs the AMDHSA code objects clang emits for gfx900:
 * the kernel descriptor gives the entry and the initial wave state, the
 * waves of a workgroup run interleaved at barriers, memory goes through
 * the caller's callbacks (GPU virtual addresses). An instruction it does
 * not implement stops the dispatch with the opcode and the program
 * counter, never with a wrong result.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_HSAGPU_GCN_H
#define HW_HSAGPU_GCN_H

#include <stdbool.h>
#include <stdint.h>

#define HSAGPU_GCN_WAVE         64
#define HSAGPU_GCN_SGPRS        102     /* s0..s101 on gfx9 */
#define HSAGPU_GCN_VGPRS        256
#define HSAGPU_GCN_KD_SIZE      64
#define HSAGPU_GCN_WG_MAX       1024    /* work-items per workgroup */
#define HSAGPU_GCN_LDS_MAX      65536
/*
 * Private segment bytes per lane: gfx9's most, 64 lanes' in a wave's
 * scratch of at most 8,191 KiB (COMPUTE_TMPRING_SIZE.WAVESIZE, ROCr's
 * MAX_WAVE_SCRATCH). Memory is taken only for pages written, at most
 * HSAGPU_GCN_PRIVATE_RESIDENT for a workgroup in flight (one a queue):
 * 1,024 lanes x 16 KiB, clang's stack for calls it cannot bound.
 */
#define HSAGPU_GCN_PRIVATE_MAX      131056
#define HSAGPU_GCN_PRIVATE_RESIDENT (16u << 20)

/*
 * The private memory all workgroups in flight of one device may hold
 * together (a device has up to 1,024 queues, each with a workgroup in
 * flight): bytes; @used changes atomically, from any queue's processor.
 */
typedef struct HsaGpuGcnPrivBudget {
    uint64_t limit;
    uint64_t used;
} HsaGpuGcnPrivBudget;
/*
 * The private segment buffer descriptor's base the interpreter hands a
 * kernel: MUBUF accesses through it reach the lane's own private memory
 * (kept with the workgroup), not the address space.
 */
#define HSAGPU_GCN_PRIVATE_BASE 0xffff00000000ULL
/*
 * The flat apertures (SH_MEM_BASES): a flat address whose top 16 bits are
 * 1 is a byte of the workgroup's LDS, 2 of the work-item's private
 * memory; generic pointers to local and private data are such addresses.
 */
#define HSAGPU_GCN_APERTURE_SHARED  1u
#define HSAGPU_GCN_APERTURE_PRIVATE 2u

/* The AMDHSA kernel descriptor, as the code object has it (64 bytes). */
typedef struct HsaGpuGcnKd {
    uint32_t group_segment_size;        /* LDS bytes */
    uint32_t private_segment_size;
    uint32_t kernarg_size;
    int64_t entry_offset;               /* from the descriptor */
    uint32_t rsrc3, rsrc1, rsrc2;
    uint16_t props;                     /* kernel_code_properties */
} HsaGpuGcnKd;

/* kernel_code_properties: user SGPRs the kernel wants, in this order */
#define HSAGPU_GCN_KCP_PRIVATE_SEGMENT_BUFFER   (1U << 0)
#define HSAGPU_GCN_KCP_DISPATCH_PTR             (1U << 1)
#define HSAGPU_GCN_KCP_QUEUE_PTR                (1U << 2)
#define HSAGPU_GCN_KCP_KERNARG_SEGMENT_PTR      (1U << 3)
#define HSAGPU_GCN_KCP_DISPATCH_ID              (1U << 4)
#define HSAGPU_GCN_KCP_FLAT_SCRATCH_INIT        (1U << 5)
#define HSAGPU_GCN_KCP_PRIVATE_SEGMENT_SIZE     (1U << 6)
#define HSAGPU_GCN_KCP_WAVE32                   (1U << 10)

/* compute_pgm_rsrc2: system SGPRs and VGPRs */
#define HSAGPU_GCN_RSRC2_PRIVATE_SEGMENT        (1U << 0)
#define HSAGPU_GCN_RSRC2_USER_SGPR_SHIFT        1
#define HSAGPU_GCN_RSRC2_USER_SGPR_MASK         0x1f
#define HSAGPU_GCN_RSRC2_WORKGROUP_ID_X         (1U << 7)
#define HSAGPU_GCN_RSRC2_WORKGROUP_ID_Y         (1U << 8)
#define HSAGPU_GCN_RSRC2_WORKGROUP_ID_Z         (1U << 9)
#define HSAGPU_GCN_RSRC2_WORKGROUP_INFO         (1U << 10)
#define HSAGPU_GCN_RSRC2_VGPR_WORKITEM_SHIFT    11
#define HSAGPU_GCN_RSRC2_VGPR_WORKITEM_MASK     3

/* How a dispatch stopped (HsaGpuGcnStatus.code) */
enum {
    HSAGPU_GCN_OK,
    HSAGPU_GCN_BAD_KD,          /* descriptor the interpreter cannot run */
    HSAGPU_GCN_UNIMPLEMENTED,   /* instruction not implemented: opcode, pc */
    HSAGPU_GCN_MEM_FAULT,       /* a load, store or fetch failed: addr */
    HSAGPU_GCN_TRAP,            /* s_trap */
    HSAGPU_GCN_RUNAWAY,         /* a wave ran past its instruction budget */
    HSAGPU_GCN_PAUSED,          /* not a failure: the slice's budget ran out */
    /*
     * not a failure: every wave still running waits on global wave sync
     * (a GWS barrier or semaphore) for waves of other workgroups
     */
    HSAGPU_GCN_GWS_WAIT,
    /* a grid's GWS waits can never end (hsagpu_gcn_grid_run; st->what) */
    HSAGPU_GCN_GWS_STUCK,
};

typedef struct HsaGpuGcnStatus {
    unsigned code;
    unsigned mem_err;           /* MEM_FAULT: the callback's error */
    uint64_t pc;                /* of the instruction that stopped */
    uint32_t insn[2];           /* its dwords */
    uint64_t addr;              /* MEM_FAULT: the address */
    const char *what;           /* a name for logs */
    uint64_t insns;             /* wave instructions run by the call */
    uint64_t lane_ops;          /* active lanes of its vector instructions */
    /* instructions naming VGPRs past the allocation (read v0, or a NOP) */
    uint64_t vgpr_oor;
    /* instructions decoded: not found in the thread's decoded ones */
    uint64_t decoded;
    unsigned waves;             /* waves a start set up */
    uint64_t cleared;           /* bytes of workgroup state cleared/taken */
    /*
     * What the call cost in wave instructions: those it ran, and for a
     * start one per wave and per KiB cleared (clearing a KiB takes about
     * as long as an instruction), for a resume per KiB of private pages
     * it took. Slices are bounded by this, so that set-up the guest
     * chooses (1,024 items, 256 VGPRs, 64 KiB of LDS, 16 MiB of private
     * pages: 20 MiB) counts like the code it runs.
     */
    uint64_t work;
} HsaGpuGcnStatus;

/* A memory error of the interpreter's own: an atomic's loop never won */
#define HSAGPU_GCN_CONTENDED    UINT32_MAX

/* The three atomic operations memory performs itself (PCIe AtomicOps) */
enum {
    HSAGPU_GCN_ATOMIC_ADD,      /* fetch and add */
    HSAGPU_GCN_ATOMIC_SWAP,
    HSAGPU_GCN_ATOMIC_CAS,      /* compare with src0, store src1 */
};

/* Memory of the dispatch's address space: 0, or an error the caller knows. */
typedef struct HsaGpuGcnMem {
    unsigned (*read)(void *opaque, uint64_t addr, void *buf, uint32_t len);
    unsigned (*write)(void *opaque, uint64_t addr, const void *buf,
                      uint32_t len);
    /*
     * An atomic of @bytes (4, 8) done by the memory (*@old: the value
     * before); NULL: atomics are a read and a write here.
     */
    unsigned (*atomic)(void *opaque, uint64_t addr, unsigned bytes,
                       unsigned op, uint64_t src0, uint64_t src1,
                       uint64_t *old);
    void *opaque;
    /*
     * The device's clock in ns (the TIMESTAMP register's, monotonic):
     * s_memtime and s_memrealtime read it (HSAGPU_GCN_SHADER_CLOCK_HZ,
     * HSAGPU_GCN_REALTIME_HZ). NULL: both read 0.
     */
    uint64_t (*now_ns)(void *opaque);
    /*
     * s_sendmsg(MSG_INTERRUPT) with @m0 (the context id compiled code
     * puts there, a signal's event id): the queue's interrupt, as the
     * device raises it for a signal's event mailbox. NULL: nothing.
     */
    void (*interrupt)(void *opaque, uint32_t m0);
    /*
     * Optional, both or neither: a host view of the memory at @addr for
     * reading, or (@write) for reading and writing: the host address of
     * @addr (4 KiB aligned), and in *@len the bytes from there it covers
     * (at most to the end of its HSAGPU_GCN_TLB_SPAN); NULL: none, read()
     * and write() serve the access. A view stays valid until the
     * hsagpu_gcn_run_resume() (or grid_run) call that asked for it
     * returns; before that, written() says which bytes were written
     * through writable views (one call per view, after the writes).
     * Loads and stores use views; atomics always go through atomic() (or
     * read and write).
     */
    void *(*host)(void *opaque, uint64_t addr, bool write, uint32_t *len);
    void (*written)(void *opaque, uint64_t addr, uint32_t len);
} HsaGpuGcnMem;

/*
 * The clocks compiled code reads (docs/isa.md): s_memtime is the shader
 * clock, 1 GHz (the topology's max_engine_clk_fcompute, 1000 MHz, HIP's
 * clock64() rate), so one tick per ns of the device clock; s_memrealtime
 * the 100 MHz reference clock of gfx9 (what amdgpu reports as
 * gpu_counter_freq, ROCr as the agent's TIMESTAMP_FREQUENCY and HIP as
 * hipDeviceAttributeWallClockRate for wall_clock64()), one tick per 10 ns.
 */
#define HSAGPU_GCN_SHADER_CLOCK_HZ  1000000000ULL
#define HSAGPU_GCN_REALTIME_HZ      100000000ULL

/*
 * Global wave sync (GWS): the resources a queue was given (gfx9's 64, on
 * amdkfd's GWS queue), each a barrier or a semaphore with its counter.
 * A barrier's counter is the number of waves still to arrive, minus 1:
 * the wave that arrives at 0 releases the others (gen changes) and
 * reloads it from its own data. A semaphore's is its count; waiting: the
 * waves waiting in ds_gws_sema_p.
 */
#define HSAGPU_GCN_GWS_MAX      64
#define HSAGPU_GCN_GWS_GEN_MASK 0x3fffu /* a wave saves 14 bits of gen */
typedef struct HsaGpuGcnGws {
    uint32_t num;                       /* resources: 0, none */
    uint32_t counter[HSAGPU_GCN_GWS_MAX];
    uint32_t gen[HSAGPU_GCN_GWS_MAX];
    uint32_t waiting[HSAGPU_GCN_GWS_MAX];
} HsaGpuGcnGws;

/* One dispatch's fixed inputs (from the AQL packet). */
typedef struct HsaGpuGcnDispatch {
    HsaGpuGcnKd kd;
    uint64_t code;              /* entry: descriptor address + offset */
    uint64_t dispatch_ptr;      /* the AQL packet */
    uint64_t queue_ptr;
    uint64_t kernarg;
    uint64_t dispatch_id;
    uint32_t grid[3];
    uint16_t wg[3];
    /*
     * The packet's segment sizes: LDS bytes per workgroup (static and
     * dynamic), private bytes per work-item. What the hardware allocates;
     * the descriptor's (the code's static need) is the least used.
     */
    uint32_t group_segment_size;
    uint32_t private_segment_size;
    HsaGpuGcnGws *gws;          /* the queue's, NULL: ds_gws_* refused */
    /*
     * A PM4 dispatch (DISPATCH_DIRECT): its user SGPRs are these values
     * (COMPUTE_USER_DATA_*), not the AMDHSA ABI's from kd.props
     */
    const uint32_t *user_data;
    unsigned nuser;             /* <= HSAGPU_GCN_USER_DATA_MAX */
    /*
     * A PM4 dispatch with scratch (COMPUTE_PGM_RSRC2.SCRATCH_EN): the
     * waves' private memory is the address space's, at each wave's
     * FLAT_SCRATCH (its code sets it, as gfx9's does, from user data),
     * swizzled as the hardware's, private_segment_size bytes a lane;
     * the private-segment offset SGPR of wave n is its slot (n mod
     * scratch_waves) x 64 x private_segment_size (COMPUTE_TMPRING_SIZE).
     * Else (AQL) the interpreter keeps the lanes' private memory itself.
     */
    bool scratch_va;
    uint32_t scratch_waves;
} HsaGpuGcnDispatch;
#define HSAGPU_GCN_USER_DATA_MAX        16

/*
 * Host views of the address space (HsaGpuGcnMem.host), kept by a caller
 * across resume calls while they stay valid (within one grid_run call):
 * loads and stores are copies, no callback. A view covers a 4 KiB page
 * to at most the end of its 64 KiB span: one that reaches the span's end
 * is kept by a hash of the span, a shorter one (pages that do not follow
 * on in the host's memory: a ring, kernel arguments) by a hash of its
 * page, so that two of one span do not take each other's place;
 * a page the memory has no view of is not kept. hsagpu_gcn_views_end()
 * tells the bytes written through them (HsaGpuGcnMem.written) and
 * empties them; zeroed: empty.
 */
#define HSAGPU_GCN_TLB_PAGE     4096u
#define HSAGPU_GCN_TLB_SPAN     65536u
#define HSAGPU_GCN_TLB_BITS     5
#define HSAGPU_GCN_TLB          (1u << HSAGPU_GCN_TLB_BITS)
typedef struct HsaGpuGcnTlb {
    uint64_t va;                        /* of host[0]; len 0: empty */
    uint8_t *host;
    uint32_t len;
    bool write;
    /* len 0: the memory had no view of page va (for writing: @write) */
    bool none;
    uint32_t dirty_lo, dirty_hi;        /* written: [lo, hi) of len */
} HsaGpuGcnTlb;
typedef struct HsaGpuGcnViews {
    HsaGpuGcnTlb tlb[2 * HSAGPU_GCN_TLB];     /* by span, then by page */
} HsaGpuGcnViews;
void hsagpu_gcn_views_end(HsaGpuGcnViews *v, const HsaGpuGcnMem *mem);

/* Parse and check a descriptor: 0, or HSAGPU_GCN_BAD_KD. */
unsigned hsagpu_gcn_kd_parse(const uint8_t raw[HSAGPU_GCN_KD_SIZE],
                             HsaGpuGcnKd *kd);
/* A workgroup in flight, kept from one slice to the next */
typedef struct HsaGpuGcnRun HsaGpuGcnRun;

HsaGpuGcnRun *hsagpu_gcn_run_new(void);
/*
 * Charge @r's private pages to @b (NULL: none) from now on: those it
 * holds (a migrated workgroup's) at once, without the limit
 */
void hsagpu_gcn_run_set_budget(HsaGpuGcnRun *r, HsaGpuGcnPrivBudget *b);
void hsagpu_gcn_run_free(HsaGpuGcnRun *r);
bool hsagpu_gcn_run_active(const HsaGpuGcnRun *r);
void hsagpu_gcn_run_stop(HsaGpuGcnRun *r);
/* What it holds of the device: waves, VGPR and LDS bytes */
typedef struct HsaGpuGcnFootprint {
    unsigned waves;
    uint64_t vgpr_bytes, lds_bytes;
} HsaGpuGcnFootprint;
void hsagpu_gcn_run_footprint(const HsaGpuGcnRun *r, HsaGpuGcnFootprint *f);
/* Its workgroup's ids */
void hsagpu_gcn_run_id(const HsaGpuGcnRun *r, uint32_t id[3]);
/*
 * Set up workgroup (@x, @y, @z) of @d in @r: 0, or the code (*@st);
 * st->work, st->cleared: its cost.
 */
unsigned hsagpu_gcn_run_start(HsaGpuGcnRun *r, const HsaGpuGcnDispatch *d,
                              uint32_t x, uint32_t y, uint32_t z,
                              HsaGpuGcnStatus *st);
/*
 * Run @r for at most @budget wave instructions (each wave at most
 * @max_insns in all): 0 when the workgroup ended, HSAGPU_GCN_PAUSED when
 * the budget ran out first (call again to go on), HSAGPU_GCN_GWS_WAIT
 * when its waves wait for other workgroups (call again once another ran),
 * else the failure with *@st. st->insns (and st->work): the wave
 * instructions this call ran.
 */
unsigned hsagpu_gcn_run_resume(HsaGpuGcnRun *r, const HsaGpuGcnMem *mem,
                               const HsaGpuGcnDispatch *d, uint64_t budget,
                               uint64_t max_insns, HsaGpuGcnStatus *st);
/*
 * The same, with views @v the caller keeps (and ends with
 * hsagpu_gcn_views_end() before they stop being valid)
 */
unsigned hsagpu_gcn_run_resume_views(HsaGpuGcnRun *r,
                                     const HsaGpuGcnMem *mem,
                                     const HsaGpuGcnDispatch *d,
                                     uint64_t budget, uint64_t max_insns,
                                     HsaGpuGcnViews *v, HsaGpuGcnStatus *st);
/*
 * @r as bytes (*@buf, g_malloc'ed; its length returned), and back (NULL
 * when the bytes are not a workgroup the interpreter could have made)
 */
size_t hsagpu_gcn_run_save(const HsaGpuGcnRun *r, uint8_t **buf);
HsaGpuGcnRun *hsagpu_gcn_run_load(const uint8_t *buf, size_t len);

/*
 * The host threads a device's workgroups run on (hsagpu-gcn-pool.c):
 * NULL for fewer than two (the caller alone). @thread_init/@thread_exit
 * run on each of the pool's threads (NULL: nothing); @name prefixes the
 * threads' names.
 */
typedef struct HsaGpuGcnPool HsaGpuGcnPool;
HsaGpuGcnPool *hsagpu_gcn_pool_new(unsigned threads, const char *name,
                                   void (*thread_init)(void),
                                   void (*thread_exit)(void));
void hsagpu_gcn_pool_free(HsaGpuGcnPool *p);
/*
 * Part @index of @parts runs on CPU @cpu[@index], the others on @cpu[]
 * (-1: not known yet): should its thread move, and to which of the CPUs
 * in @allowed (a bitmap of HSAGPU_GCN_CPUS)? @to: those no part is on.
 * Only when it shares a CPU with a part before it and @to is not empty.
 */
#define HSAGPU_GCN_CPUS         1024
bool hsagpu_gcn_pool_spread_to(const int *cpu, unsigned parts, unsigned index,
                               const uint64_t *allowed, uint64_t *to);
/* Threads a job may use, the caller's included (1 for NULL) */
unsigned hsagpu_gcn_pool_size(const HsaGpuGcnPool *p);
/*
 * @fn(@opaque, i) for each part i < @parts (at most the pool's size):
 * part 0 on the caller, the others on the pool's threads; returns when
 * all have. One caller at a time.
 */
void hsagpu_gcn_pool_run(HsaGpuGcnPool *p, unsigned parts,
                         void (*fn)(void *opaque, unsigned part),
                         void *opaque);

/*
 * Workgroups of one dispatch a grid may have in flight at once, across
 * the pool's threads (what a migration stream or a saved context may
 * hold: more is refused)
 */
#define HSAGPU_GCN_INFLIGHT_MAX 256

/*
 * A dispatch's grid of workgroups (hsagpu-gcn-grid.c). run: the one in
 * flight (serial), or the first of several (a pool's: the others in
 * more[], whose inactive entries are kept for reuse); wait: those whose
 * waves wait on GWS for later ones, resident beside run (from_wait: run
 * is one of them, taken back; stalls: turns in a row no waiting one
 * moved). pool: the host threads to run workgroups on, the caller's to
 * set (NULL: its own thread alone).
 */
typedef struct HsaGpuGcnGrid {
    HsaGpuGcnRun *run;
    HsaGpuGcnRun **wait;
    uint32_t nwait;
    bool from_wait;
    uint32_t stalls;
    HsaGpuGcnRun **more;
    uint32_t nmore;
    HsaGpuGcnPool *pool;
} HsaGpuGcnGrid;

/* What hsagpu_gcn_grid_run did, added to what the caller had */
typedef struct HsaGpuGcnGridStats {
    uint64_t insns, lane_ops, vgpr_oor;
    uint64_t work;              /* HsaGpuGcnStatus.work: bounds the slice */
    uint64_t cleared;
    unsigned waves;
} HsaGpuGcnGridStats;

/*
 * Run @d's workgroups, those in flight and from *@next (the first not
 * started, of @total, laid out @nwg[0] x @nwg[1] x @nwg[2]), until
 * @acc->work reaches @slice (each wave at most @wave_max instructions;
 * on a pool, each of its threads runs a slice): 0 when all ended,
 * HSAGPU_GCN_PAUSED when the slice is over (call again with the same
 * dispatch), else the failure (*@st), after which nothing goes on.
 * Private pages are charged to @b. A dispatch with GWS or scratch in the
 * address space runs on the caller's thread alone (its waves' scratch
 * slots and GWS turns are the serial order's).
 */
unsigned hsagpu_gcn_grid_run(HsaGpuGcnGrid *g, uint64_t *next,
                             const uint64_t nwg[3], uint64_t total,
                             const HsaGpuGcnMem *mem,
                             const HsaGpuGcnDispatch *d,
                             HsaGpuGcnPrivBudget *b, uint64_t slice,
                             uint64_t wave_max, HsaGpuGcnStatus *st,
                             HsaGpuGcnGridStats *acc);
/* Nothing in flight goes on (a new dispatch, a failure, a reset) */
void hsagpu_gcn_grid_stop(HsaGpuGcnGrid *g);
void hsagpu_gcn_grid_free(HsaGpuGcnGrid *g);
/* Workgroups in flight or waiting */
bool hsagpu_gcn_grid_busy(const HsaGpuGcnGrid *g);
/* Charge its private pages to @b from now on (a migrated-in grid's too) */
void hsagpu_gcn_grid_set_budget(HsaGpuGcnGrid *g, HsaGpuGcnPrivBudget *b);
/*
 * The workgroups in flight as bytes (*@buf, g_malloc'ed; its length, 0
 * when none): one alone as hsagpu_gcn_run_save() makes it; with some
 * waiting, HSAGPU_GCN_WAIT_MAGIC, flags (bit 0 from_wait, bit 1 run
 * active), stalls, the number waiting, then each workgroup (run first
 * when active) as its length and its bytes; several in flight on a
 * pool, HSAGPU_GCN_MULTI_MAGIC, their number, then each as its length
 * and its bytes. _load takes them back (NULL/0: none); false, with
 * nothing kept, when the bytes are not what _save could have made.
 */
#define HSAGPU_GCN_WAIT_MAGIC   0x51535747u     /* "GWSQ" */
#define HSAGPU_GCN_MULTI_MAGIC  0x4d475747u     /* "GWGM" */
size_t hsagpu_gcn_grid_save(const HsaGpuGcnGrid *g, uint8_t **buf);
bool hsagpu_gcn_grid_load(HsaGpuGcnGrid *g, const uint8_t *buf, size_t len);

/* Run workgroup (@x, @y, @z) to its end: start, resume without a budget. */
unsigned hsagpu_gcn_run_group(const HsaGpuGcnMem *mem,
                              const HsaGpuGcnDispatch *d, uint32_t x,
                              uint32_t y, uint32_t z, uint64_t max_insns,
                              HsaGpuGcnStatus *st);

#endif
