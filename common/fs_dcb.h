/*
 * fs_dcb.h - a net device's IEEE 802.1Qaz DCB settings (PFC and the APP
 * table), read from the kernel's DCB netlink interface (rtnetlink
 * RTM_GETDCB, DCB_CMD_IEEE_GET: what iproute2's `dcb pfc show` and `dcb
 * app show` print), and the priority a RoCE job's traffic takes on it.
 * No Slurm header.
 */
#ifndef FS_DCB_H
#define FS_DCB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FS_DCB_APP_MAX 256 /* APP table entries kept */

struct fs_dcb {
	bool has_pfc;	 /* the driver reported PFC */
	uint8_t pfc_cap; /* traffic classes that can have PFC */
	uint8_t pfc_en;	 /* bit p: PFC on for priority p */
	int napp;
	struct fs_dcb_app {
		uint8_t selector; /* 1 ethertype, 2 TCP, 3 UDP, 4 port, 5 DSCP */
		uint8_t priority;
		uint16_t protocol;
	} app[FS_DCB_APP_MAX];
};

/* The settings of net device @ifname.  0: read; 1: the device's driver has
 * no DCB (nothing to check); -1: error, said in (err, errlen). */
int fs_dcb_read(const char *ifname, struct fs_dcb *out, char *err, size_t errlen);

/* One rtnetlink reply to DCB_CMD_IEEE_GET (the netlink message, header
 * included) into @out; 1 when it is the kernel's "not supported" error;
 * -1 (said) when malformed or another error. */
int fs_dcb_parse(const void *msg, size_t len, struct fs_dcb *out, char *err, size_t errlen);

/*
 * The priority of a RoCE job's traffic on a device with settings @d: where
 * the device trusts DSCP (its APP table maps DSCP values), that of the
 * DSCP of @tclass (the traffic class's upper 6 bits; no entry: 0); else
 * the VLAN priority @sl.  @tclass and @sl below 0: not set (0).  *by_dscp
 * (when not NULL) says which.
 */
int fs_dcb_job_prio(const struct fs_dcb *d, int tclass, int sl, bool *by_dscp);

/* "3,4" of the priorities with PFC on, "none" when none. */
const char *fs_dcb_pfc_list(const struct fs_dcb *d, char *buf, size_t n);

#endif /* FS_DCB_H */
