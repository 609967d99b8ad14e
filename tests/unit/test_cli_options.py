#!/usr/bin/env python3
"""test_cli_options.py - each command's option table (what `fabsched help
--options COMMAND` prints, the table the parser and --help are built from)
and fabsched(1) say the same: every option the command takes is named in
its section of the page, every option the page lists as an item (.TP) of
that section is one the command takes, every --option the section's text
names is the command's (or another tool's, listed here by name), every old
spelling is named as such, and --help shows every current option.  TAP.

Usage: test_cli_options.py FABSCHED_BINARY (FABSCHED_SRCDIR: the tree)."""
import os
import re
import subprocess
import sys

top = os.environ.get("FABSCHED_SRCDIR") or os.path.join(os.path.dirname(__file__), "..", "..")
fab = sys.argv[1]
page = os.path.join(top, "doc", "fabsched.1")

# --options of other tools a section may name (what they are for)
FOREIGN = {
    "topo": {"--cache", "--node-name-map", "--constraint"},  # ibnetdiscover, sbatch
    "sim": {"--switches", "--exclusive", "--begin"},  # sbatch (the policies; jobs eligible later)
    "job": {"--fabric-locality", "--json"},     # sbatch's SPANK option; scontrol --json
    "show": set(),
    "metrics": set(),
    "config": set(),
    "report": {"--fabric-locality"},            # sbatch's SPANK option
}
SECTION = {"topo": "TOPO", "config": "CONFIG", "sim": "SIM", "job": "JOB",
           "show": "SHOW", "metrics": "METRICS", "report": "REPORT"}


def plain(line):
    line = line.replace("\\-", "-").replace("\\(dq", '"')
    return re.sub(r"\\f[BIRP]|\\&|\\e", "", line)


def sections():
    """Each .SH section of the page: its lines, made plain."""
    out, cur = {}, None
    for line in open(page, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith('.\\"'):
            continue
        m = re.match(r"\.SH\s+(.*)", line)
        if m:
            cur = m.group(1).strip('"')
            out[cur] = []
            continue
        if cur:
            out[cur].append(plain(line))
    return out


def table(cmd):
    """{spelling: (kind, value, now)}: kind 'long' or 'short'."""
    r = subprocess.run([fab, "help", "--options", cmd], capture_output=True, text=True)
    if r.returncode:
        raise SystemExit("Bail out! fabsched help --options %s: %s" % (cmd, r.stderr.strip()))
    opts = []
    for line in r.stdout.splitlines():
        f = line.split()
        if f[0] == "verbs":
            continue
        short, long_, value = f[0], f[1], f[2]
        now = f[3][4:] if len(f) > 3 and f[3].startswith("old:") else None
        opts.append((None if short == "-" else short, None if long_ == "-" else long_,
                     None if value == "-" else value, now))
    return opts


results = []


def ok(cond, what, diag=""):
    results.append((bool(cond), what, diag))


secs = sections()
for cmd, sh in SECTION.items():
    opts = table(cmd)
    lines = secs.get(sh)
    if lines is None:
        ok(False, "fabsched(1) has a %s section" % sh)
        continue
    text = "\n".join(lines)
    current = [o for o in opts if not o[3]]
    old = [o for o in opts if o[3]]
    spellings = {s for o in opts for s in (o[0], o[1]) if s}
    cur_spellings = {s for o in current for s in (o[0], o[1]) if s}

    def named(s):
        return re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(s), text)

    # every current option (but --help) is named in the section
    missing = [o[1] or o[0] for o in current if o[1] != "--help" and
               not all(named(s) for s in (o[0], o[1]) if s)]
    ok(not missing, "fabsched(1) %s names every option of fabsched %s (%d)"
       % (sh, cmd, len(current) - 1), "not named: %s" % " ".join(missing))

    # every .TP item of the section that is an option is one the command takes
    items = set()
    for i, line in enumerate(lines[:-1]):
        if line.strip() == ".TP":
            items.update(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[A-Za-z])(?![\w-])", lines[i + 1]))
    stray = sorted(s for s in items if s not in cur_spellings)
    ok(not stray, "every option fabsched(1) %s lists as an item is one fabsched %s takes (%d)"
       % (sh, cmd, len(items)), "not taken: %s" % " ".join(stray))

    # every --option of the section's text is the command's or a named other tool's
    words = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", text))
    unknown = sorted(w for w in words if w not in spellings and w not in FOREIGN[cmd])
    ok(not unknown, "every --option fabsched(1) %s names is fabsched %s's (or another "
       "tool's it names)" % (sh, cmd), "unknown: %s" % " ".join(unknown))

    # old spellings: named in the section, with what replaces them
    undoc = [o[1] or o[0] for o in old if not all(named(s) for s in (o[0], o[1]) if s)]
    ok(not undoc, "fabsched(1) %s names each old spelling fabsched %s still accepts (%d)"
       % (sh, cmd, len(old)), "not named: %s" % " ".join(undoc))

    # --help lists every current option and no old one
    r = subprocess.run([fab, "help", cmd], capture_output=True, text=True)
    helped = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[A-Za-z])(?![\w-])", r.stdout))
    lacking = sorted(s for s in cur_spellings if s not in helped)
    shown_old = sorted(o[1] for o in old if o[1] and re.search(
        r"^\s*(-\w, )?%s\b" % re.escape(o[1]), r.stdout, re.M))
    ok(r.returncode == 0 and not lacking and not shown_old,
       "fabsched help %s shows every current option, no old spelling" % cmd,
       "lacking: %s; old shown: %s" % (" ".join(lacking), " ".join(shown_old)))

# the old spellings still work, each with one warning naming the new one;
# an unknown option and a missing value are usage errors naming the option
fx = os.environ.get("FABSCHED_FIXTURES") or os.path.join(top, "tests", "fixtures")
cache = os.path.join(fx, "ibnetdiscover", "fattree-4hosts.cache")
env = dict(os.environ, SLURM_CONF="/nonexistent/slurm.conf")


def run(*args):
    return subprocess.run([fab] + list(args), capture_output=True, text=True, env=env)


new = run("topo", "export", "--all-hosts", "--load-cache", cache)
for old in ("-C", "--cache"):
    r = run("topo", "export", "--all-hosts", old, cache)
    ok(new.returncode == 0 and "SwitchName=" in new.stdout and r.returncode == 0 and
       r.stdout == new.stdout and "warning: %s is an old spelling of --load-cache" % old in r.stderr,
       "topo export %s FILE: the same topology.conf as --load-cache, and a warning" % old,
       "new rc %d, old rc %d: %s" % (new.returncode, r.returncode, r.stderr.strip()))
import tempfile
with tempfile.TemporaryDirectory() as tmp:
    model = os.path.join(tmp, "m.json")
    d = run("topo", "discover", "--all-hosts", "--load-cache", cache, "-o", model)
    new = run("topo", "check", "--model", model)
    for old in ("-j", "--json"):
        r = run("topo", "check", old, model)
        ok(d.returncode == 0 and new.returncode in (0, 3) and r.returncode == new.returncode and
           r.stdout == new.stdout and "warning: %s is an old spelling of --model" % old in r.stderr,
           "topo check %s FILE: the same report as --model, and a warning" % old,
           "discover rc %d, new rc %d, old rc %d: %s" % (d.returncode, new.returncode,
                                                         r.returncode, r.stderr.strip()))
    conf = os.path.join(tmp, "fabsched.conf")
    open(conf, "w").write("StateDir=%s/state\n" % tmp)
    new = run("config", "show", "--conf", conf)
    r = run("config", "show", "-f", conf)
    ok(new.returncode == 0 and r.returncode == 0 and r.stdout == new.stdout and
       "warning: -f is an old spelling of --conf" in r.stderr,
       "config show -f FILE: the same settings as --conf FILE, and a warning",
       "new rc %d: %s; old rc %d: %s" % (new.returncode, new.stderr.strip(), r.returncode,
                                         r.stderr.strip()))
r = run("topo", "check", "--loadcache", cache)
ok(r.returncode == 2 and "unknown option --loadcache" in r.stderr and
   "fabsched help topo" in r.stderr, "an unknown option: exit 2, named, with where the options are",
   r.stderr.strip())
r = run("show", "--model")
ok(r.returncode == 2 and "--model needs a value (FILE)" in r.stderr,
   "an option without its value: exit 2, naming the option and the value", r.stderr.strip())
r = run("help", "--options", "nosuch")
ok(r.returncode == 2, "help --options of an unknown command: exit 2", r.stderr.strip())

print("1..%d" % len(results))
for n, (good, what, diag) in enumerate(results, 1):
    print("%s %d - %s" % ("ok" if good else "not ok", n, what))
    if not good and diag:
        print("# " + diag)
sys.exit(0 if all(r[0] for r in results) else 1)
