// Names of link widths and speeds as infiniband-diags prints them ("4x", "EDR").
#include <algorithm>
#include <cctype>
#include <string>

#include "weft/routing/topology_io.hpp"

namespace weft::routing {

std::string_view width_name(LinkWidth w) {
    switch (w) {
        case LinkWidth::X1:
            return "1x";
        case LinkWidth::X2:
            return "2x";
        case LinkWidth::X4:
            return "4x";
        case LinkWidth::X8:
            return "8x";
        case LinkWidth::X12:
            return "12x";
    }
    return "4x";
}

std::string_view speed_name(LinkSpeed s) {
    switch (s) {
        case LinkSpeed::Sdr:
            return "SDR";
        case LinkSpeed::Ddr:
            return "DDR";
        case LinkSpeed::Qdr:
            return "QDR";
        case LinkSpeed::Fdr10:
            return "FDR10";
        case LinkSpeed::Fdr:
            return "FDR";
        case LinkSpeed::Edr:
            return "EDR";
        case LinkSpeed::Hdr:
            return "HDR";
        case LinkSpeed::Ndr:
            return "NDR";
        case LinkSpeed::Xdr:
            return "XDR";
    }
    return "SDR";
}

std::optional<LinkWidth> parse_width(std::string_view s) {
    std::string l(s);
    std::transform(l.begin(), l.end(), l.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (LinkWidth w : {LinkWidth::X1, LinkWidth::X2, LinkWidth::X4, LinkWidth::X8, LinkWidth::X12})
        if (l == width_name(w)) return w;
    return std::nullopt;
}

std::optional<LinkSpeed> parse_speed(std::string_view s) {
    std::string u(s);
    std::transform(u.begin(), u.end(), u.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    for (LinkSpeed x : {LinkSpeed::Sdr, LinkSpeed::Ddr, LinkSpeed::Qdr, LinkSpeed::Fdr10, LinkSpeed::Fdr,
                        LinkSpeed::Edr, LinkSpeed::Hdr, LinkSpeed::Ndr, LinkSpeed::Xdr})
        if (u == speed_name(x)) return x;
    return std::nullopt;
}

}  // namespace weft::routing
