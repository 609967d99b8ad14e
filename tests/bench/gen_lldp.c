/*
 * gen_lldp — LLDP records of a rail-optimized Ethernet leaf-spine fabric,
 * as fabsched-lldp-record writes them on the nodes and lldpcli on switches
 * that run lldpd (`lldpcli -f json0 show neighbors details`, the fields
 * fabsched reads), for `make bench-topo`:
 *   gen_lldp -n NODES -r RAILS -H HOSTS_PER_LEAF -g LEAVES_PER_GROUP
 *            -s SPINES_PER_GROUP -c CORES -o DIR
 * writes DIR/nodes/<node>.json and DIR/switches/<switch>.json.  Node i has
 * interfaces eth0..eth<R-1>; interface r is on port swp<1 + i mod H> of
 * leaf r*L + i/H (L leaves a rail); each group of G leaves has S spines
 * (every leaf of the group on each), every spine is on every core.  Links
 * are 400GbaseCR8 (hosts) and 800GbaseCR8 (switches); MACs are made up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct nb {
	const char *chassis; /* neighbour's name */
	unsigned long mac;   /* its chassis MAC */
	const char *port;    /* its port */
	int is_switch;
	const char *mau;
};

static FILE *_open(const char *dir, const char *sub, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s.json", dir, sub, name);
	if (!(f = fopen(path, "w"))) {
		fprintf(stderr, "gen_lldp: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fputs("{\"lldp\": [{\"interface\": [", f);
	return f;
}

static void _iface(FILE *f, int first, const char *ifname, const struct nb *n)
{
	char mac[32];

	snprintf(mac, sizeof(mac), "02:%02lx:%02lx:%02lx:%02lx:%02lx", (n->mac >> 32) & 0xff,
		 (n->mac >> 24) & 0xff, (n->mac >> 16) & 0xff, (n->mac >> 8) & 0xff, n->mac & 0xff);
	fprintf(f,
		"%s\n{\"name\": \"%s\", \"via\": \"LLDP\", \"chassis\": [{\"id\": [{\"type\": "
		"\"mac\", \"value\": \"%s\"}], \"name\": [{\"value\": "
		"\"%s\"}], \"capability\": [{\"type\": \"Bridge\", \"enabled\": %s}, {\"type\": "
		"\"Station\", \"enabled\": %s}]}], \"port\": [{\"id\": [{\"type\": \"%s\", \"value\": "
		"\"%s\"}], \"descr\": [{\"value\": \"%s\"}], \"auto-negotiation\": [{\"current\": "
		"[{\"value\": \"%s\"}]}]}]}",
		first ? "" : ",", ifname, mac, n->chassis, n->is_switch ? "true" : "false",
		n->is_switch ? "false" : "true", n->is_switch ? "ifname" : "mac",
		n->is_switch ? n->port : mac, n->port, n->mau);
}

static void _close(FILE *f)
{
	fputs("\n]}]}\n", f);
	if (fclose(f)) {
		perror("gen_lldp");
		exit(1);
	}
}

static void _mkdir(const char *dir, const char *sub)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s%s%s", dir, sub ? "/" : "", sub ? sub : "");
	if (mkdir(path, 0755) && errno != EEXIST) {
		fprintf(stderr, "gen_lldp: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

#define LEAF_MAC(l) (0x100000UL + (unsigned long)(l))
#define SPINE_MAC(s) (0x200000UL + (unsigned long)(s))
#define CORE_MAC(c) (0x300000UL + (unsigned long)(c))
#define NODE_MAC(i) (0x400000UL + (unsigned long)(i))

int main(int argc, char **argv)
{
	int nodes = 10000, rails = 2, hosts = 32, group = 32, spg = 8, cores = 16, c;
	const char *dir = NULL;
	char name[64], peer[64], port[32], ifn[32];

	while ((c = getopt(argc, argv, "n:r:H:g:s:c:o:")) != -1) {
		switch (c) {
		case 'n':
			nodes = atoi(optarg);
			break;
		case 'r':
			rails = atoi(optarg);
			break;
		case 'H':
			hosts = atoi(optarg);
			break;
		case 'g':
			group = atoi(optarg);
			break;
		case 's':
			spg = atoi(optarg);
			break;
		case 'c':
			cores = atoi(optarg);
			break;
		case 'o':
			dir = optarg;
			break;
		default:
			dir = NULL;
			optind = argc + 1;
			break;
		}
	}
	if (!dir || nodes < 1 || rails < 1 || hosts < 1 || group < 1 || spg < 1 || cores < 0 ||
	    hosts + spg > 255 || group + cores > 255) {
		fprintf(stderr, "usage: gen_lldp [-n nodes] [-r rails] [-H hosts/leaf] "
				"[-g leaves/group] [-s spines/group] [-c cores] -o DIR\n");
		return 2;
	}
	int lpr = (nodes + hosts - 1) / hosts, leaves = lpr * rails;
	int groups = (leaves + group - 1) / group, spines = groups * spg;

	if (spines > 255) {
		fprintf(stderr, "gen_lldp: %d spines: a core would have more than 255 ports\n",
			spines);
		return 2;
	}
	_mkdir(dir, NULL);
	_mkdir(dir, "nodes");
	_mkdir(dir, "switches");
	for (int i = 0; i < nodes; i++) { /* nodes: each interface sees its leaf */
		FILE *f;

		snprintf(name, sizeof(name), "n%05d", i + 1);
		f = _open(dir, "nodes", name);
		for (int r = 0; r < rails; r++) {
			int l = r * lpr + i / hosts;
			struct nb n = { peer, LEAF_MAC(l), port, 1, "400GbaseCR8" };

			snprintf(peer, sizeof(peer), "leaf%04d", l + 1);
			snprintf(port, sizeof(port), "swp%d", i % hosts + 1);
			snprintf(ifn, sizeof(ifn), "eth%d", r);
			_iface(f, !r, ifn, &n);
		}
		_close(f);
	}
	for (int l = 0; l < leaves; l++) { /* leaves: hosts below, spines above */
		int r = l / lpr, first = 1;
		FILE *f;

		snprintf(name, sizeof(name), "leaf%04d", l + 1);
		f = _open(dir, "switches", name);
		for (int h = 0; h < hosts; h++) {
			int i = (l - r * lpr) * hosts + h;
			struct nb n = { peer, NODE_MAC(i), ifn, 0, "400GbaseCR8" };

			if (i >= nodes)
				break;
			snprintf(peer, sizeof(peer), "n%05d", i + 1);
			snprintf(ifn, sizeof(ifn), "eth%d", r);
			snprintf(port, sizeof(port), "swp%d", h + 1);
			_iface(f, first, port, &n);
			first = 0;
		}
		for (int s = 0; s < spg; s++) {
			int sp = l / group * spg + s;
			struct nb n = { peer, SPINE_MAC(sp), ifn, 1, "800GbaseCR8" };

			snprintf(peer, sizeof(peer), "spine%03d", sp + 1);
			snprintf(ifn, sizeof(ifn), "swp%d", l % group + 1);
			snprintf(port, sizeof(port), "swp%d", hosts + s + 1);
			_iface(f, first, port, &n);
			first = 0;
		}
		_close(f);
	}
	for (int sp = 0; sp < spines; sp++) { /* spines: leaves below, cores above */
		int g = sp / spg, first = 1;
		FILE *f;

		snprintf(name, sizeof(name), "spine%03d", sp + 1);
		f = _open(dir, "switches", name);
		for (int k = 0; k < group && g * group + k < leaves; k++) {
			int l = g * group + k;
			struct nb n = { peer, LEAF_MAC(l), ifn, 1, "800GbaseCR8" };

			snprintf(peer, sizeof(peer), "leaf%04d", l + 1);
			snprintf(ifn, sizeof(ifn), "swp%d", hosts + sp % spg + 1);
			snprintf(port, sizeof(port), "swp%d", k + 1);
			_iface(f, first, port, &n);
			first = 0;
		}
		for (int co = 0; co < cores; co++) {
			struct nb n = { peer, CORE_MAC(co), ifn, 1, "800GbaseCR8" };

			snprintf(peer, sizeof(peer), "core%02d", co + 1);
			snprintf(ifn, sizeof(ifn), "swp%d", sp + 1);
			snprintf(port, sizeof(port), "swp%d", group + co + 1);
			_iface(f, first, port, &n);
			first = 0;
		}
		_close(f);
	}
	for (int co = 0; co < cores; co++) { /* cores: every spine */
		FILE *f;

		snprintf(name, sizeof(name), "core%02d", co + 1);
		f = _open(dir, "switches", name);
		for (int sp = 0; sp < spines; sp++) {
			struct nb n = { peer, SPINE_MAC(sp), ifn, 1, "800GbaseCR8" };

			snprintf(peer, sizeof(peer), "spine%03d", sp + 1);
			snprintf(ifn, sizeof(ifn), "swp%d", group + co + 1);
			snprintf(port, sizeof(port), "swp%d", sp + 1);
			_iface(f, !sp, port, &n);
		}
		_close(f);
	}
	printf("# lldp-summary: nodes=%d nics=%d leaves=%d spines=%d cores=%d -> %s\n", nodes,
	       nodes * rails, leaves, spines, cores, dir);
	return 0;
}
