/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fake bus for the host unit tests of the packet processor: a buffer
 * standing for guest memory, host atomics, a settable clock, interrupts
 * and DMA data movement that are counted. One queue, q, with a ring.
 */
#ifndef HSAGPU_UNIT_FAKEBUS_H
#define HSAGPU_UNIT_FAKEBUS_H

/* Fake bus: [MEM_BASE, MEM_BASE + MEM_SIZE) is memory, the rest a hole. */
#define MEM_BASE 0x100000ULL
#define MEM_SIZE (24U << 20)
#define RING     (MEM_BASE)
#define RPTR     (MEM_BASE + 0x10000 + HSAGPU_QUEUE_DESC_RPTR)
#define WPTR     (MEM_BASE + 0x10000 + HSAGPU_QUEUE_DESC_WPTR)
#define SIG(n)   (MEM_BASE + 0x20000 + 64 * (n))
#define KARG     (MEM_BASE + 0x30000)
#define MBOX     (MEM_BASE + 0x38000)
#define BUF(n)   (MEM_BASE + 0x100000 + 0x100000 * (n))
#define RING_SZ  16
/* A peer's VRAM above the device's p2p-addr-bits: AtomicOps refused. */
#define FAR_PEER 0x4000000000000ULL

static uint8_t *mem;
static uint8_t *dirty;		/* bytes written (by f_write, f_unmap) */
static uint64_t now;
static unsigned irqs, last_vector, atomics;

static void *at(uint64_t addr)
{
	return mem + (addr - MEM_BASE);
}

static int in_mem(uint64_t addr, uint64_t len)
{
	return addr >= MEM_BASE && len <= MEM_SIZE &&
	       addr - MEM_BASE <= MEM_SIZE - len;
}

/*
 * A page that is not mapped in the queue's GPU address space: accesses
 * to it fail with a VM fault, and the client that made the last one is
 * kept (0: no such page).
 */
static uint64_t vmf_page;
static unsigned vmf_client, vmf_hits;

static int vm_fault(unsigned client, uint64_t addr, uint64_t len)
{
	if (!vmf_page || addr + len <= vmf_page || addr >= vmf_page + 4096)
		return 0;
	vmf_client = client;
	vmf_hits++;
	return 1;
}

static unsigned f_read(void *o, unsigned client, uint64_t addr, void *buf,
		       uint64_t len)
{
	if (vm_fault(client, addr, len))
		return HSAGPU_QERR_VM_FAULT;
	if (!in_mem(addr, len))
		return HSAGPU_QERR_ADDRESS;
	memcpy(buf, at(addr), len);
	return 0;
}

static unsigned f_write(void *o, unsigned client, uint64_t addr,
			const void *buf, uint64_t len)
{
	if (vm_fault(client, addr, len))
		return HSAGPU_QERR_VM_FAULT;
	if (!in_mem(addr, len))
		return HSAGPU_QERR_ADDRESS;
	memcpy(at(addr), buf, len);
	if (dirty)
		memset(dirty + (addr - MEM_BASE), 1, len);
	return 0;
}

static unsigned f_add(void *o, unsigned client, uint64_t addr, uint64_t val,
		      uint64_t *old)
{
	atomics++;
	if (vm_fault(client, addr, 8))
		return HSAGPU_ATOMIC_ST_VM_FAULT;
	if (addr & 7)
		return HSAGPU_ATOMIC_ST_MALFORMED;
	if (addr >= FAR_PEER && addr - FAR_PEER < 4096)
		return HSAGPU_ATOMIC_ST_P2P_LIMIT;
	if (!in_mem(addr, 8))
		return HSAGPU_ATOMIC_ST_UR;
	*old = __atomic_fetch_add((uint64_t *)at(addr), val, __ATOMIC_SEQ_CST);
	return HSAGPU_ATOMIC_ST_OK;
}

static uint64_t now_step;	/* clock advance per reading, for ordering */

static uint64_t f_now(void *o)
{
	now += now_step;
	return now;
}

static void f_irq(void *o, unsigned vector)
{
	irqs++;
	last_vector = vector;
}

/* The DMA engine's data movement: memory only, like the device. */
static unsigned dma_calls, dma_dones, dma_last_err;
static uint64_t dma_bytes, dma_last_bad;

static unsigned f_dma(void *o, uint64_t dst, uint64_t src, uint64_t len,
		      const uint32_t *pattern, uint64_t *bad)
{
	dma_calls++;
	if (vm_fault(HSAGPU_VM_CLIENT_DMA, dst, len)) {
		*bad = dst;
		return HSAGPU_QERR_VM_FAULT;
	}
	if (!pattern && vm_fault(HSAGPU_VM_CLIENT_DMA, src, len)) {
		*bad = src;
		return HSAGPU_QERR_VM_FAULT;
	}
	if (!in_mem(dst, len)) {
		*bad = dst;
		return HSAGPU_QERR_ADDRESS;
	}
	if (!pattern && !in_mem(src, len)) {
		*bad = src;
		return HSAGPU_QERR_ADDRESS;
	}
	if (pattern)
		hsagpu_dma_fill_host(at(dst), len, *pattern, 0);
	else
		memmove(at(dst), at(src), len);
	dma_bytes += len;
	return 0;
}

static void f_dma_done(void *o, unsigned err, uint64_t bad)
{
	dma_dones++;
	dma_last_err = err;
	dma_last_bad = bad;
}

/* The queues hsagpu_sched_pass() selected, in order. */
static unsigned selected[64], nselected;

static void f_select(void *o, unsigned qi)
{
	if (nselected < 64)
		selected[nselected++] = qi;
}

/* SDMA packets consumed, and the last one's header and offset */
static unsigned sdma_pkts;
static uint32_t sdma_last_hdr;
static uint64_t sdma_last_off;

static void f_sdma_packet(void *o, uint32_t header, uint64_t offset)
{
	sdma_pkts++;
	sdma_last_hdr = header;
	sdma_last_off = offset;
}

/*
 * Direct access for the streaming kernels (HsaGpuQueueOps.map). A
 * mapping ends at the end of memory, before a page that faults for the
 * access, and at the next multiple of map_page past map_skew (0: no such
 * limit), as a real one ends with its page. ro_page: writes there are
 * VM faults, reads are not. poison_page: reads there fail with POISON.
 * Bytes reported written at unmap() are marked in dirty[] (allocated
 * by the first one).
 */
static uint64_t map_page, map_skew, ro_page, poison_page;
/* map_misuse: a slot mapped twice, unmapped unmapped, done too large */
static unsigned maps, map_misuse, maps_open;
static struct {
	uint64_t addr, len;
	int write, open;
} mslot[HSAGPU_MAP_SLOTS];

static uint64_t clip_before(uint64_t addr, uint64_t n, uint64_t page)
{
	return page && addr < page && page - addr < n ? page - addr : n;
}

static unsigned f_map(void *o, unsigned slot, unsigned client, uint64_t addr,
		      uint64_t len, bool is_write, void **host,
		      uint64_t *mapped)
{
	uint64_t n = len;
	unsigned err = 0;

	maps++;
	if (slot >= HSAGPU_MAP_SLOTS || mslot[slot].open || !len) {
		map_misuse++;
		return HSAGPU_QERR_UNSUPPORTED;
	}
	if (vm_fault(client, addr, 1) ||
		 (is_write && ro_page && addr >= ro_page &&
		  addr - ro_page < 4096))
		err = HSAGPU_QERR_VM_FAULT;
	else if (!in_mem(addr, 1))
		err = HSAGPU_QERR_ADDRESS;
	else if (!is_write && poison_page && addr >= poison_page &&
		 addr - poison_page < 4096)
		err = HSAGPU_QERR_POISON;
	if (err)
		return err;
	n = MIN(n, MEM_BASE + MEM_SIZE - addr);
	n = clip_before(addr, n, vmf_page);
	n = clip_before(addr, n, is_write ? ro_page : poison_page);
	if (map_page)
		n = MIN(n, map_page - (addr - map_skew) % map_page);
	mslot[slot].addr = addr;
	mslot[slot].len = n;
	mslot[slot].write = is_write;
	mslot[slot].open = 1;
	maps_open++;
	*host = at(addr);
	*mapped = n;
	return 0;
}

static void f_unmap(void *o, unsigned slot, uint64_t done)
{
	if (slot >= HSAGPU_MAP_SLOTS || !mslot[slot].open ||
	    done > mslot[slot].len) {
		map_misuse++;
		return;
	}
	if (mslot[slot].write && done) {
		if (!dirty)
			dirty = calloc(1, MEM_SIZE);
		memset(dirty + (mslot[slot].addr - MEM_BASE), 1, done);
	}
	mslot[slot].open = 0;
	maps_open--;
}

/*
 * A link model (HsaGpuQueueOps.link_*): with link_on, a DMA packet's
 * data arrives link_delay ns after link_end() is asked (0 ns: nothing
 * went on a link), or at link_arrive once that is set (moved by a
 * sharer); link_asks counts link_when() calls.
 */
static int link_on;
static uint64_t link_delay, link_arrive, link_begun_at;
static unsigned link_asks, link_ends;

/* As hsagpu_link_begin(): a malformed packet is not timed. */
static bool f_link_begin(void *o, uint64_t start_ns,
			 const struct hsagpu_dma_packet *d)
{
	if (!link_on || hsagpu_dma_check(d))
		return false;
	link_begun_at = start_ns;
	return true;
}

static unsigned link_cancels;

static uint64_t f_link_end(void *o, uint64_t mark[2])
{
	if (!mark) {
		link_cancels++;
		return 0;
	}
	link_ends++;
	mark[0] = link_delay ? now + link_delay : 0;
	mark[1] = 0;
	return link_delay ? now + link_delay : 0;
}

static bool f_link_when(void *o, uint64_t mark[2], uint64_t *end_ns)
{
	uint64_t t = link_arrive ? link_arrive : mark[0];

	link_asks++;
	*end_ns = t;
	return t <= now;
}

static const HsaGpuQueueOps ops = {
	f_read, f_write, f_add, f_now, f_irq, f_dma, f_dma_done, f_select, NULL,
	f_sdma_packet, f_map, f_unmap, f_link_begin, f_link_end, f_link_when,
};

static const HsaGpuIdent ident = {
	.vendor_id = HSAGPU_PCI_VENDOR_ID, .device_id = HSAGPU_PCI_DEVICE_ID,
	.vram_size = 1 << 20, .num_queues = 4, .msix_vectors = 5,
};

static const HsaGpuProc proc = { &ops, NULL, &ident, NULL };
static HsaGpuQueue q;
static uint64_t wptr;

static void q_setup(uint32_t flags)
{
	memset(mem, 0, MEM_SIZE);
	memset(&q, 0, sizeof(q));
	for (int i = 0; i < RING_SZ; i++)
		*(uint16_t *)at(RING + 64 * i) = HSAGPU_PKT_TYPE_INVALID;
	q.ring_lo = (uint32_t)RING;
	q.ring_size = RING_SZ;
	q.rptr_lo = (uint32_t)RPTR;
	q.wptr_lo = (uint32_t)WPTR;
	q.vector = 3;
	q.flags = flags;
	hsagpu_queue_start(&q, 0);
	wptr = 0;
	irqs = 0;
	now = 1000;
}

static void submit(const void *pkt)
{
	uint8_t *slot = at(RING + 64 * (wptr % RING_SZ));

	memcpy(slot + 4, (const uint8_t *)pkt + 4, 60);
	memcpy(slot, pkt, 4);
	wptr++;
	*(uint64_t *)at(WPTR) = wptr;
	hsagpu_queue_doorbell(&q);
}

static inline HsaGpuRunResult run(void)
{
	HsaGpuRunResult r;

	hsagpu_queue_run(&q, &proc, 1000, &r);
	return r;
}

/* Run until a kernel in slices (a code object's workgroup) has ended */
static inline void run_kernel_out(void)
{
	run();
	for (int n = 0; n < 100000 && q.kern_active &&
	     q.state == HSAGPU_QSTATE_ACTIVE; n++)
		run();
}

static void sig_init(int n, int64_t v)
{
	struct hsagpu_signal *s = at(SIG(n));

	memset(s, 0, sizeof(*s));
	s->kind = HSAGPU_SIGNAL_KIND_USER;
	s->value = v;
}

static int64_t sig_val(int n)
{
	return ((struct hsagpu_signal *)at(SIG(n)))->value;
}

static uint16_t hdr(unsigned type, int barrier)
{
	return type | (barrier ? HSAGPU_PKT_HDR_BARRIER : 0) |
	       HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_ACQUIRE_SHIFT |
	       HSAGPU_FENCE_SCOPE_SYSTEM << HSAGPU_PKT_HDR_RELEASE_SHIFT;
}

#endif
