// Routing engines, modelled on OpenSM's routing-engine plug-ins: an engine fills only the hooks
// it needs and the chain supplies the rest (min-hop matrices, min-hop LFTs with port
// equalization). Engines are registered by name; `-R a,b,c` runs them in order and falls back
// to the next when one fails, with minhop as the last resort unless no_fallback is set.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/routing/option_files.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing {

// Options with OpenSM's names. Files are already read into these by the option parser.
// What the switches hold from an earlier routing, by switch GUID: the LFT each was programmed
// with. With it, the LFT step of minhop, updn, dnup and dor keeps an entry that is still one of
// the ports it may choose for that LID, so a re-route changes only what it must (OpenSM does so
// unless ignore_existing_lfts is set; a freshly started OpenSM ignores what the switches hold).
struct ExistingLfts {
    std::unordered_map<Guid, std::vector<PortNum>> by_switch;
};
struct PreviousLfts {
    std::shared_ptr<const ExistingLfts> lfts;  // null: route afresh
    // Not a routing choice: the unicast cache compares choices, and what the switches hold is
    // what the cache itself keeps.
    bool operator==(const PreviousLfts &) const { return true; }
};

// The LFTs of a routed fabric as ExistingLfts, for routing it again after a change.
std::shared_ptr<const ExistingLfts> existing_lfts_of(const Fabric &f, const RoutingTables &t);

struct RoutingOptions {
    std::uint8_t lmc = 0;
    std::vector<Guid> root_guids;    // -a / --root_guid_file (updn, dnup, ftree, prefix)
    std::vector<Guid> cn_guids;      // -u / --cn_guid_file (ftree)
    std::vector<Guid> io_guids;      // -G / --io_guid_file (ftree)
    std::vector<Guid> ignore_guids;  // -i: end-port GUIDs whose switch-side port is left out of
                                     // equalization (the old per-GUID form of the file)
    std::vector<std::pair<Guid, PortNum>> ignore_ports;     // -i, OpenSM 3.3 form: "switch-guid port"
    std::vector<HopWeight> hop_weights;                     // -w / --hop_weights_file (minhop matrices)
    std::vector<PortOrder> port_search_order;               // -O / --port_search_ordering_file
    std::vector<Guid> guid_routing_order;                   // -X: port GUIDs routed first, in this order
    std::vector<std::pair<Guid, std::uint64_t>> ids_guids;  // -m / --ids_guid_file (updn, dnup)
    bool port_profile_switch_nodes = false;                 // count routes to switch LIDs in equalization
    unsigned max_reverse_hops = 0;                          // -H / --max_reverse_hops (ftree)
    std::string lfts_file;                                  // file engine: opensm-lfts.dump to load
    unsigned max_vls = 8;  // VL budget for dfsssp/lash/nue (OpenSM: 8 data VLs)
    bool no_fallback = false;
    std::uint64_t seed = 1;  // for every randomized choice (deterministic when fixed)

    // QoS (-Q / --qos, qos_max_vls): engines that hand out SLs for deadlock freedom need it on.
    bool qos = false;
    unsigned qos_max_vls = 0;  // 0: as many as the budget allows (max_vls)

    // lash
    bool lash_start_vl_set = false;
    unsigned lash_start_vl = 0;     // --lash_start_vl
    bool do_mesh_analysis = false;  // --do_mesh_analysis

    // dor
    bool port_equalization = true;  // balance parallel links of one dimension

    // torus-2QoS
    std::string torus_config;  // --torus_config: path of torus-2QoS.conf

    // nue
    unsigned nue_max_num_vls = 1;  // --nue_max_num_vls (0 = as many as the fabric offers)
    bool nue_include_switches = false;
    // --nue_no_metis: split the destinations over the layers as an OpenSM built without METIS
    // does (Debian's), to compare with it; otherwise METIS when the build has it.
    bool nue_metis = true;
    // --nue_threads: threads racing Nue's candidate runs (0 = one per hardware thread; never more
    // than there are candidates). The kept routes do not depend on it.
    unsigned nue_threads = 0;

    // unicast cache (-A / --ucast_cache)
    bool ucast_cache = false;

    // A resident SM's (or weft-route --reroute's) earlier tables; see ExistingLfts.
    PreviousLfts existing;

    // The unicast cache reuses tables only when nothing here changed.
    bool operator==(const RoutingOptions &) const = default;
};

// Result of a hook: ok, or why the engine cannot route this fabric (the chain falls back).
struct HookResult {
    bool ok = true;
    std::string error;
    static HookResult success() { return {}; }
    static HookResult failure(std::string why) { return {false, std::move(why)}; }
};

// What a hook sees. progress(done, total) may be called from long loops (weft-route shows it).
struct RoutingContext {
    const Fabric &fabric;
    const RoutingOptions &options;
    std::function<void(std::size_t done, std::size_t total)> progress;
};

class Engine {
  public:
    virtual ~Engine() = default;
    virtual std::string_view name() const = 0;

    // Engines that cannot route with LMC > 0 (OpenSM: ftree, lash) say so; the chain then
    // falls back to the next engine as OpenSM does.
    virtual bool supports_lmc() const { return true; }
    // Engines that route the VF LIDs of vSwitches themselves (vswitch-ftree) say so; for the
    // others the chain gives each VF LID its hypervisor PF's routes, path SLs and hops (seed
    // 002's "simplest strategy": the VMs share their vSwitch's paths).
    virtual bool routes_vms() const { return false; }

    // A hook an engine does not provide is replaced by the chain's default.
    // Hop matrices (OpenSM build_lid_matrices). Default: unrestricted min-hop relaxation.
    virtual bool provides_lid_matrices() const { return false; }
    virtual HookResult build_lid_matrices(RoutingContext &, RoutingTables &) { return {}; }
    // LFTs (OpenSM ucast_build_fwd_tables). Default: min-hop choice with port equalization
    // and the LMC rules a-d.
    virtual bool provides_fwd_tables() const { return false; }
    virtual HookResult build_fwd_tables(RoutingContext &, RoutingTables &) { return {}; }
    // SL per path and SL2VL (OpenSM path_sl / update_sl2vl); default: SL 0, identity SL2VL.
    virtual HookResult assign_sl(RoutingContext &, RoutingTables &) { return {}; }
    // Multicast spanning tree for one group (OpenSM mcast_build_stree), called after the unicast
    // hooks with their finished tables. Default: the chain's min-hop tree.
    virtual bool provides_mcast_tree() const { return false; }
    virtual HookResult build_mcast_tree(RoutingContext &, const RoutingTables &, const McastGroup &,
                                        McastTree &) {
        return {};
    }
};

using EngineFactory = std::function<std::unique_ptr<Engine>()>;

// Registry of engines by name. Each engine registers itself with one line in
// routing/src/engines/registry.cpp.
class EngineRegistry {
  public:
    static EngineRegistry &instance();
    void add(std::string name, EngineFactory make);
    std::unique_ptr<Engine> make(std::string_view name) const;  // nullptr if unknown
    std::vector<std::string> names() const;

  private:
    std::vector<std::pair<std::string, EngineFactory>> engines_;
};

struct ChainResult {
    bool ok = false;
    std::string engine;                 // which engine routed
    std::vector<std::string> failures;  // "engine: why" for each engine that fell through
    std::string error;                  // why the chain as a whole failed (bad name, all failed)
    // With "auto" in the chain: the shape it recognised, the evidence, the chain it chose and
    // why (AutoChoice::describe()); empty otherwise.
    std::string auto_choice;
    // The engine instance that routed, kept for the hooks that run on the finished tables
    // (multicast trees); null when the chain failed.
    std::shared_ptr<Engine> routed_by;
};

// The tokens of an `-R` list "a, b,c": trimmed of blanks, empty ones dropped, in order (the
// token "no_fallback" included). run_chain routes by them; a tool can check the names up front.
std::vector<std::string> chain_tokens(std::string_view chain);

// Runs `-R` semantics: parse "a,b,c" (unknown names are an error; the token "no_fallback" in the
// list sets no_fallback, as in OpenSM; the token "auto" stands for the chain choose_routing()
// picks for this fabric, see auto_choice.hpp, less engines listed before it), try each in order,
// fall back to minhop unless options.no_fallback. With options.lmc > 0, engines whose
// supports_lmc() is false are passed over (listed in failures). Fills tables on success; on
// failure the tables are reset (unrouted).
ChainResult run_chain(std::string_view chain, const Fabric &f, const RoutingOptions &o, RoutingTables &out,
                      std::function<void(std::size_t, std::size_t)> progress = {});

// The shared defaults, also usable by engines that want them for a part of their work.
// build_minhop_matrices sizes t for f (reset) and fills t.hops with unrestricted min hops.
// build_minhop_lfts fills t.lft from t.hops with OpenSM's port equalization and LMC rules.
void build_minhop_matrices(const Fabric &f, RoutingTables &t);
// The same with -w hop weights: the cost of a route is the sum of the weights of the switch
// ports it leaves by (1 where the file names none), capped at kInfHops - 1; t.hops then holds
// these costs, and build_minhop_lfts keeps the ports on a cheapest route.
void build_minhop_matrices(const Fabric &f, const RoutingOptions &o, RoutingTables &t);
void build_minhop_lfts(const Fabric &f, const RoutingOptions &o, RoutingTables &t);

// The default multicast tree (OpenSM's mcast manager): rooted at the switch whose largest hop
// count to the group's members is smallest (first in GUID order on ties), grown by splitting
// the members at each switch over the lowest-numbered port that is one hop closer (by t.hops)
// to the member's switch. Groups with fewer than two members get an empty tree, as OpenSM
// leaves them unconfigured. Fails, naming the member or switch, when a member cannot be
// reached or when t.hops is not a shortest-path metric and the branches would meet.
HookResult build_minhop_mcast_tree(const Fabric &f, const RoutingTables &t, const McastGroup &g,
                                   McastTree &out);

// The multicast tree of group g with the engine that routed t: its own hook when it has one
// (torus-2QoS, nue), the default min-hop tree otherwise (also when routed.routed_by is null).
HookResult build_mcast_tree(const ChainResult &routed, const Fabric &f, const RoutingOptions &o,
                            const RoutingTables &t, const McastGroup &g, McastTree &out);

// Every group's tree, each checked by verify_mcast_tree before it is kept: a group whose tree
// cannot be built or fails the check is left out (one line in `failures` naming the MLID and
// why) and the others stand, as OpenSM configures the groups it can.
struct McastRouting {
    std::vector<McastTree> trees;       // the groups kept, in the order given
    std::vector<std::string> failures;  // "group 0xc000: ..." for each group left out
};
McastRouting route_mcast_groups(const ChainResult &routed, const Fabric &f, const RoutingOptions &o,
                                const RoutingTables &t, const std::vector<McastGroup> &groups);

// Fills t.hops[s][lid] with the length of the route the LFTs actually take from s to lid
// (kInfHops where the LFT walk does not arrive). Engines whose routes are not min-hop (ftree
// off-pure trees, sssp, file) use it so that equal_cost_ports() stays consistent with the LFT.
void hops_from_lfts(const Fabric &f, RoutingTables &t);

}  // namespace weft::routing
