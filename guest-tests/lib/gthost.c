// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Guest side of the harness channel (gthost.h). Each request line carries
 * a tag, "#<pid>.<n> ", that the harness repeats on its reply: a reply
 * left over from an earlier caller that gave up (timeout, killed) is
 * skipped instead of being taken for this one's.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "gt.h"
#include "gthost.h"

#define GTH_TTY "/dev/ttyS1"
#define GTH_LOCK "/tmp/gthost.lock"

unsigned int gt_host_timeout_ms = 300000;

static pthread_mutex_t gth_mutex = PTHREAD_MUTEX_INITIALIZER;
static unsigned int gth_seq;
/* the port stays open in a process: opening it (UART start-up) is slow */
static int gth_fd = -1;
static pid_t gth_pid;

int gt_host_attached(void)
{
	const char *v = gt_param("host");

	return v && !strcmp(v, "1");
}

static uint64_t gth_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/* Raw 8-bit, no echo (an echo would go back to the host as a request). */
static int gth_open(void)
{
	struct termios t;
	int fd;

	if (gth_fd >= 0 && gth_pid == getpid())
		return gth_fd;
	if (gth_fd >= 0)
		close(gth_fd);  /* inherited over fork(): the parent keeps its own */
	gth_fd = -1;
	fd = open(GTH_TTY, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		cfsetispeed(&t, B115200);
		cfsetospeed(&t, B115200);
		t.c_cflag |= CLOCAL | CREAD;
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		tcsetattr(fd, TCSANOW, &t);
	}
	tcflush(fd, TCIFLUSH);
	gth_fd = fd;
	gth_pid = getpid();
	return fd;
}

static int gth_write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		len -= w;
	}
	return 0;
}

/*
 * Read lines until one starts with @tag; copy what follows the tag into
 * @reply. Returns the length or a -errno.
 */
static int gth_read_reply(int fd, const char *tag, char *reply, size_t n,
			  uint64_t deadline)
{
	size_t taglen = strlen(tag), pos = 0, len = 0;
	int matching = 1, truncated = 0;

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint64_t now = gth_now_ms();
		char buf[256];
		ssize_t r;
		int pr;

		if (now >= deadline)
			return -ETIMEDOUT;
		pr = poll(&pfd, 1, (int)(deadline - now));
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			return -errno;
		if (pr == 0)
			continue;
		r = read(fd, buf, sizeof(buf));
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		for (ssize_t i = 0; i < r; i++) {
			char c = buf[i];

			if (c == '\n') {
				if (matching && pos >= taglen) {
					reply[len] = 0;
					return truncated ? -EMSGSIZE : (int)len;
				}
				pos = len = 0;
				matching = 1;
				truncated = 0;
				continue;
			}
			if (c == '\r')
				continue;
			if (pos < taglen) {
				matching &= c == tag[pos];
				pos++;
				continue;
			}
			pos++;
			if (!matching)
				continue;
			if (len + 1 < n)
				reply[len++] = c;
			else
				truncated = 1;
		}
	}
}

int gt_host(const char *request, char *reply, size_t n)
{
	char tag[32], dummy[8];
	int fd, lock, ret;

	if (!gt_host_attached())
		return -ENODEV;
	if (strchr(request, '\n'))
		return -EINVAL;
	if (!reply || !n) {
		reply = dummy;
		n = sizeof(dummy);
	}
	pthread_mutex_lock(&gth_mutex);
	/* one request at a time on the port, across processes too */
	lock = open(GTH_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lock >= 0)
		while (flock(lock, LOCK_EX) < 0 && errno == EINTR)
			;
	fd = gth_open();
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	snprintf(tag, sizeof(tag), "#%d.%u ", (int)getpid(), ++gth_seq);
	ret = gth_write_all(fd, tag, strlen(tag));
	if (!ret)
		ret = gth_write_all(fd, request, strlen(request));
	if (!ret)
		ret = gth_write_all(fd, "\n", 1);
	if (!ret)
		ret = gth_read_reply(fd, tag, reply, n,
				     gth_now_ms() + gt_host_timeout_ms);
	if (ret < 0 && ret != -ETIMEDOUT && ret != -EMSGSIZE) {
		close(fd);      /* the port failed: open it again next time */
		gth_fd = -1;
	}
out:
	if (lock >= 0)
		close(lock);
	pthread_mutex_unlock(&gth_mutex);
	return ret;
}

const char *gt_json_find(const char *json, const char *key)
{
	char pat[128];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(json, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	while (*p == ' ')
		p++;
	return p;
}

int gt_qmp(const char *cmd_json, char *reply, size_t n)
{
	char req[1024], buf[4096];
	const char *desc;
	int ret;

	if (!reply || !n) {
		reply = buf;
		n = sizeof(buf);
	}
	snprintf(req, sizeof(req), "QMP %s", cmd_json);
	ret = gt_host(req, reply, n);
	if (ret < 0)
		return ret;
	if (gt_json_find(reply, "return"))
		return 0;
	desc = gt_json_find(reply, "desc");
	printf("# QMP %s: %s\n", cmd_json, desc ? desc : reply);
	return -EREMOTEIO;
}

int gt_qom_set(const char *dev_id, const char *prop, const char *json_value)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "{\"execute\": \"qom-set\", \"arguments\": {\"path\": "
		 "\"/machine/peripheral/%s\", \"property\": \"%s\", "
		 "\"value\": %s}}", dev_id, prop, json_value);
	return gt_qmp(cmd, NULL, 0);
}

int gt_qom_get_u64(const char *dev_id, const char *prop, uint64_t *val)
{
	char cmd[512], reply[512];
	const char *v;
	char *end;
	int ret;

	snprintf(cmd, sizeof(cmd),
		 "{\"execute\": \"qom-get\", \"arguments\": {\"path\": "
		 "\"/machine/peripheral/%s\", \"property\": \"%s\"}}",
		 dev_id, prop);
	ret = gt_qmp(cmd, reply, sizeof(reply));
	if (ret < 0)
		return ret;
	v = gt_json_find(reply, "return");
	if (!strncmp(v, "true", 4) || !strncmp(v, "false", 5)) {
		*val = v[0] == 't';
		return 0;
	}
	*val = strtoull(v, &end, 0);
	return end == v ? -EPROTO : 0;
}

int gt_device_add_again(const char *dev_id)
{
	char req[128], reply[1024], cmd[1200];
	const char *v;
	size_t len;
	int ret;

	snprintf(req, sizeof(req), "DEVARGS %s", dev_id);
	ret = gt_host(req, reply, sizeof(reply));
	if (ret < 0)
		return ret;
	v = gt_json_find(reply, "return");
	if (!v || *v != '"') {
		printf("# DEVARGS %s: %s\n", dev_id, reply);
		return -EREMOTEIO;
	}
	v++;
	len = strcspn(v, "\"");
	snprintf(cmd, sizeof(cmd),
		 "{\"execute\": \"human-monitor-command\", \"arguments\": "
		 "{\"command-line\": \"device_add %.*s\"}}", (int)len, v);
	ret = gt_qmp(cmd, reply, sizeof(reply));
	if (ret < 0)
		return ret;
	/* HMP reports errors as text: success is an empty string */
	v = gt_json_find(reply, "return");
	if (strncmp(v, "\"\"", 2)) {
		printf("# device_add %s: %s\n", dev_id, reply);
		return -EREMOTEIO;
	}
	return 0;
}
