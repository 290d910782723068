/* SPDX-License-Identifier: MIT */
/*
 * libhsagpu internals shared by the agent/memory, signal and queue parts.
 */
#ifndef HSAGPU_RT_PRIV_H
#define HSAGPU_RT_PRIV_H

#include <pthread.h>
#include <stdbool.h>

#include "hsagpu_rt.h"

/* The doorbell mapping of a file is one 4 KiB page. */
#define RT_DOORBELL_PAGE        4096U
/* Signal pools and queue descriptors come in allocations of this size. */
#define RT_CHUNK                4096U
/* GPU VM: allocations this large are mapped 2 MiB aligned (large pages). */
#define RT_BIG_PAGE             (2U << 20)

_Static_assert(sizeof(struct hsagpu_signal) == 64, "signal layout");
_Static_assert(sizeof(struct hsagpu_queue_desc) == 256, "queue desc layout");

/* A device-contiguous piece of a system allocation made of several. */
struct rt_seg {
	uint64_t off;           /* offset in the allocation */
	uint64_t bus;
	uint64_t bytes;
};

struct rt_mem {
	void *cpu;
	size_t size;            /* mapped bytes, whole pages */
	uint64_t bus;           /* device address of the first byte */
	uint64_t handle;        /* for HSAGPU_IOC_FREE_MEM */
	uint64_t vram_off;      /* VRAM: offset in the device's VRAM */
	const void *user;       /* registered: the pointer the user gave */
	bool internal;          /* backs a queue or signal pool */
	bool registered;        /* user memory (REGISTER_MEM), not mapped by us */
	uint32_t flags;         /* HSAGPU_MEM_SYSTEM or _VRAM */
	uint32_t nsegs;         /* > 1: segs, sorted by offset */
	struct rt_seg *segs;
	/* cached read alias: VRAM allocations (hsagpu_rt_alias.c) */
	uint64_t mmap_offset;
	void *cached;           /* the cached view, once mapped */
};

/* An enabled peer: @agent's DMA reaches @peer's VRAM at vram_addr. */
struct rt_peer {
	hsagpu_agent_t *peer;
	uint64_t vram_addr;
	uint32_t flags;         /* HSAGPU_PEER_* */
};

struct rt_queue;
struct rt_pool;

struct hsagpu_agent {
	int fd;
	int index;
	struct hsagpu_device_info info;
	/*
	 * GPU virtual memory (info.vm_flags & HSAGPU_VM_INFO_ENABLED): every
	 * device address of this file is the CPU address, peers' VRAM
	 * excepted (their PEER_ACCESS window).
	 */
	bool vm;
	pthread_mutex_t lock;   /* protects everything below */
	struct rt_mem *mem;     /* sorted by cpu address */
	size_t nmem;
	size_t mem_cap;
	void *doorbell_page;
	uint64_t doorbell_mmap_offset;
	struct rt_queue *queues;
	/* under the agent registry's lock (rt_agents_lock), not @lock */
	struct hsagpu_agent *next;      /* the registry of open agents */
	struct rt_peer *peers;
	size_t npeers;
};

/* 0 or -errno; retries on EINTR. */
int rt_ioctl(int fd, unsigned long req, void *arg);
/* The allocation holding @p (copied out), or -EINVAL (hsagpu_rt_agent.c) */
int rt_mem_lookup(hsagpu_agent_t *agent, const void *p, struct rt_mem *out);
/* Set the cached view of the allocation at @cpu (once; 0 or -EEXIST) */
int rt_mem_set_cached(hsagpu_agent_t *agent, void *cpu, void *cached);
uint64_t rt_now_ns(void);

static inline void rt_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* Allocations made by the runtime itself are marked internal. */
int rt_mem_alloc(hsagpu_agent_t *agent, size_t size, uint32_t flags,
		 bool internal, void **ptr, uint64_t *bus);
int rt_mem_free(hsagpu_agent_t *agent, void *ptr, bool internal);

/*
 * Device address of @p for @agent's device and the number of bytes from
 * there that are device-contiguous. Without GPU virtual memory: the bus
 * address, for @agent's own allocations (segments included) and enabled
 * peers' VRAM; -EFAULT for any other pointer. With it: @p itself for any
 * pointer (the device faults on what is not mapped), but an address in
 * the peer's window for an enabled peer's VRAM.
 */
int rt_translate(hsagpu_agent_t *agent, const void *p, uint64_t *bus,
		 uint64_t *contig);

/* REGISTER_MEM / FREE_MEM; internal ones (signal pools) are the runtime's. */
int rt_mem_register(hsagpu_agent_t *agent, void *ptr, size_t size,
		    uint32_t flags, bool internal);
int rt_mem_unregister(hsagpu_agent_t *agent, void *ptr, bool internal);

/* Call @fn for every open agent (under the registry's read lock). */
void rt_agents_each(void (*fn)(hsagpu_agent_t *agent, void *arg), void *arg);

/* GPU VM: register every existing signal pool with the new @agent. */
void rt_signals_share(hsagpu_agent_t *agent);

/* Teardown helpers for hsagpu_agent_close(). */
void rt_queues_release(hsagpu_agent_t *agent);
void rt_signals_release(hsagpu_agent_t *agent);

#endif
