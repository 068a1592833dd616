// The textual generator spec of weft-route --gen (grammar in generators.hpp).
#include <charconv>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "weft/routing/generators.hpp"
#include "weft/routing/parse_error.hpp"
#include "weft/routing/vswitch.hpp"

namespace weft::routing {
namespace {

const std::string kSpecName = "<gen>";

struct Field {
    std::string_view key, value;  // key empty for a bare value (torus:4x4x4)
    std::size_t column;           // 1-based column of the field in the whole spec
};

class Spec {
  public:
    Spec(std::string_view whole, std::string_view kind, std::vector<Field> fields,
         const std::string &name = kSpecName)
        : whole_(whole), kind_(kind), fields_(std::move(fields)), name_(name) {}

    [[noreturn]] void fail(std::size_t col, const std::string &expected, std::string_view found) const {
        throw ParseError(name_, 1, col, expected, std::string(found));
    }
    const Field *find(std::string_view key) {
        for (auto &f : fields_)
            if (f.key == key) {
                used_.push_back(&f);
                return &f;
            }
        return nullptr;
    }
    std::uint64_t num(const Field &f, std::string_view v, std::size_t col, std::uint64_t lo,
                      std::uint64_t hi) const {
        std::uint64_t x = 0;
        auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
        if (ec != std::errc{} || p != v.data() + v.size() || x < lo || x > hi)
            fail(col,
                 std::string(f.key.empty() ? "a number" : f.key) + " as an integer " + std::to_string(lo) +
                     ".." + std::to_string(hi),
                 v);
        return x;
    }
    unsigned get(std::string_view key, unsigned dflt, unsigned lo = 0, unsigned hi = 1'000'000) {
        return static_cast<unsigned>(get64(key, dflt, lo, hi));
    }
    std::uint64_t get64(std::string_view key, std::uint64_t dflt, std::uint64_t lo, std::uint64_t hi) {
        const Field *f = find(key);
        if (!f) return dflt;
        return num(*f, f->value, f->column + f->key.size() + 1, lo, hi);
    }
    unsigned need(std::string_view key, unsigned lo = 0, unsigned hi = 1'000'000) {
        if (!find(key))
            fail(whole_.size() + 1, std::string(kind_) + " parameter " + std::string(key) + "=",
                 "end of spec");
        return get(key, 0, lo, hi);
    }
    std::vector<unsigned> list(std::string_view key, char sep) {
        const Field *f = find(key);
        if (!f)
            fail(whole_.size() + 1, std::string(kind_) + " parameter " + std::string(key) + "=",
                 "end of spec");
        std::vector<unsigned> out;
        std::size_t col = f->column + f->key.size() + 1, start = 0;
        const std::string_view v = f->value;
        while (true) {
            const std::size_t end = v.find(sep, start);
            const std::string_view item =
                v.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
            out.push_back(static_cast<unsigned>(num(*f, item, col + start, 1, 100000)));
            if (end == std::string_view::npos) break;
            start = end + 1;
        }
        return out;
    }
    const Field *bare() {
        for (auto &f : fields_)
            if (f.key.empty()) {
                used_.push_back(&f);
                return &f;
            }
        return nullptr;
    }
    void done() const {
        for (auto &f : fields_) {
            bool used = false;
            for (auto *u : used_) used |= u == &f;
            if (!used)
                fail(f.column, "a parameter of " + std::string(kind_), f.key.empty() ? f.value : f.key);
        }
    }

  private:
    std::string_view whole_, kind_;
    std::vector<Field> fields_;
    const std::string &name_;
    std::vector<const Field *> used_;
};

// "k=v;k=v" when ';' appears (lists then use ','), otherwise "k=v,k=v".
Spec split(std::string_view whole, std::string_view kind, std::string_view params, std::size_t col,
           const std::string &name = kSpecName) {
    const char sep = params.find(';') != std::string_view::npos ? ';' : ',';
    std::vector<Field> fields;
    std::size_t start = 0;
    while (start <= params.size() && !params.empty()) {
        std::size_t end = params.find(sep, start);
        if (end == std::string_view::npos) end = params.size();
        const std::string_view item = params.substr(start, end - start);
        if (item.empty()) throw ParseError(name, 1, col + start, "a key=value parameter", "empty");
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos)
            fields.push_back({{}, item, col + start});
        else
            fields.push_back({item.substr(0, eq), item.substr(eq + 1), col + start});
        start = end + 1;
    }
    return Spec(whole, kind, std::move(fields), name);
}

// The keys of a "vms:..." component.
VmParams vm_params(Spec &s) {
    VmParams p;
    p.vfs = static_cast<std::uint16_t>(s.get("vfs", 4, 1, kMaxVfs));
    p.load_percent = s.get("load", 50, 0, 100);
    if (s.find("count")) p.count = static_cast<std::int64_t>(s.get64("count", 0, 0, 1u << 24));
    auto choice = [&](std::string_view key, std::initializer_list<std::string_view> allowed) -> std::size_t {
        const Field *f = s.find(key);
        if (!f) return 0;
        std::size_t i = 0;
        std::string all;
        for (std::string_view a : allowed) {
            if (f->value == a) return i;
            all += (i++ ? "|" : "") + std::string(a);
        }
        s.fail(f->column + key.size() + 1, std::string(key) + "=" + all, f->value);
    };
    p.random = choice("dist", {"uniform", "random"}) == 1;
    p.scheme =
        choice("scheme", {"prepopulated", "dynamic"}) == 1 ? VfLidScheme::Dynamic : VfLidScheme::Prepopulated;
    p.extended_vlids = choice("vlids", {"legacy", "extended"}) == 1;
    p.seed = s.get64("seed", 1, 0, ~std::uint64_t{0});
    s.done();
    return p;
}

// The failure keys of a "fail-links=3,seed=1" component (all of it: its kind is its first key).
FailureParams failure_params(Spec &s) {
    FailureParams p;
    p.links = s.get("fail-links", 0);
    p.switches = s.get("fail-switches", 0);
    p.seed = s.get64("seed", 1, 0, ~std::uint64_t{0});
    s.done();
    return p;
}

Fabric one(std::string_view whole, std::string_view comp, std::size_t col, const Fabric *base) {
    const std::size_t colon = comp.find(':');
    std::string_view kind = comp.substr(0, colon);
    std::string_view params = colon == std::string_view::npos ? std::string_view{} : comp.substr(colon + 1);
    // Failure components carry their own kind: "fail-links=3,seed=1".
    if (kind.substr(0, 5) == "fail-") {
        kind = "fail";
        params = comp;
    }
    Spec s = split(whole, kind, params, col + (colon == std::string_view::npos ? 0 : colon + 1));
    auto wrap = [&](auto make) -> Fabric {
        try {
            return make();
        } catch (const std::invalid_argument &e) {
            throw ParseError(kSpecName, 1, col, std::string("a buildable fabric (") + e.what() + ")",
                             std::string(comp));
        }
    };
    if (kind == "fail") {
        if (!base) s.fail(col, "a fabric spec before the failures", comp);
        const FailureParams p = failure_params(s);
        return wrap([&] { return apply_failures(*base, p); });
    }
    if (kind == "vms") {
        if (!base) s.fail(col, "a fabric spec before the VMs", comp);
        const VmParams p = vm_params(s);
        Fabric f = *base;
        wrap([&] {
            add_vms(f, p);
            return Fabric{};
        });
        return f;
    }
    if (base)
        s.fail(col, "failures (fail-links=, fail-switches=) or VMs (vms:...) after the first component",
               comp);
    if (kind == "kary") {
        const unsigned k = s.need("k", 1, 127), n = s.need("n", 1, 8);
        s.done();
        return wrap([&] { return make_kary_ntree(k, n); });
    }
    if (kind == "ftree") {
        const unsigned k = s.need("k", 2, 254), n = s.need("n", 1, 8);
        s.done();
        return wrap([&] { return make_max_fat_tree(k, n); });
    }
    if (kind == "ft36") {
        const Field *f = s.find("hosts");
        if (!f) s.fail(col, "ft36:hosts=324|648|5832|11664", comp);
        s.done();
        if (f->value == "324") return make_kary_ntree(18, 2);
        if (f->value == "648") return make_max_fat_tree(36, 2);
        if (f->value == "5832") return make_kary_ntree(18, 3);
        if (f->value == "11664") return make_max_fat_tree(36, 3);
        s.fail(f->column + 6, "324, 648, 5832 or 11664 (seed 002, Table 2)", f->value);
    }
    if (kind == "pgft") {
        PgftParams p;
        p.h = s.need("h", 1, 8);
        p.m = s.list("m", ',');
        p.w = s.list("w", ',');
        p.p = s.find("p") ? s.list("p", ',') : std::vector<unsigned>(p.h, 1);
        p.radix = s.get("radix", 0, 0, 254);
        s.done();
        return wrap([&] { return make_pgft(p); });
    }
    if (kind == "xgft") {
        const unsigned n = s.need("n", 1, 8);
        auto m = s.list("m", ','), w = s.list("w", ',');
        const unsigned radix = s.get("radix", 0, 0, 254);
        s.done();
        return wrap([&] {
            PgftParams p = xgft_from_seed002(n, m, w);
            p.radix = radix;
            return make_pgft(p);
        });
    }
    if (kind == "torus" || kind == "mesh") {
        GridParams g;
        g.torus = kind == "torus";
        const Field *d = s.bare();
        if (!d)
            s.fail(col, kind == "torus" ? "dimensions like torus:4x4x4" : "dimensions like mesh:8x8", comp);
        std::size_t start = 0;
        while (true) {
            const std::size_t end = d->value.find('x', start);
            g.dims.push_back(static_cast<unsigned>(s.num(
                *d,
                d->value.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start),
                d->column + start, 1, 100000)));
            if (end == std::string_view::npos) break;
            start = end + 1;
        }
        g.hosts = s.get("hosts", 1, 0, 200);
        s.done();
        return wrap([&] { return make_grid(g); });
    }
    if (kind == "hypercube") {
        const unsigned d = s.need("d", 1, 20), h = s.get("hosts", 1, 0, 200);
        s.done();
        return wrap([&] { return make_hypercube(d, h); });
    }
    if (kind == "dragonfly") {
        DragonflyParams p;
        p.a = s.need("a", 1, 200);
        p.p = s.get("p", 1, 0, 200);
        p.h = s.need("h", 1, 200);
        p.g = s.get("g", 0, 0, 100000);
        s.done();
        return wrap([&] { return make_dragonfly(p); });
    }
    if (kind == "dfplus") {
        DragonflyPlusParams p;
        p.groups = s.need("groups", 1, 10000);
        p.leaves = s.need("leaves", 1, 200);
        p.spines = s.need("spines", 1, 200);
        p.hosts = s.get("hosts", 1, 0, 200);
        s.done();
        return wrap([&] { return make_dragonfly_plus(p); });
    }
    if (kind == "random") {
        RandomParams p;
        p.switches = s.need("switches", 2, 100000);
        p.degree = s.need("degree", 1, 254);
        p.hosts = s.get("hosts", 1, 0, 200);
        p.seed = s.get("seed", 1, 0, 0xFFFFFFFFu);
        s.done();
        return wrap([&] { return make_random_regular(p); });
    }
    throw ParseError(
        kSpecName, 1, col,
        "a generator kary, ftree, ft36, pgft, xgft, torus, mesh, hypercube, dragonfly, dfplus, random",
        std::string(kind));
}

}  // namespace

FailureParams parse_failures(std::string_view spec, const std::string &name) {
    if (spec.empty()) throw ParseError(name, 1, 1, "fail-links=N or fail-switches=N", "empty");
    Spec s = split(spec, "fail", spec, 1, name);
    return failure_params(s);
}

VmParams parse_vm_spec(std::string_view spec, const std::string &name) {
    Spec s = split(spec, "vms", spec, 1, name);
    return vm_params(s);
}

Fabric generate(std::string_view spec) {
    if (spec.empty()) throw ParseError(kSpecName, 1, 1, "a generator spec", "empty");
    std::optional<Fabric> f;
    std::size_t start = 0;
    while (start <= spec.size()) {
        std::size_t end = spec.find('/', start);
        if (end == std::string_view::npos) end = spec.size();
        const std::string_view comp = spec.substr(start, end - start);
        if (comp.empty()) throw ParseError(kSpecName, 1, start + 1, "a spec component", "empty");
        f = one(spec, comp, start + 1, f ? &*f : nullptr);
        start = end + 1;
    }
    return std::move(*f);
}

}  // namespace weft::routing
