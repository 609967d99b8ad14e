/*
 * job_record.c - a node's record of a job for `fabsched job` (JobRecordDir:
 * the prolog's <jobid>/<node> and the tasks' <jobid>/<node>.tasks, written
 * as prolog/record.c describes): the node's NUMA nodes, the HCAs with
 * their NUMA node and CPUs, hugepages per NUMA node, mounts, the scratch
 * volume, and per task its CPUs, their NUMA nodes and its HCA.  The
 * files are the job owner's, so read as hostile: with O_NOFOLLOW, at most
 * RECORD_MAX bytes and NODE_LINES / TASK_LINES lines, every line checked
 * (printable ASCII only: nothing reaches a terminal that could drive it),
 * a CPU in one NUMA node of the map at most, so that the work is bounded
 * by the lines read; a line that is not of the form is counted and
 * reported, not trusted.
 */
#define _GNU_SOURCE
#include "fabsched_cli.h"
#include "fabsched_gres.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RECORD_MAX (4 << 20)
#define NODE_LINES 4096	 /* numa, hca, hugepages, mount lines */
#define TASK_LINES 16384 /* task lines (steps x tasks of one node) */
#define NUMA_MAX 1024	 /* NUMA node numbers 0..NUMA_MAX-1 */

/* A line of printable ASCII (tabs allowed). */
static bool _printable(const char *l)
{
	for (; *l; l++)
		if ((*l < 0x20 || *l > 0x7e) && *l != '\t')
			return false;
	return true;
}

/* The file's text (malloc'ed), NULL with errno set; its owner into
 * *@uid. */
static char *_slurp(const char *path, uid_t *uid)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	char *buf;
	ssize_t n, got = 0;
	struct stat st;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL; /* "Invalid argument": not a regular file */
		return NULL;
	}
	*uid = st.st_uid;
	if (!(buf = malloc(RECORD_MAX + 1))) {
		close(fd);
		return NULL;
	}
	while (got < RECORD_MAX && (n = read(fd, buf + got, RECORD_MAX - got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return buf;
}

/* Up to @max blank-separated words of @line (changed in place). */
static int _words(char *line, char **w, int max)
{
	char *save = NULL;
	int n = 0;

	for (char *t = strtok_r(line, " \t", &save); t && n < max; t = strtok_r(NULL, " \t", &save))
		w[n++] = t;
	return n;
}

static json_object *_num_or_null(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	return (errno || *end || end == s) ? NULL : json_object_new_int64(v);
}

/* @s as a number 0..@max, or -1. */
static long _small(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	return (errno || *end || end == s || *s == '-' || *s == '+' || v > max) ? -1 : v;
}

/* The NUMA node of HCA @name in @hcas, "-" when not known. */
static const char *_hca_numa(json_object *hcas, const char *name)
{
	size_t k = strcspn(name, ":");

	for (size_t i = 0; i < json_object_array_length(hcas); i++) {
		json_object *h = json_object_array_get_idx(hcas, i), *v;
		const char *n;

		if (json_object_object_get_ex(h, "name", &v) && (n = json_object_get_string(v)) &&
		    strlen(n) == k && !strncmp(n, name, k))
			return json_object_object_get_ex(h, "numa", &v) && v
				       ? json_object_get_string(v)
				       : "-";
	}
	return "-";
}

/* A node's record as it is read: its lists for the JSON, the text's
 * hugepages line being made, and the text (NULL: none). */
struct node_rec {
	json_object *numa, *hcas, *huge, *mounts, *scratch;
	char hp[512];
	FILE *text;
};

/* "numa <node> cpus <list>": 1 taken into @nr, 0 not this line. */
static int _numa_line(struct node_rec *nr, char **w, int n)
{
	json_object *o;

	if (n != 4 || strcmp(w[0], "numa") || strcmp(w[2], "cpus") ||
	    _small(w[1], NUMA_MAX - 1) < 0 || fs_gres_cpulist_count(w[3]) <= 0)
		return 0;
	o = json_object_new_object();
	json_object_object_add(o, "node", _num_or_null(w[1]));
	json_object_object_add(o, "cpus", json_object_new_string(w[3]));
	json_object_array_add(nr->numa, o);
	return 1;
}

/* "hca <name> ports <ports> numa <node> cpus <list|->": 1 taken into
 * @nr, 0 not this line. */
static int _hca_line(struct node_rec *nr, char **w, int n)
{
	json_object *h;

	if (n != 8 || strcmp(w[0], "hca") || strcmp(w[2], "ports") || strcmp(w[4], "numa") ||
	    strcmp(w[6], "cpus"))
		return 0;
	h = json_object_new_object();
	json_object_object_add(h, "name", json_object_new_string(w[1]));
	json_object_object_add(h, "ports", json_object_new_string(w[3]));
	json_object_object_add(h, "numa", _num_or_null(w[5]));
	json_object_object_add(h, "cpus", strcmp(w[7], "-") ? json_object_new_string(w[7]) : NULL);
	json_object_array_add(nr->hcas, h);
	if (nr->text)
		fprintf(nr->text, "             hca %s port %s: NUMA %s, CPUs %s\n", w[1], w[3],
			w[5], w[7]);
	return 1;
}

/* "hugepages <size> numa <node|any> pages <n>": 1 taken into @nr, 0 not
 * this line. */
static int _hugepages_line(struct node_rec *nr, char **w, int n)
{
	json_object *h;

	if (n != 6 || strcmp(w[0], "hugepages") || strcmp(w[2], "numa") || strcmp(w[4], "pages"))
		return 0;
	h = json_object_new_object();
	json_object_object_add(h, "size", json_object_new_string(w[1]));
	json_object_object_add(h, "numa",
			       strcmp(w[3], "any") ? _num_or_null(w[3])
						   : json_object_new_string("any"));
	json_object_object_add(h, "pages", _num_or_null(w[5]));
	json_object_array_add(nr->huge, h);
	snprintf(nr->hp + strlen(nr->hp), sizeof(nr->hp) - strlen(nr->hp), "%s%s NUMA %s: %s",
		 nr->hp[0] ? ", " : "", w[1], w[3], w[5]);
	return 1;
}

/* "mount <size> <path>": 1 taken into @nr, 0 not this line. */
static int _mount_line(struct node_rec *nr, char **w, int n)
{
	json_object *mo;

	if (n != 3 || strcmp(w[0], "mount"))
		return 0;
	mo = json_object_new_object();
	json_object_object_add(mo, "size", json_object_new_string(w[1]));
	json_object_object_add(mo, "path", json_object_new_string(w[2]));
	json_object_array_add(nr->mounts, mo);
	if (nr->text)
		fprintf(nr->text, "             hugetlbfs %s at %s\n", w[1], w[2]);
	return 1;
}

/* The first "scratch <path> <gib> <fs>": 1 taken into @nr, 0 not this
 * line (a second one is not). */
static int _scratch_line(struct node_rec *nr, char **w, int n)
{
	if (n != 4 || strcmp(w[0], "scratch") || nr->scratch)
		return 0;
	nr->scratch = json_object_new_object();
	json_object_object_add(nr->scratch, "path", json_object_new_string(w[1]));
	json_object_object_add(nr->scratch, "gib", _num_or_null(w[2]));
	json_object_object_add(nr->scratch, "fs", json_object_new_string(w[3]));
	if (nr->text)
		fprintf(nr->text, "             scratch %s: %s GiB %s\n", w[1], w[2], w[3]);
	return 1;
}

/* The prolog's record of node @node for job @id into @r (and text);
 * -1 when its header names another job or node (a record moved there). */
static int _node_file(char *buf, uint32_t id, const char *node, json_object *r, FILE *text,
		      int *bad)
{
	struct node_rec nr = { .hcas = json_object_new_array(),
			       .huge = json_object_new_array(),
			       .mounts = json_object_new_array(),
			       .numa = json_object_new_array(),
			       .text = text };
	char *save = NULL;
	int lines = 0;

	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *w[9];
		int n;

		if (lines >= NODE_LINES || !_printable(l)) {
			(*bad)++;
			continue;
		}
		n = _words(l, w, 9);
		if (!lines++) {
			if (n != 2 || strcmp(w[0], "fabsched-record") || strcmp(w[1], "1"))
				(*bad)++;
			continue;
		}
		if (lines == 2) { /* "node <node> job <id>": this one's */
			if (n != 4 || strcmp(w[0], "node") || strcmp(w[2], "job") ||
			    strcmp(w[1], node) || _small(w[3], UINT32_MAX) != (long)id) {
				json_object_put(nr.hcas);
				json_object_put(nr.huge);
				json_object_put(nr.mounts);
				json_object_put(nr.numa);
				return -1;
			}
			continue;
		}
		if (!_numa_line(&nr, w, n) && !_hca_line(&nr, w, n) &&
		    !_hugepages_line(&nr, w, n) && !_mount_line(&nr, w, n) &&
		    !_scratch_line(&nr, w, n))
			(*bad)++;
	}
	if (text && nr.hp[0])
		fprintf(text, "             hugepages %s\n", nr.hp);
	json_object_object_add(r, "numa", nr.numa);
	json_object_object_add(r, "hcas", nr.hcas);
	json_object_object_add(r, "hugepages", nr.huge);
	json_object_object_add(r, "mounts", nr.mounts);
	json_object_object_add(r, "scratch", nr.scratch);
	return lines;
}

/*
 * The record's map as CPU -> NUMA node (-1: none), built once per record:
 * a CPU the map lists under two nodes keeps the first.  NULL when the map
 * is missing or memory is short.
 */
static int16_t *_cpu_numa(json_object *map)
{
	int16_t *cn = malloc((FS_CPULIST_MAX + 1) * sizeof(*cn));

	if (!cn || !map) {
		free(cn);
		return NULL;
	}
	for (size_t c = 0; c <= FS_CPULIST_MAX; c++)
		cn[c] = -1;
	for (size_t i = 0; i < json_object_array_length(map); i++) {
		json_object *e = json_object_array_get_idx(map, i), *v, *c;
		unsigned char *bits;
		size_t nb;

		if (!json_object_object_get_ex(e, "node", &v) || !v ||
		    !json_object_object_get_ex(e, "cpus", &c) ||
		    fs_gres_cpulist_parse(json_object_get_string(c), &bits, &nb, NULL, 0))
			continue;
		for (size_t k = 0; k < nb; k++)
			if (bits[k] && cn[k] < 0)
				cn[k] = (int16_t)json_object_get_int(v);
		free(bits);
	}
	return cn;
}

/* The NUMA nodes (of the map @cn) that CPUs @cpus lie in: "0,1" into
 * @out, JSON array into @arr, each marked in @used; "" when the map is
 * missing.  One pass over the task's CPUs. */
static void _task_numa(const int16_t *cn, const char *cpus, char *out, size_t n, json_object *arr,
		       unsigned char *used)
{
	unsigned char mine[NUMA_MAX] = { 0 }, *bits;
	size_t nb, o = 0;

	out[0] = '\0';
	if (!cn || fs_gres_cpulist_parse(cpus, &bits, &nb, NULL, 0))
		return;
	for (size_t k = 0; k < nb; k++)
		if (bits[k] && cn[k] >= 0)
			mine[cn[k]] = 1;
	free(bits);
	for (int v = 0; v < NUMA_MAX; v++) {
		if (!mine[v])
			continue;
		used[v] = 1;
		json_object_array_add(arr, json_object_new_int(v));
		if (o + 12 < n)
			o += (size_t)snprintf(out + o, n - o, "%s%d", o ? "," : "", v);
	}
}

/* Lines in step order (the batch script and other named steps first),
 * then by task id: "task <step> <local> ...". */
static long _key(const char *line, int field)
{
	const char *p = line;

	for (int f = 0; f < field && p; f++)
		if ((p = strchr(p, ' ')))
			p++;
	return p && *p >= '0' && *p <= '9' ? strtol(p, NULL, 10) : -1;
}

static int _task_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	long sx = _key(x, 1), sy = _key(y, 1);

	if (sx != sy)
		return sx < sy ? -1 : 1;
	sx = _key(x, 2);
	sy = _key(y, 2);
	return sx < sy ? -1 : sx > sy;
}

/* The tasks' lines: task <step> <local> <rank> cpus <list> hca <hca|-> */
static void _tasks_file(char *buf, json_object *r, FILE *text, int *bad)
{
	json_object *tasks = json_object_new_array(), *hcas = NULL, *map = NULL;
	char *save = NULL, **lines = NULL, tn[256];
	unsigned char used[NUMA_MAX] = { 0 }; /* NUMA nodes of the tasks */
	size_t nl = 0, cap = 0;
	int16_t *cn;

	json_object_object_get_ex(r, "hcas", &hcas);
	json_object_object_get_ex(r, "numa", &map);
	cn = _cpu_numa(map);
	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (nl >= TASK_LINES || !_printable(l)) {
			(*bad)++;
			continue;
		}
		if (nl == cap) {
			char **nv = realloc(lines, (cap = cap ? 2 * cap : 64) * sizeof(*lines));

			if (!nv)
				break;
			lines = nv;
		}
		lines[nl++] = l;
	}
	if (nl)
		qsort(lines, nl, sizeof(*lines), _task_cmp);
	for (size_t i = 0; i < nl; i++) {
		char *l = lines[i], *w[9];
		int n = _words(l, w, 9);
		json_object *t;
		const char *numa;

		if (n != 8 || strcmp(w[0], "task") || strcmp(w[4], "cpus") || strcmp(w[6], "hca")) {
			(*bad)++;
			continue;
		}
		numa = strcmp(w[7], "-") && hcas ? _hca_numa(hcas, w[7]) : "-";
		t = json_object_new_object();
		json_object_object_add(t, "step", json_object_new_string(w[1]));
		json_object_object_add(t, "task", _num_or_null(w[2]));
		json_object_object_add(t, "rank", _num_or_null(w[3]));
		json_object_object_add(t, "cpus", json_object_new_string(w[5]));
		json_object_object_add(t, "hca",
				       strcmp(w[7], "-") ? json_object_new_string(w[7]) : NULL);
		json_object_object_add(t, "hca_numa", _num_or_null(numa));
		{
			json_object *arr = json_object_new_array();

			_task_numa(cn, w[5], tn, sizeof(tn), arr, used);
			json_object_object_add(t, "numa", arr);
		}
		json_object_array_add(tasks, t);
		if (text)
			fprintf(text,
				"             step %s task %s (rank %s): CPUs %s%s%s%s, HCA %s%s%s%s\n",
				w[1], w[2], w[3], w[5], tn[0] ? " (NUMA " : "", tn,
				tn[0] ? ")" : "", w[7], strcmp(numa, "-") ? " (NUMA " : "",
				strcmp(numa, "-") ? numa : "", strcmp(numa, "-") ? ")" : "");
	}
	free(lines);
	free(cn);
	json_object_object_add(r, "tasks", tasks);
	{
		json_object *arr = json_object_new_array();
		size_t o = 0;

		tn[0] = '\0';
		for (int v = 0; v < (int)sizeof(used); v++) {
			if (!used[v])
				continue;
			json_object_array_add(arr, json_object_new_int(v));
			if (o + 12 < sizeof(tn))
				o += (size_t)snprintf(tn + o, sizeof(tn) - o, "%s%d", o ? "," : "",
						      v);
		}
		json_object_object_add(r, "task_numa", arr);
		if (text && tn[0])
			fprintf(text, "             NUMA nodes of its tasks: %s\n", tn);
	}
}

json_object *fs_cli_job_record(const char *dir, uint32_t id, const char *node, FILE *text)
{
	char path[4096];
	char *buf;
	json_object *r;
	int bad = 0;
	uid_t uid;

	if (!dir || !*dir) {
		if (text)
			fprintf(text,
				"             (no record: JobRecordDir is not set in fabsched.conf)\n");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%u/%s", dir, id, node);
	if (!(buf = _slurp(path, &uid))) {
		if (text)
			fprintf(text, "             (no record: %s: %s)\n", path, strerror(errno));
		return NULL;
	}
	/* the prolog writes it as root; the job's owner, whose directory
	   holds it, can put a file of their own there, or move another
	   job's record in */
	if (uid != 0) {
		if (text)
			fprintf(text,
				"             (no record: %s is owned by uid %u, "
				"not root: not written by fabsched-prolog)\n",
				path, (unsigned)uid);
		free(buf);
		return NULL;
	}
	r = json_object_new_object();
	if (_node_file(buf, id, node, r, text, &bad) < 0) {
		if (text)
			fprintf(text,
				"             (no record: %s is the record of "
				"another job or node)\n",
				path);
		free(buf);
		json_object_put(r);
		return NULL;
	}
	free(buf);
	snprintf(path, sizeof(path), "%s/%u/%s.tasks", dir, id, node);
	/* the tasks' own lines, as the job's tasks wrote them */
	if ((buf = _slurp(path, &uid))) {
		_tasks_file(buf, r, text, &bad);
		free(buf);
	} else {
		json_object_object_add(r, "tasks", json_object_new_array());
	}
	json_object_object_add(r, "malformed_lines", json_object_new_int(bad));
	if (text && bad)
		fprintf(text, "             (%d line(s) of the record not understood)\n", bad);
	return r;
}
