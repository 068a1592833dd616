// Topology readers and writers.
//
// Readers: infiniband-diags' ibnetdiscover output, ibsim net files (what `ibsim -s` reads,
// including its switchguid=/caguid= bases, include "file", module=, width=/speed= defaults and
// per-port w=/s= options), OpenSM's opensm-subnet.lst, and weft's JSON schema (routing/README.md).
// read_topology() picks the reader from the content, never from the file name. Every reader
// throws ParseError naming file, line, column and what was expected.
//
// Writers produce the same formats (except subnet.lst) plus Graphviz dot with links coloured by
// routed load. Writing and reading back gives the same fabric (nodes, GUIDs, descriptions,
// cabling, width/speed, LIDs).
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "weft/routing/fabric.hpp"
#include "weft/routing/parse_error.hpp"
#include "weft/routing/text_file.hpp"

namespace weft::routing {

enum class TopologyFormat { Ibnetdiscover, IbsimNet, SubnetLst, Json };

std::string_view format_name(TopologyFormat f);
// Guesses the format from the text; nullopt if it looks like none of them.
std::optional<TopologyFormat> detect_topology_format(std::string_view text);

// Resolves an ibsim `include "name"` to the included file's text (and its display name).
using IncludeResolver = std::function<std::string(const std::string &name, std::string &display_name)>;

// Reads a file (any format, auto-detected). Includes are resolved relative to its folder. The
// file and its includes together are held to `limits` (text_file.hpp).
Fabric read_topology(const std::string &path, const TextLimits &limits = {});
// Reads text; `name` is used in errors. Without a resolver, `include` lines are an error.
Fabric read_topology_string(std::string_view text, const std::string &name, IncludeResolver includes = {});

Fabric read_ibnetdiscover(std::string_view text, const std::string &name);
Fabric read_ibsim_net(std::string_view text, const std::string &name, IncludeResolver includes = {});
Fabric read_subnet_lst(std::string_view text, const std::string &name);
Fabric read_topology_json(std::string_view text, const std::string &name);

std::string write_ibnetdiscover(const Fabric &f);
std::string write_ibsim_net(const Fabric &f);
std::string write_topology_json(const Fabric &f);
// `load` (optional) is indexed by global port index (Node::port_base + port): routes leaving
// that port. Links are coloured from green (idle) to red (the most loaded link) and labelled.
std::string write_dot(const Fabric &f, std::span<const std::uint64_t> load = {});

// Text/labels shared by readers and writers.
std::string_view width_name(LinkWidth w);                  // "1x" .. "12x"
std::string_view speed_name(LinkSpeed s);                  // "SDR" .. "XDR"
std::optional<LinkWidth> parse_width(std::string_view s);  // "4x", "12X"
std::optional<LinkSpeed> parse_speed(std::string_view s);  // "EDR", "fdr10"

}  // namespace weft::routing
