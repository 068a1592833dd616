// Factories of the built-in engines; registry.cpp registers each under its OpenSM name.
#pragma once

#include <memory>
#include <span>

#include "weft/routing/engine.hpp"

namespace weft::routing::engines {

std::unique_ptr<Engine> make_minhop();
std::unique_ptr<Engine> make_updn();
std::unique_ptr<Engine> make_dnup();
std::unique_ptr<Engine> make_ftree();
std::unique_ptr<Engine> make_sssp();
std::unique_ptr<Engine> make_dfsssp();
std::unique_ptr<Engine> make_file();
std::unique_ptr<Engine> make_nue();
std::unique_ptr<Engine> make_torus_2qos();
std::unique_ptr<Engine> make_lash();
std::unique_ptr<Engine> make_dor();
std::unique_ptr<Engine> make_prefix();
std::unique_ptr<Engine> make_vswitch_ftree();

// build_minhop_matrices and build_minhop_lfts in one go, for an engine that provides neither
// (the chain's default hooks): the same tables, sharing their switch graph and hop matrix.
void build_minhop_tables(const Fabric &f, const RoutingOptions &o, RoutingTables &t);

// Every VF LID of every vSwitch gets the routes (LFT entry, hops, path SL) of its hypervisor's
// PF LID on every switch.
void copy_vf_routes(const Fabric &f, RoutingTables &t);

class SwitchGraph;
// hops_from_lfts with the caller's switch graph of f (t.hops rows sized for f).
void hops_from_lfts(const Fabric &f, const SwitchGraph &g, RoutingTables &t);
// The same for the given LIDs only: it reads their LFT entries and writes their hop entries, no
// others (another thread may route other LIDs meanwhile).
void hops_from_lfts(const Fabric &f, const SwitchGraph &g, RoutingTables &t, std::span<const Lid> lids);

}  // namespace weft::routing::engines
