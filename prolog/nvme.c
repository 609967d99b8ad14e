/*
 * nvme.c - the real struct fs_pl_nvme_ops: NVMe-oF connect/disconnect and
 * namespace management through libnvme, the namespace's block device from
 * libnvme's tree, BLKDISCARD, mkfs.xfs / mkfs.ext4 run with a fixed argv
 * and environment (no shell), mount(2) on a directory opened without
 * following links.  Without libnvme (configure --without-libnvme) the
 * NVMe calls fail with a message saying so.
 */
#include "fabsched_config.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_LIBNVME
#include <libnvme.h>
#endif

#include "fabsched_prolog.h"
#include "fs_run.h"
#include "prolog_private.h"

#define FABRICS_DEV "/dev/nvme-fabrics"

/* "nvme<digits>" */
static int _ctrl_ok(const char *ctrl, char *err, size_t errlen)
{
	const char *p = ctrl + 4;

	if (strncmp(ctrl, "nvme", 4) || !*p)
		goto bad;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			goto bad;
	return 0;
bad:
	return fs_errf(err, errlen, "controller \"%.32s\": expected nvme<N>", ctrl);
}

/* "/dev/nvme<N>n<M>" */
static int _dev_ok(const char *dev, char *err, size_t errlen)
{
	unsigned a, b;
	int pos = 0;

	if (sscanf(dev, "/dev/nvme%un%u%n", &a, &b, &pos) != 2 || dev[pos])
		return fs_errf(err, errlen,
			       "block device \"%.64s\": expected "
			       "/dev/nvme<N>n<M>",
			       dev);
	return 0;
}

#ifdef HAVE_LIBNVME
static nvme_ctrl_t _find_live(nvme_root_t r, const struct fs_pl_scratch_target *t)
{
	nvme_host_t h;
	nvme_subsystem_t s;
	nvme_ctrl_t c;

	nvme_for_each_host(r, h) nvme_for_each_subsystem(h, s) nvme_subsystem_for_each_ctrl(s, c)
	{
		const char *st = nvme_ctrl_get_state(c);

		if (!strcmp(nvme_ctrl_get_subsysnqn(c) ?: "", t->subsysnqn) &&
		    !strcmp(nvme_ctrl_get_transport(c) ?: "", t->transport) &&
		    !strcmp(nvme_ctrl_get_traddr(c) ?: "", t->traddr) &&
		    !strcmp(nvme_ctrl_get_trsvcid(c) ?: "", t->trsvcid) && st &&
		    !strcmp(st, "live"))
			return c;
	}
	return NULL;
}

static int _connect(const struct fs_pl_scratch_target *t, char *ctrl, size_t ctrlsz, char *err,
		    size_t errlen)
{
	nvme_root_t r;
	nvme_host_t h;
	nvme_ctrl_t c;
	struct nvme_fabrics_config cfg;
	int rc = 0;

	if (access(FABRICS_DEV, F_OK))
		return fs_errf(err, errlen,
			       "%s: %s: this kernel has no NVMe-oF "
			       "host (modprobe nvme-%s)",
			       FABRICS_DEV, strerror(errno), t->transport);
	if (!(r = nvme_scan(NULL)))
		return fs_errf(err, errlen,
			       "libnvme: cannot scan the NVMe "
			       "topology: %s",
			       strerror(errno));
	if ((c = _find_live(r, t))) {
		snprintf(ctrl, ctrlsz, "%s", nvme_ctrl_get_name(c));
		goto out;
	}
	h = nvme_lookup_host(r, t->hostnqn, t->hostid);
	c = h ? nvme_create_ctrl(r, t->subsysnqn, t->transport, t->traddr, NULL, NULL, t->trsvcid)
	      : NULL;
	if (!c) {
		rc = fs_errf(err, errlen,
			     "libnvme: cannot set up a controller "
			     "for %s: %s",
			     t->subsysnqn, strerror(errno));
		goto out;
	}
	nvmf_default_config(&cfg);
	if (nvmf_add_ctrl(h, c, &cfg)) {
		rc = fs_errf(err, errlen,
			     "NVMe-oF connect to %s %s:%s subsystem "
			     "%s as %s: %s",
			     t->transport, t->traddr, t->trsvcid, t->subsysnqn, t->hostnqn,
			     strerror(errno));
		nvme_free_ctrl(c);
		goto out;
	}
	snprintf(ctrl, ctrlsz, "%s", nvme_ctrl_get_name(c));
out:
	nvme_free_tree(r);
	return rc ? rc : _ctrl_ok(ctrl, err, errlen);
}

static int _disconnect(const char *ctrl, char *err, size_t errlen)
{
	nvme_root_t r;
	nvme_ctrl_t c;
	char p[64];
	int rc = 0;

	if (_ctrl_ok(ctrl, err, errlen))
		return -1;
	snprintf(p, sizeof(p), "/sys/class/nvme/%s", ctrl);
	if (access(p, F_OK))
		return 0; /* already gone */
	if (!(r = nvme_scan(NULL)))
		return fs_errf(err, errlen, "libnvme: cannot scan: %s", strerror(errno));
	if ((c = nvme_scan_ctrl(r, ctrl)) && nvme_disconnect_ctrl(c))
		rc = fs_errf(err, errlen, "%s: disconnect: %s", ctrl, strerror(errno));
	nvme_free_tree(r);
	return rc;
}

static int _ctrl_fd(const char *ctrl, char *err, size_t errlen)
{
	char dev[48];
	int fd;

	if (_ctrl_ok(ctrl, err, errlen))
		return -1;
	snprintf(dev, sizeof(dev), "/dev/%s", ctrl);
	if ((fd = open(dev, O_RDWR | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return fs_errf(err, errlen, "%s: %s", dev, strerror(errno));
	return fd;
}

static int _status(int rc, const char *what, const char *ctrl, char *err, size_t errlen)
{
	if (rc < 0)
		return fs_errf(err, errlen, "%s: %s: %s", ctrl, what, strerror(errno));
	return fs_errf(err, errlen, "%s: %s: NVMe status 0x%x (%s)", ctrl, what, rc,
		       nvme_status_to_string(rc, true));
}

static int _ns_create(const char *ctrl, uint64_t bytes, uint32_t *nsid, char *err, size_t errlen)
{
	struct nvme_id_ns common, ns;
	struct nvme_id_ctrl id;
	struct nvme_ctrl_list list;
	uint64_t lba;
	__u16 cntlid;
	int fd = _ctrl_fd(ctrl, err, errlen), rc;

	if (fd < 0)
		return -1;
	/* LBA format 0 of the subsystem's common namespace capabilities */
	if ((rc = nvme_identify_ns(fd, NVME_NSID_ALL, &common)) ||
	    (rc = nvme_identify_ctrl(fd, &id))) {
		close(fd);
		return _status(rc, "identify", ctrl, err, errlen);
	}
	lba = 1ULL << (common.lbaf[0].ds ? common.lbaf[0].ds : 9);
	memset(&ns, 0, sizeof(ns));
	ns.nsze = ns.ncap = htole64((bytes + lba - 1) / lba);
	ns.flbas = 0;
	/*
	 * nvme_ns_mgmt() with its argument struct: nvme_ns_mgmt_create()
	 * has five arguments in libnvme 1.3 (Debian 12) and six in 1.13
	 * (Debian 13); these fields are the same in both
	 */
	struct nvme_ns_mgmt_args args = {
		.result = nsid,
		.ns = &ns,
		.args_size = sizeof(args),
		.fd = fd,
		.timeout = 0,
		.nsid = NVME_NSID_NONE,
		.sel = NVME_NS_MGMT_SEL_CREATE,
		.csi = NVME_CSI_NVM,
	};
	if ((rc = nvme_ns_mgmt(&args))) {
		close(fd);
		return _status(rc, "create namespace (namespace management)", ctrl, err, errlen);
	}
	cntlid = le16toh(id.cntlid);
	nvme_init_ctrl_list(&list, 1, &cntlid);
	if ((rc = nvme_ns_attach_ctrls(fd, *nsid, &list))) {
		nvme_ns_mgmt_delete(fd, *nsid);
		close(fd);
		return _status(rc, "attach namespace", ctrl, err, errlen);
	}
	nvme_ns_rescan(fd);
	close(fd);
	return 0;
}

static int _ns_delete(const char *ctrl, uint32_t nsid, char *err, size_t errlen)
{
	struct nvme_id_ctrl id;
	struct nvme_ctrl_list list;
	__u16 cntlid;
	int fd = _ctrl_fd(ctrl, err, errlen), rc;

	if (fd < 0)
		return -1;
	if (!nvme_identify_ctrl(fd, &id)) {
		cntlid = le16toh(id.cntlid);
		nvme_init_ctrl_list(&list, 1, &cntlid);
		nvme_ns_detach_ctrls(fd, nsid, &list); /* may be detached already */
	}
	rc = nvme_ns_mgmt_delete(fd, nsid);
	close(fd);
	if (rc > 0 && (rc & 0x7ff) == NVME_SC_INVALID_NS)
		return 0; /* already deleted */
	return rc ? _status(rc, "delete namespace", ctrl, err, errlen) : 0;
}

static int _ns_blockdev(const char *ctrl, uint32_t nsid, char *dev, size_t devsz, char *err,
			size_t errlen)
{
	if (_ctrl_ok(ctrl, err, errlen))
		return -1;
	/* the kernel adds the block device after the rescan: bounded, 10 s */
	for (int i = 0; i < 50; i++) {
		nvme_root_t r = nvme_scan(NULL);
		nvme_ctrl_t c = r ? nvme_scan_ctrl(r, ctrl) : NULL;
		nvme_ns_t n;
		const char *name = NULL;

		if (c) {
			nvme_ctrl_for_each_ns(c, n) if ((uint32_t)nvme_ns_get_nsid(n) == nsid)
				name = nvme_ns_get_name(n);
			if (!name && nvme_ctrl_get_subsystem(c))
				nvme_subsystem_for_each_ns(nvme_ctrl_get_subsystem(c),
							   n) if ((uint32_t)nvme_ns_get_nsid(n) ==
								  nsid) name = nvme_ns_get_name(n);
		}
		if (name)
			snprintf(dev, devsz, "/dev/%s", name);
		if (r)
			nvme_free_tree(r);
		if (name)
			return _dev_ok(dev, err, errlen);
		nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
	}
	return fs_errf(err, errlen,
		       "%s: namespace %u has no block device "
		       "after 10 s",
		       ctrl, nsid);
}
#else
static int _nolib(char *err, size_t errlen)
{
	return fs_errf(err, errlen,
		       "fabsched was built without libnvme "
		       "(configure --with-libnvme): no NVMe-oF scratch");
}
static int _connect(const struct fs_pl_scratch_target *t, char *ctrl, size_t ctrlsz, char *err,
		    size_t errlen)
{
	(void)t;
	(void)ctrl;
	(void)ctrlsz;
	return _nolib(err, errlen);
}
static int _disconnect(const char *ctrl, char *err, size_t errlen)
{
	(void)ctrl;
	return _nolib(err, errlen);
}
static int _ns_create(const char *ctrl, uint64_t bytes, uint32_t *nsid, char *err, size_t errlen)
{
	(void)ctrl;
	(void)bytes;
	(void)nsid;
	return _nolib(err, errlen);
}
static int _ns_delete(const char *ctrl, uint32_t nsid, char *err, size_t errlen)
{
	(void)ctrl;
	(void)nsid;
	return _nolib(err, errlen);
}
static int _ns_blockdev(const char *ctrl, uint32_t nsid, char *dev, size_t devsz, char *err,
			size_t errlen)
{
	(void)ctrl;
	(void)nsid;
	(void)dev;
	(void)devsz;
	return _nolib(err, errlen);
}
#endif

/* ------------------------------------------------------------ block, fs */

static int _discard(const char *dev, char *err, size_t errlen)
{
	uint64_t range[2] = { 0, 0 };
	int fd;

	if (_dev_ok(dev, err, errlen))
		return -1;
	if ((fd = open(dev, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return fs_errf(err, errlen, "%s: %s", dev, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &range[1]) || ioctl(fd, BLKDISCARD, range)) {
		int e = errno;

		close(fd);
		return fs_errf(err, errlen, "%s: discard (BLKDISCARD) of %" PRIu64 " bytes: %s",
			       dev, range[1], strerror(e));
	}
	close(fd);
	return 0;
}

/* Run argv[0] (absolute) with a fixed environment, stdin and stdout on
 * /dev/null, at most 10 minutes; 0 when it exits 0. */
static int _run(char *const argv[], char *err, size_t errlen)
{
	static char *const env[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C", NULL };
	const struct fs_run o = { .env = env, .timeout = 600, .flags = FS_RUN_QUIET };
	char how[96];
	int rc = fs_run(argv, &o, NULL);

	if (rc)
		return fs_errf(err, errlen, "%s %s: %s", argv[0], argv[1] ? argv[1] : "",
			       fs_run_status(rc, how, sizeof(how)));
	return 0;
}

static int _mkfs(const char *dev, int fs, char *err, size_t errlen)
{
	const char *prog = fs ? "mkfs.ext4" : "mkfs.xfs";
	char path[64], d[64];

	if (_dev_ok(dev, err, errlen))
		return -1;
	snprintf(path, sizeof(path), "/usr/sbin/%s", prog);
	if (access(path, X_OK))
		snprintf(path, sizeof(path), "/sbin/%s", prog);
	if (access(path, X_OK))
		return fs_errf(err, errlen,
			       "%s not found in /usr/sbin or /sbin "
			       "(install %s)",
			       prog, fs ? "e2fsprogs" : "xfsprogs");
	snprintf(d, sizeof(d), "%s", dev);
	if (fs) {
		char *const argv[] = { path, "-F", "-q", "-E", "nodiscard", d, NULL };

		return _run(argv, err, errlen);
	} else {
		char *const argv[] = { path, "-f", "-q", "-K", d, NULL };

		return _run(argv, err, errlen);
	}
}

static int _mount(const char *dev, int fs, int dirfd, const char *path, uid_t uid, gid_t gid,
		  char *err, size_t errlen)
{
	const char *type = fs ? "ext4" : "xfs", *name = strrchr(path, '/');
	char proc[64], base[FS_PL_PATH];
	int bfd, fd;

	if (_dev_ok(dev, err, errlen))
		return -1;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", dirfd);
	if (mount(dev, proc, type, MS_NOSUID | MS_NODEV, NULL))
		return fs_errf(err, errlen, "%s: mount -t %s %s: %s", path, type, dev,
			       strerror(errno));
	/* the filesystem's root, reached through the root-owned base */
	snprintf(base, sizeof(base), "%.*s", (int)(name - path), path);
	if ((bfd = fs_pl_open_root_dir(base, 0, 0, err, errlen)) < 0)
		goto undo;
	fd = openat(bfd, name + 1, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(bfd);
	if (fd < 0) {
		fs_errf(err, errlen, "%s: %s", path, strerror(errno));
		goto undo;
	}
	if (fchown(fd, uid, gid) || fchmod(fd, 0700)) {
		fs_errf(err, errlen, "%s: handing it to uid %u: %s", path, (unsigned)uid,
			strerror(errno));
		close(fd);
		goto undo;
	}
	close(fd);
	return 0;
undo:
	umount2(path, UMOUNT_NOFOLLOW | MNT_DETACH);
	return -1;
}

static int _umount(const char *path, char *err, size_t errlen)
{
	if (umount2(path, UMOUNT_NOFOLLOW) == 0 || errno == EINVAL)
		return 0;
	if (errno == EBUSY && umount2(path, UMOUNT_NOFOLLOW | MNT_DETACH) == 0)
		return 0;
	return fs_errf(err, errlen, "%s: umount: %s", path, strerror(errno));
}

static const struct fs_pl_nvme_ops _real = {
	.connect = _connect,
	.disconnect = _disconnect,
	.ns_create = _ns_create,
	.ns_blockdev = _ns_blockdev,
	.ns_delete = _ns_delete,
	.discard = _discard,
	.mkfs = _mkfs,
	.mount = _mount,
	.umount = _umount,
	.is_mounted = fs_pl_is_mounted,
};

const struct fs_pl_nvme_ops *fs_pl_nvme_ops_real(void)
{
	return &_real;
}
