// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <poll.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gt.h"
#include "hsagpu/vega10_regs.h"

int gt_failures;

int gt_result(void)
{
	printf("# %s (%d failed checks)\n", gt_failures ? "FAILED" : "passed",
	       gt_failures);
	fflush(stdout);
	return gt_failures ? 1 : 0;
}

int gt_skip(const char *fmt, ...)
{
	char why[200];
	va_list ap;

	if (gt_failures)
		return gt_result();
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	/* One line: the runner copies it into the TAP directive. */
	why[strcspn(why, "\n#")] = 0;
	printf("# SKIP: %s\n", why);
	fflush(stdout);
	return 77;
}

static char cmdline[4096];

void gt_expect(int got, int want, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	CHECK(got == want, "%s: errno %d (%s), expected %d (%s)", what, got,
	      strerror(got), want, strerror(want));
}

const char *gt_param(const char *key)
{
	static char val[256];
	char pat[128];
	const char *p;
	size_t n;

	if (!cmdline[0]) {
		FILE *f = fopen("/proc/cmdline", "r");

		if (!f || !fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = ' ';
		if (f)
			fclose(f);
	}
	snprintf(pat, sizeof(pat), "hsagpu_test.%s=", key);
	for (p = cmdline; (p = strstr(p, pat)); p++) {
		if (p == cmdline || p[-1] == ' ')
			break;
	}
	if (!p)
		return NULL;
	p += strlen(pat);
	n = strcspn(p, " \n");
	if (n >= sizeof(val))
		n = sizeof(val) - 1;
	memcpy(val, p, n);
	val[n] = 0;
	return val;
}

int gt_param_u64(const char *key, int idx, uint64_t *val)
{
	const char *s = gt_param(key);
	char *end;

	if (!s)
		return -1;
	while (idx-- > 0) {
		s = strchr(s, ',');
		if (!s)
			return -1;
		s++;
	}
	*val = strtoull(s, &end, 0);
	switch (*end) {
	case 'G': *val <<= 10; /* fall through */
	case 'M': *val <<= 10; /* fall through */
	case 'K': *val <<= 10; break;
	}
	return 0;
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(a, b);
}

int gt_find_vega10;

int gt_find_devices(char names[GT_MAX_DEVS][16])
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < GT_MAX_DEVS) {
		uint64_t ven, dev;

		if (e->d_name[0] == '.' || strlen(e->d_name) >= 16)
			continue;
		if (gt_sysfs_u64(e->d_name, "vendor", &ven) ||
		    gt_sysfs_u64(e->d_name, "device", &dev))
			continue;
		if ((ven == HSAGPU_PCI_VENDOR_ID && dev == HSAGPU_PCI_DEVICE_ID) ||
		    (gt_find_vega10 && ven == V10_PCI_VENDOR_ID &&
		     dev == V10_PCI_DEVICE_ID))
			strcpy(names[n++], e->d_name);
	}
	closedir(d);
	qsort(names, n, 16, cmpstr);
	return n;
}

int gt_sysfs_read(const char *dev, const char *file, char *buf, size_t len)
{
	char path[256];
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", dev, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	r = read(fd, buf, len - 1);
	close(fd);
	if (r < 0)
		return -errno;
	buf[r] = 0;
	while (r > 0 && buf[r - 1] == '\n')
		buf[--r] = 0;
	return 0;
}

int gt_sysfs_u64(const char *dev, const char *file, uint64_t *val)
{
	char buf[64];
	int ret = gt_sysfs_read(dev, file, buf, sizeof(buf));

	if (ret)
		return ret;
	*val = strtoull(buf, NULL, 0);
	return 0;
}

/* The driver's debug counters: /sys/kernel/debug/hsagpu/<dev>/<name> */
int gt_debugfs_u64(const char *dev, const char *name, uint64_t *val)
{
	char path[256], buf[64];
	ssize_t r;
	int fd;

	if (access("/sys/kernel/debug/hsagpu", F_OK))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	snprintf(path, sizeof(path), "/sys/kernel/debug/hsagpu/%s/%s", dev,
		 name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r < 0)
		return -errno;
	buf[r] = 0;
	*val = strtoull(buf, NULL, 0);
	return 0;
}

int gt_sysfs_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t r;

	if (fd < 0)
		return -errno;
	r = write(fd, val, strlen(val));
	close(fd);
	return r < 0 ? -errno : 0;
}

void *gt_map_resource(const char *dev, int bar, size_t *len)
{
	char path[256];
	struct stat st;
	void *p;
	int fd;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource%d%s",
		 dev, bar, bar == HSAGPU_BAR_VRAM ? "_wc" : "");
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0 && bar == HSAGPU_BAR_VRAM) {
		path[strlen(path) - 3] = 0;
		fd = open(path, O_RDWR | O_SYNC);
	}
	if (fd < 0 || fstat(fd, &st))
		return NULL;
	p = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	*len = st.st_size;
	return p;
}

int gt_sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	fflush(stdout);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void gt_sort_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
}

int gt_read_full(int fd, void *buf, size_t len, unsigned int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t got = 0;

	while (got < len) {
		ssize_t r;

		if (poll(&p, 1, ms) != 1)
			return -1;
		r = read(fd, (char *)buf + got, len - got);
		if (r <= 0)
			return -1;
		got += r;
	}
	return 0;
}

uint64_t gt_msi_irqs(const char *dev)
{
	char path[128], line[1024];
	uint64_t total = 0;
	int irqs[256], n = 0;
	struct dirent *e;
	DIR *dir;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/msi_irqs",
		 dev);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((e = readdir(dir)) && n < 256)
		if (e->d_name[0] != '.')
			irqs[n++] = atoi(e->d_name);
	closedir(dir);
	f = fopen("/proc/interrupts", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		long irq = strtol(p, &end, 10);
		int mine = 0;

		if (end == p || *end != ':')
			continue;
		for (int i = 0; i < n; i++)
			mine |= irqs[i] == irq;
		if (!mine)
			continue;
		for (p = end + 1;;) {
			unsigned long long c = strtoull(p, &end, 10);

			if (end == p)
				break;
			total += c;
			p = end;
		}
	}
	fclose(f);
	return total;
}
