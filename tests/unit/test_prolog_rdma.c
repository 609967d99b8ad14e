/*
 * test_prolog_rdma.c - the prolog's HCA port checks beyond ACTIVE, on the
 * generated sysfs trees (tests/fixtures/sysfs/pkeys and malformed): the port
 * rate against RdmaRate, the account's P_Key in the port's table
 * (AccountIbPkeys), the variables exported to the job, and the two
 * fabsched.conf keys' validation with their line numbers; RoCE ports (the
 * roce and rocedown trees): net device up, RoceMtu, RoceGidFamily.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fabsched_conf.h"
#include "fabsched_prolog.h"
#include "fs_ib.h"

static char _msg[FS_MSG_SIZE];
static char _fix[1024], _root[1100];
static struct fs_pl_rdma_got _got;

/* verify list on the pkeys tree with RdmaRate rate ("" none), key (0 none) */
static int _v(const char *list, const char *rate, uint16_t key)
{
	struct fs_pl_rdma_want w = { .pkey = key, .account = "chem" };

	_msg[0] = 0;
	if (rate[0])
		assert_int_equal(fs_parse_rate("RdmaRate", rate, &w.rate, NULL, 0), 0);
	return fs_pl_rdma_verify(_root, list, &w, &_got, _msg, sizeof(_msg));
}

static void test_rate_values(void **state)
{
	uint64_t v;
	char b[32];

	(void)state;
	assert_int_equal(fs_parse_rate("RdmaRate", "100", &v, _msg, sizeof(_msg)), 0);
	assert_true(v == 100000);
	assert_int_equal(fs_parse_rate("RdmaRate", "12.5", &v, _msg, sizeof(_msg)), 0);
	assert_true(v == 12500);
	assert_int_equal(fs_parse_rate("RdmaRate", "0.001", &v, _msg, sizeof(_msg)), 0);
	assert_true(v == 1);
	assert_string_equal(fs_format_rate(12500, b, sizeof(b)), "12.5");
	assert_string_equal(fs_format_rate(53125, b, sizeof(b)), "53.125");
	assert_string_equal(fs_format_rate(1050, b, sizeof(b)), "1.05");
	assert_string_equal(fs_format_rate(200000, b, sizeof(b)), "200");
	const char *bad[] = { "",	"0",	  "fast", "100G", "100 ", " 100", "-1",
			      "1.2345", "100001", "1e3",  "1.",	  ".5",	  NULL };
	for (int i = 0; bad[i]; i++)
		assert_int_equal(fs_parse_rate("RdmaRate", bad[i], &v, _msg, sizeof(_msg)), -1);
	assert_int_equal(fs_parse_rate("RdmaRate", "fast", &v, _msg, sizeof(_msg)), -1);
	assert_string_equal(_msg, "RdmaRate=fast: not a rate; expected " FS_RATE_FORM);
	/* the kernel's text */
	assert_int_equal(fs_parse_sysfs_rate("100 Gb/sec (4X EDR)", &v), 0);
	assert_true(v == 100000);
	assert_int_equal(fs_parse_sysfs_rate("2.5 Gb/sec (1X)\n", &v), 0);
	assert_true(v == 2500);
	assert_int_equal(fs_parse_sysfs_rate("800 Gb/sec", &v), 0);
	assert_int_equal(fs_parse_sysfs_rate("25 Gbit/s", &v), -1);
	assert_int_equal(fs_parse_sysfs_rate("100 Gb/sec (EDR)", &v), -1);
	assert_int_equal(fs_parse_sysfs_rate("100 Gb/sec (4X EDR", &v), -1);
	assert_int_equal(fs_parse_sysfs_rate("100 Gb/sec (4X EDR) x", &v), -1);
	assert_int_equal(fs_parse_sysfs_rate("", &v), -1);
}

static void test_rate_ok(void **state)
{
	(void)state;
	/* unset: no rate check, even on a port whose rate is not understood */
	assert_int_equal(_v("mlx5_2,mlx5_5,mlx5_7", "", 0), 0);
	assert_int_equal(_got.nports, 3);
	assert_int_equal(_v("mlx5_0,mlx5_1", "100", 0), 0);
	/* faster passes */
	assert_int_equal(_v("mlx5_3", "100", 0), 0);
	assert_int_equal(_v("mlx5_0:1,mlx5_3", "56", 0), 0);
	/* the kernel's half steps compare exactly */
	assert_int_equal(_v("mlx5_4", "2.5", 0), 0);
	assert_int_equal(_v("mlx5_6", "100", 0), 0);
}

static void test_rate_slow(void **state)
{
	(void)state;
	assert_int_equal(_v("mlx5_0,mlx5_2", "100", 0), -1);
	assert_string_equal(_msg, "RDMA device mlx5_2 port 1: rate 56 Gb/s "
				  "(56 Gb/sec (4X FDR)), expected at least 100 Gb/s "
				  "(RdmaRate)");
	assert_int_equal(_v("mlx5_4", "2.501", 0), -1);
	assert_string_equal(_msg, "RDMA device mlx5_4 port 1: rate 2.5 Gb/s "
				  "(2.5 Gb/sec (1X)), expected at least 2.501 Gb/s "
				  "(RdmaRate)");
	assert_int_equal(_v("mlx5_3", "400", 0), -1);
	assert_non_null(strstr(_msg, "mlx5_3 port 1: rate 200 Gb/s"));
	/* ACTIVE is checked first, with the message it always had */
	{
		struct fs_pl_rdma_want w = { .rate = 1000 };
		char root[1100];

		snprintf(root, sizeof(root), "%s/sysfs/lassen", _fix);
		assert_int_equal(fs_pl_rdma_verify(root, "mlx5_3", &w, NULL, _msg, sizeof(_msg)),
				 -1);
		assert_string_equal(_msg, "RDMA device mlx5_3 port 1: state DOWN "
					  "(physical state Disabled), expected ACTIVE");
	}
}

static void test_rate_unknown(void **state)
{
	char root[1100];
	struct fs_pl_rdma_want w = { .rate = 100000 };

	(void)state;
	assert_int_equal(_v("mlx5_5", "100", 0), -1);
	assert_string_equal(_msg, "RDMA device mlx5_5 port 1: rate \"25 Gbit/s\" "
				  "not understood, expected at least 100 Gb/s "
				  "(RdmaRate) in the form \"100 Gb/sec (4X EDR)\"");
	assert_int_equal(_v("mlx5_7", "100", 0), -1);
	assert_string_equal(_msg, "RDMA device mlx5_7 port 1: rate unknown (no "
				  "sysfs rate file), expected at least 100 Gb/s "
				  "(RdmaRate)");
	/* a rate the inventory itself refuses: the prolog fails with its reason */
	snprintf(root, sizeof(root), "%s/sysfs/malformed/rate", _fix);
	assert_int_equal(fs_pl_rdma_verify(root, "mlx5_0", &w, NULL, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "RDMA: "));
	assert_non_null(strstr(_msg, "\"fast\": malformed rate"));
}

/* RoCE ports: net device up, RoceMtu, a RoCE v2 GID of RoceGidFamily */
static int _roce(const char *tree, const char *list, bool ipv6, unsigned mtu)
{
	struct fs_pl_rdma_want w = { .roce_ipv6 = ipv6, .roce_mtu = mtu };
	char root[1100];

	snprintf(root, sizeof(root), "%s/sysfs/%s", _fix, tree);
	_msg[0] = 0;
	return fs_pl_rdma_verify(root, list, &w, &_got, _msg, sizeof(_msg));
}

/* RocePfc: the DCB settings a fake driver reports, by net device */
static int _fake_dcb_rc;
static uint8_t _fake_pfc_en;
static bool _fake_dscp;
static char _fake_dev[32];
static int _fake_dcb(const char *ifname, struct fs_dcb *out, char *err, size_t errlen)
{
	snprintf(_fake_dev, sizeof(_fake_dev), "%s", ifname);
	memset(out, 0, sizeof(*out));
	if (_fake_dcb_rc < 0)
		return fs_errf(err, errlen, "%s: Permission denied", ifname);
	if (_fake_dcb_rc > 0)
		return 1;
	out->has_pfc = true;
	out->pfc_cap = 8;
	out->pfc_en = _fake_pfc_en;
	if (_fake_dscp) {
		out->app[0] = (struct fs_dcb_app){ 5, 3, 26 }; /* DSCP 26 -> priority 3 */
		out->napp = 1;
	}
	return 0;
}

static int _pfc(int tclass, int sl)
{
	struct fs_pl_rdma_want w = {
		.roce_pfc = true, .roce_tclass = tclass, .roce_sl = sl, .dcb_read = _fake_dcb
	};
	char root[1100];

	snprintf(root, sizeof(root), "%s/sysfs/roce", _fix);
	_msg[0] = 0;
	memset(&_got, 0, sizeof(_got));
	return fs_pl_rdma_verify(root, "mlx5_0", &w, &_got, _msg, sizeof(_msg));
}

/* RocePfc: PFC on for the jobs' priority where the net device has DCB */
static void test_roce_pfc(void **state)
{
	(void)state;
	/* DSCP trusted: traffic class 106 is DSCP 26, priority 3 */
	_fake_dcb_rc = 0;
	_fake_dscp = true;
	_fake_pfc_en = 1u << 3;
	assert_int_equal(_pfc(106, 5), 0);
	assert_string_equal(_fake_dev, "ens1f0np0");
	assert_int_equal(_got.npfc, 1);
	_fake_pfc_en = 1u << 4;
	assert_int_equal(_pfc(106, 5), -1);
	assert_string_equal(_msg,
			    "RDMA device mlx5_0 port 1: its net device ens1f0np0 has PFC "
			    "off for priority 3, that of the jobs' RoCE traffic by DSCP 26 "
			    "(RoceTrafficClass 106) in its DSCP table (PFC on: 4); expected on "
			    "(RocePfc)");
	/* VLAN priorities trusted: RoceServiceLevel */
	_fake_dscp = false;
	assert_int_equal(_pfc(106, 4), 0);
	assert_int_equal(_pfc(106, 3), -1);
	assert_non_null(strstr(_msg, "PFC off for priority 3, that of the jobs' RoCE traffic by "
				     "VLAN priority (RoceServiceLevel 3) (PFC on: 4)"));
	/* nothing set: priority 0 */
	_fake_pfc_en = 1;
	assert_int_equal(_pfc(-1, -1), 0);
	/* a driver without DCB: not checked, counted */
	_fake_dcb_rc = 1;
	assert_int_equal(_pfc(106, 3), 0);
	assert_int_equal(_got.nodcb, 1);
	assert_int_equal(_got.npfc, 0);
	/* a read that fails: the node's fault, said */
	_fake_dcb_rc = -1;
	assert_int_equal(_pfc(106, 3), -1);
	assert_string_equal(_msg, "RDMA device mlx5_0 port 1: cannot read the DCB settings of its "
				  "net device (RocePfc): ens1f0np0: Permission denied");
	/* without RocePfc nothing is read */
	_fake_dev[0] = 0;
	assert_int_equal(_roce("roce", "mlx5_0", false, 0), 0);
	assert_string_equal(_fake_dev, "");
}

static void test_roce(void **state)
{
	(void)state;
	assert_int_equal(_roce("roce", "mlx5_0", false, 0), 0);
	assert_int_equal(_got.nroce, 1);
	assert_int_equal(_roce("roce", "mlx5_0:1", false, 9000), 0);
	assert_int_equal(_roce("roce", "mlx5_0,mlx5_1", true, 4200), 0);
	assert_int_equal(_got.nroce, 2);
	/* IPv6 only: no GID for IPv4 */
	assert_int_equal(_roce("roce", "mlx5_0,mlx5_1", false, 0), -1);
	assert_string_equal(_msg, "RDMA device mlx5_1 port 1: no RoCE v2 GID of an IPv4 address "
				  "in its GID table (RoceGidFamily=ipv4); expected the IPv4 "
				  "address of ens2f0np0 there");
	assert_int_equal(_roce("roce", "mlx5_1", true, 9000), -1);
	assert_string_equal(_msg, "RDMA device mlx5_1 port 1: its net device ens2f0np0 has MTU "
				  "4200, expected at least 9000 (RoceMtu)");
	assert_int_equal(_roce("rocedown", "mlx5_0", false, 0), -1);
	assert_string_equal(_msg, "RDMA device mlx5_0 port 1: its net device ens1f0np0 is down, "
				  "expected up");
	/* the port DOWN: the message it always had */
	assert_int_equal(_roce("roce", "mlx5_2", false, 0), -1);
	assert_non_null(strstr(_msg, "state DOWN"));
	/* a RoCE port whose GID table names no net device (kernels before
	 * 4.8): nothing to check beyond ACTIVE */
	assert_int_equal(_roce("pkeys", "mlx5_6", false, 9000), 0);
	assert_int_equal(_got.nroce, 0);
	/* InfiniBand ports: none of it */
	assert_int_equal(_roce("lassen", "mlx5_0", true, 9000), 0);
	assert_int_equal(_got.nroce, 0);
}

static void test_pkey_values(void **state)
{
	uint16_t k = 0;

	(void)state;
	assert_int_equal(fs_parse_pkey("P", "0x8001", &k, _msg, sizeof(_msg)), 0);
	assert_int_equal(k, 0x8001);
	assert_int_equal(fs_parse_pkey("P", "0X1", &k, _msg, sizeof(_msg)), 0);
	assert_int_equal(k, 1);
	assert_int_equal(fs_parse_pkey("P", "0xfffe", &k, _msg, sizeof(_msg)), 0);
	const char *bad[] = { "",	"8001",	  "0x",	    "0x10000", "0x8000", "0x0000",
			      "0x7fff", "0xffff", "0xg001", " 0x8001", NULL };
	for (int i = 0; bad[i]; i++)
		assert_int_equal(fs_parse_pkey("P", bad[i], &k, _msg, sizeof(_msg)), -1);
	assert_int_equal(fs_parse_pkey("P", "0xffff", &k, _msg, sizeof(_msg)), -1);
	assert_string_equal(_msg, "P=0xffff: the default partition, which every "
				  "port is in, isolates nothing; expected " FS_PKEY_FORM);
	assert_true(fs_account_ok("chem"));
	assert_true(fs_account_ok("a.b-c_D9"));
	assert_false(fs_account_ok(""));
	assert_false(fs_account_ok("a b"));
	assert_false(fs_account_ok("chem\n"));
	assert_false(fs_account_ok("a:b"));
}

static void test_pkey_map(void **state)
{
	const char *map = "chem:0x8001,Physics:0x0002,bio:0x8001";
	uint16_t k = 0;

	(void)state;
	assert_int_equal(fs_pkey_map_find("M", map, "chem", &k, NULL, 0), 1);
	assert_int_equal(k, 0x8001);
	assert_int_equal(fs_pkey_map_find("M", map, "physics", &k, NULL, 0), 1);
	assert_int_equal(k, 0x0002);
	assert_int_equal(fs_pkey_map_find("M", map, "bio", &k, NULL, 0), 1);
	assert_int_equal(fs_pkey_map_find("M", map, "che", &k, NULL, 0), 0);
	assert_int_equal(fs_pkey_map_find("M", map, NULL, NULL, NULL, 0), 0);
	assert_int_equal(
		fs_pkey_map_find("M", "chem:0x8001,CHEM:0x8002", NULL, NULL, _msg, sizeof(_msg)),
		-1);
	assert_string_equal(_msg, "M: account CHEM is given twice; expected "
				  "each account once");
	assert_int_equal(fs_pkey_map_find("M", "chem=0x8001", NULL, NULL, _msg, sizeof(_msg)), -1);
	assert_string_equal(_msg, "M: entry 'chem=0x8001': no ':' between "
				  "account and key; expected " FS_PKEY_MAP_FORM);
	assert_int_equal(fs_pkey_map_find("M", "chem:0x8001,", NULL, NULL, _msg, sizeof(_msg)), -1);
	assert_int_equal(fs_pkey_map_find("M", "chem:0x7fff", NULL, NULL, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "M (account chem)=0x7fff: the default "
				     "partition"));
}

/* fabsched.conf: the keys validated on load, with their line */
static void test_conf_keys(void **state)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "LogLevel=info\nRdmaRate=fast\n",
		  "t.conf:2: RdmaRate=fast: not a rate; expected " FS_RATE_FORM },
		{ "RdmaRate=0\n", "t.conf:1: RdmaRate=0: out of range; expected " FS_RATE_FORM },
		{ "\n\nAccountIbPkeys=chem:0xffff\n",
		  "t.conf:3: AccountIbPkeys (account chem)=0xffff: the default "
		  "partition, which every port is in, isolates nothing; expected " FS_PKEY_FORM },
		{ "AccountIbPkeys=chem:0x8001,chem:0x8002\n",
		  "t.conf:1: AccountIbPkeys: account chem is given twice; "
		  "expected each account once" },
		{ "AccountIbPkeys=\"my acct:0x8001\"\n",
		  "t.conf:1: AccountIbPkeys: entry 'my acct:0x8001': not an "
		  "account name; expected " FS_PKEY_MAP_FORM },
		{ "PartitionName=p RdmaRate=100\n",
		  "t.conf:1: RdmaRate is a global key, not a partition one; "
		  "expected it on a line without PartitionName=" },
	};
	struct fs_conf *c;
	struct fs_errors *e = fs_errors_new();

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fs_errors_clear(e);
		assert_int_equal(fs_conf_parse("t.conf", bad[i].text, strlen(bad[i].text), &c, e),
				 -1);
		assert_int_equal(fs_errors_count(e), 1);
		assert_string_equal(fs_errors_get(e, 0), bad[i].want);
	}
	{
		const char *good = "RdmaRate=100\n"
				   "AccountIbPkeys=chem:0x8001,bio:0x0002\n";

		assert_int_equal(fs_conf_parse("t.conf", good, strlen(good), &c, e), 0);
	}
	assert_string_equal(fs_conf_get_str(c, "RdmaRate"), "100");
	assert_string_equal(fs_conf_get_str(c, "AccountIbPkeys"), "chem:0x8001,bio:0x0002");
	fs_conf_destroy(c);
	assert_int_equal(fs_conf_parse("t.conf", "", 0, &c, e), 0);
	assert_null(fs_conf_get_str(c, "RdmaRate")); /* unset: no check */
	assert_null(fs_conf_get_str(c, "AccountIbPkeys"));
	fs_conf_destroy(c);
	fs_errors_free(e);
}

static void test_pkey_present(void **state)
{
	(void)state;
	assert_int_equal(_v("mlx5_0", "", 0x8001), 0);
	assert_int_equal(_got.npkey, 1);
	assert_int_equal(_got.pkey_index, 1);
	/* same index on both ports: one index for NCCL */
	assert_int_equal(_v("mlx5_0,mlx5_2,mlx5_3", "", 0x8001), 0);
	assert_int_equal(_got.npkey, 3);
	assert_int_equal(_got.pkey_index, 1);
	/* at index 1 and 2: none */
	assert_int_equal(_v("mlx5_0,mlx5_1", "", 0x8001), 0);
	assert_int_equal(_got.npkey, 2);
	assert_int_equal(_got.pkey_index, -1);
	/* a limited key: its entry; a full member entry of it first */
	assert_int_equal(_v("mlx5_0", "", 0x0002), 0);
	assert_int_equal(_got.pkey_index, 2);
	assert_int_equal(_v("mlx5_0", "", 0x0001), 0);
	assert_int_equal(_got.pkey_index, 1);
	/* RoCE ports have no partitions: not searched */
	assert_int_equal(_v("mlx5_0,mlx5_6", "", 0x8001), 0);
	assert_int_equal(_got.nports, 2);
	assert_int_equal(_got.npkey, 1);
	/* rate and key together */
	assert_int_equal(_v("mlx5_3", "200", 0x8001), 0);
}

static void test_pkey_missing(void **state)
{
	char root[1100];
	struct fs_pl_rdma_want w = { .pkey = 0x8001, .account = "chem" };

	(void)state;
	assert_int_equal(_v("mlx5_0,mlx5_4", "", 0x8001), -1);
	assert_string_equal(_msg, "RDMA device mlx5_4 port 1: P_Key 0x8001 of "
				  "account chem not in the port's P_Key table "
				  "(0xffff); expected a full member entry set by the "
				  "subnet manager");
	assert_true(_got.pkey_missing); /* the account's, not the node's */
	/* a full member key is not met by a limited entry */
	assert_int_equal(_v("mlx5_0", "", 0x8002), -1);
	assert_string_equal(_msg, "RDMA device mlx5_0 port 1: P_Key 0x8002 of "
				  "account chem not in the port's P_Key table "
				  "(0xffff 0x8001 0x0002); expected a full member "
				  "entry set by the subnet manager");
	assert_int_equal(_v("mlx5_1", "", 0x0005), -1);
	assert_non_null(strstr(_msg, "expected a full or limited member entry"));
	assert_int_equal(_v("mlx5_7", "", 0x8001), -1);
	assert_non_null(strstr(_msg, "RDMA device mlx5_7 port 1: no P_Key table "
				     "to look for P_Key 0x8001 in ("));
	assert_false(_got.pkey_missing); /* the node's */
	snprintf(root, sizeof(root), "%s/sysfs/malformed/pkey", _fix);
	assert_int_equal(fs_pl_rdma_verify(root, "mlx5_0", &w, NULL, _msg, sizeof(_msg)), -1);
	assert_non_null(strstr(_msg, "/ports/1/pkeys/1: \"8001\": malformed P_Key; "
				     "expected 0x and 4 hexadecimal digits"));
}

static const char *_env[8][2];

static const char *_get(const char *name)
{
	for (int i = 0; i < 8; i++)
		if (_env[i][0] && !strcmp(_env[i][0], name))
			return _env[i][1];
	return NULL;
}

static void test_job_account(void **state)
{
	struct fs_pl_job job;
	const char *map = "chem:0x8001,bio:0x0002";

	(void)state;
	memset(_env, 0, sizeof(_env));
	_env[0][0] = "SLURM_JOB_ID";
	_env[0][1] = "42";
	_env[1][0] = "SLURM_JOB_UID";
	_env[1][1] = "1000";
	_env[2][0] = "SLURM_JOB_GID";
	_env[2][1] = "100";
	_env[3][0] = "SLURM_JOB_ACCOUNT";
	_env[3][1] = "Chem";
	assert_int_equal(fs_pl_job_from_env(_get, 0, &job, _msg, sizeof(_msg)), 0);
	assert_string_equal(job.account, "Chem");
	assert_false(job.account_unusable);
	assert_int_equal(fs_pl_job_pkey(&job, map, _msg, sizeof(_msg)), 0);
	assert_int_equal(job.ib_pkey, 0x8001);
	assert_int_equal(fs_pl_job_pkey(&job, NULL, _msg, sizeof(_msg)), 0);
	assert_int_equal(job.ib_pkey, 0);
	_env[3][1] = "other";
	assert_int_equal(fs_pl_job_from_env(_get, 0, &job, _msg, sizeof(_msg)), 0);
	assert_int_equal(fs_pl_job_pkey(&job, map, _msg, sizeof(_msg)), 0);
	assert_int_equal(job.ib_pkey, 0);
	/* not a name the map can hold: noted, never a failure, no key */
	_env[3][1] = "chem\n;reboot";
	assert_int_equal(fs_pl_job_from_env(_get, 0, &job, _msg, sizeof(_msg)), 0);
	assert_string_equal(job.account, "");
	assert_true(job.account_unusable);
	assert_int_equal(fs_pl_job_pkey(&job, map, _msg, sizeof(_msg)), 0);
	assert_int_equal(job.ib_pkey, 0);
	_env[3][0] = NULL;
	assert_int_equal(fs_pl_job_from_env(_get, 0, &job, _msg, sizeof(_msg)), 0);
	assert_false(job.account_unusable);
	assert_int_equal(fs_pl_job_pkey(&job, map, _msg, sizeof(_msg)), 0);
	assert_int_equal(job.ib_pkey, 0);
}

static void test_exports(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	struct fs_pl_rdma_got g = { .nports = 1, .npkey = 1, .pkey_index = 1 };

	(void)state;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	fs_pl_pkey_print(f, "export ", 0x8001, &g);
	g.pkey_index = -1;
	fs_pl_pkey_print(f, "", 0x0002, &g);
	fs_pl_pkey_print(f, "", 0, &g); /* no key: nothing */
	fclose(f);
	assert_string_equal(buf, "export FABSCHED_IB_PKEY=0x8001\n"
				 "export UCX_IB_PKEY=0x0001\n"
				 "export OMPI_MCA_btl_openib_pkey=0x0001\n"
				 "export NCCL_IB_PKEY=1\n"
				 "FABSCHED_IB_PKEY=0x0002\n"
				 "UCX_IB_PKEY=0x0002\n"
				 "OMPI_MCA_btl_openib_pkey=0x0002\n");
	free(buf);
}

int main(void)
{
	const char *fix = getenv("FABSCHED_FIXTURES");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate_values),  cmocka_unit_test(test_rate_ok),
		cmocka_unit_test(test_rate_slow),    cmocka_unit_test(test_rate_unknown),
		cmocka_unit_test(test_pkey_values),  cmocka_unit_test(test_pkey_map),
		cmocka_unit_test(test_conf_keys),    cmocka_unit_test(test_pkey_present),
		cmocka_unit_test(test_pkey_missing), cmocka_unit_test(test_job_account),
		cmocka_unit_test(test_exports),	     cmocka_unit_test(test_roce),
		cmocka_unit_test(test_roce_pfc),
	};

	snprintf(_fix, sizeof(_fix), "%s", fix ? fix : "tests/fixtures");
	snprintf(_root, sizeof(_root), "%s/sysfs/pkeys", _fix);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
