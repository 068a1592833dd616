// The ARN message codec: header, then the parameters in Para-Type bit order.
#include "weft/arn/codec.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "wire.hpp"

namespace weft::arn {

namespace {

using namespace wire;

ArnDecode refuse(ArnDrop reason, std::size_t offset, std::uint64_t value) {
    ArnDecode d;
    d.error = ArnError{reason, offset, value};
    return d;
}

std::size_t fixed_param_size(std::uint8_t bit) {
    switch (bit) {
        case kParamReporter:
            return 8;
        case kParamPathId:
        case kParamSequence:
            return 4;
        default:
            return 2;
    }
}

}  // namespace

std::uint8_t ArnMessage::para_type() const {
    std::uint8_t bits = 0;
    bits |= reporter ? kParamReporter : 0;
    bits |= port ? kParamPort : 0;
    bits |= peer_group ? kParamPeerGroup : 0;
    bits |= path_id ? kParamPathId : 0;
    bits |= dest_group ? kParamDestGroup : 0;
    bits |= dest_prefix ? kParamDestPrefix : 0;
    bits |= sequence ? kParamSequence : 0;
    bits |= hold_ms ? kParamHoldTime : 0;
    return bits;
}

const char *arn_type_name(ArnType type) {
    switch (type) {
        case ArnType::kCongestionDetected:
            return "congestion-detected";
        case ArnType::kCongestionEliminated:
            return "congestion-eliminated";
        case ArnType::kFailureDetected:
            return "failure-detected";
        case ArnType::kFailureEliminated:
            return "failure-eliminated";
    }
    return "unknown";
}

std::size_t arn_size(const ArnMessage &m) {
    std::size_t n = kArnHeaderSize;
    for (std::uint8_t bit = 0x80; bit != 0; bit >>= 1) {
        if (!(m.para_type() & bit)) continue;
        n += bit == kParamDestPrefix ? 2 + prefix_bytes(m.dest_prefix->length) : fixed_param_size(bit);
    }
    return n;
}

std::size_t encode_arn(const ArnMessage &m, std::span<std::uint8_t> out) {
    auto fail = [](ArnDrop reason) {
        throw std::invalid_argument(std::string("ARN encode: ") + arn_drop_name(reason));
    };
    if (!known_type(static_cast<std::uint8_t>(m.type))) fail(ArnDrop::kUnknownType);
    if (!metric_allowed(m.type, m.metric)) fail(ArnDrop::kBadMetric);
    if ((m.para_type() & kRequiredParams) != kRequiredParams) fail(ArnDrop::kMissingParameter);
    if (m.dest_prefix)
        if (const auto problem = prefix_problem(*m.dest_prefix)) fail(*problem);
    if (m.hold_ms && *m.hold_ms == 0) fail(ArnDrop::kBadHoldTime);
    const std::size_t size = arn_size(m);
    if (out.size() < size) throw std::invalid_argument("ARN encode: output buffer too small");

    std::uint8_t *p = out.data();
    p[0] = static_cast<std::uint8_t>(m.type);
    p[1] = static_cast<std::uint8_t>(kArnVersion << 4);  // Reserved written as 0
    p[2] = m.metric;
    p[3] = m.para_type();
    p += kArnHeaderSize;
    // The parameters in bitmap order; each write returns the byte after it.
    if (m.reporter) p = put64(p, *m.reporter);
    if (m.port) p = put16(p, *m.port);
    if (m.peer_group) p = put16(p, *m.peer_group);
    if (m.path_id) p = put32(p, *m.path_id);
    if (m.dest_group) p = put16(p, *m.dest_group);
    if (m.dest_prefix) {
        const std::size_t n = prefix_bytes(m.dest_prefix->length);
        p[0] = m.dest_prefix->family;
        p[1] = m.dest_prefix->length;
        std::copy_n(m.dest_prefix->address.begin(), n, p + 2);
        p += 2 + n;
    }
    if (m.sequence) p = put32(p, *m.sequence);
    if (m.hold_ms) put16(p, *m.hold_ms);
    return size;
}

std::vector<std::uint8_t> encode_arn(const ArnMessage &m) {
    std::vector<std::uint8_t> out(arn_size(m));
    encode_arn(m, out);
    return out;
}

ArnDecode decode_arn(std::span<const std::uint8_t> bytes, Trailing trailing, std::size_t base) {
    const std::size_t size = bytes.size();
    const std::uint8_t *b = bytes.data();
    if (size < kArnHeaderSize) return refuse(ArnDrop::kHeaderTruncated, base, size);
    if ((b[1] >> 4) != kArnVersion) return refuse(ArnDrop::kBadVersion, base + 1, b[1] >> 4);
    if (!known_type(b[0])) return refuse(ArnDrop::kUnknownType, base, b[0]);
    ArnDecode d;
    ArnMessage &m = d.message;
    m.type = static_cast<ArnType>(b[0]);
    m.reserved = b[1] & 0x0F;
    m.metric = b[2];
    if (!metric_allowed(m.type, m.metric)) return refuse(ArnDrop::kBadMetric, base + 2, m.metric);
    const std::uint8_t bits = b[3];
    if ((bits & kRequiredParams) != kRequiredParams)
        return refuse(ArnDrop::kMissingParameter, base + 3, kRequiredParams & ~bits);

    std::size_t at = kArnHeaderSize;
    for (std::uint8_t bit = 0x80; bit != 0; bit >>= 1) {
        if (!(bits & bit)) continue;
        const std::uint8_t *p = b + at;
        if (bit == kParamDestPrefix) {
            if (size - at < 2) return refuse(ArnDrop::kParamTruncated, base + at, bit);
            DestPrefix prefix;
            prefix.family = p[0];
            prefix.length = p[1];
            if (prefix.family != 4 && prefix.family != 6)
                return refuse(ArnDrop::kBadPrefixFamily, base + at, prefix.family);
            if (prefix.length > (prefix.family == 4 ? 32 : 128))
                return refuse(ArnDrop::kBadPrefixLength, base + at + 1, prefix.length);
            const std::size_t n = prefix_bytes(prefix.length);
            if (size - at - 2 < n) return refuse(ArnDrop::kParamTruncated, base + at, bit);
            std::copy_n(p + 2, n, prefix.address.begin());
            // Only the last address byte on the wire can hold bits past the length.
            if (prefix_problem(prefix)) return refuse(ArnDrop::kPrefixHostBits, base + at + 1 + n, p[1 + n]);
            m.dest_prefix = prefix;
            at += 2 + n;
            continue;
        }
        const std::size_t n = fixed_param_size(bit);
        if (size - at < n) return refuse(ArnDrop::kParamTruncated, base + at, bit);
        switch (bit) {
            case kParamReporter:
                m.reporter = be64(p);
                break;
            case kParamPort:
                m.port = be16(p);
                break;
            case kParamPeerGroup:
                m.peer_group = be16(p);
                break;
            case kParamPathId:
                m.path_id = be32(p);
                break;
            case kParamDestGroup:
                m.dest_group = be16(p);
                break;
            case kParamSequence:
                m.sequence = be32(p);
                break;
            default:  // kParamHoldTime
                m.hold_ms = be16(p);
                if (*m.hold_ms == 0) return refuse(ArnDrop::kBadHoldTime, base + at, 0);
                break;
        }
        at += n;
    }
    if (at != size) {
        if (trailing == Trailing::kRefuse) return refuse(ArnDrop::kTrailingBytes, base + at, size - at);
        const auto nonzero = std::find_if(b + at, b + size, [](std::uint8_t x) { return x != 0; });
        if (nonzero != b + size)
            return refuse(ArnDrop::kTrailingBytes, base + static_cast<std::size_t>(nonzero - b), *nonzero);
    }
    d.size = at;
    return d;
}

}  // namespace weft::arn
