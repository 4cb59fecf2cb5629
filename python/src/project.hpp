#pragma once
// The Python Project: the editor's document (core/doc: reversible edits with stable ids) with an
// undo history, its file path and load warnings, and the prepared Mechanism cached per revision.
// No pybind11 here; project_bindings.cpp exposes it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/doc/editable_mechanism.hpp"
#include "core/io/run_setup.hpp"

namespace articula::py {

class Project {
 public:
  Project() = default;
  explicit Project(LoadResult loaded, std::string path = {});
  static Project load(const std::string& path, bool restore_floating);
  static Project parse(const std::string& text, bool restore_floating);

  const MechanismSpec& spec() const { return doc_.spec(); }
  EditableMechanism& doc() { return doc_; }
  std::uint64_t revision() const { return doc_.revision(); }

  // Applies an edit built against the current document and records it for undo (the redo list
  // is dropped). Throws what the edit throws; the document is then unchanged.
  void apply(Edit edit);
  // Builds an edit with `build` and applies it; std::invalid_argument from the builder becomes
  // ProjectError(pointer, reason).
  template <class Build>
  void apply_checked(const std::string& pointer, Build build) {
    Edit e;
    try {
      e = build();
    } catch (const std::invalid_argument& x) {
      throw ProjectError(pointer, x.what());
    }
    apply(std::move(e));
  }
  bool undo();
  bool redo();
  std::vector<std::string> undo_labels() const;
  std::vector<std::string> redo_labels() const;

  // prepare() of the current spec (compiled, assembled, mobility), cached until the next edit.
  // Throws ProjectError (graph problems, at /joints) or SetupError.
  std::shared_ptr<const Mechanism> mechanism() const;

  void save(const std::string& path);  // atomic, keeps a .bak (core/io/project.hpp)

  std::string path;                   // the file loaded or last saved, "" if none
  std::vector<std::string> warnings;  // from loading

 private:
  EditableMechanism doc_;
  std::vector<Edit> done_, undone_;
  mutable std::shared_ptr<const Mechanism> mech_;
  mutable std::uint64_t mech_revision_ = 0;
};

}  // namespace articula::py
