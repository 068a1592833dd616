#!/usr/bin/env bash
# lash_mesh_vs_opensm.sh WEFT_ROUTE OPENSM_REF SPEC
# lash with --do_mesh_analysis (and -Q) in weft and in OpenSM 3.3.23 on ibsim: weft's LFTs are
# byte-identical to OpenSM's and weft needs no more VLs ("Lanes needed" in OpenSM's log). Also
# checks that the analysis changed OpenSM's tables, so the comparison tests the analysis.
set -euo pipefail
weft=$1 ref=$2 spec=$3
for tool in ibsim opensm; do command -v "$tool" >/dev/null || { echo "skip: no $tool"; exit 77; }; done
[[ -r /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so ]] || { echo "skip: no libumad2sim"; exit 77; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$weft" --gen "$spec" --write-net "$dir/fabric.net" -q >/dev/null
"$ref" "$dir/fabric.net" lash "$dir/plain" -- -Q >"$dir/plain.txt"
"$ref" "$dir/fabric.net" lash "$dir/mesh" -- -Q --do_mesh_analysis >"$dir/mesh.txt"
cat "$dir/mesh.txt"
fail=0
for run in plain mesh; do
    if grep -q '^fallback=yes' "$dir/$run.txt"; then
        echo "FAIL: OpenSM fell back from lash ($run) on $spec"
        exit 1
    fi
done
osm_dump=$dir/mesh/dump/opensm-lfts.dump
if cmp -s "$dir/plain/dump/opensm-lfts.dump" "$osm_dump"; then
    echo "FAIL: --do_mesh_analysis did not change OpenSM's tables on $spec (the case tests nothing)"
    fail=1
fi
"$weft" --topo "$dir/fabric.net" --guid2lid "$dir/mesh/cache/guid2lid" -R lash -Q --do_mesh_analysis \
    --no_fallback --dump-lfts "$dir/weft.dump" --verify -q >"$dir/weft.txt" || true
cat "$dir/weft.txt"
[[ -s $dir/weft.dump ]] || { echo "FAIL: weft-route wrote no LFTs"; exit 1; }
if cmp "$dir/weft.dump" "$osm_dump"; then
    echo "ok: weft's LFTs identical to OpenSM's with --do_mesh_analysis"
else
    "$weft" --topo "$dir/fabric.net" --guid2lid "$dir/mesh/cache/guid2lid" -q \
        --compare-lfts "$dir/weft.dump" "$osm_dump" || true
    echo "FAIL: weft's LFTs differ from OpenSM's"
    fail=1
fi
lanes() { sed -n 's/.*Lanes needed: *\([0-9]*\).*/\1/p' "$1" | tail -1; }
osm_vls=$(lanes "$dir/mesh/opensm.log") osm_plain=$(lanes "$dir/plain/opensm.log")
weft_vls=$(sed -n 's/^routing: .*VLs \([0-9]*\).*/\1/p' "$dir/weft.txt")
echo "vls_opensm_plain=${osm_plain:-?} vls_opensm_mesh=${osm_vls:-?} vls_weft_mesh=$weft_vls"
[[ -n $osm_vls && $weft_vls -le $osm_vls ]] || { echo "FAIL: weft needs $weft_vls VLs, OpenSM ${osm_vls:-?}"; fail=1; }
grep -q '^credit-loops: none' "$dir/weft.txt" || { echo "FAIL: weft's routes have credit loops"; fail=1; }
exit $fail
