# shellcheck shell=bash
# ethernet.sh - an emulated Ethernet leaf-spine fabric for the cluster harness
# (sourced by ./cluster; uses its D, RUN, TAG, NODES, TIMEOUT, cg_exec, say, err).
#
# --fabric "roce:leaves=L,hosts=H,spines=S[,rails=R][,snmp=1]": a network namespace per
# switch and per node, veth cables between them, a Linux bridge in each
# switch namespace, and lldpd in every namespace with a control socket of its
# own (<dir>/fabric/lldp/<name>.sock).  A switch's bridge holds its ports
# facing down only (hosts, lower switches): the fabric has cycles, and no
# spanning tree runs here to break them.  Node i (of NODES) has interfaces
# eth0..eth<R-1>; interface r is cabled to port swp<1 + (i mod H)> of leaf
# (r * L + i / H + 1) (leaf01..); leaf ports swp<H+1>..swp<H+S> go up to the
# spines, spine port swp<k> down to leaf k.  Switches send their port ids as
# interface names (as Cumulus and SONiC do), nodes as MACs with the name in
# the description (lldpd's default on Linux hosts); every instance sends each
# second (TTL 10 s: a busy machine may delay a few).  LLDP frames are
# link-local: a bridge does not forward them, so each neighbour is the real
# peer.  Traffic never leaves these
# namespaces; the slurmd themselves stay on 127.0.0.1.  With snmp=1 each
# switch also runs snmpd (net-snmp) on 127.0.0.1:161 of its namespace, and
# its lldpd serves LLDP-MIB to it as an AgentX subagent: a switch that
# speaks SNMP.
#
# Files: <dir>/fabric/ethernet.cables ("A IFA B IFB" per cable),
# <dir>/fabric/ethernet.systems ("NAME switch|node" per namespace),
# <dir>/fabric/lldp/ (sockets, configurations, logs).  Records:
# `cluster fabric records DIR` writes DIR/nodes/<node>.json and
# DIR/switches/<switch>.json (lldpcli -f json0 show neighbors details);
# `... records DIR snmp` the switches' as DIR/switches/<switch>.snmpwalk
# (snmpwalk -On of LLDP-MIB), the nodes' as json0.

ETH_PFX="fse$(printf '%s' "$D" | cksum | cut -c1-6)"
ETH_DIR=$D/fabric/lldp

eth_ns() { echo "$ETH_PFX-$1"; }

eth_spec() {	# eth_spec "leaves=..,hosts=..": ETH_LEAVES ETH_HOSTS ETH_SPINES ETH_RAILS
	local item k v
	local IFS=,
	ETH_HOSTS=4 ETH_SPINES=1 ETH_RAILS=1 ETH_LEAVES="" ETH_SNMP=0
	for item in $1; do
		[ -n "$item" ] || continue
		k=${item%%=*} v=${item#*=}
		[ "$k" != "$item" ] || { err "fabric spec roce: '$item' is not key=value"; return 1; }
		case "$v" in ''|*[!0-9]*) err "fabric spec roce: $k=$v: expected a number"; return 1 ;; esac
		case "$k" in
		leaves) ETH_LEAVES=$v ;;
		hosts) ETH_HOSTS=$v ;;
		spines) ETH_SPINES=$v ;;
		rails) ETH_RAILS=$v ;;
		snmp) ETH_SNMP=$v ;;
		*) err "fabric spec roce: unknown key '$k'; expected leaves, hosts, spines, rails, snmp"; return 1 ;;
		esac
	done
	[ "$ETH_HOSTS" -ge 1 ] && [ "$ETH_RAILS" -ge 1 ] && [ "$ETH_RAILS" -le 8 ] && [ "$ETH_SNMP" -le 1 ] ||
		{ err "fabric spec roce: expected hosts >= 1, rails 1-8 and snmp 0 or 1"; return 1; }
	[ -n "$ETH_LEAVES" ] || ETH_LEAVES=$(((${#NODES[@]} + ETH_HOSTS - 1) / ETH_HOSTS))
	if [ $((ETH_LEAVES * ETH_HOSTS)) -lt ${#NODES[@]} ]; then
		err "fabric spec roce: $ETH_LEAVES leaves of $ETH_HOSTS hosts hold fewer than ${#NODES[@]} nodes"
		return 1
	fi
}

eth_switches() {	# the switch names of the fabric, one a line
	local i
	for ((i = 1; i <= ETH_LEAVES * ETH_RAILS; i++)); do printf 'leaf%02d\n' "$i"; done
	for ((i = 1; i <= ETH_SPINES; i++)); do printf 'spine%02d\n' "$i"; done
}

eth_cables() {	# "A IFA B IFB" per cable
	local i r l s
	for ((i = 0; i < ${#NODES[@]}; i++)); do
		for ((r = 0; r < ETH_RAILS; r++)); do
			printf '%s eth%d leaf%02d swp%d\n' "${NODES[i]}" "$r" \
				$((r * ETH_LEAVES + i / ETH_HOSTS + 1)) $((i % ETH_HOSTS + 1))
		done
	done
	for ((l = 1; l <= ETH_LEAVES * ETH_RAILS; l++)); do
		for ((s = 1; s <= ETH_SPINES; s++)); do
			printf 'leaf%02d swp%d spine%02d swp%d\n' "$l" $((ETH_HOSTS + s)) "$s" "$l"
		done
	done
}

# eth_lldpd NAME KIND: lldpd of system NAME in its namespace
eth_lldpd() {
	local name=$1 kind=$2 conf=$ETH_DIR/$1.conf
	{
		echo "configure system hostname $name"
		echo "configure system description \"fabsched test fabric $kind (Linux bridge and veth)\""
		echo "configure lldp tx-interval 1"
		echo "configure lldp tx-hold 10"
		[ "$kind" = switch ] && echo "configure lldp portidsubtype ifname"
	} > "$conf"
	rm -f "$ETH_DIR/$name.sock"
	local agentx=()
	[ -S "$ETH_DIR/$name.agentx" ] && agentx=(-x -X "unix:$ETH_DIR/$name.agentx")
	(cg_exec "lldpd-$name" setsid env "$TAG" ip netns exec "$(eth_ns "$name")" \
		lldpd -d -u "$ETH_DIR/$name.sock" "${agentx[@]+"${agentx[@]}"}" -I 'eth*,swp*' -O "$conf" \
		</dev/null >"$ETH_DIR/$name.log" 2>&1 9>&-) &
	echo $! > "$RUN/lldpd-$name.pid"
}

# eth_snmpd NAME: snmpd (net-snmp) of switch NAME in its namespace, on
# 127.0.0.1:161 there (community "public"), master of the AgentX socket
# <dir>/fabric/lldp/NAME.agentx that its lldpd serves LLDP-MIB through
eth_snmpd() {
	local name=$1 conf=$ETH_DIR/$1.snmpd.conf
	mkdir -p "$ETH_DIR/$name.snmp"
	{
		echo "agentaddress udp:127.0.0.1:161"
		echo "rocommunity public 127.0.0.1"
		echo "master agentx"
		echo "agentXSocket unix:$ETH_DIR/$name.agentx"
		echo "agentXTimeout 10"	# a loaded machine's slow subagent is waited for
	} > "$conf"
	rm -f "$ETH_DIR/$name.agentx"
	(cg_exec "snmpd-$name" setsid env "$TAG" SNMP_PERSISTENT_DIR="$ETH_DIR/$name.snmp" \
		ip netns exec "$(eth_ns "$name")" snmpd -f -C -c "$conf" -Lf "$ETH_DIR/$name.snmpd.log" \
		</dev/null >/dev/null 2>&1 9>&-) &
}

# eth_neighbours NAME: how many neighbours NAME's lldpd knows ("" if it does not answer)
eth_neighbours() {
	lldpcli -u "$ETH_DIR/$1.sock" -f keyvalue show neighbors 2>/dev/null |
		grep -c '^lldp\.[^.]*\.chassis\.name='
}

eth_stop() {	# lldpd stopped, namespaces deleted
	local nss p n=0 i pids=()
	# lldpd rewrites its command line and environment (setproctitle): its
	# processes are found by their network namespace, not by the tag
	mapfile -t nss < <(ip netns list 2>/dev/null | awk -v p="$ETH_PFX-" 'index($1, p) == 1 { print $1 }')
	for p in "${nss[@]+"${nss[@]}"}"; do
		mapfile -t -O "${#pids[@]}" pids < <(ip netns pids "$p" 2>/dev/null)
	done
	if [ ${#pids[@]} -gt 0 ]; then
		kill -TERM "${pids[@]}" 2>/dev/null
		wait_gone 5 "${pids[@]}" || { kill -KILL "${pids[@]}" 2>/dev/null; wait_gone 3 "${pids[@]}"; }
	fi
	rm -f "$RUN"/lldpd-*.pid "$ETH_DIR"/*.agentx	# no lldpd of a next fabric finds an old master
	for p in "${nss[@]+"${nss[@]}"}"; do echo "netns del $p"; done | ip -batch - 2>/dev/null
	for ((i = 0; i < ${#nss[@]}; i++)); do ip netns list | grep -q "^${nss[i]}\b" || n=$((n + 1)); done
	[ ${#nss[@]} -gt 0 ] && say "fabric: ethernet stopped ($n of ${#nss[@]} namespaces deleted, ${#pids[@]} processes)"
	return 0
}

eth_start() {	# eth_start SPEC (without "roce:")
	local sw name a ia b ib i want got t0 cables left next
	command -v lldpd >/dev/null && command -v lldpcli >/dev/null ||
		{ err "fabric roce: no lldpd (package lldpd)"; return 1; }
	eth_spec "$1" || return 1
	eth_stop >/dev/null
	mkdir -p "$ETH_DIR" "$RUN"
	t0=$(now)
	cables=$D/fabric/ethernet.cables
	eth_cables > "$cables"
	mapfile -t sw < <(eth_switches)
	{ printf '%s switch\n' "${sw[@]}"; printf '%s node\n' "${NODES[@]}"; } > "$D/fabric/ethernet.systems"
	# one ip(8) per step and per namespace: each costs a process and a setns
	for name in "${sw[@]}" "${NODES[@]}"; do echo "netns add $(eth_ns "$name")"; done |
		ip -batch - || { err "fabric roce: cannot create the namespaces"; return 1; }
	while read -r a ia b ib; do
		echo "link add name $ia netns $(eth_ns "$a") type veth peer name $ib netns $(eth_ns "$b")"
	done < "$cables" | ip -batch - || { err "fabric roce: cannot lay the cables"; return 1; }
	for name in "${sw[@]}" "${NODES[@]}"; do
		{
			echo "link set lo up"
			case " ${sw[*]} " in
			*" $name "*)
				# the bridge takes the ports facing down only: a leaf-spine
				# fabric has cycles, and bridged uplinks would storm
				echo "link add br0 type bridge"
				awk -v s="$name" '$3 == s { print $4 }' "$cables" |
					while read -r i; do echo "link set $i master br0"; echo "link set $i up"; done
				awk -v s="$name" '$1 == s { print "link set " $2 " up" }' "$cables"
				echo "link set br0 up" ;;
			*)
				awk -v s="$name" '$1 == s { print "link set " $2 " up" }' "$cables" ;;
			esac
		} | ip -n "$(eth_ns "$name")" -batch - || { err "fabric roce: cannot set up $name"; return 1; }
	done
	if [ "$ETH_SNMP" = 1 ]; then
		command -v snmpd >/dev/null && command -v snmpwalk >/dev/null ||
			{ err "fabric roce: snmp=1 needs snmpd and snmpwalk (packages snmpd, snmp)"; return 1; }
		for name in "${sw[@]}"; do eth_snmpd "$name"; done
		for name in "${sw[@]}"; do	# lldpd connects to a listening master
			for ((i = 0; i < TIMEOUT * 10; i++)); do
				[ -S "$ETH_DIR/$name.agentx" ] && break
				sleep 0.1
			done
			[ -S "$ETH_DIR/$name.agentx" ] ||
				{ err "fabric roce: snmpd of $name did not start"; tail_log "$ETH_DIR/$name.snmpd.log"; return 1; }
		done
	fi
	for name in "${sw[@]}"; do eth_lldpd "$name" switch; done
	if [ "$ETH_SNMP" = 1 ]; then	# each switch's lldpd connected as snmpd's subagent
		for name in "${sw[@]}"; do
			for ((i = 0; i < TIMEOUT * 10; i++)); do
				grep -q 'AgentX subagent connected' "$ETH_DIR/$name.log" 2>/dev/null && break
				sleep 0.1
			done
			grep -q 'AgentX subagent connected' "$ETH_DIR/$name.log" 2>/dev/null ||
				{ err "fabric roce: lldpd of $name did not connect to its snmpd (AgentX)"; tail_log "$ETH_DIR/$name.log"; return 1; }
		done
	fi
	for name in "${NODES[@]}"; do eth_lldpd "$name" node; done
	# every system sees a neighbour on each of its cables
	left=("${sw[@]}" "${NODES[@]}")
	for ((i = 0; i < TIMEOUT * 5 && ${#left[@]}; i++)); do
		[ $i -gt 0 ] && sleep 0.2
		next=()
		for name in "${left[@]}"; do
			want=$(awk -v s="$name" '$1 == s || $3 == s' "$cables" | wc -l)
			got=$(eth_neighbours "$name")
			[ "${got:-0}" -ge "$want" ] || next+=("$name")
		done
		left=("${next[@]+"${next[@]}"}")
	done
	if [ ${#left[@]} -gt 0 ]; then
		name=${left[0]}
		err "fabric roce: $name sees ${got:-no} neighbour(s) of $want after ${TIMEOUT} s"
		tail_log "$ETH_DIR/$name.log"
		eth_stop >/dev/null
		return 1
	fi
	say "fabric: ethernet up in $(elapsed "$t0") s: ${#NODES[@]} nodes x $ETH_RAILS rail(s), $((ETH_LEAVES * ETH_RAILS)) leaves, $ETH_SPINES spines, $(wc -l < "$cables") cables, lldpd in each namespace$([ "$ETH_SNMP" = 1 ] && echo ", snmpd in each switch's")"
}

eth_records() {	# eth_records DIR [json0|json|snmp]: DIR/nodes/<node>.json, DIR/switches/<switch>.json (.snmpwalk)
	local out=$1 fmt=${2:-json0} name kind i
	[ -n "$out" ] || { err "fabric records: give a directory"; return 1; }
	case "$fmt" in json0|json|snmp) ;; *) err "fabric records: format $fmt: expected json0, json or snmp"; return 1 ;; esac
	[ -s "$D/fabric/ethernet.systems" ] || { err "fabric records: no ethernet fabric at $D"; return 1; }
	mkdir -p "$out/nodes" "$out/switches" || return 1
	while read -r name kind; do
		kind=${kind/node/nodes}; kind=${kind/switch/switches}
		if [ "$fmt" = snmp ] && [ "$kind" = switches ]; then
			[ -S "$ETH_DIR/$name.agentx" ] ||
				{ err "fabric records: $name runs no snmpd (start the fabric with snmp=1)"; return 1; }
			# the subagent registers LLDP-MIB a moment after it connects:
			# walked until the walk holds as many neighbours (lldpRemSysName
			# rows) as lldpd knows, a complete walk
			local want got=
			want=$(eth_neighbours "$name")
			for ((i = 0; i < TIMEOUT * 5; i++)); do
				[ $i -gt 0 ] && sleep 0.2
				ip netns exec "$(eth_ns "$name")" snmpwalk -v2c -c public -On -t 2 -r 1 \
					127.0.0.1 1.0.8802.1.1.2 > "$out/$kind/$name.snmpwalk.tmp" 2>/dev/null || continue
				got=$(grep -c '^\.1\.0\.8802\.1\.1\.2\.1\.4\.1\.1\.9\.' "$out/$kind/$name.snmpwalk.tmp")
				[ "${want:-0}" -gt 0 ] && [ "$got" = "$want" ] && break
			done
			[ "${want:-0}" -gt 0 ] && [ "$got" = "$want" ] &&
				mv -f "$out/$kind/$name.snmpwalk.tmp" "$out/$kind/$name.snmpwalk" ||
				{ err "fabric records: snmpd of $name gives ${got:-no} LLDP neighbour(s), its lldpd knows ${want:-0}"; return 1; }
			continue
		fi
		lldpcli -u "$ETH_DIR/$name.sock" -f "${fmt/snmp/json0}" show neighbors details > "$out/$kind/$name.json.tmp" &&
			mv -f "$out/$kind/$name.json.tmp" "$out/$kind/$name.json" ||
			{ err "fabric records: lldpd of $name does not answer"; return 1; }
	done < "$D/fabric/ethernet.systems"
	say "fabric: records of $(ls "$out/nodes" | wc -l) nodes and $(ls "$out/switches" | wc -l) switches in $out"
}

eth_link() {	# eth_link NAME IFACE up|down: a cable plugged or unplugged at NAME's end
	case "${3:-}" in up|down) ;; *) err "fabric link: NAME IFACE up|down"; return 1 ;; esac
	ip -n "$(eth_ns "$1")" link set "$2" "$3" || { err "fabric link: no $2 on $1"; return 1; }
	say "fabric: $1 $2 $3"
}

# eth_port_peers NAME IFACE: the systems NAME's lldpd sees on IFACE, one line each
eth_port_peers() {
	lldpcli -u "$ETH_DIR/$1.sock" -f keyvalue show neighbors ports "$2" 2>/dev/null |
		sed -n 's/^lldp\.[^.]*\.chassis\.name=//p'
}

# eth_recable NAME IFACE SWITCH PORT: NAME's cable on IFACE moved to port PORT
# (a free one) of SWITCH; the interface keeps its MAC address (the same NIC).
# As a cable pulled out and plugged in elsewhere: the link goes down first
# (lldpd forgets the old neighbour, as when a NIC loses its carrier; with a
# link that stays up it would keep it until its TTL, 10 s), and the
# command returns once NAME's lldpd sees SWITCH there (at most 15 s).
eth_recable() {
	local name=$1 ifc=$2 swn=$3 port=$4 cables=$D/fabric/ethernet.cables mac
	[ $# -eq 4 ] || { err "fabric recable: NAME IFACE SWITCH PORT"; return 1; }
	grep -q "^$name $ifc " "$cables" || { err "fabric recable: no cable on $name $ifc"; return 1; }
	awk -v s="$swn" -v p="$port" '($1 == s && $2 == p) || ($3 == s && $4 == p) { f = 1 } END { exit !f }' "$cables" &&
		{ err "fabric recable: $swn $port is taken"; return 1; }
	mac=$(ip -n "$(eth_ns "$name")" -o link show "$ifc" | sed -n 's|.* link/ether \([0-9a-f:]*\) .*|\1|p')
	local i
	ip -n "$(eth_ns "$name")" link set "$ifc" down
	for ((i = 0; i < 50; i++)); do
		[ -z "$(eth_port_peers "$name" "$ifc")" ] && break
		sleep 0.1
	done
	[ -n "$mac" ] && ip -n "$(eth_ns "$name")" link del "$ifc" &&
		ip link add name "$ifc" address "$mac" netns "$(eth_ns "$name")" type veth \
			peer name "$port" netns "$(eth_ns "$swn")" &&
		ip -n "$(eth_ns "$swn")" link set "$port" master br0 &&
		ip -n "$(eth_ns "$swn")" link set "$port" up &&
		ip -n "$(eth_ns "$name")" link set "$ifc" up || { err "fabric recable: $name $ifc to $swn $port failed"; return 1; }
	awk -v n="$name" -v i="$ifc" -v s="$swn" -v p="$port" '$1 == n && $2 == i { $3 = s; $4 = p } { print }' \
		"$cables" > "$cables.new" && mv -f "$cables.new" "$cables"
	for ((i = 0; i < 150; i++)); do
		[ "$(eth_port_peers "$name" "$ifc")" = "$swn" ] && break
		sleep 0.1
	done
	say "fabric: $name $ifc recabled to $swn $port"
}
