#include "figures.h"

#include <fstream>
#include <stdexcept>

#include "json_writer.h"

namespace vkpolyfill::bench {

void Figures::add(std::string group, std::string series, std::string unit, const Summary& summary) {
    figures_.push_back({std::move(group), std::move(series), std::move(unit), summary});
}

void Figures::write(const std::string& path) const {
    JsonWriter json;
    json.begin_object().key("capability").value(capability_).key("driver").value(driver_).key("figures").begin_array();
    for (const Figure& f : figures_) {
        json.begin_object().key("group").value(f.group).key("series").value(f.series).key("unit").value(f.unit);
        json.key("count").value(static_cast<double>(f.summary.count)).key("median").value(f.summary.median);
        json.key("min").value(f.summary.min).key("max").value(f.summary.max);
        json.key("q1").value(f.summary.q1).key("q3").value(f.summary.q3).end_object();
    }
    json.end_array().end_object();
    std::ofstream out(path);
    out << json.text() << "\n";
    if (!out) throw std::runtime_error("cannot write " + path);
}

Summary scaled(Summary s, double factor) {
    s.median *= factor;
    s.min *= factor;
    s.max *= factor;
    s.q1 *= factor;
    s.q3 *= factor;
    return s;
}

}  // namespace vkpolyfill::bench
