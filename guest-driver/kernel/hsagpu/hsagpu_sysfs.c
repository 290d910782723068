// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu: what the driver learned at probe time, under the PCI device, in
 * <device>/hsagpu/, one value per file; documented in
 * Documentation/ABI/testing/sysfs-driver-hsagpu. Debug counters are in
 * debugfs (hsagpu_debugfs.c).
 */
#include <linux/device.h>
#include <linux/sysfs.h>

#include "hsagpu.h"

#define HSAGPU_ATTR(_name, _fmt, ...)					\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct hsagpu_device *hdev = dev_get_drvdata(dev);		\
	return sysfs_emit(buf, _fmt "\n", __VA_ARGS__);		\
}									\
static DEVICE_ATTR_RO(_name)

HSAGPU_ATTR(vram_size, "%llu", hdev->vram_size);
HSAGPU_ATTR(doorbell_count, "%u", hdev->doorbell_count);
HSAGPU_ATTR(doorbell_stride, "%u", hdev->doorbell_stride);
HSAGPU_ATTR(num_queues, "%u", hdev->num_queues);
HSAGPU_ATTR(msix_vectors, "%u", hdev->msix_vectors);
HSAGPU_ATTR(abi_version, "%u.%u", hdev->abi_version >> 16,
	    hdev->abi_version & 0xffff);
HSAGPU_ATTR(caps, "0x%08x", hdev->caps);
HSAGPU_ATTR(product_name, "%s", hdev->name);
HSAGPU_ATTR(devname, "%s", hdev->devname);
HSAGPU_ATTR(atomic_ops_errno, "%d", hdev->atomics_errno);
HSAGPU_ATTR(atomic_ops_128_errno, "%d", hdev->atomics128_errno);
HSAGPU_ATTR(atomic_requester, "%d", hdev->atomic_requester);
HSAGPU_ATTR(atomic_ops, "%s",
	    hdev->atomics_errno ? "unsupported" :
	    hdev->atomics128_errno ? "32,64" : "32,64,128");
HSAGPU_ATTR(queues_active, "%u", READ_ONCE(hdev->queues_active));
/*
 * Also in debugfs, where debug counters belong; kept here (obsolete) while
 * guest tests read it from sysfs.
 */
HSAGPU_ATTR(error_irqs, "%d", atomic_read(&hdev->error_irqs));
/* The reason for "refused" is atomic_ops_errno and the probe's log. */
HSAGPU_ATTR(queues, "%s",
	    !hsagpu_queues_allowed(hdev) ?
	    (hdev->atomics_errno ? "degraded" : "allowed") : "refused");

static struct attribute *hsagpu_attrs[] = {
	&dev_attr_vram_size.attr,
	&dev_attr_doorbell_count.attr,
	&dev_attr_doorbell_stride.attr,
	&dev_attr_num_queues.attr,
	&dev_attr_msix_vectors.attr,
	&dev_attr_abi_version.attr,
	&dev_attr_caps.attr,
	&dev_attr_product_name.attr,
	&dev_attr_devname.attr,
	&dev_attr_atomic_ops.attr,
	&dev_attr_atomic_ops_errno.attr,
	&dev_attr_atomic_ops_128_errno.attr,
	&dev_attr_atomic_requester.attr,
	&dev_attr_error_irqs.attr,
	&dev_attr_queues_active.attr,
	&dev_attr_queues.attr,
	NULL
};

static const struct attribute_group hsagpu_group = {
	.name = "hsagpu",
	.attrs = hsagpu_attrs,
};

const struct attribute_group *hsagpu_groups[] = {
	&hsagpu_group,
	NULL
};
