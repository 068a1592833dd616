// Live migration of a VM in a vSwitch fabric (seed 002, sections 4 and 6): the LFT changes that
// keep the VM reachable under its LID at its new hypervisor, computed three ways, each with the
// switches and LFT blocks (SMPs) it touches.
//
// - Full re-route: the VM moved, the engine run again, every LFT entry that differs sent (the
//   baseline; a full reconfiguration sends every block of every switch).
// - ItRC: topology-agnostic. With prepopulated LIDs every switch swaps the VM's entry with the
//   destination VF's (whose LID the source VF takes); with dynamic LIDs every switch copies the
//   destination PF's entry to the VM's LID. Only switches whose entries change are sent an SMP,
//   one per LFT block touched (Table 1: n' switches x m' blocks).
// - FTreeMinRC: the same swap or copy on the skyline of the smallest sub-tree that holds both
//   hypervisors' leaves (FatTreeSkyline) and nowhere else, the switches on the paths between
//   the two hypervisors first. Routes outside the sub-tree still lead into it, and inside it the
//   marked switches carry the VM down to its new leaf.
//
// verify_migration() checks the tables after a step: every pair reaches, no credit loop, and the
// routing quality (max routes per link between VMs, EBB over the VMs) beside a full re-route of
// the same placement.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "weft/routing/engine.hpp"
#include "weft/routing/fabric.hpp"
#include "weft/routing/tables.hpp"
#include "weft/routing/vswitch.hpp"

namespace weft::routing {

// Seed 002's sub-trees of a fat tree, from the topology alone. Switches are ranked by height
// above the switches with CAs (leaves, height 0); at each height the switches with the same set
// of sub-trees below them are the top switches (the skyline) of one sub-tree, and every
// switch's up links must lead into a single sub-tree one level up, so sub-trees nest. A leaf
// is a sub-tree of its own.
class FatTreeSkyline {
  public:
    // Empty, with `why` set, when the fabric is not such a tree (a link within one height, up
    // links into two sub-trees, no switch with CAs).
    static std::optional<FatTreeSkyline> build(const Fabric &f, std::string *why = nullptr);
    // FTreeMinRC's switch marking: appends to `out` the top switches of each sub-tree that holds
    // leaf a or leaf b, from the leaves up to the smallest one that holds both. False when the
    // leaves share no sub-tree (nothing is appended then past the last common height).
    bool mark(SwitchIdx a, SwitchIdx b, std::vector<SwitchIdx> &out) const;
    // All the switches of that smallest common sub-tree (its tops and everything below them).
    bool subtree(SwitchIdx a, SwitchIdx b, std::vector<SwitchIdx> &out) const;
    unsigned height(SwitchIdx s) const { return height_[s]; }
    unsigned levels() const { return levels_; }
    std::size_t subtrees() const { return parent_.size(); }

  private:
    static constexpr std::uint32_t kTop = 0xFFFFFFFFu;
    std::vector<std::uint32_t> class_;   // per switch: its sub-tree
    std::vector<std::uint32_t> parent_;  // per sub-tree: the one above (kTop at the top)
    std::vector<std::uint32_t> first_;   // per sub-tree + 1: CSR offsets into members_
    std::vector<SwitchIdx> members_;     // the top switches of each sub-tree
    std::vector<std::uint8_t> height_;
    unsigned levels_ = 0;
};

enum class ReconfigMethod : std::uint8_t { FullReroute, ItRC, FTreeMinRC };
std::string_view method_name(ReconfigMethod m);  // "full", "itrc", "ftree-minrc"

// Moving VM `vm` to hypervisor `to`; the VM lands on the lowest free VF.
struct Migration {
    std::uint32_t vm = kNoVm;
    NodeIdx to = kNoNode;
};
// Why the migration cannot happen ("" when it can): an unknown VM, a destination that is no
// hypervisor, is the VM's own, is full, or is not cabled.
std::string migration_refusal(const Fabric &f, const Migration &m);

struct LftEntry {
    Lid lid = 0;
    PortNum port = kNoPort;
    std::uint8_t hops = kInfHops;
};
struct SwitchUpdate {
    SwitchIdx sw = kNoSwitch;
    std::vector<LftEntry> entries;  // the new values
    std::uint32_t blocks = 0;       // LFT blocks (SMPs) they fall in
    bool active = false;            // on a path between the two hypervisors (sent first)
};

struct MigrationPlan {
    ReconfigMethod method = ReconfigMethod::ItRC;
    Migration migration;
    std::uint16_t to_vf = 0;
    Lid vm_lid = 0;
    // The LID whose routes the VM takes: the destination VF's (prepopulated; the two swap) or
    // the destination PF's (dynamic; a copy).
    Lid route_lid = 0;
    bool swap = false;
    std::vector<SwitchUpdate> updates;  // switches whose LFT changes; active ones first
    std::size_t marked = 0;             // switches considered (the skyline for FTreeMinRC)
    bool rebalanced = false;            // FTreeMinRC with its sub-tree routed again
    std::size_t active = 0;             // updates on the paths between the two hypervisors
    std::uint64_t entries = 0, smps = 0;
    // Full re-route only: what a full reconfiguration sends (every block of every switch).
    std::uint64_t full_smps = 0;
    std::string error;  // the method could not plan this migration (nothing else is set)
    bool ok() const { return error.empty(); }
};

// The swap/copy of LID entries on the given switches (every switch when `on` is empty): the new
// entry of `moving` is the old entry of `route_from`, and with `swap` the new entry of
// `route_from` is the old entry of `moving`. Seed 002's Table 2 counts these on plain fabrics.
MigrationPlan plan_lid_update(const Fabric &f, const RoutingTables &t, Lid moving, Lid route_from, bool swap,
                              std::span<const SwitchIdx> on = {});

MigrationPlan plan_itrc(const Fabric &f, const RoutingTables &t, const Migration &m);
MigrationPlan plan_ftree_min_rc(const Fabric &f, const RoutingTables &t, const FatTreeSkyline &sky,
                                const Migration &m);
// FTreeMinRC with the sub-tree re-balanced (seed 002, section 6.2: paths inside a sub-tree are
// independent of the others): the VM moved, the smallest sub-tree holding both hypervisors
// routed on its own by vswitch-ftree, and every entry of its switches for the CA and VF LIDs
// inside it that changes is sent. More SMPs than FTreeMinRC, the sub-tree balanced for its new
// VMs; nothing outside it changes (routes from outside still enter through its top switches).
// A move within one leaf needs no re-balancing: the plan is FTreeMinRC's.
MigrationPlan plan_ftree_min_rc_rebalanced(const Fabric &f, const RoutingTables &t, const FatTreeSkyline &sky,
                                           const Migration &m);
// The VM moved on a copy of f and routed again with `chain`; `rerouted` gets the new tables.
MigrationPlan plan_full_reroute(const Fabric &f, const RoutingTables &t, const Migration &m,
                                std::string_view chain, const RoutingOptions &o, RoutingTables &rerouted);

// Moves the VM in f and writes the plan's entries into t (for a full re-route, pass its tables
// as `rerouted` and they replace t). Throws std::invalid_argument when the migration is refused.
void apply_migration(Fabric &f, RoutingTables &t, const MigrationPlan &p, RoutingTables *rerouted = nullptr);

// The tables after a step, beside a full re-route of the same placement.
struct MigrationCheck {
    std::uint64_t unreachable = 0, loops = 0;
    bool credit_loop = false;
    std::uint64_t max_routes = 0, max_routes_reroute = 0;  // per link, between VMs
    double ebb = 0, ebb_reroute = 0;                       // over the VMs
    bool ok() const { return unreachable == 0 && loops == 0 && !credit_loop; }
};
MigrationCheck verify_migration(const Fabric &f, const RoutingTables &t, const RoutingTables &reroute,
                                unsigned ebb_runs, std::uint64_t seed);

// Migration sequences. From a file: one "migrate VM to HYPERVISOR" per line (HYPERVISOR: its
// node description or node GUID), '#' comments; names resolved against f, errors located
// (ParseError). Generated (seed 002, Table 4), simulated from f's placement:
//   random       2 x hypervisors migrations of a random VM to a random hypervisor with room
//   consolidate  every VM packed onto the fewest hypervisors, leftmost (fabric order) first
//   grouping     two random groups of a quarter of the VMs each packed onto neighbouring
//                hypervisors, each group alone on its own (others moved off first)
//   to-uniform   VMs moved from the fullest to the emptiest hypervisor until every hypervisor
//                runs within one VM of the others
std::vector<Migration> read_migrations(std::string_view text, const std::string &name, const Fabric &f);
enum class MigrationPattern : std::uint8_t { Random, Consolidate, Grouping, ToUniform };
// "random", "consolidate", "grouping", "to-uniform"; nullopt for anything else.
std::optional<MigrationPattern> parse_migration_pattern(std::string_view s);
// Throws std::invalid_argument when the pattern cannot be made (no VMs, no room to move).
std::vector<Migration> generate_migrations(const Fabric &f, MigrationPattern p, std::uint64_t seed);

}  // namespace weft::routing
