#include "frame_fabric.hpp"

#include "sma_fabric.hpp"

namespace weft::sm::test {

class FrameFabric::Ports final : public FramePorts {
  public:
    Ports(FrameFabric &fabric, routing::NodeIdx self) : fabric_(fabric), self_(self) {}

    bool send(PortNum port, std::span<const std::uint8_t> frame) override {
        fabric_.deliver(self_, port, frame);
        return true;
    }

    std::optional<ReceivedFrame> receive(std::chrono::milliseconds wait) override;

    MacAddr mac(PortNum port) const override { return mac_of(self_, port); }

  private:
    FrameFabric &fabric_;
    routing::NodeIdx self_;
    InFrame current_{0, {}};
};

struct FrameFabric::Node {
    Node(FrameFabric &fabric, routing::NodeIdx n, SmaConfig config)
        : sma(std::move(config)), ports(fabric, n), agent(sma, ports) {}
    Sma sma;
    Ports ports;
    SmaFrameAgent agent;
    std::vector<Peer> peers;  // index = port
    std::deque<InFrame> inbox;
};

std::optional<ReceivedFrame> FrameFabric::Ports::receive(std::chrono::milliseconds wait) {
    fabric_.run_others(self_);
    std::deque<InFrame> &inbox = fabric_.nodes_[self_]->inbox;
    if (inbox.empty()) {
        fabric_.now_ += wait;
        return std::nullopt;
    }
    current_ = std::move(inbox.front());
    inbox.pop_front();
    return ReceivedFrame{current_.port, current_.bytes};
}

MacAddr FrameFabric::mac_of(routing::NodeIdx n, PortNum p) {
    return {0x02,
            0x00,
            static_cast<std::uint8_t>(n >> 16),
            static_cast<std::uint8_t>(n >> 8),
            static_cast<std::uint8_t>(n),
            p};
}

FrameFabric::FrameFabric(const routing::Fabric &f) {
    for (routing::NodeIdx n = 0; n < f.node_count(); ++n) {
        nodes_.push_back(std::make_unique<Node>(*this, n, sma_config(f, n)));
        nodes_[n]->peers.resize(f.node(n).num_ports + 1u);
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) nodes_[n]->sma.set_fabric_port(p, true);
    }
    for (routing::NodeIdx n = 0; n < f.node_count(); ++n)
        for (PortNum p = 1; p <= f.node(n).num_ports; ++p) {
            const routing::Port &x = f.port(n, p);
            if (x.peer == routing::kNoNode) continue;
            nodes_[n]->peers[p] = Peer{x.peer, x.peer_port};
            nodes_[n]->sma.set_link(p, true, now_, link_rate(x.width, x.speed));
        }
}

FrameFabric::~FrameFabric() = default;

Sma &FrameFabric::sma(routing::NodeIdx n) {
    return nodes_.at(n)->sma;
}
SmaFrameAgent &FrameFabric::agent(routing::NodeIdx n) {
    return nodes_.at(n)->agent;
}
FramePorts &FrameFabric::ports(routing::NodeIdx n) {
    return nodes_.at(n)->ports;
}

void FrameFabric::deliver(routing::NodeIdx from, PortNum port, std::span<const std::uint8_t> frame) {
    Node &a = *nodes_[from];
    const Peer peer = port < a.peers.size() ? a.peers[port] : Peer{};
    if (peer.node == routing::kNoNode || !a.sma.link_up(port) || !nodes_[peer.node]->sma.link_up(peer.port)) {
        ++lost;
        return;
    }
    ++frames;
    InFrame in{peer.port, std::vector<std::uint8_t>(frame.begin(), frame.end())};
    if (spoil) spoil(in.bytes);
    nodes_[peer.node]->inbox.push_back(std::move(in));
}

void FrameFabric::inject(routing::NodeIdx n, PortNum p, std::vector<std::uint8_t> frame) {
    nodes_.at(n)->inbox.push_back(InFrame{p, std::move(frame)});
}

void FrameFabric::run_others(routing::NodeIdx except) {
    for (bool busy = true; busy;) {
        busy = false;
        for (routing::NodeIdx n = 0; n < nodes_.size(); ++n) {
            if (n == except) continue;
            Node &node = *nodes_[n];
            while (!node.inbox.empty()) {
                busy = true;
                InFrame in = std::move(node.inbox.front());
                node.inbox.pop_front();
                if (node.agent.on_frame(in.port, in.bytes, now_)) ++for_absent_sm;
            }
        }
    }
}

void FrameFabric::set_cable(routing::NodeIdx n, PortNum p, bool up) {
    const Peer peer = nodes_[n]->peers[p];
    const SmaLinkRate rate = link_rate(routing::LinkWidth::X4, routing::LinkSpeed::Edr);
    // Both ends change before either trap travels (a trap routed over the cut cable is lost).
    std::optional<SmaOutput> a = nodes_[n]->sma.set_link(p, up, now_, rate);
    std::optional<SmaOutput> b;
    if (peer.node != routing::kNoNode) b = nodes_[peer.node]->sma.set_link(peer.port, up, now_, rate);
    if (a && nodes_[n]->agent.emit(*a)) ++for_absent_sm;
    if (b && nodes_[peer.node]->agent.emit(*b)) ++for_absent_sm;
}

}  // namespace weft::sm::test
