/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chmu_regs.h - CXL Hotness Monitoring Unit registers (CXL r3.2 8.2.8) and
 * the register driver that runs a CHMU instance behind struct cxl_hmu_ops.
 *
 * A CHMU block starts with two common capability registers; instance i
 * follows at 0x10 + i * instance length.  Offsets below the instance are
 * relative to the instance.  The range bitmap and the hotlist ring sit at
 * offsets the instance advertises itself.
 */
#ifndef CXL_HMU_CHMU_REGS_H
#define CXL_HMU_CHMU_REGS_H

#include <linux/bits.h>
#include <linux/interrupt.h>
#include <linux/types.h>

#include "backend.h"

/* common capabilities, relative to the block */
#define CHMU_COMMON_CAP0		0x00
#define   CHMU_COMMON_CAP0_VERSION	GENMASK_ULL(3, 0)
#define   CHMU_COMMON_CAP0_INSTANCES	GENMASK_ULL(15, 8)
#define CHMU_COMMON_CAP1		0x08
#define   CHMU_COMMON_CAP1_INST_LEN	GENMASK_ULL(15, 0)
#define CHMU_INSTANCE0			0x10

/* per instance */
#define CHMU_CAP0			0x00
#define   CHMU_CAP0_MSI_N		GENMASK_ULL(3, 0)
#define   CHMU_CAP0_OVRFLW_INT		BIT_ULL(4)
#define   CHMU_CAP0_FILLTHRESH_INT	BIT_ULL(5)
#define   CHMU_CAP0_MAX_SCALE		GENMASK_ULL(19, 16)
#define   CHMU_CAP0_MAX_MULT		GENMASK_ULL(31, 20)
#define   CHMU_CAP0_MIN_SCALE		GENMASK_ULL(35, 32)
#define   CHMU_CAP0_MIN_MULT		GENMASK_ULL(47, 36)
#define   CHMU_CAP0_HOTLIST_SIZE	GENMASK_ULL(63, 48)
#define CHMU_CAP1			0x08
#define   CHMU_CAP1_UNIT_SIZES		GENMASK_ULL(31, 0)	/* bit n: 2^(n + 8) bytes */
#define   CHMU_CAP1_DOWNSAMPLING	GENMASK_ULL(47, 32)	/* bit n: 1 in 2^n */
#define   CHMU_CAP1_EPOCH		BIT_ULL(48)
#define   CHMU_CAP1_ALWAYS_ON		BIT_ULL(49)
#define   CHMU_CAP1_RAND_DOWNSAMPLING	BIT_ULL(50)
#define CHMU_BITMAP_OFFSET		0x10
#define CHMU_HOTLIST_OFFSET		0x18
#define CHMU_CFG0			0x40
#define   CHMU_CFG0_WHAT		GENMASK_ULL(7, 0)
#define   CHMU_CFG0_RAND_DOWNSAMPLING	BIT_ULL(8)
#define   CHMU_CFG0_OVRFLW_INT_EN	BIT_ULL(9)
#define   CHMU_CFG0_FILLTHRESH_INT_EN	BIT_ULL(10)
#define   CHMU_CFG0_ENABLE		BIT_ULL(16)
#define   CHMU_CFG0_RESET		BIT_ULL(17)
#define   CHMU_CFG0_HOTNESS_THRESHOLD	GENMASK_ULL(63, 32)
#define CHMU_CFG1			0x48
#define   CHMU_CFG1_UNIT_SIZE		GENMASK_ULL(31, 0)	/* log2 bytes */
#define   CHMU_CFG1_DOWNSAMPLING	GENMASK_ULL(39, 32)	/* log2 */
#define   CHMU_CFG1_MODE		GENMASK_ULL(47, 40)	/* 0 epoch, 1 always on */
#define   CHMU_CFG1_EPOCH_SCALE		GENMASK_ULL(51, 48)
#define   CHMU_CFG1_EPOCH_MULT		GENMASK_ULL(63, 52)
#define CHMU_CFG2			0x50
#define   CHMU_CFG2_FILL_THRESHOLD	GENMASK_ULL(15, 0)
#define CHMU_STATUS			0x60
#define   CHMU_STATUS_ENABLED		BIT_ULL(0)
#define   CHMU_STATUS_OP		GENMASK_ULL(31, 16)
#define     CHMU_OP_NONE		0
#define     CHMU_OP_ENABLE		1
#define     CHMU_OP_DISABLE		2
#define     CHMU_OP_RESET		3
#define   CHMU_STATUS_COUNTER_WIDTH	GENMASK_ULL(39, 32)
#define   CHMU_STATUS_OVRFLW		BIT_ULL(40)
#define   CHMU_STATUS_FILLTHRESH	BIT_ULL(41)
#define CHMU_HEAD			0x68	/* 16 bit */
#define CHMU_TAIL			0x6a	/* 16 bit */

/* epoch scale codes 1..5 in microseconds */
extern const u32 chmu_epoch_scale_us[6];

struct chmu_inst;

/**
 * struct chmu_platform_ops - what the bus glue provides to the register driver
 * @get:	power the instance up before use; process context, may sleep
 * @put:	the reverse of @get; process context, may sleep
 * @route_irq:	steer the instance's interrupt to @cpu (irq_set_affinity on
 *		real hardware); process context, may sleep
 */
struct chmu_platform_ops {
	int (*get)(struct chmu_inst *ci);
	void (*put)(struct chmu_inst *ci);
	void (*route_irq)(struct chmu_inst *ci, unsigned int cpu);
};

/**
 * struct chmu_inst - one CHMU instance driven through its registers
 * @dev:	what the PMU sees (ops are the register driver's)
 * @base:	the instance's registers
 * @plat:	bus glue
 * @hotlist_off: offset of the hotlist ring from @base
 * @bitmap_off:	offset of the range bitmap from @base
 * @entries:	hotlist ring size (it holds @entries - 1)
 * @cfg0:	CFG0 as configured, ENABLE and RESET clear
 */
struct chmu_inst {
	struct cxl_hmu_dev dev;
	void __iomem *base;
	const struct chmu_platform_ops *plat;
	u64 hotlist_off;
	u64 bitmap_off;
	u16 entries;
	u64 cfg0;
};

/**
 * chmu_inst_probe() - read the capabilities of instance @index of a block
 * @ci:		filled in; the caller sets @ci->dev's names and cpu afterwards
 * @block:	the CHMU block's registers
 * @index:	instance number
 * @plat:	bus glue
 *
 * Return: 0, -ENODEV for an instance the PMU cannot use, or -EINVAL.
 */
int chmu_inst_probe(struct chmu_inst *ci, void __iomem *block, unsigned int index,
		    const struct chmu_platform_ops *plat);

/**
 * chmu_inst_irq() - the instance's interrupt handler body
 * @ci:		the instance
 *
 * Call in hard interrupt context on the CPU the interrupt is routed to.
 *
 * Return: IRQ_NONE when neither FILLTHRESH nor OVRFLW is set.
 */
irqreturn_t chmu_inst_irq(struct chmu_inst *ci);

#endif /* CXL_HMU_CHMU_REGS_H */
