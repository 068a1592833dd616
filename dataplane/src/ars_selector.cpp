#include "nhg_selector.hpp"

namespace weft::dataplane {

ArsSelector::ArsSelector(const LinkState &links, const ars::PortBoard &board, unsigned worker_index)
    : ecmp_(links), links_(&links), ars_(board, worker_index) {
    ars_.set_monitor_hook(ars::MonitorHook{&ArsSelector::on_reassign, this});
}

void ArsSelector::sync(const FibSnapshot &fib) {
    const std::shared_ptr<const ars::Config> &config = fib.ars();
    if (config.get() == adopted_) return;
    // Slow path, once per configuration change: adopt() sizes tables for new groups and keeps
    // the buckets of unchanged ones. A snapshot without ARS keeps the last adopted tables (and
    // counters) but routes every group by hash until ARS comes back.
    if (config != nullptr) ars_.adopt(config);
    adopted_ = config.get();
}

// Inlined into the burst loop: called per packet, it would be a call per packet.
[[gnu::always_inline]] inline MemberChoice ArsSelector::map_egress(const FibSnapshot &fib,
                                                                   const SelectionRequest &req,
                                                                   ars::Egress e) noexcept {
    if (e.dropped()) return {nullptr, DropReason::NoLiveMember};
    const auto members = fib.members(*req.nhg);
    // The dataplane members of an ARS group are built in ARS member order, so the index usually
    // names the member directly; a LAG member resolves to one of its ports, found by port.
    const ResolvedMember *m = nullptr;
    if (e.member < members.size() && members[e.member].port == e.port) {
        m = &members[e.member];
    } else {
        for (const ResolvedMember &x : members)
            if (x.port == e.port) {
                m = &x;
                break;
            }
    }
    if (m != nullptr && links_->usable(m->port) && (!req.need_mac || m->resolved))
        return {m, DropReason::None};
    return ecmp_.select(fib, req);
}

MemberChoice ArsSelector::member_for_slow(const FibSnapshot &fib, const SelectionRequest &req,
                                          ars::Egress e) noexcept {
    return map_egress(fib, req, e);
}

void ArsSelector::set_monitor_hook(ars::MonitorHook hook) noexcept {
    user_hook_ = hook;
}

void ArsSelector::on_reassign(void *self, const ars::ReassignEvent &e) {
    auto *s = static_cast<ArsSelector *>(self);
    if (s->reassigned_ != nullptr) *s->reassigned_ = true;
    if (s->user_hook_) s->user_hook_(e);
}

MemberChoice ArsSelector::select(const FibSnapshot &fib, const SelectionRequest &req,
                                 bool *reassigned) noexcept {
    if (!is_ars(*req.nhg)) return ecmp_.select(fib, req);
    reassigned_ = reassigned;
    const ars::Egress e = ars_.select_nhg(req.nhg->id, req.flow_hash, req.now_tsc, req.verdict);
    reassigned_ = nullptr;
    return map_egress(fib, req, e);
}

}  // namespace weft::dataplane
