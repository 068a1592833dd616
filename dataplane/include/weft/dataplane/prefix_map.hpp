// A hash map keyed by prefix, flat (open addressing, linear probing, backward-shift deletion):
// the FIB builder's routes and its staged changes. A million routes in node-based maps cost an
// allocation and a cache miss or two per route and per change; here a slot is 24 bytes in one
// array and an insertion is a probe or two. Iteration is in slot order; an insertion or erasure
// may move entries (iterators and references do not survive it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <utility>
#include <vector>

#include "weft/dataplane/ip_addr.hpp"

namespace weft::dataplane {

template <typename V>
class PrefixMap {
  public:
    using value_type = std::pair<IpPrefix, V>;

    template <bool Const>
    class Iter {
      public:
        using iterator_category = std::forward_iterator_tag;
        using difference_type = std::ptrdiff_t;
        using value_type = PrefixMap::value_type;
        using reference = std::conditional_t<Const, const value_type &, value_type &>;
        using pointer = std::conditional_t<Const, const value_type *, value_type *>;
        Iter() = default;
        Iter(pointer p, pointer end) : p_(p), end_(end) { skip(); }
        operator Iter<true>() const requires(!Const) { return {p_, end_}; }
        reference operator*() const { return *p_; }
        pointer operator->() const { return p_; }
        Iter &operator++() {
            ++p_;
            skip();
            return *this;
        }
        Iter operator++(int) {
            Iter old = *this;
            ++*this;
            return old;
        }
        friend bool operator==(const Iter &a, const Iter &b) { return a.p_ == b.p_; }

      private:
        void skip() {
            while (p_ != end_ && p_->first.len == kEmpty) ++p_;
        }
        pointer p_ = nullptr, end_ = nullptr;
    };
    using iterator = Iter<false>;
    using const_iterator = Iter<true>;

    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    iterator begin() { return {slots_.data(), slots_.data() + slots_.size()}; }
    iterator end() { return {slots_.data() + slots_.size(), slots_.data() + slots_.size()}; }
    const_iterator begin() const { return {slots_.data(), slots_.data() + slots_.size()}; }
    const_iterator end() const { return {slots_.data() + slots_.size(), slots_.data() + slots_.size()}; }

    iterator find(const IpPrefix &key) {
        const std::size_t i = slot_of(key);
        return i == kNone ? end() : iterator{slots_.data() + i, slots_.data() + slots_.size()};
    }
    const_iterator find(const IpPrefix &key) const {
        const std::size_t i = slot_of(key);
        return i == kNone ? end() : const_iterator{slots_.data() + i, slots_.data() + slots_.size()};
    }
    bool contains(const IpPrefix &key) const { return slot_of(key) != kNone; }
    const V &at(const IpPrefix &key) const {
        const std::size_t i = slot_of(key);
        if (i == kNone) throw std::out_of_range("no route " + key.to_string());
        return slots_[i].second;
    }

    // Inserts (key, value) unless the key is there; returns where it is and whether it was added.
    std::pair<iterator, bool> try_emplace(const IpPrefix &key, V value) {
        if ((size_ + 1) * 4 > slots_.size() * 3) grow();
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = IpPrefixHash{}(key)&mask;; i = (i + 1) & mask) {
            value_type &s = slots_[i];
            if (s.first.len == kEmpty) {
                s = value_type{key, std::move(value)};
                ++size_;
                return {iterator{&s, slots_.data() + slots_.size()}, true};
            }
            if (same(s.first, key)) return {iterator{&s, slots_.data() + slots_.size()}, false};
        }
    }
    V &operator[](const IpPrefix &key) { return try_emplace(key, V{}).first->second; }

    // Removes the key; returns whether it was there.
    bool erase(const IpPrefix &key) {
        std::size_t hole = slot_of(key);
        if (hole == kNone) return false;
        const std::size_t mask = slots_.size() - 1;
        // Backward shift: later entries of the probe run move into the hole when their home slot
        // is not between the hole and them.
        for (std::size_t j = (hole + 1) & mask; slots_[j].first.len != kEmpty; j = (j + 1) & mask) {
            const std::size_t home = IpPrefixHash{}(slots_[j].first) & mask;
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                slots_[hole] = std::move(slots_[j]);
                hole = j;
            }
        }
        slots_[hole].first.len = kEmpty;
        --size_;
        return true;
    }

    // Empties the map and gives its memory back (a batch of a million changes leaves no million
    // slots to sweep behind it).
    void clear() {
        std::vector<value_type>().swap(slots_);
        size_ = 0;
    }
    // Slots, for a caller that walks the map a part at a time: slot(i) for i < slot_count() is an
    // entry or null.
    std::size_t slot_count() const noexcept { return slots_.size(); }
    const value_type *slot(std::size_t i) const noexcept {
        return slots_[i].first.len == kEmpty ? nullptr : &slots_[i];
    }
    // Bytes of the slot array.
    std::size_t memory_bytes() const noexcept { return slots_.capacity() * sizeof(value_type); }

  private:
    static constexpr std::uint8_t kEmpty = 0xFF;  // no prefix is this long
    static constexpr std::size_t kNone = ~std::size_t{0};

    // IpPrefix's == (its <=> compares the address bytewise), in two words.
    static bool same(const IpPrefix &a, const IpPrefix &b) noexcept {
        std::uint64_t x[2], y[2];
        std::memcpy(x, a.addr.bytes.data(), 16);
        std::memcpy(y, b.addr.bytes.data(), 16);
        return ((x[0] ^ y[0]) | (x[1] ^ y[1])) == 0 && a.len == b.len && a.addr.v6 == b.addr.v6;
    }

    std::size_t slot_of(const IpPrefix &key) const {
        if (slots_.empty()) return kNone;
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = IpPrefixHash{}(key)&mask;; i = (i + 1) & mask) {
            const value_type &s = slots_[i];
            if (s.first.len == kEmpty) return kNone;
            if (same(s.first, key)) return i;
        }
    }

    void grow() {
        std::vector<value_type> old = std::move(slots_);
        value_type empty{};
        empty.first.len = kEmpty;
        slots_.assign(old.empty() ? 16 : 2 * old.size(), empty);
        size_ = 0;
        const std::size_t mask = slots_.size() - 1;
        for (value_type &s : old) {
            if (s.first.len == kEmpty) continue;
            std::size_t i = IpPrefixHash{}(s.first) & mask;
            while (slots_[i].first.len != kEmpty) i = (i + 1) & mask;
            slots_[i] = std::move(s);
            ++size_;
        }
    }

    std::vector<value_type> slots_;  // a power of two of them, at most 3/4 full
    std::size_t size_ = 0;
};

}  // namespace weft::dataplane
