#!/usr/bin/env bash
# compare_nue_with_opensm.sh WEFT_ROUTE OPENSM_REF SPEC VLS
# Nue against the real OpenSM on ibsim (scripts/opensm-ref), both with QoS on and
# nue_max_num_vls VLS. Nue's detours depend on how the destinations were split over the layers
# (weft uses METIS; Debian's OpenSM 3.3.23 is built without it and deals them out semi-randomly),
# so paths are not compared hop by hop. Checked instead:
#   - OpenSM routed with nue (no fallback),
#   - the same (source, destination) pairs are delivered,
#   - weft's routes are loop-free and free of credit loops within the layers it reports,
#   - weft uses no more VLs than OpenSM (OpenSM's: the layers its log shows destinations in),
#   - with --nue_no_metis (OpenSM's own split: CA LIDs by port-table order, round-robin) weft
#     routes soundly in exactly as many layers as OpenSM.
set -euo pipefail
weft=$1 ref=$2 spec=$3 vls=$4
for tool in ibsim opensm; do command -v "$tool" >/dev/null || { echo "skip: no $tool"; exit 77; }; done
[[ -r /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so ]] || { echo "skip: no libumad2sim"; exit 77; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$weft" --gen "$spec" --write-net "$dir/fabric.net" -q >/dev/null
# -D 0x4f adds OpenSM's verbose lines, which name the layer of every destination it routes.
"$ref" "$dir/fabric.net" nue "$dir/osm" -- -Q --nue_max_num_vls "$vls" -D 0x4f >"$dir/ref.txt"
cat "$dir/ref.txt"
grep -q '^fallback=no' "$dir/ref.txt" || { echo "FAIL: OpenSM did not route $spec with nue"; exit 1; }
osm_vls=$(awk '/Processing virtual layer/ { layer = $NF }
               /Calculated paths towards destination/ { used[layer] = 1 }
               END { n = 0; for (l in used) n++; print n }' "$dir/osm/opensm.log")
echo "opensm_vls=$osm_vls"
rc=0
"$weft" --topo "$dir/fabric.net" --guid2lid "$dir/osm/cache/guid2lid" -R nue --no_fallback -Q \
    --nue_max_num_vls "$vls" --dump-lfts "$dir/weft.dump" --verify -q >"$dir/weft.txt" || rc=$?
cat "$dir/weft.txt"
[[ $rc -le 1 && -s $dir/weft.dump ]] || { echo "FAIL: weft-route exited with $rc"; exit 1; }
"$weft" --topo "$dir/fabric.net" --guid2lid "$dir/osm/cache/guid2lid" -q \
    --compare-lfts "$dir/weft.dump" "$dir/osm/dump/opensm-lfts.dump" | tee "$dir/cmp.txt"
val() { sed -n "s/^$1=//p" "$dir/cmp.txt"; }
weft_vls=$(sed -n 's/^routing: nue .*VLs \([0-9]*\).*/\1/p' "$dir/weft.txt")
fail=0
[[ $(val only_a) -eq 0 && $(val only_b) -eq 0 ]] || { echo "FAIL: reachability differs"; fail=1; }
[[ $(val delivered_a) -gt 0 ]] || { echo "FAIL: nothing delivered"; fail=1; }
grep -q '^verify: .* unreachable=0 .* loops=0 ' "$dir/weft.txt" || { echo "FAIL: weft's routes"; fail=1; }
grep -q '^credit-loops: none' "$dir/weft.txt" || { echo "FAIL: weft's routes have a credit loop"; fail=1; }
[[ -n $weft_vls && $osm_vls -gt 0 && $weft_vls -le $osm_vls ]] ||
    { echo "FAIL: weft uses ${weft_vls:-?} VLs, OpenSM $osm_vls"; fail=1; }
# Same partition as this OpenSM build: the same layer count, sound routes.
"$weft" --topo "$dir/fabric.net" --guid2lid "$dir/osm/cache/guid2lid" -R nue --no_fallback -Q \
    --nue_max_num_vls "$vls" --nue_no_metis --verify -q >"$dir/weft-rr.txt" || true
cat "$dir/weft-rr.txt"
rr_vls=$(sed -n 's/^routing: nue .*VLs \([0-9]*\).*/\1/p' "$dir/weft-rr.txt")
grep -q '^verify: .* unreachable=0 .* loops=0 ' "$dir/weft-rr.txt" || { echo "FAIL: weft's routes (--nue_no_metis)"; fail=1; }
grep -q '^credit-loops: none' "$dir/weft-rr.txt" || { echo "FAIL: credit loop (--nue_no_metis)"; fail=1; }
[[ -n $rr_vls && $rr_vls -eq $osm_vls ]] ||
    { echo "FAIL: with OpenSM's partition weft uses ${rr_vls:-?} VLs, OpenSM $osm_vls"; fail=1; }
exit $fail
