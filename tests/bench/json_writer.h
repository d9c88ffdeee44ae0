// A small streaming JSON writer (objects, arrays, strings, numbers, booleans), indented.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace vkpolyfill::bench {

class JsonWriter {
  public:
    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    JsonWriter& key(std::string_view name);  // inside an object, before each value
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }  // else value(bool) would take it
    JsonWriter& value(double number);  // NaN and infinities become null
    JsonWriter& value(bool flag);
    JsonWriter& null();

    const std::string& text() const { return out_; }

  private:
    void separate();  // the comma and indentation before a value or key
    void open(char bracket);
    void close(char bracket);

    std::string out_;
    std::vector<bool> empty_;  // per open container: nothing written in it yet
    bool after_key_ = false;
};

}  // namespace vkpolyfill::bench
