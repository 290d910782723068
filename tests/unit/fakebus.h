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

static const HsaGpuQueueOps ops = {
	f_read, f_write, f_add, f_now, f_irq, f_dma, f_dma_done, f_select, NULL,
	f_sdma_packet,
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
}

static inline HsaGpuRunResult run(void)
{
	HsaGpuRunResult r;

	hsagpu_queue_run(&q, &proc, 1000, &r);
	return r;
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
