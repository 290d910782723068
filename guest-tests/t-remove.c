// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PCI removal (echo 1 > /sys/bus/pci/devices/<bdf>/remove, what a hot
 * unplug does) while a process holds DMA memory of the device: an event
 * page and SYSTEM allocations, one contiguous, one in page chunks, one
 * already freed but still mapped. Removal deletes the struct device from
 * the IOMMU, so a DMA-API free after it takes the direct path and frees
 * the page whose address equals the IOVA (review finding D1). The driver
 * must give up every DMA mapping in remove() and free the pages itself,
 * when the last user lets go.
 *
 * Checked: after removal ioctls fail with ENODEV and every system-memory
 * mapping keeps its data; then the process unmaps and closes everything
 * (in a child, so that a kernel fault there cannot take the test with
 * it); the closer must end normally and the kernel log must show no
 * oops, "Bad page state" or warning. A rescan
 * brings the device back, usable. Meaningful behind an IOMMU
 * (rp2-iommu, sw8-iommu); elsewhere IOVA == physical address and only
 * the contract is checked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gt.h"
#include "gtdev.h"
#include "gtioctl.h"

#define CONTIG_BYTES    (64 << 10)
#define CHUNKED_BYTES   (8 << 20)

struct held {
	uint64_t *contig, *chunked, *orphan;
	volatile uint64_t *events;
	struct hsagpu_alloc_mem am[3];
	uint64_t mailbox;
	uint32_t event;
};

static void *map(int fd, uint64_t off, size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, fd, off);

	return p == MAP_FAILED ? NULL : p;
}

static void fill(uint64_t *p, size_t bytes, uint64_t seed)
{
	size_t i;

	for (i = 0; i < bytes / 8; i += 512)
		p[i] = seed + i;
}

static int intact(const uint64_t *p, size_t bytes, uint64_t seed)
{
	size_t i;

	for (i = 0; i < bytes / 8; i += 512)
		if (p[i] != seed + i)
			return 0;
	return 1;
}

static int setup(int fd, struct held *h)
{
	const size_t len[3] = { CONTIG_BYTES, CHUNKED_BYTES, CONTIG_BYTES };
	uint64_t **ptr[3] = { &h->contig, &h->chunked, &h->orphan };
	int i;

	for (i = 0; i < 3; i++) {
		if (gti_alloc(fd, HSAGPU_MEM_SYSTEM, len[i], &h->am[i]))
			return 10 + i;
		*ptr[i] = map(fd, h->am[i].mmap_offset, len[i],
			      PROT_READ | PROT_WRITE);
		if (!*ptr[i])
			return 20 + i;
		fill(*ptr[i], len[i], 0x1000 * (i + 1));
	}
	/* Only the mapping keeps this one alive from now on. */
	if (gti_free(fd, h->am[2].handle))
		return 30;
	if (gti_event_create(fd, &h->event, &h->mailbox))
		return 31;
	h->events = map(fd, (uint64_t)HSAGPU_MMAP_TYPE_EVENTS <<
			HSAGPU_MMAP_TYPE_SHIFT, 4096, PROT_READ);
	if (!h->events)
		return 32;
	return 0;
}

/*
 * The process holding the memory: reports "r <bus addresses>", waits for
 * "g" (sent after the removal), reports
 * "<ioctl errno> <contig ok> <chunked ok> <orphan ok> <event slot>",
 * then lets go of everything and reports "c".
 */
static void holder(const char *pci, int wfd, int gofd)
{
	struct hsagpu_device_info info = { .size = sizeof(info) };
	struct held h = { 0 };
	char msg[160], go;
	int fd = gtd_open(pci), ret, e;

	if (fd < 0)
		_exit(2);
	ret = setup(fd, &h);
	if (ret)
		_exit(ret);
	snprintf(msg, sizeof(msg), "r 0x%llx 0x%llx 0x%llx 0x%llx\n",
		 (unsigned long long)h.am[0].bus_addr,
		 (unsigned long long)h.am[1].bus_addr,
		 (unsigned long long)h.am[2].bus_addr,
		 (unsigned long long)h.mailbox);
	if (write(wfd, msg, strlen(msg)) < 0 || read(gofd, &go, 1) != 1)
		_exit(3);
	e = gti_ioctl(fd, HSAGPU_IOC_GET_INFO, &info);
	snprintf(msg, sizeof(msg), "%d %d %d %d %llu\n", e,
		 intact(h.contig, CONTIG_BYTES, 0x1000),
		 intact(h.chunked, CHUNKED_BYTES, 0x2000),
		 intact(h.orphan, CONTIG_BYTES, 0x3000),
		 (unsigned long long)h.events[h.event - 1]);
	if (write(wfd, msg, strlen(msg)) < 0)
		_exit(4);

	/* On a driver that frees through the DMA API, the damage is here. */
	munmap(h.contig, CONTIG_BYTES);
	munmap(h.chunked, CHUNKED_BYTES);
	munmap(h.orphan, CONTIG_BYTES);
	munmap((void *)h.events, 4096);
	close(fd);
	if (write(wfd, "c\n", 2) < 0)
		_exit(5);
	_exit(0);
}

/* /proc/kpageflags of the page frame with the number @addr >> 12. */
static void show_pfn(const char *what, uint64_t addr)
{
	uint64_t flags = 0;
	int fd = open("/proc/kpageflags", O_RDONLY);

	if (fd < 0 || pread(fd, &flags, 8, (addr >> 12) * 8) != 8)
		DIAG("%s 0x%llx: PFN 0x%llx is not RAM (beyond /proc/kpageflags)", what,
		     (unsigned long long)addr, (unsigned long long)(addr >> 12));
	else
		DIAG("%s 0x%llx: PFN 0x%llx flags 0x%llx%s", what,
		     (unsigned long long)addr, (unsigned long long)(addr >> 12),
		     (unsigned long long)flags,
		     flags & (1ULL << 20) ? " (no struct page)" : "");
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	char devs[GT_MAX_DEVS][16], pci[16], msg[160];
	unsigned long long bus[4] = { 0 }, slot = ~0ULL;
	int n = gt_find_devices(devs), pfd[2], gfd[2], status = -1;
	int e_ioctl = -1, ok_contig = -1, ok_chunked = -1, ok_orphan = -1;
	int kfd, problems, iommu, fd;
	pid_t pid;

	/* A kernel fault may hang us later: keep every line that got out. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (n <= 0)
		return gt_skip("no hsa-gpu device");
	/* The last device: a removal disturbs the others' tests least. */
	snprintf(pci, sizeof(pci), "%s", devs[n - 1]);
	iommu = gt_param("iommu") && !strcmp(gt_param("iommu"), "1");
	DIAG("removing %s with memory held (%s)", pci,
	     iommu ? "IOMMU-translated DMA" : "no IOMMU: IOVA == physical");

	kfd = gtk_mark();
	if (pipe(pfd) || pipe(gfd))
		return 1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		close(gfd[1]);
		holder(pci, pfd[1], gfd[0]);
	}
	close(pfd[1]);
	close(gfd[0]);
	CHECK(gt_read_line(pfd[0], msg, sizeof(msg), 20000) > 0 &&
	      sscanf(msg, "r %llx %llx %llx %llx", &bus[0], &bus[1], &bus[2],
		     &bus[3]) == 4, "holder did not get ready: '%s'", msg);
	show_pfn("contiguous allocation at bus address", bus[0]);
	show_pfn("chunked allocation at bus address", bus[1]);
	show_pfn("event page at bus address", bus[3]);

	CHECK(gtd_remove(pci) == 0, "remove %s", pci);
	CHECK(write(gfd[1], "g", 1) == 1, "go");
	CHECK(gt_read_line(pfd[0], msg, sizeof(msg), 20000) > 0 &&
	      sscanf(msg, "%d %d %d %d %llu", &e_ioctl, &ok_contig, &ok_chunked,
		     &ok_orphan, &slot) == 5,
	      "no report from the holder: '%s'", msg);
	CHECK(e_ioctl == ENODEV, "ioctl after removal: errno %d, expected ENODEV",
	      e_ioctl);
	CHECK(ok_contig == 1 && ok_chunked == 1 && ok_orphan == 1,
	      "system memory after removal: contiguous %d, chunked %d, freed-but-mapped %d (1 = data kept)",
	      ok_contig, ok_chunked, ok_orphan);
	CHECK(slot == HSAGPU_EVENT_SLOT_UNSIGNALED,
	      "event page after removal: slot %llu", slot);

	/* The holder lets go of everything. */
	CHECK(gt_read_line(pfd[0], msg, sizeof(msg), 30000) > 0 &&
	      msg[0] == 'c', "holder did not finish closing: '%s'", msg);
	CHECK(gt_wait_child(pid, &status, 30000) == 0 && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0,
	      "holder ended with wait status 0x%x (killed by signal %d)",
	      status, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	close(pfd[0]);
	close(gfd[1]);
	problems = gtk_problems(kfd, "hsagpu");
	CHECK(problems == 0,
	      "the kernel reported %d problems while the memory of a removed device was freed",
	      problems);

	/* Back again, and usable. */
	CHECK(gtd_rescan(pci, 20000) == 0, "rescan did not bring %s back", pci);
	fd = gtd_open(pci);
	CHECK(fd >= 0, "open after rescan: %d", fd);
	if (fd >= 0) {
		struct hsagpu_alloc_mem am;
		uint32_t ev;

		CHECK(gti_alloc(fd, HSAGPU_MEM_SYSTEM, CONTIG_BYTES, &am) == 0,
		      "ALLOC_MEM after rescan");
		CHECK(gti_event_create(fd, &ev, NULL) == 0, "CREATE_EVENT after rescan");
		close(fd);
	}
	DIAG("%s removed under a holder of DMA memory: ioctl errno %d, memory kept, closer exit 0x%x, %d kernel problems; rescanned",
	     pci, e_ioctl, status, problems);
	return gt_result();
}
