#pragma once
// Reading JSON fields with validation, for the project loaders: every problem throws ProjectError
// naming the field by JSON pointer, so each reader states what it expects in one line.
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/project.hpp"

namespace articula::json_read {

using nlohmann::json;

std::string at(const std::string& ptr, std::string_view key);  // ptr + "/" + key
std::string at(const std::string& ptr, std::size_t i);
std::string show(double v);       // shortest round-trip form, as the file would show the number
std::string kind(const json& j);  // "a number", "an object", ... for messages
[[noreturn]] void fail(const std::string& ptr, const std::string& problem);
const json* find(const json& obj, const char* key);  // nullptr when absent
void expect_object(const json& j, const std::string& ptr);
const json& required(const json& obj, const std::string& ptr, const char* key);
double number(const json& j, const std::string& ptr);  // finite
double nonnegative(const json& j, const std::string& ptr);
double positive(const json& j, const std::string& ptr);
// Exactly n numbers; `context` (e.g. " for a spherical joint") explains where n comes from.
std::vector<double> numbers(const json& j, const std::string& ptr, std::size_t n,
                            const std::string& context = "");
Vec3 vec3(const json& j, const std::string& ptr);
std::string string_value(const json& j, const std::string& ptr);
std::string name_value(const json& j, const std::string& ptr);  // a non-empty string
// obj without the known keys: what a later save writes back unchanged.
json extra_fields(const json& obj, std::initializer_list<const char*> known);

}  // namespace articula::json_read
