#!/usr/bin/env bash
# weft-route's command line: an unknown engine in -R is a usage error (exit 2) that names it and
# the known ones, found before any topology is read; names are trimmed and no_fallback is a
# token of the list, as in OpenSM. Bad input is refused with exit 2 and a located message: a
# header-only ibnetdiscover file, a cable between two ports of one switch, a device read as a
# topology or an LFT dump, a fabric the LID space cannot hold. auto (the default) says what it
# recognised and why its chain, and routes free of credit loops; -R minhop stays minhop. --ars:
# on a ring routed in one layer naive alternates close a credit loop, the compiled groups do not,
# and --ars-groups writes every switch's groups and the summary as JSON that agrees with the line.
#   weft_route_cli.sh WEFT_ROUTE
set -uo pipefail
weft=$1
fail=0
check() {  # check WHAT CONDITION...
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
out=$("$weft" --topo /nonexistent/fabric.net -R 'minhop, fooo' 2>&1)
rc=$?
check "unknown engine exits 2 (got $rc)" test "$rc" -eq 2
check "the message names the engine" grep -q "unknown routing engine 'fooo'" <<<"$out"
check "the message lists the known engines" grep -q 'known: minhop, updn, dnup, ftree, sssp, dfsssp, file, nue, torus-2QoS, lash, dor, prefix, vswitch-ftree, auto, no_fallback' <<<"$out"
check "the topology is not read first" bash -c '! grep -q nonexistent <<<"$1"' _ "$out"
out=$("$weft" --gen 'kary:k=2,n=2' -q -R ' updn , no_fallback ' 2>&1)
rc=$?
check "a trimmed list with no_fallback routes (exit $rc)" test "$rc" -eq 0
check "updn routed it" grep -q '^routing: updn ' <<<"$out"
out=$("$weft" --gen 'kary:k=2,n=2' -q -R 'ftree,,minhop' 2>&1)
check "an empty name between commas is skipped" grep -q '^routing: ftree ' <<<"$out"
# auto, the default: the shape, its evidence and the chain on one line, then the engine that
# routed, free of credit loops; an explicit -R minhop stays OpenSM's minhop and says nothing.
out=$("$weft" --gen 'kary:k=4,n=3' -q --verify 2>&1)
rc=$?
check "auto routes a fat tree and verifies (exit $rc)" test "$rc" -eq 0
check "auto says it saw a fat tree and chose ftree,nue,updn" \
    grep -q '^auto: fat tree (3 levels of 16/16/16 switches.*) -> ftree,nue,updn: ' <<<"$out"
check "ftree routed it" grep -q '^routing: ftree (chain auto) ' <<<"$out"
check "no credit loop" grep -q '^credit-loops: none' <<<"$out"
out=$("$weft" --gen 'torus:5x5x5' -q -R auto --verify 2>&1)
rc=$?
check "auto routes a torus free of credit loops (exit $rc)" test "$rc" -eq 0
check "auto says torus and why not torus-2QoS" \
    grep -q '^auto: torus (.*5tx5tx5t.*) -> nue,updn: .*torus-2QoS needs' <<<"$out"
out=$("$weft" --gen 'random:switches=36,degree=4,hosts=1,seed=3' -q -R auto 2>&1)
check "a random graph is irregular" grep -q '^auto: irregular (.*) -> nue,updn: ' <<<"$out"
out=$("$weft" --gen 'dragonfly:a=4,p=2,h=2' -q -R auto -Q --verify 2>&1)
check "with QoS, dfsssp layers a dragonfly" grep -q '^auto: dragonfly (.*) -> dfsssp,nue,updn: ' <<<"$out"
check "dfsssp routed it, free of credit loops" \
    bash -c 'grep -q "^routing: dfsssp (chain auto)" <<<"$1" && grep -q "^credit-loops: none" <<<"$1"' _ "$out"
out=$("$weft" --gen 'kary:k=4,n=3' -q -R minhop 2>&1)
check "-R minhop routes with minhop" grep -q '^routing: minhop (chain minhop) ' <<<"$out"
check "-R minhop says nothing of auto" bash -c '! grep -q "^auto:" <<<"$1"' _ "$out"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# refused WHAT 'MESSAGE' ARGS...: weft-route exits 2 (RC if set) quickly and says MESSAGE.
refused() {
    local what=$1 message=$2
    shift 2
    out=$(timeout 20 "$weft" "$@" -q 2>&1)
    rc=$?
    check "$what exits ${RC:-2} (got $rc)" test "$rc" -eq "${RC:-2}"
    check "$what: '$message'" grep -qF "$message" <<<"$out"
}
printf '#\n# Topology file: generated on Thu Nov 28 2026\n#\n# Initiated from node 0x10 port 0x11\n\n' \
    >"$dir/header.topo"
refused "a header-only ibnetdiscover file" "header.topo:6:1: expected a node record" \
    --topo "$dir/header.topo" -R minhop
printf 'Switch 4 "sw1"\n[1] "sw1"[2]\n[3] "h1"[1]\n\nHca 1 "h1"\n[1] "sw1"[3]\n' >"$dir/self.net"
refused "a cable between two ports of one switch" \
    "self.net:2:5: expected a cable to another node, found 'port 2 of the same switch'" --topo "$dir/self.net"
refused "--topo /dev/zero" "/dev/zero:1:1: expected a line of at most 64 KiB" --topo /dev/zero
# The file engine's failure is the chain's: no engine could route (exit 1).
RC=1 refused "-U /dev/zero" "fell through: file: /dev/zero:1:1: expected a line of at most 64 KiB" \
    --gen kary:k=2,n=2 -R file --no_fallback -U /dev/zero
refused "--guid2lid /dev/zero" "/dev/zero:1:1: expected a line of at most 64 KiB" --gen kary:k=2,n=2 \
    --guid2lid /dev/zero
refused "an exhausted LID space" "exhausted at port 1 of 'h00" --gen ft36:hosts=648 -l 7
# Multicast groups: trees built and checked, listed as MFT entries; a bad file is a located
# usage error.
groups=$(mktemp)
mfts=$(mktemp)
printf '0xC000 all\n0xc001 switches # every switch\n' >"$groups"
out=$("$weft" --gen 'kary:k=2,n=2' -q -R updn --mcast-groups "$groups" --dump-mfts "$mfts" 2>&1)
rc=$?
check "multicast groups route (exit $rc)" test "$rc" -eq 0
check "two trees, none left out" grep -q '^multicast: 2 groups, 2 trees (7 switch entries), 0 left out' <<<"$out"
check "the listing names MLID, switch and ports" grep -q '^0xc001 0x0002c90200000001 0,1,2 ' "$mfts"
printf '0xC000 all\n0xBFFF 0x10\n' >"$groups"
out=$("$weft" --gen 'kary:k=2,n=2' -q --mcast-groups "$groups" 2>&1)
rc=$?
check "a unicast LID as a group exits 2 (got $rc)" test "$rc" -eq 2
check "located: file, line 2, column 1" grep -q "$groups:2:1: expected a multicast LID" <<<"$out"
rm -f "$groups" "$mfts"
# ARS groups (issue 29, test 5): naive detours round a one-layer ring close a credit loop; the
# compiler leaves those out, says how many and why, and the union of what it kept is acyclic.
out=$("$weft" --gen 'torus:8,hosts=1' -q -R nue --ars-naive --ars-groups "$dir/ring.json" 2>&1)
rc=$?
check "--ars on a ring exits 0 (got $rc)" test "$rc" -eq 0
check "the naive union has a credit loop" grep -q '^ars-naive: every candidate unchecked: credit-loops FOUND' <<<"$out"
check "the compiled union has none" grep -q '^ars: destinations=8 groups=56 .* union credit-loops: none' <<<"$out"
check "it says what it left out and why" grep -q '^  left out: alternate-credit-loop: [1-9][0-9]* (e.g. ' <<<"$out"
check "the JSON agrees with the line and every group holds its fixed member" python3 - "$dir/ring.json" "$out" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
s = doc["summary"]
line = re.search(r"^ars: .* primaries=(\d+) alternates=(\d+) left_out=(\d+)", sys.argv[2], re.M)
groups = [g for sw in doc["switches"] for g in sw["groups"]]
assert doc["weft_ars_groups"] == 1 and doc["engine"] == "nue"
assert len(doc["switches"]) == 8 and len(doc["destinations"]) == 8 and len(groups) == s["groups"] == 56
assert (s["primaries"], s["alternates"], s["left_out_total"]) == tuple(map(int, line.groups()))
assert sum(len(g["primary"]) for g in groups) == s["primaries"]
assert sum(len(g["alternate"]) for g in groups) == s["alternates"] > 0
assert all(g["fixed"] in g["primary"] and not set(g["alternate"]) & set(g["primary"]) for g in groups)
assert s["left_out"]["alternate-credit-loop"]["count"] > 0 and not s["union_check"]["credit_loop"]
PY
out=$("$weft" --gen 'kary:k=4,n=3' -q -R ftree --ars 2>&1)
check "a fat tree keeps every up port as a primary" \
    grep -q '^ars: destinations=16 groups=752 primaries=2048 .* union credit-loops: none' <<<"$out"
check "a fat tree's minimal routes are the engine's" grep -q '^ars: minimal by engine distance' <<<"$out"
out=$("$weft" --gen 'dragonfly:a=4,p=1,h=2' -q -R dfsssp --ars 2>&1)
check "a dragonfly's minimal routes cross the fewest global links" \
    grep -q '^ars: minimal by dragonfly distance' <<<"$out"
refused "a bad --ars-max-extra-hops" "ars-max-extra-hops: expected a number 0..254, got 'far'" \
    --gen kary:k=2,n=2 --ars-max-extra-hops far
# Live migration (issue 32): a pattern planned three ways, FTreeMinRC applied and checked after
# each step; a file of migrations; refusals (unknown VM, full hypervisor, no VMs, bad pattern).
out=$("$weft" --gen 'xgft:n=2;m=8,4;w=4,1/vms:vfs=4,load=50,dist=random' -q -R vswitch-ftree \
    --migrate-pattern to-uniform --ebb-runs 10 2>&1)
rc=$?
check "--migrate-pattern to-uniform exits 0 (got $rc)" test "$rc" -eq 0
check "every step planned three ways" \
    grep -q '^migrate 1: vm[0-9]* .* full: switches [0-9]* smps [0-9]* (full reconfiguration 36); itrc: switches [0-9]* smps [0-9]*; ftree-minrc: marked [0-9]* switches' <<<"$out"
check "every step checked" bash -c '[ "$(grep -c "^migrate [0-9]*:" <<<"$1")" = "$(grep -c "^  after ftree-minrc: unreachable 0 loops 0 credit-loops none;" <<<"$1")" ]' _ "$out"
check "a summary line" grep -q '^per migration: full: switches .* ftree-minrc: marked ' <<<"$out"
printf '# two moves\nmigrate vm00001 to h00002\nmigrate vm00002 to 0x0002c90300000040\n' >"$dir/moves"
out=$("$weft" --gen 'kary:k=2,n=2/vms:vfs=2,count=2,scheme=dynamic' -q -R vswitch-ftree --migrate "$dir/moves" \
    --reconfig itrc 2>&1)
rc=$?
check "--migrate FILE --reconfig itrc exits 0 (got $rc)" test "$rc" -eq 0
check "dynamic LIDs copy the PF's entries" grep -q '^migrate 1: vm00001 .h00001. -> .h00002. (LID [0-9]* copies LID ' <<<"$out"
check "both steps applied by itrc" test "$(grep -c '^  after itrc: unreachable 0 loops 0' <<<"$out")" -eq 2
printf 'migrate vm00001 to h00003\nmigrate vm00002 to h00003\n' >"$dir/full"
refused "a migration to a full hypervisor" "migration 2: hypervisor 'h00003' (0x0002c90300000030) is full (1 of 1 VFs in use)" \
    --gen 'kary:k=2,n=2/vms:vfs=1,count=2' --migrate "$dir/full"
printf 'migrate vm00009 to h00002\n' >"$dir/unknown"
refused "an unknown VM" "unknown:1:9: expected the name of a VM of the fabric, found 'vm00009'" \
    --gen 'kary:k=2,n=2/vms:vfs=1,count=2' --migrate "$dir/unknown"
refused "migrations without VMs" "the fabric runs no VM" --gen 'kary:k=2,n=2' --migrate-pattern random
refused "an unknown pattern" "migrate-pattern: expected random, consolidate, grouping or to-uniform, got 'even'" \
    --gen 'kary:k=2,n=2' --migrate-pattern even
refused "ftree-minrc off a fat tree" "reconfig ftree-minrc: the link between" \
    --gen 'torus:3x3/vms:vfs=2,count=4' --migrate-pattern random --reconfig ftree-minrc
refused "a VM on an unknown hypervisor" "expected the GUID of a hypervisor" --topo <(printf '%s' \
    '{"weft_topology": 1, "nodes": [{"type": "ca", "guid": "0x10", "ports": 1}], "vms": [{"name": "a", "hypervisor": "0x10"}]}')
exit $fail
