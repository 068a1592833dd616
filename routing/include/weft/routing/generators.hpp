// Synthetic fabrics: fat trees (k-ary-n-trees, XGFT/PGFT, the 36-port trees of seed 002's
// Table 2), meshes and tori, hypercubes, dragonfly and dragonfly+, random regular graphs, and
// seeded link/switch failures on any fabric.
//
// GUIDs follow ibsim's convention (a CA's port GUIDs are node GUID + port number), so a
// generated fabric written as an ibsim net file comes back with the same GUIDs from ibsim and
// OpenSM. Node descriptions are short, unique and free of the characters ibsim reserves.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "weft/routing/fabric.hpp"

namespace weft::routing {

// Parallel Ports Generalized Fat Tree in the bottom-up notation of its definition (Zahavi):
// level 0 = hosts, level h = roots; m[i] children per level-(i+1) node, w[i] parents per
// level-i node, p[i] parallel cables between a level-i node and each of its parents.
// XGFT is p = 1; a k-ary-n-tree is m = (k..k), w = (1, k..k). Seed 002 writes XGFTs top-down
// (its level 0 = roots): xgft_from_seed002() turns its (n; m1..mn; w1..wn) into this form.
struct PgftParams {
    unsigned h = 0;
    std::vector<unsigned> m, w, p;
    unsigned radix = 0;  // switch port count; 0 = just what the tree needs
};
PgftParams xgft_from_seed002(unsigned n, std::vector<unsigned> m, std::vector<unsigned> w);
Fabric make_pgft(const PgftParams &p);
Fabric make_kary_ntree(unsigned k, unsigned n);
// Largest fat tree of radix-k switches with n levels: 2(k/2)^n hosts (k=36: 648, 11664).
Fabric make_max_fat_tree(unsigned k, unsigned n);

struct GridParams {
    std::vector<unsigned> dims;  // e.g. {4,4,4}
    bool torus = false;          // wrap-around links (not for dimensions of size <= 2)
    unsigned hosts = 1;          // hosts per switch
};
Fabric make_grid(const GridParams &p);
Fabric make_hypercube(unsigned dim, unsigned hosts);

// Dragonfly (Kim et al.): groups of a routers, all-to-all inside a group, p hosts and h global
// links per router, g groups (0 = a*h + 1, the balanced maximum); one global cable per group pair.
struct DragonflyParams {
    unsigned a = 4, p = 2, h = 2, g = 0;
};
Fabric make_dragonfly(const DragonflyParams &p);

// Dragonfly+: each group is a two-level fat tree (leaves with hosts, spines); spines carry the
// global cables, one per group pair, spread round-robin over the spines.
struct DragonflyPlusParams {
    unsigned groups = 4, leaves = 4, spines = 4, hosts = 4;
};
Fabric make_dragonfly_plus(const DragonflyPlusParams &p);

// Random regular graph of switches (every switch `degree` switch links), hosts per switch.
// Connected; deterministic for a seed.
struct RandomParams {
    unsigned switches = 16, degree = 4, hosts = 1;
    std::uint64_t seed = 1;
};
Fabric make_random_regular(const RandomParams &p);

// Seeded failures: cut `links` switch-to-switch cables and remove `switches` switches (with
// their cables). What the SM would no longer discover — the part not connected to the largest
// component — is dropped. Returns the new fabric (node order preserved).
struct FailureParams {
    unsigned links = 0, switches = 0;
    std::uint64_t seed = 1;
};
Fabric apply_failures(const Fabric &f, const FailureParams &p);
// "fail-links=N[,fail-switches=M][,seed=S]" (weft-route --fail, and a spec's failure component);
// throws ParseError (file `name`, the column of the offending field).
FailureParams parse_failures(std::string_view spec, const std::string &name = "<fail>");

// Builds a fabric from a textual spec; components are joined with '/':
//   kary:k=4,n=3            ftree:k=36,n=2         ft36:hosts=11664
//   pgft:h=2;m=18,18;w=1,18;p=1,1[;radix=36]       xgft:n=2;m=8,4;w=4,1 (seed 002 notation)
//   torus:4x4x4,hosts=1     mesh:8x8,hosts=2       hypercube:d=6,hosts=1
//   dragonfly:a=4,p=2,h=2[,g=9]                    dfplus:groups=4,leaves=4,spines=4,hosts=4
//   random:switches=64,degree=8,hosts=4,seed=7
//   .../fail-links=3,seed=1   .../fail-switches=1,seed=2
//   .../vms:vfs=4,load=50,dist=uniform|random,scheme=prepopulated|dynamic,vlids=legacy|extended,seed=1
//                            every CA a vSwitch hypervisor with VMs (weft/routing/vswitch.hpp;
//                            count=N instead of load=percent)
// Throws ParseError (file "<gen>", column of the offending field) on a bad spec.
Fabric generate(std::string_view spec);

}  // namespace weft::routing
