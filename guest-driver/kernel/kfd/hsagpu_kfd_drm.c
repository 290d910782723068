// SPDX-License-Identifier: GPL-2.0
/*
 * hsagpu_amdgpu: one DRM render node per presented device. libhsakmt
 * opens /dev/dri/renderD<drm_render_minor>, hands the descriptor to
 * ACQUIRE_VM and mmap()s GTT and VRAM allocations through it at the
 * offsets ALLOC_MEMORY_OF_GPU returned; it issues no DRM ioctls of its
 * own (libdrm's marketing-name query gets the core ones, and fails
 * harmlessly on the amdgpu ones). The node's parent is the PCI device.
 *
 * The DRM device owns struct hsagpu_kfd_dev: it is freed, with its
 * hsagpu device reference, when the last DRM reference goes (a process
 * context holds one). Unplugging at unbind zaps every CPU mapping of the
 * node (drm_dev_unplug()): they are of one address space, the DRM
 * device's, which is also the hsagpu.ko contexts' zap target.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>

#include "hsagpu_kfd.h"

/*
 * mmap() of an allocation: only through the file ACQUIRE_VM bound (as
 * amdgpu allows a BO only to the DRM file KFD acquired), by the process
 * that bound it; the offset and length must be the allocation's. No
 * lock of the facade here (the mmap lock is held): the file names the
 * hsagpu.ko context, which holds itself.
 */
static int hsagpu_kfd_drm_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct drm_file *priv = file->private_data;
	struct hsagpu_file *hf = READ_ONCE(priv->driver_priv);
	int ret, idx;

	if (!hf || hsagpu_file_mm(hf) != vma->vm_mm)
		return -EACCES;
	if (!drm_dev_enter(priv->minor->dev, &idx))
		return -ENODEV;
	ret = hsagpu_kfd_mem_mmap(hf, vma);
	drm_dev_exit(idx);
	return ret;
}

/*
 * ACQUIRE_VM: @file serves @hf's allocations from now on. -EBUSY: it
 * serves another context already.
 */
int hsagpu_kfd_drm_bind(struct file *file, struct hsagpu_file *hf)
{
	struct drm_file *priv = file->private_data;

	hsagpu_file_get(hf);
	if (cmpxchg(&priv->driver_priv, NULL, hf)) {
		hsagpu_file_put(hf);
		return -EBUSY;
	}
	return 0;
}

static void hsagpu_kfd_drm_postclose(struct drm_device *drm,
				     struct drm_file *priv)
{
	if (priv->driver_priv)
		hsagpu_file_put(priv->driver_priv);
}

static const struct file_operations hsagpu_kfd_drm_fops = {
	.owner = THIS_MODULE,
#ifdef FOP_UNSIGNED_OFFSET
	/* 6.12's drm_open() refuses files without it (mmap offsets > 2^63) */
	.fop_flags = FOP_UNSIGNED_OFFSET,
#endif
	.open = drm_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.compat_ioctl = drm_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.mmap = hsagpu_kfd_drm_mmap,
};

static const struct drm_driver hsagpu_kfd_drm_driver = {
	.driver_features = DRIVER_RENDER,
	.postclose = hsagpu_kfd_drm_postclose,
	.fops = &hsagpu_kfd_drm_fops,
	.name = HSAGPU_KFD_DRV_NAME,
	.desc = "hsa-gpu KFD render node",
	.date = "20261123",
	.major = 1,
	.minor = 0,
};

bool hsagpu_kfd_drm_file_is(struct file *file, struct hsagpu_kfd_dev *kdev)
{
	struct drm_file *priv;

	if (file->f_op != &hsagpu_kfd_drm_fops)
		return false;
	priv = file->private_data;
	return priv->minor->dev == kdev->drm &&
	       priv->minor->type == DRM_MINOR_RENDER;
}

static void hsagpu_kfd_drm_release(struct drm_device *drm, void *data)
{
	struct hsagpu_kfd_dev *kdev = data;

	hsagpu_device_put(kdev->hdev);
	kfree(kdev);
}

/* On failure @kdev and its device reference are gone too. */
int hsagpu_kfd_drm_create(struct hsagpu_kfd_dev *kdev)
{
	struct drm_device *drm;
	int ret;

	drm = drm_dev_alloc(&hsagpu_kfd_drm_driver, &kdev->props.pdev->dev);
	if (IS_ERR(drm)) {
		hsagpu_device_put(kdev->hdev);
		kfree(kdev);
		return PTR_ERR(drm);
	}
	ret = drmm_add_action_or_reset(drm, hsagpu_kfd_drm_release, kdev);
	if (ret) {
		drm_dev_put(drm);
		return ret;
	}
	drm->dev_private = kdev;
	kdev->drm = drm;
	ret = drm_dev_register(drm, 0);
	if (ret) {
		drm_dev_put(drm);
		return ret;
	}
	return 0;
}

/* Unbind: the node goes, its mappings are zapped, new ones fail. */
void hsagpu_kfd_drm_unplug(struct hsagpu_kfd_dev *kdev)
{
	struct drm_device *drm = kdev->drm;

	drm_dev_unplug(drm);
	drm_dev_put(drm);
}
