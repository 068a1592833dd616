#!/usr/bin/env bash
# option_files_vs_opensm.sh WEFT_ROUTE OPENSM_REF
# OpenSM's option files give byte-identical LFTs in weft and in OpenSM 3.3.23 on ibsim:
#   -O port search ordering (also with LMC 1), -w hop weights, -X routing order (minhop,
#   324-host fat tree) and -m switch IDs (updn rooted by -a on a 5x5 torus, where equal-rank
#   links exist),
#   -O with dor (the dimension order, 4x3 mesh; also with LMC 1).
# Each case also checks that the file changed OpenSM's tables, so the comparison means something.
set -euo pipefail
[[ ${DEBUG:-} ]] && set -x
weft=$1 ref=$2
for tool in ibsim opensm; do command -v "$tool" >/dev/null || { echo "skip: no $tool"; exit 77; }; done
[[ -r /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so ]] || { echo "skip: no libumad2sim"; exit 77; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
guid_of() { grep "of switch" "$1" | grep "'$2'" | sed 's/.* guid \(0x[0-9a-f]*\).*/\1/'; }

# case NAME NET ENGINE PLAIN_DUMP OPT FILE [extra args for both]
case_() {
    local name=$1 net=$2 engine=$3 plain=$4 opt=$5 file=$6
    shift 6
    "$ref" "$net" "$engine" "$dir/$name" -- "$@" "$opt" "$file" >"$dir/$name.log" 2>&1 ||
        { echo "FAIL $name: OpenSM did not route"; cat "$dir/$name.log"; fail=1; return; }
    "$weft" --topo "$net" --guid2lid "$dir/$name/cache/guid2lid" -R "$engine" --no_fallback "$@" "$opt" "$file" \
        --dump-lfts "$dir/$name.dump" -q >/dev/null
    if cmp -s "$plain" "$dir/$name/dump/opensm-lfts.dump"; then
        echo "FAIL $name: $opt did not change OpenSM's tables (the case tests nothing)"
        fail=1
    elif cmp "$dir/$name.dump" "$dir/$name/dump/opensm-lfts.dump"; then
        echo "ok $name: $opt $(basename "$file"): weft's LFTs identical to OpenSM's"
    else
        echo "FAIL $name: weft's LFTs differ from OpenSM's with $opt"
        fail=1
    fi
}

# 324-host two-level fat tree, minhop.
tree=$dir/tree.net
"$weft" --gen ft36:hosts=324 --write-net "$tree" -q >/dev/null
"$ref" "$tree" minhop "$dir/tree-plain" >/dev/null
tdump=$dir/tree-plain/dump/opensm-lfts.dump
leaf0=$(guid_of "$tdump" L1-0000) leaf4=$(guid_of "$tdump" L1-0004) spine0=$(guid_of "$tdump" L2-0000)
printf '%s 36 35 34 33 32 31 30 29 28 27 26 25 24 23 22 21 20 19\n%s 30 20 # the rest in port order\n' \
    "$leaf0" "$leaf4" >"$dir/order.txt"
case_ port_order "$tree" minhop "$tdump" -O "$dir/order.txt"
# With LMC 1 the second LID of each end port resumes at the previous LID's port + 1, taken by
# OpenSM as a position in the search order, not as a port.
"$ref" "$tree" minhop "$dir/tree-lmc" -- -l 1 >/dev/null
case_ port_order_lmc "$tree" minhop "$dir/tree-lmc/dump/opensm-lfts.dump" -O "$dir/order.txt" -l 1
printf '%s 19 3\n%s 20 2\n%s 5 4 # a spine port\n' "$leaf0" "$leaf0" "$spine0" >"$dir/weights.txt"
case_ hop_weights "$tree" minhop "$tdump" -w "$dir/weights.txt"
grep . "$dir/tree-plain/cache/guid2lid" | grep -v "^$leaf0\|^$spine0" | sed -n '300p;40p;250p' | awk '{ print $1 }' \
    >"$dir/routing_order.txt"
case_ routing_order "$tree" minhop "$tdump" -X "$dir/routing_order.txt"

# 5x5 torus, updn from one root: odd rings give equal-rank links, whose direction the IDs decide.
torus=$dir/torus.net
"$weft" --gen torus:5x5,hosts=1 --write-net "$torus" -q >/dev/null
"$ref" "$torus" minhop "$dir/torus-any" >/dev/null
grep "of switch" "$dir/torus-any/dump/opensm-lfts.dump" | sed 's/.* guid \(0x[0-9a-f]*\).*/\1/' >"$dir/switches.txt"
head -1 "$dir/switches.txt" >"$dir/root.txt"
awk '{ printf "%s %d\n", $1, 1000 - NR }' "$dir/switches.txt" >"$dir/ids.txt"
"$ref" "$torus" updn "$dir/torus-plain" -- -a "$dir/root.txt" >/dev/null
case_ ids "$torus" updn "$dir/torus-plain/dump/opensm-lfts.dump" -m "$dir/ids.txt" -a "$dir/root.txt"

# 4x3 mesh, dor with -O: y before x on every switch (ports 3/4 lead +y/-y, 1/2 +x/-x), the
# lowest-numbered ports on one switch reversed too.
mesh=$dir/mesh.net
"$weft" --gen mesh:4x3,hosts=2 --write-net "$mesh" -q >/dev/null
"$ref" "$mesh" dor "$dir/mesh-plain" >/dev/null
grep "of switch" "$dir/mesh-plain/dump/opensm-lfts.dump" | sed 's/.* guid \(0x[0-9a-f]*\).*/\1/' >"$dir/mesh-switches.txt"
awk 'NR == 1 { print $1, "4 3 2 1"; next } { print $1, "3 4 1 2" }' "$dir/mesh-switches.txt" >"$dir/dimn.txt"
case_ dor_port_order "$mesh" dor "$dir/mesh-plain/dump/opensm-lfts.dump" -O "$dir/dimn.txt"
# The same with LMC 1: every LID of an end port is scanned from the first port in that order.
"$ref" "$mesh" dor "$dir/mesh-lmc" -- -l 1 >/dev/null
case_ dor_port_order_lmc "$mesh" dor "$dir/mesh-lmc/dump/opensm-lfts.dump" -O "$dir/dimn.txt" -l 1
exit $fail
