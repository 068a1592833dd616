#!/usr/bin/env bash
# opensm_ref_sweeps.sh WEFT_ROUTE OPENSM_REF
# scripts/opensm-ref --sweeps N (the re-sweep column of perf/routing/bench-vs-opensm): OpenSM
# routes the fabric N times in one process and is stopped after the Nth, the summary gives the
# first step and the N-1 later ones with their median, and the LFTs are those of a one-sweep run.
# An option OpenSM rejects ends the script with exit 2 and OpenSM's own message.
set -euo pipefail
weft=$1 ref=$2
for tool in ibsim opensm; do command -v "$tool" >/dev/null || { echo "skip: no $tool"; exit 77; }; done
[[ -r /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so ]] || { echo "skip: no libumad2sim"; exit 77; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$weft" --gen kary:k=2,n=3 --write-net "$dir/fabric.net" -q >/dev/null
"$ref" "$dir/fabric.net" minhop "$dir/once" >"$dir/once.txt"
"$ref" "$dir/fabric.net" minhop "$dir/three" --sweeps 3 >"$dir/three.txt"
cat "$dir/three.txt"
fail() { echo "FAIL: $*"; exit 1; }
grep -qx 'engine_used=minhop' "$dir/three.txt" || fail "engine_used is not minhop"
grep -qx 'fallback=no' "$dir/three.txt" || fail "fallback is not no"
routed=$(grep -c ' tables configured on all switches' "$dir/three/opensm.log" || true)
((routed == 3)) || fail "OpenSM routed $routed times, expected 3 (stopped after the last)"
first=$(sed -n 's/^routing_seconds=//p' "$dir/three.txt")
read -r -a later <<<"$(sed -n 's/^resweeps=//p' "$dir/three.txt")"
median=$(sed -n 's/^resweep_seconds=//p' "$dir/three.txt")
((${#later[@]} == 2)) || fail "expected 2 later sweeps, got '${later[*]}'"
awk -v f="$first" -v a="${later[0]}" -v b="${later[1]}" -v m="$median" 'BEGIN {
    if (!(f > 0 && a > 0 && b > 0)) { print "FAIL: a step time is not positive"; exit 1 }
    want = (a + b) / 2
    if (m < want - 1e-6 || m > want + 1e-6) { printf "FAIL: median %s, expected %.6f\n", m, want; exit 1 } }'
# A one-sweep run (no --sweeps) keeps -o: OpenSM routed once, and the summary has no re-sweeps.
grep -q '^resweep' "$dir/once.txt" && fail "a one-sweep summary names re-sweeps"
((0 + $(grep -c ' tables configured on all switches' "$dir/once/opensm.log" || true) == 1)) ||
    fail "the one-sweep run routed more than once"
cmp "$dir/once/dump/opensm-lfts.dump" "$dir/three/dump/opensm-lfts.dump" ||
    fail "the LFTs after three sweeps differ from one sweep's"
# An option OpenSM rejects: exit 2 with OpenSM's own complaint, not a missing log.
set +e
"$ref" "$dir/fabric.net" minhop "$dir/bad" -- --no_such_option >"$dir/bad.txt" 2>"$dir/bad.err"
rc=$?
set -e
((rc == 2)) || fail "a rejected OpenSM option exited $rc, expected 2"
grep -q "unrecognized option '--no_such_option'" "$dir/bad.err" || fail "OpenSM's complaint not shown: $(cat "$dir/bad.err")"
grep -q 'awk' "$dir/bad.err" && fail "awk complained: $(cat "$dir/bad.err")"
echo "ok: 3 sweeps, first ${first} s, later ${later[*]} s, median ${median} s"
