// Several kernels timed in turns: one timed run of each per round, in reverse order every other
// round. Other load on this machine's two cores changes from second to second and inflates a run's
// CPU time with it; timed one after another, minutes apart, kernels met different load and their
// ratios swung with it (tests/bench/README.md, VK_KHR_cooperative_matrix GEMM); taking turns, they meet
// the same.
#pragma once

#include <functional>
#include <span>
#include <string>

namespace vkpolyfill::bench {

struct Contender {
    std::function<void()> once;                       // one timed run; throws std::runtime_error on failure
    std::function<void(const std::string&)> failed;  // told why it threw; it then sits out the rounds left
};

void take_turns(int rounds, std::span<Contender> contenders);

}  // namespace vkpolyfill::bench
