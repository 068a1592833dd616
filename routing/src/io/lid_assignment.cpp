#include "weft/routing/lid_assignment.hpp"

#include <cinttypes>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>

namespace weft::routing {
namespace {

struct Owner {
    NodeIdx node;
    PortNum port;
    std::uint8_t lmc;  // block size exponent this owner needs
    Lid want = 0;      // requested base (0 = none)
    bool from_file = false;
    std::size_t line = 0;
};

// VF LIDs after the physical ones (seed 002, section 4): every VF with prepopulated LIDs, the VFs
// that run a VM with dynamic assignment; from the unicast space the physical LIDs left, or from
// the vLID space. A LID the VF had is kept when it is free and in its space.
void assign_vf_lids(Fabric &f, const std::vector<Lid> &want, std::vector<std::uint8_t> &used, LidReport &r) {
    if (!f.has_vswitches()) return;
    const std::size_t physical = r.assigned;
    const bool ext = f.extended_vlids;
    const Lid lo = ext ? kFirstVlid : 1, hi = ext ? kMaxExtendedLid : kMaxUnicastLid;
    std::vector<std::uint8_t> vused;  // the vLID space, offset by kFirstVlid
    if (ext) vused.assign(std::size_t{kMaxExtendedLid - kFirstVlid} + 1, 0);
    auto is_used = [&](Lid l) { return ext ? vused[l - kFirstVlid] != 0 : used[l] != 0; };
    auto mark = [&](Lid l) { (ext ? vused[l - kFirstVlid] : used[l]) = 1; };
    struct Slot {
        NodeIdx n;
        std::uint16_t i;
    };
    std::vector<Slot> fresh;
    std::size_t k = 0, needed = 0;
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Node &x = f.node(n);
        // An uncabled vSwitch is not discovered: neither its PF nor its VFs get LIDs.
        const bool cabled = x.vfs && f.port(n, kVswitchPort).peer != kNoNode;
        for (std::uint16_t i = 0; i < x.vfs; ++i, ++k) {
            const bool gets =
                cabled && (f.vf_lid_scheme == VfLidScheme::Prepopulated || f.vf(n, i).vm != kNoVm);
            if (!gets) continue;
            ++needed;
            const Lid l = want[k];
            if (l && l >= lo && l <= hi && !is_used(l)) {
                mark(l);
                f.set_vf_lid(n, i, l);
                ++r.kept;
                ++r.assigned;
                r.max_lid = std::max(r.max_lid, l);
                continue;
            }
            if (l)
                r.conflicts.push_back(
                    "existing VF LID: VF " + std::to_string(i) + " of '" + x.desc + "' LID " +
                    std::to_string(l) +
                    (l < lo || l > hi ? (ext ? " is outside the vLID space" : " is outside the unicast range")
                                      : " overlaps LIDs already given") +
                    "; reassigned");
            fresh.push_back({n, i});
        }
    }
    Lid cursor = lo;
    for (const Slot &s : fresh) {
        while (cursor <= hi && is_used(cursor)) ++cursor;
        if (cursor > hi) {
            const Node &x = f.node(s.n);
            throw std::runtime_error("assign_lids: the " +
                                     std::string(ext ? "vLID space (0x10000-0x3FFFF, 196608 LIDs)"
                                                     : "unicast LID space (0x1-0xBFFF, 49151 LIDs)") +
                                     " is exhausted at VF " + std::to_string(s.i) + " of '" + x.desc + "' (" +
                                     guid_text(x.guid) + "): the fabric's VFs need " +
                                     std::to_string(needed) + " LIDs" +
                                     (ext ? ""
                                          : " beside its " + std::to_string(physical) +
                                                " physical ones (the extended vLID space holds 196608)"));
        }
        mark(cursor);
        f.set_vf_lid(s.n, s.i, cursor);
        ++r.assigned;
        r.max_lid = std::max(r.max_lid, cursor);
    }
}

}  // namespace

LidReport assign_lids(Fabric &f, const LidOptions &o) {
    if (o.lmc > 7) throw std::invalid_argument("assign_lids: LMC must be 0..7");
    LidReport r;
    // Everything that owns LIDs, in fabric order; remember what each had.
    std::vector<Owner> owners;
    std::unordered_map<Guid, std::size_t> by_guid;
    for (NodeIdx n = 0; n < f.node_count(); ++n) {
        const Node &x = f.node(n);
        if (x.is_switch()) {
            by_guid[x.guid] = owners.size();
            owners.push_back({n, 0, 0, o.keep_existing ? f.port(n, 0).lid : 0});
        } else {
            for (PortNum p = 1; p <= x.num_ports; ++p) {
                const Port &pp = f.port(n, p);
                if (pp.peer == kNoNode) continue;  // unconnected ports get no LID, as from an SM
                by_guid[pp.guid ? pp.guid : x.guid + p] = owners.size();
                owners.push_back({n, p, o.lmc, o.keep_existing ? pp.lid : 0});
            }
        }
    }
    for (const auto &e : o.guid2lid) {
        auto it = by_guid.find(e.port_guid);
        if (it == by_guid.end()) {
            ++r.unknown_guids;
            continue;
        }
        Owner &w = owners[it->second];
        const Lid size = Lid{1} << w.lmc;
        if (e.top - e.base + 1 != size && !f.node(w.node).is_switch()) {  // a switch uses only its base
            r.conflicts.push_back("guid2lid line " + std::to_string(e.line) + ": " + guid_text(e.port_guid) +
                                  " has " + std::to_string(e.top - e.base + 1) + " LIDs, LMC " +
                                  std::to_string(w.lmc) + " needs " + std::to_string(size) + "; reassigned");
            w.want = 0;
            continue;
        }
        w.want = e.base;
        w.from_file = true;
        w.line = e.line;
    }
    // The VF LIDs the fabric had, to keep where they still fit.
    std::vector<Lid> vf_want;
    for (NodeIdx n = 0; n < f.node_count(); ++n)
        for (const VirtualFunction &v : f.vfs(n)) vf_want.push_back(o.keep_existing ? v.lid : 0);
    f.clear_lids();
    std::vector<std::uint8_t> used(kMaxUnicastLid + 2, 0);
    std::vector<std::size_t> fresh;
    auto range_free = [&](Lid base, Lid size) {
        if (base == 0 || base + size - 1 > kMaxUnicastLid) return false;
        for (Lid l = base; l < base + size; ++l)
            if (used[l]) return false;
        return true;
    };
    auto take = [&](const Owner &w, Lid base) {
        const Lid size = Lid{1} << w.lmc;
        for (Lid l = base; l < base + size; ++l) used[l] = 1;
        f.set_lid(w.node, w.port, base, w.lmc);
        ++r.assigned;
        r.max_lid = std::max(r.max_lid, base + size - 1);
    };
    // Requested LIDs first: guid2lid entries, then existing ones; first come, first served.
    for (int pass = 0; pass < 2; ++pass) {
        for (std::size_t i = 0; i < owners.size(); ++i) {
            Owner &w = owners[i];
            if (!w.want || w.from_file != (pass == 0)) continue;
            const Lid size = Lid{1} << w.lmc;
            const Guid g = f.node(w.node).is_switch() ? f.node(w.node).guid : f.port(w.node, w.port).guid;
            const std::string who =
                (w.from_file ? "guid2lid line " + std::to_string(w.line) + ": " : "existing LID: ") +
                guid_text(g) + " LID " + std::to_string(w.want);
            if (w.want % size) {
                r.conflicts.push_back(who + " is not aligned to " + std::to_string(size) + " (LMC " +
                                      std::to_string(w.lmc) + "); reassigned");
                w.want = 0;
            } else if (!range_free(w.want, size)) {
                r.conflicts.push_back(who +
                                      (w.want + size - 1 > kMaxUnicastLid ? " is outside the unicast range"
                                                                          : " overlaps LIDs already given") +
                                      "; reassigned");
                w.want = 0;
            } else {
                take(w, w.want);
                (w.from_file ? r.from_file : r.kept)++;
                continue;
            }
        }
    }
    // Everyone else: lowest free aligned block, in fabric order.
    Lid cursor[8] = {1, 1, 1, 1, 1, 1, 1, 1};  // per block size, where the search may start
    for (auto &w : owners) {
        if (f.port(w.node, w.port).lid) continue;
        const Lid size = Lid{1} << w.lmc;
        Lid base = (cursor[w.lmc] + size - 1) / size * size;
        if (base == 0) base = size;
        while (base + size - 1 <= kMaxUnicastLid && !range_free(base, size)) base += size;
        if (base + size - 1 > kMaxUnicastLid) {
            // Where it ran out, and how far short it falls.
            std::uint64_t needed = 0;
            for (const Owner &x : owners) needed += std::uint64_t{1} << x.lmc;
            const Node &n = f.node(w.node);
            throw std::runtime_error(
                "assign_lids: the unicast LID space (0x1-0xBFFF, 49151 LIDs) is exhausted at " +
                std::string(n.is_switch() ? "switch '" : "port " + std::to_string(w.port) + " of '") +
                n.desc + "' (" + guid_text(n.guid) + "), which needs " + std::to_string(size) + " LID" +
                (size > 1 ? "s" : "") + ": the fabric's " + std::to_string(owners.size()) +
                " switches and end ports need " + std::to_string(needed) + " (LMC " + std::to_string(o.lmc) +
                ")");
        }
        cursor[w.lmc] = base + size;
        take(w, base);
    }
    assign_vf_lids(f, vf_want, used, r);
    return r;
}

}  // namespace weft::routing
