// Tags the feature bits a device creation enables in the structs of the emulated extensions
// (coverage_tags.h), as "<struct>.<member>" — the names vk.xml gives them, which is where
// scripts/conformance.sh looks them up. A capability's feature struct is added to the list in
// enabled_features.cpp.
#pragma once

namespace vkpolyfill::test {

// `chain`: a VkDeviceCreateInfo's (or VkPhysicalDeviceFeatures2's) pNext chain.
void tag_enabled_features(const void* chain);

}  // namespace vkpolyfill::test
