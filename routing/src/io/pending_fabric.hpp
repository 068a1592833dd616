// Private: what the record-oriented readers (ibnetdiscover, ibsim, subnet.lst) collect before
// building a Fabric. Nodes may be named before they are defined, so cabling is resolved after
// all records are read; every problem is reported at the line that caused it.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/routing/parse_error.hpp"

namespace weft::routing::io {

struct PendingPort {
    PortNum port = 0;
    Guid port_guid = 0;  // CA/router port GUID if the file gives one
    std::string remote_id;
    PortNum remote_port = 1;
    std::optional<LinkWidth> width;
    std::optional<LinkSpeed> speed;
    unsigned width_mask = 0;  // ibsim w= (PortInfo LinkWidthEnabled bits), 0 = not given
    unsigned speed_mask = 0;  // ibsim s= (PortInfo LinkSpeedEnabled bits), 0 = not given
    Lid lid = 0;              // CA/router port LID (0 = none)
    std::uint8_t lmc = 0;
    std::size_t line = 0, remote_column = 0;
    const std::string *file = nullptr;  // for includes: where the line is (else the top file)
};

struct PendingNode {
    NodeType type = NodeType::Ca;
    std::string id;
    Guid guid = 0;
    Guid sys_guid = 0;
    PortNum num_ports = 0;
    std::string desc;
    Lid lid = 0;  // switch port 0
    std::uint8_t lmc = 0;
    std::vector<PendingPort> ports;
    std::size_t line = 0;
    const std::string *file = nullptr;
};

struct LinkDefaults {
    LinkWidth width = LinkWidth::X4;
    LinkSpeed speed = LinkSpeed::Sdr;
    unsigned width_mask = 2;   // ibsim: 4x enabled
    unsigned speed_mask = 1;   // ibsim: SDR enabled
    bool ibsim_masks = false;  // resolve width/speed from enabled masks as ibsim does
};

// Builds the fabric: nodes in record order, then every port line cabled (a link seen from both
// ends is cabled once; contradicting ends are an error at the second line). GUIDs must be
// unique; LIDs are set where given (duplicates are an error). A file without nodes, or a cable
// from a node to itself, is an error; end_line is the line after the file's last, where a file
// without nodes is reported.
Fabric build_fabric(const std::string &file, std::vector<PendingNode> &nodes, const LinkDefaults &defaults,
                    std::size_t end_line);

}  // namespace weft::routing::io
