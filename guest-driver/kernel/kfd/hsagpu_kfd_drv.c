// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu_amdgpu: the KFD facade module (see hsagpu_kfd.h). It takes the
 * names amdkfd takes (char device and class "kfd", device "kfd" without
 * a parent: /sys/devices/virtual/kfd/kfd), so it cannot be loaded with
 * amdgpu.ko; leaving it unloaded keeps /dev/kfd away. It is an
 * auxiliary driver of the hsagpu.kfd.N devices hsagpu.ko adds for its
 * bound hsa-gpus (hsagpu_export.h), so udev loads it with the first one
 * (blacklist it where amdgpu.ko is to have /dev/kfd).
 */
#include <linux/auxiliary_bus.h>
#include <linux/compat.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "hsagpu_kfd.h"

struct hsagpu_kfd hsagpu_kfd = {
	.lock = __MUTEX_INITIALIZER(hsagpu_kfd.lock),
	.devices = LIST_HEAD_INIT(hsagpu_kfd.devices),
	.nodes = LIST_HEAD_INIT(hsagpu_kfd.nodes),
};

static int hsagpu_kfd_major = -1;
static struct class *hsagpu_kfd_class;

/* A live device by gpu_id, with a DRM device reference, or NULL. */
struct hsagpu_kfd_dev *hsagpu_kfd_dev_by_id(u32 gpu_id)
{
	struct hsagpu_kfd_dev *kdev, *found = NULL;

	mutex_lock(&hsagpu_kfd.lock);
	list_for_each_entry(kdev, &hsagpu_kfd.devices, node) {
		if (kdev->gpu_id == gpu_id) {
			drm_dev_get(kdev->drm);
			found = kdev;
			break;
		}
	}
	mutex_unlock(&hsagpu_kfd.lock);
	return found;
}

/* The gpu_ids of the live devices (at most @max); returns how many. */
u32 hsagpu_kfd_dev_ids(u32 *ids, u32 max)
{
	struct hsagpu_kfd_dev *kdev;
	u32 n = 0;

	mutex_lock(&hsagpu_kfd.lock);
	list_for_each_entry(kdev, &hsagpu_kfd.devices, node)
		if (n < max)
			ids[n++] = kdev->gpu_id;
	mutex_unlock(&hsagpu_kfd.lock);
	return n;
}

/*
 * The device's compute units, as hsagpu.ko read them at probe: the
 * COMPUTE_UNITS register (1..64) where the device has one (ABI 1.4),
 * else 8, the device's default.
 */
u32 hsagpu_kfd_compute_units(struct hsagpu_kfd_dev *kdev)
{
	return kdev->props.compute_units;
}

/*
 * gpu_id: amdkfd hashes the device's properties into a non-zero value;
 * ours hashes the PCI location into 16 bits (doorbell mmap offsets carry
 * it in 16 bits) and steps past a collision. hsagpu_kfd.lock held.
 */
static u32 hsagpu_kfd_make_gpu_id(struct pci_dev *pdev)
{
	u32 loc = (u32)pci_domain_nr(pdev->bus) << 16 |
		  pdev->bus->number << 8 | pdev->devfn;
	struct hsagpu_kfd_dev *kdev;
	u32 id = hash_32(loc, 16);
	bool taken;

	do {
		id = (id & 0xffff) ?: 1;
		taken = false;
		list_for_each_entry(kdev, &hsagpu_kfd.devices, node)
			taken |= kdev->gpu_id == id;
		if (taken)
			id++;
	} while (taken);
	return id;
}

/*
 * hsagpu.ko set the device up: present it. Messages name the PCI device,
 * as they did before the auxiliary bus.
 */
static int hsagpu_kfd_probe(struct auxiliary_device *adev,
			    const struct auxiliary_device_id *id)
{
	struct hsagpu_device *hdev = hsagpu_aux_to_device(adev);
	struct hsagpu_kfd_dev *kdev;
	struct device *dev;
	int ret;

	kdev = kzalloc(sizeof(*kdev), GFP_KERNEL);
	if (!kdev)
		return -ENOMEM;
	hsagpu_device_props(hdev, &kdev->props);
	dev = &kdev->props.pdev->dev;
	if (!(kdev->props.caps & HSAGPU_CAP_VM)) {
		dev_info(dev, "no GPU virtual memory: not presented through /dev/kfd\n");
		kfree(kdev);
		return -ENODEV;
	}
	/* Beyond remove(): contexts and the render node outlive the binding. */
	hsagpu_device_get(hdev);
	kdev->hdev = hdev;
	INIT_LIST_HEAD(&kdev->node);
	/* From here on the DRM device owns kdev (freed on failure too). */
	ret = hsagpu_kfd_drm_create(kdev);
	if (ret) {
		dev_err(dev, "no KFD render node: %d\n", ret);
		return ret;
	}

	mutex_lock(&hsagpu_kfd.lock);
	kdev->gpu_id = hsagpu_kfd_make_gpu_id(kdev->props.pdev);
	list_add_tail(&kdev->node, &hsagpu_kfd.devices);
	kdev->live = true;
	hsagpu_kfd.generation++;
	hsagpu_kfd_topology_update();
	mutex_unlock(&hsagpu_kfd.lock);
	auxiliary_set_drvdata(adev, kdev);
	dev_info(dev, "KFD: gpu_id %u, render node %d, %u compute units\n",
		 kdev->gpu_id, kdev->drm->render->index,
		 kdev->props.compute_units);
	return 0;
}

/* First thing in hsagpu.ko's remove(), or the facade is unloaded. */
static void hsagpu_kfd_remove(struct auxiliary_device *adev)
{
	struct hsagpu_kfd_dev *kdev = auxiliary_get_drvdata(adev);

	mutex_lock(&hsagpu_kfd.lock);
	list_del_init(&kdev->node);
	kdev->live = false;
	hsagpu_kfd.generation++;
	hsagpu_kfd_topology_update();
	mutex_unlock(&hsagpu_kfd.lock);
	/* Render-node mappings are zapped; contexts see -ENODEV. */
	hsagpu_kfd_drm_unplug(kdev);
}

static const struct auxiliary_device_id hsagpu_kfd_ids[] = {
	{ .name = "hsagpu." HSAGPU_AUX_KFD },
	{ }
};
MODULE_DEVICE_TABLE(auxiliary, hsagpu_kfd_ids);

static struct auxiliary_driver hsagpu_kfd_driver = {
	.name = "kfd",
	.id_table = hsagpu_kfd_ids,
	.probe = hsagpu_kfd_probe,
	.remove = hsagpu_kfd_remove,
};

static int hsagpu_kfd_open(struct inode *inode, struct file *file)
{
	struct hsagpu_kfd_process *p;

	if (iminor(inode) != 0)
		return -ENODEV;
	/* As amdkfd: 64-bit processes only. */
	if (in_compat_syscall())
		return -EPERM;
	p = hsagpu_kfd_process_get();
	if (IS_ERR(p))
		return PTR_ERR(p);
	file->private_data = p;
	return 0;
}

static int hsagpu_kfd_release(struct inode *inode, struct file *file)
{
	hsagpu_kfd_process_put(file->private_data);
	return 0;
}

static int hsagpu_kfd_mmap_fop(struct file *file, struct vm_area_struct *vma)
{
	struct hsagpu_kfd_process *p = file->private_data;

	if (vma->vm_mm != p->mm)
		return -EBADF;
	return hsagpu_kfd_mmap(p, vma);
}

static const struct file_operations hsagpu_kfd_fops = {
	.owner = THIS_MODULE,
	.open = hsagpu_kfd_open,
	.release = hsagpu_kfd_release,
	.unlocked_ioctl = hsagpu_kfd_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = hsagpu_kfd_mmap_fop,
	.llseek = noop_llseek,
};

static int __init hsagpu_kfd_init(void)
{
	int ret;

	hsagpu_kfd_major = register_chrdev(0, "kfd", &hsagpu_kfd_fops);
	if (hsagpu_kfd_major < 0)
		return hsagpu_kfd_major;
	hsagpu_kfd_class = hsagpu_class_create("kfd");
	if (IS_ERR(hsagpu_kfd_class)) {
		ret = PTR_ERR(hsagpu_kfd_class);
		goto out_chrdev;
	}
	hsagpu_kfd.kfd_device = device_create(hsagpu_kfd_class, NULL,
					      MKDEV(hsagpu_kfd_major, 0), NULL,
					      "kfd");
	if (IS_ERR(hsagpu_kfd.kfd_device)) {
		ret = PTR_ERR(hsagpu_kfd.kfd_device);
		goto out_class;
	}
	ret = hsagpu_kfd_topology_init();
	if (ret)
		goto out_device;
	/* Last: probe() runs for every device bound already. */
	ret = auxiliary_driver_register(&hsagpu_kfd_driver);
	if (ret)
		goto out_topology;
	return 0;

out_topology:
	hsagpu_kfd_topology_exit();
out_device:
	device_destroy(hsagpu_kfd_class, MKDEV(hsagpu_kfd_major, 0));
out_class:
	class_destroy(hsagpu_kfd_class);
out_chrdev:
	unregister_chrdev(hsagpu_kfd_major, "kfd");
	return ret;
}
module_init(hsagpu_kfd_init);

/* Every /dev/kfd and render-node file holds the module: none is open. */
static void __exit hsagpu_kfd_exit(void)
{
	/* remove() runs for every device it is bound to. */
	auxiliary_driver_unregister(&hsagpu_kfd_driver);
	hsagpu_kfd_topology_exit();
	device_destroy(hsagpu_kfd_class, MKDEV(hsagpu_kfd_major, 0));
	class_destroy(hsagpu_kfd_class);
	unregister_chrdev(hsagpu_kfd_major, "kfd");
}
module_exit(hsagpu_kfd_exit);

MODULE_DESCRIPTION("KFD (/dev/kfd) interface for the QEMU hsa-gpu accelerator, for ROCm user space");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(HSAGPU);
