#!/usr/bin/env bash
# compare_with_opensm.sh WEFT_ROUTE OPENSM_REF SPEC ENGINE
# Generates SPEC as an ibsim net file, routes it with OpenSM (opensm-ref) and with weft-route
# (same LIDs through OpenSM's guid2lid), then checks with weft-route --compare-lfts:
#   - the same (source, destination) pairs are delivered,
#   - wherever OpenSM's path is minimal, weft's is too (no pair where weft is longer),
#   - weft's max routes per link is no worse than OpenSM's,
#   - for lash and dfsssp, weft needs no more VLs than OpenSM ("Lanes needed" /
#     "Virtual Lanes needed" in OpenSM's log),
#   - for sssp and dfsssp, which reproduce OpenSM's tie-breaking, every LFT entry is OpenSM's.
# For torus-2QoS (SPEC a torus:/mesh: grid) both get -Q and a torus-2QoS.conf written by
# scripts/torus-2qos-conf, and the path lengths must also be the same pair by pair.
set -euo pipefail
weft=$1 ref=$2 spec=$3 engine=$4
for tool in ibsim opensm; do command -v "$tool" >/dev/null || { echo "skip: no $tool"; exit 77; }; done
[[ -r /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so ]] || { echo "skip: no libumad2sim"; exit 77; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$weft" --gen "$spec" --write-net "$dir/fabric.net" -q >/dev/null
osm_args=() weft_args=()
if [[ $engine == torus-2QoS ]]; then
    kind=${spec%%:*} dims=${spec#*:}
    dims=${dims%%[,/]*}
    IFS=x read -r X Y Z <<<"$dims"
    "$(dirname "$ref")/torus-2qos-conf" "$dir/fabric.net" "$X" "$Y" "${Z:-1}" "$kind" >"$dir/torus-2QoS.conf"
    osm_args=(-- -Q --torus_config "$dir/torus-2QoS.conf")
    weft_args=(-Q --torus_config "$dir/torus-2QoS.conf")
fi
"$ref" "$dir/fabric.net" "$engine" "$dir/osm" "${osm_args[@]}" >"$dir/ref.txt"
cat "$dir/ref.txt"
if grep -q '^fallback=yes' "$dir/ref.txt"; then
    echo "FAIL: OpenSM fell back from $engine on $spec"
    exit 1
fi
# --verify is for the log only: OpenSM's own routing may fail it too (minhop on a dragonfly has
# credit loops), and what is compared here is weft against OpenSM.
rc=0
"$weft" --topo "$dir/fabric.net" --guid2lid "$dir/osm/cache/guid2lid" -R "$engine" "${weft_args[@]}" --no_fallback \
    --dump-lfts "$dir/weft.dump" --verify -q >"$dir/weft.txt" || rc=$?
cat "$dir/weft.txt"
[[ $rc -le 1 && -s $dir/weft.dump ]] || { echo "FAIL: weft-route exited with $rc"; exit 1; }
"$weft" --topo "$dir/fabric.net" --guid2lid "$dir/osm/cache/guid2lid" -q \
    --compare-lfts "$dir/weft.dump" "$dir/osm/dump/opensm-lfts.dump" | tee "$dir/cmp.txt"
val() { sed -n "s/^$1=//p" "$dir/cmp.txt"; }
fail=0
[[ $(val only_a) -eq 0 && $(val only_b) -eq 0 ]] || { echo "FAIL: reachability differs"; fail=1; }
[[ $(val delivered_a) -gt 0 ]] || { echo "FAIL: nothing delivered"; fail=1; }
[[ $(val a_longer) -eq 0 ]] || { echo "FAIL: $(val a_longer) pairs take longer paths in weft"; fail=1; }
[[ $(val minimal_a) -ge $(val minimal_b) ]] || { echo "FAIL: fewer minimal pairs than OpenSM"; fail=1; }
[[ $(val max_routes_a) -le $(val max_routes_b) ]] ||
    { echo "FAIL: max routes per link $(val max_routes_a) > OpenSM's $(val max_routes_b)"; fail=1; }
if [[ $engine == torus-2QoS ]]; then
    [[ $(val b_longer) -eq 0 ]] || { echo "FAIL: $(val b_longer) pairs take shorter paths in weft"; fail=1; }
fi
if [[ $engine == sssp || $engine == dfsssp ]]; then
    [[ $(val differing_entries) -eq 0 ]] || { echo "FAIL: $(val differing_entries) LFT entries differ from OpenSM's"; fail=1; }
fi
if [[ $engine == lash || $engine == dfsssp ]]; then
    osm_vls=$(sed -n -e 's/.*Lanes needed: *\([0-9]*\).*/\1/p' -e 's/.*Virtual Lanes needed: *\([0-9]*\).*/\1/p' \
        "$dir/osm/opensm.log" | tail -1)
    weft_vls=$(sed -n 's/^routing: .*VLs \([0-9]*\).*/\1/p' "$dir/weft.txt")
    echo "vls_opensm=${osm_vls:-1} vls_weft=$weft_vls"
    [[ $weft_vls -le ${osm_vls:-1} ]] || { echo "FAIL: weft needs $weft_vls VLs, OpenSM ${osm_vls:-1}"; fail=1; }
fi
exit $fail
