// OpenSM's opensm-subnet.lst, as OpenSM 3.3 writes it after a sweep: one line per port of every
// link (each cable twice), both ends described — node type ("-SM" where the end port has IsSM
// in its capability mask), port count, system/node/port GUIDs, vendor, device, revision,
// description, LID (a switch's is its port 0's) and port number — then the link's width,
// logical state and lane speed. Nodes come in the order of OpenSM's GUID table (ordered by the
// GUID's bytes as stored on the wire, read as a little-endian number), ports in number order;
// the first end's vendor ID has 6 hex digits and the second's 8, as OpenSM prints them. The
// routing library's reader (read_subnet_lst, weft-route --topo) reads it back.
#pragma once

#include <string>

#include "weft/sm/discovery.hpp"
#include "weft/sm/programming.hpp"

namespace weft::sm {

// `d.fabric` with its assigned LIDs; `programmed` (may be null) gives the port states the
// programming left, else they are the states discovery read.
std::string write_subnet_lst(const DiscoveryResult &d, const ProgramReport *programmed = nullptr);

}  // namespace weft::sm
