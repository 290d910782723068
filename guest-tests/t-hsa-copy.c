// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-hsa-copy: hsa_amd_memory_async_copy with Debian's unmodified ROCr
 * 5.2.3 on every GPU agent. Buffers from the GPU's VRAM pool and the
 * CPU's system pool; a chain host -> VRAM -> VRAM -> host, each copy
 * depending on the previous one's signal and the first on a CPU gate,
 * for sizes that take each of ROCr's engines: host<->device copies and
 * same-device copies below 1 MiB on its SDMA queues, same-device copies
 * of 1 MiB and more on its blit kernels (utility AQL queue). Nothing may
 * move before the gate opens; the data that comes back is checked word
 * by word, and so is what hsa_amd_memory_fill writes into VRAM. Then the
 * chains once more with HSA_ENABLE_SDMA=0 (ROCr's blit kernels only).
 * Which engines ROCr used: the device's queue registers on the facade,
 * amdkfd's list of the process's queues on Linux's amdkfd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gtdev.h"
#include "hsat.h"

static struct hsat h;

static void pattern(uint32_t *p, size_t words, uint32_t seed)
{
	for (size_t i = 0; i < words; i++)
		p[i] = seed * 0x9e3779b9u + (uint32_t)i * 2654435761u;
}

static size_t mismatches(const uint32_t *a, const uint32_t *b, size_t words, size_t *first)
{
	size_t n = 0;

	*first = SIZE_MAX;
	for (size_t i = 0; i < words; i++)
		if (a[i] != b[i]) {
			if (!n)
				*first = i;
			n++;
		}
	return n;
}

static void copy_chain(struct hsat_gpu *g, size_t size, uint32_t seed)
{
	size_t words = size / 4, first;
	uint32_t *src = hsat_alloc(h.sys, size), *dst = hsat_alloc(h.sys, size);
	void *va = hsat_alloc(g->vram, size), *vb = hsat_alloc(g->vram, size);
	hsa_signal_t gate, s1, s2, s3;
	hsa_signal_value_t v;
	size_t bad;

	DIAG("%s: host -> VRAM -> VRAM -> host, %zu bytes", g->pci, size);
	if (!src || !dst || !va || !vb)
		goto out_free;
	hsat_phase("copy chain");
	pattern(src, words, seed);
	memset(dst, 0xcd, size);
	HSAT_CHECK(hsa_signal_create(1, 0, NULL, &gate));
	HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s1));
	HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s2));
	HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s3));
	if (HSAT_CHECK(hsa_amd_memory_async_copy(va, g->agent, src, h.cpu, size, 1, &gate, s1)) ||
	    HSAT_CHECK(hsa_amd_memory_async_copy(vb, g->agent, va, g->agent, size, 1, &s1, s2)) ||
	    HSAT_CHECK(hsa_amd_memory_async_copy(dst, h.cpu, vb, g->agent, size, 1, &s2, s3)))
		goto out;
	/* held by the gate: nothing completes, nothing arrives */
	CHECK(hsat_wait_below(s3, 1, 300, HSA_WAIT_STATE_BLOCKED, NULL) < 0,
	      "%s: the chain completed with its gate closed", g->pci);
	CHECK(hsa_signal_load_scacquire(s1) == 1,
	      "%s: host -> VRAM completed before its dependency", g->pci);
	CHECK(dst[0] == 0xcdcdcdcdu && dst[words - 1] == 0xcdcdcdcdu,
	      "%s: data arrived with the gate closed", g->pci);
	hsa_signal_store_screlease(gate, 0);
	CHECK(!hsat_wait_below(s3, 1, 60000, HSA_WAIT_STATE_BLOCKED, &v),
	      "%s: the chain did not complete in 60 s (signals %lld %lld %lld)", g->pci,
	      (long long)hsa_signal_load_scacquire(s1),
	      (long long)hsa_signal_load_scacquire(s2), (long long)v);
	CHECK(hsa_signal_load_scacquire(s1) == 0 && hsa_signal_load_scacquire(s2) == 0,
	      "%s: the chain completed but an earlier copy's signal did not", g->pci);
	bad = mismatches(src, dst, words, &first);
	CHECK(!bad, "%s: %zu bytes: %zu of %zu words wrong after the round trip, first at "
	      "%zu (0x%08x, expected 0x%08x)", g->pci, size, bad, words, first,
	      bad ? dst[first] : 0, bad ? src[first] : 0);
out:
	hsa_signal_destroy(gate);
	hsa_signal_destroy(s1);
	hsa_signal_destroy(s2);
	hsa_signal_destroy(s3);
out_free:
	if (src)
		hsa_amd_memory_pool_free(src);
	if (dst)
		hsa_amd_memory_pool_free(dst);
	if (va)
		hsa_amd_memory_pool_free(va);
	if (vb)
		hsa_amd_memory_pool_free(vb);
}

static void fill(struct hsat_gpu *g, size_t size)
{
	size_t words = size / 4, bad = 0;
	uint32_t *dst = hsat_alloc(h.sys, size + 64);
	uint32_t *v = hsat_alloc(g->vram, size + 64);
	hsa_signal_t s;

	DIAG("%s: hsa_amd_memory_fill of %zu bytes of VRAM", g->pci, size);
	if (!dst || !v)
		return;
	hsat_phase("memory fill");
	HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s));
	/* the 64 bytes after the fill keep what a copy put there */
	memset(dst, 0x11, size + 64);
	HSAT_CHECK(hsa_amd_memory_async_copy(v, g->agent, dst, h.cpu, size + 64, 0, NULL, s));
	CHECK(!hsat_wait_below(s, 1, 60000, HSA_WAIT_STATE_BLOCKED, NULL),
	      "%s: copy before the fill did not complete", g->pci);
	if (!HSAT_CHECK(hsa_amd_memory_fill(v, 0xa5c3e1f0u, words))) {
		memset(dst, 0, size + 64);
		hsa_signal_store_screlease(s, 1);
		HSAT_CHECK(hsa_amd_memory_async_copy(dst, h.cpu, v, g->agent, size + 64, 0,
						     NULL, s));
		CHECK(!hsat_wait_below(s, 1, 60000, HSA_WAIT_STATE_BLOCKED, NULL),
		      "%s: copy after the fill did not complete", g->pci);
		for (size_t i = 0; i < words; i++)
			bad += dst[i] != 0xa5c3e1f0u;
		CHECK(!bad, "%s: fill: %zu of %zu words wrong", g->pci, bad, words);
		bad = 0;
		for (size_t i = words; i < words + 16; i++)
			bad += dst[i] != 0x11111111u;
		CHECK(!bad, "%s: fill wrote %zu words past its end", g->pci, bad);
	}
	hsa_signal_destroy(s);
	hsa_amd_memory_pool_free(dst);
	hsa_amd_memory_pool_free(v);
}

/*
 * The same again in a child with HSA_ENABLE_SDMA=0: ROCr then does every
 * copy with its blit kernels on the utility queue.
 */
static void again_without_sdma(const char *self)
{
	int status;
	pid_t pid;

	DIAG("again with HSA_ENABLE_SDMA=0 (every copy on ROCr's blit kernels)");
	hsat_phase("the HSA_ENABLE_SDMA=0 run");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setenv("HSA_ENABLE_SDMA", "0", 1);
		setenv("HSAT_NO_SDMA_RUN", "1", 1);
		execl(self, self, (char *)NULL);
		_exit(127);
	}
	CHECK(pid > 0 && !gt_wait_child(pid, &status, 170000),
	      "the HSA_ENABLE_SDMA=0 run did not finish");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the HSA_ENABLE_SDMA=0 run failed (status 0x%x)", status);
}

int main(int argc, char **argv)
{
	/* SDMA only below 1 MiB on one device; the blit kernels from 1 MiB */
	const size_t sizes[] = { 4096, 64 * 1024 + 44, 4 << 20 };
	int child = getenv("HSAT_NO_SDMA_RUN") != NULL;

	(void)argc;
	hsat_watchdog(180);
	if (hsat_init(&h))
		return gt_result();
	for (int i = 0; i < h.ngpu; i++) {
		struct hsat_engines e;

		for (unsigned int k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
			copy_chain(&h.gpu[i], sizes[k], 17 * i + k + 1 + child * 100);
		if (!child)
			fill(&h.gpu[i], 256 * 1024);
		/* the engines ROCr left behind (they live until hsa_shut_down) */
		CHECK(!hsat_engines(h.gpu[i].pci, &e), "%s: cannot read the queue registers",
		      h.gpu[i].pci);
		DIAG("%s: %d SDMA rings (%llu packets retired), %d ROCr AQL queues",
		     h.gpu[i].pci, e.sdma, (unsigned long long)e.sdma_retired, e.aql);
		if (child) {
			CHECK(e.sdma == 0, "%s: %d SDMA rings with HSA_ENABLE_SDMA=0",
			      h.gpu[i].pci, e.sdma);
		} else if (hsat_sysfs(h.gpu[i].pci, "num_queues") < 0) {
			/*
			 * Linux's amdkfd: ROCr's SDMA queues exist (it copies
			 * host<->VRAM on them whenever it could make them); how
			 * much they did (amdkfd's sdma_GPUID, the counter SDMA
			 * firmware keeps after the read pointer) is not modelled
			 */
			CHECK(e.sdma >= 1, "%s: ROCr made no SDMA queue on amdkfd",
			      h.gpu[i].pci);
		} else {
			CHECK(e.sdma >= 1 && e.sdma_retired > 0,
			      "%s: the host<->VRAM copies ran on no SDMA ring (ROCr fell "
			      "back to its blit kernels?)", h.gpu[i].pci);
		}
		/* the blit kernels (4 MiB VRAM -> VRAM, fills) run on AQL queues */
		CHECK(e.aql >= 1, "%s: no ROCr AQL queue for the blit kernels", h.gpu[i].pci);
	}
	hsat_phase("hsa_shut_down");
	HSAT_CHECK(hsat_shut_down());
	if (!child)
		again_without_sdma(argv[0]);
	return gt_result();
}
