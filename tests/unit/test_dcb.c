/*
 * test_dcb.c - a net device's DCB settings (common/fs_dcb.c): replies of
 * the kernel's DCB netlink interface built here as the kernel lays them
 * out (a DSCP-trusting NIC with PFC on priority 3, one trusting VLAN
 * priorities, the "not supported" and "no such device" errors, truncated
 * and overlong attributes at every length), the job's priority from its
 * traffic class or service level, and one real request to this kernel
 * (the loopback device has no DCB).  cmocka, TAP.
 */
#include <errno.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "fs_dcb.h"

static char _m[4096];
static size_t _len;
static char _err[512];

/* An attribute of @type holding @len bytes of @data at the end of _m;
 * RET its offset (to close a nest with _end). */
static size_t _put(uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)(_m + _len);
	size_t at = _len;

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (data)
		memcpy(_m + _len + NLA_HDRLEN, data, len);
	_len += NLA_ALIGN(NLA_HDRLEN + len);
	return at;
}

static void _end(size_t at)
{
	((struct nlattr *)(_m + at))->nla_len = (uint16_t)(_len - at);
}

/* A DCB reply for eth2: PFC on @pfc_en, APP entries (selector, priority,
 * protocol) of @apps. */
static void _reply(uint8_t pfc_en, const struct dcb_app *apps, int napp)
{
	struct nlmsghdr *h = (struct nlmsghdr *)_m;
	struct dcbmsg *d;
	struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = pfc_en };
	size_t ieee, table;

	memset(_m, 0, sizeof(_m));
	_len = NLMSG_LENGTH(sizeof(*d));
	h->nlmsg_type = RTM_GETDCB;
	d = NLMSG_DATA(h);
	d->cmd = DCB_CMD_IEEE_GET;
	_put(DCB_ATTR_IFNAME, "eth2", 5);
	ieee = _put(NLA_F_NESTED | DCB_ATTR_IEEE, NULL, 0);
	_put(DCB_ATTR_IEEE_PFC, &pfc, sizeof(pfc));
	table = _put(NLA_F_NESTED | DCB_ATTR_IEEE_APP_TABLE, NULL, 0);
	for (int i = 0; i < napp; i++)
		_put(DCB_ATTR_IEEE_APP, &apps[i], sizeof(apps[i]));
	_end(table);
	_end(ieee);
	h->nlmsg_len = (uint32_t)_len;
}

static void _error(int e)
{
	struct nlmsghdr *h = (struct nlmsghdr *)_m;
	struct nlmsgerr *er = NLMSG_DATA(h);

	memset(_m, 0, sizeof(_m));
	h->nlmsg_type = NLMSG_ERROR;
	h->nlmsg_len = NLMSG_LENGTH(sizeof(*er));
	er->error = -e;
	_len = h->nlmsg_len;
}

static void test_dscp(void **state)
{
	static const struct dcb_app apps[] = { { IEEE_8021QAZ_APP_SEL_DSCP, 3, 26 },
					       { IEEE_8021QAZ_APP_SEL_DSCP, 0, 0 },
					       { IEEE_8021QAZ_APP_SEL_ETHERTYPE, 4, 0x8915 } };
	struct fs_dcb d;
	char on[32];
	bool by_dscp = false;

	(void)state;
	_reply(1u << 3, apps, 3);
	assert_int_equal(fs_dcb_parse(_m, _len, &d, _err, sizeof(_err)), 0);
	assert_true(d.has_pfc);
	assert_int_equal(d.pfc_cap, 8);
	assert_int_equal(d.pfc_en, 8);
	assert_int_equal(d.napp, 3);
	assert_string_equal(fs_dcb_pfc_list(&d, on, sizeof(on)), "3");
	/* traffic class 106: DSCP 26 (ECN bits dropped), priority 3 */
	assert_int_equal(fs_dcb_job_prio(&d, 106, 5, &by_dscp), 3);
	assert_true(by_dscp);
	/* DSCP 0, or no traffic class: priority 0; a DSCP without an entry: 0 */
	assert_int_equal(fs_dcb_job_prio(&d, -1, 5, &by_dscp), 0);
	assert_int_equal(fs_dcb_job_prio(&d, 184, 5, &by_dscp), 0);
}

static void test_pcp(void **state)
{
	static const struct dcb_app apps[] = { { IEEE_8021QAZ_APP_SEL_ETHERTYPE, 4, 0x8915 } };
	struct fs_dcb d;
	char on[32];
	bool by_dscp = true;

	(void)state;
	_reply(0x18, apps, 1);
	assert_int_equal(fs_dcb_parse(_m, _len, &d, _err, sizeof(_err)), 0);
	assert_string_equal(fs_dcb_pfc_list(&d, on, sizeof(on)), "3,4");
	/* no DSCP table: the VLAN priority, RoceServiceLevel */
	assert_int_equal(fs_dcb_job_prio(&d, 106, 4, &by_dscp), 4);
	assert_false(by_dscp);
	assert_int_equal(fs_dcb_job_prio(&d, 106, -1, NULL), 0);
	_reply(0, NULL, 0);
	assert_int_equal(fs_dcb_parse(_m, _len, &d, _err, sizeof(_err)), 0);
	assert_string_equal(fs_dcb_pfc_list(&d, on, sizeof(on)), "none");
}

static void test_errors(void **state)
{
	static const struct dcb_app apps[] = { { IEEE_8021QAZ_APP_SEL_DSCP, 3, 26 } };
	struct fs_dcb d;
	size_t full;

	(void)state;
	_error(EOPNOTSUPP);
	assert_int_equal(fs_dcb_parse(_m, _len, &d, _err, sizeof(_err)), 1);
	_error(ENODEV);
	assert_int_equal(fs_dcb_parse(_m, _len, &d, _err, sizeof(_err)), -1);
	assert_string_equal(_err, "No such device");
	/* the reply cut at every length: refused or read, never past its end */
	_reply(8, apps, 1);
	full = _len;
	for (size_t n = 0; n < full; n++) {
		((struct nlmsghdr *)_m)->nlmsg_len = (uint32_t)n;
		assert_true(fs_dcb_parse(_m, n, &d, _err, sizeof(_err)) <= 0);
	}
	/* an attribute longer than the message */
	_reply(8, apps, 1);
	((struct nlattr *)(_m + NLMSG_LENGTH(sizeof(struct dcbmsg))))->nla_len = 4000;
	assert_int_equal(fs_dcb_parse(_m, _len, &d, _err, sizeof(_err)), -1);
	assert_string_equal(_err, "a DCB reply whose attributes run past its end");
	/* a PFC attribute too short for its fields */
	_reply(8, apps, 1);
	((struct nlattr *)(_m + NLMSG_LENGTH(sizeof(struct dcbmsg)) + 12 + 4))->nla_len =
		5; /* 1 byte: no pfc_en */
	assert_int_equal(fs_dcb_parse(_m, _len, &d, _err, sizeof(_err)), -1);
	/* another message type */
	_reply(8, apps, 1);
	((struct nlmsghdr *)_m)->nlmsg_type = RTM_NEWLINK;
	assert_int_equal(fs_dcb_parse(_m, _len, &d, _err, sizeof(_err)), -1);
	assert_non_null(strstr(_err, "expected a DCB reply"));
}

/* This kernel, for real: the loopback device has no DCB; a device that
 * does not exist, and names that cannot be one, are errors. */
static void test_kernel(void **state)
{
	struct fs_dcb d;

	(void)state;
	assert_int_equal(fs_dcb_read("lo", &d, _err, sizeof(_err)), 1);
	assert_int_equal(fs_dcb_read("fsdcbnone0", &d, _err, sizeof(_err)), -1);
	assert_string_equal(_err, "fsdcbnone0: No such device");
	assert_int_equal(fs_dcb_read("", &d, _err, sizeof(_err)), -1);
	assert_int_equal(fs_dcb_read("a-name-longer-than-15", &d, _err, sizeof(_err)), -1);
	assert_non_null(strstr(_err, "expected 1 to 15 characters"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dscp),
		cmocka_unit_test(test_pcp),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_kernel),
	};

	return cmocka_run_group_tests_name("dcb", tests, NULL, NULL);
}
