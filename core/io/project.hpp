#pragma once
// Project files, format v1 (../shared/docs/project-format-v1.md): load with validation, save
// atomically. Every problem is reported with the JSON pointer of the offending field.
#include <stdexcept>
#include <string>
#include <vector>

#include "core/spec/mechanism_spec.hpp"

namespace articula {

// Invalid input. pointer is a JSON pointer ("/joints/2/type"), or "" for the whole document.
struct ProjectError : std::runtime_error {
  ProjectError(std::string pointer_, const std::string& problem)
      : std::runtime_error((pointer_.empty() ? std::string("/") : pointer_) + ": " + problem),
        pointer(std::move(pointer_)) {}
  std::string pointer;
};

struct LoadResult {
  MechanismSpec spec;
  std::vector<std::string>
      warnings;  // e.g. "/bodies/0/pose/quaternion: not unit length; normalised"
};

// Sketched links not connected to ground are saved under /sketch/floating (format v1 requires
// every body to reach ground; docs/format-extensions.md). By default they stay there, as an
// unknown field with a warning; the editor asks for them back as bodies, joints and forces.
struct LoadOptions {
  bool restore_floating = false;
};

// Parse and validate JSON text; throws ProjectError (syntax errors name line and column).
LoadResult parse_project(const std::string& text, const LoadOptions& options = {});
// Read a file; throws ProjectError (pointer "") when it cannot be read.
LoadResult load_project(const std::string& path, const LoadOptions& options = {});

// Bodies not connected to ground, and the joints and forces naming them, go to /sketch/floating.
nlohmann::json to_json(const MechanismSpec& spec);
std::string to_text(const MechanismSpec& spec);  // pretty-printed, 2-space indent, trailing newline
// Atomic: writes a temporary file next to `path`, fsyncs, keeps the file it replaces as
// backup_path(path), renames. Throws std::runtime_error.
void save_project(const MechanismSpec& spec, const std::string& path);
// The disk half of save_project: writes already serialised text with the same guarantees.
void save_text(const std::string& text, const std::string& path);
// Where save_project keeps the previous version: `path` + ".bak".
std::string backup_path(const std::string& path);

}  // namespace articula
