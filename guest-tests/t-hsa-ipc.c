// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * t-hsa-ipc: VRAM shared between two ROCr processes with IPC handles
 * (hsa_amd_ipc_memory_create / _attach, what hipIpcGetMemHandle and
 * hipIpcOpenMemHandle call; libhsakmt 5.2.3 issues the ROCm ioctls
 * IPC_EXPORT_HANDLE and IPC_IMPORT_HANDLE for them). On every device:
 *  - the parent fills a VRAM buffer (a copy from the host) and exports it;
 *    the handle goes to a child through a pipe (both processes start
 *    HSA after the fork, so the child inherits no runtime state);
 *  - the child attaches, copies the buffer to its own host memory and
 *    checks every word, writes a new pattern into it (host -> imported
 *    VRAM) and detaches;
 *  - the parent, after the child has exited, reads the child's pattern
 *    from its own buffer, exports it again (same handle) and frees it;
 *  - a small allocation (ROCr carves it out of a larger block) is shared
 *    the same way, at its offset in the block;
 *  - a handle nobody exported (a real one with other share bytes) fails
 *    to attach, and once the parent freed its buffer (the child gone)
 *    the buffer's handle is dead too;
 *  - no kernel problem is logged.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gtdev.h"
#include "hsat.h"

#define BIG     (4 << 20)
#define SMALL   (64 * 1024)

static struct hsat h;

struct msg {
	hsa_amd_ipc_memory_t handle[2];
	size_t size[2];
	uint32_t seed;
	int gpu;
};

/* All of @len bytes from @fd within @ms; 0, or -1. */
static int read_all(int fd, void *buf, size_t len, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		if (poll(&pfd, 1, ms) != 1)
			return -1;
		n = read(fd, (char *)buf + got, len - got);
		if (n <= 0)
			return -1;
		got += n;
	}
	return 0;
}

static uint32_t pattern(uint32_t seed, size_t i)
{
	return seed ^ (uint32_t)(i * 0x01000193u);
}

/* Copy @size bytes between host memory and VRAM of @g; 0 when done. */
static int copy(struct hsat_gpu *g, void *dst, const void *src, size_t size, int to_vram)
{
	hsa_signal_t s;
	int ret;

	if (HSAT_CHECK(hsa_signal_create(1, 0, NULL, &s)))
		return -1;
	ret = HSAT_CHECK(hsa_amd_memory_async_copy(dst, to_vram ? g->agent : h.cpu, src,
						  to_vram ? h.cpu : g->agent, size, 0, NULL, s)) ? -1 :
	      hsat_wait_below(s, 1, 60000, HSA_WAIT_STATE_BLOCKED, NULL);
	CHECK(!ret, "%s: copy of %zu bytes %s VRAM did not complete", g->pci, size,
	      to_vram ? "to" : "from");
	hsa_signal_destroy(s);
	return ret;
}

static size_t wrong(const uint32_t *p, size_t words, uint32_t seed)
{
	size_t bad = 0;

	for (size_t i = 0; i < words; i++)
		bad += p[i] != pattern(seed, i);
	return bad;
}

/* The child: attach, check, write back, detach. 0 when all is right. */
static int child(int rfd, int wfd)
{
	struct msg m;
	uint32_t *host;
	void *p;
	char ok = 1;

	for (;;) {
		if (read_all(rfd, &m, sizeof(m), 200000))
			break;
		if (m.gpu < 0)
			return gt_result();
		if (!h.ngpu && hsat_init(&h))
			return 1;
		for (int k = 0; k < 2; k++) {
			struct hsat_gpu *g = &h.gpu[m.gpu];
			size_t words = m.size[k] / 4;

			hsat_phase("child: attach");
			host = hsat_alloc(h.sys, m.size[k]);
			p = NULL;
			if (!host || HSAT_CHECK(hsa_amd_ipc_memory_attach(&m.handle[k], m.size[k],
									   1, &g->agent, &p)))
				continue;
			DIAG("child: %s: %zu bytes attached at %p", g->pci, m.size[k], p);
			hsat_phase("child: read the parent's data");
			memset(host, 0, m.size[k]);
			if (!copy(g, host, p, m.size[k], 0))
				CHECK(!wrong(host, words, m.seed + k),
				      "child: %s: %zu of %zu words differ from the parent's",
				      g->pci, wrong(host, words, m.seed + k), words);
			hsat_phase("child: write back");
			for (size_t i = 0; i < words; i++)
				host[i] = pattern(~(m.seed + k), i);
			copy(g, p, host, m.size[k], 1);
			HSAT_CHECK(hsa_amd_ipc_memory_detach(p));
			hsa_amd_memory_pool_free(host);
		}
		if (write(wfd, &ok, 1) != 1)
			break;
	}
	return 1;
}

/* The parent's side for one device. */
static void share(struct hsat_gpu *g, int gpu, int wfd, int rfd, uint32_t seed)
{
	size_t sizes[2] = { BIG, SMALL };
	void *v[2] = { NULL, NULL };
	hsa_amd_ipc_memory_t again, made_up;
	void *p = NULL;
	uint32_t *host;
	struct msg m;
	char ok = 0;
	int k;

	memset(&m, 0, sizeof(m));
	m.gpu = gpu;
	m.seed = seed;
	hsat_phase("parent: export");
	host = hsat_alloc(h.sys, BIG);
	if (!host)
		return;
	for (k = 0; k < 2; k++) {
		v[k] = hsat_alloc(g->vram, sizes[k]);
		if (!v[k])
			return;
		for (size_t i = 0; i < sizes[k] / 4; i++)
			host[i] = pattern(seed + k, i);
		if (copy(g, v[k], host, sizes[k], 1) ||
		    HSAT_CHECK(hsa_amd_ipc_memory_create(v[k], sizes[k], &m.handle[k])))
			return;
		m.size[k] = sizes[k];
	}
	DIAG("%s: exported %zu and %zu bytes", g->pci, sizes[0], sizes[1]);
	hsat_phase("parent: waiting for the child");
	CHECK(write(wfd, &m, sizeof(m)) == sizeof(m), "pipe to the child");
	CHECK(!read_all(rfd, &ok, 1, 150000) && ok == 1,
	      "%s: the child did not finish", g->pci);
	hsat_phase("parent: read the child's data");
	for (k = 0; k < 2; k++) {
		memset(host, 0, sizes[k]);
		if (!copy(g, host, v[k], sizes[k], 0))
			CHECK(!wrong(host, sizes[k] / 4, ~(seed + k)),
			      "%s: %zu of %zu words are not what the child wrote", g->pci,
			      wrong(host, sizes[k] / 4, ~(seed + k)), sizes[k] / 4);
	}
	/* exported again: the same handle */
	if (!HSAT_CHECK(hsa_amd_ipc_memory_create(v[0], sizes[0], &again)))
		CHECK(!memcmp(&again, &m.handle[0], sizeof(again)),
		      "%s: a second export gave another handle", g->pci);
	/* the share bytes are what names a buffer: other ones name none */
	hsat_phase("parent: made-up and dead handles");
	made_up = m.handle[0];
	for (k = 0; k < 4; k++)
		made_up.handle[k] ^= 0x5a5a5a5a;
	CHECK(hsa_amd_ipc_memory_attach(&made_up, sizes[0], 1, &g->agent, &p) !=
	      HSA_STATUS_SUCCESS, "%s: a made-up IPC handle attached at %p", g->pci, p);
	for (k = 0; k < 2; k++)
		HSAT_CHECK(hsa_amd_memory_pool_free(v[k]));
	/* its only buffer freed, the export is gone with it */
	p = NULL;
	CHECK(hsa_amd_ipc_memory_attach(&m.handle[0], sizes[0], 1, &g->agent, &p) !=
	      HSA_STATUS_SUCCESS, "%s: the handle of a freed buffer attached at %p",
	      g->pci, p);
	hsa_amd_memory_pool_free(host);
}

int main(void)
{
	char devs[GT_MAX_DEVS][16];
	int to_child[2], to_parent[2], st = 0, log, n;
	struct msg end = { .gpu = -1 };
	pid_t pid;

	n = hsat_count_devices(devs);
	if (hsat_need_kfd())
		return gt_result();
	if (!n)
		return gt_skip("no hsa-gpu");
	hsat_watchdog(300);
	log = gtk_mark();
	if (pipe(to_child) || pipe(to_parent)) {
		CHECK(0, "pipe: %s", strerror(errno));
		return gt_result();
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		CHECK(0, "fork: %s", strerror(errno));
		return gt_result();
	}
	if (!pid) {
		close(to_child[1]);
		close(to_parent[0]);
		_exit(child(to_child[0], to_parent[1]));
	}
	close(to_child[0]);
	close(to_parent[1]);
	if (hsat_init(&h)) {
		kill(pid, SIGKILL);
		return gt_result();
	}
	for (int i = 0; i < h.ngpu; i++)
		share(&h.gpu[i], i, to_child[1], to_parent[0], 0x1000 * (i + 1));
	hsat_phase("parent: the child's exit");
	CHECK(write(to_child[1], &end, sizeof(end)) == sizeof(end), "pipe to the child");
	CHECK(!gt_wait_child(pid, &st, 60000) && WIFEXITED(st) && !WEXITSTATUS(st),
	      "the child failed (status 0x%x)", st);

	hsat_phase("hsa_shut_down");
	HSAT_CHECK(hsat_shut_down());
	CHECK(!gtk_problems(log, NULL), "kernel problems logged");
	return gt_result();
}
