#include "compile_outcome.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "json_writer.h"

namespace vkpolyfill::bench {
namespace {

constexpr double kSecondsBudget = 10, kMemoryBudgetMiB = 2048;

rusage usage_now() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage;
}

double cpu_seconds(const rusage& u) {
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

std::string number(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

// The figures, times and verdicts of `o` as members of the object `json` is writing.
void write_figures(JsonWriter& json, const Outcome& o) {
    json.key("seconds").value(o.seconds).key("cpu_seconds").value(o.cpu_seconds).key("peak_mib").value(o.peak);
    const test::CompilerFigures& f = o.figures;
    const std::pair<const char*, const std::optional<double>*> figures[] = {
        {"registers", &f.registers}, {"spilled", &f.spilled},           {"scratch", &f.scratch}, {"shared", &f.shared},
        {"occupancy", &f.occupancy}, {"instructions", &f.instructions}, {"cycles", &f.cycles}};
    for (const auto& [name, value] : figures) {
        json.key(name);
        *value ? json.value(**value) : json.null();
    }
    json.key("verdicts").begin_object();
    for (const auto& [budget, met] : o.verdicts()) json.key(budget).value(met);
    json.end_object();
}

}  // namespace

std::map<std::string, bool> Outcome::verdicts() const {
    return {{"created", created()},
            {"time", created() && cpu_seconds <= kSecondsBudget},
            {"memory", created() && peak <= kMemoryBudgetMiB},
            {"spills", created() && figures.spilled && *figures.spilled == 0},
            {"scratch", created() && figures.scratch && *figures.scratch == 0}};
}

Outcome compile(test::Context& context, const std::string& device, const std::function<std::string()>& problems,
                const std::function<VkPipeline(VkPipelineCreateFlags)>& make, const std::function<void()>& release) {
    Outcome out;
    out.device = device;
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = cpu_seconds(usage_now());
    try {
        const VkPipeline pipeline = make(VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR);
        out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        out.cpu_seconds = cpu_seconds(usage_now()) - cpu_start;
        out.statistics = test::read_pipeline_statistics(context.device, context.vk, pipeline);
        release();
    } catch (const std::runtime_error& e) {
        const std::string said = problems();
        out.problem = e.what() + (said.empty() ? "" : " (layer: " + said + ")");
    }
    out.peak = static_cast<double>(usage_now().ru_maxrss) / 1024.0;  // KiB on Linux
    // The figures are the compute or fragment stage's: a graphics pipeline's lowered stage.
    const auto main = std::ranges::find_if(out.statistics, [](const test::ExecutableStatistics& s) {
        return (s.stages & (VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT)) != 0;
    });
    if (main != out.statistics.end()) out.figures = test::compiler_figures(*main);
    return out;
}

void print_json(const CompileSubject& k, const Outcome& o) {
    JsonWriter json;
    json.begin_object().key("kernel").value(k.name).key("what").value(k.what);
    json.key("route").value(k.route).key("device").value(o.device);
    json.key("workgroup").value(k.workgroup).key("problem").value(o.problem);
    write_figures(json, o);
    json.key("executables").begin_array();
    for (const test::ExecutableStatistics& s : o.statistics) {
        json.begin_object().key("name").value(s.name).key("statistics").begin_object();
        for (const auto& [name, value] : s.values) json.key(name).value(value);
        json.end_object().end_object();
    }
    json.end_array().end_object();
    std::printf("%s\n", json.text().c_str());
}

void print_text(const CompileSubject& k, const Outcome& o) {
    std::string about = k.what;
    if (!k.workgroup.empty()) about += (about.empty() ? "" : "; ") + k.workgroup;
    std::printf("%s on %s%s\n", k.name.c_str(), o.device.c_str(), about.empty() ? "" : (" (" + about + ")").c_str());
    if (!o.created()) std::printf("  %s\n", o.problem.c_str());
    for (const test::ExecutableStatistics& s : o.statistics) {
        std::printf("  %s:", s.name.c_str());
        for (const auto& [name, value] : s.values) std::printf(" %s=%s;", name.c_str(), number(value).c_str());
        std::printf("\n");
    }
    std::printf("  created in %.2f s (%.2f s of CPU), process peak %.0f MiB; budgets:", o.seconds, o.cpu_seconds, o.peak);
    for (const auto& [budget, met] : o.verdicts()) std::printf(" %s %s", budget.c_str(), met ? "met" : "NOT met");
    // For scripts/conformance.sh, which keeps it in results.json with the test's case.
    JsonWriter json;
    json.begin_object().key("device").value(o.device).key("route").value(k.route);
    write_figures(json, o);
    json.end_object();
    std::string line;  // the writer's indentation dropped (a string's own line breaks are escaped)
    for (size_t i = 0; i < json.text().size(); ++i) {
        if (json.text()[i] != '\n') {
            line += json.text()[i];
            continue;
        }
        while (i + 1 < json.text().size() && json.text()[i + 1] == ' ') ++i;
    }
    std::printf("\n[ COMPILER ] %s\n", line.c_str());
}

int unmet_budgets(const CompileSubject& k, const Outcome& o, const std::string& expect) {
    int unmet = 0;
    const std::map<std::string, bool> verdicts = o.verdicts();
    std::stringstream budgets(expect);
    for (std::string budget; std::getline(budgets, budget, ',');) {
        const auto found = verdicts.find(budget);
        if (found == verdicts.end()) throw std::invalid_argument("unknown budget '" + budget + "'");
        if (!found->second) {
            std::fprintf(stderr, "%s: the %s budget is not met on %s%s\n", k.name.c_str(), budget.c_str(), o.device.c_str(),
                         o.problem.empty() ? "" : (": " + o.problem).c_str());
            ++unmet;
        }
    }
    return unmet;
}

int expected_refusal(const CompileSubject& k, const Outcome& o, const std::string& said) {
    if (o.created() || said.empty()) {
        std::fprintf(stderr, "%s: expected the layer to refuse it on %s, and it %s\n", k.name.c_str(), o.device.c_str(),
                     o.created() ? "was created" : ("failed otherwise: " + o.problem).c_str());
        return 1;
    }
    // GoogleTest's form, which ctest's skip expression and scripts/conformance.sh read as "not supported".
    std::printf("%s: Skipped\nnot supported: the layer refuses it on %s: %s\n", k.name.c_str(), o.device.c_str(), said.c_str());
    return 0;
}

}  // namespace vkpolyfill::bench
