// The ARS settings written as the words of the commands that set them: what `show running-config`
// saves, and what the text forms of `show acl`, `show lag` and `show ars object` print, so that a
// setting reads the same where it is typed, shown and saved.
#pragma once

#include <cstdint>
#include <string>

#include "weft/ars/config.hpp"

namespace weft::control::cli {

// The command word of a mode ("flowlet-quality").
const char *mode_word(ars::Mode mode);
// "<id> mode <m> idle-time <us> max-flows <n> monitor on|off" (after `ars object add`).
std::string object_words(const ars::ArsObjectConfig &o);
// "<id> ports <p>,<p>[ ars <obj>]" (after `lag add`).
std::string lag_words(const ars::LagConfig &l);
// "<id> ars <obj>|none primary <m>,... [alternate <m>,...] cost <c> bias <b> threshold <t>" (after
// `nhg add`).
std::string nhg_ars_words(const ars::NhgConfig &n);
// "<prio> [match ...] action ..." (after `acl add`).
std::string acl_words(const ars::AclRule &r);
// "1,2,lag3": the members of one role.
std::string member_list(const ars::NhgConfig &n, ars::MemberRole role);

}  // namespace weft::control::cli
