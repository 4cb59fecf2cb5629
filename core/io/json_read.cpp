// Field readers shared by the project loaders (see json_read.hpp).
#include "core/io/json_read.hpp"

#include <cmath>

namespace articula::json_read {

std::string at(const std::string& ptr, std::string_view key) {
  return ptr + "/" + std::string(key);
}
std::string at(const std::string& ptr, std::size_t i) {
  return ptr + "/" + std::to_string(i);
}

// Shortest round-trip form, as the file itself would show the number.
std::string show(double v) {
  return json(v).dump();
}

std::string kind(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return "a number";
    case json::value_t::string:
      return "a string";
    case json::value_t::array:
      return "an array";
    case json::value_t::object:
      return "an object";
    default:
      return "an unsupported value";
  }
}

[[noreturn]] void fail(const std::string& ptr, const std::string& problem) {
  throw ProjectError(ptr, problem);
}

const json* find(const json& obj, const char* key) {
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

void expect_object(const json& j, const std::string& ptr) {
  if (!j.is_object()) fail(ptr, "expected an object, got " + kind(j));
}

const json& required(const json& obj, const std::string& ptr, const char* key) {
  const json* v = find(obj, key);
  if (!v) fail(at(ptr, key), "required field is missing");
  return *v;
}

double number(const json& j, const std::string& ptr) {
  if (!j.is_number()) fail(ptr, "expected a number, got " + kind(j));
  const double v = j.get<double>();
  if (!std::isfinite(v)) fail(ptr, "number is not finite");
  return v;
}

double nonnegative(const json& j, const std::string& ptr) {
  const double v = number(j, ptr);
  if (v < 0.0) fail(ptr, "must be >= 0, got " + show(v));
  return v;
}

double positive(const json& j, const std::string& ptr) {
  const double v = number(j, ptr);
  if (!(v > 0.0)) fail(ptr, "must be > 0, got " + show(v));
  return v;
}

// Exactly n numbers; `context` (e.g. " for a spherical joint") explains where n comes from.
std::vector<double> numbers(const json& j, const std::string& ptr, std::size_t n,
                            const std::string& context) {
  const std::string expected =
      "expected " + std::to_string(n) + (n == 1 ? " number" : " numbers") + context;
  if (!j.is_array()) fail(ptr, expected + ", got " + kind(j));
  if (j.size() != n) fail(ptr, expected + ", got " + std::to_string(j.size()));
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = number(j[i], at(ptr, i));
  return v;
}

Vec3 vec3(const json& j, const std::string& ptr) {
  const auto v = numbers(j, ptr, 3);
  return {v[0], v[1], v[2]};
}

std::string string_value(const json& j, const std::string& ptr) {
  if (!j.is_string()) fail(ptr, "expected a string, got " + kind(j));
  return j.get<std::string>();
}

std::string name_value(const json& j, const std::string& ptr) {
  std::string s = string_value(j, ptr);
  if (s.empty()) fail(ptr, "name must not be empty");
  return s;
}

json extra_fields(const json& obj, std::initializer_list<const char*> known) {
  json extra = obj;
  for (const char* key : known) extra.erase(key);
  return extra;
}

}  // namespace articula::json_read
