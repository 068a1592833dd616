// One RTM_NEWROUTE message: the input is its body (the rtmsg or nhmsg header and the attributes) under
// a netlink header of that type, decoded and applied to a RIB.
#include <linux/rtnetlink.h>

#include "fpm_netlink_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    weft::control::fpm::fuzz::one_message(RTM_NEWROUTE, data, size);
    return 0;
}
