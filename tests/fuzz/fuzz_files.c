/*
 * fuzz_files.c - fuzz target for the files fabsched reads from outside
 * besides fabsched.conf and fabric dumps: the JSON fabric model, job logs
 * (SWF, sacct --json, sacct -P: the reader told by content), node-name-maps and rack maps (applied to a small fabric),
 * slurm.conf's node lines, the watch's link counters, and LLDP records
 * (a node's, and the same as a switch's as well).  The first byte
 * chooses the reader, the rest is the file; file readers get it through
 * a memfd (/proc/self/fd/N), as they would a real file; slurm.conf, whose
 * Include lines name files beside it, is a file in a private directory of
 * its own (an Include in /proc/self/fd would reach the process's own
 * descriptors, stdout among them).  Every reader
 * must accept or refuse it with a message saying what was expected; a
 * model read back from JSON must classify and write out again.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fabsched_sim.h"
#include "fabsched_topo.h"
#include "fs_slurmconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Two leaves, a spine, three hosts: what the maps are applied to. */
static const char small_fabric[] =
	"Switch\t8 \"S-0000000000000010\"\t\t# \"leaf01\" enhanced port 0 lid 1 lmc 0\n"
	"[1]\t\"H-0000000000000101\"[1](101)\t\t# \"n001 mlx5_0\" lid 4 4xHDR\n"
	"[2]\t\"H-0000000000000102\"[1](102)\t\t# \"n002 mlx5_0\" lid 5 4xHDR\n"
	"[8]\t\"S-0000000000000030\"[1]\t\t# \"spine01\" lid 3 4xHDR\n"
	"\n"
	"Switch\t8 \"S-0000000000000020\"\t\t# \"leaf02\" enhanced port 0 lid 2 lmc 0\n"
	"[1]\t\"H-0000000000000103\"[1](103)\t\t# \"n003 mlx5_0\" lid 6 4xHDR\n"
	"[8]\t\"S-0000000000000030\"[2]\t\t# \"spine01\" lid 3 4xHDR\n"
	"\n"
	"Switch\t8 \"S-0000000000000030\"\t\t# \"spine01\" enhanced port 0 lid 3 lmc 0\n"
	"[1]\t\"S-0000000000000010\"[8]\t\t# \"leaf01\" lid 1 4xHDR\n"
	"[2]\t\"S-0000000000000020\"[8]\t\t# \"leaf02\" lid 2 4xHDR\n"
	"\n"
	"Ca\t1 \"H-0000000000000101\"\t\t# \"n001 mlx5_0\"\n"
	"[1](101)\t\"S-0000000000000010\"[1]\t\t# lid 4 lmc 0 \"leaf01\" lid 1 4xHDR\n"
	"\n"
	"Ca\t1 \"H-0000000000000102\"\t\t# \"n002 mlx5_0\"\n"
	"[1](102)\t\"S-0000000000000010\"[2]\t\t# lid 5 lmc 0 \"leaf01\" lid 1 4xHDR\n"
	"\n"
	"Ca\t1 \"H-0000000000000103\"\t\t# \"n003 mlx5_0\"\n"
	"[1](103)\t\"S-0000000000000020\"[1]\t\t# lid 6 lmc 0 \"leaf02\" lid 2 4xHDR\n";

static void _refused(const char *what, const char *err)
{
	if (!strstr(err, "expected") && !strstr(err, "out of memory") && !strstr(err, "cannot")) {
		fprintf(stderr, "fuzz_files: %s refused without saying what was expected: %s\n",
			what, err);
		abort();
	}
}

/* The input as a file: "/proc/self/fd/N" in path; the fd, or -1. */
static int _as_file(const uint8_t *data, size_t size, char *path, size_t n)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}

/* slurm.conf as a file in a private directory made once (removed at
   exit), so that its Include lines name files beside it that do not
   exist, or itself; its path in path.  0, or -1. */
static char conf_dir[64];

static void _conf_dir_remove(void)
{
	static const char *const files[] = {
		"slurm.conf", "nodes/n001.json", "switches/leaf01.json", "switches/leaf01.snmpwalk",
		"nodes",      "switches"
	};
	char p[96];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", conf_dir, files[i]);
		if (unlink(p))
			rmdir(p);
	}
	rmdir(conf_dir);
}

/* The input as the file @name of the private directory (made once). */
static int _as_private(const uint8_t *data, size_t size, const char *name, char *path, size_t n)
{
	int fd;

	if (!conf_dir[0]) {
		snprintf(conf_dir, sizeof(conf_dir), "/tmp/fuzz-files-XXXXXX");
		if (!mkdtemp(conf_dir)) {
			conf_dir[0] = '\0';
			return -1;
		}
		atexit(_conf_dir_remove);
	}
	if (strchr(name, '/')) {
		snprintf(path, n, "%s/%.*s", conf_dir, (int)strcspn(name, "/"), name);
		mkdir(path, 0700);
	}
	snprintf(path, n, "%s/%s", conf_dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int _as_conf(const uint8_t *data, size_t size, char *path, size_t n)
{
	return _as_private(data, size, "slurm.conf", path, n);
}

/* A model read back must classify, serialise and read again. */
static void _roundtrip(struct fst_model *m)
{
	char err[512], *js = fst_json_string(m, err, sizeof(err));
	struct fst_model *m2 = NULL;

	if (!js)
		return;
	if (fst_json_read_buf(&m2, js, strlen(js), "again.json", err, sizeof(err))) {
		fprintf(stderr, "fuzz_files: a model written out does not read back: %s\n", err);
		abort();
	}
	fst_model_free(m2);
	free(js);
}

static int _no_change(const char *line, void *arg)
{
	fprintf(stderr, "fuzz_files: a model compared with itself changed: %s\n", line);
	(void)arg;
	abort();
}

/* LLDP records: the input as node n001's; with @as_switch, as switch
 * leaf01's too (1: lldpd's JSON, 2: an LLDP-MIB walk).  A model made must
 * classify, compare equal to itself and read back from JSON. */
static void _lldp(const uint8_t *data, size_t size, int as_switch)
{
	struct fst_opts o = { .all_hosts = 1 };
	struct fst_model *m = NULL;
	char nodes[96], sw[96], err[1024];

	if (_as_private(data, size, "nodes/n001.json", nodes, sizeof(nodes)) ||
	    (as_switch &&
	     _as_private(data, size,
			 as_switch == 2 ? "switches/leaf01.snmpwalk" : "switches/leaf01.json", sw,
			 sizeof(sw))))
		return;
	if (as_switch) { /* one record a switch: the other form's goes */
		snprintf(sw, sizeof(sw), "%s/switches/leaf01.%s", conf_dir,
			 as_switch == 2 ? "json" : "snmpwalk");
		unlink(sw);
	}
	snprintf(nodes, sizeof(nodes), "%s/nodes", conf_dir);
	snprintf(sw, sizeof(sw), "%s/switches", conf_dir);
	if (fst_parse_lldp(&m, nodes, as_switch ? sw : NULL, err, sizeof(err))) {
		_refused("LLDP record", err);
		return;
	}
	if (fst_classify(m, &o, err, sizeof(err)))
		_refused("LLDP model", err);
	else {
		fst_model_changes(m, m, _no_change, NULL);
		_roundtrip(m);
	}
	fst_model_free(m);
}

static void _with_maps(const char *name_map, const char *rack_map)
{
	struct fst_model *m = NULL;
	struct fst_opts o = { 0 };
	char err[512];

	o.name_map = name_map;
	o.rack_map = rack_map;
	if (fst_parse_ibnet_buf(&m, small_fabric, sizeof(small_fabric) - 1, "small", err,
				sizeof(err))) {
		fprintf(stderr, "fuzz_files: the built-in fabric does not parse: %s\n", err);
		abort();
	}
	if (fst_classify(m, &o, err, sizeof(err)))
		_refused(name_map ? "node-name-map" : "rack map", err);
	else
		_roundtrip(m);
	fst_model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[512];
	int fd;

	if (!size)
		return 0;
	fd = _as_file(data + 1, size - 1, path, sizeof(path));
	if (fd < 0)
		return 0;
	switch (data[0] % 8) {
	case 0: { /* the JSON model, as topology/fabric reads it */
		struct fst_model *m = NULL;

		if (fst_json_read_buf(&m, (const char *)data + 1, size - 1, "fuzz.json", err,
				      sizeof(err)))
			_refused("model JSON", err);
		else
			_roundtrip(m);
		fst_model_free(m);
		break;
	}
	case 1: { /* a job log: SWF, sacct --json or sacct -P */
		struct fss_swf_opts so = { 0 };
		struct fss_trace *tr = NULL;
		char warn[1024];

		if (fss_trace_read(path, &so, &tr, err, sizeof(err)))
			_refused("job log", err);
		else {
			fss_trace_load(tr);
			fss_trace_warnings(tr, warn, sizeof(warn));
		}
		fss_trace_free(tr);
		break;
	}
	case 2:
		_with_maps(path, NULL);
		break;
	case 3:
		_with_maps(NULL, path);
		break;
	case 4: { /* slurm.conf's NodeName lines */
		char *nodes = NULL, conf[96];
		size_t nlines = 0;

		if (_as_conf(data + 1, size - 1, conf, sizeof(conf)))
			break;
		if (fs_slurm_conf_nodes(conf, &nodes, &nlines, err, sizeof(err)))
			_refused("slurm.conf", err);
		free(nodes);
		break;
	}
	case 5: { /* the watch's link counters */
		struct fst_counters c, cur = { 0 };
		struct fs_ib_err_limits lim;

		if (fst_counters_read(&c, path, err, sizeof(err))) {
			_refused("link counters", err);
			break;
		}
		fs_ib_parse_err_limits("FabricErrorLimits", FS_IB_ERR_LIMITS_DEFAULT, &lim, err,
				       sizeof(err));
		for (int i = 0; i < c.n && i < 64; i++)
			fst_counters_add(&cur, c.v[i].guid, c.v[i].port, -1, c.v[i].v);
		if (fst_counters_grown(&c, &cur, &lim, NULL, NULL) != 0) {
			fprintf(stderr, "fuzz_files: counters grew against themselves\n");
			abort();
		}
		fst_counters_clear(&cur);
		fst_counters_clear(&c);
		break;
	}
	case 6: /* a node's LLDP record */
	case 7: /* the same as a switch's too: JSON, or (bit 3) a walk */
		_lldp(data + 1, size - 1, data[0] % 8 == 7 ? 1 + (data[0] >> 3 & 1) : 0);
		break;
	}
	close(fd);
	return 0;
}
