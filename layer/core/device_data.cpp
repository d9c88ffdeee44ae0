#include "core/device_data.h"

namespace vkpolyfill {

DispatchMap<DeviceData>& devices() {
    static DispatchMap<DeviceData> map;
    return map;
}

}  // namespace vkpolyfill
