#pragma once
// Project documents as JSON in tests: a sample read as JSON, a copy with one value replaced or
// removed, and the check that the loader refuses a document at a JSON pointer with a phrase.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/io/project.hpp"

namespace articula::test {

// samples/<file> of the source tree, parsed.
inline nlohmann::json sample_json(const std::string& file) {
  std::ifstream in(std::string(ARTICULA_SOURCE_DIR) + "/samples/" + file);
  return nlohmann::json::parse(in);
}

// A copy of `doc` with the value at `ptr` replaced (or added).
inline nlohmann::json with(nlohmann::json doc, const std::string& ptr,
                           const nlohmann::json& value) {
  doc[nlohmann::json::json_pointer(ptr)] = value;
  return doc;
}

// A copy of `doc` without the member or array element at `ptr`.
inline nlohmann::json without(nlohmann::json doc, const std::string& ptr) {
  const nlohmann::json::json_pointer p(ptr);
  nlohmann::json& parent = doc.at(p.parent_pointer());
  if (parent.is_array())
    parent.erase(std::stoul(p.back()));
  else
    parent.erase(p.back());
  return doc;
}

// parse_project(text) must throw a ProjectError at `pointer` whose message contains `phrase`.
inline void check_error_text(const std::string& text, const std::string& pointer,
                             const std::string& phrase) {
  INFO("input: " << text.substr(0, 400));
  try {
    (void)parse_project(text);
    FAIL_CHECK("accepted, expected an error at '" << pointer << "'");
  } catch (const ProjectError& e) {
    INFO("message: " << e.what());
    CHECK(e.pointer == pointer);
    CHECK_THAT(std::string(e.what()), Catch::Contains(phrase));
  }
}

inline void check_error(const nlohmann::json& doc, const std::string& pointer,
                        const std::string& phrase) {
  check_error_text(doc.dump(2), pointer, phrase);
}

}  // namespace articula::test
