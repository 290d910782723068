/*
 * ktap-example: an out-of-tree test program that reports KTAP, the
 * format of the kernel's selftests, for scripts/test-boot --run-program
 * (docs/testing.md). Build it statically: the guest has no C library.
 *
 *   cc -static -O2 -o ktap-example ktap-example.c
 *   scripts/test-boot --preset single --run-program ./ktap-example
 *
 * Three results: a plain test, a nested subtest "device" (is there an
 * hsa-gpu function; is hsagpu.ko bound to it, SKIP when no driver is
 * loaded) and "arithmetic", which fails when run as "ktap-example --fail".
 * Exit status 1 when something failed, as kselftest programs do.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned read_hex(const char *dir, const char *file)
{
	char path[512];
	unsigned v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%x", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* PCI functions with hsa-gpu's IDs (1b36:00f0) */
static int count_devices(void)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && read_hex(e->d_name, "vendor") == 0x1b36 &&
		    read_hex(e->d_name, "device") == 0x00f0)
			n++;
	closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	int fail = argc > 1 && !strcmp(argv[1], "--fail");
	int failed = 0, ndev, two = 2;
	struct timespec a, b;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n");
	printf("1..3\n");

	clock_gettime(CLOCK_MONOTONIC, &a);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (b.tv_sec > a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec >= a.tv_nsec)) {
		printf("ok 1 clock_monotonic\n");
	} else {
		printf("not ok 1 clock_monotonic\n");
		failed = 1;
	}

	/* a nested subtest: indented, with its own version line and plan */
	printf("    KTAP version 1\n");
	printf("    # Subtest: device\n");
	printf("    1..2\n");
	ndev = count_devices();
	printf("    # %d hsa-gpu function(s)\n", ndev);
	printf("    %s 1 present\n", ndev > 0 ? "ok" : "not ok");
	if (access("/sys/bus/pci/drivers/hsagpu", F_OK) == 0)
		printf("    ok 2 driver_bound\n");
	else
		printf("    ok 2 driver_bound # SKIP hsagpu.ko is not loaded\n");
	printf("%s 2 device\n", ndev > 0 ? "ok" : "not ok");
	failed |= ndev == 0;

	if (two + two + fail == 4) {
		printf("ok 3 arithmetic\n");
	} else {
		printf("# expected 4, got %d\n", two + two + fail);
		printf("not ok 3 arithmetic\n");
		failed = 1;
	}
	return failed;
}
