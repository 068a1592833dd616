// Content-based format detection and the file entry points of the topology readers.
#include <cctype>
#include <filesystem>

#include "text_lines.hpp"
#include "weft/routing/text_file.hpp"
#include "weft/routing/topology_io.hpp"

namespace weft::routing {

std::string_view format_name(TopologyFormat f) {
    switch (f) {
        case TopologyFormat::Ibnetdiscover:
            return "ibnetdiscover";
        case TopologyFormat::IbsimNet:
            return "ibsim-net";
        case TopologyFormat::SubnetLst:
            return "opensm-subnet.lst";
        case TopologyFormat::Json:
            return "json";
    }
    return "?";
}

std::optional<TopologyFormat> detect_topology_format(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 BOM
    std::size_t i = 0;
    while (i < text.size() && (io::is_space(text[i]) || text[i] == '\n')) ++i;
    if (i < text.size() && text[i] == '{') {
        std::size_t j = i + 1;
        while (j < text.size() && (io::is_space(text[j]) || text[j] == '\n')) ++j;
        if (j < text.size() && (text[j] == '"' || text[j] == '}')) return TopologyFormat::Json;
        if (j < text.size() && std::isalpha(static_cast<unsigned char>(text[j])))
            return TopologyFormat::SubnetLst;
        return std::nullopt;
    }
    // ibnetdiscover marks its records with vendid=/sysimgguid= lines and "switchguid=0x..(..)";
    // ibsim files name nodes without them. Both share the Switch/Ca header lines.
    bool has_headers = false;
    for (const auto &l : io::split_lines(text)) {
        const std::string_view t = l.text;
        if (t.substr(0, 16) == "# Topology file:" || t.substr(0, 7) == "vendid=" ||
            t.substr(0, 11) == "sysimgguid=")
            return TopologyFormat::Ibnetdiscover;
        if (t.substr(0, 11) == "switchguid=" && t.find('(') != std::string_view::npos)
            return TopologyFormat::Ibnetdiscover;
        for (std::string_view kw : {"Switch", "Hca", "Ca", "Rt"})
            if (t.substr(0, kw.size()) == kw && t.size() > kw.size() &&
                (io::is_space(t[kw.size()]) || std::isdigit(static_cast<unsigned char>(t[kw.size()]))))
                has_headers = true;
    }
    if (has_headers) return TopologyFormat::IbsimNet;
    return std::nullopt;
}

Fabric read_topology_string(std::string_view text, const std::string &name, IncludeResolver includes) {
    const auto fmt = detect_topology_format(text);
    if (!fmt)
        throw ParseError(
            name, 1, 1,
            "a topology: ibnetdiscover output, an ibsim net file, opensm-subnet.lst or weft JSON");
    switch (*fmt) {
        case TopologyFormat::Ibnetdiscover:
            return read_ibnetdiscover(text, name);
        case TopologyFormat::IbsimNet:
            return read_ibsim_net(text, name, std::move(includes));
        case TopologyFormat::SubnetLst:
            return read_subnet_lst(text, name);
        case TopologyFormat::Json:
            return read_topology_json(text, name);
    }
    throw ParseError(name, 0, 0, "a known topology format");
}

Fabric read_topology(const std::string &path, const TextLimits &limits) {
    TextLimits left = limits;  // what the includes may still take
    const std::string text = read_text_file(path, left);
    left.max_bytes -= text.size();
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    // ibsim opens includes relative to its working directory; we look next to the including
    // file first, which is what a net file moved around with its parts needs.
    IncludeResolver resolver = [dir, &left](const std::string &name, std::string &display) {
        std::filesystem::path p = name;
        if (p.is_relative() && std::filesystem::exists(dir / p)) p = dir / p;
        display = p.string();
        std::string included = read_text_file(display, left);
        left.max_bytes -= included.size();
        return included;
    };
    return read_topology_string(text, path, resolver);
}

}  // namespace weft::routing
