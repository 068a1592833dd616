#include "weft/ars/macro_flow_table.hpp"

namespace weft::ars {

MacroFlowTable::MacroFlowTable(std::uint32_t size) : buckets_(new Bucket[size]), mask_(size - 1) {
    clear();
}

void MacroFlowTable::clear() {
    if (!buckets_) return;
    for (std::uint32_t i = 0; i <= mask_; ++i) buckets_[i] = Bucket::make(kEmpty, 0);
}

}  // namespace weft::ars
