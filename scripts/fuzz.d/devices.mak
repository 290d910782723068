# Devices of the fuzz build (scripts/build-fuzz, configure
# --without-default-devices --with-devices-x86_64=hsagpu-fuzz): q35 and what
# the configurations of scripts/fuzz put on it: PCIe root ports, the x3130
# switch, intel-iommu and hsa-gpu. Everything else (and QEMU's other fuzz
# targets, which need their devices) stays out of the instrumented build.
CONFIG_Q35=y
CONFIG_PCIE_PORT=y
CONFIG_XIO3130=y
CONFIG_VTD=y
CONFIG_HSA_GPU=y
