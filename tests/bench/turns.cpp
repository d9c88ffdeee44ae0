#include "turns.h"

#include <stdexcept>
#include <vector>

namespace vkpolyfill::bench {

void take_turns(int rounds, std::span<Contender> contenders) {
    std::vector<bool> out(contenders.size(), false);
    for (int round = 0; round < rounds; ++round) {
        for (size_t i = 0; i < contenders.size(); ++i) {
            const size_t which = round % 2 ? contenders.size() - 1 - i : i;
            if (out[which]) continue;
            try {
                contenders[which].once();
            } catch (const std::runtime_error& e) {
                out[which] = true;
                contenders[which].failed(e.what());
            }
        }
    }
}

}  // namespace vkpolyfill::bench
