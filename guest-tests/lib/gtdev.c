// SPDX-License-Identifier: GPL-2.0-or-later
/* Device life-cycle helpers of the guest tests: see gtdev.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gt.h"
#include "gtdev.h"
#include "gtq.h"

static unsigned long long gtd_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

static void gtd_nap(void)
{
	struct timespec ts = { 0, 20 * 1000000 };

	nanosleep(&ts, NULL);
}

int gtd_devnode(const char *pci, char *path, size_t len)
{
	char dir[128];
	struct dirent *e;
	DIR *d;
	int ret = -1;

	snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s/misc", pci);
	d = opendir(dir);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (!strncmp(e->d_name, "hsagpu", 6)) {
			snprintf(path, len, "/dev/%s", e->d_name);
			ret = 0;
			break;
		}
	}
	closedir(d);
	return ret;
}

int gtd_open(const char *pci)
{
	char path[64];
	int fd;

	if (gtd_devnode(pci, path, sizeof(path)))
		return -ENODEV;
	fd = open(path, O_RDWR | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int gtd_open_vm(const char *pci, int vm)
{
	int old = gtq_vm_param_set(vm);
	int fd;

	if (old < 0)
		return old;
	fd = gtd_open(pci);
	if (old != vm)
		gtq_vm_param_set(old);
	return fd;
}

int gtd_remove(const char *pci)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/remove", pci);
	return gt_sysfs_write(path, "1");
}

int gtd_rescan(const char *pci, unsigned int ms)
{
	unsigned long long end = gtd_ms() + ms;
	char drv[128], path[64];

	if (gt_sysfs_write("/sys/bus/pci/rescan", "1"))
		return -1;
	snprintf(drv, sizeof(drv), "/sys/bus/pci/drivers/hsagpu/%s", pci);
	do {
		if (!access(drv, F_OK) &&
		    !gtd_devnode(pci, path, sizeof(path)) &&
		    !access(path, F_OK))
			return 0;
		gtd_nap();
	} while (gtd_ms() < end);
	return -1;
}

int gtk_mark(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

static const char *const gtk_patterns[] = {
	"Oops", "BUG:", "WARNING:", "Bad page state", "general protection",
	"unable to handle", "list_add corruption", "list_del corruption",
	"Bad rss-counter", "kernel BUG", "Call Trace",
};

int gtk_problems(int fd, const char *also)
{
	char rec[2048];
	int n = 0;
	size_t i;

	if (fd < 0)
		return 0;
	for (;;) {
		ssize_t r = read(fd, rec, sizeof(rec) - 1);
		char *msg;

		if (r < 0 && errno == EPIPE)
			continue;       /* overwritten records: go on */
		if (r <= 0)
			break;
		rec[r] = 0;
		/* "prio,seq,ts,flags;message\n continuation lines" */
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		msg[strcspn(msg, "\n")] = 0;
		for (i = 0; i < sizeof(gtk_patterns) / sizeof(gtk_patterns[0]); i++)
			if (strstr(msg, gtk_patterns[i]))
				break;
		if (i < sizeof(gtk_patterns) / sizeof(gtk_patterns[0])) {
			printf("# kernel: %s\n", msg);
			n++;
		} else if (also && strstr(msg, also)) {
			printf("# kernel: %s\n", msg);
		}
	}
	close(fd);
	return n;
}

int gt_wait_child(pid_t pid, int *status, unsigned int ms)
{
	unsigned long long end = gtd_ms() + ms;

	do {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0)
			return -1;
		gtd_nap();
	} while (gtd_ms() < end);
	/* A task that died in the kernel may never be reaped: do not wait. */
	kill(pid, SIGKILL);
	end = gtd_ms() + 2000;
	while (waitpid(pid, status, WNOHANG) == 0 && gtd_ms() < end)
		gtd_nap();
	return -1;
}

int gt_read_line(int fd, char *buf, size_t len, unsigned int ms)
{
	unsigned long long end = gtd_ms() + ms;
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	size_t got = 0;

	while (got < len - 1) {
		long long left = (long long)(end - gtd_ms());
		ssize_t n;

		if (left <= 0 || poll(&pf, 1, (int)left) != 1)
			break;
		n = read(fd, buf + got, 1);
		if (n <= 0 || buf[got] == '\n')
			break;
		got++;
	}
	buf[got] = 0;
	return got;
}
