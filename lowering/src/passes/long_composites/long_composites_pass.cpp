#include "passes/long_composites/long_composites_pass.h"

#include <spirv/unified1/spirv.hpp>

#include "passes/long_composites/composite_rewrite.h"
#include "passes/long_composites/continuations.h"
#include "passes/long_composites/index_rewrite.h"
#include "passes/long_composites/split_plan.h"
#include "passes/long_composites/type_rewrite.h"

namespace vkpolyfill::lowering {
namespace {

using namespace long_composites;

class LongCompositesPass final : public Pass {
  public:
    std::string_view name() const override { return "SPV_INTEL_long_composites"; }

    bool run(PassContext& context) override {
        ir::Module& module = context.module;
        std::vector<uint32_t> merged_composites;
        if (!merge_continuations(module, context.types, context.diagnostics, merged_composites)) return false;
        SplitTypes splits = plan_splits(context, merged_composites);
        if (context.diagnostics.has_errors()) return false;
        if (!splits.empty()) {
            if (!rewrite_indexes(module, context.types, splits, context.diagnostics)) return false;
            rewrite_types_section(module, context.types, splits);
            rewrite_constructs(module, splits);
            move_member_annotations(module, splits);
        }
        remove_declarations(module);
        return true;
    }

  private:
    static void remove_declarations(ir::Module& module) {
        std::erase_if(module.capabilities, [](const std::unique_ptr<ir::Instruction>& i) {
            return i->word(1) == spv::CapabilityLongCompositesINTEL;
        });
        std::erase_if(module.extensions, [](const std::unique_ptr<ir::Instruction>& i) {
            return ir::decode_literal_string(i->operand_words()) == "SPV_INTEL_long_composites";
        });
    }
};

}  // namespace

std::unique_ptr<Pass> make_long_composites_pass() { return std::make_unique<LongCompositesPass>(); }

}  // namespace vkpolyfill::lowering
