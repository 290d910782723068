// SPDX-License-Identifier: MIT
/*
 * libhsagpu: cached reads of VRAM through the device's read alias
 * (HSAGPU_CAP_READ_ALIAS; README "Cached reads of VRAM").
 *
 * A VRAM allocation has its usual write-combining mapping and, inside
 * the alias window, a second write-back one. Reads through the second
 * are ordinary cached loads, so lines the device wrote since they were
 * last cached must be flushed first: the driver's VRAM_DIRTY lists those
 * lines (and clears them), hsagpu_memory_read_cached() flushes them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>

#include "hsagpu_rt_priv.h"

#define RT_LINE         64U
#define RT_RANGES       256U    /* runs per VRAM_DIRTY call */

static bool rt_have_clflushopt(void)
{
	static int have = -1;
	unsigned int a, b, c, d;

	if (have < 0) {
		/* CPUID.(EAX=7,ECX=0):EBX bit 23 */
		__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d)
				 : "a"(7), "c"(0));
		have = !!(b & (1U << 23));
	}
	return have;
}

static void rt_flush_lines(const uint8_t *p, size_t bytes, bool opt)
{
	for (size_t off = 0; off < bytes; off += RT_LINE) {
		if (opt)
			__asm__ volatile("clflushopt %0"
					 : "+m"(*(volatile uint8_t *)(p + off)));
		else
			__asm__ volatile("clflush %0"
					 : "+m"(*(volatile uint8_t *)(p + off)));
	}
}

/* The VRAM allocation holding [ptr, ptr + size) */
static int rt_vram_range(hsagpu_agent_t *agent, const void *ptr, size_t size,
			 struct rt_mem *m)
{
	int ret;

	if (!agent || !ptr || !size)
		return -EINVAL;
	ret = rt_mem_lookup(agent, ptr, m);
	if (ret)
		return ret;
	if (!(m->flags & HSAGPU_MEM_VRAM) || m->registered)
		return -EINVAL;
	if (size > m->size - ((uintptr_t)ptr - (uintptr_t)m->cpu))
		return -EINVAL;
	return 0;
}

int hsagpu_memory_cached_view(hsagpu_agent_t *agent, const void *ptr,
			      const void **cached)
{
	struct rt_mem m;
	void *p;
	int ret;

	if (!cached)
		return -EINVAL;
	ret = rt_vram_range(agent, ptr, 1, &m);
	if (ret)
		return ret;
	if (!m.cached) {
		p = mmap(NULL, m.size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 agent->fd, (off_t)HSAGPU_MMAP_CACHED(m.mmap_offset));
		if (p == MAP_FAILED)
			return -errno;
		ret = rt_mem_set_cached(agent, m.cpu, p);
		if (ret) {
			/* Another thread mapped it first (or it was freed). */
			munmap(p, m.size);
			if (ret != -EEXIST)
				return ret;
			ret = rt_vram_range(agent, ptr, 1, &m);
			if (ret)
				return ret;
		} else {
			m.cached = p;
		}
	}
	*cached = (const uint8_t *)m.cached +
		  ((uintptr_t)ptr - (uintptr_t)m.cpu);
	return 0;
}

int hsagpu_memory_dirty_lines(hsagpu_agent_t *agent, const void *ptr,
			      size_t size, uint32_t flags,
			      hsagpu_dirty_range_t *ranges, uint32_t capacity,
			      uint32_t *count, size_t *done)
{
	struct hsagpu_vram_dirty vd = { .size = sizeof(vd) };
	struct rt_mem m;
	int ret;

	if (!ranges || !count)
		return -EINVAL;
	ret = rt_vram_range(agent, ptr, size, &m);
	if (ret)
		return ret;
	vd.flags = flags;
	vd.handle = m.handle;
	vd.offset = (uintptr_t)ptr - (uintptr_t)m.cpu;
	vd.bytes = size;
	vd.ranges_ptr = (uintptr_t)ranges;
	vd.capacity = capacity;
	ret = rt_ioctl(agent->fd, HSAGPU_IOC_VRAM_DIRTY, &vd);
	if (ret)
		return ret;
	*count = vd.count;
	if (done)
		*done = vd.next - vd.offset;
	return 0;
}

int hsagpu_memory_read_cached(hsagpu_agent_t *agent, const void *ptr,
			      size_t size, const void **out, size_t *flushed)
{
	hsagpu_dirty_range_t r[RT_RANGES];
	bool opt = rt_have_clflushopt();
	const uint8_t *view, *base;
	size_t done = 0, lines = 0;
	struct rt_mem m;
	int ret;

	if (!out)
		return -EINVAL;
	ret = hsagpu_memory_cached_view(agent, ptr, (const void **)&view);
	if (ret)
		return ret;
	ret = rt_vram_range(agent, ptr, size, &m);
	if (ret)
		return ret;
	base = (const uint8_t *)m.cached;
	while (done < size) {
		uint32_t n;
		size_t step;

		ret = hsagpu_memory_dirty_lines(agent, (const uint8_t *)ptr + done,
						size - done, HSAGPU_DIRTY_CLEAR,
						r, RT_RANGES, &n, &step);
		if (ret)
			return ret;
		for (uint32_t i = 0; i < n; i++) {
			rt_flush_lines(base + r[i].offset, r[i].bytes, opt);
			lines += r[i].bytes / RT_LINE;
		}
		if (!step)
			return -EPROTO;         /* the driver made no progress */
		done += step;
	}
	/* Flushes complete before the loads that follow. */
	__asm__ volatile("mfence" ::: "memory");
	*out = view;
	if (flushed)
		*flushed = lines;
	return 0;
}
