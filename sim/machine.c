/*
 * machine.c - the simulated machine: a generated fat tree (racks of a
 * leaf switch each, pods of racks under a pod switch, one root) or the
 * compute hosts of a fabric model file.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabsched_sim.h"
#include "fabsched_topo.h"
#include "fs_err.h"

void fss_machine_free(struct fss_machine *m)
{
	if (!m)
		return;
	fse_topo_free(m->topo);
	free(m->node_rack);
	free(m->rack_pod);
	free(m->rack_start);
	free(m->rack_nodes);
	free(m);
}

/* rack_start / rack_nodes / max_rack from node_rack. */
static int _index(struct fss_machine *m)
{
	int *fill;

	m->rack_start = calloc(m->nracks + 1, sizeof(int));
	m->rack_nodes = calloc(m->nnodes ? m->nnodes : 1, sizeof(int));
	fill = calloc(m->nracks + 1, sizeof(int));
	if (!m->rack_start || !m->rack_nodes || !fill) {
		free(fill);
		return -1;
	}
	for (int i = 0; i < m->nnodes; i++)
		m->rack_start[m->node_rack[i] + 1]++;
	for (int r = 0; r < m->nracks; r++) {
		if (m->rack_start[r + 1] > m->max_rack)
			m->max_rack = m->rack_start[r + 1];
		m->rack_start[r + 1] += m->rack_start[r];
	}
	for (int i = 0; i < m->nnodes; i++) {
		int r = m->node_rack[i];

		m->rack_nodes[m->rack_start[r] + fill[r]++] = i;
	}
	free(fill);
	return 0;
}

int fss_machine_fattree(int nnodes, int rack_size, int racks_per_pod, struct fss_machine **out,
			char *err, size_t errlen)
{
	struct fss_machine *m;
	struct fse_spec s = { 0 };

	*out = NULL;
	if (nnodes < 1 || rack_size < 1 || racks_per_pod < 0) {
		fs_errf(err, errlen, "fat tree: nodes and rack size must be >= 1");
		return -1;
	}
	if (!(m = calloc(1, sizeof(*m))))
		goto nomem;
	m->nnodes = nnodes;
	m->nracks = (nnodes + rack_size - 1) / rack_size;
	if (racks_per_pod == 0 || racks_per_pod > m->nracks)
		racks_per_pod = m->nracks;
	m->npods = (m->nracks + racks_per_pod - 1) / racks_per_pod;
	m->node_rack = malloc(nnodes * sizeof(int));
	m->rack_pod = malloc(m->nracks * sizeof(int));
	if (!m->node_rack || !m->rack_pod)
		goto nomem;
	for (int i = 0; i < nnodes; i++)
		m->node_rack[i] = i / rack_size;
	for (int r = 0; r < m->nracks; r++)
		m->rack_pod[r] = r / racks_per_pod;
	if (_index(m))
		goto nomem;
	s.nnodes = nnodes;
	s.node_rack = m->node_rack;
	s.nracks = m->nracks;
	s.rack_pod = m->rack_pod;
	s.npods = m->npods;
	if (fse_topo_new(&s, &m->topo, err, errlen))
		goto fail;
	snprintf(m->desc, sizeof(m->desc), "%d nodes, %d racks of %d%s, %d pod%s of %d racks",
		 nnodes, m->nracks, rack_size, nnodes % rack_size ? " (last smaller)" : "",
		 m->npods, m->npods > 1 ? "s" : "", racks_per_pod);
	*out = m;
	return 0;
nomem:
	fs_errf(err, errlen, "fat tree: out of memory");
fail:
	fss_machine_free(m);
	return -1;
}

int fss_machine_from_model(const char *path, struct fss_machine **out, char *err, size_t errlen)
{
	struct fst_model *fm = NULL;
	struct fss_machine *m = NULL;
	const char **names = NULL;
	int unknown = 0;

	*out = NULL;
	if (fst_json_read_file(&fm, path, err, errlen))
		return -1;
	if (fm->nhosts < 1) {
		fs_errf(err, errlen, "%s: no compute hosts in the model", path);
		goto fail;
	}
	if (!(m = calloc(1, sizeof(*m))) || !(names = calloc(fm->nhosts, sizeof(*names))))
		goto nomem;
	for (int i = 0; i < fm->nhosts; i++)
		names[i] = fm->hosts[i].name;
	if (fse_topo_from_model(fm, names, fm->nhosts, &m->topo, &unknown, err, errlen))
		goto fail;
	m->nnodes = fse_topo_nnodes(m->topo);
	m->nracks = fse_topo_nracks(m->topo);
	m->node_rack = malloc(m->nnodes * sizeof(int));
	m->rack_pod = malloc(m->nracks * sizeof(int));
	if (!m->node_rack || !m->rack_pod)
		goto nomem;
	for (int i = 0; i < m->nnodes; i++)
		m->node_rack[i] = fse_topo_rack_of(m->topo, i);
	for (int r = 0; r < m->nracks; r++) {
		m->rack_pod[r] = fse_topo_pod_of(m->topo, r);
		if (m->rack_pod[r] + 1 > m->npods)
			m->npods = m->rack_pod[r] + 1;
	}
	if (_index(m))
		goto nomem;
	snprintf(m->desc, sizeof(m->desc), "%s: %d nodes, %d racks (largest %d), %d pods", path,
		 m->nnodes, m->nracks, m->max_rack, m->npods);
	free(names);
	fst_model_free(fm);
	*out = m;
	return 0;
nomem:
	fs_errf(err, errlen, "%s: out of memory", path);
fail:
	free(names);
	fst_model_free(fm);
	fss_machine_free(m);
	return -1;
}
