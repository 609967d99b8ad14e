/*
 * gen_fattree — write a fat-tree InfiniBand fabric for tests and benchmarks:
 * an ibsim net file (-f net) or ibnetdiscover text (-f ibnet), and with -e
 * the topology.conf (tree) the fabric should produce.
 *
 *   gen_fattree -l 2|3 -H hosts -k radix [-r rails] [-P dual-port] [-d] [-x]
 *               [-c asics] [-f net|ibnet] [-e expected.conf] [-o out]
 *
 * 2 levels: leaves of k/2 hosts, k/2 spines, every leaf to every spine.
 * 3 levels: pods of k/2 leaves and k/2 level-1 switches (full mesh in the
 * pod); level-1 switch j of every pod goes to cores j*k/2 .. j*k/2+k/2-1.
 * -r 2: two rails (planes), one single-port HCA per rail and node
 * (-P: one dual-port HCA instead, port p on rail p-1).
 * -d: first leaf's first uplink runs 1x (degraded); -x: the last leaf's
 * last uplink is missing (unplugged cable).
 * Hosts are "n%05d" with descriptions "n00001 mlx5_<rail>"; switches are
 * named by their descriptions: "r<rail>-leaf<i>", "r<rail>-spine<i>",
 * "r<rail>-core<i>".
 * -c N (2..99): the switches above the leaves are the ASICs of director
 * chassis, N per chassis, as the spine (fabric) cards of a CS7500: per rail
 * the level-1 switches in turn fill chassis "r<rail>-spine-dir<k>", the
 * cores chassis "r<rail>-core-dir<k>" (a chassis holds one level; the last
 * of each may hold fewer).  Slot s of chassis C is described
 * "MF0;C:CS7500/S<ss>/U1" (fabsched names it "C-S<ss>"), and the ASICs of
 * one chassis share its system image GUID (a "sysimgguid=" line before each
 * switch, which ibsim reads too).  The leaves stay one-ASIC boxes.  With N = k/2 on 3
 * levels each pod's level-1 switches make one chassis, and so do the cores
 * that each level-1 switch of a pod reaches.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct port {
	int peer, pport, width;
};

enum kind { LEAF, SPINE, CORE };

struct sw {
	char name[56]; /* the name fabsched gives it */
	char desc[80]; /* its node description */
	int nports;
	struct port *p;
	uint64_t guid, sysimg;
	enum kind kind;
	int rail;
};

static struct sw *sws;
static int nsw;
static int hosts, radix, levels = 2, rails = 1, dualport, degrade, missing, chassis, nchassis;
static int nleaf_per_rail, nspine_per_rail, ncore_per_rail;
static int fmt_net = 1;

/* HCA ports: hca_sw[host][rail], hca_port[host][rail] */
static int *hca_sw, *hca_swport;

static int _add_sw(const char *name, int nports, enum kind kind, int rail)
{
	sws = realloc(sws, sizeof(*sws) * (size_t)(nsw + 1));
	if (!sws)
		exit(1);
	memset(&sws[nsw], 0, sizeof(sws[nsw]));
	snprintf(sws[nsw].name, sizeof(sws[nsw].name), "%s", name);
	snprintf(sws[nsw].desc, sizeof(sws[nsw].desc), "%s", name);
	sws[nsw].nports = nports;
	sws[nsw].p = calloc((size_t)nports + 1, sizeof(struct port));
	sws[nsw].guid = 0x0002c90300000000ULL + 0x1000 + (uint64_t)nsw;
	sws[nsw].sysimg = sws[nsw].guid;
	sws[nsw].kind = kind;
	sws[nsw].rail = rail;
	for (int i = 0; i <= nports; i++)
		sws[nsw].p[i].peer = -1;
	return nsw++;
}

static int _free_port(int s)
{
	for (int i = 1; i <= sws[s].nports; i++)
		if (sws[s].p[i].peer == -1)
			return i;
	fprintf(stderr, "gen_fattree: switch %s out of ports\n", sws[s].name);
	exit(1);
}

static void _link(int a, int b, int width)
{
	int pa = _free_port(a), pb;

	sws[a].p[pa].peer = -2; /* reserve */
	pb = _free_port(b);
	sws[a].p[pa] = (struct port){ b, pb, width };
	sws[b].p[pb] = (struct port){ a, pa, width };
}

static uint64_t _hca_guid(int h, int rail)
{
	return 0x0002c90400000000ULL + (uint64_t)h * 4 + (uint64_t)(dualport ? 0 : rail);
}

static void _build(void)
{
	int half = radix / 2, first_uplink_done = 0;
	char nm[32];

	nleaf_per_rail = (hosts + half - 1) / half;
	hca_sw = calloc((size_t)hosts * 2, sizeof(int));
	hca_swport = calloc((size_t)hosts * 2, sizeof(int));
	for (int r = 0; r < rails; r++) {
		int leaf0 = nsw, up0, core0 = 0, npods = (nleaf_per_rail + half - 1) / half;

		for (int i = 0; i < nleaf_per_rail; i++) {
			snprintf(nm, sizeof(nm), "r%d-leaf%d", r, i);
			_add_sw(nm, radix, LEAF, r);
		}
		if (levels == 2) {
			nspine_per_rail = half;
			up0 = nsw;
			for (int i = 0; i < half; i++) {
				snprintf(nm, sizeof(nm), "r%d-spine%d", r, i);
				_add_sw(nm, nleaf_per_rail > radix ? nleaf_per_rail : radix, SPINE,
					r);
			}
			for (int l = 0; l < nleaf_per_rail; l++)
				for (int s = 0; s < half; s++) {
					int w = 4;

					if (degrade && r == 0 && !first_uplink_done) {
						w = 1;
						first_uplink_done = 1;
					}
					if (missing && r == 0 && l == nleaf_per_rail - 1 &&
					    s == half - 1)
						continue;
					_link(leaf0 + l, up0 + s, w);
				}
		} else {
			nspine_per_rail = npods * half;
			ncore_per_rail = half * half;
			up0 = nsw;
			for (int i = 0; i < npods * half; i++) {
				snprintf(nm, sizeof(nm), "r%d-spine%d", r, i);
				_add_sw(nm, radix, SPINE, r);
			}
			core0 = nsw;
			for (int i = 0; i < half * half; i++) {
				snprintf(nm, sizeof(nm), "r%d-core%d", r, i);
				_add_sw(nm, npods > radix ? npods : radix, CORE, r);
			}
			for (int l = 0; l < nleaf_per_rail; l++) {
				int pod = l / half;

				for (int s = 0; s < half; s++) {
					int w = 4;

					if (degrade && r == 0 && !first_uplink_done) {
						w = 1;
						first_uplink_done = 1;
					}
					if (missing && r == 0 && l == nleaf_per_rail - 1 &&
					    s == half - 1)
						continue;
					_link(leaf0 + l, up0 + pod * half + s, w);
				}
			}
			for (int pod = 0; pod < npods; pod++)
				for (int j = 0; j < half; j++)
					for (int c = 0; c < half; c++)
						_link(up0 + pod * half + j, core0 + j * half + c,
						      4);
		}
		for (int h = 0; h < hosts; h++) {
			int s = leaf0 + h / half, p = _free_port(s);

			sws[s].p[p] = (struct port){ -100 - h, dualport ? r + 1 : 1, 4 };
			hca_sw[h * 2 + r] = s;
			hca_swport[h * 2 + r] = p;
		}
	}
}

/* -c: the level-1 and core switches of each rail, in turn, become the
 * spine cards of director chassis of @chassis ASICs (see the top). */
static void _chassis(void)
{
	uint64_t img = 0x0002c90500000000ULL;

	for (int r = 0; r < rails; r++)
		for (enum kind k = SPINE; k <= CORE; k++) {
			char ch[40];
			int i = 0;

			for (int s = 0; s < nsw; s++) {
				struct sw *w = &sws[s];

				if (w->rail != r || w->kind != k)
					continue;
				if (i % chassis == 0)
					img++;
				snprintf(ch, sizeof(ch), "r%d-%s-dir%d", r,
					 k == SPINE ? "spine" : "core", i / chassis);
				snprintf(w->desc, sizeof(w->desc), "MF0;%s:CS7500/S%02d/U1", ch,
					 i % chassis + 1);
				snprintf(w->name, sizeof(w->name), "%s-S%02d", ch, i % chassis + 1);
				w->sysimg = img;
				nchassis += i % chassis == 1;
				i++;
			}
		}
}

static const char *_w(int w)
{
	return w == 1 ? "1xSDR" : "4xSDR";
}

static void _emit(FILE *f)
{
	if (!fmt_net)
		fprintf(f, "#\n# Topology file: generated by gen_fattree\n#\n\n");
	for (int s = 0; s < nsw; s++) {
		if (fmt_net && chassis) /* ibsim reads it too */
			fprintf(f, "sysimgguid=0x%" PRIx64 "\n", sws[s].sysimg);
		if (fmt_net)
			fprintf(f, "Switch %d \"S-%016" PRIx64 "\" # \"%s\"\n", sws[s].nports,
				sws[s].guid, sws[s].desc);
		else
			fprintf(f,
				"vendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x%" PRIx64
				"\nswitchguid=0x%" PRIx64 "(%" PRIx64 ")\n"
				"Switch\t%d \"S-%016" PRIx64
				"\"\t\t# \"%s\" enhanced port 0 lid %d lmc 0\n",
				sws[s].sysimg, sws[s].guid, sws[s].guid, sws[s].nports, sws[s].guid,
				sws[s].desc, s + 1);
		for (int p = 1; p <= sws[s].nports; p++) {
			struct port *pt = &sws[s].p[p];

			if (pt->peer >= 0) {
				if (fmt_net)
					fprintf(f, "[%d] \"S-%016" PRIx64 "\"[%d]%s\n", p,
						sws[pt->peer].guid, pt->pport,
						pt->width == 1 ? " w=1" : "");
				else
					fprintf(f,
						"[%d]\t\"S-%016" PRIx64
						"\"[%d]\t\t# \"%s\" lid %d %s\n",
						p, sws[pt->peer].guid, pt->pport,
						sws[pt->peer].desc, pt->peer + 1, _w(pt->width));
			} else if (pt->peer <= -100) {
				int h = -100 - pt->peer, r = dualport ? pt->pport - 1 : 0;
				uint64_t g;

				for (int rr = 0; rr < rails; rr++)
					if (hca_sw[h * 2 + rr] == s)
						r = rr;
				g = _hca_guid(h, r);
				if (fmt_net)
					fprintf(f, "[%d] \"H-%016" PRIx64 "\"[%d]\n", p, g,
						pt->pport);
				else
					fprintf(f,
						"[%d]\t\"H-%016" PRIx64 "\"[%d](%" PRIx64
						")\t\t# \"n%05d mlx5_%d\" lid %d 4xSDR\n",
						p, g, pt->pport, g + (uint64_t)pt->pport, h + 1,
						dualport ? 0 : r, 10000 + h * 2 + r);
			}
		}
		fprintf(f, "\n");
	}
	for (int h = 0; h < hosts; h++)
		for (int r = 0; r < rails; r++) {
			int np = dualport ? rails : 1;
			uint64_t g = _hca_guid(h, r);

			if (dualport && r > 0)
				break;
			if (fmt_net)
				fprintf(f, "Hca %d \"H-%016" PRIx64 "\" # \"n%05d mlx5_%d\"\n", np,
					g, h + 1, r);
			else
				fprintf(f,
					"vendid=0x2c9\ndevid=0x101b\nsysimgguid=0x%" PRIx64
					"\ncaguid=0x%" PRIx64 "\nCa\t%d \"H-%016" PRIx64
					"\"\t\t# \"n%05d mlx5_%d\"\n",
					g, g, np, g, h + 1, r);
			for (int pp = 1; pp <= np; pp++) {
				int rr = dualport ? pp - 1 : r, s = hca_sw[h * 2 + rr],
				    sp = hca_swport[h * 2 + rr];

				if (fmt_net)
					fprintf(f, "[%d] \"S-%016" PRIx64 "\"[%d]\n", pp,
						sws[s].guid, sp);
				else
					fprintf(f,
						"[%d](%" PRIx64 ")\t\"S-%016" PRIx64
						"\"[%d]\t\t# lid %d lmc 0 \"%s\" lid %d 4xSDR\n",
						pp, g + (uint64_t)pp, sws[s].guid, sp,
						10000 + h * 2 + rr, sws[s].desc, s + 1);
			}
			fprintf(f, "\n");
		}
}

/* The tree of rail 0 (nodes are in their first rail). */
static void _expected(FILE *f)
{
	int half = radix / 2;

	for (int l = 0; l < nleaf_per_rail; l++) {
		int lo = l * half + 1, hi = (l + 1) * half < hosts ? (l + 1) * half : hosts;

		if (lo == hi)
			fprintf(f, "SwitchName=r0-leaf%d Nodes=n%05d\n", l, lo);
		else
			fprintf(f, "SwitchName=r0-leaf%d Nodes=n[%05d-%05d]\n", l, lo, hi);
	}
	/* rail 0's switches come first: leaves, level-1 switches, cores */
	if (levels == 2) {
		for (int s = 0; s < half; s++)
			fprintf(f, "SwitchName=%s Switches=r0-leaf[0-%d]\n",
				sws[nleaf_per_rail + s].name, nleaf_per_rail - 1);
	} else {
		int npods = (nleaf_per_rail + half - 1) / half,
		    core0 = nleaf_per_rail + npods * half;

		for (int p = 0; p < npods; p++)
			for (int s = 0; s < half; s++)
				fprintf(f, "SwitchName=%s Switches=r0-leaf[%d-%d]\n",
					sws[nleaf_per_rail + p * half + s].name, p * half,
					(p + 1) * half - 1 < nleaf_per_rail - 1
						? (p + 1) * half - 1
						: nleaf_per_rail - 1);
		for (int c = 0; c < half * half; c++) {
			fprintf(f, "SwitchName=%s Switches=", sws[core0 + c].name);
			for (int p = 0; p < npods; p++)
				fprintf(f, "%s%s", p ? "," : "",
					sws[nleaf_per_rail + p * half + c / half].name);
			fprintf(f, "\n");
		}
	}
}

int main(int argc, char **argv)
{
	const char *out = NULL, *exp = NULL;
	int c;
	FILE *f = stdout;

	hosts = 16;
	radix = 8;
	while ((c = getopt(argc, argv, "l:H:k:r:Pdxc:f:e:o:")) != -1) {
		switch (c) {
		case 'l':
			levels = atoi(optarg);
			break;
		case 'H':
			hosts = atoi(optarg);
			break;
		case 'k':
			radix = atoi(optarg);
			break;
		case 'r':
			rails = atoi(optarg);
			break;
		case 'P':
			dualport = 1;
			break;
		case 'd':
			degrade = 1;
			break;
		case 'x':
			missing = 1;
			break;
		case 'c':
			chassis = atoi(optarg);
			break;
		case 'f':
			fmt_net = !strcmp(optarg, "net");
			break;
		case 'e':
			exp = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		default:
			fprintf(stderr,
				"usage: gen_fattree -l 2|3 -H hosts -k radix [-r 1|2] [-P] [-d] [-x] "
				"[-c asics] [-f net|ibnet] [-e expected] [-o out]\n");
			return 2;
		}
	}
	if ((levels != 2 && levels != 3) || hosts < 1 || radix < 4 || radix % 2 || rails < 1 ||
	    rails > 2 || (chassis && (chassis < 2 || chassis > 99))) {
		fprintf(stderr, "gen_fattree: bad parameters\n");
		return 2;
	}
	_build();
	if (chassis)
		_chassis();
	if (out && !(f = fopen(out, "w"))) {
		perror(out);
		return 1;
	}
	_emit(f);
	if (f != stdout)
		fclose(f);
	if (exp) {
		FILE *e = fopen(exp, "w");

		if (!e) {
			perror(exp);
			return 1;
		}
		_expected(e);
		fclose(e);
	}
	fprintf(stderr, "gen_fattree: %d switches, %d hosts, %d rail(s)", nsw, hosts, rails);
	if (chassis)
		fprintf(stderr, ", %d director chassis (of 2 ASICs or more)", nchassis);
	fputc('\n', stderr);
	return 0;
}
