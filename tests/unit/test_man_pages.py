#!/usr/bin/env python3
"""test_man_pages.py - the man pages in doc/ agree with each other and with
configure: one date and one version (configure.ac's) on every .TH line;
every reference to a fabsched page names a page of doc/; every reference to
a section of a page ("fabsched(1), WATCH", "see fabsched-prolog(8), section
FAILURE SEMANTICS") names a .SH or .SS heading of that page.  TAP."""
import glob
import os
import re
import sys

top = os.environ.get("FABSCHED_SRCDIR") or os.path.join(os.path.dirname(__file__), "..", "..")
pages = sorted(glob.glob(os.path.join(top, "doc", "*.[158]")))
version = re.search(r"AC_INIT\(\[fabsched\],\s*\[([^\]]+)\]",
                    open(os.path.join(top, "configure.ac")).read()).group(1)


def text(path):
    """The page as plain text: macros' arguments joined, escapes dropped."""
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith('.\\"'):
            continue
        m = re.match(r"\.(B|I|BR|BI|RB|IB|IR|RI)\s+(.*)", line)
        if m:
            args = re.findall(r'"[^"]*"|\S+', m.group(2))
            line = "".join(a.strip('"') for a in args)
            if m.group(1) in ("B", "I"):
                line = " ".join(a.strip('"') for a in args)
        elif line.startswith("."):
            line = " "
        line = re.sub(r"\\f[BIRP]|\\f\(..", "", line)
        line = line.replace("\\-", "-").replace("\\(bu", "").replace("\\&", "")
        out.append(line)
    return " ".join(out)


def headings(path):
    hs = set()
    for line in open(path, encoding="utf-8"):
        m = re.match(r"\.S[HS]\s+(.*)", line)
        if m:
            hs.add(m.group(1).strip().strip('"').replace("\\-", "-").upper())
    return hs


names = {}
for p in pages:
    base = os.path.basename(p)
    names[(base[:-2], base[-1])] = p

tests = []

# 1: one date and one version
ths = {}
for p in pages:
    # the .TH line (after a preprocessor line such as '\" t, for tbl)
    first = next((l for l in open(p, encoding="utf-8") if l.startswith(".TH")), "")
    f = re.findall(r'"[^"]*"|\S+', first)
    ths[os.path.basename(p)] = (f[3].strip('"') if len(f) > 3 else "",
                                f[4].strip('"') if len(f) > 4 else "")
dates = {d for d, _ in ths.values()}
bad = {k: v for k, v in ths.items() if v[1] != "fabsched " + version}
tests.append((len(dates) == 1 and not bad,
              "every page's .TH has one date and version 'fabsched %s' (dates: %s; "
              "other versions: %s)" % (version, ", ".join(sorted(dates)), bad or "none")))

# 2: references to fabsched pages, and to their sections
ref = re.compile(r"([a-z][a-z0-9_.-]*)\s?\(([158])\)")
sec = re.compile(r"\s*,\s*(?:section\s+)?((?:[A-Z][A-Z0-9.-]*)(?:\s+[A-Z][A-Z0-9.-]*)*)\b")
for p in pages:
    t = text(p)
    missing = []
    for m in ref.finditer(t):
        name, n = m.group(1), m.group(2)
        ours = name.startswith("fabsched") or (name, n) in names or name in (
            "topology_fabric", "select_fabric", "gres_rdma", "gres_hugepages",
            "job_submit_fabsched")
        if not ours:
            continue
        if (name, n) not in names:
            missing.append("%s(%s)" % (name, n))
            continue
        s = sec.match(t, m.end())
        if s and len(s.group(1)) > 2:
            want = s.group(1).strip().upper()
            have = headings(names[(name, n)])
            # the longest run of words that is a heading
            words = want.split()
            ok = any(" ".join(words[:k]) in have for k in range(len(words), 0, -1))
            if not ok:
                missing.append("%s(%s), %s" % (name, n, want))
    tests.append((not missing, "%s: every reference to a fabsched page and section "
                  "resolves%s" % (os.path.basename(p),
                                  "" if not missing else ": not found: " + "; ".join(missing))))

print("1..%d" % len(tests))
for i, (ok, what) in enumerate(tests, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
sys.exit(0 if all(ok for ok, _ in tests) else 1)
