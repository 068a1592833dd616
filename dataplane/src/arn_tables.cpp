#include "weft/dataplane/arn_tables.hpp"

#include <rte_rcu_qsbr.h>

namespace weft::dataplane {

void ArnPublisher::publish(std::shared_ptr<const ArnTables> next) {
    current_.store(next.get(), std::memory_order_release);
    std::shared_ptr<const ArnTables> old = std::move(owned_);
    owned_ = std::move(next);
    // The token is taken after the swap: a reader that reports past it cannot hold the old one.
    if (old) retired_.push_back({rte_rcu_qsbr_start(qsv_), std::move(old)});
    reclaim();
}

void ArnPublisher::reclaim() noexcept {
    while (!retired_.empty() && rte_rcu_qsbr_check(qsv_, retired_.front().token, false) == 1)
        retired_.pop_front();
}

}  // namespace weft::dataplane
