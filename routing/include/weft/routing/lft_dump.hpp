// OpenSM's unicast LFT dump (opensm-lfts.dump): what `opensm -D 0x40` writes after routing and
// what the 'file' engine (-R file, --lfts_file) loads.
//
//   Unicast lids [0-5] of switch Lid 1 guid 0x0000000000200000 ('sw1'):
//   0x0001 000 # Switch portguid 0x0000000000200000: 'sw1'
//   0x0003 003 # Channel Adapter portguid 0x0000000000100001: 'h1'
//   5 lids dumped
//
// Seed 002's vLIDs (0x10000-0x3FFFF, forwarded by a switch's secondary LFT) follow each switch's
// pLIDs in a section of their own, written only when the fabric has vLIDs:
//
//   Virtual lids [0x10000-0x10003] of switch Lid 1 guid 0x0000000000200000 ('sw1'):
//   vlid 0x10000 003 # Channel Adapter portguid 0x0002c90300000011: 'h1'
//   4 vlids dumped
//
// OpenSM's reader takes only lines that start with "Unicast lids" or "0x" and skips the rest, so
// it loads such a dump's pLIDs and never sees a vLID (it would cut one to 16 bits). A dump of a
// fabric without vLIDs is OpenSM's, byte for byte. The reader also takes vLIDs listed among the
// pLIDs (as "0x10000 003"), as weft wrote them before the section existed.
//
// The writer reproduces OpenSM's bytes (switches in GUID order, unrouted LIDs left out) so a
// dump can be diffed against OpenSM's. The reader is strict where OpenSM's is lenient about
// garbage and throws ParseError naming file, line, column and what was expected.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "weft/routing/fabric.hpp"
#include "weft/routing/parse_error.hpp"
#include "weft/routing/tables.hpp"

namespace weft::routing {

struct LftDumpEntry {
    Lid lid = 0;
    PortNum port = 0;
    Guid port_guid = 0;  // of the LID's owner, 0 if the line names none
    std::size_t line = 0;
};

struct LftDumpSwitch {
    Guid guid = 0;
    Lid lid = 0;  // the switch's LID as the header states it (0 if absent)
    std::string desc;
    std::vector<LftDumpEntry> entries;
    std::size_t line = 0;
};

struct LftDump {
    std::vector<LftDumpSwitch> switches;
};

// Receives a dump's switch headers and LID entries as they are parsed, entries in runs (one call
// per run, not per entry, on a dump's thousands of lines); an entry belongs to the header before
// it.
class LftDumpSink {
  public:
    virtual ~LftDumpSink() = default;
    virtual void on_switch(const LftDumpSwitch &sw) = 0;  // sw.entries is empty
    virtual void on_entries(std::span<const LftDumpEntry> es) = 0;
};

// Parses dump text into a sink, fed in pieces of whole lines (the last piece's last line may
// lack its newline), so a file can be read in chunks. Throws ParseError as read_lft_dump does.
class LftDumpParser {
  public:
    LftDumpParser(std::string name, LftDumpSink &sink) : name_(std::move(name)), sink_(sink) {}
    // Optional, before parsing: the entry lines OpenSM would write for f's LIDs. A line equal to
    // the one expected next (but for its port digits) is then taken in one compare; every other
    // line is read as without this, with the same values and errors.
    void expect_lines_of(const Fabric &f);
    void parse(std::string_view lines);
    std::size_t lines_parsed() const { return line_; }

    // One LID's expected line (see expect_lines_of), as the reader's compare takes it.
    struct Expected {
        std::uint32_t at = 0;   // into expected_text_
        std::uint32_t len = 0;  // with the newline; 0: no line expected for this LID
        Guid guid = 0;          // the port GUID the line names
    };

  private:
    void parse_line(std::string_view raw);
    std::string name_;
    LftDumpSink &sink_;
    std::size_t line_ = 0;    // lines parsed so far
    bool in_switch_ = false;  // a header was seen
    bool in_vlids_ = false;   // in the current switch's 'Virtual lids' section
    Guid switch_guid_ = 0;    // the current switch's, from its 'Unicast lids' header
    Lid next_lid_ = 1;        // the LID an OpenSM dump lists next (after the last entry's)
    std::string expected_text_;
    std::vector<Expected> expected_;  // index = LID
};

// expected: see LftDumpParser::expect_lines_of (the result does not depend on it).
LftDump read_lft_dump(std::string_view text, const std::string &name, const Fabric *expected = nullptr);
std::string write_lft_dump(const Fabric &f, const RoutingTables &t);

struct LftApplyReport {
    std::size_t switches_applied = 0;
    std::size_t switches_unknown = 0;  // not in the fabric: skipped, as OpenSM does
    std::size_t entries = 0;
    std::size_t remapped = 0;  // LIDs moved to the owner's current LID range (by port GUID)
    std::size_t rejected = 0;  // entries naming a LID past the fabric's or a port the switch lacks
};

// Loads the dump's LFTs into t (sized for f): switches matched by GUID, each listed switch's
// LFT cleared first; a LID whose port GUID now owns a different range is remapped into it
// (OpenSM's remap_lid).
LftApplyReport apply_lft_dump(const LftDump &d, const Fabric &f, RoutingTables &t);

// read_lft_dump and apply_lft_dump on the file at path, read in chunks and applied as it is
// parsed (no copy of the whole file, no LftDump). Throws ParseError on bad text, and
// std::runtime_error naming the path when it cannot be read.
LftApplyReport load_lft_dump(const std::string &path, const Fabric &f, RoutingTables &t);

}  // namespace weft::routing
