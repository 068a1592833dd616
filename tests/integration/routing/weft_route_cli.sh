#!/usr/bin/env bash
# weft-route's command line: an unknown engine in -R is a usage error (exit 2) that names it and
# the known ones, found before any topology is read; names are trimmed and no_fallback is a
# token of the list, as in OpenSM.
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
check "the message lists the known engines" grep -q 'known: minhop, updn, dnup, ftree, sssp, dfsssp, file, nue, torus-2QoS, lash, dor, no_fallback' <<<"$out"
check "the topology is not read first" bash -c '! grep -q nonexistent <<<"$1"' _ "$out"
out=$("$weft" --gen 'kary:k=2,n=2' -q -R ' updn , no_fallback ' 2>&1)
rc=$?
check "a trimmed list with no_fallback routes (exit $rc)" test "$rc" -eq 0
check "updn routed it" grep -q '^routing: updn ' <<<"$out"
out=$("$weft" --gen 'kary:k=2,n=2' -q -R 'ftree,,minhop' 2>&1)
check "an empty name between commas is skipped" grep -q '^routing: ftree ' <<<"$out"
exit $fail
